"""`canasta play` driven through a pseudo-terminal sized 80×24, as a person would play it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pty = pytest.importorskip("pty")
fcntl = pytest.importorskip("fcntl")
termios = pytest.importorskip("termios")

import select  # noqa: E402  (after the skips: POSIX only)
import struct  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
PROMPT = "or type a command (? for help, q to quit): "


class Terminal:
    """A child process on the slave side of a pty; text read from the master side, escapes stripped."""

    def __init__(self, args: list[str]) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24", "PYTHONPATH": str(ROOT)}
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "canasta.cli", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.text = ""

    def read_until(self, needle: str, timeout: float = 10.0) -> str:
        """Read until ``needle`` appears after what was read before; return the new text."""
        start = len(self.text)
        deadline = time.monotonic() + timeout
        while needle not in self.text[start:]:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {needle!r}; got:\n{self.text[start:]}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"output ended before {needle!r}; got:\n{self.text[start:]}")
                self.text += ANSI.sub("", chunk.decode("utf-8", "replace"))
        return self.text[start:]

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        os.close(self.master)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(["play", "--variant", "cuban", "--seed", "3"])
    yield term
    term.close()


def test_play_in_an_80_by_24_terminal(terminal: Terminal) -> None:
    first = terminal.read_until(PROMPT)
    screen = first[first.index("Hand 1") :].splitlines()
    assert len(screen) <= 24 and all(len(line) <= 80 for line in screen)
    assert "your hand (13 cards)" in first and "turn: seat 0 (you), draw phase" in first
    terminal.send("?")
    shown = terminal.read_until("press Enter to go back to the table: ")
    assert "Commands (or a menu number)" in shown and "m qq*" in shown
    assert "Legend" in shown and "a frozen pile" in shown and "wild: a 2, a joker" in shown
    terminal.send("")
    terminal.read_until(PROMPT)
    terminal.send("x 9")  # well formed, but the turn is in its draw phase: the engine's reason
    refused = terminal.read_until(PROMPT)
    assert "not allowed now:" in refused and "phase" in refused
    terminal.send("d")
    drew = terminal.read_until(PROMPT)
    assert "turn: seat 0 (you), meld phase" in drew and "your hand (14 cards)" in drew
    terminal.send("q")
    terminal.read_until("game not finished (quit)")
    assert terminal.proc.wait(timeout=10) == 0
