"""The sequence games' opening search (SEQUENCES.md §9.6, §9.12, §11.1): the rule book's cases, and exactness.

The worked examples S-5, R-2 and R-3 of §13 are asked of `canasta.suitedsearch.opening_reachable`;
then random small hands are compared with an exhaustive enumeration of every set of melds the hand
can lay (twos and jokers counted apart, suits chosen card by card), which is the search's truth.
"""

from __future__ import annotations

from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import CanastaClass
from canasta.cards import Kind, Suit
from canasta.meldtypes import GroupShape, GroupType, SequenceShape, SequenceType, WildMeldType, WildShape
from canasta.rules import DEFAULT_CARD_VALUES
from canasta.suitedsearch import NATURAL_RANKS, OpeningRequirement, SuitedHand, opening_reachable

SAMBA = (GroupType(), SequenceType())
BOLIVIA = (*SAMBA, WildMeldType())
ANY_CANASTA = frozenset(CanastaClass)
CLEAN_CANASTA = frozenset({CanastaClass.NATURAL, CanastaClass.SEQUENCE, CanastaClass.WILD})


def hand(*codes: str) -> SuitedHand:
    return SuitedHand.from_cards(codes)


def test_s5a_three_melds_make_150_and_not_160() -> None:
    """S-5 (a): A♣A♦A♥2♠ (80), 10♥ to K♥ (40), Q♣Q♦Q♠ (30): 150 at 7000; refused under samba-160."""
    cards = hand("AC", "AD", "AH", "2S", "TH", "JH", "QH", "KH", "QC", "QD", "QS", "5C", "9D")
    assert opening_reachable(cards, OpeningRequirement(150), SAMBA)
    assert not opening_reachable(cards, OpeningRequirement(160), SAMBA)
    # Without sequences (the hearts then make no meld) the same cards reach only 110.
    assert opening_reachable(cards, OpeningRequirement(120), (GroupType(),))  # QQQQ: 80 + 40
    assert not opening_reachable(cards, OpeningRequirement(121), (GroupType(),))


def test_s5b_a_pile_take_counts_the_top_card_and_the_hand_never_the_pile() -> None:
    """S-5 (b), (c): K♠ on top, K♥K♦ shown: 30 + A♠A♥2♣ 60 + 9♣10♣J♣ 30 = 120; without 9♣ only 90."""
    rest = hand("AS", "AH", "2C", "9C", "TC", "JC", "6D")  # the hand without the pair
    assert opening_reachable(rest, OpeningRequirement(120), SAMBA, forced_group=13)
    without_nine = hand("AS", "AH", "2C", "TC", "JC", "6D")
    assert not opening_reachable(without_nine, OpeningRequirement(120), SAMBA, forced_group=13)
    assert opening_reachable(without_nine, OpeningRequirement(90), SAMBA, forced_group=13)


def test_a_pile_takes_group_is_laid_and_the_hands_other_cards_of_its_rank_may_go_elsewhere() -> None:
    """The take's three kings form a group; another K♣ of the hand may serve J♣Q♣K♣ instead of the group."""
    assert opening_reachable(hand(), OpeningRequirement(30), SAMBA, forced_group=13)
    assert not opening_reachable(hand(), OpeningRequirement(31), SAMBA, forced_group=13)
    clubs = hand("KC", "JC", "QC")
    assert opening_reachable(clubs, OpeningRequirement(30 + 30), SAMBA, forced_group=13)  # KKK + J♣Q♣K♣
    assert opening_reachable(clubs, OpeningRequirement(40), SAMBA, forced_group=13)  # KKKK
    assert not opening_reachable(clubs, OpeningRequirement(61), SAMBA, forced_group=13)
    assert not opening_reachable(hand("QH", "AH"), OpeningRequirement(0), (SequenceType(),), forced_group=13)


def test_r2_the_bands_at_7000_and_8000() -> None:
    """R-2: a canasta of any class (7000); a canasta and 200 (8000)."""
    fours = ("4C", "4D", "4H", "4S", "4C", "2D", "2H")
    assert opening_reachable(hand(*fours), OpeningRequirement(0, ANY_CANASTA), BOLIVIA)
    no_canasta = hand("AS", "AH", "AD", "2C", "KS", "KH", "KD", "JK", "QS", "QH", "QD", "QC")
    assert opening_reachable(no_canasta, OpeningRequirement(200), BOLIVIA)  # its count is 200...
    assert not opening_reachable(no_canasta, OpeningRequirement(0, ANY_CANASTA), BOLIVIA)  # ...but no canasta
    full = hand(*fours, "AS", "AH", "AD", "AC", "KS", "KH", "KD", "JK")
    assert opening_reachable(full, OpeningRequirement(200, ANY_CANASTA), BOLIVIA)  # 65 + 80 + 80
    without_kings = hand(*fours, "AS", "AH", "AD", "AC")
    assert not opening_reachable(without_kings, OpeningRequirement(200, ANY_CANASTA), BOLIVIA)  # 145
    assert opening_reachable(without_kings, OpeningRequirement(145, ANY_CANASTA), BOLIVIA)


def test_r3_the_9000_band_wants_a_clean_canasta() -> None:
    """R-3: a mixed canasta does not open; an escalera or a wild canasta does."""
    nines = hand("9C", "9D", "9H", "9S", "9C", "2D", "2H")
    assert not opening_reachable(nines, OpeningRequirement(0, CLEAN_CANASTA), BOLIVIA)
    escalera = hand("8D", "9D", "TD", "JD", "QD", "KD", "AD")
    assert opening_reachable(escalera, OpeningRequirement(0, CLEAN_CANASTA), BOLIVIA)
    wild = hand("2C", "2D", "2H", "2S", "2C", "JK", "JK")
    assert opening_reachable(wild, OpeningRequirement(0, CLEAN_CANASTA), BOLIVIA)
    assert not opening_reachable(wild, OpeningRequirement(0, CLEAN_CANASTA), SAMBA)  # Samba: no wild melds


def test_samba_groups_take_at_most_two_wild_cards_each_so_two_groups_of_a_rank_take_more() -> None:
    """§9.3: K K 2 2 and K K Jo are two groups of kings; three kings make one group, with two wild cards."""
    four = hand("KS", "KH", "KD", "KC", "2C", "2D", "JK")
    assert opening_reachable(four, OpeningRequirement(40 + 40 + 50), SAMBA)
    three = hand("KS", "KH", "KD", "2C", "2D", "JK")
    assert opening_reachable(three, OpeningRequirement(30 + 50 + 20), SAMBA)  # the joker and a two
    assert not opening_reachable(three, OpeningRequirement(30 + 50 + 20 + 1), SAMBA)
    assert opening_reachable(three, OpeningRequirement(30 + 90), (GroupType(max_wilds=None),))  # free wilds


def test_bad_hands_are_refused() -> None:
    with pytest.raises(ValueError, match="44 natural cards"):
        SuitedHand((0,) * 43)
    with pytest.raises(ValueError, match="red three"):
        hand("3H")
    with pytest.raises(ValueError, match="not a card"):
        hand("ZZ")


# --- exactness against an exhaustive enumeration ------------------------------------------------


@cache
def _all_melds(
    cards: tuple[int, ...],
    twos: int,
    jokers: int,
    groups: GroupType,
    sequences: SequenceType,
    wilds: WildMeldType | None,
) -> tuple[tuple[tuple[int, ...], int, int, int, CanastaClass | None], ...]:
    """Every meld the cards can make: (naturals used by index, twos, jokers, count, class)."""
    found = []
    values = DEFAULT_CARD_VALUES
    for r, rank in enumerate(NATURAL_RANKS):
        idx = [r * 4 + s for s in range(4)]
        for use in product(*(range(cards[i] + 1) for i in idx)):
            n = sum(use)
            if n == 0:
                continue
            for t in range(twos + 1):
                for j in range(jokers + 1):
                    group = GroupShape(rank, n, t, j)
                    if groups.valid(group):
                        used = [0] * 44
                        for i, u in zip(idx, use, strict=True):
                            used[i] = u
                        count = n * values[rank] + t * values[Kind.TWO] + j * values[Kind.JOKER]
                        found.append((tuple(used), t, j, count, groups.canasta_class(group)))
    for suit in Suit:
        for lo in range(len(NATURAL_RANKS)):
            for hi in range(lo, len(NATURAL_RANKS)):
                run = SequenceShape(suit, NATURAL_RANKS[lo], NATURAL_RANKS[hi])
                if sequences.valid(run) and all(cards[r * 4 + suit] for r in range(lo, hi + 1)):
                    used = [0] * 44
                    for r in range(lo, hi + 1):
                        used[r * 4 + suit] = 1
                    count = sum(values[NATURAL_RANKS[r]] for r in range(lo, hi + 1))
                    found.append((tuple(used), 0, 0, count, sequences.canasta_class(run)))
    if wilds is not None:
        for t in range(twos + 1):
            for j in range(jokers + 1):
                shape = WildShape(t, j)
                if wilds.valid(shape):
                    count = t * values[Kind.TWO] + j * values[Kind.JOKER]
                    found.append(((0,) * 44, t, j, count, wilds.canasta_class(shape)))
    return tuple(found)


def _exhaustive(
    cards: SuitedHand, requirement: OpeningRequirement, wilds: WildMeldType | None, forced: int | None = None
) -> bool:
    groups, sequences = GroupType(), SequenceType()
    seen: set[tuple[tuple[int, ...], int, int, int, frozenset[CanastaClass]]] = set()

    def walk(left: tuple[int, ...], twos: int, jokers: int, count: int, classes: frozenset[CanastaClass]) -> bool:
        bits = sum(1 << list(CanastaClass).index(c) for c in classes)
        if requirement.met(count, bits):
            return True
        key = (left, twos, jokers, count, classes)
        if key in seen:
            return False
        seen.add(key)
        for used, t, j, gained, cls in _all_melds(left, twos, jokers, groups, sequences, wilds):
            rest = tuple(a - b for a, b in zip(left, used, strict=True))
            more = classes | {cls} if cls is not None else classes
            if walk(rest, twos - t, jokers - j, count + gained, more):
                return True
        return False

    if forced is None:
        return walk(cards.naturals, cards.twos, cards.jokers, 0, frozenset())
    # A pile take: the top card and the pair (three naturals of the rank, not in the hand) form a
    # group with any of the hand's naturals of the rank and wild cards; then the rest as before.
    idx = [(forced - 4) * 4 + suit for suit in range(4)]
    for use in product(*(range(cards.naturals[i] + 1) for i in idx)):
        for t in range(cards.twos + 1):
            for j in range(cards.jokers + 1):
                group = GroupShape(forced, 3 + sum(use), t, j)
                if not groups.valid(group):
                    continue
                rest = list(cards.naturals)
                for i, u in zip(idx, use, strict=True):
                    rest[i] -= u
                values = DEFAULT_CARD_VALUES
                count = group.naturals * values[forced] + t * values[Kind.TWO] + j * values[Kind.JOKER]
                cls = groups.canasta_class(group)
                made = frozenset() if cls is None else frozenset({cls})
                if walk(tuple(rest), cards.twos - t, cards.jokers - j, count, made):
                    return True
    return False


# Hands of at most 9 cards from ranks 8 to king of two suits, with wild cards: sequences and groups compete.
_WINDOW = [(rank, suit) for rank in range(8, 14) for suit in (Suit.HEARTS, Suit.SPADES)]


@st.composite
def small_hands(draw: st.DrawFn) -> SuitedHand:
    picks = draw(st.lists(st.sampled_from(_WINDOW), min_size=3, max_size=8))
    naturals = [0] * 44
    for rank, suit in picks:
        if naturals[(rank - 4) * 4 + suit] < 3:
            naturals[(rank - 4) * 4 + suit] += 1
    return SuitedHand(tuple(naturals), draw(st.integers(0, 2)), draw(st.integers(0, 1)))


@settings(max_examples=150, deadline=None)
@given(
    cards=small_hands(),
    count=st.sampled_from([0, 30, 50, 60, 80, 90, 120]),
    classes=st.sampled_from([frozenset(), ANY_CANASTA, CLEAN_CANASTA, frozenset({CanastaClass.MIXED})]),
    with_wild_melds=st.booleans(),
    forced=st.sampled_from([None, None, 9, 11]),
)
def test_the_search_agrees_with_every_set_of_melds_the_hand_can_lay(
    cards: SuitedHand, count: int, classes: frozenset[CanastaClass], with_wild_melds: bool, forced: int | None
) -> None:
    requirement = OpeningRequirement(count, classes)
    wilds = WildMeldType() if with_wild_melds else None
    expected = _exhaustive(cards, requirement, wilds, forced)
    types = (GroupType(), SequenceType()) if wilds is None else (GroupType(), SequenceType(), wilds)
    assert opening_reachable(cards, requirement, types, forced_group=forced) == expected
