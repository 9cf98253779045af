"""Declaring a special hand (the club form's special hands, "When it may be declared").

Under rules that list special hands (`canasta.Rules.special_hands`), the player
may lay 14 cards forming one of them face up; the hand ends at once. It is
allowed when the player's side has made no meld this hand, the player drew
from the stock this turn and has melded nothing yet, and his hand holds exactly
the 14 cards (``DeclareSpecialHand(hand)``) or, after a two-card draw, 15 cards
of which he discards one that is not a three (``DeclareSpecialHand(hand, kind)``).
Only the hand the cards score as is declared: the highest value they form.
A player bound by his partner's "yes" must go out instead.
"""

from __future__ import annotations

from canasta.actions import DeclareSpecialHand
from canasta.cards import BLACK_THREE, KIND_COUNT, RED_THREE, Kind
from canasta.errors import RuleCode
from canasta.special import HAND_SIZE, SpecialHand, best_of
from canasta.table import MELD_PHASE, TableState

__all__ = ["declarations", "explain_declaration"]

#: The 15th card of a two-card draw may be any card but a three.
_NOT_DISCARDED = frozenset({RED_THREE, BLACK_THREE})


def _barrier(t: TableState) -> str | None:
    """Why the acting player may not declare now, whatever he holds, or ``None`` if he may."""
    if not t.dealt.special_hands:
        return "these rules have no special hands"
    if t.phase is not MELD_PHASE or not t.drew_from_stock:
        return "a special hand is declared only in a turn that drew from the stock, after the draw"
    side = t.seating[t.seat]
    if t.opened[side] or t.melds[side] or t.melded_this_turn:
        return "a special hand is declared only by a side that has made no meld this hand"
    if t.bound:
        return "your partner said yes: you must go out this turn"
    return None


def _discard_options(t: TableState) -> list[int | None]:
    """The discards a declaration may make: none with 14 cards; with 15 after a two-card draw, each kind but a three."""
    size = t.sizes[t.seat]
    if size == HAND_SIZE:
        return [None]
    if size == HAND_SIZE + 1 and t.dealt.draw_count >= 2 and not t.final_meld_only:
        counts = t.counts[t.seat]
        return [k for k in range(KIND_COUNT) if counts[k] and k not in _NOT_DISCARDED]
    return []


def _scored_hand(t: TableState, discard: int | None) -> SpecialHand | None:
    counts = list(t.counts[t.seat])
    if discard is not None:
        counts[discard] -= 1
    return best_of(t.dealt.special_hands, counts)


def declarations(t: TableState) -> list[DeclareSpecialHand]:
    """Every legal declaration of the acting player (none under rules without special hands).

    A declaration ends the hand, so it always completes the turn.

    Args:
        t: The hand.

    Returns:
        The declarations, by discard kind.
    """
    if not t.dealt.special_hands or _barrier(t) is not None:
        return []
    result = []
    for discard in _discard_options(t):
        hand = _scored_hand(t, discard)
        if hand is not None:
            result.append(DeclareSpecialHand(hand.id, None if discard is None else Kind(discard)))
    return result


def explain_declaration(t: TableState, action: DeclareSpecialHand) -> tuple[RuleCode, str]:
    """Why a declaration is refused: the rule of "When it may be declared" it breaks.

    Args:
        t: The hand.
        action: The refused declaration.

    Returns:
        ``(RuleCode.SPECIAL_HAND, sentence)``.
    """
    code = RuleCode.SPECIAL_HAND
    barrier = _barrier(t)
    if barrier is not None:
        return code, barrier
    known = {hand.id: hand for hand in t.dealt.special_hands}
    if action.hand not in known:
        return code, f"{action.hand!r} is no special hand of these rules; they have: {', '.join(known)}"
    options = _discard_options(t)
    discard = None if action.discard is None else int(action.discard)
    if discard not in options:
        size = t.sizes[t.seat]
        if discard is not None and discard in _NOT_DISCARDED:
            return code, "a three is never the discard of a declaration"
        if discard is not None and size == HAND_SIZE + 1 and t.counts[t.seat][discard] == 0:
            return code, f"you hold no {Kind(discard).symbol} to discard"
        if size == HAND_SIZE + 1 and t.dealt.draw_count >= 2 and not t.final_meld_only:
            return code, "with 15 cards you declare 14 of them and discard the 15th"
        if size == HAND_SIZE:
            return code, f"you hold exactly the {HAND_SIZE} cards: declare them with no discard"
        return code, f"a special hand is exactly {HAND_SIZE} cards; you hold {size}"
    named = known[action.hand]
    scored = _scored_hand(t, discard)
    if scored is None:
        return code, f"these {HAND_SIZE} cards form no special hand ({named.title} is {named.composition})"
    return code, f"these cards score as {scored.title} ({scored.value}), the highest hand they form: declare that one"
