"""Three-player canasta, as a plugin based on classic.

States only where it differs from classic: three players each alone, 13 cards,
draw 2, two canastas to go out. The rule hooks are in `canasta_three_player.rules`;
the `cutthroat` rule option is in `canasta_house_rules`.
"""

from __future__ import annotations

import canasta
from canasta_three_player import rules

__version__ = "1.0"

THREE_PLAYER = canasta.Variant(
    name="three-player",
    description="Three players, each alone: 13 cards each, draw 2, two canastas to go out.",
    plugins=(rules,),
    base="classic",
    version=__version__,
    source="pagat.com, Rules of Games, Wikipedia",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the three-player variant."""
    return [THREE_PLAYER]
