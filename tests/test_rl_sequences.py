"""The sequence games in canasta.rl (issue 34): ActionSpace(rules), observations version 5, the AEC and vector envs."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import canasta  # noqa: E402
import canasta.rl  # noqa: E402
from canasta import Game, HandState, Kind  # noqa: E402
from canasta.cards import NATURAL_KINDS  # noqa: E402
from canasta.meldview import meld_views  # noqa: E402
from canasta.rl import (  # noqa: E402
    ACTION_SPACE_VERSION,
    OBSERVATION_VERSION,
    SEQUENCES_ACTION_SPACE_VERSION,
    SEQUENCES_OBSERVATION_VERSION,
    ActionSpace,
    ActionSpaceError,
    ObservationEncoder,
    SequenceActionSpace,
)
from canasta.rl.seqobservations import MELD_FEATURES, SUITED_KINDS, suited_kind  # noqa: E402
from canasta.suitedactions import MELD_SLOTS  # noqa: E402
from canasta.suitedmelds import Extend, LaySequence  # noqa: E402

VARIANTS = ("samba", "bolivia", "brazilian")


def favouring_play(game: Game, rng: random.Random, steps: int) -> Iterator[Game]:
    """Random legal play that lays and extends sequences when it may (many melds); yields each position."""
    for _ in range(steps):
        if game.is_over:
            return
        yield game
        legal = game.legal_actions()
        runs = [a for a in legal if isinstance(a, LaySequence | Extend)]
        if runs and rng.random() < 0.8:
            game.apply(rng.choice(runs))
        else:
            game.apply(rng.choice(legal))


# --- action ids ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_action_space_of_rules_with_meld_types_is_the_sequence_games_space(variant: str) -> None:
    rules = canasta.load_rules(variant)
    space = ActionSpace(rules)
    assert type(space) is SequenceActionSpace and isinstance(space, ActionSpace)
    assert space.rules is rules and space.version == SEQUENCES_ACTION_SPACE_VERSION == 9
    assert len(space) == space.size == 1_105_784 and space.group_wilds == 2
    assert len(space.actions) == space.size and space.actions[7] == space.to_action(7)
    assert space.actions[-1] == space.to_action(space.size - 1)
    assert repr(space) == f"SequenceActionSpace({variant}, size=1105784)"


def test_free_wilds_get_the_larger_group_section() -> None:
    space = ActionSpace(canasta.load_rules("bolivia", ("bolivia-free-wilds",)))
    assert type(space) is SequenceActionSpace and space.group_wilds == 18 and space.size == 16_664_184


def test_other_rule_sets_keep_their_space() -> None:
    space = ActionSpace(canasta.load_rules("classic"))
    assert type(space) is ActionSpace and space.version == ACTION_SPACE_VERSION and space.size == 1005
    assert isinstance(space.actions, tuple)
    built = SequenceActionSpace()  # without rules, as before
    assert built.rules is None and built.size == 1_105_784 and repr(built).startswith("SequenceActionSpace(group")


@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_are_exact_and_ids_map_back_to_the_engines_actions(variant: str) -> None:
    rules = canasta.load_rules(variant)
    space = ActionSpace(rules)
    checked = 0
    for seed in (1, 2):
        for game in favouring_play(Game(rules=rules, seed=seed), random.Random(seed), 250):
            legal = game.legal_actions()
            mask = space.legal_mask(game)
            ids = np.flatnonzero(mask)
            assert mask.dtype == np.bool_ and mask.shape == (space.size,)
            assert sorted(ids.tolist()) == sorted(space.to_id(a) for a in legal) and len(ids) == len(set(legal))
            for action_id in ids[:: max(1, len(ids) // 5)]:
                assert space.legal_action(game, int(action_id)) in legal
            checked += 1
    assert checked > 300
    masks = space.legal_masks([game.hand, game.hand])
    assert masks.shape == (2, space.size) and (masks[0] == space.legal_mask(game)).all()


def test_an_illegal_id_is_refused_with_the_rule_and_changes_nothing() -> None:
    rules = canasta.load_rules("samba")
    space = ActionSpace(rules)
    game = Game(rules=rules, seed=4)
    before = game.hand.copy()
    illegal = next(i for i in range(5, 60) if not space.legal_mask(game)[i])
    with pytest.raises(canasta.IllegalActionError):
        space.legal_action(game, illegal)
    with pytest.raises(ActionSpaceError):
        space.legal_action(game, space.size)
    assert game.hand.legal_actions() == before.legal_actions()


def test_the_identity_memo_of_a_large_space_stays_bounded() -> None:
    space = SequenceActionSpace()
    for i in range(70_000):
        space.learn_ids([space.to_action(i)])  # new objects every time: never the engine's
    assert len(space.ids_by_identity) <= 1 << 16


# --- observations ----------------------------------------------------------------------


def test_the_observation_layout_of_rules_with_meld_types() -> None:
    rules = canasta.load_rules("samba")
    encoder = ObservationEncoder(rules)
    assert encoder.version == SEQUENCES_OBSERVATION_VERSION == 5 and encoder.layouts == []
    lengths = {name: s.stop - s.start for name, s in encoder.fields.items()}
    assert lengths["hand"] == lengths["pile_kinds"] == SUITED_KINDS == 48 and lengths["pile_top"] == 49
    assert lengths["melds"] == 2 * MELD_SLOTS * len(MELD_FEATURES) == 2 * 64 * 20
    assert lengths["known"] == 4 * 48 and lengths["phase"] == 4 and lengths["answer"] == 3
    assert encoder.size == sum(lengths.values()) == 2939
    classic = ObservationEncoder(canasta.load_rules("classic"))
    assert classic.version == OBSERVATION_VERSION and classic.sequence_layouts == [] and classic.size == 226


def _expected_slot(view: canasta.MeldView) -> list[int]:
    slot = [0] * len(MELD_FEATURES)
    slot[0] = 1
    if view.suit is not None:
        slot[2], slot[6 + view.suit], slot[10], slot[11] = 1, 1, int(view.low or 0), int(view.high or 0)
    elif view.rank is Kind.JOKER:
        slot[3] = 1
    elif view.rank is Kind.BLACK_THREE:
        slot[4] = 1
    else:
        slot[1], slot[5] = 1, int(view.rank or 0)
    slot[12], slot[13], slot[14], slot[15] = view.naturals, view.twos, view.jokers, int(view.is_canasta)
    for card in view.cards:
        if card.rank in NATURAL_KINDS:
            slot[16 + int(card.suit or 0)] += 1
    return slot


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_carry_every_meld_by_number_and_the_hand_by_rank_and_suit(variant: str) -> None:
    rules = canasta.load_rules(variant)
    encoder = ObservationEncoder(rules)
    runs = positions = 0
    for seed in (3, 4):
        for step, game in enumerate(favouring_play(Game(rules=rules, seed=seed), random.Random(seed), 300)):
            if step % 3:
                continue
            hand = game.hand
            seat = (hand.seat + step) % rules.players
            vector = encoder.encode(hand, seat)
            assert (vector >= encoder.low).all() and (vector <= encoder.high).all()
            observation = hand.observation(seat)
            counts = [0] * SUITED_KINDS
            for card in observation.hand:
                counts[suited_kind(card.kind, card.suit)] += 1
            assert encoder.field(vector, "hand").tolist() == counts
            pile = [0] * SUITED_KINDS
            for card in observation.pile:
                pile[suited_kind(card.kind, card.suit)] += 1
            assert encoder.field(vector, "pile_kinds").tolist() == pile
            top = encoder.field(vector, "pile_top")
            assert top.sum() == 1
            if observation.pile:
                assert top[suited_kind(observation.pile[-1].kind, observation.pile[-1].suit)] == 1
            melds = encoder.field(vector, "melds").reshape(rules.side_count, MELD_SLOTS, len(MELD_FEATURES))
            for rel, side in enumerate(encoder.side_order(seat)):
                views = {v.number: v for v in meld_views(hand, side)}
                for number in range(MELD_SLOTS):
                    if number in views:
                        assert melds[rel, number].tolist() == _expected_slot(views[number])
                        runs += views[number].suit is not None
                    else:
                        assert not melds[rel, number].any()
            assert encoder.values(hand, seat) == vector.astype(int).tolist()
            positions += 1
    assert positions > 100 and runs > 50  # sequences were laid and checked


def hide_differently(hand: HandState, observer: int, rng: random.Random) -> HandState | None:
    """A copy that differs only in what ``observer`` cannot see: one card of another hand and the stock order.

    The card is exchanged with a stock card of another (rank, suit), possibly of the same rank.
    """
    other = hand.copy()
    others = [s for s in range(hand.rules.players) if s != observer and other.sizes[s]]
    natural = [c for c in other.stock if hand.kinds[c] >= int(Kind.FOUR)]
    if not others or not natural:
        return None
    seat = rng.choice(others)
    held = [(k, c) for k, cards in enumerate(other.hands[seat]) for c in cards if k >= int(Kind.FOUR)]
    if not held:
        return None
    kind, card = rng.choice(held)
    entry = suited_kind(kind, hand.deck.cards[card].suit)
    swap = next(
        (c for c in natural if suited_kind(hand.kinds[c], hand.deck.cards[c].suit) != entry),
        None,
    )
    if swap is None:
        return None
    other.hands[seat][kind].remove(card)
    other.counts[seat][kind] -= 1
    new_kind = hand.kinds[swap]
    other.hands[seat][new_kind].append(swap)
    other.counts[seat][new_kind] += 1
    other.stock[other.stock.index(swap)] = card
    rng.shuffle(other.stock)
    other._legal = None
    return other


@pytest.mark.parametrize("variant", VARIANTS)
def test_hidden_cards_never_change_a_sequence_games_observation(variant: str) -> None:
    rules = canasta.load_rules(variant)
    encoder = ObservationEncoder(rules)
    rng = random.Random(5)
    compared = 0
    for seed in range(5):
        game = Game(rules=rules, seed=seed)
        for _ in favouring_play(game, random.Random(seed), rng.randrange(0, 150)):
            pass
        hand = game.hand
        for observer in range(rules.players):
            other = hide_differently(hand, observer, rng)
            if other is None:
                continue
            np.testing.assert_array_equal(encoder.encode(hand, observer), encoder.encode(other, observer))
            compared += 1
            changed = next(
                s
                for s in range(rules.players)
                if sorted(map(sorted, other.hands[s])) != sorted(map(sorted, hand.hands[s]))
            )
            # The seat whose hand changed sees it: the comparison can fail.
            assert not np.array_equal(encoder.encode(hand, changed), encoder.encode(other, changed))
    assert compared >= 2 * rules.players


# --- environments ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_aec_env_plays_whole_hands_with_exact_masks(variant: str) -> None:
    env = canasta.rl.env(variant, max_hands=1)
    unwrapped = env.unwrapped
    assert unwrapped.action_encoding.version == 9 and unwrapped.observation_encoder.version == 5
    rng = np.random.default_rng(1)
    steps = hands = 0
    for seed in (0, 1, 2):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(max_iter=2000):
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            assert mask.shape == (1_105_784,) and observation["observation"].shape == (2939,)
            legal = np.flatnonzero(mask)
            expected = sorted(unwrapped.action_encoding.to_id(a) for a in unwrapped.game.legal_actions())
            assert sorted(legal.tolist()) == expected
            env.step(int(rng.choice(legal)))
            steps += 1
        assert not env.agents  # the hand was played out: every agent was truncated
        hands += 1
        assert sum(totals.values()) == 0  # two sides: zero-sum hand rewards
        assert any(totals.values()) or unwrapped.game.scores[0] == unwrapped.game.scores[1]
    assert hands == 3 and steps > 200


def test_the_aec_env_refuses_an_illegal_id_and_an_id_outside_the_space() -> None:
    env = canasta.rl.raw_env("samba")
    env.reset(seed=3)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(canasta.IllegalActionError):
        env.step(illegal)
    with pytest.raises(ActionSpaceError):
        env.step(1_105_784)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_vector_env_plays_the_aec_envs_games_with_exact_masks(variant: str) -> None:
    venv = canasta.rl.VectorEnv(3, variant, max_hands=1)
    single = canasta.rl.raw_env(variant, max_hands=1)
    obs, infos = venv.reset(seed=10)
    single.reset(seed=10)
    rng = np.random.default_rng(2)
    truncated = 0
    for _ in range(150):
        mask = infos["action_mask"]
        assert mask.shape == (3, 1_105_784) and obs.shape == (3, 2939)
        for i, game in enumerate(venv.games or ()):
            assert sorted(np.flatnonzero(mask[i]).tolist()) == sorted(
                venv.action_encoding.to_id(a) for a in game.legal_actions()
            )
            np.testing.assert_array_equal(obs[i], venv.observation_encoder.encode(game, int(infos["seat"][i])))
        # Game 0 is the single env's game, step for step.
        agent = single.agent_selection
        seen = single.observe(agent)
        np.testing.assert_array_equal(seen["observation"], obs[0])
        np.testing.assert_array_equal(seen["action_mask"].astype(bool), mask[0])
        actions = canasta.rl.random_legal_ids(mask, rng)
        single.step(int(actions[0]))
        obs, rewards, terminations, truncations, infos = venv.step(actions)
        truncated += int(truncations.sum())
        if truncations[0] or terminations[0]:
            assert rewards[0].tolist() == [single.rewards[a] for a in single.possible_agents]
            single.reset()
    assert infos["action_mask"].sum(axis=1).min() >= 1


def test_the_vector_env_with_own_buffers_clears_the_last_masks_ids() -> None:
    venv = canasta.rl.VectorEnv(2, "samba", copy=False)
    _, infos = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(60):
        _, _, _, _, infos = venv.step(canasta.rl.random_legal_ids(infos["action_mask"], rng))
        mask = infos["action_mask"]
        for i, game in enumerate(venv.games or ()):
            assert int(mask[i].sum()) == len(set(game.legal_actions()))


def test_pettingzoos_api_test_passes_on_samba() -> None:
    from pettingzoo.test import api_test

    env = canasta.rl.env("samba", max_hands=1, render_mode="ansi")
    with warnings.catch_warnings():
        # Dict observations with an action mask are PettingZoo's own convention; api_test warns about them.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env, num_cycles=40)
    assert "samba: hand 1" in (env.unwrapped.render() or "")
