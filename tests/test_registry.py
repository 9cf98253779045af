"""Discovery: entry points, programmatic registration, unique names, autoload switch, broken plugins.

Fake installed distributions are written to a temporary folder put on ``sys.path``
(a ``*.dist-info`` folder with ``METADATA`` and ``entry_points.txt``), exactly what
``pip install`` leaves behind; each test builds its own `canasta.Registry`.
"""

from __future__ import annotations

import types

import pytest
from fake_plugins import FakeDist, module

import canasta
from canasta import HouseRule, PluginError, Registry, UnknownNameError, Variant
from canasta.registry import AUTOLOAD_ENV, PluginFailure, PluginLoadWarning

GOOD_PLUGIN = '''
import attrs
import canasta


class rules:
    @staticmethod
    @canasta.hookimpl(wrapper=True)
    def canasta_going_out():
        return attrs.evolve((yield), canastas_required=2)


@canasta.hookimpl
def canasta_variants():
    return [canasta.Variant("{name}", "Two canastas to go out.", plugins=(rules,), base="classic", source="test")]
'''


def discovery(*variants: Variant, house_rules: tuple[HouseRule, ...] = (), name: str = "my_plugin") -> types.ModuleType:
    @canasta.hookimpl
    def canasta_variants() -> list[Variant]:
        return list(variants)

    @canasta.hookimpl
    def canasta_house_rules() -> list[HouseRule]:
        return list(house_rules)

    return module(name, canasta_variants=canasta_variants, canasta_house_rules=canasta_house_rules)


@canasta.hookimpl
def _target_1000() -> int:
    return 1000


TARGET = module("target_rules", canasta_target_score=_target_1000)


# --- entry points --------------------------------------------------------------------------


def test_built_in_variants_come_from_canastas_own_entry_points() -> None:
    registry = Registry(autoload=True)
    classic = registry.variant("classic")
    assert classic.origin == "canasta (entry point classic = canasta_classic)"
    assert {"classic", "two-player", "cuban"} <= {v.name for v in registry.variants()}
    assert registry.failures == []


def test_an_installed_distribution_is_found_through_its_entry_point(fake_dist: FakeDist) -> None:
    fake_dist("canasta-strict", {"strict": "canasta_strict"}, {"canasta_strict": GOOD_PLUGIN.format(name="strict")})
    registry = Registry()
    variant = registry.variant("strict")
    assert variant.origin == "canasta-strict (entry point strict = canasta_strict)"
    assert canasta.load_rules("strict", registry=registry).going_out.canastas_required == 2


def test_autoload_off_keeps_the_built_in_variants_only(fake_dist: FakeDist, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_dist("canasta-strict", {"strict": "canasta_strict"}, {"canasta_strict": GOOD_PLUGIN.format(name="strict")})
    monkeypatch.setenv(AUTOLOAD_ENV, "1")
    registry = Registry()
    names = {v.name for v in registry.variants()}
    assert "classic" in names and "strict" not in names
    with pytest.raises(UnknownNameError, match=r"unknown variant 'strict'; known: .*classic"):
        registry.variant("strict")
    assert "strict" not in {v.name for v in Registry(autoload="builtin").variants()}
    monkeypatch.delenv(AUTOLOAD_ENV)
    assert "strict" in {v.name for v in Registry().variants()}


def test_autoload_false_loads_nothing(fake_dist: FakeDist) -> None:
    fake_dist("canasta-strict", {"strict": "canasta_strict"}, {"canasta_strict": GOOD_PLUGIN.format(name="strict")})
    registry = Registry(autoload=False)
    assert registry.variants() == [] and registry.house_rules() == []
    with pytest.raises(UnknownNameError, match="unknown variant 'classic'; known: none"):
        registry.variant("classic")


def test_a_bad_autoload_value_is_refused() -> None:
    with pytest.raises(ValueError, match="autoload must be True, False or 'builtin'"):
        Registry(autoload="yes")  # type: ignore[arg-type]


# --- programmatic registration -------------------------------------------------------------


def test_register_plugin_adds_variants_and_house_rules() -> None:
    registry = Registry(autoload=False)
    registry.register_plugin(
        discovery(
            Variant("short", "Classic rules, game to 1000.", plugins=(TARGET,), version="2.0", source="a test"),
            house_rules=(HouseRule("short-again", "Game to 1000.", plugins=(TARGET,)),),
        )
    )
    short = registry.variant("short")
    assert (short.name, short.version, short.source) == ("short", "2.0", "a test")
    assert short.origin == "my_plugin (registered in code)"
    assert registry.house_rule("short-again").origin == "my_plugin (registered in code)"
    # No base: the core defaults answer everything else, except the table itself.
    with pytest.raises(canasta.RulesError, match="no plugin answers canasta_players"):
        canasta.load_rules("short", registry=registry)


def test_module_level_register_plugin_uses_the_default_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = Registry(autoload=True)
    monkeypatch.setattr(canasta.registry, "_DEFAULT", registry)
    canasta.register_plugin(discovery(Variant("short", "x", plugins=(TARGET,), base="classic")), origin="my notebook")
    assert canasta.get_variant("short").origin == "my notebook"
    assert "short" in [v.name for v in canasta.available_variants()]
    assert canasta.load_rules("short").target_score == 1000


# --- unique names --------------------------------------------------------------------------


def test_a_name_clash_names_both_sources() -> None:
    registry = Registry(autoload=True)
    with pytest.raises(PluginError) as clash:
        registry.register_plugin(discovery(Variant("classic", "Mine.", plugins=(TARGET,)), name="mine"))
    assert str(clash.value) == (
        "variant name 'classic' is provided twice: by canasta (entry point classic = canasta_classic) "
        "and by mine (registered in code)"
    )


def test_a_clash_registers_nothing_of_that_plugin() -> None:
    registry = Registry(autoload=False)
    registry.add_variant(Variant("taken", "First.", plugins=(), origin="first"))
    plugin = discovery(Variant("fresh", "New.", plugins=()), Variant("taken", "Again.", plugins=()), name="second")
    with pytest.raises(PluginError, match="'taken' is provided twice: by first and by second"):
        registry.register_plugin(plugin)
    assert [v.name for v in registry.variants()] == ["taken"]


def test_a_clash_inside_one_plugin_is_refused() -> None:
    registry = Registry(autoload=False)
    plugin = discovery(house_rules=(HouseRule("x", "a", plugins=()), HouseRule("x", "b", plugins=())))
    with pytest.raises(PluginError, match="house rule name 'x' is provided twice"):
        registry.register_plugin(plugin)
    assert registry.house_rules() == []


@pytest.mark.filterwarnings("ignore::canasta.registry.PluginLoadWarning")
def test_a_third_party_reusing_a_built_in_name_is_the_one_refused(fake_dist: FakeDist) -> None:
    fake_dist("canasta-fake", {"fake": "canasta_fake"}, {"canasta_fake": GOOD_PLUGIN.format(name="classic")})
    registry = Registry()
    assert registry.variant("classic").origin == "canasta (entry point classic = canasta_classic)"
    assert registry.failures == [
        PluginFailure(
            "canasta-fake (entry point fake = canasta_fake)",
            "variant name 'classic' is provided twice: by canasta (entry point classic = canasta_classic) "
            "and by canasta-fake (entry point fake = canasta_fake)",
        )
    ]
    assert canasta.load_rules("classic", registry=registry).going_out.canastas_required == 1


# --- broken plugins ------------------------------------------------------------------------


def test_an_import_error_is_recorded_and_the_others_still_work(fake_dist: FakeDist) -> None:
    fake_dist("canasta-broken", {"broken": "canasta_broken"}, {"canasta_broken": "import not_a_module_anywhere\n"})
    fake_dist("canasta-strict", {"strict": "canasta_strict"}, {"canasta_strict": GOOD_PLUGIN.format(name="strict")})
    registry = Registry()
    warned = r"canasta plugin canasta-broken \(entry point .*\) was not loaded: import failed"
    with pytest.warns(PluginLoadWarning, match=warned):
        assert canasta.load_rules("strict", registry=registry).going_out.canastas_required == 2
    assert canasta.Game("classic", registry=registry).rules.variant == "classic"
    [failure] = registry.failures
    origin, message = failure  # a (origin, message) pair
    assert origin == "canasta-broken (entry point broken = canasta_broken)"
    assert message == "import failed: ModuleNotFoundError: No module named 'not_a_module_anywhere'"
    with pytest.raises(UnknownNameError) as unknown:
        registry.variant("broken")
    assert "plugins that failed to load (see Registry.failures): canasta-broken (entry point broken" in str(
        unknown.value
    )
    assert "No module named 'not_a_module_anywhere'" in str(unknown.value)


@pytest.mark.filterwarnings("ignore::canasta.registry.PluginLoadWarning")
def test_a_discovery_hook_that_raises_names_the_plugin_and_the_hook(fake_dist: FakeDist) -> None:
    source = """
        import canasta

        @canasta.hookimpl
        def canasta_variants():
            raise RuntimeError("boom")
    """
    fake_dist("canasta-raises", {"raises": "canasta_raises"}, {"canasta_raises": source})
    registry = Registry()
    assert registry.variant("classic").name == "classic"
    assert registry.failures == [
        PluginFailure(
            "canasta-raises (entry point raises = canasta_raises)",
            "plugin canasta-raises (entry point raises = canasta_raises): hook canasta_variants raised "
            "RuntimeError: boom",
        )
    ]


@pytest.mark.filterwarnings("ignore::canasta.registry.PluginLoadWarning")
def test_a_discovery_hook_returning_the_wrong_thing_names_the_hook(fake_dist: FakeDist) -> None:
    source = """
        import canasta

        @canasta.hookimpl
        def canasta_house_rules():
            return ["not a house rule"]
    """
    fake_dist("canasta-wrong", {"wrong": "canasta_wrong"}, {"canasta_wrong": source})
    registry = Registry()
    registry.variants()
    [(origin, message)] = registry.failures
    assert message == (
        f"plugin {origin}: hook canasta_house_rules returned 'not a house rule', expected canasta.HouseRule"
    )


@pytest.mark.filterwarnings("ignore::canasta.registry.PluginLoadWarning")
def test_a_misspelled_discovery_hook_is_refused(fake_dist: FakeDist) -> None:
    source = """
        import canasta

        @canasta.hookimpl
        def canasta_variant():
            return []
    """
    fake_dist("canasta-typo", {"typo": "canasta_typo"}, {"canasta_typo": source})
    registry = Registry()
    registry.variants()
    [(origin, message)] = registry.failures
    assert message == (
        f"plugin {origin}: hook 'canasta_variant' is not a canasta hook (did you mean 'canasta_variants'?)"
    )


def test_an_unknown_base_is_refused_at_registration() -> None:
    registry = Registry(autoload=False)
    with pytest.raises(PluginError) as raised:
        registry.add_variant(Variant("child", "x", plugins=(), base="nowhere", origin="here"))
    assert str(raised.value) == "variant 'child' from here: its base 'nowhere' is not a registered variant; known: none"
    assert registry.variants() == []


def test_a_base_named_later_in_the_same_plugin_is_found() -> None:
    registry = Registry(autoload=False)
    registry.register_plugin(
        discovery(Variant("child", "x", plugins=(TARGET,), base="parent"), Variant("parent", "x", plugins=()))
    )
    assert [v.name for v in registry.variant_chain("child")] == ["parent", "child"]


def test_a_base_cycle_is_refused_at_registration() -> None:
    registry = Registry(autoload=False)
    plugin = discovery(Variant("a", "x", plugins=(), base="b"), Variant("b", "x", plugins=(), base="a"), name="loop")
    with pytest.raises(PluginError) as raised:
        registry.register_plugin(plugin)
    assert str(raised.value) == "variant 'a' from loop (registered in code): its base chain has a cycle: a -> b -> a"
    with pytest.raises(PluginError, match="variant 'self' from me: its base chain has a cycle: self -> self"):
        registry.add_variant(Variant("self", "x", plugins=(), base="self", origin="me"))
    assert registry.variants() == []


def test_a_chain_broken_behind_the_registrys_back_still_fails_when_a_game_starts() -> None:
    # Registration refuses both; variant_chain keeps its own checks for a table edited directly.
    registry = Registry(autoload=False)
    registry._variants = {"a": Variant("a", "x", plugins=(), base="b"), "b": Variant("b", "x", plugins=(), base="a")}
    with pytest.raises(PluginError, match="variant 'a' has a cycle in its base chain"):
        registry.variant_chain("a")
    registry._variants = {"child": Variant("child", "x", plugins=(), base="nowhere", origin="here")}
    with pytest.raises(UnknownNameError, match=r"unknown variant 'nowhere'.*base of variant 'child' from here"):
        canasta.load_rules("child", registry=registry)


def test_house_rule_stacking_errors() -> None:
    registry = Registry(autoload=True)
    registry.add_house_rule(HouseRule("for-cuban", "x", plugins=(), applies_to=frozenset({"cuban"})))
    fit = "house rule 'for-cuban' does not fit variant 'classic'; it applies to: cuban"
    with pytest.raises(PluginError, match=fit):
        canasta.load_rules("classic", ["for-cuban"], registry=registry)
    with pytest.raises(PluginError, match="a house rule is given twice"):
        canasta.load_rules("cuban", ["for-cuban", "for-cuban"], registry=registry)
    with pytest.raises(UnknownNameError, match="unknown house rule 'nope'"):
        canasta.load_rules("classic", ["nope"], registry=registry)


def test_invalid_descriptors_are_refused() -> None:
    registry = Registry(autoload=False)
    with pytest.raises(PluginError, match="variant name '' must be a non-empty string"):
        registry.add_variant(Variant("", "x", plugins=()))
    with pytest.raises(PluginError, match="house rule 'h': applies_to must be a frozenset of names or None"):
        registry.add_house_rule(HouseRule("h", "x", plugins=(), applies_to={"classic"}))  # type: ignore[arg-type]
    with pytest.raises(PluginError, match=r"is not a canasta\.Variant or canasta\.HouseRule"):
        registry.add_variant("classic")  # type: ignore[arg-type]
    assert registry.variants() == [] and registry.house_rules() == []
