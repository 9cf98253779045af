"""SPEC.md §4 six-player: where it differs from classic, accepted and refused."""

from __future__ import annotations

from helpers import accepted, refused
from test_variant_positions import hand_codes, rules_of, with_stock

import canasta
from canasta import AnswerGoOut, AskGoOut, Discard, DrawStock, HandEnd, Kind, Meld, RuleCode

RULES = rules_of("six-player")
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_A = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]
SMALL = [["4C"], ["4D"], ["4S"], ["5C"], ["5D"], ["5S"]]


def test_two_sides_of_three_alternating_with_162_cards() -> None:
    assert RULES.players == 6 and RULES.sides == (0, 1, 0, 1, 0, 1)
    assert RULES.seats_of(0) == (0, 2, 4) and RULES.seats_of(1) == (1, 3, 5)
    assert RULES.deck.size == 162 and (RULES.hand_size, RULES.draw_count) == (13, 1)
    game = canasta.Game("six-player", seed=4)
    assert len(game.hand.deck) == 162 and game.hand.sizes == [13] * 6
    assert sum(len(v) for v in game.hand.card_locations().values()) == 162
    assert RULES.target_score == 10000


def test_draw_one() -> None:
    hands = [["4H", "5H", "6H"], *SMALL[1:]]
    state = with_stock(RULES, ["9C", "TC"], dump=1, hands=hands, pile=["8D"])
    accepted(state, DrawStock())
    assert hand_codes(state, 0) == ["4H", "5H", "6H", "9C"]


def test_minimum_150_at_7500() -> None:
    assert [RULES.minimums.minimum_for(s) for s in (-5, 0, 1500, 3000, 7495, 7500)] == [15, 50, 90, 120, 120, 150]
    state = canasta.build_position(RULES, hands=SMALL, scores=[7500, 7495])
    assert state.minimums == [150, 120]


def test_two_canastas_to_go_out() -> None:
    hands = [["QH", "QS", "QD", "9C"], *SMALL[1:]]
    one = canasta.build_position(RULES, hands=hands, melds=[[CANASTA_K], []], phase="meld")
    refused(one, Meld(Kind.QUEEN, 3, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)
    two = canasta.build_position(RULES, hands=hands, melds=[[CANASTA_K, CANASTA_A], []], phase="meld")
    accepted(two, Meld(Kind.QUEEN, 3, 0, 0))
    accepted(two, Discard(Kind.NINE))
    assert two.end is HandEnd.WENT_OUT


def test_red_threes_four_five_and_six() -> None:
    assert [RULES.threes.score(n) for n in range(7)] == [0, 100, 200, 300, 400, 1000, 1200]

    def red_threes(laid: list[list[str]], side1_melds: list[list[str]]) -> list[int]:
        state = canasta.build_position(
            RULES,
            hands=[["QH", "QS", "QD", "9C"], *SMALL[1:]],
            melds=[[CANASTA_K, CANASTA_A], side1_melds],
            threes=laid,
            phase="meld",
        )
        accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
        accepted(state, Discard(Kind.NINE))
        return [s.red_threes for s in state.score().sides]

    six = [["3H", "3D"], [], ["3H", "3D"], [], ["3H", "3D"], []]
    assert red_threes(six, [["5H", "5S", "5D"]]) == [1200, 0]
    five = [["3H", "3D"], ["3H"], ["3H", "3D"], [], ["3D"], []]
    assert red_threes(five, [["5H", "5S", "5D"]]) == [1000, 100]
    four = [["3H", "3D"], ["3H", "3D"], ["3H", "3D"], [], [], []]
    assert red_threes(four, []) == [400, -200]  # side 1 made no meld


def test_permission_is_asked_of_the_next_partner_in_turn_order() -> None:
    for asker, partner in ((0, 2), (2, 4), (4, 0), (1, 3), (5, 1)):
        state = canasta.build_position(RULES, hands=SMALL, seat=asker)
        accepted(state, AskGoOut())
        assert state.seat == partner
        refused(state, DrawStock(), RuleCode.WRONG_PHASE)
        accepted(state, AnswerGoOut(False))
        assert state.seat == asker
