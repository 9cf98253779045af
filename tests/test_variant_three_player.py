"""SPEC.md §3 three-player: where it differs from classic, accepted and refused."""

from __future__ import annotations

from helpers import accepted, refused
from test_variant_positions import hand_codes, rules_of, with_stock

import canasta
from canasta import AskGoOut, Discard, DrawStock, HandEnd, Kind, Meld, RuleCode

RULES = rules_of("three-player")
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_A = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]


def test_three_players_each_alone_with_thirteen_cards() -> None:
    assert (RULES.players, RULES.sides, RULES.hand_size, RULES.draw_count) == (3, (0, 1, 2), 13, 2)
    assert RULES.target_score == 5000 and not RULES.has_partners
    game = canasta.Game("three-player", seed=2)
    assert game.hand.sizes == [13, 13, 13] and len(game.scores) == 3


def test_draw_two_with_a_single_last_card() -> None:
    hands = [["4H", "5H", "6H"], ["4C"], ["4D"]]
    state = with_stock(RULES, ["9C", "TC", "JC"], dump=1, hands=hands, pile=["8D"])
    accepted(state, DrawStock())
    assert hand_codes(state, 0) == ["4H", "5H", "6H", "9C", "TC"]
    single = with_stock(RULES, ["9C"], dump=1, hands=hands, pile=["8D"])
    accepted(single, DrawStock())
    assert hand_codes(single, 0) == ["4H", "5H", "6H", "9C"] and single.stock == []


def test_two_canastas_to_go_out_and_no_permission() -> None:
    hands = [["QH", "QS", "QD", "9C"], ["4C"], ["4D"]]
    one = canasta.build_position(RULES, hands=hands, melds=[[CANASTA_K], [], []], phase="meld")
    refused(one, Meld(Kind.QUEEN, 3, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)
    refused(one, AskGoOut(), RuleCode.PERMISSION_NOT_AVAILABLE)
    two = canasta.build_position(RULES, hands=hands, melds=[[CANASTA_K, CANASTA_A], [], []], phase="meld")
    accepted(two, Meld(Kind.QUEEN, 3, 0, 0))
    accepted(two, Discard(Kind.NINE))
    assert two.end is HandEnd.WENT_OUT


def test_red_threes_and_minimum_per_player() -> None:
    state = canasta.build_position(
        RULES,
        hands=[["QH", "QS", "QD", "9C"], ["4C"], ["4D"]],
        melds=[[CANASTA_K, CANASTA_A], [["5H", "5S", "5D"]], []],
        threes=[["3H"], ["3D", "3H"], ["3D"]],
        scores=[3000, 1500, -10],
        phase="meld",
    )
    assert state.minimums == [120, 90, 15]
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
    accepted(state, Discard(Kind.NINE))
    red = [s.red_threes for s in state.score().sides]
    assert red == [100, 200, -100]  # the third player made no meld
