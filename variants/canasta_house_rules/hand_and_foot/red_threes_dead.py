"""House rule ``red-threes-dead`` for Hand and Foot (§8.13): red threes are ordinary cards that cost 500.

Red threes are not laid out: at the deal, in a draw, in a pile take and in a foot
picked up they are cards of the hand like any other. They are never melded, may
be discarded (one on top of the pile blocks it, like a black three), and each one
left in a hand or in a foot still down at the end of the deal scores −500, in the
score's red-three row (their card value stays 0). No +100 and no −100. The upcard
rule is unchanged: a red three turned up is buried.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import Kind, PacketRules, PileRules, ThreeRules

#: What each red three left in a hand or a foot still down costs.
PENALTY = 500


@canasta.hookimpl(wrapper=True)
def canasta_threes() -> Generator[None, ThreeRules, ThreeRules]:
    """Red threes are ordinary cards of the hand; each one left in a hand or a foot down: −500."""
    threes: ThreeRules = yield
    return attrs.evolve(threes, red_threes_are_bonus=False, red_held=-PENALTY)


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """A red three on top of the pile blocks it, like a black three."""
    pile: PileRules = yield
    return attrs.evolve(pile, blocked_top=pile.blocked_top | {Kind.RED_THREE})


@canasta.hookimpl(wrapper=True)
def canasta_packets(players: int) -> Generator[None, PacketRules, PacketRules]:
    """No −100 for a red three in a foot down: it is an ordinary card there, scored by ``red_held``."""
    packets: PacketRules = yield
    return attrs.evolve(packets, three_down=0)
