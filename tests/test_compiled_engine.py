"""One behaviour: the compiled and the pure-Python engine play the same seeded hands identically.

Each engine runs in its own subprocess (the pure one with ``CANASTA_PURE_PYTHON=1``,
which makes ``import canasta`` load the compiled modules' ``.py`` sources) and plays
the same seeded random hands of every built-in variant through the public API: it
digests every legal-action list, every chosen action, every hand score and the
JSON game record. The digests must be equal. Skipped when the compiled engine is
not installed (then there is only one engine to compare).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import canasta
from canasta import _engine

# Run as a script in each subprocess: prints {"compiled": bool, "digests": {variant: sha256}}.
PLAY = r"""
import hashlib, json, random, sys
import canasta
from canasta.records import GameRecorder

VARIANTS = ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american")
HANDS = int(sys.argv[1])
digests = {}
for variant in VARIANTS:
    digest = hashlib.sha256()
    for seed in range(HANDS):
        game = canasta.Game(variant, seed=seed)
        recorder = GameRecorder(game)
        rng = random.Random(seed)
        hands = 0
        while not game.is_over and hands < 2:
            legal = game.legal_actions()
            digest.update(repr(legal).encode())
            action = legal[rng.randrange(len(legal))]
            digest.update(repr(action).encode())
            score = recorder.apply(action)
            if score is not None:
                hands += 1
                digest.update(repr(score).encode())
        digest.update(repr(game.scores).encode())
        digest.update(json.dumps(recorder.record().to_json(), sort_keys=True).encode())
    digests[variant] = digest.hexdigest()
print(json.dumps({"compiled": canasta.compiled, "digests": digests}))
"""

pytestmark = pytest.mark.skipif(
    not canasta.compiled,
    reason="the compiled engine is not installed (pure-Python build, or CANASTA_PURE_PYTHON set): nothing to compare",
)


def _play(pure: bool, hands: int) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != _engine.PURE_ENV}
    if pure:
        env[_engine.PURE_ENV] = "1"
    env["PYTHONHASHSEED"] = "0"
    out = subprocess.run(
        [sys.executable, "-c", PLAY, str(hands)],
        env=env,
        cwd=Path(canasta.__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_both_engines_play_every_variant_identically() -> None:
    compiled = _play(pure=False, hands=30)
    pure = _play(pure=True, hands=30)
    assert compiled["compiled"] is True
    assert pure["compiled"] is False
    assert compiled["digests"] == pure["digests"]


def test_the_pure_switch_reports_the_pure_engine() -> None:
    env = {**os.environ, _engine.PURE_ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-m", "canasta.cli", "--version"], env=env, capture_output=True, text=True, check=False
    )
    assert f"canasta {canasta.__version__} (pure-Python engine" in out.stdout
