"""The sequence games' opening search (SEQUENCES.md §9.6, §9.12, §11.1): the rule book's cases, and exactness.

The worked examples S-5, R-2 and R-3 of §13 are asked of `canasta.suitedsearch.opening_reachable`;
then random small hands are compared with an exhaustive enumeration of every set of melds the hand
can lay (twos and jokers counted apart, suits chosen card by card), which is the search's truth.
"""

from __future__ import annotations

from itertools import product
from typing import ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import CanastaClass, suitedsearch
from canasta.cards import Kind, Suit
from canasta.meldtypes import (
    BlackThreeGroupType,
    BlackThreeShape,
    GroupShape,
    GroupType,
    MeldShape,
    MeldType,
    SequenceShape,
    SequenceType,
    WildMeldType,
    WildShape,
)
from canasta.rules import DEFAULT_CARD_VALUES, GoingOutRules
from canasta.suitedsearch import OpeningRequirement, SuitedHand, can_go_out, opening_reachable

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
    assert opening_reachable(rest, OpeningRequirement(120), SAMBA, melds=(GroupShape(13, 3),), count=30)
    without_nine = hand("AS", "AH", "2C", "TC", "JC", "6D")
    assert not opening_reachable(without_nine, OpeningRequirement(120), SAMBA, melds=(GroupShape(13, 3),), count=30)
    assert opening_reachable(without_nine, OpeningRequirement(90), SAMBA, melds=(GroupShape(13, 3),), count=30)


def test_a_pile_takes_group_is_laid_and_the_hands_other_cards_of_its_rank_may_go_elsewhere() -> None:
    """The take's three kings form a group; another K♣ of the hand may serve J♣Q♣K♣ instead of the group."""
    assert opening_reachable(hand(), OpeningRequirement(30), SAMBA, melds=(GroupShape(13, 3),), count=30)
    assert not opening_reachable(hand(), OpeningRequirement(31), SAMBA, melds=(GroupShape(13, 3),), count=30)
    clubs = hand("KC", "JC", "QC")
    kings = (GroupShape(13, 3),)
    assert opening_reachable(clubs, OpeningRequirement(30 + 30), SAMBA, melds=kings, count=30)  # KKK + J♣Q♣K♣
    assert opening_reachable(clubs, OpeningRequirement(40), SAMBA, melds=(GroupShape(13, 3),), count=30)  # KKKK
    assert not opening_reachable(clubs, OpeningRequirement(61), SAMBA, melds=(GroupShape(13, 3),), count=30)
    with pytest.raises(ValueError, match="holds a group"):
        opening_reachable(hand("QH", "AH"), OpeningRequirement(0), (SequenceType(),), melds=(GroupShape(13, 3),))


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


def test_b6a_a_wild_meld_is_a_provisional_opening_the_kings_complete() -> None:
    """B-6 (a): at 12350 (minimum 150) Jo Jo 2♣ 2♦ counts 140 and K♠K♥K♦ brings it to 170."""
    cards = hand("JK", "JK", "2C", "2D", "KS", "KH", "KD", "5C")
    assert opening_reachable(cards, OpeningRequirement(150), BOLIVIA)
    after_wild_meld = hand("KS", "KH", "KD", "5C")
    assert opening_reachable(after_wild_meld, OpeningRequirement(150), BOLIVIA, melds=(WildShape(2, 2),), count=140)
    assert not opening_reachable(hand("5C"), OpeningRequirement(150), BOLIVIA, melds=(WildShape(2, 2),), count=140)
    assert not opening_reachable(cards, OpeningRequirement(150), SAMBA)  # Samba: no wild melds; KKK Jo Jo counts 130


def test_samba_groups_take_at_most_two_wild_cards_each_so_two_groups_of_a_rank_take_more() -> None:
    """§9.3: K K 2 2 and K K Jo are two groups of kings; three kings make one group, with two wild cards."""
    four = hand("KS", "KH", "KD", "KC", "2C", "2D", "JK")
    assert opening_reachable(four, OpeningRequirement(40 + 40 + 50), SAMBA)
    three = hand("KS", "KH", "KD", "2C", "2D", "JK")
    assert opening_reachable(three, OpeningRequirement(30 + 50 + 20), SAMBA)  # the joker and a two
    assert not opening_reachable(three, OpeningRequirement(30 + 50 + 20 + 1), SAMBA)
    assert opening_reachable(three, OpeningRequirement(30 + 90), (GroupType(max_wilds=None),))  # free wilds


def test_a_hands_size_counts_every_card() -> None:
    assert hand("8H", "8H", "2C", "JK", "3S").size == 5 and hand().size == 0


def test_bad_hands_are_refused() -> None:
    with pytest.raises(ValueError, match="44 natural cards"):
        SuitedHand((0,) * 43)
    with pytest.raises(ValueError, match="red three"):
        hand("3H")
    with pytest.raises(ValueError, match="not a card"):
        hand("ZZ")


# --- exactness against every sequence of actions (the enumerations are at the end) --------------


# Hands of at most 9 cards from ranks 8 to king of two suits, with wild cards: sequences and groups compete.
_WINDOW = [(rank, suit) for rank in range(8, 14) for suit in (Suit.HEARTS, Suit.SPADES)]


def _counted(picks: list[tuple[int, Suit]]) -> list[int]:
    """The 44 counts of natural cards picked as (rank, suit), at most three of each (three packs)."""
    naturals = [0] * 44
    for rank, suit in picks:
        if naturals[(rank - 4) * 4 + suit] < 3:
            naturals[(rank - 4) * 4 + suit] += 1
    return naturals


@st.composite
def small_hands(draw: st.DrawFn) -> SuitedHand:
    picks = draw(st.lists(st.sampled_from(_WINDOW), min_size=3, max_size=8))
    naturals = _counted(picks)
    return SuitedHand(tuple(naturals), draw(st.integers(0, 2)), draw(st.integers(0, 1)))


_OPENING_MELDS = [
    GroupShape(9, 3),
    GroupShape(12, 2, 1),
    GroupShape(13, 3),
    SequenceShape(Suit.HEARTS, 9, 11),
    WildShape(3),
]


@settings(max_examples=150, deadline=None)
@given(
    cards=small_hands(),
    count=st.sampled_from([0, 30, 50, 60, 80, 90, 120]),
    classes=st.sampled_from([frozenset(), ANY_CANASTA, CLEAN_CANASTA, frozenset({CanastaClass.MIXED})]),
    with_wild_melds=st.booleans(),
    laid=st.lists(st.sampled_from(_OPENING_MELDS), max_size=2),
    keep=st.sampled_from([0, 0, 1, 2]),
)
def test_the_opening_search_agrees_with_every_sequence_of_actions(
    cards: SuitedHand,
    count: int,
    classes: frozenset[CanastaClass],
    with_wild_melds: bool,
    laid: list[MeldShape],
    keep: int,
) -> None:
    requirement = OpeningRequirement(count, classes)
    types: tuple[MeldType, ...] = (GroupType(), SequenceType())
    if with_wild_melds:
        types = (*types, WildMeldType())
    else:
        laid = [m for m in laid if not isinstance(m, WildShape)]
    so_far = sum(_value(SuitedHand.from_cards(_cards_of(m))) for m in laid)
    expected = _exhaustive_open(cards, tuple(laid), so_far, types, requirement, keep)
    assert opening_reachable(cards, requirement, types, melds=laid, count=so_far, keep=keep) == expected


@settings(max_examples=200, deadline=None)
@given(
    cards=small_hands(),
    need=st.sampled_from([-10, 0, 30, 50, 60, 90]),
    keep=st.sampled_from([0, 0, 1, 2]),
    with_wild_melds=st.booleans(),
)
def test_the_openings_quick_witness_only_says_yes_where_the_search_does(
    cards: SuitedHand, need: int, keep: int, with_wild_melds: bool
) -> None:
    # `opening_reachable` asks a quick test first (new melds of naturals alone); a "yes" there ends the search.
    types: tuple[MeldType, ...] = (GroupType(), SequenceType())
    if with_wild_melds:
        types = (*types, WildMeldType())
    table = suitedsearch._Table([], types)
    if suitedsearch._opening_witness(cards, need, table.kinds, DEFAULT_CARD_VALUES, keep):
        requirement = OpeningRequirement(max(need, 0))
        assert suitedsearch._opening(cards, requirement, table, 0, DEFAULT_CARD_VALUES, keep, (0,) * 5)


def test_the_openings_quick_witness_answers_the_plain_cases_and_leaves_the_rest_to_the_search() -> None:
    kinds = suitedsearch._Table([], SAMBA).kinds
    kings_and_a_run = hand("KH", "KS", "KC", "8H", "9H", "10H", "4D")  # 30 + 30: 8 to king count 10 each
    assert suitedsearch._opening_witness(kings_and_a_run, 60, kinds, DEFAULT_CARD_VALUES, 0)
    assert suitedsearch._opening_witness(kings_and_a_run, 60, kinds, DEFAULT_CARD_VALUES, 1)  # 6 laid, 1 kept
    assert not suitedsearch._opening_witness(kings_and_a_run, 60, kinds, DEFAULT_CARD_VALUES, 2)  # 6 + 2 > 7
    assert not suitedsearch._opening_witness(kings_and_a_run, 61, kinds, DEFAULT_CARD_VALUES, 0)
    assert suitedsearch._opening_witness(kings_and_a_run, 30, kinds, DEFAULT_CARD_VALUES, 2)  # one meld is enough
    # Two kings and a two make 50 only with a wild card: the witness does not lay wild cards, the search does.
    wild = hand("KH", "KS", "2C", "5D")
    assert not suitedsearch._opening_witness(wild, 40, kinds, DEFAULT_CARD_VALUES, 0)
    assert opening_reachable(wild, OpeningRequirement(40), SAMBA)


def _cards_of(meld: MeldShape) -> list[str]:
    """Card codes a meld of `_OPENING_MELDS` may hold (for its count)."""
    if isinstance(meld, GroupShape):
        return [f"{meld.rank}C"] * meld.naturals + ["2C"] * meld.twos + ["JK"] * meld.jokers
    if isinstance(meld, SequenceShape):
        return [f"{r}{meld.suit.symbol}" for r in meld.ranks]
    assert isinstance(meld, WildShape)
    return ["2C"] * meld.twos + ["JK"] * meld.jokers


# --- going out (§9.8, §10.5, §11.3) ---------------------------------------------------------------

TWO_CANASTAS = GoingOutRules(canastas_required=2)
WITH_ESCALERA = GoingOutRules(canastas_required=2, canastas_by_class={CanastaClass.SEQUENCE: 1})
BRAZILIAN = (GroupType(), SequenceType(going_out_max_size=11), WildMeldType(), BlackThreeGroupType())
BOLIVIA_OUT = (*BOLIVIA, BlackThreeGroupType())
SAMBA_OUT = (*SAMBA, BlackThreeGroupType())
K_CANASTA = GroupShape(13, 7)
T_MIXED = GroupShape(10, 5, 2)


def test_b3_going_out_in_bolivia_needs_an_escalera() -> None:
    """B-3: 10♣ onto 4♣-9♣ makes the escalera, J♥ discarded: out; three jacks and no escalera: not."""
    table = (K_CANASTA, T_MIXED, SequenceShape(Suit.CLUBS, 4, 9))
    assert can_go_out(hand("TC", "JH"), table, BOLIVIA_OUT, WITH_ESCALERA)
    assert not can_go_out(hand("JH", "JD", "JS"), table, BOLIVIA_OUT, WITH_ESCALERA)
    assert can_go_out(hand("JH", "JD", "JS"), table, BOLIVIA_OUT, TWO_CANASTAS)  # Samba's quota: two of any class
    # (c) an escalera and a bolivia go out.
    other = (SequenceShape(Suit.HEARTS, 7, 13), WildShape(5, 2))
    assert can_go_out(hand("4D"), other, BOLIVIA_OUT, WITH_ESCALERA)


def test_s6_the_queens_go_out_with_two_canastas_and_not_with_one() -> None:
    """S-6: samba 5♦-J♦, A A A A A 2 2 and 9 9 9; Q♥Q♠Q♦ melded and 4♣ discarded; with the samba alone, not."""
    table = (SequenceShape(Suit.DIAMONDS, 5, 11), GroupShape(14, 5, 2), GroupShape(9, 3))
    assert can_go_out(hand("QH", "QS", "QD", "4C"), table, SAMBA_OUT, TWO_CANASTAS)
    assert not can_go_out(hand("QH", "QS", "QD", "4C"), table[:1], SAMBA_OUT, TWO_CANASTAS)


def test_r5_an_escalera_grows_past_seven_only_when_going_out() -> None:
    """R-5: Q♦ and 4♦ onto 5♦-J♦ (9 cards), A♣A♥A♠ laid: out in Brazilian, never in Bolivia."""
    table = (SequenceShape(Suit.DIAMONDS, 5, 11), K_CANASTA)
    cards = hand("QD", "4D", "AC", "AH", "AS")
    assert can_go_out(cards, table, BRAZILIAN, TWO_CANASTAS)
    assert not can_go_out(cards, table, BOLIVIA_OUT, TWO_CANASTAS)  # Q♦ and 4♦ have nowhere to go
    assert can_go_out(hand("QD", "AC", "AH", "AS"), table, BOLIVIA_OUT, TWO_CANASTAS)  # Q♦ the discard


def test_combining_two_groups_makes_the_canasta_that_goes_out() -> None:
    """S-3 (4) in a going-out turn: Q♠Q♥Q♦Jo 2♥ and Q♣Q♥Q♠ combine into a mixed canasta."""
    table = (K_CANASTA, GroupShape(12, 3, 2), GroupShape(12, 3))
    assert can_go_out(hand("5C"), table, SAMBA_OUT, TWO_CANASTAS)  # combine, discard 5♣
    no_combine = (GroupType(combinable=False), SequenceType(), BlackThreeGroupType())
    assert not can_go_out(hand("5C"), table, no_combine, TWO_CANASTAS)


def test_two_wild_melds_combine_into_a_bolivia() -> None:
    """§10.1: 2♣2♦Jo and 2♠2♥2♣Jo combine into 7 wild cards, a bolivia, with no card from the hand."""
    table = (SequenceShape(Suit.HEARTS, 4, 10), WildShape(2, 1), WildShape(3, 1))
    assert can_go_out(hand("9S"), table, BOLIVIA_OUT, WITH_ESCALERA)
    assert not can_go_out(hand("9S"), table[:2], BOLIVIA_OUT, WITH_ESCALERA)


def test_black_threes_form_one_group_of_three_or_more_when_going_out() -> None:
    """§9.5: three black threes meld as the player goes out; two cannot (one may be the discard only if alone)."""
    table = (K_CANASTA, T_MIXED)
    assert can_go_out(hand("3C", "3S", "3C", "8H"), table, SAMBA_OUT, TWO_CANASTAS)
    assert not can_go_out(hand("3C", "3S", "8H"), table, SAMBA_OUT, TWO_CANASTAS)
    assert can_go_out(hand("3C"), table, SAMBA_OUT, TWO_CANASTAS)  # the black three as the final discard
    assert not can_go_out(hand("3C", "3S", "3C", "8H"), table, SAMBA, TWO_CANASTAS)  # no black-three type


def test_a_meld_the_rule_set_has_no_type_for_is_an_impossible_position() -> None:
    with pytest.raises(ValueError, match="holds a wild meld"):
        can_go_out(hand("8H"), (K_CANASTA, WildShape(3)), SAMBA_OUT, TWO_CANASTAS)
    with pytest.raises(TypeError, match="not int"):
        can_go_out(hand("8H"), (K_CANASTA, 7), SAMBA_OUT, TWO_CANASTAS)  # type: ignore[arg-type]


def test_a_wild_card_never_joins_a_canasta_when_going_out_either() -> None:
    """§9.3: with two canastas on the table, a lone 2 has nowhere to go but the discard."""
    table = (K_CANASTA, T_MIXED)
    assert can_go_out(hand("2C"), table, SAMBA_OUT, TWO_CANASTAS)  # discarded
    assert not can_go_out(hand("2C", "2D"), table, SAMBA_OUT, TWO_CANASTAS)
    assert can_go_out(hand("2C", "2D"), (*table, GroupShape(9, 3)), SAMBA_OUT, TWO_CANASTAS)  # onto 9 9 9 (5 cards)


def test_a_required_final_discard_leaves_one_card_out_of_the_melds() -> None:
    """`GoingOutRules.final_discard_required`: three black threes meld out, but not with a discard after them."""
    table = (K_CANASTA, T_MIXED)
    required = GoingOutRules(canastas_required=2, final_discard_required=True)
    assert can_go_out(hand("3C", "3S", "3C"), table, SAMBA_OUT, TWO_CANASTAS)
    assert not can_go_out(hand("3C", "3S", "3C"), table, SAMBA_OUT, required)
    assert can_go_out(hand("3C", "3S", "3C", "3S"), table, SAMBA_OUT, required)


def test_two_naturals_no_meld_can_take_refuse_going_out() -> None:
    """A natural with no card of its rank beside it, no group of its rank and no neighbour in its suit
    can only be the final discard: one goes out, two never do (the search refuses them up front)."""
    table = (K_CANASTA, T_MIXED)
    assert can_go_out(hand("5H"), table, SAMBA_OUT, TWO_CANASTAS)
    assert not can_go_out(hand("5H", "9C"), table, SAMBA_OUT, TWO_CANASTAS)
    # A neighbour of its suit, a group of its rank, or a sequence ending next to it takes one of them.
    assert can_go_out(hand("5H", "9C", "8C", "TC"), table, SAMBA_OUT, TWO_CANASTAS)  # 8-9-10 of clubs
    assert can_go_out(hand("5H", "9C"), (*table, GroupShape(9, 3)), SAMBA_OUT, TWO_CANASTAS)
    assert can_go_out(hand("5H", "9C"), (*table, SequenceShape(Suit.CLUBS, 10, 12)), SAMBA_OUT, TWO_CANASTAS)
    # With a black three to discard, a lone natural has nowhere to go.
    assert not can_go_out(hand("5H", "3C"), table, SAMBA_OUT, TWO_CANASTAS)


@attrs.frozen
class _SingleCardRuns(SequenceType):
    """A plugin's refinement that lays a sequence of a single card (a test of the refusal's soundness)."""

    name: ClassVar[str] = "runs of one"

    def valid(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        if isinstance(meld, SequenceShape) and meld.size == 1:
            return True
        return super().valid(meld, going_out=going_out)


def test_a_natural_a_refined_type_can_lay_alone_is_not_refused() -> None:
    """The up-front refusal asks the types: a sequence type that lays one card alone takes a lone natural."""
    table = (K_CANASTA, T_MIXED)
    types = (GroupType(), _SingleCardRuns(), BlackThreeGroupType())
    assert can_go_out(hand("5H", "9C"), table, types, TWO_CANASTAS)
    assert not can_go_out(hand("5H", "9C"), table, SAMBA_OUT, TWO_CANASTAS)


# --- openings and going out against every sequence of actions --------------------------------------

_TWO, _JOKER = (1, 0), (0, 1)  # a wild card's kind as (twos, jokers)


def _value(h: SuitedHand) -> int:
    values = DEFAULT_CARD_VALUES
    naturals = sum(n * values[4 + i // 4] for i, n in enumerate(h.naturals))
    return naturals + h.twos * values[Kind.TWO] + h.jokers * values[Kind.JOKER]


def _take(
    h: SuitedHand, naturals: dict[int, int], twos: int = 0, jokers: int = 0, threes: int = 0
) -> SuitedHand | None:
    rest = list(h.naturals)
    for i, n in naturals.items():
        if rest[i] < n:
            return None
        rest[i] -= n
    if twos > h.twos or jokers > h.jokers or threes > h.black_threes:
        return None
    return SuitedHand(tuple(rest), h.twos - twos, h.jokers - jokers, h.black_threes - threes)


def _moves(
    melds: tuple[MeldShape, ...], h: SuitedHand, types: tuple[MeldType, ...], going_out: bool
) -> list[tuple[tuple[MeldShape, ...], SuitedHand]]:
    """Every action of a meld phase: one card added to a meld, a meld laid from the hand, two melds combined."""
    group = next(t for t in types if isinstance(t, GroupType))
    run = next(t for t in types if isinstance(t, SequenceType))
    wild = next((t for t in types if isinstance(t, WildMeldType)), None)
    threes = next((t for t in types if isinstance(t, BlackThreeGroupType)), None)
    kind_of: dict[type, MeldType | None] = {GroupShape: group, SequenceShape: run, WildShape: wild}
    moves: list[tuple[tuple[MeldShape, ...], SuitedHand]] = []
    for i, m in enumerate(melds):
        others = melds[:i] + melds[i + 1 :]
        if isinstance(m, GroupShape):
            for s in range(4):
                rest = _take(h, {(m.rank - 4) * 4 + s: 1})
                grown = GroupShape(m.rank, m.naturals + 1, m.twos, m.jokers)
                if rest is not None and group.can_add(m, grown, going_out=going_out):
                    moves.append(((*others, grown), rest))
            for t, j in (_TWO, _JOKER):
                rest = _take(h, {}, t, j)
                grown = GroupShape(m.rank, m.naturals, m.twos + t, m.jokers + j)
                if rest is not None and group.can_add(m, grown, going_out=going_out):
                    moves.append(((*others, grown), rest))
        elif isinstance(m, SequenceShape):
            for lo, hi in ((m.low - 1, m.high), (m.low, m.high + 1)):
                r = lo if lo < m.low else hi
                if 4 <= r <= 14:
                    rest = _take(h, {(r - 4) * 4 + m.suit: 1})
                    longer = SequenceShape(m.suit, lo, hi)
                    if rest is not None and run.can_add(m, longer, going_out=going_out):
                        moves.append(((*others, longer), rest))
        elif isinstance(m, WildShape) and wild is not None:
            for t, j in (_TWO, _JOKER):
                rest = _take(h, {}, t, j)
                more = WildShape(m.twos + t, m.jokers + j)
                if rest is not None and wild.can_add(m, more, going_out=going_out):
                    moves.append(((*others, more), rest))
        for j in range(i + 1, len(melds)):
            kind = kind_of.get(type(m))
            merged = kind.combine(m, melds[j]) if kind is not None else None
            if merged is not None:
                moves.append(((*others[: j - 1], *others[j:], merged), h))
    for r in range(4, 15):
        idx = [(r - 4) * 4 + s for s in range(4)]
        for use in product(*(range(h.naturals[i] + 1) for i in idx)):
            if sum(use):
                for t in range(h.twos + 1):
                    for j in range(h.jokers + 1):
                        new_group = GroupShape(r, sum(use), t, j)
                        rest = _take(h, dict(zip(idx, use, strict=True)), t, j)
                        if rest is not None and group.valid(new_group, going_out=going_out):
                            moves.append(((*melds, new_group), rest))
    for s in range(4):
        for lo in range(4, 15):
            for hi in range(lo, 15):
                rest = _take(h, {(r - 4) * 4 + s: 1 for r in range(lo, hi + 1)})
                if rest is None:
                    break
                new_run = SequenceShape(s, lo, hi)
                if run.valid(new_run, going_out=going_out):
                    moves.append(((*melds, new_run), rest))
    if wild is not None:
        for t in range(h.twos + 1):
            for j in range(h.jokers + 1):
                rest = _take(h, {}, t, j)
                if t + j and rest is not None and wild.valid(WildShape(t, j), going_out=going_out):
                    moves.append(((*melds, WildShape(t, j)), rest))
    if going_out and threes is not None and h.black_threes:
        rest = _take(h, {}, threes=h.black_threes)
        if rest is not None and threes.valid(BlackThreeShape(h.black_threes), going_out=True):
            moves.append(((*melds, BlackThreeShape(h.black_threes)), rest))
    return moves


def _canastas(melds: tuple[MeldShape, ...], types: tuple[MeldType, ...]) -> list[int]:
    counts = [0] * len(CanastaClass)
    for m in melds:
        for kind in types:
            if kind.judges(m):
                cls = kind.canasta_class(m)
                if cls is not None:
                    counts[list(CanastaClass).index(cls)] += 1
                break
    return counts


def _exhaustive_out(
    cards: SuitedHand, table: tuple[MeldShape, ...], types: tuple[MeldType, ...], quota: GoingOutRules
) -> bool:
    """Try every action sequence of a going-out turn, then the final discard or none."""
    seen: set[tuple[tuple[MeldShape, ...], SuitedHand]] = set()

    def walk(melds: tuple[MeldShape, ...], h: SuitedHand) -> bool:
        key = (tuple(sorted(melds, key=repr)), h)
        if key in seen:
            return False
        seen.add(key)
        left = h.size
        met = quota.quota_met(_canastas(melds, types))
        if met and (left == 1 or (left == 0 and not quota.final_discard_required)):
            return True  # (a last card is the final discard)
        return any(walk(m, rest) for m, rest in _moves(melds, h, types, True))

    return walk(table, cards)


def _exhaustive_open(
    cards: SuitedHand,
    table: tuple[MeldShape, ...],
    count: int,
    types: tuple[MeldType, ...],
    need: OpeningRequirement,
    keep: int = 0,
) -> bool:
    """Try every action sequence of an opening turn until the melds count enough (with the canasta asked).

    ``keep``: the hand must then still hold that many cards.
    """
    seen: set[tuple[tuple[MeldShape, ...], SuitedHand]] = set()
    start = _value(cards)

    def walk(melds: tuple[MeldShape, ...], h: SuitedHand) -> bool:
        key = (tuple(sorted(melds, key=repr)), h)
        if key in seen:
            return False
        seen.add(key)
        bits = sum(1 << i for i, c in enumerate(_canastas(melds, types)) if c)
        if need.met(count + start - _value(h), bits) and h.size >= keep:
            return True
        return any(walk(m, rest) for m, rest in _moves(melds, h, types, False))

    return walk(table, cards)


@st.composite
def going_out_positions(draw: st.DrawFn) -> tuple[SuitedHand, tuple[MeldShape, ...]]:
    picks = draw(st.lists(st.sampled_from(_WINDOW), min_size=1, max_size=5))
    naturals = _counted(picks)
    cards = SuitedHand(tuple(naturals), draw(st.integers(0, 2)), 0, draw(st.sampled_from([0, 0, 1, 3])))
    table_choices = [
        K_CANASTA,
        T_MIXED,
        GroupShape(9, 3),
        GroupShape(9, 2, 1),
        GroupShape(12, 4, 2),
        GroupShape(12, 5),
        SequenceShape(Suit.HEARTS, 8, 12),
        SequenceShape(Suit.HEARTS, 9, 11),
        SequenceShape(Suit.SPADES, 7, 13),
        SequenceShape(Suit.SPADES, 10, 12),
        WildShape(3),
        WildShape(5),
    ]
    table = tuple(draw(st.lists(st.sampled_from(table_choices), max_size=4)))
    return cards, table


@settings(max_examples=120, deadline=None)
@given(
    position=going_out_positions(),
    quota=st.sampled_from([TWO_CANASTAS, WITH_ESCALERA, GoingOutRules(canastas_required=1)]),
    types=st.sampled_from([SAMBA_OUT, BOLIVIA_OUT, BRAZILIAN]),
)
def test_the_going_out_search_agrees_with_every_sequence_of_actions(
    position: tuple[SuitedHand, tuple[MeldShape, ...]], quota: GoingOutRules, types: tuple[MeldType, ...]
) -> None:
    cards, table = position
    if types is SAMBA_OUT:
        table = tuple(m for m in table if not isinstance(m, WildShape))  # (Samba has no wild melds)
    assert can_go_out(cards, table, types, quota) == _exhaustive_out(cards, table, types, quota)


# --- the searches' bounds on the canastas still to make ---------------------------------------------------
# A state whose canastas, with the most the rest of the search could add, miss the quota (or the opening's
# classes) is not searched: seeded play found a Brazilian meld phase (a bound player, 64 cards, two canastas
# needed, one an escalera) whose legal list took minutes. The bounds change no answer.


class _QuotaOfItsOwn(GoingOutRules):
    """The same quota as a class of its own: `can_go_out` then reads no bound (it knows only the rules' own)."""


@st.composite
def large_positions(draw: st.DrawFn) -> tuple[SuitedHand, tuple[MeldShape, ...]]:
    picks = draw(st.lists(st.tuples(st.integers(4, 14), st.sampled_from(Suit)), min_size=8, max_size=22))
    naturals = _counted(picks)
    cards = SuitedHand(tuple(naturals), draw(st.integers(0, 3)), draw(st.integers(0, 2)), draw(st.sampled_from([0, 3])))
    choices = [K_CANASTA, T_MIXED, GroupShape(9, 3), SequenceShape(Suit.SPADES, 7, 9), SequenceShape(Suit.CLUBS, 9, 12)]
    return cards, tuple(draw(st.lists(st.sampled_from(choices), max_size=3, unique=True)))


@settings(max_examples=60, deadline=None)
@given(
    position=large_positions(),
    quota=st.sampled_from([TWO_CANASTAS, WITH_ESCALERA, GoingOutRules(canastas_required=3)]),
    types=st.sampled_from([BOLIVIA_OUT, BRAZILIAN]),
)
def test_the_going_out_bound_changes_no_answer_on_large_hands(
    position: tuple[SuitedHand, tuple[MeldShape, ...]], quota: GoingOutRules, types: tuple[MeldType, ...]
) -> None:
    cards, table = position
    unbounded = _QuotaOfItsOwn(
        canastas_required=quota.canastas_required, canastas_by_class=dict(quota.canastas_by_class)
    )
    assert can_go_out(cards, table, types, quota) == can_go_out(cards, table, types, unbounded)


def _large_brazilian_hand() -> SuitedHand:
    """The position seeded play found (a bound player of Brazilian canasta), spades 9-11 just laid: 61 cards left."""
    naturals = (3, 2, 3, 1, 1, 3, 3, 0, 3, 1, 1, 0, 0, 2, 0, 3, 0, 1, 0, 1, 1, 0, 0, 1)
    naturals += (1, 1, 2, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 3, 0, 2, 3, 2, 0)
    return SuitedHand(naturals, 4, 2, 3)


def test_a_large_hand_goes_out_with_the_escalera_it_can_still_make() -> None:
    table = (
        GroupShape(11, 5, 2),
        SequenceShape(Suit.SPADES, 12, 14),
        SequenceShape(Suit.CLUBS, 7, 9),
        GroupShape(12, 3),
        GroupShape(8, 3),
        SequenceShape(Suit.SPADES, 9, 11),
    )
    cards = _large_brazilian_hand()
    assert can_go_out(cards, table, BRAZILIAN, WITH_ESCALERA)
    # Every other rank gone and one card of each kept: no suit holds two ranks in a row, no escalera can be made.
    broken = SuitedHand(tuple(min(n, 1) if (i // 4) % 2 else 0 for i, n in enumerate(cards.naturals)), 4, 2, 3)
    assert not can_go_out(broken, table[:1], BRAZILIAN, WITH_ESCALERA)
    assert can_go_out(broken, table[:1], BRAZILIAN, TWO_CANASTAS) == can_go_out(
        broken, table[:1], BRAZILIAN, _QuotaOfItsOwn(canastas_required=2)
    )


def test_the_bound_counts_what_each_part_of_the_search_could_still_make() -> None:
    # Hearts 4 to 10 (an escalera's seven cards), three kings and one joker. The search places the suits in
    # index order (clubs, diamonds, hearts, spades), then the groups and wild melds: one level per step.
    naturals = [0] * 44
    for rank in range(4, 11):
        naturals[(rank - 4) * 4 + Suit.HEARTS] = 1
    naturals[(13 - 4) * 4 + Suit.CLUBS] = 3
    cards = SuitedHand(tuple(naturals), 0, 1)
    table = suitedsearch._Table([], BRAZILIAN)
    per_suit = [table.sequence_outcomes(cards.naturals, suit, 2, going_out=True) for suit in range(4)]
    held = tuple(sum(naturals[r * 4 : r * 4 + 4]) for r in range(11))
    reach = suitedsearch._reach(per_suit, held, table, 1, 2)
    sequence = list(CanastaClass).index(CanastaClass.SEQUENCE)
    # Levels 0 to 2 still have hearts to place: an escalera; levels 3 and 4 (spades, then the groups) do not.
    assert [r[sequence] for r in reach] == [1, 1, 1, 0, 0]
    # Three kings and a joker make no canasta of any class: the groups' part of the bound is empty.
    assert sum(reach[4]) == 0


def test_an_opening_that_needs_a_clean_canasta_is_refused_where_no_meld_could_make_one() -> None:
    """R-3's band on a large hand: no rank with seven naturals, no suit with seven ranks in a row, three wild cards."""
    nine_thousand = OpeningRequirement(0, CLEAN_CANASTA)
    naturals = [0] * 44
    for rank in range(4, 15):
        for suit in range(4):
            if (rank + suit) % 6:  # (each suit misses every sixth rank: its runs stop at five cards)
                naturals[(rank - 4) * 4 + suit] = 1
    cards = SuitedHand(tuple(naturals), 2, 1)
    assert not opening_reachable(cards, nine_thousand, BRAZILIAN, keep=2)
    assert not opening_reachable(cards, OpeningRequirement(0, ANY_CANASTA), BRAZILIAN, keep=2)
    # Two more jacks: five and two 2s make a mixed canasta, which the 7000 band takes and the 9000 band does not.
    jacks = list(naturals)
    jacks[(11 - 4) * 4 + Suit.CLUBS] += 1
    jacks[(11 - 4) * 4 + Suit.HEARTS] += 1
    assert sum(jacks[(11 - 4) * 4 : (11 - 4) * 4 + 4]) == 5
    with_jacks = SuitedHand(tuple(jacks), 2, 1)
    assert opening_reachable(with_jacks, OpeningRequirement(0, ANY_CANASTA), BRAZILIAN, keep=2)
    assert not opening_reachable(with_jacks, nine_thousand, BRAZILIAN, keep=2)
    # Two more again: seven natural jacks, a natural canasta: the 9000 band's opening is there.
    jacks[(11 - 4) * 4 + Suit.CLUBS] += 1
    jacks[(11 - 4) * 4 + Suit.HEARTS] += 1
    assert opening_reachable(SuitedHand(tuple(jacks), 2, 1), nine_thousand, BRAZILIAN, keep=2)
