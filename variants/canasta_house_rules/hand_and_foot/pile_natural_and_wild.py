"""House rule ``pile-natural-and-wild`` for Hand and Foot (§8.13): a natural and a wild card take an unfrozen pile.

A natural top card may also be taken with one natural of its rank and one wild
card, melded with it (the meld obeys §8.4), unless the pile is frozen. Freezing
is classic's (the decided points of §8.13): the pile is frozen for a side that
has not opened, and for everyone while it holds a wild card (a discarded wild
card is turned sideways) or a red three; a frozen pile is taken only with a
natural pair. A wild top card still needs two wild cards of its kind.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import PileRules
from canasta.rulebook import house_rule_section


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """One natural and one wild card take an unfrozen pile; wild cards, red threes and no opening freeze it."""
    pile: PileRules = yield
    return attrs.evolve(
        pile, natural_and_wild=True, wild_freezes=True, red_three_freezes=True, unmelded_side_frozen=True
    )


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A take refused because the pile is frozen cites this house rule's page."""
    return {canasta.RuleCode.PILE_FROZEN: house_rule_section("pile-natural-and-wild", "Pile natural and wild")}
