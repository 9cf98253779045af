"""House rule ``splash`` for modern American canasta (pagat's option; not in the club form).

In the turn of the side's initial meld, a 7-card canasta laid entirely from
the hand, natural (any rank, sevens and aces included) or all wild, completes
the opening with neither the minimum count nor the clean meld. A mixed
canasta never does, and the meld of the pile's top card taken that turn is not
laid from the hand. Talon entitlement (``american-talon``) is unchanged.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import InitialMeldRules
from canasta.rulebook import house_rule_section
from canasta_house_rules._club import canasta_going_out as canasta_going_out  # the club rules' going out


@canasta.hookimpl(wrapper=True)
def canasta_initial_meld() -> Generator[None, InitialMeldRules, InitialMeldRules]:
    """A natural or wild canasta from the hand opens without the minimum or the clean meld."""
    initial: InitialMeldRules = yield
    return attrs.evolve(initial, splash=True)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A refused opening cites this house rule's page (it changes what completes one)."""
    section = house_rule_section("splash", "Splash")
    return {canasta.RuleCode.MINIMUM_NOT_MET: section, canasta.RuleCode.CLEAN_MELD_REQUIRED: section}
