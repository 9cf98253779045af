"""canasta.openspiel: the sequence games (Samba, Bolivia, Brazilian canasta) as python_canasta (issue 34)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from openspiel_states import SEQUENCE_GAMES, dealt, random_states

import canasta
from canasta.openspiel import BYTE_OUTCOMES, CanastaGame
from canasta.openspiel.config import hand_score_bound
from canasta.openspiel.infostate import information_state_text
from canasta.openspiel.text import observation_text
from canasta.rl import ActionSpace, ObservationEncoder, SequenceActionSpace
from canasta.rl.seqobservations import SUITED_KINDS, suited_kind


@pytest.mark.parametrize("variant", SEQUENCE_GAMES)
def test_the_sequence_games_pass_the_random_simulation_test(variant: str) -> None:
    game = pyspiel.load_game(f"python_canasta(variant={variant})")
    assert game.num_distinct_actions() == 1_105_784 and game.num_players() == 4
    assert game.observation_tensor_size() == 2939
    assert game.information_state_tensor_size() == 2939 + 5 * SUITED_KINDS
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", SEQUENCE_GAMES)
def test_the_built_in_sequence_games_load_by_name(variant: str) -> None:
    game = CanastaGame({"variant": variant})  # the process-wide registry: no registry= needed
    assert type(game.config.actions) is SequenceActionSpace and game.config.encoder.version == 5
    assert type(pyspiel.load_game(f"python_canasta(variant={variant})")) is CanastaGame


@pytest.mark.parametrize("variant", SEQUENCE_GAMES)
def test_legal_actions_apply_and_returns_follow_the_engine(variant: str) -> None:
    game = CanastaGame({"variant": variant})
    space = ActionSpace(game.config.rules)
    encoder = ObservationEncoder(game.config.rules)
    bound = hand_score_bound(game.config.rules)
    assert game.max_utility() >= bound > hand_score_bound(canasta.load_rules("classic"))
    state = dealt(game, 5)
    rng = np.random.RandomState(5)
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        ids = state.legal_actions()
        assert ids == sorted(space.to_id(a) for a in state.hand.legal_actions())
        strings = [state.action_to_string(player, i) for i in ids]
        assert strings == [str(space.to_action(i)) for i in ids] and len(set(strings)) == len(strings)
        assert all(state.legal_actions(other) == [] for other in range(4) if other != player)
        if steps % 10 == 0:
            for seat in range(4):
                np.testing.assert_array_equal(
                    np.array(state.observation_tensor(seat), dtype=np.float32), encoder.encode(state.hand, seat)
                )
                assert state.observation_string(seat) == observation_text(state.hand.observation(seat))
        state.apply_action(int(rng.choice(ids)))
        steps += 1
    returns = state.returns()
    assert sum(returns) == 0 and returns[0] == returns[2] and max(map(abs, returns)) <= game.max_utility()
    assert state.play.game is not None
    scores = state.play.game.scores  # (one hand: the hand's scores)
    assert returns[0] == scores[0] - scores[1]
    assert steps > 50


def test_the_information_state_counts_discards_and_draws_by_rank_and_suit() -> None:
    game = CanastaGame({"variant": "samba"})
    state = random_states(game, 21, 10_000)[-1]
    play = state.play
    size = game.config.encoder.size
    for player in range(4):
        assert state.information_state_string(player) == information_state_text(play, player)
        tensor = np.array(state.information_state_tensor(player))
        assert len(tensor) == game.information_state_tensor_size()
        for rel in range(4):
            seat = (player + rel) % 4
            expected = [0] * SUITED_KINDS
            for who, action in state.hand.log:
                if who == seat and isinstance(action, canasta.Discard):
                    expected[suited_kind(action.kind, action.suit)] += 1
            block = tensor[size + rel * SUITED_KINDS : size + (rel + 1) * SUITED_KINDS]
            assert block.tolist() == expected
        drawn = [0] * SUITED_KINDS
        cards = state.hand.deck.cards
        for _, seen in play.private[player]:
            for card in seen:
                drawn[suited_kind(state.hand.kinds[card], cards[card].suit)] += 1
        assert tensor[-SUITED_KINDS:].tolist() == drawn and sum(drawn) > 0


def test_a_samba_state_round_trips_through_serialize_and_its_record() -> None:
    game = pyspiel.load_game("python_canasta(variant=samba)")
    state = dealt(game, 9)
    rng = np.random.RandomState(9)
    for _ in range(80):
        state.apply_action(int(rng.choice(state.legal_actions())))
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(state) and again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()
    assert again.information_state_tensor(2) == state.information_state_tensor(2)
    assert str(game.state_from_record(state.record().dumps())) == str(state)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()


def test_a_whole_samba_game_rewards_each_hand() -> None:
    game = CanastaGame({"variant": "samba", "whole_game": True})
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    paid = 0
    for _ in range(3000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.randint(BYTE_OUTCOMES)))
            continue
        state.apply_action(int(rng.choice(state.legal_actions())))
        paid += any(state.rewards())
    assert paid >= 1  # a hand ended and paid its scores
