"""House rule ``samba-top-card-only`` (the rule book's §9.13): a take onto a sequence takes the top card only.

Taking the discard pile by adding its top card alone to an end of one of the
side's sequences (§9.7 (c)) takes only that card, which goes onto the sequence;
the rest of the pile stays, with its freezing unchanged, and the take still
replaces the 2-card draw. Pagat's Dutch form as one implementation reads it. It
fits all three sequence games.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import PileRules


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """§9.13: the top card alone onto a sequence takes only that card."""
    pile: PileRules = yield
    return attrs.evolve(pile, sequence_take_top_only=True)
