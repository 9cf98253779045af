"""The command line at its edges (issues 31 and 32): hostile options, typed input, record paths,
special files, simulation workers that die, stop or outlive their parent, and what a person reads."""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
import canasta.simulate as simulation
from canasta import cli
from canasta.actions import Action, Discard, DrawStock, Meld
from canasta.bots import BOTS, GreedyBot, make_bot
from canasta.cards import Card, Kind, Suit
from canasta.cli import build_parser, main
from canasta.commands import Command, CommandError, parse_command
from canasta.errors import CanastaError, IllegalActionError
from canasta.hand import HandState
from canasta.records import load_record
from canasta.simulate import MAX_WORKERS, WorkerLostError, available_cpus, simulate, worker_count
from canasta.terminal import (
    describe_changes,
    menu_prompt,
    render_hand_cards,
    render_menu,
    scores_text,
    shown_notation,
)
from canasta.wording import action_text, card_name, hand_sort_key, kind_sort_key

ROOT = Path(__file__).resolve().parent.parent
LINUX = sys.platform.startswith("linux")


def run(args: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def parse_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The argument parser's refusal: exit code 2, no traceback; its error line."""
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1, err
    return lines[0]


# --- numeric options and seeds (31.17, 31.25, 31.26, 32.10) ----------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["serve", "--port", "70000"], "--port: must be from 0 to 65535, got 70000"),
        (["serve", "--port", "80000"], "--port: must be from 0 to 65535"),
        (["serve", "--port", "-1"], "--port: must be from 0 to 65535, got -1"),
        (["serve", "--port", "eighty"], "--port: must be a whole number"),
        (["serve", "--port", "1" * 5000], "--port: 5000 digits is out of range"),
        (["simulate", "--games", "0"], "--games: must be from 1"),
        (["simulate", "--games", "-3"], "--games: must be from 1"),
        (["simulate", "--workers", "0"], "--workers: must be from 1"),
        (["simulate", "--workers", str(MAX_WORKERS + 1)], f"--workers: must be from 1 to {MAX_WORKERS}"),
        (["simulate", "--max-hands", "0"], "--max-hands: must be from 1"),
        (["simulate", "--max-hands", "-1"], "--max-hands: must be from 1"),
        (["play", "--max-hands", "0"], "--max-hands: must be from 1"),
        (["render", "f.json", "--hand", "0"], "--hand: must be from 1"),
        (["render", "f.json", "--action", "-1"], "--action: must be from 0"),
        (["render", "f.json", "--seat", "-1"], "--seat: must be from 0"),
        (["play", "--hint-budget", "0"], "--hint-budget"),
        (["play", "--hint-budget", "9" * 150 + "ms"], "--hint-budget"),
    ],
)
def test_numeric_options_are_range_checked_by_the_parser(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert needle in parse_error(args, capsys)


@pytest.mark.parametrize("command", ["play", "simulate", "serve"])
@pytest.mark.parametrize(
    ("seed", "needle"),
    [
        (str(10**25), "must lie strictly between -2**64 and 2**64"),
        (str(2**64), "must lie strictly between -2**64 and 2**64"),
        ("9" * 5000, "got 5000 digits"),
        ("1.5", "must be an integer"),
        ("x", "must be an integer"),
        ("²", "must be an integer"),
    ],
)
def test_seed_options_follow_the_one_rule_for_seeds(
    command: str, seed: str, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line = parse_error([command, "--seed", seed], capsys)
    assert "--seed" in line and needle in line


@pytest.mark.parametrize("seed", [str(2**64 - 1), str(-(2**64) + 1), "0", " 7 "])
def test_every_seed_the_library_accepts_is_accepted(seed: str) -> None:
    args = build_parser().parse_args(["simulate", "--seed", seed])
    assert args.seed == int(seed)


def test_a_seed_at_the_limit_plays_and_its_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    args = ["play", "--bots-only", "--quiet", "--seed", str(2**64 - 1), "--max-hands", "1", "--record", str(path)]
    code, _ = run(args)
    assert code == 0
    assert load_record(path).seed == 2**64 - 1
    assert run(["replay", str(path)])[0] == 0


def test_good_numeric_options_still_parse() -> None:
    args = build_parser().parse_args(["serve", "--port", "0", "--bot", "ismcts:50ms"])
    assert args.port == 0 and args.bot == "ismcts:50ms"
    assert build_parser().parse_args(["serve", "--port", "65535"]).port == 65535
    args = build_parser().parse_args(["simulate", "--games", "3", "--workers", "2", "--max-hands", "1"])
    assert (args.games, args.workers, args.max_hands) == (3, 2, 1)


def test_simulate_refuses_max_hands_below_one_in_the_library_too() -> None:
    for bad in (0, -1, True, 1.5):
        with pytest.raises(CanastaError, match="max_hands"):
            simulate("classic", games=1, max_hands=bad)  # type: ignore[arg-type]


# --- bot specs (31.16, 32.6) ------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["ismcts:300,c=nan", "ismcts:300,c=inf", "ismcts:300,c=-inf", "ismcts:300,z=nan", "ismcts:1e999ms"]
)
def test_non_finite_bot_options_are_refused(name: str) -> None:
    with pytest.raises(CanastaError):
        make_bot(name)


def test_non_finite_bot_options_are_a_one_line_cli_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run(["simulate", "--games", "1", "--bots", "ismcts:300,c=nan", "greedy"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if "error:" in line] == [
        "canasta simulate: error: argument --bots: bad option 'c=nan' in bot 'ismcts:300,c=nan': "
        "numbers in a bot's options must be finite and at most 10,000,000 in size"
    ]
    assert "finite" in parse_error(["serve", "--bot", "ismcts:300,c=inf"], capsys)
    assert "finite" in parse_error(["play", "--bot", "ismcts:300,c=nan"], capsys)


def test_keyword_options_are_checked_too() -> None:
    with pytest.raises(CanastaError, match="finite"):
        make_bot("ismcts", 1, exploration=float("nan"))
    with pytest.raises(CanastaError, match="finite"):
        make_bot("ismcts", 1, iterations=10**30)


def test_serve_takes_the_bot_specs_play_and_simulate_take(capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("greedy", "random", "ismcts", "ismcts:50ms", "ismcts:300,c=0.4"):
        assert build_parser().parse_args(["serve", "--bot", name]).bot == name
        assert build_parser().parse_args(["play", "--bot", name]).bot == name
    assert "unknown bot" in parse_error(["serve", "--bot", "nobody"], capsys)


# --- typed input (31.8) -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "³", "٣", "1²", "9" * 5000, "12345678"])
def test_odd_numbers_at_the_prompt_are_refused_with_a_reason(text: str) -> None:
    game = canasta.Game("classic", seed=1)
    with pytest.raises(CommandError, match=r"\?"):
        parse_command(text, game)


def _positions() -> list[HandState]:
    states: list[HandState] = []
    for variant in ("classic", "cuban"):
        game = canasta.Game(variant, seed=4)
        bot = GreedyBot(1)
        for step in range(80):
            if step % 9 == 0:
                states.append(game.hand.copy())
            if game.is_over:
                break
            game.apply(bot.choose(game.hand, game.seat))
    return states


POSITIONS = _positions()
TOKENS = st.sampled_from(
    [*"dtmxqkaj98765432*+:'n, ", "T", "10", "b3", "r3", "2nd", "ask", "sh", "pairs", "l3", "end", "²", "İ", "\u00a0"]
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.one_of(st.text(max_size=40), st.lists(TOKENS, max_size=10).map("".join)),
    index=st.integers(0, len(POSITIONS) - 1),
)
def test_any_text_is_a_command_or_a_typed_refusal(text: str, index: int) -> None:
    state = POSITIONS[index]
    try:
        parsed = parse_command(text, state)
    except (CommandError, IllegalActionError) as exc:
        assert str(exc)
        return
    assert isinstance(parsed, Command) or parsed in state.legal_actions()


def test_the_game_goes_on_after_odd_input() -> None:
    code, out = run(["play", "--seed", "1"], stdin="²\n" + "9" * 5000 + "\nq\n")
    assert code == 0
    assert out.count("not a choice:") == 2
    refusal = next(line for line in out.splitlines() if line.startswith("not a choice: '999"))
    assert len(refusal) < 120  # the over-long input is not echoed whole
    assert "game not finished (quit)" in out


# --- play --record (31.15) --------------------------------------------------------------


def test_a_record_path_in_a_missing_directory_is_refused_before_the_first_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(["play", "--seed", "1", "--record", str(tmp_path / "no" / "game.json")], stdin="1\n" * 5)
    assert code == 2
    assert "Hand 1" not in out  # nothing was played
    err = capsys.readouterr().err
    assert "does not exist" in err and err.count("\n") == 1


@pytest.mark.parametrize("make", ["directory", "fifo"])
def test_a_record_path_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, make: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "target"
    if make == "directory":
        path.mkdir()
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    code, out = run(["play", "--bots-only", "--quiet", "--seed", "1", "--record", str(path)])
    assert code == 2 and "Hand 1" not in out
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_a_read_only_directory_is_refused_before_the_first_move(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        code, out = run(["play", "--bots-only", "--quiet", "--seed", "1", "--record", str(tmp_path / "g.json")])
    finally:
        tmp_path.chmod(0o700)
    assert code == 2 and "Hand 1" not in out


def test_a_failed_write_keeps_the_record_elsewhere_and_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text("the previous record\n")
    real = cli._write_atomically

    def full_disk(text: str, target: Path) -> None:
        real(text[: len(text) // 2], target.with_name("half.json"))  # a write that stops half-way...
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli, "_write_atomically", full_disk)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "elsewhere"))
    (tmp_path / "elsewhere").mkdir()
    code, _ = run(["play", "--bots-only", "--quiet", "--seed", "2", "--max-hands", "1", "--record", str(path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "it was kept in" in err
    kept = Path(err.rsplit("it was kept in ", 1)[1].strip())
    assert kept.parent == tmp_path / "elsewhere"
    assert load_record(kept).hand_lengths  # the whole played hand
    assert path.read_text() == "the previous record\n"  # never half-replaced


def test_the_record_is_written_whole_by_a_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    replaced: list[tuple[str, str]] = []
    real = os.replace

    def spy(src: str, dst: str | Path) -> None:
        replaced.append((str(src), str(dst)))
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    assert run(["play", "--bots-only", "--quiet", "--seed", "2", "--max-hands", "1", "--record", str(path)])[0] == 0
    assert len(replaced) == 1 and replaced[0][1] == str(path)
    assert Path(replaced[0][0]).parent == tmp_path  # the temporary file sat beside the target
    assert load_record(path).seats == ("greedy",) * 4
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_a_game_that_crashes_keeps_its_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = Counter[str]()

    class Failing(GreedyBot):
        def choose(self, state: HandState, seat: int) -> Action:
            calls["choose"] += 1
            if calls["choose"] > 30:
                raise RuntimeError("a bot bug")
            return super().choose(state, seat)

    monkeypatch.setitem(BOTS, "failing", Failing)
    path = tmp_path / "game.json"
    with pytest.raises(RuntimeError, match="a bot bug"):
        run(["play", "--bots-only", "--quiet", "--bot", "failing", "--seed", "2", "--record", str(path)])
    assert "the game so far was saved to" in capsys.readouterr().err
    assert len(load_record(path).actions) == 30


# --- replay and render of special files (31.24) -----------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", ["replay", "render"])
def test_replay_and_render_refuse_a_fifo_at_once(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "canasta.cli", command, str(fifo)], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 2
    expected = f"canasta: error: {fifo}: a FIFO; a record is read from a regular file"
    assert done.stderr.strip().splitlines()[-1] == expected


@pytest.mark.parametrize("command", ["replay", "render"])
def test_replay_and_render_refuse_a_directory(tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run([command, str(tmp_path)])[0] == 2
    assert "a directory" in capsys.readouterr().err


# --- simulation workers (31.4, 31.12) ---------------------------------------------------


def test_workers_are_capped_by_the_tasks_and_the_cpus() -> None:
    assert worker_count(40, 2) == min(2, available_cpus())
    assert worker_count(40, 2, oversubscribe=True) == 2
    assert worker_count(MAX_WORKERS, 10**6) == available_cpus()
    assert worker_count(MAX_WORKERS, 10**6, oversubscribe=True) == MAX_WORKERS
    for bad in (0, -1, MAX_WORKERS + 1, True, 2.0):
        with pytest.raises(CanastaError, match=f"from 1 to {MAX_WORKERS}"):
            worker_count(bad, 5)  # type: ignore[arg-type]


def test_two_games_start_at_most_two_workers() -> None:
    result = simulate("classic", games=2, seed=1, workers=40, max_hands=1)
    assert result.workers <= 2
    assert result.rows == simulate("classic", games=2, seed=1, workers=1, max_hands=1).rows


def test_more_workers_than_the_hard_limit_is_a_clear_error() -> None:
    with pytest.raises(CanastaError, match=f"workers must be an integer from 1 to {MAX_WORKERS}"):
        simulate("classic", games=1000, workers=MAX_WORKERS + 1)


class _Dies(GreedyBot):
    def choose(self, state: HandState, seat: int) -> Action:
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable")  # pragma: no cover


class _Stops(GreedyBot):
    def choose(self, state: HandState, seat: int) -> Action:
        if os.environ.get("CANASTA_TEST_PARENT") != str(os.getpid()):
            os.kill(os.getpid(), signal.SIGSTOP)
        return super().choose(state, seat)


@pytest.mark.skipif(not LINUX, reason="worker processes are forked (the test's bot is registered in this process)")
def test_a_killed_worker_is_a_worker_lost_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "dies", _Dies)
    start = time.monotonic()
    with pytest.raises(WorkerLostError, match=r"was lost \(killed by signal 9\)") as info:
        simulate("classic", games=8, workers=2, oversubscribe=True, bots=("dies",), chunk_size=1)
    assert info.value.exitcode == -signal.SIGKILL
    assert time.monotonic() - start < 30


@pytest.mark.skipif(not LINUX, reason="worker processes are forked; /proc shows a stopped process")
def test_a_stopped_worker_ends_the_run_instead_of_hanging(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "stops", _Stops)
    monkeypatch.setenv("CANASTA_TEST_PARENT", str(os.getpid()))
    start = time.monotonic()
    with pytest.raises(WorkerLostError, match="is stopped") as info:
        simulate("classic", games=8, workers=2, oversubscribe=True, bots=("stops",), chunk_size=1)
    assert time.monotonic() - start < 30
    pid = info.value.pid
    assert pid is not None
    time.sleep(0.2)
    assert _state(pid) in (None, "Z")  # killed, not left stopped


def _stop_when_idle(*args: object) -> object:
    """`simulate._play_chunk`, then the worker stops itself once idle (after its result is sent)."""
    rows = _PLAY_CHUNK(*args)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGSTOP)).start()
    return rows


_PLAY_CHUNK = simulation._play_chunk


@pytest.mark.skipif(not LINUX, reason="worker processes are forked; /proc shows a stopped process")
def test_a_worker_stopped_after_its_last_task_does_not_hang_a_finished_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every result is in; a worker stopped while idle must not hang the pool's shutdown (it did)."""
    monkeypatch.setattr(simulation, "_play_chunk", _stop_when_idle)
    start = time.monotonic()
    result = simulate("classic", games=2, workers=2, oversubscribe=True, max_hands=1, chunk_size=1)
    assert len(result.rows) == 2
    assert time.monotonic() - start < simulation.SHUTDOWN_SECONDS + 20


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rpartition(")")[2].split()[0]
    except OSError:
        return None


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    if int(file.read().rpartition(")")[2].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found


def _start_long_simulation() -> tuple[subprocess.Popen[str], list[int]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta.cli", "simulate", "--games", "50000", "--workers", "2", "--oversubscribe"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = _children(proc.pid)
        if len(workers) == 2:
            time.sleep(0.5)  # let them take their first tasks
            return proc, workers
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("the workers never started")


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_ctrl_c_stops_a_simulation_at_once_and_its_workers_with_it() -> None:
    proc, workers = _start_long_simulation()
    proc.send_signal(signal.SIGINT)
    start = time.monotonic()
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - start < 5
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "canasta: interrupted"
    assert "Traceback" not in err  # the workers ignore Ctrl+C: the parent stops them
    time.sleep(0.2)
    assert all(_state(pid) in (None, "Z") for pid in workers)


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_ctrl_c_with_stopped_workers_ends_in_one_line_and_no_hang() -> None:
    """Workers that read nothing (stopped): the pool's own thread must neither die on a traceback nor hang the exit."""
    proc, workers = _start_long_simulation()
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)
    time.sleep(1.0)  # the task queue's feeder may fill the pipe no one reads
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip() == "canasta: interrupted"
    time.sleep(0.2)
    assert all(_state(pid) in (None, "Z") for pid in workers)


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux's; reads /proc")
def test_workers_die_with_their_parent() -> None:
    proc, workers = _start_long_simulation()
    proc.kill()
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not all(_state(pid) in (None, "Z") for pid in workers):
        time.sleep(0.1)
    assert all(_state(pid) in (None, "Z") for pid in workers)


@pytest.mark.skipif(not LINUX, reason="worker processes are forked")
def test_a_lost_worker_is_a_one_line_cli_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(BOTS, "dies", _Dies)
    code, _ = run(["simulate", "--games", "4", "--workers", "2", "--oversubscribe", "--bots", "dies"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: error: simulation worker process ") and err.count("\n") == 1


def test_the_json_summary_says_how_many_workers_ran() -> None:
    code, out = run(["simulate", "--games", "2", "--workers", "40", "--max-hands", "1", "--format", "json"])
    assert code == 0
    assert json.loads(out)["workers"] <= 2


# --- what a person reads (32.4, 32.6) ---------------------------------------------------


def _seed_where(found: Callable[[canasta.Game], bool]) -> int:
    for seed in range(500):
        if found(canasta.Game("classic", seed=seed)):
            return seed
    raise AssertionError("no such seed")  # pragma: no cover


def _draws_a_red_three(game: canasta.Game) -> bool:
    if game.seat != 0 or game.observation(0).threes[0]:
        return False
    game.apply(DrawStock())
    return bool(game.observation(0).threes[0])


def test_the_player_is_told_the_card_drawn_and_the_three_laid_out_for_him() -> None:
    seed = _seed_where(_draws_a_red_three)
    game = canasta.Game("classic", seed=seed)
    before = game.observation(0)
    game.apply(DrawStock())
    after = game.observation(0)
    got = Counter(after.hand) - Counter(before.hand) + Counter(after.threes[0])
    drawn = sorted(got.elements(), key=hand_sort_key)
    code, out = run(["play", "--seed", str(seed), "--quiet"], stdin="d\nq\n")
    assert code == 0
    assert f"you drew {' '.join(card_name(c) for c in drawn)}\n" in out
    three = " ".join(card_name(c) for c in after.threes[0])
    assert f"automatically, you laid out {three} and drew a card to replace it" in out


@pytest.mark.parametrize(
    ("variant", "seed"), [("classic", 3), ("modern-american-club", 1), ("modern-american-club", 2)]
)
def test_the_bots_automatic_moves_are_told_and_never_their_cards(variant: str, seed: int) -> None:
    code, out = run(["play", "--bots-only", "--variant", variant, "--seed", str(seed), "--max-hands", "1"])
    assert code == 0
    assert "you drew" not in out  # bots' cards are theirs
    told = [line for line in out.splitlines() if line.startswith(("  at the deal, ", "  automatically, "))]
    # What the rules did by themselves, read from the table: threes laid out (at the deal, on a
    # draw), and cards from the stock after a discard (modern American's bonus cards).
    game = canasta.Game(variant, seed=seed)
    bots = {s: make_bot("greedy", f"{seed}:{s}") for s in range(game.rules.players)}
    expected = sum(1 for t in game.observation(0).threes if t)
    bonus = 0
    while not game.results:
        before = game.observation(0)
        action = bots[game.seat].choose(game.hand, game.seat)
        game.apply(action)
        if game.results:
            break
        after = game.observation(0)
        laid = [s for s in range(game.rules.players) if len(after.threes[s]) > len(before.threes[s])]
        expected += sum(1 for s in laid if not (type(action).__name__ == "LayOutThree" and s == before.acting_seat))
        if isinstance(action, Discard):
            bonus += after.hand_sizes[before.acting_seat] > before.hand_sizes[before.acting_seat] - 1
    assert len([line for line in told if " laid out " in line]) == expected
    assert len([line for line in told if line.endswith(" from the stock")]) == bonus
    assert bonus or variant == "classic"  # the club's opening bonus cards were seen and told


def test_deal_threes_are_told() -> None:
    seed = _seed_where(lambda g: any(g.observation(0).threes))
    game = canasta.Game("classic", seed=seed)
    code, out = run(["play", "--seed", str(seed), "--quiet"], stdin="q\n")
    assert code == 0
    for seat, threes in enumerate(game.observation(0).threes):
        if threes:
            who = "you" if seat == 0 else f"seat {seat} (greedy)"
            assert f"at the deal, {who} laid out {' '.join(card_name(c) for c in threes)}" in out


def test_describe_changes_says_nothing_of_another_seats_cards() -> None:
    seed = _seed_where(_draws_a_red_three)
    game = canasta.Game("classic", seed=seed)
    before = game.observation(1)
    game.apply(DrawStock())
    lines = describe_changes(before, game.observation(1), DrawStock(), names=["greedy"] * 4, human_seats=(1,))
    assert lines and all("you drew" not in line for line in lines)
    assert lines[0].startswith("automatically, seat 0 (greedy) laid out 3")


def test_tens_are_written_10_where_a_person_reads() -> None:
    ten = Card(10, Suit.HEARTS, 0)
    assert card_name(ten) == "10H" and ten.code == "TH"  # the card code (records) keeps T
    assert action_text(Discard(Kind.TEN)) == "discard 10"
    assert action_text(Meld(Kind.TEN, 3, 0, 1)) == "meld 3×10 + 1×joker (tens)"
    assert render_hand_cards([ten, Card(10, Suit.SPADES, 0)]).plain == "10 10"
    menu, _ = render_menu([Discard(Kind.TEN), Meld(Kind.TEN, 2, 0, 1), Discard(Kind.NINE)])
    text = io.StringIO()
    from rich.console import Console

    Console(file=text, width=80, color_system=None).print(menu)
    assert "x 10" not in text.getvalue() and ")10" in text.getvalue() and ")10 10 *" in text.getvalue()
    game = canasta.Game("classic", seed=1)
    for shown in ("x 10", "m 10 10 *"):  # what the menu shows can be typed
        with pytest.raises((IllegalActionError, CommandError)) as refused:
            parse_command(shown, game)
        assert not isinstance(refused.value, CommandError) or "not a card" not in str(refused.value)


def test_a_bots_only_game_writes_no_T_for_a_ten() -> None:
    code, out = run(["play", "--bots-only", "--seed", "3", "--max-hands", "2"])
    assert code == 0
    assert "discard 10" in out or "×10" in out
    assert "discard T" not in out and "×T" not in out


def test_the_terminal_shows_a_hand_in_the_pictures_order() -> None:
    cards = [
        Card(0, None, 0),
        Card(2, Suit.CLUBS, 0),
        Card(3, Suit.HEARTS, 0),
        Card(3, Suit.SPADES, 0),
        Card(3, Suit.CLUBS, 1),
        Card(3, Suit.SPADES, 1),
        Card(14, Suit.CLUBS, 0),
        Card(10, Suit.DIAMONDS, 0),
        Card(5, Suit.CLUBS, 0),
    ]
    # The SVG sorts a hand by the same key (canasta.render uses wording.hand_sort_key): one order.
    kinds = []
    for card in sorted(cards, key=hand_sort_key):
        if card.kind not in kinds:
            kinds.append(card.kind)
    assert kinds == sorted({c.kind for c in cards}, key=kind_sort_key)
    assert render_hand_cards(cards).plain == "A 10 5 b3 b3 b3 r3 2 *"  # b3 b3 b3, spaced


def test_the_menu_spaces_cards_of_two_characters() -> None:
    assert shown_notation(Meld(Kind.BLACK_THREE, 3)) == "m b3 b3 b3"
    assert shown_notation(Meld(Kind.TEN, 2, 1, 0)) == "m 10 10 2"
    assert shown_notation(Discard(Kind.TEN)) == "x 10"
    assert shown_notation(Meld(Kind.QUEEN, 2, 0, 1)) == "m qq*"  # one-character cards as typed


def test_a_menu_of_one_says_choose_1() -> None:
    assert menu_prompt(1).startswith("choose 1 or type")
    assert menu_prompt(5).startswith("choose 1-5 or type")


def test_scores_are_written_with_side_names_not_python_lists() -> None:
    rules = canasta.load_rules("classic")
    assert scores_text(rules, [755, 535]) == "seats 0+2 755, seats 1+3 535"
    code, out = run(["play", "--seed", "1"], stdin="q\n")
    assert code == 0
    assert "game not finished (quit): seats 0+2 0, seats 1+3 0" in out
    assert "final" not in out and "[0, 0]" not in out


def test_parse_error_helper_sees_argparse_errors(capsys: pytest.CaptureFixture[str]) -> None:
    # A guard for the helper itself: argparse's own refusal of an unknown option is one error line.
    assert "unrecognized arguments" in parse_error(["variants", "--nope"], capsys)
    with pytest.raises(argparse.ArgumentTypeError):
        cli.int_option("--x", 1, 2)("3")


def test_replay_tells_the_automatic_moves_the_game_told(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, played = run(["play", "--bots-only", "--seed", "3", "--max-hands", "2", "--record", str(path)])
    assert code == 0
    code, replayed = run(["replay", str(path)])
    assert code == 0

    def told(out: str) -> list[str]:
        return [line.strip() for line in out.splitlines() if " laid out " in line and line.startswith("  ")]

    assert told(replayed) == told(played) != []


def test_a_worker_lost_error_survives_pickling_with_its_fields() -> None:
    import copy
    import pickle

    error = WorkerLostError("simulation worker process 12 was lost (killed by signal 9)", 12, -9)
    for clone in (pickle.loads(pickle.dumps(error)), copy.deepcopy(error), copy.copy(error)):
        assert type(clone) is WorkerLostError
        assert (str(clone), clone.pid, clone.exitcode) == (str(error), 12, -9)


@pytest.mark.parametrize("encoding", ["utf-8:strict", "utf-8:surrogateescape"])
def test_bytes_that_are_not_text_at_the_prompt_are_refused_not_a_traceback(encoding: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": encoding}
    done = subprocess.run(
        [sys.executable, "-m", "canasta.cli", "play", "--seed", "1"],
        input=b"\xff\xfe\x1b[2J\n1\nq\n",
        capture_output=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    out = done.stdout.decode("utf-8", "replace")
    assert "not a choice:" in out and "game not finished (quit)" in out
    assert b"\x1b[2J" not in done.stdout  # the escape sequence typed is shown escaped, never sent


def test_refusals_write_a_ten_as_10() -> None:
    game = canasta.Game("classic", seed=1)
    for action in (Discard(Kind.TEN), Meld(Kind.TEN, 3)):
        with pytest.raises(IllegalActionError) as refused:
            game.check(action)
        assert action_text(action) in refused.value.message and "T " not in refused.value.message
