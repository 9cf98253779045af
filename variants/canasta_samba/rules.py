"""The Samba rule hooks (the rule book's §9): only what differs from classic."""

from __future__ import annotations

import canasta
from canasta.meldtypes import BlackThreeGroupType, GroupType, SequenceType
from canasta.rulebook import variant_sections


@canasta.hookimpl
def canasta_deck(players: int) -> canasta.DeckSpec:
    """§9.1: three packs and 6 jokers, 162 cards."""
    return canasta.DeckSpec(packs=3, jokers=6)


@canasta.hookimpl
def canasta_hand_size(players: int) -> int:
    """§9.1: 15 cards each."""
    return 15


@canasta.hookimpl
def canasta_draw_count() -> int:
    """§9.2: two cards from the stock."""
    return 2


@canasta.hookimpl
def canasta_meld_minimums() -> canasta.MeldMinimums:
    """§9.6: 15 below 0, then 50, 90, 120 and 150 from 7000."""
    return canasta.MeldMinimums(below_zero=15, steps=((0, 50), (1500, 90), (3000, 120), (7000, 150)))


@canasta.hookimpl
def canasta_initial_meld() -> canasta.InitialMeldRules:
    """§9.6: no concealed exemption; the top card of a taken pile counts."""
    return canasta.InitialMeldRules(concealed_exemption=False)


@canasta.hookimpl
def canasta_canasta_bonuses() -> canasta.CanastaBonuses:
    """§9.10: samba 1500, natural group canasta 500, mixed 300."""
    return canasta.CanastaBonuses(natural=500, mixed=300, sequence=1500)


@canasta.hookimpl
def canasta_threes() -> canasta.ThreeRules:
    """§9.10: 100 each, all six 1000; plus with 2 canastas, otherwise minus."""
    return canasta.ThreeRules(
        schedule=(0, 100, 200, 300, 400, 500, 1000),
        sign=canasta.ThreeSign.NEGATIVE_WITHOUT_CANASTA,
        canastas_for_plus=2,
    )


@canasta.hookimpl
def canasta_going_out() -> canasta.GoingOutRules:
    """§9.8: two canastas of any class; 200 for going out; no concealed bonus."""
    return canasta.GoingOutRules(canastas_required=2, bonus=200, concealed_bonus=None)


@canasta.hookimpl
def canasta_meld_types() -> tuple[object, ...]:
    """§9.3 to §9.5: groups, sequences, and black threes when going out."""
    return (GroupType(), SequenceType(), BlackThreeGroupType())


@canasta.hookimpl
def canasta_target_score() -> int:
    """§9.11: the game ends at 10000."""
    return 10000


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the Samba page of the rule book."""
    return variant_sections("samba")
