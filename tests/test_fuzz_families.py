"""Issue 31: the fuzz soak's attack families, bounded in count and time, on the engine that runs.

`benchmarks/fuzz_soak.py` runs them at length (its docstring lists them); here each family
runs a few hundred attempts so that CI sees a regression in any of them.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from helpers import load_file_module

import canasta

SOAK = load_file_module(Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_soak.py", "fuzz_soak")


def _bad(counts: Counter[str]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if k.startswith("untyped") or "break" in k or "failed" in k}


def _positions(variant: str, count: int, seed: int) -> list[canasta.Game]:
    """Games stopped at random points of seeded random play."""
    rng = random.Random(seed)
    games = []
    for i in range(count):
        game = canasta.Game(variant, seed=seed * 100 + i)
        for _ in range(rng.randrange(0, 120)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over:
            games.append(game)
    return games


@pytest.mark.parametrize("variant", ["classic", "cuban", "modern-american-club"])
def test_mutating_returned_values_never_changes_the_engine(variant: str) -> None:
    counts: Counter[str] = Counter()
    rng = random.Random(1)
    for game in _positions(variant, 12, 3):
        SOAK.mutate_returned_values(game, rng, counts)
    assert counts["returned values: mutation attempts"] > 50
    assert _bad(counts) == {}


@pytest.mark.parametrize("variant", ["classic", "two-player", "modern-american"])
def test_copies_and_pickles_of_public_objects_are_equal_and_independent(variant: str) -> None:
    counts: Counter[str] = Counter()
    for game in _positions(variant, 4, 5):
        SOAK.copy_and_pickle(game, counts)
    assert counts["copies: attempts"] >= 4 * 18
    assert _bad(counts) == {}


def test_hostile_seeds_are_refused_or_replay_the_same_game() -> None:
    counts: Counter[str] = Counter()
    rng = random.Random(7)
    for _ in range(60):
        SOAK.hostile_seed(rng, counts)
    assert counts["seeds: refused with a typed error"] > 0
    assert counts["seeds: records read back and replayed"] > 0
    assert _bad(counts) == {}


def test_a_short_soak_of_every_configuration_finds_nothing() -> None:
    counts = SOAK.run(2_000, 11)
    assert counts["refused with a typed error"] > 500
    assert counts["exceptions: round trips"] > 0
    assert _bad(counts) == {}
    assert counts["state changes after a refusal"] == 0


def test_cross_site_and_rebinding_requests_change_no_session() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    counts: Counter[str] = Counter()
    rng = random.Random(3)
    for _ in range(3):
        SOAK.web_requests(rng, counts)
    assert counts["web: cross-site refused (403)"] > 10 and counts["web: rebinding refused (400)"] > 10
    assert _bad(counts) == {}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the family finds worker processes in /proc")
def test_killed_or_stopped_workers_end_the_run_and_leave_no_process() -> None:
    counts: Counter[str] = Counter()
    rng = random.Random(5)
    for _ in range(3):
        SOAK.worker_failure(rng, counts)
    assert counts["workers: runs"] == 3
    assert _bad(counts) == {}
