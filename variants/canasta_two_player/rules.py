"""The two-player rule hooks (SPEC.md §2): only what differs from classic."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta.rules import GoingOutRules


@canasta.hookimpl
def canasta_players() -> int:
    """Two players (SPEC.md §2)."""
    return 2


@canasta.hookimpl
def canasta_sides(players: int) -> tuple[int, ...]:
    """Each player is a side alone; the minimum follows the player's own score."""
    return tuple(range(players))


@canasta.hookimpl
def canasta_hand_size(players: int) -> int:
    """Fifteen cards each."""
    return 15


@canasta.hookimpl
def canasta_draw_count() -> int:
    """Draw 2 from the stock (a single last stock card counts as a full draw)."""
    return 2


@canasta.hookimpl(wrapper=True)
def canasta_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
    """Two canastas to go out; the rest as classic."""
    going_out: GoingOutRules = yield
    return attrs.evolve(going_out, canastas_required=2)
