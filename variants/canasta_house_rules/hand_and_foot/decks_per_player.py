"""House rule ``decks-per-player`` for Hand and Foot (§8.13): one deck per player instead of one more.

Four players play with 4 decks (216 cards); each deck keeps the variant's
jokers (2).
"""

from __future__ import annotations

from collections.abc import Generator

from canasta import DeckSpec, hookimpl


@hookimpl(wrapper=True)
def canasta_deck(players: int) -> Generator[None, DeckSpec, DeckSpec]:
    """As many decks as players, each with the jokers of a deck of the variant."""
    deck: DeckSpec = yield
    jokers_per_deck = deck.jokers // deck.packs
    return DeckSpec(packs=players, jokers=jokers_per_deck * players)
