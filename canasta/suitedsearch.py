"""The sequence games' completion searches over hands counted by (rank, suit).

Samba, Bolivia and Brazilian canasta (`SEQUENCES.md` §9 to §11) meld groups of
a rank, sequences of a suit, wild melds and black-three groups. Which of a
player's actions are legal depends, by the rule book's §0 ("legal means
completable"), on two questions this module answers exactly for a hand
counted by suit (`SuitedHand`), with the meld types of `canasta.meldtypes`
deciding what each meld may be:

- `opening_reachable`: can a side that has not opened still complete its
  initial meld in this turn (§9.6, §9.12, §11.1, §11.6)? It decides the
  provisional opening melds and an unopened side's pile takes.
- `can_go_out`: can the player meld every card (or all but a final discard)
  so that the side meets its going-out quota (§9.8, §10.5, §11.3)? It decides
  the actions after which only going out could end the turn.

Both search the hand's placements type by type: each suit's cards onto its
sequences or into new ones, then each rank's naturals onto its groups or into
new ones (groups of a rank may be combined), then the wild cards into wild
melds, one card at a time (a meld's limits are reached the same way by actions
that add several), and keep, per class, the canastas made. Twos and jokers are
alike to the sequence family's meld rules; an opening's count takes the most
valuable mix of the wild cards used.

The engine plays the sequence games with them (`canasta.suitedlegality`); they are
checked against the enumeration of every sequence of actions
(`tests/test_suited_search.py`) and against §13's worked examples S-5, S-6, B-3,
R-2, R-3 and R-5. The compiled engine compiles this module (`canasta._engine`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product

from canasta.canastaclass import CLASS_BIT, CLASS_INDEX
from canasta.cards import Kind, Suit
from canasta.meldtypes import (
    ACE,
    LOWEST_SEQUENCE_RANK,
    BlackThreeShape,
    GroupShape,
    GroupType,
    MeldShape,
    MeldType,
    SequenceShape,
    WildShape,
)
from canasta.ownshapes import cards_value, outcomes
from canasta.rules import DEFAULT_CARD_VALUES, CanastaClass, GoingOutRules
from canasta.suitedhand import OpeningRequirement, SuitedHand
from canasta.typeset import TypeSet, group_shape, sequence_shape, type_set, wild_shape

__all__ = ["NATURAL_RANKS", "OpeningRequirement", "SuitedHand", "can_go_out", "class_bits", "opening_reachable"]

#: The natural ranks, 4 to the ace, in sequence order.
NATURAL_RANKS: tuple[int, ...] = tuple(range(LOWEST_SEQUENCE_RANK, ACE + 1))
_RANKS = len(NATURAL_RANKS)
_SUITS = len(Suit)
_CLASSES = tuple(CanastaClass)
_CLASS_BIT = CLASS_BIT  # (bound here, as the module read it before)
_CLASS_INDEX = CLASS_INDEX
#: No canasta of any class.
_NONE_MADE = (0,) * len(_CLASSES)
_JOKER = int(Kind.JOKER)
_TWO = int(Kind.TWO)
#: Entries each of the searches' tables of outcomes keeps (per suit, rank and wild melds).
_CACHE_SIZE = 1 << 16


def _wild_value(used: int, hand: SuitedHand, values: Sequence[int]) -> int:
    """The most the ``used`` wild cards can count: the costlier kind first."""
    joker, two = values[_JOKER], values[_TWO]
    if joker >= two:
        first = min(used, hand.jokers)
        return first * joker + (used - first) * two
    first = min(used, hand.twos)
    return first * two + (used - first) * joker


def opening_reachable(
    hand: SuitedHand,
    requirement: OpeningRequirement,
    types: Sequence[MeldType],
    *,
    melds: Sequence[MeldShape] = (),
    count: int = 0,
    values: Sequence[int] = DEFAULT_CARD_VALUES,
    keep: int = 0,
) -> bool:
    """Whether the cards of ``hand`` can still complete an initial meld (§9.6, §9.12, §11.1, §11.6).

    The side has not opened: its melds are those laid in this turn (``melds``,
    whose cards count ``count`` so far). Cards of the hand may join them (a
    natural onto a group or at a sequence's end, a wild card where the type
    allows), form new groups, sequences and wild melds, and groups or wild
    melds may be combined; the opening is complete when the count reaches the
    requirement's and, where it asks for one, a canasta of its classes is
    among the melds. A pile take's check is the same question with the take's
    group as the turn's meld: ``melds=(GroupShape(rank, 3),)`` and ``count``
    the three cards' values (the top card counts, the rest of the pile never).

    Args:
        hand: The cards that may be laid.
        requirement: The count and the canasta the opening needs.
        types: The rule set's meld types; the search lays the first `GroupType`,
            `SequenceType` and `WildMeldType` among them (a black-three group is
            laid only when going out, and a type of a plugin's own is not laid
            by this search).
        melds: The melds laid in this turn so far.
        count: Their count (the values of the cards that count).
        values: Card values indexed by `canasta.Kind` (classic's by default).
        keep: How many cards must stay in the hand when the opening is complete (2: a
            discard then keeps a card, where the player may not go out; black threes,
            which no opening lays, stay anyway).

    Returns:
        ``True`` if some way to go on meets the requirement.

    Raises:
        ValueError: If a meld is of a type the rule set does not have.
        TypeError: If a meld is not a shape the search knows.
    """
    table = _Table(melds, types)
    if not table.kinds.own:
        # (Most openings searched for are there: new melds of naturals alone show it, before the search.)
        need = requirement.count - count
        if not requirement.canasta_classes and _opening_witness(hand, need, table.kinds, values, keep):
            return True
        return _opening(hand, requirement, table, count, values, keep, _NONE_MADE)
    # Types of a shape of their own (`canasta.ownshapes`): each placement of cards into their melds, then the rest.
    return any(
        _opening(rest, requirement, table, count + cards_value(_spent(hand, rest), values), values, keep, made)
        for rest, made in outcomes(hand, table.own_melds, types, 1, going_out=False)
    )


def _opening_witness(hand: SuitedHand, need: int, kinds: TypeSet, values: Sequence[int], keep: int) -> bool:
    """A quick sufficient test for `_opening`: new melds of naturals alone reach ``need`` more, ``keep`` cards kept.

    Groups of every natural of a rank the group type accepts, then on the naturals left
    each suit's runs of consecutive ranks cut into the longest sequences the sequence
    type accepts; the most valuable first until the count is reached. Each is a new meld
    `_opening` itself would lay (its types asked outside a going-out turn, on disjoint
    cards), so a ``True`` here is the search's; a ``False`` only sends the question to it.
    """
    if need <= 0:
        return keep <= hand_size(hand)
    naturals = list(hand.naturals)
    found: list[tuple[int, int]] = []  # (value, cards) of each meld
    groups = kinds.groups
    if groups is not None:
        for r in range(_RANKS):
            start = r * _SUITS
            n = naturals[start] + naturals[start + 1] + naturals[start + 2] + naturals[start + 3]
            if n and kinds.valid(groups, group_shape(NATURAL_RANKS[r], n), False):
                found.append((n * values[NATURAL_RANKS[r]], n))
                for i in range(start, start + _SUITS):
                    naturals[i] = 0
    sequences = kinds.sequences
    if sequences is not None:
        for suit in range(_SUITS):
            r = 0
            while r < _RANKS:
                if not naturals[r * _SUITS + suit]:
                    r += 1
                    continue
                low = r
                while r < _RANKS and naturals[r * _SUITS + suit]:
                    r += 1
                while low < r:  # the run low .. r - 1: its longest valid sequences from the low end
                    high = r - 1
                    while high >= low and not kinds.valid(
                        sequences, sequence_shape(suit, NATURAL_RANKS[low], NATURAL_RANKS[high]), False
                    ):
                        high -= 1
                    if high < low:
                        low += 1
                        continue
                    found.append((sum(values[NATURAL_RANKS[i]] for i in range(low, high + 1)), high - low + 1))
                    low = high + 1
    found.sort(reverse=True)
    total = laid = 0
    for value, cards in found:
        total += value
        laid += cards
        if total >= need:
            return laid + keep <= hand_size(hand)
    return False


def _spent(hand: SuitedHand, rest: SuitedHand) -> SuitedHand:
    """The cards that left ``hand`` to leave ``rest``."""
    naturals = tuple(a - b for a, b in zip(hand.naturals, rest.naturals, strict=True))
    return SuitedHand.counted(
        naturals, hand.twos - rest.twos, hand.jokers - rest.jokers, hand.black_threes - rest.black_threes
    )


def _opening(
    hand: SuitedHand,
    requirement: OpeningRequirement,
    table: _Table,
    count: int,
    values: Sequence[int],
    keep: int,
    start: tuple[int, ...],
) -> bool:
    """`opening_reachable`'s search by the built-in kinds, the canastas ``start`` already made (per class)."""
    wild_cards = hand.twos + hand.jokers
    need = requirement.count
    classes = requirement_bits(requirement)  # (`OpeningRequirement.met`, read once)
    # The cards the opening may lay (with ``keep``; otherwise every card: no state counts them).
    naturals = hand.naturals
    budget = hand_size(hand) - keep if keep else -1
    if keep and budget < 0:
        return False
    per_suit = [table.sequence_outcomes(naturals, suit, 1, going_out=False) for suit in range(_SUITS)]
    # Each choice of sequences per suit, lazily (an opening is usually found early), the naturals
    # they leave by rank and the canastas they make kept so that no such state is searched twice.
    best: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    held = [sum(naturals[r * _SUITS : r * _SUITS + _SUITS]) for r in range(_RANKS)]
    # Where a canasta is needed: the classes the groups and wild melds could make at most (`_reach`'s bound,
    # its last level), so that sequences leaving none of the classes asked are not searched.
    groups_most = _NONE_MADE
    if classes:
        reach = _reach(per_suit, tuple(held), table, wild_cards, 1, going_out=False)
        if not class_bits(_add_counts(start, reach[0], 1)) & classes:
            return False  # (no placement makes a canasta of the classes asked)
        groups_most = reach[len(per_suit)]
    for combo in product(*per_suit):
        left = list(held)
        made = start
        gained = count
        laid = 0  # (cards laid, counted only with ``keep``)
        for usage, got in combo:
            made = _add_counts(made, got, 1)
            for r in range(_RANKS):
                if usage[r]:
                    left[r] -= usage[r]
                    gained += usage[r] * values[NATURAL_RANKS[r]]
                    laid += usage[r]
        if keep and laid > budget:
            continue
        if classes and not class_bits(_add_counts(made, groups_most, 1)) & classes:
            continue  # (neither these sequences nor the groups and wild melds after them make a canasta asked for)
        key = (tuple(left), made)
        if not keep and best.get(key, -1) >= gained:
            continue
        best[key] = gained
        # (wild cards used, canastas by class, cards laid) -> the most the naturals laid so far count
        states: dict[tuple[int, tuple[int, ...], int], int] = {(0, made, laid if keep else 0): gained}
        for r, rank in enumerate(NATURAL_RANKS):
            options = table.group_outcomes(rank, left[r], wild_cards, 1, going_out=False)
            if options is _UNCHANGED:
                continue
            grown: dict[tuple[int, tuple[int, ...], int], int] = {}
            for (used, sofar, cards), value in states.items():
                for n, w, got in options:
                    if used + w <= wild_cards:
                        now = cards + n + w if keep else 0
                        if keep and now > budget:
                            continue
                        state = (used + w, _add_counts(sofar, got, 1), now)
                        total = value + n * values[rank]
                        if grown.get(state, -1) < total:
                            grown[state] = total
            states = grown
        for (used, sofar, cards), value in states.items():
            for extra, got in table.wild_outcomes(wild_cards - used, 1, going_out=False):
                if keep and cards + extra > budget:
                    continue
                total = value + _wild_value(used + extra, hand, values)
                if total >= need and (not classes or class_bits(_add_counts(sofar, got, 1)) & classes):
                    return True
    return False


def hand_size(hand: SuitedHand) -> int:
    """`SuitedHand.size` counted in the engine's compiled code (the property runs in Python)."""
    return sum(hand.naturals) + hand.twos + hand.jokers + hand.black_threes


def requirement_bits(requirement: OpeningRequirement) -> int:
    """The canasta classes an opening needs one of (`OpeningRequirement.canasta_classes`) as bits (0: none)."""
    return sum(_CLASS_BIT[cls] for cls in requirement.canasta_classes)


def class_bits(counts: Sequence[int]) -> int:
    """Canastas counted by class (in `canasta.CanastaClass` order) as one bit per class made.

    The form `OpeningRequirement.met` reads.
    """
    return sum(1 << i for i, c in enumerate(counts) if c)


def _class_counts(shapes: Iterable[MeldShape], kind: MeldType, cap: int, kinds: TypeSet) -> tuple[int, ...]:
    """Canastas among ``shapes`` by class (in `canasta.CanastaClass` order), each count at most ``cap``."""
    counts = [0] * len(_CLASSES)
    for shape in shapes:
        cls = kinds.class_of(kind, shape)
        if cls is not None:
            counts[_CLASS_INDEX[cls]] += 1
    return tuple(min(c, cap) for c in counts)


def _add_counts(a: tuple[int, ...], b: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """Canastas by class added, each count at most ``cap``."""
    if not any(b):
        return a
    # (an index loop: the compiled engine runs it natively, where a generator over `zip` goes through Python)
    return tuple([a[i] + b[i] if a[i] + b[i] < cap else cap for i in range(len(a))])


@lru_cache(maxsize=_CACHE_SIZE)  # (bounded: a long run meets many hands)
def _sequence_outcomes(
    kinds: TypeSet,
    suit: int,
    held: tuple[int, ...],
    table: tuple[tuple[int, int], ...],
    cap: int,
    going_out: bool,
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The ways some of one suit's cards go onto the side's sequences of that suit, or into new ones.

    One card at a time at an end (a sequence's limit is reached the same way by
    actions that add several), or a new sequence laid whole.

    Args:
        kinds: The rule set's types (its sequence type: ``None``, none is laid).
        suit: The suit's index (`canasta.cards.Suit`).
        held: The hand's cards of the suit, by rank index (4 to ace).
        table: The side's sequences of the suit, as (low, high) ranks.
        cap: The most canastas of a class worth counting.
        going_out: In a going-out turn (Brazilian escaleras grow past 7 then).

    Returns:
        (cards used by rank index, canastas by class of the suit's sequences)
        for every reachable placement, the cards not used going elsewhere, each
        once, those that use the fewest cards first (the searches try them first:
        a way out or an opening is usually among them; where a class of canasta
        is needed, the bounds of `_reach` spare the rest).
    """
    sequences = kinds.sequences
    if sequences is None:
        return (((0,) * _RANKS, (0,) * len(_CLASSES)),)
    outcomes: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    seen: set[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = set()

    def walk(runs: tuple[tuple[int, int], ...], left: tuple[int, ...]) -> None:
        key = (runs, left)
        if key in seen:
            return
        seen.add(key)
        used = tuple(h - x for h, x in zip(held, left, strict=True))
        outcomes.add((used, _class_counts((sequence_shape(suit, lo, hi) for lo, hi in runs), sequences, cap, kinds)))
        for i, (lo, hi) in enumerate(runs):
            before = sequence_shape(suit, lo, hi)
            for new_lo, new_hi in ((lo - 1, hi), (lo, hi + 1)):
                r = new_lo if new_lo < lo else new_hi
                if LOWEST_SEQUENCE_RANK <= r <= ACE and left[r - LOWEST_SEQUENCE_RANK]:
                    grown = sequence_shape(suit, new_lo, new_hi)
                    if kinds.can_add(sequences, before, grown, going_out):
                        rest = list(left)
                        rest[r - LOWEST_SEQUENCE_RANK] -= 1
                        walk(tuple(sorted((*runs[:i], (new_lo, new_hi), *runs[i + 1 :]))), tuple(rest))
        for lo in range(_RANKS):
            for hi in range(lo, _RANKS):
                if not left[hi]:
                    break
                shape = sequence_shape(suit, NATURAL_RANKS[lo], NATURAL_RANKS[hi])
                if kinds.valid(sequences, shape, going_out):
                    rest = list(left)
                    for r in range(lo, hi + 1):
                        rest[r] -= 1
                    walk(tuple(sorted((*runs, (NATURAL_RANKS[lo], NATURAL_RANKS[hi])))), tuple(rest))

    walk(table, held)
    return tuple(sorted(outcomes, key=lambda outcome: (sum(outcome[0]), outcome)))


@lru_cache(maxsize=_CACHE_SIZE)
def _group_outcomes(
    kinds: TypeSet,
    rank: int,
    table: tuple[tuple[int, int], ...],
    naturals: int,
    wild_cap: int,
    cap: int,
    going_out: bool,
) -> frozenset[tuple[int, int, tuple[int, ...]]]:
    """The ways some of a rank's naturals, and wild cards, go onto the side's groups of it or into new ones.

    One card at a time (a group's limits are reached the same way by the
    actions that add several), with groups laid and combined as the type
    allows; wild cards join as the type allows, up to ``wild_cap``.

    Args:
        kinds: The rule set's types (its group type: ``None``, none is laid).
        rank: The rank.
        table: The side's groups of the rank, as (naturals, wild cards).
        naturals: The rank's naturals in the hand.
        wild_cap: The wild cards the hand can spend.
        cap: The most canastas of a class worth counting.
        going_out: In a going-out turn.

    Returns:
        (naturals placed, wild cards placed, canastas by class of the rank's
        groups) for every reachable placement.
    """
    none = (0,) * len(_CLASSES)
    groups = kinds.groups
    if groups is None:
        return frozenset({(0, 0, none)})
    outcomes: set[tuple[int, int, tuple[int, ...]]] = set()
    seen: set[tuple[tuple[tuple[int, int], ...], int, int]] = set()

    def shape(n: int, w: int) -> GroupShape:
        return group_shape(rank, n, w)

    def walk(melds: tuple[tuple[int, int], ...], left: int, used: int) -> None:
        key = (melds, left, used)
        if key in seen:
            return
        seen.add(key)
        outcomes.add((naturals - left, used, _class_counts((shape(n, w) for n, w in melds), groups, cap, kinds)))
        for i, (n, w) in enumerate(melds):
            others = melds[:i] + melds[i + 1 :]
            if left and kinds.can_add(groups, shape(n, w), shape(n + 1, w), going_out):
                walk(tuple(sorted((*others, (n + 1, w)))), left - 1, used)
            if used < wild_cap and kinds.can_add(groups, shape(n, w), shape(n, w + 1), going_out):
                walk(tuple(sorted((*others, (n, w + 1)))), left, used + 1)
            for j in range(i + 1, len(melds)):
                merged = groups.combine(shape(n, w), shape(*melds[j])) or groups.combine(shape(*melds[j]), shape(n, w))
                if isinstance(merged, GroupShape):
                    rest = others[: j - 1] + others[j:]
                    walk(tuple(sorted((*rest, (merged.naturals, merged.wilds)))), left, used)
        for n in range(1, left + 1):
            for w in range(wild_cap - used + 1):
                if kinds.valid(groups, shape(n, w), going_out):
                    walk(tuple(sorted((*melds, (n, w)))), left - n, used + w)

    walk(table, naturals, 0)
    return frozenset(outcomes)


@lru_cache(maxsize=_CACHE_SIZE)
def _wild_outcomes(
    kinds: TypeSet, table: tuple[int, ...], cards: int, cap: int, going_out: bool
) -> frozenset[tuple[int, tuple[int, ...]]]:
    """The ways some of ``cards`` wild cards join the side's wild melds or new ones, which may be combined.

    Returns:
        (wild cards placed, canastas by class of the wild melds) per placement.
    """
    none = (0,) * len(_CLASSES)
    wilds = kinds.wilds
    if wilds is None:
        return frozenset({(0, none)})
    outcomes: set[tuple[int, tuple[int, ...]]] = set()
    seen: set[tuple[tuple[int, ...], int]] = set()

    def walk(melds: tuple[int, ...], left: int) -> None:
        if (melds, left) in seen:
            return
        seen.add((melds, left))
        outcomes.add((cards - left, _class_counts((wild_shape(k) for k in melds), wilds, cap, kinds)))
        for i, k in enumerate(melds):
            others = melds[:i] + melds[i + 1 :]
            if left and kinds.can_add(wilds, wild_shape(k), wild_shape(k + 1), going_out):
                walk(tuple(sorted((*others, k + 1))), left - 1)
            for j in range(i + 1, len(melds)):
                merged = wilds.combine(wild_shape(k), wild_shape(melds[j]))
                if merged is not None:
                    walk(tuple(sorted((*others[: j - 1], *others[j:], merged.size))), left)
        for k in range(1, left + 1):
            if kinds.valid(wilds, wild_shape(k), going_out):
                walk(tuple(sorted((*melds, k))), left - k)

    walk(table, cards)
    return frozenset(outcomes)


# `_finishes`' answers, by what they read besides the naturals left and the canastas made (the side's
# groups and wild melds, the wild cards, the spares, the quota): the candidates of one meld phase share
# them, their sequences leaving the same naturals by rank.
_FINISHES: dict[tuple[object, ...], tuple[GoingOutRules, dict[tuple[tuple[int, ...], tuple[int, ...]], bool]]] = {}
#: Contexts kept, and answers kept per context (each table cleared whole when full).
_FINISHES_SIZE = 1 << 10

#: The outcomes of a rank with no natural in the hand and no group on the table: nothing changes.
_UNCHANGED: frozenset[tuple[int, int, tuple[int, ...]]] = frozenset({(0, 0, (0,) * len(_CLASSES))})


class _Table:
    """A side's melds sorted by type for the searches, checked against the rule set's types."""

    def __init__(self, melds: Sequence[MeldShape], types: Sequence[MeldType]) -> None:
        kinds = self.kinds = type_set(types)
        self.groups = kinds.groups
        self.sequences = kinds.sequences
        self.wilds = kinds.wilds
        self.threes = kinds.threes
        by_rank: dict[int, list[tuple[int, int]]] = {}
        by_suit: dict[int, list[tuple[int, int]]] = {}
        wild_melds: list[int] = []
        #: The side's melds of the types of a shape of their own (`canasta.ownshapes`).
        self.own_melds: list[MeldShape] = []
        for meld in melds:
            if isinstance(meld, GroupShape):
                by_rank.setdefault(meld.rank, []).append((meld.naturals, meld.wilds))
            elif isinstance(meld, SequenceShape):
                by_suit.setdefault(int(meld.suit), []).append((meld.low, meld.high))
            elif isinstance(meld, WildShape):
                wild_melds.append(meld.size)
            elif kinds.own and not isinstance(meld, BlackThreeShape):
                self.own_melds.append(meld)
            elif not isinstance(meld, BlackThreeShape):
                raise TypeError(f"the searches know groups, sequences and wild melds, not {type(meld).__name__}")
        held = (
            (by_rank, self.groups, "group"),
            (by_suit, self.sequences, "sequence"),
            (wild_melds, self.wilds, "wild meld"),
        )
        for present, kind, name in held:
            if present and kind is None:
                raise ValueError(f"the side holds a {name}, but the rule set has no such type: an impossible position")
        self.by_rank = {rank: tuple(sorted(m)) for rank, m in by_rank.items()}
        self.by_suit = {suit: tuple(sorted(m)) for suit, m in by_suit.items()}
        self.wild_melds = tuple(sorted(wild_melds))

    def sequence_outcomes(
        self, naturals: tuple[int, ...], suit: int, cap: int, *, going_out: bool
    ) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        """`_sequence_outcomes` for one suit (by index) of a hand's naturals (`SuitedHand.naturals`)."""
        return _sequence_outcomes(self.kinds, suit, naturals[suit::_SUITS], self.by_suit.get(suit, ()), cap, going_out)

    def group_outcomes(
        self, rank: int, naturals: int, wild_cap: int, cap: int, *, going_out: bool
    ) -> frozenset[tuple[int, int, tuple[int, ...]]]:
        """`_group_outcomes` for one rank (`_UNCHANGED` itself where the rank has no card and no group)."""
        table = self.by_rank.get(rank, ())
        if not naturals and not table:
            return _UNCHANGED
        return _group_outcomes(self.kinds, rank, table, naturals, wild_cap, cap, going_out)

    def wild_outcomes(self, cards: int, cap: int, *, going_out: bool) -> frozenset[tuple[int, tuple[int, ...]]]:
        """`_wild_outcomes` for the side's wild melds."""
        return _wild_outcomes(self.kinds, self.wild_melds, cards, cap, going_out)


def can_go_out(hand: SuitedHand, melds: Sequence[MeldShape], types: Sequence[MeldType], quota: GoingOutRules) -> bool:
    """Whether a player can meld every card of ``hand``, or all but one final discard, meeting the going-out quota.

    The sequence games' going out (§9.8, §10.5, §11.3, §11.4): the side's
    melds take the hand's cards as their types allow in a going-out turn
    (a Brazilian escalera grows past 7, and sequences of 8 or more are laid),
    groups of a rank and wild melds may be laid, grown and combined, the black
    threes form one group, and the side's canastas by class afterwards, those
    already made included, must meet ``quota`` (`canasta.GoingOutRules.quota_met`).

    Args:
        hand: The player's cards.
        melds: The side's melds on the table (groups, sequences, wild melds).
        types: The rule set's meld types (as for `opening_reachable`; the first
            `BlackThreeGroupType` lays black threes).
        quota: The going-out quota, and whether a final discard is required
            (`canasta.GoingOutRules.final_discard_required`); any card may be
            the final discard.

    Returns:
        ``True`` if some way to place the cards goes out.

    Raises:
        ValueError: If the side holds a meld of a type the rule set does not have.
        TypeError: If a meld is not a shape the search knows.
    """
    table = _Table(melds, types)
    cap = max([quota.canastas_required, 1, *(n for _, n in quota.canastas_by_class)])
    if not table.kinds.own:
        return _goes_out(hand, table, quota, cap, _NONE_MADE)
    # Types of a shape of their own (`canasta.ownshapes`): each placement of cards into their melds, then the
    # rest by the built-in kinds alone (so a natural none of them can take is lone there).
    return any(
        _goes_out(rest, table, quota, cap, made, placed=True)
        for rest, made in outcomes(hand, table.own_melds, types, cap, going_out=True)
    )


# Per rule set's types, rank and wild cards held: whether a new group of one natural of the rank is valid.
_GROUPS_OF_ONE: dict[tuple[TypeSet, int, int], bool] = {}


def _groups_one(kinds: TypeSet, groups: GroupType, rank: int, wild_cards: int) -> bool:
    """Whether the group type lays a group of one natural of ``rank`` with some of ``wild_cards`` wild cards."""
    key = (kinds, rank, wild_cards)
    known = _GROUPS_OF_ONE.get(key)
    if known is None:
        if len(_GROUPS_OF_ONE) > _CACHE_SIZE:
            _GROUPS_OF_ONE.clear()
        known = _GROUPS_OF_ONE[key] = any(
            kinds.valid(groups, group_shape(rank, 1, w), True) for w in range(wild_cards + 1)
        )
    return known


def _lone_naturals(hand: SuitedHand, table: _Table, wild_cards: int) -> int:
    """The hand's naturals that no meld could take in a going-out turn (a bound: each is a card counted once).

    A natural is *lone* when it is the only natural of its rank held, the side has no
    group of that rank, the group type accepts no new group of it with the wild cards
    held (`GroupType.valid` asked with one natural and each number of wild cards), and
    no card of its suit next to it is held nor a sequence of its suit ends next to it
    (a sequence holds consecutive ranks), and the sequence type lays no sequence of that
    card alone. Such a card can only be
    discarded: the searches would find no placement for it, so counting them is exact
    as a refusal and never refuses a hand that could go out.
    """
    groups = table.groups
    sequences = table.sequences
    naturals = hand.naturals
    lone = 0
    for r in range(_RANKS):
        start = r * _SUITS
        row = naturals[start : start + _SUITS]
        if sum(row) != 1:
            continue
        rank = NATURAL_RANKS[r]
        if rank in table.by_rank:
            continue
        if groups is not None and _groups_one(table.kinds, groups, rank, wild_cards):
            continue
        suit = row.index(1)
        if sequences is not None:
            below = r > 0 and naturals[start - _SUITS + suit] > 0
            above = r + 1 < _RANKS and naturals[start + _SUITS + suit] > 0
            if below or above:
                continue
            if any(low - 1 == rank or high + 1 == rank for low, high in table.by_suit.get(suit, ())):
                continue
            if table.kinds.valid(sequences, sequence_shape(suit, rank, rank), True):
                continue  # (a type of a plugin's may lay a sequence of one card)
        lone += 1
    return lone


def _finishes(
    left: tuple[int, ...],
    counts: tuple[int, ...],
    table: _Table,
    wild_cards: int,
    spares: set[int],
    quota: GoingOutRules,
    cap: int,
) -> bool:
    """`_goes_out`'s second half: the naturals the sequences left (by rank) and the wild cards all melded."""
    # (wild cards used, canastas by class, the spare): each rank's naturals all melded, or one discarded.
    states: set[tuple[int, tuple[int, ...], int]] = {(0, counts, spare) for spare in spares}
    for r, rank in enumerate(NATURAL_RANKS):
        options = table.group_outcomes(rank, left[r], wild_cards, cap, going_out=True)
        if options is _UNCHANGED:
            continue
        need = left[r]
        states = {
            (used + w, _add_counts(made, got, cap), spare if n == need else 0)
            for used, made, spare in states
            for n, w, got in options
            if (n == need or (spare and n == need - 1)) and used + w <= wild_cards
        }
        if not states:
            return False
    for used, made, spare in states:
        free = wild_cards - used
        for placed, got in table.wild_outcomes(free, cap, going_out=True):
            rest = free - placed
            if rest > spare:
                continue
            discarded = spare - rest == 0  # the spare was spent on a card, here or before
            if (discarded or not quota.final_discard_required) and quota.quota_met(_add_counts(made, got, cap)):
                return True
    return False


def _reach(
    per_suit: list[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]],
    held: tuple[int, ...],
    table: _Table,
    wild_cards: int,
    cap: int,
    *,
    going_out: bool = True,
) -> list[tuple[int, ...]]:
    """Per level of a search (the suits placed so far, then the groups): the most canastas by class the rest could add.

    An upper bound, class by class: each remaining suit's most (over its sequence outcomes), each
    rank's most with every natural of it held (a rank's outcomes with fewer naturals are among
    those: the walk records every placement on its way), and the wild melds' most with every wild
    card, wild cards shared by none of them. The quota only grows with canastas
    (`GoingOutRules.quota_met`), so a state whose canastas with this bound miss it cannot go out:
    dropping it changes no answer, and spares the search where a class is needed that the rest
    cannot make (a Brazilian escalera: whole searches of a large hand took seconds). `_opening` reads
    it too (``going_out=False``, ``cap`` 1), for the classes an opening asks for.
    """
    rest = _NONE_MADE
    for r in range(_RANKS):
        options = table.group_outcomes(NATURAL_RANKS[r], held[r], wild_cards, cap, going_out=going_out)
        if options is not _UNCHANGED:
            rest = _add_counts(rest, _most(options), cap)
    rest = _add_counts(rest, _most(table.wild_outcomes(wild_cards, cap, going_out=going_out)), cap)
    reach = [rest]
    for level in range(len(per_suit) - 1, -1, -1):
        reach.append(_add_counts(reach[-1], _most(per_suit[level]), cap))
    reach.reverse()
    return reach


#: Placements of the naturals left that `_goes_out` judges (`_finishes`) before it reads its bound (`_reach`).
_UNBOUNDED_FINISHES = 4

# The most canastas of each class among a set of outcomes, by the set's identity (the searches' outcome
# tables are cached: the same object comes back for the same question; the entry keeps it alive, so the
# table is kept small: it may hold sets the caches above have dropped).
_MOST: dict[int, tuple[object, tuple[int, ...]]] = {}
_MOST_SIZE = 1 << 12


def _most(options: Iterable[tuple[object, ...]]) -> tuple[int, ...]:
    """The class-by-class most of the canastas (each outcome's last field) among ``options``."""
    found = _MOST.get(id(options))
    if found is not None and found[0] is options:
        return found[1]
    most = [0] * len(_CLASSES)
    for option in options:
        got = option[len(option) - 1]
        assert isinstance(got, tuple)
        for i in range(len(most)):
            if got[i] > most[i]:
                most[i] = got[i]
    if len(_MOST) > _MOST_SIZE:
        _MOST.clear()
    best = tuple(most)
    _MOST[id(options)] = (options, best)
    return best


def _goes_out(
    hand: SuitedHand, table: _Table, quota: GoingOutRules, cap: int, made: tuple[int, ...], placed: bool = False
) -> bool:
    """`can_go_out`'s search: every card melded but at most one, the final discard (the *spare*).

    ``made``: the canastas (by class) melds of a shape of their own already make; ``placed``: the
    cards such melds take are placed already (the rest goes to the built-in kinds alone).
    """
    kinds = table.kinds
    black = hand.black_threes
    spares: set[int] = set()  # 1: the final discard is still to choose; 0: a black three is it
    if not black or kinds.threes_valid(black):
        spares.add(1)
    if black == 1 or (black > 1 and kinds.threes_valid(black - 1)):
        spares.add(0)
    if not spares:
        return False
    wild_cards = hand.twos + hand.jokers
    if kinds.built_in or placed:
        # A natural that no meld can take must be the final discard: two such cards, or one where a
        # black three has to be discarded, and nobody goes out (most bound hands end here, unsearched).
        lone = _lone_naturals(hand, table, wild_cards)
        if lone > 1 or (lone == 1 and 1 not in spares):
            return False
    # (The quota by identity: the entry keeps it, so its id is not reused while the entry is here.)
    context: tuple[object, ...] = (
        kinds,
        tuple(sorted(table.by_rank.items())),
        table.wild_melds,
        wild_cards,
        tuple(sorted(spares)),
        id(quota),
        cap,
    )
    entry = _FINISHES.get(context)
    if entry is None or entry[0] is not quota or len(entry[1]) > _FINISHES_SIZE:
        if len(_FINISHES) > _FINISHES_SIZE:
            _FINISHES.clear()
        entry = _FINISHES[context] = (quota, {})
    finishes = entry[1]
    # Suit by suit, depth first (a way out is usually found early): the (naturals left by rank,
    # canastas by class) the sequences can leave, each state once; then the groups and wild melds.
    naturals = hand.naturals
    per_suit = [table.sequence_outcomes(naturals, suit, cap, going_out=True) for suit in range(_SUITS)]
    last = len(per_suit)
    held = tuple(sum(naturals[r * _SUITS : r * _SUITS + _SUITS]) for r in range(_RANKS))
    # A state whose canastas, with the most the rest of the search could add (`_reach`), miss the quota is
    # dropped: from the start where the quota asks for a class (an escalera: the bound's strength), else
    # past the first judgements (most searches end sooner, and the bound would cost them more than it
    # spares); where the quota is not the rules' own class, nothing is dropped.
    bounded = type(quota) is GoingOutRules
    at_once = bounded and bool(quota.canastas_by_class)
    judged = 0  # (the placements `_finishes` judged so far)
    reach: list[tuple[int, ...]] | None = None
    reachable: list[dict[tuple[int, ...], bool]] = []
    start = (0, held, made)
    seen = {start}
    stack = [start]
    while stack:
        level, left, made = stack.pop()
        if reach is None and bounded and (at_once or judged > _UNBOUNDED_FINISHES):
            reach = _reach(per_suit, held, table, wild_cards, cap)
            reachable = [{} for _ in range(last + 1)]
        if reach is not None:
            known = reachable[level].get(made)
            if known is None:
                known = reachable[level][made] = quota.quota_met(_add_counts(made, reach[level], cap))
            if not known:
                continue
        if level == last:
            state = (left, made)
            done = finishes.get(state)
            if done is None:
                done = finishes[state] = _finishes(left, made, table, wild_cards, spares, quota, cap)
                judged += 1
            if done:
                return True
            continue
        for usage, got in reversed(per_suit[level]):  # (the stack pops the first outcome first)
            rest = tuple([left[r] - usage[r] for r in range(_RANKS)])
            following = (level + 1, rest, _add_counts(made, got, cap))
            if following not in seen:
                seen.add(following)
                stack.append(following)
    return False
