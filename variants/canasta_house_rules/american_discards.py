"""House rule ``american-discards`` for modern American canasta (club form): the discard restrictions.

- D1: a three is never discarded (modern American lays every three out anyway).
- D2: the final discard of going out may be any card but a three.
- D3: otherwise a wild card is discarded only when every card of the hand was
  wild just after this turn's stock draw.
- D4: onto an empty pile (the first discard of the hand, or after taking the
  pile) no *stop card* (an ace, a seven, a wild card, or a card of a rank
  closed by ``dead-ranks``) is discarded while the hand holds a *plain* card,
  one that is neither a stop card nor a three.
- D5: no meld or pile take may leave the player unable to end the turn (what
  "legal" means, everywhere); with the pile empty, none may leave him without a
  plain card, unless he then holds one card and his side has the canastas to go
  out with it; and a player owed bonus cards (``american-talon``) after this
  turn's discard need not keep a card.

The engine reads these as `canasta.PileRules.empty_pile_stops`,
`canasta.PileRules.wild_discard_needs_wild_hand` and
`canasta.InitialMeldRules.bonus_cards_stand_for_kept_card` (`canasta.discards`).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import InitialMeldRules, Kind, PileRules
from canasta.rulebook import house_rule_section
from canasta_house_rules._club import canasta_going_out as canasta_going_out  # the club rules' going out

#: The stop cards of an empty pile besides the closed ranks: aces, sevens and the wild cards.
STOP_CARDS = frozenset({Kind.ACE, Kind.SEVEN, Kind.TWO, Kind.JOKER})


@canasta.hookimpl(wrapper=True)
def canasta_pile_rules() -> Generator[None, PileRules, PileRules]:
    """Stop cards stay off an empty pile (D4, D5) and wild cards off any pile but from an all-wild hand (D3)."""
    pile: PileRules = yield
    return attrs.evolve(
        pile, empty_pile_stops=pile.empty_pile_stops | STOP_CARDS, wild_discard_needs_wild_hand=True
    )


@canasta.hookimpl(wrapper=True)
def canasta_initial_meld() -> Generator[None, InitialMeldRules, InitialMeldRules]:
    """A player owed bonus cards after this turn's discard need not keep a card (D5 c)."""
    initial: InitialMeldRules = yield
    return attrs.evolve(initial, bonus_cards_stand_for_kept_card=True)


@canasta.hookimpl
def canasta_rule_sections() -> dict[canasta.RuleCode, canasta.RuleSection]:
    """The discard restrictions' refusals cite this house rule's page."""
    section = house_rule_section("american-discards", "Discard restrictions")
    return {
        canasta.RuleCode.WILD_DISCARD: section,
        canasta.RuleCode.EMPTY_PILE_DISCARD: section,
        canasta.RuleCode.NO_PLAIN_CARD: section,
    }
