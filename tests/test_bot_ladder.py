"""benchmarks/bot_ladder.py (issue 16): duplicate deals, the confidence interval and the table."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from helpers import load_file_module

LADDER = load_file_module(Path(__file__).resolve().parent.parent / "benchmarks" / "bot_ladder.py", "bot_ladder")


def test_a_deal_is_played_twice_with_the_sides_swapped() -> None:
    result = LADDER.play_deal("classic", "greedy", "random", 3)
    assert len(result.diffs) == 2
    assert result.a_decisions > 0 and result.b_decisions > 0
    assert result.diffs[0] > 0 and result.diffs[1] > 0  # greedy beats random on this deal from either side


def test_the_summary_has_the_mean_its_interval_and_the_share_won() -> None:
    rows = [LADDER.DealResult((d, d), 0.01, 1, 0.0, 1) for d in (100, -50, 0, 250)]
    summary = LADDER.summarise("a", "b", rows)
    assert summary.deals == 4 and summary.mean == 75.0
    sd = math.sqrt(sum((x - 75.0) ** 2 for x in (100, -50, 0, 250)) / 3)
    assert summary.high - summary.mean == pytest.approx(1.96 * sd / 2)
    assert summary.won == pytest.approx((1 + 0 + 0.5 + 1) / 4)  # a tie counts half
    assert summary.a_ms == pytest.approx(10.0)
    text = LADDER.table("classic", [summary])
    assert "| a | b | 4 | +75 | [-55, +205] | 62% | 10.00 |" in text


def test_three_sides_cannot_be_played_in_duplicate() -> None:
    with pytest.raises(SystemExit, match="duplicate matches need 2"):
        LADDER.play_deal("three-player", "greedy", "random", 1)


def test_two_runs_on_the_same_deals_are_compared_deal_by_deal(tmp_path: Path) -> None:
    before = {s: LADDER.DealResult((d, d), 0.0, 1, 0.0, 1) for s, d in enumerate((100, -50, 0, 250))}
    changes = (10, 30, -10, 50)
    after = {s: LADDER.DealResult((r.diffs[0] + changes[s],) * 2, 0.0, 1, 0.0, 1) for s, r in before.items()}
    after[9] = LADDER.DealResult((5000, 5000), 0.0, 1, 0.0, 1)  # a deal only one run played is left out
    result = LADDER.compare("classic a/b", before, after)
    assert result.deals == 4 and result.before == 75.0 and result.mean == pytest.approx(20.0)
    sd = math.sqrt(sum((x - 20.0) ** 2 for x in (10, 30, -10, 50)) / 3)
    assert result.high - result.mean == pytest.approx(1.96 * sd / 2)
    path = tmp_path / "run.json"
    LADDER.save(str(path), {"classic a/b": before})
    assert LADDER.load(str(path)) == {"classic a/b": before}
    assert "| classic a/b | 4 | +75 | +95 | +20 |" in LADDER.comparison_table([result])
    with pytest.raises(ValueError, match="share no deal"):
        LADDER.compare("x", before, {9: after[9]})


ASKS = load_file_module(Path(__file__).resolve().parent.parent / "benchmarks" / "ask_share.py", "ask_share")


def test_an_ask_at_the_opening_is_futile() -> None:
    import canasta

    rules = canasta.load_rules("classic")
    hand = canasta.HandState.deal(rules, dealer=3, scores=[0, 0], seed=1)
    assert canasta.AskGoOut() in hand.legal_actions()
    assert not ASKS.going_out_possible(hand)


def test_the_search_bot_makes_no_futile_ask() -> None:
    # Issue 32: today's bot asked in about 5% of its decisions, nearly always where it could not go out.
    count = ASKS.count_asks("cuban", "ismcts:6", deals=1, seed=2)
    assert count.decisions > 20 and count.futile == 0
    assert ASKS.count_asks("classic", "greedy", deals=1, seed=2).asks == 0  # greedy never asks


def test_saved_runs_on_other_seeds_are_merged(tmp_path: Path) -> None:
    first = {0: LADDER.DealResult((10, 20), 0.5, 3, 0.0, 3)}
    second = {150: LADDER.DealResult((-5, 5), 0.5, 3, 0.0, 3)}
    LADDER.save(str(tmp_path / "a.json"), {"cuban x/y": first})
    LADDER.save(str(tmp_path / "b.json"), {"cuban x/y": second})
    assert LADDER.load(f"{tmp_path / 'a.json'},{tmp_path / 'b.json'}") == {"cuban x/y": {**first, **second}}
