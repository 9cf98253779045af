"""The ISMCTS bot (issue 16): legal, deterministic for a seed, deciding from its seat's information only."""

from __future__ import annotations

import random

import pytest

import canasta
from canasta import (
    AnswerGoOut,
    AskGoOut,
    CanastaError,
    DrawStock,
    Game,
    HandState,
    ISMCTSBot,
    TakePile,
    UnknownNameError,
    make_bot,
    sample_state,
)
from canasta.cli import hint_line
from canasta.ismcts import MIN_PAIRED, ask_changes_turn, parse_budget


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
    # The policy's choice is played on every deal another action is, so it is the most visited.
    assert first.policy_choice is not None
    assert next(s for s in first.actions if s.action == first.policy_choice).visits == max(
        s.visits for s in first.actions
    )


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


def test_it_keeps_the_policy_choice_unless_the_paired_evidence_is_strong() -> None:
    hand = _position("classic", seed=13, steps=8)
    seat = hand.seat
    greedy = canasta.GreedyBot("ismcts-playout:4").choose(hand, seat)  # the bot's own policy, same seed
    sure = ISMCTSBot(4, iterations=20, confidence=1e9)
    assert sure.choose(hand, seat) == greedy
    plain = ISMCTSBot(4, iterations=20, confidence=None)
    result = plain.search(hand, seat)
    assert result.best.visits == max(s.visits for s in result.actions)  # plain ISMCTS: the most visited
    assert make_bot("ismcts:20,z=none", 4).confidence is None  # type: ignore[attr-defined]


# --- issue 32: asking "may I go out?" and the hint's numbers ----------------------------------


def _opening(variant: str, seed: int) -> HandState:
    rules = canasta.load_rules(variant)
    return HandState.deal(rules, dealer=rules.players - 1, scores=[0] * rules.side_count, seed=seed)


def _first_meaningful_ask(variant: str, seed: int) -> HandState:
    """The first position of greedy play where asking is legal and could change the turn."""
    hand = _opening(variant, seed)
    greedy = [make_bot("greedy", s) for s in range(hand.rules.players)]
    while not hand.is_over:
        if AskGoOut() in hand.legal_actions() and ask_changes_turn(hand):
            return hand
        hand.apply(greedy[hand.seat].choose(hand, hand.seat))
    raise AssertionError(f"no meaningful ask in {variant} seed {seed}")


@pytest.mark.parametrize("variant", ["classic", "cuban"])
@pytest.mark.parametrize("seed", range(1, 9))
def test_asking_is_not_searched_where_no_answer_can_change_the_turn(variant: str, seed: int) -> None:
    # The 16 openings: "ask" took most of the visits in 14, though it changes nothing there.
    hand = _opening(variant, seed)
    assert AskGoOut() in hand.legal_actions()
    assert not ask_changes_turn(hand)
    result = ISMCTSBot(seed, iterations=12).search(hand, hand.seat)
    assert all(not isinstance(s.action, AskGoOut) for s in result.actions)
    assert result.best.action == DrawStock() and result.iterations == 0  # the one other action: no search
    assert "asking" in result.reason


@pytest.mark.parametrize("variant", ["classic", "cuban"])
def test_an_ask_that_changes_nothing_leads_back_to_the_same_position(variant: str) -> None:
    # Why it is not searched: after either answer the asker faces the same choices as before asking.
    hand = _opening(variant, 3)
    before = [a for a in hand.legal_actions() if not isinstance(a, AskGoOut)]
    for yes in (True, False):
        after = hand.copy()
        after.apply(AskGoOut())
        after.apply(AnswerGoOut(yes))
        assert after.seat == hand.seat and list(after.legal_actions()) == before


@pytest.mark.parametrize(("variant", "seed"), [("classic", 1), ("classic", 2), ("cuban", 2)])
def test_asking_is_searched_where_going_out_is_possible(variant: str, seed: int) -> None:
    hand = _first_meaningful_ask(variant, seed)
    trial = hand.copy()
    trial.apply(AskGoOut())
    trial.apply(AnswerGoOut(True))
    # A "yes" binds (after the draw) or a pile take that keeps going out possible is legal (before it).
    assert trial.bound or any(isinstance(a, TakePile) for a in trial.legal_actions())
    result = ISMCTSBot(1, iterations=16).search(hand, hand.seat)
    assert any(isinstance(s.action, AskGoOut) and s.visits > 0 for s in result.actions)


@pytest.mark.parametrize(("variant", "seed", "decisions"), [("classic", 13, 2), ("cuban", 1, 3), ("classic", 5, 6)])
def test_the_policy_choice_is_played_on_every_deal_another_action_is(variant: str, seed: int, decisions: int) -> None:
    # The hint recommended an action with 1% of the visits: an unlucky first deal had starved
    # the policy's choice, so nothing could be compared with it. Now every comparison has its deals.
    hand = _hint_game(variant, seed, decisions).hand
    result = ISMCTSBot(seed, iterations=30).search(hand, hand.seat)
    assert result.iterations == 30
    default = next(s for s in result.actions if s.action == result.policy_choice)
    others = [s for s in result.actions if s.action != result.policy_choice]
    assert default.gain is None and all(default.visits >= s.visits for s in others)
    for s in others:
        assert (s.gain is not None) == (s.visits >= MIN_PAIRED)
        assert s.paired == (s.visits if s.gain is not None else 0)
    if result.best.action == result.policy_choice:
        compared = any(s.gain is not None for s in others)
        assert ("no other action beat it on the same deals by 1.28" if compared else "common deals needed") in (
            result.reason
        )
    else:
        assert result.best.gain is not None and result.best.gain > 0


def _hint_game(variant: str, seed: int, decisions: int) -> Game:
    game = Game(variant, seed=seed)
    greedy = make_bot("greedy", 0)
    while True:
        if len(game.legal_actions()) > 2:
            decisions -= 1
            if decisions < 0:
                return game
        game.apply(greedy.choose(game.hand, game.seat))


@pytest.mark.parametrize(("variant", "seed", "decisions"), [("cuban", 1, 1), ("cuban", 1, 3), ("classic", 2, 4)])
def test_the_hint_shows_the_recommended_action_with_its_own_numbers_and_the_others(
    variant: str, seed: int, decisions: int
) -> None:
    game = _hint_game(variant, seed, decisions)
    numbered = list(game.legal_actions())
    bot = ISMCTSBot(2, iterations=24)
    text = hint_line(bot, game, game.seat, numbered)
    result = bot.last
    assert result is not None and result.iterations == 24
    best = result.best
    number = numbered.index(best.action) + 1
    lines = text.splitlines()
    assert lines[0].startswith(f"hint: [{number}] ")
    # The numbers of the first line are the recommended action's own.
    own = f"({100 * best.share:.0f}% of 24 search iterations, mean {best.mean:+.0f} points for your side)"
    assert lines[0].endswith(own)
    rows = [line for line in lines if "%  mean" in line]
    by_visits = sorted(result.actions, key=lambda s: (-s.visits, -s.mean))
    shown = by_visits[:3] + ([best] if best not in by_visits[:3] else [])
    assert len(rows) == len(shown)
    for row, stats in zip(rows, shown, strict=True):
        assert f"{100 * stats.share:3.0f}%  mean {stats.mean:+5.0f}" in row
        assert row.lstrip().startswith(">") == (stats is best)
        if stats.action == result.policy_choice:
            assert "(default)" in row
        elif stats.gain is not None:
            assert f"gain {stats.gain:+.0f} on {stats.paired}" in row
    assert all(len(line) <= 80 for line in lines[1:])
    start = next(i for i, line in enumerate(lines) if line.startswith("  why: "))
    end = next(i for i, line in enumerate(lines) if line.startswith("  weighed: "))
    why = " ".join(line.strip() for line in lines[start:end])
    assert "default" in why
    if best.action != result.policy_choice:
        assert f"by {best.gain:+.0f} points a hand on the same {best.paired} deals" in why
    elif any(s.gain is not None for s in result.actions):
        assert "no other action did better on the same deals by more than 1.28 standard errors" in why
    else:
        assert "no other action was tried on enough of the same deals" in why


def test_a_hint_without_a_search_says_why() -> None:
    game = Game("cuban", seed=1)
    text = hint_line(ISMCTSBot(0, iterations=20), game, game.seat, list(game.legal_actions()))
    assert text.startswith("hint: [") and "could not change this turn" in " ".join(text.split())


@pytest.mark.parametrize(
    "options",
    [
        {"exploration": float("nan")},
        {"exploration": float("inf")},
        {"exploration": -1.0},
        {"milliseconds": float("inf")},
    ],
)
def test_a_search_bot_with_a_non_finite_or_negative_setting_is_refused(options: dict[str, float]) -> None:
    """Made directly, not through `make_bot`'s spec check: the bot checks its own numbers."""
    with pytest.raises(canasta.CanastaError):
        ISMCTSBot(0, **options)  # type: ignore[arg-type]
