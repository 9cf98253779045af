"""The sequence games' meld actions, and which of them are legal (`SEQUENCES.md` §9.3 to §9.5, §9.12, §11.3, §11.6).

The actions are lossless (§12): a group names its naturals by suit (which K♥
goes into a group decides which sequences stay possible), a new sequence is
(suit, low, high), an extension names its meld and its new ends, a
combination names two melds, and melds are named by their identity (a number
per side, in creation order). `legal_melds` lists the meld phase's legal
actions: what the meld types allow (`canasta.meldtypes`), and only those after
which the turn can still be completed (SPEC §0, by the searches of
`canasta.suitedsearch`): an unopened side's opening must stay reachable, a
player left with one card or none, bound by a "yes", or growing an escalera
past 7 cards (or laying a sequence of 8 or more, or black threes) must be able
to go out, and without permission to go out no action may leave going out as
the only way to end the turn.

The engine plays the sequence games with them (`canasta.suitedlegality`); they
are tested against the enumeration of every continuation
(`tests/test_suited_melds.py`). A provisional opening meld must leave the opening
reachable with two cards still held (a discard then keeps one; `joining` counts a
taken pile's cards, which join once the side opens), or the side may open and go
out in the turn (a sound test: the two are searched apart, and never where the
opening needs a canasta). Black threes are never laid in the turn of the opening
before the opening is complete (refused).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import product

from attrs import field, frozen

from canasta.cards import Kind, Suit
from canasta.meldtypes import (
    BlackThreeGroupType,
    BlackThreeShape,
    GroupShape,
    GroupType,
    MeldShape,
    MeldType,
    SequenceShape,
    SequenceType,
    WildMeldType,
    WildShape,
    first_of,
    judging,
)
from canasta.rules import DEFAULT_CARD_VALUES, CanastaClass, GoingOutRules
from canasta.suitedsearch import (
    NATURAL_RANKS,
    OpeningRequirement,
    SuitedHand,
    can_go_out,
    class_bits,
    opening_reachable,
)

__all__ = [
    "Combine",
    "Extend",
    "LayBlackThrees",
    "LayGroup",
    "LaySequence",
    "LayWild",
    "SuitedMeld",
    "allowed_melds",
    "legal_melds",
    "opening_met",
    "opens_and_goes_out",
]


def _suit_counts(value: Iterable[int]) -> tuple[int, int, int, int]:
    counts = tuple(value)
    if len(counts) != 4 or any(type(c) is not int or c < 0 for c in counts):
        raise ValueError(f"suits are four counts (clubs, diamonds, hearts, spades) of 0 or more, got {value!r}")
    return counts[0], counts[1], counts[2], counts[3]


@frozen
class LayGroup:
    """Natural cards of one rank, by suit, and wild cards: a new group, or onto one of the side's groups.

    Attributes:
        rank: The natural rank (4 to 14).
        suits: How many naturals of each suit (clubs, diamonds, hearts, spades).
        twos: 2s.
        jokers: Jokers.
        meld: The group it joins (its identity), or ``None`` for a new group.
    """

    rank: int
    suits: tuple[int, int, int, int] = field(converter=_suit_counts)
    twos: int = 0
    jokers: int = 0
    meld: int | None = None

    @property
    def naturals(self) -> int:
        """Its natural cards."""
        return sum(self.suits)


@frozen
class LaySequence:
    """A new sequence of one suit, from ``low`` to ``high``.

    Attributes:
        suit: The suit.
        low: The lowest rank.
        high: The highest rank.
    """

    suit: Suit = field(converter=Suit)
    low: int
    high: int


@frozen
class Extend:
    """Cards of the suit added at the ends of one of the side's sequences, to its new ends.

    Attributes:
        meld: The sequence (its identity).
        low: Its new lowest rank.
        high: Its new highest rank.
    """

    meld: int
    low: int
    high: int


@frozen
class LayWild:
    """Wild cards: a new wild meld, or onto one of the side's wild melds.

    Attributes:
        twos: 2s.
        jokers: Jokers.
        meld: The wild meld it joins, or ``None`` for a new one.
    """

    twos: int
    jokers: int = 0
    meld: int | None = None


@frozen
class Combine:
    """Two of the side's melds merged into one, which keeps the older's identity (§9.3).

    Attributes:
        first: The older meld.
        second: The other.
    """

    first: int
    second: int


@frozen
class LayBlackThrees:
    """Every black three of the hand as one group, by a player going out (§9.5).

    Attributes:
        count: The black threes.
    """

    count: int


#: A meld action of the sequence games.
SuitedMeld = LayGroup | LaySequence | Extend | LayWild | Combine | LayBlackThrees


def _take(hand: SuitedHand, action: SuitedMeld, melds: Mapping[int, MeldShape]) -> SuitedHand | None:
    """The hand after the action's cards leave it, or ``None`` if it does not hold them."""
    naturals = list(hand.naturals)
    twos, jokers, black = hand.twos, hand.jokers, hand.black_threes
    if isinstance(action, LayGroup):
        for suit, n in enumerate(action.suits):
            naturals[(action.rank - 4) * 4 + suit] -= n
        twos -= action.twos
        jokers -= action.jokers
    elif isinstance(action, LaySequence):
        for rank in range(action.low, action.high + 1):
            naturals[(rank - 4) * 4 + action.suit] -= 1
    elif isinstance(action, Extend):
        meld = melds.get(action.meld)
        if not isinstance(meld, SequenceShape):
            return None
        for rank in (*range(action.low, meld.low), *range(meld.high + 1, action.high + 1)):
            naturals[(rank - 4) * 4 + meld.suit] -= 1
    elif isinstance(action, LayWild):
        twos -= action.twos
        jokers -= action.jokers
    elif isinstance(action, LayBlackThrees):
        black -= action.count
    if min(naturals) < 0 or min(twos, jokers, black) < 0:
        return None
    return SuitedHand(tuple(naturals), twos, jokers, black)


def _value(hand: SuitedHand, values: Sequence[int]) -> int:
    naturals = sum(n * values[NATURAL_RANKS[i // 4]] for i, n in enumerate(hand.naturals))
    return naturals + hand.twos * values[Kind.TWO] + hand.jokers * values[Kind.JOKER]


def _candidates(
    hand: SuitedHand, melds: Mapping[int, MeldShape], types: Sequence[MeldType], next_number: int | None = None
) -> list[tuple[SuitedMeld, dict[int, MeldShape], bool]]:
    """What the meld types allow: (action, the melds after it, whether it binds the player to go out)."""
    groups = first_of(types, GroupType)
    sequences = first_of(types, SequenceType)
    wilds = first_of(types, WildMeldType)
    threes = first_of(types, BlackThreeGroupType)
    if next_number is None:
        next_number = max(melds, default=-1) + 1
    found: list[tuple[SuitedMeld, dict[int, MeldShape], bool]] = []

    def offer(action: SuitedMeld, kind: MeldType, before: MeldShape | None, shape: MeldShape) -> None:
        after = dict(melds)
        key = next_number if before is None else getattr(action, "meld")  # noqa: B009
        after[key] = shape
        if before is None:
            if kind.valid(shape):
                found.append((action, after, False))
            elif kind.valid(shape, going_out=True):
                found.append((action, after, True))  # (Brazilian: a sequence of 8 or more, going out)
        elif kind.can_add(before, shape):
            found.append((action, after, False))
        elif kind.can_add(before, shape, going_out=True):
            found.append((action, after, True))  # (Brazilian: an escalera past 7, going out)

    if isinstance(groups, GroupType):
        for r, rank in enumerate(NATURAL_RANKS):
            held = hand.naturals[r * 4 : r * 4 + 4]
            targets: list[tuple[int | None, GroupShape | None]] = [(None, None)]
            targets += [(k, m) for k, m in sorted(melds.items()) if isinstance(m, GroupShape) and m.rank == rank]
            for suits in product(*(range(c + 1) for c in held)):
                n = sum(suits)
                for t in range(hand.twos + 1):
                    for j in range(hand.jokers + 1):
                        if n + t + j == 0:
                            continue
                        for key, old in targets:
                            action = LayGroup(rank, suits, t, j, key)
                            if old is None:
                                offer(action, groups, None, GroupShape(rank, n, t, j))
                            else:
                                grown = GroupShape(rank, old.naturals + n, old.twos + t, old.jokers + j)
                                offer(action, groups, old, grown)
    if isinstance(sequences, SequenceType):
        for suit in Suit:
            held = hand.of_suit(suit)
            for lo in range(len(NATURAL_RANKS)):
                for hi in range(lo, len(NATURAL_RANKS)):
                    if not held[hi]:
                        break
                    run = SequenceShape(suit, NATURAL_RANKS[lo], NATURAL_RANKS[hi])
                    offer(LaySequence(suit, run.low, run.high), sequences, None, run)
        for key, meld in sorted(melds.items()):
            if not isinstance(meld, SequenceShape):
                continue
            held = hand.of_suit(meld.suit)
            lows = [meld.low]
            while lows[-1] > 4 and held[lows[-1] - 5]:
                lows.append(lows[-1] - 1)
            highs = [meld.high]
            while highs[-1] < 14 and held[highs[-1] - 3]:
                highs.append(highs[-1] + 1)
            for low in lows:
                for high in highs:
                    if (low, high) != (meld.low, meld.high):
                        offer(Extend(key, low, high), sequences, meld, SequenceShape(meld.suit, low, high))
    if isinstance(wilds, WildMeldType):
        targets_w: list[tuple[int | None, WildShape | None]] = [(None, None)]
        targets_w += [(k, m) for k, m in sorted(melds.items()) if isinstance(m, WildShape)]
        for t in range(hand.twos + 1):
            for j in range(hand.jokers + 1):
                if t + j:
                    for key, old_w in targets_w:
                        if old_w is None:
                            offer(LayWild(t, j), wilds, None, WildShape(t, j))
                        else:
                            offer(LayWild(t, j, key), wilds, old_w, WildShape(old_w.twos + t, old_w.jokers + j))
    for (a, first), (b, second) in product(sorted(melds.items()), repeat=2):
        if a < b:
            kind = judging(types, first)
            merged = kind.combine(first, second) if kind is not None and kind.judges(second) else None
            if merged is not None:
                after = {k: m for k, m in melds.items() if k != b}
                after[a] = merged
                found.append((Combine(a, b), after, False))
    if isinstance(threes, BlackThreeGroupType) and hand.black_threes:
        group = BlackThreeShape(hand.black_threes)
        if threes.valid(group, going_out=True):
            after = dict(melds)
            after[next_number] = group
            found.append((LayBlackThrees(hand.black_threes), after, True))
    return found


def legal_melds(
    hand: SuitedHand,
    melds: Mapping[int, MeldShape],
    types: Sequence[MeldType],
    *,
    opened: bool,
    opening: OpeningRequirement,
    count: int = 0,
    quota: GoingOutRules,
    bound: bool = False,
    may_go_out: bool = True,
    next_number: int | None = None,
    values: Sequence[int] = DEFAULT_CARD_VALUES,
    joining: int = 0,
) -> list[SuitedMeld]:
    """The legal meld actions of a meld phase (what the types allow, and the turn still completable).

    Args:
        hand: The player's hand.
        melds: The side's melds by identity.
        types: The rule set's meld types.
        opened: The side has completed its initial meld (in an earlier turn or in this one).
        opening: What an initial meld needs (read while the side has not opened).
        count: While it has not opened, the count of the cards laid this turn
            (its melds are this turn's).
        quota: The going-out quota.
        bound: The player is bound by a "yes" to go out this turn.
        may_go_out: The player may go out this turn (``False`` after a "no",
            or where permission is mandatory and no "yes" was given).
        next_number: The identity a new meld of the side takes (numbers of
            combined melds are never reused, §9.3); ``None``: one more than the
            highest of ``melds``.
        values: Card values indexed by `canasta.Kind`.
        joining: Cards that join the hand when the opening completes (a pile an
            unopened side took, pending until then; its red threes left out).

    Returns:
        The legal actions, in the order: groups (by rank, suits, wild cards,
        target), sequences, extensions, wild melds, combinations, black threes.
    """
    legal: list[SuitedMeld] = []
    for action, after, going_out_only in _candidates(hand, melds, types, next_number):
        rest = _take(hand, action, melds)
        if rest is None:
            continue
        table = list(after.values())
        if not opened:
            now = count + _value(hand, values) - _value(rest, values)
            if not opening_met(now, table, types, opening):
                # A provisional opening meld (§9.12): the opening must stay reachable, and the turn then
                # end (a discard that keeps a card, the pile's cards counted, or going out where the
                # player may); nothing that only going out allows is laid before the opening is complete.
                keep = max(0, 2 - joining)
                if not going_out_only and (
                    opening_reachable(rest, opening, types, melds=table, count=now, values=values, keep=keep)
                    or (may_go_out and opens_and_goes_out(rest, table, types, quota, opening, now, values))
                ):
                    legal.append(action)
                continue
        if rest.size + joining >= 2 and not bound and not going_out_only:
            legal.append(action)  # a discard keeps a card
        elif may_go_out and can_go_out(rest, table, types, quota):
            legal.append(action)
    return legal


def opens_and_goes_out(
    hand: SuitedHand,
    melds: Sequence[MeldShape],
    types: Sequence[MeldType],
    quota: GoingOutRules,
    opening: OpeningRequirement,
    count: int,
    values: Sequence[int],
    joining: SuitedHand | None = None,
) -> bool:
    """Whether an unopened side can open and go out in this turn (a sound test: the two searched apart).

    Going out lays every card but at most a final discard, ``joining`` included (a taken pile's
    cards, which join the hand once the side opens): the count then reaches at least the hand's
    cards' value less the most valuable one. Never claimed where the opening needs a canasta.

    Args:
        hand: The cards held now.
        melds: The side's melds (laid in this turn).
        types: The rule set's meld types.
        quota: The going-out quota.
        opening: What the opening needs.
        count: The count of the cards laid so far.
        values: Card values indexed by `canasta.Kind`.
        joining: Cards that join the hand when the opening completes.

    Returns:
        ``True`` only if the side can surely open and go out.
    """
    everything = hand if joining is None else hand.plus(joining)
    if opening.canasta_classes or not can_go_out(everything, melds, types, quota):
        return False
    worst = max((values[NATURAL_RANKS[i // 4]] for i, n in enumerate(hand.naturals) if n), default=0)
    if hand.twos:
        worst = max(worst, values[Kind.TWO])
    if hand.jokers:
        worst = max(worst, values[Kind.JOKER])
    return count + _value(hand, values) - worst >= opening.count


def allowed_melds(
    hand: SuitedHand,
    melds: Mapping[int, MeldShape],
    types: Sequence[MeldType],
    *,
    opened: bool,
    opening: OpeningRequirement,
    count: int = 0,
    next_number: int | None = None,
    values: Sequence[int] = DEFAULT_CARD_VALUES,
) -> list[SuitedMeld]:
    """What the meld types allow in a meld phase, before the completion filter of `legal_melds` (SPEC §0).

    Every action whose cards the hand holds and whose result its type accepts, a
    going-out-only one included (an escalera past 7, a long sequence, black threes:
    then only going out ends the turn), except such an action before the side's
    opening is complete (the reading this module states). For references
    (`canasta.HandState.allowed_actions`); players use `legal_melds`.

    Args:
        hand: The player's hand.
        melds: The side's melds by identity.
        types: The rule set's meld types.
        opened: The side has completed its initial meld.
        opening: What an initial meld needs (read while the side has not opened).
        count: While it has not opened, the count of the cards laid this turn.
        next_number: The identity a new meld of the side takes.
        values: Card values indexed by `canasta.Kind`.

    Returns:
        The allowed actions, in `legal_melds`' order.
    """
    allowed: list[SuitedMeld] = []
    for action, after, going_out_only in _candidates(hand, melds, types, next_number):
        rest = _take(hand, action, melds)
        if rest is None:
            continue
        if going_out_only and not opened:
            now = count + _value(hand, values) - _value(rest, values)
            if not opening_met(now, list(after.values()), types, opening):
                continue
        allowed.append(action)
    return allowed


def opening_met(count: int, melds: Sequence[MeldShape], types: Sequence[MeldType], need: OpeningRequirement) -> bool:
    """Whether the melds laid this turn, counting ``count``, meet the opening's requirement.

    Args:
        count: The count of the cards laid in the opening turn.
        melds: The side's melds (an unopened side's: all laid in this turn).
        types: The rule set's meld types.
        need: The opening's requirement.

    Returns:
        True if the count and the canasta asked for (if any) are there.
    """
    made = set()
    for meld in melds:
        kind = judging(types, meld)
        made.add(kind.canasta_class(meld) if kind is not None else None)
    return need.met(count, class_bits([cls in made for cls in CanastaClass]))
