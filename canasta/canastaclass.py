"""The classes of canasta (a *book kind*): one concept, kept apart so that meld types and rules both read it.

`canasta.rules` re-exports it (its historical home); `canasta.meldtypes` reads it from here,
so the meld types and the rules need no import of each other.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

__all__ = ["CLASS_BIT", "CLASS_INDEX", "CanastaClass"]


class CanastaClass(Enum):
    """A canasta's class (a *book kind*): what its bonus and a going-out quota count it as.

    An enum used as a key (`GoingOutRules.canastas_by_class`, `CanastaBonuses`), so
    that a family with more kinds of canasta adds a member here (the sequence games'
    sequence) rather than a flag beside the others.
    """

    #: Natural cards only (a "clean" book).
    NATURAL = "natural"
    #: Natural cards and at least one wild card (a "dirty" book).
    MIXED = "mixed"
    #: Wild cards only (a wild meld's canasta).
    WILD = "wild"
    #: A sequence of one suit (the sequence games' samba or escalera: `canasta.meldtypes.SequenceType`).
    SEQUENCE = "sequence"
    #: Natural cards only, of a rank the rules count as a class of its own (`canasta.MeldRules.special_ranks`:
    #: the Pierson family's natural sevens, worth their own bonus and needed apart from the other clean books).
    SPECIAL = "special"


#: Each class's place in `CanastaClass` order: the index of its count in a list of counts by class
#: (`canasta.HandState.canastas_by_class`, the going-out searches' tallies).
CLASS_INDEX: Final[dict[CanastaClass, int]] = {cls: i for i, cls in enumerate(CanastaClass)}
#: Each class's bit (``1 << CLASS_INDEX[cls]``), for a set of classes kept as one int.
CLASS_BIT: Final[dict[CanastaClass, int]] = {cls: 1 << i for cls, i in CLASS_INDEX.items()}
