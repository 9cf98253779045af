"""Variants with packets after the hand, written from the public plugin API only (issue 33).

Not Hand and Foot itself (its books, quota and pile take come with the variant):
classic canasta played with Hand and Foot's packets, so that the packet mechanism
is tested on its own.

- ``classic-feet``: classic with players + 1 packs, a hand of 11 and a *foot*
  of 11 (`canasta.PacketRules`): the foot is picked up when the hand is
  emptied, going out needs every partner in the foot, and a red three left in a
  foot costs 100.
- ``hand-knee-foot``: two packets after a hand of 9 (a *knee*, then a *foot*),
  as a third party would write Hand, Knee and Foot: the mechanism takes any
  number of packets.
"""

from __future__ import annotations

import types

import canasta


def _packets_plugin(name: str, hand: int, sizes: tuple[int, ...], names: tuple[str, ...]) -> types.ModuleType:
    plugin = types.ModuleType(name)

    @canasta.hookimpl
    def canasta_deck(players: int) -> canasta.DeckSpec:
        """Players + 1 packs of 52 cards and 2 jokers (Hand and Foot's decks)."""
        return canasta.DeckSpec(packs=players + 1, jokers=2 * (players + 1))

    @canasta.hookimpl
    def canasta_hand_size(players: int) -> int:
        """The hand's cards."""
        return hand

    @canasta.hookimpl
    def canasta_packets(players: int) -> canasta.PacketRules:
        """The packets after the hand; partners in their last packet to go out; -100 a red three down."""
        return canasta.PacketRules(sizes=sizes, partners_first=True, three_down=-100, names=names)

    plugin.canasta_deck = canasta_deck  # type: ignore[attr-defined]
    plugin.canasta_hand_size = canasta_hand_size  # type: ignore[attr-defined]
    plugin.canasta_packets = canasta_packets  # type: ignore[attr-defined]
    return plugin


FEET = canasta.Variant(
    name="classic-feet",
    description="Classic canasta with a foot of 11 after a hand of 11 (a test of packets).",
    plugins=(_packets_plugin("classic_feet", 11, (11,), ("foot",)),),
    base="classic",
)

KNEE_AND_FOOT = canasta.Variant(
    name="hand-knee-foot",
    description="Classic canasta with a knee and a foot of 9 after a hand of 9 (a test of packets).",
    plugins=(_packets_plugin("hand_knee_foot", 9, (9, 9), ("knee", "foot")),),
    base="classic",
)


def registry() -> canasta.Registry:
    """A registry with the built-in variants and these two."""
    found = canasta.Registry(autoload="builtin")
    found.add_variant(FEET)
    found.add_variant(KNEE_AND_FOOT)
    return found


def rules(name: str = "classic-feet", house_rules: tuple[str, ...] = ()) -> canasta.Rules:
    """The compiled rules of one of these variants."""
    return canasta.load_rules(name, house_rules, registry=registry())
