"""The wild-canasta house rule: wild melds allowed, a wild canasta scores 2000 (SOURCES.md D18)."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, canasta.MeldRules, canasta.MeldRules]:
    """Melds of wild cards only are allowed."""
    rules = yield
    return attrs.evolve(rules, wild_melds=True)


@canasta.hookimpl(wrapper=True)
def canasta_canasta_bonuses() -> Generator[None, canasta.CanastaBonuses, canasta.CanastaBonuses]:
    """A wild canasta scores 2000."""
    rules = yield
    return attrs.evolve(rules, wild=2000)
