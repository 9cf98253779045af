"""Brazilian canasta, as a plugin based on Bolivia: the rule book's §11.

States only where it differs from Bolivia: openings by canasta from 7000, no
pile take before the side has opened, escaleras that grow to 11 cards in a
going-out turn, any two canastas and the partner's "yes" to go out, red threes
100 each to four, 1000 for five, 1200 for six (plus with one canasta), a wild
canasta 2000, −1000 for each sequence under 5 cards, game to 10000. The rule
hooks are in `canasta_brazilian.rules`.
"""

from __future__ import annotations

import canasta
from canasta_brazilian import rules

__version__ = "1.0"

BRAZILIAN = canasta.Variant(
    name="brazilian",
    description="Brazilian canasta: Bolivia with openings by canasta, no take before opening, a yes to go out.",
    plugins=(rules,),
    base="bolivia",
    version=__version__,
    source="Bicycle, rummy-games.com",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the Brazilian canasta variant."""
    return [BRAZILIAN]
