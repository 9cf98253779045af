"""benchmarks/random_invariants.py: the soak's scores reach every opening requirement of the rule set it plays."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import load_file_module

import canasta

SOAK = load_file_module(
    Path(__file__).resolve().parent.parent / "benchmarks" / "random_invariants.py", "random_invariants"
)


def _requirement(rules: canasta.Rules, score: int) -> tuple[int, frozenset[canasta.CanastaClass]]:
    return rules.minimums.minimum_for(score), rules.minimums.canastas_for(score)


@pytest.mark.parametrize("variant", ["classic", "modern-american", "cuban", "samba", "bolivia", "brazilian"])
def test_the_scores_drawn_meet_every_requirement_of_the_table(variant: str) -> None:
    rules = canasta.load_rules(variant)
    choices = SOAK.score_choices(rules)
    every = {_requirement(rules, score) for score in range(-1000, 20000, 5)}
    assert {_requirement(rules, score) for score in choices} == every
    # Each step is played at its score and just below it.
    for score, _ in (*rules.minimums.steps, *rules.minimums.canastas):
        if score > 0:
            assert {score - 5, score} <= set(choices)


def test_brazilian_is_soaked_in_its_canasta_bands() -> None:
    choices = SOAK.score_choices(canasta.load_rules("brazilian"))
    assert {6995, 7000, 7995, 8000, 8995, 9000} <= set(choices)
    assert max(SOAK.score_choices(canasta.load_rules("classic"))) == 3000  # (no band of another variant)


def test_a_table_by_deal_has_no_score_step() -> None:
    assert SOAK.score_choices(canasta.load_rules("hand-and-foot")) == [-500, -5, 0]


def test_the_command_line_reports_the_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert SOAK.main(["--variant", "brazilian", "--hands", "2", "--seed", "9000"]) == 0
    out = capsys.readouterr().out
    assert "hands finished:   2 with all invariants holding" in out
    assert "failures:         0" in out
