"""House rule ``score-minimums`` for Hand and Foot (§8.13): minimums by score, and a game to 10,000.

The initial-meld minimum follows the side's total before the deal: below 2500
(negative totals included) 50; 2500 to 4995 90; 5000 to 7495 120; 7500 or more
150. The game ends after the deal in which a side reaches 10,000; the highest
total wins, equal highest totals are a draw. The game no longer ends after 4
deals.
"""

from __future__ import annotations

from collections.abc import Generator

import canasta
from canasta import GameLength, MeldMinimums
from canasta.rulebook import house_rule_section

#: The minimum by the side's total before the deal: ``(from_score, minimum)``; below 0 as from 0.
STEPS = ((0, 50), (2500, 90), (5000, 120), (7500, 150))
#: The total that ends the game.
TARGET = 10000


@canasta.hookimpl(wrapper=True)
def canasta_meld_minimums() -> Generator[None, MeldMinimums, MeldMinimums]:
    """50, 90, 120 or 150 by the side's total (below 2500, from 2500, 5000, 7500)."""
    yield
    return MeldMinimums(below_zero=STEPS[0][1], steps=STEPS)


@canasta.hookimpl(wrapper=True)
def canasta_game_length(target_score: int | None) -> Generator[None, GameLength, GameLength]:
    """The game ends when a side reaches 10,000, whatever the number of deals."""
    yield
    return GameLength(target_score=TARGET)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """A minimum not met cites this house rule's page (its table by score)."""
    return {canasta.RuleCode.MINIMUM_NOT_MET: house_rule_section("score-minimums", "Score minimums")}
