"""House rule ``aces-pure`` for modern American canasta (club form).

An aces meld takes wild cards only from the hand, in the turn of the side's
initial meld; one formed by taking the pile stays natural even then, and one
still natural when that turn ends is natural for the rest of the hand. A
natural aces canasta scores 2500 and an incomplete natural aces meld costs
2500; a mixed aces meld is an ordinary meld (canasta 300, no penalty).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import CanastaBonuses, Kind, MeldRules
from canasta.rulebook import house_rule_section
from canasta_house_rules._club import canasta_going_out as canasta_going_out  # the club rules' going out

#: The natural aces canasta's bonus, and the incomplete natural aces meld's penalty.
NATURAL_ACES = 2500


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """Aces take wild cards only in the side's opening turn."""
    melds: MeldRules = yield
    return attrs.evolve(melds, wilds_only_when_opening=melds.wilds_only_when_opening | {Kind.ACE})


@canasta.hookimpl(wrapper=True)
def canasta_canasta_bonuses() -> Generator[None, CanastaBonuses, CanastaBonuses]:
    """A natural aces canasta scores 2500."""
    bonuses: CanastaBonuses = yield
    by_rank = tuple((k, v) for k, v in bonuses.natural_by_rank if k != Kind.ACE)
    return attrs.evolve(bonuses, natural_by_rank=(*by_rank, (Kind.ACE, NATURAL_ACES)))


@canasta.hookimpl(wrapper=True)
def canasta_incomplete_natural_meld_penalties() -> Generator[
    None, tuple[tuple[Kind, int], ...], tuple[tuple[Kind, int], ...]
]:
    """An incomplete natural aces meld costs 2500."""
    below: tuple[tuple[Kind, int], ...] = yield
    return (*((k, v) for k, v in below if k != Kind.ACE), (Kind.ACE, NATURAL_ACES))


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A wild card refused on a natural aces meld cites this house rule's page."""
    return {canasta.RuleCode.NATURAL_LOCKED: house_rule_section("aces-pure", "Aces pure")}
