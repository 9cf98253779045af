"""The club form's cost against its parent, by the measure of record (not a test; issue 35).

The measure of record is the public calls alone: ``HandState.deal``,
``legal_actions``, ``apply`` and ``score``, each wrapped in
``time.perf_counter()`` by ``bench_random.py --split`` (the copy beside this
script), apart from the benchmark's own random choice and loop. This script runs
it for ``modern-american`` and ``modern-american-club`` under one or more
interpreters (each importing its own tree, e.g. a baseline commit's venv and the
working tree's), with the compiled engine and with the pure one
(``CANASTA_PURE_PYTHON=1``), every run in a fresh process, interleaved: each
round runs every combination once, in an order rotated by round. It prints, per
tree and engine, the median over rounds of the public calls' time per action
and per hand for each variant, the club form's ratio to its parent (per action,
per hand), and the whole-loop rates beside them, with the peak memory of the
club runs.

Usage::

    python benchmarks/club_speed.py --tree new=/tmp/new/.venv/bin/python \\
        --tree base=/tmp/base/.venv/bin/python --rounds 3 --hands 300
    python benchmarks/club_speed.py --tree new=.venv/bin/python --engine pure --json

The subprocesses run in a temporary directory with ``PYTHONHASHSEED=0`` and no
``PYTHONPATH``, so each interpreter imports its own ``canasta`` (printed once).
A tree without the compiled engine reports "pure" for both; the engine each run
used is checked. Exit status 1 if a run failed or a hand got stuck.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().with_name("bench_random.py")
VARIANTS: tuple[str, str] = ("modern-american", "modern-american-club")
PARTS: tuple[str, ...] = ("legal", "apply", "score", "deal")  # the public calls: the measure of record


def _env(engine: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env.pop("CANASTA_PURE_PYTHON", None)
    if engine == "pure":
        env["CANASTA_PURE_PYTHON"] = "1"
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_once(python: str, engine: str, variant: str, hands: int, seed: int, cwd: str) -> dict[str, Any]:
    """One ``bench_random.py --split`` run in a fresh process; its JSON result with the public calls' seconds."""
    cmd = [python, str(BENCH), "--split", "--json", "--variant", variant, "--hands", str(hands), "--seed", str(seed)]
    proc = subprocess.run(cmd, cwd=cwd, env=_env(engine), capture_output=True, text=True, check=False)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode or not lines:
        raise RuntimeError(f"{' '.join(cmd)} ({engine}) exited {proc.returncode}:\n{proc.stderr.strip()}")
    result: dict[str, Any] = json.loads(lines[-1])
    result["public_seconds"] = sum(result[f"{part}_seconds"] for part in PARTS)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree", action="append", required=True, metavar="NAME=PYTHON", help="an interpreter and its label"
    )
    parser.add_argument("--engine", action="append", choices=("compiled", "pure"), help="default: both")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="also print the table as one JSON line")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.hands < 1:
        parser.error("--rounds and --hands must be at least 1")
    trees: list[tuple[str, str]] = []
    for spec in args.tree:
        name, sep, python = spec.partition("=")
        if not sep or not name or not python:
            parser.error(f"--tree takes NAME=PYTHON, not {spec!r}")
        trees.append((name, python))
    engines: list[str] = args.engine or ["compiled", "pure"]
    combos = [(tree, engine, variant) for tree in trees for engine in engines for variant in VARIANTS]
    runs: dict[tuple[str, str, str], list[dict[str, Any]]] = {(t[0], e, v): [] for t, e, v in combos}
    with tempfile.TemporaryDirectory(prefix="canasta-club-speed-") as cwd:
        for name, python in trees:
            out = subprocess.run(
                [python, "-c", "import canasta; print(canasta.__file__)"],
                cwd=cwd,
                env=_env("compiled"),
                capture_output=True,
                text=True,
                check=False,
            )
            print(f"{name:<10} {python}: imports {out.stdout.strip() or out.stderr.strip()}")
        print(f"bench: {BENCH} --split --hands {args.hands} --seed {args.seed}, {args.rounds} rounds, interleaved\n")
        for rnd in range(args.rounds):
            shift = rnd % len(combos)
            for (name, python), engine, variant in combos[shift:] + combos[:shift]:
                try:
                    result = run_once(python, engine, variant, args.hands, args.seed, cwd)
                except (RuntimeError, OSError, json.JSONDecodeError) as exc:
                    print(f"ERROR: {exc}", file=sys.stderr)
                    return 1
                if result["stuck_hands"]:
                    print(f"ERROR: {name} {engine} {variant}: {result['stuck_hands']} stuck hands", file=sys.stderr)
                    return 1
                runs[(name, engine, variant)].append(result)

    table: list[dict[str, Any]] = []
    header = (
        f"{'tree':<10} {'engine':<9} {'variant':<22} {'us/action':>10} {'ms/hand':>8} {'actions/hand':>12}"
        f" {'loop h/s':>9} {'loop a/s':>9} {'peak MiB':>9}"
    )
    print(header)
    print("-" * len(header))
    for name, _ in trees:
        for engine in engines:
            row: dict[str, Any] = {"tree": name, "engine": engine}
            for variant in VARIANTS:
                results = runs[(name, engine, variant)]
                per_action = statistics.median(1e6 * r["public_seconds"] / r["actions"] for r in results)
                per_hand = statistics.median(1e3 * r["public_seconds"] / r["hands"] for r in results)
                engines_seen = {r["engine"] for r in results}
                row[variant] = {
                    "us_per_action": per_action,
                    "ms_per_hand": per_hand,
                    "actions_per_hand": results[0]["actions_per_hand"],
                    "loop_hands_per_second": statistics.median(r["hands_per_second"] for r in results),
                    "loop_actions_per_second": statistics.median(r["actions_per_second"] for r in results),
                    "peak_mib": max(r["max_rss_kib"] for r in results) / 1024,
                    "engine_reported": sorted(engines_seen),
                }
                v = row[variant]
                print(
                    f"{name:<10} {engine:<9} {variant:<22} {per_action:10.2f} {per_hand:8.3f}"
                    f" {v['actions_per_hand']:12.1f} {v['loop_hands_per_second']:9.0f}"
                    f" {v['loop_actions_per_second']:9.0f} {v['peak_mib']:9.1f}"
                    + ("" if engines_seen == {engine} else f"  (ran {', '.join(sorted(engines_seen))})")
                )
            parent, club = row[VARIANTS[0]], row[VARIANTS[1]]
            row["club_per_action"] = club["us_per_action"] / parent["us_per_action"]
            row["club_per_hand"] = club["ms_per_hand"] / parent["ms_per_hand"]
            ratios = f"{row['club_per_action']:9.2f}x {row['club_per_hand']:7.2f}x"
            print(f"{name:<10} {engine:<9} {'club / parent':<22} {ratios}")
            table.append(row)
    if args.json:
        print(json.dumps({"hands": args.hands, "rounds": args.rounds, "rows": table}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
