"""python_canasta plays variants with packets after the hand and wild-pair takes (issue 33)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import packet_variants  # noqa: E402
from openspiel_states import dealt as _dealt  # noqa: E402
from openspiel_states import random_states as _random_states  # noqa: E402

import canasta  # noqa: E402
import canasta.openspiel.config as config  # noqa: E402
import canasta.records as records  # noqa: E402
from canasta.openspiel.text import observation_text  # noqa: E402
from canasta.rl import PACKETS_OBSERVATION_VERSION, WILD_PAIR_ACTION_SPACE_VERSION  # noqa: E402

REGISTRY = packet_variants.registry()


@pytest.fixture(autouse=True)
def _packet_variants(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The game (and its records, replayed by deserialization) look variants up in a registry with these."""
    monkeypatch.setattr(config, "default_registry", lambda: REGISTRY)
    monkeypatch.setattr(records, "default_registry", lambda: REGISTRY)
    monkeypatch.setattr(
        config,
        "load_rules",
        lambda variant, house_rules: canasta.load_rules(variant, house_rules, registry=REGISTRY),
    )
    yield


@pytest.mark.parametrize("variant", ["classic-feet", "feet-pile-of-seven"])
def test_the_packet_variants_pass_the_random_simulation_test(variant: str) -> None:
    game = pyspiel.load_game(f"python_canasta(variant={variant})")
    assert game.config.encoder.version == PACKETS_OBSERVATION_VERSION
    assert game.observation_tensor_size() == game.config.encoder.size
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_whole_game_with_packets_passes_the_random_simulation_test() -> None:
    game = pyspiel.load_game("python_canasta(variant=classic-feet,whole_game=True)")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_wild_pair_takes_are_ids_of_the_game() -> None:
    game = pyspiel.load_game("python_canasta(variant=feet-pile-of-seven)")
    actions = game.config.actions
    assert actions.version == WILD_PAIR_ACTION_SPACE_VERSION
    assert game.num_distinct_actions() == actions.size
    state = _dealt(game, 4)
    assert state.action_to_string(state.current_player(), actions.size - 2) == str(canasta.TakePile(0, 2, 0))
    assert state.action_to_string(state.current_player(), actions.size - 1) == str(canasta.TakePile(0, 0, 2))


def test_observation_and_information_state_show_packets_by_size_only() -> None:
    game = pyspiel.load_game("python_canasta(variant=classic-feet)")
    encoder = game.config.encoder
    state = _dealt(game, 6)
    hand = state.hand
    for player in range(4):
        text = state.observation_string(player)
        assert text == observation_text(hand.observation(player))
        assert "packets down: 11 | 11 | 11 | 11" in text
        assert text in state.information_state_string(player)
        tensor = np.array(state.observation_tensor(player), np.float32)
        assert np.array_equal(tensor, encoder.encode(hand, player))
        assert tensor[encoder.fields["packets_down"]].tolist() == [11.0] * 4
        info = np.array(state.information_state_tensor(player), np.float32)
        assert np.array_equal(info[: encoder.size], tensor)
        # No card of any foot, the seat's own included, is named in what the seat sees.
        feet = {hand.deck.cards[c].code for seat in range(4) for packet in hand.packets[seat] for c in packet}
        mine = {c.code for c in hand.hand_cards(player)}
        for line in state.information_state_string(player).splitlines():
            if line.startswith("hand:"):
                assert set(line.split()[1:]) == mine
        assert feet - mine  # (some foot card is not also in the hand: the check above means something)
    # Today's variants show no packet line.
    classic = pyspiel.load_game("python_canasta(variant=classic)")
    assert "packets" not in _dealt(classic, 6).observation_string(0)


def test_resampling_deals_every_foot_again_its_owners_too() -> None:
    game = pyspiel.load_game("python_canasta(variant=feet-pile-of-seven)")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    own_foot_changed = 0
    for state in _random_states(game, 41, 29)[:-1]:
        hand = state.hand
        for player in range(4):
            key = state.information_state_string(player)
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == key
            assert sample.information_state_tensor(player) == state.information_state_tensor(player)
            assert sample.current_player() == state.current_player()
            if state.current_player() == player:
                assert sample.legal_actions() == state.legal_actions()
            sampled = sample.hand
            assert [[len(p) for p in s] for s in sampled.packets] == [[len(p) for p in s] for s in hand.packets]
            if hand.packets[player]:
                kinds = sorted(hand.kinds[c] for c in hand.packets[player][0])
                own_foot_changed += kinds != sorted(sampled.kinds[c] for c in sampled.packets[player][0])
    assert own_foot_changed > 0  # a foot is unknown to its owner: the sample deals it again
