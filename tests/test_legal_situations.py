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
