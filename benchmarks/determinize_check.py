"""Count inconsistent determinizations over many samples from random positions of every variant (issue 16).

Usage::

    python benchmarks/determinize_check.py [--samples 10000] [--seed 0]

Positions come from random games (random legal play, biased towards melds
and pile takes, and greedy play, which takes piles, so that other hands hold
known cards), a random number of actions in, every built-in variant in turn;
each position is sampled for a random seat, and each sample is checked with
`canasta.testing.sampling.inconsistencies` (conservation, the seat's
observation, its own hand, the known cards, the sizes, no bonus three in a
hand, the public fields, a legal action for the seat to play). Prints the
counts per variant and the sampling speed; exit status 1 on any inconsistency.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import canasta
from canasta.testing import random_play
from canasta.testing.sampling import inconsistencies

BUILT_IN = ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american")


def _position(variant: str, rng: random.Random) -> canasta.HandState:
    game = canasta.Game(variant, seed=rng.randrange(2**31))
    if rng.random() < 0.5:
        random_play(game, rng, rng.randrange(0, 300))
    else:
        bots = [canasta.make_bot("greedy", rng.random()) for _ in range(game.rules.players)]
        for _ in range(rng.randrange(0, 150)):
            if game.is_over:
                break
            hand = game.hand
            game.apply(bots[hand.seat].choose(hand, hand.seat))
    return game.hand


def main() -> int:
    """Run the check and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=10_000)
    parser.add_argument("--per-position", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    samples: Counter[str] = Counter()
    bad: Counter[str] = Counter()
    with_known: Counter[str] = Counter()
    sampling = 0.0
    done = 0
    while done < args.samples:
        variant = BUILT_IN[(done // args.per_position) % len(BUILT_IN)]
        hand = _position(variant, rng)
        seat = rng.randrange(hand.rules.players)
        observation = hand.observation(seat)
        for _ in range(min(args.per_position, args.samples - done)):
            started = time.perf_counter()
            sample = canasta.sample_state(observation, rng)
            sampling += time.perf_counter() - started
            problems = inconsistencies(hand, seat, observation, sample)
            samples[variant] += 1
            with_known[variant] += any(observation.known_cards[s] for s in range(hand.rules.players) if s != seat)
            if problems:
                bad[variant] += 1
                print(f"{variant} seat {seat} turn {hand.turn}: {'; '.join(problems)}")
            done += 1
    for variant in BUILT_IN:
        print(
            f"{variant:16} {samples[variant]:6} samples, {with_known[variant]:5} with known cards in other hands, "
            f"{bad[variant]} inconsistent"
        )
    total_bad = sum(bad.values())
    print(f"total: {done} samples, {total_bad} inconsistent; {1e6 * sampling / done:.0f} µs per sample")
    return 1 if total_bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
