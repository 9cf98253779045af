"""The classic rule hooks: every number of the classic game (the rule book's classic page)."""

from __future__ import annotations

import canasta
from canasta import DeckSpec, MeldMinimums, Permission, ThreeRules
from canasta.rulebook import variant_sections


@canasta.hookimpl
def canasta_players() -> int:
    """Four players, two partnerships sitting opposite."""
    return 4


@canasta.hookimpl
def canasta_sides(players: int) -> tuple[int, ...]:
    """Partners sit opposite: seats 0 and 2 against 1 and 3."""
    return tuple(seat % 2 for seat in range(players))


@canasta.hookimpl
def canasta_deck(players: int) -> DeckSpec:
    """Two 52-card packs and four jokers: 108 cards."""
    return DeckSpec(packs=2, jokers=4)


@canasta.hookimpl
def canasta_hand_size(players: int) -> int:
    """Eleven cards each."""
    return 11


@canasta.hookimpl
def canasta_meld_minimums() -> MeldMinimums:
    """Below 0: 15; 0 to 1495: 50; 1500 to 2995: 90; 3000 or more: 120 ."""
    return MeldMinimums(below_zero=15, steps=((0, 50), (1500, 90), (3000, 120)))


@canasta.hookimpl
def canasta_threes() -> ThreeRules:
    """Red threes 100 each, all four 800; negative if the side made no meld."""
    return ThreeRules(schedule=(0, 100, 200, 300, 800))


@canasta.hookimpl
def canasta_going_out() -> canasta.GoingOutRules:
    """One canasta; final discard optional; 100, concealed 200; permission optional and binding."""
    return canasta.GoingOutRules(
        canastas_required=1,
        final_discard_required=False,
        bonus=100,
        concealed_bonus=200,
        permission=Permission.OPTIONAL,
    )


@canasta.hookimpl
def canasta_target_score() -> int:
    """Game to 5000."""
    return 5000


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the classic page of the rule book."""
    return variant_sections("classic")
