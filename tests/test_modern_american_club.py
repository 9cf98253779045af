"""The variant modern-american-club, and variants that play with house rules (`canasta.Variant.house_rules`)."""

from __future__ import annotations

import attrs
import pytest
from canasta_modern_american_club import CLUB_HOUSE_RULES
from helpers import refused
from test_cli import run

import canasta
from canasta import Kind, PluginError, RuleCode, TakePile, UnknownNameError

CLUB = canasta.load_rules("modern-american-club")


def test_the_club_form_is_modern_american_with_talon_and_the_club_rules_but_splash() -> None:
    assert CLUB_HOUSE_RULES == (
        "american-talon",
        "american-special-hands",
        "rule-of-five",
        "dead-ranks",
        "american-discards",
        "aces-pure",
        "held-aces-sevens-penalty",
    )
    stacked = canasta.load_rules("modern-american", CLUB_HOUSE_RULES)
    assert attrs.evolve(CLUB, variant=stacked.variant, house_rules=stacked.house_rules) == stacked
    assert CLUB.variant == "modern-american-club" and CLUB.house_rules == ()
    assert CLUB.draw_count == 1 and CLUB.initial_meld.bonus_cards == (4, 3)
    assert len(CLUB.special_hands) == 11
    assert CLUB.melds.closed_at_canasta and CLUB.melds.wilds_need_naturals == 5
    assert CLUB.pile.empty_pile_stops == {Kind.ACE, Kind.SEVEN, Kind.TWO, Kind.JOKER}
    assert not CLUB.initial_meld.splash


def test_its_house_rules_cannot_be_named_again_but_splash_can_be_added() -> None:
    registry = canasta.default_registry()
    for name in CLUB_HOUSE_RULES:
        assert not registry.fits(name, "modern-american-club")
        with pytest.raises(PluginError, match=f"house rule '{name}' is already part of variant"):
            canasta.load_rules("modern-american-club", [name])
    # The pagat form of the special hands conflicts with the club form's.
    assert not registry.fits("american-special-hands-pagat", "modern-american-club")
    with pytest.raises(PluginError, match="exclude each other"):
        canasta.load_rules("modern-american-club", ["american-special-hands-pagat"])
    assert registry.fits("splash", "modern-american-club")
    assert canasta.load_rules("modern-american-club", ["splash"]).initial_meld.splash


def test_a_variant_naming_an_unknown_or_unfitting_house_rule_is_refused() -> None:
    registry = canasta.Registry(autoload="builtin")
    registry.add_variant(canasta.Variant("talon-classic", "classic with a rule that does not fit", (),
                                         base="classic", house_rules=("american-talon",)))
    with pytest.raises(PluginError, match="names house rule 'american-talon', which does not fit it"):
        registry.plugin_stack("talon-classic")
    registry.add_variant(canasta.Variant("ghost", "names a rule nobody provides", (), base="classic",
                                         house_rules=("no-such-rule",)))
    with pytest.raises(UnknownNameError):
        registry.plugin_stack("ghost")
    with pytest.raises(TypeError, match="not the string 'dead-ranks'"):
        canasta.Variant("lone", "", (), base="modern-american", house_rules="dead-ranks")
    with pytest.raises(PluginError, match="house_rules must be house-rule names"):
        registry.add_variant(canasta.Variant("bad", "", (), base="classic", house_rules=(3,)))  # type: ignore[arg-type]


def test_refusals_cite_the_club_page_or_the_club_rule_page() -> None:
    state = canasta.build_position(
        CLUB,
        hands=[["9C", "9D", "AH", "AS"], ["4C", "4D", "4H"], ["5C", "5D", "5H"], ["6C", "6D", "6H"]],
        melds=[[["QH", "QS", "QD"]], []],
        pile=["7H", "9H"],
    )
    error = refused(state, TakePile(2, 0, 0), RuleCode.NO_PLAIN_CARD)
    assert error.section is not None and error.section.page == "rules/house-rules/american-discards.md"
    error = refused(state, TakePile(1, 1, 0), RuleCode.PILE_FROZEN)
    assert error.section is not None and error.section.path == "rules/modern-american-club.md#frozen-pile"
    assert error.section.book == "rules of modern-american-club"


def test_the_command_line_lists_plays_and_simulates_it() -> None:
    code, out = run(["variants"])
    assert code == 0
    assert "modern-american-club" in out and "plays with: american-talon, american-special-hands" in out
    code, out = run(["simulate", "--variant", "modern-american-club", "--games", "1", "--max-hands", "3"])
    assert code == 0, out
