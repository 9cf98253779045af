"""Profile random hands with cProfile and print the top functions (not a test).

Plays ``--hands`` random hands (the same seeds and the same
``legal[randrange(len(legal))]`` choice as ``bench_random.py --checked``) through
the public ``hand.apply(action)``, with deal, ``legal_actions`` and ``score``,
under cProfile (rules and deck are built before profiling starts), and prints
the top ``--top`` functions by tottime and by cumtime as
``function  file:line  ncalls  tottime  cumtime``.

Usage::

    python benchmarks/profile_random.py [--hands 500] [--variant classic] [--seed 0] [--top 10]
    /work/baseline/.venv/bin/python benchmarks/profile_random.py   # the baseline tree
    python benchmarks/profile_random.py --output prof.out          # also save the raw stats

Only public API is used, so it runs against older trees too. To profile another
tree's ``canasta``, run its interpreter with the working directory outside this
tree (the imported ``canasta.__file__`` is printed first).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

import canasta
from canasta.cards import Deck
from canasta.hand import HandState

# (file, line, function) -> (primitive calls, total calls, tottime, cumtime, callers)
StatEntry = tuple[int, int, float, float, Any]


def play(rules: canasta.Rules, deck: Deck, hands: int, seed: int) -> tuple[int, int]:
    """Play random hands through the public API; return (actions, stuck hands)."""
    scores = [0] * rules.side_count
    dealer = rules.players - 1
    actions = 0
    stuck = 0
    for i in range(hands):
        hand = HandState.deal(rules, dealer=dealer, scores=scores, seed=f"{seed}:{i}", deck=deck)
        randrange = random.Random(f"{seed}:{i}").randrange
        while hand.phase is not canasta.Phase.OVER:
            legal = hand.legal_actions()
            if not legal:
                stuck += 1
                break
            hand.apply(legal[randrange(len(legal))])
            actions += 1
        else:
            hand.score()
    return actions, stuck


def short_location(filename: str, line: int) -> str:
    """``canasta/hand.py:91`` style: the path from the package directory on, or the base name."""
    if filename == "~":  # built-ins
        return "~"
    parts = Path(filename).parts
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "canasta" or parts[i].startswith("canasta_"):
            return f"{'/'.join(parts[i:])}:{line}"
    return f"{Path(filename).name}:{line}"


def _func_name(name: str, width: int) -> str:
    if name.startswith(("<built-in method ", "<method ")):
        name = name.removeprefix("<built-in method ").removeprefix("<method ").rstrip(">")
    return name if len(name) <= width else name[: width - 1] + "…"


def top_table(stats: dict[tuple[str, int, str], StatEntry], key: int, top: int) -> list[str]:
    """Format the ``top`` entries sorted by ``key`` (2 = tottime, 3 = cumtime)."""
    rows = sorted(stats.items(), key=lambda item: item[1][key], reverse=True)[:top]
    lines = [f"  {'function':<34} {'file:line':<34} {'ncalls':>14} {'tottime':>8} {'cumtime':>8}"]
    for (filename, line, name), (cc, nc, tt, ct, _callers) in rows:
        ncalls = str(nc) if nc == cc else f"{nc}/{cc}"
        lines.append(
            f"  {_func_name(name, 34):<34} {short_location(filename, line):<34} {ncalls:>14} {tt:8.3f} {ct:8.3f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--house-rule", action="append", default=[], dest="house_rules")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--output", type=Path, help="also dump the raw pstats data here")
    args = parser.parse_args(argv)
    rules = canasta.load_rules(args.variant, args.house_rules)
    deck = Deck(rules.deck)
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    actions, stuck = play(rules, deck, args.hands, args.seed)
    profiler.disable()
    elapsed = time.perf_counter() - start
    st = pstats.Stats(profiler)
    raw: dict[tuple[str, int, str], StatEntry] = st.stats  # type: ignore[attr-defined]
    label = args.variant + "".join(f" +{h}" for h in args.house_rules)
    print(f"canasta: {canasta.__file__}")
    print(
        f"{label}: {args.hands} hands, {actions} actions ({actions / args.hands:.1f}/hand), "
        f"{st.total_calls} function calls in {elapsed:.2f} s under cProfile "  # type: ignore[attr-defined]
        f"({args.hands / elapsed:.0f} hands/s profiled)"
    )
    print(f"\ntop {args.top} by tottime:")
    print("\n".join(top_table(raw, 2, args.top)))
    print(f"\ntop {args.top} by cumtime:")
    print("\n".join(top_table(raw, 3, args.top)))
    if args.output:
        st.dump_stats(args.output)
        print(f"\nraw stats written to {args.output}")
    if stuck:
        print(f"WARNING: {stuck} hands reached a state with no legal action", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
