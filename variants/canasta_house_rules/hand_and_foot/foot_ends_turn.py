"""House rule ``foot-ends-turn`` for Hand and Foot (§8.13): emptying the hand ends the turn.

Emptying the hand ends the turn at once, whichever way it happened: after a
meld there is no discard. The foot is picked up at the start of the player's
next turn (as after a discard in the base game).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import PacketRules, hookimpl


@hookimpl(wrapper=True)
def canasta_packets(players: int) -> Generator[None, PacketRules, PacketRules]:
    """A meld that empties the hand ends the turn; the foot comes at the next one."""
    packets: PacketRules = yield
    return attrs.evolve(packets, meld_picks_up=False)
