"""canasta.rl action ids: stable layout, lossless round trips, exact legal masks (issue 8)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import canasta
from canasta import (
    AnswerGoOut,
    AskGoOut,
    Discard,
    DrawStock,
    EndHand,
    Game,
    IllegalActionError,
    Kind,
    Meld,
    RuleCode,
    TakePile,
)
from canasta.rl import ACTION_SPACE_VERSION, ActionSpace, ActionSpaceError, SequenceActionSpace
from canasta.rl.actions import FIXED_ACTIONS, MELD_OFFSET

STATES_PER_VARIANT = 1000


def variant_names() -> list[str]:
    return sorted(v.name for v in canasta.available_variants())


def house_rule_cases() -> list[tuple[str, str]]:
    """(variant, house rule) pairs the registry says fit."""
    registry = canasta.default_registry()
    cases = []
    for rule in canasta.available_house_rules():
        targets = sorted(v for v in variant_names() if registry.fits(rule.name, v))
        targets.sort(key=lambda v: v != "classic")
        cases.extend((v, rule.name) for v in targets[:1])
    return sorted(cases)


def random_states(game: Game, count: int, seed: int, per_game: int = 250) -> Iterator[Game]:
    """Play uniformly random legal actions, yielding the game before each action.

    A new game (next seed) starts every `per_game` states, so the states come
    from several deals.
    """
    rng = random.Random(seed)
    yielded = 0
    restarts = 0
    while yielded < count:
        if game.is_over or (yielded and yielded % per_game == 0):
            restarts += 1
            game = Game(rules=game.rules, seed=seed * 1000 + restarts)
        legal = game.legal_actions()
        yield game
        yielded += 1
        game.apply(legal[rng.randrange(len(legal))])


def check_round_trips(rules: canasta.Rules, states: int, seed: int) -> int:
    """Round-trip every legal action of `states` random states; return how many actions were checked."""
    space = ActionSpace(rules)
    checked = 0
    for game in random_states(Game(rules=rules, seed=seed), states, seed):
        legal = game.legal_actions()
        ids = space.legal_ids(game)
        assert len(set(ids)) == len(ids), "two legal actions share an id"
        for action, action_id in zip(legal, ids, strict=True):
            assert 0 <= action_id < space.size
            assert space.to_action(action_id) == action
            assert space.to_id(space.to_action(action_id)) == action_id
        mask = space.legal_mask(game)
        assert mask.dtype == bool and mask.shape == (space.size,)
        assert sorted(int(i) for i in mask.nonzero()[0]) == sorted(ids)
        checked += len(legal)
    return checked


@pytest.mark.parametrize("variant", variant_names())
def test_every_legal_action_of_random_states_round_trips(variant: str) -> None:
    rules = canasta.load_rules(variant)
    checked = check_round_trips(rules, STATES_PER_VARIANT, seed=7)
    assert checked > STATES_PER_VARIANT  # states have several legal actions, not one


@pytest.mark.parametrize(("variant", "house_rule"), house_rule_cases())
def test_house_rules_round_trip(variant: str, house_rule: str) -> None:
    rules = canasta.load_rules(variant, [house_rule])
    assert check_round_trips(rules, 200, seed=3) > 200


def test_fixed_ids_are_the_same_in_every_variant() -> None:
    expected = {
        DrawStock(): 0,
        TakePile(2, 0, 0): 1,
        TakePile(1, 1, 0): 2,
        TakePile(1, 0, 1): 3,
        TakePile(0, 0, 0): 4,
        Discard(Kind.JOKER): 5,
        Discard(Kind.ACE): 19,
        AskGoOut(): 20,
        AnswerGoOut(True): 21,
        AnswerGoOut(False): 22,
        EndHand(): 23,
    }
    for name in variant_names():
        space = ActionSpace(canasta.load_rules(name))
        if isinstance(space, SequenceActionSpace):
            continue  # the sequence games number their own actions (version 9: tests/test_suited_rl.py)
        for action, action_id in expected.items():
            assert space.to_id(action) == action_id, (name, action)
    assert MELD_OFFSET == 24
    sequence_games = [n for n in variant_names() if canasta.load_rules(n).meld_types]
    assert {"samba", "bolivia", "brazilian"} <= set(sequence_games)
    assert all(type(ActionSpace(canasta.load_rules(n))) is SequenceActionSpace for n in sequence_games)


def test_version_2_has_no_take_back_and_no_gap() -> None:
    # Version 1 had Retract at 23; version 2 removed it and moved every later id down by one.
    assert ACTION_SPACE_VERSION == 2
    assert ActionSpace(canasta.load_rules("classic")).version == ACTION_SPACE_VERSION
    assert len(FIXED_ACTIONS) == MELD_OFFSET == 24
    assert len(set(FIXED_ACTIONS)) == len(FIXED_ACTIONS)
    assert all(type(a).__name__ != "Retract" for a in FIXED_ACTIONS)
    names = {type(a).__name__ for a in FIXED_ACTIONS}
    assert names == {"DrawStock", "TakePile", "Discard", "AskGoOut", "AnswerGoOut", "EndHand"}


def test_classic_layout_is_pinned() -> None:
    # Changing the layout breaks trained agents: this pins it for classic.
    space = ActionSpace(canasta.load_rules("classic"))
    # 11 ranks x (9 natural counts x 10 (2s, jokers) pairs with at most 3 wilds - the empty meld) + 3 and 4 black threes
    assert space.size == 24 + 11 * (9 * 10 - 1) + 2 == 1005
    assert space.to_action(24) == Meld(Kind.FOUR, 0, 0, 1)
    assert space.to_action(25) == Meld(Kind.FOUR, 0, 0, 2)
    assert space.to_id(Meld(Kind.FIVE, 0, 0, 1)) == 24 + 89
    assert space.to_action(space.size - 1) == Meld(Kind.BLACK_THREE, 4, 0, 0)
    assert space.to_action(space.size - 2) == Meld(Kind.BLACK_THREE, 3, 0, 0)
    # Deterministic: a second build gives the same table.
    assert ActionSpace(canasta.load_rules("classic")).actions == space.actions


def test_bounds_follow_the_rules_not_the_name() -> None:
    classic = canasta.load_rules("classic")
    melds = attrs.evolve(classic.melds, max_wilds=2, max_size=7, wild_melds=True, natural_only=frozenset({Kind.SEVEN}))
    rules = attrs.evolve(classic, melds=melds)
    space = ActionSpace(rules)
    meld_actions = [a for a in space.actions if isinstance(a, Meld)]
    assert all(a.naturals + a.twos + a.jokers <= 7 for a in meld_actions)
    assert all(a.twos + a.jokers <= 2 for a in meld_actions if a.rank.is_natural)
    assert not [a for a in meld_actions if a.rank == Kind.SEVEN and (a.twos or a.jokers)]
    wild = [a for a in meld_actions if a.rank == Kind.JOKER]
    assert Meld(Kind.JOKER, 0, 3, 4) in wild and Meld(Kind.JOKER, 0, 7, 0) in wild
    assert Meld(Kind.JOKER, 0, 8, 0) not in wild  # 8 cards: over max_size
    # Classic has no wild melds: no id for one.
    with pytest.raises(ActionSpaceError, match="outside the action space"):
        ActionSpace(classic).to_id(Meld(Kind.JOKER, 0, 3, 0))


def test_more_packs_give_more_naturals() -> None:
    classic = canasta.load_rules("classic")
    bigger = attrs.evolve(classic, deck=canasta.DeckSpec(packs=3, jokers=6))
    space = ActionSpace(bigger)
    assert Meld(Kind.ACE, 12, 0, 0) in space.actions
    assert Meld(Kind.ACE, 13, 0, 0) not in space.actions
    assert ActionSpace(classic).size < space.size


class _FakeState:
    def __init__(self, actions: list[canasta.Action]) -> None:
        self.actions = actions

    def legal_actions(self) -> list[canasta.Action]:
        return self.actions


def test_an_action_outside_the_space_is_a_clear_error() -> None:
    space = ActionSpace(canasta.load_rules("classic"))
    with pytest.raises(ActionSpaceError, match=r"bug in canasta\.rl"):
        space.legal_mask(_FakeState([DrawStock(), Meld(Kind.FOUR, 50, 0, 0)]))
    with pytest.raises(ActionSpaceError):
        space.to_id("draw")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 1005, 10**9, "3", 2.0, True, None])
def test_bad_ids_are_refused(bad: object) -> None:
    space = ActionSpace(canasta.load_rules("classic"))
    with pytest.raises(ActionSpaceError):
        space.to_action(bad)


def test_numpy_integers_are_ids() -> None:
    import numpy as np

    space = ActionSpace(canasta.load_rules("classic"))
    assert space.to_action(np.int64(0)) == DrawStock()
    assert space.to_action(np.int32(23)) == EndHand()


def test_masked_out_ids_are_refused_by_the_engine() -> None:
    # The mask is exact both ways: every id it clears is refused with a rule code.
    rules = canasta.load_rules("classic")
    space = ActionSpace(rules)
    rng = random.Random(5)
    for n, game in enumerate(random_states(Game(rules=rules, seed=11), 200, seed=11)):
        if n % 40:
            continue
        mask = space.legal_mask(game)
        cleared = [i for i in range(space.size) if not mask[i]]
        for action_id in rng.sample(cleared, 15):
            with pytest.raises(IllegalActionError) as info:
                game.check(space.to_action(action_id))
            assert isinstance(info.value.code, RuleCode)
        for action_id in mask.nonzero()[0]:
            game.check(space.to_action(action_id))  # accepted


def test_mask_is_empty_when_the_game_is_over() -> None:
    rules = attrs.evolve(canasta.load_rules("classic"), game_length=canasta.GameLength(target_score=-(10**9)))
    game = Game(rules=rules, seed=1)
    space = ActionSpace(rules)
    rng = random.Random(1)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert not space.legal_mask(game).any()
