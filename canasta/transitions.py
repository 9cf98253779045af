"""Applying actions: the state transitions of a hand, with SPEC.md cited where they enforce a rule."""

from __future__ import annotations

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
from canasta.legality import Legality
from canasta.rules import Upcard
from canasta.table import HandEnd, MeldState, Phase

__all__ = ["Transitions"]

_JOKER = 0
_TWO = 1
_R3 = 2
_B3 = 3


class Transitions(Legality):
    """The transitions of a hand (mixed into `canasta.HandState`)."""

    __slots__ = ()

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
        meld = self._meld_to_extend(side, rank)
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

    def _meld_to_extend(self, side: int, rank: int) -> MeldState:
        """The side's meld of a rank, created if new; adding to an earlier turn's meld spoils concealed."""
        meld = self.melds[side].get(rank)
        if meld is None:
            meld = self.melds[side][rank] = MeldState(rank, [], 0, 0, 0)
            self.new_ranks.add(rank)
        elif rank not in self.new_ranks:
            self.added_to_old = True
        return meld

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
        meld = self._meld_to_extend(side, rank)
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
