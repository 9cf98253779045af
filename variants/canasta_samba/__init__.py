"""Samba, as a plugin based on classic: the rule book's §9.

States only where it differs from classic: three packs and 6 jokers, 15 cards,
draw 2; groups of a rank (several of one rank, at most 2 wild cards, no wild card
joining a canasta) and sequences of one suit (the samba, 7 cards, 1500) as meld
types (`canasta.meldtypes`); no concealed exemption or bonus; two canastas of any
class to go out, 200 for going out; red threes plus only with two canastas; game
to 10000. The rule hooks are in `canasta_samba.rules`.
"""

from __future__ import annotations

import canasta
from canasta_samba import rules

__version__ = "1.0"

SAMBA = canasta.Variant(
    name="samba",
    description="Samba: three packs, 15 cards, groups and sequences of a suit, two canastas to go out.",
    plugins=(rules,),
    base="classic",
    version=__version__,
    source="Bicycle, Official Canasta Laws (via de.wikipedia), rummy-games.com, pagat.com",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the Samba variant."""
    return [SAMBA]
