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

from collections.abc import Mapping, Sequence
from itertools import product

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
)
from canasta.ownshapes import AddToMeld, LayMeld, take
from canasta.ownshapes import candidates as own_candidates
from canasta.rules import DEFAULT_CARD_VALUES, GoingOutRules
from canasta.suitedhand import OpeningRequirement, SuitedHand
from canasta.suitedmeldactions import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild, SuitedMeld
from canasta.suitedsearch import NATURAL_RANKS, can_go_out, hand_size, opening_reachable
from canasta.typeset import TypeSet, group_shape, sequence_shape, type_set, wild_shape

__all__ = [
    "Combine",
    "Extend",
    "LayBlackThrees",
    "LayGroup",
    "LaySequence",
    "LayWild",
    "SuitedMeld",
    "allowed_melds",
    "hand_after",
    "legal_melds",
    "opening_met",
    "opens_and_goes_out",
]


def hand_after(
    hand: SuitedHand, action: SuitedMeld | LayMeld | AddToMeld, melds: Mapping[int, MeldShape]
) -> SuitedHand | None:
    """The hand after a meld action's cards leave it, or ``None`` if it does not hold them.

    Args:
        hand: The player's hand.
        action: The meld action (a combination lays no card: the hand itself, counted anew).
        melds: The side's melds by identity (an extension's sequence is read there; ``None`` if it
            names no sequence of the side).

    Returns:
        The hand without the action's cards, or ``None``.
    """
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
    elif isinstance(action, (LayMeld, AddToMeld)):
        return take(hand, action.cards)  # (a type of a shape of its own: `canasta.ownshapes`)
    if min(naturals) < 0 or min(twos, jokers, black) < 0:
        return None
    return SuitedHand.counted(tuple(naturals), twos, jokers, black)


def _laid_value(action: SuitedMeld | LayMeld | AddToMeld, melds: Mapping[int, MeldShape], values: Sequence[int]) -> int:
    """What the cards an action lays count (`_value` of them; -1: an action of a plugin's type, not read here)."""
    if isinstance(action, LayGroup):
        naturals = action.suits[0] + action.suits[1] + action.suits[2] + action.suits[3]
        return naturals * values[action.rank] + action.twos * values[Kind.TWO] + action.jokers * values[Kind.JOKER]
    if isinstance(action, LaySequence):
        return sum(values[rank] for rank in range(action.low, action.high + 1))
    if isinstance(action, Extend):
        meld = melds[action.meld]
        assert isinstance(meld, SequenceShape)
        added = sum(values[rank] for rank in range(action.low, meld.low))
        return added + sum(values[rank] for rank in range(meld.high + 1, action.high + 1))
    if isinstance(action, LayWild):
        return action.twos * values[Kind.TWO] + action.jokers * values[Kind.JOKER]
    if isinstance(action, (Combine, LayBlackThrees)):
        return 0  # (no card, or black threes, which `_value` does not count)
    return -1


def _value(hand: SuitedHand, values: Sequence[int]) -> int:
    counts = hand.naturals
    naturals = 0
    for i in range(len(counts)):
        if counts[i]:
            naturals += counts[i] * values[NATURAL_RANKS[i // 4]]
    return naturals + hand.twos * values[Kind.TWO] + hand.jokers * values[Kind.JOKER]


#: A candidate meld action: (action, the meld number it sets (``None``: a new meld's), the shape set
#: there, the number a combination removes, whether only a going-out turn allows it, the cards it
#: takes from the hand).
_Candidate = tuple[SuitedMeld | LayMeld | AddToMeld, int | None, MeldShape, int | None, bool, int]

#: Bound on each memo table below (a long run meets many hands; cleared whole when full).
_MEMO_SIZE = 1 << 16
#: Bound on the candidates kept per meld type (each entry a tuple of candidates: kept fewer).
_PARTS_SIZE = 1 << 12
# Per meld type (by the rule set's `TypeSet` and the type's kind: group 0, sequence 1, wild meld 2): its
# verdicts with the shape judged, by the shapes' numbers (0 refused, 1 allowed, 2 only in a going-out
# turn), and the candidates of each part of a hand (`_candidates`). Types are frozen values whose answers
# depend only on the shapes (`canasta.meldtypes`), so each is found once.
_MEMOS: dict[tuple[TypeSet, int], _TypeMemo] = {}
# The combinations a side's melds allow, by the rule set's types and the melds (which change less often
# than the hand), the melds by their numbers and fields (plain ints: no shape is hashed).
_COMBINATIONS: dict[tuple[TypeSet, tuple[tuple[object, ...], ...]], tuple[_Candidate, ...]] = {}
# The actions, made once each: they are frozen values (a legal list shares them safely).
_ACTIONS: dict[tuple[object, ...], SuitedMeld] = {}
# The suit choices of a rank's naturals held, in `itertools.product` order, with their sizes.
_SUIT_CHOICES: dict[tuple[int, ...], tuple[tuple[tuple[int, int, int, int], int], ...]] = {}


#: A group a rank's naturals may make with wild cards: (2s, jokers, target, the shape laid, the verdict).
_GroupRow = tuple[int, int, int | None, MeldShape, int]


class _TypeMemo:
    """What one meld type's answers make: verdicts by shape numbers, candidates by part of a hand."""

    def __init__(self) -> None:
        self.verdicts: dict[tuple[object, ...], tuple[int, MeldShape]] = {}
        self.parts: dict[tuple[object, ...], tuple[_Candidate, ...]] = {}
        # A rank's groups allowed per natural count, whatever their suits (`_group_rows`).
        self.rows: dict[tuple[object, ...], list[list[_GroupRow]]] = {}


def _memo(kinds: TypeSet, which: int) -> _TypeMemo:
    key = (kinds, which)
    memo = _MEMOS.get(key)
    if memo is None:
        if len(_MEMOS) > 64:
            _MEMOS.clear()
        memo = _MEMOS[key] = _TypeMemo()
    else:  # (each table cleared alone when full: the verdicts outlive the candidates they made)
        if len(memo.verdicts) > _MEMO_SIZE:
            memo.verdicts.clear()
        if len(memo.parts) > _PARTS_SIZE:
            memo.parts.clear()
        if len(memo.rows) > _PARTS_SIZE:
            memo.rows.clear()
    return memo


#: `_key`'s second field for a shape of a class not built in.
_OTHER_SHAPE = 4


def _key(number: int, meld: MeldShape) -> tuple[object, ...]:
    """A meld of a side as a memo key: its number, then its shape's fields as plain ints where the class is built in.

    Plain ints hash without Python calls (attrs runs a shape's ``__hash__`` in Python); a
    shape of another class (a plugin's subclass) keys by itself.
    """
    cls = type(meld)
    if cls is GroupShape:
        assert isinstance(meld, GroupShape)
        return (number, 0, meld.rank, meld.naturals, meld.twos, meld.jokers)
    if cls is SequenceShape:
        assert isinstance(meld, SequenceShape)
        return (number, 1, int(meld.suit), meld.low, meld.high)
    if cls is WildShape:
        assert isinstance(meld, WildShape)
        return (number, 2, meld.twos, meld.jokers)
    if cls is BlackThreeShape:
        assert isinstance(meld, BlackThreeShape)
        return (number, 3, meld.count)
    return (number, _OTHER_SHAPE, meld)


def _judged(
    memo: _TypeMemo, key: tuple[object, ...], kind: MeldType, before: MeldShape | None, shape: MeldShape
) -> tuple[int, MeldShape]:
    """The type's verdict on a new meld (``before`` ``None``) or a meld grown into ``shape``, kept by ``key``.

    (The callers look ``key`` up in ``memo.verdicts`` first: the shape is made only on a miss.)
    """
    verdict = _new_verdict(kind, shape) if before is None else _add_verdict(kind, before, shape)
    known = memo.verdicts[key] = (verdict, shape)
    return known


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


def _kept(key: tuple[object, ...], action: SuitedMeld) -> SuitedMeld:
    """Keep a new action under ``key`` in `_ACTIONS` (the callers look it up there first)."""
    if len(_ACTIONS) > _MEMO_SIZE:
        _ACTIONS.clear()
    _ACTIONS[key] = action
    return action


def _suit_choices(held: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
    choices = _SUIT_CHOICES.get(held)
    if choices is None:
        choices = tuple(((a, b, c, d), a + b + c + d) for a, b, c, d in product(*(range(count + 1) for count in held)))
        if len(_SUIT_CHOICES) > _MEMO_SIZE:
            _SUIT_CHOICES.clear()
        _SUIT_CHOICES[held] = choices
    return choices


def _candidates(hand: SuitedHand, melds: Mapping[int, MeldShape], types: Sequence[MeldType]) -> list[_Candidate]:
    """What the meld types allow, each action once, in `legal_melds`' order (see `_Candidate`).

    Each part (a rank's groups, a suit's new sequences, a sequence's extensions, the wild
    melds) depends only on the type, the cards of that part and the melds it may join, so
    its candidates are kept by those (the hand changes by a few cards from call to call).
    """
    kinds = type_set(types)
    groups = kinds.groups
    sequences = kinds.sequences
    wilds = kinds.wilds
    found: list[_Candidate] = []
    ordered = sorted(melds.items())
    keys = [_key(k, m) for k, m in ordered]
    twos, jokers = hand.twos, hand.jokers
    naturals = hand.naturals
    if groups is not None:
        memo = _memo(kinds, 0)
        # A group takes at most ``cap`` wild cards: more held change no candidate, so the key leaves them out.
        cap = kinds.group_wild_cap
        group_twos = twos if twos < cap else cap
        group_jokers = jokers if jokers < cap else cap
        by_rank: dict[int, list[tuple[int, MeldShape]]] = {}
        rank_keys: dict[int, list[tuple[object, ...]]] = {}
        for i in range(len(ordered)):
            k, m = ordered[i]
            known = keys[i]
            if isinstance(m, GroupShape):
                by_rank.setdefault(m.rank, []).append((k, m))
                rank_keys.setdefault(m.rank, []).append(known)
        for r, rank in enumerate(NATURAL_RANKS):
            held = naturals[r * 4 : r * 4 + 4]
            key: tuple[object, ...] = (rank, held, group_twos, group_jokers, tuple(rank_keys.get(rank, ())))
            part = memo.parts.get(key)
            if part is None:
                naturals_held = sum(held)
                rows_key = (rank, naturals_held, group_twos, group_jokers, key[4])
                rows = memo.rows.get(rows_key)
                if rows is None:
                    targets = tuple(by_rank.get(rank, ()))
                    rows = memo.rows[rows_key] = _group_rows(
                        groups, memo, rank, naturals_held, group_twos, group_jokers, targets
                    )
                part = memo.parts[key] = _group_candidates(rank, held, rows)
            found += part
    if sequences is not None:
        memo = _memo(kinds, 1)
        for suit in range(4):
            held = naturals[suit::4]
            key = (suit, held)
            part = memo.parts.get(key)
            if part is None:
                part = memo.parts[key] = _sequence_candidates(sequences, memo, suit, held)
            found += part
        for i in range(len(ordered)):
            number, meld = ordered[i]
            known = keys[i]
            if isinstance(meld, SequenceShape):
                held = naturals[int(meld.suit) :: 4]
                key = (known, held)
                part = memo.parts.get(key)
                if part is None:
                    part = memo.parts[key] = _extension_candidates(sequences, memo, number, meld, held)
                found += part
    if wilds is not None:
        memo = _memo(kinds, 2)
        key = (
            twos,
            jokers,
            tuple([keys[i] for i in range(len(ordered)) if isinstance(ordered[i][1], WildShape)]),
        )
        part = memo.parts.get(key)
        if part is None:
            targets_w = tuple((k, m) for k, m in ordered if isinstance(m, WildShape))
            part = memo.parts[key] = _wild_candidates(wilds, memo, twos, jokers, targets_w)
        found += part
    if len(ordered) > 1:
        combination_key = (kinds, tuple(keys))
        combined = _COMBINATIONS.get(combination_key)
        if combined is None:
            if len(_COMBINATIONS) > _PARTS_SIZE:
                _COMBINATIONS.clear()
            combined = _COMBINATIONS[combination_key] = _combinations(kinds, ordered, keys)
        found += combined
    black = hand.black_threes
    if black and kinds.threes_valid(black):
        group = BlackThreeShape(black)
        action_key = (LayBlackThrees, black)
        action = _ACTIONS.get(action_key) or _kept(action_key, LayBlackThrees(black))
        found.append((action, None, group, None, True, black))
    if kinds.own:
        found += own_candidates(hand, melds, types)  # types of a shape of their own (`canasta.ownshapes`)
    return found


#: The built-in types that never merge two melds (`canasta.meldtypes.MeldType.combine`'s default).
_NEVER_COMBINED = (SequenceType, BlackThreeGroupType)


def _combinations(
    types: TypeSet, ordered: list[tuple[int, MeldShape]], keys: list[tuple[object, ...]]
) -> tuple[_Candidate, ...]:
    """The combinations of two of the side's melds its types allow, by older then newer meld.

    ``keys``: the melds' `_key`s. The built-in types merge only groups of one rank (`GroupType`)
    and wild melds (`WildMeldType`): other pairs are not asked (a plugin's subclass is asked of every pair).
    """
    kinds = [types.judging(meld) for _, meld in ordered]
    found: list[_Candidate] = []
    for i, (a, first) in enumerate(ordered):
        kind = kinds[i]
        if kind is None or type(kind) in _NEVER_COMBINED:
            continue
        # The kind of shape (and a group's rank) a built-in type merges this built-in shape with (`_key`'s
        # fields); None: ask every pair (a plugin's type, or a shape of a plugin's class).
        partner: tuple[object, ...] | None = None
        if keys[i][1] != _OTHER_SHAPE:
            partner = keys[i][1:3] if type(kind) is GroupType else keys[i][1:2] if type(kind) is WildMeldType else None
        for j in range(i + 1, len(ordered)):
            other = keys[j]
            if partner is not None and other[1] != _OTHER_SHAPE and other[1 : 1 + len(partner)] != partner:
                continue
            b, second = ordered[j]
            merged = types.combined(kind, first, second)
            if merged is not None:
                key = (Combine, a, b)
                action = _ACTIONS.get(key) or _kept(key, Combine(a, b))
                found.append((action, a, merged, b, False, 0))
    return tuple(found)


def _group_rows(
    groups: GroupType,
    memo: _TypeMemo,
    rank: int,
    naturals: int,
    twos: int,
    jokers: int,
    targets: tuple[tuple[int, MeldShape], ...],
) -> list[list[_GroupRow]]:
    """Per natural count up to ``naturals``: the groups of the rank allowed, in the actions' order (`_GroupRow`)."""
    choices: list[tuple[int | None, MeldShape | None]] = [(None, None), *targets]
    verdicts = memo.verdicts
    allowed: list[list[_GroupRow]] = []
    for n in range(naturals + 1):
        row: list[_GroupRow] = []
        for t in range(twos + 1):
            for j in range(jokers + 1):
                if n + t + j == 0:
                    continue
                for key, old in choices:
                    if old is None:
                        verdict_key: tuple[object, ...] = (rank, n, t, j)
                        judged = verdicts.get(verdict_key)
                        if judged is None:
                            judged = _judged(memo, verdict_key, groups, None, group_shape(rank, n, t, j))
                    else:
                        assert isinstance(old, GroupShape)
                        verdict_key = (rank, old.naturals, old.twos, old.jokers, n, t, j)
                        judged = verdicts.get(verdict_key)
                        if judged is None:
                            grown = group_shape(rank, old.naturals + n, old.twos + t, old.jokers + j)
                            judged = _judged(memo, verdict_key, groups, old, grown)
                    if judged[0]:
                        row.append((t, j, key, judged[1], judged[0]))
        allowed.append(row)
    return allowed


def _group_candidates(rank: int, held: tuple[int, ...], allowed: list[list[_GroupRow]]) -> tuple[_Candidate, ...]:
    """A rank's group actions: naturals by suit, 2s, jokers, a target (a new group first, then by identity).

    ``allowed``: the rank's `_group_rows` for the naturals held.
    """
    found: list[_Candidate] = []
    if any(allowed):
        for suits, n in _suit_choices(held):
            for t, j, key, laid, verdict in allowed[n]:
                action_key = (LayGroup, rank, suits, t, j, key)
                action = _ACTIONS.get(action_key) or _kept(action_key, LayGroup(rank, suits, t, j, key))
                found.append((action, key, laid, None, verdict == 2, n + t + j))
    return tuple(found)


def _sequence_candidates(
    sequences: SequenceType, memo: _TypeMemo, suit: int, held: tuple[int, ...]
) -> tuple[_Candidate, ...]:
    """A suit's new sequences, by low then high rank."""
    found: list[_Candidate] = []
    for lo in range(len(NATURAL_RANKS)):
        for hi in range(lo, len(NATURAL_RANKS)):
            if not held[hi]:
                break
            low, high = NATURAL_RANKS[lo], NATURAL_RANKS[hi]
            verdict_key: tuple[object, ...] = (suit, low, high)
            verdict = memo.verdicts.get(verdict_key)
            if verdict is None:
                verdict = _judged(memo, verdict_key, sequences, None, sequence_shape(suit, low, high))
            if verdict[0]:
                action_key = (LaySequence, suit, low, high)
                action = _ACTIONS.get(action_key) or _kept(action_key, LaySequence(Suit(suit), low, high))
                found.append((action, None, verdict[1], None, verdict[0] == 2, high - low + 1))
    return tuple(found)


def _extension_candidates(
    sequences: SequenceType, memo: _TypeMemo, number: int, meld: SequenceShape, held: tuple[int, ...]
) -> tuple[_Candidate, ...]:
    """A sequence's extensions at either end or both, by new low then new high rank."""
    lows = [meld.low]
    while lows[-1] > 4 and held[lows[-1] - 5]:
        lows.append(lows[-1] - 1)
    highs = [meld.high]
    while highs[-1] < 14 and held[highs[-1] - 3]:
        highs.append(highs[-1] + 1)
    found: list[_Candidate] = []
    for low in lows:
        for high in highs:
            if (low, high) == (meld.low, meld.high):
                continue
            verdict_key: tuple[object, ...] = (int(meld.suit), meld.low, meld.high, low, high)
            verdict = memo.verdicts.get(verdict_key)
            if verdict is None:
                verdict = _judged(memo, verdict_key, sequences, meld, sequence_shape(int(meld.suit), low, high))
            if verdict[0]:
                action_key = (Extend, number, low, high)
                action = _ACTIONS.get(action_key) or _kept(action_key, Extend(number, low, high))
                used = meld.low - low + high - meld.high
                found.append((action, number, verdict[1], None, verdict[0] == 2, used))
    return tuple(found)


def _wild_candidates(
    wilds: WildMeldType, memo: _TypeMemo, twos: int, jokers: int, targets: tuple[tuple[int, MeldShape], ...]
) -> tuple[_Candidate, ...]:
    """The wild melds: 2s, jokers, a target (a new wild meld first, then by identity)."""
    choices: list[tuple[int | None, MeldShape | None]] = [(None, None), *targets]
    found: list[_Candidate] = []
    for t in range(twos + 1):
        for j in range(jokers + 1):
            if not t + j:
                continue
            for key, old in choices:
                if old is None:
                    verdict_key: tuple[object, ...] = (t, j)
                    verdict = memo.verdicts.get(verdict_key)
                    if verdict is None:
                        verdict = _judged(memo, verdict_key, wilds, None, wild_shape(t, j))
                else:
                    assert isinstance(old, WildShape)
                    verdict_key = (old.twos, old.jokers, t, j)
                    verdict = memo.verdicts.get(verdict_key)
                    if verdict is None:
                        verdict = _judged(memo, verdict_key, wilds, old, wild_shape(old.twos + t, old.jokers + j))
                if verdict[0]:
                    action_key = (LayWild, t, j, key)
                    action = _ACTIONS.get(action_key) or _kept(action_key, LayWild(t, j, key))
                    found.append((action, key, verdict[1], None, verdict[0] == 2, t + j))
    return tuple(found)


def _after(melds: Mapping[int, MeldShape], candidate: _Candidate, next_number: int) -> dict[int, MeldShape]:
    """The side's melds by identity after a candidate action (a new meld takes ``next_number``)."""
    _, key, shape, removed, _, _ = candidate
    after = {k: m for k, m in melds.items() if k != removed}
    after[next_number if key is None else key] = shape
    return after


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
) -> list[SuitedMeld | LayMeld | AddToMeld]:
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
    legal: list[SuitedMeld | LayMeld | AddToMeld] = []
    size = hand_size(hand)
    if next_number is None:
        next_number = max(melds, default=-1) + 1
    for candidate in _candidates(hand, melds, types):
        action, _, _, _, going_out_only, used = candidate
        if opened and size - used + joining >= 2 and not bound and not going_out_only:
            legal.append(action)  # a discard keeps a card (the common case: no search)
            continue
        rest = hand_after(hand, action, melds)
        assert rest is not None  # (a candidate takes only cards the hand holds)
        table = list(_after(melds, candidate, next_number).values())
        if not opened:
            laid = _laid_value(action, melds, values)
            now = count + (laid if laid >= 0 else _value(hand, values) - _value(rest, values))
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
        if size - used + joining >= 2 and not bound and not going_out_only:
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
) -> list[SuitedMeld | LayMeld | AddToMeld]:
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
    allowed: list[SuitedMeld | LayMeld | AddToMeld] = []
    if next_number is None:
        next_number = max(melds, default=-1) + 1
    for candidate in _candidates(hand, melds, types):
        action, _, _, _, going_out_only, _ = candidate
        if going_out_only and not opened:
            rest = hand_after(hand, action, melds)
            assert rest is not None  # (a candidate takes only cards the hand holds)
            now = count + _value(hand, values) - _value(rest, values)
            if not opening_met(now, list(_after(melds, candidate, next_number).values()), types, opening):
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
    kinds = type_set(types)
    made = 0
    for meld in melds:
        made |= kinds.class_bit(meld)
    return need.met(count, made)
