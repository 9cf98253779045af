"""The Bolivia rule hooks (the rule book's §10): only what differs from Samba."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import CanastaClass
from canasta.meldtypes import BlackThreeGroupType, GroupType, SequenceType, WildMeldType
from canasta.rulebook import variant_sections


@canasta.hookimpl
def canasta_meld_types() -> tuple[object, ...]:
    """§10.1: wild melds of 3 to 7 wild cards beside Samba's groups, sequences and black threes."""
    return (GroupType(), SequenceType(), WildMeldType(), BlackThreeGroupType())


@canasta.hookimpl(wrapper=True)
def canasta_canasta_bonuses() -> Generator[None, canasta.CanastaBonuses, canasta.CanastaBonuses]:
    """§10.7: a bolivia (7 wild cards) scores 2500."""
    bonuses: canasta.CanastaBonuses = yield
    return attrs.evolve(bonuses, wild=2500)


@canasta.hookimpl
def canasta_going_out() -> canasta.GoingOutRules:
    """§10.5: two canastas, at least one an escalera; 200 for going out."""
    return canasta.GoingOutRules(
        canastas_required=2, canastas_by_class=((CanastaClass.SEQUENCE, 1),), bonus=200, concealed_bonus=None
    )


@canasta.hookimpl
def canasta_black_threes() -> canasta.BlackThreeRules:
    """§10.6: a black three left in a hand counts −100."""
    return canasta.BlackThreeRules(in_hand_penalty=100)


@canasta.hookimpl
def canasta_target_score() -> int:
    """§10.7: the game ends at 15000."""
    return 15000


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the Bolivia page of the rule book."""
    return variant_sections("bolivia")
