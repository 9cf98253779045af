"""A turn of `canasta play` fits an 80×24 terminal in every variant: table, status, hand, options and prompt."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from rich.console import Console

import canasta
from canasta.actions import Meld, TakePile
from canasta.game import Game
from canasta.hand import Phase
from canasta.terminal import measure_lines, render_help, render_turn

WIDTH, HEIGHT = 80, 24
COMBOS = [(v.name, ()) for v in canasta.available_variants()] + [
    ("three-player", ("cutthroat",)),
    ("classic", ("black-three-freezes",)),
    ("modern-american", ("american-talon",)),
]


def screen_lines(game: Game) -> int:
    """The lines of the turn's screen for the seat to act, each checked to fit the width."""
    seat = game.seat
    names = ["you"] + ["greedy"] * (game.rules.players - 1)
    screen, numbered = render_turn(
        game.observation(seat),
        game.rules,
        game.legal_actions(),
        width=WIDTH,
        height=HEIGHT,
        names=names,
        human_seats=(seat,),
    )
    assert numbered and set(numbered) <= set(game.legal_actions())
    console = Console(width=WIDTH, file=io.StringIO(), color_system=None)
    console.print(screen)
    console.print(f"choose 1-{len(numbered)} or type a command (? for help, q to quit): ")
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert all(len(line) <= WIDTH for line in lines)
    return len(lines)


def meld_favouring_turns(game: Game, rng: random.Random, *, steps: int = 900, every: int = 9) -> Iterator[Game]:
    """Play ``game`` at random favouring melds and takes (big hands, many melds, long option lists).

    Yields the game before every ``every``-th step that is a draw or meld phase.
    """
    for step in range(steps):
        if game.is_over:
            return
        legal = game.legal_actions()
        if game.hand.phase in (Phase.DRAW, Phase.MELD) and step % every == 0:
            yield game
        grow = [a for a in legal if isinstance(a, (Meld, TakePile))]
        game.apply(rng.choice(grow) if grow and rng.random() < 0.7 else rng.choice(legal))


@pytest.mark.parametrize(("variant", "house_rules"), COMBOS, ids=lambda c: c if isinstance(c, str) else "+".join(c))
def test_every_turn_fits_80_by_24(variant: str, house_rules: tuple[str, ...]) -> None:
    """Seeded random play that favours melds and takes (big hands, many melds, long option lists)."""
    worst = 0
    for seed in (1, 3):
        for game in meld_favouring_turns(Game(variant, list(house_rules), seed=seed), random.Random(seed)):
            worst = max(worst, screen_lines(game))
    assert 0 < worst <= HEIGHT


def test_the_help_fits_80_by_24_with_its_prompt() -> None:
    lines = measure_lines(render_help(), WIDTH)
    assert len(lines) + 1 <= HEIGHT and all(len(line) <= WIDTH for line in lines)
