"""House rule ``partner-foot-free`` for Hand and Foot (§8.13): going out does not wait for the partners' feet.

Condition 3 of going out (every partner has picked up the foot) is dropped: a
player in the foot with the quota (and, in a partnership, a "yes") may go out
while a partner still plays from the hand. Asking permission is then possible
too, and a partner who answers may still be in the hand.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import PacketRules, hookimpl


@hookimpl(wrapper=True)
def canasta_packets(players: int) -> Generator[None, PacketRules, PacketRules]:
    """Going out needs only the player's own foot picked up."""
    packets: PacketRules = yield
    return attrs.evolve(packets, partners_first=False)
