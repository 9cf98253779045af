"""Applying actions: the state transitions of a hand, with the rule book cited where they enforce a rule.

Plain functions of the hand's data (`canasta.table.TableState`). They trust
their input: `canasta.HandState.apply` checks an action against the legal list
before it calls `apply_unchecked`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from canasta import suitedlegality
from canasta.actions import (
    Action,
    AnswerGoOut,
    AskGoOut,
    DeclareSpecialHand,
    Discard,
    DrawStock,
    EndHand,
    LayOutThree,
    Meld,
    PickUpPacket,
    TakePile,
)
from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, RED_THREE, SECOND_MELD, TWO, new_meld_key
from canasta.completion import can_complete, opening_reached
from canasta.discards import discardable_now
from canasta.goingout import can_meld_out
from canasta.keeping import lay_out_kept, lay_out_when_opened, may_keep, three_to_keep
from canasta.legality import (
    bonus_cards_due,
    goes_out_ok,
    legal_takes,
    meld_counts,
    turn_facts,
    yes_binds,
)
from canasta.rules import Upcard
from canasta.table import ANSWER_PHASE, DRAW_PHASE, MELD_PHASE, OVER_PHASE, HandEnd, MeldState, TableState

__all__ = [
    "TRANSITIONS",
    "apply_unchecked",
    "begin_turn",
    "lay_out_and_replace",
    "pick_up_packet",
    "reshuffle_pile",
    "transition",
    "turn_upcard",
]

#: A card kind as a plain int, indexed by its `canasta.Kind`: ``int(kind)`` is a generic call in the
#: compiled engine, a tuple index is not (and both engines get the same plain int).
_PLAIN_KIND: Final = tuple(range(KIND_COUNT))


def turn_upcard(t: TableState, rng: random.Random | None = None) -> None:
    """The rule book's "The upcard": cover a wild card or red three; the buried one freezes.

    Under `Upcard.BURY_WILD_AND_RED_THREE` (Hand and Foot, §8.1) such an upcard goes back into the
    stock at a uniformly random place other than the top, drawn from ``rng`` (the deal's), instead.

    Args:
        t: The hand being dealt.
        rng: The deal's random generator (needed only to bury an upcard).
    """
    upcard = t.dealt.upcard
    if upcard is Upcard.NONE:
        return
    kinds = t.kinds
    if upcard is Upcard.TURN_ONE:
        if t.stock:
            t._push_pile(t.stock.pop())  # whatever it is (a red three on top blocks the pile: `_take_shapes`)
        return
    if upcard is Upcard.BURY_WILD_AND_RED_THREE:
        stock = t.stock
        if rng is None:
            raise ValueError("burying an upcard needs the deal's random generator")
        while len(stock) > 1 and kinds[stock[-1]] <= RED_THREE:  # (a joker, a 2 or a red three)
            card = stock.pop()
            # A place below the top: index 0 (the bottom) to len(stock) - 1 (just under the new top).
            stock.insert(rng.randrange(len(stock)), card)
        if stock:
            t._push_pile(stock.pop())
        return
    while t.stock:
        card = t.stock.pop()
        t._push_pile(card)
        if kinds[card] > RED_THREE:
            break


def lay_out_and_replace(t: TableState, seat: int, replace: bool = True) -> None:
    """Lay out the seat's bonus threes, replacing each from the stock (the rule book's "Red threes dealt").

    Used at the deal and when a packet is picked up (`pick_up_packet`). Once the stock is
    empty a three is laid out without replacement (Hand and Foot §8.6; at the deal the
    stock never runs out: `canasta.compile_rules` refuses rules where it could).

    Args:
        t: The hand.
        seat: The seat.
        replace: False: no three is replaced (a packet picked up under
            `canasta.PacketRules.replace_threes` False).
    """
    threes = t.dealt.threes
    # (The bonus threes: red ones unless they are ordinary cards, red-threes-dead; black ones where bonus.)
    kinds_to_check = ((RED_THREE,) if threes.red_threes_are_bonus else ()) + (
        (BLACK_THREE,) if threes.black_threes_are_bonus else ()
    )
    kept = three_to_keep(t, seat)  # "Keeping a three" (american-special-hands): one stays in the hand
    found = True
    while found:
        found = False
        for kind in kinds_to_check:
            while t.counts[seat][kind] > (1 if kind == kept else 0):
                found = True
                t.threes[seat].append(t._from_hand(seat, kind))
                if t.stock and replace:
                    t._to_hand(seat, t.stock.pop())


# --- turn flow --------------------------------------------------------------------------


def begin_turn(t: TableState) -> None:
    """Start the acting seat's turn; end the hand if the stock is out and no take is possible (the rule book).

    Args:
        t: The hand.
    """
    t._reset_turn()
    t.phase = DRAW_PHASE
    t._legal = None
    if t.locks_wilds:
        t._turn_meld_state()  # the club rules (aces-pure, rule-of-five): this turn's meld state
    if t.keeps_threes:
        lay_out_when_opened(t, t.seat)  # "Keeping a three": the partner opened, so it is laid out before the draw
    if not t.stock:  # (tested here: a call less on every turn)
        _end_if_exhausted(t)
    if t.facts.has_packets and not t.sizes[t.seat] and t.packets[t.seat] and t.phase is DRAW_PHASE:
        # Hand and Foot §8.7: a discard emptied the hand; the next packet is picked up before the draw
        # (an empty stock has ended the hand first, E11).
        pick_up_packet(t, t.seat)


def pick_up_packet(t: TableState, seat: int) -> None:
    """The seat picks up its next packet (`canasta.PacketRules`; Hand and Foot §8.7, §8.6).

    Its cards become the seat's cards (joining any still held: `canasta.PickUpPacket`
    under ``after_first_canasta``); its red threes (its bonus threes) are laid out
    and replaced from the stock as at the deal, without replacement once the stock
    is empty (§8.6, E11) or where the rules never replace them (`canasta.PacketRules.replace_threes`).

    Args:
        t: The hand.
        seat: The seat, which has a packet down (its hand is empty, unless it picks the packet up at will).
    """
    packet = t.packets[seat].pop(0)
    for card in packet:
        t._to_hand(seat, card)
    lay_out_and_replace(t, seat, t.dealt.packets.replace_threes)
    if t.final_meld_only and t.facts.after_first_canasta:
        t.final_meld_only = False  # (stranded with an unearned packet, its canasta then made: the packet's cards)
    if t.phase is MELD_PHASE and not t.stock and t.sizes[seat] < 2:
        _strand_if_stuck(t, seat)


def _strand_if_stuck(t: TableState, seat: int) -> None:
    """Hand and Foot §8.9: red threes the empty stock could not replace left the player no way to end the turn.

    A player in the last packet holding 0 or 1 card who may not go out ends the turn without
    discarding (`canasta.EndHand`, offered while ``final_meld_only`` is set), and the hand ends by
    exhaustion. (With a packet still down the last card may be discarded: no one is stranded, unless
    the packet is still to be earned by a canasta, `canasta.PacketRules.after_first_canasta`.)
    """
    if t.bound or t.stock or t.sizes[seat] >= 2:
        return
    if t.packets[seat]:
        if t.facts.after_first_canasta and t.first_canasta[seat] < 0:
            # foot-after-first-book: the last card may not be discarded before the player's first canasta,
            # so this player is stranded too (unless it melds the card into that canasta: the packet follows).
            t.final_meld_only = True
        return
    if t.sizes[seat] == 1 and goes_out_ok(t, t.seating[seat]):
        return  # the last card's discard goes out
    t.final_meld_only = True


def _end_if_exhausted(t: TableState) -> None:
    """The rule book's "Stock exhaustion": the hand ends when the player is due to draw from an empty stock.

    Where the rules reshuffle (`canasta.ExhaustionRules.reshuffle_pile_at`) and the pile is large enough,
    the pile but its top card becomes a new stock instead (`reshuffle_pile`), and the turn begins.
    """
    if t.stock:
        return
    exhaustion = t.dealt.exhaustion
    at = exhaustion.reshuffle_pile_at
    if at and len(t.pile) >= at:
        reshuffle_pile(t)
        return
    if not exhaustion.continue_with_discards or not (
        suitedlegality.pile_takes(t, t.seat) if t.facts.sequences else legal_takes(t, t.seat, exhausted=True)
    ):
        _finish(t, HandEnd.STOCK_EXHAUSTED)


def reshuffle_pile(t: TableState) -> None:
    """Every pile card but the top one, shuffled, becomes the stock (`canasta.ExhaustionRules.reshuffle_pile_at`).

    The one shuffle of a reshuffle, on both engines: ``random.Random`` seeded with a string of the
    hand's ``shuffle_seed`` and the reshuffle's number (a string seed is hashed the same way in every
    process), then ``Random.shuffle`` of the cards in pile order, bottom first. The top card stays
    as the pile. ``reshuffled`` keeps the cards in pile order (public: every player saw them there; the
    new order is secret), and
    ``reshuffles`` counts the reshuffles of the hand.

    Args:
        t: The hand, whose stock is empty and whose pile holds at least 2 cards.
    """
    pile = t.pile
    top = pile[len(pile) - 1]
    cards = pile[: len(pile) - 1]
    t.reshuffled = tuple(cards)  # in pile order: which cards, not their new order
    t.reshuffles += 1
    rng = random.Random(f"canasta-reshuffle/{t.shuffle_seed}/{t.reshuffles}")
    rng.shuffle(cards)
    t.stock = cards  # (the top of the stock is the end of the list)
    t.pile = []
    t.pile_freezers = 0
    t._push_pile(top)  # (what freezes the pile now is its one card)


def _finish(t: TableState, end: HandEnd, went_out: int | None = None, concealed: bool = False) -> None:
    t.phase = OVER_PHASE
    t.end = end
    t.went_out = went_out
    t.concealed = concealed
    t._legal = ()


def apply_unchecked(t: TableState, action: Action) -> None:
    """Apply an action known to be legal.

    Args:
        t: The hand.
        action: A member of the hand's legal actions.
    """
    t._legal = None
    t.log.append((t.seat, action))  # everything a player does is done in public
    transition(t, action)


def transition(t: TableState, action: Action) -> None:
    """Change the hand by an action (its entry in `TRANSITIONS`), without logging or checking it.

    The common action types are found by identity, so that the compiled engine
    calls their transitions directly instead of through the table.
    """
    kind = type(action)
    if kind is _DRAW_STOCK:
        _do_draw(t, action)
    elif kind is _DISCARD:
        _do_discard(t, action)
    elif kind is _ASK_GO_OUT:
        _do_ask(t, action)
    elif kind is _ANSWER_GO_OUT:
        _do_answer(t, action)
    elif kind is _MELD:
        _do_meld(t, action)
    else:
        TRANSITIONS[kind](t, action)


def _do_draw(t: TableState, action: Action | None = None) -> None:
    """The rule book's "The turn" (and two-player's 2-card draw): draw, laying out and replacing red threes."""
    seat = t.seat
    rules = t.dealt
    facts = t.facts
    need = facts.draw_count
    kinds = t.kinds
    stock = t.stock
    bonus_black = facts.black_threes_are_bonus
    bonus_red = facts.red_threes_are_bonus
    keeps = t.keeps_threes
    while need and stock:
        card = stock.pop()
        kind = kinds[card]
        if ((kind == RED_THREE and bonus_red) or (kind == BLACK_THREE and bonus_black)) and not (
            keeps and may_keep(t, seat)
        ):
            # A bonus three (`TableState._is_bonus_three`), unless it is kept ("Keeping a three").
            t.threes[seat].append(card)
            if not stock:
                # The rule book's "Stock exhaustion": a red three as the last card ends the hand.
                if facts.last_red_three_may_meld:
                    t.drew_from_stock = True
                    t.phase = MELD_PHASE
                    t.final_meld_only = True
                    if t.bound:
                        # The rule book, "Asking permission": "yes" still binds if melding every card can go out.
                        side = t.seating[seat]
                        t.bound = can_complete(
                            turn_facts(t, seat),
                            t.counts[seat],
                            meld_counts(t, side),
                            opened=t.opened[side],
                            provisional=t.provisional_count,
                        )
                    return
                if facts.red_three_last_ends_hand:
                    _finish(t, HandEnd.RED_THREE_LAST)
                    return
                break  # Hand and Foot §8.9: the draw takes what the stock held and the turn goes on
            continue
        t.hands[seat][kind].append(card)  # `TableState._to_hand`, inlined: this is the most common move
        t.counts[seat][kind] = t.counts[seat][kind] + 1
        t.sizes[seat] = t.sizes[seat] + 1
        need -= 1
    t.drew_from_stock = True
    t.phase = MELD_PHASE
    if t.restricts_discards:
        # american-discards, D3: whether every card of the hand is wild just after the stock draw.
        counts = t.counts[seat]
        t.drew_all_wild = t.sizes[seat] == counts[TWO] + counts[JOKER]
    if t.bound:
        # The rule book, "Asking permission": a stock draw that makes going out impossible lets the player play on.
        side = t.seating[seat]
        if facts.sequences:
            t.bound = suitedlegality.going_out_possible(t, seat)
        elif t.opened[side]:
            # (Of the turn's facts only the discardable kinds matter here: no last-card red three, see above.)
            need = facts.canastas_required
            discardable = discardable_now(t)
            books = t.book_counts(side) if facts.counts_by_class else None
            onto = t.book_ranks(side) if facts.add_to_books else frozenset()  # add-to-books
            room = t.book_room(side) if facts.wilds_onto_books else 0  # wilds-onto-books
            t.bound = can_meld_out(
                rules,
                t.counts[seat],
                meld_counts(t, side),
                discardable,
                need=need,
                books=books,
                onto_books=onto,
                book_room=room,
            )
        else:
            turn = turn_facts(t, seat)
            t.bound = can_complete(turn, t.counts[seat], meld_counts(t, side), opened=False, provisional=0)
    if not stock and t.sizes[seat] < 2:
        # Hand and Foot §8.9, after the "yes" is settled: a "yes" the draw made void binds no more, so a
        # player it leaves stranded by a last-card red three may end the turn like one who never asked.
        _strand_if_stuck(t, seat)


def _do_take(t: TableState, action: Action) -> None:
    """The rule book's "The discard pile": meld the top card with the shown cards, then take the rest."""
    assert isinstance(action, TakePile)
    seat = t.seat
    side = t.seating[seat]
    top = t.pile.pop()
    rank = t.kinds[top]
    count = t.facts.take_count
    if count < 0 or count > len(t.pile):
        rest = t.pile
        t.pile = []
        t.pile_freezers = 0
    else:
        # `canasta.PileRules.take_count` (Hand and Foot: the top 7): the rest stays as the pile, in order.
        rest = t.pile[len(t.pile) - (count - 1) :] if count > 1 else []
        left = t.pile[: len(t.pile) - len(rest)]
        t.pile = []
        t.pile_freezers = 0
        for card in left:
            t._push_pile(card)
    t.taken_top = top
    t.phase = MELD_PHASE
    opened = t.opened[side]
    if t.locks_wilds and not opened and rank in t.dealt.melds.wilds_only_when_opening:
        t._turn_meld_state(rank)  # house rule aces-pure: a meld formed by taking the pile stays natural this turn
    if rank <= TWO:
        # A wild top card with two of its kind (`canasta.PileRules.wild_pair`): into the side's wild meld
        # (several-melds: a new wild meld).
        key = new_meld_key(t.melds[side], JOKER) if t.facts.several_melds else JOKER
        meld = _meld_to_extend(t, side, key)
        if rank == TWO:
            meld.twos += 1
        else:
            meld.jokers += 1
    elif t.facts.add_to_books and action.book:  # (the rules' flag first: a native read, not the action's)
        key = -1  # add-to-books: onto a book of the rank (its class and bonus stay; no book is made)
        meld = _book_of(t, side, rank, 0)
        meld.naturals += 1
    else:
        if t.facts.several_melds:
            key = new_meld_key(t.melds[side], rank)  # several-melds: the pickup always starts a new meld
        else:
            key = rank + SECOND_MELD if action.second else rank
        meld = _meld_to_extend(t, side, key)
        meld.naturals += 1
    before = meld.naturals + meld.twos + meld.jokers - 1  # (the meld's size before the take, for a canasta made)
    meld._additions = None  # its contents change
    meld.cards.append(top)
    t.melded_this_turn = True
    values = t.dealt.card_values
    value = values[rank] if t.dealt.initial_meld.top_card_counts else 0
    for _ in range(action.naturals):
        meld.cards.append(t._from_hand(seat, rank))
        meld.naturals += 1
        value += values[rank]
    for kind, count in ((TWO, action.twos), (JOKER, action.jokers)):
        for _ in range(count):
            meld.cards.append(t._from_hand(seat, kind))
            value += values[kind]
        if kind == TWO:
            meld.twos += count
        else:
            meld.jokers += count
    if t.closes_ranks and meld.naturals + meld.twos + meld.jokers >= t.dealt.melds.canasta_size:
        t._close_ranks()  # house rule dead-ranks: the rank closes the moment a meld of it is a canasta
    if t.facts.after_first_canasta:
        _note_canasta(t, seat, before, meld.naturals + meld.twos + meld.jokers)  # the pickup meld counts
    if t.facts.makes_books and key >= 0 and meld.naturals + meld.twos + meld.jokers >= t.facts.canasta_size:
        t._retire(side, key)  # a book: its rank is free again
    if opened:
        _pick_up(t, rest)
        _go_out_if_empty(t)
        return
    # The rule book: the minimum must be met before the rest of the pile is picked up.
    t.pending_pile = rest
    t.provisional_count += value
    _maybe_open(t)
    if t.facts.has_packets and not t.sizes[seat] and t.opened[side]:
        _go_out_if_empty(t)  # Hand and Foot §8.10 E1: the pickup meld that opened emptied the hand


def _book_of(t: TableState, side: int, rank: int, slot: int) -> MeldState:
    """The side's book ``slot`` of a natural rank (in the order made), to grow (add-to-books).

    Natural cards go onto the first (for them a rank's books are interchangeable); wild cards
    onto the dirty book the action names (wilds-onto-books). The book is replaced by a copy,
    which the caller grows: copies of the table share their books.
    """
    books = t.books[side]
    for i, book in enumerate(books):
        if book.rank == rank:
            if slot:
                slot -= 1
                continue
            t.added_to_old = True
            grown = books[i] = book.copy()
            return grown
    raise AssertionError(f"side {side} has no such book of rank {rank}")  # (legality offers no such action)


def _meld_to_extend(t: TableState, side: int, key: int) -> MeldState:
    """The side's meld under a key (a rank, or a second meld's key), created if new.

    Adding to an earlier turn's meld spoils concealed going out. A second meld
    of a rank (``cutthroat``) exists only from the partnership's forming, so it
    is never new.
    """
    meld = t.melds[side].get(key)
    if meld is None:
        meld = t.melds[side][key] = MeldState(key & 15, [], 0, 0, 0)  # key & 15: the rank
        t.new_ranks.add(key)
    elif key not in t.new_ranks:
        t.added_to_old = True
    return meld


def _pick_up(t: TableState, cards: list[int]) -> None:
    """Pile cards go to hand; threes in them are laid out, not replaced (the rule book, "The discard pile")."""
    seat = t.seat
    if t.facts.first_taker_alone and not t.regrouped:
        _regroup(t, seat)  # The rule book, cutthroat: the first to take the pile plays alone
    side = t.seating[seat]
    kinds = t.kinds
    set_aside = t.dealt.black_threes.set_aside_from_pile
    known = t.known[seat]
    for card in cards:
        kind = kinds[card]
        if t._is_bonus_three(kind):
            t.threes[seat].append(card)
        elif kind == BLACK_THREE and set_aside:
            t.set_aside[side].append(card)
        else:
            t._to_hand(seat, card)
            known.append(card)  # everyone saw it go into this hand


def _maybe_open(t: TableState) -> None:
    """The rule book's "The initial meld": the opening is complete once the count (and clean meld) is reached."""
    seat = t.seat
    minimum = t.personal_minimum(seat)
    if t.provisional_count < minimum and not t.opens_by_splash:
        return  # (`opening_reached`'s first test, before the counts it needs; a splash needs no minimum)
    side = t.seating[seat]
    top_rank = -1 if t.taken_top is None else t.kinds[t.taken_top]
    counts = meld_counts(t, side)
    if opening_reached(t.dealt, t.provisional_count, minimum, counts, top_rank, splash=t.opens_by_splash):
        t.opened[side] = True
        pending = t.pending_pile
        t.pending_pile = None
        if pending is not None:
            _pick_up(t, pending)
        if t.keeps_threes:
            lay_out_when_opened(t, seat)  # "Keeping a three": the holder's own opening lays it out now


def _do_meld(t: TableState, action: Action) -> None:
    assert isinstance(action, Meld)
    if t.facts.add_to_books and action.book:  # (the rules' flag first: a native read, not the action's)
        _do_meld_onto_book(t, action)
        return
    rank = _PLAIN_KIND[action.rank]
    key = rank + SECOND_MELD * action.slot  # (slot 1: cutthroat's second meld; several-melds: any of them)
    n, tw, jk = action.naturals, action.twos, action.jokers
    seat = t.seat
    side = t.seating[seat]
    meld = _meld_to_extend(t, side, key)
    rank = meld.rank
    values = t.facts.card_values
    hand = t.hands[seat]
    counts = t.counts[seat]
    cards = meld.cards
    added = values[rank] * n + values[TWO] * tw + values[JOKER] * jk
    if n:
        _move_to_meld(t, seat, hand[rank], cards, n)
        counts[rank] = counts[rank] - n
    if tw:
        _move_to_meld(t, seat, hand[TWO], cards, tw)
        counts[TWO] = counts[TWO] - tw
    if jk:
        _move_to_meld(t, seat, hand[JOKER], cards, jk)
        counts[JOKER] = counts[JOKER] - jk
    t.sizes[seat] = t.sizes[seat] - (n + tw + jk)
    meld.naturals += n
    meld.twos += tw
    meld.jokers += jk
    meld._additions = None  # its contents changed
    t.melded_this_turn = True
    if t.closes_ranks and meld.naturals + meld.twos + meld.jokers >= t.dealt.melds.canasta_size:
        t._close_ranks()  # house rule dead-ranks: the rank closes the moment a meld of it is a canasta
    if t.facts.after_first_canasta:
        size = meld.naturals + meld.twos + meld.jokers
        _note_canasta(t, seat, size - (n + tw + jk), size)
    if t.facts.makes_books and meld.naturals + meld.twos + meld.jokers >= t.facts.canasta_size:
        t._retire(side, key)  # a book: its rank is free again
    if not t.opened[side]:
        t.provisional_count += added
        _maybe_open(t)
    if not t.sizes[seat]:
        _go_out_if_empty(t)


def _note_canasta(t: TableState, seat: int, before: int, after: int) -> None:
    """foot-after-first-book: a meld the seat took from below to canasta size is its first canasta, if none yet.

    (`canasta.PacketRules.after_first_canasta`: the seat's next packet is earned by it; its own action only.)
    """
    if before < t.facts.canasta_size <= after and t.first_canasta[seat] < 0:
        t.first_canasta[seat] = t.turn


def _do_meld_onto_book(t: TableState, action: Meld) -> None:
    """add-to-books: naturals onto one of the side's books of their rank (an opened side; no book is made).

    Under wilds-onto-books wild cards too, onto the dirty book ``action.slot`` names.
    """
    rank = _PLAIN_KIND[action.rank]
    n, tw, jk = action.naturals, action.twos, action.jokers
    seat = t.seat
    side = t.seating[seat]
    book = _book_of(t, side, rank, action.slot)
    hand = t.hands[seat]
    counts = t.counts[seat]
    if n:
        _move_to_meld(t, seat, hand[rank], book.cards, n)
        counts[rank] = counts[rank] - n
    if tw:  # wilds-onto-books: wild cards onto a dirty book
        _move_to_meld(t, seat, hand[TWO], book.cards, tw)
        counts[TWO] = counts[TWO] - tw
        book.twos += tw
    if jk:
        _move_to_meld(t, seat, hand[JOKER], book.cards, jk)
        counts[JOKER] = counts[JOKER] - jk
        book.jokers += jk
    t.sizes[seat] = t.sizes[seat] - (n + tw + jk)
    book.naturals += n
    book._additions = None  # its contents changed
    t.melded_this_turn = True
    if not t.sizes[seat]:
        _go_out_if_empty(t)


def _move_to_meld(t: TableState, seat: int, held: list[int], cards: list[int], count: int) -> None:
    """Move the last ``count`` cards of ``held`` (one kind of the hand) onto a meld's ``cards``, the last first."""
    if t.known[seat]:
        t._forget(seat, held[len(held) - count :])  # face up in the meld now
    for _ in range(count):
        cards.append(held.pop())  # (plain pops and appends: a negative slice and its del are generic when compiled)


def _go_out_if_empty(t: TableState) -> None:
    """Melding the last card goes out, where allowed (the rule book's "Going out").

    With a packet still down it picks the packet up instead, and the turn goes on (Hand and Foot §8.7).
    """
    seat = t.seat
    if t.packets[seat]:
        if t.sizes[seat] == 0 and t.opened[t.seating[seat]]:
            # (Never before the side has opened: the foot is not reached by a provisional meld, §8.5.)
            if t.dealt.packets.meld_picks_up:
                pick_up_packet(t, seat)
            else:
                _pass_turn(t, seat)  # foot-ends-turn: the turn ends at once; the packet comes next turn
        return
    side = t.seating[seat]
    if t.sizes[seat] == 0 and not t.dealt.going_out.final_discard_required and goes_out_ok(t, side):
        _go_out(t)


def _go_out(t: TableState) -> None:
    seat = t.seat
    if t.dealt.partnerships.first_taker_alone and not t.regrouped:
        _regroup(t, seat)  # nobody took the pile: the player going out is the lone hand
    side = t.seating[seat]
    size = t.dealt.melds.canasta_size
    own_canasta = any(t.melds[side][r].size >= size for r in t.new_ranks if r in t.melds[side])
    if len(t.books[side]) > t.turn_books:
        own_canasta = True  # a book made this turn (its meld set apart): of new melds unless added_to_old
    concealed = (
        t.dealt.going_out.concealed_bonus is not None
        and not t.melded_before[seat]
        and not t.added_to_old
        and own_canasta
    )
    if not t.opened[side]:
        t.opened[side] = True  # the concealed exemption: the melds stand
    _finish(t, HandEnd.WENT_OUT, seat, concealed)


def _do_discard(t: TableState, action: Action) -> None:
    assert isinstance(action, Discard)
    seat = t.seat
    kind = _PLAIN_KIND[action.kind]
    t.counts[seat][kind] = t.counts[seat][kind] - 1  # `TableState._from_hand`, inlined: a move of every turn
    t.sizes[seat] = t.sizes[seat] - 1
    held = t.hands[seat][kind]
    if t.facts.sequences and action.suit is not None:
        card = held.pop(suit_index(t, held, action.suit))  # the sequence games: the card of the suit named
    else:
        card = held.pop()
    if t.known[seat]:
        t._forget(seat, [card])  # face up on the pile now
    if kind <= BLACK_THREE:
        t._push_pile(card)  # a wild card or a three may freeze the pile
    else:
        t.pile.append(card)
    if t.sizes[seat] == 0 and not t.packets[seat] and (t.relief_stock < 0 or goes_out_ok(t, t.seating[seat])):
        _go_out(t)
        return
    # (A hand emptied by a discard with a packet down: the packet is picked up at the start of the seat's
    # next turn, `begin_turn`; Hand and Foot §8.7.)
    # (With no card left here, american-discards' D5 c: the bonus cards follow instead of a kept card.)
    if t.facts.bonus_cards:
        _draw_bonus_cards(t)
    _pass_turn(t, seat)


def suit_index(t: TableState, held: list[int], suit: int) -> int:
    """The position in ``held`` (card ids of one kind) of the last card of ``suit`` (the sequence games).

    Args:
        t: The hand.
        held: Card ids of one natural kind, held by a seat.
        suit: The suit named (a `canasta.Suit`).

    Returns:
        Its index.
    """
    cards = t.deck.cards
    for i in range(len(held) - 1, -1, -1):
        if cards[held[i]].suit == suit:
            return i
    raise AssertionError(f"no card of suit {suit} held")  # (legality offers no such action)


def _pass_turn(t: TableState, seat: int) -> None:
    """The turn of ``seat`` is over (a discard, or an emptied hand under foot-ends-turn): the next begins."""
    if t.melded_this_turn:
        t.melded_before[seat] = True
    t.seat = (seat + 1) % t.facts.players
    t.turn += 1
    begin_turn(t)


def _regroup(t: TableState, lone: int) -> None:
    """One player plays alone; everyone else becomes one side (the rule book, cutthroat).

    The joining players' melds stay as they were, now the partnership's: they
    move to the side of the first of them, and where both held a meld of a
    rank, the second one is kept apart under ``rank + SECOND_MELD`` (two melds,
    each obeying the meld rules on its own). The side has melded if any of them
    had. Each player keeps their personal score and minimum.
    """
    t.regrouped = True
    lone_side = t.seating[lone]
    joining = sorted({sd for sd in t.seating if sd != lone_side})
    if len(joining) < 2:
        return
    unit = joining[0]
    melds = t.melds[unit]
    for side in joining[1:]:
        for rank, meld in t.melds[side].items():
            if rank in melds:
                # Only natural ranks can be held twice: a side's wild meld would be
                # a second wild meld, which no variant with cutthroat allows.
                assert rank >= 4, "two wild melds cannot be kept apart"
                melds[rank + SECOND_MELD] = meld
            else:
                melds[rank] = meld
        t.melds[side] = {}
        t.opened[unit] = t.opened[unit] or t.opened[side]
        t.set_aside[unit].extend(t.set_aside[side])
        t.set_aside[side] = []
        t.asks_used[unit] = t.asks_used[unit] + t.asks_used[side]
    t.seating = [unit if sd in joining else sd for sd in t.seating]


def _draw_bonus_cards(t: TableState) -> None:
    """Rule option american-talon (modern American): bonus cards after the discard ending the opening turn."""
    seat = t.seat
    need = bonus_cards_due(t, seat)
    while need and t.stock:
        card = t.stock.pop()
        if t._is_bonus_three(t.kinds[card]):
            t.threes[seat].append(card)  # laid out at once and replaced
            continue
        t._to_hand(seat, card)
        need -= 1


def _do_ask(t: TableState, action: Action | None = None) -> None:
    """The rule book's "Going out": ask the partner (the next partner in turn order)."""
    seat = t.seat
    seating = t.seating
    side = seating[seat]
    t.asks_used[side] = t.asks_used[side] + 1
    t.asker = seat
    t.resume_phase = t.phase
    n = len(seating)
    partner = (seat + 1) % n
    while seating[partner] != side:
        partner = (partner + 1) % n
    t.seat = partner
    t.phase = ANSWER_PHASE


def _do_answer(t: TableState, action: Action) -> None:
    """The rule book's "Going out": the answer binds for this turn."""
    assert isinstance(action, AnswerGoOut)
    assert t.asker is not None
    yes = action.yes
    t.bound = yes and yes_binds(t)
    t.answer = yes
    t.seat = t.asker
    t.phase = t.resume_phase


def _do_end_hand(t: TableState, action: Action | None = None) -> None:
    if t.final_meld_only and t.facts.red_three_last_ends_hand and not t.facts.has_packets:
        # (Otherwise §8.9's stranded player: the hand ends by exhaustion.)
        _finish(t, HandEnd.RED_THREE_LAST)
    else:
        _finish(t, HandEnd.STOCK_EXHAUSTED)


def _do_pick_up(t: TableState, action: Action | None = None) -> None:
    """foot-after-first-book: the next packet picked up at will, before the draw; the draw follows."""
    pick_up_packet(t, t.seat)


def _do_declare(t: TableState, action: Action) -> None:
    """The club form's special hands: 14 cards laid face up (a two-card draw's 15th discarded); the hand ends."""
    assert isinstance(action, DeclareSpecialHand)
    seat = t.seat
    if action.discard is not None:
        kind = int(action.discard)
        t.counts[seat][kind] = t.counts[seat][kind] - 1
        t.sizes[seat] = t.sizes[seat] - 1
        card = t.hands[seat][kind].pop()
        if t.known[seat]:
            t._forget(seat, [card])
        t._push_pile(card)
    t.known[seat] = [card for cards in t.hands[seat] for card in cards]  # face up: everyone sees them
    t.declared = (seat, action.hand)
    _finish(t, HandEnd.SPECIAL_HAND)


def _do_lay_out(t: TableState, action: Action | None = None) -> None:
    """Keeping a three: the kept three laid out and replaced; before the draw, an empty stock then ends the hand."""
    lay_out_kept(t, t.seat)
    if t.phase is DRAW_PHASE:
        _end_if_exhausted(t)


#: The transition of each action type (what `apply_unchecked` calls).
TRANSITIONS: Final[dict[type, Callable[[TableState, Action], None]]] = {
    Meld: _do_meld,
    Discard: _do_discard,
    DrawStock: _do_draw,
    TakePile: _do_take,
    AskGoOut: _do_ask,
    AnswerGoOut: _do_answer,
    EndHand: _do_end_hand,
    DeclareSpecialHand: _do_declare,
    LayOutThree: _do_lay_out,
    PickUpPacket: _do_pick_up,
}
# The common action types, for `transition` (module constants: no global lookup in the compiled engine).
_DRAW_STOCK: Final = DrawStock
_DISCARD: Final = Discard
_ASK_GO_OUT: Final = AskGoOut
_ANSWER_GO_OUT: Final = AnswerGoOut
_MELD: Final = Meld
