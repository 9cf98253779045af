"""Random classic play with every invariant checked after every action (issue 2 item 7).

Checks (see `helpers.check_state`): all 108 cards accounted for exactly once,
a sample of listed legal actions accepted on copies, sampled unlisted actions
refused with the state unchanged, breakdowns summing to totals, and no dead end.
"""

from __future__ import annotations

import random

from helpers import check_conservation, check_state, play_random_hand
from hypothesis import given
from hypothesis import strategies as st

from canasta import Game

scores = st.sampled_from([-300, 0, 1200, 1500, 2990, 3000, 4800])


@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3), s0=scores, s1=scores)
def test_random_hands_keep_every_invariant(seed: int, dealer: int, s0: int, s1: int) -> None:
    rng = random.Random(seed)
    state, actions = play_random_hand(rng, seed=seed, scores=[s0, s1], dealer=dealer, illegal_sample=4)
    assert state.is_over and actions > 0
    assert sum(len(v) for v in state.card_locations().values()) == 108


@given(seed=st.integers(0, 2**32 - 1))
def test_random_hands_every_legal_action_is_accepted(seed: int) -> None:
    # The exhaustive variant: every listed action is applied on a copy at every step.
    rng = random.Random(seed)
    play_random_hand(rng, seed=seed, legal_sample=None, illegal_sample=2)


@given(seed=st.integers(0, 2**32 - 1))
def test_random_game_scores_are_the_sum_of_hand_totals(seed: int) -> None:
    game = Game("classic", seed=seed)
    rng = random.Random(seed)
    for _ in range(600):  # a few hands; whole hands are covered above and by the benchmark script
        if game.is_over:
            break
        legal = game.legal_actions()
        assert legal, "dead end"
        game.apply(rng.choice(legal))
        check_conservation(game.hand)
    for result in game.results:
        assert sum(s.total for s in result.sides) == sum(result.totals)
    assert list(game.scores) == [sum(r.totals[s] for r in game.results) for s in range(2)]
    if game.is_over:
        assert max(game.scores) >= 5000


def test_check_state_catches_a_broken_state() -> None:
    # The checker itself must be able to fail: lose a card and it complains.
    rng = random.Random(0)
    state, _ = play_random_hand(rng, seed=1, check=False)
    state.stock.append(state.stock[0] if state.stock else 0)
    try:
        check_state(state, rng)
    except AssertionError:
        return
    raise AssertionError("a duplicated card went unnoticed")


def test_always_playing_the_first_legal_action_finishes_the_game() -> None:
    # Regression: "meld below the minimum, retract, meld again" once cycled forever.
    game = Game("classic", seed=1)
    for _ in range(20_000):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])
    assert game.is_over and max(game.scores) >= 5000
