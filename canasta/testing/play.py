"""Random legal play, the engine of every reachable-state generator here.

Plain Python (no hypothesis needed): bots, benchmarks and user loops can use it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from canasta.actions import Action, Meld, TakePile
from canasta.testing.errors import InvariantError

__all__ = ["Playable", "random_play"]


class Playable(Protocol):
    """Anything driven by legal actions: a `canasta.HandState` or a `canasta.Game`."""

    @property
    def is_over(self) -> bool:
        """True once nothing more can be played."""

    def legal_actions(self) -> Sequence[Action]:
        """The acting seat's legal actions."""

    def apply(self, action: Action) -> object:
        """Apply a legal action."""


def random_play(target: Playable, rng: random.Random, steps: int, *, meld_bias: float = 0.5) -> list[Action]:
    """Play up to ``steps`` random legal actions on ``target`` (changed in place).

    Play stops early when ``target.is_over``. A `canasta.Game` deals the next
    hand by itself, so a game keeps going across hands.

    Args:
        target: A hand or a game.
        rng: The source of randomness (seed it for reproducible play).
        steps: The most actions to play.
        meld_bias: Chance of picking a meld or a pile take when one is legal;
            purely random play rarely melds, so hands would mostly end by
            exhausting the stock without it.

    Returns:
        The actions played, in order.

    Raises:
        InvariantError: If a state that is not over has no legal action.
    """
    played: list[Action] = []
    for _ in range(steps):
        if target.is_over:
            break
        legal = target.legal_actions()
        if not legal:
            raise InvariantError("dead end: the hand is not over but there is no legal action")
        progress = [a for a in legal if isinstance(a, Meld | TakePile)]
        action = rng.choice(progress) if progress and rng.random() < meld_bias else rng.choice(legal)
        target.apply(action)
        played.append(action)
    return played
