"""The actions of the sequence games (`SEQUENCES.md` §9 to §12), as one vocabulary for records, commands and RL.

Samba, Bolivia and Brazilian canasta play today's `canasta.DrawStock`,
`canasta.AskGoOut`, `canasta.AnswerGoOut` and `canasta.EndHand`; their
discard names a natural card's suit (``Discard(kind, suit=...)``); and they
meld and take the pile with the lossless actions of `canasta.suitedmelds`
(`LayGroup`, `LaySequence`, `Extend`, `LayWild`, `Combine`,
`LayBlackThrees`) and `canasta.suitedpile` (`PileTake`), which name melds by
their identity (a number per side, in creation order, never reused). This
module gathers them under two names, and the bounds the rule book sets on
their fields, which `canasta.records`, `canasta.commands` and
`canasta.rl.SequenceActionSpace` share.

*Status (issue 34):* records read and write these actions, the command
grammar types and shows them, and the RL space numbers them (``ActionSpace(rules)``
gives it for rule sets with meld types); the terminal's game loop does not use them yet.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from canasta.actions import AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand
from canasta.meldtypes import ACE, LOWEST_SEQUENCE_RANK, BlackThreeGroupType, WildMeldType
from canasta.suitedmeldactions import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild, SuitedMeld
from canasta.suitedpile import PileTake

__all__ = [
    "BLACK_THREES_MAX",
    "BLACK_THREES_MIN",
    "HIGHEST_RANK",
    "LOWEST_RANK",
    "MELD_SLOTS",
    "SEQUENCE_GAME_ACTION_TYPES",
    "SUITED_ACTION_TYPES",
    "WILD_MELD_MAX",
    "SequenceGameAction",
    "SuitedAction",
]

#: The actions only the sequence games have: their melds and their pile takes.
SuitedAction: TypeAlias = SuitedMeld | PileTake

#: Every action of a sequence game: the suited ones, and today's draw, discard (naming a natural's
#: suit), permission and end of the hand.
SequenceGameAction: TypeAlias = DrawStock | AskGoOut | AnswerGoOut | EndHand | Discard | SuitedAction

#: The classes of `SuitedAction`, for an exact type test.
SUITED_ACTION_TYPES: Final[frozenset[type]] = frozenset(
    {LayGroup, LaySequence, Extend, LayWild, Combine, LayBlackThrees, PileTake}
)
#: The classes of `SequenceGameAction`.
SEQUENCE_GAME_ACTION_TYPES: Final[frozenset[type]] = SUITED_ACTION_TYPES | {
    DrawStock,
    AskGoOut,
    AnswerGoOut,
    EndHand,
    Discard,
}

#: The lowest rank of a sequence and of a group (the 4; §9, "Sequence order").
LOWEST_RANK: Final = LOWEST_SEQUENCE_RANK
#: The highest (the ace, never below the 4).
HIGHEST_RANK: Final = ACE
#: Meld identities a side uses in a hand are ``0 .. MELD_SLOTS - 1`` (§12: a side holds at most 51
#: melds; every new meld takes 3 cards or more, so a side of the 162-card deck numbers at most 54).
MELD_SLOTS: Final = 64
#: Cards a wild meld holds at most (Bolivia's 7, §10.1: `canasta.meldtypes.WildMeldType`'s default).
WILD_MELD_MAX: Final = WildMeldType().max_size
#: Black threes one going-out group holds (3 to 6, §9.5 and the decided points: `BlackThreeGroupType`'s).
BLACK_THREES_MIN: Final = BlackThreeGroupType().min_size
#: The most (the deck's six).
BLACK_THREES_MAX: Final = BlackThreeGroupType().max_size
