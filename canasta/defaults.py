"""The core's default answers: a plugin registered first in every game.

These are the structural defaults every variant starts from. The numbers that
define a variant (players, deal, deck, minimum table, target score) have no
default here: a variant that forgets one gets a clear error when its rules are
compiled.
"""

from __future__ import annotations

from collections.abc import Mapping

from canasta.cards import Kind
from canasta.errors import RuleCode, RuleSection
from canasta.markers import hookimpl
from canasta.meldtypes import MeldType
from canasta.rulebook import variant_sections
from canasta.rules import (
    DEFAULT_CARD_VALUES,
    BlackThreeRules,
    CanastaBonuses,
    ExhaustionRules,
    GameLength,
    GoingOutRules,
    InitialMeldRules,
    MeldRules,
    PacketRules,
    PartnershipRules,
    PileRules,
    ThreeRules,
    Upcard,
)
from canasta.special import SpecialHand


@hookimpl(trylast=True)
def canasta_sides(players: int) -> tuple[int, ...]:
    """Everyone plays alone unless the variant seats partnerships."""
    return tuple(range(players))


@hookimpl(trylast=True)
def canasta_draw_count() -> int:
    """One card from the stock per turn."""
    return 1


@hookimpl(trylast=True)
def canasta_upcard() -> Upcard:
    """Turn an upcard, covered while wild or a red three."""
    return Upcard.COVER_WILD_AND_RED_THREE


@hookimpl(trylast=True)
def canasta_card_values() -> tuple[int, ...]:
    """Classic's card values."""
    return DEFAULT_CARD_VALUES


@hookimpl(trylast=True)
def canasta_initial_meld() -> InitialMeldRules:
    """Top card counts, concealed exemption, no clean-meld requirement."""
    return InitialMeldRules()


@hookimpl(trylast=True)
def canasta_meld_rules() -> MeldRules:
    """2 naturals, at most 3 wild cards, no size cap, no wild melds."""
    return MeldRules()


@hookimpl(trylast=True)
def canasta_canasta_bonuses() -> CanastaBonuses:
    """Natural 500, mixed 300."""
    return CanastaBonuses()


@hookimpl(trylast=True)
def canasta_pile_rules() -> PileRules:
    """Frozen by wild cards and red threes, and for a side that has not melded."""
    return PileRules()


@hookimpl(trylast=True)
def canasta_threes() -> ThreeRules:
    """Red threes 100 each, 800 for four, negative without a meld."""
    return ThreeRules()


@hookimpl(trylast=True)
def canasta_black_threes() -> BlackThreeRules:
    """Black threes are stop cards worth 5."""
    return BlackThreeRules()


@hookimpl(trylast=True)
def canasta_going_out() -> GoingOutRules:
    """One canasta, optional final discard, 100 (concealed 200), permission optional."""
    return GoingOutRules()


@hookimpl(trylast=True)
def canasta_stock_exhaustion() -> ExhaustionRules:
    """Play on with forced takes of matching discards."""
    return ExhaustionRules()


@hookimpl(trylast=True)
def canasta_incomplete_meld_penalties() -> tuple[tuple[Kind, int], ...]:
    """No penalties for incomplete melds."""
    return ()


@hookimpl(trylast=True)
def canasta_incomplete_natural_meld_penalties() -> tuple[tuple[Kind, int], ...]:
    """No penalties for incomplete natural melds."""
    return ()


@hookimpl(trylast=True)
def canasta_held_card_penalties() -> tuple[tuple[Kind, int, int], ...]:
    """No penalties for cards held at the end of a hand beyond their values."""
    return ()


@hookimpl(trylast=True)
def canasta_special_hands() -> tuple[SpecialHand, ...]:
    """No special hands."""
    return ()


@hookimpl(trylast=True)
def canasta_partnerships() -> PartnershipRules:
    """The seating holds for the whole hand."""
    return PartnershipRules()


@hookimpl(trylast=True)
def canasta_packets(players: int) -> PacketRules:
    """No packet after the hand."""
    return PacketRules()


@hookimpl(trylast=True)
def canasta_meld_types() -> tuple[MeldType, ...]:
    """No meld types: melds of one rank (`canasta.MeldRules`)."""
    return ()


@hookimpl(trylast=True)
def canasta_rule_sections() -> Mapping[RuleCode, RuleSection]:
    """Classic's rule book, for every code (the base every variant changes)."""
    return variant_sections("classic")


@hookimpl(trylast=True)
def canasta_game_length(target_score: int | None) -> GameLength:
    """The game ends when a side reaches the target score (no fixed number of deals)."""
    return GameLength(target_score=target_score)
