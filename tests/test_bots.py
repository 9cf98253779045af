"""Bots: random and greedy players pick legal actions, reproducibly, and finish games."""

from __future__ import annotations

import pytest

import canasta
from canasta import Discard, DrawStock, Kind, Meld, TakePile, UnknownNameError, build_position
from canasta.bots import BOTS, Bot, GreedyBot, NoLegalActionError, RandomBot, make_bot
from canasta.suitedmelds import SuitedMeld


def play(variant: str, bot: str, seed: int, max_hands: int = 3) -> tuple[canasta.Game, list[canasta.Action]]:
    game = canasta.Game(variant, seed=seed)
    bots = [make_bot(bot, (seed, s)) for s in range(game.rules.players)]
    log = []
    while not game.is_over and len(game.results) < max_hands:
        action = bots[game.seat].choose(game.hand, game.seat)
        assert action in game.legal_actions()
        game.apply(action)
        log.append(action)
    return game, log


def test_registered_bots_satisfy_protocol() -> None:
    assert set(BOTS) >= {"random", "greedy"}
    for name in BOTS:
        assert isinstance(make_bot(name, 1), Bot)


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(UnknownNameError, match="unknown bot 'nobody'"):
        make_bot("nobody")


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_same_seed_same_game(bot: str) -> None:
    first = play("classic", bot, 5, max_hands=1)
    second = play("classic", bot, 5, max_hands=1)
    assert first[1] == second[1]
    assert first[0].scores == second[0].scores


def test_greedy_bots_play_whole_classic_game() -> None:
    game, _ = play("classic", "greedy", 11, max_hands=100)
    assert game.is_over
    assert max(game.scores) >= game.rules.target_score


@pytest.mark.parametrize("variant", [v.name for v in canasta.available_variants()])
def test_bots_play_every_variant(variant: str) -> None:
    for bot in ("greedy", "random"):
        game, log = play(variant, bot, 3, max_hands=1)
        assert len(game.results) == 1 or game.is_over
        assert log


@pytest.mark.parametrize("variant", [v.name for v in canasta.available_variants()])
def test_greedy_openings_reach_the_minimum_in_the_turn_they_start(variant: str) -> None:
    # The bot starts an opening only when its plan opens the side that turn.
    game = canasta.Game(variant, seed=2)
    bots = [make_bot("greedy", (2, s)) for s in range(game.rules.players)]
    openings = 0
    opening: int | None = None  # the side that laid melds this turn without having opened yet
    while not game.is_over and len(game.results) < 3:
        hand, seat = game.hand, game.seat
        action = bots[seat].choose(hand, seat)
        # (The sequence games meld by meld type: groups, sequences, wild melds; the engine finishes an opening begun.)
        if isinstance(action, Meld | SuitedMeld) and not hand.opened[hand.side_of(seat)]:
            opening = hand.side_of(seat)
        if isinstance(action, Discard) and opening is not None:
            assert hand.opened[opening], (variant, hand.turn)
            openings += 1
            opening = None
        hands_before = len(game.results)
        game.apply(action)
        if len(game.results) > hands_before:
            opening = None  # went out: the hand is over
    assert openings


def test_greedy_takes_a_pile_it_can_use() -> None:
    rules = canasta.load_rules("classic")
    state = build_position(
        rules,
        hands=[["KH", "KS", "5C", "6D", "9H"], ["4C", "4S", "5S"], ["7C", "7S", "6S"], ["8C", "8S", "9S"]],
        pile=["4D", "JD", "KD"],
        melds=[[["QH", "QS", "QD"]], []],
        phase="draw",
        seat=0,
    )
    assert isinstance(GreedyBot(0).choose(state, 0), TakePile)


def test_greedy_opening_only_when_minimum_is_reached() -> None:
    rules = canasta.load_rules("classic")
    # 5 5 5 counts 15, below the minimum of 50: the greedy bot discards instead of melding.
    state = build_position(
        rules,
        hands=[["5H", "5S", "5C", "6D", "9H", "JC"], ["4C", "4S", "5S"], ["7C", "7S", "6S"], ["8C", "8S", "9S"]],
        pile=["4D"],
        phase="meld",
        seat=0,
    )
    choice = GreedyBot(0).choose(state, 0)
    assert isinstance(choice, Discard)
    # With A A A + K K K (120 > 50) it melds.
    state = build_position(
        rules,
        hands=[
            ["AH", "AS", "AC", "KD", "KH", "KC", "9H", "JC"],
            ["4C", "4S", "5S"],
            ["7C", "7S", "6S"],
            ["8C", "8S", "9S"],
        ],
        pile=["4D"],
        phase="meld",
        seat=0,
    )
    assert isinstance(GreedyBot(0).choose(state, 0), Meld)


def test_greedy_discards_black_three_and_keeps_wilds() -> None:
    rules = canasta.load_rules("classic")
    state = build_position(
        rules,
        hands=[["3S", "2C", "*", "9H", "JC"], ["4C", "4S", "5S"], ["7C", "7S", "6S"], ["8C", "8S", "9S"]],
        pile=["4D"],
        melds=[[["QH", "QS", "QD"]], []],
        phase="meld",
        seat=0,
    )
    actions = state.legal_actions()
    assert Discard(Kind.BLACK_THREE) in actions
    choice = GreedyBot(0).choose(state, 0)
    assert choice == Discard(Kind.BLACK_THREE)


def test_bot_in_finished_hand_raises_typed_error() -> None:
    game, _ = play("classic", "greedy", 1, max_hands=100)
    with pytest.raises(NoLegalActionError):
        RandomBot(0).choose(game.hand, 0)
    assert isinstance(DrawStock(), DrawStock)


# --- Hand and Foot: the going-out quota counts a wild book -------------------------------------------


def _hand_and_foot_position(books: list[list[str]]) -> canasta.HandState:
    """Seat 0 in its foot, after drawing, holding three wild cards and a pair of fives."""
    rules = canasta.load_rules("hand-and-foot")
    return build_position(
        rules,
        hands=[["2C", "2D", "*", "5C", "5D", "9S"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        melds=[books, [["6H", "6S", "6D"]]],
        phase="meld",
    )


def test_greedy_starts_the_wild_book_once_the_dirty_books_are_made() -> None:
    # Two clean and two dirty books made: of the quota (2 clean, 2 dirty, 1 wild) only the wild
    # book is missing, so the wild cards go into a wild meld, not into a meld of fives.
    clean = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]
    dirty = ["8C", "8D", "8H", "8S", "8C", "8D", "2H"]
    state = _hand_and_foot_position([clean, clean, dirty, dirty])
    action = GreedyBot(0).choose(state, 0)
    assert isinstance(action, Meld) and action.rank == Kind.JOKER and action.naturals == 0


def test_greedy_spends_wild_cards_on_dirty_books_while_the_quota_still_needs_them() -> None:
    clean = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]
    state = _hand_and_foot_position([clean, clean])
    action = GreedyBot(0).choose(state, 0)
    assert isinstance(action, Meld) and action.rank == Kind.FIVE and action.twos + action.jokers >= 1


def test_greedy_bots_go_out_in_most_hand_and_foot_deals() -> None:
    # Without a wild book no side meets the quota; greedy bots that spent every wild card on
    # dirty books ended all 8 of these deals by exhausting the stock.
    ends = []
    for seed in range(8):
        game = canasta.Game("hand-and-foot", seed=seed)
        bots = [make_bot("greedy", f"{seed}:{s}") for s in range(game.rules.players)]
        hand = game.hand
        while hand.end is None:
            game.apply(bots[hand.seat].choose(hand, hand.seat))
        ends.append(hand.end)
    assert ends.count(canasta.HandEnd.WENT_OUT) >= 5
