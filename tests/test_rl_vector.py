"""canasta.rl.VectorEnv: arrays, seeding, autoreset, equality with the single env, refusals (issue 14, item 4)."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import attrs  # noqa: E402
from rl_reference import reference_mask, reference_observation  # noqa: E402

import canasta  # noqa: E402
from canasta import IllegalActionError, RuleCode  # noqa: E402
from canasta.cards import SECOND_MELD  # noqa: E402
from canasta.rl import ActionSpaceError, CanastaEnv, VectorEnv, random_legal_ids  # noqa: E402


def random_ids(mask: Any, rng: Any) -> Any:
    """One uniformly random legal id per row (the simple way, to check `random_legal_ids` against)."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


def test_random_legal_ids_draws_only_legal_ids_and_all_of_them() -> None:
    mask = np.zeros((3, 6), dtype=bool)
    mask[0, [1, 4]] = True
    mask[1, 5] = True
    mask[2, :] = True
    rng = np.random.default_rng(0)
    drawn = np.array([random_legal_ids(mask, rng) for _ in range(600)])
    assert drawn.dtype == np.int64 and drawn.shape == (600, 3)
    assert set(drawn[:, 0]) == {1, 4} and set(drawn[:, 1]) == {5} and set(drawn[:, 2]) == set(range(6))
    with pytest.raises(ValueError, match="row 1 of action_mask has no legal id"):
        random_legal_ids(np.array([[True], [False]]), rng)
    with pytest.raises(ValueError, match="shape"):
        random_legal_ids(np.array([True]), rng)


def test_shapes_dtypes_and_spaces() -> None:
    venv = VectorEnv(3, "two-player", max_hands=1)
    obs, infos = venv.reset(seed=0)
    size, actions, players = venv.observation_encoder.size, venv.action_encoding.size, venv.rules.players
    assert obs.shape == (3, size) and obs.dtype == np.float32
    assert infos["action_mask"].shape == (3, actions) and infos["action_mask"].dtype == np.bool_
    assert infos["seat"].shape == (3,) and infos["seat"].dtype == np.int64
    assert venv.single_action_space.n == actions and venv.action_space.shape == (3,)
    assert venv.single_observation_space.shape == (size,) and venv.observation_space.shape == (3, size)
    assert venv.observation_space.contains(obs)
    obs, rewards, terminations, truncations, infos = venv.step(
        random_ids(infos["action_mask"], np.random.default_rng(0))
    )
    assert rewards.shape == (3, players) and rewards.dtype == np.float32
    assert terminations.shape == truncations.shape == (3,) and terminations.dtype == truncations.dtype == np.bool_
    assert venv.metadata["autoreset_mode"].value == "SameStep"


def test_every_row_is_the_acting_seats_view_and_mask() -> None:
    venv = VectorEnv(4, "classic")
    obs, infos = venv.reset(seed=11)
    rng = np.random.default_rng(1)
    for _ in range(30):
        assert venv.games is not None
        for i, game in enumerate(venv.games):
            seat = game.seat
            assert infos["seat"][i] == seat
            np.testing.assert_array_equal(obs[i], venv.observation_encoder.encode(game, seat))
            np.testing.assert_array_equal(infos["action_mask"][i], venv.action_encoding.legal_mask(game))
        obs, _, _, _, infos = venv.step(random_ids(infos["action_mask"], rng))


def test_a_large_batch_converts_its_rows_exactly_also_a_rank_held_as_two_melds_and_wide_values() -> None:
    # From 32 games on, the rows go to numpy as their non-zero values (canasta.viewvalues.take_entries).
    # Under cutthroat a regrouped side may hold a rank as two melds, whose cards show together; scores
    # past the first hand may not fit a byte (patched in after the conversion).
    rules = canasta.load_rules("three-player", ("cutthroat",))
    venv = VectorEnv(32, rules=rules)
    encoder, space = venv.observation_encoder, venv.action_encoding
    obs, infos = venv.reset(seed=3)
    rng = np.random.default_rng(3)
    second_meld_seen = wide_seen = False
    for _ in range(400):
        assert venv.games is not None
        for i, game in enumerate(venv.games):
            hand = game.hand
            np.testing.assert_array_equal(obs[i], reference_observation(encoder, hand, hand.seat))
            np.testing.assert_array_equal(infos["action_mask"][i], reference_mask(space, hand))
            second_meld_seen |= any(key >= SECOND_MELD for melds in hand.melds for key in melds)
            wide_seen |= any(not 0 <= score < 256 for score in hand.scores)
        if second_meld_seen and wide_seen:
            break
        obs, _, _, _, infos = venv.step(random_legal_ids(infos["action_mask"], rng))
    assert second_meld_seen and wide_seen  # both cases were met


def play(venv: VectorEnv, steps: int, seed: int) -> list[tuple[Any, ...]]:
    obs, infos = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[tuple[Any, ...]] = [(obs.copy(), infos["action_mask"].copy())]
    for _ in range(steps):
        actions = random_ids(infos["action_mask"], rng)
        obs, rewards, terminations, truncations, infos = venv.step(actions)
        trace.append((actions, obs.copy(), rewards.copy(), terminations.copy(), truncations.copy()))
    return trace


def test_deterministic_for_a_seed_and_different_for_another() -> None:
    first = play(VectorEnv(3, "classic", max_hands=1), 120, seed=5)
    again = play(VectorEnv(3, "classic", max_hands=1), 120, seed=5)
    for a, b in zip(first, again, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    other = play(VectorEnv(3, "classic", max_hands=1), 1, seed=6)
    assert not np.array_equal(first[0][0], other[0][0])


@pytest.mark.parametrize(
    ("variant", "reward", "max_hands"), [("classic", "game", None), ("three-player", "hand", 2), ("cuban", "hand", 1)]
)
def test_sub_games_are_the_single_envs_games_across_autoresets(
    variant: str, reward: Any, max_hands: int | None
) -> None:
    """Each game, replayed through CanastaEnv from its seed (reset() for the next game), step by step."""
    short = canasta.GameLength(target_score=150)  # short games: several autoresets
    rules = attrs.evolve(canasta.load_rules(variant), game_length=short)
    n = 3
    venv = VectorEnv(n, rules=rules, reward=reward, max_hands=max_hands)
    obs, infos = venv.reset(seed=[40, 7, 99])
    singles = [CanastaEnv(rules=rules, reward=reward, max_hands=max_hands) for _ in range(n)]
    for single, seed in zip(singles, [40, 7, 99], strict=True):
        single.reset(seed=seed)
    rng = np.random.default_rng(3)
    resets = 0
    paid = False
    for _ in range(700):
        for i, single in enumerate(singles):
            agent = single.agent_selection
            assert single.possible_agents[infos["seat"][i]] == agent
            seen = single.observe(agent)
            np.testing.assert_array_equal(obs[i], seen["observation"])
            np.testing.assert_array_equal(infos["action_mask"][i], seen["action_mask"].astype(bool))
        actions = random_ids(infos["action_mask"], rng)
        obs, rewards, terminations, truncations, infos = venv.step(actions)
        for i, single in enumerate(singles):
            single.step(int(actions[i]))
            expected = [single.rewards[a] for a in single.possible_agents]
            np.testing.assert_array_equal(rewards[i], np.array(expected, dtype=np.float32))
            paid = paid or any(expected)
            assert terminations[i] == all(single.terminations.values())
            assert truncations[i] == all(single.truncations.values())
            if terminations[i] or truncations[i]:
                resets += 1
                assert infos["_final_obs"][i]
                single.reset()  # the next game's seed comes from the last seed given, as in the vector env
    assert resets >= 2 and paid


def test_autoreset_starts_the_next_game_in_the_same_step() -> None:
    venv = VectorEnv(2, "classic", max_hands=1)
    _, infos = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    assert venv.games is not None
    first_games = list(venv.games)
    for _ in range(2000):
        _, rewards, terminations, truncations, infos = venv.step(random_ids(infos["action_mask"], rng))
        if truncations.any():
            break
    else:
        pytest.fail("no hand ended")
    i = int(np.flatnonzero(truncations)[0])
    assert not terminations[i]
    assert venv.games[i] is not first_games[i] and venv.games[i].hand_number == 0
    assert not venv.games[i].history  # the new game's first decision
    assert rewards[i].any()  # the ended hand paid out in this step
    assert infos["_final_obs"][i] and infos["final_obs"][i].any()
    assert not infos["final_obs"][1 - i].any() or truncations[1 - i]
    assert infos["action_mask"][i].any()


def test_an_illegal_id_is_refused_with_its_rule_and_nothing_changes() -> None:
    venv = VectorEnv(3, "classic")
    _, infos = venv.reset(seed=2)
    assert venv.games is not None
    before = [game.history for game in venv.games]
    mask = infos["action_mask"]
    actions = np.array([np.flatnonzero(row)[0] for row in mask])
    discard = venv.action_encoding.to_id(canasta.Discard(canasta.Kind.KING))
    assert not mask[1, discard]  # the draw comes first
    actions[1] = discard
    with pytest.raises(IllegalActionError) as caught:
        venv.step(actions)
    assert caught.value.code is RuleCode.WRONG_PHASE and "game 1:" in str(caught.value)
    assert [game.history for game in venv.games] == before
    assert venv.games[0].history == ()  # game 0, before game 1 in the batch, did not move either
    for bad, error in (
        ([0, 0, 5000], ActionSpaceError),
        ([0, -1, 0], ActionSpaceError),
        ([0.5, 0, 0], ActionSpaceError),
    ):
        with pytest.raises(error):
            venv.step(np.array(bad))
    with pytest.raises(ActionSpaceError, match="3 integer action ids"):
        venv.step(np.array([0, 0]))
    assert [game.history for game in venv.games] == before
    venv.step(np.array([np.flatnonzero(row)[0] for row in mask]))  # still playable
    assert all(len(game.history) == 1 for game in venv.games)


def test_bad_arguments_are_refused() -> None:
    for kwargs in ({"num_envs": 0}, {"num_envs": 2, "reward": "win"}, {"num_envs": 2, "max_hands": 0}):
        with pytest.raises(ValueError):
            VectorEnv(**kwargs)
    venv = VectorEnv(2, "classic")
    with pytest.raises(RuntimeError, match="reset"):
        venv.step(np.array([0, 0]))
    with pytest.raises(ValueError, match="2 integers"):
        venv.reset(seed=[1, 2, 3])
    venv.reset()  # random seeds
    assert venv.games is not None and len(venv.games) == 2


def test_copy_false_returns_the_envs_own_buffers() -> None:
    venv = VectorEnv(2, "classic", copy=False)
    obs, infos = venv.reset(seed=0)
    again, infos2 = venv.reset(seed=1)
    assert again is obs and infos2["action_mask"] is infos["action_mask"]
    copied = VectorEnv(2, "classic")
    a, _ = copied.reset(seed=0)
    b, _ = copied.reset(seed=0)
    assert a is not b
    np.testing.assert_array_equal(a, b)


def test_a_game_changed_from_outside_is_stepped_from_its_state_now() -> None:
    venv = VectorEnv(2, "classic")
    _, infos = venv.reset(seed=8)
    assert venv.games is not None
    game = venv.games[0]
    draw = venv.action_encoding.to_id(canasta.DrawStock())
    assert infos["action_mask"][0, draw]
    game.apply(canasta.DrawStock())  # behind the env's back: now game 0 must meld or discard
    other = int(np.flatnonzero(infos["action_mask"][1])[0])
    with pytest.raises(IllegalActionError, match="game 0:"):
        venv.step(np.array([draw, other]))  # the id the old mask allowed is not legal any more
    assert len(game.history) == 1 and not venv.games[1].history
    now = venv.action_encoding.legal_ids(game)[0]
    venv.step(np.array([now, other]))
    assert venv.action_encoding.to_id(game.history[-1]) == now and len(venv.games[1].history) == 1
