"""The Hand and Foot rule hooks: every number and decision of the rule book's §8.

It is not classic with changes (its base is no other variant): Hand and Foot
shares canasta's turn but differs in nearly every number, so every rule hook
is answered here. The sections cited are those of the rule book's page
``rules/hand-and-foot.md``.
"""

from __future__ import annotations

import canasta
from canasta import (
    BlackThreeRules,
    CanastaBonuses,
    CanastaClass,
    DeckSpec,
    ExhaustionRules,
    GoingOutRules,
    InitialMeldRules,
    Kind,
    MeldMinimums,
    MeldRules,
    PacketRules,
    Permission,
    PileRules,
    ThreeRules,
    ThreeSign,
    Upcard,
)
from canasta.rulebook import variant_sections

#: §8.2: the card values (joker 50, 2 and A 20, K to 8 10, 7 to 4 and the black three 5; a red three none).
_VALUES = {Kind.JOKER: 50, Kind.TWO: 20, Kind.RED_THREE: 0, Kind.BLACK_THREE: 5, Kind.ACE: 20}
for _rank in (Kind.KING, Kind.QUEEN, Kind.JACK, Kind.TEN, Kind.NINE, Kind.EIGHT):
    _VALUES[_rank] = 10
for _rank in (Kind.SEVEN, Kind.SIX, Kind.FIVE, Kind.FOUR):
    _VALUES[_rank] = 5


@canasta.hookimpl
def canasta_players() -> int:
    """Four players, two partnerships sitting opposite (§8.1)."""
    return 4


@canasta.hookimpl
def canasta_player_counts() -> tuple[int, ...]:
    """§8.1: two to six players (`canasta.Game("hand-and-foot", players=6)`)."""
    return (2, 3, 4, 5, 6)


@canasta.hookimpl
def canasta_sides(players: int) -> tuple[int, ...]:
    """§8.1: 4 as two partnerships of 2 and 6 as two of 3 (alternate seats); 2, 3 and 5 play alone."""
    if players in (4, 6):
        return tuple(seat % 2 for seat in range(players))
    return tuple(range(players))


@canasta.hookimpl
def canasta_deck(players: int) -> DeckSpec:
    """§8.1: one deck more than there are players, each of 52 cards and 2 jokers (270 cards for 4)."""
    return DeckSpec(packs=players + 1, jokers=2 * (players + 1))


@canasta.hookimpl
def canasta_hand_size(players: int) -> int:
    """§8.1: a hand of 13."""
    return 13


@canasta.hookimpl
def canasta_packets(players: int) -> PacketRules:
    """§8.1, §8.7, §8.11: a foot of 13 face down; going out needs every partner in the foot; -100 a red three."""
    return PacketRules(sizes=(13,), partners_first=True, three_down=-100, names=("foot",))


@canasta.hookimpl
def canasta_draw_count() -> int:
    """§8.3: two cards (a single last stock card is the whole draw)."""
    return 2


@canasta.hookimpl
def canasta_upcard() -> Upcard:
    """§8.1: a red three, 2 or joker turned up goes back into the stock at a random place below the top."""
    return Upcard.BURY_WILD_AND_RED_THREE


@canasta.hookimpl
def canasta_card_values() -> tuple[int, ...]:
    """§8.2: joker 50; 2 and A 20; K Q J 10 9 8 10; 7 6 5 4 and the black three 5."""
    return tuple(_VALUES[Kind(k)] for k in range(15))


@canasta.hookimpl
def canasta_meld_minimums() -> MeldMinimums:
    """§8.5: 50, 90, 120 and 150 in deals 1 to 4."""
    return MeldMinimums(by_deal=(50, 90, 120, 150))


@canasta.hookimpl
def canasta_initial_meld() -> InitialMeldRules:
    """§8.5: the pile's top card counts with the hand cards melded; no exemption of any kind."""
    return InitialMeldRules(top_card_counts=True, concealed_exemption=False)


@canasta.hookimpl
def canasta_pile_rules() -> PileRules:
    """§8.5: the top 7 cards, by a matching pair (two wild cards of its kind for a wild top); only a black three blocks.

    There is no freezing: nothing else blocks the pile, for every side at every moment.
    """
    return PileRules(
        always_frozen=False,
        wild_freezes=False,
        red_three_freezes=False,
        black_three_freezes=False,
        unmelded_side_frozen=False,
        unmelded_side_may_take=True,
        natural_and_wild=False,
        layoff=False,
        blocked_top=frozenset({Kind.BLACK_THREE}),
        one_card_rule=False,
        take_count=7,
        wild_pair=True,
    )


@canasta.hookimpl
def canasta_meld_rules() -> MeldRules:
    """§8.4: rank melds of 3 to 7 with naturals >= 2 x wild cards; wild melds; books of 7 that make room.

    Threes are never melded.
    """
    return MeldRules(
        min_size=3,
        min_naturals=2,
        max_wilds=None,
        naturals_per_wild=2,
        max_size=7,
        canasta_size=7,
        wild_melds=True,
        black_threes_when_going_out=False,
        book_makes_room=True,
    )


@canasta.hookimpl
def canasta_canasta_bonuses() -> CanastaBonuses:
    """§8.11: a clean book 500, a dirty book 300, a wild book 1500."""
    return CanastaBonuses(natural=500, mixed=300, wild=1500)


@canasta.hookimpl
def canasta_threes() -> ThreeRules:
    """§8.6, §8.11: each red three laid out +100, whatever the side melded."""
    return ThreeRules(schedule=(0, 100), sign=ThreeSign.ALWAYS_POSITIVE)


@canasta.hookimpl
def canasta_black_threes() -> BlackThreeRules:
    """§8.6: a black three may be discarded at any time; left in hand it counts its value, 5."""
    return BlackThreeRules(in_hand_penalty=5)


@canasta.hookimpl
def canasta_going_out(players: int) -> GoingOutRules:
    """§8.8: 2 clean, 2 dirty and 1 wild book (players alone: 1 of each); final discard optional; 100; a "yes".

    Players alone need no "yes": the core drops permission where nobody has a partner.
    """
    partners = players in (4, 6)
    return GoingOutRules(
        canastas_required=0,
        canastas_by_class=(
            (CanastaClass.NATURAL, 2 if partners else 1),
            (CanastaClass.MIXED, 2 if partners else 1),
            (CanastaClass.WILD, 1),
        ),
        final_discard_required=False,
        bonus=100,
        concealed_bonus=None,
        permission=Permission.REQUIRED,
    )


@canasta.hookimpl
def canasta_stock_exhaustion() -> ExhaustionRules:
    """§8.9: the deal ends when a player is due to start a turn with no stock; nobody takes the pile then.

    A red three drawn as the last card is laid out without replacement and the turn goes on.
    """
    return ExhaustionRules(
        continue_with_discards=False,
        forced_take=False,
        forced_take_by_layoff=False,
        last_red_three_may_meld=False,
        red_three_last_ends_hand=False,
    )


@canasta.hookimpl
def canasta_game_length() -> canasta.GameLength:
    """§8.12: four deals; the highest total wins, equal highest totals are a draw."""
    return canasta.GameLength(deals=4)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the Hand and Foot page of the rule book."""
    return variant_sections("hand-and-foot")
