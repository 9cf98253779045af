"""House rule ``brazilian-wild-2500`` (the rule book's §11.7): a wild canasta scores 2500, as in Bolivia.

The Whiteknucklecards reading. It fits ``brazilian``.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import CanastaBonuses

#: The wild canasta's bonus (Bolivia's, §10.7).
WILD = 2500


@canasta.hookimpl(wrapper=True)
def canasta_canasta_bonuses() -> Generator[None, CanastaBonuses, CanastaBonuses]:
    """§11.7: a wild canasta scores 2500, as in Bolivia."""
    bonuses: CanastaBonuses = yield
    return attrs.evolve(bonuses, wild=WILD)
