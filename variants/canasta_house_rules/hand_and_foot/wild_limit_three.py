"""House rule ``wild-limit-three`` for Hand and Foot (§8.13): more naturals than wild cards, at most 3 wild cards.

A rank meld holds strictly more naturals than wild cards and at most 3 wild
cards (3 cards: 1 wild; 4: 1; 5: 2; 6: 2; 7: 3), instead of at least twice as
many naturals as wild cards; so a dirty book is 4 to 6 naturals and 3 to 1 wild
cards. Wild melds are unaffected.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import MeldRules
from canasta.rulebook import house_rule_section

#: The most wild cards a rank meld holds.
MOST_WILDS = 3


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """Naturals >= wild cards + 1, and at most 3 wild cards."""
    melds: MeldRules = yield
    return attrs.evolve(melds, naturals_per_wild=1, extra_naturals=1, max_wilds=MOST_WILDS)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A meld refused for its wild cards cites this house rule's page."""
    return {canasta.RuleCode.INVALID_MELD: house_rule_section("wild-limit-three", "Wild limit three")}
