"""Speed of python_canasta through pyspiel, against OpenSpiel's gin rummy, in the same run (not a test).

Plays uniformly random episodes through OpenSpiel's Python API (``legal_actions``,
``apply_action``; chance nodes sampled from ``chance_outcomes``) of each canasta
game and of ``gin_rummy`` (OpenSpiel's own C++ card game), interleaved round by
round so that the shared machine's noise hits every game alike, and prints per
game the steps per second (every applied action, chance outcomes included) and
the player actions per second, over all rounds, and each game's ratio to gin rummy.

Usage::

    python benchmarks/bench_openspiel.py                        # classic and cuban, 5 rounds
    python benchmarks/bench_openspiel.py --game "python_canasta(variant=six-player)" --rounds 3 --episodes 4
    python benchmarks/bench_openspiel.py --json
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass

import numpy as np
import pyspiel

import canasta.openspiel  # noqa: F401 - registers python_canasta

GIN_RUMMY = "gin_rummy"
DEFAULT_GAMES = ("python_canasta(variant=classic)", "python_canasta(variant=cuban)")


@dataclass
class Tally:
    """Steps and seconds of one game over all rounds."""

    steps: int = 0
    actions: int = 0
    episodes: int = 0
    seconds: float = 0.0

    def rate(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    def action_rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def play_random(game: pyspiel.Game, rng: np.random.RandomState) -> tuple[int, int]:
    """One random episode; returns (steps, player actions)."""
    state = game.new_initial_state()
    steps = actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
            actions += 1
        steps += 1
    return steps, actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game string (repeatable; default: classic and cuban)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--episodes", type=int, default=5, help="episodes of each game per round (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    names = [*(args.game or DEFAULT_GAMES), GIN_RUMMY]
    games = {name: pyspiel.load_game(name) for name in names}
    tallies = {name: Tally() for name in names}
    rng = np.random.RandomState(args.seed)
    for round_number in range(args.rounds):
        # Alternate the order by round, so that no game always runs first.
        order = names if round_number % 2 == 0 else names[::-1]
        for name in order:
            tally = tallies[name]
            start = time.perf_counter()
            for _ in range(args.episodes):
                steps, actions = play_random(games[name], rng)
                tally.steps += steps
                tally.actions += actions
                tally.episodes += 1
            tally.seconds += time.perf_counter() - start
    gin = tallies[GIN_RUMMY].rate()
    rows = {
        name: {
            "episodes": t.episodes,
            "steps_per_episode": t.steps / t.episodes,
            "steps_per_second": round(t.rate()),
            "actions_per_second": round(t.action_rate()),
            "ratio_to_gin_rummy": round(t.rate() / gin, 3) if gin else None,
        }
        for name, t in tallies.items()
    }
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'game':<40} {'episodes':>8} {'steps/ep':>9} {'steps/s':>9} {'actions/s':>10} {'vs gin':>7}")
    for name, row in rows.items():
        print(
            f"{name:<40} {row['episodes']:>8} {row['steps_per_episode']:>9.1f} {row['steps_per_second']:>9} "
            f"{row['actions_per_second']:>10} {row['ratio_to_gin_rummy']:>7}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
