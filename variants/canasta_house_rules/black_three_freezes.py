"""House rule ``black-three-freezes``.

A discarded or upcard black three freezes the pile until it is taken, as one
reading of the 1950s rules has it. Where the pile is always frozen (Cuban,
modern American) this changes nothing.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import PileRules
from canasta.rulebook import house_rule_section


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """A black three in the pile freezes it."""
    pile: PileRules = yield
    return attrs.evolve(pile, black_three_freezes=True)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """The frozen pile: a black three freezes it too, so its refusals cite this house rule's page."""
    section = house_rule_section("black-three-freezes", "Black three freezes")
    return {
        canasta.RuleCode.PILE_FROZEN: section,
    }
