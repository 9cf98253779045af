"""Benchmark: random classic hands per second in one process (not a test).

Plays hands of uniformly random legal actions (seeded) through the fast path:
``hand.legal_actions()`` and the engine's unchecked apply (the action comes from
the legal list, so checking it again would only measure the membership test).
The design goal of issue 2 is at least 300 random classic hands per second.

Usage::

    python benchmarks/bench_random.py [--hands N] [--seed S] [--variant NAME] [--house-rule H ...]
    python benchmarks/bench_random.py --checked   # through the public apply(), which re-checks
    python benchmarks/bench_random.py --split     # public apply(), time split: legal / apply / score
    python benchmarks/bench_random.py --all-variants --checked   # the six variants one after another
    python benchmarks/bench_random.py --checked --json           # one JSON line per variant

``--split`` plays exactly the same hands as ``--checked`` (same seeds, same
``legal[randrange(len(legal))]`` choice) and wraps each ``hand.legal_actions()``,
``hand.apply(action)``, ``hand.score()`` and ``HandState.deal`` call in
``time.perf_counter()``; "other" is the rest (the random choice, the loop and
the timer calls themselves), so its overall rate is a little below ``--checked``.

Only the public API is used (``canasta.load_rules``, ``canasta.cards.Deck``,
``canasta.hand.HandState.deal``, ``legal_actions``, ``apply``, ``score``,
``canasta.Phase``; the unchecked fast path also uses ``_apply_unchecked``), so
the same file runs against older source trees (see ``compare_engines.py``).
Exit status 1 if a hand reached a state with no legal action.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import sys
import time
from typing import Any

import canasta
from canasta.cards import Deck
from canasta.hand import HandState

VARIANTS: tuple[str, ...] = ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american")


def _meta(variant: str, house_rules: list[str], hands: int, seed: int, mode: str) -> dict[str, Any]:
    return {
        "variant": variant,
        "house_rules": list(house_rules),
        "mode": mode,
        "seed": seed,
        "hands": hands,
        "python": platform.python_version(),
        "canasta_file": canasta.__file__,
        # Older source trees (compare_engines.py) have no compiled engine.
        "engine": "compiled" if getattr(canasta, "compiled", False) else "pure",
        "max_rss_kib": peak_rss_kib(),
    }


def peak_rss_kib() -> int:
    """Peak resident memory of this process so far, in KiB.

    Linux's ``VmHWM`` when there is one: ``ru_maxrss`` survives ``exec``, so a
    process started by a big parent would report the parent's size.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # macOS reports bytes


def run(variant: str, house_rules: list[str], hands: int, seed: int, checked: bool) -> dict[str, Any]:
    """Play ``hands`` random hands; return counts and rates (whole loop timed at once)."""
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
    result = _meta(variant, house_rules, hands, seed, "checked" if checked else "unchecked")
    result.update(
        actions=actions,
        seconds=elapsed,
        hands_per_second=hands / elapsed,
        actions_per_second=actions / elapsed,
        actions_per_hand=actions / hands,
        stuck_hands=stuck,
    )
    return result


def run_split(variant: str, house_rules: list[str], hands: int, seed: int) -> dict[str, Any]:
    """Play the same hands as ``run(..., checked=True)``, timing each public call separately."""
    rules = canasta.load_rules(variant, house_rules)
    deck = Deck(rules.deck)
    scores = [0] * rules.side_count
    dealer = rules.players - 1
    over = canasta.Phase.OVER
    deal = HandState.deal
    perf = time.perf_counter
    actions = 0
    stuck = 0
    t_deal = t_legal = t_apply = t_score = 0.0
    start = perf()
    for i in range(hands):
        t0 = perf()
        hand = deal(rules, dealer=dealer, scores=scores, seed=f"{seed}:{i}", deck=deck)
        t_deal += perf() - t0
        rng = random.Random(f"{seed}:{i}")
        randrange = rng.randrange
        apply = hand.apply
        legal_actions = hand.legal_actions
        while hand.phase is not over:
            t0 = perf()
            legal = legal_actions()
            t1 = perf()
            t_legal += t1 - t0
            if not legal:  # an engine bug: report it rather than hang
                stuck += 1
                break
            action = legal[randrange(len(legal))]
            t2 = perf()
            apply(action)
            t_apply += perf() - t2
            actions += 1
        else:
            t0 = perf()
            hand.score()
            t_score += perf() - t0
    elapsed = perf() - start
    parts = {"legal": t_legal, "apply": t_apply, "score": t_score, "deal": t_deal}
    parts["other"] = max(0.0, elapsed - sum(parts.values()))
    result = _meta(variant, house_rules, hands, seed, "split")
    result.update(
        actions=actions,
        seconds=elapsed,
        hands_per_second=hands / elapsed,
        actions_per_second=actions / elapsed,
        actions_per_hand=actions / hands,
        stuck_hands=stuck,
    )
    for name, seconds in parts.items():
        result[f"{name}_seconds"] = seconds
        result[f"{name}_percent"] = 100.0 * seconds / elapsed
    result["legal_us_per_action"] = 1e6 * t_legal / actions if actions else 0.0
    result["apply_us_per_action"] = 1e6 * t_apply / actions if actions else 0.0
    result["score_us_per_hand"] = 1e6 * t_score / hands
    return result


def _report(result: dict[str, Any]) -> str:
    label = result["variant"] + "".join(f" +{h}" for h in result["house_rules"])
    line = (
        f"{label}: {result['hands']} random hands in {result['seconds']:.2f} s: "
        f"{result['hands_per_second']:.0f} hands/s, {result['actions_per_second']:.0f} actions/s "
        f"({result['actions_per_hand']:.0f} actions/hand)"
    )
    if result["mode"] != "split":
        return line
    lines = [line + " [split, public apply]"]
    for name in ("legal", "apply", "score", "deal", "other"):
        lines.append(f"  {name:<6} {result[f'{name}_seconds']:8.3f} s  {result[f'{name}_percent']:5.1f} %")
    lines.append(
        f"  per action: legal_actions {result['legal_us_per_action']:.1f} µs,"
        f" apply {result['apply_us_per_action']:.1f} µs; per hand: score {result['score_us_per_hand']:.1f} µs"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--all-variants", action="store_true", help=f"run all of: {', '.join(VARIANTS)}")
    parser.add_argument("--house-rule", action="append", default=[], dest="house_rules")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checked", action="store_true", help="apply through the public, checking apply()")
    parser.add_argument(
        "--split", action="store_true", help="public apply(); report time in legal_actions / apply / score"
    )
    parser.add_argument("--json", action="store_true", help="print each result dict as one JSON line")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    variants = list(VARIANTS) if args.all_variants else [args.variant]
    status = 0
    for variant in variants:
        if args.split:
            result = run_split(variant, args.house_rules, args.hands, args.seed)
        else:
            result = run(variant, args.house_rules, args.hands, args.seed, args.checked)
        print(json.dumps(result) if args.json else _report(result), flush=True)
        if result["stuck_hands"]:
            print(
                f"WARNING: {variant}: {result['stuck_hands']} hands reached a state with no legal action",
                file=sys.stderr,
            )
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
