"""Cuban canasta, as a plugin based on classic.

States only where it differs from classic: 13 cards; an always-frozen pile
that a side takes only with a natural pair once it has melded; black threes
from a taken pile set aside; wild melds; melds capped at 7; big wild-canasta
bonuses; red threes that need a canasta; game to 7500. The rule hooks are in
`canasta_cuban.rules`.
"""

from __future__ import annotations

import canasta
from canasta_cuban import rules

__version__ = "1.0"

CUBAN = canasta.Variant(
    name="cuban",
    description="Cuban canasta: always-frozen pile, wild melds, 7-card canastas, set-aside black threes, game to 7500.",
    plugins=(rules,),
    base="classic",
    version=__version__,
    source="pagat.com Cuban canasta",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the Cuban variant."""
    return [CUBAN]
