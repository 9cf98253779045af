#!/usr/bin/env python3
"""Print the import cycles among the modules of the ``canasta`` package.

Usage::

    python scripts/import_cycles.py              # check canasta/ next to this script
    python scripts/import_cycles.py path/to/pkg  # check another package directory

Every module's source is parsed (nothing is imported) and **every** import
counts: top-level ones, imports inside functions (lazy imports), and those under
``if TYPE_CHECKING:``. A cycle closed by a lazy or type-checking import still
means that no module of it can be read on its own.

``import a.b`` and ``from a import b`` (``b`` a submodule) point at ``a.b``;
``from a.b import name`` (``name`` not a submodule) points at ``a.b``, so
``from canasta import X`` points at the package's ``__init__``.

Each strongly connected component of more than one module is printed with the
imports inside it (file line and kind), so that the import that closes a cycle
is easy to find. Exit status: 0 when there is no cycle, 1 otherwise.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import NamedTuple

__all__ = ["Import", "ImportKind", "cycles", "import_graph", "main", "module_imports", "strongly_connected"]

DEFAULT_PACKAGE = Path(__file__).resolve().parent.parent / "canasta"


class ImportKind(StrEnum):
    """Where an import statement sits."""

    TOP_LEVEL = "top-level"
    FUNCTION = "function-level"
    TYPE_CHECKING = "TYPE_CHECKING"


class Import(NamedTuple):
    """One import of a package module by another.

    Attributes:
        source: The importing module, e.g. ``"canasta.registry"``.
        target: The imported module, e.g. ``"canasta.hookcheck"``.
        line: The line of the import statement in the source file.
        kind: Where the statement sits.
    """

    source: str
    target: str
    line: int
    kind: ImportKind


def _module_names(package_dir: Path) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    root = package_dir.name
    modules: dict[str, Path] = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [root, *path.relative_to(package_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, ImportKind]]:
    """Every import statement of a module, with where it sits (a function wins over TYPE_CHECKING)."""

    def visit(node: ast.AST, kind: ImportKind) -> Iterator[tuple[ast.Import | ast.ImportFrom, ImportKind]]:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, kind
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for child in ast.iter_child_nodes(node):
                yield from visit(child, ImportKind.FUNCTION)
        elif isinstance(node, ast.If) and _is_type_checking(node.test) and kind is ImportKind.TOP_LEVEL:
            for child in node.body:
                yield from visit(child, ImportKind.TYPE_CHECKING)
            for child in node.orelse:
                yield from visit(child, kind)
        else:
            for child in ast.iter_child_nodes(node):
                yield from visit(child, kind)

    yield from visit(tree, ImportKind.TOP_LEVEL)


def _resolve(statement: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module a ``from ... import`` names (relative imports resolved)."""
    if statement.level == 0:
        return statement.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    base = parts[: len(parts) - statement.level + 1]
    return ".".join([*base, statement.module] if statement.module else base)


def module_imports(module: str, path: Path, known: Mapping[str, Path]) -> list[Import]:
    """The imports of one module that point at modules of the package.

    Args:
        module: The module's dotted name.
        path: Its source file.
        known: Every module of the package by dotted name.

    Returns:
        The imports, in source order (a module importing itself is left out).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[Import] = []
    for statement, kind in _statements(tree):
        if isinstance(statement, ast.Import):
            targets = [alias.name for alias in statement.names]
        else:
            base = _resolve(statement, module, path.name == "__init__.py")
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in statement.names]
        for target in dict.fromkeys(targets):  # one edge per statement and target
            while target and target not in known:  # `import canasta.x.attr`-like spellings: the nearest module
                target = target.rpartition(".")[0]
            if target and target != module:
                found.append(Import(module, target, statement.lineno, kind))
    return found


def import_graph(package_dir: Path) -> list[Import]:
    """Every import between the modules of a package.

    Args:
        package_dir: The package's directory (its name is the package's name).

    Returns:
        The imports, module by module in name order.
    """
    known = _module_names(package_dir)
    return [imp for module, path in known.items() for imp in module_imports(module, path, known)]


def strongly_connected(edges: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The strongly connected components of a directed graph (Tarjan's algorithm).

    Args:
        edges: Each node's successors; a successor need not be a key.

    Returns:
        Every component, each sorted, in the order they complete.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in edges.get(node, ()):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            components.append(sorted(component))

    nodes = sorted({*edges, *(s for successors in edges.values() for s in successors)})
    for node in nodes:
        if node not in index:
            visit(node)
    return components


def cycles(imports: Sequence[Import]) -> list[list[str]]:
    """The import cycles: strongly connected components of more than one module.

    Args:
        imports: The imports, e.g. from `import_graph`.

    Returns:
        Each cycle's modules, sorted; the cycles sorted by their first module.
    """
    edges: dict[str, list[str]] = {}
    for imp in imports:
        edges.setdefault(imp.source, []).append(imp.target)
    return sorted((c for c in strongly_connected(edges) if len(c) > 1), key=lambda c: c[0])


def _report(imports: Sequence[Import], found: Sequence[Sequence[str]]) -> str:
    lines: list[str] = []
    for number, component in enumerate(found, 1):
        members = set(component)
        lines.append(f"cycle {number}: {', '.join(component)}")
        for imp in sorted(imports):
            if imp.source in members and imp.target in members:
                lines.append(f"    {imp.source} -> {imp.target}  (line {imp.line}, {imp.kind})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the import cycles of a package.

    Args:
        argv: Command-line arguments (default: ``sys.argv[1:]``).

    Returns:
        0 when there is no cycle, 1 otherwise.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("package", nargs="?", type=Path, default=DEFAULT_PACKAGE, help="the package directory")
    args = parser.parse_args(argv)
    imports = import_graph(args.package)
    found = cycles(imports)
    if not found:
        print(f"no import cycle among the modules of {args.package.name}")
        return 0
    print(_report(imports, found))
    return 1


if __name__ == "__main__":
    sys.exit(main())
