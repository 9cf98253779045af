"""Keeping a three (the club form's special hands, "Keeping a three"; the Straight needs one).

Under rules with `canasta.ThreeRules.keep_one` (the house rules
``american-special-hands`` and its pagat form), while a player's side has not
melded he keeps one bonus three in hand instead of laying it out and
replacing it. How the engine plays the rule:

- *Keeping.* The first three that reaches the hand of such a player who holds
  none (dealt, drawn, or drawn as a replacement) stays in the hand: it is one
  of the cards dealt or drawn, so nothing replaces it. With both colours dealt,
  the red one is kept. Every other three is laid out and replaced as usual.
- *The choice.* Keeping is the player's choice ("may keep"): in any of his
  turns, before he discards (before or after the draw), he may lay the three out and draw its replacement
  (`canasta.LayOutThree`): at once when it reaches him in a draw, or later.
  A three dealt to him waits for his first turn.
- *While kept* it is a card of the hand that can be neither melded nor
  discarded; it can only be part of a Straight or be laid out.
- *The side opens.* If the holder makes the side's initial meld, the three is
  laid out the moment the opening is complete, and replaced. If his partner
  makes it, it is laid out at the start of the holder's next turn, before he
  draws, and replaced.
- *No stock card left.* A three that must be laid out when no stock card is
  left to replace it stays in the hand (so does a three drawn as the last stock
  card to replace a kept three, when it may not be kept).
- *The end of the hand.* A three still in hand counts 5 against (the rules'
  card value of a three).

What "legal" means: the card a replacement brings is unknown when an action is
chosen, so an action is legal only if the turn can be completed without
counting on it: the turn-completion oracle (`canasta.completion`) treats a
three in hand as a card that stays there, which is what it does when the stock
runs out. Laying out a kept three is, like a stock draw, always completable:
whatever plan completed the turn with the three in hand completes it with its
replacement kept instead.
"""

from __future__ import annotations

from canasta.actions import Action, LayOutThree
from canasta.cards import BLACK_THREE, RED_THREE
from canasta.errors import RuleCode
from canasta.table import DRAW_PHASE, MELD_PHASE, TableState

__all__ = [
    "explain_lay_out",
    "held_three",
    "lay_out_kept",
    "lay_out_when_opened",
    "layouts",
    "may_keep",
    "three_to_keep",
]

_LAY_OUT = LayOutThree()


def held_three(t: TableState, seat: int) -> int:
    """The kind of the three in a seat's hand (red first), or -1 if it holds none.

    Args:
        t: The hand.
        seat: The seat.

    Returns:
        ``RED_THREE``, ``BLACK_THREE`` or -1.
    """
    counts = t.counts[seat]
    if counts[RED_THREE]:
        return RED_THREE
    if counts[BLACK_THREE] and t.dealt.threes.black_threes_are_bonus:
        return BLACK_THREE
    return -1


def may_keep(t: TableState, seat: int) -> bool:
    """Whether a three reaching the seat's hand now is kept: its side has not melded and it holds no three.

    The caller checks that the rules keep threes (``t.keeps_threes``).

    Args:
        t: The hand.
        seat: The seat.

    Returns:
        True if the three stays in the hand.
    """
    side = t.seating[seat]
    return not t.opened[side] and not t.melds[side] and not t.books[side] and held_three(t, seat) < 0


def three_to_keep(t: TableState, seat: int) -> int:
    """At the deal: the kind of the dealt three the seat keeps (red first), or -1 if none is kept.

    Args:
        t: The hand being dealt.
        seat: The seat.

    Returns:
        ``RED_THREE``, ``BLACK_THREE`` or -1.
    """
    if not t.keeps_threes:
        return -1
    return held_three(t, seat)


def lay_out_kept(t: TableState, seat: int) -> None:
    """Lay out the seat's three and draw its replacement, if a stock card is left (else it stays in hand).

    A three drawn as the replacement is kept where the seat may keep one, and
    otherwise laid out and replaced in turn, unless no stock card is left to
    replace it: then it stays in the hand.

    Args:
        t: The hand.
        seat: The seat holding the three.
    """
    kind = held_three(t, seat)
    if kind < 0 or not t.stock:
        return
    t.threes[seat].append(t._from_hand(seat, kind))
    stock = t.stock
    while stock:
        card = stock.pop()
        if t._is_bonus_three(t.kinds[card]) and stock and not may_keep(t, seat):
            t.threes[seat].append(card)
            continue
        t._to_hand(seat, card)
        return


def lay_out_when_opened(t: TableState, seat: int) -> None:
    """The side of ``seat`` has opened: the seat's kept three is laid out and replaced (if a stock card is left).

    Called the moment the holder's own opening is complete, and at the start
    of the holder's turn after his partner opened, before he draws.

    Args:
        t: The hand.
        seat: The seat.
    """
    if t.opened[t.seating[seat]] and held_three(t, seat) >= 0:
        lay_out_kept(t, seat)


def layouts(t: TableState) -> list[Action]:
    """The acting seat's legal `canasta.LayOutThree`: in its turn before the discard, holding a three, stock left.

    The caller checks that the rules keep threes (``t.keeps_threes``).

    Args:
        t: The hand.

    Returns:
        ``[LayOutThree()]`` or ``[]``.
    """
    if (t.phase is DRAW_PHASE or t.phase is MELD_PHASE) and t.stock and held_three(t, t.seat) >= 0:
        return [_LAY_OUT]
    return []


def explain_lay_out(t: TableState) -> tuple[RuleCode, str]:
    """Why laying out a kept three is refused now ("Keeping a three").

    Args:
        t: The hand.

    Returns:
        ``(RuleCode.KEPT_THREE, sentence)``.
    """
    code = RuleCode.KEPT_THREE
    if not t.keeps_threes:
        return code, "these rules keep no three in hand: every three is laid out at once"
    if held_three(t, t.seat) < 0:
        return code, "you hold no kept three to lay out"
    if t.phase is not DRAW_PHASE and t.phase is not MELD_PHASE:
        return code, "a kept three is laid out by its holder in his own turn, before he discards"
    return code, "no stock card is left to replace the three: it stays in your hand"
