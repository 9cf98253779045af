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

from collections.abc import Callable, Iterable, Mapping, Sequence
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
    return SuitedHand.counted(tuple(naturals), twos, jokers, black)


def _value(hand: SuitedHand, values: Sequence[int]) -> int:
    naturals = sum(n * values[NATURAL_RANKS[i // 4]] for i, n in enumerate(hand.naturals))
    return naturals + hand.twos * values[Kind.TWO] + hand.jokers * values[Kind.JOKER]


#: A candidate meld action: (action, the meld number it sets, the shape set there, the number a
#: combination removes, whether only a going-out turn allows it, the cards it takes from the hand).
_Candidate = tuple[SuitedMeld, int, MeldShape, int | None, bool, int]

#: Bound on each memo table below (a long run meets many hands; cleared whole when full).
_MEMO_SIZE = 1 << 16
# Verdicts of the meld types with the shape judged, by type then by the shapes' numbers: 0 refused,
# 1 allowed, 2 only in a going-out turn. Types are frozen values whose answers depend only on the
# shapes (`canasta.meldtypes`), so each question is asked once.
_VERDICTS: dict[MeldType, dict[tuple[object, ...], tuple[int, MeldShape]]] = {}
# The actions, made once each: they are frozen values (a legal list shares them safely).
_ACTIONS: dict[tuple[object, ...], SuitedMeld] = {}
# The suit choices of a rank's naturals held, in `itertools.product` order, with their sizes.
_SUIT_CHOICES: dict[tuple[int, ...], tuple[tuple[tuple[int, int, int, int], int], ...]] = {}


def _verdicts(kind: MeldType) -> dict[tuple[object, ...], tuple[int, MeldShape]]:
    table = _VERDICTS.get(kind)
    if table is None or len(table) > _MEMO_SIZE:
        if len(_VERDICTS) > 64:
            _VERDICTS.clear()
        table = _VERDICTS[kind] = {}
    return table


def _new_verdict(kind: MeldType, shape: MeldShape) -> int:
    """Whether a new meld of this shape may be laid: 1, only in a going-out turn: 2, never: 0."""
    if kind.valid(shape):
        return 1
    return 2 if kind.valid(shape, going_out=True) else 0


def _add_verdict(kind: MeldType, before: MeldShape, shape: MeldShape) -> int:
    """Whether a meld may grow into this shape: 1, only in a going-out turn: 2, never: 0."""
    if kind.can_add(before, shape):
        return 1
    return 2 if kind.can_add(before, shape, going_out=True) else 0


def _action(key: tuple[object, ...], make: Callable[[], SuitedMeld]) -> SuitedMeld:
    action = _ACTIONS.get(key)
    if action is None:
        if len(_ACTIONS) > _MEMO_SIZE:
            _ACTIONS.clear()
        action = _ACTIONS[key] = make()
    return action


def _suit_choices(held: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
    choices = _SUIT_CHOICES.get(held)
    if choices is None:
        choices = tuple(
            ((a, b, c, d), a + b + c + d) for a, b, c, d in product(*(range(count + 1) for count in held))
        )
        if len(_SUIT_CHOICES) > _MEMO_SIZE:
            _SUIT_CHOICES.clear()
        _SUIT_CHOICES[held] = choices
    return choices


def _candidates(
    hand: SuitedHand, melds: Mapping[int, MeldShape], types: Sequence[MeldType], next_number: int | None = None
) -> list[_Candidate]:
    """What the meld types allow, each action once, in `legal_melds`' order (see `_Candidate`)."""
    groups = first_of(types, GroupType)
    sequences = first_of(types, SequenceType)
    wilds = first_of(types, WildMeldType)
    threes = first_of(types, BlackThreeGroupType)
    if next_number is None:
        next_number = max(melds, default=-1) + 1
    found: list[_Candidate] = []
    ordered = sorted(melds.items())
    if isinstance(groups, GroupType):
        verdicts = _verdicts(groups)
        twos, jokers = hand.twos, hand.jokers
        naturals = hand.naturals
        for r, rank in enumerate(NATURAL_RANKS):
            held = naturals[r * 4 : r * 4 + 4]
            targets: list[tuple[int | None, GroupShape | None]] = [(None, None)]
            targets += [(k, m) for k, m in ordered if isinstance(m, GroupShape) and m.rank == rank]
            # Per natural count: the (2s, jokers, target, shape, verdict) allowed, in the actions' order.
            allowed: list[list[tuple[int, int, int | None, MeldShape, int]]] = []
            for n in range(sum(held) + 1):
                row: list[tuple[int, int, int | None, MeldShape, int]] = []
                for t in range(twos + 1):
                    for j in range(jokers + 1):
                        if n + t + j == 0:
                            continue
                        for key, old in targets:
                            if old is None:
                                memo: tuple[object, ...] = (rank, n, t, j)
                                known = verdicts.get(memo)
                                if known is None:
                                    shape = GroupShape(rank, n, t, j)
                                    known = verdicts[memo] = (_new_verdict(groups, shape), shape)
                            else:
                                memo = (rank, old.naturals, old.twos, old.jokers, n, t, j)
                                known = verdicts.get(memo)
                                if known is None:
                                    shape = GroupShape(rank, old.naturals + n, old.twos + t, old.jokers + j)
                                    known = verdicts[memo] = (_add_verdict(groups, old, shape), shape)
                            if known[0]:
                                row.append((t, j, key, known[1], known[0]))
                allowed.append(row)
            if not any(allowed):
                continue
            for suits, n in _suit_choices(held):
                for t, j, key, laid, verdict in allowed[n]:
                    action = _action(
                        (LayGroup, rank, suits, t, j, key),
                        lambda: LayGroup(rank, suits, t, j, key),  # noqa: B023 (called at once)
                    )
                    found.append((action, next_number if key is None else key, laid, None, verdict == 2, n + t + j))
    if isinstance(sequences, SequenceType):
        verdicts = _verdicts(sequences)
        for suit in Suit:
            held = hand.of_suit(suit)
            for lo in range(len(NATURAL_RANKS)):
                for hi in range(lo, len(NATURAL_RANKS)):
                    if not held[hi]:
                        break
                    low, high = NATURAL_RANKS[lo], NATURAL_RANKS[hi]
                    memo = (suit, low, high)
                    known = verdicts.get(memo)
                    if known is None:
                        run = SequenceShape(suit, low, high)
                        known = verdicts[memo] = (_new_verdict(sequences, run), run)
                    if known[0]:
                        action = _action((LaySequence, suit, low, high), lambda: LaySequence(suit, low, high))  # noqa: B023
                        found.append((action, next_number, known[1], None, known[0] == 2, high - low + 1))
        for number, meld in ordered:
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
                    if (low, high) == (meld.low, meld.high):
                        continue
                    memo = (meld.suit, meld.low, meld.high, low, high)
                    known = verdicts.get(memo)
                    if known is None:
                        grown_run = SequenceShape(meld.suit, low, high)
                        known = verdicts[memo] = (_add_verdict(sequences, meld, grown_run), grown_run)
                    if known[0]:
                        action = _action((Extend, number, low, high), lambda: Extend(number, low, high))  # noqa: B023
                        used = meld.low - low + high - meld.high
                        found.append((action, number, known[1], None, known[0] == 2, used))
    if isinstance(wilds, WildMeldType):
        verdicts = _verdicts(wilds)
        targets_w: list[tuple[int | None, WildShape | None]] = [(None, None)]
        targets_w += [(k, m) for k, m in ordered if isinstance(m, WildShape)]
        for t in range(hand.twos + 1):
            for j in range(hand.jokers + 1):
                if not t + j:
                    continue
                for key, old_w in targets_w:
                    if old_w is None:
                        memo = (t, j)
                        known = verdicts.get(memo)
                        if known is None:
                            wild = WildShape(t, j)
                            known = verdicts[memo] = (_new_verdict(wilds, wild), wild)
                    else:
                        memo = (old_w.twos, old_w.jokers, t, j)
                        known = verdicts.get(memo)
                        if known is None:
                            wild = WildShape(old_w.twos + t, old_w.jokers + j)
                            known = verdicts[memo] = (_add_verdict(wilds, old_w, wild), wild)
                    if known[0]:
                        action = _action((LayWild, t, j, key), lambda: LayWild(t, j, key))  # noqa: B023
                        target = next_number if key is None else key
                        found.append((action, target, known[1], None, known[0] == 2, t + j))
    if len(ordered) > 1:
        kinds = [judging(types, meld) for _, meld in ordered]
        for i, (a, first) in enumerate(ordered):
            kind = kinds[i]
            if kind is None:
                continue
            for b, second in ordered[i + 1 :]:
                merged = kind.combine(first, second) if kind.judges(second) else None
                if merged is not None:
                    action = _action((Combine, a, b), lambda: Combine(a, b))  # noqa: B023
                    found.append((action, a, merged, b, False, 0))
    if isinstance(threes, BlackThreeGroupType) and hand.black_threes:
        group = BlackThreeShape(hand.black_threes)
        if threes.valid(group, going_out=True):
            found.append((LayBlackThrees(hand.black_threes), next_number, group, None, True, hand.black_threes))
    return found


def _after(melds: Mapping[int, MeldShape], candidate: _Candidate) -> list[MeldShape]:
    """The side's melds after a candidate action (in identity order, as the searches read them)."""
    _, key, shape, removed, _, _ = candidate
    after = {k: m for k, m in melds.items() if k != removed}
    after[key] = shape
    return list(after.values())


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
    size = hand.size
    for candidate in _candidates(hand, melds, types, next_number):
        action, _, _, _, going_out_only, used = candidate
        if opened and size - used + joining >= 2 and not bound and not going_out_only:
            legal.append(action)  # a discard keeps a card (the common case: no search)
            continue
        rest = _take(hand, action, melds)
        assert rest is not None  # (a candidate takes only cards the hand holds)
        table = _after(melds, candidate)
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
    for candidate in _candidates(hand, melds, types, next_number):
        action, _, _, _, going_out_only, _ = candidate
        if going_out_only and not opened:
            rest = _take(hand, action, melds)
            assert rest is not None  # (a candidate takes only cards the hand holds)
            now = count + _value(hand, values) - _value(rest, values)
            if not opening_met(now, _after(melds, candidate), types, opening):
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
