"""SPEC.md §2 two-player: where it differs from classic, accepted and refused."""

from __future__ import annotations

from helpers import accepted, refused
from test_variant_positions import codes, hand_codes, rules_of, with_stock

import canasta
from canasta import AskGoOut, Discard, DrawStock, HandEnd, Kind, Meld, RuleCode

RULES = rules_of("two-player")
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]


def test_two_sides_alone_fifteen_cards_each() -> None:
    assert (RULES.players, RULES.sides, RULES.hand_size, RULES.draw_count) == (2, (0, 1), 15, 2)
    assert canasta.load_rules("classic").hand_size == 11
    game = canasta.Game("two-player", seed=5)
    assert game.hand.sizes == [15, 15]
    assert len(game.hand.stock) == 108 - 30 - len(game.hand.pile) - sum(len(t) for t in game.hand.threes)


def test_draw_two_and_a_single_last_card_is_a_full_draw() -> None:
    state = with_stock(RULES, ["9C", "TC", "JC"], dump=1, hands=[["4H", "5H", "6H"], ["4C"]], pile=["8D"])
    accepted(state, DrawStock())
    assert hand_codes(state, 0) == ["4H", "5H", "6H", "9C", "TC"]
    single = with_stock(RULES, ["9C"], dump=1, hands=[["4H", "5H", "6H"], ["4C"]], pile=["8D"])
    accepted(single, DrawStock())
    assert hand_codes(single, 0) == ["4H", "5H", "6H", "9C"] and single.stock == []
    accepted(single, Discard(Kind.NINE))  # the turn goes on as usual; the next player finds the stock empty
    assert single.seat == 1


def test_red_threes_among_the_two_are_replaced_and_a_last_red_three_ends_the_hand() -> None:
    state = with_stock(RULES, ["3H", "9C", "TC", "JC"], dump=1, hands=[["4H", "5H", "6H"], ["4C"]], pile=["8D"])
    accepted(state, DrawStock())
    assert hand_codes(state, 0) == ["4H", "5H", "6H", "9C", "TC"] and codes(state, state.threes[0]) == ["3H"]
    last = with_stock(RULES, ["9C", "3H"], dump=1, hands=[["4H", "5H", "6H"], ["4C"]], pile=["8D"])
    accepted(last, DrawStock())
    assert last.end is HandEnd.RED_THREE_LAST and last.is_over


def test_two_canastas_to_go_out() -> None:
    one = canasta.build_position(RULES, hands=[["QH", "QS", "QD", "9C"], ["4C"]], melds=[[CANASTA_K], []], phase="meld")
    # With one canasta, melding the queens would leave only the 9, whose discard would go out.
    refused(one, Meld(Kind.QUEEN, 3, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)
    accepted(one, Discard(Kind.NINE))  # keeping the queens is fine
    assert one.seat == 1 and one.sizes[0] == 3
    two = canasta.build_position(
        RULES,
        hands=[["QH", "QS", "QD", "9C"], ["4C"]],
        melds=[[CANASTA_K, ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]], []],
        phase="meld",
    )
    accepted(two, Meld(Kind.QUEEN, 3, 0, 0))
    accepted(two, Discard(Kind.NINE))
    assert two.end is HandEnd.WENT_OUT and two.went_out == 0


def test_no_partner_to_ask_and_the_minimum_follows_the_own_score() -> None:
    state = canasta.build_position(RULES, hands=[["4H", "5H"], ["4C"]], scores=[1500, -20])
    refused(state, AskGoOut(), RuleCode.PERMISSION_NOT_AVAILABLE)
    assert state.minimums == [90, 15]
