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
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run_on_engine

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

requires_compiled = pytest.mark.skipif(
    not canasta.compiled,
    reason="the compiled engine is not installed (pure-Python build, or CANASTA_PURE_PYTHON set): nothing to compare",
)


def _play(pure: bool, hands: int) -> dict[str, object]:
    return run_on_engine(PLAY, str(hands), pure=pure)


@requires_compiled
def test_both_engines_play_every_variant_identically() -> None:
    compiled = _play(pure=False, hands=30)
    pure = _play(pure=True, hands=30)
    assert compiled["compiled"] is True
    assert pure["compiled"] is False
    assert compiled["digests"] == pure["digests"]


@requires_compiled
def test_the_pure_switch_reports_the_pure_engine() -> None:
    env = {**os.environ, _engine.PURE_ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-m", "canasta.cli", "--version"], env=env, capture_output=True, text=True, check=False
    )
    assert f"canasta {canasta.__version__} (pure-Python engine" in out.stdout


# The build (setup.py): a compiled engine is kept and reused for unchanged sources only.

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def build_script(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    """setup.py's functions, loaded without building anything (``setup()`` does nothing)."""
    setuptools = pytest.importorskip("setuptools")
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: None)
    monkeypatch.setenv(_engine.PURE_ENV, "1")  # (no compiler probe at load time)
    monkeypatch.setenv("CANASTA_ENGINE_CACHE", str(tmp_path / "cache"))
    return runpy.run_path(str(ROOT / "setup.py"), run_name="canasta_build_script")


def _fake_build(directory: Path) -> dict[str, Path]:
    directory.mkdir()
    built = {}
    for name in ("canasta._engine__mypyc", "canasta.cards"):
        path = directory / f"{name.split('.')[1]}.cpython-311-x86_64-linux-gnu.so"
        path.write_bytes(name.encode() * 100)
        built[name] = path
    return built


def test_a_kept_build_is_found_again_under_its_key_only(build_script: dict[str, Any], tmp_path: Path) -> None:
    built = _fake_build(tmp_path / "built")
    assert build_script["_cached_build"]("k1") is None  # a fresh machine: nothing kept
    build_script["_keep_build"]("k1", built)
    found = build_script["_cached_build"]("k1")
    assert found is not None
    entry, files = found
    assert entry == tmp_path / "cache" / "k1"
    assert {name: (entry / file).read_bytes() for name, file in files.items()} == {
        name: path.read_bytes() for name, path in built.items()
    }
    assert build_script["_cached_build"]("k2") is None  # another key (changed sources) builds again


def test_a_damaged_kept_build_is_not_used(build_script: dict[str, Any], tmp_path: Path) -> None:
    build_script["_keep_build"]("k1", _fake_build(tmp_path / "built"))
    kept = tmp_path / "cache" / "k1" / "cards.cpython-311-x86_64-linux-gnu.so"
    kept.write_bytes(b"truncated")
    assert build_script["_cached_build"]("k1") is None
    kept.unlink()
    assert build_script["_cached_build"]("k1") is None


def test_only_the_newest_builds_are_kept(build_script: dict[str, Any], tmp_path: Path) -> None:
    built = _fake_build(tmp_path / "built")
    keys = [f"k{i}" for i in range(build_script["CACHE_KEEP"] + 2)]
    for i, key in enumerate(keys):
        build_script["_keep_build"](key, built)
        os.utime(tmp_path / "cache" / key, (1_000_000 + i, 1_000_000 + i))
    build_script["_keep_build"](keys[-1], built)  # (the last one kept prunes the oldest)
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == sorted(keys[-build_script["CACHE_KEEP"] :])


def test_the_cache_can_be_turned_off(
    build_script: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CANASTA_ENGINE_CACHE", "0")
    assert build_script["_cache_dir"]() is None
    build_script["_keep_build"]("k1", _fake_build(tmp_path / "built"))
    assert build_script["_cached_build"]("k1") is None
    assert not (tmp_path / "cache").exists()


def test_the_key_changes_with_any_source_of_the_package(build_script: dict[str, Any], tmp_path: Path) -> None:
    # mypyc compiles with the types of the modules the compiled ones import: a change to a pure
    # module (canasta/rules.py) changes the generated C too, so it must change the key.
    package = tmp_path / "src" / "canasta"
    shutil.copytree(ROOT / "canasta", package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    build_script["_cache_key"].__globals__.update(ROOT=package.parent, PACKAGE=package)
    key = build_script["_cache_key"]()
    assert build_script["_cache_key"]() == key  # the same sources, the same key
    rules = package / "rules.py"
    original = rules.read_bytes()
    rules.write_bytes(original + b"\n# an edit\n")
    assert build_script["_cache_key"]() != key
    rules.write_bytes(original)
    assert build_script["_cache_key"]() == key
    (package / "cards.py").write_bytes((package / "cards.py").read_bytes() + b"\n")
    assert build_script["_cache_key"]() != key


def test_a_failed_compile_records_the_pure_engine_and_drops_the_compiled_one_built_before(
    build_script: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # mypyc refusing the sources (a type error) left no extension to build, so setuptools never ran the
    # command's `run`: the old compiled modules stayed beside a record naming the new sources as compiled.
    setuptools = pytest.importorskip("setuptools")
    package = tmp_path / "canasta"
    package.mkdir()
    old = package / "cards.cpython-311-x86_64-linux-gnu.so"
    old.write_bytes(b"an engine compiled from older sources")
    build_ext = build_script["BuildExt"]
    monkeypatch.setitem(build_ext.finalize_options.__globals__, "PACKAGE", package)
    monkeypatch.setitem(build_ext.finalize_options.__globals__, "PURE_REASON", None)

    def refuse() -> list[Any]:
        raise SystemExit(1)  # (what mypyc does on a type error)

    monkeypatch.setattr(build_ext, "_mypycify", staticmethod(refuse))
    extension = setuptools.Extension("canasta._engine__mypyc", sources=[])
    command = build_ext(setuptools.Distribution({"name": "canasta", "ext_modules": [extension]}))
    command.editable_mode = True
    command.build_lib = str(tmp_path / "lib")
    command.ensure_finalized()
    record = json.loads((package / _engine.BUILD_INFO).read_text(encoding="utf-8"))
    assert record["engine"] == "pure" and "mypyc failed" in record["reason"]
    assert not old.exists()  # the pure engine runs: nothing compiled from other sources stays
    assert build_ext.finalize_options.__globals__["BUILD_FAILURE"] == record["reason"]  # (`BuildPy` reads it)
