"""House rule ``samba-160`` (the rule book's §9.13): the minimum at 7000 or more is 160 instead of 150.

Bicycle's and HowStuffWorks' table. It fits ``samba`` and ``bolivia`` (whose
minimum stays Samba's from 7000, §10.4), not ``brazilian``, whose openings from
7000 need a canasta instead of a count (§11.1).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import MeldMinimums
from canasta.rulebook import house_rule_section

#: The score from which the minimum changes, and the minimum from there.
FROM, MINIMUM = 7000, 160


@canasta.hookimpl(wrapper=True)
def canasta_meld_minimums() -> Generator[None, MeldMinimums, MeldMinimums]:
    """§9.13: 160 instead of 150 from 7000."""
    table: MeldMinimums = yield
    return attrs.evolve(table, steps=tuple((s, MINIMUM if s == FROM else m) for s, m in table.steps))


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A refused opening cites this house rule's page (it changes the minimum)."""
    return {canasta.RuleCode.MINIMUM_NOT_MET: house_rule_section("samba-160", "Samba 160")}
