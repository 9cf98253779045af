"""The state of one hand and its rules engine.

`HandState` holds everything on the table during a hand: the stock, the discard
pile, the hands, each side's melds and laid-out threes, the turn phase and who
acts. It generates the exact set of legal actions and applies them. Rule values
come from the compiled `canasta.Rules`; comments cite SPEC.md where a rule is
enforced.

For speed the state is mutable and kept in flat lists of card ids and counts;
`apply` refuses an illegal action *before* changing anything, and `copy` is
cheap, so search code copies and applies.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any

from canasta.actions import (
    Action,
    AnswerGoOut,
    AskGoOut,
    Discard,
    DrawStock,
    EndHand,
    Meld,
    Retract,
    TakePile,
)
from canasta.cards import KIND_COUNT, NATURAL_KINDS, Card, Deck, Kind
from canasta.errors import IllegalActionError
from canasta.goingout import can_meld_out
from canasta.rules import Permission, Rules, ThreeRules, Upcard

if TYPE_CHECKING:
    from canasta.observation import Observation
    from canasta.scoring import HandScore

__all__ = ["HandEnd", "HandState", "MeldState", "Phase"]

_JOKER = 0
_TWO = 1
_R3 = 2
_B3 = 3
_NATURALS = tuple(int(k) for k in NATURAL_KINDS)
_DRAW = DrawStock()
_END = EndHand()
_ASK = AskGoOut()
_RETRACT = Retract()
_YES = AnswerGoOut(True)
_NO = AnswerGoOut(False)
_MELDS: dict[tuple[int, int, int, int], Meld] = {}
_DISCARDS = tuple(Discard(Kind(k)) for k in range(KIND_COUNT))
_TAKES = {
    (2, 0, 0): TakePile(2, 0, 0),
    (1, 1, 0): TakePile(1, 1, 0),
    (1, 0, 1): TakePile(1, 0, 1),
    (0, 0, 0): TakePile(0, 0, 0),
}


def _meld_action(rank: int, n: int, t: int, j: int) -> Meld:
    key = (rank, n, t, j)
    action = _MELDS.get(key)
    if action is None:
        action = _MELDS[key] = Meld(Kind(rank), n, t, j)
    return action


#: Per meld-rules object (kept alive beside its cache so the id stays unique).
_COMBO_CACHE: dict[int, tuple[dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]], object]] = {}


def _valid_additions(
    is_valid: Callable[[int, int, int, int], bool], key: tuple[int, int, int, int, int, int, int]
) -> tuple[tuple[int, int, int, int], ...]:
    """Every ``(naturals, twos, jokers, cards)`` addition to a natural meld that keeps it valid.

    ``key`` is ``(rank, naturals, twos, jokers already in the meld, naturals, twos,
    jokers available)``; the result depends on nothing else, so it is cached.
    """
    rank, n0, t0, j0, have, twos, jokers = key
    return tuple(
        (n, t, j, n + t + j)
        for n in range(have + 1)
        for t in range(twos + 1)
        for j in range(jokers + 1)
        if n + t + j and is_valid(rank, n0 + n, t0 + t, j0 + j)
    )


class Phase(Enum):
    """Where the acting player is in the turn."""

    #: Draw from the stock or take the pile.
    DRAW = "draw"
    #: Drawn: meld (optional), then discard.
    MELD = "meld"
    #: A partner must answer "may I go out?".
    ANSWER = "answer"
    #: The hand is over.
    OVER = "over"


class HandEnd(Enum):
    """Why a hand ended."""

    WENT_OUT = "went-out"
    STOCK_EXHAUSTED = "stock-exhausted"
    RED_THREE_LAST = "red-three-last"


class MeldState:
    """A meld on the table (mutable inside the engine; copy before keeping it).

    Attributes:
        rank: The meld's kind (``JOKER`` for a wild meld).
        cards: Card ids in the meld.
        naturals: Natural cards (or black threes).
        twos: 2s.
        jokers: Jokers.
    """

    __slots__ = ("cards", "jokers", "naturals", "rank", "twos")

    def __init__(self, rank: int, cards: list[int], naturals: int, twos: int, jokers: int) -> None:
        self.rank = rank
        self.cards = cards
        self.naturals = naturals
        self.twos = twos
        self.jokers = jokers

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.naturals + self.twos + self.jokers

    def copy(self) -> MeldState:
        """An independent copy."""
        return MeldState(self.rank, self.cards[:], self.naturals, self.twos, self.jokers)

    def __repr__(self) -> str:
        return f"MeldState({Kind(self.rank).name}, n={self.naturals}, twos={self.twos}, jokers={self.jokers})"


class HandState:
    """One hand of canasta: table state, legal actions and their application.

    Create one with `HandState.deal` (shuffled from a seed) or
    `canasta.position.build_position` (an explicit position); `canasta.Game`
    does this for you across a whole game.

    Attributes:
        rules: The compiled rules.
        deck: The deck (card ids index ``deck.cards``).
        dealer: The dealer's seat.
        scores: Each side's cumulative score before this hand.
        minimums: Each side's initial-meld minimum for this hand.
        seat: The seat that must act now.
        phase: The turn phase.
        turn: Turns started so far in this hand, minus one (0 during the first turn).
        end: Why the hand ended, once it has.
        went_out: The seat that went out, if one did.
        concealed: Whether that player went out concealed.
    """

    __slots__ = (
        "_combos",
        "_legal",
        "added_to_old",
        "answer",
        "asker",
        "asks_used",
        "concealed",
        "counts",
        "dealer",
        "deck",
        "drew_from_stock",
        "end",
        "final_meld_only",
        "hands",
        "kinds",
        "melded_before",
        "melded_this_turn",
        "melds",
        "minimums",
        "new_ranks",
        "opened",
        "opening_retracted",
        "pending_pile",
        "phase",
        "pile",
        "pile_freezers",
        "pile_refused",
        "provisional_clean",
        "provisional_count",
        "regrouped",
        "resume_phase",
        "rules",
        "scores",
        "seat",
        "seating",
        "set_aside",
        "sizes",
        "stock",
        "taken_top",
        "threes",
        "turn",
        "went_out",
    )

    def __init__(self, rules: Rules, deck: Deck, dealer: int, scores: list[int]) -> None:
        """Create an empty table; use `deal` or `build_position` instead."""
        n = rules.players
        sides = rules.side_count
        self.rules = rules
        self.deck = deck
        self.kinds = deck.kinds
        self.dealer = dealer
        self.scores = list(scores)
        self.minimums = [rules.minimums.minimum_for(s) for s in self.scores]
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.pile_freezers = 0
        self.hands: list[list[list[int]]] = [[[] for _ in range(KIND_COUNT)] for _ in range(n)]
        self.counts: list[list[int]] = [[0] * KIND_COUNT for _ in range(n)]
        self.sizes = [0] * n
        self.melds: list[dict[int, MeldState]] = [{} for _ in range(sides)]
        self.threes: list[list[int]] = [[] for _ in range(n)]
        self.set_aside: list[list[int]] = [[] for _ in range(sides)]
        self.opened = [False] * sides
        self.melded_before = [False] * n
        #: The side (meld-owning unit) of each seat in this hand: the variant's seating,
        #: unless a partnership rule regroups the players (SPEC.md §3 cutthroat).
        self.seating = list(rules.sides)
        self.regrouped = False
        self.asks_used = [0] * sides
        self.seat = (dealer + 1) % n
        self.phase = Phase.DRAW
        self.turn = 0
        self.end: HandEnd | None = None
        self.went_out: int | None = None
        self.concealed = False
        self._reset_turn()
        self._legal: list[Action] | None = None
        # Valid meld additions by situation, shared by every hand of these rules.
        self._combos = _COMBO_CACHE.setdefault(id(rules.melds), ({}, rules.melds))[0]

    def _reset_turn(self) -> None:
        self.drew_from_stock = False
        self.pile_refused = False
        self.melded_this_turn = False
        self.added_to_old = False
        self.new_ranks: set[int] = set()
        self.opening_retracted = False
        self.provisional_count = 0
        self.provisional_clean = False
        self.pending_pile: list[int] | None = None
        self.taken_top: int | None = None
        self.answer: bool | None = None
        self.asker: int | None = None
        self.resume_phase = Phase.DRAW
        self.final_meld_only = False

    # --- construction ---------------------------------------------------------------

    @classmethod
    def deal(cls, rules: Rules, *, dealer: int, scores: list[int], seed: object, deck: Deck | None = None) -> HandState:
        """Shuffle and deal a hand (SPEC.md §1 "Table and deal").

        Args:
            rules: The compiled rules.
            dealer: The dealer's seat.
            scores: Each side's cumulative score before the hand.
            seed: Any hashable seed for the shuffle (same seed, same deal).
            deck: The deck to use (built from the rules if omitted).

        Returns:
            The hand, with the upcard turned and deal-time red threes laid out
            and replaced, ready for the first player's draw.
        """
        deck = deck or Deck(rules.deck)
        state = cls(rules, deck, dealer, scores)
        order = list(range(len(deck)))
        random.Random(str(seed) if not isinstance(seed, int) else seed).shuffle(order)
        state.stock = order  # the top of the stock is the end of the list
        n = rules.players
        first = (dealer + 1) % n
        for _ in range(rules.hand_size):
            for i in range(n):
                state._to_hand((first + i) % n, state.stock.pop())
        state._turn_upcard()
        # Deal-time threes: each player in turn lays out and replaces them.
        for i in range(n):
            seat = (first + i) % n
            state._lay_out_and_replace(seat)
        state._begin_turn()
        return state

    def _turn_upcard(self) -> None:
        """SPEC.md §1 "Upcard": cover a wild card or red three; the buried one freezes."""
        if self.rules.upcard is Upcard.NONE:
            return
        kinds = self.kinds
        while self.stock:
            card = self.stock.pop()
            self._push_pile(card)
            if kinds[card] > _R3:
                break

    def _push_pile(self, card: int) -> None:
        self.pile.append(card)
        if self._freezes(self.kinds[card]):
            self.pile_freezers += 1

    def _freezes(self, kind: int) -> bool:
        pile_rules = self.rules.pile
        if kind <= _TWO:
            return pile_rules.wild_freezes
        if kind == _R3:
            return pile_rules.red_three_freezes
        if kind == _B3:
            return pile_rules.black_three_freezes
        return False

    def _is_bonus_three(self, kind: int) -> bool:
        return kind == _R3 or (kind == _B3 and self.rules.threes.black_threes_are_bonus)

    def _to_hand(self, seat: int, card: int) -> None:
        kind = self.kinds[card]
        self.hands[seat][kind].append(card)
        self.counts[seat][kind] += 1
        self.sizes[seat] += 1

    def _from_hand(self, seat: int, kind: int) -> int:
        self.counts[seat][kind] -= 1
        self.sizes[seat] -= 1
        return self.hands[seat][kind].pop()

    def _lay_out_and_replace(self, seat: int) -> bool:
        """Lay out the seat's bonus threes, replacing each from the stock.

        Returns:
            False if the stock ran out on a replacement of a three (the last
            stock card was a three).
        """
        kinds_to_check = (_R3, _B3) if self.rules.threes.black_threes_are_bonus else (_R3,)
        while True:
            found = False
            for kind in kinds_to_check:
                while self.counts[seat][kind]:
                    found = True
                    self.threes[seat].append(self._from_hand(seat, kind))
                    if not self.stock:
                        return False
                    self._to_hand(seat, self.stock.pop())
            if not found:
                return True

    # --- derived facts ----------------------------------------------------------------

    @property
    def side(self) -> int:
        """The side of the acting seat."""
        return self.seating[self.seat]

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.phase is Phase.OVER

    def side_of(self, seat: int) -> int:
        """The side a seat belongs to.

        Args:
            seat: The seat.

        Returns:
            Its side.
        """
        return self.seating[seat]

    def canastas(self, side: int) -> int:
        """Number of canastas a side has on the table.

        Args:
            side: The side.

        Returns:
            Its count of melds of canasta size or more.
        """
        size = self.rules.melds.canasta_size
        return sum(1 for m in self.melds[side].values() if m.size >= size)

    def pile_frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen for a side (SPEC.md §1 "frozen and taking").

        Args:
            side: The side.

        Returns:
            True if the side may take it only with a natural pair.
        """
        pile_rules = self.rules.pile
        return (
            pile_rules.always_frozen
            or self.pile_freezers > 0
            or (pile_rules.unmelded_side_frozen and not self.opened[side])
        )

    def minimum_needed(self, side: int) -> int:
        """The count the side's initial meld still needs (0 once it has melded).

        Args:
            side: The side.

        Returns:
            The remaining minimum.
        """
        if self.opened[side]:
            return 0
        remaining = self.personal_minimum(self.seat) if side == self.side else self.minimums[side]
        if side == self.side and self.phase is not Phase.OVER:
            remaining -= self.provisional_count
        return max(remaining, 0)

    def personal_minimum(self, seat: int) -> int:
        """The initial-meld minimum of a seat, from its own side's score before the hand.

        Equal to its side's minimum, except after a regrouping (SPEC.md §3
        cutthroat), where each partner keeps a personal minimum.

        Args:
            seat: The seat.

        Returns:
            The minimum count.
        """
        return self.minimums[self.rules.sides[seat]]

    def hand_cards(self, seat: int) -> list[Card]:
        """The cards in a seat's hand, sorted by kind.

        Args:
            seat: The seat.

        Returns:
            Its cards.
        """
        cards = self.deck.cards
        return [cards[c] for kind in range(KIND_COUNT) for c in self.hands[seat][kind]]

    def hand_counts(self, seat: int) -> tuple[int, ...]:
        """Card counts by kind in a seat's hand.

        Args:
            seat: The seat.

        Returns:
            15 counts indexed by `Kind`.
        """
        return tuple(self.counts[seat])

    def card_locations(self) -> dict[str, list[int]]:
        """Where every card is: a list of card ids per location (for conservation checks)."""
        where: dict[str, list[int]] = {"stock": list(self.stock), "pile": list(self.pile)}
        if self.pending_pile is not None:
            where["pile (being taken)"] = list(self.pending_pile)
        for seat in range(self.rules.players):
            where[f"hand {seat}"] = [c for kind in self.hands[seat] for c in kind]
            where[f"threes {seat}"] = list(self.threes[seat])
        for side in range(self.rules.side_count):
            where[f"melds {side}"] = [c for m in self.melds[side].values() for c in m.cards]
            where[f"set aside {side}"] = list(self.set_aside[side])
        return where

    # --- turn flow --------------------------------------------------------------------

    def _begin_turn(self) -> None:
        """Start the acting seat's turn; end the hand if the stock is out (SPEC.md §1)."""
        self._reset_turn()
        self.phase = Phase.DRAW
        self._legal = None
        if self.stock:
            return
        exhaustion = self.rules.exhaustion
        if not exhaustion.continue_with_discards or not self._take_options(exhausted=True):
            self._finish(HandEnd.STOCK_EXHAUSTED)

    def _finish(self, end: HandEnd, went_out: int | None = None, concealed: bool = False) -> None:
        self.phase = Phase.OVER
        self.end = end
        self.went_out = went_out
        self.concealed = concealed
        self._legal = []

    def _next_turn(self) -> None:
        if self.melded_this_turn:
            self.melded_before[self.seat] = True
        self.seat = (self.seat + 1) % self.rules.players
        self.turn += 1
        self._begin_turn()

    # --- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the acting seat may take now, exactly.

        Returns:
            The legal actions (cached until the state changes; do not mutate).
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> list[Action]:
        phase = self.phase
        if phase is Phase.DRAW:
            return self._draw_actions()
        if phase is Phase.MELD:
            return self._meld_phase_actions()
        if phase is Phase.ANSWER:
            return [_YES, _NO]
        return []

    def _can_ask(self) -> bool:
        permission = self.rules.going_out.permission
        if permission is Permission.NONE or self.asker is not None or self.melded_this_turn:
            return False
        if self.answer is not None:
            return False
        if permission is Permission.ONCE_PER_HAND and self.asks_used[self.side]:
            return False
        return self.final_meld_only is False

    def _draw_actions(self) -> list[Action]:
        actions: list[Action] = []
        exhausted = not self.stock
        if not exhausted:
            actions.append(_DRAW)
        takes = self._take_options(exhausted=exhausted)
        actions.extend(takes)
        if exhausted and not self._forced_take(takes):
            actions.append(_END)
        if self._can_ask():
            actions.append(_ASK)
        return actions

    def _forced_take(self, takes: list[TakePile]) -> bool:
        """SPEC.md §1 "Stock exhaustion": a matching discard must be taken."""
        if not self.rules.exhaustion.forced_take:
            return False
        return any(t.naturals == 0 and t.twos == 0 and t.jokers == 0 for t in takes)

    def _take_options(self, *, exhausted: bool) -> list[TakePile]:
        """The legal ways to take the pile now (SPEC.md §1 "The discard pile")."""
        pile = self.pile
        if not pile or self.pile_refused:
            return []
        pile_rules = self.rules.pile
        top = self.kinds[pile[-1]]
        if top < 4 or top in pile_rules.blocked_top:
            return []
        seat = self.seat
        side = self.seating[seat]
        if pile_rules.one_card_rule and self.sizes[seat] == 1 and len(pile) == 1:
            return []
        opened = self.opened[side]
        if not opened and not pile_rules.unmelded_side_may_take:
            return []
        counts = self.counts[seat]
        meld = self.melds[side].get(top)
        n0, t0, j0 = (meld.naturals, meld.twos, meld.jokers) if meld else (0, 0, 0)
        is_valid = self.rules.melds.is_valid
        result: list[TakePile] = []
        frozen = self.pile_frozen_for(side)
        if counts[top] >= 2 and is_valid(top, n0 + 3, t0, j0):
            result.append(_TAKES[(2, 0, 0)])
        if not frozen and pile_rules.natural_and_wild and counts[top] >= 1:
            if counts[_TWO] and is_valid(top, n0 + 2, t0 + 1, j0):
                result.append(_TAKES[(1, 1, 0)])
            if counts[_JOKER] and is_valid(top, n0 + 2, t0, j0 + 1):
                result.append(_TAKES[(1, 0, 1)])
        layoff_ok = (not frozen and pile_rules.layoff) or (exhausted and self.rules.exhaustion.forced_take_by_layoff)
        if layoff_ok and meld is not None and opened and is_valid(top, n0 + 1, t0, j0):
            result.append(_TAKES[(0, 0, 0)])
        if result:
            # A take that leaves at most one card in hand must still let the turn end
            # legally (meld out, or discard the last card going out). An unmelded side
            # is included: a take that meets the minimum at once opens the side.
            rest = sum(1 for c in pile[:-1] if not self._leaves_hand(self.kinds[c]))
            left = self.sizes[seat] + rest
            if left - 2 <= 1:
                result = [a for a in result if left - a.naturals - a.twos - a.jokers > 1 or self._take_ok(a)]
        return result

    def _leaves_hand(self, kind: int) -> bool:
        """Whether a pile card of this kind is laid out or set aside instead of going to hand."""
        return self._is_bonus_three(kind) or (kind == _B3 and self.rules.black_threes.set_aside_from_pile)

    def _take_ok(self, action: TakePile) -> bool:
        trial = self.copy()
        trial._do_take(action)
        return trial._turn_can_end(must_out=False)

    def _turn_can_end(self, *, must_out: bool) -> bool:
        """Whether the acting player, from here, can still end the turn legally."""
        if self.phase is Phase.OVER or self.final_meld_only:
            return True
        seat = self.seat
        side = self.seating[seat]
        if self.sizes[seat] == 0:
            return False  # an empty hand that did not go out
        if not self.opened[side]:
            return not must_out or self._can_go_out_now()  # provisional: Retract is always there
        if must_out:
            return self._can_go_out_now()
        counts = self.counts[seat]
        if self.sizes[seat] >= 2 and any(counts[k] and self._discardable(k) for k in range(KIND_COUNT)):
            return True
        return self._can_go_out_now()

    def _meld_phase_actions(self) -> list[Action]:
        seat = self.seat
        side = self.seating[seat]
        counts = self.counts[seat]
        size = self.sizes[seat]
        rules = self.rules
        meld_rules = rules.melds
        is_valid = meld_rules.is_valid
        melds = self.melds[side]
        must_out = self.answer is True and self._can_go_out_now()
        actions: list[Action] = []
        twos = counts[_TWO]
        jokers = counts[_JOKER]
        max_w = meld_rules.max_wilds
        # After taking back opening melds made from the hand, the side may not try to
        # open again this turn: this keeps every turn finite (no meld/retract cycles).
        may_meld = not self._opening_blocked()
        # Fast path: with no binding "yes", no last-card red three, and every card
        # discardable, a meld that leaves two or more cards always lets the turn end.
        simple = not must_out and not self.final_meld_only and (
            not self.opened[side] or not (rules.black_threes.no_discard_first_round and self.turn < rules.players)
        )
        combos_for = self._combos
        for rank in _NATURALS if may_meld else ():
            have = counts[rank]
            meld = melds.get(rank)
            if meld is None:
                if have < 1:
                    continue
                n0 = t0 = j0 = 0
            else:
                n0, t0, j0 = meld.naturals, meld.twos, meld.jokers
            room = max_w - t0 - j0
            key = (rank, n0, t0, j0, have, max(0, min(twos, room)), max(0, min(jokers, room)))
            combos = combos_for.get(key)
            if combos is None:
                combos = combos_for[key] = _valid_additions(is_valid, key)
            for n, t, j, added in combos:
                remaining = size - added
                if (simple and remaining >= 2) or self._meld_leaves_turn_playable(rank, n, t, j, remaining, must_out):
                    actions.append(_meld_action(rank, n, t, j))
        if may_meld and meld_rules.wild_melds and (twos or jokers):
            meld = melds.get(_JOKER)
            t0, j0 = (meld.twos, meld.jokers) if meld else (0, 0)
            for t in range(twos + 1):
                for j in range(jokers + 1):
                    if (
                        t + j
                        and is_valid(_JOKER, 0, t0 + t, j0 + j)
                        and self._meld_leaves_turn_playable(_JOKER, 0, t, j, size - t - j, must_out)
                    ):
                        actions.append(_meld_action(_JOKER, 0, t, j))
        black = counts[_B3]
        if may_meld and black >= 3 and meld_rules.black_threes_when_going_out:
            for n in range(3, black + 1):
                # SPEC.md §1 "Melds": black threes only as the last meld of going out.
                if (
                    is_valid(_B3, n, 0, 0)
                    and size - n <= 1
                    and self._meld_leaves_turn_playable(_B3, n, 0, 0, size - n, must_out)
                ):
                    actions.append(_meld_action(_B3, n, 0, 0))
        if self.final_meld_only:
            if self._provisional_ok():
                actions.append(_END)
        else:
            for kind in range(KIND_COUNT):
                if counts[kind] and self._discard_ok(kind, size, must_out):
                    actions.append(_DISCARDS[kind])
        if self._has_provisional():
            actions.append(_RETRACT)
        if self._can_ask():
            actions.append(_ASK)
        return actions

    # --- the rules behind the meld phase -------------------------------------------------

    def _opening_blocked(self) -> bool:
        """Whether the acting side took back opening melds from the hand this turn."""
        return self.opening_retracted and not self.opened[self.seating[self.seat]]

    def _has_provisional(self) -> bool:
        return not self.opened[self.seating[self.seat]] and bool(self.melds[self.seating[self.seat]])

    def _provisional_ok(self) -> bool:
        """Whether no opening is pending below its minimum."""
        return not self._has_provisional()

    def _opening_reached(self, count: int, clean: bool) -> bool:
        """SPEC.md §1 "Initial meld": the count reaches the side's minimum."""
        if count < self.personal_minimum(self.seat):
            return False
        return clean or self.rules.initial_meld.clean_meld_naturals == 0

    def _concealed_exempt(self) -> bool:
        """SPEC.md §1 "Initial meld" exception: stock draw, whole hand melded with a canasta."""
        return self.rules.initial_meld.concealed_exemption and self.drew_from_stock and self.taken_top is None

    def _going_out_permitted(self, side: int) -> bool:
        if self.answer is False:  # SPEC.md §1 "Going out": "no" binds for this turn
            return False
        # After a last-card red three the hand ends without going out (rule option
        # last-red-three-may-meld lets the player meld first, never go out).
        return not self.final_meld_only

    def _discardable(self, kind: int) -> bool:
        if self._is_bonus_three(kind):
            return False
        # SPEC.md §5: no black-three discard during the first round of turns.
        return not (kind == _B3 and self.rules.black_threes.no_discard_first_round and self.turn < self.rules.players)

    def _meld_counts(self, side: int) -> dict[int, tuple[int, int, int]]:
        return {r: (m.naturals, m.twos, m.jokers) for r, m in self.melds[side].items()}

    def _can_go_out_now(self) -> bool:
        """Exact: can the acting player still go out this turn from here?"""
        seat = self.seat
        side = self.seating[seat]
        if not self._going_out_permitted(side):
            return False
        minimum: int | None = None
        if self.pending_pile is not None:
            # The pile comes into the hand once the minimum is met; until then the
            # player cannot be held to going out (the binding "yes" waits for it).
            return False
        if self._opening_blocked():
            return False  # no melds at all are possible for the rest of this turn
        if not self.opened[side] and not self._concealed_exempt():
            minimum = self.personal_minimum(seat) - self.provisional_count
        return can_meld_out(
            self.rules, self.counts[seat], self._meld_counts(side), minimum=minimum, discardable=self._discardable
        )

    def _goes_out_ok(self, side: int, canastas_after: int, count_after: int, clean_after: bool) -> bool:
        """SPEC.md §1 "Going out": canastas, permission, and the minimum or the concealed exemption."""
        if not self._going_out_permitted(side):
            return False
        if canastas_after < self.rules.going_out.canastas_required:
            return False
        if self.opened[side]:
            return True
        if self._opening_reached(count_after, clean_after):
            return True
        return self._concealed_exempt() and canastas_after >= 1

    def _meld_leaves_turn_playable(self, rank: int, n: int, t: int, j: int, remaining: int, must_out: bool) -> bool:
        """Refuse a meld after which the player could not legally end the turn."""
        if self.final_meld_only:
            return True  # no discard follows: the hand ends after melding
        seat = self.seat
        side = self.seating[seat]
        if must_out or remaining <= 1 or rank == _B3:
            return self._simulate_meld_ok(rank, n, t, j, remaining, must_out)
        if not self.opened[side]:
            return True  # still provisional or opening now: a card is left to discard
        if not (self.rules.black_threes.no_discard_first_round and self.turn < self.rules.players):
            return True  # every card left is discardable
        counts = self.counts[seat]
        for kind in range(KIND_COUNT):
            left = counts[kind] - (n if kind == rank else t if kind == _TWO else j if kind == _JOKER else 0)
            if left > 0 and self._discardable(kind):
                return True
        return self._simulate_meld_ok(rank, n, t, j, remaining, must_out)

    def _simulate_meld_ok(self, rank: int, n: int, t: int, j: int, remaining: int, must_out: bool) -> bool:
        trial = self.copy()
        trial._do_meld(rank, n, t, j)
        return trial._turn_can_end(must_out=must_out)

    def _discard_ok(self, kind: int, size: int, must_out: bool) -> bool:
        if not self._discardable(kind):
            return False
        side = self.seating[self.seat]
        if size == 1:
            # SPEC.md §1 "Going out": the final discard goes out.
            return self._goes_out_ok(side, self.canastas(side), self.provisional_count, self.provisional_clean)
        if must_out:
            return False  # SPEC.md §1: after "yes" the player must go out this turn
        # SPEC.md §1 "Initial meld": no discard while the opening is below its minimum.
        return self._provisional_ok()

    # --- applying actions ---------------------------------------------------------------

    def is_legal(self, action: Action) -> bool:
        """Whether an action is legal now, without applying it.

        Args:
            action: The action.

        Returns:
            True if `apply` would accept it.
        """
        return action in self.legal_actions()

    def check(self, action: Action) -> None:
        """Raise if an action is illegal now; change nothing.

        Args:
            action: The action.

        Raises:
            IllegalActionError: With the rule's code and a sentence naming it.
        """
        if action not in self.legal_actions():
            from canasta.explain import explain

            code, message = explain(self, action)
            raise IllegalActionError(code, message, action)

    def apply(self, action: Action) -> None:
        """Apply a legal action, or raise and change nothing.

        Args:
            action: The action.

        Raises:
            IllegalActionError: If the action is illegal now.
        """
        self.check(action)
        self._apply_unchecked(action)

    def _apply_unchecked(self, action: Action) -> None:
        self._legal = None
        if isinstance(action, Meld):
            self._do_meld(int(action.rank), action.naturals, action.twos, action.jokers)
        elif isinstance(action, Discard):
            self._do_discard(int(action.kind))
        elif isinstance(action, DrawStock):
            self._do_draw()
        elif isinstance(action, TakePile):
            self._do_take(action)
        elif isinstance(action, AskGoOut):
            self._do_ask()
        elif isinstance(action, AnswerGoOut):
            self._do_answer(action.yes)
        elif isinstance(action, Retract):
            self._do_retract()
        elif isinstance(action, EndHand):
            self._do_end_hand()
        else:  # pragma: no cover - check() refuses unknown actions
            raise TypeError(action)

    def _do_draw(self) -> None:
        """SPEC.md §1 "The turn" and §2: draw, laying out and replacing red threes."""
        seat = self.seat
        need = self.rules.draw_count
        kinds = self.kinds
        while need and self.stock:
            card = self.stock.pop()
            if self._is_bonus_three(kinds[card]):
                self.threes[seat].append(card)
                if not self.stock:
                    # SPEC.md §1 "Stock exhaustion": a red three as the last card ends the hand.
                    if self.rules.exhaustion.last_red_three_may_meld:
                        self.drew_from_stock = True
                        self.phase = Phase.MELD
                        self.final_meld_only = True
                        return
                    self._finish(HandEnd.RED_THREE_LAST)
                    return
                continue
            self._to_hand(seat, card)
            need -= 1
        self.drew_from_stock = True
        self.phase = Phase.MELD

    def _do_take(self, action: TakePile) -> None:
        """SPEC.md §1 "Taking": meld the top card with the shown cards, then take the rest."""
        seat = self.seat
        side = self.seating[seat]
        top = self.pile.pop()
        rank = self.kinds[top]
        rest = self.pile
        self.pile = []
        self.pile_freezers = 0
        self.taken_top = top
        self.phase = Phase.MELD
        opened = self.opened[side]
        meld = self.melds[side].get(rank)
        if meld is None:
            meld = self.melds[side][rank] = MeldState(rank, [], 0, 0, 0)
            self.new_ranks.add(rank)
        elif self.melded_before_turn(side, rank):
            self.added_to_old = True
        meld.cards.append(top)
        meld.naturals += 1
        self.melded_this_turn = True
        value = self.rules.card_values[rank] if self.rules.initial_meld.top_card_counts else 0
        for _ in range(action.naturals):
            meld.cards.append(self._from_hand(seat, rank))
            meld.naturals += 1
            value += self.rules.card_values[rank]
        for kind, count in ((_TWO, action.twos), (_JOKER, action.jokers)):
            for _ in range(count):
                meld.cards.append(self._from_hand(seat, kind))
                value += self.rules.card_values[kind]
            if kind == _TWO:
                meld.twos += count
            else:
                meld.jokers += count
        if opened:
            self._pick_up(rest)
            self._go_out_if_empty()
            return
        # SPEC.md §1: the minimum must be met before the rest of the pile is picked up.
        self.pending_pile = rest
        self.provisional_count += value
        self._maybe_open()

    def melded_before_turn(self, side: int, rank: int) -> bool:
        """Whether the side's meld of this rank existed before this turn.

        Args:
            side: The side.
            rank: The meld's rank.

        Returns:
            True for a meld from an earlier turn.
        """
        return rank in self.melds[side] and rank not in self.new_ranks

    def _pick_up(self, cards: list[int]) -> None:
        """Pile cards go to hand; threes in them are laid out, not replaced (SPEC.md §1, §5)."""
        seat = self.seat
        if self.rules.partnerships.first_taker_alone and not self.regrouped:
            self._regroup(seat)  # SPEC.md §3 cutthroat: the first to take the pile plays alone
        side = self.seating[seat]
        kinds = self.kinds
        set_aside = self.rules.black_threes.set_aside_from_pile
        for card in cards:
            kind = kinds[card]
            if self._is_bonus_three(kind):
                self.threes[seat].append(card)
            elif kind == _B3 and set_aside:
                self.set_aside[side].append(card)
            else:
                self._to_hand(seat, card)

    def _maybe_open(self) -> None:
        side = self.seating[self.seat]
        if self._opening_reached(self.provisional_count, self.provisional_clean):
            self.opened[side] = True
            pending = self.pending_pile
            self.pending_pile = None
            if pending is not None:
                self._pick_up(pending)

    def _do_meld(self, rank: int, n: int, t: int, j: int) -> None:
        seat = self.seat
        side = self.seating[seat]
        melds = self.melds[side]
        meld = melds.get(rank)
        if meld is None:
            meld = melds[rank] = MeldState(rank, [], 0, 0, 0)
            self.new_ranks.add(rank)
        elif rank not in self.new_ranks:
            self.added_to_old = True
        values = self.rules.card_values
        added = 0
        for kind, count in ((rank, n), (_TWO, t), (_JOKER, j)):
            for _ in range(count):
                meld.cards.append(self._from_hand(seat, kind))
            added += values[kind] * count
        meld.naturals += n
        meld.twos += t
        meld.jokers += j
        self.melded_this_turn = True
        if not self.opened[side]:
            self.provisional_count += added
            clean_need = self.rules.initial_meld.clean_meld_naturals
            if clean_need and rank != _JOKER and meld.twos + meld.jokers == 0:
                from_pile = self.taken_top is not None and rank == self.kinds[self.taken_top]
                hand_naturals = meld.naturals - (1 if from_pile else 0)
                if hand_naturals >= clean_need:
                    self.provisional_clean = True
            self._maybe_open()
        self._go_out_if_empty()

    def _go_out_if_empty(self) -> None:
        """Melding the last card goes out, where allowed (SPEC.md §1 "Going out")."""
        seat = self.seat
        side = self.seating[seat]
        if (
            self.sizes[seat] == 0
            and not self.final_meld_only
            and not self.rules.going_out.final_discard_required
            and self._goes_out_ok(side, self.canastas(side), self.provisional_count, self.provisional_clean)
        ):
                self._go_out()

    def _go_out(self) -> None:
        seat = self.seat
        if self.rules.partnerships.first_taker_alone and not self.regrouped:
            self._regroup(seat)  # nobody took the pile: the player going out is the lone hand
        side = self.seating[seat]
        size = self.rules.melds.canasta_size
        own_canasta = any(self.melds[side][r].size >= size for r in self.new_ranks if r in self.melds[side])
        concealed = (
            self.rules.going_out.concealed_bonus is not None
            and not self.melded_before[seat]
            and not self.added_to_old
            and own_canasta
        )
        if not self.opened[side]:
            self.opened[side] = True  # the concealed exemption: the melds stand
        self._finish(HandEnd.WENT_OUT, seat, concealed)

    def _do_discard(self, kind: int) -> None:
        seat = self.seat
        card = self._from_hand(seat, kind)
        self._push_pile(card)
        if self.sizes[seat] == 0:
            self._go_out()
            return
        if self.rules.initial_meld.bonus_cards:
            self._draw_bonus_cards()
        self._next_turn()

    def _regroup(self, lone: int) -> None:
        """One player plays alone; everyone else becomes one side (SPEC.md §3 rule option cutthroat).

        The joining players' melds are combined into the side of the first of
        them: melds of the same rank become one meld holding all their cards (a
        side has one meld per rank, SPEC.md §1 "Melds"). The side has melded if
        any of them had. Each player keeps their personal score and minimum.
        """
        self.regrouped = True
        lone_side = self.seating[lone]
        joining = sorted({sd for sd in self.seating if sd != lone_side})
        if len(joining) < 2:
            return
        unit = joining[0]
        melds = self.melds[unit]
        for side in joining[1:]:
            for rank, meld in self.melds[side].items():
                into = melds.get(rank)
                if into is None:
                    melds[rank] = meld
                else:
                    into.cards.extend(meld.cards)
                    into.naturals += meld.naturals
                    into.twos += meld.twos
                    into.jokers += meld.jokers
            self.melds[side] = {}
            self.opened[unit] = self.opened[unit] or self.opened[side]
            self.set_aside[unit].extend(self.set_aside[side])
            self.set_aside[side] = []
            self.asks_used[unit] += self.asks_used[side]
        self.seating = [unit if sd in joining else sd for sd in self.seating]

    def _opened_this_turn(self, side: int) -> bool:
        # A side that had not melded before this turn had no melds then (provisional
        # melds are retracted or stand), so all of its melds are this turn's.
        return self.opened[side] and bool(self.melds[side]) and all(r in self.new_ranks for r in self.melds[side])

    def _draw_bonus_cards(self) -> None:
        """Rule option american-talon (SPEC.md §6): bonus cards after the discard ending the opening turn."""
        seat = self.seat
        side = self.seating[seat]
        if not self._opened_this_turn(side):
            return
        initial = self.rules.initial_meld
        earlier = sum(1 for sd, done in enumerate(self.opened) if done and sd != side)
        if earlier >= len(initial.bonus_cards) or len(self.stock) <= initial.bonus_cards_stock_floor:
            return
        need = initial.bonus_cards[earlier]
        while need and self.stock:
            card = self.stock.pop()
            if self._is_bonus_three(self.kinds[card]):
                self.threes[seat].append(card)  # laid out at once and replaced
                continue
            self._to_hand(seat, card)
            need -= 1

    def _do_ask(self) -> None:
        """SPEC.md §1 "Going out": ask the partner (the next partner in turn order)."""
        side = self.seating[self.seat]
        self.asks_used[side] += 1
        self.asker = self.seat
        self.resume_phase = self.phase
        n = self.rules.players
        partner = next(
            (self.seat + i) % n for i in range(1, n) if self.seating[(self.seat + i) % n] == side
        )
        self.seat = partner
        self.phase = Phase.ANSWER

    def _do_answer(self, yes: bool) -> None:
        assert self.asker is not None
        self.answer = yes
        self.seat = self.asker
        self.phase = self.resume_phase

    def _do_retract(self) -> None:
        """Take back provisional opening melds; a taken pile goes back (SPEC.md §1 "Initial meld")."""
        seat = self.seat
        side = self.seating[seat]
        top = self.taken_top
        for meld in self.melds[side].values():
            for card in meld.cards:
                if card != top:
                    self._to_hand(seat, card)
        self.melds[side].clear()
        self.new_ranks.clear()
        self.melded_this_turn = False  # retracted melds were never made
        self.provisional_count = 0
        self.provisional_clean = False
        if top is None:
            self.opening_retracted = True  # no second opening attempt from the hand this turn
        else:
            assert self.pending_pile is not None
            self.pile = self.pending_pile
            self.pending_pile = None
            self.pile.append(top)
            self.pile_freezers = sum(1 for c in self.pile if self._freezes(self.kinds[c]))
            self.taken_top = None
            self.pile_refused = True
            self.phase = Phase.DRAW

    def _do_end_hand(self) -> None:
        if self.final_meld_only:
            self._finish(HandEnd.RED_THREE_LAST)
        else:
            self._finish(HandEnd.STOCK_EXHAUSTED)

    # --- views ---------------------------------------------------------------------------

    def copy(self) -> HandState:
        """An independent copy (cheap: flat lists of ints)."""
        new = HandState.__new__(HandState)
        new.rules = self.rules
        new.deck = self.deck
        new.kinds = self.kinds
        new.dealer = self.dealer
        new.scores = self.scores[:]
        new.minimums = self.minimums[:]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.pile_freezers = self.pile_freezers
        new.hands = [[k[:] for k in h] for h in self.hands]
        new.counts = [c[:] for c in self.counts]
        new.sizes = self.sizes[:]
        new.melds = [{r: m.copy() for r, m in side.items()} for side in self.melds]
        new.threes = [t[:] for t in self.threes]
        new.set_aside = [s[:] for s in self.set_aside]
        new.opened = self.opened[:]
        new.melded_before = self.melded_before[:]
        new.seating = self.seating[:]
        new.regrouped = self.regrouped
        new.asks_used = self.asks_used[:]
        new.seat = self.seat
        new.phase = self.phase
        new.turn = self.turn
        new.end = self.end
        new.went_out = self.went_out
        new.concealed = self.concealed
        new.drew_from_stock = self.drew_from_stock
        new.pile_refused = self.pile_refused
        new.melded_this_turn = self.melded_this_turn
        new.added_to_old = self.added_to_old
        new.new_ranks = set(self.new_ranks)
        new.opening_retracted = self.opening_retracted
        new.provisional_count = self.provisional_count
        new.provisional_clean = self.provisional_clean
        new.pending_pile = None if self.pending_pile is None else self.pending_pile[:]
        new.taken_top = self.taken_top
        new.answer = self.answer
        new.asker = self.asker
        new.resume_phase = self.resume_phase
        new.final_meld_only = self.final_meld_only
        new._legal = self._legal
        new._combos = self._combos
        return new

    def __copy__(self) -> HandState:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> HandState:
        return self.copy()

    def score(self) -> HandScore:
        """Score the finished hand (SPEC.md §1 "Scoring a hand").

        Returns:
            The per-side breakdown.

        Raises:
            ValueError: If the hand is not over.
        """
        from canasta.scoring import score_hand

        return score_hand(self)

    def observation(self, seat: int) -> Observation:
        """What a seat may see (SPEC.md §7 "Hidden information").

        Args:
            seat: The seat.

        Returns:
            Its observation.
        """
        from canasta.observation import observe

        return observe(self, seat)

    def three_rules(self) -> ThreeRules:
        """The bonus-three rules in force (a shortcut for displays)."""
        return self.rules.threes
