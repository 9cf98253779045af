"""House rule ``pile-needs-opening`` for Hand and Foot (§8.13): only a side that has opened takes the pile.

A side that has not made its initial meld must open from the hand; the pile
is taken only once it has.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import PileRules
from canasta.rulebook import house_rule_section


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """A side that has not opened may not take the pile."""
    pile: PileRules = yield
    return attrs.evolve(pile, unmelded_side_may_take=False)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A pile take refused to an unopened side cites this house rule's page."""
    return {canasta.RuleCode.PILE_NOT_MELDED: house_rule_section("pile-needs-opening", "Pile needs opening")}
