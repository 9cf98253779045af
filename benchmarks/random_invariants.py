"""Play random hands (classic, or any variant and house rules) with every engine invariant checked after every action.

Not a timed test: a soak run for the rules engine (issue 2, "a random-play run of
2,000 classic hands finishes every hand with all invariants holding").

Usage::

    python benchmarks/random_invariants.py [--hands 2000] [--seed 0] [--all-legal]
        [--variant modern-american] [--house-rule dead-ranks ...]
        [--plugin books_plugin --variant classic-books]

Each hand is dealt at totals drawn from both sides of every step of the rule set's
own opening table (`score_choices`), so every opening requirement is played. After
every action it checks (``tests/helpers.py``): every card in exactly one place, no
duplicate legal actions, a sample of legal actions (or all of them with
``--all-legal``) accepted on copies without dead ends, sampled unlisted actions
refused with the state unchanged, and at the end the score breakdown summing to
the totals. Exit status 1 if any hand failed.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import play_random_hand

import canasta


def score_choices(rules: canasta.Rules) -> list[int]:
    """The totals a side may have before a hand: both sides of every step of the rule set's own opening table.

    Below zero and zero, then each step's score and the score 5 below it, for the count
    minimums and for the canasta bands alike (`MeldMinimums.steps` and `canastas`: samba's
    150 from 7000, Brazilian's canasta from 7000, 8000 and 9000), so that every opening
    requirement of the variant is played. A table by deal has no step: 0 only below 0.
    """
    table = rules.minimums
    steps = {score for score, _ in table.steps} | {score for score, _ in table.canastas}
    return sorted({-500, -5, 0} | {s for step in steps if step > 0 for s in (step - 5, step)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands to play (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--all-legal", action="store_true", help="apply every legal action on a copy at every step")
    parser.add_argument("--illegal", type=int, default=6, help="unlisted actions tried per step (default 6)")
    parser.add_argument("--variant", default="classic", help="variant to play (default classic)")
    parser.add_argument("--house-rule", action="append", default=[], help="a house rule to stack (repeatable)")
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        help="a plugin module to register first, importable from tests/ (e.g. books_plugin; repeatable)",
    )
    args = parser.parse_args(argv)
    for name in args.plugin:
        canasta.register_plugin(importlib.import_module(name), origin=f"tests/{name}.py")
    rules = canasta.load_rules(args.variant, tuple(args.house_rule))

    choices = score_choices(rules)
    ends: Counter[str] = Counter()
    failures: list[tuple[int, str]] = []
    actions = concealed = closed = 0
    totals = Counter[int]()
    start = time.perf_counter()
    for i in range(args.hands):
        seed = args.seed + i
        rng = random.Random(seed)
        scores = [rng.choice(choices) for _ in range(rules.side_count)]
        try:
            state, played = play_random_hand(
                rng,
                seed=seed,
                scores=scores,
                dealer=rng.randrange(rules.players),
                legal_sample=None if args.all_legal else 4,
                illegal_sample=args.illegal,
                rules=rules,
            )
        except Exception as exc:  # report and go on: the summary lists every failing seed
            failures.append((seed, f"{type(exc).__name__}: {exc}"))
            if len(failures) <= 3:
                traceback.print_exc()
            continue
        actions += played
        assert state.end is not None
        ends[state.end.value] += 1
        concealed += state.concealed
        closed += bool(state.closed_ranks)  # (house rule dead-ranks: a rank closed during the hand)
        for side, total in enumerate(state.score().totals):
            totals[side] += total
    elapsed = time.perf_counter() - start
    done = args.hands - len(failures)
    print(f"rules:            {'+'.join([args.variant, *args.house_rule])}")
    print(f"hands played:     {args.hands} (seeds {args.seed}..{args.seed + args.hands - 1})")
    print(f"hands finished:   {done} with all invariants holding")
    print(f"actions checked:  {actions} ({actions / max(done, 1):.0f} per hand)")
    print("hand endings:     " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())) + f" (concealed {concealed})")
    if rules.melds.closed_at_canasta:
        print(f"hands that closed a rank: {closed}")
    print(f"mean hand total:  side 0 {totals[0] / max(done, 1):.0f}, side 1 {totals[1] / max(done, 1):.0f}")
    print(f"time:             {elapsed:.1f} s")
    print(f"failures:         {len(failures)}")
    for seed, message in failures[:20]:
        print(f"  seed {seed}: {message}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
