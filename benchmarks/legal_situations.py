"""Where the legal lists' time goes, by situation (not a test).

Plays random hands (the same seeds and ``legal[randrange(len(legal))]`` choice as
``bench_random.py``) and times each ``hand.legal_actions()`` call, grouped by the
situation of the acting seat: the phase, whether its side has opened, whether it
is bound by a "yes" to go out, and whether it holds 3 cards or fewer. Prints, per
situation, the calls, the microseconds a call, the legal actions a call, the share
of all legal-list time and the slowest call, most expensive first
(``docs/compiled-engine.md`` quotes it for the sequence games). ``--scores`` deals
every hand at the sides' totals given (their minimums and, in Brazilian canasta,
the canastas an opening needs depend on them; the default is 0 for every side).

Usage::

    python benchmarks/legal_situations.py --variant samba [--hands 200] [--seed 0] [--json]
    python benchmarks/legal_situations.py --variant brazilian --scores 9000,0

Only the public API is used, so it runs against older trees too.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter, defaultdict
from typing import Any

import canasta
from canasta.cards import Deck
from canasta.hand import HandState

#: A situation: (phase name, "opened" or "not opened", bound by a "yes", at most 3 cards held).
Situation = tuple[str, str, bool, bool]


def situation(hand: HandState) -> Situation:
    """The acting seat's situation in ``hand``."""
    seat = hand.seat
    opened = hand.opened[hand.seating[seat]]
    return (hand.phase.name.lower(), "opened" if opened else "not opened", bool(hand.bound), hand.sizes[seat] <= 3)


def measure(
    variant: str, house_rules: list[str], hands: int, seed: int, scores: list[int] | None = None
) -> list[dict[str, Any]]:
    """Play ``hands`` random hands; return one row per situation, most legal-list time first.

    ``scores``: each side's total before every hand (``None``: 0 each).

    Raises:
        ValueError: If ``scores`` does not give one total per side.
    """
    rules = canasta.load_rules(variant, house_rules)
    deck = Deck(rules.deck)
    if scores is None:
        scores = [0] * rules.side_count
    elif len(scores) != rules.side_count:
        raise ValueError(f"{variant} has {rules.side_count} sides: give one score each, not {len(scores)}")
    dealer = rules.players - 1
    perf = time.perf_counter
    seconds: defaultdict[Situation, float] = defaultdict(float)
    calls: Counter[Situation] = Counter()
    listed: Counter[Situation] = Counter()
    slowest: defaultdict[Situation, float] = defaultdict(float)
    for i in range(hands):
        hand = HandState.deal(rules, dealer=dealer, scores=scores, seed=f"{seed}:{i}", deck=deck)
        randrange = random.Random(f"{seed}:{i}").randrange
        while hand.phase is not canasta.Phase.OVER:
            where = situation(hand)
            start = perf()
            legal = hand.legal_actions()
            spent = perf() - start
            seconds[where] += spent
            slowest[where] = max(slowest[where], spent)
            calls[where] += 1
            listed[where] += len(legal)
            if not legal:  # an engine bug: report it rather than hang
                raise SystemExit(f"hand {seed}:{i} reached a state with no legal action")
            hand.apply(legal[randrange(len(legal))])
    total = sum(seconds.values()) or 1.0
    rows: list[dict[str, Any]] = []
    for where in sorted(seconds, key=lambda w: -seconds[w]):
        phase, opened, bound, few = where
        rows.append(
            {
                "phase": phase,
                "side": opened,
                "bound": bound,
                "three_cards_or_fewer": few,
                "calls": calls[where],
                "us_per_call": 1e6 * seconds[where] / calls[where],
                "legal_per_call": listed[where] / calls[where],
                "share": seconds[where] / total,
                "slowest_us": 1e6 * slowest[where],
            }
        )
    return rows


def _describe(row: dict[str, Any]) -> str:
    words = [str(row["phase"]), str(row["side"])]
    if row["bound"]:
        words.append("bound")
    if row["three_cards_or_fewer"]:
        words.append("<= 3 cards")
    return ", ".join(words)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="samba")
    parser.add_argument("--house-rule", action="append", default=[], dest="house_rules")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scores", help="each side's total before every hand, comma-separated (default: 0 each)")
    parser.add_argument("--json", action="store_true", help="print one JSON line per situation")
    args = parser.parse_args(argv)
    scores = None
    if args.scores is not None:
        try:
            scores = [int(part) for part in args.scores.split(",")]
        except ValueError:
            parser.error(f"--scores takes whole numbers separated by commas, not {args.scores!r}")
    try:
        rows = measure(args.variant, args.house_rules, args.hands, args.seed, scores)
    except ValueError as error:
        parser.error(str(error))
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{_describe(row):<36} {row['calls']:>7} calls {row['us_per_call']:9.1f} µs a call "
                f"{row['legal_per_call']:6.1f} legal  {100 * row['share']:5.1f} %  "
                f"slowest {row['slowest_us'] / 1000:8.1f} ms"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
