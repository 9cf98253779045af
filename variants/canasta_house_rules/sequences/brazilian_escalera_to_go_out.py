"""House rule ``brazilian-escalera-to-go-out`` (the rule book's §11.7): going out needs an escalera.

Going out needs two canastas, at least one of them an escalera (Bolivia's rule,
§10.5, kept; the rummy-games reading). It fits ``brazilian``.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import CanastaClass, GoingOutRules
from canasta.rulebook import house_rule_section


@canasta.hookimpl(wrapper=True)
def canasta_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
    """§11.7: two canastas, at least one an escalera (Bolivia's rule kept)."""
    going_out: GoingOutRules = yield
    return attrs.evolve(going_out, canastas_by_class=((CanastaClass.SEQUENCE, 1),))


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A refused going out cites this house rule's page (it changes the canastas needed)."""
    section = house_rule_section("brazilian-escalera-to-go-out", "Brazilian escalera to go out")
    return {canasta.RuleCode.GOING_OUT_NOT_ALLOWED: section}
