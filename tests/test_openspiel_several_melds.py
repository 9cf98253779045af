"""python_canasta plays Hand and Foot's ``pierson-family``: several melds of a kind, wild cards onto books."""

from __future__ import annotations

import attrs
import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from openspiel_states import dealt, random_states  # noqa: E402

import canasta  # noqa: E402
from canasta import Meld  # noqa: E402
from canasta.openspiel.config import hand_score_bound  # noqa: E402
from canasta.rl import (  # noqa: E402
    SEVERAL_MELDS_ACTION_SPACE_VERSION,
    SEVERAL_MELDS_OBSERVATION_VERSION,
    ActionSpace,
    ObservationEncoder,
)

GAME = "python_canasta(variant=hand-and-foot,house_rules=pierson-family)"
RULES = canasta.load_rules("hand-and-foot", ["pierson-family"])


def test_the_game_follows_the_version_10_ids_and_the_version_6_observation() -> None:
    game = pyspiel.load_game(GAME)
    actions, encoder = game.config.actions, game.config.encoder
    assert actions.version == SEVERAL_MELDS_ACTION_SPACE_VERSION
    assert encoder.version == SEVERAL_MELDS_OBSERVATION_VERSION
    assert game.num_distinct_actions() == actions.size == ActionSpace(RULES).size == 6207
    assert game.observation_tensor_size() == encoder.size == ObservationEncoder(RULES).size
    assert game.num_players() == 4
    state = dealt(game, 3)
    later = actions.to_id(Meld(canasta.Kind.KING, 1, slot=2))
    assert state.action_to_string(state.current_player(), later) == str(Meld(canasta.Kind.KING, 1, slot=2))


def test_a_hand_passes_the_random_simulation_test() -> None:
    game = pyspiel.load_game(GAME)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_whole_game_passes_the_random_simulation_test() -> None:
    game = pyspiel.load_game(GAME.replace(")", ",whole_game=True)"))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_legal_actions_and_tensors_are_the_engines_and_later_melds_are_played() -> None:
    game = pyspiel.load_game(GAME)
    actions, encoder = game.config.actions, game.config.encoder
    played = 0
    for seed in (4, 5, 6):
        state = dealt(game, seed)
        rng = np.random.RandomState(seed)
        while not state.is_terminal():
            hand = state.hand
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(actions.legal_ids(hand))
            assert np.array_equal(np.array(state.observation_tensor(player), np.float32), encoder.encode(hand, player))
            later = [i for i in legal if _names_a_later_meld_or_a_book(actions.to_action(i))]
            if later and rng.random_sample() < 0.5:
                action = int(rng.choice(later))  # onto a later meld of a kind, a new one beside it, or a dirty book
                played += 1
            else:
                melds = [i for i in legal if isinstance(actions.to_action(i), Meld)]
                action = int(rng.choice(melds if melds and rng.random_sample() < 0.6 else legal))
            state.apply_action(action)
        returns = state.returns()
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    assert played > 10


def _names_a_later_meld_or_a_book(action: canasta.Action) -> bool:
    """Onto a later meld of a kind, a new one beside open ones, or wild cards onto a dirty book."""
    return isinstance(action, Meld) and bool(action.slot or (action.book and action.twos + action.jokers))


def test_resampling_keeps_the_information_state() -> None:
    game = pyspiel.load_game(GAME)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in random_states(game, 7, 37)[:-1]:
        for player in range(4):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.information_state_tensor(player) == state.information_state_tensor(player)
            if state.current_player() == player:
                assert sample.legal_actions() == state.legal_actions()


def test_the_score_bound_counts_a_penalty_for_every_open_meld_of_a_kind() -> None:
    penalised = attrs.evolve(RULES, incomplete_meld_penalties=((canasta.Kind.KING, 100),))
    one = attrs.evolve(penalised, melds=attrs.evolve(penalised.melds, several_melds=False))
    # 8 open melds of kings at most under several-melds (16 kings, 2 naturals a meld); 2 elsewhere (cutthroat).
    assert hand_score_bound(penalised) - hand_score_bound(RULES) == 8 * 100
    assert hand_score_bound(one) - hand_score_bound(attrs.evolve(RULES, melds=one.melds)) == 2 * 100
