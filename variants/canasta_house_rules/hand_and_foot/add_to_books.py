"""House rule ``add-to-books`` for Hand and Foot (§8.13): natural cards may be added to a clean or dirty book.

Natural cards of a rank may be added to the side's clean or dirty books of that
rank (never a wild card, nothing onto a wild book). A book so grown keeps its
kind and bonus, and each added card counts its value; adding to a book never
makes a new book, so the cards added do not count toward the quota. The pile's
pickup meld (top card and the shown pair, §8.5) may go, by the player's choice,
onto a book of that rank or onto (or as) the side's incomplete meld of the rank.
The engine's `canasta.MeldRules.add_to_books` is exactly this.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import MeldRules, hookimpl


@hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """Naturals of a rank may be added to the side's clean and dirty books of it."""
    melds: MeldRules = yield
    return attrs.evolve(melds, add_to_books=True)
