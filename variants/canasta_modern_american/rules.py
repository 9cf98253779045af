"""The modern American rule hooks: only what differs from classic."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import (
    CanastaBonuses,
    ExhaustionRules,
    GoingOutRules,
    InitialMeldRules,
    Kind,
    MeldMinimums,
    MeldRules,
    Permission,
    PileRules,
    ThreeRules,
    ThreeSign,
    Upcard,
)
from canasta.rulebook import variant_sections


@canasta.hookimpl
def canasta_hand_size(players: int) -> int:
    """Thirteen cards each."""
    return 13


@canasta.hookimpl
def canasta_upcard() -> Upcard:
    """No upcard: the discard pile starts empty."""
    return Upcard.NONE


@canasta.hookimpl
def canasta_draw_count() -> int:
    """Draw 2 from the stock (a single last stock card counts as a full draw)."""
    return 2


@canasta.hookimpl
def canasta_threes() -> ThreeRules:
    """All threes are bonus cards, scored per colour 100/300/500/1000, signed by the side's canastas."""
    return ThreeRules(schedule=(0, 100, 300, 500, 1000), sign=ThreeSign.BY_CANASTA_COUNT, black_threes_are_bonus=True)


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """Always frozen: a natural pair only (the 7-card cap limits where the three cards go)."""
    pile: PileRules = yield
    return attrs.evolve(pile, always_frozen=True, natural_and_wild=False, layoff=False)


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """At most 2 wild cards, capped at 7 cards, sevens natural only, wild melds; threes never meld."""
    melds: MeldRules = yield
    return attrs.evolve(
        melds,
        max_wilds=2,
        max_size=7,
        natural_only=frozenset({Kind.SEVEN}),
        wild_melds=True,
        black_threes_when_going_out=False,
    )


@canasta.hookimpl
def canasta_meld_minimums() -> MeldMinimums:
    """Below 3000 (negative included) 125; 3000 to 4995 155; 5000 or more 180."""
    return MeldMinimums(below_zero=125, steps=((0, 125), (3000, 155), (5000, 180)))


@canasta.hookimpl(wrapper=True)
def canasta_initial_meld() -> Generator[None, InitialMeldRules, InitialMeldRules]:
    """The top card does not count; the opening must include a clean meld of 3+ naturals from the hand.

    There is no concealed exemption: a side going out in the turn
    of its first meld meets the minimum and the clean-meld requirement.
    """
    initial: InitialMeldRules = yield
    return attrs.evolve(initial, top_card_counts=False, clean_meld_naturals=3, concealed_exemption=False)


@canasta.hookimpl(wrapper=True)
def canasta_canasta_bonuses() -> Generator[None, CanastaBonuses, CanastaBonuses]:
    """Natural sevens 2500; wild canastas: seven 2s 3000, all four jokers 2500, any other 2000."""
    bonuses: CanastaBonuses = yield
    return attrs.evolve(
        bonuses, natural_by_rank=((Kind.SEVEN, 2500),), wild_by_jokers=((0, 3000), (4, 2500)), wild=2000
    )


@canasta.hookimpl
def canasta_incomplete_meld_penalties() -> tuple[tuple[Kind, int], ...]:
    """An incomplete meld of sevens costs 2500, an incomplete wild meld 2000."""
    return ((Kind.SEVEN, 2500), (Kind.JOKER, 2000))


@canasta.hookimpl(wrapper=True)
def canasta_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
    """Two canastas and a final discard; no concealed bonus; permission at most once per hand."""
    going_out: GoingOutRules = yield
    return attrs.evolve(
        going_out,
        canastas_required=2,
        final_discard_required=True,
        concealed_bonus=None,
        permission=Permission.ONCE_PER_HAND,
    )


@canasta.hookimpl(wrapper=True)
def canasta_stock_exhaustion() -> Generator[None, ExhaustionRules, ExhaustionRules]:
    """The hand ends when a player is due to draw from an empty stock: no forced takes."""
    exhaustion: ExhaustionRules = yield
    return attrs.evolve(exhaustion, continue_with_discards=False, forced_take=False)


@canasta.hookimpl
def canasta_target_score() -> int:
    """Game to 8500."""
    return 8500


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Every rule code cites its section of the modern-american page of the rule book."""
    return variant_sections("modern-american")
