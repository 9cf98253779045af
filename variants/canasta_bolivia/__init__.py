"""Bolivia, as a plugin based on Samba: the rule book's §10.

States only where it differs from Samba: wild melds of 3 to 7 wild cards (the
bolivia, 7 of them, scores 2500), an escalera (a sequence canasta) among the two
canastas needed to go out, black threes in hand −100, game to 15000. The rule
hooks are in `canasta_bolivia.rules`.
"""

from __future__ import annotations

import canasta
from canasta_bolivia import rules

__version__ = "1.0"

BOLIVIA = canasta.Variant(
    name="bolivia",
    description="Bolivia: Samba with wild melds (a bolivia scores 2500) and an escalera needed to go out.",
    plugins=(rules,),
    base="samba",
    version=__version__,
    source="Bicycle, rummy-games.com, an archived Bolivian page",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the Bolivia variant."""
    return [BOLIVIA]
