"""The Cuban rule hooks: only what differs from classic."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import (
    BlackThreeRules,
    CanastaBonuses,
    ExhaustionRules,
    GoingOutRules,
    MeldMinimums,
    MeldRules,
    PileRules,
    ThreeRules,
    ThreeSign,
)
from canasta.rulebook import variant_sections


@canasta.hookimpl
def canasta_hand_size(players: int) -> int:
    """Thirteen cards each."""
    return 13


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """Always frozen: a natural pair only, never a layoff, never before the side has melded."""
    pile: PileRules = yield
    return attrs.evolve(pile, always_frozen=True, unmelded_side_may_take=False, natural_and_wild=False, layoff=False)


@canasta.hookimpl(wrapper=True)
def canasta_black_threes() -> Generator[None, BlackThreeRules, BlackThreeRules]:
    """Pile black threes set aside (5 each, 100 for four, melded ones too); no discard in round one; −100 in hand."""
    black: BlackThreeRules = yield
    return attrs.evolve(
        black,
        no_discard_first_round=True,
        set_aside_from_pile=True,
        set_aside_schedule=(0, 5, 10, 15, 100),
        melded_count_with_set_aside=True,
        in_hand_penalty=100,
    )


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """Wild melds allowed; a meld is closed at 7 cards."""
    melds: MeldRules = yield
    return attrs.evolve(melds, wild_melds=True, max_size=7)


@canasta.hookimpl(wrapper=True)
def canasta_canasta_bonuses() -> Generator[None, CanastaBonuses, CanastaBonuses]:
    """Wild canastas: seven 2s 4000, four jokers and three 2s 3000, any other 2000."""
    bonuses: CanastaBonuses = yield
    return attrs.evolve(bonuses, wild_by_jokers=((0, 4000), (4, 3000)), wild=2000)


@canasta.hookimpl(wrapper=True)
def canasta_meld_minimums() -> Generator[None, MeldMinimums, MeldMinimums]:
    """The classic table plus 150 at 5000 or more."""
    minimums: MeldMinimums = yield
    return attrs.evolve(minimums, steps=(*minimums.steps, (5000, 150)))


@canasta.hookimpl
def canasta_threes() -> ThreeRules:
    """Red threes 100/300/500/1000, counted only with a canasta, otherwise subtracted."""
    return ThreeRules(schedule=(0, 100, 300, 500, 1000), sign=ThreeSign.NEGATIVE_WITHOUT_CANASTA)


@canasta.hookimpl(wrapper=True)
def canasta_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
    """No concealed bonus: going out is 100 in every case."""
    going_out: GoingOutRules = yield
    return attrs.evolve(going_out, concealed_bonus=None)


@canasta.hookimpl(wrapper=True)
def canasta_stock_exhaustion() -> Generator[None, ExhaustionRules, ExhaustionRules]:
    """A discard matching a side's meld must be taken even though the pile is always frozen."""
    exhaustion: ExhaustionRules = yield
    return attrs.evolve(exhaustion, forced_take_by_layoff=True)


@canasta.hookimpl
def canasta_target_score() -> int:
    """Game to 7500."""
    return 7500


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the cuban page of the rule book."""
    return variant_sections("cuban")
