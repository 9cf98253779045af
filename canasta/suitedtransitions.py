"""How the sequence games' actions change the table (SEQUENCES.md §9.3 to §9.8; legality: `canasta.suitedlegality`).

The pile takes (`canasta.suitedpile.PileTake`) and the meld actions of
`canasta.suitedmelds` move physical cards: the naturals a group or a sequence
names by suit leave the hand as cards of that suit. A new meld takes its side's
next number (`canasta.table.TableState.meld_numbers`); a combination keeps the
older number and retires the other for the hand (§9.3's decided point). The draw,
the discard (a natural's names its suit: `canasta.Discard.suit`), asking and
answering are the engine's own (`canasta.transitions`), which registers these
transitions beside its own in `canasta.transitions.TRANSITIONS` when this module
is imported (`canasta.hand` does). The actions of a meld type of a shape of its own
(`canasta.ownshapes.LayMeld`, `AddToMeld`) move the cards they name the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from canasta import transitions
from canasta.cards import BLACK_THREE, JOKER, SEQUENCE_MELD, TWO
from canasta.ownshapes import OWN_MELD, AddToMeld, LayMeld
from canasta.suitedhand import SuitedHand
from canasta.suitedlegality import may_go_out_now, melds_of, opening_of
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild, opening_met
from canasta.suitedpile import PileTake, TakeMode
from canasta.table import MELD_PHASE, MeldState, TableState

__all__ = ["SUITED_TRANSITIONS"]


def _card_from_hand(t: TableState, seat: int, kind: int, suit: int = -1) -> int:
    """Take one card of ``kind`` (of ``suit`` for a natural, when given) out of the seat's hand."""
    held = t.hands[seat][kind]
    card = held.pop(transitions.suit_index(t, held, suit)) if suit >= 0 else held.pop()
    t.counts[seat][kind] = t.counts[seat][kind] - 1
    t.sizes[seat] = t.sizes[seat] - 1
    if t.known[seat]:
        t._forget(seat, [card])  # face up in a meld now
    return card


def _new_meld(t: TableState, side: int, rank: int) -> tuple[int, MeldState]:
    """A new meld of the side under its next number (never reused in the hand)."""
    number = t.meld_numbers[side]
    t.meld_numbers[side] = number + 1
    meld = t.melds[side][number] = MeldState(rank, [], 0, 0, 0)
    t.new_ranks.add(number)  # (the turn's new melds, by key)
    return number, meld


def _target(t: TableState, side: int, number: int | None, rank: int) -> MeldState:
    """The side's meld ``number`` (an earlier turn's spoils concealed going out), or a new one of ``rank``."""
    if number is None:
        return _new_meld(t, side, rank)[1]
    if number not in t.new_ranks:
        t.added_to_old = True
    return t.melds[side][number]


def _add_wilds(t: TableState, seat: int, meld: MeldState, twos: int, jokers: int) -> int:
    """Move wild cards from the seat's hand onto a meld; their count (card values)."""
    for _ in range(twos):
        meld.cards.append(_card_from_hand(t, seat, TWO))
    for _ in range(jokers):
        meld.cards.append(_card_from_hand(t, seat, JOKER))
    meld.twos += twos
    meld.jokers += jokers
    values = t.dealt.card_values
    return values[TWO] * twos + values[JOKER] * jokers


def _after_meld(t: TableState, seat: int, value: int) -> None:
    """A meld action's consequences: the opening's count, and going out when the hand is empty (§9.6, §9.8)."""
    t.melded_this_turn = True
    side = t.seating[seat]
    if not t.opened[side]:
        t.provisional_count += value
        _maybe_open(t, seat)
    if not t.sizes[seat] and may_go_out_now(t, seat):
        transitions._go_out(t)  # §9.8: melding the last card goes out (legality offers no other way to empty it)


def _maybe_open(t: TableState, seat: int) -> None:
    """§9.6, §11.1: the opening is complete once the turn's melds meet its requirement; a pending pile joins."""
    side = t.seating[seat]
    need = opening_of(t, seat)
    if t.provisional_count < need.count:
        return
    if need.canasta_classes and not opening_met(
        t.provisional_count, list(melds_of(t, side).values()), t.dealt.meld_types, need
    ):
        return  # §11.1: the band's canasta is not laid yet
    t.opened[side] = True
    pending = t.pending_pile
    t.pending_pile = None
    if pending is not None:
        transitions._pick_up(t, pending)


def _do_take(t: TableState, action: PileTake) -> None:
    """§9.7: place the top card as chosen (with the pair shown), then the rest of the pile joins the hand."""
    seat = t.seat
    side = t.seating[seat]
    pile = t.pile
    top = pile.pop()
    if action.mode is TakeMode.TOP_ONTO_SEQUENCE and t.dealt.pile.sequence_take_top_only:
        rest: list[int] = []  # samba-top-card-only (§9.13): the rest stays as the pile, its freezing unchanged
    else:
        rest = pile
        t.pile = []
        t.pile_freezers = 0
    t.taken_top = top
    t.phase = MELD_PHASE
    rank = t.kinds[top]
    values = t.dealt.card_values
    if action.mode is TakeMode.TOP_ONTO_SEQUENCE:
        meld = _target(t, side, action.meld, SEQUENCE_MELD)
    else:
        meld = _target(t, side, action.meld, rank)
    meld.cards.append(top)
    meld.naturals += 1
    value = values[rank] if t.dealt.initial_meld.top_card_counts else 0
    if action.pair is not None:
        for suit in action.pair:
            meld.cards.append(_card_from_hand(t, seat, rank, int(suit)))
            meld.naturals += 1
            value += values[rank]
    # (The take is the turn's draw, not a meld: the player may still ask, §9.8's decided point.)
    if t.opened[side]:
        transitions._pick_up(t, rest)
        if not t.sizes[seat] and may_go_out_now(t, seat):
            transitions._go_out(t)  # (a take that empties the hand is legal only where it goes out)
        return
    # SPEC "The initial meld": the minimum must be met before the rest of the pile is picked up.
    t.pending_pile = rest
    t.provisional_count += value
    _maybe_open(t, seat)


def _do_lay_group(t: TableState, action: LayGroup) -> None:
    seat = t.seat
    meld = _target(t, t.seating[seat], action.meld, action.rank)
    values = t.dealt.card_values
    value = 0
    for suit, count in enumerate(action.suits):
        for _ in range(count):
            meld.cards.append(_card_from_hand(t, seat, action.rank, suit))
    meld.naturals += sum(action.suits)
    value += values[action.rank] * sum(action.suits)
    value += _add_wilds(t, seat, meld, action.twos, action.jokers)
    _after_meld(t, seat, value)


def _do_lay_sequence(t: TableState, action: LaySequence) -> None:
    seat = t.seat
    _, meld = _new_meld(t, t.seating[seat], SEQUENCE_MELD)
    values = t.dealt.card_values
    value = 0
    for rank in range(action.low, action.high + 1):
        meld.cards.append(_card_from_hand(t, seat, rank, int(action.suit)))
        value += values[rank]
    meld.naturals = action.high - action.low + 1
    _after_meld(t, seat, value)


def _do_extend(t: TableState, action: Extend) -> None:
    seat = t.seat
    side = t.seating[seat]
    meld = _target(t, side, action.meld, SEQUENCE_MELD)
    cards = t.deck.cards
    ranks = [cards[c].rank for c in meld.cards]
    suit = cards[meld.cards[0]].suit
    assert suit is not None
    low, high = min(ranks), max(ranks)
    values = t.dealt.card_values
    value = 0
    for rank in (*range(action.low, low), *range(high + 1, action.high + 1)):
        meld.cards.append(_card_from_hand(t, seat, rank, int(suit)))
        value += values[rank]
    meld.naturals = action.high - action.low + 1
    _after_meld(t, seat, value)


def _do_lay_wild(t: TableState, action: LayWild) -> None:
    seat = t.seat
    meld = _target(t, t.seating[seat], action.meld, JOKER)
    _after_meld(t, seat, _add_wilds(t, seat, meld, action.twos, action.jokers))


def _do_combine(t: TableState, action: Combine) -> None:
    """§9.3: two melds of a kind become the older one; the other's number is retired for the hand."""
    seat = t.seat
    side = t.seating[seat]
    melds = t.melds[side]
    kept = _target(t, side, action.first, 0)
    gone = melds.pop(action.second)
    kept.cards.extend(gone.cards)
    kept.naturals += gone.naturals
    kept.twos += gone.twos
    kept.jokers += gone.jokers
    _after_meld(t, seat, 0)  # (no card leaves the hand; the combined meld may be the canasta an opening needs)


def _do_lay_black_threes(t: TableState, action: LayBlackThrees) -> None:
    """§9.5: black threes as one group, only in the turn the player goes out."""
    seat = t.seat
    _, meld = _new_meld(t, t.seating[seat], BLACK_THREE)
    for _ in range(action.count):
        meld.cards.append(_card_from_hand(t, seat, BLACK_THREE))
    meld.naturals = action.count
    _after_meld(t, seat, t.dealt.card_values[BLACK_THREE] * action.count)


# The actions of melds of a type of a shape of its own (`canasta.ownshapes`): `LayMeld` makes a new meld of the
# side under the rank ``OWN_MELD`` plus its type's index in `canasta.Rules.meld_types`; `AddToMeld` moves cards
# onto one. The named cards leave the hand (a natural of the suit named; 2s, jokers and black threes by kind).


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


def _do_lay_meld(t: TableState, action: LayMeld) -> None:
    seat = t.seat
    index = next(i for i, kind in enumerate(t.dealt.meld_types) if kind.name == action.type)
    _, meld = _new_meld(t, t.seating[seat], OWN_MELD + index)
    _after_meld(t, seat, _move(t, seat, meld, action.cards))


def _do_add_to_meld(t: TableState, action: AddToMeld) -> None:
    seat = t.seat
    meld = _target(t, t.seating[seat], action.meld, 0)
    _after_meld(t, seat, _move(t, seat, meld, action.cards))


#: The transition of each of the sequence games' own action types.
SUITED_TRANSITIONS: Final[dict[type, Callable[[TableState, object], None]]] = {
    PileTake: _do_take,  # type: ignore[dict-item]
    LayGroup: _do_lay_group,  # type: ignore[dict-item]
    LaySequence: _do_lay_sequence,  # type: ignore[dict-item]
    Extend: _do_extend,  # type: ignore[dict-item]
    LayWild: _do_lay_wild,  # type: ignore[dict-item]
    Combine: _do_combine,  # type: ignore[dict-item]
    LayBlackThrees: _do_lay_black_threes,  # type: ignore[dict-item]
    LayMeld: _do_lay_meld,  # type: ignore[dict-item]
    AddToMeld: _do_add_to_meld,  # type: ignore[dict-item]
}
transitions.TRANSITIONS.update(SUITED_TRANSITIONS)

