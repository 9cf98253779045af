"""House rule ``discard-to-go-out`` for Hand and Foot (§8.13): going out ends with a discard.

Going out by melding every card is refused: the last card must be discarded.
After a "yes" the player must keep a card for that final discard.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import GoingOutRules, hookimpl


@hookimpl(wrapper=True)
def canasta_going_out(players: int) -> Generator[None, GoingOutRules, GoingOutRules]:
    """The final discard is required."""
    going_out: GoingOutRules = yield
    return attrs.evolve(going_out, final_discard_required=True)
