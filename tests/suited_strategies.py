"""Hypothesis strategies and enumerations of the sequence games' actions, within the rule book's bounds.

Shared by the tests of their records, commands and RL ids (``tests/test_suited_*.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import strategies as st

from canasta.actions import AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand
from canasta.cards import Kind, Suit
from canasta.suitedactions import MELD_SLOTS, SequenceGameAction
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

NATURAL_RANKS = range(4, 15)
SLOTS = st.integers(0, MELD_SLOTS - 1)
TARGETS = st.none() | SLOTS
#: A group action's wild cards: at most 2 (§9.3).
GROUP_WILDS = [(t, j) for t in range(3) for j in range(3) if t + j <= 2]
#: A wild meld action's: 1 to 7 (§10.1; 6 jokers in the deck).
WILD_MELDS = [(t, j) for t in range(8) for j in range(7) if 1 <= t + j <= 7]
PAIRS = [(Suit(a), Suit(b)) for a in range(4) for b in range(a, 4)]
FIXED: list[SequenceGameAction] = [DrawStock(), AskGoOut(), AnswerGoOut(True), AnswerGoOut(False), EndHand()]


@st.composite
def groups(draw: st.DrawFn) -> LayGroup:
    """A group action of one card or more."""
    suits = draw(st.tuples(*[st.integers(0, 3)] * 4))
    twos, jokers = draw(st.sampled_from(GROUP_WILDS))
    if not (sum(suits) or twos or jokers):
        twos = 1
    return LayGroup(draw(st.sampled_from(NATURAL_RANKS)), suits, twos, jokers, draw(TARGETS))


@st.composite
def windows(draw: st.DrawFn, shortest: int) -> tuple[int, int]:
    """A rank window of ``shortest`` cards or more between the 4 and the ace."""
    low = draw(st.integers(4, 15 - shortest))
    return low, draw(st.integers(low + shortest - 1, 14))


def discards() -> st.SearchStrategy[Discard]:
    """A natural's discard with its suit, or a 2, a joker or a black three."""
    suited = st.builds(
        lambda rank, suit: Discard(Kind(rank), suit=suit), st.sampled_from(NATURAL_RANKS), st.sampled_from(Suit)
    )
    return suited | st.sampled_from([Discard(Kind.TWO), Discard(Kind.JOKER), Discard(Kind.BLACK_THREE)])


def pile_takes() -> st.SearchStrategy[PileTake]:
    """A take with a pair (new group or onto a group), or of the top card alone onto a meld."""
    pairs = st.builds(lambda meld, pair: PileTake(TakeMode.PAIR, meld, pair), TARGETS, st.sampled_from(PAIRS))
    alone = st.builds(PileTake, st.sampled_from([TakeMode.TOP_ONTO_GROUP, TakeMode.TOP_ONTO_SEQUENCE]), SLOTS)
    return pairs | alone


def combines() -> st.SearchStrategy[Combine]:
    """Two melds, the older (lower number) first."""
    return st.tuples(SLOTS, SLOTS).filter(lambda p: p[0] != p[1]).map(lambda p: Combine(min(p), max(p)))


def sequence_game_actions() -> st.SearchStrategy[SequenceGameAction]:
    """Any action of a sequence game within the rule book's bounds (one card or more where cards move)."""
    return st.one_of(
        st.sampled_from(FIXED),
        discards(),
        pile_takes(),
        st.builds(lambda suit, w: LaySequence(suit, *w), st.sampled_from(Suit), windows(3)),
        st.builds(lambda meld, w: Extend(meld, *w), SLOTS, windows(4)),
        combines(),
        st.builds(lambda w, meld: LayWild(*w, meld=meld), st.sampled_from(WILD_MELDS), TARGETS),
        st.builds(LayBlackThrees, st.integers(3, 6)),
        groups(),
    )


def every_action_but_groups() -> Iterator[SequenceGameAction]:
    """Every action of the bounds above but the groups (7,544 of them)."""
    yield from FIXED
    for rank in NATURAL_RANKS:
        for suit in Suit:
            yield Discard(Kind(rank), suit=suit)
    yield from (Discard(Kind.TWO), Discard(Kind.JOKER), Discard(Kind.BLACK_THREE))
    targets = [None, *range(MELD_SLOTS)]
    for meld in targets:
        for pair in PAIRS:
            yield PileTake(TakeMode.PAIR, meld, pair)
    for mode in (TakeMode.TOP_ONTO_GROUP, TakeMode.TOP_ONTO_SEQUENCE):
        for slot in range(MELD_SLOTS):
            yield PileTake(mode, slot)
    for suit in Suit:
        for low in range(4, 13):
            for high in range(low + 2, 15):
                yield LaySequence(suit, low, high)
    for slot in range(MELD_SLOTS):
        for low in range(4, 12):
            for high in range(low + 3, 15):
                yield Extend(slot, low, high)
    for first in range(MELD_SLOTS):
        for second in range(first + 1, MELD_SLOTS):
            yield Combine(first, second)
    for meld in targets:
        for twos, jokers in WILD_MELDS:
            yield LayWild(twos, jokers, meld)
    for count in range(3, 7):
        yield LayBlackThrees(count)


def groups_of(rank: int, targets: tuple[int | None, ...]) -> Iterator[LayGroup]:
    """Every group action of one rank onto the given targets (one card or more)."""
    for meld in targets:
        for c in range(4):
            for d in range(4):
                for h in range(4):
                    for s in range(4):
                        for twos, jokers in GROUP_WILDS:
                            if c + d + h + s + twos + jokers:
                                yield LayGroup(rank, (c, d, h, s), twos, jokers, meld)
