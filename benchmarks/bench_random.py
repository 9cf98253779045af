"""Benchmark: random classic hands per second in one process (not a test).

Plays hands of uniformly random legal actions (seeded) through the fast path:
``hand.legal_actions()`` and the engine's unchecked apply (the action comes from
the legal list, so checking it again would only measure the membership test).
The design goal of issue 2 is at least 300 random classic hands per second.

Usage::

    python benchmarks/bench_random.py [--hands N] [--seed S] [--variant NAME] [--house-rule H ...]
    python benchmarks/bench_random.py --checked   # through the public apply(), which re-checks
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import canasta
from canasta.cards import Deck
from canasta.hand import HandState


def run(variant: str, house_rules: list[str], hands: int, seed: int, checked: bool) -> dict[str, float]:
    rules = canasta.load_rules(variant, house_rules)
    deck = Deck(rules.deck)
    scores = [0] * rules.side_count
    dealer = rules.players - 1
    actions = 0
    stuck = 0
    start = time.perf_counter()
    for i in range(hands):
        hand = HandState.deal(rules, dealer=dealer, scores=scores, seed=f"{seed}:{i}", deck=deck)
        rng = random.Random(f"{seed}:{i}")
        randrange = rng.randrange
        apply = hand.apply if checked else hand._apply_unchecked
        while hand.phase is not canasta.Phase.OVER:
            legal = hand.legal_actions()
            if not legal:  # an engine bug: report it rather than hang
                stuck += 1
                break
            apply(legal[randrange(len(legal))])
            actions += 1
        else:
            hand.score()
    elapsed = time.perf_counter() - start
    return {
        "hands": hands,
        "actions": actions,
        "seconds": elapsed,
        "hands_per_second": hands / elapsed,
        "actions_per_second": actions / elapsed,
        "actions_per_hand": actions / hands,
        "stuck_hands": stuck,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--house-rule", action="append", default=[], dest="house_rules")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checked", action="store_true", help="apply through the public, checking apply()")
    args = parser.parse_args(argv)
    result = run(args.variant, args.house_rules, args.hands, args.seed, args.checked)
    label = args.variant + "".join(f" +{h}" for h in args.house_rules)
    print(
        f"{label}: {result['hands']} random hands in {result['seconds']:.2f} s: "
        f"{result['hands_per_second']:.0f} hands/s, {result['actions_per_second']:.0f} actions/s "
        f"({result['actions_per_hand']:.0f} actions/hand)"
    )
    if result["stuck_hands"]:
        print(f"WARNING: {result['stuck_hands']} hands reached a state with no legal action", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
