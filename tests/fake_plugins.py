"""Test helpers for plugin discovery (the ``fake_dist`` fixture lives in ``conftest.py``)."""

from __future__ import annotations

import types
from collections.abc import Callable

#: ``fake_dist(name, {entry point: module}, {module: source})``.
FakeDist = Callable[[str, dict[str, str], dict[str, str]], None]


def module(name: str, **attributes: object) -> types.ModuleType:
    """A plugin module with these attributes (hooks, classes)."""
    plugin = types.ModuleType(name)
    plugin.__dict__.update(attributes)
    return plugin
