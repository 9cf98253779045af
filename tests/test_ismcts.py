"""The ISMCTS bot (issue 16): legal, deterministic for a seed, deciding from its seat's information only."""

from __future__ import annotations

import random

import pytest

import canasta
from canasta import CanastaError, Game, HandState, ISMCTSBot, UnknownNameError, make_bot, sample_state
from canasta.ismcts import parse_budget


def _position(variant: str, seed: int, steps: int) -> HandState:
    """A position reached by greedy play where the acting seat has a real choice."""
    game = Game(variant, seed=seed)
    bots = [make_bot("greedy", s) for s in range(game.rules.players)]
    for _ in range(steps):
        hand = game.hand
        game.apply(bots[hand.seat].choose(hand, hand.seat))
    hand = game.hand
    while len(hand.legal_actions()) < 2:
        game.apply(bots[hand.seat].choose(hand, hand.seat))
        hand = game.hand
    return hand


@pytest.mark.parametrize("variant", ["classic", "modern-american", "three-player"])
def test_it_plays_legal_actions(variant: str) -> None:
    hand = _position(variant, seed=3, steps=10)
    bot = make_bot("ismcts", 1, iterations=6)
    before = hand.copy()
    action = bot.choose(hand, hand.seat)
    assert action in hand.legal_actions()
    assert hand.log == before.log and hand.stock == before.stock  # the true state is untouched
    assert isinstance(bot, ISMCTSBot) and bot.last is not None and bot.last.iterations == 6


def test_same_seed_same_choices_and_statistics() -> None:
    hand = _position("classic", seed=5, steps=6)
    first = ISMCTSBot(7, iterations=12).search(hand, hand.seat)
    second = ISMCTSBot(7, iterations=12).search(hand, hand.seat)
    assert first.actions == second.actions
    assert abs(sum(s.share for s in first.actions) - 1.0) < 1e-9
    assert first.best.visits == max(s.visits for s in first.actions)


@pytest.mark.parametrize(("variant", "seed", "steps"), [("classic", 11, 30), ("cuban", 2, 20), ("two-player", 4, 25)])
def test_it_decides_from_its_information_state_only(variant: str, seed: int, steps: int) -> None:
    # Handed another state consistent with its seat's view, it plays exactly the same.
    hand = _position(variant, seed, steps)
    seat = hand.seat
    other = sample_state(hand.observation(seat), random.Random(99))
    assert other.stock != hand.stock  # really a different deal of the hidden cards
    true_result = ISMCTSBot(3, iterations=10).search(hand, seat)
    sampled_result = ISMCTSBot(3, iterations=10).search(other, seat)
    assert true_result.actions == sampled_result.actions


def test_a_forced_move_needs_no_search() -> None:
    hand = Game("classic", seed=1).hand
    greedy = make_bot("greedy", 0)
    while len(hand.legal_actions()) != 1:
        hand.apply(greedy.choose(hand, hand.seat))
    bot = ISMCTSBot(0, iterations=50)
    assert bot.choose(hand, hand.seat) == hand.legal_actions()[0]
    assert bot.last is not None and bot.last.iterations == 0


def test_a_time_budget_runs_at_least_one_iteration() -> None:
    hand = _position("classic", seed=8, steps=4)
    bot = make_bot("ismcts:1ms", 0)
    action = bot.choose(hand, hand.seat)
    assert action in hand.legal_actions()
    assert isinstance(bot, ISMCTSBot) and bot.last is not None and bot.last.iterations >= 1


def test_budgets_and_options_in_the_name() -> None:
    assert parse_budget("300") == (300, None)
    assert parse_budget("50ms") == (None, 50.0)
    bot = make_bot("ismcts:40,c=0.3,playout=random", 0)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.milliseconds, bot.exploration, bot.playout) == (40, None, 0.3, "random")


@pytest.mark.parametrize(
    "name", ["ismcts:abc", "ismcts:0", "ismcts:2.5", "ismcts:10,depth=3", "ismcts:10,playout=clever", "ismcts:10,c=x"]
)
def test_bad_budgets_and_options_are_refused(name: str) -> None:
    with pytest.raises(CanastaError):
        make_bot(name, 0)


def test_bad_keyword_options_are_refused() -> None:
    with pytest.raises(CanastaError, match="not both"):
        ISMCTSBot(0, iterations=5, milliseconds=5)
    with pytest.raises(CanastaError, match="bad options"):
        make_bot("ismcts", 0, depth=3)
    with pytest.raises(CanastaError, match="not both"):
        make_bot("ismcts:5", 0, iterations=5)
    with pytest.raises(UnknownNameError, match="ismcts:<options>"):
        make_bot("clever:5", 0)


def test_it_is_registered_for_the_command_line_and_simulations() -> None:
    assert "ismcts" in canasta.bots.bot_names()
    result = canasta.simulate.simulate("classic", games=1, bots=("ismcts:2", "greedy"), seed=1, max_hands=1)
    assert result.summary.games == 1 and result.summary.bots == ("ismcts:2", "greedy", "ismcts:2", "greedy")
