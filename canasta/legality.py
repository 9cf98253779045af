"""Exact legal actions: what the acting seat may do now, and the rules behind it.

Everything `legal_actions` lists is accepted and everything else is refused; an
action is checked by membership, so generation *is* the legality rule. Comments
cite SPEC.md where a rule is enforced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

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
from canasta.cards import KIND_COUNT, NATURAL_KINDS, Kind
from canasta.errors import IllegalActionError
from canasta.goingout import can_meld_out
from canasta.rules import Permission
from canasta.table import Phase, TableState

__all__ = ["Legality"]

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


class Legality(TableState):
    """Legal-action generation and checking (mixed into `canasta.HandState`)."""

    __slots__ = ()

    if TYPE_CHECKING:  # provided by canasta.transitions.Transitions

        def _do_meld(self, rank: int, n: int, t: int, j: int) -> None: ...

        def _do_take(self, action: TakePile) -> None: ...

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
