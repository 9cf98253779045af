"""What one seat may see in the sequence games (rule sets with meld types), as a row of values.

`canasta.rl.ObservationEncoder` uses this module for rule sets with meld types
(`canasta.Rules.meld_types`: Samba, Bolivia, Brazilian canasta), whose layout
is version `SEQUENCES_OBSERVATION_VERSION`: cards are counted by (rank, suit)
(`SUITED_KINDS` entries: the 44 natural cards, then 2s, jokers, red threes and
black threes), and each side's melds are told by their identity (up to
`canasta.suitedactions.MELD_SLOTS` slots, the meld's number), each with its
type, rank or suit and ends, card counts and whether it is a canasta
(`MELD_FEATURES`).

`write_sequence_view` writes a row exactly as `canasta.viewvalues.write_view`
does for the other rule sets (bytes, the values that do not fit a byte in a
``wide`` list), but in Python: it reads only what the seat may see (its own
hand, the table, the face-up pile, the sizes of other hands and of the stock,
and the cards known to be in each hand), never another hand or the stock's order.
"""

from __future__ import annotations

from typing import Final

from canasta.cards import NATURAL_KINDS, Kind
from canasta.hand import Phase
from canasta.meldview import meld_views
from canasta.suitedactions import LOWEST_RANK, MELD_SLOTS
from canasta.table import TableState

__all__ = [
    "MELD_FEATURES",
    "SEQUENCES_OBSERVATION_VERSION",
    "SUITED_KINDS",
    "SequenceLayout",
    "suited_kind",
    "write_sequence_view",
]

#: Version of the vector layout of rule sets with meld types (the sequence games).
SEQUENCES_OBSERVATION_VERSION: int = 5

#: Entries of a count of cards by (rank, suit): the 44 natural cards (``(rank - 4) × 4 + suit``),
#: then a 2 (44), a joker (45), a red three (46), a black three (47).
SUITED_KINDS: Final = 48

#: The values of one meld slot, in order (each side has `canasta.suitedactions.MELD_SLOTS` slots,
#: slot ``i`` holding the side's meld number ``i``; all zero while no meld has that number):
#: 1 if the meld exists; its type, one-hot (group of a rank, sequence of a suit, wild meld,
#: black threes); a group's rank (4 to 14; 0 otherwise); a sequence's suit, one-hot; a
#: sequence's lowest and highest ranks (0 otherwise); its naturals (black threes counted
#: here), 2s and jokers; 1 if it is a canasta; its natural cards by suit (clubs, diamonds,
#: hearts, spades).
MELD_FEATURES: Final[tuple[str, ...]] = (
    "present",
    "group",
    "sequence",
    "wild",
    "black_threes",
    "rank",
    "suit_clubs",
    "suit_diamonds",
    "suit_hearts",
    "suit_spades",
    "low",
    "high",
    "naturals",
    "twos",
    "jokers",
    "canasta",
    "naturals_clubs",
    "naturals_diamonds",
    "naturals_hearts",
    "naturals_spades",
)
_F: Final = len(MELD_FEATURES)
_NATURAL: Final = frozenset(int(k) for k in NATURAL_KINDS)
_PLAIN: Final = {int(Kind.TWO): 44, int(Kind.JOKER): 45, int(Kind.RED_THREE): 46, int(Kind.BLACK_THREE): 47}
_PHASES: Final = (Phase.DRAW, Phase.MELD, Phase.ANSWER, Phase.OVER)


def suited_kind(rank: int, suit: int | None) -> int:
    """A card's entry in a count by (rank, suit) (see `SUITED_KINDS`).

    Args:
        rank: The card's `canasta.Kind` value.
        suit: Its suit (`canasta.Suit` value; ignored for a 2, a joker or a three).

    Returns:
        The entry, 0 to 47.
    """
    if rank in _NATURAL:
        assert suit is not None
        return (rank - LOWEST_RANK) * 4 + int(suit)
    return _PLAIN[rank]


class SequenceLayout:
    """Where one observer's values go in a row of the sequence games' layout.

    Args:
        seat: The observer.
        seats: The seats in relative order (the observer first, then turn order).
        sides: The sides in relative order (the observer's first).
        partners: Per relative seat, 1 if it shares the observer's melds (the variant's seating).
        offsets: Where each field starts (`canasta.rl.ObservationEncoder.fields`).
        size: The row's length.

    Attributes:
        seat: As given.
        seats: As given.
        sides: As given.
        partners: As given.
        offsets: As given.
        size: As given.
    """

    __slots__ = ("offsets", "partners", "seat", "seats", "sides", "size")

    def __init__(
        self,
        seat: int,
        seats: list[int],
        sides: list[int],
        partners: list[int],
        offsets: dict[str, int],
        size: int,
    ) -> None:
        self.seat = seat
        self.seats = seats
        self.sides = sides
        self.partners = partners
        self.offsets = offsets
        self.size = size


def _put(row: bytearray, at: int, value: int, wide: list[int], base: int) -> None:
    """Write a value: in the row if it fits a byte, else into ``wide`` (the row keeps 0)."""
    if 0 <= value < 256:
        row[at] = value
    elif value:
        wide.append(base + at)
        wide.append(value)


def _suited_table(state: TableState) -> list[int]:
    """Each card of the deck's entry in a count by (rank, suit), by card index."""
    kinds = state.kinds
    return [suited_kind(kinds[c], card.suit) for c, card in enumerate(state.deck.cards)]


def _put_counts(
    row: bytearray, at: int, cards: list[int] | tuple[int, ...], table: list[int], wide: list[int], base: int
) -> None:
    counts = [0] * SUITED_KINDS
    for card in cards:
        counts[table[card]] += 1
    for entry, count in enumerate(counts):
        if count:
            _put(row, at + entry, count, wide, base)


def write_sequence_view(
    hand: TableState,
    layout: SequenceLayout,
    row: bytearray,
    wide: list[int],
    base: int,
    table: list[int] | None = None,
) -> None:
    """Write what ``layout.seat`` may see of a hand of a sequence game into ``row``, as bytes.

    The protocol of `canasta.viewvalues.write_view`: ``row`` holds zeros and only
    non-zero values are written; a value outside ``0 .. 255`` goes to ``wide``
    as ``base + offset, value`` (the row keeps 0 there).

    Args:
        hand: The hand (a `canasta.HandState` of rules with meld types).
        layout: The observer's layout.
        row: At least ``layout.size`` zero bytes.
        wide: Receives ``base + offset, value`` pairs of values outside ``0 .. 255``.
        base: Where the row starts in the caller's batch (for ``wide``).
        table: Each card's entry by (rank, suit) (computed from the hand's deck if omitted).

    Raises:
        ValueError: If a meld's number is `canasta.suitedactions.MELD_SLOTS` or more.
    """
    if table is None:
        table = _suited_table(hand)
    at = layout.offsets
    seat = layout.seat
    seats = layout.seats
    sides = layout.sides
    own = [c for cards in hand.hands[seat] for c in cards]
    _put_counts(row, at["hand"], own, table, wide, base)
    melds_at = at["melds"]
    for rel, side in enumerate(sides):
        block = melds_at + rel * MELD_SLOTS * _F
        for view in meld_views(hand, side):
            number = view.number
            if number is None:  # (a book: no rule set with meld types has them)
                continue
            if not 0 <= number < MELD_SLOTS:
                raise ValueError(f"meld number {number} is outside the observation's {MELD_SLOTS} slots")
            i = block + number * _F
            row[i] = 1
            if view.suit is not None:
                row[i + 2] = 1
                row[i + 6 + int(view.suit)] = 1
                row[i + 10] = int(view.low or 0)
                row[i + 11] = int(view.high or 0)
            elif view.rank is Kind.JOKER:
                row[i + 3] = 1
            elif view.rank is Kind.BLACK_THREE:
                row[i + 4] = 1
            else:
                row[i + 1] = 1
                row[i + 5] = int(view.rank or 0)
            _put(row, i + 12, view.naturals, wide, base)
            _put(row, i + 13, view.twos, wide, base)
            _put(row, i + 14, view.jokers, wide, base)
            if view.is_canasta:
                row[i + 15] = 1
            by_suit = [0, 0, 0, 0]
            for card in view.cards:
                if card.rank in _NATURAL and card.suit is not None:
                    by_suit[int(card.suit)] += 1
            for suit in range(4):
                if by_suit[suit]:
                    _put(row, i + 16 + suit, by_suit[suit], wide, base)
    kinds = hand.kinds
    threes = hand.threes
    for rel, s in enumerate(seats):
        laid = threes[s]
        if laid:
            red = sum(1 for card in laid if kinds[card] == Kind.RED_THREE)
            _put(row, at["threes"] + 2 * rel, red, wide, base)
            _put(row, at["threes"] + 2 * rel + 1, len(laid) - red, wide, base)
    for rel, side in enumerate(sides):
        _put(row, at["set_aside"] + rel, len(hand.set_aside[side]), wide, base)
    # The pile as observe() shows it: a pile taken for an opening stays face up until picked up.
    pending = hand.pending_pile
    pile = list(hand.pile)
    if pending is not None:
        pile = list(pending) + pile
    _put_counts(row, at["pile_kinds"], pile, table, wide, base)
    if pending:
        row[at["pile_top"] + table[pending[-1]]] = 1
    elif hand.pile:
        row[at["pile_top"] + table[hand.pile[-1]]] = 1
    else:
        row[at["pile_top"] + SUITED_KINDS] = 1
    _put(row, at["pile_size"], len(pile), wide, base)
    seating = hand.seating
    mine = seating[seat]
    regrouped = hand.regrouped
    if hand.pile_frozen_for(mine):
        row[at["pile_frozen"]] = 1
    if pending is not None:
        row[at["pile_pending"]] = 1
    _put(row, at["stock_size"], len(hand.stock), wide, base)
    for rel, s in enumerate(seats):
        _put(row, at["hand_sizes"] + rel, hand.sizes[s], wide, base)
        if (seating[s] == mine) if regrouped else layout.partners[rel] == 1:
            row[at["partners"] + rel] = 1
    for rel, side in enumerate(sides):
        _put(row, at["scores"] + rel, hand.scores[side], wide, base)
        _put(row, at["minimum_needed"] + rel, hand.minimum_needed(side), wide, base)
        if hand.opened[side]:
            row[at["opened"] + rel] = 1
        _put(row, at["asks_used"] + rel, hand.asks_used[side], wide, base)
    row[at["phase"] + _PHASES.index(hand.phase)] = 1
    row[at["acting"] + (hand.seat - seat) % len(seats)] = 1
    answer = hand.answer
    row[at["answer"] + (0 if answer is None else 1 if answer else 2)] = 1
    _put(row, at["turn"], hand.turn, wide, base)
    known = hand.known
    for rel, s in enumerate(seats):
        cards = known[s]
        if cards:
            _put_counts(row, at["known"] + rel * SUITED_KINDS, cards, table, wide, base)
