"""House rule ``american-special-hands-pagat``: the special hands in pagat's form.

The same rule as ``american-special-hands`` (`canasta_house_rules.american_special_hands`)
with pagat's four hands instead of the club form's eleven
(`canasta_house_rules.special_hands.PAGAT_HANDS`); the two exclude each other.
"""

from __future__ import annotations

import canasta
from canasta import SpecialHand
from canasta.rulebook import house_rule_section
from canasta_house_rules._club import canasta_going_out as canasta_going_out  # the club rules' going out
from canasta_house_rules._kept_three import canasta_black_threes as canasta_black_threes  # keeping a three
from canasta_house_rules._kept_three import canasta_card_values as canasta_card_values
from canasta_house_rules._kept_three import canasta_threes as canasta_threes
from canasta_house_rules._kept_three import kept_three_section
from canasta_house_rules.special_hands import PAGAT_HANDS


@canasta.hookimpl
def canasta_special_hands() -> tuple[SpecialHand, ...]:
    """Pagat's four special hands."""
    return PAGAT_HANDS


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A refused declaration, or laying out a kept three, cites this house rule's page."""
    section = house_rule_section("american-special-hands-pagat", "American special hands, pagat's form")
    return {
        canasta.RuleCode.SPECIAL_HAND: section,
        canasta.RuleCode.KEPT_THREE: kept_three_section("american-special-hands-pagat"),
    }
