"""Every `$ canasta ...` command shown in the docs is accepted by the real command line.

Commands that finish quickly and need no input (``rules``, ``variants``, bots-only
``play`` with ``--max-hands``, ``replay`` without ``--step``, ``render``) are also run, in page
order, so that a page's ``play --record`` feeds its ``replay``.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from canasta import cli

DOCS = Path(__file__).resolve().parent.parent / "docs"
COMMAND = re.compile(r"^\$ (?:\S*/)?canasta (?P<args>.*)$", re.MULTILINE)
PAGES = sorted(p for p in DOCS.rglob("*.md") if COMMAND.search(p.read_text()))


def _runs_quickly(argv: list[str]) -> bool:
    command = argv[0]
    if command in ("rules", "variants"):
        return True
    if command == "play":
        return "--bots-only" in argv and "--max-hands" in argv
    return command == "render" or (command == "replay" and "--step" not in argv)


def test_the_docs_show_commands() -> None:
    assert {p.name for p in PAGES} >= {"cli.md", "getting-started.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_command_in_the_docs_is_accepted(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    parser = cli.build_parser()
    for match in COMMAND.finditer(page.read_text()):
        argv = shlex.split(match.group("args"))
        parser.parse_args(argv)  # exits (fails the test) on an unknown option or command
        if _runs_quickly(argv):
            out = io.StringIO()
            status = cli.main(argv, stdin=io.StringIO(""), stdout=out)
            assert status == 0, f"{page.name}: `canasta {match.group('args')}` exited {status}:\n{out.getvalue()}"
