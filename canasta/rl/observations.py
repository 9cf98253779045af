"""What one seat may see, as a flat numeric vector (hidden information, as the rules have it).

The encoding is *relative to the observer*: seat offset 0 is the observer, 1
the next seat in turn order, and so on; side 0 is the observer's side, the
other sides follow in the order their first seat comes after the observer.
The same network can then play any seat.

It reads only what `canasta.observation.observe` exposes to that seat: its own
hand, the sizes of other hands and of the stock, the whole discard pile, all
melds, all laid-out threes and set-aside cards, the scores, the minimums, the
turn phase and who acts; where the rules deal packets after the hand
(`canasta.PacketRules`), the sizes of every seat's packets still face down, and
where a packet is earned by a canasta (`canasta.PacketRules.after_first_canasta`),
which seats have earned theirs (`canasta.Observation.first_canasta`, public);
where a side may hold several melds of a kind (`canasta.MeldRules.several_melds`) or
add wild cards to its books (`canasta.MeldRules.wilds_onto_books`), every side's melds
and books by kind and number (public: they lie on the table).
Other hands, the stock order and the cards of a packet still down (hidden from
its owner too) never enter it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from canasta.cards import KIND_COUNT, NATURAL_KINDS, Kind
from canasta.hand import HandState, Phase
from canasta.rl.actions import most_books, most_open_melds
from canasta.rl.seqobservations import (
    MELD_FEATURES,
    SEQUENCES_OBSERVATION_VERSION,
    SUITED_KINDS,
    SequenceLayout,
    write_sequence_view,
)
from canasta.rules import Rules
from canasta.suitedactions import MELD_SLOTS
from canasta.table import TableState
from canasta.viewvalues import SeatLayout, write_rows, write_view

if TYPE_CHECKING:
    from canasta.game import Game

__all__ = [
    "EARNED_PACKETS_OBSERVATION_VERSION",
    "MELD_RANKS",
    "OBSERVATION_VERSION",
    "PACKETS_OBSERVATION_VERSION",
    "PHASES",
    "SEQUENCES_OBSERVATION_VERSION",
    "SEVERAL_MELDS_OBSERVATION_VERSION",
    "ObservationEncoder",
]

#: Version of the vector layout: 2 added ``known`` (the seat's information state).
OBSERVATION_VERSION: int = 2
#: Version of the vector layout of rule sets that deal packets after the hand (`canasta.PacketRules`):
#: version 2's fields, then ``packets_down`` and ``last_packet``.
PACKETS_OBSERVATION_VERSION: int = 3
#: Version of the vector layout of rule sets whose packets are earned by a canasta
#: (`canasta.PacketRules.after_first_canasta`, Hand and Foot's ``foot-after-first-book``):
#: version 3's fields, then ``packet_earned``.
EARNED_PACKETS_OBSERVATION_VERSION: int = 4
#: Version of the vector layout of rule sets with several melds of a kind (`canasta.MeldRules.several_melds`)
#: or wild cards onto books (`canasta.MeldRules.wilds_onto_books`, Hand and Foot's ``pierson-family``): the
#: fields of the version the rule set would have without them (2, 3 or 4), then ``meld_numbers`` and
#: ``book_numbers``; its ``melds`` sums a kind's melds.
SEVERAL_MELDS_OBSERVATION_VERSION: int = 6

#: The meld slots of each side, in order: 4 to ace, then the wild meld
#: (``JOKER``), then black threes (melded only when going out).
MELD_RANKS: tuple[Kind, ...] = (*NATURAL_KINDS, Kind.JOKER, Kind.BLACK_THREE)

#: The phase one-hot order.
PHASES: tuple[Phase, ...] = (Phase.DRAW, Phase.MELD, Phase.ANSWER, Phase.OVER)

_INF = float("inf")


def _patch(flat: npt.NDArray[np.float32], wide: list[int]) -> None:
    """Write the ``index, value`` pairs of `canasta.viewvalues.write_view`'s ``wide`` list."""
    if wide:
        flat[wide[0::2]] = wide[1::2]


class ObservationEncoder:
    """Encode a seat's view of a hand as a ``float32`` vector of fixed length.

    The vector is the concatenation of these fields (``P`` players, ``S``
    sides; seats and sides relative to the observer, see the module text;
    (1): a rank a side holds as two melds, under ``cutthroat``, shows both
    melds' cards together, as do a kind's several melds under
    `canasta.MeldRules.several_melds`, told apart in ``meld_numbers``):

    | field | length | content |
    |---|---|---|
    | ``hand`` | 15 | own cards by `Kind` value |
    | ``melds`` | ``S × 13 × 3`` | per side, per rank of `MELD_RANKS`: naturals, 2s, jokers (1) |
    | ``threes`` | ``P × 2`` | per seat, red and black threes laid out |
    | ``set_aside`` | ``S`` | black threes set aside by each side |
    | ``pile_top`` | 16 | one-hot kind of the pile's top card; index 15: no top card |
    | ``pile_kinds`` | 15 | cards in the pile by kind (it is face up) |
    | ``pile_size`` | 1 | cards in the pile |
    | ``pile_frozen`` | 1 | 1 if the pile is frozen for the observer's side |
    | ``pile_pending`` | 1 | 1 while a pile taken for an opening waits for the minimum |
    | ``stock_size`` | 1 | cards in the stock |
    | ``hand_sizes`` | ``P`` | cards in each seat's hand |
    | ``partners`` | ``P`` | 1 for each seat that shares the observer's melds this hand (itself included) |
    | ``scores`` | ``S`` | each side's total before this hand |
    | ``minimum_needed`` | ``S`` | what each side's initial meld still needs (0 once opened) |
    | ``opened`` | ``S`` | 1 if the side has made its initial meld |
    | ``asks_used`` | ``S`` | "may I go out?" questions the side asked this hand |
    | ``phase`` | 4 | one-hot of `PHASES` |
    | ``acting`` | ``P`` | one-hot seat offset of the seat that must act |
    | ``answer`` | 3 | this turn's going-out answer: none, yes, no |
    | ``turn`` | 1 | turns started this hand, minus one |
    | ``known`` | ``P × 15`` | per seat, cards known to be in its hand (seen taken with the pile), by `Kind` value |
    | ``packets_down`` | ``P × K`` | only with packets (2): per seat, per packet after the hand, its size while down |
    | ``last_packet`` | ``P`` | only with packets (2): 1 for each seat that holds its last packet (none down) |
    | ``packet_earned`` | ``P`` | only with earned packets (3): 1 for each seat that has earned its next packet |
    | ``meld_numbers`` | ``S × 13 × M × 3`` | only with numbered melds (4): per side, kind, meld number: (1)'s triple |
    | ``book_numbers`` | ``S × 13 × B × 3`` | only with numbered melds (4): per side, kind, book number: the same |

    (2): where the rules deal ``K`` packets after the hand
    (``K = len(rules.packets.sizes)``, `canasta.PacketRules`: Hand and Foot's
    foot), version `PACKETS_OBSERVATION_VERSION`; a seat's packets in pick-up
    order, 0 once picked up. Only sizes: a packet's cards are hidden from
    everyone, its owner included, until it is picked up (then they are that
    seat's ``hand``). Other rule sets have neither field, and version
    `OBSERVATION_VERSION`.

    (3): where a packet is earned by a canasta (`canasta.PacketRules.after_first_canasta`,
    Hand and Foot's ``foot-after-first-book``), version
    `EARNED_PACKETS_OBSERVATION_VERSION`: 1 for a seat that has completed a canasta
    by its own action in this hand (``canasta.HandState.first_canasta`` is not -1;
    public, `canasta.Observation.first_canasta`) and still has a packet face down,
    0 before its first canasta and once it holds its last packet. It turns 1 with the
    action that completes the seat's first canasta (unless that very action picks its
    last packet up); its owner may then pick the packet up at will from the start of
    its next turn, before the draw (the mask shows when). Other rule sets with packets
    have version `PACKETS_OBSERVATION_VERSION` and no such field.

    (4): where a side may hold several melds of a kind (`canasta.MeldRules.several_melds`)
    or add wild cards to its books (`canasta.MeldRules.wilds_onto_books`: Hand and Foot's
    ``pierson-family``), version `SEVERAL_MELDS_OBSERVATION_VERSION`: the fields of the version
    the rule set would have without them, then each side's open melds by kind and number
    (`canasta.Meld.slot`: numbered from 0 in the order made, a book leaving the numbering) and its
    books by kind and number (in the order made: the ``slot`` of ``Meld(..., book=True)``),
    nothing lost; ``melds`` holds the sum of a kind's open melds there. ``M`` is the most open
    melds of a kind a side can hold and ``B`` the most books of a kind, from the rules' numbers
    (`canasta.rl.actions.most_open_melds`, `canasta.rl.actions.most_books`, the largest over
    the kinds); a number a kind cannot reach stays 0.

    Rule sets with meld types (`canasta.Rules.meld_types`: the sequence games)
    have version `SEQUENCES_OBSERVATION_VERSION`, the same fields with cards
    counted by (rank, suit) and melds by identity: ``hand``, ``pile_kinds`` and
    each seat's ``known`` have `canasta.rl.seqobservations.SUITED_KINDS` (48)
    entries (the 44 natural cards, ``(rank - 4) × 4 + suit``, then 2s, jokers,
    red threes, black threes), ``pile_top`` is one-hot over those 48 plus "no
    top card", and ``melds`` is ``S × 64 × 20``: per side, per meld number
    (`canasta.suitedactions.MELD_SLOTS` slots), the values of
    `canasta.rl.seqobservations.MELD_FEATURES` (present; group, sequence, wild
    meld or black threes; a group's rank; a sequence's suit and ends; naturals,
    2s, jokers; canasta; naturals by suit). Their rows are written in Python
    (`canasta.rl.seqobservations.write_sequence_view`); ``layouts`` is empty and
    ``sequence_layouts`` holds the observers' layouts.

    After a regrouping (house rule cutthroat) the joined players' melds sit
    under the first joined side. `fields` gives each field's slice. Values are raw counts and points (no
    scaling), so that nothing is lost; normalise in your model if you like.

    Args:
        rules: The compiled rules.

    Attributes:
        rules: The rules.
        players: Number of players.
        sides: Number of sides.
        fields: ``{name: slice}`` into the vector.
        size: Length of the vector.
        low: Lower bound of each entry (for a gymnasium ``Box``).
        high: Upper bound of each entry.
        version: The layout's version: `OBSERVATION_VERSION`,
            `PACKETS_OBSERVATION_VERSION` where the rules deal packets,
            `EARNED_PACKETS_OBSERVATION_VERSION` where those are earned by a canasta,
            `SEVERAL_MELDS_OBSERVATION_VERSION` where melds and books are told by number,
            or `SEQUENCES_OBSERVATION_VERSION` where the rules have meld types.
        layouts: For each observer seat, where its values go in a row
            (`canasta.viewvalues.SeatLayout`, for `canasta.viewvalues.write_view`
            and `canasta.viewvalues.write_rows`; `rows_to_array` converts the rows);
            empty where the rules have meld types.
        sequence_layouts: Where the rules have meld types, each observer seat's
            `canasta.rl.seqobservations.SequenceLayout` (else empty).
    """

    __slots__ = ("fields", "high", "layouts", "low", "players", "rules", "sequence_layouts", "sides", "size", "version")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        p = self.players = rules.players
        s = self.sides = rules.side_count
        cards = float(rules.deck.size)
        suited = bool(rules.meld_types)
        if suited and rules.packets.sizes:
            raise ValueError("no observation layout has both meld types and packets after the hand")
        kinds = SUITED_KINDS if suited else KIND_COUNT
        layout: list[tuple[str, int, float, float]] = [
            ("hand", kinds, 0.0, cards),
            ("melds", s * MELD_SLOTS * len(MELD_FEATURES) if suited else s * len(MELD_RANKS) * 3, 0.0, cards),
            ("threes", p * 2, 0.0, cards),
            ("set_aside", s, 0.0, cards),
            ("pile_top", kinds + 1, 0.0, 1.0),
            ("pile_kinds", kinds, 0.0, cards),
            ("pile_size", 1, 0.0, cards),
            ("pile_frozen", 1, 0.0, 1.0),
            ("pile_pending", 1, 0.0, 1.0),
            ("stock_size", 1, 0.0, cards),
            ("hand_sizes", p, 0.0, cards),
            ("partners", p, 0.0, 1.0),
            ("scores", s, -_INF, _INF),
            ("minimum_needed", s, 0.0, _INF),
            ("opened", s, 0.0, 1.0),
            ("asks_used", s, 0.0, _INF),
            ("phase", len(PHASES), 0.0, 1.0),
            ("acting", p, 0.0, 1.0),
            ("answer", 3, 0.0, 1.0),
            ("turn", 1, 0.0, _INF),
            ("known", p * kinds, 0.0, cards),
        ]
        packets = len(rules.packets.sizes)
        self.version: int = SEQUENCES_OBSERVATION_VERSION if suited else OBSERVATION_VERSION
        if packets:  # Hand and Foot's foot: every seat's packets still face down, by size only
            self.version = PACKETS_OBSERVATION_VERSION
            layout.append(("packets_down", p * packets, 0.0, float(max(rules.packets.sizes))))
            layout.append(("last_packet", p, 0.0, 1.0))
            if rules.packets.after_first_canasta:  # foot-after-first-book: who has earned its next packet
                self.version = EARNED_PACKETS_OBSERVATION_VERSION
                layout.append(("packet_earned", p, 0.0, 1.0))
        numbers = book_numbers = 0
        if not suited and (rules.melds.several_melds or rules.melds.wilds_onto_books):
            # Several melds of a kind, books named by number: every side's melds and books by kind and number.
            self.version = SEVERAL_MELDS_OBSERVATION_VERSION
            numbers = max(max(most_open_melds(rules, kind) for kind in MELD_RANKS), 1)
            book_numbers = max(max(most_books(rules, kind) for kind in MELD_RANKS), 1)
            layout.append(("meld_numbers", s * len(MELD_RANKS) * numbers * 3, 0.0, cards))
            layout.append(("book_numbers", s * len(MELD_RANKS) * book_numbers * 3, 0.0, cards))
        self.fields: dict[str, slice] = {}
        low: list[float] = []
        high: list[float] = []
        for name, length, lo, hi in layout:
            self.fields[name] = slice(len(low), len(low) + length)
            low.extend([lo] * length)
            high.extend([hi] * length)
        self.size: int = len(low)
        self.low: npt.NDArray[np.float32] = np.array(low, dtype=np.float32)
        self.high: npt.NDArray[np.float32] = np.array(high, dtype=np.float32)
        offsets = {name: where.start for name, where in self.fields.items()}
        sides_of_seat = rules.sides
        self.sequence_layouts: list[SequenceLayout] = []
        self.layouts: list[SeatLayout] = []
        if suited:
            self.sequence_layouts = [
                SequenceLayout(
                    seat,
                    self.seat_order(seat),
                    self.side_order(seat),
                    [int(sides_of_seat[s] == sides_of_seat[seat]) for s in self.seat_order(seat)],
                    offsets,
                    self.size,
                )
                for seat in range(p)
            ]
            return
        meld_slot = [-1] * KIND_COUNT
        for i, rank in enumerate(MELD_RANKS):
            meld_slot[rank] = 3 * i
        self.layouts = [
            SeatLayout(
                seat,
                self.seat_order(seat),
                self.side_order(seat),
                # The variant's seating; a regrouped hand (cutthroat) is worked out per call.
                [int(sides_of_seat[s] == sides_of_seat[seat]) for s in self.seat_order(seat)],
                meld_slot,
                len(MELD_RANKS) * 3,
                list(PHASES),
                offsets,
                self.size,
                packets,
                numbers,
                book_numbers,
            )
            for seat in range(p)
        ]

    def __repr__(self) -> str:
        return f"ObservationEncoder({self.rules.variant}, size={self.size})"

    def seat_order(self, seat: int) -> list[int]:
        """The seats in relative order: the observer first, then turn order.

        Args:
            seat: The observer.

        Returns:
            Absolute seats, indexed by relative offset.
        """
        return [(seat + i) % self.players for i in range(self.players)]

    def side_order(self, seat: int) -> list[int]:
        """The sides in relative order: the observer's side first.

        Args:
            seat: The observer.

        Returns:
            Absolute sides, indexed by relative side.
        """
        order: list[int] = []
        for s in self.seat_order(seat):
            side = self.rules.sides[s]
            if side not in order:
                order.append(side)
        return order

    def encode(self, state: HandState | Game, seat: int) -> npt.NDArray[np.float32]:
        """Encode what a seat may see.

        Args:
            state: A `canasta.HandState`, or a `canasta.Game` (its current hand).
            seat: The observing seat.

        Returns:
            A new ``float32`` vector of length `size`.

        Raises:
            ValueError: If the seat does not exist, or the state is for other rules.
        """
        row, wide = self._row(state, seat)
        vector: npt.NDArray[np.float32] = np.frombuffer(row, dtype=np.uint8).astype(np.float32)
        _patch(vector, wide)
        return vector

    def encode_many(
        self,
        states: Sequence[HandState | Game],
        seats: Sequence[int] | None = None,
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """Encode several states at once, one row each (one conversion for the whole batch).

        Args:
            states: `canasta.HandState` or `canasta.Game` objects of these rules.
            seats: The observing seat of each state; ``None``: the seat that must act in each.
            out: A ``float32`` array of shape ``(len(states), size)`` to write into
                (a new one if omitted; C-contiguous is fastest).

        Returns:
            ``out``, row ``i`` being ``encode(states[i], seats[i])``.

        Raises:
            ValueError: If the lengths or ``out``'s shape or dtype do not fit, a seat
                does not exist, or a state is for other rules.
        """
        n = len(states)
        if seats is not None and len(seats) != n:
            raise ValueError(f"{n} states but {len(seats)} seats")
        if out is None:
            out = np.empty((n, self.size), dtype=np.float32)
        elif out.shape != (n, self.size) or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape {(n, self.size)}, got {out.dtype} {out.shape}")
        rules = self.rules
        # A hand of these very rules needs no check (the usual case, and a vector env's every step).
        hands: list[TableState] = [
            state if type(state) is HandState and state.rules is rules else self._hand(state) for state in states
        ]
        rows = bytearray(n * self.size)
        scratch = bytearray(self.size)
        wide: list[int] = []
        if self.sequence_layouts:
            size = self.size
            for row in range(n):
                hand = hands[row]
                seat = hand.seat if seats is None else seats[row]
                scratch[:] = bytes(size)
                write_sequence_view(hand, self._sequence_layout(seat), scratch, wide, row * size)
                rows[row * size : (row + 1) * size] = scratch
            self.rows_to_array(rows, wide, out)
            return out
        layouts = self.layouts if seats is None else [self._layout(seat) for seat in seats]
        for row in range(n):
            hand = hands[row]
            write_rows(hand, layouts[hand.seat] if seats is None else layouts[row], rows, row, scratch, wide)
        self.rows_to_array(rows, wide, out)
        return out

    def rows_to_array(self, rows: bytearray, wide: list[int], out: npt.NDArray[np.float32]) -> None:
        """Write rows as `canasta.viewvalues.write_view` left them into a ``float32`` array.

        Args:
            rows: The rows, one after another (``out.size`` bytes).
            wide: The ``index, value`` pairs of the values that did not fit a byte.
            out: The array, of any shape holding ``len(rows)`` entries (C-contiguous is fastest).
        """
        values = np.frombuffer(rows, dtype=np.uint8)  # (no copy)
        if out.flags.c_contiguous:
            flat = out.reshape(-1)  # a view
            flat[:] = values
        else:  # (a strided `out`: through a copy)
            flat = values.astype(np.float32)
        _patch(flat, wide)
        if not out.flags.c_contiguous:
            out[...] = flat.reshape(out.shape)

    def values(self, state: HandState | Game, seat: int) -> list[int]:
        """The encoding as a plain list of integers (every entry is a count, a point total or a flag).

        Args:
            state: A `canasta.HandState`, or a `canasta.Game` (its current hand).
            seat: The observing seat.

        Returns:
            A list of length `size`, equal to `encode` entry by entry.

        Raises:
            ValueError: If the seat does not exist, or the state is for other rules.
        """
        row, wide = self._row(state, seat)
        values = list(row)
        for i in range(0, len(wide), 2):
            values[wide[i]] = wide[i + 1]
        return values

    def _row(self, state: HandState | Game, seat: int) -> tuple[bytearray, list[int]]:
        """The row `canasta.viewvalues.write_view` writes, and its ``wide`` pairs."""
        row = bytearray(self.size)
        wide: list[int] = []
        if self.sequence_layouts:
            write_sequence_view(self._hand(state), self._sequence_layout(seat), row, wide, 0)
        else:
            write_view(self._hand(state), self._layout(seat), row, wide, 0)
        return row, wide

    def _layout(self, seat: int) -> SeatLayout:
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}; seats are 0 to {self.players - 1}")
        return self.layouts[seat]

    def _sequence_layout(self, seat: int) -> SequenceLayout:
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}; seats are 0 to {self.players - 1}")
        return self.sequence_layouts[seat]

    def _hand(self, state: HandState | Game) -> HandState:
        """The state's hand, if it plays these rules (ranks closed in a hand: ``rules.as_dealt``)."""
        hand = state if isinstance(state, HandState) else state.hand
        if hand.rules is not self.rules and hand.rules.as_dealt != self.rules:
            raise ValueError(
                f"the state plays {hand.rules.variant!r}, this encoder was built for {self.rules.variant!r}"
            )
        return hand

    def field(self, vector: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """One field of an encoded vector (a view).

        Args:
            vector: An encoded observation.
            name: A key of `fields`.

        Returns:
            The field's entries.

        Raises:
            KeyError: If no field has that name.
        """
        return vector[self.fields[name]]
