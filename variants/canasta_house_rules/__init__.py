"""The house rules of the rule book as stackable plugins.

Each house rule is a small module of rule hooks that wraps the answer of the
variant below it, so it stacks on any variant it fits:

- ``black-three-freezes`` (`canasta_house_rules.black_three_freezes`), any variant of classic's family;
- ``wilds-at-most-naturals`` (`canasta_house_rules.wilds_at_most_naturals`), any variant of classic's family;
- ``last-red-three-may-meld`` (`canasta_house_rules.last_red_three_may_meld`), any variant of classic's family;
- ``cutthroat`` (`canasta_house_rules.cutthroat`), three-player only;
- ``american-talon`` (`canasta_house_rules.american_talon`), modern-american only;
- ``american-discards`` (`canasta_house_rules.american_discards`), modern-american only;
- ``american-special-hands`` (`canasta_house_rules.american_special_hands`) and its pagat form
  ``american-special-hands-pagat`` (`canasta_house_rules.american_special_hands_pagat`), which exclude each
  other, modern-american only;
- ``aces-pure`` (`canasta_house_rules.aces_pure`), modern-american only;
- ``dead-ranks`` (`canasta_house_rules.dead_ranks`), modern-american only;
- ``held-aces-sevens-penalty`` (`canasta_house_rules.held_aces_sevens_penalty`), modern-american only;
- ``rule-of-five`` (`canasta_house_rules.rule_of_five`), modern-american only;
- ``splash`` (`canasta_house_rules.splash`), modern-american only;
- the rule options of Hand and Foot (`canasta_house_rules.hand_and_foot`), hand-and-foot only: ``deal-eleven``,
  ``decks-per-player``, ``eights-nines-five``, ``wild-limit-three``, ``no-wild-books``, ``pile-whole``,
  ``pile-three``, ``pile-six``, ``pile-onto-meld``, ``pile-needs-opening``, ``black-three-penalty-100``,
  ``-300`` and ``-0``, ``quota-1-1``, ``quota-2-2``, ``quota-1-1-1``, ``quota-3-4``, ``foot-ends-turn``,
  ``foot-after-first-book``,
  ``discard-to-go-out``, ``no-permission``, ``partner-foot-free``, ``going-out-bonus-200`` and ``-500``,
  ``score-minimums``.
- the rule options of the sequence games (`canasta_house_rules.sequences`): ``samba-160`` (samba and bolivia),
  ``samba-top-card-only`` (samba, bolivia and brazilian), ``bolivia-free-wilds`` (bolivia and brazilian),
  ``brazilian-escalera-to-go-out`` and ``brazilian-wild-2500`` (brazilian only).

The club rules of modern American (``american-special-hands`` in either form, ``american-discards``,
``aces-pure``, ``dead-ranks``, ``held-aces-sevens-penalty``, ``rule-of-five``, ``splash``) each bring along
the club form's going-out rule (`canasta_house_rules._club`).
"""

from __future__ import annotations

import canasta
from canasta_house_rules import (
    aces_pure,
    american_discards,
    american_special_hands,
    american_special_hands_pagat,
    american_talon,
    black_three_freezes,
    cutthroat,
    dead_ranks,
    held_aces_sevens_penalty,
    last_red_three_may_meld,
    rule_of_five,
    splash,
    wilds_at_most_naturals,
)
from canasta_house_rules.hand_and_foot import HOUSE_RULES as HAND_AND_FOOT_OPTIONS
from canasta_house_rules.sequences import HOUSE_RULES as SEQUENCE_OPTIONS

__version__ = "1.0"
#: The special-hands house rules' version: 1.1 keeps a three for the Straight (records of 1.0 replay no longer).
SPECIAL_HANDS_VERSION = "1.1"

HOUSE_RULES = (
    canasta.HouseRule(
        name="black-three-freezes",
        description="A discarded or upcard black three freezes the pile until taken.",
        plugins=(black_three_freezes,),
        # Meaningless where the pile is always frozen (and, in modern American,
        # black threes never reach the pile), or never frozen (Hand and Foot).
        excludes=frozenset({"cuban", "modern-american", "hand-and-foot"}),
        version=__version__,
        source="a reading of the 1950s rules",
    ),
    canasta.HouseRule(
        name="wilds-at-most-naturals",
        description="A meld never holds more wild cards than naturals.",
        plugins=(wilds_at_most_naturals,),
        # (Hand and Foot's own limit is two naturals per wild card: its options change that. The sequence
        # games state their limits in their meld types, §9.13: a group already holds at most 2 wild cards.)
        excludes=frozenset({"hand-and-foot", "samba"}),
        version=__version__,
        source="a common house rule",
    ),
    canasta.HouseRule(
        name="last-red-three-may-meld",
        description="When the last stock card is a red three, the player may meld (but not discard) first.",
        plugins=(last_red_three_may_meld,),
        # (Hand and Foot plays the last red three out by its own rule, §8.9; the sequence games' engine
        # does not play it yet.)
        excludes=frozenset({"hand-and-foot", "samba"}),
        version=__version__,
        source="a common house rule",
    ),
    canasta.HouseRule(
        name="cutthroat",
        description="The first player to take the pile plays alone against the other two as a partnership; "
        "game to 7500.",
        plugins=(cutthroat,),
        applies_to=frozenset({"three-player"}),
        version=__version__,
        source="pagat.com cutthroat canasta",
    ),
    canasta.HouseRule(
        name="american-talon",
        description="Draw 1; after its initial meld a side takes 4 bonus cards if it melded first, 3 if second.",
        plugins=(american_talon,),
        applies_to=frozenset({"modern-american"}),
        version=__version__,
        source="Canasta League of America",
    ),
    canasta.HouseRule(
        name="american-discards",
        description="No three is discarded; a wild card only from an all-wild hand after the draw; onto an empty "
        "pile no ace, seven, wild card or dead-rank card while another card can go; no meld leaves none.",
        plugins=(american_discards,),
        applies_to=frozenset({"modern-american"}),
        version=__version__,
        source="Canasta League of America",
    ),
    canasta.HouseRule(
        name="american-special-hands",
        description="A side that has not melded may declare one of eleven 14-card special hands (2000 to 3500; "
        "the Dream Hands 8500 and the game).",
        plugins=(american_special_hands,),
        applies_to=frozenset({"modern-american"}),
        conflicts=frozenset({"american-special-hands-pagat"}),
        version=SPECIAL_HANDS_VERSION,
        source="Canasta League of America",
    ),
    canasta.HouseRule(
        name="american-special-hands-pagat",
        description="The special hands in pagat's form: Straight 3000, Pairs 2500, Pairs with twos 2000, "
        "Garbage 2000.",
        plugins=(american_special_hands_pagat,),
        applies_to=frozenset({"modern-american"}),
        conflicts=frozenset({"american-special-hands"}),
        version=SPECIAL_HANDS_VERSION,
        source="pagat.com modern American",
    ),
    canasta.HouseRule(
        name="aces-pure",
        description="Aces take wild cards only in the side's opening turn; natural aces canasta 2500, "
        "incomplete natural aces meld -2500.",
        plugins=(aces_pure,),
        applies_to=frozenset({"modern-american"}),
        version=__version__,
        source="Canasta League of America",
    ),
    canasta.HouseRule(
        name="dead-ranks",
        description="Once either side's meld of a rank reaches 7 cards, nobody may meld that rank or take the "
        "pile with it on top.",
        plugins=(dead_ranks,),
        applies_to=frozenset({"modern-american"}),
        version=__version__,
        source="Canasta League of America",
    ),
    canasta.HouseRule(
        name="held-aces-sevens-penalty",
        description="At the end of a hand, 1500 against the side for each player holding 3 or more aces, "
        "and again for 3 or more sevens.",
        plugins=(held_aces_sevens_penalty,),
        applies_to=frozenset({"modern-american"}),
        version=__version__,
        source="Canasta League of America",
    ),
    canasta.HouseRule(
        name="rule-of-five",
        description="After the opening turn a wild card joins a natural meld only if it then holds 5 naturals; "
        "no wild card goes there while the wild meld is incomplete; no mixed canasta in the opening.",
        plugins=(rule_of_five,),
        applies_to=frozenset({"modern-american"}),
        version=__version__,
        source="Canasta League of America",
    ),
    canasta.HouseRule(
        name="splash",
        description="In the opening turn, a natural or wild canasta laid from the hand opens without the minimum "
        "or the clean meld.",
        plugins=(splash,),
        applies_to=frozenset({"modern-american"}),
        version=__version__,
        source="pagat.com modern American",
    ),
    *HAND_AND_FOOT_OPTIONS,
    *SEQUENCE_OPTIONS,
)


@canasta.hookimpl
def canasta_house_rules() -> list[canasta.HouseRule]:
    """Contribute the house rules."""
    return list(HOUSE_RULES)
