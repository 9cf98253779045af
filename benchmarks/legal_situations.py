"""Where the legal lists' time goes, by situation (not a test).

Plays random hands (the same seeds and ``legal[randrange(len(legal))]`` choice as
``bench_random.py``) and times each ``hand.legal_actions()`` call, grouped by the
situation of the acting seat: the phase, whether its side has opened, whether it
is bound by a "yes" to go out, and whether it holds 3 cards or fewer. Prints, per
situation, the calls, the microseconds a call, the legal actions a call and the
share of all legal-list time, most expensive first (``docs/compiled-engine.md``
quotes it for the sequence games).

Usage::

    python benchmarks/legal_situations.py --variant samba [--hands 200] [--seed 0] [--json]

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


def measure(variant: str, house_rules: list[str], hands: int, seed: int) -> list[dict[str, Any]]:
    """Play ``hands`` random hands; return one row per situation, most legal-list time first."""
    rules = canasta.load_rules(variant, house_rules)
    deck = Deck(rules.deck)
    scores = [0] * rules.side_count
    dealer = rules.players - 1
    perf = time.perf_counter
    seconds: defaultdict[Situation, float] = defaultdict(float)
    calls: Counter[Situation] = Counter()
    listed: Counter[Situation] = Counter()
    for i in range(hands):
        hand = HandState.deal(rules, dealer=dealer, scores=scores, seed=f"{seed}:{i}", deck=deck)
        randrange = random.Random(f"{seed}:{i}").randrange
        while hand.phase is not canasta.Phase.OVER:
            where = situation(hand)
            start = perf()
            legal = hand.legal_actions()
            seconds[where] += perf() - start
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
    parser.add_argument("--json", action="store_true", help="print one JSON line per situation")
    args = parser.parse_args(argv)
    rows = measure(args.variant, args.house_rules, args.hands, args.seed)
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{_describe(row):<36} {row['calls']:>7} calls {row['us_per_call']:9.1f} µs a call "
                f"{row['legal_per_call']:6.1f} legal  {100 * row['share']:5.1f} %"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
