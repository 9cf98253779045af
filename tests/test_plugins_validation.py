"""Validation: hook names and signatures at registration, hook answers at compilation.

Every test checks the exact sentence a plugin author sees.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Generator
from typing import Any

import attrs
import pytest

import canasta
from canasta import DeckSpec, MeldMinimums, MeldRules, PluginError, Registry, RulesError, Variant


def module(name: str, **hooks: Callable[..., Any]) -> types.ModuleType:
    plugin = types.ModuleType(name)
    plugin.__dict__.update(hooks)
    return plugin


def registry_with(*plugins: object, name: str = "mine") -> Registry:
    registry = Registry(autoload="builtin")
    registry.add_variant(Variant(name, "A test variant.", plugins=plugins, base="classic", origin="a test"))
    return registry


def compile_error(*plugins: object, error: type[Exception] = RulesError) -> str:
    registry = registry_with(*plugins)
    with pytest.raises(error) as raised:
        canasta.load_rules("mine", registry=registry)
    return str(raised.value)


# --- registration ----------------------------------------------------------------------------


def test_a_misspelled_hook_fails_when_the_variant_is_registered() -> None:
    @canasta.hookimpl
    def canasta_going_uot() -> None:
        return None

    registry = Registry(autoload="builtin")
    with pytest.raises(PluginError) as raised:
        registry.add_variant(Variant("mine", "x", plugins=(module("my_rules", canasta_going_uot=canasta_going_uot),)))
    assert str(raised.value) == (
        "plugin my_rules (variant 'mine'): hook 'canasta_going_uot' is not a canasta hook "
        "(did you mean 'canasta_going_out'?)"
    )
    assert "mine" not in [v.name for v in registry.variants()]


def test_an_argument_the_hook_does_not_have_is_refused() -> None:
    @canasta.hookimpl
    def canasta_hand_size(players: int, seats: int) -> int:
        return 11

    with pytest.raises(PluginError) as raised:
        registry_with(module("my_rules", canasta_hand_size=canasta_hand_size))
    assert str(raised.value) == (
        "plugin my_rules (variant 'mine' from a test): hook canasta_hand_size takes an argument 'seats' "
        "that the hook does not have (its arguments: players)"
    )


def test_an_argument_with_a_default_is_refused() -> None:
    @canasta.hookimpl
    def canasta_hand_size(players: int = 4) -> int:
        return 11

    with pytest.raises(PluginError, match=r"hook canasta_hand_size gives argument 'players' a default value"):
        registry_with(module("my_rules", canasta_hand_size=canasta_hand_size))


def test_a_hook_without_the_marker_is_refused() -> None:
    def canasta_target_score() -> int:
        return 100

    with pytest.raises(PluginError) as raised:
        registry_with(module("my_rules", canasta_target_score=canasta_target_score))
    assert str(raised.value) == (
        "plugin my_rules (variant 'mine' from a test): canasta_target_score looks like a hook but is not "
        "marked with @canasta.hookimpl, so it would be ignored"
    )


def test_a_plain_function_with_another_name_is_fine() -> None:
    def helper() -> int:
        return 1

    @canasta.hookimpl
    def canasta_target_score() -> int:
        return 100 * helper()

    registry = registry_with(module("my_rules", helper=helper, canasta_target_score=canasta_target_score))
    assert canasta.load_rules("mine", registry=registry).target_score == 100


def test_make_plugin_manager_checks_a_stack_too() -> None:
    @canasta.hookimpl
    def canasta_sidez(players: int) -> tuple[int, ...]:
        return (0, 1)

    with pytest.raises(PluginError, match=r"plugin extra: hook 'canasta_sidez' is not a canasta hook \(did you mean"):
        canasta.make_plugin_manager([("extra", module("x", canasta_sidez=canasta_sidez))])


# --- compilation: exceptions -----------------------------------------------------------------


def test_an_exception_in_a_rule_hook_names_the_plugin_and_the_hook() -> None:
    @canasta.hookimpl
    def canasta_hand_size(players: int) -> int:
        raise ZeroDivisionError("division by zero")

    message = compile_error(module("my_rules", canasta_hand_size=canasta_hand_size), error=PluginError)
    assert message == (
        "hook canasta_hand_size of plugin 'my_rules (variant mine)' raised ZeroDivisionError: division by zero"
    )


def test_a_broken_variant_does_not_stop_the_others() -> None:
    @canasta.hookimpl
    def canasta_players() -> int:
        raise RuntimeError("nope")

    registry = registry_with(module("my_rules", canasta_players=canasta_players))
    with pytest.raises(PluginError, match="hook canasta_players of plugin 'my_rules \\(variant mine\\)' raised"):
        canasta.Game("mine", registry=registry)
    assert canasta.Game("classic", registry=registry, seed=1).rules.variant == "classic"


# --- compilation: answers ----------------------------------------------------------------------


def answer(hook: str, value: object, players: bool = False) -> types.ModuleType:
    if players:

        def function(players: int) -> object:
            return value

    else:

        def function() -> object:  # type: ignore[misc]
            return value

    function.__name__ = hook
    return module("my_rules", **{hook: canasta.hookimpl(function)})


@pytest.mark.parametrize(
    ("hook", "value", "players", "expected"),
    [
        ("canasta_hand_size", -1, True, "canasta_hand_size: hand size must be positive, got -1"),
        (
            "canasta_hand_size",
            30,
            True,
            "canasta_hand_size: dealing 30 cards to 4 players needs more than the 108 cards",
        ),
        (
            "canasta_deck",
            DeckSpec(packs=0, jokers=4),
            True,
            "canasta_deck: invalid deck DeckSpec(packs=0, jokers=4) (1 to 15 packs, 0 to 63 jokers)",
        ),
        (
            "canasta_deck",
            DeckSpec(packs=16, jokers=4),
            True,
            "canasta_deck: invalid deck DeckSpec(packs=16, jokers=4) (1 to 15 packs, 0 to 63 jokers)",
        ),
        (
            "canasta_deck",
            DeckSpec(packs=2, jokers=64),
            True,
            "canasta_deck: invalid deck DeckSpec(packs=2, jokers=64) (1 to 15 packs, 0 to 63 jokers)",
        ),
        (
            "canasta_meld_minimums",
            MeldMinimums(below_zero=15, steps=((0, 50), (3000, 120), (1500, 90))),
            False,
            "canasta_meld_minimums: steps must start at 0 and increase, got ((0, 50), (3000, 120), (1500, 90))",
        ),
        (
            "canasta_meld_minimums",
            MeldMinimums(below_zero=15, steps=((0, 90), (1500, 50))),
            False,
            "canasta_meld_minimums: minimums must not fall as the score rises, got ((0, 90), (1500, 50))",
        ),
        ("canasta_players", 9, False, "canasta_players: 9 players is not supported (2 to 8)"),
        ("canasta_sides", (0, 0, 0, 0), True, "canasta_sides: at least two sides are needed"),
        ("canasta_sides", (0, 1, 0), True, "canasta_sides: 3 seats given for 4 players"),
        (
            "canasta_sides",
            (0, 2, 0, 2),
            True,
            "canasta_sides: sides must be numbered 0..n-1 with every side seated, got (0, 2, 0, 2)",
        ),
        ("canasta_draw_count", 0, False, "canasta_draw_count: must be 1 to 5, got 0"),
        ("canasta_target_score", 0, False, "canasta_target_score: must be positive, got 0"),
        (
            "canasta_card_values",
            (5,) * 14,
            False,
            "canasta_card_values: 15 non-negative integers (one per Kind) expected",
        ),
        (
            "canasta_meld_rules",
            MeldRules(min_size=3, canasta_size=2),
            False,
            "canasta_meld_rules: need min_naturals <= min_size <= canasta_size, got 2, 3, 2",
        ),
        (
            "canasta_incomplete_meld_penalties",
            ((canasta.Kind.JOKER, -1000),),
            False,
            "canasta_incomplete_meld_penalties: (Kind, non-negative int) pairs expected",
        ),
        (
            "canasta_canasta_bonuses",
            canasta.CanastaBonuses(natural=-500),
            False,
            "canasta_canasta_bonuses: bonuses must not be negative",
        ),
        ("canasta_going_out", canasta.GoingOutRules(bonus=-100), False, "canasta_going_out: bonuses must not be"),
    ],
)
def test_invalid_answers_are_refused_naming_hook_and_plugin(
    hook: str, value: object, players: bool, expected: str
) -> None:
    message = compile_error(answer(hook, value, players))
    assert message.startswith(expected)
    assert message.endswith("(answer from plugin 'my_rules (variant mine)')")


@pytest.mark.parametrize(
    ("hook", "value", "players", "expected"),
    [
        ("canasta_hand_size", "11", True, "hook canasta_hand_size returned '11' (str), expected int"),
        ("canasta_players", True, False, "hook canasta_players returned True (bool), expected int"),
        ("canasta_sides", [0, 1, 0, 1], True, "hook canasta_sides returned [0, 1, 0, 1] (list), expected a tuple"),
        ("canasta_upcard", "none", False, "hook canasta_upcard returned 'none' (str), expected Upcard"),
        (
            "canasta_meld_rules",
            MeldRules(max_wilds="3"),  # type: ignore[arg-type]
            False,
            "hook canasta_meld_rules returned MeldRules whose max_wilds is '3' (str), expected int | None",
        ),
        (
            "canasta_pile_rules",
            canasta.PileRules(blocked_top={canasta.Kind.TWO}),  # type: ignore[arg-type]
            False,
            "hook canasta_pile_rules returned PileRules whose blocked_top is {<Kind.TWO: 1>} (set), "
            "expected a frozenset",
        ),
        (
            "canasta_going_out",
            canasta.GoingOutRules(concealed_bonus="200"),  # type: ignore[arg-type]
            False,
            "hook canasta_going_out returned GoingOutRules whose concealed_bonus is '200' (str), expected int | None",
        ),
        (
            "canasta_threes",
            canasta.ThreeRules(sign="negative"),  # type: ignore[arg-type]
            False,
            "hook canasta_threes returned ThreeRules whose sign is 'negative' (str), expected ThreeSign",
        ),
    ],
)
def test_answers_of_the_wrong_type_are_refused(hook: str, value: object, players: bool, expected: str) -> None:
    message = compile_error(answer(hook, value, players))
    assert message == f"{expected} (answer from plugin 'my_rules (variant mine)')"


def test_a_wrapper_that_breaks_an_answer_is_named() -> None:
    @canasta.hookimpl(wrapper=True)
    def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
        rules = yield
        return attrs.evolve(rules, canasta_size=2)

    message = compile_error(module("my_wrapper", canasta_meld_rules=canasta_meld_rules))
    assert message == (
        "canasta_meld_rules: need min_naturals <= min_size <= canasta_size, got 2, 3, 2 (answer from plugin "
        "'canasta.defaults', changed by wrapper(s) in 'my_wrapper (variant mine)')"
    )


def test_a_variant_must_state_what_the_core_does_not_default() -> None:
    registry = Registry(autoload=False)
    registry.add_variant(Variant("bare", "Nothing stated.", plugins=()))
    with pytest.raises(RulesError, match=r"^no plugin answers canasta_players; the variant must state it$"):
        canasta.load_rules("bare", registry=registry)


def test_compile_rules_returns_rules() -> None:
    pm = canasta.make_plugin_manager(canasta.default_registry().plugin_stack("classic"))
    rules = canasta.compile_rules(pm, "classic")
    assert isinstance(rules, canasta.Rules) and rules == canasta.load_rules("classic")
