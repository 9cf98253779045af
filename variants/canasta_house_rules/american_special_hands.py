"""House rule ``american-special-hands`` for modern American canasta (the club form's special hands).

A side that has not melded may declare one of the Canasta League of America's
eleven 14-card special hands (`canasta_house_rules.special_hands.CLA_HANDS`)
instead of playing the hand out. This module lists them in the rules
(`canasta.Rules.special_hands`), which is all the engine needs to offer the
declaration (`canasta.declaration`); like every club rule it brings the club
form's going-out rule along.
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
from canasta_house_rules.special_hands import CLA_HANDS


@canasta.hookimpl
def canasta_special_hands() -> tuple[SpecialHand, ...]:
    """The club form's eleven special hands."""
    return CLA_HANDS


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A refused declaration, or laying out a kept three, cites this house rule's page."""
    return {
        canasta.RuleCode.SPECIAL_HAND: house_rule_section("american-special-hands", "American special hands"),
        canasta.RuleCode.KEPT_THREE: kept_three_section("american-special-hands"),
    }
