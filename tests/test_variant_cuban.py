"""SPEC.md §5 Cuban canasta: where it differs from classic, accepted and refused."""

from __future__ import annotations

import attrs
from helpers import accepted, refused
from test_variant_positions import codes, hand_codes, rules_of, with_stock

import canasta
from canasta import CanastaBonuses, Discard, EndHand, HandEnd, Kind, Meld, RuleCode, TakePile

RULES = rules_of("cuban")
CLASSIC = rules_of("classic")
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
OTHERS = [["4C", "4D"], ["5C", "5D"], ["6C", "6D"]]
PAIR, NAT_WILD, LAYOFF = TakePile(2, 0, 0), TakePile(1, 1, 0), TakePile(0, 0, 0)


def pos(rules: canasta.Rules = RULES, **kwargs: object) -> canasta.HandState:
    kwargs.setdefault("hands", [["QH", "QS", "2C", "9C", "9D"], *OTHERS])
    kwargs.setdefault("melds", [[["QD", "QC", "QH"]], []])
    return canasta.build_position(rules, **kwargs)  # type: ignore[arg-type]


def test_thirteen_cards_and_game_to_7500() -> None:
    assert (RULES.hand_size, RULES.draw_count, RULES.target_score) == (13, 1, 7500)
    assert canasta.Game("cuban", seed=1).hand.sizes == [13] * 4


def test_the_pile_is_always_frozen_natural_pair_only() -> None:
    state = pos(pile=["7S", "QD"])
    assert state.pile_frozen_for(0) and state.pile_frozen_for(1)
    refused(state, NAT_WILD, RuleCode.PILE_FROZEN)
    refused(state, LAYOFF, RuleCode.PILE_FROZEN)  # never by adding the top card to a meld
    assert not pos(CLASSIC, pile=["7S", "QD"]).pile_frozen_for(0)  # classic: unfrozen, three ways
    accepted(state, PAIR)  # onto the side's queens
    assert state.melds[0][Kind.QUEEN].size == 6


def test_a_side_that_has_not_melded_may_not_take_the_pile() -> None:
    state = pos(pile=["7S", "QD"], melds=[[], []])
    refused(state, PAIR, RuleCode.PILE_NOT_MELDED)
    classic_hand = [["QH", "QS", "KS", "KD", "KH", "2C"], *OTHERS]
    assert PAIR in pos(CLASSIC, pile=["7S", "QD"], melds=[[], []], hands=classic_hand).legal_actions()


def test_black_three_on_top_blocks_and_black_threes_in_a_taken_pile_are_set_aside() -> None:
    refused(pos(pile=["QD", "3S"]), PAIR, RuleCode.PILE_BLOCKED)
    state = pos(pile=["3S", "9H", "3C", "QD"])
    accepted(state, PAIR)
    assert sorted(codes(state, state.set_aside[0])) == ["3C", "3S"]
    assert "3C" not in hand_codes(state, 0) and "9H" in hand_codes(state, 0)
    classic = pos(CLASSIC, pile=["3S", "9H", "3C", "QD"])
    accepted(classic, PAIR)
    assert classic.set_aside[0] == [] and "3C" in hand_codes(classic, 0)


def test_no_black_three_discard_in_the_first_round() -> None:
    hands = [["3C", "9H", "9D"], *OTHERS]
    first = pos(hands=hands, turn=2, phase="meld")
    refused(first, Discard(Kind.BLACK_THREE), RuleCode.CANNOT_DISCARD)
    accepted(first, Discard(Kind.NINE))
    later = pos(hands=hands, turn=4, phase="meld")
    accepted(later, Discard(Kind.BLACK_THREE))
    assert Discard(Kind.BLACK_THREE) in pos(CLASSIC, hands=hands, turn=0, phase="meld").legal_actions()


def test_set_aside_black_threes_score_5_each_100_for_four_and_minus_100_in_hand() -> None:
    # One set aside and three melded going out: all four, 100.
    four = pos(
        hands=[["3C", "3C", "3S"], *OTHERS],
        melds=[[CANASTA_K], []],
        set_aside=[["3S"], []],
        phase="meld",
    )
    accepted(four, Meld(Kind.BLACK_THREE, 3, 0, 0))
    assert four.end is HandEnd.WENT_OUT
    side0, side1 = four.score().sides
    assert side0.set_aside == 100 and side0.melded_cards == 70  # the melded threes score in the 100
    assert side1.set_aside == 0
    two = pos(
        hands=[["QH", "QS", "QD"], ["3S", "5C"], ["5D"], ["6C"]],
        melds=[[CANASTA_K], []],
        set_aside=[["3S", "3C"], []],
        phase="meld",
    )
    accepted(two, Meld(Kind.QUEEN, 3, 0, 0))
    side0, side1 = two.score().sides
    assert side0.set_aside == 10
    assert side1.cards_in_hand == -100 - 5 - 5  # a black three left in hand costs 100


def test_wild_melds_the_seven_card_cap_and_wild_canasta_bonuses() -> None:
    hands = [["2C", "2D", "*", "KC", "9D", "9H"], *OTHERS]
    state = pos(hands=hands, melds=[[CANASTA_K[:5]], []], phase="meld")
    accepted(state, Meld(Kind.JOKER, 0, 2, 1))
    refused(pos(CLASSIC, hands=hands, phase="meld"), Meld(Kind.JOKER, 0, 2, 1), RuleCode.WILD_MELD)
    closed = pos(hands=hands, melds=[[CANASTA_K], []], phase="meld")
    refused(closed, Meld(Kind.KING, 1, 0, 0), RuleCode.MELD_CLOSED)
    assert Meld(Kind.KING, 1, 0, 0) in pos(CLASSIC, hands=hands, melds=[[CANASTA_K], []], phase="meld").legal_actions()
    full = pos(hands=[["KS", "KD", "9H"], *OTHERS], melds=[[CANASTA_K[:5]], []], pile=["KC"])
    refused(full, PAIR, RuleCode.INVALID_MELD)  # five kings plus three would pass the cap of 7
    bonuses: CanastaBonuses = RULES.canasta_bonuses
    assert bonuses.bonus(Kind.JOKER, 0, 7, 0) == 4000
    assert bonuses.bonus(Kind.JOKER, 0, 3, 4) == 3000
    assert bonuses.bonus(Kind.JOKER, 0, 5, 2) == 2000
    assert (bonuses.bonus(Kind.KING, 7, 0, 0), bonuses.bonus(Kind.KING, 5, 2, 0)) == (500, 300)
    wild = pos(
        hands=[["QH", "QS", "QD"], *OTHERS],
        melds=[[["2C", "2D", "2H", "2S", "2C", "2D", "2H"]], []],
        phase="meld",
    )
    accepted(wild, Meld(Kind.QUEEN, 3, 0, 0))
    assert wild.score().sides[0].canasta_bonuses == 4000


def test_minimum_150_at_5000() -> None:
    assert [RULES.minimums.minimum_for(s) for s in (-1, 0, 1500, 3000, 4995, 5000)] == [15, 50, 90, 120, 120, 150]


def test_red_threes_count_only_with_a_canasta() -> None:
    assert [RULES.threes.score(n) for n in range(5)] == [0, 100, 300, 500, 1000]
    state = pos(
        hands=[["QH", "QS", "QD"], *OTHERS],
        melds=[[CANASTA_K], [["8H", "8S", "8D"]]],
        threes=[["3H", "3D"], [], ["3H"], ["3D"]],
        phase="meld",
    )
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
    assert [s.red_threes for s in state.score().sides] == [500, -100]  # side 1 melded but has no canasta


def test_the_canastas_red_threes_need_are_the_rules_number() -> None:
    """`ThreeRules.canastas_for_plus` (the sequence games' 2): one canasta is then not enough."""
    two = attrs.evolve(RULES, threes=attrs.evolve(RULES.threes, canastas_for_plus=2))
    state = pos(
        two,
        hands=[["QH", "QS", "QD"], *OTHERS],
        melds=[[CANASTA_K], [["8H", "8S", "8D"]]],
        threes=[["3H", "3D"], [], ["3H"], ["3D"]],
        phase="meld",
    )
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
    assert [s.red_threes for s in state.score().sides] == [-500, -100]


def test_no_concealed_bonus() -> None:
    hands = [[*CANASTA_K, "QH", "QS", "QD"], *OTHERS]
    for rules, bonus in ((RULES, 100), (CLASSIC, 200)):
        state = pos(rules, hands=hands, melds=[[], []], phase="meld")
        accepted(state, Meld(Kind.KING, 7, 0, 0))
        accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
        assert state.end is HandEnd.WENT_OUT and state.score().sides[0].going_out == bonus


def test_stock_exhaustion_forces_taking_a_matching_discard() -> None:
    hands = [["QH", "QS", "9C", "9D"], *OTHERS]
    forced = with_stock(RULES, [], dump=3, hands=hands, melds=[[CANASTA_K[:5]], []], pile=["9H", "KC"])
    assert [a for a in forced.legal_actions() if isinstance(a, (TakePile, EndHand))] == [LAYOFF]
    refused(forced, EndHand(), RuleCode.MUST_TAKE_PILE)
    accepted(forced, LAYOFF)
    optional = with_stock(RULES, [], dump=3, hands=hands, melds=[[CANASTA_K[:5]], []], pile=["9H", "QC"])
    assert {a for a in optional.legal_actions() if isinstance(a, (TakePile, EndHand))} == {PAIR, EndHand()}
    accepted(optional, EndHand())
    assert optional.end is HandEnd.STOCK_EXHAUSTED
