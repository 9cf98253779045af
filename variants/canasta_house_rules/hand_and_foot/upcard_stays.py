"""House rule ``upcard-stays`` for Hand and Foot (§8.13): a wild or red-three upcard is not buried.

The first card turned up stays, whatever it is. A 2 or a joker is taken like any
wild top card (two wild cards of its kind, into the wild meld). A red three blocks
the pile while it is the top card; the next discard covers it, and whoever takes
it lays it out for the side (+100), with no replacement; a red three still in the
pile when the deal ends scores nothing.
"""

from __future__ import annotations

import canasta
from canasta import Upcard


@canasta.hookimpl
def canasta_upcard() -> Upcard:
    """The first card turned up stays as the upcard."""
    return Upcard.TURN_ONE
