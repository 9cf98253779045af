"""House rule ``pierson-family`` for Hand and Foot (§8.13, "Preset"): the Pierson family's four-deck game, as one stack.

The game of [LAN] (landoware/canasta-server, "Pierson family rules"): 4 players in two
partnerships; 4 decks of 54 (216 cards); a hand of 15 and a foot of 11, the foot earned by a
book of the player's own (``foot-after-first-book``); the whole pile taken, never with a three
on top, by a natural pair or a natural and a wild card (a wild card on top: two wild cards),
always as a new meld, so that a side may hold several melds of one rank, incomplete ones
included (`canasta.MeldRules.several_melds`; a meld from the hand may also start a new one);
rank melds of at most 3 wild cards and at least 2 naturals; sevens never take a wild card;
books grow past 7: natural cards onto a book of their rank, wild cards onto a dirty book while
it then holds at most 3 (`canasta.MeldRules.wilds_onto_books`), nothing onto a wild book;
books: wild 2500, natural sevens 1500 (a kind of their own, `canasta.MeldRules.special_ranks`),
other clean 500, dirty 300; going out needs 1 wild, 1 sevens, 1 other clean and 1 dirty book, a
final discard, a "yes" and the foot picked up; a foot's red threes are laid out without
replacement (`canasta.PacketRules.replace_threes`), and no red three scores; a black three left
in a hand or a foot still down counts -100; no going-out bonus; 4 deals, 50/90/120/150.

Inferred where [LAN] is silent (the rule book says so): at least 2 naturals in a rank meld,
the "yes" for going out, and the feet still down counting minus as in §8.11.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import (
    BlackThreeRules,
    CanastaBonuses,
    CanastaClass,
    DeckSpec,
    GoingOutRules,
    Kind,
    MeldRules,
    PacketRules,
    PileRules,
    ThreeRules,
    hookimpl,
)

#: The book bonuses of the preset: wild, natural sevens, other clean, dirty.
BONUSES = CanastaBonuses(natural=500, mixed=300, wild=2500, natural_by_rank=((Kind.SEVEN, 1500),))
#: The going-out quota: one book of each kind.
QUOTA = (CanastaClass.NATURAL, CanastaClass.MIXED, CanastaClass.WILD, CanastaClass.SPECIAL)


@hookimpl
def canasta_player_counts() -> tuple[int, ...]:
    """Four players in two partnerships only."""
    return (4,)


@hookimpl
def canasta_deck(players: int) -> DeckSpec:
    """Four decks of 54 (216 cards)."""
    return DeckSpec(packs=4, jokers=8)


@hookimpl
def canasta_hand_size(players: int) -> int:
    """A hand of 15."""
    return 15


@hookimpl(wrapper=True)
def canasta_packets(players: int) -> Generator[None, PacketRules, PacketRules]:
    """A foot of 11, earned by a book of the player's own; its red threes laid out without replacement."""
    packets: PacketRules = yield
    return attrs.evolve(packets, sizes=(11,), after_first_canasta=True, replace_threes=False, three_down=0)


@hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """The whole pile, never with a three on top, by a natural pair or a natural and a wild card; no freezing."""
    pile: PileRules = yield
    return attrs.evolve(
        pile, take_count=None, natural_and_wild=True, blocked_top=frozenset({Kind.BLACK_THREE, Kind.RED_THREE})
    )


@hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """Several melds of a rank; at most 3 wild cards and 2 naturals or more; natural sevens; books that grow."""
    melds: MeldRules = yield
    return attrs.evolve(
        melds,
        max_wilds=3,
        min_naturals=2,
        naturals_per_wild=0,
        extra_naturals=0,
        natural_only=frozenset({Kind.SEVEN}),
        special_ranks=frozenset({Kind.SEVEN}),
        add_to_books=True,
        several_melds=True,
        wilds_onto_books=True,
    )


@hookimpl
def canasta_canasta_bonuses() -> CanastaBonuses:
    """Wild 2500, natural sevens 1500, other clean 500, dirty 300."""
    return BONUSES


@hookimpl(wrapper=True)
def canasta_going_out(players: int) -> Generator[None, GoingOutRules, GoingOutRules]:
    """1 wild, 1 sevens, 1 other clean and 1 dirty book; a final discard; no bonus."""
    going_out: GoingOutRules = yield
    return attrs.evolve(
        going_out,
        canastas_required=0,
        canastas_by_class=dict.fromkeys(QUOTA, 1),
        final_discard_required=True,
        bonus=0,
    )


@hookimpl(wrapper=True)
def canasta_threes() -> Generator[None, ThreeRules, ThreeRules]:
    """Red threes laid out score nothing (a schedule of zeros past the deck's eight)."""
    threes: ThreeRules = yield
    return attrs.evolve(threes, schedule=(0,) * 9)


@hookimpl(wrapper=True)
def canasta_black_threes() -> Generator[None, BlackThreeRules, BlackThreeRules]:
    """A black three left in a hand or a foot still down: -100."""
    black_threes: BlackThreeRules = yield
    return attrs.evolve(black_threes, in_hand_penalty=100)
