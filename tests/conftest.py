"""Test configuration: hypothesis profiles, and the ``fake_dist`` fixture.

``dev`` is the default; ``ci`` (hypothesis's built-in profile, extended here) is
loaded when the ``CI`` environment variable is set; ``thorough`` is a heavy run
for hunting rare bugs. Pick one with ``HYPOTHESIS_PROFILE=thorough`` or
``pytest --hypothesis-profile=thorough``.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_plugins import FakeDist
from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

# Extend the built-in `ci` profile (derandomized, no deadline, no database) instead of replacing it.
settings.register_profile(
    "ci", settings(settings.get_profile("ci"), max_examples=15, suppress_health_check=_SLOW_OK)
)
settings.register_profile("dev", max_examples=25, deadline=None, suppress_health_check=_SLOW_OK)
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=_SLOW_OK)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def fake_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDist]:
    """Write a fake installed distribution: ``fake_dist(name, {ep: module}, {module: source})``."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)

    def make(name: str, entry_points: dict[str, str], modules: dict[str, str]) -> None:
        info = tmp_path / f"{name.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        lines = "".join(f"{ep} = {target}\n" for ep, target in entry_points.items())
        (info / "entry_points.txt").write_text(f"[canasta]\n{lines}")
        for module, source in modules.items():
            (tmp_path / f"{module}.py").write_text(textwrap.dedent(source))

    yield make
    for module in set(sys.modules) - before:  # the next test writes fresh modules with the same names
        del sys.modules[module]
