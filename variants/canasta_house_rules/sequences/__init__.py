"""The rule options of the sequence games (the rule book's §9.13, §10.9 and §11.7) as house rules.

Each is a small module of wrapper hooks that changes only what it names. Their fits
follow the base chain (``bolivia`` is ``samba`` with overrides, ``brazilian`` is
``bolivia`` with overrides):

- ``samba-160`` (`canasta_house_rules.sequences.samba_160`): ``samba`` and ``bolivia``, not ``brazilian``
  (whose openings from 7000 need a canasta, not a count);
- ``samba-top-card-only`` (`canasta_house_rules.sequences.samba_top_card_only`): all three games;
- ``bolivia-free-wilds`` (`canasta_house_rules.sequences.bolivia_free_wilds`): ``bolivia`` and ``brazilian``;
- ``brazilian-escalera-to-go-out`` (`canasta_house_rules.sequences.brazilian_escalera_to_go_out`) and
  ``brazilian-wild-2500`` (`canasta_house_rules.sequences.brazilian_wild_2500`): ``brazilian`` only.
"""

from __future__ import annotations

import canasta
from canasta_house_rules.sequences import (
    bolivia_free_wilds,
    brazilian_escalera_to_go_out,
    brazilian_wild_2500,
    samba_160,
    samba_top_card_only,
)

__version__ = "1.0"

HOUSE_RULES: tuple[canasta.HouseRule, ...] = (
    canasta.HouseRule(
        name="samba-160",
        description="The minimum at 7000 or more is 160 instead of 150.",
        plugins=(samba_160,),
        applies_to=frozenset({"samba"}),
        excludes=frozenset({"brazilian"}),
        version=__version__,
        source="Bicycle, HowStuffWorks",
    ),
    canasta.HouseRule(
        name="samba-top-card-only",
        description="Taking the top card onto a sequence takes only that card; the rest of the pile stays.",
        plugins=(samba_top_card_only,),
        applies_to=frozenset({"samba"}),
        version=__version__,
        source="pagat.com (Dutch Samba), as one implementation reads it",
    ),
    canasta.HouseRule(
        name="bolivia-free-wilds",
        description="A group holds any number of wild cards, and wild cards may join a group canasta.",
        plugins=(bolivia_free_wilds,),
        applies_to=frozenset({"bolivia"}),
        version=__version__,
        source="whiteknucklecards.com",
    ),
    canasta.HouseRule(
        name="brazilian-escalera-to-go-out",
        description="Going out needs two canastas, at least one an escalera.",
        plugins=(brazilian_escalera_to_go_out,),
        applies_to=frozenset({"brazilian"}),
        version=__version__,
        source="rummy-games.com",
    ),
    canasta.HouseRule(
        name="brazilian-wild-2500",
        description="A wild canasta scores 2500.",
        plugins=(brazilian_wild_2500,),
        applies_to=frozenset({"brazilian"}),
        version=__version__,
        source="whiteknucklecards.com",
    ),
)
