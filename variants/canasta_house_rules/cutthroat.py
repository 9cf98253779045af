"""House rule ``cutthroat`` for three players (SPEC.md §3 rule option).

The first player in a hand to take the discard pile plays alone for the rest
of the hand; the other two become a partnership sharing melds (their melds of
one rank combine into one meld). If someone goes out before anyone took the
pile, that player is the lone hand; if nobody did either, all three score
alone. Each player keeps a personal score and minimum, both partners are
credited the partnership's result, and red threes score per player. Game to
7500.
"""

from __future__ import annotations

import canasta
from canasta import PartnershipRules


@canasta.hookimpl
def canasta_partnerships() -> PartnershipRules:
    """The first taker plays alone; the others join as partners."""
    return PartnershipRules(first_taker_alone=True, threes_per_player=True)


@canasta.hookimpl
def canasta_target_score() -> int:
    """Game to 7500."""
    return 7500
