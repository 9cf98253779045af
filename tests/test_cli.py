"""The `canasta` command: play (scripted and bots only), simulate, replay, variants, rules."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta import cli
from canasta.cli import main
from canasta.records import RecordError, load_record


def run(args: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def test_play_bots_only_plays_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out = run(["play", "--bots-only", "--seed", "3", "--quiet", "--record", str(path)])
    assert code == 0
    assert "game over after" in out
    assert "Hand 1 score" in out and "hand total" in out and "cards left in hand" in out
    record = load_record(path)
    assert record.complete
    assert record.seats == ("greedy",) * 4
    a, b = record.final_scores
    assert f"final: seats 0+2 {a}, seats 1+3 {b}" in out  # side names, not a Python list
    assert "[" not in out.splitlines()[-2]


def test_play_scripted_input(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    # "x" and "99" are refused and asked again; then the first legal action is taken until "q".
    script = "x\n99\n" + "1\n" * 40 + "q\n"
    code, out = run(["play", "--seed", "2", "--record", str(path)], stdin=script)
    assert code == 0
    assert "not a choice: 'x'" in out
    assert "not a choice: '99'" in out
    assert "your hand (11 cards)" in out
    assert "your side still needs 50 for its initial meld" in out
    assert "turn: seat 0 (you), draw phase" in out
    assert "frozen for you" in out
    assert "stock: " in out and "pile: " in out
    assert "game not finished (quit)" in out
    record = load_record(path)
    assert record.seats[0] == "you"
    assert not record.complete
    # Every choice made through the input is in the record: 40 numbered answers from seat 0, but
    # for the lines read by the pause after each hand's score.
    pauses = out.count("press Enter to continue")
    assert pauses == 1 and out.index("Hand 1 score") < out.index("press Enter to continue")
    seat0 = [step for step in canasta.records.replay(record) if step.seat == 0]
    assert len(seat0) == 40 - pauses


def test_play_input_ending_stops_cleanly() -> None:
    code, out = run(["play", "--seed", "1"], stdin="1\n")
    assert code == 0
    assert "game not finished (input ended)" in out


@pytest.mark.parametrize("variant", [v.name for v in canasta.available_variants()])
def test_play_every_variant_one_hand(variant: str) -> None:
    code, out = run(["play", "--variant", variant, "--bots-only", "--seed", "1", "--max-hands", "1", "--quiet"])
    assert code == 0, out
    assert "Hand 1 score" in out


def test_play_with_unknown_house_rule_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["play", "--house-rule", "no-such-rule", "--bots-only"])
    assert code == 2
    assert "unknown house rule 'no-such-rule'" in capsys.readouterr().err


def test_simulate_text() -> None:
    code, out = run(["simulate", "--games", "3", "--seed", "1"])
    assert code == 0
    assert "3 games of classic (seed 1)" in out
    assert "win rate (95% CI)" in out
    assert "hands per game" in out


def test_simulate_json_is_one_object() -> None:
    code, out = run(["simulate", "--games", "4", "--seed", "1", "--format", "json"])
    assert code == 0
    assert out.count("\n") == 1
    data = json.loads(out)
    assert data["games"] == 4
    assert len(data["sides"]) == 2
    assert sum(s["wins"] for s in data["sides"]) + data["ties"] + data["incomplete"] == 4


def test_simulate_csv_one_row_per_game() -> None:
    code, out = run(["simulate", "--games", "3", "--seed", "2", "--format", "csv"])
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["game"] for r in rows] == ["0", "1", "2"]
    assert {"winner", "score_0", "score_1", "hands"} <= set(rows[0])


def test_simulate_workers_same_totals() -> None:
    _, one = run(["simulate", "--games", "4", "--seed", "8", "--format", "json"])
    _, two = run(["simulate", "--games", "4", "--seed", "8", "--format", "json", "--workers", "2"])
    drop = ("seconds", "workers")
    assert {k: v for k, v in json.loads(one).items() if k not in drop} == {
        k: v for k, v in json.loads(two).items() if k not in drop
    }


def test_simulate_unknown_variant_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["simulate", "--variant", "no-such-variant", "--games", "1"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: error: unknown variant 'no-such-variant'")
    assert "Traceback" not in err


def test_replay_prints_every_action(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run(["play", "--bots-only", "--seed", "5", "--max-hands", "1", "--quiet", "--record", str(path)])
    record = load_record(path)
    code, out = run(["replay", str(path)])
    assert code == 0
    assert out.count("  hand 1, seat ") == len(record.actions)
    a, b = record.final_scores
    assert not record.complete  # one hand of a game: never called "final"
    assert f"replayed {len(record.actions)} actions (an unfinished game); so far: seats 0+2 {a}, seats 1+3 {b}" in out
    assert "final" not in out


def test_replay_step_mode_waits_for_enter(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run(["play", "--bots-only", "--seed", "5", "--max-hands", "1", "--quiet", "--record", str(path)])
    code, out = run(["replay", str(path), "--step"], stdin="\n\nq\n")
    assert code == 0
    assert out.count("Enter for the next action") == 3
    assert out.count("  hand 1, seat ") == 3
    assert "stopped" in out


def test_replay_bad_record_exit_code_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    run(["play", "--bots-only", "--seed", "5", "--max-hands", "1", "--quiet", "--record", str(path)])
    data = json.loads(path.read_text())
    data["actions"][0] = {"type": "discard", "kind": "A"}
    path.write_text(json.dumps(data))
    code, _ = run(["replay", str(path)])
    assert code == 2
    assert "hand 1, action 0 (actions[0])" in capsys.readouterr().err
    path.write_text("{")
    assert run(["replay", str(path)])[0] == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert run(["replay", str(tmp_path / "missing.json")])[0] == 2


def test_variants_lists_origins() -> None:
    code, out = run(["variants"])
    assert code == 0
    for variant in canasta.available_variants():
        assert variant.name in out
    assert "entry point" in out
    assert "House rules" in out


def test_rules_prints_compiled_summary() -> None:
    code, out = run(["rules", "classic", "--format", "text"])
    assert code == 0
    assert "game ends at" in out and "5000" in out
    code, md = run(["rules", "classic", "--format", "markdown"])
    assert md.startswith("| Section | Rule | Value |")
    code, table = run(["rules", "classic"])
    assert code == 0 and "Rules of classic" in table


def test_rules_unknown_name_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rules", "no-such-variant"])[0] == 2
    assert "unknown variant" in capsys.readouterr().err


def test_console_script_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "canasta.cli", "rules", "no-such-variant"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert "canasta: error: unknown variant" in proc.stderr
    assert "Traceback" not in proc.stderr


# --- replay refuses exactly what load_record refuses ----------------------------------------


def _edit_totals(data: dict[str, Any]) -> None:
    # Moves points between the sides of a hand: the final scores still add up.
    data["hands"][0]["totals"][0] += 5
    data["hands"][0]["totals"][1] -= 5


def _flip_complete(data: dict[str, Any]) -> None:
    data["complete"] = not data["complete"]


def _edit_length(data: dict[str, Any]) -> None:
    data["hands"][0]["actions"] += 1


def _drop_seat(data: dict[str, Any]) -> None:
    data["seats"].pop()


def _edit_final(data: dict[str, Any]) -> None:
    data["final_scores"][1] += 10


def _old_version(data: dict[str, Any]) -> None:
    data["variant"]["version"] = "0.0-old"


@pytest.fixture(scope="module")
def one_hand_record(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("cli") / "game.json"
    run(["play", "--bots-only", "--seed", "5", "--max-hands", "1", "--quiet", "--record", str(path)])
    return path.read_text()


@pytest.mark.parametrize("edit", [_edit_totals, _flip_complete, _edit_length, _drop_seat, _edit_final, _old_version])
def test_replay_refuses_edited_records_like_load_record(
    edit: Callable[[dict[str, Any]], None], one_hand_record: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(one_hand_record)
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError) as info:
        load_record(path)
    code, out = run(["replay", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert out == ""  # nothing is shown before the record is known to be good
    assert err == f"canasta: error: {info.value}\n"


@pytest.mark.parametrize(
    "text",
    [
        b'{"seats": ["\xff"]}',
        b"[" * 100_000,
        b'{"seed": ' + b"9" * 5_000 + b"}",
        b'{"seed": 1, "seed": 2}',
        b'{"seed": NaN}',
        b"\xef\xbb\xbf{}",
        b"",
    ],
    ids=["bad-utf8", "deep", "long-int", "duplicate-key", "nan", "bom", "empty"],
)
def test_replay_bad_text_is_one_line_and_exit_2(
    text: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(text)
    with pytest.raises(RecordError) as info:
        load_record(path)
    code, out = run(["replay", str(path)])
    err = capsys.readouterr().err
    assert (code, out) == (2, "")
    assert err == f"canasta: error: {info.value}\n"


def test_replay_bad_record_in_a_subprocess_has_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"[" * 100_000 + b"\xff")
    proc = subprocess.run(
        [sys.executable, "-m", "canasta.cli", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("canasta: error: ")
    assert "Traceback" not in proc.stderr


# --- simulate: --scheduler belongs to the dask backend ----------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler needs --backend dask"),
        (["--backend", "process", "--scheduler", "tcp://127.0.0.1:8786"], "--scheduler needs --backend dask"),
        (["--backend", "dask", "--scheduler", " "], "--scheduler needs an address"),
    ],
)
def test_scheduler_without_dask_backend_is_a_usage_error(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        run(["simulate", "--games", "1", *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: canasta simulate")
    assert message in err


# --- typed commands, help, the pause, replay labels, variant origins ------------------------------


def test_play_typed_commands_help_and_refusals() -> None:
    # seed 2: seat 0 starts in the draw phase; "x 9" is well formed but not legal yet.
    code, out = run(["play", "--seed", "2"], stdin="?\n\nx 9\nzz\nd\nq\n")
    assert code == 0
    assert "Commands (or a menu number)" in out and "Legend" in out
    assert "m qq*" in out and "a frozen pile" in out and "C clubs, D diamonds" in out
    assert "not allowed now: " in out and "phase" in out  # the engine's reason, naming the rule
    assert "not a choice: 'zz': unknown command 'zz'; type ? for the commands" in out
    assert "turn: seat 0 (you), meld phase" in out  # "d" drew
    assert "game not finished (quit)" in out


def test_play_pauses_after_a_hand_and_input_end_quits() -> None:
    script = "1\n" * 60
    code, out = run(["play", "--seed", "2"], stdin=script)
    assert code == 0
    first = out.index("Hand 1 score")
    pause = out.index("press Enter to continue", first)
    assert "seat 1 (greedy)" not in out[first:pause]  # no bot plays the next hand before the Enter
    assert "game not finished (input ended)" in out


def test_play_bots_only_does_not_pause() -> None:
    code, out = run(["play", "--bots-only", "--seed", "3", "--quiet", "--max-hands", "2"])
    assert code == 0 and "press Enter" not in out


def test_human_seats_of_a_record() -> None:
    assert cli.human_seats(["you", "greedy", "Human ", "random"]) == (0, 2)
    assert cli.human_seats(["greedy"] * 4) == ()


def test_replay_step_labels_seats_by_name(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run(["play", "--bots-only", "--seed", "5", "--max-hands", "1", "--quiet", "--record", str(path)])
    _, out = run(["replay", str(path), "--step"], stdin="\nq\n")
    assert "your hand" not in out and "you" not in out.replace("your", "")
    assert "seat 0 (greedy)'s hand (12 cards)" in out
    data = json.loads(path.read_text())
    data["seats"][0] = "you"
    path.write_text(json.dumps(data))
    _, out = run(["replay", str(path), "--step"], stdin="\nq\n")
    assert "your hand (12 cards)" in out and "▶0 you (12)" in out


def test_variants_piped_says_where_each_comes_from_uncut() -> None:
    code, out = run(["variants"])
    assert code == 0
    registry = canasta.default_registry()
    for item in [*registry.variants(), *registry.house_rules()]:
        line = next(line for line in out.splitlines() if line.startswith(f"  {item.name} "))
        assert registry.provenance(item) in line and item.description in line  # whole, not cut
        assert f"found in: {item.origin}" in out
    assert "classic 1.0 — built in (canasta " in out
    viennese = registry.variant("viennese")
    assert "plugin canasta-example-viennese " in registry.provenance(viennese)
    assert "  viennese 1.0.0 — plugin canasta-example-viennese " in out
    assert "…" not in out


def test_play_with_hints_shows_the_search_preference() -> None:
    code, out = run(["play", "--seed", "4", "--hints", "--hint-budget", "6", "--bot", "greedy"], stdin="1\n1\n1\nq\n")
    assert code == 0, out
    hints = [line for line in out.splitlines() if line.startswith("hint:")]
    assert len(hints) >= 2
    assert any("of 6 search iterations" in line and "points for your side" in line for line in hints)
    assert all("[" in line for line in hints)  # the menu number of the hinted action


def test_play_against_ismcts_bots() -> None:
    code, out = run(["play", "--bots-only", "--bot", "ismcts:3", "--seed", "2", "--max-hands", "1", "--quiet"])
    assert code == 0, out
    assert "Hand 1 score" in out


def test_play_refuses_an_unknown_bot_or_budget(capsys: pytest.CaptureFixture[str]) -> None:
    for bot, message in (("clever", "unknown bot 'clever'"), ("ismcts:fast", "bad search budget 'fast'")):
        with pytest.raises(SystemExit):
            run(["play", "--bots-only", "--bot", bot])
        assert message in capsys.readouterr().err


def test_simulate_takes_comma_separated_bots_with_options() -> None:
    assert cli.split_bot_names(["ismcts:3,c=0.4,greedy", "random"]) == ["ismcts:3,c=0.4", "greedy", "random"]
    code, out = run(["simulate", "--games", "1", "--max-hands", "1", "--bots", "ismcts:2,greedy", "--format", "json"])
    assert code == 0, out
    assert json.loads(out)["bots"] == ["ismcts:2", "greedy", "ismcts:2", "greedy"]
