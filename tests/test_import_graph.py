"""The package's modules form no import cycle (scripts/import_cycles.py), counting every import."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "import_cycles.py"

# Each of these can be read on its own: no import, lazy or TYPE_CHECKING ones included, leads back to it.
ACYCLIC = [
    "canasta.defaults",
    "canasta.descriptors",
    "canasta.hookcheck",
    "canasta.hookspecs",
    "canasta.markers",
    "canasta.plugins",
    "canasta.registry",
    "canasta.rules",
]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_cycles", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return _script()


def test_the_plugin_modules_are_in_no_import_cycle(script: ModuleType) -> None:
    imports = script.import_graph(ROOT / "canasta")
    assert {i.source for i in imports} | {i.target for i in imports} >= set(ACYCLIC)  # the graph saw them all
    in_cycles = {module: cycle for cycle in script.cycles(imports) for module in cycle}
    offending = {module: in_cycles[module] for module in ACYCLIC if module in in_cycles}
    assert not offending, f"import cycles through {sorted(offending)}: {list(offending.values())}"


def test_the_package_has_no_import_cycle(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    # (The OpenSpiel state and its observers once closed one through TYPE_CHECKING imports:
    # they are typed by protocols now, `HoldsPlay` and `ConfiguredGame`.)
    assert script.main([str(ROOT / "canasta")]) == 0, capsys.readouterr().out


def _package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return package


def test_lazy_and_type_checking_imports_close_a_cycle(script: ModuleType, tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg import b\n",
            "b.py": "def f():\n    from pkg.c import thing\n",
            "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\nthing = 1\n",
            "d.py": "import pkg.a\n",
        },
    )
    imports = script.import_graph(package)
    kinds = {(i.source, i.target): str(i.kind) for i in imports}
    assert kinds == {
        ("pkg.a", "pkg.b"): "top-level",
        ("pkg.b", "pkg.c"): "function-level",
        ("pkg.c", "pkg.a"): "TYPE_CHECKING",
        ("pkg.d", "pkg.a"): "top-level",
    }
    assert script.cycles(imports) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert script.main([str(package)]) == 1


def test_a_name_from_the_package_points_at_its_init(script: ModuleType, tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {"__init__.py": "from pkg.sub.x import X\n", "sub/__init__.py": "", "sub/x.py": "from pkg import Y\nX = 1\n"},
    )
    assert script.cycles(script.import_graph(package)) == [["pkg", "pkg.sub.x"]]


def test_an_acyclic_package_passes(script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    package = _package(tmp_path, {"__init__.py": "", "a.py": "import os\nfrom pkg import b\n", "b.py": ""})
    assert script.main([str(package)]) == 0
    assert "no import cycle" in capsys.readouterr().out
