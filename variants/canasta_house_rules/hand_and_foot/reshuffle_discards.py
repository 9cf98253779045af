"""House rule ``reshuffle-discards`` for Hand and Foot (§8.13): the pile becomes a new stock.

When a player is due to start a turn with an empty stock and the discard pile
holds at least 3 cards, every pile card but the top one is shuffled into a new
stock, and play goes on; otherwise the deal ends as in §8.9. The top card stays
as the pile. Every player knows which cards the new stock holds (they lay face
up in the pile), never their order; the shuffle follows from the deal's seed,
so a replayed record reshuffles alike.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import ExhaustionRules

#: The fewest pile cards that are reshuffled (the top one stays, so the new stock holds at least 2).
PILE_AT = 3


@canasta.hookimpl(wrapper=True)
def canasta_stock_exhaustion() -> Generator[None, ExhaustionRules, ExhaustionRules]:
    """An empty stock at the start of a turn is refilled from a pile of 3 cards or more."""
    exhaustion: ExhaustionRules = yield
    return attrs.evolve(exhaustion, reshuffle_pile_at=PILE_AT)
