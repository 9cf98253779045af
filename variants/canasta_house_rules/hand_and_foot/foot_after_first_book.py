"""House rule ``foot-after-first-book`` for Hand and Foot (§8.13): the foot is earned by a book of one's own.

The foot may be picked up only after the player has personally completed a
book (by a meld, or the pickup meld of a pile take; a partner's book does not
count), never in the turn of that first book: at the start of any later turn,
before the draw, when the player chooses (`canasta.PickUpPacket`); the hand
need not be empty, and both are then held as one. Until that first book no meld
or discard may empty the hand; once it is made, §8.7's pick-up events apply as
written. Going out still needs the foot picked up.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import PacketRules, RuleCode, RuleSection, hookimpl
from canasta.rulebook import house_rule_section


@hookimpl(wrapper=True)
def canasta_packets(players: int) -> Generator[None, PacketRules, PacketRules]:
    """The foot is earned by the player's own first book (`PacketRules.after_first_canasta`)."""
    packets: PacketRules = yield
    return attrs.evolve(packets, after_first_canasta=True)


@hookimpl
def canasta_rule_sections() -> dict[RuleCode, RuleSection]:
    """A refusal of an unearned foot cites this house rule's page."""
    return {RuleCode.PACKET_NOT_EARNED: house_rule_section("foot-after-first-book", "Foot after first book")}
