"""Run every code example of the docs as a test (Sybil).

- A plain ```` ```python ```` block runs; the blocks of one page share a namespace,
  in page order.
- A block with a file title, such as ```` ```python title="canasta_x/__init__.py" ````
  or ```` ```toml title="pyproject.toml" ````, is a file the reader creates: it is
  written into a fresh folder that is the working directory and on ``sys.path``
  while the page runs, so later blocks can import it (TOML files are parsed, so
  a broken one fails). A ``python`` block with other attributes still runs.
- ``<!-- skip: next -->`` skips the next example (for an interactive session).

Each example gets at most `EXAMPLE_TIMEOUT` seconds, so a bug that makes a game
endless fails the docs test instead of hanging CI.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from sybil import Document, Example, Region, Sybil
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

_INFO_WITH_ATTRIBUTES = re.compile(r"(?P<language>[\w+-]+)[ \t]+(?P<attributes>[^\n]*\S)[ \t]*$\n", re.MULTILINE)
_TITLE = re.compile(r'title="(?P<title>[^"]+)"')
_FILES_DIR = "_docs_files_dir"
EXAMPLE_TIMEOUT = 120


class AttributedBlockParser:
    """Fenced blocks whose info string has attributes (``title="..."``, ``hl_lines=...``)."""

    def __init__(self) -> None:
        self.lexer = RawFencedCodeBlockLexer(info_pattern=_INFO_WITH_ATTRIBUTES)
        self.python = PythonEvaluator()

    def __call__(self, document: Document) -> Iterable[Region]:
        for region in self.lexer(document):
            language = region.lexemes["language"]
            title = _TITLE.search(region.lexemes["attributes"])
            if title is not None and "." in title.group("title"):
                region.parsed = (title.group("title"), language, region.lexemes["source"])
                region.evaluator = self.write_file
                yield region
            elif language == "python":
                region.parsed = region.lexemes["source"]
                region.evaluator = self.python
                yield region

    @staticmethod
    def write_file(example: Example) -> None:
        """Write a titled block to the page's folder (parse TOML to check it)."""
        relative, language, source = example.parsed
        root = Path(example.namespace[_FILES_DIR])
        target = (root / relative).resolve()
        if root.resolve() not in target.parents:
            raise ValueError(f"file block {relative!r} points outside the example folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(str(source))
        if language == "toml" or relative.endswith(".toml"):
            tomllib.loads(str(source))


def _setup(namespace: dict[str, Any]) -> None:
    folder = tempfile.mkdtemp(prefix="canasta-docs-")
    namespace[_FILES_DIR] = folder
    namespace["_docs_saved"] = (os.getcwd(), list(sys.path), set(sys.modules))
    os.chdir(folder)
    sys.path.insert(0, folder)


def _teardown(namespace: dict[str, Any]) -> None:
    cwd, path, modules = namespace["_docs_saved"]
    os.chdir(cwd)
    sys.path[:] = path
    # Forget modules the page created, so two pages never share a tutorial plugin.
    for name in set(sys.modules) - modules:
        module_file = getattr(sys.modules[name], "__file__", None) or ""
        if module_file.startswith(namespace[_FILES_DIR]):
            del sys.modules[name]
    shutil.rmtree(namespace[_FILES_DIR], ignore_errors=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """Run a docs example with a time limit (where the platform has SIGALRM)."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        return (yield)

    def too_slow(signum: int, frame: object) -> None:
        raise TimeoutError(f"{item.nodeid}: the example took more than {EXAMPLE_TIMEOUT} s")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(EXAMPLE_TIMEOUT)
    try:
        return (yield)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(), AttributedBlockParser(), SkipParser()],
    patterns=["*.md"],
    setup=_setup,
    teardown=_teardown,
).pytest()
