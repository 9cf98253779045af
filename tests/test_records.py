"""Game records: lossless JSON, validated loading, replay; observations as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

import canasta
from canasta import AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand, Kind, Meld, TakePile
from canasta.bots import make_bot
from canasta.records import (
    READABLE_RECORD_FORMAT_VERSIONS,
    RECORD_FORMAT_VERSION,
    RECORD_SCHEMA,
    GameRecord,
    GameRecorder,
    RecordError,
    action_from_json,
    action_to_json,
    load_record,
    observation_to_json,
    record_from_json,
    replay,
    save_record,
)


def recorded_game(variant: str = "classic", seed: int = 4, max_hands: int = 2, bot: str = "greedy") -> GameRecord:
    game = canasta.Game(variant, seed=seed)
    recorder = GameRecorder(game, [bot] * game.rules.players)
    bots = [make_bot(bot, (seed, s)) for s in range(game.rules.players)]
    while not game.is_over and len(game.results) < max_hands:
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))
    return recorder.record()


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return recorded_game()


@pytest.fixture
def data(record: GameRecord) -> dict[str, Any]:
    return json.loads(record.dumps())


ALL_ACTIONS = [
    DrawStock(),
    TakePile(2, 0, 0),
    TakePile(1, 1, 0),
    TakePile(1, 0, 1),
    TakePile(0, 0, 0),
    Meld(Kind.KING, 2, 1, 0),
    Meld(Kind.TEN, 3, 0, 2),
    Meld(Kind.JOKER, 0, 2, 1),
    Meld(Kind.BLACK_THREE, 3, 0, 0),
    *(Discard(k) for k in Kind),
    AskGoOut(),
    AnswerGoOut(True),
    AnswerGoOut(False),
    EndHand(),
]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=str)
def test_actions_round_trip_losslessly(action: canasta.Action) -> None:
    encoded = action_to_json(action)
    assert action_from_json(json.loads(json.dumps(encoded))) == action


def test_action_json_shape() -> None:
    meld = {"type": "meld", "rank": "K", "naturals": 2, "twos": 1, "jokers": 0}
    assert action_to_json(Meld(Kind.KING, 2, 1, 0)) == meld
    assert action_to_json(Discard(Kind.BLACK_THREE)) == {"type": "discard", "kind": "b3"}


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        ([], "action"),
        ({"type": "fly"}, "action.type"),
        ({"type": "draw", "extra": 1}, "action"),
        ({"type": "meld", "rank": "K", "naturals": 2, "twos": 1}, "action"),
        ({"type": "meld", "rank": "K", "naturals": "2", "twos": 1, "jokers": 0}, "action.naturals"),
        ({"type": "meld", "rank": "K", "naturals": True, "twos": 1, "jokers": 0}, "action.naturals"),
        ({"type": "meld", "rank": "Z", "naturals": 2, "twos": 1, "jokers": 0}, "action.rank"),
        ({"type": "take", "naturals": -1, "twos": 0, "jokers": 0}, "action.naturals"),
        ({"type": "answer", "yes": 1}, "action.yes"),
        ({"type": "retract"}, "action.type"),  # removed from the rules (SPEC.md §0)
    ],
)
def test_malformed_actions_are_refused(bad: object, where: str) -> None:
    with pytest.raises(RecordError) as info:
        action_from_json(bad)
    assert info.value.where == where


def test_round_trip_through_a_file(record: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(record, path)
    loaded = load_record(path)
    assert loaded == record
    assert loaded.final_scores == record.final_scores
    assert len(loaded.hand_totals) == 2


def test_saved_record_follows_the_documented_schema(data: dict[str, Any]) -> None:
    assert data["format"] == "canasta-record"
    assert data["format_version"] == RECORD_FORMAT_VERSION
    # ``players`` is optional: written only for a game of another count than the variant's default.
    assert set(data) == set(RECORD_SCHEMA["required"]) == set(RECORD_SCHEMA["properties"]) - {"players"}
    assert data["variant"] == {"name": "classic", "version": canasta.get_variant("classic").version}
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(data, RECORD_SCHEMA)


@pytest.mark.parametrize("variant", [v.name for v in canasta.available_variants()])
def test_every_variant_replays_identically(variant: str, tmp_path: Path) -> None:
    record = recorded_game(variant, seed=7, max_hands=1)
    path = tmp_path / f"{variant}.json"
    save_record(record, path)
    loaded = load_record(path)
    states = [step.game.scores[:] for step in replay(loaded)]
    assert len(states) == len(record.actions)
    assert tuple(states[-1]) == record.final_scores
    assert loaded.variant == variant


def _house_rule_cases() -> list[tuple[str, str]]:
    cases = []
    registry = canasta.default_registry()
    for rule in canasta.available_house_rules():
        fits = sorted(v.name for v in registry.variants() if registry.fits(rule.name, v.name))
        fits.sort(key=lambda v: v != "classic")
        cases.append((rule.name, fits[0]))
    return cases


@pytest.mark.parametrize(("house_rule", "variant"), _house_rule_cases())
def test_house_rules_are_recorded_and_replayed(house_rule: str, variant: str, tmp_path: Path) -> None:
    game = canasta.Game(variant, [house_rule], seed=1)
    recorder = GameRecorder(game)
    bots = [make_bot("greedy", s) for s in range(game.rules.players)]
    while not game.is_over and not game.results:
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))
    record = recorder.record()
    assert record.house_rules == ((house_rule, canasta.get_house_rule(house_rule).version),)
    save_record(record, tmp_path / "game.json")
    assert load_record(tmp_path / "game.json") == record


def test_records_are_written_as_version_6(data: dict[str, Any]) -> None:
    assert RECORD_FORMAT_VERSION == data["format_version"] == 6
    assert READABLE_RECORD_FORMAT_VERSIONS == (1, 2, 3, 4, 5, 6)
    assert RECORD_SCHEMA["properties"]["format_version"] == {"const": 6}
    assert "players" not in data  # the variant's default count
    assert data["first_dealer"] == 3  # the last seat dealt the first hand
    # The schema's action types are exactly the ones written; the take-back is gone.
    types = {v["properties"]["type"]["const"] for v in RECORD_SCHEMA["properties"]["actions"]["items"]["oneOf"]}
    today = {"draw", "take", "meld", "discard", "ask", "answer", "end", "declare", "lay_out", "pick_up"}
    sequence_games = {"group", "sequence", "extend", "wild", "combine", "black_threes", "pile"}
    own_shapes = {"lay_meld", "add_to_meld"}  # a plugin's meld type of a shape of its own (`canasta.ownshapes`)
    assert types == today | sequence_games | own_shapes


def test_version_6_round_trip(record: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "v6.json"
    save_record(record, path)
    assert json.loads(path.read_text())["format_version"] == 6
    loaded = load_record(path)
    assert loaded == record
    assert [list(s.game.scores) for s in replay(loaded)][-1] == list(record.final_scores)


@pytest.mark.parametrize("version", [2, 3, 4])
def test_version_2_to_4_records_still_replay(record: GameRecord, data: dict[str, Any], version: int) -> None:
    data["format_version"] = version
    del data["first_dealer"]  # version 5 added it; older records were played with the last seat dealing
    loaded = record_from_json(data)
    assert loaded == attrs.evolve(record, first_dealer=None)
    assert len(list(replay(loaded))) == len(record.actions)
    assert loaded.to_json()["format_version"] == 6  # saved again, it is a version-6 record
    assert record_from_json(loaded.to_json()) == loaded  # its first dealer written as null: the default


def test_version_1_record_without_take_backs_still_replays(record: GameRecord, data: dict[str, Any]) -> None:
    data["format_version"] = 1
    del data["first_dealer"]
    loaded = record_from_json(data)
    assert loaded == attrs.evolve(record, first_dealer=None)
    assert len(list(replay(loaded))) == len(record.actions)
    assert loaded.to_json()["format_version"] == 6  # saved again, it is a version-6 record


@pytest.mark.parametrize("validate", [True, False])
def test_version_1_record_with_a_take_back_is_refused_naming_where(data: dict[str, Any], validate: bool) -> None:
    data["format_version"] = 1
    del data["first_dealer"]
    data["actions"].insert(7, {"type": "retract"})
    with pytest.raises(RecordError) as info:
        record_from_json(data, validate=validate)
    assert info.value.where == "actions[7]"
    assert info.value.index == 7
    assert "not a rule of Canasta" in str(info.value) and "SPEC" not in str(info.value)
    assert "removed" in str(info.value) and "action 7" in str(info.value)


def test_version_3_record_with_a_take_back_is_malformed(data: dict[str, Any]) -> None:
    data["actions"].insert(3, {"type": "retract"})
    with pytest.raises(RecordError, match="removed") as info:
        record_from_json(data)
    assert info.value.where == "actions[3].type"
    assert info.value.index == 3


def test_undo_through_the_recorder_keeps_only_the_actions_that_stand(tmp_path: Path) -> None:
    game = canasta.Game("classic", seed=4)
    recorder = GameRecorder(game)
    bots = [make_bot("greedy", s) for s in range(4)]
    while len(game.results) < 1:
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))
    while game.results or len(game.history) % 7:  # back across the hand's end, and a few more
        recorder.undo()
    others = [make_bot("random", s) for s in range(4)]  # play the rest of the hand differently
    while len(game.results) < 2 and not game.is_over:
        recorder.apply(others[game.seat].choose(game.hand, game.seat))
    record = recorder.record()
    assert record.actions == game.history
    save_record(record, tmp_path / "undone.json")
    assert load_record(tmp_path / "undone.json") == record  # replays to the same scores


def test_undo_outside_the_recorder_is_caught() -> None:
    game = canasta.Game("classic", seed=4)
    recorder = GameRecorder(game)
    with pytest.raises(canasta.CanastaError, match="nothing to undo"):
        recorder.undo()
    recorder.apply(game.legal_actions()[0])
    game.undo()
    with pytest.raises(RecordError, match="through the GameRecorder"):
        recorder.record()


def test_replay_steps_through_states(record: GameRecord) -> None:
    steps = list(replay(record))
    assert [s.index for s in steps] == list(range(len(record.actions)))
    assert [s.action for s in steps] == list(record.actions)
    assert sum(1 for s in steps if s.hand_score is not None) == len(record.hand_totals)


def test_truncated_json_is_refused(record: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text(record.dumps()[:-40])
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(path)


def test_unknown_key_is_refused(data: dict[str, Any]) -> None:
    data["cheat"] = True
    with pytest.raises(RecordError, match="unknown key") as info:
        record_from_json(data)
    assert info.value.where == "record"


def test_missing_key_is_refused(data: dict[str, Any]) -> None:
    del data["seed"]
    with pytest.raises(RecordError, match="missing key"):
        record_from_json(data)


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (("seed",), "1", "seed"),
        (("seed",), True, "seed"),
        (("seats",), "four", "seats"),
        (("variant", "name"), 3, "variant.name"),
        (("final_scores",), [1, "x"], "final_scores[1]"),
        (("complete",), "yes", "complete"),
        (("format_version",), 99, "format_version"),
        (("format",), "chess", "format"),
    ],
)
def test_wrong_types_are_refused(data: dict[str, Any], path: tuple[str, ...], value: object, where: str) -> None:
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert info.value.where == where


def test_bad_action_names_its_index(data: dict[str, Any]) -> None:
    data["actions"][5] = {"type": "meld", "rank": "K"}
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert info.value.where == "actions[5]"


def test_illegal_action_names_hand_and_index(data: dict[str, Any]) -> None:
    # The first action of a hand is a draw-phase action; a discard there is illegal.
    data["actions"][0] = {"type": "discard", "kind": "A"}
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert info.value.hand == 0
    assert info.value.index == 0
    assert "hand 1, action 0" in str(info.value)  # hands counted from 1 in the text, as the CLI does
    assert "wrong-phase" in str(info.value)


def test_illegal_action_in_second_hand(record: GameRecord, data: dict[str, Any]) -> None:
    first = record.hand_lengths[0]
    data["actions"][first + 1] = {"type": "draw"}  # the second action of a turn is never a draw
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert info.value.hand == 1
    assert info.value.index == first + 1


def test_actions_after_the_end_are_refused(data: dict[str, Any]) -> None:
    complete = json.loads(recorded_game(max_hands=100).dumps())
    assert complete["complete"] is True
    complete["actions"].append({"type": "draw"})
    with pytest.raises(RecordError, match="already over"):
        record_from_json(complete)


def test_tampered_scores_are_refused(data: dict[str, Any]) -> None:
    data["final_scores"][0] += 100
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert info.value.where in ("final_scores", "hands")
    data["final_scores"][0] -= 100
    data["hands"][0]["totals"][1] -= 5
    with pytest.raises(RecordError, match="hand totals"):
        record_from_json(data)


def test_unknown_variant_in_record(data: dict[str, Any]) -> None:
    data["variant"]["name"] = "no-such-variant"
    with pytest.raises(RecordError, match="unknown variant"):
        record_from_json(data)
    assert record_from_json(data, validate=False).variant == "no-such-variant"


def test_version_mismatch_is_refused_unless_allowed(data: dict[str, Any]) -> None:
    data["variant"]["version"] = "0.0-old"
    with pytest.raises(RecordError, match="installed is"):
        record_from_json(data)
    assert record_from_json(data, check_versions=False).variant_version == "0.0-old"


def test_record_error_is_a_canasta_error() -> None:
    assert issubclass(RecordError, canasta.CanastaError)


def test_observation_json_holds_what_the_seat_sees() -> None:
    game = canasta.Game("classic", seed=2)
    seat = game.seat
    data = json.loads(json.dumps(observation_to_json(game.observation(seat))))
    assert data["format"] == "canasta-observation"
    assert data["seat"] == seat
    assert data["hand"] == [c.code for c in game.hand.hand_cards(seat)]
    assert data["hand_sizes"] == list(game.hand.sizes)
    assert [action_from_json(a) for a in data["legal_actions"]] == list(game.legal_actions())
    other = json.loads(json.dumps(observation_to_json(game.observation((seat + 1) % 4))))
    assert other["legal_actions"] == []
    assert other["hand"] != data["hand"]
    # Nothing hidden: no key names the stock's cards or another seat's hand.
    assert "stock" not in data
    assert data["stock_size"] == len(game.hand.stock)
