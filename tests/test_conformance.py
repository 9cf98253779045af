"""The conformance suite (canasta.testing) run on every built-in variant and house rule."""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings

import canasta
from canasta.testing import conformance_machine, run_conformance
from canasta.testing.conformance import CanastaConformance


def _suite_settings(variant: str = "classic") -> settings:
    """A fraction of the loaded profile: about a second per variant under `ci`, more under `thorough`.

    The sequence games (rule sets with meld types: Samba, Bolivia, Brazilian canasta) cost about 30 times
    classic's per action (their legality is pure Python): they run a third of the examples (at least 2), so that each
    stays within a few seconds under `ci` (their legal lists are also checked against the brute-force
    reference in tests/test_sequence_engine.py, and their invariants in its random hands).
    """
    profile = settings.default
    assert profile is not None
    examples = max(3, profile.max_examples // 3)
    if canasta.load_rules(variant).meld_types:
        examples = max(2, examples // 3)
    return settings(
        profile,
        max_examples=examples,
        stateful_step_count=max(10, profile.stateful_step_count * 3 // 5),
        deadline=None,
    )


def _variant_names() -> list[str]:
    return [v.name for v in canasta.available_variants()]


def _house_rule_cases() -> list[tuple[str, str]]:
    """Each house rule on one variant it fits (classic if it fits, else the first that does)."""
    registry = canasta.default_registry()
    cases = []
    for rule in canasta.available_house_rules():
        fitting = [v for v in _variant_names() if registry.fits(rule.name, v)]
        fitting.sort(key=lambda v: v != "classic")
        if fitting:
            cases.append((fitting[0], rule.name))
    return cases


def test_every_builtin_variant_is_covered() -> None:
    # The parametrization below comes from the registry: make sure it is not silently empty.
    assert "classic" in _variant_names()


@pytest.mark.parametrize("variant", _variant_names())
def test_variant_conforms(variant: str) -> None:
    run_conformance(variant, settings=_suite_settings(variant))


@pytest.mark.parametrize(("variant", "house_rule"), _house_rule_cases())
def test_house_rule_conforms(variant: str, house_rule: str) -> None:
    run_conformance(variant, [house_rule], settings=_suite_settings(variant))


# The class form a variant author writes (see docs/testing.md), collected by pytest.
TestClassicConformance = conformance_machine("classic", settings=_suite_settings()).TestCase


def test_machine_factory_checks_names_at_once() -> None:
    with pytest.raises(canasta.UnknownNameError, match="no-such-variant"):
        conformance_machine("no-such-variant")
    with pytest.raises(canasta.UnknownNameError, match="no-such-rule"):
        conformance_machine("classic", ["no-such-rule"])


def test_machine_classes_carry_their_configuration() -> None:
    machine = conformance_machine("classic")
    assert issubclass(machine, CanastaConformance)
    assert (machine.variant, machine.house_rules, machine.__name__) == ("classic", (), "ConformanceClassic")
    assert machine.TestCase.settings.deadline is None


# No shrinking: these runs only need to fail, and fail fast.
_BROKEN_ENGINE_SETTINGS = settings(
    max_examples=5, stateful_step_count=5, database=None, report_multiple_bugs=False, phases=[Phase.generate]
)


def test_suite_finds_a_hidden_card_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """A suite that cannot fail proves nothing: break observations and watch it fail."""
    import canasta.observation as observation

    real = observation.observe

    def leaky(state: canasta.HandState, seat: int) -> canasta.Observation:
        obs = real(state, seat)
        if not state.stock:
            return obs
        import attrs

        return attrs.evolve(obs, pile=(*obs.pile, state.deck.cards[state.stock[-1]]))

    monkeypatch.setattr(observation, "observe", leaky)
    with pytest.raises(AssertionError, match="leaks the hidden card"):
        run_conformance("classic", settings=_BROKEN_ENGINE_SETTINGS)


def test_suite_finds_an_action_listed_but_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    real = canasta.HandState.apply

    def refuses_draw(self: canasta.HandState, action: canasta.Action) -> None:
        if isinstance(action, canasta.DrawStock):
            raise canasta.IllegalActionError(canasta.RuleCode.ILLEGAL, "a broken engine", action)
        real(self, action)

    monkeypatch.setattr(canasta.HandState, "apply", refuses_draw)
    with pytest.raises(AssertionError, match="was refused"):
        run_conformance("classic", settings=_BROKEN_ENGINE_SETTINGS)
