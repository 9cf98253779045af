"""House rule ``last-red-three-may-meld``.

When the last stock card drawn is a red three (a bonus three), the player may
still meld, but not discard, before the hand ends.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import ExhaustionRules
from canasta.rulebook import house_rule_section


@canasta.hookimpl(wrapper=True)
def canasta_stock_exhaustion() -> Generator[None, ExhaustionRules, ExhaustionRules]:
    """Melding is allowed after a last-card red three."""
    exhaustion: ExhaustionRules = yield
    return attrs.evolve(exhaustion, last_red_three_may_meld=True)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """After a last red three the player melds but may not discard: that refusal cites this house rule's page."""
    section = house_rule_section("last-red-three-may-meld", "Last red three may meld")
    return {
        canasta.RuleCode.CANNOT_DISCARD: section,
    }
