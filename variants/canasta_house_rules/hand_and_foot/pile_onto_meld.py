"""House rule ``pile-onto-meld`` for Hand and Foot (§8.13): take the pile by adding its top card to a meld.

A side that has opened may also take the pile without showing cards, by adding
a natural top card to its incomplete meld of that rank, which must then hold at
most 7 cards. Never onto a book (a book is closed), never without an incomplete
meld of the rank, and never for a wild top card (that still needs two wild
cards of its kind). The engine's layoff (`canasta.PileRules.layoff`) is exactly
this where the pile is never frozen.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import PileRules, hookimpl


@hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """An opened side may take the pile by laying its top card off on its incomplete meld of the rank."""
    pile: PileRules = yield
    return attrs.evolve(pile, layoff=True)
