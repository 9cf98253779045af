"""SPEC.md §1 "Scoring a hand" and "Game": per-side breakdowns with hand-computed numbers, the game to 5000."""

from __future__ import annotations

import pytest
from helpers import accepted, position, short_stock

from canasta import Discard, DrawStock, EndHand, Game, HandEnd, Kind, SideScore

KING_CANASTA = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]  # 7 x 10 = 70, natural
MIXED_QUEENS = ["QH", "QS", "QD", "QC", "QH", "2C", "*"]  # 5 x 10 + 20 + 50 = 120, mixed
NINES = ["9H", "9S", "9D"]  # 30


def finished_hand(**overrides: object):  # type: ignore[no-untyped-def]
    """Seat 0 goes out by discarding its last card (an 8)."""
    kwargs: dict[str, object] = {
        "hands": [["8C"], ["*", "2H"], ["AH", "4C", "3S"], ["5H", "6H", "7H"]],
        "melds": [[KING_CANASTA, MIXED_QUEENS], [NINES]],
        "threes": [["3H", "3D"], ["3D"], ["3H"], []],
        "phase": "meld",
    }
    kwargs.update(overrides)
    state = position(**kwargs)
    accepted(state, Discard(Kind.EIGHT))
    assert state.end is HandEnd.WENT_OUT
    return state


def test_breakdown_of_a_hand_won_by_going_out() -> None:
    score = finished_hand().score()
    assert score.sides[0] == SideScore(
        side=0,
        melded_cards=190,  # 70 + 120
        canasta_bonuses=800,  # natural 500 + mixed 300
        red_threes=300,  # three red threes
        going_out=100,
        set_aside=0,
        cards_in_hand=-30,  # A 20 + 4 5 + black three 5, in the partner's hand
        penalties=0,
        canastas=2,
    )
    assert score.sides[0].total == 1360
    assert score.sides[1] == SideScore(
        side=1, melded_cards=30, canasta_bonuses=0, red_threes=100, going_out=0,
        set_aside=0, cards_in_hand=-85, penalties=0, canastas=0,
    )  # fmt: skip
    assert score.sides[1].total == 45  # 30 + 100 - (50 + 20) - (5 + 5 + 5)
    assert score.totals == (1360, 45) and score.went_out == 0 and not score.concealed


def test_four_red_threes_score_800() -> None:
    state = finished_hand(threes=[["3H", "3D"], [], ["3H", "3D"], []])
    assert state.score().sides[0].red_threes == 800
    assert state.score().sides[1].red_threes == 0


def test_red_threes_count_against_a_side_with_no_meld() -> None:
    state = finished_hand(melds=[[KING_CANASTA, MIXED_QUEENS], []], hands=[["8C"], ["9H", "9S"], ["AH"], ["5H"]])
    side1 = state.score().sides[1]
    assert side1.red_threes == -100 and side1.melded_cards == 0
    assert side1.total == -100 - 20 - 5  # two nines and a five in hand


def test_no_going_out_bonus_when_the_stock_runs_out() -> None:
    state = short_stock(
        [], hands=[["9C", "9S", "8C"], ["4H"], ["4C"], []], pile=["7S", "9D"], melds=[[KING_CANASTA], [NINES]]
    )
    accepted(state, EndHand())
    score = state.score()
    assert state.end is HandEnd.STOCK_EXHAUSTED
    assert [s.going_out for s in score.sides] == [0, 0]
    assert score.sides[0].melded_cards == 70 and score.sides[0].canasta_bonuses == 500
    assert score.sides[0].cards_in_hand == -35  # 9 9 8 in seat 0, 4 in seat 2


def test_the_score_of_an_unfinished_hand_is_refused() -> None:
    state = position(hands=[["8C", "9C"], ["4H"], ["4C"], ["5C"]])
    with pytest.raises(ValueError, match="not over"):
        state.score()


def game_at(scores: list[int]) -> Game:
    hand = finished_hand_position(scores)
    return Game.from_hand(hand, scores=scores, seed=3)


def finished_hand_position(scores: list[int]):  # type: ignore[no-untyped-def]
    return position(
        hands=[["8C"], ["*", "2H"], ["AH", "4C", "3S"], ["5H", "6H", "7H"]],
        melds=[[KING_CANASTA, MIXED_QUEENS], [NINES]],
        threes=[["3H", "3D"], ["3D"], ["3H"], []],
        phase="meld",
        scores=scores,
        dealer=3,
    )


def test_game_adds_hand_totals_and_the_next_minimum_follows_each_total() -> None:
    game = game_at([200, -20])
    result = game.apply(Discard(Kind.EIGHT))
    assert result is not None and result.totals == (1360, 45)
    assert game.scores == (1560, 25) and not game.is_over
    assert game.results == (result,)
    assert game.hand.scores == [1560, 25]
    assert game.hand.minimums == [90, 50]  # 1500-2995: 90; 0-1495: 50
    assert game.hand.dealer == 0 and game.hand.seat == 1  # the deal passes left
    assert game.hand_number == 1 and not game.hand.is_over


@pytest.mark.parametrize(("scores", "minimums"), [([-1400, 3000], [15, 120]), ([1700, -46], [120, 15])])
def test_minimums_by_total(scores: list[int], minimums: list[int]) -> None:
    game = game_at(scores)
    game.apply(Discard(Kind.EIGHT))
    assert game.hand.minimums == minimums


def test_game_ends_at_5000_and_the_higher_total_wins() -> None:
    game = game_at([3700, 4900])
    assert game.winner() is None
    game.apply(Discard(Kind.EIGHT))
    assert game.scores == (5060, 4945) and game.is_over
    assert game.winner() == 0
    assert game.legal_actions() == () and not game.is_legal(DrawStock())


def test_the_higher_total_wins_even_if_the_other_side_reached_5000_first() -> None:
    game = game_at([4000, 4990])
    game.apply(Discard(Kind.EIGHT))
    assert game.scores == (5360, 5035) and game.winner() == 0


def test_equal_totals_are_a_draw() -> None:
    game = game_at([5000 - 1360, 5000 - 45])
    game.apply(Discard(Kind.EIGHT))
    assert game.is_over and game.scores == (5000, 5000)
    assert game.winner() is None


def test_game_scores_are_the_sum_of_hand_totals_in_a_played_game() -> None:
    import random

    from helpers import check_conservation

    game = Game("classic", seed=11)
    rng = random.Random(0)
    for _ in range(3000):
        if game.is_over or len(game.results) >= 3:
            break
        check_conservation(game.hand)
        game.apply(rng.choice(game.legal_actions()))
    assert len(game.results) >= 1
    totals = [sum(r.totals[s] for r in game.results) for s in range(2)]
    assert list(game.scores) == totals
    dealers = [3, 0, 1, 2]
    assert game.hand.dealer == dealers[game.hand_number % 4]
