"""What one seat may see, as a flat numeric vector (hidden information, as the rules have it).

The encoding is *relative to the observer*: seat offset 0 is the observer, 1
the next seat in turn order, and so on; side 0 is the observer's side, the
other sides follow in the order their first seat comes after the observer.
The same network can then play any seat.

It reads only what `canasta.observation.observe` exposes to that seat: its own
hand, the sizes of other hands and of the stock, the whole discard pile, all
melds, all laid-out threes and set-aside cards, the scores, the minimums, the
turn phase and who acts. Other hands and the stock order never enter it.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, ClassVar, TypeVar

import numpy as np
import numpy.typing as npt

from canasta.cards import KIND_COUNT, NATURAL_KINDS, Deck, Kind
from canasta.hand import HandState, Phase
from canasta.rules import Rules

if TYPE_CHECKING:
    from canasta.game import Game

__all__ = ["MELD_RANKS", "OBSERVATION_VERSION", "PHASES", "ObservationEncoder"]

#: Version of the vector layout: 2 added ``known`` (the seat's information state).
OBSERVATION_VERSION: int = 2

#: The meld slots of each side, in order: 4 to ace, then the wild meld
#: (``JOKER``), then black threes (melded only when going out).
MELD_RANKS: tuple[Kind, ...] = (*NATURAL_KINDS, Kind.JOKER, Kind.BLACK_THREE)

#: The phase one-hot order.
PHASES: tuple[Phase, ...] = (Phase.DRAW, Phase.MELD, Phase.ANSWER, Phase.OVER)

_INF = float("inf")
_R3 = int(Kind.RED_THREE)
#: Offset of a rank's (naturals, 2s, jokers) triple inside a side's meld block.
_MELD_OFFSET = {int(rank): 3 * i for i, rank in enumerate(MELD_RANKS)}
#: By ``id`` of the `Phase` member: hashing an enum member runs Python code, and
#: the members live (and keep their ids) as long as the interpreter.
_PHASE_ONE_HOT = {id(phase): tuple(int(p is phase) for p in PHASES) for phase in PHASES}
_NO_ANSWER, _YES, _NO = (1, 0, 0), (0, 1, 0), (0, 0, 1)
_NO_KNOWN = (0,) * KIND_COUNT
#: The fields `ObservationEncoder._parts` writes as one list (``int32``), in layout order; the others fit a byte.
_TAIL_FIELDS = (
    "pile_size",
    "pile_frozen",
    "pile_pending",
    "stock_size",
    "hand_sizes",
    "partners",
    "scores",
    "minimum_needed",
    "opened",
    "asks_used",
    "phase",
    "acting",
    "answer",
    "turn",
    "known",
)

#: Decks an encoder remembers by identity before it starts over (a vector env has one per game).
_DECK_MEMO_LIMIT = 4096

#: One byte per kind, for counting kinds with `bytes.count`.
_KIND_BYTES = tuple(bytes((kind,)) for kind in range(KIND_COUNT))

_T = TypeVar("_T")


def _small_ints(values: list[int]) -> npt.NDArray[np.generic]:
    """The values as a numpy array without a per-element Python conversion.

    Counts of one kind of card, melds and threes fit in a byte; only a deck of
    more than 255 copies of a kind would not, and then a wider type is used.
    """
    try:
        return np.frombuffer(bytearray(values), dtype=np.uint8)
    except ValueError:
        return np.frombuffer(array("i", values), dtype=np.int32)


def _picker(indices: Sequence[int]) -> Callable[[Sequence[_T]], tuple[_T, ...]]:
    """A C-level function picking ``indices`` out of a sequence, always as a tuple."""
    if len(indices) == 1:
        (only,) = indices
        return lambda values: (values[only],)
    return itemgetter(*indices)


class _SeatView:
    """What an observer's relative order makes of the layout, worked out once per seat."""

    __slots__ = (
        "acting",
        "meld_bases",
        "partners",
        "seats",
        "seats_of",
        "set_aside_slots",
        "sides",
        "sides_of",
        "three_slots",
    )

    def __init__(self, encoder: ObservationEncoder, seat: int) -> None:
        fields = encoder.fields
        players = encoder.players
        sides_of_seat = encoder.rules.sides
        self.seats = encoder.seat_order(seat)
        self.sides = encoder.side_order(seat)
        self.seats_of = _picker(self.seats)
        self.sides_of = _picker(self.sides)
        block = len(MELD_RANKS) * 3
        start = fields["melds"].start
        self.meld_bases = [(side, start + rel * block) for rel, side in enumerate(self.sides)]
        start = fields["threes"].start
        self.three_slots = [(s, start + 2 * rel) for rel, s in enumerate(self.seats)]
        start = fields["set_aside"].start
        self.set_aside_slots = [(side, start + rel) for rel, side in enumerate(self.sides)]
        # The variant's seating; a regrouped hand (cutthroat) is worked out per call.
        self.partners = [int(sides_of_seat[s] == sides_of_seat[seat]) for s in self.seats]
        #: The one-hot ``acting`` field for each absolute acting seat.
        self.acting = [
            tuple(int(rel == (acting - seat) % players) for rel in range(players)) for acting in range(players)
        ]


class ObservationEncoder:
    """Encode a seat's view of a hand as a ``float32`` vector of fixed length.

    The vector is the concatenation of these fields (``P`` players, ``S``
    sides; seats and sides relative to the observer, see the module text;
    (1): a rank a side holds as two melds, under ``cutthroat``, shows both
    melds' cards together):

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
        version: The layout's version, `OBSERVATION_VERSION`.
    """

    __slots__ = (
        "_decks",
        "_kind_of",
        "_kind_table",
        "_pile_kinds",
        "_pile_top",
        "_red_threes",
        "_tail",
        "_tail_struct",
        "_views",
        "_zeros",
        "fields",
        "high",
        "low",
        "players",
        "rules",
        "sides",
        "size",
    )

    version: ClassVar[int] = OBSERVATION_VERSION

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        p = self.players = rules.players
        s = self.sides = rules.side_count
        cards = float(rules.deck.size)
        layout: list[tuple[str, int, float, float]] = [
            ("hand", KIND_COUNT, 0.0, cards),
            ("melds", s * len(MELD_RANKS) * 3, 0.0, cards),
            ("threes", p * 2, 0.0, cards),
            ("set_aside", s, 0.0, cards),
            ("pile_top", KIND_COUNT + 1, 0.0, 1.0),
            ("pile_kinds", KIND_COUNT, 0.0, cards),
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
            ("known", p * KIND_COUNT, 0.0, cards),
        ]
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
        self._kind_of: tuple[int, ...] = ()
        # `_parts` writes the tail fields as one list: they must stay last and in this order.
        tail = self.fields[_TAIL_FIELDS[0]].start
        if [name for name, *_ in layout[-len(_TAIL_FIELDS) :]] != list(_TAIL_FIELDS):
            raise RuntimeError("canasta.rl bug: the layout's last fields must be _TAIL_FIELDS, in order")
        self._tail = tail
        self._pile_top = self.fields["pile_top"].start
        self._pile_kinds = self.fields["pile_kinds"].start
        self._zeros = [0] * tail
        self._tail_struct = struct.Struct(f"={self.size - tail}i")
        self._decks: dict[int, tuple[tuple[int, ...], bytes | None, frozenset[int]]] = {}
        self._use_deck(Deck(rules.deck).kinds)
        self._views = [_SeatView(self, seat) for seat in range(p)]

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
        head, tail = self._parts(state, seat)
        # Two C conversions and one numpy call: no per-entry work in Python.
        return np.concatenate((_small_ints(head), self._tail_ints(tail)), dtype=np.float32)

    def encode_many(
        self,
        states: Sequence[HandState | Game],
        seats: Sequence[int],
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """Encode several states at once, one row each (one conversion for the whole batch).

        Args:
            states: `canasta.HandState` or `canasta.Game` objects of these rules.
            seats: The observing seat of each state.
            out: A ``float32`` array of shape ``(len(states), size)`` to write into
                (a new one if omitted).

        Returns:
            ``out``, row ``i`` being ``encode(states[i], seats[i])``.

        Raises:
            ValueError: If the lengths or ``out``'s shape or dtype do not fit, a seat
                does not exist, or a state is for other rules.
        """
        n = len(states)
        if len(seats) != n:
            raise ValueError(f"{n} states but {len(seats)} seats")
        if out is None:
            out = np.empty((n, self.size), dtype=np.float32)
        elif out.shape != (n, self.size) or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape {(n, self.size)}, got {out.dtype} {out.shape}")
        heads: list[int] = []
        tails: list[int] = []
        piles: list[bytes] = []
        parts = self._parts
        for state, seat in zip(states, seats, strict=True):
            head, tail = parts(state, seat, piles)
            heads += head
            tails += tail
        if n:
            out[:, : self._tail] = _small_ints(heads).reshape(n, self._tail)
            packed = struct.pack(f"={len(tails)}i", *tails)  # C, and faster than array("i", ...)
            out[:, self._tail :] = np.frombuffer(packed, dtype=np.int32).reshape(n, self.size - self._tail)
            # Every pile's kinds counted by one bincount: row * KIND_COUNT + kind.
            kinds = np.frombuffer(b"".join(piles), dtype=np.uint8).astype(np.intp)
            rows = np.repeat(np.arange(n, dtype=np.intp), list(map(len, piles)))
            counts = np.bincount(rows * KIND_COUNT + kinds, minlength=n * KIND_COUNT)
            out[:, self._pile_kinds : self._pile_kinds + KIND_COUNT] = counts.reshape(n, KIND_COUNT)
        return out

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
        head, tail = self._parts(state, seat)
        return head + tail

    def _parts(
        self, state: HandState | Game, seat: int, piles: list[bytes] | None = None
    ) -> tuple[list[int], list[int]]:
        """The encoding in two lists: the fields before `_TAIL_FIELDS` (small counts) and those.

        With ``piles``, the ``pile_kinds`` field is left at zero and the pile's
        card kinds (one byte each) are appended to it instead, for the caller
        to count a whole batch in numpy.

        Work per call is per meld, seat and side, never per card: card kinds are
        counted by C code (`bytes.translate` and `bytes.count`).
        """
        hand = state if isinstance(state, HandState) else state.hand
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}; seats are 0 to {self.players - 1}")
        if hand.rules is not self.rules and hand.rules.as_dealt != self.rules:  # (ranks closed in a hand: dead-ranks)
            raise ValueError(
                f"the state plays {hand.rules.variant!r}, this encoder was built for {self.rules.variant!r}"
            )
        view = self._views[seat]
        kinds = hand.kinds
        if kinds is not self._kind_of:
            self._use_deck(kinds)  # another game's deck (each game builds its own)
        head = self._zeros[:]
        head[0:KIND_COUNT] = hand.counts[seat]
        # A rank held as two melds (cutthroat) shows both melds' cards together, hence +=.
        melds = hand.melds
        offsets = _MELD_OFFSET
        for side, base in view.meld_bases:
            for meld in melds[side].values():
                i = base + offsets[meld.rank]
                head[i] += meld.naturals
                head[i + 1] += meld.twos
                head[i + 2] += meld.jokers
        threes = hand.threes
        red_threes = self._red_threes.intersection
        for s, i in view.three_slots:
            laid = threes[s]
            if laid:
                red = len(red_threes(laid))
                head[i] = red
                head[i + 1] = len(laid) - red
        set_aside = hand.set_aside
        if any(set_aside):  # black threes set aside: Cuban only, one C call otherwise
            for side, i in view.set_aside_slots:
                head[i] = len(set_aside[side])
        # The pile as observe() shows it: a pile taken for an opening stays face up until picked up.
        pending = hand.pending_pile
        pile = hand.pile if pending is None else pending + hand.pile
        if pile:
            head[self._pile_top + kinds[pile[-1]]] = 1
            pile_kinds = self._pile_kind_bytes(pile)
            if piles is None:
                head[self._pile_kinds : self._pile_kinds + KIND_COUNT] = map(pile_kinds.count, _KIND_BYTES)
            else:
                piles.append(pile_kinds)
        else:
            head[self._pile_top + KIND_COUNT] = 1
            if piles is not None:
                piles.append(b"")
        # The seat's meld-owning unit this hand: its side, unless a partnership rule
        # regrouped the players (house rule cutthroat).
        seating = hand.seating
        mine = seating[seat]
        partners = [int(seating[s] == mine) for s in view.seats] if hand.regrouped else view.partners
        sides_of = view.sides_of
        answer = hand.answer
        tail = [
            len(pile),
            hand.pile_frozen_for(mine),
            pending is not None,
            len(hand.stock),
            *view.seats_of(hand.sizes),
            *partners,
            *sides_of(hand.scores),
            *map(hand.minimum_needed, view.sides),
            *sides_of(hand.opened),
            *sides_of(hand.asks_used),
            *_PHASE_ONE_HOT[id(hand.phase)],
            *view.acting[hand.seat],
            *(_NO_ANSWER if answer is None else _YES if answer else _NO),
            hand.turn,
        ]
        # The information state: per seat, the kinds of the cards known to be in its hand.
        known = hand.known
        for s in view.seats:
            cards = known[s]
            if cards:
                tail += map(self._pile_kind_bytes(cards).count, _KIND_BYTES)
            else:
                tail += _NO_KNOWN
        return head, tail

    def _tail_ints(self, tail: list[int]) -> npt.NDArray[np.int32]:
        """The tail fields as ``int32`` (`struct` converts them in C)."""
        return np.frombuffer(self._tail_struct.pack(*tail), dtype=np.int32)

    def _use_deck(self, kinds: tuple[int, ...]) -> None:
        """Switch the card-id lookups to the deck of ``kinds`` (each card's `Kind` value, by id).

        Decks seen before are found by the identity of their ``kinds`` tuple
        (`_decks` keeps each tuple alive, so its id stays its own); a new one is
        compared by value, and shares the tables of an equal deck.
        """
        known = self._decks.get(id(kinds))
        if known is None:
            if len(self._decks) >= _DECK_MEMO_LIMIT:
                self._decks.clear()
            equal = next((d for d in self._decks.values() if d[0] == kinds), None)
            # bytes.translate maps card ids to kinds in C, when every id fits in a byte.
            table = bytes(kinds) + bytes(256 - len(kinds)) if len(kinds) <= 256 else None
            red = frozenset(card for card, kind in enumerate(kinds) if kind == _R3)
            known = (kinds, *equal[1:]) if equal is not None else (kinds, table, red)
            self._decks[id(kinds)] = known
        self._kind_of, self._kind_table, self._red_threes = known

    def _pile_kind_bytes(self, pile: list[int]) -> bytes:
        """The kinds of the pile's cards, one byte each (C code: no loop in Python)."""
        if self._kind_table is not None:
            return bytes(pile).translate(self._kind_table)
        return bytes(map(self._kind_of.__getitem__, pile))  # a deck of more than 256 cards

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
