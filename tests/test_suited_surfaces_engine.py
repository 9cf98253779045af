"""The sequence games' actions as the engine lists them: every one has an RL id, a record and a command.

Random hands of Samba, Bolivia and Brazilian canasta: every legal action has one
`canasta.rl.SequenceActionSpace` id and comes back from it (so the legal mask is
exact), is written and read back by the records, and its notation is read back,
against the legal list, as the engine's own object; a recorded game replays from
its variant's name.
"""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import canasta
from canasta import HandState
from canasta.commands import notation, parse_sequence_command
from canasta.records import GameRecorder, action_from_json, action_to_json, record_from_json
from canasta.rl import SequenceActionSpace

SPACE = SequenceActionSpace()


@pytest.mark.parametrize("name", ["samba", "bolivia", "brazilian"])
def test_every_legal_action_has_an_id_a_record_and_a_command(name: str) -> None:
    rules = canasta.load_rules(name)
    for seed in range(3):
        h = HandState.deal(rules, dealer=seed, scores=(seed * 3000, 0), seed=seed)
        rng = random.Random(seed)
        while not h.is_over:
            legal = h.legal_actions()
            ids = SPACE.to_ids(legal)
            assert len(set(ids)) == len(ids)
            mask = SPACE.legal_mask(h)
            assert int(mask.sum()) == len(legal)
            for action, action_id in zip(legal, ids, strict=True):
                assert SPACE.to_action(action_id) == action
                assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
                assert parse_sequence_command(notation(action), legal) is action
            h.apply(rng.choice(legal))


def test_a_recorded_game_replays() -> None:
    game = canasta.Game("brazilian", seed=3)
    recorder = GameRecorder(game, ["random"] * 4)
    rng = random.Random(3)
    while not game.is_over and len(game.results) < 2:
        recorder.apply(rng.choice(game.legal_actions()))
    text = recorder.record().dumps()
    assert {"group", "sequence", "pile"} <= {a["type"] for a in json.loads(text)["actions"]}
    assert any("suit" in a for a in json.loads(text)["actions"] if a["type"] == "discard")
    assert json.loads(text)["variant"] == {"name": "brazilian", "version": "1.0"}
    assert record_from_json(json.loads(text)).dumps() == text  # replayed by name, action by action
