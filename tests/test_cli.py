"""The `canasta` command: play (scripted and bots only), simulate, replay, variants, rules."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.records import load_record


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
    assert f"scores {list(record.final_scores)}" in out


def test_play_scripted_input(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    # "x" and "99" are refused and asked again; then the first legal action is taken until "q".
    script = "x\n99\n" + "1\n" * 40 + "q\n"
    code, out = run(["play", "--seed", "2", "--record", str(path)], stdin=script)
    assert code == 0
    assert "not a choice: 'x'" in out
    assert "not a choice: '99'" in out
    assert "your hand (11)" in out
    assert "your side still needs 50 for its initial meld" in out
    assert "turn: seat 0 (you), draw phase" in out
    assert "frozen for you" in out
    assert "stock: " in out and "pile: " in out
    assert "game not finished (quit)" in out
    record = load_record(path)
    assert record.seats[0] == "you"
    assert not record.complete
    # Every choice made through the input is in the record: 40 numbered answers from seat 0.
    seat0 = [step for step in canasta.records.replay(record) if step.seat == 0]
    assert len(seat0) == 40


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
    assert f"final scores {list(record.final_scores)}" in out


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
    assert "hand 0, action 0 (actions[0])" in capsys.readouterr().err
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
