"""Plugins that fail: at import, in a discovery hook, in a rule hook, in a wrapper, in their base chain.

A plugin's failure is contained: `SystemExit` and any `Exception` become a
recorded failure (at load) or a `PluginError` (when a game's rules are
compiled) naming the plugin; only `KeyboardInterrupt` still interrupts.
Installed plugins are fake distributions on ``sys.path``, as in
``test_registry.py``.
"""

from __future__ import annotations

import io
import types
from collections.abc import Generator

import attrs
import pytest
from fake_plugins import FakeDist, module

import canasta
from canasta import GoingOutRules, HouseRule, PluginError, Registry, RulesError, Variant
from canasta.cli import main
from canasta.registry import PluginFailure, PluginLoadWarning

DISCOVERY = """
import canasta

class rules:
    @staticmethod
    @canasta.hookimpl
    def canasta_target_score():
        return 1000

@canasta.hookimpl
def canasta_variants():
    return [canasta.Variant("{name}", "x", plugins=(rules,), base="{base}")]
"""


def with_variant(*plugins: object, house_rules: tuple[HouseRule, ...] = ()) -> Registry:
    registry = Registry(autoload="builtin")
    registry.add_variant(Variant("mine", "x", plugins=plugins, base="classic", origin="a test"))
    for rule in house_rules:
        registry.add_house_rule(rule)
    return registry


# --- at import ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("raise SystemExit(3)", "import failed: SystemExit: 3"),
        ("raise SystemExit('bye')", "import failed: SystemExit: bye"),
        ("import sys; sys.exit()", "import failed: SystemExit: "),
        ("raise RuntimeError('no config')", "import failed: RuntimeError: no config"),
        ("1 / 0", "import failed: ZeroDivisionError: division by zero"),
    ],
)
def test_a_plugin_failing_at_import_is_recorded(fake_dist: FakeDist, statement: str, message: str) -> None:
    fake_dist("canasta-exits", {"exits": "canasta_exits"}, {"canasta_exits": statement + "\n"})
    registry = Registry()
    with pytest.warns(PluginLoadWarning, match=r"canasta plugin canasta-exits \(entry point exits = canasta_exits\)"):
        names = [v.name for v in registry.variants()]
    assert "classic" in names
    assert registry.failures == [PluginFailure("canasta-exits (entry point exits = canasta_exits)", message)]
    assert canasta.Game("classic", registry=registry).rules.variant == "classic"


@pytest.mark.filterwarnings("ignore::canasta.registry.PluginLoadWarning")
def test_available_variants_and_the_cli_survive_a_plugin_that_exits(
    fake_dist: FakeDist, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_dist("canasta-exits", {"exits": "canasta_exits"}, {"canasta_exits": "raise SystemExit(1)\n"})
    monkeypatch.setattr(canasta.registry, "_DEFAULT", Registry())
    assert "classic" in [v.name for v in canasta.available_variants()]
    out = io.StringIO()
    assert main(["variants"], stdout=out) == 0
    assert "Plugins that failed to load" in out.getvalue()
    assert "SystemExit" in out.getvalue()
    assert main(["rules", "classic"], stdout=io.StringIO()) == 0


def test_keyboard_interrupt_at_import_still_interrupts_and_nothing_is_half_loaded(fake_dist: FakeDist) -> None:
    fake_dist("canasta-ctrlc", {"ctrlc": "canasta_ctrlc"}, {"canasta_ctrlc": "raise KeyboardInterrupt\n"})
    registry = Registry()
    with pytest.raises(KeyboardInterrupt):
        registry.variants()
    # Not marked loaded, so the next lookup loads again (here: interrupted again), never a partial table.
    assert registry.failures == []
    with pytest.raises(KeyboardInterrupt):
        registry.variant("classic")


@pytest.mark.filterwarnings("ignore::canasta.registry.PluginLoadWarning")
def test_a_discovery_hook_that_exits_is_recorded_naming_the_hook(fake_dist: FakeDist) -> None:
    source = """
        import canasta

        @canasta.hookimpl
        def canasta_house_rules():
            raise SystemExit("stop")
    """
    fake_dist("canasta-stop", {"stop": "canasta_stop"}, {"canasta_stop": source})
    registry = Registry()
    assert registry.variant("classic").name == "classic"
    [(origin, message)] = registry.failures
    assert message == f"plugin {origin}: hook canasta_house_rules raised SystemExit: stop"


def test_register_plugin_turns_an_exiting_discovery_hook_into_a_plugin_error() -> None:
    @canasta.hookimpl
    def canasta_variants() -> list[Variant]:
        raise SystemExit(2)

    registry = Registry(autoload=False)
    with pytest.raises(
        PluginError, match=r"plugin quitter \(registered in code\): hook canasta_variants raised SystemExit: 2"
    ):
        registry.register_plugin(module("quitter", canasta_variants=canasta_variants))


# --- rule hooks, when a game's rules are compiled ------------------------------------------------


def test_a_rule_hook_that_exits_is_a_plugin_error_naming_plugin_and_hook() -> None:
    @canasta.hookimpl
    def canasta_target_score() -> int:
        raise SystemExit(0)

    registry = with_variant(module("my_rules", canasta_target_score=canasta_target_score))
    with pytest.raises(PluginError) as raised:
        canasta.Game("mine", registry=registry)
    assert str(raised.value) == "hook canasta_target_score of plugin 'my_rules (variant mine)' raised SystemExit: 0"


def test_a_wrapper_that_exits_is_a_plugin_error_naming_it() -> None:
    @canasta.hookimpl(wrapper=True)
    def canasta_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
        yield
        raise SystemExit("no")

    registry = with_variant(module("my_wrapper", canasta_going_out=canasta_going_out))
    with pytest.raises(
        PluginError, match=r"hook canasta_going_out of plugin 'my_wrapper \(variant mine\)' raised SystemExit"
    ):
        canasta.load_rules("mine", registry=registry)


def test_a_rule_hook_raising_keyboard_interrupt_still_interrupts() -> None:
    @canasta.hookimpl
    def canasta_target_score() -> int:
        raise KeyboardInterrupt

    registry = with_variant(module("my_rules", canasta_target_score=canasta_target_score))
    with pytest.raises(KeyboardInterrupt):
        canasta.Game("mine", registry=registry)


def test_an_exiting_hook_is_contained_when_the_error_message_asks_it_again() -> None:
    # A bad answer makes the error message ask the plain hooks again to name the one that answered;
    # a hook that exits then must not escape either.
    calls = []

    @canasta.hookimpl
    def canasta_hand_size(players: int) -> int:
        calls.append(players)
        if len(calls) > 1:
            raise SystemExit(9)
        return -1

    registry = with_variant(module("my_rules", canasta_hand_size=canasta_hand_size))
    with pytest.raises(RulesError, match="canasta_hand_size: hand size must be positive"):
        canasta.load_rules("mine", registry=registry)


def test_a_plugin_whose_attribute_listing_exits_is_refused() -> None:
    class Odd:
        def __dir__(self) -> list[str]:
            raise SystemExit("dir")

    with pytest.raises(PluginError, match=r"plugin Odd \(variant 'x'\): listing its attributes raised SystemExit: dir"):
        Registry(autoload=False).add_variant(Variant("x", "x", plugins=(Odd(),)))


def test_a_property_that_exits_is_not_a_hook() -> None:
    class Rules:
        @property
        def canasta_target(self) -> int:
            raise SystemExit("prop")

        @staticmethod
        @canasta.hookimpl
        def canasta_target_score() -> int:
            return 1000

    registry = with_variant(Rules())
    assert canasta.load_rules("mine", registry=registry).target_score == 1000


# --- a wrapper that forgets to return ---------------------------------------------------------


@canasta.hookimpl(wrapper=True)
def _forgetful(players: int) -> Generator[None, int, None]:
    yield  # the answer is dropped: no `return`


@canasta.hookimpl(wrapper=True)
def _forgetful_going_out() -> Generator[None, GoingOutRules, None]:
    attrs.evolve((yield), canastas_required=2)  # computed, then not returned


@canasta.hookimpl(wrapper=True)
def _passing_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
    return (yield)


def test_a_house_rule_wrapper_that_returns_nothing_is_named() -> None:
    rule = HouseRule(
        "two-to-go", "Two canastas.", plugins=(module("forgetful", canasta_going_out=_forgetful_going_out),)
    )
    registry = with_variant(house_rules=(rule,))
    with pytest.raises(RulesError) as raised:
        canasta.Game("classic", ["two-to-go"], registry=registry)
    assert str(raised.value) == (
        "hook canasta_going_out of plugin 'forgetful (house rule two-to-go)' is a wrapper that returned None "
        "instead of the answer; a wrapper must return it, e.g. `return attrs.evolve((yield), ...)`"
    )


def test_the_wrapper_at_fault_is_named_among_several() -> None:
    # Inner (registered first) forgets; outer passes the answer on: the inner one is named.
    forgets = HouseRule("forgets", "x", plugins=(module("inner", canasta_going_out=_forgetful_going_out),))
    passes = HouseRule("passes", "x", plugins=(module("outer", canasta_going_out=_passing_going_out),))
    registry = with_variant(house_rules=(forgets, passes))
    with pytest.raises(RulesError, match=r"plugin 'inner \(house rule forgets\)' is a wrapper that returned None"):
        canasta.load_rules("classic", ["forgets", "passes"], registry=registry)
    with pytest.raises(RulesError, match=r"plugin 'inner \(house rule forgets\)' is a wrapper that returned None"):
        canasta.load_rules("classic", ["passes", "forgets"], registry=registry)
    assert canasta.load_rules("classic", ["passes"], registry=registry).going_out.canastas_required == 1


def test_a_variant_wrapper_with_arguments_that_returns_nothing_is_named() -> None:
    registry = with_variant(module("my_rules", canasta_hand_size=_forgetful))
    with pytest.raises(RulesError, match=r"hook canasta_hand_size of plugin 'my_rules \(variant mine\)' is a wrapper"):
        canasta.load_rules("mine", registry=registry)


def test_nobody_answering_is_still_reported_as_such() -> None:
    registry = Registry(autoload=False)
    registry.add_variant(Variant("bare", "x", plugins=(module("wraps", canasta_hand_size=_forgetful),)))
    # No plugin answers canasta_players at all: that, not the wrapper, is the problem.
    with pytest.raises(RulesError, match="no plugin answers canasta_players; the variant must state it"):
        canasta.load_rules("bare", registry=registry)


# --- base chains, at registration ---------------------------------------------------------------


def test_an_unknown_base_fails_at_registration_not_when_a_game_starts() -> None:
    registry = Registry(autoload="builtin")
    with pytest.raises(PluginError) as raised:
        registry.register_plugin(
            module("typo", canasta_variants=canasta.hookimpl(lambda: [Variant("mine", "x", plugins=(), base="clasic")]))
        )
    assert str(raised.value).startswith(
        "variant 'mine' from typo (registered in code): its base 'clasic' is not a registered variant; known: bolivia, "
        "brazilian, classic"
    )
    assert "mine" not in [v.name for v in registry.variants()]


def test_an_unknown_base_deep_in_the_chain_names_the_link() -> None:
    registry = Registry(autoload=False)
    plugin = module(
        "chain",
        canasta_variants=canasta.hookimpl(
            lambda: [Variant("c", "x", plugins=(), base="b"), Variant("b", "x", plugins=(), base="gone")]
        ),
    )
    with pytest.raises(PluginError, match=r"variant 'c' from chain .*: its base 'gone' \(the base of 'b'\) is not"):
        registry.register_plugin(plugin)
    assert registry.variants() == []


def test_installed_plugins_may_name_a_base_that_a_later_one_provides(fake_dist: FakeDist) -> None:
    # Distributions load in name order: "canasta-aaa" comes before the "canasta-zzz" it builds on.
    fake_dist("canasta-aaa", {"child": "canasta_aaa"}, {"canasta_aaa": DISCOVERY.format(name="child", base="parent")})
    fake_dist(
        "canasta-zzz", {"parent": "canasta_zzz"}, {"canasta_zzz": DISCOVERY.format(name="parent", base="classic")}
    )
    registry = Registry()
    assert [v.name for v in registry.variant_chain("child")] == ["classic", "parent", "child"]
    assert registry.failures == []


def test_an_installed_plugin_with_a_broken_base_is_recorded_with_its_dependants(fake_dist: FakeDist) -> None:
    fake_dist("canasta-lost", {"lost": "canasta_lost"}, {"canasta_lost": DISCOVERY.format(name="lost", base="nowhere")})
    fake_dist(
        "canasta-on-lost",
        {"onlost": "canasta_on_lost"},
        {"canasta_on_lost": DISCOVERY.format(name="on-lost", base="lost")},
    )
    fake_dist("canasta-fine", {"fine": "canasta_fine"}, {"canasta_fine": DISCOVERY.format(name="fine", base="classic")})
    registry = Registry()
    with pytest.warns(PluginLoadWarning) as warned:
        names = [v.name for v in registry.variants()]
    assert len(warned) == 2 and "its base 'nowhere' is not a registered variant" in str(warned[0].message)
    assert "fine" in names and "lost" not in names and "on-lost" not in names
    failures = dict(registry.failures)
    assert failures["canasta-lost (entry point lost = canasta_lost)"].startswith(
        "variant 'lost' from canasta-lost (entry point lost = canasta_lost): its base 'nowhere' is not a registered"
    )
    assert (
        "its base 'lost' is not a registered variant"
        in failures["canasta-on-lost (entry point onlost = canasta_on_lost)"]
    )


@pytest.mark.filterwarnings("ignore::canasta.registry.PluginLoadWarning")
def test_installed_plugins_with_a_base_cycle_are_recorded(fake_dist: FakeDist) -> None:
    fake_dist("canasta-ping", {"ping": "canasta_ping"}, {"canasta_ping": DISCOVERY.format(name="ping", base="pong")})
    fake_dist("canasta-pong", {"pong": "canasta_pong"}, {"canasta_pong": DISCOVERY.format(name="pong", base="ping")})
    registry = Registry()
    assert registry.variant("classic").name == "classic"
    failures = dict(registry.failures)
    assert set(failures) == {
        "canasta-ping (entry point ping = canasta_ping)",
        "canasta-pong (entry point pong = canasta_pong)",
    }
    assert (
        "its base chain has a cycle: ping -> pong -> ping" in failures["canasta-ping (entry point ping = canasta_ping)"]
    )


def test_a_forgetful_wrapper_on_an_unhashable_plugin_object_is_named() -> None:
    plugin = types.SimpleNamespace(canasta_going_out=_forgetful_going_out)  # defines __eq__, so unhashable
    registry = with_variant(house_rules=(HouseRule("ns", "x", plugins=(plugin,)),))
    with pytest.raises(RulesError, match=r"plugin 'SimpleNamespace \(house rule ns\)' is a wrapper that returned None"):
        canasta.load_rules("classic", ["ns"], registry=registry)
