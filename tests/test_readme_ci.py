"""The README's second command is the install and test command CI runs (.ci/run)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_installs_what_ci_installs() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    ci_extras = re.findall(r"python -m pip install -q -e '(\.\[[^\]]*\])'", ci)
    readme_extras = re.findall(r"\.venv/bin/pip install -q -e '(\.\[[^\]]*\])'", readme)
    assert ci_extras, "no editable install with extras in .ci/run"
    assert readme_extras == ci_extras, f"README installs {readme_extras}, CI installs {ci_extras}"
    assert "python -m pytest -q" in ci and ".venv/bin/python -m pytest -q" in readme


def test_the_first_command_says_what_it_does_before_its_quiet_install() -> None:
    # pip -q shows nothing of the build (a minute of compiling): the command prints a line first.
    readme = (ROOT / "README.md").read_text()
    first = next(line for line in readme.splitlines() if line.startswith("python3 -m venv .venv && "))
    assert "pip install -q -e . " in first
    said = first.index('echo "canasta: installing and compiling the engine')
    assert said < first.index("pip install -q -e . ")


def test_the_readme_names_the_tests_that_need_chromium() -> None:
    readme = (ROOT / "README.md").read_text()
    tests = [path for path in (ROOT / "tests").glob("test_*.py") if path.name != Path(__file__).name]
    needing = sorted(path.name for path in tests if "chromium" in path.read_text().lower())
    assert needing == ["test_docs_browser.py", "test_web_browser.py"]
    for name in needing:
        assert f"tests/{name}" in readme
    assert "apt-get install chromium" in readme
