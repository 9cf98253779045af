"""Modern American canasta, as a plugin based on classic.

States only where it differs from classic: 13 cards, no upcard, draw 2, all
threes bonus cards, an always-frozen pile, melds capped at 7 with at most 2
wild cards, pure sevens, wild melds, a 125/155/180 minimum with a clean meld,
threes scored by canasta count, incomplete-meld penalties, two canastas and a
final discard to go out, game to 8500. The rule hooks are in
`canasta_modern_american.rules`; the `american-talon` option is in
`canasta_house_rules`.
"""

from __future__ import annotations

import canasta
from canasta_modern_american import rules

__version__ = "1.0"

MODERN_AMERICAN = canasta.Variant(
    name="modern-american",
    description="Modern American canasta: no upcard, draw 2, all threes bonus, 7-card melds, game to 8500.",
    plugins=(rules,),
    base="classic",
    version=__version__,
    source="Canasta League of America, pagat.com",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the modern American variant."""
    return [MODERN_AMERICAN]
