"""The sequence games' opening search: can a hand counted by (rank, suit) lay an initial meld?

Samba, Bolivia and Brazilian canasta (`SEQUENCES.md` §9.6, §10.4, §11.1) open
with groups of a rank, sequences of a suit and (Bolivia, Brazilian) wild melds
laid from the hand; the requirement is a count (the cards' values), or a
canasta of some classes, or both. Whether a player can still complete an
opening decides, by the rule book's §0, which provisional opening melds and
which pile takes of an unopened side are legal (§9.12, §11.6). This module
answers it exactly for a hand counted by suit (`SuitedHand`), with the meld
types of `canasta.meldtypes` deciding what each meld may be:

- sequences take cards of one suit; each selection of runs per suit is tried;
- the naturals they leave go to groups, all of a rank or none (more naturals
  never lower the count and never break a group's limits or a canasta),
  split into one or more groups of the rank where that lets more wild cards
  in (Samba's groups hold at most 2 each);
- the wild cards left form wild melds where the rule set has them;
- twos and jokers are alike to the sequence family's meld rules, so the count
  takes the most valuable mix of the wild cards used (jokers first).

*Status:* the sequence games are not played by the engine yet (issue 34); this
search is their opening oracle, checked against an exhaustive enumeration
(`tests/test_suited_search.py`). The completion of an opening already begun in
the turn (additions to its melds) and the going-out search come next.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import product
from typing import TypeVar

from attrs import field, frozen

from canasta.cards import Card, Kind, Suit, parse_card
from canasta.meldtypes import (
    ACE,
    LOWEST_SEQUENCE_RANK,
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
from canasta.rules import DEFAULT_CARD_VALUES, CanastaClass, GoingOutRules

__all__ = ["NATURAL_RANKS", "OpeningRequirement", "SuitedHand", "can_go_out", "opening_reachable"]

#: The natural ranks, 4 to the ace, in sequence order.
NATURAL_RANKS: tuple[int, ...] = tuple(range(LOWEST_SEQUENCE_RANK, ACE + 1))
_RANKS = len(NATURAL_RANKS)
_SUITS = len(Suit)
_CLASSES = tuple(CanastaClass)
_CLASS_BIT = {cls: 1 << i for i, cls in enumerate(_CLASSES)}
_CLASS_INDEX = {cls: i for i, cls in enumerate(_CLASSES)}
_T = TypeVar("_T", bound=MeldType)
#: The naturals a pile take's group starts with: the top card and the pair (§9.7).
_FORCED = 3


def _counts(value: Iterable[int]) -> tuple[int, ...]:
    counts = tuple(value)
    if len(counts) != _RANKS * _SUITS:
        raise ValueError(f"a suited hand counts 44 natural cards (11 ranks x 4 suits), got {len(counts)}")
    if any(type(c) is not int or c < 0 for c in counts):
        raise ValueError("a suited hand's counts are non-negative ints")
    return counts


@frozen
class SuitedHand:
    """A hand counted by (rank, suit) for its natural cards, and by kind for the rest.

    Attributes:
        naturals: 44 counts, index ``(rank - 4) * 4 + suit``.
        twos: Its 2s (their suits never matter).
        jokers: Its jokers.
        black_threes: Its black threes.
    """

    naturals: tuple[int, ...] = field(converter=_counts)
    twos: int = 0
    jokers: int = 0
    black_threes: int = 0

    @classmethod
    def from_cards(cls, cards: Iterable[Card | str]) -> SuitedHand:
        """Count cards (`canasta.Card` values, or codes `canasta.cards.parse_card` reads: ``"8H"``, ``"JK"``).

        Red threes are refused: they are never in a hand when melds are laid.

        Raises:
            ValueError: For a red three or an unreadable code.
        """
        naturals = [0] * (_RANKS * _SUITS)
        twos = jokers = black = 0
        for card in cards:
            if isinstance(card, str):
                card = Card(*parse_card(card))
            kind = card.kind
            if kind is Kind.JOKER:
                jokers += 1
            elif kind is Kind.TWO:
                twos += 1
            elif kind is Kind.BLACK_THREE:
                black += 1
            elif kind is Kind.RED_THREE:
                raise ValueError("a red three is never in a hand that melds")
            else:
                assert card.suit is not None
                naturals[(card.rank - LOWEST_SEQUENCE_RANK) * _SUITS + card.suit] += 1
        return cls(tuple(naturals), twos, jokers, black)

    def of_suit(self, suit: Suit) -> tuple[int, ...]:
        """The counts of one suit's naturals, 4 to the ace."""
        return self.naturals[suit::_SUITS]

    def of_rank(self, rank: int) -> int:
        """The naturals of one rank, all suits."""
        start = (rank - LOWEST_SEQUENCE_RANK) * _SUITS
        return sum(self.naturals[start : start + _SUITS])


@frozen
class OpeningRequirement:
    """What an initial meld must contain (Samba's count; Brazilian canasta's bands, §11.1).

    Attributes:
        count: The least count of the cards laid (0: none).
        canasta_classes: A canasta of one of these classes must be among the
            melds laid (``frozenset()``: none needed).
    """

    count: int = 0
    canasta_classes: frozenset[CanastaClass] = frozenset()

    def met(self, count: int, classes: int) -> bool:
        """Whether melds of this count, making canastas of these classes (a bit per class), meet it."""
        if count < self.count:
            return False
        if not self.canasta_classes:
            return True
        return any(classes & _CLASS_BIT[c] for c in self.canasta_classes)


def _first(types: Sequence[MeldType], kind: type[_T]) -> _T | None:
    """The first of ``types`` that is a ``kind``."""
    for t in types:
        if isinstance(t, kind):
            return t
    return None


def _value(values: Sequence[int], rank: int) -> int:
    return values[rank]


@cache
def _runs(sequences: SequenceType) -> tuple[tuple[int, int], ...]:
    """Every sequence a suit may hold, as (low index, high index) into 4..ace."""
    return tuple(
        (lo, hi)
        for lo in range(_RANKS)
        for hi in range(lo, _RANKS)
        if sequences.valid(SequenceShape(Suit.CLUBS, NATURAL_RANKS[lo], NATURAL_RANKS[hi]))
    )


def _suit_options(
    counts: tuple[int, ...], sequences: SequenceType | None, values: Sequence[int]
) -> list[tuple[tuple[int, ...], int, int]]:
    """Each way to lay sequences from one suit's cards: (cards used by rank, count, canasta class bits)."""
    found: dict[tuple[tuple[int, ...], int], int] = {}
    if sequences is None:
        return [((0,) * _RANKS, 0, 0)]
    runs = _runs(sequences)
    used = [0] * _RANKS

    def walk(start: int, count: int, classes: int) -> None:
        key = (tuple(used), classes)
        if found.get(key, -1) >= count:
            return
        found[key] = count
        for i in range(start, len(runs)):
            lo, hi = runs[i]
            if all(used[r] < counts[r] for r in range(lo, hi + 1)):
                for r in range(lo, hi + 1):
                    used[r] += 1
                shape = SequenceShape(Suit.CLUBS, NATURAL_RANKS[lo], NATURAL_RANKS[hi])
                cls = sequences.canasta_class(shape)
                gained = sum(_value(values, NATURAL_RANKS[r]) for r in range(lo, hi + 1))
                walk(i, count + gained, classes | (_CLASS_BIT[cls] if cls is not None else 0))
                for r in range(lo, hi + 1):
                    used[r] -= 1

    walk(0, 0, 0)
    return [(usage, count, classes) for (usage, classes), count in found.items()]


@cache
def _rank_options(groups: GroupType, rank: int, naturals: int, wild_cap: int) -> frozenset[tuple[int, int]]:
    """The ways all ``naturals`` of a rank form one or more groups: (wild cards used, canasta class bits)."""
    options: set[tuple[int, int]] = set()

    def parts(left: int, most: int) -> Iterable[list[int]]:
        """Splits of ``left`` naturals into non-increasing parts of at most ``most`` each."""
        if left == 0:
            yield []
            return
        for first in range(min(left, most), 0, -1):
            for rest in parts(left - first, first):
                yield [first, *rest]

    for split in parts(naturals, naturals):
        reach: set[tuple[int, int]] = {(0, 0)}  # (wild cards used, class bits) over the groups so far
        for n in split:
            choices = [
                (w, groups.canasta_class(GroupShape(rank, n, w)))
                for w in range(wild_cap + 1)
                if groups.valid(GroupShape(rank, n, w))
            ]
            reach = {
                (used + w, bits | (_CLASS_BIT[cls] if cls is not None else 0))
                for used, bits in reach
                for w, cls in choices
                if used + w <= wild_cap
            }
            if not reach:
                break
        options |= reach
    return frozenset(options)


@cache
def _wild_options(wilds: WildMeldType | None, available: int) -> frozenset[tuple[int, int]]:
    """The ways to lay wild melds from up to ``available`` wild cards: (wild cards used, canasta class bits)."""
    reach: set[tuple[int, int]] = {(0, 0)}
    if wilds is None:
        return frozenset(reach)
    sizes = [k for k in range(1, available + 1) if wilds.valid(WildShape(k))]
    frontier = set(reach)
    while frontier:
        grown: set[tuple[int, int]] = set()
        for used, bits in frontier:
            for k in sizes:
                if used + k <= available:
                    cls = wilds.canasta_class(WildShape(k))
                    state = (used + k, bits | (_CLASS_BIT[cls] if cls is not None else 0))
                    if state not in reach:
                        reach.add(state)
                        grown.add(state)
        frontier = grown
    return frozenset(reach)


def _wild_value(used: int, hand: SuitedHand, values: Sequence[int]) -> int:
    """The most the ``used`` wild cards can count: the costlier kind first."""
    costly, cheap = (Kind.JOKER, Kind.TWO) if values[Kind.JOKER] >= values[Kind.TWO] else (Kind.TWO, Kind.JOKER)
    held = {Kind.JOKER: hand.jokers, Kind.TWO: hand.twos}
    first = min(used, held[costly])
    return first * values[costly] + (used - first) * values[cheap]


def opening_reachable(
    hand: SuitedHand,
    requirement: OpeningRequirement,
    types: Sequence[MeldType],
    *,
    values: Sequence[int] = DEFAULT_CARD_VALUES,
    forced_group: int | None = None,
) -> bool:
    """Whether melds laid from ``hand`` can meet ``requirement`` (an initial meld, §9.6, §11.1).

    Args:
        hand: The cards that may be laid.
        requirement: The count and the canasta the opening needs.
        types: The rule set's meld types; the search lays the first `GroupType`,
            `SequenceType` and `WildMeldType` among them (a black-three group is
            laid only when going out, and a type of a plugin's own is not laid
            by this search).
        values: Card values indexed by `canasta.Kind` (classic's by default).
        forced_group: A pile take's rank (§9.12): its top card and the natural
            pair shown with it, three naturals of this rank not in ``hand``,
            form a group, which the hand's other cards of the rank may join;
            all three count. ``None``: no take.

    Returns:
        ``True`` if some choice of melds laid from the hand meets it.
    """
    groups = _first(types, GroupType)
    sequences = _first(types, SequenceType)
    wilds = _first(types, WildMeldType)
    wild_cards = hand.twos + hand.jokers
    suit_counts = [hand.of_suit(s) for s in Suit]
    forced = None if forced_group is None else forced_group - LOWEST_SEQUENCE_RANK
    if forced is not None and (groups is None or not 0 <= forced < _RANKS):
        return False
    per_suit = [_suit_options(c, sequences, values) for c in suit_counts]
    seen: dict[tuple[tuple[int, ...], int], int] = {}
    for combo in product(*per_suit):
        left = [0] * _RANKS
        count = 0
        classes = 0
        for s, (usage, gained, bits) in enumerate(combo):
            count += gained
            classes |= bits
            counts = suit_counts[s]
            for r in range(_RANKS):
                left[r] += counts[r] - usage[r]
        if forced is not None:
            left[forced] += _FORCED
        key = (tuple(left), classes)
        if seen.get(key, -1) >= count:
            continue
        seen[key] = count
        if _groups_meet(requirement, left, count, classes, groups, wilds, wild_cards, hand, values, forced):
            return True
    return False


def _groups_meet(
    requirement: OpeningRequirement,
    left: list[int],
    count: int,
    classes: int,
    groups: GroupType | None,
    wilds: WildMeldType | None,
    wild_cards: int,
    hand: SuitedHand,
    values: Sequence[int],
    forced: int | None,
) -> bool:
    """Whether the naturals left after the sequences, as groups, and the wild cards meet the requirement."""
    # States: (wild cards used, canasta class bits) -> the best count of naturals laid in groups.
    states: dict[tuple[int, int], int] = {(0, classes): count}
    if groups is not None:
        for r, n in enumerate(left):
            if n == 0:
                continue
            rank = NATURAL_RANKS[r]
            options = _rank_options(groups, rank, n, wild_cards)
            gained = n * _value(values, rank)
            nxt: dict[tuple[int, int], int] = {} if r == forced else dict(states)
            for (used, bits), best in states.items():
                for w, got in options:
                    if used + w <= wild_cards:
                        key = (used + w, bits | got)
                        if nxt.get(key, -1) < best + gained:
                            nxt[key] = best + gained
            states = nxt
            if not states:
                return False
    for (used, bits), best in states.items():
        for extra, got in _wild_options(wilds, wild_cards - used):
            total = best + _wild_value(used + extra, hand, values)
            if requirement.met(total, bits | got):
                return True
    return False


# --- going out --------------------------------------------------------------------------------


def _class_counts(shapes: Iterable[MeldShape], kind: MeldType, cap: int) -> tuple[int, ...]:
    """Canastas among ``shapes`` by class (in `canasta.CanastaClass` order), each count at most ``cap``."""
    counts = [0] * len(_CLASSES)
    for shape in shapes:
        cls = kind.canasta_class(shape)
        if cls is not None:
            counts[_CLASS_INDEX[cls]] += 1
    return tuple(min(c, cap) for c in counts)


def _add_counts(a: tuple[int, ...], b: tuple[int, ...], cap: int) -> tuple[int, ...]:
    return tuple(min(x + y, cap) for x, y in zip(a, b, strict=True))


@cache
def _sequence_outcomes(
    sequences: SequenceType | None, suit: Suit, held: tuple[int, ...], table: tuple[tuple[int, int], ...], cap: int
) -> frozenset[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The ways one suit's cards may go onto the side's sequences of that suit, or into new ones, when going out.

    Args:
        sequences: The sequence type.
        suit: The suit.
        held: The hand's cards of the suit, by rank index (4 to ace).
        table: The side's sequences of the suit, as (low, high) ranks.
        cap: The most canastas of a class worth counting.

    Returns:
        (cards used by rank index, canastas by class of the suit's sequences) for
        every reachable placement, the cards not used going elsewhere.
    """
    if sequences is None:
        return frozenset({((0,) * _RANKS, (0,) * len(_CLASSES))})
    outcomes: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    seen: set[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = set()

    def walk(runs: tuple[tuple[int, int], ...], left: tuple[int, ...]) -> None:
        key = (runs, left)
        if key in seen:
            return
        seen.add(key)
        used = tuple(h - x for h, x in zip(held, left, strict=True))
        outcomes.add((used, _class_counts((SequenceShape(suit, lo, hi) for lo, hi in runs), sequences, cap)))
        for i, (lo, hi) in enumerate(runs):
            before = SequenceShape(suit, lo, hi)
            for new_lo, new_hi in ((lo - 1, hi), (lo, hi + 1)):
                r = new_lo if new_lo < lo else new_hi
                if LOWEST_SEQUENCE_RANK <= r <= ACE and left[r - LOWEST_SEQUENCE_RANK]:
                    grown = SequenceShape(suit, new_lo, new_hi)
                    if sequences.can_add(before, grown, going_out=True):
                        rest = list(left)
                        rest[r - LOWEST_SEQUENCE_RANK] -= 1
                        walk(tuple(sorted((*runs[:i], (new_lo, new_hi), *runs[i + 1 :]))), tuple(rest))
        for lo in range(_RANKS):
            for hi in range(lo, _RANKS):
                if not left[hi]:
                    break
                shape = SequenceShape(suit, NATURAL_RANKS[lo], NATURAL_RANKS[hi])
                if sequences.valid(shape, going_out=True):
                    rest = list(left)
                    for r in range(lo, hi + 1):
                        rest[r] -= 1
                    walk(tuple(sorted((*runs, (NATURAL_RANKS[lo], NATURAL_RANKS[hi])))), tuple(rest))

    walk(tuple(sorted(table)), held)
    return frozenset(outcomes)


@cache
def _group_outcomes(
    groups: GroupType | None, rank: int, table: tuple[tuple[int, int], ...], naturals: int, wild_cap: int, cap: int
) -> frozenset[tuple[int, tuple[int, ...]]]:
    """The ways a rank's naturals go onto the side's groups of it, or into new ones, placing them all.

    One card at a time (a group's limits are reached the same way by the
    actions that add several), with groups laid and combined as the type
    allows; wild cards join as the type allows, up to ``wild_cap``.

    Args:
        groups: The group type.
        rank: The rank.
        table: The side's groups of the rank, as (naturals, wild cards).
        naturals: The rank's naturals to place.
        wild_cap: The wild cards the hand can spend.
        cap: The most canastas of a class worth counting.

    Returns:
        (wild cards used, canastas by class of the rank's groups) per placement.
    """
    none = (0,) * len(_CLASSES)
    if groups is None:
        return frozenset({(0, none)}) if not naturals and not table else frozenset()
    outcomes: set[tuple[int, tuple[int, ...]]] = set()
    seen: set[tuple[tuple[tuple[int, int], ...], int, int]] = set()

    def shape(n: int, w: int) -> GroupShape:
        return GroupShape(rank, n, w)

    def walk(melds: tuple[tuple[int, int], ...], left: int, used: int) -> None:
        key = (melds, left, used)
        if key in seen:
            return
        seen.add(key)
        if not left:
            outcomes.add((used, _class_counts((shape(n, w) for n, w in melds), groups, cap)))
        for i, (n, w) in enumerate(melds):
            others = melds[:i] + melds[i + 1 :]
            if left and groups.can_add(shape(n, w), shape(n + 1, w), going_out=True):
                walk(tuple(sorted((*others, (n + 1, w)))), left - 1, used)
            if used < wild_cap and groups.can_add(shape(n, w), shape(n, w + 1), going_out=True):
                walk(tuple(sorted((*others, (n, w + 1)))), left, used + 1)
            for j in range(i + 1, len(melds)):
                merged = groups.combine(shape(n, w), shape(*melds[j])) or groups.combine(shape(*melds[j]), shape(n, w))
                if isinstance(merged, GroupShape):
                    rest = others[: j - 1] + others[j:]
                    walk(tuple(sorted((*rest, (merged.naturals, merged.wilds)))), left, used)
        for n in range(1, left + 1):
            for w in range(wild_cap - used + 1):
                if groups.valid(shape(n, w), going_out=True):
                    walk(tuple(sorted((*melds, (n, w)))), left - n, used + w)

    walk(tuple(sorted(table)), naturals, 0)
    return frozenset(outcomes)


@cache
def _wild_outcomes(
    wilds: WildMeldType | None, table: tuple[int, ...], cards: int, cap: int
) -> frozenset[tuple[int, ...]]:
    """The canastas by class the side's wild melds can make when ``cards`` wild cards all join them or new ones."""
    none = (0,) * len(_CLASSES)
    if wilds is None:
        return frozenset({none}) if not cards and not table else frozenset()
    outcomes: set[tuple[int, ...]] = set()
    seen: set[tuple[tuple[int, ...], int]] = set()

    def walk(melds: tuple[int, ...], left: int) -> None:
        if (melds, left) in seen:
            return
        seen.add((melds, left))
        if not left:
            outcomes.add(_class_counts((WildShape(k) for k in melds), wilds, cap))
        for i, k in enumerate(melds):
            others = melds[:i] + melds[i + 1 :]
            if left and wilds.can_add(WildShape(k), WildShape(k + 1), going_out=True):
                walk(tuple(sorted((*others, k + 1))), left - 1)
            for j in range(i + 1, len(melds)):
                merged = wilds.combine(WildShape(k), WildShape(melds[j]))
                if merged is not None:
                    walk(tuple(sorted((*others[: j - 1], *others[j:], merged.size))), left)
        for k in range(1, left + 1):
            if wilds.valid(WildShape(k), going_out=True):
                walk(tuple(sorted((*melds, k))), left - k)

    walk(tuple(sorted(table)), cards)
    return frozenset(outcomes)


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
    cap = max([quota.canastas_required, 1, *(n for _, n in quota.canastas_by_class)])
    discards: list[SuitedHand | None] = [] if quota.final_discard_required else [hand]
    for i, count in enumerate(hand.naturals):
        if count:
            rest = list(hand.naturals)
            rest[i] -= 1
            discards.append(SuitedHand(tuple(rest), hand.twos, hand.jokers, hand.black_threes))
    if hand.twos:
        discards.append(SuitedHand(hand.naturals, hand.twos - 1, hand.jokers, hand.black_threes))
    if hand.jokers:
        discards.append(SuitedHand(hand.naturals, hand.twos, hand.jokers - 1, hand.black_threes))
    if hand.black_threes:
        discards.append(SuitedHand(hand.naturals, hand.twos, hand.jokers, hand.black_threes - 1))
    return any(left is not None and _places_all(left, melds, types, quota, cap) for left in discards)


def _places_all(
    hand: SuitedHand, melds: Sequence[MeldShape], types: Sequence[MeldType], quota: GoingOutRules, cap: int
) -> bool:
    """Whether every card of ``hand`` can be melded so that the side meets the quota."""
    groups = _first(types, GroupType)
    sequences = _first(types, SequenceType)
    wilds = _first(types, WildMeldType)
    threes = _first(types, BlackThreeGroupType)
    if hand.black_threes and (threes is None or not threes.valid(BlackThreeShape(hand.black_threes), going_out=True)):
        return False
    by_rank: dict[int, list[tuple[int, int]]] = {}
    by_suit: dict[Suit, list[tuple[int, int]]] = {}
    wild_melds: list[int] = []
    for meld in melds:
        if isinstance(meld, GroupShape):
            by_rank.setdefault(meld.rank, []).append((meld.naturals, meld.wilds))
        elif isinstance(meld, SequenceShape):
            by_suit.setdefault(meld.suit, []).append((meld.low, meld.high))
        elif isinstance(meld, WildShape):
            wild_melds.append(meld.size)
        elif not isinstance(meld, BlackThreeShape):
            raise TypeError(f"the going-out search knows groups, sequences and wild melds, not {type(meld).__name__}")
    held = ((by_rank, groups, "group"), (by_suit, sequences, "sequence"), (wild_melds, wilds, "wild meld"))
    for present, kind, name in held:
        if present and kind is None:
            raise ValueError(f"the side holds a {name}, but the rule set has no such meld type: an impossible position")
    wild_cards = hand.twos + hand.jokers
    per_suit = [
        _sequence_outcomes(sequences, suit, hand.of_suit(suit), tuple(sorted(by_suit.get(suit, ()))), cap)
        for suit in Suit
    ]
    tried: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for combo in product(*per_suit):
        left = [hand.of_rank(rank) for rank in NATURAL_RANKS]
        counts = (0,) * len(_CLASSES)
        for usage, made in combo:
            counts = _add_counts(counts, made, cap)
            for r in range(_RANKS):
                left[r] -= usage[r]
        key = (tuple(left), counts)
        if key in tried:
            continue
        tried.add(key)
        states: set[tuple[int, tuple[int, ...]]] = {(0, counts)}
        for r, rank in enumerate(NATURAL_RANKS):
            table = tuple(sorted(by_rank.get(rank, ())))
            if not left[r] and not table:
                continue
            options = _group_outcomes(groups, rank, table, left[r], wild_cards, cap)
            states = {
                (used + w, _add_counts(made, got, cap))
                for used, made in states
                for w, got in options
                if used + w <= wild_cards
            }
            if not states:
                break
        for used, made in states:
            for got in _wild_outcomes(wilds, tuple(sorted(wild_melds)), wild_cards - used, cap):
                if quota.quota_met(_add_counts(made, got, cap)):
                    return True
    return False
