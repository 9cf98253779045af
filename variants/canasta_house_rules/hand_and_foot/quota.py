"""House rules ``quota-1-1``, ``-2-2``, ``-1-1-1`` and ``-3-4`` for Hand and Foot (§8.13, ``quota(c, d, w)``).

The books a side needs to go out: c clean, d dirty and w wild, for every side
whatever the number of players (instead of 2 + 2 + 1 for partnerships and
1 + 1 + 1 for players alone). They set one parameter, so stacked together the
last one wins. ``quota-1-1-1`` needs a wild book, so it cannot be stacked with
``no-wild-books``.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import CanastaClass, GoingOutRules, hookimpl

#: Each preset's name and its (clean, dirty, wild) books.
PRESETS: dict[str, tuple[int, int, int]] = {
    "quota-1-1": (1, 1, 0),
    "quota-2-2": (2, 2, 0),
    "quota-1-1-1": (1, 1, 1),
    "quota-3-4": (3, 4, 0),
}


class Quota:
    """The plugin of one preset: the going-out quota is ``clean``, ``dirty`` and ``wild`` books.

    Attributes:
        clean: Clean books needed.
        dirty: Dirty books needed.
        wild: Wild books needed.
    """

    def __init__(self, clean: int, dirty: int, wild: int) -> None:
        """The quota of ``clean`` clean, ``dirty`` dirty and ``wild`` wild books."""
        self.clean = clean
        self.dirty = dirty
        self.wild = wild

    @hookimpl(wrapper=True)
    def canasta_going_out(self, players: int) -> Generator[None, GoingOutRules, GoingOutRules]:
        """The quota, counted per kind of book, for every side."""
        going_out: GoingOutRules = yield
        counts = ((CanastaClass.NATURAL, self.clean), (CanastaClass.MIXED, self.dirty), (CanastaClass.WILD, self.wild))
        return attrs.evolve(going_out, canastas_required=0, canastas_by_class=tuple((cls, n) for cls, n in counts if n))
