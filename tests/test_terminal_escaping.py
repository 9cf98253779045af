"""Untrusted text reaches the terminal as text: no rich markup, no control characters, no crash."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

import canasta
from canasta.cli import main
from canasta.terminal import printable, render_rules_summary, render_variants, untrusted_text

HOSTILE = [
    "[bold]bold?[/bold]",
    "[link=https://example.invalid/]click[/link]",
    "\x1b[2J",
    "\x1b]0;owned\x07",
]
# Characters a terminal must never receive from a record.
RAW = ("\x1b", "\x07", "\x9b", "\ud800")
SGR = re.compile("\x1b\\[[0-9;]*m")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain", "plain"),
        ("caf\u00e9 \u00e4\u00f6 \u6f22\u5b57", "caf\u00e9 \u00e4\u00f6 \u6f22\u5b57"),
        ("[bold]x[/]", "[bold]x[/]"),
        ("\x1b[2J", "\\x1b[2J"),
        ("\x1b]0;t\x07", "\\x1b]0;t\\x07"),
        ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
        ("\x00\x7f\x9b", "\\x00\\x7f\\x9b"),
        ("\ud800", "\\ud800"),
        ("\u202eevil", "\\u202eevil"),  # right-to-left override
        ("\U000e0041", "\\U000e0041"),  # a tag character
    ],
)
def test_printable_escapes_what_a_terminal_would_act_on(text: str, shown: str) -> None:
    assert printable(text) == shown
    assert printable(shown) == shown


def test_untrusted_text_is_not_markup() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=80)
    console.print(untrusted_text("[bold]x[/bold] [/] :skull: \x1b[2J", style="red"))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "[bold]x[/bold] [/] :skull: \\x1b[2J" in out
    assert "\x1b[2J" not in out and "\x1b[1m" not in out


def _write_record(tmp_path: Path, seats: list[str], **changes: object) -> Path:
    source = tmp_path / "game.json"
    code = main(
        ["play", "--bots-only", "--seed", "5", "--max-hands", "1", "--quiet", "--record", str(source)],
        stdout=io.StringIO(),
    )
    assert code == 0
    data = json.loads(source.read_text())
    data["seats"] = seats
    data.update(changes)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data))  # ensure_ascii: a lone surrogate is written as \ud800
    return path


class _Terminal(io.TextIOWrapper):
    """A strict UTF-8 stream that claims to be a terminal, so rich writes its own styles too."""

    def isatty(self) -> bool:
        return True


def _replay(path: Path, *extra: str, stdin: str = "", tty: bool = False) -> tuple[int, str]:
    raw = io.BytesIO()
    out = (_Terminal if tty else io.TextIOWrapper)(raw, encoding="utf-8", errors="strict")
    code = main(["replay", str(path), *extra], stdin=io.StringIO(stdin), stdout=out)
    out.flush()
    return code, raw.getvalue().decode("utf-8")


@pytest.mark.parametrize("tty", [False, True], ids=["file", "terminal"])
@pytest.mark.parametrize("step", [False, True], ids=["replay", "step"])
def test_hostile_seat_labels_are_shown_as_text(tmp_path: Path, tty: bool, step: bool) -> None:
    path = _write_record(tmp_path, HOSTILE)
    extra = ["--step"] if step else []
    code, out = _replay(path, *extra, stdin="\n\n\nq\n", tty=tty)
    assert code == 0
    # Only rich's own styles (SGR: ESC [ digits m, on a terminal) may remain: nothing from the record.
    bare = SGR.sub("", out)
    for raw in RAW:
        assert raw not in bare, repr(raw)
    for label in (
        "[bold]bold?[/bold]",
        "[link=https://example.invalid/]click[/link]",
        "\\x1b[2J",
        "\\x1b]0;owned\\x07",
    ):
        assert label in out, label
    if not tty:
        assert "\x1b" not in out
    if step:
        assert "Enter for the next action" in out


@pytest.mark.parametrize("step", [False, True], ids=["replay", "step"])
def test_a_closing_tag_label_does_not_crash_replay(tmp_path: Path, step: bool) -> None:
    path = _write_record(tmp_path, ["[/]", "[/bold]", "[", "x\\"])
    code, out = _replay(path, *(["--step"] if step else []), stdin="q\n")
    assert code == 0
    assert "seat 0 ([/])" in out or "[/]" in out
    assert "[/bold]" in out


@pytest.mark.parametrize("step", [False, True], ids=["replay", "step"])
def test_a_lone_surrogate_label_does_not_crash_replay(tmp_path: Path, step: bool) -> None:
    path = _write_record(tmp_path, ["\ud800", "\udfff x", "ok", "\U0001f0a1"])
    code, out = _replay(path, *(["--step"] if step else []), stdin="q\n")
    assert code == 0
    assert "\\ud800" in out and "\\udfff x" in out
    assert "\U0001f0a1" in out  # printable non-ASCII stays as it is


def test_untrusted_version_is_escaped_with_no_version_check(tmp_path: Path) -> None:
    path = _write_record(tmp_path, ["a", "b", "c", "d"])
    data = json.loads(path.read_text())
    data["variant"]["version"] = "\x1b[2J[red]9[/red]"
    path.write_text(json.dumps(data))
    code, out = _replay(path, "--no-version-check")
    assert code == 0
    assert "(version \\x1b[2J[red]9[/red])" in out


def test_error_messages_quoting_a_record_are_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write_record(tmp_path, ["a", "b", "c", "d"])
    data = json.loads(path.read_text())
    data["variant"]["version"] = "\x1b[2J\nforged line"
    path.write_text(json.dumps(data))
    code, out = _replay(path)
    err = capsys.readouterr().err
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "\x1b" not in err
    assert "\\x1b[2J\\nforged line" in err


def test_play_input_is_not_markup() -> None:
    out = io.StringIO()
    code = main(["play", "--seed", "1"], stdin=io.StringIO("[/]\n\x1b[2J\nq\n"), stdout=out)
    assert code == 0
    text = out.getvalue()
    assert "not a choice: '[/]'" in text
    assert "\x1b" not in text and "\\x1b[2J" in text


def _rendered(renderable: object) -> str:
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=200)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def test_rules_and_plugin_texts_are_not_markup() -> None:
    out = _rendered(render_rules_summary([("section [b]", "rule [/]", "value [link=x]y[/link]")], "Rules of [red]x"))
    assert "section [b]" in out and "rule [/]" in out and "value [link=x]y[/link]" in out
    assert "Rules of [red]x" in out
    registry = canasta.default_registry()
    out = _rendered(render_variants(registry.variants(), registry.house_rules(), [("evil[bold]", "\x1b[2J boom [/]")]))
    assert "evil[bold]" in out and "\\x1b[2J boom [/]" in out
    assert "\x1b[2J" not in out
