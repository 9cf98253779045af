"""Masked random agents through the canasta PettingZoo environment, with steps per second.

Every agent picks uniformly among the ids its action mask allows. Needs the
``rl`` extra: ``pip install 'canasta[rl]'``.

Usage::

    python examples/rl_random_agents.py [--variant classic] [--house-rule NAME ...]
        [--episodes 20] [--max-hands 1] [--reward hand|game] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import canasta.rl


def run(variant: str, house_rules: list[str], episodes: int, max_hands: int | None, reward: str, seed: int) -> None:
    """Play `episodes` episodes of masked random agents and print steps per second."""
    env = canasta.rl.env(variant, house_rules, reward=reward, max_hands=max_hands)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    steps = 0
    returns: dict[str, float] = {}
    start = time.perf_counter()
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            env.step(action)
            for name, value in env.rewards.items():
                returns[name] = returns.get(name, 0.0) + value
    elapsed = time.perf_counter() - start
    space = env.unwrapped.action_encoding
    print(
        f"variant {variant!r} {house_rules or ''}: {space.size} action ids, "
        f"observation of {env.unwrapped.observation_encoder.size} floats"
    )
    print(f"{episodes} episodes, {steps} agent steps in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s")
    print("total reward per agent:", {k: round(v, 1) for k, v in sorted(returns.items())})


def main() -> None:
    """Parse the command line and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--house-rule", action="append", default=[], dest="house_rules")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--max-hands", type=int, default=1, help="hands per episode (0: play whole games)")
    parser.add_argument("--reward", choices=["hand", "game"], default="hand")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    run(args.variant, args.house_rules, args.episodes, args.max_hands or None, args.reward, args.seed)


if __name__ == "__main__":
    main()
