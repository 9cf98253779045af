"""canasta.rl PettingZoo environment: PettingZoo's api_test, turn order, rewards, refusals (issue 8)."""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import canasta  # noqa: E402
from canasta import IllegalActionError, Phase, RuleCode  # noqa: E402
from canasta.rl import ActionSpaceError, CanastaEnv, env, raw_env  # noqa: E402


def variant_names() -> list[str]:
    return sorted(v.name for v in canasta.available_variants())


@pytest.mark.parametrize("variant", variant_names())
def test_pettingzoo_api_test(variant: str) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # Dict observations with an action mask are PettingZoo's own convention for
        # board and card games; api_test still warns about them.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(variant), num_cycles=150)


@pytest.mark.parametrize(
    ("kwargs", "ends"),
    [
        ({"rules_change": {"game_length": canasta.GameLength(target_score=1)}, "reward": "game"}, "terminated"),
        ({"max_hands": 1, "reward": "hand"}, "truncated"),
    ],
)
def test_api_test_plays_through_the_end_of_an_episode(kwargs: dict[str, Any], ends: str) -> None:
    from pettingzoo.test import api_test

    kwargs = dict(kwargs)
    change = kwargs.pop("rules_change", {})
    rules = attrs.evolve(canasta.load_rules("classic"), **change)
    e = env(rules=rules, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(e, num_cycles=400)  # 1,600 agent steps: more than one random hand
    # api_test's play-through ended the episode the expected way (then reset and played two rounds).
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    flags = None
    while e.agents:
        _, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            flags = (terminated, truncated)
        random_step(e, rng)
    assert flags == ((True, False) if ends == "terminated" else (False, True))


def house_rule_cases() -> list[tuple[str, str]]:
    registry = canasta.default_registry()
    cases = []
    for rule in canasta.available_house_rules():
        targets = sorted(v for v in variant_names() if registry.fits(rule.name, v))
        targets.sort(key=lambda v: v != "classic")
        cases.extend((v, rule.name) for v in targets[:1])
    return sorted(cases)


@pytest.mark.parametrize(("variant", "house_rule"), house_rule_cases())
def test_pettingzoo_api_test_with_house_rules(variant: str, house_rule: str) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(variant, [house_rule]), num_cycles=50)


def random_step(e: Any, rng: np.random.Generator) -> None:
    obs, _, terminated, truncated, _ = e.last()
    if terminated or truncated:
        e.step(None)
    else:
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_agent_selection_follows_the_engine_through_an_answer() -> None:
    e = env("classic")
    e.reset(seed=3)
    game = e.unwrapped.game
    assert e.agent_selection == "player_0" and game.seat == 0
    ask = e.unwrapped.action_encoding.to_id(canasta.AskGoOut())
    assert e.observe("player_0")["action_mask"][ask] == 1
    e.step(ask)
    # The partner (seat 2) answers out of turn order.
    assert game.hand.phase is Phase.ANSWER and game.seat == 2
    assert e.agent_selection == "player_2"
    mask = e.observe("player_2")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [21, 22]
    assert not e.observe("player_1")["action_mask"].any()
    e.step(22)  # "no"
    assert e.agent_selection == "player_0"


def test_illegal_and_unknown_ids_are_refused_and_change_nothing() -> None:
    e = env("classic")
    e.reset(seed=1)
    before = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[-1])
    with pytest.raises(IllegalActionError) as info:
        e.step(illegal)
    assert isinstance(info.value.code, RuleCode)
    with pytest.raises(ActionSpaceError):
        e.step(e.unwrapped.action_encoding.size)
    with pytest.raises(ValueError, match="must act"):
        e.step(None)
    after = e.observe(e.agent_selection)
    np.testing.assert_array_equal(before["observation"], after["observation"])
    np.testing.assert_array_equal(before["action_mask"], after["action_mask"])


def test_same_seed_same_game() -> None:
    def trace(seed: int) -> list[int]:
        e = env("classic")
        e.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(60):
            seen.append(int(e.observe(e.agent_selection)["observation"].sum()))
            random_step(e, rng)
        return seen

    assert trace(5) == trace(5)
    assert trace(5) != trace(6)


def test_hand_reward_is_the_score_difference_and_max_hands_truncates() -> None:
    e = env("classic", reward="hand", max_hands=1)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    totals: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        random_step(e, rng)
        for agent, reward in e.rewards.items():
            totals[agent] += reward
    game = e.unwrapped.game
    assert not game.is_over and len(game.results) == 1  # truncated, not terminated
    t0, t1 = game.results[0].totals
    assert totals == {"player_0": t0 - t1, "player_1": t1 - t0, "player_2": t0 - t1, "player_3": t1 - t0}


def test_game_reward_is_win_or_loss() -> None:
    short = attrs.evolve(canasta.load_rules("classic"), game_length=canasta.GameLength(target_score=1))
    e = env(rules=short, reward="game")
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    totals: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    finals: dict[str, tuple[bool, bool]] = {}
    while e.agents:
        agent = e.agent_selection
        _, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            finals[agent] = (terminated, truncated)
        random_step(e, rng)
        for a, reward in e.rewards.items():
            totals[a] += reward
    game = e.unwrapped.game
    assert game.is_over
    assert all(done == (True, False) for done in finals.values()) and len(finals) == 4
    winner = game.winner()
    for i, agent in enumerate(e.possible_agents):
        side = short.sides[i]
        expected = (
            0.0 if winner is None and max(game.scores) == game.scores[side] else (1.0 if winner == side else -1.0)
        )
        assert totals[agent] == expected


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="points")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_hands"):
        raw_env(max_hands=0)
    with pytest.raises(canasta.UnknownNameError):
        raw_env("no-such-variant")
    with pytest.raises(RuntimeError, match="reset"):
        raw_env().observe("player_0")


def test_render_ansi_describes_the_acting_seat() -> None:
    e = raw_env(render_mode="ansi")
    assert isinstance(e, CanastaEnv)
    e.reset(seed=0)
    text = e.render()
    assert text is not None and "seat 0 to act (draw)" in text


def test_cutthroat_partners_are_not_each_others_opponents() -> None:
    # SPEC.md §3 cutthroat: the first to take the pile plays alone; the other two become partners.
    if "cutthroat" not in {h.name for h in canasta.available_house_rules()}:
        pytest.skip("the cutthroat house rule is not installed")
    regrouped = 0
    for seed in range(6):
        e = env("three-player", ["cutthroat"], max_hands=1)
        e.reset(seed=seed)
        hand = e.unwrapped.game.hand  # mutated in place until the hand ends
        rng = np.random.default_rng(seed)
        totals: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
        while e.agents:
            random_step(e, rng)
            for agent, reward in e.rewards.items():
                totals[agent] += reward
        result = e.unwrapped.game.results[0].totals
        rewards = [totals[f"player_{i}"] for i in range(3)]
        if not hand.regrouped:
            assert rewards == [t - max(o for j, o in enumerate(result) if j != i) for i, t in enumerate(result)]
            continue
        regrouped += 1
        lone = next(s for s in range(3) if hand.seating.count(hand.seating[s]) == 1)
        partners = [s for s in range(3) if s != lone]
        # Each partner is measured against the lone player only (their own totals may differ:
        # threes count per player), never against each other.
        assert [rewards[p] for p in partners] == [result[p] - result[lone] for p in partners]
        assert rewards[lone] == result[lone] - max(result[s] for s in partners)
    assert regrouped  # random play takes the pile in some of these hands


def test_env_name_and_spaces_follow_the_action_space_version() -> None:
    # Version 2 of the ids (no take-back) is a new environment version for trained agents.
    from canasta.rl import ACTION_SPACE_VERSION

    e = raw_env("classic")
    assert ACTION_SPACE_VERSION == 2
    assert e.metadata["name"] == "canasta_v1"
    assert e.action_space("player_0").n == e.action_encoding.size == 1005
    assert e.observation_space("player_0")["action_mask"].shape == (1005,)
