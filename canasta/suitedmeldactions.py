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

__all__ = ["Combine", "Extend", "LayBlackThrees", "LayGroup", "LaySequence", "LayWild", "SuitedMeld"]


def _suit_counts(value: Iterable[int]) -> tuple[int, int, int, int]:
    counts = tuple(value)
    if len(counts) != 4 or any(type(c) is not int or c < 0 for c in counts):
        raise ValueError(f"suits are four counts (clubs, diamonds, hearts, spades) of 0 or more, got {value!r}")
    return counts[0], counts[1], counts[2], counts[3]


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

    rank: int
    suits: tuple[int, int, int, int] = field(converter=_suit_counts)
    twos: int = 0
    jokers: int = 0
    meld: int | None = None

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

    suit: Suit = field(converter=Suit)
    low: int
    high: int


@frozen
class Extend:
    """Cards of the suit added at the ends of one of the side's sequences, to its new ends.

    Attributes:
        meld: The sequence (its identity).
        low: Its new lowest rank.
        high: Its new highest rank.
    """

    meld: int
    low: int
    high: int


@frozen
class LayWild:
    """Wild cards: a new wild meld, or onto one of the side's wild melds.

    Attributes:
        twos: 2s.
        jokers: Jokers.
        meld: The wild meld it joins, or ``None`` for a new one.
    """

    twos: int
    jokers: int = 0
    meld: int | None = None


@frozen
class Combine:
    """Two of the side's melds merged into one, which keeps the older's identity (§9.3).

    Attributes:
        first: The older meld.
        second: The other.
    """

    first: int
    second: int


@frozen
class LayBlackThrees:
    """Every black three of the hand as one group, by a player going out (§9.5).

    Attributes:
        count: The black threes.
    """

    count: int


#: A meld action of the sequence games.
SuitedMeld = LayGroup | LaySequence | Extend | LayWild | Combine | LayBlackThrees
