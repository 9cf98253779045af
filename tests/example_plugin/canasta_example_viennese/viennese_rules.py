"""The Viennese rule hooks: only what differs from classic, as wrappers around its answers."""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, canasta.PileRules, canasta.PileRules]:
    """The one-card rule is lifted (SOURCES.md D19)."""
    rules = yield
    return attrs.evolve(rules, one_card_rule=False)


@canasta.hookimpl(wrapper=True)
def canasta_threes() -> Generator[None, canasta.ThreeRules, canasta.ThreeRules]:
    """Red threes count against a side that has no canasta (SOURCES.md D5)."""
    rules = yield
    return attrs.evolve(rules, sign=canasta.ThreeSign.NEGATIVE_WITHOUT_CANASTA)


#: Where Viennese's pile rules are written: pagat's page on canasta, its variations.
PILE_SECTION = canasta.RuleSection(
    id="variations",
    title="Variations: Viennese, taking the pile without the one-card rule",
    page="https://www.pagat.com/rummy/canasta.html",
    book="rules of viennese",
)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Viennese restates how the pile is taken (no one-card rule): those refusals cite its text.

    Every other code keeps classic's section (the base's answer).
    """
    pile_codes = (
        canasta.RuleCode.PILE_EMPTY,
        canasta.RuleCode.PILE_BLOCKED,
        canasta.RuleCode.PILE_FROZEN,
        canasta.RuleCode.PILE_NEEDS_MATCH,
        canasta.RuleCode.ONE_CARD_RULE,
    )
    return dict.fromkeys(pile_codes, PILE_SECTION)
