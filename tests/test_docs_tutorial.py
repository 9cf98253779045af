"""The plugin tutorial (docs/writing-a-plugin.md) works end to end through its entry point.

The docs' own test run (Sybil) registers the tutorial plugin by hand. This test goes
further: it writes the tutorial's files as a reader would, installs them the way pip
does (a ``.dist-info`` folder with ``entry_points.txt`` built from the tutorial's
``pyproject.toml``), and checks that an ordinary, auto-loading registry finds the
variant through the ``canasta`` entry-point group and plays it to the end.
"""

from __future__ import annotations

import random
import re
import sys
import tomllib
from pathlib import Path

import pytest

import canasta

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "writing-a-plugin.md"
FILE_BLOCK = re.compile(r'^```(?P<lang>\w+) title="(?P<title>[^"]+)"\n(?P<body>.*?)^```$', re.MULTILINE | re.DOTALL)


@pytest.fixture
def installed_tutorial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    files = {m["title"]: m["body"] for m in FILE_BLOCK.finditer(TUTORIAL.read_text())}
    for title, body in files.items():
        (tmp_path / title).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / title).write_text(body)
    project = tomllib.loads(files["pyproject.toml"])["project"]
    entry_points = project["entry-points"]["canasta"]
    dist_info = tmp_path / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    (dist_info / "entry_points.txt").write_text(
        "[canasta]\n" + "".join(f"{name} = {value}\n" for name, value in entry_points.items())
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("CANASTA_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    yield entry_points
    for module in [m for m in sys.modules if m.startswith("canasta_two_canastas")]:
        del sys.modules[module]


def test_the_tutorial_declares_the_package_it_writes(installed_tutorial: dict[str, str]) -> None:
    assert installed_tutorial == {"two-canastas": "canasta_two_canastas"}


def test_an_auto_loading_registry_finds_and_plays_the_tutorial_variant(installed_tutorial: dict[str, str]) -> None:
    registry = canasta.Registry()
    variant = registry.variant("two-canastas")
    assert registry.failures == []
    assert variant.base == "classic"
    assert variant.origin == "canasta-two-canastas (entry point two-canastas = canasta_two_canastas)"

    rules = canasta.load_rules("two-canastas", registry=registry)
    assert rules.going_out.canastas_required == 2
    assert rules.target_score == 7500
    assert rules.hand_size == canasta.load_rules("classic", registry=registry).hand_size

    game = canasta.Game("two-canastas", registry=registry, seed=5)
    rng = random.Random(5)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert max(game.scores) >= 7500
    # Every hand that ended by going out had two canastas on the winner's side.
    for result in game.results:
        if result.went_out is not None:
            side = rules.sides[result.went_out]
            assert result.sides[side].canastas >= 2
