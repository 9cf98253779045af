"""The legal actions of rule sets that meld by meld type: the sequence games' turn on the engine's table.

Where `canasta.Rules.meld_types` is not empty (Samba, Bolivia, Brazilian canasta:
`SEQUENCES.md` §9 to §11), the engine keeps each side's melds by identity (a
number per side, in creation order, never reused: `canasta.table.TableState.meld_numbers`)
and decides legality here, with the rule components of `canasta.suitedpile`,
`canasta.suitedmelds` and `canasta.suitedsearch`; the draw, red threes, freezing,
permission and stock exhaustion stay the engine's. Suits come from the card ids the
engine tracks (`SuitedHand` of a hand), so rule sets without meld types never read one.

How a meld lies on the table (`canasta.table.MeldState`): a group under its rank, a
wild meld under ``JOKER``, a black-three group under ``BLACK_THREE``, a sequence under
`canasta.cards.SEQUENCE_MELD` (its suit and ranks are its cards'). `meld_shape` reads
one back as the meld types see it.

Edges this module decides by a reading stated here (see `docs/sequence-games.md`):
an unopened side's "yes" binds when going out is possible by the searches and the
cards it would meld reach the minimum (the opening and going out are searched
apart); a meld that only a going-out turn allows, once laid, binds like a "yes";
a provisional opening meld or an unopened side's take must leave two cards after
the opening, or let the side open and go out (`canasta.suitedmelds.legal_melds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from canasta.actions import AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand
from canasta.canastaclass import CLASS_INDEX
from canasta.cards import BLACK_THREE, JOKER, RED_THREE, SEQUENCE_MELD, TWO, Kind, Suit
from canasta.meldtypes import BlackThreeShape, GroupShape, MeldShape, SequenceShape, WildShape
from canasta.ownshapes import OWN_MELD
from canasta.rules import CanastaClass, Permission
from canasta.suitedhand import OpeningRequirement, SuitedHand
from canasta.suitedmelds import allowed_melds, legal_melds
from canasta.suitedpile import PileTake, TakeMode, legal_pile_takes, takeable
from canasta.suitedsearch import can_go_out
from canasta.table import ANSWER_PHASE, DRAW_PHASE, MELD_PHASE
from canasta.typeset import type_set

if TYPE_CHECKING:
    from canasta.cards import Deck
    from canasta.table import MeldState, TableState

__all__ = [
    "discards",
    "generate",
    "going_out_possible",
    "hand_of",
    "may_go_out_now",
    "meld_shape",
    "melds_of",
    "opening_of",
    "pile_takes",
    "yes_binds",
]

_DRAW: Final = DrawStock()
_ASK: Final = AskGoOut()
_CLASS_INDEX: Final = CLASS_INDEX  # (bound here: a compiled module reads its own Final natively)
_YES: Final = AnswerGoOut(True)
_NO: Final = AnswerGoOut(False)
_END: Final = EndHand()
#: Bound on each memo table below (cleared whole when full).
_MEMO_SIZE: Final = 1 << 16
# The shapes of melds on the table, by (rank, suit or naturals, low or 2s, high or jokers): frozen values.
_SHAPES: dict[tuple[int, ...], MeldShape] = {}
# The discards, by kind and suit index (-1: none): frozen values, made once each.
_DISCARDS: dict[tuple[int, int], Discard] = {}
# Per deck (by identity; the entry keeps it): each card id's suit index, -1 for a joker.
_DECK_SUITS: dict[int, tuple[Deck, tuple[int, ...]]] = {}
# The shapes of melds of a type of a shape of their own, one object per value (`_own_shape`).
_OWN_SHAPES: dict[MeldShape, MeldShape] = {}
# The opening requirements, by count and classes.
_OPENINGS: dict[tuple[int, frozenset[CanastaClass]], OpeningRequirement] = {}


def _suits(deck: Deck) -> tuple[int, ...]:
    """Each card id's suit index (-1 for a joker): ints, read without the `Suit` enum's Python-level hash."""
    found = _DECK_SUITS.get(id(deck))
    if found is None or found[0] is not deck:
        if len(_DECK_SUITS) > 64:
            _DECK_SUITS.clear()
        found = _DECK_SUITS[id(deck)] = (deck, tuple(-1 if c.suit is None else int(c.suit) for c in deck.cards))
    return found[1]


def meld_shape(t: TableState, meld: MeldState) -> MeldShape:
    """A meld on the table as the meld types see it (`canasta.meldtypes`).

    Args:
        t: The hand.
        meld: One of its melds.

    Returns:
        Its shape: a `SequenceShape` read from its cards, else a `WildShape`,
        `BlackThreeShape` or `GroupShape` from its counts (frozen values, made once each).
    """
    rank = meld.rank
    if rank >= SEQUENCE_MELD:
        if rank != SEQUENCE_MELD:
            return _own_shape(t, meld)  # a type of a shape of its own (`canasta.ownshapes.OWN_MELD`)
        kinds = t.kinds  # (a natural's kind is its rank)
        ranks = [kinds[c] for c in meld.cards]
        key: tuple[int, ...] = (rank, _suits(t.deck)[meld.cards[0]], min(ranks), max(ranks))
    else:
        key = (rank, meld.naturals, meld.twos, meld.jokers)
    shape = _SHAPES.get(key)
    if shape is None:
        if len(_SHAPES) > _MEMO_SIZE:
            _SHAPES.clear()
        shape = _SHAPES[key] = _shape(key)
    return shape


def _own_shape(t: TableState, meld: MeldState) -> MeldShape:
    """A meld of a type of a shape of its own: its type's `canasta.meldtypes.MeldType.shape_of` its cards."""
    shape = t.dealt.meld_types[meld.rank - OWN_MELD].shape_of(_counted(t, meld.cards))
    assert shape is not None  # (the engine lays only cards whose shape the type accepted)
    # One object per value, as for the built-in shapes: the memos of `canasta.typeset` key shapes by identity.
    known = _OWN_SHAPES.get(shape)
    if known is None:
        if len(_OWN_SHAPES) > _MEMO_SIZE:
            _OWN_SHAPES.clear()
        known = _OWN_SHAPES[shape] = shape
    return known


def _shape(key: tuple[int, ...]) -> MeldShape:
    rank, a, b, c = key
    if rank == SEQUENCE_MELD:
        return SequenceShape(Suit(a), b, c)
    if rank == JOKER:
        return WildShape(b, c)
    if rank == BLACK_THREE:
        return BlackThreeShape(a)
    return GroupShape(rank, a, b, c)


def melds_of(t: TableState, side: int) -> dict[int, MeldShape]:
    """A side's melds by identity, as shapes.

    Args:
        t: The hand.
        side: The side.

    Returns:
        A new dict: meld number to shape.
    """
    return {number: meld_shape(t, meld) for number, meld in t.melds[side].items()}


def hand_of(t: TableState, seat: int) -> SuitedHand:
    """A seat's hand counted by rank and suit (from the card ids the engine holds).

    Args:
        t: The hand.
        seat: The seat.

    Returns:
        Its `SuitedHand` (red threes never stay in a hand here: they are laid out).
    """
    return _counted(t, [c for cards in t.hands[seat] for c in cards])


def _counted(t: TableState, ids: Sequence[int]) -> SuitedHand:
    naturals = [0] * 44
    twos = jokers = black = 0
    suits = _suits(t.deck)
    kinds = t.kinds
    for card_id in ids:
        kind = kinds[card_id]
        if kind == JOKER:
            jokers += 1
        elif kind == TWO:
            twos += 1
        elif kind == BLACK_THREE:
            black += 1
        elif kind != RED_THREE:
            naturals[(kind - 4) * 4 + suits[card_id]] += 1
    return SuitedHand.counted(tuple(naturals), twos, jokers, black)


def opening_of(t: TableState, seat: int) -> OpeningRequirement:
    """What the seat's side's initial meld needs (its minimum count, §9.6, and a canasta by band, §11.1).

    Args:
        t: The hand.
        seat: The seat.

    Returns:
        The requirement (read while the side has not opened).
    """
    side = t.dealt.sides[seat]
    classes = t.dealt.minimums.canastas_for(t.scores[side])
    count = t.personal_minimum(seat)
    key = (count, classes)  # (by value: `canastas_for` may return a new empty frozenset each call)
    found = _OPENINGS.get(key)
    if found is None:
        if len(_OPENINGS) > _MEMO_SIZE:
            _OPENINGS.clear()
        found = _OPENINGS[key] = OpeningRequirement(count=count, canasta_classes=classes)
    return found


def _may_go_out(t: TableState) -> bool:
    """The answer given this turn lets the player go out (a "no" never does; a required permission needs "yes")."""
    if t.dealt.going_out.permission is Permission.REQUIRED:
        return t.answer is True
    return t.answer is not False


def may_go_out_now(t: TableState, seat: int) -> bool:
    """Whether emptying the seat's hand now goes out (§9.8, §10.5, §11.4): opened, the canastas, the partner's leave.

    Args:
        t: The hand.
        seat: The acting seat.

    Returns:
        True if the side has opened, has the canastas going out needs, and the answer (or none) allows it.
    """
    side = t.seating[seat]
    if not (_may_go_out(t) and t.opened[side]):
        return False
    kinds = type_set(t.dealt.meld_types)
    if kinds.own:
        # Melds of a shape of their own are canastas by their type (`canasta.meldtypes.MeldType.canasta_class`).
        made = [0] * len(CanastaClass)
        for shape in melds_of(t, side).values():
            cls = kinds.canasta_class(shape)
            if cls is not None:
                made[_CLASS_INDEX[cls]] += 1
        return t.dealt.going_out.quota_met(made)
    return t.quota_met(side)


def going_out_possible(t: TableState, seat: int) -> bool:
    """Whether the seat can still go out this turn from its meld phase (what a "yes" binds to).

    An opened side: the going-out search (`canasta.suitedsearch.can_go_out`). A side
    that has not opened: the same search, and the cards it would meld (every card but
    its most valuable, a final discard at worst) reach its minimum with the count
    already laid (the opening and going out searched apart: the reading this module
    states); never where its opening needs a canasta (§11.1). Where this says no, a
    "yes" does not bind, so the answer is always sound: what it allows can be done.

    Args:
        t: The hand.
        seat: The seat.

    Returns:
        True if going out is possible.
    """
    side = t.seating[seat]
    hand = hand_of(t, seat)
    melds = list(melds_of(t, side).values())
    rules = t.dealt
    if not can_go_out(hand, melds, rules.meld_types, rules.going_out):
        return False
    if t.opened[side]:
        return True
    if opening_of(t, seat).canasta_classes:
        return False  # (an opening that needs a canasta is not searched with going out: the "yes" does not bind)
    values = rules.card_values
    held = [values[k] for k in range(len(values)) for _ in range(t.counts[seat][k])]
    melded = sum(held) - (max(held) if held else 0)
    return t.provisional_count + melded >= t.personal_minimum(seat)


def pile_takes(
    t: TableState, seat: int, *, bound: bool = False, completable_only: bool = True, may_go_out: bool | None = None
) -> list[PileTake]:
    """The legal ways for the seat to take the pile now (SEQUENCES.md §9.7, §9.12, §11.2).

    Args:
        t: The hand, in its draw phase.
        seat: The acting seat.
        bound: The player is bound by a "yes" to go out this turn.
        completable_only: Only takes after which the turn can be completed (``False``: what the pile rules allow).
        may_go_out: Whether the player may go out this turn (``None``: as the answer given this turn says).

    Returns:
        The legal takes (empty when the pile is empty).
    """
    pile = t.pile
    if not pile:
        return []
    top = t.deck.cards[pile[len(pile) - 1]]
    if not takeable(top):
        return []  # (before the hand and the pile are counted)
    side = t.seating[seat]
    rules = t.dealt
    return legal_pile_takes(
        top,
        hand=hand_of(t, seat),
        pile_below=_counted(t, pile[: len(pile) - 1]),
        melds=melds_of(t, side),
        types=rules.meld_types,
        frozen=t.pile_frozen_for(side),
        opened=t.opened[side],
        opening=opening_of(t, seat),
        quota=rules.going_out,
        bound=bound,
        unopened_may_take=rules.pile.unmelded_side_may_take,
        values=rules.card_values,
        completable_only=completable_only,
        sequence_top_only=rules.pile.sequence_take_top_only,
        may_go_out=_may_go_out(t) if may_go_out is None else may_go_out,
    )


def discards(t: TableState, seat: int) -> list[Discard]:
    """The legal discards: each card held but a red three, by kind and (naturals) suit.

    A discard ends the turn: never while the side's opening is incomplete in this turn
    (SEQUENCES.md §9.6); one that empties the hand goes out, legal only with the
    canastas going out needs and the partner's leave (§9.8); after a "yes", or with a
    meld on the table that only a going-out turn allows (black threes, an escalera
    past 7: §9.5, §11.3), only one that goes out.

    Args:
        t: The hand, in its meld phase.
        seat: The acting seat.

    Returns:
        The discards, by kind then suit.
    """
    side = t.seating[seat]
    return _discards(t, seat, _only_going_out(t, side, melds_of(t, side)))


def _discards(t: TableState, seat: int, only_going_out: bool) -> list[Discard]:
    """`discards`, told whether a meld of the side is valid only in a going-out turn (`_only_going_out`)."""
    side = t.seating[seat]
    if not t.opened[side] and (t.provisional_count > 0 or t.pending_pile is not None):
        return []
    size = t.sizes[seat]
    if size == 1:
        if not may_go_out_now(t, seat):
            return []
    elif t.bound or only_going_out:
        return []
    found: list[Discard] = []
    hand = t.hands[seat]
    suits = _suits(t.deck)
    for kind in range(len(hand)):
        held = hand[kind]
        if not held or kind == RED_THREE:
            continue
        if kind < 4:
            found.append(_discard(kind, -1))
            continue
        present = 0
        for card in held:
            present |= 1 << suits[card]
        for suit in range(4):
            if present >> suit & 1:
                found.append(_discard(kind, suit))
    return found


def _discard(kind: int, suit: int) -> Discard:
    action = _DISCARDS.get((kind, suit))
    if action is None:
        action = _DISCARDS[kind, suit] = Discard(Kind(kind), suit=None if suit < 0 else Suit(suit))
    return action


def _only_going_out(t: TableState, side: int, melds: dict[int, MeldShape]) -> bool:
    """Whether a meld of the side (``melds``: its `melds_of`) is valid only in a going-out turn (§9.5, §11.3).

    Then only going out ends the turn.
    """
    kinds = type_set(t.dealt.meld_types)
    return any(kinds.only_going_out(shape) for shape in melds.values())


def _melds_now(
    t: TableState,
    seat: int,
    melds: dict[int, MeldShape],
    only_going_out: bool,
    *,
    filtered: bool = True,
    may_go_out: bool | None = None,
) -> list[object]:
    """The meld actions of the seat's meld phase: legal (`legal_melds`) or allowed (`allowed_melds`).

    ``melds``: the side's `melds_of`; ``only_going_out``: its `_only_going_out`; ``may_go_out``:
    whether the player may go out (``None``: as the answer given this turn says).
    """
    side = t.seating[seat]
    rules = t.dealt
    hand = hand_of(t, seat)
    opened, opening, count, number = t.opened[side], opening_of(t, seat), t.provisional_count, t.meld_numbers[side]
    if not filtered:
        return list(
            allowed_melds(
                hand,
                melds,
                rules.meld_types,
                opened=opened,
                opening=opening,
                count=count,
                next_number=number,
                values=rules.card_values,
            )
        )
    return list(
        legal_melds(
            hand,
            melds,
            rules.meld_types,
            opened=opened,
            opening=opening,
            count=count,
            quota=rules.going_out,
            # A meld only a going-out turn allows (black threes, an escalera past 7) binds like a "yes".
            bound=t.bound or only_going_out,
            may_go_out=_may_go_out(t) if may_go_out is None else may_go_out,
            next_number=number,
            values=rules.card_values,
            joining=_pending(t),
        )
    )


def _pending(t: TableState) -> int:
    """The cards of a pile an unopened side took that join the hand once it opens (its red threes are laid out)."""
    pending = t.pending_pile
    if not pending:
        return 0
    kinds = t.kinds
    return sum(1 for card in pending if kinds[card] != RED_THREE)


def _meld_phase(t: TableState) -> list[object]:
    seat = t.seat
    side = t.seating[seat]
    melds = melds_of(t, side)  # (read once: the melds, the discards and the question share them)
    only = _only_going_out(t, side, melds)
    found = _melds_now(t, seat, melds, only)
    dropped = _discards(t, seat, only)
    found += dropped
    if t.bound and not t.opened[side]:
        found = _still_going_out(t, found)
    if _may_ask(t) and _completes_after_no(t, seat, melds, only, bool(dropped)):
        found.append(_ASK)
    return found


def _allowed_meld_phase(t: TableState) -> list[object]:
    """The meld phase's actions the rules allow, before the completion filter (for the legality reference)."""
    seat = t.seat
    side = t.seating[seat]
    melds = melds_of(t, side)
    only = _only_going_out(t, side, melds)
    found = _melds_now(t, seat, melds, only, filtered=False)
    found += _discards(t, seat, only)
    if _may_ask(t):
        found.append(_ASK)
    return found


def _still_going_out(t: TableState, actions: list[object]) -> list[object]:
    """Of an unopened side's actions under a "yes", those after which it can still go out (open and go out).

    The meld searches judge a provisional opening by the opening alone; a "yes" also binds the
    player to go out in this turn, so each action is tried on a copy (`going_out_possible`).
    A state reached by an action kept here keeps a way on: the searches' plan is such an action.
    """
    kept = []
    for action in actions:
        after = t.copy()
        after._apply_unchecked(action)  # type: ignore[attr-defined]
        if after.is_over or going_out_possible(after, t.seat):
            kept.append(action)
    return kept


def _may_ask(t: TableState) -> bool:
    """SPEC "Going out": ask before melding anything this turn (a pile take is the draw: §9.8's decided point)."""
    permission = t.dealt.going_out.permission
    if permission is Permission.NONE or t.asker is not None or t.answer is not None or t.melded_this_turn:
        return False
    return not (permission is Permission.ONCE_PER_HAND and t.asks_used[t.seating[t.seat]])


def _completes_after_no(
    t: TableState, seat: int, melds: dict[int, MeldShape], only_going_out: bool, discard: bool
) -> bool:
    """Whether the turn can be completed without going out (after a "no"), in the meld phase.

    ``melds``, ``only_going_out``: as `_melds_now` takes them; ``discard``: a discard is legal now.
    """
    if t.sizes[seat] >= 2 and discard:
        return True  # a discard keeps a card (no "yes" binds while asking)
    return bool(_melds_now(t, seat, melds, only_going_out, may_go_out=False))


def yes_binds(t: TableState) -> bool:
    """Whether a "yes" now obliges the asker to go out (SPEC "Asking permission", §11.4's decided point).

    Asked before the draw, the "yes" binds while a stock draw is possible (the draw then
    settles it) or a take that goes out is; asked in the meld phase, where going out is
    possible (`going_out_possible`).

    Args:
        t: The hand, in its answer phase.

    Returns:
        True if the asker must go out after "yes".
    """
    asker = t.asker
    assert asker is not None
    if t.resume_phase is DRAW_PHASE:
        if t.stock:
            return True  # the stock draw settles it (`canasta.transitions`)
        # The stock is out: a take that goes out. An unopened side's takes are searched for the opening
        # alone, so its "yes" does not bind here (it plays on, free to go out).
        return t.opened[t.seating[asker]] and bool(pile_takes(t, asker, bound=True, may_go_out=True))
    return going_out_possible(t, asker)


def _draw_phase(t: TableState, filtered: bool = True) -> list[object]:
    seat = t.seat
    found: list[object] = []
    side = t.seating[seat]
    if t.stock:
        found.append(_DRAW)
        takes: list[object] = list(pile_takes(t, seat, bound=t.bound, completable_only=filtered))
        found += _still_going_out(t, takes) if filtered and t.bound and not t.opened[side] else takes
    else:
        # Stock exhaustion (§9.9): a top card that can be added alone must be taken; a natural pair may take it;
        # otherwise the hand ends (`canasta.transitions.begin_turn` ends it when no take is legal).
        # (A take "must" be made only where it is legal, SPEC §0: the forced take reads the legal takes.)
        last = pile_takes(t, seat, bound=t.bound)
        if filtered:
            found += _still_going_out(t, list(last)) if t.bound and not t.opened[side] else last
        else:
            found += pile_takes(t, seat, bound=t.bound, completable_only=False)
        if last and not t.bound and all(take.mode is TakeMode.PAIR for take in last):
            found.append(_END)
    if t.answer is None and _may_ask(t):
        found.append(_ASK)  # a stock draw (or the end of the hand) completes the turn after either answer
    return found


def generate(t: TableState, filtered: bool = True) -> list[object]:
    """The actions of a hand whose rules meld by meld type (`canasta.legality.generate` calls it).

    Args:
        t: The hand.
        filtered: Keep only the actions after which the turn can be completed (the legal
            actions); ``False``: every action the rules allow (`canasta.HandState.allowed_actions`,
            for the legality reference).

    Returns:
        A new list.
    """
    phase = t.phase
    if phase is MELD_PHASE:
        return _meld_phase(t) if filtered else _allowed_meld_phase(t)
    if phase is DRAW_PHASE:
        return _draw_phase(t, filtered)
    if phase is ANSWER_PHASE:
        # Both answers are always legal: a "yes" binds only where going out is possible (`yes_binds`).
        return [_YES, _NO]
    return []
