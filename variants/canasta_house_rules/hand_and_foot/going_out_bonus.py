"""House rules ``going-out-bonus-200`` and ``going-out-bonus-500`` for Hand and Foot (§8.13, ``going-out-bonus(n)``).

The side that goes out scores n instead of 100. They set one parameter, so
stacked together the last one wins.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import GoingOutRules, hookimpl

#: Each preset's name and its bonus.
PRESETS: dict[str, int] = {"going-out-bonus-200": 200, "going-out-bonus-500": 500}


class GoingOutBonus:
    """The plugin of one preset: going out scores ``bonus``.

    Attributes:
        bonus: The bonus of the side that goes out.
    """

    def __init__(self, bonus: int) -> None:
        """Going out scores ``bonus``."""
        self.bonus = bonus

    @hookimpl(wrapper=True)
    def canasta_going_out(self, players: int) -> Generator[None, GoingOutRules, GoingOutRules]:
        """Going out scores ``bonus``."""
        going_out: GoingOutRules = yield
        return attrs.evolve(going_out, bonus=self.bonus)
