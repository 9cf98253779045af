"""A ladder of bots in duplicate matches: random, greedy and ISMCTS at two budgets (issue 16).

Each deal is played twice with the same cards: once with bot A on the side of
seat 0 and bot B on the other, once with the sides swapped, so the luck of the
deal cancels. A deal's result for A is the mean, over its two plays, of A's
side's hand score minus B's; A wins the deal when that is above 0.

Usage::

    python benchmarks/bot_ladder.py [--variant classic] [--deals 300] [--workers 2]
        [--low 10ms] [--high 50ms] [--pairings ismcts:50ms/greedy greedy/random ...] [--seed 0]
        [--save results.json]
    python benchmarks/bot_ladder.py --compare before.json after.json

Per pairing it prints the number of deals, the mean hand-score difference per
deal with its 95% confidence interval (normal approximation, mean ± 1.96
standard errors), the share of deals won (ties count half) and each bot's
mean time per decision (decisions with a single legal action excluded; the
search is then skipped). Deals run in process workers. Only variants with two
sides can be played in duplicate (not three-player).

``--save`` writes every deal's result as JSON; ``--compare`` reads two such
files, or two comma-separated lists of them (for instance the same pairing before and after a change to a bot, run
on the same seeds) and prints, per pairing found in both, the mean of the
per-deal difference (after minus before) with its 95% confidence interval:
the deals are the same, so the comparison is paired and the luck of the deal
cancels a second time.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

from attrs import frozen

import canasta
from canasta import HandState


@frozen
class DealResult:
    """One duplicate deal: A's score difference per play, and each bot's decision times."""

    diffs: tuple[int, int]
    a_time: float
    a_decisions: int
    b_time: float
    b_decisions: int


def play_deal(variant: str, bot_a: str, bot_b: str, seed: int) -> DealResult:
    """Play one deal twice, sides swapped; return A's side's score minus B's in each play.

    Args:
        variant: The variant (two sides).
        bot_a: Bot A's name (`canasta.make_bot`).
        bot_b: Bot B's name.
        seed: The deal's seed (both plays get the same cards).

    Returns:
        The deal's result.
    """
    rules = canasta.load_rules(variant)
    if rules.side_count != 2:
        raise SystemExit(f"{variant} has {rules.side_count} sides; duplicate matches need 2")
    diffs: list[int] = []
    times = {"a": 0.0, "b": 0.0}
    decisions = {"a": 0, "b": 0}
    for a_side in (0, 1):
        hand = HandState.deal(rules, dealer=rules.players - 1, scores=[0, 0], seed=seed)
        labels = ["a" if rules.sides[s] == a_side else "b" for s in range(rules.players)]
        bots = [
            canasta.make_bot(bot_a if label == "a" else bot_b, f"{seed}:{seat}:{label}")
            for seat, label in enumerate(labels)
        ]
        for _ in range(20_000):
            if hand.is_over:
                break
            seat = hand.seat
            forced = len(hand.legal_actions()) == 1
            started = time.perf_counter()
            action = bots[seat].choose(hand, seat)
            if not forced:
                times[labels[seat]] += time.perf_counter() - started
                decisions[labels[seat]] += 1
            hand.apply(action)
        totals = hand.score().totals
        diffs.append(totals[a_side] - totals[1 - a_side])
    return DealResult((diffs[0], diffs[1]), times["a"], decisions["a"], times["b"], decisions["b"])


def _play_chunk(variant: str, bot_a: str, bot_b: str, seeds: Sequence[int]) -> list[DealResult]:
    return [play_deal(variant, bot_a, bot_b, seed) for seed in seeds]


@frozen
class PairingSummary:
    """A pairing's results over its deals.

    Attributes:
        bot_a: Bot A.
        bot_b: Bot B.
        deals: Deals played.
        mean: Mean of A's score difference per deal (the mean of its two plays).
        low: Lower end of the 95% confidence interval of ``mean``.
        high: Upper end.
        won: Share of deals A won (ties count half).
        a_ms: A's mean milliseconds per decision.
        b_ms: B's mean milliseconds per decision.
    """

    bot_a: str
    bot_b: str
    deals: int
    mean: float
    low: float
    high: float
    won: float
    a_ms: float
    b_ms: float


def summarise(bot_a: str, bot_b: str, results: Iterable[DealResult]) -> PairingSummary:
    """Mean, 95% confidence interval, share won and decision times of a pairing.

    Args:
        bot_a: Bot A.
        bot_b: Bot B.
        results: Its deals.

    Returns:
        The summary.
    """
    rows = list(results)
    n = len(rows)
    per_deal = [(r.diffs[0] + r.diffs[1]) / 2 for r in rows]
    mean = sum(per_deal) / n
    var = sum((x - mean) ** 2 for x in per_deal) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    won = sum(1.0 if x > 0 else 0.5 if x == 0 else 0.0 for x in per_deal) / n
    a_decisions = sum(r.a_decisions for r in rows) or 1
    b_decisions = sum(r.b_decisions for r in rows) or 1
    return PairingSummary(
        bot_a,
        bot_b,
        n,
        mean,
        mean - half,
        mean + half,
        won,
        1000 * sum(r.a_time for r in rows) / a_decisions,
        1000 * sum(r.b_time for r in rows) / b_decisions,
    )


def run_pairing(
    variant: str, bot_a: str, bot_b: str, deals: int, seed: int, pool: ProcessPoolExecutor, chunk: int = 4
) -> PairingSummary:
    """Play ``deals`` duplicate deals of a pairing in the pool's workers.

    Args:
        variant: The variant.
        bot_a: Bot A.
        bot_b: Bot B.
        deals: Number of deals.
        seed: The first deal's seed (deals use ``seed``, ``seed + 1``, ...).
        pool: The process pool.
        chunk: Deals per task.

    Returns:
        The pairing's summary.
    """
    return summarise(bot_a, bot_b, run_deals(variant, bot_a, bot_b, deals, seed, pool, chunk).values())


def run_deals(
    variant: str, bot_a: str, bot_b: str, deals: int, seed: int, pool: ProcessPoolExecutor, chunk: int = 4
) -> dict[int, DealResult]:
    """Play ``deals`` duplicate deals of a pairing in the pool's workers.

    Args:
        variant: The variant.
        bot_a: Bot A.
        bot_b: Bot B.
        deals: Number of deals.
        seed: The first deal's seed (deals use ``seed``, ``seed + 1``, ...).
        pool: The process pool.
        chunk: Deals per task.

    Returns:
        Each deal's result by its seed.
    """
    seeds = list(range(seed, seed + deals))
    chunks = [seeds[i : i + chunk] for i in range(0, deals, chunk)]
    results: dict[int, DealResult] = {}
    for part, chunk_seeds in zip(
        pool.map(_play_chunk, *zip(*[(variant, bot_a, bot_b, c) for c in chunks], strict=True)), chunks, strict=True
    ):
        results.update(zip(chunk_seeds, part, strict=True))
    return results


@frozen
class Comparison:
    """A pairing played twice on the same deals (before and after a change): the paired difference.

    Attributes:
        key: ``variant A/B``.
        deals: Deals found in both runs.
        before: Mean per-deal score difference of the first run.
        after: Mean per-deal score difference of the second run.
        mean: Mean of the per-deal change (after minus before).
        low: Lower end of its 95% confidence interval.
        high: Upper end.
    """

    key: str
    deals: int
    before: float
    after: float
    mean: float
    low: float
    high: float


def compare(key: str, before: Mapping[int, DealResult], after: Mapping[int, DealResult]) -> Comparison:
    """The paired change of a pairing's per-deal result between two runs on the same seeds.

    Args:
        key: The pairing's name, for the report.
        before: The first run's deals by seed.
        after: The second run's deals by seed.

    Returns:
        The comparison over the seeds both runs played.

    Raises:
        ValueError: If the runs share no deal.
    """
    seeds = sorted(set(before) & set(after))
    if not seeds:
        raise ValueError(f"{key}: the two runs share no deal")
    old = [sum(before[s].diffs) / 2 for s in seeds]
    new = [sum(after[s].diffs) / 2 for s in seeds]
    changes = [b - a for a, b in zip(old, new, strict=True)]
    n = len(seeds)
    mean = sum(changes) / n
    var = sum((x - mean) ** 2 for x in changes) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return Comparison(key, n, sum(old) / n, sum(new) / n, mean, mean - half, mean + half)


def save(path: str, runs: Mapping[str, Mapping[int, DealResult]]) -> None:
    """Write the deals of each pairing (``variant A/B``) as JSON.

    Args:
        path: The file to write.
        runs: Each pairing's deals by seed.
    """
    data = {
        key: {
            str(seed): {
                "diffs": list(r.diffs),
                "a_time": r.a_time,
                "a_decisions": r.a_decisions,
                "b_time": r.b_time,
                "b_decisions": r.b_decisions,
            }
            for seed, r in deals.items()
        }
        for key, deals in runs.items()
    }
    with open(path, "w", encoding="utf-8") as file:
        json.dump(data, file, indent=0)


def load(path: str) -> dict[str, dict[int, DealResult]]:
    """Read files written by `save`: one path, or several joined by commas (their deals merged).

    Args:
        path: The file, or files separated by commas (runs of the same pairing on other seeds).

    Returns:
        Each pairing's deals by seed.
    """
    runs: dict[str, dict[int, DealResult]] = {}
    for one in path.split(","):
        with open(one, encoding="utf-8") as file:
            data = json.load(file)
        for key, deals in data.items():
            runs.setdefault(key, {}).update(
                (
                    int(seed),
                    DealResult(
                        (int(r["diffs"][0]), int(r["diffs"][1])),
                        r["a_time"],
                        r["a_decisions"],
                        r["b_time"],
                        r["b_decisions"],
                    ),
                )
                for seed, r in deals.items()
            )
    return runs


def comparison_table(rows: Sequence[Comparison]) -> str:
    """Paired comparisons as a Markdown table.

    Args:
        rows: One comparison per pairing.

    Returns:
        The table's text.
    """
    lines = [
        "Same deals played before and after; per deal, A's mean score difference after minus before",
        "",
        "| pairing | deals | before | after | change | 95% CI of the change |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.key} | {r.deals} | {r.before:+.0f} | {r.after:+.0f} | {r.mean:+.0f} "
            f"| [{r.low:+.0f}, {r.high:+.0f}] |"
        )
    return "\n".join(lines)


def table(variant: str, rows: Sequence[PairingSummary]) -> str:
    """The ladder as a Markdown table.

    Args:
        variant: The variant played.
        rows: One summary per pairing.

    Returns:
        The table's text.
    """
    lines = [
        f"{variant}: duplicate deals (each played twice, sides swapped); A's hand score minus B's per deal",
        "",
        "| A | B | deals | mean diff per deal | 95% CI | A won | A ms/decision | B ms/decision |",
        "|---|---|---:|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.bot_a} | {r.bot_b} | {r.deals} | {r.mean:+.0f} | [{r.low:+.0f}, {r.high:+.0f}] "
            f"| {100 * r.won:.0f}% | {r.a_ms:.2f} | {r.b_ms:.2f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ladder and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--low", default="10ms", help="the lower ISMCTS budget")
    parser.add_argument("--high", default="50ms", help="the higher ISMCTS budget")
    parser.add_argument("--pairings", nargs="*", default=[], help="A/B pairs (default: the ladder)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="write every deal's result to this JSON file")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two saved runs; play nothing")
    args = parser.parse_args(argv)
    if args.compare:
        before, after = load(args.compare[0]), load(args.compare[1])
        print(comparison_table([compare(key, before[key], after[key]) for key in before if key in after]))
        return 0
    low, high = f"ismcts:{args.low}", f"ismcts:{args.high}"
    if args.pairings:
        pairings = [tuple(p.split("/")) for p in args.pairings]
    else:
        pairings = [("greedy", "random"), (low, "greedy"), (high, "greedy"), (high, low)]
    for pair in pairings:
        if len(pair) != 2:
            parser.error(f"a pairing is two bot names joined by '/': {'/'.join(pair)!r}")
        for name in pair:
            canasta.make_bot(name)  # an unknown name fails here, not in a worker
    rows = []
    runs: dict[str, dict[int, DealResult]] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for bot_a, bot_b in pairings:
            started = time.perf_counter()
            deals = runs[f"{args.variant} {bot_a}/{bot_b}"] = run_deals(
                args.variant, bot_a, bot_b, args.deals, args.seed, pool
            )
            row = summarise(bot_a, bot_b, deals.values())
            rows.append(row)
            print(
                f"  {bot_a} vs {bot_b}: {row.deals} deals, {row.mean:+.0f} [{row.low:+.0f}, {row.high:+.0f}], "
                f"won {100 * row.won:.0f}%, {row.a_ms:.1f} / {row.b_ms:.1f} ms per decision "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    print(table(args.variant, rows))
    if args.save:
        save(args.save, runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
