"""The Brazilian canasta rule hooks (the rule book's §11): only what differs from Bolivia."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import CanastaClass
from canasta.meldtypes import BlackThreeGroupType, GroupType, SequenceType, WildMeldType
from canasta.rulebook import variant_sections

#: §11.1: the canasta classes an opening needs from 7000 (any) and from 9000 (any but mixed).
_ANY = frozenset(CanastaClass)
_NOT_MIXED = frozenset({CanastaClass.NATURAL, CanastaClass.SEQUENCE, CanastaClass.WILD})


@canasta.hookimpl
def canasta_meld_minimums() -> canasta.MeldMinimums:
    """§11.1: counts to 6995, then a canasta (7000), a canasta and 200 (8000), a clean canasta (9000)."""
    return canasta.MeldMinimums(
        below_zero=15,
        steps=((0, 50), (1500, 90), (3000, 120), (7000, 0), (8000, 200), (9000, 0)),
        canastas=((7000, _ANY), (9000, _NOT_MIXED)),
    )


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, canasta.PileRules, canasta.PileRules]:
    """§11.2: a side that has not opened never takes the pile."""
    pile: canasta.PileRules = yield
    return attrs.evolve(pile, unmelded_side_may_take=False)


@canasta.hookimpl
def canasta_meld_types() -> tuple[object, ...]:
    """§11.3, §11.5: escaleras grow to 11 cards when going out; a sequence under 5 cards costs 1000."""
    return (
        GroupType(),
        SequenceType(going_out_max_size=11, short_size=5, short_penalty=1000),
        WildMeldType(),
        BlackThreeGroupType(),
    )


@canasta.hookimpl
def canasta_going_out() -> canasta.GoingOutRules:
    """§11.4: any two canastas, and the partner's "yes" in that turn."""
    return canasta.GoingOutRules(
        canastas_required=2, bonus=200, concealed_bonus=None, permission=canasta.Permission.REQUIRED
    )


@canasta.hookimpl
def canasta_threes() -> canasta.ThreeRules:
    """§11.5: 100 each to four, 1000 for five, 1200 for six; plus with one canasta."""
    return canasta.ThreeRules(
        schedule=(0, 100, 200, 300, 400, 1000, 1200),
        sign=canasta.ThreeSign.NEGATIVE_WITHOUT_CANASTA,
        canastas_for_plus=1,
    )


@canasta.hookimpl(wrapper=True)
def canasta_canasta_bonuses() -> Generator[None, canasta.CanastaBonuses, canasta.CanastaBonuses]:
    """§11.5: a wild canasta scores 2000."""
    bonuses: canasta.CanastaBonuses = yield
    return attrs.evolve(bonuses, wild=2000)


@canasta.hookimpl
def canasta_target_score() -> int:
    """§11.5: the game ends at 10000."""
    return 10000


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the Brazilian canasta page of the rule book."""
    return variant_sections("brazilian")
