"""canasta.scorelines: a hand's score as lines, each non-zero part with the rule behind it (issue 32.5)."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from canasta import Game
from canasta.bots import make_bot
from canasta.hand import HandState
from canasta.scorelines import NOTED, ROWS, describe_end, score_lines
from canasta.scoring import HandScore
from canasta.terminal import render_hand_score


def first_hand(variant: str, seed: int, bot: str = "random") -> tuple[Game, HandScore, HandState]:
    game = Game(variant, seed=seed)
    bots = {s: make_bot(bot, f"{seed}:{s}") for s in range(game.rules.players)}
    while not game.results:
        hand = game.hand
        game.apply(bots[game.seat].choose(game.hand, game.seat))
    return game, game.results[0], hand


def test_a_held_card_penalty_names_its_rule() -> None:
    # Modern American club: a player ending a hand with three sevens (or aces) costs his side 1500.
    for seed in range(40):
        game, score, hand = first_hand("modern-american-club", seed)
        (penalties,) = [line for line in score_lines(score, game.rules, hand) if line.key == "penalties"]
        held = [reason for reason in penalties.reasons if " held " in reason]
        if held:
            break
    else:
        raise AssertionError("no held-card penalty in 40 hands")
    match = re.search(r"seat (\d) held 3 (sevens|aces) at the end \(3 or more cost 1500\) -1500", held[0])
    assert match, held
    assert "other penalties" not in held[0]  # every point of it is explained
    table = Console(width=100, record=True)
    table.print(render_hand_score(score, game.rules, game.totals_after(0), hand=hand))
    assert match.group(0).split(" at the end")[0] in table.export_text()


CASES = [(v, s) for v in ("classic", "cuban", "modern-american-club") for s in (1, 2)]


@pytest.mark.parametrize(("variant", "seed"), CASES)
def test_only_parts_scored_are_shown_and_each_has_its_reason(variant: str, seed: int) -> None:
    game, score, hand = first_hand(variant, seed, bot="greedy")
    lines = score_lines(score, game.rules, hand)
    keys = [line.key for line in lines]
    assert keys == [key for key, _ in ROWS if key in keys]  # in ROWS order
    for line in lines:
        assert any(line.values)
        assert line.values == tuple(getattr(side, line.key) for side in score.sides)
        for value, reason in zip(line.values, line.reasons, strict=True):
            assert bool(reason) == bool(value), (line, value, reason)
            if line.key in NOTED and value:  # the parts named add up to the value
                parts = [int(re.search(r"([+-]\d+)$", part).group(1)) for part in reason.split("; ")]  # type: ignore[union-attr]
                assert sum(parts) == value, (reason, value)
    omitted = {key for key, _ in ROWS} - set(keys)
    for key in omitted:
        assert not any(getattr(side, key) for side in score.sides)
    if variant == "classic":
        assert "set_aside" not in keys  # classic never sets black threes aside
    assert describe_end(score, game.rules)


def test_without_the_hand_a_line_still_names_its_rule() -> None:
    game, score, _ = first_hand("modern-american-club", 0)
    for line in score_lines(score, game.rules):
        assert all(reason for reason, value in zip(line.reasons, line.values, strict=True) if value)
