"""Six-player partnership canasta, as a plugin based on classic.

States only where it differs from classic: two sides of three alternating
around the table, 162 cards, 13 each, two canastas to go out, a 150 minimum
at 7500, red threes for five and six, game to 10000. The rule hooks are in
`canasta_six_player.rules`.
"""

from __future__ import annotations

import canasta
from canasta_six_player import rules

__version__ = "1.0"

SIX_PLAYER = canasta.Variant(
    name="six-player",
    description="Six players in two sides of three: 162 cards, 13 each, two canastas to go out, game to 10000.",
    plugins=(rules,),
    base="classic",
    version=__version__,
    source="pagat.com, Rules of Games",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the six-player variant."""
    return [SIX_PLAYER]
