"""The six-player rule hooks: only what differs from classic.

Seating needs no hook: classic's alternating sides (``seat % 2``) already put
seats 0, 2, 4 against 1, 3, 5, and the core asks the *next* partner in turn
order for permission to go out.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import DeckSpec, MeldMinimums, ThreeRules
from canasta.rulebook import variant_sections
from canasta.rules import GoingOutRules


@canasta.hookimpl
def canasta_players() -> int:
    """Six players in two partnerships of three."""
    return 6


@canasta.hookimpl
def canasta_deck(players: int) -> DeckSpec:
    """Three 52-card packs and six jokers: 162 cards."""
    return DeckSpec(packs=3, jokers=6)


@canasta.hookimpl
def canasta_hand_size(players: int) -> int:
    """Thirteen cards each."""
    return 13


@canasta.hookimpl(wrapper=True)
def canasta_meld_minimums() -> Generator[None, MeldMinimums, MeldMinimums]:
    """The classic table plus 150 at 7500 or more."""
    minimums: MeldMinimums = yield
    return attrs.evolve(minimums, steps=(*minimums.steps, (7500, 150)))


@canasta.hookimpl(wrapper=True)
def canasta_threes() -> Generator[None, ThreeRules, ThreeRules]:
    """Red threes 100 each up to four, five to one side 1000, all six 1200."""
    threes: ThreeRules = yield
    return attrs.evolve(threes, schedule=(0, 100, 200, 300, 400, 1000, 1200))


@canasta.hookimpl(wrapper=True)
def canasta_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
    """Two canastas to go out; the rest as classic."""
    going_out: GoingOutRules = yield
    return attrs.evolve(going_out, canastas_required=2)


@canasta.hookimpl
def canasta_target_score() -> int:
    """Game to 10000."""
    return 10000


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the six-player page of the rule book."""
    return variant_sections("six-player")
