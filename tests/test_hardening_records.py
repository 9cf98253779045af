"""Records replay exactly the game they record, or refuse it (issue 31, items 2, 13, 14, 18; issue 32, item 6).

- Every way a game can start (fresh seed, explicit seed, numpy seed, each
  first dealer, after undo) records, survives JSON and replays to the very same
  game; a game the record cannot describe (`Game.from_hand`, a game already
  played) is refused by `GameRecorder`.
- Records of format version 4 and older still load and replay (the last seat
  dealt first); version 5 must say who dealt first.
- `Game.from_hand` checks its scores, `Game` its first dealer and
  `Game.observation` its seat, with typed errors (`InvalidPositionError`,
  `SeatError`) and no change.
- Parsing a hostile record text takes memory bounded by the limits, not only
  bytes (`max_items`).
- Record errors number hands from 1 in their text, as the CLI does.
"""

from __future__ import annotations

import copy
import json
import pickle
import tracemalloc
from typing import Any

import pytest

import canasta
from canasta import Game, InvalidPositionError
from canasta.bots import make_bot
from canasta.records import (
    BYTES_PER_ITEM,
    MAX_RECORD_BYTES,
    OBJECTS_PER_ITEM,
    GameRecorder,
    RecordError,
    load_record,
    loads_record,
    observation_to_json,
    record_from_json,
    replay,
)
from canasta.seats import SeatError, check_seat

try:  # numpy is optional (canasta[rl]): its cases need it
    import numpy as np
except ImportError:  # pragma: no cover - the test environment of the RL extras has it
    np = None  # type: ignore[assignment]
needs_numpy = pytest.mark.skipif(np is None, reason="numpy is not installed")

# --- helpers ---------------------------------------------------------------------------


def _play(recorder: GameRecorder, actions: int, *, hands: int | None = None) -> None:
    """Greedy bots play ``actions`` actions (or until ``hands`` hands are finished)."""
    game = recorder.game
    bots = [make_bot("greedy", seat) for seat in range(game.rules.players)]
    for _ in range(actions):
        if game.is_over or (hands is not None and len(game.results) >= hands):
            return
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))


def _view(game: Game) -> list[object]:
    """Everything a replay must reproduce: scores, results, hand number, and every seat's view."""
    seats = [observation_to_json(game.observation(seat)) for seat in range(game.rules.players)]
    return [
        list(game.scores),
        [list(r.totals) for r in game.results],
        game.hand_number,
        game.hand.dealer,
        game.is_over,
        seats,
    ]


def _round_trip(recorder: GameRecorder) -> None:
    record = recorder.record()
    loaded = loads_record(record.dumps())
    assert loaded == record
    steps = list(replay(loaded))
    replayed = steps[-1].game if steps else loaded.new_game()
    assert _view(replayed) == _view(recorder.game)
    assert replayed.first_dealer == recorder.game.first_dealer
    assert replayed.seed == recorder.game.seed


# --- every way a game can start --------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "three-player", "two-player"])
def test_every_first_dealer_records_and_replays_the_same_game(variant: str) -> None:
    players = canasta.load_rules(variant).players
    for dealer in range(players):
        game = Game(variant, seed=11, first_dealer=dealer)
        assert game.first_dealer == dealer and game.hand.dealer == dealer
        recorder = GameRecorder(game)
        _play(recorder, 400, hands=1)  # through the first hand and into the second deal
        assert json.loads(recorder.record().dumps())["first_dealer"] == dealer
        _round_trip(recorder)


def test_a_partial_record_of_another_first_dealer_replays_that_game_not_the_default() -> None:
    game = Game("classic", seed=3, first_dealer=1)
    recorder = GameRecorder(game)
    _play(recorder, 12)
    loaded = loads_record(recorder.record().dumps())
    assert loaded.new_game().hand.dealer == 1  # before the fix: dealer 3, another deal
    _round_trip(recorder)


_STARTS: dict[str, Any] = {
    "fresh": dict,  # a fresh random seed
    "zero": lambda: {"seed": 0},
    "largest": lambda: {"seed": 2**64 - 1},
    "smallest": lambda: {"seed": -(2**64) + 1},
    "numpy": lambda: {"seed": np.int64(7)},
    "numpy-uint64": lambda: {"seed": np.uint64(2**64 - 1)},
    "numpy-dealer": lambda: {"first_dealer": np.int64(2)},
}


@pytest.mark.parametrize("name", list(_STARTS))
def test_each_way_to_start_a_game_round_trips(name: str) -> None:
    if name.startswith("numpy") and np is None:
        pytest.skip("numpy is not installed")
    start = _STARTS[name]()
    recorder = GameRecorder(Game("classic", **start))
    _play(recorder, 60)
    _round_trip(recorder)


def test_a_game_recorded_with_undos_round_trips() -> None:
    recorder = GameRecorder(Game("cuban", seed=5, first_dealer=0))
    _play(recorder, 300, hands=1)
    for _ in range(7):
        recorder.undo()
    _play(recorder, 20)
    _round_trip(recorder)


def test_a_game_whose_actions_were_all_undone_may_be_recorded() -> None:
    game = Game("classic", seed=8, first_dealer=2)
    game.apply(game.legal_actions()[0])
    game.undo()
    recorder = GameRecorder(game)
    _play(recorder, 30)
    _round_trip(recorder)


# --- what a record cannot hold is refused ------------------------------------------------


def _position() -> canasta.HandState:
    return canasta.Game("classic", seed=4).hand.copy()


@pytest.mark.parametrize("scores", [None, [100, 250]])
def test_a_game_from_a_given_hand_is_refused_by_the_recorder(scores: list[int] | None) -> None:
    game = Game.from_hand(_position(), scores=scores, seed=1)
    assert game.starts_from_hand
    with pytest.raises(RecordError, match="from_hand") as info:
        GameRecorder(game)
    assert info.value.where == "game"


def test_a_game_already_played_is_refused_by_the_recorder() -> None:
    game = Game("classic", seed=1)
    game.apply(game.legal_actions()[0])
    with pytest.raises(RecordError, match="applied already"):
        GameRecorder(game)


@pytest.mark.parametrize("seats", ["abcd", [1, 2, 3, 4], ["a", "b", "c", None], ["a", "b", "c"]], ids=repr)
def test_seat_labels_the_reader_would_refuse_are_refused_when_recording(seats: object) -> None:
    # Before: ints were recorded, written, and refused on loading; a string gave one seat per letter.
    with pytest.raises(RecordError) as info:
        GameRecorder(Game("classic", seed=1), seats)  # type: ignore[arg-type]
    assert info.value.where.startswith("seats")
    assert isinstance(info.value, ValueError)


# --- format versions ----------------------------------------------------------------------


@pytest.fixture
def data() -> dict[str, Any]:
    recorder = GameRecorder(Game("classic", seed=9))
    _play(recorder, 25)
    result: dict[str, Any] = json.loads(recorder.record().dumps())
    return result


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_older_records_replay_with_the_last_seat_dealing_first(data: dict[str, Any], version: int) -> None:
    data["format_version"] = version
    del data["first_dealer"]
    record = record_from_json(data)
    assert record.first_dealer is None
    assert record.new_game().hand.dealer == 3
    assert len(list(replay(record))) == len(data["actions"])


def test_an_older_record_holding_a_first_dealer_is_refused(data: dict[str, Any]) -> None:
    data["format_version"] = 4
    with pytest.raises(RecordError, match="version 5") as info:
        record_from_json(data, validate=False)
    assert info.value.where == "first_dealer"


def test_a_version_5_record_must_say_who_dealt_first(data: dict[str, Any]) -> None:
    del data["first_dealer"]
    with pytest.raises(RecordError, match="first_dealer"):
        record_from_json(data, validate=False)


@pytest.mark.parametrize("bad", [4, 99, -1, 10**19, True, "1", 1.0, []])
def test_a_first_dealer_that_is_no_seat_is_refused(data: dict[str, Any], bad: object) -> None:
    data["first_dealer"] = bad
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert info.value.where == "first_dealer"


def test_a_null_first_dealer_is_the_default(data: dict[str, Any]) -> None:
    data["first_dealer"] = None
    assert record_from_json(data).new_game().hand.dealer == 3


# --- Game.from_hand's scores, Game's first dealer and observation seat ------------------


@pytest.mark.parametrize(
    "scores", [["a", "b"], [None, None], [0], [0, 0, 0], "ab", 5, [True, False], [1.5, 0], b"\x00\x00"]
)
def test_from_hand_refuses_scores_that_are_not_one_integer_per_side(scores: object) -> None:
    hand = _position()
    before = observation_to_json(hand.observation(hand.seat))
    with pytest.raises(InvalidPositionError, match="scores"):
        Game.from_hand(hand, scores=scores)  # type: ignore[arg-type]
    assert observation_to_json(hand.observation(hand.seat)) == before


@needs_numpy
def test_from_hand_takes_numpy_scores_as_plain_integers() -> None:
    game = Game.from_hand(_position(), scores=[np.int64(120), 40], seed=2)  # type: ignore[list-item]
    assert list(game.scores) == [120, 40] and all(type(s) is int for s in game.scores)


@pytest.mark.parametrize("bad", [-1, 4, 99, True, False, 1.0, "1", 2**70])
def test_game_refuses_a_first_dealer_that_is_no_seat(bad: object) -> None:
    with pytest.raises(SeatError, match="first_dealer"):
        Game("classic", seed=1, first_dealer=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 4, True, 1.0, "0", None])
def test_observation_refuses_a_seat_that_is_no_seat(bad: object) -> None:
    game = Game("classic", seed=1)
    with pytest.raises(SeatError):
        game.observation(bad)  # type: ignore[arg-type]
    if np is not None:
        assert game.observation(np.int64(2)).seat == 2  # type: ignore[arg-type]


def test_seat_errors_are_typed_and_survive_pickling() -> None:
    with pytest.raises(SeatError) as info:
        check_seat(7, 4)
    error = info.value
    assert isinstance(error, canasta.CanastaError) and isinstance(error, ValueError)
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error)):
        assert type(again) is SeatError and str(again) == str(error) and again.value == error.value


# --- memory --------------------------------------------------------------------------------


def _peak(text: bytes, *, max_bytes: int) -> tuple[int, str]:
    tracemalloc.start()
    try:
        try:
            loads_record(text, validate=False, max_bytes=max_bytes)
            outcome = "read"
        except RecordError as error:
            outcome = error.message
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, outcome


_LIMIT = 256 * 1024


@pytest.mark.parametrize(
    "unit",
    ["[]", '{"":0}', '"ab"', "1234"],
    ids=["lists", "objects", "strings", "integers"],
)
def test_a_hostile_record_text_costs_memory_bounded_by_the_limit(unit: str) -> None:
    # As many of the unit as the byte limit holds: refused, at a peak under 16 times the limit
    # (before: 22 times for lists, 27 for one-key objects).
    count = (_LIMIT - 10) // (len(unit) + 1)
    text = ('{"x":[' + ",".join([unit] * count) + "]}").encode()
    assert len(text) <= _LIMIT
    peak, outcome = _peak(text, max_bytes=_LIMIT)
    assert outcome != "read"
    assert peak < 16 * _LIMIT


def test_distinct_objects_cost_memory_bounded_by_the_limit() -> None:
    most = _LIMIT // BYTES_PER_ITEM // OBJECTS_PER_ITEM - 1  # as many objects as the limits allow
    units = [f'{{"":{i}}}' for i in range(most)]
    text = ('{"x":[' + ",".join(units) + "]}").encode()
    assert len(text) <= _LIMIT
    peak, outcome = _peak(text, max_bytes=_LIMIT)
    assert peak < 16 * _LIMIT, outcome


def test_too_many_values_are_refused_before_parsing() -> None:
    text = ('{"x":[' + ",".join(["[]"] * 50_000) + "]}").encode()
    peak, outcome = _peak(text, max_bytes=len(text))
    assert "more than" in outcome and "JSON values" in outcome
    assert peak < 2 * len(text)  # counted, not parsed
    objects = ("[" + ",".join(["{}"] * 50_000) + "]").encode()
    with pytest.raises(RecordError, match="JSON objects"):
        loads_record(objects, max_bytes=len(objects))


def test_every_record_the_library_writes_is_within_the_item_limits(tmp_path: Any) -> None:
    # A whole game of bots, read back under a byte limit of exactly its size (so the derived
    # item and object limits are as tight as they get), as text and bytes and from a file.
    recorder = GameRecorder(Game("cuban", seed=21))
    _play(recorder, 100_000)
    assert recorder.game.is_over
    text = recorder.record().dumps()
    size = len(text.encode())
    assert sum(text.count(c) for c in "{[,:") * BYTES_PER_ITEM < size
    assert loads_record(text, max_bytes=size) == recorder.record()
    assert loads_record(text.encode(), max_bytes=size) == recorder.record()
    path = tmp_path / "game.json"
    path.write_text(text)
    assert load_record(path, max_bytes=size) == recorder.record()
    assert MAX_RECORD_BYTES == 8 * 1024 * 1024


@pytest.mark.parametrize("bad", [-1, True, 1.5, "9"])
def test_max_items_must_be_a_count(bad: object) -> None:
    with pytest.raises(ValueError, match="max_items"):
        loads_record("{}", max_items=bad)  # type: ignore[arg-type]


def test_max_items_is_a_parameter(data: dict[str, Any]) -> None:
    text = json.dumps(data)
    items = sum(text.count(c) for c in "{[,:")
    assert loads_record(text, max_items=items).seed == 9
    with pytest.raises(RecordError, match="more than"):
        loads_record(text, max_items=items - 1)


# --- hand numbers --------------------------------------------------------------------------


def test_record_errors_number_hands_from_one_as_the_cli_does(data: dict[str, Any]) -> None:
    data["actions"][0] = {"type": "discard", "kind": "A"}  # illegal: the turn starts with a draw
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert str(info.value).startswith("hand 1, action 0 (actions[0])")
    assert info.value.hand == 0 and info.value.index == 0  # the index, as in hands[0]
