"""The benchmark of record (issue 14): engine, AEC env and vector env speed in one run, and peak memory (not a test).

Each round measures, in an order that rotates from round to round (the machine
may be shared: interleaving spreads its noise over every figure alike):

- ``compiled`` and ``pure``: random classic hands/s and decisions/s through the
  public ``apply``, each in a fresh process running ``bench_random.py --checked``
  (the pure engine with ``CANASTA_PURE_PYTHON=1``; see ``compare_engines.py``);
- ``aec``: agent-steps/s of the PettingZoo AEC env (``canasta.rl.env``, one hand
  per episode), masked random agents reading the observation and the mask of
  every step through ``env.last()``;
- ``vector N``: agent-steps/s of ``canasta.rl.VectorEnv`` for N = 1, 16, 256
  (one hand per episode, ``copy=False``), actions from
  ``canasta.rl.random_legal_ids`` (one numpy draw per step for all N games).

It prints each round, then the median of every figure against the issue's
targets. Last, the peak resident memory of one process playing ``--rss-hands``
random classic hands (compiled engine, public ``apply``).

Usage::

    python benchmarks/bench_record.py [--rounds 5] [--hands 400] [--env-steps 30000]
        [--rss-hands 10000] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_engines import bench_once

import canasta
import canasta.rl

VECTOR_SIZES: tuple[int, ...] = (1, 16, 256)
#: The issue's targets (one process, a 2-core machine like CI's).
TARGETS: dict[str, float] = {
    "compiled hands/s": 2500.0,
    "aec steps/s": 60000.0,
    "vector 256 steps/s": 150000.0,
}
RSS_TARGET_MIB = 64.0
PURE = {"CANASTA_PURE_PYTHON": "1"}


def aec_rate(steps: int, seed: int) -> float:
    """Agent-steps/s of masked random agents in the AEC env (one hand per episode) over about ``steps`` steps."""
    env = canasta.rl.env("classic", max_hands=1)
    rng = random.Random(seed)
    done = 0
    episode = 0
    start = time.perf_counter()
    while done < steps:
        env.reset(seed=seed + episode)
        episode += 1
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
    return done / (time.perf_counter() - start)


def vector_rate(n: int, steps: int, seed: int) -> float:
    """Agent-steps/s of ``VectorEnv(n)`` (one hand per episode) over about ``steps`` agent steps."""
    venv = canasta.rl.VectorEnv(n, "classic", max_hands=1, copy=False)
    _, infos = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    batches = max(1, steps // n)
    start = time.perf_counter()
    for _ in range(batches):
        _, _, _, _, infos = venv.step(canasta.rl.random_legal_ids(infos["action_mask"], rng))
    return batches * n / (time.perf_counter() - start)


def engine_rate(cwd: str, hands: int, seed: int, pure: bool) -> dict[str, Any]:
    """``bench_random.py --checked`` in a fresh process; the result dict (checked: it ran the engine asked for)."""
    args = argparse.Namespace(split=False, hands=hands, seed=seed, house_rules=[])
    result = bench_once(sys.executable, cwd, "classic", args, extra_env=PURE if pure else None)
    wanted = "pure" if pure else "compiled"
    if result["engine"] != wanted or result["returncode"] or result["stuck_hands"]:
        raise RuntimeError(f"the {wanted} engine run failed or ran the {result['engine']} engine: {result}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=400, help="random hands per engine run")
    parser.add_argument("--env-steps", type=int, default=30000, help="agent steps per env run")
    parser.add_argument("--rss-hands", type=int, default=10000, help="hands of the peak-memory run (0: skip it)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="also print the medians as one JSON line")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.hands < 1 or args.env_steps < 1 or args.rss_hands < 0:
        parser.error("--rounds, --hands and --env-steps must be at least 1, --rss-hands at least 0")
    if not canasta.compiled:
        print("NOTE: this process runs the pure-Python engine: the env figures are the pure engine's")
    print(f"canasta {canasta.__version__} from {canasta.__file__}; {args.rounds} interleaved rounds")

    figures: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="canasta-record-") as cwd:
        runs: list[tuple[str, Callable[[], dict[str, float]]]] = []
        for pure in (False, True):
            name = "pure" if pure else "compiled"

            def engine(pure: bool = pure, name: str = name) -> dict[str, float]:
                result = engine_rate(cwd, args.hands, args.seed, pure)
                return {
                    f"{name} hands/s": result["hands_per_second"],
                    f"{name} decisions/s": result["actions_per_second"],
                }

            runs.append((name, engine))
        runs.append(("aec", lambda: {"aec steps/s": aec_rate(args.env_steps, args.seed)}))
        for n in VECTOR_SIZES:
            runs.append((f"vector {n}", lambda n=n: {f"vector {n} steps/s": vector_rate(n, args.env_steps, args.seed)}))
        for rnd in range(args.rounds):
            shift = rnd % len(runs)
            line = []
            for _name, run in runs[shift:] + runs[:shift]:
                for key, value in run().items():
                    figures.setdefault(key, []).append(value)
                    line.append(f"{key} {value:,.0f}")
            print(f"round {rnd + 1}: " + "; ".join(line), flush=True)

        medians = {key: statistics.median(values) for key, values in figures.items()}
        print(f"\nmedians of {args.rounds} rounds (the machine's load moves every figure; compare ratios):")
        for key in sorted(figures, key=list(figures).index):
            values = figures[key]
            target = TARGETS.get(key)
            versus = f"  target {target:,.0f} ({medians[key] / target:.0%})" if target else ""
            print(f"  {key:<22} {medians[key]:>10,.0f}   ({min(values):,.0f}..{max(values):,.0f}){versus}")
        ratio = medians["compiled hands/s"] / medians["pure hands/s"]
        print(f"  compiled / pure hands/s: {ratio:.2f}x")
        record: dict[str, Any] = {"rounds": args.rounds, "medians": medians}
        if args.rss_hands:
            run_args = argparse.Namespace(split=False, hands=args.rss_hands, seed=args.seed, house_rules=[])
            result = bench_once(sys.executable, cwd, "classic", run_args)
            mib = result["max_rss_kib"] / 1024
            record["rss_mib"] = mib
            print(
                f"peak RSS of a process playing {args.rss_hands:,} random classic hands ({result['engine']} engine): "
                f"{mib:.1f} MiB (target < {RSS_TARGET_MIB:.0f} MiB)"
            )
    if args.json:
        print(json.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
