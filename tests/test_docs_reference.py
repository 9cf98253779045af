"""The API reference shows the types the code declares.

The reference pages (``::: name`` in ``docs/``) are rendered by mkdocstrings from
griffe's reading of the sources. Two things on them carry a type: the members of
a class or module (griffe reads their annotations), and the ``Attributes:``
sections of docstrings, whose entries without a written type take the member's
annotation. griffe's Google parser keeps the previous entry's type for an entry
that names no member (``Game.hand`` was shown as ``list[HandScore]``, the type
of ``results`` above it), so every entry must name a member, or write its type.

Each annotation shown is compared with the code's own: the ``__annotations__``
of the class (or module) that declares the name, or the return annotation of a
property. The code side is read in a subprocess running the pure-Python engine
(compiled classes keep no annotations).
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

griffe = pytest.importorskip("griffe")

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

# Prints {object path: {name: annotation or null}} for the names given on stdin.
CODE_ANNOTATIONS = r"""
import ast, importlib, inspect, json, sys, textwrap

def init_annotations(klass):
    # `self.name: T = ...` in the class's own __init__ (instance attributes are declared there).
    init = klass.__dict__.get("__init__")
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
    except (TypeError, OSError, SyntaxError):
        return {}
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
            if isinstance(node.target.value, ast.Name) and node.target.value.id == "self":
                found[node.target.attr] = ast.unparse(node.annotation)
    return found

def annotation_of(owner, name):
    if isinstance(owner, type):
        for klass in owner.__mro__:
            value = klass.__dict__.get(name)
            if isinstance(value, property):
                return value.fget.__annotations__.get("return") if value.fget else None
            annotations = {**init_annotations(klass), **klass.__dict__.get("__annotations__", {})}
            if name in annotations:
                return annotations[name]
        return None
    return getattr(owner, "__annotations__", {}).get(name)

def resolve(path):
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)

wanted = json.load(sys.stdin)
out = {}
for path, names in wanted.items():
    try:
        owner = resolve(path)
    except (ImportError, AttributeError):
        continue
    found = {name: annotation_of(owner, name) for name in names}
    # (a NamedTuple keeps its annotations as ForwardRef objects)
    out[path] = {k: None if v is None else str(getattr(v, "__forward_arg__", v)) for k, v in found.items()}
print(json.dumps(out))
"""


def _identifiers() -> list[str]:
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        found += re.findall(r"^::: ([\w.]+)\s*$", page.read_text(encoding="utf-8"), re.M)
    return found


def _normal(annotation: object) -> str | None:
    if annotation is None:
        return None
    text = str(annotation)
    if text.startswith("ClassVar[") and text.endswith("]"):  # the reference shows the value's type
        text = text[len("ClassVar[") : -1]
    try:
        return ast.unparse(ast.parse(text, mode="eval"))
    except SyntaxError:
        return text


def _documented(obj: object, shown: dict[str, dict[str, tuple[str | None, str]]]) -> None:
    """Collect what the reference shows: (annotation, where) for each attribute of ``obj`` and its members."""
    if getattr(obj, "is_alias", False):
        return
    path = obj.path  # type: ignore[attr-defined]
    entries = shown.setdefault(path, {})
    docstring = obj.docstring  # type: ignore[attr-defined]
    if docstring is not None:
        for section in docstring.parse("google"):
            if section.kind.value == "attributes":
                for item in section.value:
                    entries[item.name] = (_normal(item.annotation), f"the Attributes section of {path}")
    for name, member in obj.members.items():  # type: ignore[attr-defined]
        if name.startswith("_") or getattr(member, "is_alias", False):
            continue
        if member.is_attribute:
            entries.setdefault(name, (_normal(member.annotation), f"the member {path}.{name}"))
        elif member.is_class:
            _documented(member, shown)


@functools.cache
def _loader() -> object:
    """One griffe loader (as the site's: sources only) with every package the reference names."""
    loader = griffe.GriffeLoader(search_paths=[str(ROOT), str(ROOT / "variants")], allow_inspection=False)
    for package in sorted({identifier.split(".")[0] for identifier in _identifiers()}):
        loader.load(package)
    return loader


def _object(identifier: str) -> object:
    return _loader().modules_collection[identifier]  # type: ignore[attr-defined]


@functools.cache
def _shown() -> dict[str, dict[str, tuple[str | None, str]]]:
    shown: dict[str, dict[str, tuple[str | None, str]]] = {}
    for identifier in _identifiers():
        _documented(_object(identifier), shown)
    return shown


def test_the_reference_documents_some_objects() -> None:
    assert "canasta.game" in _identifiers()
    assert len(_identifiers()) > 30


def test_every_docstring_attribute_names_a_member_or_states_its_type() -> None:
    orphans = []
    for identifier in _identifiers():
        stack = [_object(identifier)]
        while stack:
            obj = stack.pop()
            if getattr(obj, "is_alias", False):
                continue
            stack += [m for n, m in obj.members.items() if not n.startswith("_") and not m.is_alias and m.is_class]
            if obj.docstring is None:
                continue
            for line in obj.docstring.value.split("Attributes:", 1)[1:]:
                for match in re.finditer(r"^    (\w+)( \([^)]*\))?:", line, re.M):
                    name, written = match.group(1), match.group(2)
                    if written is None and name not in obj.all_members:
                        orphans.append(f"{obj.path}.{name}")
    assert not orphans, f"Attributes entries with no member and no written type (griffe shows a wrong type): {orphans}"


def test_every_annotation_the_reference_shows_is_the_codes() -> None:
    shown = _shown()
    env = {**os.environ, "CANASTA_PURE_PYTHON": "1"}
    wanted = {path: sorted(entries) for path, entries in shown.items()}
    out = subprocess.run(
        [sys.executable, "-c", CODE_ANNOTATIONS],
        input=json.dumps(wanted),
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    code = json.loads(out.stdout)
    assert "canasta.game.Game" in code
    wrong = []
    for path, entries in shown.items():
        for name, (annotation, where) in entries.items():
            if path not in code or name not in code[path]:
                continue
            expected = _normal(code[path][name])
            if annotation is not None and annotation != expected:
                wrong.append(f"{where}: {name} shown as {annotation}, the code says {expected}")
    assert not wrong, "\n".join(wrong)


def test_game_hand_is_shown_as_a_hand_state() -> None:
    shown = _shown()
    assert shown["canasta.game.Game"]["hand"][0] == "HandState"
    assert shown["canasta.game.Game"]["results"][0] == "tuple[HandScore, ...]"
