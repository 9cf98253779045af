"""House rules ``pile-whole``, ``pile-three`` and ``pile-six`` for Hand and Foot (§8.13, ``pile-count(n)``).

The pile take takes the top n cards of the pile (all of it if it holds fewer;
``pile-whole``: the whole pile) instead of the top 7; the rest stays as the
pile, in order. They set one parameter, so stacked together the last one wins.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import PileRules, hookimpl

#: Each preset's name and the cards it takes (``None``: the whole pile).
PRESETS: dict[str, int | None] = {"pile-whole": None, "pile-three": 3, "pile-six": 6}


class PileCount:
    """The plugin of one preset: the pile take takes the top ``count`` cards.

    Attributes:
        count: Cards taken from the top (``None``: the whole pile).
    """

    def __init__(self, count: int | None) -> None:
        """Take the top ``count`` cards (``None``: the whole pile)."""
        self.count = count

    @hookimpl(wrapper=True)
    def canasta_pile_rules(self) -> Generator[None, PileRules, PileRules]:
        """The pile take takes the top ``count`` cards."""
        pile: PileRules = yield
        return attrs.evolve(pile, take_count=self.count)
