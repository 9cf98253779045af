"""House rule ``black-three-freezes`` (SPEC.md §1 rule options).

A discarded or upcard black three freezes the pile until it is taken, as one
reading of the 1950s rules has it. Where the pile is always frozen (Cuban,
modern American) this changes nothing.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import PileRules


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """A black three in the pile freezes it."""
    pile: PileRules = yield
    return attrs.evolve(pile, black_three_freezes=True)
