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
