"""One variant, several numbers of players (issue 33: Hand and Foot plays 2 to 6 players).

A variant says which counts it plays (the hook ``canasta_player_counts``; its
``canasta_players`` answer stays the default count) and a game chooses one:
``canasta.load_rules(..., players=n)``, ``canasta.Game(..., players=n)``, the
records, the command line, `canasta.simulate`, the RL environments and the
OpenSpiel game carry the count. A test plugin here (not in ``variants/``) plays
2 to 6 players seated Hand and Foot's way (SPEC §8.1: 2, 3 and 5 single players,
4 as two partnerships of 2, 6 as two of 3) with players + 1 packs and a foot.
Today's variants declare no other count, so they refuse any but their own.
"""

from __future__ import annotations

import io
import json
import random
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta import DeckSpec, GameLength, GameRecorder, PacketRules, Registry, RulesError, Variant
from canasta.cli import main
from canasta.records import RECORD_FORMAT_VERSION, RECORD_SCHEMA, RecordError, loads_record, record_from_json, replay
from canasta.simulate import simulate
from canasta.summary import format_rules_summary
from canasta.testing.invariants import check_game

#: Hand and Foot's seating of each table (SPEC §8.1).
SEATING = {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 0, 1), 5: (0, 1, 2, 3, 4), 6: (0, 1, 0, 1, 0, 1)}
COUNTS = tuple(sorted(SEATING))
NAME = "family-table"


class FamilyTable:
    """Classic canasta at Hand and Foot's tables: 2 to 6 players, players + 1 packs, a foot of 11."""

    @canasta.hookimpl
    def canasta_player_counts(self) -> tuple[int, ...]:
        return (6, 5, 4, 3, 2)  # any order: the rules keep them sorted

    @canasta.hookimpl
    def canasta_sides(self, players: int) -> tuple[int, ...]:
        return SEATING[players]

    @canasta.hookimpl
    def canasta_deck(self, players: int) -> DeckSpec:
        return DeckSpec(packs=players + 1, jokers=2 * (players + 1))

    @canasta.hookimpl
    def canasta_packets(self, players: int) -> PacketRules:
        return PacketRules(sizes=(11,), partners_first=True, three_down=-100)

    @canasta.hookimpl
    def canasta_game_length(self) -> GameLength:
        return GameLength(deals=2)


REGISTRY = Registry(autoload="builtin")
REGISTRY.add_variant(Variant(NAME, "Hand and Foot's tables (a test).", plugins=(FamilyTable(),), base="classic"))


def _rules(players: int | None = None) -> canasta.Rules:
    return canasta.load_rules(NAME, registry=REGISTRY, players=players)


def _answer(value: object) -> Callable[[], object]:
    return lambda: value


def _broken(**hooks: Any) -> Registry:
    registry = Registry(autoload="builtin")
    plugin = types.ModuleType("counts")
    for name, answer in hooks.items():
        setattr(plugin, name, canasta.hookimpl(_answer(answer)))
    registry.add_variant(Variant("broken-counts", "A test.", plugins=(plugin,), base="classic"))
    return registry


def _play(game: canasta.Game, rng: random.Random, recorder: GameRecorder | None = None, limit: int = 20000) -> None:
    """Random legal actions to the end of the game, melds and takes half the time (games end sooner)."""
    for _ in range(limit):
        if game.is_over:
            return
        legal = game.legal_actions()
        melds = [a for a in legal if isinstance(a, canasta.Meld | canasta.TakePile)]
        action = rng.choice(melds) if melds and rng.random() < 0.5 else rng.choice(legal)
        if recorder is not None:
            recorder.apply(action)
        else:
            game.apply(action)
    raise AssertionError(f"the game did not end in {limit} actions")


# --- the rules at each count -----------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
def test_each_count_compiles_with_its_seating_deck_and_packets(players: int) -> None:
    rules = _rules(players)
    assert rules.players == players and rules.sides == SEATING[players]
    assert rules.deck == DeckSpec(packs=players + 1, jokers=2 * (players + 1))
    assert rules.packets.sizes == (11,)
    assert rules.player_counts == rules.playable_counts == COUNTS
    assert rules.has_partners == (players in (4, 6))
    assert rules.side_count == (2 if players in (4, 6) else players)


def test_the_default_count_is_canasta_players_and_the_same_rules_by_number() -> None:
    default = _rules()
    assert default.players == 4  # classic's canasta_players
    assert _rules(4) is default
    assert _rules(5) is _rules(5) and _rules(5) != default


@pytest.mark.parametrize("players", [1, 7, 8, 0, -4])
def test_a_count_the_variant_does_not_play_is_refused(players: int) -> None:
    with pytest.raises(RulesError, match=r"not played by -?\d+ players: it plays 2, 3, 4, 5 or 6 players"):
        _rules(players)
    with pytest.raises(RulesError, match="it plays 2, 3, 4, 5 or 6"):
        canasta.Game(NAME, registry=REGISTRY, players=players)


@pytest.mark.parametrize("players", ["4", 4.0, True])
def test_a_count_that_is_not_an_integer_is_a_type_error(players: Any) -> None:
    with pytest.raises(TypeError, match="players must be an integer"):
        _rules(players)


@pytest.mark.parametrize("variant", ["classic", "two-player", "three-player", "six-player", "cuban"])
def test_todays_variants_play_their_own_count_only(variant: str) -> None:
    own = canasta.load_rules(variant)
    assert own.playable_counts == own.player_counts == (own.players,)
    assert canasta.load_rules(variant, players=own.players) is own
    for players in range(2, 9):
        if players != own.players:
            with pytest.raises(RulesError, match=f"it plays {own.players} players"):
                canasta.load_rules(variant, players=players)


def test_rules_and_a_count_must_agree() -> None:
    rules = _rules(5)
    assert canasta.Game(rules=rules, players=5).rules is rules
    with pytest.raises(RulesError, match="players=3 was given with rules for 5 players"):
        canasta.Game(rules=rules, players=3)


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        ({"canasta_player_counts": ()}, "counts of 2 to 8 players, none twice, expected, got ()"),
        ({"canasta_player_counts": (4, 9)}, "counts of 2 to 8 players"),
        ({"canasta_player_counts": (4, 4)}, "none twice"),
        ({"canasta_player_counts": (2, True, 4)}, r"returned \(2, True, 4\): item True \(bool\), expected int"),
        ({"canasta_player_counts": (2, 3)}, r"the default count 4 \(canasta_players\) is not among the counts"),
        ({"canasta_player_counts": [2, 4]}, "canasta_player_counts returned"),
    ],
)
def test_a_malformed_answer_is_a_rules_error_naming_the_hook(hooks: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message) as info:
        canasta.load_rules("broken-counts", registry=_broken(**hooks))
    assert "canasta_player_counts" in str(info.value)


def test_a_house_rule_fits_at_every_count() -> None:
    for players in COUNTS:
        rules = canasta.load_rules(NAME, ["black-three-freezes"], registry=REGISTRY, players=players)
        assert rules.players == players and rules.house_rules == ("black-three-freezes",)
        assert rules.pile != _rules(players).pile  # the house rule's change, at this count


def test_the_summary_shows_the_count_and_the_others() -> None:
    assert "players" in format_rules_summary(_rules(5))
    rows = {rule: value for _, rule, value in canasta.rules_summary(_rules(5))}
    assert rows["players"] == "5 (plays 2, 3, 4, 5, 6)"
    assert {rule: value for _, rule, value in canasta.rules_summary(canasta.load_rules("classic"))}["players"] == "4"
    assert "player counts" not in rows


# --- whole games at each count ---------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_games_at_each_count(players: int, seed: int) -> None:
    game = canasta.Game(NAME, registry=REGISTRY, players=players, seed=seed)
    assert game.rules.players == players and game.hand.dealer == players - 1
    assert len(game.hand.packets) == players and len(game.hand.sizes) == players
    _play(game, random.Random(seed))
    assert game.is_over and len(game.results) == 2 and len(game.scores) == game.rules.side_count
    check_game(game)
    # A game continued from one of its hands keeps the count: the hand's rules carry it.
    again = canasta.Game.from_hand(game.hand.copy(), seed=1)
    assert again.rules.players == players and again.rules.sides == SEATING[players]


# --- records ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
def test_records_round_trip_at_each_count(players: int) -> None:
    game = canasta.Game(NAME, registry=REGISTRY, players=players, seed=10 + players)
    recorder = GameRecorder(game, registry=REGISTRY)
    _play(game, random.Random(players), recorder)
    record = recorder.record()
    assert record.players == (None if players == 4 else players)  # written only when not the default
    data = json.loads(record.dumps())
    assert data["format_version"] == RECORD_FORMAT_VERSION == 6
    assert ("players" in data) == (players != 4)
    loaded = loads_record(record.dumps(), registry=REGISTRY)
    assert loaded == record
    steps = list(replay(loaded, registry=REGISTRY))
    assert len(steps) == len(record.actions)
    assert steps[-1].game.rules.players == players and list(steps[-1].game.scores) == list(record.final_scores)


def test_a_record_of_a_count_the_variant_does_not_play_is_refused() -> None:
    recorder = GameRecorder(canasta.Game("classic", seed=1))
    data = json.loads(recorder.record().dumps())
    data["players"] = 3
    with pytest.raises(RecordError, match="played by 3 players, but variant 'classic' plays 4 players") as info:
        record_from_json(data)
    assert info.value.where == "players"
    for bad in (9, 1, "3", True):
        data["players"] = bad
        with pytest.raises(RecordError) as info:
            record_from_json(data, validate=False)
        assert info.value.where == "players"


def test_an_older_record_cannot_hold_a_count() -> None:
    game = canasta.Game(NAME, registry=REGISTRY, players=5, seed=1)
    data = json.loads(GameRecorder(game, registry=REGISTRY).record().dumps())
    data["format_version"] = 5
    with pytest.raises(RecordError, match="came with record format version 6") as info:
        record_from_json(data, validate=False)
    assert info.value.where == "players"
    del data["players"]  # a version-5 record plays the default count, as it was played
    data["first_dealer"] = None
    assert record_from_json(data, validate=False).new_game(REGISTRY).rules.players == 4


def test_the_record_schema_takes_a_count() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    game = canasta.Game(NAME, registry=REGISTRY, players=6, seed=1)
    data = json.loads(GameRecorder(game, registry=REGISTRY).record().dumps())
    jsonschema.validate(data, RECORD_SCHEMA)
    data["players"] = 9
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, RECORD_SCHEMA)


# --- simulate, the command line, the RL environments, OpenSpiel ------------------------------------


@pytest.fixture
def default_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The test variant in the process-wide registry (for the entry points that take names only)."""
    monkeypatch.setattr(canasta.registry, "_DEFAULT", REGISTRY)
    return REGISTRY


def test_simulate_plays_the_chosen_count(default_registry: Registry) -> None:
    result = simulate(NAME, games=2, seed=1, max_hands=1, players=5)
    assert result.summary.players == 5 and len(result.summary.bots) == 5 and len(result.summary.sides) == 5
    with pytest.raises(canasta.CanastaError, match="it plays 2, 3, 4, 5 or 6"):
        simulate(NAME, games=1, players=7)


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out)
    return code, out.getvalue()


def test_the_command_line_takes_a_count(
    default_registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = _run(["rules", NAME, "--players", "6", "--format", "text"])
    assert code == 0 and "5 (plays" not in text and "6 (plays 2, 3, 4, 5, 6)" in text
    code, text = _run(["variants"])
    assert code == 0 and "players: 4 (plays 2, 3, 4, 5, 6)" in text and "players: 4\n" in text  # classic: 4
    path = tmp_path / "game.json"
    code, text = _run(
        [
            "play",
            "--variant",
            NAME,
            "--players",
            "3",
            "--bots-only",
            "--seed",
            "2",
            "--quiet",
            "--max-hands",
            "1",
            "--record",
            str(path),
        ]
    )
    assert code == 0 and "3 players" in text
    assert json.loads(path.read_text())["players"] == 3
    code, text = _run(
        ["simulate", "--variant", NAME, "--players", "5", "--games", "1", "--max-hands", "1", "--format", "json"]
    )
    assert code == 0 and json.loads(text)["players"] == 5
    assert _run(["rules", "classic", "--players", "6"])[0] == 2
    assert "variant 'classic' is not played by 6 players: it plays 4 players" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # argparse: out of 2 to 8
        _run(["rules", "classic", "--players", "9"])


def test_the_rl_environments_take_a_count(default_registry: Registry) -> None:
    pytest.importorskip("pettingzoo")
    from canasta.rl import CanastaEnv, VectorEnv

    env = CanastaEnv(NAME, players=6, max_hands=1)
    assert env.rules.players == 6 and env.possible_agents == [f"player_{i}" for i in range(6)]
    env.reset(seed=3)
    assert env.game is not None and env.game.rules.players == 6
    assert CanastaEnv(NAME).rules.players == 4
    with pytest.raises(RulesError, match="it plays 2, 3, 4, 5 or 6"):
        CanastaEnv(NAME, players=7)
    with pytest.raises(RulesError, match="players=2 was given with rules for 6 players"):
        CanastaEnv(rules=env.rules, players=2)
    vector = VectorEnv(2, NAME, players=3)
    assert vector.rules.players == 3


def test_the_openspiel_game_takes_a_count(default_registry: Registry) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import canasta.openspiel  # noqa: F401  (registers python_canasta)

    game = pyspiel.load_game("python_canasta", {"variant": NAME, "players": 5})
    assert game.num_players() == 5 and game.config.record_players == 5
    assert pyspiel.load_game("python_canasta", {"variant": NAME}).num_players() == 4
    assert pyspiel.load_game("python_canasta", {"variant": NAME, "players": 4}).config.record_players is None
    with pytest.raises(RulesError, match="it plays 2, 3, 4, 5 or 6"):
        pyspiel.load_game("python_canasta", {"variant": NAME, "players": 7})


def test_the_web_page_offers_the_counts_and_deals_the_chosen_one(default_registry: Registry) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from canasta.web import create_app

    base = "http://127.0.0.1"
    c = TestClient(create_app(NAME, players=3, seed=1), base_url=base)
    listing = c.get("/api/variants").json()
    offered = {v["name"]: (v["players"], v["default_players"]) for v in listing["variants"]}
    assert offered[NAME] == ([2, 3, 4, 5, 6], 4) and offered["classic"] == ([4], 4)
    assert listing["defaults"]["players"] == 3
    assert len(c.get("/api/state").json()["names"]) == 3  # the server's default game
    dealt = c.post("/api/new", json={"variant": NAME, "players": 5, "seed": 2})
    assert dealt.status_code == 200 and len(dealt.json()["names"]) == 5
    refused = c.post("/api/new", json={"variant": NAME, "players": 7})
    assert refused.status_code == 422 and "it plays 2, 3, 4, 5 or 6" in refused.json()["error"]
    assert c.post("/api/new", json={"variant": NAME, "players": "5"}).status_code == 400
    assert c.post("/api/new", json={"variant": "classic", "players": 6}).status_code == 422


def test_a_version_5_record_still_replays_at_the_default_count() -> None:
    game = canasta.Game("classic", seed=4)
    recorder = GameRecorder(game)
    rng = random.Random(4)
    for _ in range(40):
        recorder.apply(rng.choice(game.legal_actions()))
    record = recorder.record()
    data = json.loads(record.dumps())
    data["format_version"] = 5  # the same record, as this library wrote it before version 6
    loaded = record_from_json(data)
    assert loaded == record and loaded.players is None
    assert len(list(replay(loaded))) == 40


def test_a_house_rule_that_holds_at_some_counts_only_is_refused_at_the_others() -> None:
    registry = Registry(autoload="builtin")
    registry.add_variant(Variant(NAME, "A test.", plugins=(FamilyTable(),), base="classic"))
    sixes = types.ModuleType("sixes")
    sixes.canasta_sides = canasta.hookimpl(_answer((0, 1, 0, 1, 0, 1)))  # type: ignore[attr-defined]
    registry.add_house_rule(canasta.HouseRule("three-pairs", "Six seats in two partnerships.", plugins=(sixes,)))
    assert canasta.load_rules(NAME, ["three-pairs"], registry=registry, players=6).sides == SEATING[6]
    for players in (None, 2, 3, 4, 5):  # the default count (4) included
        with pytest.raises(RulesError, match=r"canasta_sides: 6 seats given for \d players .*house rule three-pairs"):
            canasta.load_rules(NAME, ["three-pairs"], registry=registry, players=players)
