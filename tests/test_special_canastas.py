"""Canastas of a class of their own, and a packet's red threes laid out without replacement.

Two concepts of the plugin API that the Pierson family's Hand and Foot (`HAND-AND-FOOT.md` §8.13,
preset ``pierson-family``) needs, each tested on ``hand-and-foot`` with a small test plugin:

- `canasta.MeldRules.special_ranks`: natural canastas of these ranks are `canasta.CanastaClass.SPECIAL`
  (Pierson's natural sevens: 1500 through `canasta.CanastaBonuses.natural_by_rank`, and a quota of
  1 wild, 1 sevens, 1 other clean and 1 dirty book), never `canasta.CanastaClass.NATURAL`;
- `canasta.PacketRules.replace_threes`: a foot's red threes laid out without replacement.

Positions are built as in ``test_hand_and_foot.py`` (seats 0 and 2 against 1 and 3, everyone in the foot).
"""

from __future__ import annotations

import random
from collections.abc import Generator

import attrs
import pytest
from helpers import check_conservation, play_random_hand
from test_hand_and_foot import CLEAN_K, CLEAN_Q, DIRTY_J, WILD, _position
from test_hand_and_foot import RULES as BASE

import canasta
from canasta import (
    AnswerGoOut,
    AskGoOut,
    CanastaBonuses,
    CanastaClass,
    GoingOutRules,
    HandState,
    IllegalActionError,
    Kind,
    Meld,
    MeldRules,
    PacketRules,
    RuleCode,
    canasta_class,
)
from canasta.goingout import can_meld_out
from canasta.testing.reference import check_exact_legality

CLEAN_7 = ["7C", "7D", "7H", "7S", "7C", "7D", "7H"]
#: The Pierson quota: 1 wild, 1 sevens, 1 other clean and 1 dirty book.
PIERSON_QUOTA = [CLEAN_K, CLEAN_7, DIRTY_J, WILD]


class _Sevens:
    """Natural sevens are a class of their own (1500), never take a wild card, and the quota counts them apart."""

    @canasta.hookimpl(wrapper=True)
    def canasta_meld_rules(self) -> Generator[None, MeldRules, MeldRules]:
        melds: MeldRules = yield
        return attrs.evolve(melds, special_ranks=frozenset({Kind.SEVEN}), natural_only=frozenset({Kind.SEVEN}))

    @canasta.hookimpl(wrapper=True)
    def canasta_canasta_bonuses(self) -> Generator[None, CanastaBonuses, CanastaBonuses]:
        bonuses: CanastaBonuses = yield
        return attrs.evolve(bonuses, natural_by_rank=((Kind.SEVEN, 1500),))

    @canasta.hookimpl(wrapper=True)
    def canasta_going_out(self, players: int) -> Generator[None, GoingOutRules, GoingOutRules]:
        going_out: GoingOutRules = yield
        quota = {CanastaClass.NATURAL: 1, CanastaClass.MIXED: 1, CanastaClass.WILD: 1, CanastaClass.SPECIAL: 1}
        return attrs.evolve(going_out, canastas_required=0, canastas_by_class=quota)


class _FootThreesKept:
    """A foot's red threes are laid out without replacement."""

    @canasta.hookimpl(wrapper=True)
    def canasta_packets(self, players: int) -> Generator[None, PacketRules, PacketRules]:
        packets: PacketRules = yield
        return attrs.evolve(packets, replace_threes=False)


def _stacked(*plugins: object) -> canasta.Rules:
    registry = canasta.Registry(autoload="builtin")
    registry.add_variant(
        canasta.Variant(name="hand-and-foot-test", description="a test", plugins=plugins, base="hand-and-foot")
    )
    return canasta.load_rules("hand-and-foot-test", registry=registry)


SEVENS = _stacked(_Sevens())
KEPT = _stacked(_FootThreesKept())


def _go_out_with_aces(state: HandState) -> None:
    """Seat 0 asks, is answered "yes", and melds its three aces."""
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    state.apply(Meld(Kind.ACE, 3, 0, 0))


ACES = [["AC", "AD", "AH"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]


# --- the class ------------------------------------------------------------------------------------


def test_a_natural_canasta_of_a_special_rank_is_of_the_special_class_a_mixed_one_stays_mixed() -> None:
    special = SEVENS.melds.special_ranks
    assert special == {Kind.SEVEN} and SEVENS.melds.special_bits == 1 << Kind.SEVEN
    assert canasta_class(Kind.SEVEN, 7, 0, 0, special) is CanastaClass.SPECIAL
    assert canasta_class(Kind.SEVEN, 7, 0, 0) is CanastaClass.NATURAL  # without the rule: a clean book
    assert canasta_class(Kind.SEVEN, 6, 1, 0, special) is CanastaClass.MIXED
    assert canasta_class(Kind.KING, 7, 0, 0, special) is CanastaClass.NATURAL
    assert BASE.melds.special_ranks == frozenset() and BASE.melds.special_bits == 0
    assert SEVENS.going_out.quota_text() == "1 natural, 1 mixed, 1 wild and 1 special canastas"


def test_special_ranks_hold_natural_ranks_only() -> None:
    for bad in (Kind.TWO, Kind.JOKER, Kind.RED_THREE, Kind.BLACK_THREE):
        with pytest.raises(ValueError, match="natural ranks"):
            MeldRules(special_ranks=frozenset({bad}))


def test_a_side_counts_its_sevens_book_apart_from_its_clean_books() -> None:
    state = _position(SEVENS, melds=[PIERSON_QUOTA, []], hands=ACES)
    assert state.canastas_by_class(0) == [1, 1, 1, 0, 1] and state.book_counts(0) == (1, 1, 1, 0, 1)
    base = _position(melds=[PIERSON_QUOTA, []], hands=ACES)
    assert base.canastas_by_class(0) == [2, 1, 1, 0, 0]  # two clean books where sevens are not apart


def test_the_quota_goes_out_with_a_wild_a_sevens_another_clean_and_a_dirty_book() -> None:
    state = _position(SEVENS, melds=[PIERSON_QUOTA, []], hands=ACES)
    _go_out_with_aces(state)
    assert state.is_over and state.went_out == 0


@pytest.mark.parametrize(
    ("books", "why"),
    [
        ([CLEAN_K, CLEAN_Q, DIRTY_J, WILD], "no sevens book"),
        ([CLEAN_7, DIRTY_J, WILD], "a sevens book is not an other clean book"),
        ([CLEAN_K, CLEAN_7, WILD], "no dirty book"),
    ],
)
def test_the_quota_refuses_going_out_without_each_kind(books: list[list[str]], why: str) -> None:
    state = _position(SEVENS, melds=[books, []], hands=ACES)
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))  # binds nothing: going out is impossible
    assert Meld(Kind.ACE, 3, 0, 0) not in state.legal_actions(), why
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Meld(Kind.ACE, 3, 0, 0))
    assert refused.value.code is RuleCode.GOING_OUT_NOT_ALLOWED, why


def test_a_sevens_book_completed_by_the_final_meld_counts() -> None:
    four_sevens = ["7C", "7D", "7H", "7S"]
    melds = [[CLEAN_K, DIRTY_J, WILD, four_sevens], []]
    hands = [["7C", "7D", "7H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    state = _position(SEVENS, melds=melds, hands=hands)
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    assert Meld(Kind.SEVEN, 3, 0, 0) in state.legal_actions()
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))  # E4: the book made by the last meld counts
    assert state.is_over and state.went_out == 0
    # The search agrees: the sevens reach the special count only as a book.
    hand = [0] * 15
    hand[Kind.SEVEN] = 3
    discardable = [True] * 15
    melds_now = {int(Kind.SEVEN): (4, 0, 0)}
    assert can_meld_out(SEVENS, hand, melds_now, discardable, need=0, books=(1, 1, 1, 0, 0))
    hand[Kind.SEVEN] = 2
    assert not can_meld_out(SEVENS, hand, melds_now, discardable, need=0, books=(1, 1, 1, 0, 0))


def test_sevens_never_take_a_wild_card() -> None:
    hands = [["7C", "7D", "2C", "AC", "AD", "AH"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    state = _position(SEVENS, hands=hands)
    assert not [a for a in state.legal_actions() if isinstance(a, Meld) and a.rank is Kind.SEVEN]
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Meld(Kind.SEVEN, 2, 1, 0))
    assert refused.value.code is RuleCode.INVALID_MELD
    assert Meld(Kind.SEVEN, 2, 1, 0) in _position(hands=hands).legal_actions()  # the base game: 2 naturals + 1 wild


def test_a_sevens_book_scores_its_bonus() -> None:
    state = _position(SEVENS, melds=[PIERSON_QUOTA, []], hands=ACES)
    _go_out_with_aces(state)
    score = state.score().sides[0]
    assert score.canasta_bonuses == 500 + 1500 + 300 + 1500  # clean K, sevens, dirty J, wild (the base's 1500)


def test_a_quota_of_special_canastas_without_special_ranks_is_refused() -> None:
    class _QuotaOnly(_Sevens):
        @canasta.hookimpl(wrapper=True)
        def canasta_meld_rules(self) -> Generator[None, MeldRules, MeldRules]:
            return (yield)

    with pytest.raises(canasta.RulesError, match="special canasta"):
        _stacked(_QuotaOnly())


@pytest.mark.parametrize("seed", range(3))
def test_random_deals_with_special_sevens_keep_every_invariant(seed: int) -> None:
    state, _ = play_random_hand(
        random.Random(seed), seed=seed, rules=SEVENS, scores=[0, 0], legal_sample=1, illegal_sample=2
    )
    assert state.is_over
    check_conservation(state)


def test_the_reference_agrees_with_special_sevens() -> None:
    state = _position(
        SEVENS,
        melds=[[CLEAN_K, DIRTY_J, WILD, ["7C", "7D", "7H", "7S"]], []],
        hands=[["7C", "7D", "7H", "2C"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
    )
    check_exact_legality(state)
    state.apply(AskGoOut())
    check_exact_legality(state)
    state.apply(AnswerGoOut(True))
    check_exact_legality(state)


# --- a foot's red threes without replacement ------------------------------------------------------


FOOT_WITH_THREES = ["3H", "3D", "4C", "5C", "6C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "4D"]


@pytest.mark.parametrize(("rules", "replaced"), [(KEPT, False), (BASE, True)])
def test_a_foot_picked_up_lays_out_its_red_threes_with_or_without_replacement(
    rules: canasta.Rules, replaced: bool
) -> None:
    assert rules.packets.replace_threes is replaced
    hands = [["7C", "7D", "7H"], ["QC"], ["JC"], ["QH"]]
    state = _position(rules, hands=hands, packets=[[FOOT_WITH_THREES], [], [], []])
    stock = len(state.stock)
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))  # the last hand card melded: the foot at once (§8.7)
    assert len(state.threes[0]) == 2 and state.counts[0][Kind.RED_THREE] == 0
    if replaced:
        assert sum(state.counts[0]) == 13 and len(state.stock) == stock - 2
    else:
        assert sum(state.counts[0]) == 11 and len(state.stock) == stock
    check_conservation(state)


def test_threes_without_replacement_need_packets_larger_than_the_bonus_threes() -> None:
    class _SmallFoot(_FootThreesKept):
        @canasta.hookimpl(wrapper=True)
        def canasta_packets(self, players: int) -> Generator[None, PacketRules, PacketRules]:
            packets: PacketRules = yield
            return attrs.evolve(packets, replace_threes=False, sizes=(11,))

    with pytest.raises(canasta.RulesError, match="replace_threes"):
        _stacked(_SmallFoot())  # five decks: ten red threes, a foot of 11 could leave one card


@pytest.mark.parametrize("seed", range(3))
def test_random_deals_with_foot_threes_kept_keep_every_invariant(seed: int) -> None:
    state, _ = play_random_hand(random.Random(seed), seed=seed, rules=KEPT, scores=[0, 0], legal_sample=1)
    assert state.is_over
    check_conservation(state)


class _Answer:
    """A plugin answering ``special_ranks`` with a given value (checked where hook answers are checked)."""

    def __init__(self, value: object) -> None:
        self.value = value

    @canasta.hookimpl(wrapper=True)
    def canasta_meld_rules(self) -> Generator[None, MeldRules, MeldRules]:
        melds: MeldRules = yield
        return attrs.evolve(melds, special_ranks=self.value)


def test_a_special_ranks_answer_is_checked_and_normalized() -> None:
    rules = _stacked(_Answer(frozenset({7})))
    assert rules.melds.special_ranks == {Kind.SEVEN} and all(type(k) is Kind for k in rules.melds.special_ranks)
    with pytest.raises(canasta.RulesError, match=r"special_ranks is .* expected a frozenset"):
        _stacked(_Answer({7}))
    with pytest.raises(canasta.PluginError, match="natural ranks"):
        _stacked(_Answer(frozenset({"7"})))
