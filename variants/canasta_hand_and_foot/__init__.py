"""Hand and Foot, as a plugin: the rule book's §8 (Pagat's partnership game, Whitnack's rules).

Written only against canasta's public plugin API. It states every rule of the
game in `canasta_hand_and_foot.rules`: a *foot* dealt after the hand
(`canasta.PacketRules`), melds closed as *books* of seven that make room for a
new meld of their rank (`canasta.MeldRules.book_makes_room`), a going-out quota
counted by book kind (`canasta.GoingOutRules.canastas_by_class`), the top seven
cards of the pile taken by a matching pair (`canasta.PileRules.take_count`,
`wild_pair`), minimums by deal (`canasta.MeldMinimums.by_deal`) and a game of
four deals (`canasta.GameLength`).
"""

from __future__ import annotations

import canasta
from canasta_hand_and_foot import rules

__version__ = "1.0"

HAND_AND_FOOT = canasta.Variant(
    name="hand-and-foot",
    description="Hand and Foot: a hand and a foot of 13, books of 7, 2 clean + 2 dirty + 1 wild to go out, 4 deals.",
    plugins=(rules,),
    version=__version__,
    source="pagat.com (Whitnack's partnership rules), Bicycle",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the Hand and Foot variant."""
    return [HAND_AND_FOOT]
