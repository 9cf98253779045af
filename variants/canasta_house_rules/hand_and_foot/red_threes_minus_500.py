"""House rule ``red-threes-always-minus-500`` for Hand and Foot (§8.13): every red three costs 500.

Red threes are laid out and replaced as in the base game, but each red three the
side laid out scores −500, and so does each one left in a foot still down at the
end of the deal (instead of +100 and −100).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import PacketRules, ThreeRules, ThreeSign

#: What each red three costs, laid out or left in a foot.
PENALTY = 500


@canasta.hookimpl(wrapper=True)
def canasta_threes() -> Generator[None, ThreeRules, ThreeRules]:
    """Each red three laid out: −500, whatever the side melded."""
    threes: ThreeRules = yield
    return attrs.evolve(threes, schedule=(0, PENALTY), sign=ThreeSign.ALWAYS_NEGATIVE)


@canasta.hookimpl(wrapper=True)
def canasta_packets(players: int) -> Generator[None, PacketRules, PacketRules]:
    """Each red three left in a foot still down: −500."""
    packets: PacketRules = yield
    return attrs.evolve(packets, three_down=-PENALTY)
