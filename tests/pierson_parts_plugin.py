"""A test variant: the parts of Hand and Foot's ``pierson-family`` preset the engine plays today (issue 33).

``hand-and-foot-pierson-parts`` stacks on ``hand-and-foot`` every rule of the preset
(`HAND-AND-FOOT.md` §8.13) that the rules can state now: 4 decks (216 cards); a hand of 15
and a foot of 11, earned by the player's first book (``foot-after-first-book``); the whole
pile taken, never with a three on top, by a natural pair or a natural and a wild card, with
no freezing; rank melds of at most 3 wild cards and at least 2 naturals; sevens never take
a wild card; natural cards added to books (``add-to-books``); books: wild 2500, natural
sevens 1500 (`canasta.MeldRules.special_ranks`: a book kind of their own), other clean 500,
dirty 300; a quota of 1 wild, 1 sevens, 1 other clean and 1 dirty book; a foot's red
threes laid out without replacement (`canasta.PacketRules.replace_threes`), and no red-three
score; a final discard to go out, with a "yes"; a black three left in hand -100; no going-out
bonus; 4 deals, 50/90/120/150.

Not the preset: a pile take here joins the side's incomplete meld of the rank (the preset
always starts a new meld, so that a side holds several incomplete melds of a rank), and
no wild card is added to a dirty book (the preset allows it while the book then holds at
most 3). Both need actions that name their meld. Register it with ``register()`` or
``--plugin pierson_parts_plugin`` (``benchmarks/random_invariants.py``).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
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
)

NAME = "hand-and-foot-pierson-parts"


class _Rules:
    """The rule hooks: only what differs from ``hand-and-foot``."""

    @canasta.hookimpl
    def canasta_player_counts(self) -> tuple[int, ...]:
        """Four players in two partnerships only."""
        return (4,)

    @canasta.hookimpl
    def canasta_deck(self, players: int) -> DeckSpec:
        """Four decks of 54 (216 cards)."""
        return DeckSpec(packs=4, jokers=8)

    @canasta.hookimpl
    def canasta_hand_size(self, players: int) -> int:
        """A hand of 15."""
        return 15

    @canasta.hookimpl(wrapper=True)
    def canasta_packets(self, players: int) -> Generator[None, PacketRules, PacketRules]:
        """A foot of 11, earned by a book of the player's own; its red threes kept out without replacement, unscored."""
        packets: PacketRules = yield
        return attrs.evolve(packets, sizes=(11,), after_first_canasta=True, replace_threes=False, three_down=0)

    @canasta.hookimpl(wrapper=True)
    def canasta_pile_rules(self) -> Generator[None, PileRules, PileRules]:
        """The whole pile, never with a three on top, by a natural pair or a natural and a wild card; no freezing."""
        pile: PileRules = yield
        return attrs.evolve(
            pile, take_count=None, natural_and_wild=True, blocked_top=frozenset({Kind.BLACK_THREE, Kind.RED_THREE})
        )

    @canasta.hookimpl(wrapper=True)
    def canasta_meld_rules(self) -> Generator[None, MeldRules, MeldRules]:
        """At most 3 wild cards and at least 2 naturals; natural sevens only, a book kind of their own; add to books."""
        melds: MeldRules = yield
        return attrs.evolve(
            melds,
            max_wilds=3,
            min_naturals=2,
            naturals_per_wild=0,
            natural_only=frozenset({Kind.SEVEN}),
            special_ranks=frozenset({Kind.SEVEN}),
            add_to_books=True,
        )

    @canasta.hookimpl
    def canasta_canasta_bonuses(self) -> CanastaBonuses:
        """Wild 2500, natural sevens 1500, other clean 500, dirty 300."""
        return CanastaBonuses(natural=500, mixed=300, wild=2500, natural_by_rank=((Kind.SEVEN, 1500),))

    @canasta.hookimpl(wrapper=True)
    def canasta_going_out(self, players: int) -> Generator[None, GoingOutRules, GoingOutRules]:
        """1 wild, 1 sevens, 1 other clean and 1 dirty book; a final discard; no bonus."""
        going_out: GoingOutRules = yield
        kinds = (CanastaClass.NATURAL, CanastaClass.MIXED, CanastaClass.WILD, CanastaClass.SPECIAL)
        return attrs.evolve(
            going_out,
            canastas_required=0,
            canastas_by_class=dict.fromkeys(kinds, 1),
            final_discard_required=True,
            bonus=0,
        )

    @canasta.hookimpl(wrapper=True)
    def canasta_threes(self) -> Generator[None, ThreeRules, ThreeRules]:
        """Red threes laid out score nothing (a schedule of zeros past the deck's eight)."""
        threes: ThreeRules = yield
        return attrs.evolve(threes, schedule=(0,) * 9)

    @canasta.hookimpl(wrapper=True)
    def canasta_black_threes(self) -> Generator[None, BlackThreeRules, BlackThreeRules]:
        """A black three left in a hand or a foot down: -100."""
        black_threes: BlackThreeRules = yield
        return attrs.evolve(black_threes, in_hand_penalty=100)


PARTS = canasta.Variant(
    name=NAME,
    description="Hand and Foot with the parts of the Pierson family's rules the engine plays today.",
    plugins=(_Rules(),),
    base="hand-and-foot",
    version="1.0",
    source="tests: issue 33's pierson-family, in part",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the test variant."""
    return [PARTS]


_REGISTERED: list[bool] = []


def register() -> None:
    """Register this plugin with the default registry (once per process)."""
    if not _REGISTERED:
        import pierson_parts_plugin  # (this module as imported: the registry names its origin)

        canasta.register_plugin(pierson_parts_plugin, origin="tests/pierson_parts_plugin.py")
        _REGISTERED.append(True)
