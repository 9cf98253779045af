"""House rule ``last-red-three-may-meld`` (SPEC.md §1 rule options).

When the last stock card drawn is a red three (a bonus three), the player may
still meld, but not discard, before the hand ends.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import ExhaustionRules


@canasta.hookimpl(wrapper=True)
def canasta_stock_exhaustion() -> Generator[None, ExhaustionRules, ExhaustionRules]:
    """Melding is allowed after a last-card red three."""
    exhaustion: ExhaustionRules = yield
    return attrs.evolve(exhaustion, last_red_three_may_meld=True)
