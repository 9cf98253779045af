"""The rewards of the RL environments, per seat (one definition for the AEC and the vector env).

- ``"hand"``: at the end of each hand, the hand's score of the seat's side minus
  the best hand score among the sides that played against it in that hand (raw
  points; partners share a side and so a reward; players a partnership rule
  joins up for the hand, as in cutthroat, are not each other's opponents).
- ``"game"``: at the end of the game, +1 if the seat's side alone has the
  highest total, −1 if another side is ahead of it, 0 if it ties for the lead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from canasta.rules import Rules
from canasta.scoring import HandScore

__all__ = ["RewardMode", "check_episode_options", "game_rewards", "hand_rewards"]

RewardMode = Literal["hand", "game"]
"""``"hand"``: score difference at the end of each hand; ``"game"``: +1/−1/0 at the end of the game."""


def check_episode_options(reward: object, max_hands: int | None) -> None:
    """Refuse a reward mode or a truncation limit the environments do not know (both envs take them).

    Args:
        reward: The reward mode asked for.
        max_hands: The truncation limit asked for (``None``: none).

    Raises:
        ValueError: If ``reward`` is not ``"hand"`` or ``"game"``, or ``max_hands`` is below 1.
    """
    if reward not in ("hand", "game"):
        raise ValueError(f"reward must be 'hand' or 'game', got {reward!r}")
    if max_hands is not None and max_hands < 1:
        raise ValueError(f"max_hands must be at least 1, got {max_hands}")


def hand_rewards(rules: Rules, result: HandScore, seating: Sequence[int]) -> list[float]:
    """Each seat's reward for a finished hand under ``reward="hand"``.

    Args:
        rules: The compiled rules.
        result: The hand's score.
        seating: The hand's final grouping of seats into meld-owning units
            (``hand.seating``): sides that joined up (cutthroat) are partners, not opponents.

    Returns:
        One reward per seat: own side's hand total minus the best total among the
        sides that played against it (0 if there are none).
    """
    totals = result.totals
    sides = rules.sides
    unit_of_side = {sides[seat]: seating[seat] for seat in range(rules.players)}
    rewards: list[float] = []
    for seat in range(rules.players):
        others = [t for s, t in enumerate(totals) if unit_of_side[s] != seating[seat]]
        rewards.append(float(totals[sides[seat]] - (max(others) if others else 0)))
    return rewards


def game_rewards(rules: Rules, scores: Sequence[int], winners: Sequence[int] | None = None) -> list[float]:
    """Each seat's reward for a finished game under ``reward="game"``.

    Args:
        rules: The compiled rules.
        scores: Each side's final total.
        winners: The sides sharing the win (`canasta.Game.winners`: a special
            hand may win whatever the totals); ``None``: the sides with the
            highest total.

    Returns:
        One reward per seat: +1 if its side alone wins, 0 if it shares the
        win (a draw among some or all sides), −1 otherwise.
    """
    if winners is None:
        best = max(scores)
        winners = [side for side, total in enumerate(scores) if total == best]
    alone = len(winners) == 1
    rewards: list[float] = []
    for seat in range(rules.players):
        side = rules.sides[seat]
        rewards.append((1.0 if alone else 0.0) if side in winners else -1.0)
    return rewards
