"""House rule ``american-talon`` for modern American canasta.

The Canasta League of America form: draw 1 card per turn, and after the
discard that ends the turn of its initial meld the side's melder takes 4
bonus cards from the stock if the side melded first, 3 if second; none once
8 or fewer stock cards remain, and none when the opening was made by taking
the pile (the pile's cards replace them).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import InitialMeldRules


@canasta.hookimpl
def canasta_draw_count() -> int:
    """Draw 1 card per turn."""
    return 1


@canasta.hookimpl(wrapper=True)
def canasta_initial_meld() -> Generator[None, InitialMeldRules, InitialMeldRules]:
    """Bonus cards after the initial meld: 4 for the first side, 3 for the second; none at 8 stock cards or fewer."""
    initial: InitialMeldRules = yield
    return attrs.evolve(initial, bonus_cards=(4, 3), bonus_cards_stock_floor=8)
