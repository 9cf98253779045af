"""Compare random-hand speed of two source trees, interleaved, in fresh processes (not a test).

Runs ``bench_random.py`` (the copy beside this script) with ``--checked --json``
under two interpreters, each of which imports ``canasta`` from its own tree
(e.g. a venv with an editable install of the baseline worktree and one of the
working tree). For each variant and round it runs both, alternating the order
by round (new, baseline / baseline, new / ...), each in a new subprocess, and
prints per variant the median hands/s and actions/s of each side and the ratio
new / baseline of the median hands/s; then a final table.

Usage::

    python benchmarks/compare_engines.py \\
        --baseline-python /work/baseline/.venv/bin/python \\
        --new-python /work/main/.venv/bin/python --rounds 5 --hands 500
    python benchmarks/compare_engines.py ... --variant classic --variant cuban
    python benchmarks/compare_engines.py ... --split   # time split (legal/apply/score) instead of --checked

The subprocesses run with their working directory in a temporary directory,
``PYTHONPATH`` removed and ``PYTHONHASHSEED=0``, so that neither the working tree
nor the caller's path shadows the interpreter's own ``canasta``; the imported
``canasta.__file__`` of each side is printed once and checked on every run.
Both sides play the same seeded hands; if their actions per hand differ, the
engines do not play the same game and a note says so. Exit status 1 if a run
failed or a hand got stuck.
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

VARIANTS: tuple[str, ...] = ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american")
BENCH = Path(__file__).resolve().with_name("bench_random.py")
SIDES: tuple[str, ...] = ("new", "baseline")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def canasta_file(python: str, cwd: str) -> str:
    """Return ``canasta.__file__`` as imported by ``python`` run in ``cwd``."""
    out = subprocess.run(
        [python, "-c", "import canasta; print(canasta.__file__)"],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        raise RuntimeError(f"{python} cannot import canasta:\n{out.stderr.strip()}")
    return out.stdout.strip()


def bench_once(
    python: str, cwd: str, variant: str, args: argparse.Namespace, extra_env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run bench_random.py once in a fresh process (``extra_env`` added to its environment); return its JSON result."""
    cmd = [python, str(BENCH), "--split" if args.split else "--checked", "--json"]
    cmd += ["--variant", variant, "--hands", str(args.hands), "--seed", str(args.seed)]
    for rule in args.house_rules:
        cmd += ["--house-rule", rule]
    proc = subprocess.run(
        cmd, cwd=cwd, env={**_env(), **(extra_env or {})}, capture_output=True, text=True, check=False
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr.strip()}")
    result: dict[str, Any] = json.loads(lines[-1])
    result["returncode"] = proc.returncode
    return result


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(float(r[key]) for r in runs))


def _spread(runs: list[dict[str, Any]], key: str) -> str:
    values = [r[key] for r in runs]
    return f"{min(values):.0f}..{max(values):.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-python", required=True, help="interpreter that imports the baseline canasta")
    parser.add_argument("--new-python", required=True, help="interpreter that imports the new canasta")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--variant", action="append", dest="variants", help=f"repeatable; default all of: {', '.join(VARIANTS)}"
    )
    parser.add_argument("--house-rule", action="append", default=[], dest="house_rules")
    parser.add_argument("--split", action="store_true", help="run bench_random.py --split instead of --checked")
    parser.add_argument("--json", action="store_true", help="also print the summary as one JSON line at the end")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.hands < 1:
        parser.error("--rounds and --hands must be at least 1")
    variants: list[str] = args.variants or list(VARIANTS)
    pythons = {"new": args.new_python, "baseline": args.baseline_python}
    status = 0

    with tempfile.TemporaryDirectory(prefix="canasta-compare-") as cwd:
        try:
            files = {side: canasta_file(pythons[side], cwd) for side in SIDES}
        except (RuntimeError, OSError) as exc:
            print(f"ERROR: {exc}", file=sys.stderr)
            return 1
        for side in SIDES:
            print(f"{side:<8} {pythons[side]}\n         imports {files[side]}")
        if files["new"] == files["baseline"]:
            print("NOTE: both sides import the same canasta (a dry run?)")
        mode = "--split" if args.split else "--checked"
        print(f"bench: {BENCH} {mode} --hands {args.hands} --seed {args.seed}, {args.rounds} rounds, cwd {cwd}\n")

        summary: list[dict[str, Any]] = []
        for variant in variants:
            runs: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
            for rnd in range(args.rounds):
                order = SIDES if rnd % 2 == 0 else SIDES[::-1]
                for side in order:
                    try:
                        result = bench_once(pythons[side], cwd, variant, args)
                    except (RuntimeError, OSError, json.JSONDecodeError) as exc:
                        print(f"ERROR: {variant} {side} round {rnd + 1}: {exc}", file=sys.stderr)
                        return 1
                    if result["canasta_file"] != files[side]:
                        print(
                            f"ERROR: {side} imported {result['canasta_file']}, expected {files[side]}", file=sys.stderr
                        )
                        return 1
                    if result["stuck_hands"] or result["returncode"]:
                        print(
                            f"WARNING: {variant} {side} round {rnd + 1}: {result['stuck_hands']} stuck hands, "
                            f"exit {result['returncode']}",
                            file=sys.stderr,
                        )
                        status = 1
                    runs[side].append(result)
            row: dict[str, Any] = {"variant": variant}
            for side in SIDES:
                row[f"{side}_hands_per_second"] = _median(runs[side], "hands_per_second")
                row[f"{side}_actions_per_second"] = _median(runs[side], "actions_per_second")
                row[f"{side}_actions_per_hand"] = runs[side][0]["actions_per_hand"]
                row[f"{side}_hands_per_second_all"] = [r["hands_per_second"] for r in runs[side]]
                if args.split:
                    for part in ("legal", "apply", "score"):
                        row[f"{side}_{part}_percent"] = _median(runs[side], f"{part}_percent")
            row["ratio"] = row["new_hands_per_second"] / row["baseline_hands_per_second"]
            row["same_play"] = row["new_actions_per_hand"] == row["baseline_actions_per_hand"]
            summary.append(row)
            print(f"{variant}:")
            for side in SIDES:
                extra = ""
                if args.split:
                    extra = "  " + ", ".join(
                        f"{part} {row[f'{side}_{part}_percent']:.0f} %" for part in ("legal", "apply", "score")
                    )
                print(
                    f"  {side:<8} {row[f'{side}_hands_per_second']:7.0f} hands/s "
                    f"({_spread(runs[side], 'hands_per_second')})  "
                    f"{row[f'{side}_actions_per_second']:8.0f} actions/s  "
                    f"{row[f'{side}_actions_per_hand']:.1f} actions/hand{extra}"
                )
            print(f"  new/baseline hands/s: {row['ratio']:.2f}x")
            if not row["same_play"]:
                print("  NOTE: actions per hand differ: the two engines do not play the same hands")

    print(f"\nmedians of {args.rounds} rounds x {args.hands} hands ({mode}):")
    header = (
        f"{'variant':<16} {'base h/s':>9} {'new h/s':>9} {'new/base':>9} {'base a/s':>10} {'new a/s':>10}  same play"
    )
    print(header)
    print("-" * len(header))
    for row in summary:
        print(
            f"{row['variant']:<16} {row['baseline_hands_per_second']:9.0f} {row['new_hands_per_second']:9.0f} "
            f"{row['ratio']:8.2f}x {row['baseline_actions_per_second']:10.0f} {row['new_actions_per_second']:10.0f}"
            f"  {'yes' if row['same_play'] else 'NO'}"
        )
    ratios = [row["ratio"] for row in summary]
    geomean = statistics.geometric_mean(ratios)
    print(f"{'geometric mean':<16} {'':>9} {'':>9} {geomean:8.2f}x")
    if args.json:
        print(json.dumps({"files": files, "rounds": args.rounds, "hands": args.hands, "variants": summary}))
    return status


if __name__ == "__main__":
    sys.exit(main())
