"""House rule ``wilds-at-most-naturals`` (rule options of classic).

A meld never holds more wild cards than naturals, and this replaces the
variant's fixed wild-card limit (classic's 3): 4 naturals and 4 wild cards is
a legal mixed canasta, 3 naturals and 4 wild cards is not. Wild melds (where a
variant allows them) are unaffected, and so is a variant's rank that may hold
no wild card at all (modern American sevens).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import MeldRules
from canasta.rulebook import house_rule_section


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """No meld with more wild cards than naturals, and no other wild-card limit."""
    melds: MeldRules = yield
    return attrs.evolve(melds, naturals_per_wild=1, max_wilds=None)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """The meld limits: a refused meld cites this house rule's page."""
    section = house_rule_section("wilds-at-most-naturals", "Wilds at most naturals")
    return {
        canasta.RuleCode.INVALID_MELD: section,
    }
