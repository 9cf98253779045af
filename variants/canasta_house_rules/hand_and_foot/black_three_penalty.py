"""House rules ``black-three-penalty-100``, ``-300`` and ``-0`` for Hand and Foot (§8.13, ``black-three-penalty(n)``).

A black three left in a hand or in a foot still down at the end of the deal
counts -n instead of -5 (its card value). Black threes are never melded, so
nothing else changes. They set one parameter, so stacked together the last one
wins.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import BlackThreeRules, hookimpl

#: Each preset's name and what a black three left in a hand or a foot down costs.
PRESETS: dict[str, int] = {"black-three-penalty-100": 100, "black-three-penalty-300": 300, "black-three-penalty-0": 0}


class BlackThreePenalty:
    """The plugin of one preset: a black three left in a hand or a foot down costs ``penalty``.

    Attributes:
        penalty: What each such black three costs.
    """

    def __init__(self, penalty: int) -> None:
        """Each black three left costs ``penalty``."""
        self.penalty = penalty

    @hookimpl(wrapper=True)
    def canasta_black_threes(self) -> Generator[None, BlackThreeRules, BlackThreeRules]:
        """A black three left in a hand or a foot down costs ``penalty``."""
        black_threes: BlackThreeRules = yield
        return attrs.evolve(black_threes, in_hand_penalty=self.penalty)
