"""Records carry the sequence games' actions and a discard's suit losslessly, and refuse them malformed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from suited_strategies import every_action_but_groups, groups_of, sequence_game_actions

import canasta
from canasta.actions import Discard
from canasta.bots import make_bot
from canasta.cards import Kind, Suit
from canasta.records import (
    RECORD_FORMAT_VERSION,
    RECORD_SCHEMA,
    GameRecorder,
    RecordError,
    action_from_json,
    action_to_json,
    record_from_json,
)
from canasta.suitedactions import SequenceGameAction
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

C, D, H, S = Suit


def _round_trip(action: SequenceGameAction) -> dict[str, Any]:
    data = action_to_json(action)
    text = json.dumps(data)
    back = action_from_json(json.loads(text))
    assert back == action and type(back) is type(action)
    return data


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (Discard(Kind.KING, suit=H), {"type": "discard", "kind": "K", "suit": "H"}),
        (Discard(Kind.TEN, suit=C), {"type": "discard", "kind": "T", "suit": "C"}),
        (Discard(Kind.JOKER), {"type": "discard", "kind": "*"}),
        (
            LayGroup(13, (0, 0, 1, 2), 1, 0, 3),
            {"type": "group", "rank": "K", "suits": [0, 0, 1, 2], "twos": 1, "jokers": 0, "meld": 3},
        ),
        (LayGroup(10, (1, 1, 0, 0)), {"type": "group", "rank": "T", "suits": [1, 1, 0, 0], "twos": 0, "jokers": 0}),
        (LaySequence(H, 5, 9), {"type": "sequence", "suit": "H", "low": "5", "high": "9"}),
        (LaySequence(S, 8, 14), {"type": "sequence", "suit": "S", "low": "8", "high": "A"}),
        (Extend(2, 4, 10), {"type": "extend", "meld": 2, "low": "4", "high": "T"}),
        (LayWild(2, 1, 0), {"type": "wild", "twos": 2, "jokers": 1, "meld": 0}),
        (LayWild(3, 0), {"type": "wild", "twos": 3, "jokers": 0}),
        (Combine(0, 4), {"type": "combine", "first": 0, "second": 4}),
        (LayBlackThrees(3), {"type": "black_threes", "count": 3}),
        (PileTake(TakeMode.PAIR, 1, (C, H)), {"type": "pile", "mode": "pair", "meld": 1, "pair": ["C", "H"]}),
        (PileTake(TakeMode.PAIR, None, (S, S)), {"type": "pile", "mode": "pair", "pair": ["S", "S"]}),
        (PileTake(TakeMode.TOP_ONTO_GROUP, 5), {"type": "pile", "mode": "top-onto-group", "meld": 5}),
        (PileTake(TakeMode.TOP_ONTO_SEQUENCE, 2), {"type": "pile", "mode": "top-onto-sequence", "meld": 2}),
    ],
)
def test_the_documented_shapes(action: SequenceGameAction, data: dict[str, Any]) -> None:
    assert _round_trip(action) == data


def test_a_discard_without_a_suit_is_written_as_before() -> None:
    for kind in Kind:
        assert action_to_json(Discard(kind)) == {"type": "discard", "kind": kind.symbol}
    assert RECORD_FORMAT_VERSION == 6  # no new format version: only the sequence games play these


@given(sequence_game_actions())
def test_every_action_round_trips(action: SequenceGameAction) -> None:
    _round_trip(action)


def test_every_action_but_the_groups_and_every_group_of_a_rank_round_trip() -> None:
    for action in [*every_action_but_groups(), *groups_of(12, (None, 7))]:
        _round_trip(action)


def test_the_schema_describes_them() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    items = RECORD_SCHEMA["properties"]["actions"]["items"]
    validator = jsonschema.Draft202012Validator(items)  # (one: `jsonschema.validate` checks the schema each call)
    sample = [*list(every_action_but_groups())[::5], *list(groups_of(14, (None, 63)))[::5]]  # (every shape)
    for action in sample:
        validator.validate(action_to_json(action))
    for bad in (
        {"type": "group", "rank": "2", "suits": [1, 1, 0, 0], "twos": 0, "jokers": 1},
        {"type": "group", "rank": "K", "suits": [1, 1, 0], "twos": 0, "jokers": 1},
        {"type": "sequence", "suit": "X", "low": "5", "high": "9"},
        {"type": "pile", "mode": "top-card"},
        {"type": "pile", "mode": "pair", "pair": ["C"]},
        {"type": "discard", "kind": "K", "suit": "Z"},
        {"type": "combine", "first": 1},
    ):
        assert not validator.is_valid(bad)


@pytest.mark.parametrize(
    ("bad", "where", "message"),
    [
        ({"type": "discard", "kind": "*", "suit": "H"}, "action", "only a natural card's discard names its suit"),
        ({"type": "discard", "kind": "K", "suit": "X"}, "action.suit", "unknown suit"),
        ({"type": "discard", "kind": "K", "suit": 2}, "action.suit", "expected str"),
        ({"type": "group", "rank": "2", "suits": [1, 1, 0, 0], "twos": 0, "jokers": 1}, "action.rank", "natural rank"),
        ({"type": "group", "rank": "K", "suits": [1, 1, 0], "twos": 0, "jokers": 1}, "action.suits", "four counts"),
        ({"type": "group", "rank": "K", "suits": [1, "1", 0, 0], "twos": 0, "jokers": 0}, "action.suits", "four"),
        ({"type": "group", "rank": "K", "suits": "CH", "twos": 0, "jokers": 0}, "action.suits", "expected list"),
        ({"type": "group", "rank": "K", "suits": [1, 1, 0, 0], "twos": -1, "jokers": 0}, "action.twos", "a count"),
        ({"type": "group", "rank": "K", "suits": [1, 1, 0, 0], "twos": 0}, "action", "missing key(s) 'jokers'"),
        ({"type": "sequence", "suit": "H", "low": "9", "high": "5"}, "action", "above its high end"),
        ({"type": "sequence", "suit": "H", "low": "3", "high": "5"}, "action.low", "unknown card kind"),
        ({"type": "sequence", "suit": "H", "low": "*", "high": "5"}, "action.low", "natural rank"),
        ({"type": "sequence", "suit": "H", "low": "4", "high": "6", "meld": 1}, "action", "unknown key(s) 'meld'"),
        ({"type": "extend", "meld": 1.5, "low": "4", "high": "9"}, "action.meld", "a count"),
        ({"type": "wild", "twos": True, "jokers": 1}, "action.twos", "a count"),
        ({"type": "combine", "first": 2, "second": 2}, "action", "got meld 2 twice"),
        ({"type": "black_threes", "count": "3"}, "action.count", "a count"),
        ({"type": "pile", "mode": "onto"}, "action.mode", "unknown take mode"),
        ({"type": "pile", "mode": "pair"}, "action", "needs 'pair'"),
        ({"type": "pile", "mode": "top-onto-group", "meld": 1, "pair": ["C", "C"]}, "action", "has no 'pair'"),
        ({"type": "pile", "mode": "top-onto-sequence"}, "action", "names the meld"),
        ({"type": "pile", "mode": "pair", "pair": ["H", "C"]}, "action.pair", "in suit order"),
        ({"type": "pile", "mode": "pair", "pair": ["H"]}, "action.pair", "expected two suits"),
        ({"type": "pile", "mode": "pair", "pair": ["H", 1]}, "action.pair", "expected two suits"),
        ({"type": "pile", "mode": "pair", "pair": ["H", "Q"]}, "action.pair[1]", "unknown suit"),
    ],
)
def test_malformed_suited_actions_are_refused(bad: dict[str, Any], where: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        action_from_json(bad)
    assert info.value.where == where
    assert message in info.value.message


@pytest.fixture(scope="module")
def classic_record() -> dict[str, Any]:
    game = canasta.Game("classic", seed=5)
    recorder = GameRecorder(game, ["random"] * 4)
    bots = [make_bot("random", (5, s)) for s in range(4)]
    for _ in range(60):
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))
    data: dict[str, Any] = json.loads(recorder.record().dumps())
    return data


def test_todays_records_read_as_before(classic_record: dict[str, Any]) -> None:
    record = record_from_json(classic_record)  # replays every action
    assert json.loads(record.dumps()) == classic_record


@pytest.mark.parametrize(
    "change",
    [
        lambda a: {**a, "suit": "H"},  # a natural's discard naming a suit
        lambda a: {"type": "sequence", "suit": "H", "low": "5", "high": "7"},
        lambda a: {"type": "pile", "mode": "pair", "pair": ["C", "H"]},
    ],
)
def test_a_suited_action_in_a_record_of_todays_rules_does_not_replay(
    classic_record: dict[str, Any], change: Any
) -> None:
    data = json.loads(json.dumps(classic_record))
    index = next(i for i, a in enumerate(data["actions"]) if a["type"] == "discard" and kind_is_natural(a["kind"]))
    data["actions"][index] = change(data["actions"][index])
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert info.value.index == index


def kind_is_natural(symbol: str) -> bool:
    return canasta.cards.kind_from_symbol(symbol).is_natural
