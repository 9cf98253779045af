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
