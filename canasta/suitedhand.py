"""A hand counted by (rank, suit), and what an initial meld needs: the sequence games' search inputs.

The values `canasta.suitedsearch`'s searches and `canasta.suitedmelds`' legal-move
generator read (`SEQUENCES.md` §9 to §12). They live apart from those modules,
which the compiled engine compiles, because they are public values with
checking constructors (`attrs` converters) that stay plain Python classes.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import field, frozen

from canasta.canastaclass import CLASS_BIT, CanastaClass
from canasta.cards import NATURAL_INTS, Card, Kind, Suit, parse_card

__all__ = ["OpeningRequirement", "SuitedHand"]

# The natural ranks, 4 to the ace (`canasta.cards.NATURAL_INTS`; `canasta.meldtypes`, whose types read
# these hands, is not imported here).
_LOWEST = NATURAL_INTS[0]
_RANKS = len(NATURAL_INTS)
_SUITS = len(Suit)


def _counts(value: Iterable[int]) -> tuple[int, ...]:
    counts = tuple(value)
    if len(counts) != _RANKS * _SUITS:
        raise ValueError(f"a suited hand counts 44 natural cards (11 ranks x 4 suits), got {len(counts)}")
    if any(type(c) is not int or c < 0 for c in counts):
        raise ValueError("a suited hand's counts are non-negative ints")
    return counts


@frozen
class SuitedHand:
    """A hand counted by (rank, suit) for its natural cards, and by kind for the rest.

    Attributes:
        naturals: 44 counts, index ``(rank - 4) * 4 + suit``.
        twos: Its 2s (their suits never matter).
        jokers: Its jokers.
        black_threes: Its black threes.
    """

    naturals: tuple[int, ...] = field(converter=_counts)
    twos: int = 0
    jokers: int = 0
    black_threes: int = 0

    @classmethod
    def from_cards(cls, cards: Iterable[Card | str]) -> SuitedHand:
        """Count cards (`canasta.Card` values, or codes `canasta.cards.parse_card` reads: ``"8H"``, ``"JK"``).

        Red threes are refused: they are never in a hand when melds are laid.

        Raises:
            ValueError: For a red three or an unreadable code.
        """
        naturals = [0] * (_RANKS * _SUITS)
        twos = jokers = black = 0
        for card in cards:
            if isinstance(card, str):
                card = Card(*parse_card(card))
            kind = card.kind
            if kind is Kind.JOKER:
                jokers += 1
            elif kind is Kind.TWO:
                twos += 1
            elif kind is Kind.BLACK_THREE:
                black += 1
            elif kind is Kind.RED_THREE:
                raise ValueError("a red three is never in a hand that melds")
            else:
                assert card.suit is not None
                naturals[(card.rank - _LOWEST) * _SUITS + card.suit] += 1
        return cls(tuple(naturals), twos, jokers, black)

    @classmethod
    def counted(cls, naturals: tuple[int, ...], twos: int, jokers: int, black_threes: int) -> SuitedHand:
        """A hand from counts the engine made (sound by construction): no check of each count.

        The searches and the legal-move generator make many hands; the checks of the
        public constructor would cost more than the work on them.
        """
        hand = object.__new__(cls)
        object.__setattr__(hand, "naturals", naturals)
        object.__setattr__(hand, "twos", twos)
        object.__setattr__(hand, "jokers", jokers)
        object.__setattr__(hand, "black_threes", black_threes)
        return hand

    def of_suit(self, suit: Suit) -> tuple[int, ...]:
        """The counts of one suit's naturals, 4 to the ace."""
        return self.naturals[suit::_SUITS]

    @property
    def size(self) -> int:
        """The hand's number of cards."""
        return sum(self.naturals) + self.twos + self.jokers + self.black_threes

    def plus(self, more: SuitedHand) -> SuitedHand:
        """This hand with ``more`` cards (a taken pile's, say) added."""
        naturals = tuple(a + b for a, b in zip(self.naturals, more.naturals, strict=True))
        return SuitedHand.counted(
            naturals, self.twos + more.twos, self.jokers + more.jokers, self.black_threes + more.black_threes
        )

    def of_rank(self, rank: int) -> int:
        """The naturals of one rank, all suits."""
        start = (rank - _LOWEST) * _SUITS
        return sum(self.naturals[start : start + _SUITS])


@frozen
class OpeningRequirement:
    """What an initial meld must contain (Samba's count; Brazilian canasta's bands, §11.1).

    Attributes:
        count: The least count of the cards laid (0: none).
        canasta_classes: A canasta of one of these classes must be among the
            melds laid (``frozenset()``: none needed).
    """

    count: int = 0
    canasta_classes: frozenset[CanastaClass] = frozenset()

    def met(self, count: int, classes: int) -> bool:
        """Whether melds of this count, making canastas of these classes (a bit per class), meet it."""
        if count < self.count:
            return False
        if not self.canasta_classes:
            return True
        return any(classes & CLASS_BIT[c] for c in self.canasta_classes)
