"""House rule ``bolivia-free-wilds`` (the rule book's §10.9): a group holds any number of wild cards.

A group still needs 2 naturals, but it may hold any number of wild cards, for
laying, adding and combining alike, and wild cards may join a group canasta
(which then becomes mixed). The Whiteknucklecards reading. It fits ``bolivia``
and ``brazilian``.
"""

from __future__ import annotations

from collections.abc import Generator

import canasta
from canasta.meldtypes import GroupType
from canasta.rulebook import house_rule_section


@canasta.hookimpl(wrapper=True)
def canasta_meld_types() -> Generator[None, tuple[object, ...], tuple[object, ...]]:
    """§10.9: a group needs 2 naturals and holds any number of wild cards, which may join a canasta."""
    found: tuple[object, ...] = yield
    free = GroupType(max_wilds=None, wild_size_limit=None)
    return tuple(free if isinstance(t, GroupType) else t for t in found)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A refused meld cites this house rule's page (it changes a group's limits)."""
    return {canasta.RuleCode.INVALID_MELD: house_rule_section("bolivia-free-wilds", "Bolivia free wilds")}
