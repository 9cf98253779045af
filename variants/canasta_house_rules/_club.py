"""What every club rule of modern American brings along (the rule book's club form, "Conflicts").

With any club rule on, a side may not go out while it holds an incomplete
natural meld of aces or of sevens, or an incomplete wild meld. Each club rule's
module exposes this one wrapper, so the rule holds whichever of them is
stacked (and stacking several changes nothing more).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import GoingOutRules, Kind

#: The melds that, incomplete, keep a side from going out under the club rules.
NOT_WITH_INCOMPLETE = frozenset({Kind.ACE, Kind.SEVEN, Kind.JOKER})


@canasta.hookimpl(wrapper=True)
def canasta_going_out() -> Generator[None, GoingOutRules, GoingOutRules]:
    """No going out with an incomplete natural meld of aces or sevens, or an incomplete wild meld."""
    going_out: GoingOutRules = yield
    return attrs.evolve(going_out, not_with_incomplete=going_out.not_with_incomplete | NOT_WITH_INCOMPLETE)
