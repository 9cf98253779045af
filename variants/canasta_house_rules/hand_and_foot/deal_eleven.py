"""House rule ``deal-eleven`` for Hand and Foot (§8.13): hands and feet of 11 cards.

Each player is dealt 22 cards: a hand of 11, then a foot of 11 (every packet
after the hand holds 11). The number of decks does not change.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import PacketRules

#: The cards of a hand, and of every packet dealt after it.
PACKET_SIZE = 11


@canasta.hookimpl(wrapper=True)
def canasta_hand_size(players: int) -> Generator[None, int, int]:
    """A hand of 11."""
    yield
    return PACKET_SIZE


@canasta.hookimpl(wrapper=True)
def canasta_packets(players: int) -> Generator[None, PacketRules, PacketRules]:
    """A foot (every packet after the hand) of 11."""
    packets: PacketRules = yield
    return attrs.evolve(packets, sizes=(PACKET_SIZE,) * len(packets.sizes))
