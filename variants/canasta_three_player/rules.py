"""The three-player rule hooks: only what differs from classic.

With every player a side of their own, red threes, the minimum and the score
are per player, and there is no permission to ask (the core drops it where no
side has two players).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta.rulebook import variant_sections
from canasta.rules import GoingOutRules


@canasta.hookimpl
def canasta_players() -> int:
    """Three players, each a side alone."""
    return 3


@canasta.hookimpl
def canasta_sides(players: int) -> tuple[int, ...]:
    """Each player is a side alone (no partnerships)."""
    return tuple(range(players))


@canasta.hookimpl
def canasta_hand_size(players: int) -> int:
    """Thirteen cards each."""
    return 13


@canasta.hookimpl
def canasta_draw_count() -> int:
    """Draw 2 from the stock (a single last stock card counts as a full draw)."""
    return 2


@canasta.hookimpl(wrapper=True)
def canasta_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
    """Two canastas to go out; the rest as classic."""
    going_out: GoingOutRules = yield
    return attrs.evolve(going_out, canastas_required=2)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the three-player page of the rule book."""
    return variant_sections("three-player")
