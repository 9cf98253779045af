"""A rule set's meld types, resolved once for the sequence games' legality and searches.

The legality of the sequence games (`canasta.suitedmelds`, `canasta.suitedsearch`,
`canasta.suitedpile`, `canasta.suitedlegality`) asks, on every call, which of the
rule set's types lays groups, sequences, wild melds and black threes, which type
judges a meld, and what a type answers about shapes it has already judged. A
`TypeSet` answers those once per tuple of types: it is found by the tuple's
identity (`type_set`; the rules hold one tuple for their life), compares and
hashes by identity (so the engine's memo tables key on it without calling the
types' own ``__hash__``, which attrs runs in Python), and keeps the types'
verdicts by plain ints. Nothing here changes what the types decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from canasta.canastaclass import CLASS_BIT, CanastaClass
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
    has_own_shape,
    judging,
)

__all__ = ["TypeSet", "group_shape", "sequence_shape", "type_set", "wild_shape"]

#: Type sets kept (a long run meets few rule sets; cleared whole when full).
_SETS_SIZE: Final = 256
#: Bound on each table of shapes and verdicts (cleared whole when full).
_MEMO_SIZE: Final = 1 << 16

_SETS: dict[int, TypeSet] = {}
# The shape classes whose values the engine makes once each (`group_shape`...; the table's shapes too):
# only their objects are kept by identity below (a shape made anew on every call would only fill the tables).
_MADE_ONCE: Final = frozenset({GroupShape, SequenceShape, WildShape, BlackThreeShape})
_CLASS_BITS: Final = CLASS_BIT  # (bound here: a compiled module reads its own Final natively)
# Shapes made once each, by their fields (frozen values: sharing them is safe).
_GROUP_SHAPES: dict[tuple[int, int, int, int], GroupShape] = {}
_SEQUENCE_SHAPES: dict[tuple[int, int, int], SequenceShape] = {}
_WILD_SHAPES: dict[tuple[int, int], WildShape] = {}


def group_shape(rank: int, naturals: int, twos: int = 0, jokers: int = 0) -> GroupShape:
    """`GroupShape(rank, naturals, twos, jokers)`, made once for each value."""
    key = (rank, naturals, twos, jokers)
    shape = _GROUP_SHAPES.get(key)
    if shape is None:
        if len(_GROUP_SHAPES) > _MEMO_SIZE:
            _GROUP_SHAPES.clear()
        shape = _GROUP_SHAPES[key] = GroupShape(rank, naturals, twos, jokers)
    return shape


def sequence_shape(suit: int, low: int, high: int) -> SequenceShape:
    """`SequenceShape(suit, low, high)` (the suit by its index), made once for each value."""
    key = (suit, low, high)
    shape = _SEQUENCE_SHAPES.get(key)
    if shape is None:
        if len(_SEQUENCE_SHAPES) > _MEMO_SIZE:
            _SEQUENCE_SHAPES.clear()
        shape = _SEQUENCE_SHAPES[key] = SequenceShape(suit, low, high)
    return shape


def wild_shape(twos: int, jokers: int = 0) -> WildShape:
    """`WildShape(twos, jokers)`, made once for each value."""
    key = (twos, jokers)
    shape = _WILD_SHAPES.get(key)
    if shape is None:
        if len(_WILD_SHAPES) > _MEMO_SIZE:
            _WILD_SHAPES.clear()
        shape = _WILD_SHAPES[key] = WildShape(twos, jokers)
    return shape


class TypeSet:
    """A rule set's meld types with each kind's type found, compared and hashed by identity.

    Attributes:
        source: The sequence of types it was made from (kept: it is found by its identity).
        types: The types, as a tuple.
        groups: The first `GroupType` (``None``: the rule set lays no group).
        sequences: The first `SequenceType`.
        wilds: The first `WildMeldType`.
        threes: The first `BlackThreeGroupType`.
        built_in: Every type is one of the four kinds the engine lays.
        group_wild_cap: The most twos (and the most jokers) a group may take: the built-in
            `GroupType`'s ``max_wilds``, else a large number.
        own: The types of a shape of their own (`canasta.meldtypes.has_own_shape`), with
            their index in ``types`` (empty: none; the engine then plays them by
            `canasta.ownshapes`, and never looks further where this is empty).
    """

    def __init__(self, source: Sequence[MeldType]) -> None:
        self.source = source
        self.types: tuple[MeldType, ...] = tuple(source)
        self.groups: GroupType | None = first_of(self.types, GroupType)
        self.sequences: SequenceType | None = first_of(self.types, SequenceType)
        self.wilds: WildMeldType | None = first_of(self.types, WildMeldType)
        self.threes: BlackThreeGroupType | None = first_of(self.types, BlackThreeGroupType)
        #: Every type is one of the four kinds the engine lays (a plugin's type refines one of them).
        self.built_in = all(
            isinstance(t, (GroupType, SequenceType, WildMeldType, BlackThreeGroupType)) for t in self.types
        )
        self.own: tuple[tuple[int, MeldType], ...] = tuple((i, t) for i, t in enumerate(self.types) if has_own_shape(t))
        #: Wild cards of one kind worth offering a group: more than the group type's `GroupType.max_wilds` are
        #: never valid, so the candidates of a rank are the same for any number held above it (a large number
        #: where there is no limit, or where a plugin's subclass might judge otherwise).
        self.group_wild_cap: int = 1 << 30
        groups = self.groups
        if groups is not None and type(groups) is GroupType and groups.max_wilds is not None:
            self.group_wild_cap = groups.max_wilds
        # The types' verdicts, per type and shape objects (shapes are made once each: `group_shape`...).
        self._valid: dict[tuple[int, int, bool], tuple[MeldType, MeldShape, bool]] = {}
        self._can_add: dict[tuple[int, int, int, bool], tuple[MeldType, MeldShape, MeldShape, bool]] = {}
        self._judged_by: dict[tuple[int, int], tuple[MeldType, MeldShape, bool]] = {}
        # Per shape: whether it is valid only in a going-out turn.
        self._going_out_only: dict[int, tuple[MeldShape, bool]] = {}
        # Per type and pair of shapes: what combining them makes (`combined`).
        self._combined: dict[tuple[int, int, int], tuple[MeldType, MeldShape, MeldShape, MeldShape | None]] = {}
        # Per number of black threes: whether the black-three type lays them in a going-out turn.
        self._threes_valid: dict[int, bool] = {}
        # Per shape (by identity: shapes on the table are made once each): the type that judges it.
        self._judges: dict[int, tuple[MeldShape, MeldType | None]] = {}
        # Per type and shape: the type's canasta class of the shape.
        self._by_kind: dict[tuple[int, int], tuple[MeldType, MeldShape, CanastaClass | None]] = {}
        # Per shape: its canasta class by the type that judges it.
        self._classes: dict[int, tuple[MeldShape, CanastaClass | None, int]] = {}

    def valid(self, kind: MeldType, shape: MeldShape, going_out: bool) -> bool:
        """``kind.valid(shape, going_out=going_out)``, kept per type and shape object."""
        if type(shape) not in _MADE_ONCE:
            return kind.valid(shape, going_out=going_out)
        key = (id(kind), id(shape), going_out)
        known = self._valid.get(key)
        if known is not None and known[0] is kind and known[1] is shape:
            return known[2]
        if len(self._valid) > _MEMO_SIZE:
            self._valid.clear()
        verdict = kind.valid(shape, going_out=going_out)
        self._valid[key] = (kind, shape, verdict)  # (the entry keeps both: their ids are not reused meanwhile)
        return verdict

    def can_add(self, kind: MeldType, meld: MeldShape, grown: MeldShape, going_out: bool) -> bool:
        """``kind.can_add(meld, grown, going_out=going_out)``, kept per type and shape objects."""
        if type(meld) not in _MADE_ONCE or type(grown) not in _MADE_ONCE:
            return kind.can_add(meld, grown, going_out=going_out)
        key = (id(kind), id(meld), id(grown), going_out)
        known = self._can_add.get(key)
        if known is not None and known[0] is kind and known[1] is meld and known[2] is grown:
            return known[3]
        if len(self._can_add) > _MEMO_SIZE:
            self._can_add.clear()
        verdict = kind.can_add(meld, grown, going_out=going_out)
        self._can_add[key] = (kind, meld, grown, verdict)
        return verdict

    def judges(self, kind: MeldType, shape: MeldShape) -> bool:
        """``kind.judges(shape)``, kept per type and shape object."""
        if type(shape) not in _MADE_ONCE:
            return kind.judges(shape)
        key = (id(kind), id(shape))
        known = self._judged_by.get(key)
        if known is not None and known[0] is kind and known[1] is shape:
            return known[2]
        if len(self._judged_by) > _MEMO_SIZE:
            self._judged_by.clear()
        verdict = kind.judges(shape)
        self._judged_by[key] = (kind, shape, verdict)
        return verdict

    def combined(self, kind: MeldType, first: MeldShape, second: MeldShape) -> MeldShape | None:
        """``kind.combine(first, second)`` where ``kind`` judges ``second`` (else ``None``), kept per objects.

        A merged group or wild meld is the one object of its value (`group_shape`, `wild_shape`).
        """
        if type(first) not in _MADE_ONCE or type(second) not in _MADE_ONCE:
            return kind.combine(first, second) if kind.judges(second) else None
        key = (id(kind), id(first), id(second))
        known = self._combined.get(key)
        if known is not None and known[0] is kind and known[1] is first and known[2] is second:
            return known[3]
        if len(self._combined) > _MEMO_SIZE:
            self._combined.clear()
        merged = kind.combine(first, second) if self.judges(kind, second) else None
        if type(merged) is GroupShape:
            assert isinstance(merged, GroupShape)
            merged = group_shape(merged.rank, merged.naturals, merged.twos, merged.jokers)
        elif type(merged) is WildShape:
            assert isinstance(merged, WildShape)
            merged = wild_shape(merged.twos, merged.jokers)
        self._combined[key] = (kind, first, second, merged)  # (the entry keeps all three: no id is reused)
        return merged

    def threes_valid(self, count: int) -> bool:
        """Whether a group of ``count`` black threes may be laid in a going-out turn (never without the type)."""
        known = self._threes_valid.get(count)
        if known is None:
            threes = self.threes
            known = self._threes_valid[count] = threes is not None and threes.valid(
                BlackThreeShape(count), going_out=True
            )
        return known

    def class_of(self, kind: MeldType, shape: MeldShape) -> CanastaClass | None:
        """``kind.canasta_class(shape)``, kept per type and shape object."""
        if type(shape) not in _MADE_ONCE:
            return kind.canasta_class(shape)
        key = (id(kind), id(shape))
        known = self._by_kind.get(key)
        if known is not None and known[0] is kind and known[1] is shape:
            return known[2]
        if len(self._by_kind) > _MEMO_SIZE:
            self._by_kind.clear()
        cls = kind.canasta_class(shape)
        self._by_kind[key] = (kind, shape, cls)  # (the entry keeps both: their ids are not reused meanwhile)
        return cls

    def only_going_out(self, shape: MeldShape) -> bool:
        """Whether a meld of ``shape`` is valid only in a going-out turn (§9.5, §11.3), kept per shape object.

        True where the type that judges it lays it only when going out (black threes) or
        does not accept it outside a going-out turn (an escalera past 7 cards).
        """
        if type(shape) not in _MADE_ONCE:
            kind = judging(self.types, shape)
            return kind is not None and (kind.going_out_only or not kind.valid(shape))
        known = self._going_out_only.get(id(shape))
        if known is not None and known[0] is shape:
            return known[1]
        if len(self._going_out_only) > _MEMO_SIZE:
            self._going_out_only.clear()
        kind = self.judging(shape)
        only = kind is not None and (kind.going_out_only or not kind.valid(shape))
        self._going_out_only[id(shape)] = (shape, only)
        return only

    def judging(self, shape: MeldShape) -> MeldType | None:
        """The first type that judges ``shape`` (`canasta.meldtypes.judging`), kept per shape object."""
        if type(shape) not in _MADE_ONCE:
            return judging(self.types, shape)
        known = self._judges.get(id(shape))
        if known is not None and known[0] is shape:
            return known[1]
        if len(self._judges) > _MEMO_SIZE:
            self._judges.clear()
        kind = judging(self.types, shape)
        self._judges[id(shape)] = (shape, kind)  # (the entry keeps the shape: its id is never reused meanwhile)
        return kind

    def canasta_class(self, shape: MeldShape) -> CanastaClass | None:
        """The canasta class of ``shape`` by the type that judges it (``None``: not a canasta, or no type)."""
        return self._class(shape)[1]

    def class_bit(self, shape: MeldShape) -> int:
        """The bit of ``shape``'s canasta class (`canasta.suitedsearch.class_bits`' form), 0 if it is none."""
        return self._class(shape)[2]

    def _class(self, shape: MeldShape) -> tuple[MeldShape, CanastaClass | None, int]:
        if type(shape) not in _MADE_ONCE:
            kind = judging(self.types, shape)
            cls = kind.canasta_class(shape) if kind is not None else None
            return (shape, cls, 0 if cls is None else _CLASS_BITS[cls])
        known = self._classes.get(id(shape))
        if known is not None and known[0] is shape:
            return known
        if len(self._classes) > _MEMO_SIZE:
            self._classes.clear()
        kind = self.judging(shape)
        cls = kind.canasta_class(shape) if kind is not None else None
        known = self._classes[id(shape)] = (shape, cls, 0 if cls is None else _CLASS_BITS[cls])
        return known


def type_set(types: Sequence[MeldType]) -> TypeSet:
    """The `TypeSet` of ``types``, found by the sequence's identity (made on first use).

    Args:
        types: A rule set's meld types (`canasta.Rules.meld_types`: one tuple for the rules' life).

    Returns:
        The same `TypeSet` for the same tuple while it is kept (a new one for a
        sequence of another type, which could change after the call).
    """
    if type(types) is not tuple:
        return TypeSet(types)  # (a list may change after this call: never kept)
    found = _SETS.get(id(types))
    if found is not None and found.source is types:
        return found
    if len(_SETS) > _SETS_SIZE:
        _SETS.clear()
    made = _SETS[id(types)] = TypeSet(types)  # (it keeps ``types``: the id is not reused while it is here)
    return made
