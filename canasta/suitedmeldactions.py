"""The sequence games' meld actions: lossless values naming cards by suit and melds by identity (§12).

A group names its naturals by suit (which K♥ goes into a group decides which
sequences stay possible), a new sequence is (suit, low, high), an extension
names its meld and its new ends, a combination names two melds, and melds are
named by their identity (a number per side, in creation order). Which of them
are legal is `canasta.suitedmelds`' question; these values live apart from it
because that module is compiled and these are public values with checking
constructors (`attrs` converters), kept plain Python classes.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import field, frozen

from canasta.cards import Suit
from canasta.fieldvalues import exact_int, non_negative, suit_of
from canasta.meldtypes import ACE, LOWEST_SEQUENCE_RANK

__all__ = ["Combine", "Extend", "LayBlackThrees", "LayGroup", "LaySequence", "LayWild", "SuitedMeld"]


def _suit_counts(value: Iterable[int]) -> tuple[int, int, int, int]:
    counts = tuple(value)
    if len(counts) != 4 or any(type(c) is not int or c < 0 for c in counts):
        raise ValueError(f"suits are four counts (clubs, diamonds, hearts, spades) of 0 or more, got {value!r}")
    return counts[0], counts[1], counts[2], counts[3]


def _rank(value: object) -> int:
    """A natural rank of a group or sequence, the 4 to the ace (an exact integer: `canasta.fieldvalues`)."""
    rank = exact_int(value, "a natural rank")
    if not LOWEST_SEQUENCE_RANK <= rank <= ACE:
        raise ValueError(f"a natural rank is {LOWEST_SEQUENCE_RANK} to {ACE} (the ace), got {rank}")
    return rank


def _count(value: object) -> int:
    return non_negative(value, "a card count")


def _number(value: object) -> int:
    """A meld's identity: a number of 0 or more."""
    return non_negative(value, "a meld number")


def _optional_number(value: object) -> int | None:
    return None if value is None else _number(value)


def _ends(low: int, high: int) -> None:
    if low > high:
        raise ValueError(f"a sequence runs from its low rank up to its high rank, got {low} to {high}")


@frozen
class LayGroup:
    """Natural cards of one rank, by suit, and wild cards: a new group, or onto one of the side's groups.

    Attributes:
        rank: The natural rank (4 to 14).
        suits: How many naturals of each suit (clubs, diamonds, hearts, spades).
        twos: 2s.
        jokers: Jokers.
        meld: The group it joins (its identity), or ``None`` for a new group.
    """

    rank: int = field(converter=_rank)
    suits: tuple[int, int, int, int] = field(converter=_suit_counts)
    twos: int = field(default=0, converter=_count)
    jokers: int = field(default=0, converter=_count)
    meld: int | None = field(default=None, converter=_optional_number)

    @property
    def naturals(self) -> int:
        """Its natural cards."""
        return sum(self.suits)


@frozen
class LaySequence:
    """A new sequence of one suit, from ``low`` to ``high``.

    Attributes:
        suit: The suit.
        low: The lowest rank.
        high: The highest rank.
    """

    suit: Suit = field(converter=suit_of)
    low: int = field(converter=_rank)
    high: int = field(converter=_rank)

    def __attrs_post_init__(self) -> None:
        _ends(self.low, self.high)


@frozen
class Extend:
    """Cards of the suit added at the ends of one of the side's sequences, to its new ends.

    Attributes:
        meld: The sequence (its identity).
        low: Its new lowest rank.
        high: Its new highest rank.
    """

    meld: int = field(converter=_number)
    low: int = field(converter=_rank)
    high: int = field(converter=_rank)

    def __attrs_post_init__(self) -> None:
        _ends(self.low, self.high)


@frozen
class LayWild:
    """Wild cards: a new wild meld, or onto one of the side's wild melds.

    Attributes:
        twos: 2s.
        jokers: Jokers.
        meld: The wild meld it joins, or ``None`` for a new one.
    """

    twos: int = field(converter=_count)
    jokers: int = field(default=0, converter=_count)
    meld: int | None = field(default=None, converter=_optional_number)


@frozen
class Combine:
    """Two of the side's melds merged into one, which keeps the older's identity (§9.3).

    Attributes:
        first: The older meld.
        second: The other.
    """

    first: int = field(converter=_number)
    second: int = field(converter=_number)


@frozen
class LayBlackThrees:
    """Every black three of the hand as one group, by a player going out (§9.5).

    Attributes:
        count: The black threes.
    """

    count: int = field(converter=_count)


#: A meld action of the sequence games.
SuitedMeld = LayGroup | LaySequence | Extend | LayWild | Combine | LayBlackThrees
