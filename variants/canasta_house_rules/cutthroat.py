"""House rule ``cutthroat`` for three players.

The first player in a hand to take the discard pile plays alone for the rest
of the hand; the other two become a partnership. Their melds stay as they
were and become the partnership's: either partner may add to any of them, and
a rank both held stays two melds, each obeying the meld rules on its own (the
actions' ``second`` flag names the second one); no new meld of a rank the
partnership holds. The partners may ask each other "may I go out?". If
someone goes out before anyone took the pile, that player is the lone hand;
if nobody did either, all three score alone. Each player keeps a personal
score and minimum, both partners are credited the partnership's result (each
canasta with its bonus), and red threes score per player. Game to 7500.

The engine does the regrouping (`canasta.PartnershipRules`); the core keeps
permission for a variant without partners at the table when a partnership
rule will make some.
"""

from __future__ import annotations

import canasta
from canasta import PartnershipRules
from canasta.rulebook import house_rule_section


@canasta.hookimpl
def canasta_partnerships() -> PartnershipRules:
    """The first taker plays alone; the others join as partners."""
    return PartnershipRules(first_taker_alone=True, threes_per_player=True)


@canasta.hookimpl
def canasta_target_score() -> int:
    """Game to 7500."""
    return 7500


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """Asking permission exists only between the partners this rule forms: those refusals cite its page."""
    section = house_rule_section("cutthroat", "Cutthroat")
    return {
        canasta.RuleCode.PERMISSION_NOT_AVAILABLE: section,
        canasta.RuleCode.GOING_OUT_REFUSED: section,
        canasta.RuleCode.MUST_GO_OUT: section,
    }
