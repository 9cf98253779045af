"""Two-player canasta, as a plugin based on classic.

States only where it differs from classic: each player alone, 15 cards, draw
2, two canastas to go out. The rule hooks are in `canasta_two_player.rules`.
"""

from __future__ import annotations

import canasta
from canasta_two_player import rules

__version__ = "1.0"

TWO_PLAYER = canasta.Variant(
    name="two-player",
    description="Two players, each alone: 15 cards each, draw 2, two canastas to go out.",
    plugins=(rules,),
    base="classic",
    version=__version__,
    source="pagat.com, Bicycle",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the two-player variant."""
    return [TWO_PLAYER]
