"""House rule ``wilds-at-most-naturals`` (SPEC.md §1 rule options).

A meld never holds more wild cards than naturals, instead of the variant's
fixed wild-card limit alone (both hold). Wild melds are unaffected.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import MeldRules


@canasta.hookimpl(wrapper=True)
def canasta_meld_rules() -> Generator[None, MeldRules, MeldRules]:
    """No meld with more wild cards than naturals."""
    melds: MeldRules = yield
    return attrs.evolve(melds, wilds_at_most_naturals=True)
