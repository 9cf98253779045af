"""One rule for seeds everywhere in the library (issue 31, items 3 and 22; issue 32, item 8).

`canasta.seeds` decides: an integer (numpy's too, never ``bool``) with
``|seed| < 2**64``; ``None`` draws a fresh one, kept in ``game.seed``. `Game`,
`Game.from_hand`, the record reader, and the RL environments' ``reset`` all
follow it, so everything the library writes it reads back.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import Game, SeedError
from canasta.records import GameRecord, GameRecorder, RecordError, loads_record, record_from_json, replay
from canasta.seeds import SEED_LIMIT

try:  # numpy is optional (canasta[rl]): its cases need it
    import numpy as np
except ImportError:  # pragma: no cover - the test environment of the RL extras has it
    np = None  # type: ignore[assignment]
needs_numpy = pytest.mark.skipif(np is None, reason="numpy is not installed")

BAD_SEEDS: list[object] = [
    1.5,
    2.0,
    "x",
    "3",
    b"3",
    True,
    False,
    (1,),
    [1],
    SEED_LIMIT,
    -SEED_LIMIT,
    10**25,
    float("nan"),
    *([np.float64(3.0), np.bool_(True)] if np is not None else []),
]

#: Seeds of every kind the library accepts: Python ints over the whole range, the extremes, numpy integers.
SEEDS = st.one_of(
    st.integers(-SEED_LIMIT + 1, SEED_LIMIT - 1),
    st.sampled_from([0, 1, -1, SEED_LIMIT - 1, -SEED_LIMIT + 1, 2**63, -(2**63), 2**32]),
    *(
        [
            st.integers(-(2**63), 2**63 - 1).map(np.int64),
            st.integers(0, 2**64 - 1).map(np.uint64),
            st.integers(-(2**31), 2**31 - 1).map(np.int32),
        ]
        if np is not None
        else []
    ),
)


# --- the default: a fresh game -----------------------------------------------------------


def test_the_default_seed_is_fresh_and_kept() -> None:
    games = [Game("classic") for _ in range(4)]
    seeds = [game.seed for game in games]
    assert len(set(seeds)) == 4  # four draws of 64 bits: equal only by a 1-in-2**60 accident
    assert all(type(seed) is int and 0 <= seed < SEED_LIMIT for seed in seeds)
    # The seed kept deals the same game again.
    again = Game("classic", seed=games[0].seed)
    assert again.hand.observation(0) == games[0].hand.observation(0)
    assert Game("classic", seed=None).seed != Game("classic", seed=None).seed


def test_a_fresh_game_records_the_seed_it_drew() -> None:
    recorder = GameRecorder(Game("cuban"))
    game = recorder.game
    for _ in range(10):
        recorder.apply(game.legal_actions()[0])
    record = loads_record(recorder.record().dumps())
    assert record.seed == game.seed
    assert list(replay(record))[-1].game.hand.observation(0) == game.hand.observation(0)


def test_from_hand_draws_a_fresh_seed_for_later_hands_too() -> None:
    hand = Game("classic", seed=1).hand
    seeds = {Game.from_hand(hand.copy()).seed for _ in range(3)}
    assert len(seeds) == 3 and all(type(s) is int for s in seeds)


# --- what a seed may be --------------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD_SEEDS, ids=repr)
def test_game_and_from_hand_refuse_what_is_not_a_seed(bad: object) -> None:
    with pytest.raises(SeedError):
        Game("classic", seed=bad)  # type: ignore[arg-type]
    hand = Game("classic", seed=1).hand
    with pytest.raises(SeedError):
        Game.from_hand(hand, seed=bad)  # type: ignore[arg-type]


@needs_numpy
def test_numpy_seeds_play_the_game_of_the_same_int() -> None:
    for seed in (np.int64(3), np.int32(3), np.uint8(3)):
        game = Game("classic", seed=seed)  # type: ignore[arg-type]
        assert type(game.seed) is int and game.seed == 3
        assert game.hand.observation(0) == Game("classic", seed=3).hand.observation(0)


@needs_numpy
def test_a_game_record_converts_or_refuses_its_seed() -> None:
    recorder = GameRecorder(Game("classic", seed=4))
    record = recorder.record()
    fields: dict[str, Any] = {a.name: getattr(record, a.name) for a in GameRecord.__attrs_attrs__}
    fields["seed"] = np.int64(4)
    assert json.loads(GameRecord(**fields).dumps())["seed"] == 4  # before: TypeError in dumps
    fields["seed"] = b"4"
    with pytest.raises(SeedError):
        GameRecord(**fields)


# --- everything written is read back ------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, dealer=st.integers(0, 3), actions=st.integers(0, 12))
def test_every_seed_the_library_accepts_round_trips_through_a_record(seed: Any, dealer: int, actions: int) -> None:
    game = Game("classic", seed=seed, first_dealer=dealer)
    recorder = GameRecorder(game)
    for _ in range(actions):
        recorder.apply(game.legal_actions()[0])
    text = recorder.record().dumps()  # never a TypeError
    record = loads_record(text)
    assert record == recorder.record()
    assert record.seed == int(seed)
    replayed = record.new_game()
    for action in record.actions:
        replayed.apply(action)
    assert replayed.hand.observation(0) == game.hand.observation(0)


@pytest.mark.parametrize("seed", [SEED_LIMIT, -SEED_LIMIT, 10**19 * 5, 10**25])
def test_the_record_reader_refuses_seeds_no_game_accepts(seed: int) -> None:
    data = json.loads(GameRecorder(Game("classic", seed=1)).record().dumps())
    data["seed"] = seed
    with pytest.raises(RecordError) as info:
        record_from_json(data, validate=False)
    assert info.value.where == "seed"


# --- the RL environments -------------------------------------------------------------------


def test_the_aec_environment_takes_numpy_seeds_and_refuses_the_rest() -> None:
    pytest.importorskip("pettingzoo")  # with gymnasium: canasta.rl's optional dependencies
    rl = pytest.importorskip("canasta.rl")
    env = rl.CanastaEnv("classic")
    env.reset(seed=np.int64(3))  # before: TypeError
    game = env.game
    assert game is not None and game.seed == 3 and type(game.seed) is int
    for bad in (1.5, "x", True, SEED_LIMIT):  # before: 1.5, "x" and True were accepted
        with pytest.raises(SeedError):
            env.reset(seed=bad)
        assert env.game is game  # unchanged
    env.reset(seed=SEED_LIMIT - 1)
    assert env.game is not None and env.game.seed == SEED_LIMIT - 1


def test_the_vector_environment_takes_numpy_seeds_and_refuses_the_rest() -> None:
    pytest.importorskip("pettingzoo")  # with gymnasium: canasta.rl's optional dependencies
    rl = pytest.importorskip("canasta.rl")
    env = rl.VectorEnv(2, "classic")
    env.reset(seed=np.int64(3))
    games = env.games
    assert games is not None and [g.seed for g in games] == [3, 4]
    env.reset(seed=[np.uint64(5), 9])
    games = env.games
    assert games is not None and [g.seed for g in games] == [5, 9]
    for bad in (1.5, "x", True, [1, True], [1, 2.0], SEED_LIMIT - 1, (SEED_LIMIT, 1)):
        with pytest.raises(SeedError):
            env.reset(seed=bad)
        assert env.games is games  # unchanged
    with pytest.raises(ValueError, match="2 integers"):
        env.reset(seed=[1])
    assert env.games is games


def test_seed_errors_are_canasta_errors() -> None:
    with pytest.raises(canasta.CanastaError):
        Game("classic", seed="x")  # type: ignore[arg-type]
