"""Why an action is refused: the rule code and a sentence naming the rule.

Legality itself is decided by `canasta.legality.legal_actions` (so it is exact
by construction); this module only explains a refusal, checking the rules in
the order a player would think of them, and last what "legal" means: an action
the rules allow is refused when the turn could not be completed after it.

The sentences are the reason alone; `canasta.IllegalActionError` adds the
citation of the rule book's section (``Rules.section``).
"""

from __future__ import annotations

from canasta.actions import (
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
from canasta.cards import SECOND_MELD, Kind
from canasta.completion import has_clean_meld
from canasta.declaration import explain_declaration
from canasta.discards import discardable_kinds, keep_discards, meld_strands, strict_pile, take_strands
from canasta.errors import RuleCode
from canasta.keeping import explain_lay_out, held_three
from canasta.legality import allowed_actions, goes_out_ok, needs_no_kept_card, packet_unearned
from canasta.outrefusal import going_out_refusal, minimum_text
from canasta.rules import MeldRules, Permission
from canasta.suitedexplain import MELD_ACTION_TYPES, explain_foreign, explain_suited, suited_action_text
from canasta.suitedpile import PileTake
from canasta.table import Phase, TableState
from canasta.wording import action_text, kind_plural, kind_word, plural

__all__ = ["explain"]

_PHASE_OF = {
    DrawStock: "draw",
    TakePile: "draw",
    Meld: "meld",
    Discard: "meld",
    AnswerGoOut: "answer",
    PileTake: "draw",
    **dict.fromkeys(MELD_ACTION_TYPES, "meld"),
}
#: The actions of the rule sets that meld by meld type (`canasta.suitedexplain` explains their refusals).
_SUITED_ACTIONS = (PileTake, *MELD_ACTION_TYPES)


def explain(state: TableState, action: object) -> tuple[RuleCode, str]:
    """Explain why an action is not legal in a state.

    Args:
        state: The hand.
        action: The refused action.

    Returns:
        ``(code, sentence)``.
    """
    if not isinstance(
        action,
        (
            *_SUITED_ACTIONS,
            DrawStock,
            TakePile,
            Meld,
            Discard,
            AskGoOut,
            AnswerGoOut,
            EndHand,
            DeclareSpecialHand,
            LayOutThree,
            PickUpPacket,
        ),
    ):
        return RuleCode.NOT_AN_ACTION, f"{action!r} is not a canasta action"
    if state.phase is Phase.OVER:
        return RuleCode.HAND_OVER, "the hand is over; no action is possible"
    foreign = explain_foreign(state, action)  # (an action of the other family: melds by rank, or by meld type)
    if foreign is not None:
        return foreign
    if isinstance(action, LayOutThree):
        return explain_lay_out(state)
    if isinstance(action, PickUpPacket):
        return _explain_pick_up(state)
    expected = _PHASE_OF.get(type(action))
    if expected is not None and expected != state.phase.value:
        phase = state.phase.value
        what = suited_action_text(action) if isinstance(action, _SUITED_ACTIONS) else action_text(action)
        return RuleCode.WRONG_PHASE, f"{what} is not possible now: the turn is in its {phase} phase"
    if state.rules.meld_types:
        suited = explain_suited(state, action)  # (the sequence games: melds by type, cards by suit)
        if suited is not None:
            return suited
    if isinstance(action, DeclareSpecialHand):
        return explain_declaration(state, action)
    if isinstance(action, DrawStock):
        return RuleCode.STOCK_EMPTY, "the stock is empty: no card can be drawn"
    if isinstance(action, TakePile):
        return _explain_take(state, action)
    if isinstance(action, Meld):
        return _explain_meld(state, action)
    if isinstance(action, Discard):
        return _explain_discard(state, action)
    if isinstance(action, AskGoOut):
        if action in allowed_actions(state):
            return (
                RuleCode.TURN_CANNOT_COMPLETE,
                "whatever your partner answered, you could not complete the turn",
            )
        seat = state.seat
        if state.packets[seat] or (state.facts.partners_first and not state.partners_in_last_packet(seat)):
            return (
                RuleCode.PERMISSION_NOT_AVAILABLE,
                "only a player who could go out asks: you"
                + (", and every partner," if state.facts.partners_first else "")
                + " must first pick up the last packet",
            )
        if state.rules.going_out.permission in (Permission.REQUIRED, Permission.ANY_TIME):
            return RuleCode.PERMISSION_NOT_AVAILABLE, "you may ask your partner only once a turn, before your discard"
        return (
            RuleCode.PERMISSION_NOT_AVAILABLE,
            "you may ask your partner only once, before melding anything this turn, where the variant has partners",
        )
    if isinstance(action, AnswerGoOut):
        if action.yes:
            return (
                RuleCode.MUST_GO_OUT,
                'after "yes" your partner would have to go out this turn, which is impossible from here',
            )
        return (
            RuleCode.TURN_CANNOT_COMPLETE,
            'after "no" your partner could not complete the turn without going out',
        )
    if isinstance(action, EndHand):
        if state.bound:
            return RuleCode.MUST_GO_OUT, "your partner said yes: you must go out this turn"
        if not state.stock and state.phase is Phase.DRAW:
            return RuleCode.MUST_TAKE_PILE, "the discard matches one of your side's melds: you must take it"
        if state.final_meld_only:
            return _opening_shortfall(state, "before the hand ends")
        return RuleCode.WRONG_PHASE, "the hand can be ended only when the stock is exhausted"
    return RuleCode.ILLEGAL, f"{action!r} is not legal now"  # (a sequence game's action where none explains it)


def _explain_pick_up(state: TableState) -> tuple[RuleCode, str]:
    """Why the next packet may not be picked up at will now (`canasta.PacketRules.after_first_canasta`)."""
    seat = state.seat
    packets = state.rules.packets
    if not state.facts.after_first_canasta:
        return (
            RuleCode.PACKET_NOT_EARNED,
            "a packet is never picked up at will in this game: it comes when your hand is emptied",
        )
    if not state.packets[seat]:
        return RuleCode.PACKET_NOT_EARNED, "you have no packet left face down to pick up"
    name = packets.name_of(len(packets.sizes) - len(state.packets[seat]))
    if state.first_canasta[seat] < 0:
        return (
            RuleCode.PACKET_NOT_EARNED,
            f"your {name} is earned by a canasta of your own (a book your partner made does not count): "
            "you have completed none in this hand",
        )
    if state.phase is not Phase.DRAW:
        when = "this turn" if state.first_canasta[seat] == state.turn else "the draw"
        return (
            RuleCode.PACKET_NOT_EARNED,
            f"your {name} is picked up at will only at the start of a turn, before the draw; not after {when} "
            "(you may pick it up at the start of your next turn)",
        )
    return RuleCode.PACKET_NOT_EARNED, f"your {name} may not be picked up now"


def _unearned_empty(state: TableState, what: str) -> tuple[RuleCode, str]:
    """foot-after-first-book: an action that would empty the hand before the player's first canasta."""
    packets = state.rules.packets
    name = packets.name_of(len(packets.sizes) - len(state.packets[state.seat]))
    return (
        RuleCode.PACKET_NOT_EARNED,
        f"{what} your hand before you have completed a canasta of your own, which earns your {name}: "
        "keep a card, or complete one first",
    )


def _explain_take(state: TableState, action: TakePile) -> tuple[RuleCode, str]:
    pile_rules = state.rules.pile
    side = state.side
    if not state.pile:
        return RuleCode.PILE_EMPTY, "the discard pile is empty"
    top = Kind(state.kinds[state.pile[-1]])
    if top.is_wild and pile_rules.wild_pair:
        return _explain_wild_take(state, action, top)
    if top in pile_rules.blocked_top or not top.is_natural:
        return RuleCode.PILE_BLOCKED, f"the pile may not be taken while a {kind_word(top)} is on top"
    if top in state.rules.melds.closed:
        return (
            RuleCode.RANK_CLOSED,
            f"{kind_plural(top)} are closed for the rest of the hand (a meld of them is a canasta): the pile may "
            "not be taken with one on top",
        )
    if pile_rules.one_card_rule and state.sizes[state.seat] == 1 and len(state.pile) == 1:
        return RuleCode.ONE_CARD_RULE, "holding one card, you may not take a pile of one card"
    if not state.opened[side] and not pile_rules.unmelded_side_may_take:
        return RuleCode.PILE_NOT_MELDED, "your side must meld from the hand before it may take the pile"
    counts = state.counts[state.seat]
    if (action.book or action.second) and state.rules.melds.several_melds:
        return (
            RuleCode.PILE_NEEDS_MATCH,
            "here a pile take always starts a new meld of the top card's rank (several melds of a rank): it goes "
            "onto no meld or book of yours (t, not t' or t])",
        )
    if action.book:
        return _explain_book_take(state, action, top)
    wild_shown = action.twos + action.jokers
    if state.pile_frozen_for(side) and (action.naturals != 2 or wild_shown):
        return (
            RuleCode.PILE_FROZEN,
            "the pile is frozen for your side: take it only with a natural pair of the top card's rank",
        )
    if action.naturals > counts[top] or action.twos > counts[Kind.TWO] or action.jokers > counts[Kind.JOKER]:
        return RuleCode.CARDS_NOT_IN_HAND, f"you do not hold the cards to show ({action_text(action)})"
    if not (action.naturals or wild_shown):
        if top not in state.melds[side]:
            return RuleCode.PILE_NEEDS_MATCH, "your side has no meld of the top card's rank to add it to"
        if not pile_rules.layoff:
            return RuleCode.PILE_NEEDS_MATCH, "in this variant the pile is taken only with a natural pair"
    if (action.naturals, action.twos, action.jokers) not in ((2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 0, 0)):
        return RuleCode.PILE_NEEDS_MATCH, "show a natural pair, or one natural and one wild card, or nothing (layoff)"
    if action.second and state.melds[side].get(int(top) + SECOND_MELD) is None:
        return RuleCode.PILE_NEEDS_MATCH, "your side has no second meld of the top card's rank"
    existing = state.melds[side].get(int(top) + SECOND_MELD if action.second else int(top))
    n0, t0, j0 = (existing.naturals, existing.twos, existing.jokers) if existing else (0, 0, 0)
    if state.rules.melds.is_valid(int(top), n0 + 1 + action.naturals, t0 + action.twos, j0 + action.jokers):
        shape = (action.naturals, action.twos, action.jokers, int(action.second))
        if pile_rules.empty_pile_stops and take_strands(state, state.seat, shape):
            return (
                RuleCode.NO_PLAIN_CARD,
                "after this take the pile is empty, and you would hold no card that may go onto an empty pile "
                "(none but aces, sevens, wild cards and cards of closed ranks)",
            )
        # The meld is fine: the take fails because the turn could not be completed after it.
        if packet_unearned(state, state.seat):
            left = state.sizes[state.seat] - action.naturals - wild_shown
            if left <= 1:
                return _unearned_empty(state, "this take would leave you only to empty")
        return _explain_incomplete(state, "this take")
    return RuleCode.INVALID_MELD, "the top card and the shown cards would not make a legal meld"


def _explain_wild_take(state: TableState, action: TakePile, top: Kind) -> tuple[RuleCode, str]:
    """A wild card on top, taken only with two of its kind (`canasta.PileRules.wild_pair`; Hand and Foot, E5)."""
    pair = (0, 2, 0) if top is Kind.TWO else (0, 0, 2)
    name = "2s" if top is Kind.TWO else "jokers"
    if (action.naturals, action.twos, action.jokers) != pair or action.second:
        return RuleCode.PILE_NEEDS_MATCH, f"with a {kind_word(top)} on top, the pile is taken only with two {name}"
    if state.counts[state.seat][top] < 2:
        return RuleCode.CARDS_NOT_IN_HAND, f"you do not hold two {name} to show"
    side = state.side
    if not state.opened[side] and not state.rules.pile.unmelded_side_may_take:
        return RuleCode.PILE_NOT_MELDED, "your side must meld from the hand before it may take the pile"
    wild = state.melds[side].get(int(Kind.JOKER))
    t0, j0 = (wild.twos, wild.jokers) if wild is not None else (0, 0)
    twos, jokers = (t0 + 3, j0) if top is Kind.TWO else (t0, j0 + 3)
    if not state.rules.melds.is_valid(int(Kind.JOKER), 0, twos, jokers):
        return RuleCode.INVALID_MELD, "the top card and the two shown would not fit your side's wild meld"
    return _explain_incomplete(state, "this take")


def _explain_incomplete(state: TableState, what: str) -> tuple[RuleCode, str]:
    """The rules allow the action, but the turn could not be completed after it."""
    side = state.side
    if state.bound:
        return (
            RuleCode.MUST_GO_OUT,
            f"your partner said yes: after {what} you could not go out this turn",
        )
    if not state.opened[side]:
        clean = state.rules.initial_meld.clean_meld_naturals
        with_clean = f", with a clean meld of {plural(clean, 'natural')} from your hand," if clean else ""
        return (
            RuleCode.MINIMUM_NOT_MET,
            f"after {what} your side could not complete its initial meld of "
            f"{minimum_text(state)}{with_clean} this turn and then end the turn",
        )
    return going_out_refusal(state, f"after {what} you could end the turn only by going out")


def _explain_book(state: TableState, rank: Kind, wilds: int, second: bool, what: str) -> tuple[RuleCode, str]:
    """Why cards may not go onto a book of the rank now (`canasta.MeldRules.add_to_books`)."""
    if not state.rules.melds.add_to_books:
        return RuleCode.INVALID_MELD, "a book is closed: no card is ever added to it in these rules"
    if wilds or second or not rank.is_natural:
        return RuleCode.INVALID_MELD, "only natural cards of the book's rank are added to a book (never a wild card)"
    if not state.opened[state.side] or int(rank) not in state.book_ranks(state.side):
        return RuleCode.INVALID_MELD, f"your side has no clean or dirty book of {kind_plural(rank)} to add to"
    return _explain_incomplete(state, what)


def _partnerships_form(state: TableState) -> bool:
    """Whether partnerships form during the hand (``cutthroat``), where a side may hold a second meld of a rank."""
    return state.rules.partnerships.first_taker_alone


def _explain_missing_meld(state: TableState, action: Meld) -> tuple[RuleCode, str] | None:
    """several-melds (`canasta.MeldRules.several_melds`): a ``slot`` past the kind's open melds and a new one."""
    melds = state.melds[state.side]
    kind = int(action.rank)
    count = 0
    while kind + SECOND_MELD * count in melds:
        count += 1
    if action.slot <= count:
        return None  # (one of its open melds, or a new one beside them)
    ranks = kind_plural(action.rank) if action.rank != Kind.JOKER else "wild cards"
    mark = "'" if count == 1 else f"'{count}"
    if not count:
        held = f"your side has no open meld of {ranks}; a new one is meld 0 (no mark)"
    else:
        held = (
            f"your side's open melds of {ranks} are numbered 0 to {count - 1} in the order made, and a new one "
            f"is meld {count} (the mark {mark})"
        )
    return RuleCode.INVALID_MELD, f"there is no meld {action.slot} of {ranks}: {held}"


def _explain_book_slot(state: TableState, action: Meld) -> tuple[RuleCode, str]:
    """A meld onto a book named by its number (`canasta.Meld.slot`; wild cards: `MeldRules.wilds_onto_books`)."""
    meld_rules = state.rules.melds
    if not meld_rules.add_to_books:
        return RuleCode.INVALID_MELD, "a book is closed: no card is ever added to it in these rules"
    wilds = action.twos + action.jokers
    if not action.rank.is_natural:
        return RuleCode.INVALID_MELD, "a wild book takes no more cards: cards go only onto a book of a natural rank"
    ranks = kind_plural(action.rank)
    books = [b for b in state.books[state.side] if b.rank == int(action.rank)]
    if not state.opened[state.side] or not books:
        return RuleCode.INVALID_MELD, f"your side has no clean or dirty book of {ranks} to add to"
    if action.slot >= len(books):
        numbered = "book 0" if len(books) == 1 else f"books 0 to {len(books) - 1}"
        return (
            RuleCode.INVALID_MELD,
            f"there is no book {action.slot} of {ranks}: your side's books of {ranks} are {numbered}, numbered in "
            "the order made",
        )
    if not wilds:
        if action.slot:
            return (
                RuleCode.INVALID_MELD,
                f"natural cards go onto book 0 of {ranks} (for them a side's books of a rank are interchangeable), "
                f"not book {action.slot}",
            )
        return _explain_incomplete(state, "this addition")
    if not meld_rules.wilds_onto_books:
        return RuleCode.INVALID_MELD, "only natural cards of the book's rank are added to a book (never a wild card)"
    book = books[action.slot]
    held = book.twos + book.jokers
    if not held:
        return (
            RuleCode.INVALID_MELD,
            f"book {action.slot} of {ranks} is clean: wild cards go only onto a dirty book (never a clean one)",
        )
    if not meld_rules.book_takes(book.naturals + action.naturals, held + wilds):
        limit = meld_rules.max_wilds
        if limit is not None and held + wilds > limit:
            return (
                RuleCode.INVALID_MELD,
                f"a dirty book holds at most {plural(limit, 'wild card')}: book {action.slot} of {ranks} holds "
                f"{held}, and adding {wilds} would give it {held + wilds}",
            )
        return RuleCode.INVALID_MELD, f"{action_text(action)} would leave too few naturals beside its wild cards"
    first = next(i for i, b in enumerate(books) if b.twos + b.jokers == held)
    if first != action.slot:
        return (
            RuleCode.INVALID_MELD,
            f"books {first} and {action.slot} of {ranks} hold as many wild cards: they are interchangeable, and "
            f"wild cards go onto the first of them, book {first}",
        )
    return _explain_incomplete(state, "this addition")


def _explain_book_take(state: TableState, action: TakePile, top: Kind) -> tuple[RuleCode, str]:
    """A pile take onto a book of the top card's rank (add-to-books): a natural pair, onto a book of the side."""
    if (action.naturals, action.twos, action.jokers) != (2, 0, 0):
        return RuleCode.PILE_NEEDS_MATCH, "onto a book the pile is taken only with a natural pair of its rank"
    if state.counts[state.seat][top] < 2:
        return RuleCode.CARDS_NOT_IN_HAND, f"you do not hold the cards to show ({action_text(action)})"
    return _explain_book(state, top, 0, action.second, "this take")


def _explain_meld(state: TableState, action: Meld) -> tuple[RuleCode, str]:
    counts = state.counts[state.seat]
    rank = int(action.rank)
    if min(action.naturals, action.twos, action.jokers) < 0 or action.naturals + action.twos + action.jokers == 0:
        return RuleCode.INVALID_MELD, "a meld action must add at least one card"
    needed = {rank: action.naturals}
    needed[int(Kind.TWO)] = needed.get(int(Kind.TWO), 0) + action.twos
    needed[int(Kind.JOKER)] = needed.get(int(Kind.JOKER), 0) + action.jokers
    if any(counts[k] < c for k, c in needed.items() if c):
        return RuleCode.CARDS_NOT_IN_HAND, f"you do not hold the cards for {action_text(action)}"
    meld_rules = state.rules.melds
    if action.rank == Kind.RED_THREE or action.rank == Kind.TWO:
        return RuleCode.INVALID_MELD, "red threes and 2s are never melded as a rank"
    if action.rank == Kind.JOKER and not meld_rules.wild_melds:
        return RuleCode.WILD_MELD, "wild cards alone never meld in this variant"
    if action.rank == Kind.BLACK_THREE:
        return (
            RuleCode.BLACK_THREE_MELD,
            "black threes meld only when going out, 3 or 4 of them with no wild card, as the last meld",
        )
    if action.book:
        if meld_rules.wilds_onto_books or action.slot:
            return _explain_book_slot(state, action)
        return _explain_book(state, action.rank, action.twos + action.jokers, action.second, "this addition")
    if meld_rules.several_melds:
        missing = _explain_missing_meld(state, action)
        if missing is not None:
            return missing
    elif action.slot > 1 or (action.slot and not _partnerships_form(state)):
        ranks = kind_plural(action.rank)
        if _partnerships_form(state):
            held = "at most two melds of a rank (meld 0, and meld 1 for partners who both held one)"
        else:
            have = "has its meld" if rank in state.melds[state.side] else "may start one meld"
            held = f"one meld of a rank (your side {have} of {ranks}, meld 0)"
        return RuleCode.INVALID_MELD, f"your side has no meld {action.slot} of {ranks}: here a side holds {held}"
    elif action.second and state.melds[state.side].get(rank + SECOND_MELD) is None:
        return (
            RuleCode.INVALID_MELD,
            f"your side has no second meld of {kind_plural(action.rank)}: only partners who both held a meld of a "
            "rank when their partnership formed have two",
        )
    if (
        (action.twos or action.jokers)
        and action.rank in meld_rules.wilds_only_when_opening
        and action.rank in meld_rules.natural_only
    ):
        return (
            RuleCode.NATURAL_LOCKED,
            f"{kind_plural(action.rank)} take wild cards only in your side's opening turn, from your hand (and not "
            "in a meld formed by taking the pile): this meld stays natural",
        )
    five = _explain_rule_of_five(state, action)
    if five is not None:
        return five
    if action.rank in meld_rules.closed:
        return (
            RuleCode.RANK_CLOSED,
            f"{kind_plural(action.rank)} are closed for the rest of the hand (a meld of them is a canasta): no meld of "
            "them may be started or grow",
        )
    key = rank + SECOND_MELD * action.slot  # (the side's meld ``slot`` of the rank: ``second`` is slot 1)
    existing = state.melds[state.side].get(key)
    n0, t0, j0 = (existing.naturals, existing.twos, existing.jokers) if existing else (0, 0, 0)
    n, t, j = n0 + action.naturals, t0 + action.twos, j0 + action.jokers
    if not meld_rules.is_valid(rank, n, t, j):
        if meld_rules.max_size is not None and n + t + j > meld_rules.max_size:
            return RuleCode.MELD_CLOSED, f"a meld may hold at most {plural(meld_rules.max_size, 'card')}"
        return RuleCode.INVALID_MELD, _meld_limit(meld_rules, action, n, t + j)
    if (
        state.restricts_discards
        and strict_pile(state, state.seat)
        and meld_strands(state, state.seat, key, action.naturals, action.twos, action.jokers)
    ):
        return (
            RuleCode.NO_PLAIN_CARD,
            "the pile is empty: after this meld you would hold no card that may go onto it (none but aces, sevens, "
            "wild cards and cards of closed ranks), and you could not go out with a last card",
        )
    if _spoils_clean_meld(state, action):
        ranks, need = kind_plural(action.rank), state.rules.initial_meld.clean_meld_naturals
        return (
            RuleCode.CLEAN_MELD_REQUIRED,
            f"a wild card on your clean meld of {ranks} spoils it: your side's opening must include a clean "
            f"meld ({plural(need, 'natural')} or more from your hand, no wild card), and none could be "
            "completed this turn",
        )
    left = state.sizes[state.seat] - action.naturals - action.twos - action.jokers
    if state.keeps_threes and not state.bound and left == 1 and held_three(state, state.seat) >= 0:
        return (
            RuleCode.TURN_CANNOT_COMPLETE,
            "after this meld you would hold only your kept three, which can be neither melded nor discarded "
            "(the card replacing it is unknown until it is drawn): you could not end the turn",
        )
    if state.bound or not state.opened[state.side]:
        return _explain_incomplete(state, "this meld")
    if left <= 1 and packet_unearned(state, state.seat):
        if left == 0 and not (n0 + t0 + j0 < meld_rules.canasta_size <= n + t + j):
            return _unearned_empty(state, "this meld would empty")
        return _unearned_empty(state, "after this meld you could only empty")
    if left <= 1:
        return going_out_refusal(state, "after this meld you could end the turn only by going out")
    return (
        RuleCode.TURN_CANNOT_COMPLETE,
        "after this meld you could not end the turn: no card you kept could be discarded and going out is not possible",
    )


def _explain_rule_of_five(state: TableState, action: Meld) -> tuple[RuleCode, str] | None:
    """House rule rule-of-five: which of its three parts refuses this wild card, if one does."""
    meld_rules = state.rules.melds
    if not (action.twos or action.jokers) or not action.rank.is_natural:
        return None
    melds = state.melds[state.side]
    wild = melds.get(int(Kind.JOKER))
    if meld_rules.wild_meld_first and wild is not None and wild.size < meld_rules.canasta_size:
        return (
            RuleCode.RULE_OF_FIVE,
            "while your side's wild meld is not yet a canasta, no wild card may join a natural meld",
        )
    existing = melds.get(int(action.rank))
    n0, t0, j0 = (existing.naturals, existing.twos, existing.jokers) if existing else (0, 0, 0)
    n, wilds = n0 + action.naturals, t0 + j0 + action.twos + action.jokers
    if meld_rules.mixed_cap and n + wilds > meld_rules.mixed_cap:
        return RuleCode.RULE_OF_FIVE, "no mixed canasta may be completed in your side's opening turn"
    floors = meld_rules.wild_floors
    if floors and n < meld_rules.wilds_need_naturals and wilds > floors[int(action.rank)]:
        return (
            RuleCode.RULE_OF_FIVE,
            f"after your side's opening turn a wild card joins a natural meld only if it then holds "
            f"{meld_rules.wilds_need_naturals} naturals or more (this one would hold {n})",
        )
    return None


def _explain_discard(state: TableState, action: Discard) -> tuple[RuleCode, str]:
    counts = state.counts[state.seat]
    if counts[action.kind] == 0:
        return RuleCode.CARDS_NOT_IN_HAND, f"you hold no {kind_word(action.kind)}"
    if state.keeps_threes and action.kind in (Kind.RED_THREE, Kind.BLACK_THREE):
        return RuleCode.CANNOT_DISCARD, "a kept three is never discarded: it is part of a Straight or is laid out"
    if not discardable_kinds(state.rules, state.turn)[action.kind]:
        return RuleCode.CANNOT_DISCARD, f"a {kind_word(action.kind)} may not be discarded now"
    if state.final_meld_only:
        return RuleCode.CANNOT_DISCARD, "after a red three as the last stock card you may not discard"
    restricted = _explain_restricted_discard(state, action)
    if restricted is not None:
        return restricted
    if state.sizes[state.seat] == 1:
        if packet_unearned(state, state.seat):
            return _unearned_empty(state, "discarding your last card would empty")
        return going_out_refusal(state, "discarding your last card goes out")
    if state.bound:
        return RuleCode.MUST_GO_OUT, "your partner said yes: you must go out this turn"
    return _opening_shortfall(state, "before you discard")


def _explain_restricted_discard(state: TableState, action: Discard) -> tuple[RuleCode, str] | None:
    """House rule american-discards: which of D3 and D4 refuses this discard, if one does."""
    seat = state.seat
    if not state.restricts_discards or state.bound:
        return None
    if not state.opened[state.side] and (state.melds[state.side] or state.books[state.side]):
        return None  # no discard at all before the opening is complete: see `_opening_shortfall`
    if state.sizes[seat] == 1 and (goes_out_ok(state, state.side) or not needs_no_kept_card(state, seat)):
        return None  # the final discard of going out (D2), or no discard at all: see `_explain_going_out`
    strict = strict_pile(state, seat)
    if keep_discards(state, seat, strict=strict)[action.kind]:
        return None
    if strict:
        return (
            RuleCode.EMPTY_PILE_DISCARD,
            f"the pile is empty: a {kind_word(action.kind)} may not go onto it while you hold a card that is neither "
            "an ace, a seven, a wild card, a three nor of a closed rank",
        )
    return (
        RuleCode.WILD_DISCARD,
        f"a {kind_word(action.kind)} may be discarded (other than to go out) only when every card of your hand was "
        "wild just after this turn's stock draw",
    )


def _opening_shortfall(state: TableState, when: str) -> tuple[RuleCode, str]:
    """What the side's opening of this turn still lacks: its minimum count, or (modern American) its clean meld."""
    count, minimum = state.provisional_count, state.personal_minimum(state.seat)
    shown = minimum_text(state)
    if count >= minimum and state.clean_meld_needed(state.side):
        clean = state.rules.initial_meld.clean_meld_naturals
        return (
            RuleCode.CLEAN_MELD_REQUIRED,
            f"your opening melds count {count}, enough for the minimum of {shown}, but the initial meld "
            f"must include a clean meld: {plural(clean, 'natural')} or more from your hand and no wild card; "
            f"meld one {when}",
        )
    return (
        RuleCode.MINIMUM_NOT_MET,
        f"your opening melds count {count}, below the minimum of {shown}; meld more {when}",
    )


def _spoils_clean_meld(state: TableState, action: Meld) -> bool:
    """Whether a meld puts a wild card on the side's clean meld before its opening is complete (modern American)."""
    need = state.rules.initial_meld.clean_meld_naturals
    if not need or state.opened[state.side] or not (action.twos or action.jokers):
        return False
    existing = state.melds[state.side].get(int(action.rank))
    if existing is None:
        return False
    top = -1 if state.taken_top is None else state.kinds[state.taken_top]
    return has_clean_meld(need, {int(action.rank): (existing.naturals, existing.twos, existing.jokers)}, top)


def _meld_limit(meld_rules: MeldRules, action: Meld, naturals: int, wilds: int) -> str:
    """Which meld limit a meld with these contents breaks, as a sentence."""
    size = naturals + wilds
    would = f"{action_text(action)} would give the meld"
    if size < meld_rules.min_size:
        return f"a meld needs at least {plural(meld_rules.min_size, 'card')}; {would} {plural(size, 'card')}"
    if action.rank == Kind.JOKER:
        return f"a wild meld holds wild cards only; {would} {plural(naturals, 'natural')}"
    if naturals < meld_rules.min_naturals:
        return (
            f"a meld needs at least {plural(meld_rules.min_naturals, 'natural')}; {would} {plural(naturals, 'natural')}"
        )
    if wilds and action.rank in meld_rules.natural_only:
        ranks = kind_plural(action.rank)
        return f"a meld of {ranks} may never hold a wild card (the {ranks} rule); {would} {plural(wilds, 'wild card')}"
    ratio = meld_rules.naturals_per_wild
    if wilds and ratio and naturals < ratio * wilds:
        if ratio == 1:
            return (
                "under the house rule wilds-at-most-naturals a meld may hold no more wild cards than naturals; "
                f"{would} {plural(naturals, 'natural')} and {plural(wilds, 'wild card')}"
            )
        return (
            f"a meld needs at least {plural(ratio, 'natural')} for each wild card; "
            f"{would} {plural(naturals, 'natural')} and {plural(wilds, 'wild card')}"
        )
    max_wilds = meld_rules.max_wilds
    if max_wilds is not None and wilds > max_wilds:
        return f"a meld may hold at most {plural(max_wilds, 'wild card')}; {would} {plural(wilds, 'wild card')}"
    return f"{action_text(action)} would not make a legal meld"
