"""House rule ``rule-of-five`` for modern American canasta (club form).

In the turn of the side's initial meld, wild cards may go into any natural
meld laid or extended that turn (the usual limits), but no mixed canasta may be
completed in that turn. In every later turn a wild card joins a natural meld
only if the meld then holds at least 5 naturals. And while the side's wild meld
is not yet a canasta, no wild card joins any of its natural melds.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import MeldRules
from canasta.rulebook import house_rule_section
from canasta_house_rules._club import canasta_going_out as canasta_going_out  # the club rules' going out

#: Naturals a meld must hold, after the opening turn, for a wild card to join it.
NATURALS_FOR_A_WILD = 5


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """The rule of five, no mixed canasta in the opening turn, and the wild meld first."""
    melds: MeldRules = yield
    return attrs.evolve(
        melds, wilds_need_naturals=NATURALS_FOR_A_WILD, no_mixed_opening_canasta=True, wild_meld_first=True
    )


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A wild card refused by the rule of five cites this house rule's page."""
    return {canasta.RuleCode.RULE_OF_FIVE: house_rule_section("rule-of-five", "Rule of five")}
