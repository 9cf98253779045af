"""benchmarks/legal_situations.py: the legal lists' time grouped by the acting seat's situation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import load_file_module

import canasta
from canasta.cards import Deck
from canasta.hand import HandState

SITUATIONS = load_file_module(
    Path(__file__).resolve().parent.parent / "benchmarks" / "legal_situations.py", "legal_situations"
)


def test_every_call_is_counted_once_under_its_situation() -> None:
    rows = SITUATIONS.measure("samba", [], 2, 0)
    calls = sum(row["calls"] for row in rows)
    # The same hands played again, counting the decisions: one legal list per decision.
    rules = canasta.load_rules("samba")
    deck = Deck(rules.deck)
    decisions = 0
    for i in range(2):
        hand = HandState.deal(rules, dealer=rules.players - 1, scores=[0, 0], seed=f"0:{i}", deck=deck)
        randrange = random.Random(f"0:{i}").randrange
        while hand.phase is not canasta.Phase.OVER:
            legal = hand.legal_actions()
            hand.apply(legal[randrange(len(legal))])
            decisions += 1
    assert calls == decisions
    assert abs(sum(row["share"] for row in rows) - 1.0) < 1e-9
    shares = [row["share"] for row in rows]
    assert shares == sorted(shares, reverse=True)  # most expensive first
    situations = {(row["phase"], row["side"], row["bound"], row["three_cards_or_fewer"]) for row in rows}
    assert len(situations) == len(rows)
    assert ("draw", "not opened", False, False) in situations  # every side starts unopened
    assert all(row["legal_per_call"] >= 1 for row in rows)


def test_the_command_line_prints_one_line_per_situation(capsys: pytest.CaptureFixture[str]) -> None:
    assert SITUATIONS.main(["--variant", "classic", "--hands", "1", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out and all(line.startswith("{") for line in out)


def test_the_sides_scores_decide_the_opening_and_the_slowest_call_is_kept() -> None:
    at_9000 = SITUATIONS.measure("brazilian", [], 2, 0, [9000, 9000])
    assert all(row["slowest_us"] >= row["us_per_call"] * 0.999 for row in at_9000)
    # At 9000 an opening needs a clean canasta: the same hands' sides open far later than at 0.
    at_0 = SITUATIONS.measure("brazilian", [], 2, 0)
    opened_at_9000 = sum(row["calls"] for row in at_9000 if row["side"] == "opened")
    assert opened_at_9000 < sum(row["calls"] for row in at_0 if row["side"] == "opened")
    with pytest.raises(ValueError, match="2 sides"):
        SITUATIONS.measure("brazilian", [], 1, 0, [9000])


def test_the_command_line_refuses_bad_scores(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (["--scores", "9000,x"], ["--scores", "1,2,3"]):
        with pytest.raises(SystemExit) as stopped:
            SITUATIONS.main(["--variant", "samba", "--hands", "1", *bad])
        assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "whole numbers" in err and "2 sides" in err
