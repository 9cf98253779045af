"""The sequence games' pile take: its modes and the action value (`SEQUENCES.md` §9.7).

Which takes are legal is `canasta.suitedpile`'s question; these values live apart
from it because that module is compiled and these are public values with checking
constructors (`attrs` converters, as `canasta.suitedmeldactions`' melds): a field
that only looks like the right value (``5.0`` for meld 5, ``(2, 3)`` for two suits)
is refused when the action is made, never matched against a legal one.
"""

from __future__ import annotations

from enum import Enum

from attrs import field, frozen

from canasta.cards import Suit
from canasta.fieldvalues import non_negative, suit_of

__all__ = ["PileTake", "TakeMode"]


class TakeMode(Enum):
    """How a pile is taken (§9.7)."""

    #: With a natural pair of the top card's rank: a new group, or onto one of the side's groups.
    PAIR = "pair"
    #: The top card alone onto one of the side's groups of its rank with fewer than 7 cards.
    TOP_ONTO_GROUP = "top-onto-group"
    #: The top card alone at an end of one of the side's sequences of its suit with fewer than 7 cards.
    TOP_ONTO_SEQUENCE = "top-onto-sequence"


def _mode(value: object) -> TakeMode:
    if type(value) is TakeMode:
        return value
    raise TypeError(f"a take's mode must be a canasta.suitedpile.TakeMode, got {value!r} ({type(value).__name__})")


def _meld(value: object) -> int | None:
    return None if value is None else non_negative(value, "a meld number")


def _pair(value: object) -> tuple[Suit, Suit] | None:
    if value is None:
        return None
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(f"a take's pair is two suits (or None), got {value!r}")
    return suit_of(value[0]), suit_of(value[1])


@frozen
class PileTake:
    """One way to take the pile.

    Attributes:
        mode: The mode.
        meld: The side's meld the cards join (its identity), or ``None`` for a
            new group (`TakeMode.PAIR` only).
        pair: With `TakeMode.PAIR`, the suits of the two naturals shown, in
            suit order; otherwise ``None``.
    """

    mode: TakeMode = field(converter=_mode)
    meld: int | None = field(default=None, converter=_meld)
    pair: tuple[Suit, Suit] | None = field(default=None, converter=_pair)
