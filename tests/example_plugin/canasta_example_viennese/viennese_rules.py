"""The Viennese rule hooks: only what differs from classic, as wrappers around its answers."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, canasta.PileRules, canasta.PileRules]:
    """The one-card rule is lifted (SOURCES.md D19)."""
    rules = yield
    return attrs.evolve(rules, one_card_rule=False)


@canasta.hookimpl(wrapper=True)
def canasta_threes() -> Generator[None, canasta.ThreeRules, canasta.ThreeRules]:
    """Red threes count against a side that has no canasta (SOURCES.md D5)."""
    rules = yield
    return attrs.evolve(rules, sign=canasta.ThreeSign.NEGATIVE_WITHOUT_CANASTA)
