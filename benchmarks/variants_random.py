"""Play random hands of every variant (and house rule) with the engine's invariants checked.

A soak run for issue 3: "1,000 random hands of each variant finish with all
invariants holding".

Usage::

    python benchmarks/variants_random.py [--hands 1000] [--seed 0] [--every 1] [--only cuban]

Each hand is dealt with random cumulative scores (so every minimum band is
used) and played with random legal actions, biased towards melds and pile takes.
After every ``--every``-th action it runs `canasta.testing.check_all`: every card
in exactly one place (108, or 162 for six players and the sequence games), listed actions accepted on
copies, sampled unlisted actions refused with a rule code and nothing changed,
observations hiding what they must, copies independent, and at the end of the
hand the score breakdown adding up. A hand must finish within 20,000 actions.
Exit status 1 if any hand failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter

import canasta
from canasta.testing import check_all, check_conservation, random_play


def _combos() -> list[tuple[str, tuple[str, ...]]]:
    """Every built-in variant alone and with each house rule that fits it, then classic's stack."""
    registry = canasta.default_registry()
    combos: list[tuple[str, tuple[str, ...]]] = []
    for variant in BUILT_IN:
        combos.append((variant, ()))
        rules = sorted(h.name for h in registry.house_rules())
        combos.extend((variant, (rule,)) for rule in rules if registry.fits(rule, variant))
    combos.append(("classic", ("black-three-freezes", "wilds-at-most-naturals", "last-red-three-may-meld")))
    return combos


BUILT_IN = (
    "classic",
    "two-player",
    "three-player",
    "six-player",
    "cuban",
    "modern-american",
    "samba",
    "bolivia",
    "brazilian",
)


def play_hand(rules: canasta.Rules, seed: int, every: int) -> tuple[str, int]:
    """Play one random hand with invariant checks; return how it ended and its length."""
    rng = random.Random(seed)
    scores = [rng.choice([-500, 0, 1500, 3000, 5000, 7500]) for _ in range(rules.side_count)]
    state = canasta.HandState.deal(rules, dealer=rng.randrange(rules.players), scores=scores, seed=seed)
    actions = 0
    while not state.is_over:
        if actions % every == 0:
            check_all(state, rng, legal_sample=2, illegal_sample=4)
        random_play(state, rng, 1, meld_bias=0.6)
        actions += 1
        if actions > 20_000:
            raise AssertionError("a hand did not finish in 20,000 actions")
    check_conservation(state)
    check_all(state, rng)
    assert sum(len(c) for c in state.card_locations().values()) == rules.deck.size
    assert state.end is not None
    return state.end.value, actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per variant (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--every", type=int, default=1, help="check the invariants every N actions (default 1)")
    parser.add_argument("--only", default=None, help="play only this variant")
    args = parser.parse_args(argv)
    failures = 0
    for variant, house_rules in _combos():
        if args.only and variant != args.only:
            continue
        rules = canasta.load_rules(variant, house_rules)
        name = "+".join([variant, *house_rules])
        ends: Counter[str] = Counter()
        total_actions = 0
        start = time.perf_counter()
        for i in range(args.hands):
            seed = args.seed + i
            try:
                end, actions = play_hand(rules, seed, args.every)
            except Exception:
                failures += 1
                print(f"FAIL {name} seed {seed}", file=sys.stderr)
                traceback.print_exc()
                continue
            ends[end] += 1
            total_actions += actions
        elapsed = time.perf_counter() - start
        print(
            f"{name:75s} hands {sum(ends.values()):5d}  actions {total_actions:8d}  "
            f"{elapsed:6.1f}s  ends {dict(sorted(ends.items()))}"
        )
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
