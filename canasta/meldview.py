"""A meld as everyone sees it (`MeldView`), and a side's melds on the table as views (`meld_views`).

`canasta.Observation.melds` holds these views, and the pictures of the table
(`canasta.render`) draw them. In rule sets that meld by meld type
(`canasta.Rules.meld_types`: the sequence games) a view carries its meld's
identity (``number``) and a sequence's suit and ends; elsewhere those fields are
``None`` and a view is what it always was. `canasta.observation` exports both names.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from canasta.cards import SECOND_MELD, SEQUENCE_MELD, Card, Kind, Suit
from canasta.meldtypes import SequenceShape, judging
from canasta.suitedlegality import meld_shape
from canasta.table import MeldState, TableState

__all__ = ["MeldView", "meld_views"]


@frozen
class MeldView:
    """A meld as everyone sees it.

    A group is told by its ``rank``; a sequence of one suit (the sequence games,
    `canasta.meldtypes.SequenceType`) has no rank (``None``) but a ``suit`` and
    its lowest and highest ranks (``low``, ``high``: 4 to ace, the ranks between
    them all in it once). Where melds have identities (rule sets with
    `canasta.Rules.meld_types`: a side may hold several melds of one rank),
    ``number`` is the meld's number, which actions use to name it. The fields
    added for those rule sets default to ``None``, so the melds of every other
    rule set are what they always were (equal, and with the same JSON form).

    Attributes:
        rank: The meld's kind (``JOKER`` for a wild meld, ``BLACK_THREE`` for a
            group of black threes); ``None`` for a sequence.
        cards: Its cards (a sequence's in rank order, low to high).
        naturals: Natural cards (or black threes; a sequence's every card).
        twos: 2s.
        jokers: Jokers.
        is_canasta: Whether it is a canasta (a sequence's: a samba or escalera).
        number: The meld's identity on its side (`canasta.table.TableState.meld_numbers`:
            from 0, in creation order, never reused in the hand; a combined
            group keeps the older number), or ``None`` where melds have none.
        suit: A sequence's suit, else ``None``.
        low: A sequence's lowest rank, else ``None``.
        high: A sequence's highest rank, else ``None``.
        meld_type: For a meld of a plugin's type of a shape of its own (`canasta.ownshapes`),
            its type's name (the meld is then shown by its cards: ``rank`` and ``suit``
            are ``None``, its cards in rank order, wild cards last); else ``None``.
        slot: Which of the side's melds of its kind this is, the number `canasta.Meld.slot`
            names it by: where a side may hold several melds of a kind
            (`canasta.MeldRules.several_melds`), an open meld's number among the side's
            open melds of its kind (from 0, in the order made; a book leaves the
            numbering); where wild cards go onto dirty books
            (`canasta.MeldRules.wilds_onto_books`), a book's number among the side's
            books of its rank (from 0, in the order made; a book of a natural rank).
            ``None`` elsewhere.
    """

    rank: Kind | None
    cards: tuple[Card, ...]
    naturals: int
    twos: int
    jokers: int
    is_canasta: bool
    number: int | None = None
    suit: Suit | None = None
    low: Kind | None = None
    high: Kind | None = None
    meld_type: str | None = None
    slot: int | None = None

    @property
    def is_sequence(self) -> bool:
        """Whether the meld is a sequence of one suit (it has a suit and no rank)."""
        return self.suit is not None


def meld_views(state: TableState, side: int) -> tuple[MeldView, ...]:
    """A side's melds on the table as everyone sees them (`Observation.melds` of that side).

    In rule sets with meld types (`canasta.Rules.meld_types`) the melds are
    listed by number (creation order), each with its ``number``, a sequence
    with its suit and ends, and a canasta told by its meld type
    (`canasta.meldtypes.MeldType.canasta_class`). Elsewhere they are listed by
    rank, high to low (a side's books first among melds of a rank), each a
    canasta from `canasta.MeldRules.canasta_size` on.

    Args:
        state: The hand.
        side: The side (the seating's unit: under ``cutthroat`` a seat's own melds).

    Returns:
        The melds.
    """
    cards = state.deck.cards
    if not state.facts.sequences:
        meld_rules = state.rules.melds
        if meld_rules.several_melds or meld_rules.wilds_onto_books:
            return _slotted_views(state, side)
        canasta_size = meld_rules.canasta_size
        return tuple(
            _rank_view(cards, m, canasta_size)
            for m in sorted(state.all_melds(side), key=lambda m: -m.rank)  # (books too, each a canasta)
        )
    books: list[tuple[int | None, MeldState]] = [(None, m) for m in state.books[side]]
    numbered: list[tuple[int | None, MeldState]] = [*sorted(state.melds[side].items())]
    return tuple(_numbered_view(state, number, m) for number, m in books + numbered)


def _slotted_views(state: TableState, side: int) -> tuple[MeldView, ...]:
    """A side's melds by rank, high to low, its books first, each with its ``slot`` (`canasta.Meld.slot`).

    Under `canasta.MeldRules.several_melds` an open meld's number is its key's
    (``kind + SECOND_MELD * number``); under `canasta.MeldRules.wilds_onto_books`
    a book of a natural rank is numbered among the side's books of its rank, in
    the order made.
    """
    cards = state.deck.cards
    meld_rules = state.rules.melds
    canasta_size = meld_rules.canasta_size
    entries: list[tuple[int, int, int, int | None, MeldState]] = []
    made: dict[int, int] = {}
    for meld in state.books[side]:
        number = made.get(meld.rank, 0)
        made[meld.rank] = number + 1
        shown = number if meld_rules.wilds_onto_books and Kind(meld.rank).is_natural else None
        entries.append((-meld.rank, 0, number, shown, meld))
    for key, meld in state.melds[side].items():
        number = key // SECOND_MELD
        entries.append((-meld.rank, 1, number, number if meld_rules.several_melds else None, meld))
    entries.sort(key=lambda entry: entry[:3])
    return tuple(_rank_view(cards, m, canasta_size, shown) for _, _, _, shown, m in entries)


def _rank_view(cards: Sequence[Card], meld: MeldState, canasta_size: int, slot: int | None = None) -> MeldView:
    """A meld of the rank engine (a natural rank, or wild cards) as a view; a canasta from ``canasta_size`` cards."""
    return MeldView(
        rank=Kind(meld.rank),
        cards=tuple(cards[c] for c in meld.cards),
        naturals=meld.naturals,
        twos=meld.twos,
        jokers=meld.jokers,
        is_canasta=meld.size >= canasta_size,
        slot=slot,
    )


def _numbered_view(state: TableState, number: int | None, meld: MeldState) -> MeldView:
    """A meld of a rule set with meld types: its number, a sequence's suit and ends, a canasta by its type."""
    cards = state.deck.cards
    shape = meld_shape(state, meld)
    judge = judging(state.rules.meld_types, shape)
    is_canasta = judge is not None and judge.canasta_class(shape) is not None
    if meld.rank > SEQUENCE_MELD:  # a type of a shape of its own: shown by its cards
        return MeldView(
            rank=None,
            cards=tuple(sorted((cards[c] for c in meld.cards), key=lambda card: (card.rank < 4, card.rank))),
            naturals=meld.naturals,
            twos=meld.twos,
            jokers=meld.jokers,
            is_canasta=is_canasta,
            number=number,
            meld_type=judge.name if judge is not None else None,
        )
    if meld.rank == SEQUENCE_MELD:
        assert isinstance(shape, SequenceShape)
        return MeldView(
            rank=None,
            cards=tuple(sorted((cards[c] for c in meld.cards), key=lambda card: card.rank)),
            naturals=meld.naturals,
            twos=meld.twos,
            jokers=meld.jokers,
            is_canasta=is_canasta,
            number=number,
            suit=Suit(shape.suit),
            low=Kind(shape.low),
            high=Kind(shape.high),
        )
    return MeldView(
        rank=Kind(meld.rank),
        cards=tuple(cards[c] for c in meld.cards),
        naturals=meld.naturals,
        twos=meld.twos,
        jokers=meld.jokers,
        is_canasta=is_canasta,
        number=number,
    )
