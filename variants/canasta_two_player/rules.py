"""The two-player rule hooks: only what differs from classic."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta.rulebook import variant_sections
from canasta.rules import GoingOutRules


@canasta.hookimpl
def canasta_players() -> int:
    """Two players, each a side alone."""
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


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the two-player page of the rule book."""
    return variant_sections("two-player")
