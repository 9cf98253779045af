"""Meld types: what a kind of meld may hold, what may join it, when it closes, and its canasta class.

The rule book's sequence games (`SEQUENCES.md` §9 to §12: Samba, Bolivia,
Brazilian canasta) meld four kinds of meld, each a small policy (§12, "Meld
types"): a **group** of one natural rank, a **sequence** of one suit, a **wild
meld** (wild cards only) and a **black-three group** (only when going out). A
meld type answers four questions about a meld's *shape*, the part of its
contents the rules read:

- `MeldType.valid`: may a meld of this shape be laid?
- `MeldType.can_add`: may a meld of one shape grow into another in one action?
- `MeldType.closed`: may no card join it any more?
- `MeldType.canasta_class`: is it a canasta, and of which `canasta.CanastaClass`?

and, for types whose melds may be merged (Samba's groups of a rank),
`MeldType.combine`. Shapes are small frozen values (`GroupShape`,
`SequenceShape`, `WildShape`, `BlackThreeShape`).

The engine lays, grows and searches the four built-in kinds itself (a subclass
of one may refine what is valid). A plugin's type of a **shape of its own**
(one that derives from none of them: `has_own_shape`) also tells the engine
what it cannot derive, with four more answers:

- `MeldType.shape_of`: the shape a meld holding exactly these cards has (a
  meld *is* its cards: the shape is read from them, losslessly);
- `MeldType.cards_of`: the cards a meld of a shape holds (its inverse);
- `MeldType.lays`: the sets of cards of a hand worth trying as a new meld;
- `MeldType.additions`: the sets of cards of a hand worth trying on one meld.

Cards are counted as a `canasta.suitedhand.SuitedHand` (naturals by rank and
suit, 2s, jokers, black threes). The engine keeps a candidate where the hand
holds its cards and `valid` (or `can_add`) accepts the shape they make, so the
candidates may be generous; they must not miss one. Such melds never take the
pile and are never combined. The engine then plays them everywhere
(`canasta.ownshapes`: the generic actions `LayMeld` and `AddToMeld`, the
opening and going-out searches, scoring); the plugin guide plays Buraco's runs
holding one wild card (`tests/buraco_plugin.py`).

Types are rule data like every hook answer: frozen, hashable and picklable,
so rules travel to other processes. The sequence games' policies of §9 to §11
are tested on the rule book's cases (`tests/test_meld_types.py`); today's
variants without meld types take their group rules from `canasta.MeldRules`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, TypeVar

from attrs import field, frozen

from canasta.canastaclass import CanastaClass
from canasta.cards import Suit

if TYPE_CHECKING:
    from canasta.suitedhand import SuitedHand

__all__ = [
    "ACE",
    "BUILT_IN_KINDS",
    "LOWEST_SEQUENCE_RANK",
    "BlackThreeGroupType",
    "BlackThreeShape",
    "GroupShape",
    "GroupType",
    "MeldShape",
    "MeldType",
    "SequenceShape",
    "SequenceType",
    "WildMeldType",
    "WildShape",
    "first_of",
    "has_own_shape",
    "judging",
]

#: The ace's rank: the highest card of a sequence, never below the 4 (§9 "Sequence order").
ACE = 14
#: The lowest rank of a sequence: the 4 (twos and threes are never in one).
LOWEST_SEQUENCE_RANK = 4


def _count(_instance: object, attribute: object, value: int) -> None:
    """Validator: a card count is a non-negative plain `int`."""
    name = getattr(attribute, "name", "count")
    if type(value) is not int:
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < 0:
        raise ValueError(f"{name} must not be negative, got {value}")


class MeldShape:
    """What the rules read of a meld's contents: the base of every type's shape.

    A shape is a frozen value; its size is the meld's number of cards.
    """

    @property
    def size(self) -> int:
        """The meld's number of cards."""
        raise NotImplementedError

    @property
    def wilds(self) -> int:
        """The meld's wild cards (2s and jokers)."""
        return 0


@frozen
class GroupShape(MeldShape):
    """A group of one natural rank: its naturals and wild cards (suits never matter to a group's rules).

    Attributes:
        rank: The natural rank, 4 (four) to 14 (ace).
        naturals: Its natural cards.
        twos: Its 2s.
        jokers: Its jokers.
    """

    rank: int = field(validator=_count)
    naturals: int = field(validator=_count)
    twos: int = field(default=0, validator=_count)
    jokers: int = field(default=0, validator=_count)

    def __attrs_post_init__(self) -> None:
        if not LOWEST_SEQUENCE_RANK <= self.rank <= ACE:
            raise ValueError(f"a group's rank is a natural rank (4 to 14), got {self.rank}")

    @property
    def size(self) -> int:
        """The group's cards."""
        return self.naturals + self.twos + self.jokers

    @property
    def wilds(self) -> int:
        """The group's wild cards."""
        return self.twos + self.jokers


@frozen
class SequenceShape(MeldShape):
    """A sequence of one suit, from its low rank to its high rank, each rank once (§9.4).

    Attributes:
        suit: The suit of every card.
        low: The lowest rank (4 at least).
        high: The highest rank (14, the ace, at most; ``high >= low``).
    """

    suit: Suit = field(converter=Suit)
    low: int = field(validator=_count)
    high: int = field(validator=_count)

    def __attrs_post_init__(self) -> None:
        if not LOWEST_SEQUENCE_RANK <= self.low <= self.high <= ACE:
            raise ValueError(f"a sequence runs from 4 up to the ace (14), low <= high; got {self.low} to {self.high}")

    @property
    def size(self) -> int:
        """The sequence's cards: one per rank."""
        return self.high - self.low + 1

    @property
    def ranks(self) -> range:
        """The ranks it holds, low to high."""
        return range(self.low, self.high + 1)


@frozen
class WildShape(MeldShape):
    """A wild meld: wild cards only (Bolivia, Brazilian; modern American's wild canasta).

    Attributes:
        twos: Its 2s.
        jokers: Its jokers.
    """

    twos: int = field(validator=_count)
    jokers: int = field(default=0, validator=_count)

    @property
    def size(self) -> int:
        """The meld's cards."""
        return self.twos + self.jokers

    @property
    def wilds(self) -> int:
        """All its cards are wild."""
        return self.twos + self.jokers


@frozen
class BlackThreeShape(MeldShape):
    """A group of black threes, laid only by a player going out (§9.5).

    Attributes:
        count: Its black threes.
    """

    count: int = field(validator=_count)

    @property
    def size(self) -> int:
        """The group's cards."""
        return self.count


class MeldType(ABC):
    """A kind of meld, as a policy over its shape (SEQUENCES.md §12, "Meld types").

    Subclass it (as a frozen attrs class, so that rules stay hashable and
    picklable) and set `shape` to the shape class it judges; every method
    refuses a shape of another class (answers ``False`` or ``None``) rather
    than raising, so an engine may ask each of a rule set's types in turn.

    Attributes:
        name: The type's stable name, e.g. ``"group"`` (class attribute).
        shape: The shape class it judges (class attribute).
        going_out_only: Its melds may be laid only by a player who goes out in
            that turn (class attribute; the black-three group).
    """

    name: ClassVar[str]
    shape: ClassVar[type[MeldShape]]
    going_out_only: ClassVar[bool] = False

    def judges(self, meld: MeldShape) -> bool:
        """Whether ``meld`` is a shape of this type (an instance of `shape`)."""
        return isinstance(meld, self.shape)

    @abstractmethod
    def valid(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """Whether a new meld of this shape may be laid.

        Args:
            meld: The meld as laid.
            going_out: It is laid in a turn in which the player goes out
                (Brazilian canasta lays a sequence of 8 to 11 cards only then).

        Returns:
            ``True`` if the rules allow it.
        """

    @abstractmethod
    def can_add(self, meld: MeldShape, grown: MeldShape, *, going_out: bool = False) -> bool:
        """Whether one action may grow ``meld`` into ``grown`` (cards added, none taken away).

        Args:
            meld: The meld on the table.
            grown: The same meld after the action.
            going_out: The action is part of a turn in which the player goes out
                (Brazilian canasta's escalera grows past 7 cards only then).

        Returns:
            ``True`` if the rules allow it; ``False`` if ``grown`` adds no card
            or is not ``meld`` grown.
        """

    @abstractmethod
    def closed(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """Whether no card may join ``meld`` any more.

        Args:
            meld: The meld on the table.
            going_out: As in `can_add`.
        """

    @abstractmethod
    def canasta_class(self, meld: MeldShape) -> CanastaClass | None:
        """The meld's canasta class, or ``None`` if it is not a canasta."""

    def end_penalty(self, meld: MeldShape) -> int:
        """What a meld of this shape costs its side at the end of the hand (0 by default).

        Brazilian canasta's short sequences (§11.5): a sequence of fewer than 5
        cards costs 1000 (`SequenceType.short_size`); its cards still count.

        Args:
            meld: The meld as the hand ends.

        Returns:
            The penalty, 0 or more (the score subtracts it).
        """
        return 0

    def combine(self, first: MeldShape, second: MeldShape) -> MeldShape | None:
        """The meld two of a side's melds make when merged in one action, or ``None`` if they may not be.

        Types whose melds never merge keep this default (``None``).

        Args:
            first: One meld (the older: the result keeps its identity).
            second: The other.
        """
        return None

    # A type of a shape of its own (`has_own_shape`) answers the four below; the engine reads the
    # built-in kinds' cards itself and never asks them.

    def shape_of(self, cards: SuitedHand) -> MeldShape | None:
        """For a type of a shape of its own: the shape of a meld that holds exactly ``cards``.

        A meld is its cards: the shape is read from them (a wild card's place, where
        several fit, is the type's to settle, e.g. "wherever the run allows"), so a
        meld's cards and its shape never disagree. Together with `cards_of` it must be
        lossless: ``shape_of(cards_of(shape)) == shape``.

        Args:
            cards: The meld's cards (`canasta.suitedhand.SuitedHand` counts).

        Returns:
            Its shape (judged by `valid`, `can_add`, ...), or ``None`` if these cards
            are no meld of this type at all. The built-in kinds answer ``None``.

        Example:
            A run of hearts with one two (`tests/buraco_plugin.py`):

            ```python
            runs.shape_of(SuitedHand.from_cards(["5H", "6H", "2C"]))
            # RunShape(suit=Suit.HEARTS, ranks=frozenset({5, 6}), twos=1, jokers=0)
            ```
        """
        return None

    def cards_of(self, meld: MeldShape) -> SuitedHand:
        """For a type of a shape of its own: the cards a meld of this shape holds (`shape_of`'s inverse).

        Args:
            meld: A shape of this type.

        Returns:
            Its cards.

        Raises:
            NotImplementedError: For the built-in kinds (the engine reads their cards itself).
        """
        raise NotImplementedError(f"{type(self).__name__} does not say which cards its melds hold")

    def lays(self, hand: SuitedHand) -> Iterable[SuitedHand]:
        """For a type of a shape of its own: the sets of the hand's cards worth trying as one new meld.

        The engine keeps those the hand holds whose `shape_of` is `valid` (in a
        going-out turn or not), so the answer may be generous, but it must hold
        every set that would be valid: a set left out is never offered, nor found
        by the opening and going-out searches. A type that lays nothing is refused
        when rules are compiled.

        Args:
            hand: The cards the player holds (or, in the searches, has left).

        Returns:
            Card sets (`canasta.suitedhand.SuitedHand` counts), each at most once.
        """
        return ()

    def additions(self, meld: MeldShape, hand: SuitedHand) -> Iterable[SuitedHand]:
        """For a type of a shape of its own: the sets of the hand's cards worth trying on one of its melds.

        As for `lays`: the engine keeps those the hand holds for which `can_add`
        accepts ``meld`` grown into ``shape_of(cards_of(meld) + cards)``.

        Args:
            meld: The meld on the table.
            hand: The cards the player holds.

        Returns:
            Card sets, each at most once (none, the default: its melds never grow).
        """
        return ()


def _grows(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """Every count of ``after`` is at least ``before``'s, and one is larger."""
    return all(a >= b for a, b in zip(after, before, strict=True)) and after != before


@frozen
class GroupType(MeldType):
    """Groups of one natural rank (§9.3; the defaults are Samba's group rules).

    Attributes:
        min_size: Cards a new group needs.
        min_naturals: Natural cards a group holds at every moment.
        max_wilds: Wild cards a group may hold (``None``: no limit; Bolivia's
            ``bolivia-free-wilds``).
        wild_size_limit: An action that adds a wild card is legal only if the
            group then holds at most this many cards (§9.3's decided point:
            ``s + n + b <= 7``), so no wild card ever joins a canasta; ``None``:
            wild cards join at any size (classic).
        max_size: Cards a group may hold (``None``: no limit); a group of this
            size is closed.
        canasta_size: Cards that make a group a canasta.
        combinable: Two groups of a rank may be merged (`combine`).
    """

    name: ClassVar[str] = "group"
    shape: ClassVar[type[MeldShape]] = GroupShape

    min_size: int = 3
    min_naturals: int = 2
    max_wilds: int | None = 2
    wild_size_limit: int | None = 7
    max_size: int | None = None
    canasta_size: int = 7
    combinable: bool = True

    def _holds(self, meld: GroupShape) -> bool:
        """The limits every group obeys at every moment (naturals, wild cards, size)."""
        if meld.naturals < self.min_naturals:
            return False
        if self.max_wilds is not None and meld.wilds > self.max_wilds:
            return False
        return self.max_size is None or meld.size <= self.max_size

    def valid(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """A new group: `min_size` cards or more within the group limits (wild cards at any size)."""
        return isinstance(meld, GroupShape) and meld.size >= self.min_size and self._holds(meld)

    def can_add(self, meld: MeldShape, grown: MeldShape, *, going_out: bool = False) -> bool:
        """Naturals at any time; wild cards only while the group then holds at most `wild_size_limit` cards."""
        if not (isinstance(meld, GroupShape) and isinstance(grown, GroupShape)) or grown.rank != meld.rank:
            return False
        if not _grows((meld.naturals, meld.twos, meld.jokers), (grown.naturals, grown.twos, grown.jokers)):
            return False
        if self.closed(meld) or not self._holds(grown):
            return False
        limit = self.wild_size_limit
        return grown.wilds == meld.wilds or limit is None or grown.size <= limit

    def closed(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """Closed only at `max_size` (naturals join a group at any size otherwise)."""
        return isinstance(meld, GroupShape) and self.max_size is not None and meld.size >= self.max_size

    def canasta_class(self, meld: MeldShape) -> CanastaClass | None:
        """Natural or mixed at `canasta_size` cards."""
        if not isinstance(meld, GroupShape) or meld.size < self.canasta_size:
            return None
        return CanastaClass.MIXED if meld.wilds else CanastaClass.NATURAL

    def combine(self, first: MeldShape, second: MeldShape) -> MeldShape | None:
        """Two groups of a rank merge if the result obeys the group limits and no wild card joins a canasta.

        Under a `wild_size_limit` a group of that size or more is a canasta no
        wild card may join, so the other group must then hold none (§9.3).
        """
        if not (self.combinable and isinstance(first, GroupShape) and isinstance(second, GroupShape)):
            return None
        if first.rank != second.rank:
            return None
        limit = self.wild_size_limit
        if limit is not None and ((first.size >= limit and second.wilds) or (second.size >= limit and first.wilds)):
            return None
        merged = GroupShape(
            first.rank, first.naturals + second.naturals, first.twos + second.twos, first.jokers + second.jokers
        )
        return merged if self._holds(merged) else None


@frozen
class SequenceType(MeldType):
    """Sequences of one suit, 4 up to the ace (§9.4; the defaults are Samba's).

    Attributes:
        min_size: Cards a new sequence needs.
        canasta_size: Cards that make it a sequence canasta (a samba, an escalera).
        max_size: Cards a sequence may hold; at this size it is closed.
        going_out_max_size: In a turn in which the player goes out, a sequence
            may grow, or be laid, up to this many cards (Brazilian canasta's
            escalera, 11; ``None``: never past `max_size`).
        short_size: A sequence of fewer cards costs `short_penalty` at the end
            of the hand (Brazilian canasta: 5; 0, the default: none does).
        short_penalty: What such a short sequence costs (Brazilian canasta: 1000).
    """

    name: ClassVar[str] = "sequence"
    shape: ClassVar[type[MeldShape]] = SequenceShape

    min_size: int = 3
    canasta_size: int = 7
    max_size: int = 7
    going_out_max_size: int | None = None
    short_size: int = 0
    short_penalty: int = 0

    def _limit(self, going_out: bool) -> int:
        if going_out and self.going_out_max_size is not None:
            return self.going_out_max_size
        return self.max_size

    def valid(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """A new sequence: `min_size` to `max_size` cards (at 7 a canasta at once); see `going_out_max_size`."""
        return isinstance(meld, SequenceShape) and self.min_size <= meld.size <= self._limit(going_out)

    def can_add(self, meld: MeldShape, grown: MeldShape, *, going_out: bool = False) -> bool:
        """Cards join only at the ends, the result within the size limit; a closed sequence takes none."""
        if not (isinstance(meld, SequenceShape) and isinstance(grown, SequenceShape)) or grown.suit != meld.suit:
            return False
        if not _grows((-meld.low, meld.high), (-grown.low, grown.high)):
            return False
        return not self.closed(meld, going_out=going_out) and grown.size <= self._limit(going_out)

    def closed(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """Closed at `max_size` cards (at `going_out_max_size` in a going-out turn, where one is set)."""
        return isinstance(meld, SequenceShape) and meld.size >= self._limit(going_out)

    def canasta_class(self, meld: MeldShape) -> CanastaClass | None:
        """`canasta.CanastaClass.SEQUENCE` at `canasta_size` cards."""
        if isinstance(meld, SequenceShape) and meld.size >= self.canasta_size:
            return CanastaClass.SEQUENCE
        return None

    def end_penalty(self, meld: MeldShape) -> int:
        """`short_penalty` for a sequence shorter than `short_size` (§11.5)."""
        if isinstance(meld, SequenceShape) and meld.size < self.short_size:
            return self.short_penalty
        return 0


@frozen
class WildMeldType(MeldType):
    """Melds of wild cards only (§10.1; the defaults are Bolivia's).

    Attributes:
        min_size: Cards a new wild meld needs.
        canasta_size: Cards that make it a wild canasta (a bolivia).
        max_size: Cards it may hold; at this size it is closed.
        combinable: Two wild melds may be merged (`combine`).
    """

    name: ClassVar[str] = "wild meld"
    shape: ClassVar[type[MeldShape]] = WildShape

    min_size: int = 3
    canasta_size: int = 7
    max_size: int = 7
    combinable: bool = True

    def valid(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """A new wild meld: `min_size` to `max_size` wild cards."""
        return isinstance(meld, WildShape) and self.min_size <= meld.size <= self.max_size

    def can_add(self, meld: MeldShape, grown: MeldShape, *, going_out: bool = False) -> bool:
        """Wild cards join until `max_size`."""
        if not (isinstance(meld, WildShape) and isinstance(grown, WildShape)):
            return False
        if not _grows((meld.twos, meld.jokers), (grown.twos, grown.jokers)):
            return False
        return not self.closed(meld) and grown.size <= self.max_size

    def closed(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """Closed at `max_size` cards."""
        return isinstance(meld, WildShape) and meld.size >= self.max_size

    def canasta_class(self, meld: MeldShape) -> CanastaClass | None:
        """`canasta.CanastaClass.WILD` at `canasta_size` cards."""
        if isinstance(meld, WildShape) and meld.size >= self.canasta_size:
            return CanastaClass.WILD
        return None

    def combine(self, first: MeldShape, second: MeldShape) -> MeldShape | None:
        """Two wild melds merge if the result holds at most `max_size` cards."""
        if not (self.combinable and isinstance(first, WildShape) and isinstance(second, WildShape)):
            return None
        merged = WildShape(first.twos + second.twos, first.jokers + second.jokers)
        return merged if merged.size <= self.max_size else None


@frozen
class BlackThreeGroupType(MeldType):
    """One group of black threes, laid by a player going out (§9.5): never a canasta, takes no other card.

    Attributes:
        min_size: Black threes it needs.
        max_size: Black threes it may hold (every black three of the deck: 6 in Samba's).
    """

    name: ClassVar[str] = "black-three group"
    shape: ClassVar[type[MeldShape]] = BlackThreeShape
    going_out_only: ClassVar[bool] = True

    min_size: int = 3
    max_size: int = 6

    def valid(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """`min_size` to `max_size` black threes."""
        return isinstance(meld, BlackThreeShape) and self.min_size <= meld.size <= self.max_size

    def can_add(self, meld: MeldShape, grown: MeldShape, *, going_out: bool = False) -> bool:
        """Never: the player lays every black three in one group as he goes out."""
        return False

    def closed(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """Always closed once laid."""
        return isinstance(meld, BlackThreeShape)

    def canasta_class(self, meld: MeldShape) -> CanastaClass | None:
        """Never a canasta."""
        return None


_T = TypeVar("_T", bound=MeldType)

#: The kinds of meld the engine lays, grows and searches itself.
BUILT_IN_KINDS: tuple[type[MeldType], ...] = (GroupType, SequenceType, WildMeldType, BlackThreeGroupType)


def has_own_shape(kind: MeldType) -> bool:
    """Whether a meld type has a shape of its own: it derives from none of the four built-in kinds.

    The engine then plays it by its `MeldType.shape_of`, `MeldType.cards_of`,
    `MeldType.lays` and `MeldType.additions` (`canasta.ownshapes`).
    """
    return not isinstance(kind, BUILT_IN_KINDS)


def first_of(types: Sequence[MeldType], kind: type[_T]) -> _T | None:
    """The first of a rule set's meld types that is a ``kind`` (e.g. its `GroupType`), or ``None``."""
    for t in types:
        if isinstance(t, kind):
            return t
    return None


def judging(types: Sequence[MeldType], meld: MeldShape) -> MeldType | None:
    """The first of a rule set's meld types that judges ``meld`` (`MeldType.judges`), or ``None``."""
    for t in types:
        if t.judges(meld):
            return t
    return None
