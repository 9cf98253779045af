"""Variants with packets after the hand, written from the public plugin API only (issue 33).

Not Hand and Foot itself (its books, quota and pile take come with the variant):
classic canasta played with Hand and Foot's packets, so that the packet mechanism
is tested on its own.

- ``classic-feet``: classic with players + 1 packs, a hand of 11 and a *foot*
  of 11 (`canasta.PacketRules`): the foot is picked up when the hand is
  emptied, going out needs every partner in the foot, and a red three left in a
  foot costs 100.
- ``feet-pile-of-seven``: ``classic-feet`` with Hand and Foot's discard pile
  (the top 7 cards by a matching pair, a wild card by two of its kind, only a
  black three blocks, no freezing), buried wild upcards and a draw of 2.
- ``hand-knee-foot``: two packets after a hand of 9 (a *knee*, then a *foot*),
  as a third party would write Hand, Knee and Foot: the mechanism takes any
  number of packets.
"""

from __future__ import annotations

import types
from collections.abc import Generator

import attrs

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


def _hand_and_foot_pile() -> types.ModuleType:
    plugin = types.ModuleType("pile_of_seven")

    @canasta.hookimpl(wrapper=True)
    def canasta_pile_rules() -> Generator[None, canasta.PileRules, canasta.PileRules]:
        """Hand and Foot's pile (§8.5): the top 7 by a matching pair, wild pairs too, only a black three blocks."""
        pile: canasta.PileRules = yield
        return attrs.evolve(
            pile,
            take_count=7,
            wild_pair=True,
            wild_freezes=False,
            red_three_freezes=False,
            unmelded_side_frozen=False,
            natural_and_wild=False,
            layoff=False,
            blocked_top=frozenset({canasta.Kind.BLACK_THREE}),
            one_card_rule=False,
        )

    @canasta.hookimpl(wrapper=True)
    def canasta_meld_rules() -> Generator[None, canasta.MeldRules, canasta.MeldRules]:
        """Melds of wild cards only are allowed (Hand and Foot's wild meld)."""
        melds: canasta.MeldRules = yield
        return attrs.evolve(melds, wild_melds=True)

    @canasta.hookimpl
    def canasta_upcard() -> canasta.Upcard:
        """A wild or red-three upcard is buried in the stock."""
        return canasta.Upcard.BURY_WILD_AND_RED_THREE

    @canasta.hookimpl
    def canasta_draw_count() -> int:
        """Two cards a turn."""
        return 2

    plugin.canasta_pile_rules = canasta_pile_rules  # type: ignore[attr-defined]
    plugin.canasta_meld_rules = canasta_meld_rules  # type: ignore[attr-defined]
    plugin.canasta_upcard = canasta_upcard  # type: ignore[attr-defined]
    plugin.canasta_draw_count = canasta_draw_count  # type: ignore[attr-defined]
    return plugin


#: ``classic-feet`` with Hand and Foot's discard pile, upcard and draw (not yet its books and quota).
PILE_OF_SEVEN = canasta.Variant(
    name="feet-pile-of-seven",
    description="classic-feet with Hand and Foot's pile: the top 7 cards by a pair (a test of the pile take).",
    plugins=(_hand_and_foot_pile(),),
    base="classic-feet",
)


def registry() -> canasta.Registry:
    """A registry with the built-in variants and these three."""
    found = canasta.Registry(autoload="builtin")
    found.add_variant(FEET)
    found.add_variant(KNEE_AND_FOOT)
    found.add_variant(PILE_OF_SEVEN)
    return found


def rules(name: str = "classic-feet", house_rules: tuple[str, ...] = ()) -> canasta.Rules:
    """The compiled rules of one of these variants."""
    return canasta.load_rules(name, house_rules, registry=registry())
