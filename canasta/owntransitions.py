"""How the actions of melds of a type of its own change the table (`canasta.ownshapes`).

`canasta.ownshapes.LayMeld` makes a new meld of the side under its next number,
lying under the rank ``OWN_MELD`` plus its type's index in `canasta.Rules.meld_types`;
`canasta.ownshapes.AddToMeld` moves cards onto one. The named cards leave the hand
(a natural of the suit named; 2s, jokers and black threes of their kind), count
towards an opening as the sequence games' melds do, and melding the last card goes
out (`canasta.suitedtransitions`, which registers these transitions).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from canasta.cards import BLACK_THREE, JOKER, TWO
from canasta.ownshapes import OWN_MELD, AddToMeld, LayMeld
from canasta.suitedhand import SuitedHand
from canasta.suitedtransitions import _after_meld, _card_from_hand, _new_meld, _target
from canasta.table import MeldState, TableState

__all__ = ["OWN_TRANSITIONS"]


def _move(t: TableState, seat: int, meld: MeldState, cards: SuitedHand) -> int:
    """Move the cards from the seat's hand onto the meld; their count (card values)."""
    values = t.dealt.card_values
    value = 0
    for index, count in enumerate(cards.naturals):
        rank, suit = index // 4 + 4, index % 4
        for _ in range(count):
            meld.cards.append(_card_from_hand(t, seat, rank, suit))
            value += values[rank]
        meld.naturals += count
    for kind, count in ((TWO, cards.twos), (JOKER, cards.jokers), (BLACK_THREE, cards.black_threes)):
        for _ in range(count):
            meld.cards.append(_card_from_hand(t, seat, kind))
            value += values[kind]
    meld.twos += cards.twos
    meld.jokers += cards.jokers
    meld.naturals += cards.black_threes
    return value


def _do_lay(t: TableState, action: LayMeld) -> None:
    seat = t.seat
    index = next(i for i, kind in enumerate(t.dealt.meld_types) if kind.name == action.type)
    _, meld = _new_meld(t, t.seating[seat], OWN_MELD + index)
    _after_meld(t, seat, _move(t, seat, meld, action.cards))


def _do_add(t: TableState, action: AddToMeld) -> None:
    seat = t.seat
    meld = _target(t, t.seating[seat], action.meld, 0)
    _after_meld(t, seat, _move(t, seat, meld, action.cards))


#: The transitions of `canasta.ownshapes`' actions.
OWN_TRANSITIONS: Final[dict[type, Callable[[TableState, object], None]]] = {
    LayMeld: _do_lay,  # type: ignore[dict-item]
    AddToMeld: _do_add,  # type: ignore[dict-item]
}
