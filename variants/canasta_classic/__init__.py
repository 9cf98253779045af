"""Classic four-player partnership canasta, as a plugin.

Written only against canasta's public plugin API; it states every number of
the classic game in `canasta_classic.rules`. Other variants use it as their
base and change only what differs.
"""

from __future__ import annotations

import canasta
from canasta_classic import rules

__version__ = "1.0"

CLASSIC = canasta.Variant(
    name="classic",
    description="Classic four-player partnership canasta: 108 cards, 11 each, game to 5000.",
    plugins=(rules,),
    version=__version__,
    source="pagat.com, Bicycle/Hoyle official laws",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the classic variant."""
    return [CLASSIC]
