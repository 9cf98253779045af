"""Exact legal actions (what "legal" means): what the rules allow, filtered by the turn-completion oracle.

`allowed_actions` lists what the rules allow now; `legal_actions` keeps those
after which the acting player can still complete the turn legally, decided by
`canasta.completion` on card counts (no copy, no trial move). Everything listed
is accepted and everything else is refused, because `check` tests membership:
generation *is* the legality rule. Comments cite the rule book (docs/rules) where a rule enters.

The functions take the hand's data (`canasta.table.TableState`); `HandState`
exposes them as methods.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from operator import add, mul
from typing import Final, cast

from canasta import suitedlegality
from canasta.actions import Action, AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand, Meld, PickUpPacket, TakePile
from canasta.cards import (
    BLACK_THREE,
    JOKER,
    KIND_COUNT,
    NATURAL_INTS,
    RED_THREE,
    SECOND_MELD,
    TWO,
    Kind,
    new_meld_key,
)
from canasta.completion import (
    OpeningGroups,
    OpeningsFound,
    Turn,
    book_room,
    can_complete,
    meld_may_complete,
    opening_completes_after,
    opening_groups,
    opening_reached,
    valid_additions,
)
from canasta.declaration import declarations
from canasta.discards import (
    discardable_kinds,
    discardable_now,
    keep_discards,
    meld_strands,
    plain_discards_now,
    plain_now,
    strict_pile,
    take_strands,
)
from canasta.goingout import OutOptions, can_meld_out, going_out_options
from canasta.keeping import layouts
from canasta.rulefacts import RuleFacts, hand_rules, meld_valid
from canasta.rules import Permission
from canasta.special import HAND_SIZE
from canasta.table import (
    ANSWER_PHASE,
    DRAW_PHASE,
    MELD_PHASE,
    AdditionsTable,
    MeldAdditions,
    MeldState,
    Phase,
    TableState,
    meld_counts,
)

__all__ = [
    "allowed_actions",
    "answer_lets_out",
    "blocking_melds",
    "bonus_cards_due",
    "discardable_kinds",
    "generate",
    "goes_out_ok",
    "legal_actions",
    "legal_takes",
    "may_pick_up",
    "meld_counts",
    "needs_no_kept_card",
    "opened_this_turn",
    "packet_unearned",
    "pile_to_hand",
    "turn_facts",
    "yes_binds",
]

#: Whether this module runs compiled by mypyc (an extension module) or as its Python source: the
#: listing of discards is written for each (`_meld_phase`); the differential test compares them.
_COMPILED: Final = not __file__.endswith(".py")

_DRAW: Final = DrawStock()
_END: Final = EndHand()
_ASK: Final = AskGoOut()
_YES: Final = AnswerGoOut(True)
_NO: Final = AnswerGoOut(False)
_PICK_UP: Final = PickUpPacket()
# The meld actions made, one object per meld (the legal lists share them): by kind (``rank +
# SECOND_MELD`` for a side's second meld of a rank), then by ``(naturals, twos, jokers)``, the
# tuples `valid_additions` makes (no key to build).
_MELDS_OF_KIND: Final[list[dict[tuple[int, int, int], Meld]]] = [{} for _ in range(2 * SECOND_MELD)]
# Those of a side's third and later melds of a kind (several-melds), by key: made when first met.
_MELDS_OF_SLOTS: Final[dict[int, dict[tuple[int, int, int], Meld]]] = {}
_DISCARDS: Final = tuple(Discard(Kind(k)) for k in range(KIND_COUNT))
_KINDS: Final = tuple(Kind(k) for k in range(KIND_COUNT))  # (by number: an enum call costs more than a meld's checks)
# A take's shape: (naturals, twos, jokers shown, 1 if onto the side's second meld of the rank).
_TAKE_SHAPES: Final = tuple(
    (n, tw, jk, second) for second in (0, 1) for n, tw, jk in ((2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 0, 0))
)
# A wild card on top, taken with two of its kind (`canasta.PileRules.wild_pair`): by the top card's kind.
_WILD_PAIR_SHAPES: Final = {TWO: (0, 2, 0, 0), JOKER: (0, 0, 2, 0)}
# add-to-books: a natural pair onto one of the side's books of the top card's rank (the last number 2).
_BOOK_TAKE: Final = (2, 0, 0, 2)
_TAKES: Final = {
    shape: TakePile(*shape[:3], second=shape[3] == 1, book=shape[3] == 2)
    for shape in (*_TAKE_SHAPES, *_WILD_PAIR_SHAPES.values(), _BOOK_TAKE)
}
# The shapes by meld (0: the rank's meld or a new one; 1: its second meld), in `_shapes_onto`'s order.
_TAKE_WAYS: Final = (_TAKE_SHAPES[:4], _TAKE_SHAPES[4:])
_LAYOFFS: Final = (_TAKES[(0, 0, 0, 0)], _TAKES[(0, 0, 0, 1)])
# The discards of a hand holding every kind, by "first round" (Cuban black threes);
# red threes and bonus black threes stay in a hand only as a kept three (`canasta.keeping`),
# which the generation filters out itself: the discardable-kind rules are those of `discardable_kinds`.
_DISCARD_PAIRS: Final = {
    False: tuple((k, _DISCARDS[k]) for k in range(KIND_COUNT) if k != RED_THREE),
    True: tuple((k, _DISCARDS[k]) for k in range(KIND_COUNT) if k not in (RED_THREE, BLACK_THREE)),
}
# Enum members as module constants: a member lookup is slow, and `_may_ask` runs on every action.
_NO_PERMISSION: Final = Permission.NONE
_ONCE_PER_HAND: Final = Permission.ONCE_PER_HAND
_REQUIRED: Final = Permission.REQUIRED
_ANY_TIME: Final = Permission.ANY_TIME
_NO_DISCARDS: Final = (False,) * KIND_COUNT
_NO_RANKS: Final[frozenset[int]] = frozenset()


def _meld_action(rank: int, n: int, t: int, j: int, slot: int = 0) -> Meld:
    """``Meld(rank, n, t, j, slot=slot)``, made once (slot 1: cutthroat's second meld, or several-melds')."""
    key = rank + SECOND_MELD * slot
    if key < 2 * SECOND_MELD:
        melds = _MELDS_OF_KIND[key]
    else:
        found = _MELDS_OF_SLOTS.get(key)
        melds = _MELDS_OF_SLOTS[key] = {} if found is None else found
    shape = (n, t, j)
    action = melds.get(shape)
    if action is None:
        action = melds[shape] = Meld(_KINDS[rank], n, t, j, slot=slot)
    return action


_BOOK_MELDS: Final[dict[int, Meld]] = {}


def _book_meld(rank: int, n: int, tw: int = 0, jk: int = 0, slot: int = 0) -> Meld:
    """``Meld(rank, n, tw, jk, book=True, slot=slot)`` (add-to-books, wilds-onto-books), made once."""
    key = (((slot * 16 + rank) * 64 + n) * 64 + tw) * 64 + jk
    action = _BOOK_MELDS.get(key)
    if action is None:
        action = _BOOK_MELDS[key] = Meld(_KINDS[rank], n, tw, jk, book=True, slot=slot)
    return action


# --- facts of the turn ------------------------------------------------------------------


def pile_to_hand(t: TableState, cards: list[int]) -> list[int]:
    """Counts by kind of the pile cards that go into the hand when the pile is picked up.

    Bonus threes are laid out and black threes set aside where the variant
    says so (the rule book's "The discard pile"; Cuban), so they never reach the hand.

    Args:
        t: The hand.
        cards: The pile cards picked up.

    Returns:
        15 counts indexed by kind.
    """
    counts = [0] * KIND_COUNT
    kinds = t.kinds
    for card in cards:
        kind = kinds[card]
        counts[kind] = counts[kind] + 1
    if t.facts.red_threes_are_bonus:
        counts[RED_THREE] = 0
    if t.dealt.threes.black_threes_are_bonus or t.dealt.black_threes.set_aside_from_pile:
        counts[BLACK_THREE] = 0
    return counts


def _top_rank(t: TableState) -> int:
    return -1 if t.taken_top is None else t.kinds[t.taken_top]


def turn_facts(
    t: TableState,
    seat: int,
    *,
    bound: bool | None = None,
    out_allowed: bool | None = None,
    drew: bool | None = None,
    strict: bool | None = None,
) -> Turn:
    """The oracle's view of a seat's turn now (see `canasta.completion.Turn`).

    Args:
        t: The hand.
        seat: The acting seat (the asker, while a partner answers).
        bound: Override: a binding "yes" is in force.
        out_allowed: Override: going out is allowed.
        drew: Override: the player drew from the stock (for the concealed exemption).
        strict: `canasta.discards.strict_pile` of the seat, if the caller knows it (``None``: decide it).

    Returns:
        The facts.
    """
    rules = t.dealt
    final_only = t.final_meld_only
    drew_from_stock = t.drew_from_stock if drew is None else drew
    if final_only:
        # Rule option last-red-three-may-meld: no discard after the last-card red three.
        discardable: tuple[bool, ...] = _NO_DISCARDS
        out_discardable: tuple[bool, ...] | None = None
        closing = False
    elif t.restricts_discards:
        # american-discards: the discard that keeps cards follows the hand (D3, D4); going out is freer (D2).
        if strict is None:
            strict = strict_pile(t, seat)
        discardable = keep_discards(t, seat, strict=strict)
        out_discardable = discardable_now(t)
        closing = strict and t.closes_ranks
    else:
        discardable = discardable_now(t)
        out_discardable = None
        closing = False
    packet_down = bool(t.packets[seat])
    unearned = packet_down and t.facts.after_first_canasta and t.first_canasta[seat] < 0
    if out_allowed is None:
        out_allowed = answer_lets_out(t)
    if t.facts.has_packets and not _packets_let_out(t, seat):
        out_allowed = False  # Hand and Foot §8.8, conditions 1 and 3: the last packet (the partners' too)
    return Turn(
        rules,
        minimum=t.minimums[t.facts.sides[seat]],  # `TableState.personal_minimum`
        exempt=t.facts.concealed_exemption and drew_from_stock and t.taken_top is None,
        out_allowed=out_allowed,
        bound=t.bound if bound is None else bound,
        final_only=final_only,
        discardable=discardable,
        top_rank=-1 if t.taken_top is None else t.kinds[t.taken_top],  # `_top_rank`
        pending=None if t.pending_pile is None else pile_to_hand(t, t.pending_pile),
        out_discardable=out_discardable,
        closing=closing,
        hold=0 if t.relief_stock >= 0 and needs_no_kept_card(t, seat) else 1,
        facts=t.facts,
        packet_down=packet_down,
        books=t.book_counts(t.seating[seat]) if t.facts.counts_by_class else None,
        unearned=unearned,
        canastas_before=_canasta_keys(t, t.seating[seat]) if unearned else (),
        books_before=len(t.books[t.seating[seat]]) if unearned else 0,
        onto_books=t.book_ranks(t.seating[seat]) if t.facts.add_to_books else _NO_RANKS,
        book_room=t.book_room(t.seating[seat]) if t.facts.wilds_onto_books else 0,
    )


def _canasta_keys(t: TableState, side: int) -> tuple[int, ...]:
    """The keys of a side's melds of canasta size (books set apart are not among its melds)."""
    size = t.facts.canasta_size
    return tuple(key for key, m in t.melds[side].items() if m.naturals + m.twos + m.jokers >= size)


def packet_unearned(t: TableState, seat: int) -> bool:
    """Whether the seat's next packet is still to be earned by its first canasta (foot-after-first-book).

    `canasta.PacketRules.after_first_canasta`: until the seat has completed a canasta of its own
    this hand, no meld or discard may empty its hand, and it may not pick the packet up.

    Args:
        t: The hand.
        seat: The seat.

    Returns:
        True if the seat has a packet down that its first canasta has not yet earned.
    """
    return bool(t.packets[seat]) and t.facts.after_first_canasta and t.first_canasta[seat] < 0


def may_pick_up(t: TableState) -> bool:
    """Whether the acting seat may pick up its next packet at will now (`canasta.PickUpPacket`).

    foot-after-first-book: in the draw phase (the start of its turn, before the draw) of a turn
    after the one in which it completed its first canasta, with a packet still down.

    Args:
        t: The hand.

    Returns:
        True if `canasta.PickUpPacket` is legal.
    """
    seat = t.seat
    return (
        t.facts.after_first_canasta
        and t.phase is DRAW_PHASE
        and bool(t.packets[seat])
        and 0 <= t.first_canasta[seat] < t.turn
    )


def opened_this_turn(t: TableState, side: int) -> bool:
    """Whether a side made its initial meld in the turn being played.

    A side that had not melded before this turn had no melds then, so all of
    its melds are this turn's.

    Args:
        t: The hand.
        side: The side.

    Returns:
        True if the side has opened and every meld of it is new this turn.
    """
    if t.books[side]:
        # Books that make room: every book made this turn, and none from a meld of an earlier turn.
        return (
            t.opened[side] and t.turn_books == 0 and not t.added_to_old and all(r in t.new_ranks for r in t.melds[side])
        )
    return t.opened[side] and bool(t.melds[side]) and all(r in t.new_ranks for r in t.melds[side])


def bonus_cards_due(t: TableState, seat: int, *, if_opened: bool = False) -> int:
    """Bonus cards the seat draws after this turn's discard (rule option american-talon, "The initial meld").

    They go to the player who completes the side's initial meld, after the
    discard ending that turn: 4 or 3 by how many sides had melded before, none
    when the opening was made by taking the pile or the stock is down to its floor.

    Args:
        t: The hand.
        seat: The acting seat.
        if_opened: Count them as if the side, not yet opened, completed its
            opening this turn.

    Returns:
        The number of bonus cards (0: none).
    """
    side = t.seating[seat]
    if t.taken_top is not None:
        return 0  # american-talon: no bonus cards when the opening was made by taking the pile
    if t.opened[side]:
        if not opened_this_turn(t, side):
            return 0
    elif not if_opened:
        return 0
    initial = t.dealt.initial_meld
    earlier = sum(1 for sd, done in enumerate(t.opened) if done and sd != side)
    if earlier >= len(initial.bonus_cards) or len(t.stock) <= initial.bonus_cards_stock_floor:
        return 0
    return initial.bonus_cards[earlier]


def needs_no_kept_card(t: TableState, seat: int) -> bool:
    """american-discards, D5 c: bonus cards follow this turn's discard, so the player need not keep a card.

    Only where the rules say so (`canasta.InitialMeldRules.bonus_cards_stand_for_kept_card`), and only
    while the stock holds more than ``TableState.relief_stock`` cards, so that the bonus cards are
    never all threes.

    Args:
        t: The hand.
        seat: The acting seat.

    Returns:
        True if the seat may discard its last card without going out.
    """
    return 0 <= t.relief_stock < len(t.stock) and bonus_cards_due(t, seat, if_opened=True) > 0


def goes_out_ok(t: TableState, side: int) -> bool:
    """The rule book's "Going out": permission, the canastas required, and the opening or the concealed exemption.

    Args:
        t: The hand (its acting seat is the one going out).
        side: The acting side.

    Returns:
        True if emptying the hand now goes out.
    """
    if not answer_lets_out(t):  # The rule book: "no" binds for this turn (and Hand and Foot needs a "yes")
        return False
    if t.facts.has_packets and not _packets_let_out(t, t.seat):
        return False  # Hand and Foot §8.8: conditions 1 and 3 (the last packet, the partners' too)
    if t.final_meld_only and t.dealt.going_out.final_discard_required:
        return False  # after a last-card red three nobody discards, so nobody goes out here
    canastas = t.canastas(side)
    rules = t.dealt
    if t.facts.counts_by_class:
        if not t.quota_met(side):
            return False  # the quota by class, books included
    elif canastas < rules.going_out.canastas_required:
        return False
    if t.blocks_out and blocking_melds(t, side):
        return False  # the club rules: not with an incomplete natural meld of aces or sevens, or wild meld
    if t.opened[side]:
        return True
    minimum = t.personal_minimum(t.seat)
    melds = meld_counts(t, side)
    if opening_reached(rules, t.provisional_count, minimum, melds, _top_rank(t), splash=t.opens_by_splash):
        return True
    return rules.initial_meld.concealed_exemption and t.drew_from_stock and t.taken_top is None and canastas >= 1


def answer_lets_out(t: TableState) -> bool:
    """Whether the partner's answer this turn lets the acting player go out (the rule book's "Going out").

    A "no" never does; where permission is required (`canasta.Permission.REQUIRED`, Hand and Foot
    §8.8), only a "yes" does.

    Args:
        t: The hand.

    Returns:
        True if the answer given (or none) allows going out now.
    """
    if t.facts.permission is _REQUIRED:
        return t.answer is True
    return t.answer is not False


def _packets_let_out(t: TableState, seat: int) -> bool:
    """Hand and Foot §8.8, conditions 1 and 3: the seat holds its last packet, and so do its partners if required."""
    if t.packets[seat]:
        return False
    return not t.facts.partners_first or t.partners_in_last_packet(seat)


def blocking_melds(t: TableState, side: int) -> list[int]:
    """The side's melds that keep it from going out as they are (`canasta.GoingOutRules.not_with_incomplete`).

    Args:
        t: The hand.
        side: The side.

    Returns:
        Their ranks (``JOKER`` for the wild meld).
    """
    going_out = t.dealt.going_out
    size = t.dealt.melds.canasta_size
    return [m.rank for m in t.melds[side].values() if going_out.blocked_by(m.rank, m.naturals, m.twos, m.jokers, size)]


# --- the draw phase ---------------------------------------------------------------------


def _take_shapes(t: TableState, seat: int, exhausted: bool) -> list[tuple[int, int, int, int]]:
    """The ways the rules allow to take the pile now (the rule book's "The discard pile")."""
    pile = t.pile
    if not pile:
        return []
    facts = t.facts
    top = t.kinds[pile[-1]]
    if top < 4:
        if facts.wild_pair and top <= TWO:
            return _wild_pair_shapes(t, seat, top)
        return []
    if top in facts.blocked_top:
        return []
    side = t.seating[seat]
    if not t.counts[seat][top] and top not in t.melds[side]:
        return []  # the usual case: nothing to take it with
    if facts.one_card_rule and t.sizes[seat] == 1 and len(pile) == 1:
        return []
    opened = t.opened[side]
    if not opened and not facts.unmelded_side_may_take:
        return []  # Cuban: the initial meld comes from the hand
    counts = t.counts[seat]
    shapes: list[tuple[int, int, int, int]] = []
    frozen = t.pile_frozen_for(side)
    layoff = opened and ((not frozen and facts.layoff) or (exhausted and facts.forced_take_by_layoff))
    melds = t.melds[side]
    if facts.several_melds:
        # several-melds: the top card and the shown cards always start a new meld.
        _shapes_onto(shapes, facts, counts, top, None, 0, frozen, False)
    else:
        # Onto the side's meld of the rank (or a new one), and under cutthroat onto its
        # second meld of the rank too (cutthroat: cards of that rank may go onto either).
        _shapes_onto(shapes, facts, counts, top, melds.get(top), 0, frozen, layoff)
        second = melds.get(top + SECOND_MELD)
        if second is not None:
            _shapes_onto(shapes, facts, counts, top, second, 1, frozen, layoff)
    if facts.add_to_books and opened and counts[top] >= 2 and top in t.book_ranks(side) and not facts.several_melds:
        shapes.append(_BOOK_TAKE)  # add-to-books: the pickup meld onto a book of the rank
    if shapes and facts.empty_pile_stops:
        # american-discards, D5 b: after a take the pile is empty, and the hand must keep a plain card.
        shapes = [shape for shape in shapes if not take_strands(t, seat, shape)]
    if shapes and facts.after_first_canasta and packet_unearned(t, seat):
        shapes = [shape for shape in shapes if not _take_empties_unearned(t, seat, shape)]
    return shapes


def _take_empties_unearned(t: TableState, seat: int, shape: tuple[int, int, int, int]) -> bool:
    """foot-after-first-book: this take would empty the hand (§8.10 E1) with no canasta of the player's own."""
    n, tw, jk, second = shape
    if t.sizes[seat] - n - tw - jk or sum(pile_to_hand(t, taken_below_top(t))):
        return False
    top = t.kinds[t.pile[-1]]
    key = JOKER if top <= TWO else (top + SECOND_MELD if second else top)
    meld = None if t.facts.several_melds else t.melds[t.seating[seat]].get(key)  # (several-melds: a new meld)
    before = 0 if meld is None else meld.naturals + meld.twos + meld.jokers
    return not before < t.facts.canasta_size <= before + 1 + n + tw + jk


def _meld_empties_unearned(t: TableState, seat: int, action: Meld) -> bool:
    """foot-after-first-book: this meld would empty the hand and complete no canasta (the player has none yet)."""
    added = action.naturals + action.twos + action.jokers
    if t.sizes[seat] != added:
        return False
    rank = int(action.rank)
    if action.book:
        return True  # (onto a book: no canasta is made)
    side = t.seating[seat]
    key = rank + SECOND_MELD * action.slot
    meld = t.melds[side].get(key)
    before = 0 if meld is None else meld.naturals + meld.twos + meld.jokers
    if before < t.facts.canasta_size <= before + added:
        return False  # it completes the canasta that earns the packet
    if t.pending_pile is not None and not t.opened[side] and any(pile_to_hand(t, t.pending_pile)):
        # A pile taken before the opening comes into the hand when this meld completes it: not emptied.
        values = t.facts.card_values
        provisional = t.provisional_count + values[rank] * action.naturals
        provisional += values[TWO] * action.twos + values[JOKER] * action.jokers
        melds = meld_counts(t, side)
        m0 = melds.get(key, (0, 0, 0))
        melds[key] = (m0[0] + action.naturals, m0[1] + action.twos, m0[2] + action.jokers)
        minimum = t.personal_minimum(seat)
        return not opening_reached(t.dealt, provisional, minimum, melds, _top_rank(t), splash=t.opens_by_splash)
    return True


def _wild_pair_shapes(t: TableState, seat: int, top: int) -> list[tuple[int, int, int, int]]:
    """A wild top card taken with two of its kind into the side's wild meld (`canasta.PileRules.wild_pair`)."""
    if t.counts[seat][top] < 2:
        return []
    side = t.seating[seat]
    if not t.opened[side] and not t.facts.unmelded_side_may_take:
        return []
    meld = None if t.facts.several_melds else t.melds[side].get(JOKER)  # (several-melds: a new wild meld)
    t0, j0 = (meld.twos, meld.jokers) if meld is not None else (0, 0)
    twos, jokers = (t0 + 3, j0) if top == TWO else (t0, j0 + 3)
    if not meld_valid(t.facts, JOKER, 0, twos, jokers):
        return []  # (Hand and Foot E5: an incomplete wild meld of 5 or 6 cannot take three more)
    return [_WILD_PAIR_SHAPES[top]]


def _shapes_onto(
    shapes: list[tuple[int, int, int, int]],
    facts: RuleFacts,
    counts: list[int],
    top: int,
    meld: MeldState | None,
    second: int,
    frozen: bool,
    layoff: bool,
) -> None:
    """Add the takes onto one meld of the top card's rank (``None``: a new meld) that make a valid meld."""
    n0 = t0 = j0 = 0
    if meld is not None:
        n0, t0, j0 = meld.naturals, meld.twos, meld.jokers
    held = counts[top]
    ways = _TAKE_WAYS[second]  # (the shapes as constants: no tuple built per take)
    if held >= 2 and meld_valid(facts, top, n0 + 3, t0, j0):
        shapes.append(ways[0])
    if not frozen and facts.natural_and_wild and held >= 1:
        if counts[TWO] and meld_valid(facts, top, n0 + 2, t0 + 1, j0):
            shapes.append(ways[1])
        if counts[JOKER] and meld_valid(facts, top, n0 + 2, t0, j0 + 1):
            shapes.append(ways[2])
    if layoff and meld is not None and meld_valid(facts, top, n0 + 1, t0, j0):
        shapes.append(ways[3])


def _take_completes(
    t: TableState, seat: int, shape: tuple[int, int, int, int], bound: bool, out_allowed: bool
) -> bool:
    """What "legal" means, for a pile take: after it, the turn can still be completed (the pile is face up)."""
    rules = t.dealt
    facts: RuleFacts | None = None  # (the rules' own: ``t.facts``, unless aces-pure sets the take's state)
    side = t.seating[seat]
    n, tw, jk, second = shape
    if t.locks_wilds and not t.opened[side]:
        top_kind = t.kinds[t.pile[-1]]
        if top_kind in t.facts.opening_wilds:
            # House rule aces-pure: the meld this take forms stays natural for the rest of the turn: the
            # turn meld state the take sets (`canasta.table.TableState._meld_state`, kept with the rules
            # dealt, so the take met again, and the take made, find it), with its facts.
            facts = t._meld_state(top_kind, side)
    restricted = t.restricts_discards
    if (
        not bound
        and t.opened[side]
        and t.sizes[seat] - n - tw - jk >= 2
        and not (t.facts.no_discard_first_round and t.turn < t.facts.players)
        and not restricted
    ):
        return True  # the usual case: two cards or more stay in hand, any of them can be discarded
    pile = t.pile
    top = t.kinds[pile[-1]]
    hand = list(t.counts[seat])
    hand[top] = hand[top] - n
    hand[TWO] = hand[TWO] - tw
    hand[JOKER] = hand[JOKER] - jk
    rest = pile_to_hand(t, taken_below_top(t))
    opened = t.opened[side]
    discardable = out_discardable = discardable_now(t)
    closing = False
    if restricted:
        # american-discards: the pile is empty after the take, and the hand holds a plain card (D5 b, checked
        # by `_take_shapes`): only plain cards end the turn (D4); a wild card never does (D3: no stock draw).
        discardable = plain_discards_now(t)  # (the take's state differs only in natural-only ranks)
        closing = t.closes_ranks
    if opened and not bound and not restricted and (sum(hand) + sum(rest)) >= 2:
        # The usual case: the pile comes into the hand; any discardable card ends the turn.
        for k in range(KIND_COUNT):
            if (hand[k] + rest[k]) and discardable[k]:
                return True
    melds = meld_counts(t, side)
    if top <= TWO:
        # A wild top card with two of its kind (`canasta.PileRules.wild_pair`): into the wild meld
        # (several-melds: a new one).
        key = new_meld_key(melds, JOKER) if t.facts.several_melds else JOKER
        m0 = melds.get(key, (0, 0, 0))
        melds[key] = (m0[0], m0[1] + tw + (top == TWO), m0[2] + jk + (top == JOKER))
    elif second < 2:  # (2: onto a book, add-to-books: the melds stay as they are)
        if t.facts.several_melds:
            key = new_meld_key(melds, top)  # several-melds: the pickup starts a new meld
        else:
            key = top + SECOND_MELD if second else top
        m0 = melds.get(key, (0, 0, 0))
        melds[key] = (m0[0] + 1 + n, m0[1] + tw, m0[2] + jk)
    values = t.facts.card_values
    minimum = t.personal_minimum(seat)
    provisional = 0
    pending: list[int] | None = None
    if not opened:
        # The rule book: the top card counts with the shown cards (not in modern American).
        provisional = values[top] * ((1 if rules.initial_meld.top_card_counts else 0) + n)
        provisional += values[TWO] * tw + values[JOKER] * jk
        if opening_reached(rules, provisional, minimum, melds, top, splash=t.opens_by_splash):
            opened = True
        else:
            pending = rest
    if opened:
        hand = list(map(add, hand, rest))
    down = bool(t.packets[seat])  # Hand and Foot: emptying the hand picks up the packet still down
    unearned = down and t.facts.after_first_canasta and t.first_canasta[seat] < 0  # (foot-after-first-book)
    if t.facts.has_packets and not _packets_let_out(t, seat):
        out_allowed = False  # §8.8, conditions 1 and 3: going out needs the last packet (the partners' too)
    turn = Turn(
        rules,
        minimum=minimum,
        exempt=False,
        out_allowed=out_allowed,
        bound=bound,
        final_only=False,
        discardable=discardable,
        top_rank=top,
        facts=t.facts if facts is None else facts,
        pending=pending,
        out_discardable=out_discardable,
        closing=closing,
        packet_down=down,
        books=t.book_counts(side) if t.facts.counts_by_class else None,
        unearned=unearned,
        canastas_before=_canasta_keys(t, side) if unearned else (),
        books_before=len(t.books[side]) if unearned else 0,
        onto_books=t.book_ranks(side) if t.facts.add_to_books else _NO_RANKS,
        book_room=t.book_room(side) if t.facts.wilds_onto_books else 0,
    )
    return can_complete(turn, hand, melds, opened=opened, provisional=provisional)


def taken_below_top(t: TableState) -> list[int]:
    """The pile cards a take brings into the hand besides the top card (`canasta.PileRules.take_count`).

    Args:
        t: The hand, with a pile of at least one card.

    Returns:
        The cards under the top card that a take takes, bottom first (a new list).
    """
    pile = t.pile
    count = t.facts.take_count
    if count < 0 or count >= len(pile):
        return pile[:-1]
    return pile[len(pile) - count : -1]


def legal_takes(
    t: TableState, seat: int, *, exhausted: bool, bound: bool = False, out_allowed: bool = True
) -> list[TakePile]:
    """The legal pile takes of a seat now: allowed by the rules and completable (what "legal" means).

    Args:
        t: The hand.
        seat: The seat about to draw.
        exhausted: Whether the stock is empty.
        bound: A binding "yes" is in force.
        out_allowed: Going out is allowed this turn.

    Returns:
        The takes.
    """
    return [
        _TAKES[s]
        for s in _take_shapes(t, seat, exhausted=exhausted)
        if _take_completes(t, seat, s, bound=bound, out_allowed=out_allowed)
    ]


def _draw_options(t: TableState, seat: int, *, bound: bool, out_allowed: bool, filtered: bool) -> list[Action]:
    """Draw-phase actions: draw, take, or end the hand when the stock is out (the rule book's "Stock exhaustion")."""
    exhausted = not t.stock
    actions: list[Action] = []
    if not exhausted:
        actions.append(_DRAW)  # a stock draw is always legal; see "Asking permission"
    if filtered:
        takes = legal_takes(t, seat, exhausted=exhausted, bound=bound, out_allowed=out_allowed)
    else:
        takes = [_TAKES[s] for s in _take_shapes(t, seat, exhausted=exhausted)]
    actions.extend(takes)
    if exhausted and not bound:
        # The rule book: a discard that can be added to a meld must be taken, if taking it
        # is legal (what "legal" means: a take after which the turn cannot be completed is not).
        possible = takes if filtered else legal_takes(t, seat, exhausted=True, bound=bound, out_allowed=out_allowed)
        forced = t.dealt.exhaustion.forced_take and any(a in possible for a in _LAYOFFS)
        if not forced:
            actions.append(_END)
    return actions


# --- permission -------------------------------------------------------------------------


def _may_ask(t: TableState) -> bool:
    """The rule book's "Going out": ask before melding anything this turn, where the variant has permission.

    Where permission is required (Hand and Foot §8.8) or may be asked at any time, at any point of the
    turn before the discard.
    """
    facts = t.facts
    permission = facts.permission
    if t.asker is not None or t.answer is not None:
        return False
    if t.melded_this_turn and permission is not _REQUIRED and permission is not _ANY_TIME:
        return False
    if permission is _NO_PERMISSION:
        return False
    side = t.seating[t.seat]
    if permission is _ONCE_PER_HAND and t.asks_used[side]:
        return False
    if facts.first_taker_alone and t.seating.count(side) < 2:
        return False  # cutthroat: no partner to ask until the partnership forms
    if facts.has_packets and not _packets_let_out(t, t.seat):
        return False  # Hand and Foot §8.8: only a player who may go out asks (the last packet, the partners' too)
    return not t.final_meld_only


def _answer_completes(t: TableState, asker: int, phase: Phase, yes: bool) -> bool:
    """Whether the asker can complete the turn after this answer (what "legal" means; "Asking permission")."""
    if phase is DRAW_PHASE:
        # A stock draw is always possible and always legal ("Asking permission").
        return bool(t.stock) or bool(_draw_options(t, asker, bound=yes, out_allowed=yes, filtered=True))
    turn = turn_facts(t, asker, bound=yes, out_allowed=yes)
    side = t.seating[asker]
    return can_complete(
        turn, t.counts[asker], meld_counts(t, side), opened=t.opened[side], provisional=t.provisional_count
    )


# --- the meld phase ---------------------------------------------------------------------


class _MeldChecks:
    """What "legal" means, for the candidate melds of one meld phase: built lazily, shared by the candidates.

    One search (`meld_may_complete`) decides whether any meld can be followed by
    a completion and finds one opening (the witness). For a side that has not
    opened, `completes` then decides each candidate by the cheapest test that
    settles it: it is contained in the witness; it completes the opening on its
    own with two cards to spare; it replaces one meld of the witness
    (`_swap_opens`); it is contained in an opening found for an earlier
    candidate, or contains a candidate the oracle refused (legal additions to a
    meld are closed downwards); and only then the oracle's own search, on the
    counts the candidate leaves. `tests/test_meld_inference.py` checks the
    shortcuts against the oracle asked directly.
    """

    __slots__ = (
        "alone",
        "canastas_now",
        "counts",
        "counts_now",
        "found",
        "groups",
        "hopeless",
        "learns",
        "opened",
        "out_options",
        "plain_out",
        "refuted",
        "searched",
        "size",
        "swap",
        "t",
        "turn",
        "witness",
    )

    def __init__(self, t: TableState, seat: int, side: int, strict: bool) -> None:
        self.t = t
        self.counts = counts = t.counts[seat]
        self.size = t.sizes[seat]
        self.opened = opened = t.opened[side]
        self.turn = turn = turn_facts(t, seat, strict=strict)
        self.counts_now = counts_now = meld_counts(t, side)
        self.canastas_now = t.canastas(side) if opened else 0  # (read only for an opened side)
        # Going out by this meld (or a discard after it) is decided from canasta
        # counts when the side has opened and nothing binds or ends the turn early.
        self.plain_out = (
            opened
            and not turn.bound
            and not turn.final_only
            and turn.out_allowed
            and not t.blocks_out  # (the club rules: the oracle decides)
            and not t.facts.counts_by_class  # (canastas by class: the oracle decides)
        )
        self.witness: dict[int, tuple[int, int, int]] = {}
        self.out_options: OutOptions | None = None
        self.swap: tuple[dict[int, tuple[int, int, int]], int, int, int, int] | None = None
        self.alone: tuple[int, int] | None = None
        # What the searches found (see `completes`): openings that complete the turn (the witness
        # first), and by meld the additions after which it cannot be completed. (Only where the
        # side has not opened. Under rule-of-five, where the order of melds matters, ``learns`` is
        # off and `completes` learns only for the candidates that commute with every opening:
        # see `_commutes`.)
        self.learns = not opened and not t.wild_meld_first
        self.found: list[dict[int, tuple[int, int, int]]] = []
        self.refuted: dict[int, list[tuple[int, int, int]]] = {}
        self.groups: OpeningGroups | None = None  # (the opening search's groups here, made when first needed)
        self.searched = True  # (`_first_search` done, or not needed)
        if (
            opened
            and turn.bound
            and (turn.books is not None or (t.regrouped and any(k >= SECOND_MELD for k in counts_now)))
        ):
            # Cutthroat with a rank held twice: each candidate is decided on its own
            # by the going-out programme (the one-pass options know one meld per rank).
            self.hopeless = not (
                turn.out_allowed
                and can_meld_out(
                    hand_rules(t.facts),  # (the rules with the hand's meld state)
                    counts,
                    counts_now,
                    turn.out_discardable,
                    need=t.facts.canastas_required,
                    books=turn.books,
                    onto_books=turn.onto_books,
                    book_room=turn.book_room,
                )
            )
            return
        if opened and turn.bound and not t.wild_meld_first:
            # After "yes" only going out completes the turn: one pass finds every
            # meld that starts a going-out line (the rule book, "Asking permission").
            # (Not under rule-of-five, where the order of melds matters: each is decided on its own.)
            self.out_options = going_out_options(
                hand_rules(t.facts), counts, counts_now, turn.out_discardable, need=t.facts.canastas_required
            )
            self.hopeless = self.out_options is None
            return
        if (
            not opened
            and not turn.bound
            and not turn.final_only
            and not t.restricts_discards
            and not t.facts.no_discard_first_round
            and not t.facts.clean_meld_naturals
        ):
            # For the test of a candidate that opens on its own (in `completes`): the count it must
            # add, and the cards left to hold and discard besides the hand's (the pile taken).
            # (Not where the opening needs a clean meld: modern American's minimums are rarely
            # reached by one meld, and the test would cost more than it saves.)
            self.alone = (turn.minimum - t.provisional_count, turn.pending_size)
        if self.alone is None:
            self._first_search()
        else:
            # The search waits for a candidate that does not open on its own (often there is none).
            self.searched = False
            self.hopeless = False

    def _first_search(self) -> None:
        """The search of the whole list (`meld_may_complete`): can any meld lead to a completion; the witness."""
        self.searched = True
        t = self.t
        turn = self.turn
        counts = self.counts
        counts_now = self.counts_now
        opened = self.opened
        # One search for the whole list: if no meld can lead to a completion, none is legal.
        # (Under rule-of-five the order of melds matters: the witness stands in only for the candidates that
        # commute with it, `_commutes`.)
        carried = self.learns and not t.restricts_discards  # (american-discards: the discards follow the hand)
        tag = _openings_tag(t) if carried else ()
        if carried and t._openings is not None:
            # Openings found earlier this turn that contain the melds made since complete it from here too
            # (`OpeningsFound`): the first is the witness, and no search is needed.
            self.found = t._openings.covering(t.dealt, tag, counts, counts_now, t.provisional_count)
        if self.found:
            self.witness = self.found[0]
            self.hopeless = False
        else:
            self.hopeless = not meld_may_complete(
                turn,
                counts,
                counts_now,
                opened=opened,
                provisional=t.provisional_count,
                witness=self.witness,  # (under rule-of-five too: the candidates that commute, `_commutes`)
            )
            if self.witness and (self.learns or t.wild_meld_first):
                self.found.append(self.witness)  # (the first opening found, for the candidates it covers)
        if carried and self.found:
            # Kept for the next meld phase of this turn (with what the candidates' searches add to ``found``).
            t._openings = OpeningsFound(t.dealt, tag, counts[:], dict(counts_now), t.provisional_count, self.found)
        if (
            self.witness
            and not opened
            and not turn.bound
            and not turn.final_only
            and not t.restricts_discards
            and not t.wild_meld_first  # (rule-of-five: the swapped meld may not commute with the opening's)
            and not t.facts.several_melds  # (several-melds: what a rank adds is spread over its melds)
        ):
            # What the opening found adds to each rank, for the swap test in `completes`. (Not under
            # american-discards: the swap test takes any two cards left for a hand that can discard.)
            values = t.facts.card_values
            adds = {}
            for rank, (n, tw, jk) in self.witness.items():
                b = counts_now.get(rank, (0, 0, 0))
                added = (n - b[0], tw - b[1], jk - b[2])
                if added != (0, 0, 0):
                    adds[rank] = added
            cards = twos = jokers = value = 0
            for r, (n, tw, jk) in adds.items():
                cards += n + tw + jk
                twos += tw
                jokers += jk
                value += values[r] * n + values[TWO] * tw + values[JOKER] * jk
            if BLACK_THREE not in adds:  # (black threes meld only when going out: no other opening keeps them)
                self.swap = (adds, cards, twos, jokers, value)

    def completes(self, key: int, n: int, tw: int, jk: int) -> bool:
        """Whether the turn can still be completed after melding these cards onto the meld under ``key``.

        ``key`` is the meld's rank, or ``rank + SECOND_MELD`` for a side's second
        meld of a rank (cutthroat).
        """
        rank = key & 15
        alone = self.alone
        if alone is not None:
            # This meld completes the opening on its own (the rule book's "The initial meld"): the side is
            # opened, and of two cards left (with any pile cards the opening brings in) one can be
            # discarded and one kept, as in `_swap_opens`. (It needs no search.)
            values = self.t.facts.card_values
            if (
                values[rank] * n + values[TWO] * tw + values[JOKER] * jk >= alone[0]
                and self.size - n - tw - jk + alone[1] >= 2
            ):
                return True
            if not self.searched:
                self._first_search()
        if self.hopeless:
            return False
        out_options = self.out_options
        if out_options is not None:
            options = out_options.get(key, ())
            for a, b, c in options:  # noqa: SIM110 - a plain loop: any() over a generator is slower
                if n <= a and tw <= b and jk <= c:
                    return True
            return False
        t = self.t
        rules = t.dealt
        counts = self.counts
        counts_now = self.counts_now
        left = self.size - n - tw - jk
        m0 = counts_now.get(key, (0, 0, 0))
        if left <= 1 and self.plain_out:
            # The rule book's "Going out": with this meld, or with a discard right after it.
            before = m0[0] + m0[1] + m0[2]
            facts = t.facts
            canasta_size = facts.canasta_size
            if self.canastas_now + (before < canasta_size <= before + n + tw + jk) >= facts.canastas_required:
                if left == 0:
                    return not facts.final_discard_required
                discardable = self.turn.out_discardable
                for k in range(KIND_COUNT):
                    if counts[k] - (n if k == rank else tw if k == TWO else jk if k == JOKER else 0):
                        if discardable[k]:
                            return True
                        break
        learns = self.learns
        if learns:
            # This meld is part of a completion already found (the witness, then the openings the
            # oracle found for earlier candidates): the rest of it follows. The legal additions to a
            # meld are closed downwards (a smaller addition can be followed by the rest of a larger
            # legal one, reaching the same position), so a candidate the oracle refused rules out
            # every addition to its meld that contains it.
            for found in self.found:
                w = found.get(key)
                if w is not None and m0[0] + n <= w[0] and m0[1] + tw <= w[1] and m0[2] + jk <= w[2]:
                    return True
            refuted = self.refuted.get(key)
            if refuted is not None:
                for a, b, c in refuted:
                    if a <= n and b <= tw and c <= jk:
                        return False
        if self.swap is not None and self._swap_opens(rank, n, tw, jk, m0):
            return True
        hand = list(counts)
        hand[rank] = hand[rank] - n
        hand[TWO] = hand[TWO] - tw
        hand[JOKER] = hand[JOKER] - jk
        after = dict(counts_now)
        after[key] = (m0[0] + n, m0[1] + tw, m0[2] + jk)
        # Decide the candidate by the oracle, on the counts it leaves.
        turn = self.turn
        opened = self.opened
        provisional = t.provisional_count
        size = left  # (the cards the candidate leaves: the oracle need not count them)
        if not opened:
            values = t.facts.card_values
            provisional += values[rank] * n + values[TWO] * tw + values[JOKER] * jk
            if opening_reached(rules, provisional, turn.minimum, after, turn.top_rank, splash=turn.splash):
                opened = True
                if turn.pending is not None:
                    hand = list(map(add, hand, turn.pending))
                    size += turn.pending_size
        if opened:
            return can_complete(turn, hand, after, opened=True, provisional=provisional, scratch=True, size=size)
        if not learns:
            # Rule-of-five (a side that has not opened, where the order of melds matters): what the searches
            # found decides only the candidates that commute with every opening (`_commutes`), and only they
            # teach the next ones; the others are decided on their own. (The search's groups are still this
            # position's but for this rank's, as below: the same search, its groups made once.)
            if not self._commutes(key, rank, n, tw, jk, m0):
                if not turn.exempt and not turn.splash and key == rank and rank >= 4 and not t.facts.several_melds:
                    groups = self.groups
                    if groups is None:
                        groups = self.groups = opening_groups(turn, counts, counts_now)
                    return opening_completes_after(turn, hand, after, provisional, groups, rank, size=size)
                return can_complete(turn, hand, after, opened=False, provisional=provisional, scratch=True, size=size)
            known = self._learnt(key, n, tw, jk, m0)
            if known >= 0:
                return known == 1
        opening: dict[int, tuple[int, int, int]] = {}
        if not turn.exempt and not turn.splash and key == rank and rank >= 4 and not t.facts.several_melds:
            # The search's groups are this position's, but for this rank's: made once for all candidates.
            groups = self.groups
            if groups is None:
                groups = self.groups = opening_groups(turn, counts, counts_now)
            done = opening_completes_after(turn, hand, after, provisional, groups, rank, witness=opening, size=size)
        else:
            done = can_complete(
                turn, hand, after, opened=False, provisional=provisional, scratch=True, witness=opening, size=size
            )
        if done:
            if opening:
                self.found.append(opening)
            return True
        refuted = self.refuted.get(key)
        if refuted is None:
            self.refuted[key] = [(n, tw, jk)]
        else:
            refuted.append((n, tw, jk))
        return False

    def completes_onto_book(self, rank: int, n: int, tw: int = 0, jk: int = 0) -> bool:
        """Whether the turn can still be completed after adding cards of a rank to a book (add-to-books).

        ``n`` naturals, and under wilds-onto-books ``tw`` 2s and ``jk`` jokers (onto a dirty book:
        the side's books can take that many fewer wild cards). Decided by the oracle on the counts it
        leaves: the side has opened, and its melds and books by class stay as they are.
        """
        hand = list(self.counts)
        hand[rank] = hand[rank] - n
        hand[TWO] = hand[TWO] - tw
        hand[JOKER] = hand[JOKER] - jk
        t = self.t
        size = self.size - n - tw - jk
        turn = self.turn if not (tw or jk) else self.turn.with_book_room(self.turn.book_room - tw - jk)
        return can_complete(
            turn, hand, self.counts_now, opened=True, provisional=t.provisional_count, scratch=True, size=size
        )

    def _learnt(self, key: int, n: int, tw: int, jk: int, m0: tuple[int, int, int]) -> int:
        """What the searches found says of this candidate: 1, it completes; 0, it does not; -1, nothing.

        The test of `completes` where ``learns`` is on, for the candidates of rule-of-five that commute
        (`_commutes`): contained in an opening found, or containing a candidate the oracle refused.
        """
        for found in self.found:
            w = found.get(key)
            if w is not None and m0[0] + n <= w[0] and m0[1] + tw <= w[1] and m0[2] + jk <= w[2]:
                return 1
        refuted = self.refuted.get(key)
        if refuted is not None:
            for a, b, c in refuted:
                if a <= n and b <= tw and c <= jk:
                    return 0
        return -1

    def _commutes(self, key: int, rank: int, n: int, tw: int, jk: int, m0: tuple[int, int, int]) -> bool:
        """Under rule-of-five, whether what the searches learn holds for this candidate (see `completes`).

        Where the order of melds matters, an opening found (a witness) still
        completes the turn after a candidate it contains, and a refused candidate
        still refutes the additions that contain it, when the candidate can be
        laid first and the rest of the opening after it, in the search's order:

        - a natural meld's candidate: the search lays the natural ranks before
          the wild meld, and a wild meld already on the table but incomplete is
          completed first or takes no wild card from the naturals (the search's
          two modes), so laying naturals first changes no wild card's place;
        - not a candidate that puts wild cards into a natural meld while the
          side's wild meld is incomplete: the meld phase refuses it anyway, and
          an opening found after it is no opening the side can lay;
        - not a candidate on the wild meld: left incomplete, it would bar the
          opening's wild cards in natural melds (laid before it in the search);
        - not a candidate that makes its meld a canasta where a rank then closes
          (dead-ranks): the rest of the opening's meld of that rank could not follow.
        """
        if key != rank or rank < 4:
            return False
        t = self.t
        size = t.facts.canasta_size
        if tw or jk:
            wild = self.counts_now.get(JOKER)
            if wild is not None and wild[0] + wild[1] + wild[2] < size:
                return False
        return not t.closes_ranks or m0[0] + m0[1] + m0[2] + n + tw + jk < size

    def _swap_opens(self, rank: int, n: int, tw: int, jk: int, m0: tuple[int, int, int]) -> bool:
        """The opening found, with this meld in place of what it laid on this rank, still opens and ends the turn.

        Every other meld of that opening stays as found (each valid, laid in one
        action); this meld is valid (it is a candidate); so if the count, the
        clean meld and the wild cards still work out and two cards are left to
        hold and discard, the turn can be completed (the rule book's "The initial meld").
        """
        assert self.swap is not None
        adds, cards, twos, jokers, value = self.swap
        old = adds.get(rank, (0, 0, 0))
        counts = self.counts
        if twos - old[1] + tw > counts[TWO] or jokers - old[2] + jk > counts[JOKER]:
            return False
        rules = self.t.dealt
        values = self.t.facts.card_values
        turn = self.turn
        count = self.t.provisional_count + value - values[rank] * old[0] - values[TWO] * old[1] - values[JOKER] * old[2]
        count += values[rank] * n + values[TWO] * tw + values[JOKER] * jk
        left = self.size - (cards - old[0] - old[1] - old[2] + n + tw + jk)
        left += turn.pending_size
        if left < 2 or self.t.facts.no_discard_first_round:
            return False  # (first-round discards need a closer look)
        # `opening_reached`'s answer where the melds do not matter (no clean meld needed, no splash).
        if count >= turn.minimum and not self.t.facts.clean_meld_naturals:
            return True
        if count < turn.minimum and not turn.splash:
            return False
        melds = dict(self.witness)
        melds[rank] = (m0[0] + n, m0[1] + tw, m0[2] + jk)
        return opening_reached(rules, count, turn.minimum, melds, turn.top_rank, splash=turn.splash)


def _openings_tag(t: TableState) -> tuple[object, ...]:
    """The turn's bookkeeping that openings found in a meld phase depend on (see `OpeningsFound`).

    The hand's meld state is part of it (its facts, by identity: the rules passed are the rules dealt).
    """
    return (
        t.turn,
        t.seat,
        t.answer,
        t.bound,
        t.final_meld_only,
        t.taken_top,
        t.drew_from_stock,
        t.pending_pile,
        t.facts,
    )


def _anchored(
    t: TableState, counts: list[int], melds: dict[int, MeldState], keep: tuple[bool, ...], closing: bool
) -> bool:
    """Two natural kinds held may each end the turn as a discard that keeps cards (american-discards' fast path).

    ``keep`` is `keep_discards` now; ``closing`` is the oracle's `canasta.completion.Turn.closing`
    (a kind whose meld is a canasta does not count then).
    """
    size = t.facts.canasta_size
    found = 0
    for kind in range(4, KIND_COUNT):
        if counts[kind] and keep[kind]:
            if closing:
                meld = melds.get(kind)
                if meld is not None and meld.naturals + meld.twos + meld.jokers >= size:
                    continue
            found += 1
            if found == 2:
                return True
    return False


def _plain_kinds_held(t: TableState, counts: list[int], enough: int) -> bool:
    """The hand holds plain cards (`canasta.discards.plain_kinds`) of at least ``enough`` kinds."""
    plain = plain_now(t)
    found = 0
    for kind in range(4, KIND_COUNT):
        if counts[kind] and plain[kind]:
            found += 1
            if found >= enough:
                return True
    return False


def _several_meld_candidates(
    t: TableState,
    seat: int,
    side: int,
    actions: list[Action],
    checks: _MeldChecks | None,
    limit: int,
    filtered: bool,
    strict: bool,
) -> _MeldChecks | None:
    """several-melds (`canasta.MeldRules.several_melds`): additions to each open meld of a kind, and a new meld.

    The side's open melds of a kind are numbered in the order made (`canasta.Meld.slot`, kept
    under ``kind + SECOND_MELD * number``); the next number starts a new meld beside them. A
    candidate of more than ``limit`` cards is asked of the oracle (filtered lists only).
    Returns the checks, made if a candidate needed them.
    """
    facts = t.facts
    counts = t.counts[seat]
    melds = t.melds[side]
    twos = counts[TWO]
    jokers = counts[JOKER]
    is_valid = facts.is_valid
    max_w = facts.max_wilds
    # The candidates of a meld depend on its contents, its number and the cards available: kept.
    table = _SEVERAL_TABLES.get(is_valid)
    if table is None or len(table) > 100_000:
        if len(_SEVERAL_TABLES) > 16:
            _SEVERAL_TABLES.clear()
        table = _SEVERAL_TABLES[is_valid] = {}
    kinds = (*NATURAL_INTS, JOKER) if facts.wild_melds and (twos or jokers) else NATURAL_INTS
    for kind in kinds:
        have = 0 if kind == JOKER else counts[kind]
        key = kind
        slot = 0
        while True:
            meld = melds.get(key)
            if meld is None and not have and kind != JOKER:
                break  # (a new natural meld needs naturals of its rank)
            n0, t0, j0 = (0, 0, 0) if meld is None else (meld.naturals, meld.twos, meld.jokers)
            room_t, room_j = twos, jokers
            if max_w is not None and kind != JOKER:
                room = max(max_w - t0 - j0, 0)
                room_t, room_j = min(twos, room), min(jokers, room)
            code = ((((((slot * 16 + kind) * 64 + n0) * 64 + t0) * 64 + j0) * 64 + have) * 64 + room_t) * 64 + room_j
            entry = table.get(code)
            if entry is None:
                shapes = valid_additions(is_valid, kind, n0, t0, j0, have, room_t, room_j)
                entry = table[code] = MeldAdditions(
                    max((n + tw + jk for n, tw, jk in shapes), default=0),
                    tuple([_meld_action(kind, n, tw, jk, slot) for n, tw, jk in shapes]),
                    tuple([(n, tw, jk, n + tw + jk) for n, tw, jk in shapes]),
                )
            if not filtered or entry.most <= limit:
                actions += entry.actions
            else:
                acts = entry.actions
                for i, (n, tw, jk, added) in enumerate(entry.shapes):
                    if added > limit:
                        if checks is None:
                            checks = _MeldChecks(t, seat, side, strict)
                        if not checks.completes(key, n, tw, jk):
                            continue
                    actions.append(acts[i])
            if meld is None:
                break
            key += SECOND_MELD
            slot += 1
    return checks


# `_several_meld_candidates`' tables, by the meld rules' validity test: by meld number, kind, contents and cards.
_SEVERAL_TABLES: Final[dict[object, dict[int, MeldAdditions]]] = {}


def _book_wild_candidates(
    t: TableState,
    seat: int,
    side: int,
    actions: list[Action],
    checks: _MeldChecks | None,
    limit: int,
    filtered: bool,
    strict: bool,
) -> _MeldChecks | None:
    """wilds-onto-books (`canasta.MeldRules.wilds_onto_books`): wild cards, with naturals or not, onto a dirty book.

    A dirty book of a natural rank takes wild cards while it then holds at most ``max_wilds``
    (never a clean or wild book). Books of a rank with as many wild cards are interchangeable:
    one is offered, the first made (`canasta.Meld.slot` numbers the rank's books in the order made).
    """
    facts = t.facts
    counts = t.counts[seat]
    twos = counts[TWO]
    jokers = counts[JOKER]
    melds_rules = t.dealt.melds
    slots = [0] * KIND_COUNT
    offered: set[int] = set()
    for book in t.books[side]:
        rank = book.rank
        slot = slots[rank]
        slots[rank] = slot + 1
        room = book_room(facts, rank, book.twos, book.jokers)
        wild = book.twos + book.jokers
        if not room or rank * 64 + wild in offered:
            continue
        offered.add(rank * 64 + wild)
        for tw in range(min(twos, room) + 1):
            for jk in range(min(jokers, room - tw) + 1):
                if not (tw or jk):
                    continue
                for n in range(counts[rank] + 1):
                    if not melds_rules.book_takes(book.naturals + n, wild + tw + jk):
                        continue
                    if filtered and n + tw + jk > limit:
                        if checks is None:
                            checks = _MeldChecks(t, seat, side, strict)
                        if not checks.completes_onto_book(rank, n, tw, jk):
                            continue
                    actions.append(_book_meld(rank, n, tw, jk, slot))
    return checks


def _meld_phase(t: TableState, filtered: bool) -> list[Action]:
    seat = t.seat
    side = t.seating[seat]
    facts = t.facts
    counts = t.counts[seat]
    size = t.sizes[seat]
    melds = t.melds[side]
    opened = t.opened[side]
    bound = t.bound
    final_only = t.final_meld_only
    first_round = facts.no_discard_first_round and t.turn < facts.players
    # Fast path: opened, no binding "yes", every card a hand can hold discardable
    # (bonus threes stay only as a kept three, at most one): a meld that leaves two
    # or more cards always lets a discard end the turn.
    simple = opened and not bound and not final_only and not first_round
    strict = False
    keep: tuple[bool, ...] | None = None  # (american-discards: `keep_discards` now, read once)
    if t.restricts_discards:
        # american-discards: what may be discarded depends on the hand (D3, D4), but a meld of one rank
        # leaves every other kind in the hand; if two natural kinds (neither a three) may each end the
        # turn as a discard now, a meld that leaves two or more cards keeps one of them and its meld as
        # it was (not made a canasta: a closing rank's cards may not end the turn), so the completion
        # oracle's discard test (`canasta.completion._has_discard`, with this turn's `keep_discards`)
        # holds after it: the turn can be completed. The oracle's own answer, without its search.
        strict = strict_pile(t, seat)
        if simple:
            keep = keep_discards(t, seat, strict=strict)
            simple = _anchored(t, counts, melds, keep, strict and t.closes_ranks)
    checks: _MeldChecks | None = None
    actions: list[Action] = []
    twos = counts[TWO]
    jokers = counts[JOKER]
    max_w = facts.max_wilds
    if max_w is None:
        max_w = KIND_COUNT * 64  # no fixed cap (rule option wilds-at-most-naturals): the hand's count bounds it
    # The meld tables by kind (`canasta.table.meld_tables`: a kind keeps its tables while the club
    # rules change the meld state of other kinds).
    combos = t._combos
    # New melds depend only on (rank, naturals held) once the wild cards are
    # clamped: one small table per kind and wild clamp, indexed by ``have``.
    twos_clamp = twos if twos < max_w else max_w
    jokers_clamp = jokers if jokers < max_w else max_w
    clamp_key = twos_clamp * 64 + jokers_clamp  # (a small int key: no tuple to build and hash)
    # An addition of at most ``limit`` cards needs no completion check.
    limit = (size - 2 if simple else -1) if filtered else KIND_COUNT * 64
    down = bool(t.packets[seat])  # Hand and Foot: a packet is still down (§8.7)
    # foot-after-first-book: not yet earned by the player's own canasta, the hand may not be emptied.
    unearned = down and facts.after_first_canasta and t.first_canasta[seat] < 0
    if down and simple and filtered and not t.restricts_discards and not unearned:
        limit = size  # any meld leaves a discard or empties the hand, which picks up the packet
    wild_key = twos * 64 + jokers  # (the wild cards' part of a meld table's key)
    # The side's melds by kind, read once: a list index per rank below, not a dict look-up.
    by_kind: list[MeldState | None] = [None] * KIND_COUNT
    for kind, meld_of in melds.items():
        if kind < KIND_COUNT:
            by_kind[kind] = meld_of
    if facts.several_melds:
        # several-melds: each open meld of a kind by its number, and a new one beside them.
        checks = _several_meld_candidates(t, seat, side, actions, checks, limit, filtered, strict)
    else:
        for rank in NATURAL_INTS:
            have = counts[rank]
            meld = by_kind[rank]
            if meld is None:
                if not have:
                    continue
                if have < 16:
                    kind_tables = combos[rank]
                    new_table = kind_tables.new.get(clamp_key)
                    if new_table is None:
                        new_table = kind_tables.new[clamp_key] = [None] * 16
                    entry = new_table[have]
                    if entry is None:
                        entry = new_table[have] = _new_meld_additions(
                            kind_tables.built,
                            facts.is_valid,
                            rank,
                            have,
                            twos_clamp,
                            jokers_clamp,
                            facts.validity[rank],
                        )
                else:  # (16 or more of a rank: a deck of four packs or more; not kept)
                    entry = _valid_additions(
                        facts.is_valid, (rank, 0, 0, 0, have, twos_clamp, jokers_clamp), facts.validity[rank]
                    )
            else:
                # Additions to a meld depend on its contents and the cards available:
                # the meld keeps its table of them until its contents change.
                table = meld._additions
                if table is None:
                    table = meld._additions = _additions_table(
                        combos[rank].on_table, (rank, meld.naturals, meld.twos, meld.jokers)
                    )
                by_wilds = table[have]
                if by_wilds is None:
                    by_wilds = table[have] = {}
                entry = by_wilds.get(wild_key)
                if entry is None:
                    entry = _clamped_additions(
                        meld, by_wilds, have, twos, jokers, wild_key, max_w, facts.is_valid, facts.validity[rank]
                    )
            if entry.most <= limit:
                actions += entry.actions  # the usual case: every addition leaves two cards or more
                continue
            acts = entry.actions
            for i, (n, tw, jk, added) in enumerate(entry.shapes):
                if simple and size - added >= 2:
                    actions.append(acts[i])
                    continue
                if checks is None:
                    checks = _MeldChecks(t, seat, side, strict)
                if checks.hopeless and not simple:
                    break  # no meld can lead to a completion, and every addition of this rank needs one
                if checks.completes(rank, n, tw, jk):
                    actions.append(acts[i])
        if t.regrouped:
            # Cutthroat (cutthroat): a rank both partners held is two melds; cards of
            # that rank may go onto either, each meld obeying the meld rules on its own.
            for meld_key, meld in list(melds.items()):
                if meld_key < SECOND_MELD:
                    continue
                rank = meld.rank
                room = max(max_w - meld.twos - meld.jokers, 0)
                for n, tw, jk in valid_additions(
                    facts.is_valid,
                    rank,
                    meld.naturals,
                    meld.twos,
                    meld.jokers,
                    counts[rank],
                    min(twos, room),
                    min(jokers, room),
                ):
                    if filtered and not (simple and size - n - tw - jk >= 2):
                        if checks is None:
                            checks = _MeldChecks(t, seat, side, strict)
                        if not checks.completes(meld_key, n, tw, jk):
                            continue
                    actions.append(_meld_action(rank, n, tw, jk, 1))
        if facts.wild_melds and (twos or jokers):
            # The wild meld (new or on the table): its additions cached like a natural meld's.
            meld = by_kind[JOKER]
            t0, j0 = (meld.twos, meld.jokers) if meld else (0, 0)
            table = _additions_table(combos[JOKER].on_table, (JOKER, 0, t0, j0))
            by_wilds = table[0]
            if by_wilds is None:
                by_wilds = table[0] = {}
            entry = by_wilds.get(wild_key)
            if entry is None:
                key = (JOKER, 0, t0, j0, 0, twos, jokers)
                entry = by_wilds[wild_key] = _valid_additions(facts.is_valid, key, facts.validity[JOKER])
            if entry.most <= limit:
                actions += entry.actions
            else:
                acts = entry.actions
                for i, (_, tw, jk, added) in enumerate(entry.shapes):
                    if not (simple and size - added >= 2):
                        if checks is None:
                            checks = _MeldChecks(t, seat, side, strict)
                        if not checks.completes(JOKER, 0, tw, jk):
                            continue
                    actions.append(acts[i])
    if facts.add_to_books and opened and t.books[side]:
        # add-to-books: naturals onto the side's books of their rank (interchangeable: one action per count).
        ranks = t.book_ranks(side)
        for rank in NATURAL_INTS:
            if counts[rank] and rank in ranks:
                for n in range(1, counts[rank] + 1):
                    if n > limit:
                        if checks is None:
                            checks = _MeldChecks(t, seat, side, strict)
                        if not checks.completes_onto_book(rank, n):
                            continue
                    actions.append(_book_meld(rank, n))
        if facts.wilds_onto_books and (twos or jokers):
            checks = _book_wild_candidates(t, seat, side, actions, checks, limit, filtered, strict)
    black = counts[BLACK_THREE]
    if black >= 3 and facts.black_threes_when_going_out and not down:  # (with a packet down, never going out)
        # The rule book's "Melds": black threes meld only as the last meld of going out. A side that
        # took the pile before opening receives the rest of it when the opening is complete, which
        # no later meld can be: those cards are in the hand after the black threes.
        waiting = 0 if t.pending_pile is None else sum(pile_to_hand(t, t.pending_pile))
        for n in range(3, black + 1):
            if not (facts.is_valid(BLACK_THREE, n, 0, 0) and size - n + waiting <= 1):
                continue
            if filtered:
                if checks is None:
                    checks = _MeldChecks(t, seat, side, strict)
                if not checks.completes(BLACK_THREE, n, 0, 0):
                    continue
            actions.append(_meld_action(BLACK_THREE, n, 0, 0))
    if t.wild_meld_first:
        wild = by_kind[JOKER]
        if wild is not None and wild.naturals + wild.twos + wild.jokers < facts.canasta_size:
            # Rule-of-five: while the side's wild meld is incomplete, no wild card joins a natural meld.
            actions = [a for a in actions if not (isinstance(a, Meld) and a.rank >= 4 and (a.twos or a.jokers))]
    if strict and not _plain_kinds_held(t, counts, 2):
        # american-discards, D5 b: with the pile empty no meld may leave the hand without a plain card.
        # (Not asked of each meld where the hand holds plain cards of two kinds: a meld takes naturals of
        # one kind, and closes that kind alone, so a plain card of the other stays: `meld_strands` is false.)
        actions = [
            a
            for a in actions
            if not (
                isinstance(a, Meld)
                and meld_strands(t, seat, a.rank + SECOND_MELD if a.second else a.rank, a.naturals, a.twos, a.jokers)
            )
        ]
    if unearned and not filtered:
        # foot-after-first-book (the rules' half, for `allowed_actions`): no meld empties the hand before the
        # player's first canasta, unless it completes that canasta. (Filtered, the oracle refuses them.)
        actions = [a for a in actions if not (isinstance(a, Meld) and _meld_empties_unearned(t, seat, a))]
    provisional_pending = not opened and (bool(melds) or bool(t.books[side]))  # (books: melds set apart)
    if final_only:
        # Rule option last-red-three-may-meld: meld, then end the hand (no discard);
        # after a binding "yes" only going out (melding every card) ends it.
        # Melding every card is going out or nothing: without it a card is kept (house rule last-red-three-may-meld).
        # (With packets: §8.9's stranded player, 0 or 1 card left by red threes the empty stock could not
        # replace, ends the turn so.)
        if not provisional_pending and not bound and (size or facts.has_packets):
            actions.append(_END)
    elif size == 1:
        # The rule book's "Going out": the final discard goes out.
        discardable = discardable_now(t)
        kind = next(k for k in range(KIND_COUNT) if counts[k])
        if goes_out_ok(t, side):
            if discardable[kind]:
                actions.append(_DISCARDS[kind])
        elif down:
            # Hand and Foot §8.7: the hand's last card, discarded; the packet is picked up next turn
            # (foot-after-first-book: only once the player's own canasta has earned it).
            if not bound and not provisional_pending and discardable[kind] and not unearned:
                actions.append(_DISCARDS[kind])
        elif (
            t.relief_stock >= 0
            and not bound
            and not provisional_pending
            and needs_no_kept_card(t, seat)
            and keep_discards(t, seat, strict=strict)[kind]
        ):
            actions.append(_DISCARDS[kind])  # american-discards, D5 c: bonus cards follow, no card need be kept
    elif not bound and not provisional_pending:
        # The rule book, "Asking permission": after "yes" the player must go out; the rule book's "The initial meld":
        # no discard while the opening is below its minimum.
        if t.restricts_discards:
            if keep is None:
                keep = keep_discards(t, seat, strict=strict)  # american-discards: D3, D4
            # (Written for each engine, as below: `compress` and `map` run in C under the interpreter.)
            if _COMPILED:
                for kind in range(KIND_COUNT):
                    if counts[kind] and keep[kind]:
                        actions.append(_DISCARDS[kind])
            else:
                actions += compress(_DISCARDS, map(mul, counts, keep))
        elif (
            first_round
            or (counts[RED_THREE] and t.facts.red_threes_are_bonus)
            or (counts[BLACK_THREE] and t.keeps_threes)
        ):
            # (A red three held is a kept one, never discarded, unless red threes are ordinary cards.)
            # (Keeping a three: a black three in the hand is a kept one, never discarded.)
            actions.extend([a for k, a in _DISCARD_PAIRS[first_round or t.keeps_threes] if counts[k]])
        else:
            # The usual case: one discard per kind held, written for each engine (the same list):
            # itertools.compress runs in C under the interpreter but is a generic iteration in
            # compiled code, where a plain loop is native (and a comprehension costs a frame here).
            if _COMPILED:
                for kind in range(KIND_COUNT):
                    if counts[kind]:
                        actions.append(_DISCARDS[kind])
            else:
                actions += compress(_DISCARDS, counts)
    # Asking is legal when the turn stays completable whatever the partner
    # answers: after "no" (checked here), and so after "yes" too, which binds
    # only where going out is possible and otherwise leaves the turn as after "no".
    if _may_ask(t) and (
        not filtered
        or (simple and size >= 2)  # "no" leaves a discard: the turn can be completed
        or _answer_completes(t, seat, MELD_PHASE, False)
    ):
        actions.append(_ASK)
    return actions


def _additions_table(
    combos_for: dict[tuple[int, int, int, int], AdditionsTable], contents: tuple[int, int, int, int]
) -> AdditionsTable:
    """The additions table of melds with these contents ``(rank, naturals, twos, jokers)``, made empty when new."""
    table = combos_for.get(contents)
    if table is None:
        table = combos_for[contents] = [None] * 64  # (by naturals held: fewer than 64 of a rank)
    return table


def _clamped_additions(
    meld: MeldState,
    by_wilds: dict[int, MeldAdditions],
    have: int,
    twos: int,
    jokers: int,
    wild_key: int,
    max_w: int,
    is_valid: Callable[[int, int, int, int], bool],
    validity: dict[int, bool] | None = None,
) -> MeldAdditions:
    """A meld's additions with these cards available, not yet in its table ``by_wilds`` (see `MeldState._additions`).

    Wild cards beyond the meld's room change nothing: the entry of the clamped
    counts is shared (computed once) by every count above them.
    """
    room = max_w - meld.twos - meld.jokers
    if room < 0:
        room = 0
    tw_c = twos if twos < room else room
    jk_c = jokers if jokers < room else room
    entry = by_wilds.get(tw_c * 64 + jk_c)
    if entry is None:
        key = (meld.rank, meld.naturals, meld.twos, meld.jokers, have, tw_c, jk_c)
        entry = by_wilds[tw_c * 64 + jk_c] = _valid_additions(is_valid, key, validity)
    by_wilds[wild_key] = entry
    return entry


def _new_meld_additions(
    built: list[tuple[int, int, int, MeldAdditions]],
    is_valid: Callable[[int, int, int, int], bool],
    rank: int,
    have: int,
    twos: int,
    jokers: int,
    validity: dict[int, bool] | None = None,
) -> MeldAdditions:
    """The valid new melds of ``rank`` with these cards available, not yet in their table (see `_meld_phase`).

    `valid_additions` lists its additions in lexicographic order and tests each
    on its own contents, so the new melds possible with fewer cards are those of
    an entry built for more that fit, in the same order: where the rank has one
    (in ``built``, the widest entries built so far), the entry is filtered from
    it, with no validity test and no action to look up.
    """
    wider: MeldAdditions | None = None
    for h, tw, jk, entry in built:
        if h >= have and tw >= twos and jk >= jokers and (wider is None or len(entry.shapes) < len(wider.shapes)):
            wider = entry
    if wider is None:
        made = _valid_additions(is_valid, (rank, 0, 0, 0, have, twos, jokers), validity)
        # Only the widest entries are kept to filter from (those no other one contains): the list
        # stays short however many situations the rank meets.
        built[:] = [b for b in built if not (b[0] <= have and b[1] <= twos and b[2] <= jokers)]
        built.append((have, twos, jokers, made))
        return made
    acts = wider.actions
    shapes = []
    chosen = []
    most = 0
    for i, shape in enumerate(wider.shapes):
        if shape[0] > have:
            break  # (in lexicographic order: no later addition fits either)
        if shape[1] <= twos and shape[2] <= jokers:
            shapes.append(shape)
            chosen.append(acts[i])
            if shape[3] > most:
                most = shape[3]
    return MeldAdditions(most, tuple(chosen), tuple(shapes))


def _valid_additions(
    is_valid: Callable[[int, int, int, int], bool], key: tuple[int, ...], validity: dict[int, bool] | None = None
) -> MeldAdditions:
    """Every addition to a meld that keeps it valid: the most cards added, the actions, their shapes.

    ``key`` is ``(rank, naturals, twos, jokers already in the meld, naturals, twos,
    jokers available)``; the result depends on nothing else, so it is cached.
    Shapes are ``(naturals, twos, jokers, cards)``. ``validity`` is the kind's validity
    memo (``RuleFacts.validity[rank]``, see `canasta.completion.valid_additions`).
    """
    rank = key[0]
    shapes = []
    acts = []
    most = 0
    melds_of_kind = _MELDS_OF_KIND[rank]
    # (The arguments spelled out: a call with *key is a generic Python call in the compiled engine.)
    for shape in valid_additions(
        is_valid, key[0], key[1], key[2], key[3], key[4], key[5], key[6], validity=validity
    ):
        n, tw, jk = shape
        added = n + tw + jk
        shapes.append((n, tw, jk, added))
        action = melds_of_kind.get(shape)
        if action is None:
            action = _meld_action(rank, n, tw, jk)
        acts.append(action)
        if added > most:
            most = added
    return MeldAdditions(most, tuple(acts), tuple(shapes))


# --- the entry points -------------------------------------------------------------------


def _may_declare(t: TableState) -> bool:
    """What `declarations` asks of the turn before the cards (`canasta.declaration`): a necessary condition.

    The meld phase of a stock draw by a side that has made no meld, nothing melded this turn, no
    binding "yes", and 14 or 15 cards held.
    """
    if not t.drew_from_stock or t.melded_this_turn or t.bound:
        return False
    side = t.seating[t.seat]
    if t.opened[side] or t.melds[side]:
        return False
    size = t.sizes[t.seat]
    return size == HAND_SIZE or size == HAND_SIZE + 1


def _holds_three(t: TableState) -> bool:
    """The acting seat holds a three: a necessary condition of `layouts` finding a kept three to lay out."""
    counts = t.counts[t.seat]
    return bool(counts[RED_THREE] or counts[BLACK_THREE])


def generate(t: TableState, filtered: bool) -> list[Action]:
    """The actions of `legal_actions` (``filtered``) or `allowed_actions`, generated afresh (no cache).

    Args:
        t: The hand.
        filtered: Keep only the actions after which the turn can be completed.

    Returns:
        A new list.
    """
    if t.facts.sequences:
        # Rule sets that meld by meld type (the sequence games): their own legality and allowed actions
        # (`canasta.suitedlegality`).
        return cast("list[Action]", suitedlegality.generate(t, filtered))
    phase = t.phase
    if phase is MELD_PHASE:
        # (`declarations` and `layouts` are asked only where they may find something: they are
        # Python calls, and most meld phases have neither.)
        if t.keeps_threes:
            # Keeping a three: laying it out, like a declaration, always leaves the turn completable.
            found = _meld_phase(t, filtered)
            if t.facts.special_hands and _may_declare(t):
                found += declarations(t)
            if _holds_three(t):
                found += layouts(t)
            return found
        if t.facts.special_hands:
            # A declaration ends the hand: it completes the turn whenever the rules allow it.
            found = _meld_phase(t, filtered)
            if _may_declare(t):
                found += declarations(t)
            return found
        return _meld_phase(t, filtered)
    if phase is DRAW_PHASE:
        seat = t.seat
        answer = t.answer
        if filtered and t.stock and not t.bound:
            # The usual case, decided without the general machinery: draw, take
            # (what "legal" means, for each way), ask; a stock draw completes after either answer.
            actions: list[Action] = [_DRAW]
            out_allowed = answer_lets_out(t)
            for shape in _take_shapes(t, seat, False):  # (positional arguments: a cheaper call, every draw phase)
                if _take_completes(t, seat, shape, False, out_allowed):
                    actions.append(_TAKES[shape])
            if answer is None and _may_ask(t):
                actions.append(_ASK)
            if t.keeps_threes and _holds_three(t):
                actions += layouts(t)  # "Keeping a three": like a stock draw, it always leaves the turn completable
            if t.facts.after_first_canasta and may_pick_up(t):
                actions.append(_PICK_UP)  # foot-after-first-book: the draw phase follows, as before it
            return actions
        actions = _draw_options(t, seat, bound=t.bound, out_allowed=answer_lets_out(t), filtered=filtered)
        if _may_ask(t) and (not filtered or _answer_completes(t, seat, DRAW_PHASE, False)):
            actions.append(_ASK)
        if t.keeps_threes and _holds_three(t):
            actions += layouts(t)
        if t.facts.after_first_canasta and may_pick_up(t):
            actions.append(_PICK_UP)
        return actions
    if phase is ANSWER_PHASE:
        # Both answers are always legal: the partner cannot see the asker's hand
        # ("What each player sees"), and a "yes" binds only where going out is still possible
        # (`yes_binds`), so the asker can complete the turn after either.
        return [_YES, _NO]
    return []


def yes_binds(t: TableState) -> bool:
    """Whether a "yes" now obliges the asker to go out ("Asking permission").

    A "yes" binds when going out is still possible this turn; where it is not
    (the asker drew cards that cannot go out), the asker plays the turn out
    normally, as after a stock draw that made going out impossible.

    Args:
        t: The hand, in its answer phase.

    Returns:
        True if the asker must go out after "yes".
    """
    if t.facts.sequences:
        return suitedlegality.yes_binds(t)
    asker = t.asker
    assert asker is not None
    return _answer_completes(t, asker, t.resume_phase, True)


def allowed_actions(t: TableState) -> list[Action]:
    """What the rules allow now, before the completion filter of what "legal" means.

    A superset of `legal_actions`: it includes actions after which the turn
    could not be completed. Test references (`canasta.testing.reference`) and
    explanations use it; players use `legal_actions`.

    Args:
        t: The hand.

    Returns:
        The allowed actions.
    """
    return generate(t, filtered=False)


def legal_actions(t: TableState) -> tuple[Action, ...]:
    """Every action the acting seat may take now, exactly (what "legal" means).

    Args:
        t: The hand.

    Returns:
        The legal actions (a tuple, kept on the hand until it changes).
    """
    legal = t._legal
    if legal is None:
        legal = t._legal = tuple(generate(t, filtered=True))
    return legal
