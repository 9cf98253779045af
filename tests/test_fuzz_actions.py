"""Issue 12, item 1: actions validate at the edge; check/apply refuse anything else with a typed error."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from helpers import snapshot
from hypothesis import given
from hypothesis import strategies as st

import canasta
from canasta import AnswerGoOut, Discard, IllegalActionError, Kind, Meld, RuleCode, TakePile
from canasta.records import GameRecorder

K = Kind.KING


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: TakePile(2.0, 0, 0), TypeError),
        (lambda: Meld(K, 1, 1.0, 0), TypeError),
        (lambda: Meld("K", 3), TypeError),
        (lambda: Meld(99, 3), ValueError),
        (lambda: Discard(99), ValueError),
        (lambda: Discard(None), TypeError),
        (lambda: Meld(K, "3"), TypeError),
        (lambda: TakePile("2", 0, 0), TypeError),
        (lambda: TakePile(True, 0, 0), TypeError),
        (lambda: Meld(K, -1), ValueError),
        (lambda: AnswerGoOut(0), TypeError),
        (lambda: AnswerGoOut(1), TypeError),
        (lambda: Meld(K, np.float64(3.0)), TypeError),
    ],
)
def test_malformed_actions_fail_at_construction(make, error) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error):
        make()


def test_exact_integers_are_converted() -> None:
    meld = Meld(np.int64(13), np.int32(3), np.int8(0), 0)
    assert meld == Meld(K, 3) and type(meld.rank) is Kind and type(meld.naturals) is int
    assert Meld(13, 3) == Meld(K, 3) and type(Meld(13, 3).rank) is Kind
    assert AnswerGoOut(np.bool_(False)) == AnswerGoOut(False)
    assert type(TakePile(np.int64(2), 0, 0).naturals) is int


def _game_in_meld_phase(seed: int = 3) -> canasta.Game:
    game = canasta.Game("classic", seed=seed)
    game.apply(canasta.DrawStock())
    return game


@pytest.mark.parametrize(
    "thing",
    [np.array([2, 0, 0]), np.int64(2), 2, "draw", None, (2, 0, 0), {"type": "draw"}, canasta.DrawStock, object()],
)
def test_non_actions_are_refused_with_a_typed_error_and_change_nothing(thing: object) -> None:
    game = _game_in_meld_phase()
    before = snapshot(game.hand)
    assert not game.is_legal(thing)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError) as info:
        game.apply(thing)  # type: ignore[arg-type]
    assert info.value.code is RuleCode.NOT_AN_ACTION
    assert snapshot(game.hand) == before


def test_numpy_converted_actions_keep_records_and_observations_serialisable() -> None:
    game = canasta.Game("classic", seed=5)
    recorder = GameRecorder(game)
    rng = random.Random(5)
    for _ in range(60):
        action = rng.choice(game.legal_actions())
        if isinstance(action, Meld):  # the same action built from numpy values
            action = Meld(np.int64(int(action.rank)), np.int64(action.naturals), np.int64(action.twos), action.jokers)
        recorder.apply(action)
    json.loads(recorder.record().dumps())
    json.dumps(canasta.observation_to_json(game.observation(0)))


_ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 20),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.sampled_from(list(Kind)),
    st.builds(np.int64, st.integers(-3, 20)),
    st.builds(np.float64, st.floats(-3, 20)),
)


@given(
    cls=st.sampled_from([Meld, TakePile, Discard, AnswerGoOut]), args=st.lists(_ANY, min_size=1, max_size=4)
)
def test_any_field_values_give_a_valid_action_or_a_clear_error(cls: type, args: list[object]) -> None:
    try:
        action = cls(*args)
    except (TypeError, ValueError):
        return
    game = _game_in_meld_phase()
    before = snapshot(game.hand)
    if game.is_legal(action):
        return
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert snapshot(game.hand) == before
