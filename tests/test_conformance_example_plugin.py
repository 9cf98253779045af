"""The conformance suite on third-party plugins found through the `canasta` entry point group.

CI installs the example plugin distribution of tests/example_plugin/ (issue 4),
so its variants and house rules are checked here exactly like the built-in ones.
Without any third-party plugin installed, the tests are skipped.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

import canasta
from canasta.testing import run_conformance


def _third_party(origin: str) -> bool:
    # The registry stamps entry-point plugins "<distribution> (entry point ...)".
    return " (entry point " in origin and not origin.startswith("canasta ")


def _variants() -> list[str]:
    return [v.name for v in canasta.available_variants() if _third_party(v.origin)]


def _house_rules() -> list[tuple[str, str]]:
    registry = canasta.default_registry()
    cases = []
    for rule in canasta.available_house_rules():
        if not _third_party(rule.origin):
            continue
        names = [v.name for v in registry.variants()]
        fitting = [v for v in names if registry.fits(rule.name, v)]
        if fitting:
            cases.append(("classic" if "classic" in fitting else fitting[0], rule.name))
    return cases


def _settings() -> settings:
    profile = settings.default
    assert profile is not None
    return settings(profile, max_examples=max(3, profile.max_examples // 3), deadline=None)


@pytest.mark.skipif(not _variants(), reason="no third-party variant installed (pip install tests/example_plugin)")
@pytest.mark.parametrize("variant", _variants() or ["-"])
def test_third_party_variant_conforms(variant: str) -> None:
    run_conformance(variant, settings=_settings())


@pytest.mark.skipif(not _house_rules(), reason="no third-party house rule installed")
@pytest.mark.parametrize(("variant", "house_rule"), _house_rules() or [("-", "-")])
def test_third_party_house_rule_conforms(variant: str, house_rule: str) -> None:
    run_conformance(variant, [house_rule], settings=_settings())
