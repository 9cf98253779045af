"""Modern American canasta as American clubs play it (Canasta League of America), as a plugin.

`modern-american` with the house rule ``american-talon`` (draw one card, bonus
cards after the opening) and every club rule but ``splash``: special hands,
the rule of five, dead ranks, the discard restrictions, pure aces and the
penalty for held aces and sevens (`canasta_house_rules`). The variant adds
no rule of its own; its refusals cite its own rule-book page, and those of a
club rule that rule's page.
"""

from __future__ import annotations

import canasta
from canasta.rulebook import variant_sections

__version__ = "1.0"

#: The house rules the club form plays with, in stacking order.
CLUB_HOUSE_RULES = (
    "american-talon",
    "american-special-hands",
    "rule-of-five",
    "dead-ranks",
    "american-discards",
    "aces-pure",
    "held-aces-sevens-penalty",
)


class _Sections:
    """The club form's citations: its own page (the club rules' codes are answered by their own pages)."""

    @canasta.hookimpl
    def canasta_rule_sections(self) -> dict[canasta.RuleCode, canasta.RuleSection]:
        """Every rule code cites its section of the modern-american-club page of the rule book."""
        return variant_sections("modern-american-club")


MODERN_AMERICAN_CLUB = canasta.Variant(
    name="modern-american-club",
    description="Modern American as clubs play it: draw 1 with bonus cards, special hands, rule of five, "
    "dead ranks, discard restrictions, pure aces.",
    plugins=(_Sections(),),
    base="modern-american",
    house_rules=CLUB_HOUSE_RULES,
    version=__version__,
    source="Canasta League of America",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the club form of modern American."""
    return [MODERN_AMERICAN_CLUB]
