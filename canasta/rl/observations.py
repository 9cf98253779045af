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

from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from canasta.cards import KIND_COUNT, NATURAL_KINDS, Kind
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
_MELD_SLOT = {int(rank): i for i, rank in enumerate(MELD_RANKS)}
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}


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

    __slots__ = ("fields", "high", "low", "players", "rules", "sides", "size")

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
            A ``float32`` vector of length `size`.

        Raises:
            ValueError: If the seat does not exist, or the state is for other rules.
        """
        hand = state if isinstance(state, HandState) else state.hand
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat}; seats are 0 to {self.players - 1}")
        if hand.rules is not self.rules and hand.rules != self.rules:
            raise ValueError(
                f"the state plays {hand.rules.variant!r}, this encoder was built for {self.rules.variant!r}"
            )
        seats = self.seat_order(seat)
        sides = self.side_order(seat)
        kinds = hand.kinds
        fields = self.fields
        out = [0.0] * self.size
        out[0:KIND_COUNT] = hand.counts[seat]
        base = fields["melds"].start
        for rel, side in enumerate(sides):
            side_base = base + rel * len(MELD_RANKS) * 3
            for meld in hand.melds[side].values():
                # A rank held as two melds (cutthroat) shows both melds' cards together.
                i = side_base + _MELD_SLOT[meld.rank] * 3
                out[i] += meld.naturals
                out[i + 1] += meld.twos
                out[i + 2] += meld.jokers
        i = fields["threes"].start
        for s in seats:
            red = sum(1 for c in hand.threes[s] if kinds[c] == _R3)
            out[i] = red
            out[i + 1] = len(hand.threes[s]) - red
            i += 2
        i = fields["set_aside"].start
        out[i : i + len(sides)] = [len(hand.set_aside[side]) for side in sides]
        # The pile as observe() shows it: a pile taken for an opening stays face up until picked up.
        pile = hand.pile if hand.pending_pile is None else hand.pending_pile + hand.pile
        out[fields["pile_top"].start + (kinds[pile[-1]] if pile else KIND_COUNT)] = 1.0
        i = fields["pile_kinds"].start
        for c in pile:
            out[i + kinds[c]] += 1.0
        out[fields["pile_size"].start] = len(pile)
        # The seat's meld-owning unit this hand: its side, unless a partnership rule
        # regrouped the players (house rule cutthroat).
        seating = hand.seating
        out[fields["pile_frozen"].start] = float(hand.pile_frozen_for(seating[seat]))
        out[fields["pile_pending"].start] = float(hand.pending_pile is not None)
        out[fields["stock_size"].start] = len(hand.stock)
        out[fields["hand_sizes"]] = [hand.sizes[s] for s in seats]
        out[fields["partners"]] = [float(seating[s] == seating[seat]) for s in seats]
        out[fields["scores"]] = [hand.scores[side] for side in sides]
        out[fields["minimum_needed"]] = [hand.minimum_needed(side) for side in sides]
        out[fields["opened"]] = [float(hand.opened[side]) for side in sides]
        out[fields["asks_used"]] = [hand.asks_used[side] for side in sides]
        out[fields["phase"].start + _PHASE_INDEX[hand.phase]] = 1.0
        out[fields["acting"].start + (hand.seat - seat) % self.players] = 1.0
        answer = hand.answer
        out[fields["answer"].start + (0 if answer is None else 1 if answer else 2)] = 1.0
        out[fields["turn"].start] = hand.turn
        i = fields["known"].start
        for s in seats:
            for c in hand.known[s]:
                out[i + kinds[c]] += 1.0
            i += KIND_COUNT
        return np.array(out, dtype=np.float32)

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
