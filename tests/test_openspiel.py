"""canasta.openspiel: every variant as the OpenSpiel game python_canasta (issue 17)."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openspiel_states import dealt as _dealt
from openspiel_states import random_states as _random_states

import canasta
from canasta.openspiel import (
    BYTE_OUTCOMES,
    SEED_BYTES,
    CanastaGame,
    CanastaState,
    ChanceError,
    ParameterError,
    hand_length_bound,
)
from canasta.openspiel.infostate import information_state_text
from canasta.openspiel.text import observation_text
from canasta.rl import ActionSpaceError


def _play_out(state: CanastaState, seed: int = 0) -> CanastaState:
    rng = np.random.RandomState(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(BYTE_OUTCOMES)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


# -- OpenSpiel's own random simulation test, serialization included ---------------------------


@pytest.mark.parametrize("variant", [v.name for v in canasta.available_variants()])
def test_every_installed_variant_loads_and_passes_the_random_simulation_test(variant: str) -> None:
    game = pyspiel.load_game(f"python_canasta(variant={variant})")
    assert game.get_type().short_name == "python_canasta"
    assert game.num_players() == canasta.load_rules(variant).players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "spec",
    [
        "variant=three-player,house_rules=cutthroat",
        "variant=classic,house_rules=black-three-freezes+last-red-three-may-meld+wilds-at-most-naturals",
        "variant=modern-american,house_rules=american-talon",
        "variant=two-player,whole_game=True",
        "variant=hand-and-foot,house_rules=foot-after-first-book",
    ],
)
def test_house_rules_and_whole_games_pass_the_random_simulation_test(spec: str) -> None:
    game = pyspiel.load_game(f"python_canasta({spec})")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


# -- parameters and game type ---------------------------------------------------------------


def test_the_game_type_follows_the_variants_sides_and_the_length_of_a_game() -> None:
    classic = pyspiel.load_game("python_canasta")
    kind = classic.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert classic.max_chance_outcomes() == BYTE_OUTCOMES
    assert classic.max_game_length() == hand_length_bound(108)
    three = pyspiel.load_game("python_canasta(variant=three-player)")
    assert three.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    whole = pyspiel.load_game("python_canasta(variant=cuban,whole_game=True)")
    assert whole.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert whole.config.rules.variant == "cuban"


def test_bad_parameters_are_refused_with_typed_errors() -> None:
    with pytest.raises(canasta.UnknownNameError, match="nope"):
        pyspiel.load_game("python_canasta(variant=nope)")
    with pytest.raises(canasta.CanastaError, match="cutthroat"):
        pyspiel.load_game("python_canasta(variant=cuban,house_rules=cutthroat)")
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("python_canasta(colour=red)")
    with pytest.raises(ParameterError, match="colour"):
        CanastaGame({"colour": "red"})
    with pytest.raises(ParameterError, match="whole_game"):
        CanastaGame({"whole_game": 1})
    with pytest.raises(ParameterError, match="variant"):
        CanastaGame({"variant": 3})


# -- chance, legal actions, refusals --------------------------------------------------------


def test_the_deal_is_eight_uniform_seed_bytes_and_deals_as_canasta_game_does() -> None:
    game = pyspiel.load_game("python_canasta(variant=cuban)")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(256))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.legal_actions() == list(range(256))
    seed = 0x0102030405060708
    state = _dealt(game, seed)
    reference = canasta.Game("cuban", seed=seed)
    assert state.current_player() == reference.seat
    assert state.hand.hand_cards(0) == reference.hand.hand_cards(0)
    assert state.hand.stock == reference.hand.stock
    with pytest.raises(ChanceError):
        state.chance_outcomes()


def test_a_bad_chance_outcome_is_refused_and_changes_nothing() -> None:
    state = pyspiel.load_game("python_canasta").new_initial_state()
    state.apply_action(7)
    before = str(state)
    for bad in (256, 1000):
        with pytest.raises(ChanceError, match="seed byte"):
            state.apply_action(bad)
    assert str(state) == before
    assert state.history() == [7]


def test_legal_actions_are_exactly_the_engines_legal_actions_by_their_fixed_ids() -> None:
    game = pyspiel.load_game("python_canasta(variant=modern-american)")
    state = _dealt(game, 3)
    space = canasta.rl.ActionSpace(game.config.rules)
    rng = np.random.RandomState(3)
    while not state.is_terminal():
        ids = state.legal_actions()
        assert ids == sorted(space.to_id(a) for a in state.hand.legal_actions())
        strings = [state.action_to_string(state.current_player(), i) for i in ids]
        assert strings == [str(space.to_action(i)) for i in ids]
        assert len(set(strings)) == len(strings)
        for other in range(game.num_players()):
            if other != state.current_player():
                assert state.legal_actions(other) == []
        state.apply_action(int(rng.choice(ids)))
    assert list(state.legal_actions()) == []


def test_an_illegal_or_unknown_id_is_refused_with_the_rule_and_changes_nothing() -> None:
    game = pyspiel.load_game("python_canasta")
    state = _dealt(game, 5)
    before, history = str(state), state.history()
    discard_joker = canasta.rl.ActionSpace(game.config.rules).to_id(canasta.Discard(canasta.Kind.JOKER))
    assert discard_joker not in state.legal_actions()  # the turn starts with the draw
    with pytest.raises(canasta.IllegalActionError) as refused:
        state.apply_action(discard_joker)
    assert refused.value.code is not None
    with pytest.raises(ActionSpaceError):
        state.apply_action(game.num_distinct_actions())
    assert str(state) == before and state.history() == history
    with pytest.raises(pyspiel.SpielError):
        state.apply_action_with_legality_check(discard_joker)


# -- returns and rewards --------------------------------------------------------------------


def test_a_hands_returns_are_the_side_score_difference_in_partnership_variants() -> None:
    game = pyspiel.load_game("python_canasta(variant=classic)")
    state = _play_out(_dealt(game, 11), 11)
    totals = state.play.game.results[0].totals
    assert state.returns() == [totals[0] - totals[1], totals[1] - totals[0]] * 2
    assert state.rewards() == state.returns()
    assert sum(state.returns()) == 0
    assert abs(state.returns()[0]) <= game.max_utility()


def test_three_player_returns_are_each_players_own_score() -> None:
    game = pyspiel.load_game("python_canasta(variant=three-player)")
    state = _play_out(_dealt(game, 12), 12)
    assert state.returns() == [float(t) for t in state.play.game.results[0].totals]


def test_a_whole_game_rewards_each_hand_when_it_ends_and_returns_the_totals() -> None:
    game = pyspiel.load_game("python_canasta(variant=two-player,whole_game=True)")
    state = _dealt(game, 2)
    rng = np.random.RandomState(2)
    earned = np.zeros(2)
    hands_rewarded = 0
    while not state.is_terminal():
        hands = len(state.play.game.results)
        state.apply_action(int(rng.choice(state.legal_actions())))
        rewards = np.array(state.rewards())
        if len(state.play.game.results) > hands:
            hands_rewarded += 1
            totals = state.play.game.results[-1].totals
            assert list(rewards) == [totals[0] - totals[1], totals[1] - totals[0]]
        else:
            assert not rewards.any()
        earned += rewards
    scores = state.play.game.scores
    assert state.play.game.is_over and max(scores) >= game.config.rules.target_score
    assert list(earned) == state.returns() == [scores[0] - scores[1], scores[1] - scores[0]]
    assert hands_rewarded == len(state.play.game.results) > 1


# -- clone, serialize, records --------------------------------------------------------------


def test_a_clone_is_independent_and_shares_the_compiled_rules() -> None:
    game = pyspiel.load_game("python_canasta")
    state = _dealt(game, 4)
    copy = state.clone()
    assert copy.play.config is state.play.config
    copy.apply_action(copy.legal_actions()[0])
    assert str(copy) != str(state)
    assert len(state.history()) == SEED_BYTES


def test_the_state_text_shows_values_not_engine_objects() -> None:
    """ToString lists the hand's data as values: no rules, caches or object addresses, which differ by process."""
    from canasta.openspiel.text import table_text

    hand = canasta.Game("classic", seed=3).hand
    text = table_text(hand)
    assert "0x" not in text and "RuleFacts" not in text and "facts:" not in text
    assert f"turn: {hand.turn}" in text


def test_states_round_trip_through_serialize_as_their_json_record() -> None:
    game = pyspiel.load_game("python_canasta(variant=cuban)")
    state = _dealt(game, 9)
    rng = np.random.RandomState(9)
    for _ in range(60):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()
    assert again.observation_tensor(1) == state.observation_tensor(1)
    # The record is the state's canasta JSON record: it replays to the same state.
    record = json.loads(state.record().dumps())
    assert record["variant"]["name"] == "cuban" and len(record["actions"]) == 60
    assert str(game.state_from_record(state.record().dumps())) == str(state)
    before_deal = game.new_initial_state()
    before_deal.apply_action(1)
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, before_deal))
    assert restored.is_chance_node() and str(restored) == str(before_deal)


def test_a_record_of_other_rules_or_with_an_illegal_action_is_refused() -> None:
    classic = pyspiel.load_game("python_canasta")
    cuban = pyspiel.load_game("python_canasta(variant=cuban)")
    record = _dealt(cuban, 1).record()
    with pytest.raises(canasta.RecordError, match="cuban"):
        classic.state_from_record(record)
    data = json.loads(record.dumps())
    data["actions"] = [{"type": "discard", "kind": "*"}]
    with pytest.raises(canasta.RecordError, match="action 0"):
        cuban.state_from_record(json.dumps(data))


def test_a_record_of_another_first_dealer_is_refused_not_replayed_as_another_game() -> None:
    # python_canasta deals the first hand from the last seat, as Game() does (issue 31, item 2).
    cuban = pyspiel.load_game("python_canasta(variant=cuban)")
    recorder = canasta.GameRecorder(canasta.Game("cuban", seed=3, first_dealer=1))
    with pytest.raises(canasta.RecordError, match="first dealer") as info:
        cuban.state_from_record(recorder.record().dumps())
    assert info.value.where == "first_dealer"
    state = _dealt(cuban, 3)
    assert json.loads(state.record().dumps())["first_dealer"] == 3
    assert str(cuban.state_from_record(state.record().dumps())) == str(state)


def test_the_package_says_where_untrusted_input_must_go() -> None:
    # deserialize_game_and_state unpickles (issue 31, item 21): the docs say so, and name the record.
    import canasta.openspiel
    import canasta.openspiel.play

    for doc in (canasta.openspiel.__doc__, canasta.openspiel.play.__doc__):
        assert doc is not None
        text = " ".join(doc.split())
        assert "deserialize_game_and_state" in text and "unpickl" in text
        assert "state_from_record" in text and "loads_record" in text


# -- observations ---------------------------------------------------------------------------


def test_observations_show_what_the_seat_may_see_and_nothing_else() -> None:
    game = pyspiel.load_game("python_canasta")
    state = _dealt(game, 6)
    encoder = canasta.rl.ObservationEncoder(game.config.rules)
    for player in range(4):
        assert state.observation_string(player) == observation_text(state.hand.observation(player))
        tensor = np.array(state.observation_tensor(player), np.float32)
        assert np.array_equal(tensor, encoder.encode(state.hand, player))
    # Built from canasta.Observation alone: the seat's own cards, other hands only as sizes.
    mine = state.observation_string(0)
    assert f"hand: {' '.join(c.code for c in state.hand.hand_cards(0))}" in mine
    assert "seat 1:" not in mine and "stock:" in mine
    before = game.new_initial_state()
    assert before.observation_string(0) == "before the deal"
    assert not any(before.observation_tensor(0))
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == encoder.size


# -- OpenSpiel's bots -----------------------------------------------------------------------


def _search_setup(variant: str, seed: int) -> tuple[pyspiel.Game, np.random.RandomState, object]:
    """A game, a random generator and OpenSpiel's random-rollout evaluator (one rollout: a tiny budget)."""
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(f"python_canasta(variant={variant})")
    rng = np.random.RandomState(seed)
    return game, rng, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)


def _assert_hand_returns(state: CanastaState) -> None:
    assert state.is_terminal() and state.play.game.results
    totals = state.play.game.results[0].totals
    assert state.returns() == [totals[0] - totals[1], totals[1] - totals[0]] * 2


@pytest.mark.parametrize("variant", ["classic", "cuban"])
def test_openspiels_mcts_bot_plays_a_whole_hand_against_random_and_the_library_bots(variant: str) -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    from canasta.openspiel import LibraryBot

    game, rng, evaluator = _search_setup(variant, 1)
    bots = [
        mcts.MCTSBot(game, uct_c=500.0, max_simulations=3, evaluator=evaluator, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 2),
        LibraryBot("greedy", seed=3),
        LibraryBot("ismcts:2", seed=4),  # the library's own ISMCTS, two iterations a decision
    ]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    _assert_hand_returns(state)
    assert returns == state.returns()


# -- information states and resampling ------------------------------------------------------


def test_the_information_state_is_the_observation_the_log_and_the_players_own_draws() -> None:
    game = pyspiel.load_game("python_canasta")
    assert game.get_type().provides_information_state_string
    assert game.get_type().provides_information_state_tensor
    state = _random_states(game, 21, 1000)[-1]
    play = state.play
    for player in range(4):
        text = state.information_state_string(player)
        assert text == information_state_text(play, player)
        assert observation_text(state.hand.observation(player)) in text
        assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
    # Each seat's stock draws show their cards to that seat only.
    own = [line for line in state.information_state_string(0).splitlines() if "(got " in line]
    assert own and all(line.startswith("0: draw from the stock") for line in own)
    assert "(got " not in "\n".join(
        line for line in state.information_state_string(1).splitlines() if line.startswith("0:")
    )
    drawn = sum(len(cards) for _, cards in play.private[0])
    tensor = np.array(state.information_state_tensor(0))
    assert tensor[-15:].sum() == drawn
    discards = sum(1 for seat, action in state.hand.log if seat == 0 and isinstance(action, canasta.Discard))
    size = game.config.encoder.size
    assert tensor[size : size + 15].sum() == discards
    assert game.new_initial_state().information_state_string(0) == "before the deal"


@pytest.mark.parametrize("spec", ["variant=classic", "variant=cuban", "variant=three-player,whole_game=True"])
def test_resampling_keeps_the_players_information_state_and_deals_the_hidden_cards_again(spec: str) -> None:
    game = pyspiel.load_game(f"python_canasta({spec})")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for state in _random_states(game, 31, 37):
        for player in range(game.num_players()):
            key = state.information_state_string(player)
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == key
            assert sample.information_state_tensor(player) == state.information_state_tensor(player)
            assert sample.current_player() == state.current_player()
            if not state.is_terminal() and state.current_player() == player:
                assert sample.legal_actions() == state.legal_actions()
            changed += str(sample) != str(state)
    assert changed > 0
    # A sample plays on, on its own, and cannot be serialized (it has no record).
    state = _random_states(game, 32, 20)[0]
    sample = state.resample_from_infostate(0, sampler)
    _play_out(sample, 5)
    assert not state.is_terminal() and sample.is_terminal()
    with pytest.raises(TypeError, match="resampled"):
        pyspiel.serialize_game_and_state(game, sample)
    with pytest.raises(ValueError, match="resampled"):
        sample.record()


def test_resampling_before_the_deal_keeps_the_number_of_chance_outcomes() -> None:
    state = pyspiel.load_game("python_canasta").new_initial_state()
    state.apply_action(3)
    state.apply_action(4)
    sample = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.is_chance_node() and len(sample.play.seed_bytes) == 2
    assert sample.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize("variant", ["classic", "cuban"])
def test_openspiels_ismcts_bot_plays_whole_hands_through_resample_from_infostate(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from open_spiel.python.algorithms import ismcts

    from canasta.openspiel import LibraryBot

    game, rng, evaluator = _search_setup(variant, 7)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 500.0, 3, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 8),
        LibraryBot("greedy", seed=9),
        ismcts.ISMCTSBot(game, evaluator, 500.0, 3, random_state=rng, max_world_samples=2),
    ]
    resamples = 0
    original = CanastaState.resample_from_infostate

    def counted(self: CanastaState, player: int, sampler: object) -> CanastaState:
        nonlocal resamples
        resamples += 1
        return original(self, player, sampler)

    monkeypatch.setattr(CanastaState, "resample_from_infostate", counted)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(BYTE_OUTCOMES)))
        else:
            action = int(bots[state.current_player()].step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    _assert_hand_returns(state)
    assert resamples > 0


@given(
    variant=st.sampled_from(sorted(v.name for v in canasta.available_variants())),
    seed=st.integers(0, 2**64 - 1),
    steps=st.integers(0, 300),
    whole_game=st.booleans(),
)
def test_any_state_round_trips_and_resamples_without_changing_what_its_players_know(
    variant: str, seed: int, steps: int, whole_game: bool
) -> None:
    game = pyspiel.load_game(f"python_canasta(variant={variant},whole_game={whole_game})")
    state = _dealt(game, seed)
    rng = np.random.RandomState(seed % 2**32)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(state) and again.returns() == state.returns()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in range(game.num_players()):
        key = state.information_state_string(player)
        assert again.information_state_string(player) == key
        assert state.resample_from_infostate(player, sampler).information_state_string(player) == key


def test_openspiels_rl_environment_and_observation_api_run_on_the_game() -> None:
    from open_spiel.python import rl_environment
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_canasta(variant=cuban)")
    env = rl_environment.Environment(game, seed=3)  # what OpenSpiel's DQN and policy-gradient agents drive
    step = env.reset()
    rng = np.random.RandomState(3)
    earned = np.zeros(4)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
        earned += step.rewards
    assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
    assert list(earned) == env.get_state.returns() and sum(earned) == 0
    infostate = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    state = _dealt(game, 3)
    infostate.set_from(state, 2)
    assert list(infostate.dict) == ["observation", "discards", "drawn"]
    assert infostate.string_from(state, 2) == state.information_state_string(2)
    public_only = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="one player"):
        make_observation(game, public_only)
