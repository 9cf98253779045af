"""SPEC.md §6 modern American canasta: where it differs from classic, accepted and refused."""

from __future__ import annotations

from helpers import accepted, refused
from test_variant_positions import codes, hand_codes, rules_of, with_stock

import canasta
from canasta import AnswerGoOut, AskGoOut, Discard, DrawStock, HandEnd, Kind, Meld, RuleCode, TakePile

RULES = rules_of("modern-american")
CLASSIC = rules_of("classic")
OTHERS = [["4C", "4D"], ["5C", "5D"], ["6C", "6D"]]
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_A = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]
PAIR, NAT_WILD = TakePile(2, 0, 0), TakePile(1, 1, 0)


def pos(rules: canasta.Rules = RULES, **kwargs: object) -> canasta.HandState:
    kwargs.setdefault("hands", [["QH", "QS", "9C", "9D"], *OTHERS])
    kwargs.setdefault("melds", [[["8H", "8S", "8D"]], []])
    return canasta.build_position(rules, **kwargs)  # type: ignore[arg-type]


def go_out(melds: list[list[list[str]]], threes: list[list[str]]) -> canasta.HandState:
    state = pos(hands=[["QH", "QS", "QD", "9C"], *OTHERS], melds=melds, threes=threes, phase="meld")
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
    accepted(state, Discard(Kind.NINE))
    assert state.end is HandEnd.WENT_OUT
    return state


def test_no_upcard_thirteen_cards_all_threes_laid_out_game_to_8500() -> None:
    game = canasta.Game("modern-american", seed=9)
    hand = game.hand
    assert hand.pile == [] and hand.sizes == [13] * 4 and RULES.target_score == 8500
    assert all(hand.counts[s][Kind.RED_THREE] == hand.counts[s][Kind.BLACK_THREE] == 0 for s in range(4))
    refused(hand, PAIR, RuleCode.PILE_EMPTY)
    assert canasta.Game("classic", seed=9).hand.pile != []


def test_draw_two_black_threes_are_laid_out_and_replaced() -> None:
    state = with_stock(RULES, ["3S", "9H", "3D", "TC", "JC"], dump=1, hands=[["4H", "5H", "6H"], *OTHERS], pile=["8C"])
    accepted(state, DrawStock())
    assert hand_codes(state, 0) == ["4H", "5H", "6H", "9H", "TC"]
    assert sorted(codes(state, state.threes[0])) == ["3D", "3S"]
    single = with_stock(RULES, ["9H"], dump=1, hands=[["4H", "5H", "6H"], *OTHERS], pile=["8C"])
    accepted(single, DrawStock())
    assert hand_codes(single, 0) == ["4H", "5H", "6H", "9H"]


def test_always_frozen_pile_with_the_seven_card_cap() -> None:
    hands = [["KS", "KD", "2C", "9C", "9D"], *OTHERS]
    five = pos(hands=hands, melds=[[CANASTA_K[:5]], []], pile=["7S", "KC"])
    refused(five, PAIR, RuleCode.INVALID_MELD)  # 5 + 3 would pass 7
    refused(five, NAT_WILD, RuleCode.PILE_FROZEN)
    four = pos(hands=hands, melds=[[CANASTA_K[:4]], []], pile=["7S", "KC"])
    accepted(four, PAIR)
    assert four.melds[0][Kind.KING].size == 7
    refused(pos(hands=hands, pile=["KC", "2D"]), PAIR, RuleCode.PILE_BLOCKED)


def test_two_wild_cards_at_most_sevens_pure_wild_melds_allowed() -> None:
    hands = [["QH", "QS", "QD", "7H", "7S", "7D", "2C", "2D", "2H", "*", "9C", "9D"], *OTHERS]
    state = pos(hands=hands, phase="meld")
    refused(state, Meld(Kind.QUEEN, 3, 3, 0), RuleCode.INVALID_MELD)
    assert Meld(Kind.QUEEN, 3, 3, 0) in pos(CLASSIC, hands=hands, phase="meld").legal_actions()
    refused(state, Meld(Kind.SEVEN, 3, 1, 0), RuleCode.INVALID_MELD)
    accepted(state, Meld(Kind.SEVEN, 3, 0, 0))
    accepted(state, Meld(Kind.QUEEN, 3, 2, 0))
    refused(state, Meld(Kind.QUEEN, 0, 1, 0), RuleCode.INVALID_MELD)  # a third wild card
    closed = pos(hands=hands, phase="meld")
    accepted(closed, Meld(Kind.QUEEN, 3, 1, 0))
    accepted(closed, Meld(Kind.JOKER, 0, 2, 1))  # a wild meld
    assert closed.melds[0][Kind.JOKER].size == 3


def test_minimums_125_155_180() -> None:
    assert [RULES.minimums.minimum_for(s) for s in (-50, 0, 2995, 3000, 4995, 5000)] == [125, 125, 125, 155, 155, 180]


def test_initial_meld_needs_a_clean_meld_and_the_top_card_does_not_count() -> None:
    hands = [["AH", "AS", "2C", "KH", "KS", "*", "QH", "QS", "QD", "9C", "9D"], *OTHERS]
    state = pos(hands=hands, melds=[[], []], phase="meld")
    accepted(state, Meld(Kind.ACE, 2, 1, 0))  # 60
    accepted(state, Meld(Kind.KING, 2, 0, 1))  # 70: 130 reaches 125 but nothing is clean
    assert not state.opened[0]
    err = refused(state, Discard(Kind.NINE), RuleCode.CLEAN_MELD_REQUIRED)
    assert "clean meld" in err.message and "below the minimum" not in err.message
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
    assert state.opened[0]
    accepted(state, Discard(Kind.NINE))
    # A pile take is legal only if the opening can still be completed (SPEC §0):
    # K-K-K counts 20 here, Q-Q-Q, A-A-A and J-J-J bring it to 140 with a clean meld.
    rich = ["KH", "KS", "QH", "QS", "QD", "AH", "AS", "AD", "JH", "JS", "JD", "9C", "9D"]
    taking = pos(hands=[rich, *OTHERS], melds=[[], []], pile=["7S", "KC"])
    accepted(taking, PAIR)
    assert taking.provisional_count == 20  # the top king does not count
    classic = pos(CLASSIC, hands=[rich, *OTHERS], melds=[[], []], pile=["7S", "KC"])
    accepted(classic, PAIR)
    assert classic.provisional_count == 30
    poor = pos(hands=[["KH", "KS", "9C", "9D"], *OTHERS], melds=[[], []], pile=["7S", "KC"])
    refused(poor, PAIR, RuleCode.MINIMUM_NOT_MET)


def test_canasta_bonuses() -> None:
    bonuses = RULES.canasta_bonuses
    assert bonuses.bonus(Kind.SEVEN, 7, 0, 0) == 2500 and bonuses.bonus(Kind.KING, 7, 0, 0) == 500
    assert bonuses.bonus(Kind.KING, 5, 2, 0) == 300
    assert bonuses.bonus(Kind.JOKER, 0, 7, 0) == 3000
    assert bonuses.bonus(Kind.JOKER, 0, 3, 4) == 2500
    assert bonuses.bonus(Kind.JOKER, 0, 5, 2) == 2000
    sevens = ["7H", "7S", "7D", "7C", "7H", "7S", "7D"]
    state = go_out([[CANASTA_K, sevens], []], [[], [], [], []])
    assert state.score().sides[0].canasta_bonuses == 3000


def test_threes_by_canasta_count_per_colour() -> None:
    threes = [["3H", "3D", "3S"], ["3C"], [], ["3H", "3D"]]
    # Side 0: two canastas, 2 red (300) and 1 black (100) added; side 1: one canasta, zero.
    state = go_out([[CANASTA_K, CANASTA_A], [["8H", "8S", "8D", "8C", "8H", "8S", "8D"]]], threes)
    assert [s.red_threes for s in state.score().sides] == [400, 0]
    # Side 1 without a canasta: its 2 red (300) and 1 black (100) are subtracted.
    state = go_out([[CANASTA_K, CANASTA_A], [["8H", "8S", "8D"]]], threes)
    assert [s.red_threes for s in state.score().sides] == [400, -400]


def test_incomplete_sevens_and_wild_meld_penalties() -> None:
    state = go_out([[CANASTA_K, CANASTA_A], [["7H", "7S", "7D"], ["2C", "2D", "*"]]], [[], [], [], []])
    assert state.score().sides[1].penalties == -4500
    assert state.score().sides[0].penalties == 0


def test_final_discard_required_and_no_concealed_bonus() -> None:
    melds = [[CANASTA_K, CANASTA_A], []]
    no_discard = pos(hands=[["QH", "QS", "QD"], *OTHERS], melds=melds, phase="meld")
    refused(no_discard, Meld(Kind.QUEEN, 3, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)
    classic = pos(CLASSIC, hands=[["QH", "QS", "QD"], *OTHERS], melds=melds, phase="meld")
    accepted(classic, Meld(Kind.QUEEN, 3, 0, 0))
    assert classic.end is HandEnd.WENT_OUT
    wild_last = pos(hands=[["QH", "QS", "QD", "2C"], *OTHERS], melds=melds, phase="meld")
    accepted(wild_last, Meld(Kind.QUEEN, 3, 0, 0))
    accepted(wild_last, Discard(Kind.TWO))  # a wild card may be the last discard
    assert wild_last.end is HandEnd.WENT_OUT and wild_last.score().sides[0].going_out == 100
    assert RULES.going_out.concealed_bonus is None and RULES.going_out.canastas_required == 2


def test_permission_at_most_once_per_hand() -> None:
    for rules, again in ((RULES, False), (CLASSIC, True)):
        state = pos(rules, hands=[["QH", "QS", "9C", "9D"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]], pile=["8C"])
        accepted(state, AskGoOut())
        accepted(state, AnswerGoOut(False))
        for _ in range(2):  # seats 0 and 1 draw and discard
            accepted(state, DrawStock())
            accepted(state, Discard(Kind(next(k for k in range(4, 15) if state.counts[state.seat][k]))))
        assert state.seat == 2 and state.is_legal(AskGoOut()) is again
        if not again:
            refused(state, AskGoOut(), RuleCode.PERMISSION_NOT_AVAILABLE)


def test_stock_exhaustion_ends_the_hand_without_forced_takes() -> None:
    hands = [["QH", "QS", "9C", "9D"], *OTHERS]
    melds = [[CANASTA_K[:5], ["QD", "QC", "QH"]], []]
    state = with_stock(RULES, [], dump=3, hands=hands, melds=melds, pile=["9H", "QD"])
    assert state.end is HandEnd.STOCK_EXHAUSTED
    classic = with_stock(CLASSIC, [], dump=3, hands=hands, melds=melds, pile=["9H", "QD"])
    assert not classic.is_over


def test_no_concealed_exemption() -> None:
    # SPEC §6 ⟨A⟩: seven 6s and seven 5s are two natural canastas, enough to go
    # out, but they count 70, below 125, and there is no concealed exemption.
    sixes = ["6H", "6S", "6D", "6C", "6H", "6S", "6D"]
    fives = ["5H", "5S", "5D", "5C", "5H", "5S", "5D"]
    others = [["4C", "4D"], ["7C", "7D"], ["8C", "8D"]]
    state = pos(hands=[[*sixes, *fives, "9C"], *others], melds=[[], []], phase="meld")
    assert RULES.initial_meld.concealed_exemption is False
    refused(state, Meld(Kind.SIX, 7, 0, 0), RuleCode.MINIMUM_NOT_MET)
    classic = pos(CLASSIC, hands=[[*sixes, *fives, "9C"], *others], melds=[[], []], phase="meld", scores=[3000, 0])
    accepted(classic, Meld(Kind.SIX, 7, 0, 0))  # classic: the concealed exemption still applies
