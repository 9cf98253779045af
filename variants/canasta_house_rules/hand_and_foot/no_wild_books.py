"""House rule ``no-wild-books`` for Hand and Foot (§8.13): no wild melds, so no wild book.

A wild card melds only in a rank meld; the going-out quota's wild book becomes 0;
a 2 or a joker on top of the pile cannot be taken (it could only be taken into
a wild meld). A quota option that needs a wild book cannot be stacked with it
(the house rule's ``conflicts``); any other stack that still asks for a wild
book is refused when the rules are compiled.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import CanastaClass, GoingOutRules, MeldRules, PileRules
from canasta.rulebook import house_rule_section


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """No wild meld."""
    melds: MeldRules = yield
    return attrs.evolve(melds, wild_melds=False)


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """A wild card on top of the pile is not taken by a pair of its kind."""
    pile: PileRules = yield
    return attrs.evolve(pile, wild_pair=False)


@canasta.hookimpl(wrapper=True)
def canasta_going_out(players: int) -> Generator[None, GoingOutRules, GoingOutRules]:
    """The quota needs no wild book."""
    going_out: GoingOutRules = yield
    by_class = tuple((cls, n) for cls, n in going_out.canastas_by_class if cls is not CanastaClass.WILD)
    return attrs.evolve(going_out, canastas_by_class=by_class)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A refused wild meld cites this house rule's page."""
    return {canasta.RuleCode.WILD_MELD: house_rule_section("no-wild-books", "No wild books")}
