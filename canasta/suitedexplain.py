"""Why a sequence game's action is refused, and why an action of the other family is no action here.

Rule sets that meld by meld type (`canasta.Rules.meld_types`: Samba, Bolivia and
Brazilian canasta, SEQUENCES.md §9 to §11) name cards by suit and melds by their
number. `canasta.explain` hands their meld actions, pile takes and discards to
`explain_suited`, which checks the rules in the order a player thinks of them (the
phase, the cards held, the meld named, what the meld types allow) and last what
"legal" means (SPEC §0): an action the rules allow is refused when the turn could
not be completed after it. `explain_foreign` names the family an action belongs to
where it is given to a rule set of the other one (a `LaySequence` in classic, a
classic `Meld` in samba, a discard naming a suit where cards are counted by rank, or
a natural's discard naming none where they are counted by suit).

Legality itself is decided by `canasta.suitedlegality` (exact by construction):
this module only explains a refusal.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from canasta.actions import Discard, Meld, TakePile
from canasta.canastaclass import CLASS_INDEX
from canasta.cards import Kind, Suit
from canasta.errors import RuleCode
from canasta.meldtypes import (
    BlackThreeGroupType,
    GroupShape,
    GroupType,
    MeldShape,
    SequenceShape,
    SequenceType,
    WildMeldType,
    WildShape,
)
from canasta.outrefusal import going_out_refusal
from canasta.ownshapes import AddToMeld, LayMeld
from canasta.rules import CanastaClass
from canasta.suitedactions import SUITED_ACTION_TYPES
from canasta.suitedhand import OpeningRequirement
from canasta.suitedlegality import generate, hand_of, may_go_out_now, melds_of, opening_of
from canasta.suitedmeldactions import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedmelds import hand_after
from canasta.suitedpile import TOP_ALONE_BELOW, PileTake, TakeMode, takeable
from canasta.table import TableState
from canasta.typeset import TypeSet, group_shape, sequence_shape, type_set, wild_shape
from canasta.wording import kind_plural, kind_word, plural

__all__ = ["MELD_ACTION_TYPES", "explain_foreign", "explain_suited", "suited_action_text"]

#: The meld actions of the rule sets that meld by meld type, a plugin's own shapes' included.
MELD_ACTION_TYPES: Final = (LayGroup, LaySequence, Extend, LayWild, Combine, LayBlackThrees, LayMeld, AddToMeld)
_MeldAction: TypeAlias = LayGroup | LaySequence | Extend | LayWild | Combine | LayBlackThrees | LayMeld | AddToMeld


def explain_foreign(state: TableState, action: object) -> tuple[RuleCode, str] | None:
    """Why an action of the other family of rule sets is no action in this one (``None``: it is of this one).

    Args:
        state: The hand.
        action: The refused action.

    Returns:
        ``(RuleCode.NOT_AN_ACTION, sentence)``, or ``None``.
    """
    if state.rules.meld_types:
        if isinstance(action, Meld):
            return (
                RuleCode.NOT_AN_ACTION,
                "this rule set melds by meld type, naming cards by suit and melds by number: a group is "
                "LayGroup(rank, suits, twos, jokers, meld), a sequence LaySequence(suit, low, high), a sequence "
                "grown Extend(meld, low, high) (Meld is the action of the rule sets that meld by rank)",
            )
        if isinstance(action, TakePile):
            return (
                RuleCode.NOT_AN_ACTION,
                "this rule set takes the pile with PileTake(mode, meld, pair) (TakePile is the action of the rule "
                "sets that meld by rank)",
            )
        if isinstance(action, Discard) and action.suit is None and action.kind.is_natural:
            return (
                RuleCode.NOT_AN_ACTION,
                f"here a natural card's discard names its suit, e.g. Discard(Kind.{action.kind.name}, "
                "suit=Suit.HEARTS): the cards are counted by rank and suit",
            )
        return None
    if type(action) in SUITED_ACTION_TYPES or isinstance(action, (LayMeld, AddToMeld)):
        return (
            RuleCode.NOT_AN_ACTION,
            f"{type(action).__name__} is an action of the rule sets that meld by meld type (the sequence games); "
            "this rule set melds by rank, with Meld(rank, naturals, twos, jokers), and takes the pile with TakePile",
        )
    if isinstance(action, Discard) and action.suit is not None:
        return (
            RuleCode.NOT_AN_ACTION,
            f"this rule set counts cards by rank: a discard names no suit (Discard(Kind.{action.kind.name}))",
        )
    return None


def explain_suited(state: TableState, action: object) -> tuple[RuleCode, str] | None:
    """Why a meld action, pile take or discard of a rule set with meld types is refused now.

    Args:
        state: The hand (its rules meld by meld type; the phase is the action's).
        action: The refused action.

    Returns:
        ``(code, sentence)``, or ``None`` for an action this module does not explain (a draw, a
        question, an answer, the end of the hand: `canasta.explain` explains those for both families).
    """
    if isinstance(action, PileTake):
        return _explain_take(state, action)
    if isinstance(action, Discard):
        return _explain_discard(state, action)
    if isinstance(action, MELD_ACTION_TYPES):
        return _explain_meld(state, action)
    return None


def suited_action_text(action: PileTake | _MeldAction) -> str:
    """A meld action or pile take of the sequence games in words, for a refusal.

    Args:
        action: The action.

    Returns:
        E.g. ``"the meld of 3 fives onto a new group"``, ``"the pile take with a pair"``.
    """
    if isinstance(action, PileTake):
        how = {
            TakeMode.PAIR: "with a pair",
            TakeMode.TOP_ONTO_GROUP: "of the top card onto a group",
            TakeMode.TOP_ONTO_SEQUENCE: "of the top card onto a sequence",
        }
        return f"the pile take {how[action.mode]}"
    if isinstance(action, Combine):
        return f"the combination of melds {action.first} and {action.second}"
    return f"the meld of {_meld_text(action)}"


# --- the meld phase's melds ---------------------------------------------------------------


def _explain_meld(state: TableState, action: _MeldAction) -> tuple[RuleCode, str]:
    kinds = type_set(state.rules.meld_types)
    melds = melds_of(state, state.side)
    missing = _missing_type(kinds, action) or _missing_meld(melds, action)
    if missing is not None:
        return missing
    hand = hand_of(state, state.seat)
    if hand_after(hand, action, melds) is None:
        return RuleCode.CARDS_NOT_IN_HAND, f"you do not hold the cards for {_meld_text(action)}"
    if action in generate(state, filtered=False):
        return _incomplete(state, "this meld", _only_going_out_after(kinds, action, melds))
    return _refused_by_type(state, kinds, action, melds)


def _missing_type(kinds: TypeSet, action: _MeldAction) -> tuple[RuleCode, str] | None:
    """The kind of meld the action lays, where the rule set has none of that kind."""
    if isinstance(action, LayGroup) and kinds.groups is None:
        return RuleCode.INVALID_MELD, "this rule set has no groups of a rank"
    if isinstance(action, (LaySequence, Extend)) and kinds.sequences is None:
        return RuleCode.INVALID_MELD, "this rule set has no sequences"
    if isinstance(action, LayWild) and kinds.wilds is None:
        return RuleCode.WILD_MELD, "wild cards alone never meld in this rule set"
    if isinstance(action, LayBlackThrees) and kinds.threes is None:
        return RuleCode.BLACK_THREE_MELD, "black threes never meld in this rule set"
    if isinstance(action, LayMeld) and not any(kind.name == action.type for kind in kinds.source):
        return RuleCode.INVALID_MELD, f"this rule set has no meld type named {action.type!r}"
    return None


def _missing_meld(melds: dict[int, MeldShape], action: _MeldAction) -> tuple[RuleCode, str] | None:
    """The meld the action names, where the side has no such meld, or one the action cannot grow."""
    if isinstance(action, LayGroup) and action.meld is not None:
        group = melds.get(action.meld)
        if not (isinstance(group, GroupShape) and group.rank == action.rank):
            ranks = kind_plural(Kind(action.rank))
            return RuleCode.INVALID_MELD, f"your side has no group of {ranks} numbered {action.meld}"
    if isinstance(action, Extend):
        run = melds.get(action.meld)
        if not isinstance(run, SequenceShape):
            return RuleCode.INVALID_MELD, f"your side has no sequence numbered {action.meld}"
        if action.low > run.low or action.high < run.high or (action.low, action.high) == (run.low, run.high):
            return (
                RuleCode.INVALID_MELD,
                f"an extension names the sequence's new ends, at least one card past its ends: sequence "
                f"{action.meld} runs from {_rank_word(run.low)} to {_rank_word(run.high)}",
            )
    if isinstance(action, LayWild) and action.meld is not None and not isinstance(melds.get(action.meld), WildShape):
        return RuleCode.INVALID_MELD, f"your side has no wild meld numbered {action.meld}"
    if isinstance(action, Combine):
        for number in (action.first, action.second):
            if number not in melds:
                return RuleCode.INVALID_MELD, f"your side has no meld numbered {number}"
        if action.first == action.second:
            return RuleCode.INVALID_MELD, "a combination names two different melds"
    if isinstance(action, AddToMeld) and action.meld not in melds:
        return RuleCode.INVALID_MELD, f"your side has no meld numbered {action.meld}"
    return None


def _after(action: _MeldAction, melds: dict[int, MeldShape]) -> tuple[MeldShape | None, MeldShape | None]:
    """The meld the action grows (``None``: a new one) and the shape it would have (``None``: not a built-in shape)."""
    if isinstance(action, LayGroup):
        before = melds.get(action.meld) if action.meld is not None else None
        n, t, j = action.naturals, action.twos, action.jokers
        if isinstance(before, GroupShape):
            return before, group_shape(action.rank, before.naturals + n, before.twos + t, before.jokers + j)
        return None, group_shape(action.rank, n, t, j) if n + t + j else None
    if isinstance(action, LaySequence):
        return None, sequence_shape(int(action.suit), action.low, action.high)
    if isinstance(action, Extend):
        run = melds[action.meld]
        assert isinstance(run, SequenceShape)
        return run, sequence_shape(int(run.suit), action.low, action.high)
    if isinstance(action, LayWild):
        before = melds.get(action.meld) if action.meld is not None else None
        if isinstance(before, WildShape):
            return before, wild_shape(before.twos + action.twos, before.jokers + action.jokers)
        return None, wild_shape(action.twos, action.jokers) if action.twos + action.jokers else None
    return None, None


def _only_going_out_after(kinds: TypeSet, action: _MeldAction, melds: dict[int, MeldShape]) -> bool:
    """Whether the meld the action makes is valid only in a going-out turn (black threes, a long sequence)."""
    if isinstance(action, LayBlackThrees):
        return True
    _, shape = _after(action, melds)
    return shape is not None and kinds.only_going_out(shape)


def _refused_by_type(
    state: TableState,
    kinds: TypeSet,
    action: _MeldAction,
    melds: dict[int, MeldShape],
) -> tuple[RuleCode, str]:
    """The meld types do not allow the action (or, black threes, not before the opening is complete)."""
    what = _meld_text(action)
    if isinstance(action, LayBlackThrees):
        threes = kinds.threes
        if isinstance(threes, BlackThreeGroupType) and not threes.min_size <= action.count <= threes.max_size:
            return (
                RuleCode.BLACK_THREE_MELD,
                f"black threes meld {threes.min_size} to {threes.max_size} together, as the going-out turn's group",
            )
        if not state.opened[state.side]:
            return (
                RuleCode.BLACK_THREE_MELD,
                "black threes are laid only by a player who goes out, never before the side's opening is complete",
            )
        return RuleCode.BLACK_THREE_MELD, f"the black-three type of this rule set does not allow {what}"
    if isinstance(action, Combine):
        return RuleCode.INVALID_MELD, f"melds {action.first} and {action.second} may not be combined"
    before, shape = _after(action, melds)
    if shape is None:
        return RuleCode.INVALID_MELD, f"{what} would not make a meld its type allows"
    kind = kinds.judging(shape)
    if kind is None:
        return RuleCode.INVALID_MELD, f"no meld type of this rule set takes {what}"
    reason = _limit_broken(kind, before, shape)
    if reason is not None:
        code = RuleCode.MELD_CLOSED if before is not None and kind.closed(before) else RuleCode.INVALID_MELD
        return code, reason
    return RuleCode.INVALID_MELD, f"the {kind.name} type of this rule set does not allow {what}"


def _limit_broken(kind: object, before: MeldShape | None, shape: MeldShape) -> str | None:
    """Which limit of a built-in meld type a new or grown meld breaks, as a sentence (``None``: not one of these)."""
    if isinstance(kind, GroupType) and isinstance(shape, GroupShape):
        if before is not None and kind.closed(before):
            return f"a group of {plural(before.size, 'card')} is closed"
        if before is None and shape.size < kind.min_size:
            return f"a new group needs at least {plural(kind.min_size, 'card')}; this one would hold {shape.size}"
        if shape.naturals < kind.min_naturals:
            return (
                f"a group holds at least {plural(kind.min_naturals, 'natural')}; this one would hold {shape.naturals}"
            )
        if kind.max_wilds is not None and shape.wilds > kind.max_wilds:
            return f"a group holds at most {plural(kind.max_wilds, 'wild card')}; this one would hold {shape.wilds}"
        limit = kind.wild_size_limit
        if before is not None and shape.wilds > before.wilds and limit is not None and shape.size > limit:
            return (
                f"a wild card joins a group only while the group then holds at most {plural(limit, 'card')} (no wild "
                f"card joins a canasta); this one would hold {shape.size}"
            )
        if kind.max_size is not None and shape.size > kind.max_size:
            return f"a group holds at most {plural(kind.max_size, 'card')}"
    if isinstance(kind, SequenceType) and isinstance(shape, SequenceShape):
        if before is not None and kind.closed(before, going_out=True):
            return f"a sequence of {plural(before.size, 'card')} is closed"
        if before is None and shape.size < kind.min_size:
            return f"a new sequence needs at least {plural(kind.min_size, 'card')}; this one would hold {shape.size}"
        if shape.size > kind.max_size:
            longest = kind.going_out_max_size
            if longest is not None and shape.size <= longest:
                return None  # (allowed in a going-out turn: the completion explains it)
            return (
                f"a sequence holds at most {plural(longest or kind.max_size, 'card')}; this one would hold {shape.size}"
            )
    if isinstance(kind, WildMeldType) and isinstance(shape, WildShape):
        if before is not None and kind.closed(before):
            return f"a wild meld of {plural(before.size, 'card')} is closed"
        if before is None and shape.size < kind.min_size:
            return f"a new wild meld needs at least {plural(kind.min_size, 'card')}; this one would hold {shape.size}"
        if shape.size > kind.max_size:
            return f"a wild meld holds at most {plural(kind.max_size, 'card')}; this one would hold {shape.size}"
    return None


# --- the draw phase's pile takes ----------------------------------------------------------


def _explain_take(state: TableState, action: PileTake) -> tuple[RuleCode, str]:
    if not state.pile:
        return RuleCode.PILE_EMPTY, "the discard pile is empty"
    top = state.deck.cards[state.pile[-1]]
    if not takeable(top):
        return RuleCode.PILE_BLOCKED, f"the pile may not be taken while a {kind_word(top.kind)} is on top"
    side, seat = state.side, state.seat
    opened = state.opened[side]
    hand = hand_of(state, seat)
    if state.sizes[seat] == 1 and len(state.pile) == 1:
        return RuleCode.ONE_CARD_RULE, "holding one card, you may not take a pile of one card"
    if not opened and not state.rules.pile.unmelded_side_may_take:
        return RuleCode.PILE_NOT_MELDED, "your side must complete its initial meld before it may take the pile"
    melds = melds_of(state, side)
    rank, suit = int(top.rank), top.suit
    assert suit is not None  # (`takeable`: a natural)
    ranks = kind_plural(top.kind)
    if action.mode is TakeMode.PAIR:
        pair = action.pair
        if pair is None:
            return RuleCode.PILE_NEEDS_MATCH, f"a take with a pair names the suits of the two {ranks} it shows"
        base = (rank - 4) * 4
        need = [0, 0, 0, 0]
        for shown in pair:
            need[int(shown)] += 1
        if any(hand.naturals[base + s] < n for s, n in enumerate(need)):
            shown_text = " and ".join(f"the {kind_word(top.kind)} of {Suit(s).name.lower()}" for s in pair)
            return RuleCode.CARDS_NOT_IN_HAND, f"you do not hold {shown_text} to show"
        if action.meld is not None:
            group = melds.get(action.meld)
            if not (isinstance(group, GroupShape) and group.rank == rank):
                return RuleCode.PILE_NEEDS_MATCH, f"your side has no group of {ranks} numbered {action.meld}"
    else:
        if action.pair is not None:
            return RuleCode.PILE_NEEDS_MATCH, "a take of the top card alone shows no pair (its pair is None)"
        if not opened:
            return (
                RuleCode.PILE_NEEDS_MATCH,
                f"a side that has not opened takes the pile only with a natural pair of {ranks} from the hand",
            )
        if state.pile_frozen_for(side):
            return (
                RuleCode.PILE_FROZEN,
                f"the pile is frozen for your side: take it only with a natural pair of {ranks} from the hand",
            )
        target = melds.get(action.meld) if action.meld is not None else None
        if action.mode is TakeMode.TOP_ONTO_GROUP and not (isinstance(target, GroupShape) and target.rank == rank):
            return RuleCode.PILE_NEEDS_MATCH, f"the top card alone joins one of your side's groups of {ranks}: name it"
        if action.mode is TakeMode.TOP_ONTO_SEQUENCE:
            if not (isinstance(target, SequenceShape) and target.suit == suit):
                return (
                    RuleCode.PILE_NEEDS_MATCH,
                    f"the top card alone joins one of your side's sequences of {suit.name.lower()}: name it",
                )
            if rank not in (target.low - 1, target.high + 1):
                return RuleCode.PILE_NEEDS_MATCH, f"the top card does not fit at an end of sequence {action.meld}"
            if state.rules.pile.sequence_take_top_only and state.sizes[seat] == 1:
                return RuleCode.ONE_CARD_RULE, "holding one card, you may not take the top card alone (one card)"
        assert target is not None
        if target.size >= TOP_ALONE_BELOW:
            return (
                RuleCode.PILE_NEEDS_MATCH,
                f"the top card alone joins only a meld of fewer than {TOP_ALONE_BELOW} cards "
                f"(meld {action.meld} holds {target.size})",
            )
    if action in generate(state, filtered=False):
        return _incomplete(state, "this take", False)
    return RuleCode.INVALID_MELD, "the top card and the cards shown would not make a meld its type allows"


# --- the meld phase's discards ------------------------------------------------------------


def _explain_discard(state: TableState, action: Discard) -> tuple[RuleCode, str]:
    seat, side = state.seat, state.side
    hand = hand_of(state, seat)
    kind = action.kind
    if action.suit is not None:
        if not hand.naturals[(int(kind) - 4) * 4 + int(action.suit)]:
            return RuleCode.CARDS_NOT_IN_HAND, f"you hold no {kind_word(kind)} of {action.suit.name.lower()}"
    elif not state.counts[seat][kind]:
        return RuleCode.CARDS_NOT_IN_HAND, f"you hold no {kind_word(kind)}"
    if kind is Kind.RED_THREE:
        return RuleCode.CANNOT_DISCARD, "a red three is never discarded: it is laid out"
    if not state.opened[side] and (state.provisional_count > 0 or state.pending_pile is not None):
        return (
            RuleCode.MINIMUM_NOT_MET,
            f"your side's opening is not complete: it needs {_requirement_text(opening_of(state, seat))}, and your "
            f"melds of this turn count {state.provisional_count}; meld more before you discard",
        )
    if state.sizes[seat] == 1:
        if may_go_out_now(state, seat):
            return RuleCode.TURN_CANNOT_COMPLETE, "discarding your last card would not end the turn here"
        return _going_out(state, "discarding your last card goes out")
    if state.bound:
        return RuleCode.MUST_GO_OUT, "your partner said yes: you must go out this turn"
    kinds = type_set(state.rules.meld_types)
    if any(kinds.only_going_out(shape) for shape in melds_of(state, side).values()):
        return (
            RuleCode.MUST_GO_OUT,
            "a meld on your side's table is valid only in a turn its player goes out in (black threes, or a sequence "
            "past its usual length): you must go out this turn",
        )
    return RuleCode.TURN_CANNOT_COMPLETE, "this discard would not end the turn here"


# --- what "legal" means: the turn completable ---------------------------------------------


def _incomplete(state: TableState, what: str, only_going_out: bool) -> tuple[RuleCode, str]:
    """The rules allow the action, but the turn could not be completed after it (SPEC §0)."""
    if state.bound:
        return RuleCode.MUST_GO_OUT, f"your partner said yes: after {what} you could not go out this turn"
    if not state.opened[state.side]:
        need = _requirement_text(opening_of(state, state.seat))
        return (
            RuleCode.MINIMUM_NOT_MET,
            f"after {what} your side could not complete its initial meld ({need}) this turn and then end the turn",
        )
    if only_going_out:
        return _going_out(state, f"{what} is valid only in a turn you go out in")
    return _going_out(state, f"after {what} you could end the turn only by going out")


def _going_out(state: TableState, what: str) -> tuple[RuleCode, str]:
    """Why going out is not possible: the partner's answer, the canastas it needs, or the cards left."""
    cards_left = f"{what}, and you could not then meld every card but a final discard with the canastas going out needs"
    return going_out_refusal(state, what, otherwise=(RuleCode.TURN_CANNOT_COMPLETE, cards_left))


# --- words --------------------------------------------------------------------------------


def _requirement_text(need: OpeningRequirement) -> str:
    """What an initial meld needs, in words: ``"a count of 150"``, ``"a natural, sequence or wild canasta"``."""
    parts = []
    if need.canasta_classes:
        if need.canasta_classes >= {CanastaClass.NATURAL, CanastaClass.MIXED, CanastaClass.SEQUENCE, CanastaClass.WILD}:
            parts.append("a canasta")
        else:
            names = [cls.value for cls in sorted(need.canasta_classes, key=CLASS_INDEX.__getitem__)]
            listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
            parts.append(f"a {listed} canasta")
    if need.count:
        parts.append(f"a count of {need.count}")
    return " and ".join(parts) or "a meld"


def _wild_words(twos: int, jokers: int) -> list[str]:
    """``["1 wild 2", "2 jokers"]``: the wild cards an action lays, in words."""
    return ([plural(twos, "wild 2")] if twos else []) + ([plural(jokers, "joker")] if jokers else [])


def _listed(parts: list[str]) -> str:
    """``"a, b and c"`` (``"no card"`` for none)."""
    if not parts:
        return "no card"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _rank_word(rank: int) -> str:
    return kind_word(Kind(rank))


def _meld_text(action: _MeldAction) -> str:
    """The action in words, for a refusal: ``"a group of 3 fives"``, ``"a sequence of hearts from four to six"``."""
    if isinstance(action, LayGroup):
        rank = Kind(action.rank)
        cards = [plural(action.naturals, kind_word(rank), kind_plural(rank))] if action.naturals else []
        onto = "a new group" if action.meld is None else f"group {action.meld}"
        return f"{_listed([*cards, *_wild_words(action.twos, action.jokers)])} onto {onto}"
    if isinstance(action, LaySequence):
        return f"a sequence of {action.suit.name.lower()} from {_rank_word(action.low)} to {_rank_word(action.high)}"
    if isinstance(action, Extend):
        return f"sequence {action.meld} grown to run from {_rank_word(action.low)} to {_rank_word(action.high)}"
    if isinstance(action, LayWild):
        onto = "a new wild meld" if action.meld is None else f"wild meld {action.meld}"
        return f"{_listed(_wild_words(action.twos, action.jokers))} onto {onto}"
    if isinstance(action, Combine):
        return f"melds {action.first} and {action.second} combined"
    if isinstance(action, LayBlackThrees):
        return plural(action.count, "black three")
    return repr(action)
