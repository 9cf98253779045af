"""House rule ``dead-ranks`` for modern American canasta (club form).

A natural rank is dead for the rest of the hand the moment either side's meld
of it reaches 7 cards: nobody may start a meld of it, add any card to a meld
of it (an incomplete meld of it that the other side holds stays as it is), or
take the pile while a card of it is on top. Cards of a dead rank may still be
discarded. The wild meld is never dead.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import MeldRules
from canasta.rulebook import house_rule_section
from canasta_house_rules._club import canasta_going_out as canasta_going_out  # the club rules' going out


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """A rank closes, for both sides, once a meld of it is a canasta."""
    melds: MeldRules = yield
    return attrs.evolve(melds, closed_at_canasta=True)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A refusal for a dead rank cites this house rule's page."""
    return {canasta.RuleCode.RANK_CLOSED: house_rule_section("dead-ranks", "Dead ranks")}
