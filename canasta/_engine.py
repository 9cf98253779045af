"""Which engine runs: the modules mypyc compiles, and the switch back to their Python sources.

The build (``setup.py``) compiles the modules in `COMPILED_MODULES` with mypyc
when it can and records what it did in ``canasta/_engine_build.json`` (the
engine, and a SHA-256 of each compiled module's source). This module is never
compiled and imports only the standard library, so the build script can load it
on its own.

`select` runs first thing in ``canasta/__init__``, before any engine module is
imported. It makes the package import the ``.py`` sources of the compiled
modules instead of their extension modules when

- ``CANASTA_PURE_PYTHON`` is set (to anything but ``""``, ``0``, ``false`` or
  ``no``): the pure-Python engine, on request; or
- the compiled modules do not match their sources (a ``.py`` file was edited
  after an editable install compiled it, or an extension module is missing):
  the pure-Python engine, with a `StaleEngineWarning` saying which file and how
  to rebuild, so an edit is never silently shadowed by an older compiled copy.

The engine is all compiled or all pure: compiled classes do not accept instances
of their pure-Python twins, so the modules are never mixed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

__all__ = [
    "BUILD_INFO",
    "COMPILED_MODULES",
    "PURE_ENV",
    "StaleEngineWarning",
    "engine_description",
    "is_compiled",
    "pure_requested",
    "select",
    "source_digests",
]

#: The engine's hot modules, compiled by mypyc when the build can (``canasta.<name>``).
#: ``errors`` (a `KeyError` subclass), ``rules`` and ``actions`` (attrs converters; mypyc drops the
#: ``ClassVar`` from the annotations attrs reads) stay pure Python.
COMPILED_MODULES: tuple[str, ...] = (
    "cards",
    "completion",
    "declaration",
    "discards",
    "goingout",
    "hand",
    "keeping",
    "legality",
    "rulefacts",
    "scoring",
    "suitedlegality",
    "suitedmelds",
    "suitedpile",
    "suitedsearch",
    "typeset",
    "table",
    "transitions",
    "viewvalues",
)

#: The environment variable that asks for the pure-Python engine, at build time and at run time.
PURE_ENV = "CANASTA_PURE_PYTHON"

#: The file, beside this one, in which the build records the engine it built.
BUILD_INFO = "_engine_build.json"

PACKAGE_DIR = Path(__file__).resolve().parent

#: Why the pure-Python engine runs although compiled modules are installed (set by `select`).
pure_reason: str | None = None


class StaleEngineWarning(RuntimeWarning):
    """The compiled engine is older than its sources; the pure-Python engine runs instead."""


def pure_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``CANASTA_PURE_PYTHON`` asks for the pure-Python engine."""
    return environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def source_digests(package_dir: Path, modules: Sequence[str] = COMPILED_MODULES) -> dict[str, str]:
    """The SHA-256 of each module's ``.py`` source in ``package_dir`` (what the build compiled)."""
    return {name: hashlib.sha256((package_dir / f"{name}.py").read_bytes()).hexdigest() for name in modules}


def _extension_files(package_dir: Path) -> set[str]:
    """The modules of `COMPILED_MODULES` that have an extension module in ``package_dir``."""
    try:
        names = os.listdir(package_dir)
    except OSError:
        return set()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = set()
    for file in names:
        if file.endswith(suffixes):
            found.add(file.split(".", 1)[0])
    return found & set(COMPILED_MODULES)


def _stale(package_dir: Path) -> str | None:
    """Why installed compiled modules must not be used (``None`` if they match their sources, or there are none)."""
    present = _extension_files(package_dir)
    if not present:
        return None
    rebuild = f"rebuild with `pip install -e .`, or set {PURE_ENV}=1 while developing"
    missing = sorted(set(COMPILED_MODULES) - present)
    if missing:
        return f"no compiled module for canasta/{missing[0]}.py beside the others; {rebuild}"
    try:
        info = json.loads((package_dir / BUILD_INFO).read_text(encoding="utf-8"))
        built = info["sources"]
        if not isinstance(built, dict):
            raise TypeError(type(built).__name__)
    except (OSError, ValueError, KeyError, TypeError):
        return f"canasta/{BUILD_INFO} does not say which sources were compiled; {rebuild}"
    try:
        now = source_digests(package_dir)
    except OSError:
        return None  # no sources to compare with (an install without .py files): trust the build
    changed = [name for name in COMPILED_MODULES if built.get(name) != now[name]]
    if changed:
        return f"canasta/{changed[0]}.py changed after the compiled engine was built; {rebuild}"
    return None


class _PureSourceFinder(importlib.abc.MetaPathFinder):
    """Imports ``canasta.<name>`` of `COMPILED_MODULES` from its ``.py`` source, never an extension module."""

    def __init__(self, package_dir: Path) -> None:
        self.package_dir = package_dir

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.partition(".")
        if package != "canasta" or name not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, self.package_dir / f"{name}.py")


def _use_sources(package_dir: Path) -> None:
    if not any(isinstance(finder, _PureSourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PureSourceFinder(package_dir))


def select(package_dir: Path = PACKAGE_DIR) -> None:
    """Choose the engine before its modules are imported (see the module docstring)."""
    global pure_reason
    if pure_requested():
        pure_reason = f"{PURE_ENV} is set"
    else:
        stale = _stale(package_dir)
        if stale is None:
            return
        pure_reason = stale
        warnings.warn(f"canasta runs its pure-Python engine: {stale}", StaleEngineWarning, stacklevel=2)
    _use_sources(package_dir)


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a native extension (a mypyc-compiled module)."""
    file = getattr(module, "__file__", None) or ""
    return file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def engine_description(compiled: bool) -> str:
    """``"compiled engine"`` or ``"pure-Python engine"``, with the reason when compiled modules are not used."""
    if compiled:
        return "compiled engine"
    if pure_reason is not None and _extension_files(PACKAGE_DIR):
        return f"pure-Python engine: {pure_reason.split(';')[0]}"
    return "pure-Python engine"


if __name__ == "canasta._engine":  # imported by canasta/__init__ (not when the build loads this file on its own)
    select()
