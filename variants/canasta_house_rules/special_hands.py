"""The special hands of club modern American (the rule book's club form): compositions and values.

A special hand is 14 cards of exact composition. For special hands a card has
one of 14 **kinds**: the natural ranks 4 to ace, the three (either colour), the
2 and the joker; a **group** is the cards of one kind, so the groups of a hand
are of pairwise different kinds, a wild group is all 2s or all jokers, and no
group mixes naturals with wild cards. (The one exception: the 5 wild cards of
`dream_plus_5` may mix 2s and jokers.) Only the ``straight`` holds a three.

This module decides compositions: each `canasta.SpecialHand` of the two tables
carries its test, and `matching_hands` and `best_hand` apply them to a hand's
card counts. The house rules ``american-special-hands`` and
``american-special-hands-pagat`` list these tables in the rules
(`canasta.Rules.special_hands`), and the engine offers their declaration
(`canasta.DeclareSpecialHand`, `canasta.declaration`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import field, frozen

from canasta import Kind, SpecialHand
from canasta.special import HAND_SIZE, best_of

__all__ = ["CLA_HANDS", "PAGAT_HANDS", "SpecialHand", "best_hand", "matching_hands"]

_NATURALS = tuple(range(int(Kind.FOUR), int(Kind.ACE) + 1))


def _shape(counts: Sequence[int]) -> tuple[tuple[int, ...], int, int, int]:
    """The natural group sizes (largest first), 2s, jokers and threes of a hand's counts."""
    last = _LAST[0]
    if last[0] is counts:
        return last[1]  # the engine passes one tuple to every test of a table (`canasta.special.best_of`)
    shape = _shape_of(counts)
    if type(counts) is tuple:
        _LAST[0] = (counts, shape)  # (one assignment of a pair: a thread sees its own pair or another whole one)
    return shape


def _shape_of(counts: Sequence[int]) -> tuple[tuple[int, ...], int, int, int]:
    naturals = tuple(sorted((counts[k] for k in _NATURALS if counts[k]), reverse=True))
    return naturals, counts[Kind.TWO], counts[Kind.JOKER], counts[Kind.RED_THREE] + counts[Kind.BLACK_THREE]


# The last tuple of counts `_shape` was asked about, and its shape (kept alive here, so ``is`` compares it
# safely): the tests of a table share one shape computation per hand, where a cache by value would hash
# the counts again for each test and would rarely be hit again (almost every hand's counts are new).
_LAST: list[tuple[object, tuple[tuple[int, ...], int, int, int]]] = [(object(), ((), 0, 0, 0))]


def _wild_groups(twos: int, jokers: int) -> tuple[int, ...]:
    return tuple(sorted((w for w in (twos, jokers) if w), reverse=True))


def _descending(sizes: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(sizes, reverse=True))


# The tests are frozen values, not closures, so that compiled rules pickle (`canasta.SpecialHand.matches`).


@frozen
class _Groups:
    """Natural groups of exactly these sizes and wild groups (all 2s or all jokers) of exactly these."""

    naturals: tuple[int, ...] = field(converter=_descending)
    wild: tuple[int, ...] = field(default=(), converter=_descending)

    def __call__(self, counts: Sequence[int]) -> bool:
        nat, twos, jokers, threes = _shape(counts)
        return not threes and nat == self.naturals and _wild_groups(twos, jokers) == self.wild


@frozen
class _AnyGroups:
    """Groups of exactly these sizes, each natural or wild (all 2s or all jokers)."""

    sizes: tuple[int, ...] = field(converter=_descending)

    def __call__(self, counts: Sequence[int]) -> bool:
        nat, twos, jokers, threes = _shape(counts)
        return (
            not threes
            and len(nat) + bool(twos) + bool(jokers) == len(self.sizes)
            and (_descending(nat + _wild_groups(twos, jokers)) == self.sizes)
        )


@frozen
class _Pairs:
    """Seven pairs: AA and 77 where asked, exactly these wild pairs, and ``others`` other natural pairs."""

    aces_sevens: bool
    twos: int
    jokers: int
    others: int

    def __call__(self, counts: Sequence[int]) -> bool:
        nat, have_twos, have_jokers, threes = _shape(counts)
        if threes or have_twos != self.twos or have_jokers != self.jokers:
            return False
        if nat and (nat[0] != 2 or nat[-1] != 2):
            return False  # (largest first: every group is a pair)
        if self.aces_sevens and not (counts[Kind.ACE] == 2 and counts[Kind.SEVEN] == 2):
            return False
        return len(nat) == self.others + (2 if self.aces_sevens else 0)


def _straight(counts: Sequence[int]) -> bool:
    nat, twos, jokers, threes = _shape(counts)
    return len(nat) == len(_NATURALS) and all(n == 1 for n in nat) and (twos, jokers, threes) == (1, 1, 1)


_PAIRS_TWOS = _Pairs(True, 2, 0, 4)
_PAIRS_JOKERS = _Pairs(True, 0, 2, 4)


def _wild_pairs(counts: Sequence[int]) -> bool:
    return _PAIRS_TWOS(counts) or _PAIRS_JOKERS(counts)


def _dream_plus_5(counts: Sequence[int]) -> bool:
    nat, twos, jokers, threes = _shape(counts)
    return not threes and nat == (5, 4) and twos + jokers == 5  # the five wild cards may mix 2s and jokers


def _screen(counts: Sequence[int]) -> bool:
    """A necessary condition of every test of this module (`canasta.SpecialHand.screen`), from the number of groups.

    Without a three, the hands are 3 groups (dream hands), 4 (garbage, quads,
    blast off, dream hand +5 with both wild kinds), 5 (zip code, triples) or 7
    (the pairs); with a three, only the straight: one three and 13 other groups.
    A hand of 14 random cards has 8 to 10 groups: this refuses it at once.
    """
    # (The kinds as ints: asked of every hand of 14 cards a side without melds holds after a stock draw,
    # where an enum member's look-up and its index cost more than the count.)
    red = counts[_RED_THREE]
    black = counts[_BLACK_THREE]
    groups = len(counts) - counts.count(0) - (red > 0) - (black > 0)
    if red or black:
        return red + black == 1 and groups == 13
    return groups in _GROUP_COUNTS


#: The numbers of groups (natural and wild, no three) of the hands without a three (see `_screen`).
_GROUP_COUNTS = frozenset({3, 4, 5, 7})
_RED_THREE = int(Kind.RED_THREE)
_BLACK_THREE = int(Kind.BLACK_THREE)


def _hand(
    id: str,
    title: str,
    value: int,
    composition: str,
    wins_game: bool = False,
    *,
    matches: Callable[[Sequence[int]], bool],
) -> SpecialHand:
    """A special hand of this module, screened by `_screen`."""
    return SpecialHand(id, title, value, composition, wins_game, matches=matches, screen=_screen)


_PAIRS = _hand("pairs", "Pairs", 2500, "7 natural pairs", matches=_Pairs(False, 0, 0, 7))
_STRAIGHT = _hand(
    "straight", "Straight", 3000, "one card of each kind: 4 to ace, a three, a 2 and a joker", matches=_straight
)
_GARBAGE = _Groups((4, 4, 3, 3))

#: The Canasta League of America's eleven hands, in the rule book's order.
CLA_HANDS: tuple[SpecialHand, ...] = (
    _PAIRS,
    _hand(
        "wild_pairs",
        "Wild Pairs",
        2000,
        "AA, 77, one wild pair (22 or two jokers), 4 other natural pairs",
        matches=_wild_pairs,
    ),
    _hand(
        "miami_pairs",
        "Miami Pairs",
        2500,
        "AA, 77, 22, two jokers, 3 other natural pairs",
        matches=_Pairs(True, 2, 2, 3),
    ),
    _hand(
        "zip_code",
        "Zip Code",
        2500,
        "groups of 2, 2, 3, 3 and 4 cards, each natural or wild",
        matches=_AnyGroups((2, 2, 3, 3, 4)),
    ),
    _STRAIGHT,
    _hand("garbage", "Garbage", 3000, "natural groups of 4, 4, 3 and 3", matches=_GARBAGE),
    _hand(
        "blast_off",
        "Blast Off",
        3000,
        "groups of 5, 4, 3 and 2 cards, each natural or wild",
        matches=_AnyGroups((5, 4, 3, 2)),
    ),
    _hand("triples", "Triples", 3500, "4 natural groups of 3 and a wild pair", matches=_Groups((3, 3, 3, 3), (2,))),
    _hand("quads", "Quads", 3500, "3 natural groups of 4 and a wild pair", matches=_Groups((4, 4, 4), (2,))),
    _hand(
        "dream_plus_4",
        "Dream Hand +4",
        8500,
        "2 natural groups of 5 and 4 matching wild cards",
        True,
        matches=_Groups((5, 5), (4,)),
    ),
    _hand(
        "dream_plus_5",
        "Dream Hand +5",
        8500,
        "a natural group of 5, one of 4, and any 5 wild cards",
        True,
        matches=_dream_plus_5,
    ),
)

#: Pagat's four hands (the form ``pagat``).
PAGAT_HANDS: tuple[SpecialHand, ...] = (
    _STRAIGHT,
    _PAIRS,
    _hand(
        "pairs_twos",
        "Pairs with twos",
        2000,
        "7 pairs of different kinds including 22, 77 and AA, no joker",
        matches=_Pairs(True, 2, 0, 4),
    ),
    _hand("garbage", "Garbage", 2000, "natural groups of 4, 4, 3 and 3", matches=_GARBAGE),
)


def matching_hands(counts: Sequence[int], hands: Sequence[SpecialHand] = CLA_HANDS) -> list[SpecialHand]:
    """Every special hand of a table that a hand of 14 cards forms.

    Args:
        counts: The hand's card counts, 15 indexed by `canasta.Kind`.
        hands: The form's table (`CLA_HANDS` or `PAGAT_HANDS`).

    Returns:
        The hands it forms, in the table's order (none unless it holds exactly 14 cards).

    Raises:
        ValueError: If ``counts`` does not have 15 non-negative entries.
    """
    if len(counts) != len(Kind) or any(c < 0 for c in counts):
        raise ValueError(f"15 non-negative card counts (one per Kind) expected, got {list(counts)}")
    if sum(counts) != HAND_SIZE:
        return []
    return [hand for hand in hands if hand.matches(counts)]


def best_hand(counts: Sequence[int], hands: Sequence[SpecialHand] = CLA_HANDS) -> SpecialHand | None:
    """The special hand a hand of 14 cards scores as: the highest value it matches (the rule book's choice).

    Args:
        counts: The hand's card counts, 15 indexed by `canasta.Kind`.
        hands: The form's table (`CLA_HANDS` or `PAGAT_HANDS`).

    Returns:
        The hand, or ``None`` if it forms none (the first in table order among equal values).
    """
    matching_hands(counts, hands)  # the same validation of the counts
    return best_of(hands, counts)
