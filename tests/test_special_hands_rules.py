"""The house rules american-special-hands and its pagat form: where they fit, what the rules list."""

from __future__ import annotations

import pickle

import attrs
import pytest
from canasta_house_rules.special_hands import CLA_HANDS, PAGAT_HANDS

import canasta
from canasta import PluginError, RulesError, SpecialHand


def test_each_form_lists_its_table_in_the_rules() -> None:
    club = canasta.load_rules("modern-american", ["american-special-hands"])
    pagat = canasta.load_rules("modern-american", ["american-special-hands-pagat"])
    assert club.special_hands == CLA_HANDS and len(club.special_hands) == 11
    assert pagat.special_hands == PAGAT_HANDS
    assert [(h.id, h.value) for h in pagat.special_hands] == [
        ("straight", 3000),
        ("pairs", 2500),
        ("pairs_twos", 2000),
        ("garbage", 2000),
    ]
    assert canasta.load_rules("modern-american").special_hands == ()
    assert attrs.fields(canasta.Rules).special_hands.default == ()


@pytest.mark.parametrize("name", ["american-special-hands", "american-special-hands-pagat"])
@pytest.mark.parametrize("variant", ["classic", "cuban", "two-player", "three-player", "six-player"])
def test_fits_modern_american_only(name: str, variant: str) -> None:
    assert canasta.default_registry().fits(name, "modern-american")
    with pytest.raises(PluginError, match="does not fit variant"):
        canasta.load_rules(variant, [name])


@pytest.mark.parametrize(
    "stack",
    [
        ["american-special-hands", "american-special-hands-pagat"],
        ["american-special-hands-pagat", "american-special-hands"],
    ],
)
def test_the_two_forms_exclude_each_other(stack: list[str]) -> None:
    with pytest.raises(PluginError, match="exclude each other"):
        canasta.load_rules("modern-american", stack)


def test_a_conflict_named_by_one_side_only_is_enough() -> None:
    registry = canasta.Registry(autoload="builtin")
    registry.add_house_rule(canasta.HouseRule("one", "x", plugins=(), conflicts=frozenset({"other"})))
    registry.add_house_rule(canasta.HouseRule("other", "y", plugins=()))
    with pytest.raises(PluginError, match="'other' and 'one' exclude each other"):
        registry.plugin_stack("classic", ["other", "one"])
    assert registry.plugin_stack("classic", ["one"])
    with pytest.raises(PluginError, match="conflicts must be a frozenset"):
        registry.add_house_rule(canasta.HouseRule("bad", "z", plugins=(), conflicts={"one"}))  # type: ignore[arg-type]


def test_the_club_rules_going_out_comes_along() -> None:
    rules = canasta.load_rules("modern-american", ["american-special-hands"])
    assert {canasta.Kind.ACE, canasta.Kind.SEVEN, canasta.Kind.JOKER} <= rules.going_out.not_with_incomplete
    assert not canasta.load_rules("modern-american").going_out.not_with_incomplete


def test_compiled_rules_pickle_with_their_tests() -> None:
    rules = canasta.load_rules("modern-american", ["american-special-hands"])
    again = pickle.loads(pickle.dumps(rules))
    assert again.special_hands == rules.special_hands
    straight = next(h for h in again.special_hands if h.id == "straight")
    counts = [1] * len(canasta.Kind)
    counts[canasta.Kind.BLACK_THREE] = 0
    assert sum(counts) == 14 and straight.matches(counts)


def test_the_summary_lists_the_hands() -> None:
    text = canasta.format_rules_summary(canasta.load_rules("modern-american", ["american-special-hands"]))
    assert "Dream Hand +4 8500 (wins the game)" in text and "Wild Pairs 2000" in text
    rows = canasta.rules_summary(canasta.load_rules("modern-american"))
    assert ("Special hands", "special hands a side may declare", "none") in rows


def _plugin_answering(hands: object) -> object:
    class Plugin:
        @canasta.hookimpl
        def canasta_special_hands(self) -> object:
            return hands

    return Plugin()


@pytest.mark.parametrize(
    "hands",
    [
        (CLA_HANDS[0], CLA_HANDS[0]),  # an id twice
        (attrs.evolve(CLA_HANDS[0], value=0),),  # no value
        (("pairs", 2500),),  # not a SpecialHand
        (SpecialHand("x", "X", 100, "c", matches=None),),  # type: ignore[arg-type]  # no test
    ],
)
def test_bad_tables_are_refused_at_compilation(hands: object) -> None:
    registry = canasta.Registry(autoload="builtin")
    registry.add_house_rule(canasta.HouseRule("bad-hands", "x", plugins=(_plugin_answering(hands),)))
    with pytest.raises(RulesError, match="canasta_special_hands"):
        canasta.load_rules("classic", ["bad-hands"], registry=registry)
