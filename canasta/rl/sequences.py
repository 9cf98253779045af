"""Integer ids for the actions of the sequence games (Samba, Bolivia, Brazilian canasta), computed, not listed.

The sequence games' actions name suits and melds (`canasta.suitedactions`), so
their space is large (1,105,784 ids with the rule book's group limit): the
ids are computed from the actions' fields, section by section (mixed-radix
arithmetic), and no list of actions is built. The layout is version
`SEQUENCES_ACTION_SPACE_VERSION`; `SequenceActionSpace` documents it.

``ActionSpace(rules)`` builds this space for rule sets with meld types
(`canasta.Rules.meld_types`), with the group limit of their meld types
(`group_wilds_of`); ``SequenceActionSpace()`` builds it without rules.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Final, Protocol, overload

import numpy as np

from canasta.actions import AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand
from canasta.cards import Kind, Suit
from canasta.meldtypes import GroupType, has_own_shape
from canasta.rl.actions import SEQUENCES_ACTION_SPACE_VERSION, ActionSpace, ActionSpaceError, _use_for_meld_types
from canasta.rules import Rules
from canasta.suitedactions import (
    BLACK_THREES_MAX,
    BLACK_THREES_MIN,
    HIGHEST_RANK,
    LOWEST_RANK,
    MELD_SLOTS,
    WILD_MELD_MAX,
    SequenceGameAction,
)
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

__all__ = ["GROUP_WILDS", "HasSequenceActions", "SequenceActionSpace", "group_wilds_of"]

#: Wild cards one group action holds at most in the rule book's group family (§9.3: at most 2 in a group).
GROUP_WILDS: Final = 2
#: Copies of each natural card (3 packs): a group action names 0 to 3 of each suit.
_COPIES: Final = 3
#: The 162-card deck's 2s and jokers.
_DECK_TWOS: Final = 12
_DECK_JOKERS: Final = 6
_RANKS: Final = HIGHEST_RANK - LOWEST_RANK + 1  # 11
_SUITS: Final = 4
#: A group action's naturals by suit: four counts 0 to 3, read in base 4.
_SUIT_COMBOS: Final = (_COPIES + 1) ** _SUITS
#: The fixed actions, in id order (ids 0 to 4).
_FIXED: Final[tuple[SequenceGameAction, ...]] = (
    DrawStock(),
    AskGoOut(),
    AnswerGoOut(True),
    AnswerGoOut(False),
    EndHand(),
)
#: The discards of a card that is not natural, after the 44 suited ones: a 2, a joker, a black three.
_PLAIN_DISCARDS: Final = (Kind.TWO, Kind.JOKER, Kind.BLACK_THREE)
#: The pairs of suits a pile take shows, in order: (a, b) with a <= b (a pair of one suit: two packs).
_PAIRS: Final[tuple[tuple[Suit, Suit], ...]] = tuple((Suit(a), Suit(b)) for a in range(4) for b in range(a, 4))
_PAIR_INDEX: Final = {pair: i for i, pair in enumerate(_PAIRS)}
_SLOT_TARGETS: Final = MELD_SLOTS + 1  # a new meld (None), then slots 0 .. 63


def _windows(shortest: int) -> tuple[tuple[int, int], ...]:
    """The rank windows (low, high) of ``shortest`` cards or more, by low, then high."""
    return tuple(
        (low, high)
        for low in range(LOWEST_RANK, HIGHEST_RANK + 1)
        for high in range(low + shortest - 1, HIGHEST_RANK + 1)
    )


#: A new sequence: 3 cards or more (up to 11, the 4 to the ace: Brazilian's going-out turn, §11.3).
_NEW_WINDOWS: Final = _windows(3)
#: An extension's new ends: 4 cards or more (a sequence of 3 or more, grown by one card or more).
_GROWN_WINDOWS: Final = _windows(4)
_NEW_WINDOW_INDEX: Final = {w: i for i, w in enumerate(_NEW_WINDOWS)}
_GROWN_WINDOW_INDEX: Final = {w: i for i, w in enumerate(_GROWN_WINDOWS)}
#: A wild meld action's (twos, jokers): 1 to 7 wild cards (§10.1), by total, then 2s.
_WILD_MELDS: Final = tuple(
    (t, s - t) for s in range(1, WILD_MELD_MAX + 1) for t in range(s + 1) if t <= _DECK_TWOS and s - t <= _DECK_JOKERS
)
_WILD_MELD_INDEX: Final = {w: i for i, w in enumerate(_WILD_MELDS)}
_COMBINES: Final = MELD_SLOTS * (MELD_SLOTS - 1) // 2


def _group_wilds(limit: int) -> tuple[tuple[int, int], ...]:
    """A group action's (twos, jokers): at most ``limit`` wild cards, by total, then 2s."""
    return tuple(
        (t, s - t) for s in range(limit + 1) for t in range(s + 1) if t <= _DECK_TWOS and s - t <= _DECK_JOKERS
    )


class HasSequenceActions(Protocol):
    """Anything with a ``legal_actions()`` list of a sequence game's actions."""

    def legal_actions(self) -> Sequence[object]:
        """The acting seat's legal actions."""
        ...


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _slot(value: object) -> int | None:
    """A meld identity's slot, or ``None`` if it is not one of ``0 .. MELD_SLOTS - 1``."""
    return value if _is_int(value) and 0 <= value < MELD_SLOTS else None  # type: ignore[operator, return-value]


def _target(value: object) -> int | None:
    """A target's index: 0 for a new meld (``None``), ``1 + slot`` for a meld; ``None`` if out of range."""
    if value is None:
        return 0
    slot = _slot(value)
    return None if slot is None else 1 + slot


def group_wilds_of(rules: Rules) -> int:
    """The wild cards one group action may hold under rules with meld types (the space's ``group_wilds``).

    The largest ``max_wilds`` of the rules' group types (`canasta.meldtypes.GroupType`);
    a group type with no limit (``None``: Bolivia's ``bolivia-free-wilds``) may hold
    every wild card of the deck (its 2s and jokers, ``4 × packs + jokers``); rules with
    no group type: `GROUP_WILDS`.

    Args:
        rules: Compiled rules.

    Returns:
        The limit (0 or more).
    """
    limits = [t.max_wilds for t in rules.meld_types if isinstance(t, GroupType)]
    if any(limit is None for limit in limits):
        return 4 * rules.deck.packs + rules.deck.jokers
    return max((limit for limit in limits if limit is not None), default=GROUP_WILDS)


class _ComputedActions(Sequence[SequenceGameAction]):
    """Every action of a `SequenceActionSpace`, by id, computed on demand (no list is built)."""

    __slots__ = ("_space",)

    def __init__(self, space: SequenceActionSpace) -> None:
        self._space = space

    def __len__(self) -> int:
        return self._space.size

    @overload
    def __getitem__(self, index: int) -> SequenceGameAction: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[SequenceGameAction, ...]: ...

    def __getitem__(self, index: int | slice) -> SequenceGameAction | tuple[SequenceGameAction, ...]:
        if isinstance(index, slice):
            return tuple(self._space.to_action(i) for i in range(*index.indices(self._space.size)))
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"indices must be integers or slices, not {type(index).__name__}")
        i = int(index)
        if i < 0:
            i += self._space.size
        if not 0 <= i < self._space.size:
            raise IndexError(f"action id {index} is outside the space")
        return self._space.to_action(i)


class SequenceActionSpace(ActionSpace):
    """The fixed integer encoding of every action of the sequence games (version `SEQUENCES_ACTION_SPACE_VERSION`).

    The ids are computed from the actions' fields; the sections, in id order
    (sizes with the default ``group_wilds=2``):

    ========================  ======  ==========================================================
    section                   ids     encoding (``slot``: a meld identity, 0 to 63; ``target``:
                                      0 for a new meld, ``1 + slot`` onto a meld)
    ========================  ======  ==========================================================
    fixed                     5       ``0`` `canasta.DrawStock`, ``1`` `canasta.AskGoOut`,
                                      ``2`` ``AnswerGoOut(True)``, ``3`` ``AnswerGoOut(False)``,
                                      ``4`` `canasta.EndHand`
    discards                  47      ``Discard(rank, suit=s)``: ``(rank - 4) × 4 + s`` (44);
                                      then ``Discard(TWO)``, ``Discard(JOKER)``,
                                      ``Discard(BLACK_THREE)``
    pile takes                778     ``PileTake(PAIR, meld, (a, b))``: ``target × 10 + pair``,
                                      the pairs ``a <= b`` in order (650); then
                                      ``PileTake(TOP_ONTO_GROUP, slot)`` (64), then
                                      ``PileTake(TOP_ONTO_SEQUENCE, slot)`` (64)
    new sequences             180     ``LaySequence(suit, low, high)``: ``suit × 45 + window``,
                                      the 45 windows of 3 to 11 cards by low, then high
    extensions                2,304   ``Extend(slot, low, high)``: ``slot × 36 + window``, the 36
                                      windows of 4 to 11 cards by low, then high
    combinations              2,016   ``Combine(first, second)``, ``first < second`` (the older
                                      meld has the lower number): the pairs by ``first``, then
                                      ``second``
    wild melds                2,210   ``LayWild(twos, jokers, meld)``: ``target × 34 + wilds``,
                                      the 34 (twos, jokers) of 1 to 7 cards by total, then 2s
    black threes              4       ``LayBlackThrees(n)``, ``n`` from 3 to 6
    groups                    1,098,  ``LayGroup(rank, suits, twos, jokers, meld)``:
                              240     ``((rank - 4) × 65 + target) × 256 + suits) × 6 + wilds``,
                                      ``suits`` the four counts 0 to 3 in base 4 (clubs the
                                      most significant), ``wilds`` the (twos, jokers) of at most
                                      ``group_wilds`` cards by total, then 2s
    ========================  ======  ==========================================================

    1,105,784 ids in all, dense: every id in ``0 .. size - 1`` names one action and
    `to_id` gives it back. Some name actions no rule set ever allows (a group of no
    card, a new sequence of 8 or more outside Brazilian's going-out turn); the legal
    mask never sets them. An action outside these bounds (a meld number of 64 or
    more, a third wild card in a group, ``Combine(5, 3)``, a discard of a natural
    without its suit, today's `canasta.Meld` or `canasta.TakePile`) has no id and
    raises `ActionSpaceError`.

    The bounds are the rule book's (`SEQUENCES.md`): 3 copies of each natural card (so
    0 to 3 of a suit in one group action), sequences from the 4 to the ace, a new one
    of 3 cards or more (8 or more only in a Brazilian going-out turn, §11.3, which
    is why there are 45 windows per suit and not §12's 35), wild melds of at most 7
    cards (§10.1), black threes 3 to 6 (§9.5), and meld numbers below 64 (§12: a side
    numbers at most 54 melds in a hand). A group action holds at most 2 wild cards
    (§9.3); under Bolivia's option ``bolivia-free-wilds`` (§10.9) a new group holds
    any number, and the space for it is built with ``group_wilds=18`` (91 wild
    pairs: 16,664,184 ids).

    ``ActionSpace(rules)`` returns this space for rules with meld types
    (`canasta.Rules.meld_types`), with ``group_wilds`` from the rules
    (`group_wilds_of`: 2 in Samba, Bolivia and Brazilian canasta, 18 under
    ``bolivia-free-wilds``). It has `canasta.rl.ActionSpace`'s interface (it is
    a subclass): `to_id`, `to_action`, `to_ids`, `legal_ids`, `legal_action`,
    `legal_mask`, `legal_masks`, `masks_from_ids`, `learn_ids`,
    `ids_by_identity`, ``len()``; its ``actions`` computes an action per id on
    demand. A mask is ``size`` bytes (1.1 MB here): build masks only for the
    states you step.

    Args:
        rules: The compiled rules the space serves (``None``: none in particular).
        group_wilds: Wild cards one group action holds at most (0 or more);
            ``None``: `group_wilds_of` the rules, or `GROUP_WILDS` without rules.

    Raises:
        ValueError: If ``group_wilds`` is not an integer of 0 or more.

    Attributes:
        rules: The rules given (``None`` if none).
        actions: Every action by id (computed on demand).
        group_wilds: The group limit in use.
        size: Number of ids.
        version: `SEQUENCES_ACTION_SPACE_VERSION`.
    """

    __slots__ = ("_group_wild_index", "_group_wilds", "_starts", "group_wilds")

    def __init__(self, rules: Rules | None = None, *, group_wilds: int | None = None) -> None:
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules must be compiled canasta.Rules or None, got {rules!r}")
        own = [t.name for t in rules.meld_types if has_own_shape(t)] if rules is not None else []
        if own:
            # A plugin's type of a shape of its own lays any set of cards its type accepts: no fixed numbering
            # covers those without knowing the type, so the space refuses the rule set rather than mask it wrongly.
            raise ActionSpaceError(
                f"the RL action space does not number melds of a meld type of a shape of its own ({', '.join(own)}: "
                "canasta.ownshapes); play such a rule set with canasta.Game or HandState, not the RL environments "
                "or OpenSpiel"
            )
        if group_wilds is None:
            group_wilds = GROUP_WILDS if rules is None else group_wilds_of(rules)
        if not _is_int(group_wilds) or group_wilds < 0:
            raise ValueError(f"group_wilds must be an integer of 0 or more, got {group_wilds!r}")
        self.rules = rules  # type: ignore[assignment]  # None: a space built without rules
        self.actions = _ComputedActions(self)  # type: ignore[assignment]  # (the sequence games' actions)
        self._ids = {}
        self._memo = {}
        self._known = []
        self._last = ((), [])
        self.group_wilds = group_wilds
        self._group_wilds = _group_wilds(group_wilds)
        self._group_wild_index = {w: i for i, w in enumerate(self._group_wilds)}
        sizes = (
            len(_FIXED),
            _RANKS * _SUITS + len(_PLAIN_DISCARDS),
            _SLOT_TARGETS * len(_PAIRS) + 2 * MELD_SLOTS,
            _SUITS * len(_NEW_WINDOWS),
            MELD_SLOTS * len(_GROWN_WINDOWS),
            _COMBINES,
            _SLOT_TARGETS * len(_WILD_MELDS),
            BLACK_THREES_MAX - BLACK_THREES_MIN + 1,
            _RANKS * _SLOT_TARGETS * _SUIT_COMBOS * len(self._group_wilds),
        )
        starts = [0]
        for n in sizes:
            starts.append(starts[-1] + n)
        #: Where each section starts, and (last) the size.
        self._starts: tuple[int, ...] = tuple(starts)
        self.size: int = starts[-1]
        self.version: int = SEQUENCES_ACTION_SPACE_VERSION

    def __repr__(self) -> str:
        rules: Rules | None = self.rules
        if rules is None:
            return f"SequenceActionSpace(group_wilds={self.group_wilds}, size={self.size})"
        house = f" + {', '.join(rules.house_rules)}" if rules.house_rules else ""
        return f"SequenceActionSpace({rules.variant}{house}, size={self.size})"

    def _outside(self, action: object, why: str) -> ActionSpaceError:
        return ActionSpaceError(
            f"{action!r} is outside the action space of {self!r}: {why}; if the engine listed it as legal, "
            "this is a bug in canasta.rl (please report it with the variant and house rules)"
        )

    def to_id(self, action: object) -> int:
        """The id of an action.

        Args:
            action: An action of a sequence game (`canasta.suitedactions.SequenceGameAction`).

        Returns:
            Its id, in ``0 .. size - 1``.

        Raises:
            ActionSpaceError: If the action has no id (another class, or a field
                outside the space's bounds; the message says which).
        """
        local = self._local(action)
        if isinstance(local, str):
            raise self._outside(action, local)
        section, offset = local
        return self._starts[section] + offset

    def _local(self, action: object) -> tuple[int, int] | str:
        """(section, offset in it) of an action, or why it has none."""
        if isinstance(action, LayGroup):
            rank, target = action.rank, _target(action.meld)
            if not _is_int(rank) or not LOWEST_RANK <= rank <= HIGHEST_RANK:
                return f"a group's rank is 4 to 14, got {rank!r}"
            if target is None:
                return f"a group's meld is None or a number 0 to {MELD_SLOTS - 1}, got {action.meld!r}"
            suits = 0
            for count in action.suits:
                if count > _COPIES:
                    return f"a group action holds 0 to {_COPIES} naturals of a suit, got {action.suits!r}"
                suits = suits * (_COPIES + 1) + count
            wilds = self._group_wild_index.get((action.twos, action.jokers))
            if wilds is None:
                return f"a group action holds at most {self.group_wilds} wild cards"
            where = ((rank - LOWEST_RANK) * _SLOT_TARGETS + target) * _SUIT_COMBOS + suits
            return 8, where * len(self._group_wilds) + wilds
        if isinstance(action, Discard):
            if action.suit is not None:
                return 1, (action.kind - LOWEST_RANK) * _SUITS + action.suit
            if action.kind in _PLAIN_DISCARDS:
                return 1, _RANKS * _SUITS + _PLAIN_DISCARDS.index(action.kind)
            return "a discard of a natural card names its suit in the sequence games; a red three is never discarded"
        if isinstance(action, PileTake):
            if action.mode is TakeMode.PAIR:
                target, pair = _target(action.meld), _PAIR_INDEX.get(action.pair)  # type: ignore[arg-type]
                if target is None or pair is None:
                    return "a pair take names a meld 0 to 63 or None, and two suits in order"
                return 2, target * len(_PAIRS) + pair
            slot = _slot(action.meld)
            if slot is None or action.pair is not None:
                return "a take of the top card alone names a meld 0 to 63 and no pair"
            onto_sequence = action.mode is TakeMode.TOP_ONTO_SEQUENCE
            return 2, _SLOT_TARGETS * len(_PAIRS) + onto_sequence * MELD_SLOTS + slot
        if isinstance(action, LaySequence):
            window = _NEW_WINDOW_INDEX.get((action.low, action.high))
            if window is None:
                return "a new sequence runs from low to high, 3 cards or more between 4 and 14"
            return 3, action.suit * len(_NEW_WINDOWS) + window
        if isinstance(action, Extend):
            slot, window = _slot(action.meld), _GROWN_WINDOW_INDEX.get((action.low, action.high))
            if slot is None or window is None:
                return "an extension names a meld 0 to 63 and new ends 4 cards or more apart between 4 and 14"
            return 4, slot * len(_GROWN_WINDOWS) + window
        if isinstance(action, Combine):
            first, second = _slot(action.first), _slot(action.second)
            if first is None or second is None or first >= second:
                return "a combination names two melds 0 to 63, the older (lower) first"
            return 5, first * (2 * MELD_SLOTS - first - 1) // 2 + (second - first - 1)
        if isinstance(action, LayWild):
            target, wilds = _target(action.meld), _WILD_MELD_INDEX.get((action.twos, action.jokers))
            if target is None or wilds is None:
                return f"a wild meld action names a meld 0 to 63 or None and 1 to {WILD_MELD_MAX} wild cards"
            return 6, target * len(_WILD_MELDS) + wilds
        if isinstance(action, LayBlackThrees):
            if not _is_int(action.count) or not BLACK_THREES_MIN <= action.count <= BLACK_THREES_MAX:
                return f"black threes go down {BLACK_THREES_MIN} to {BLACK_THREES_MAX} at once"
            return 7, action.count - BLACK_THREES_MIN
        if type(action) in (DrawStock, AskGoOut, AnswerGoOut, EndHand):
            return 0, _FIXED.index(action)
        return f"{type(action).__name__} is not an action of the sequence games"

    def to_action(self, action_id: object) -> SequenceGameAction:  # type: ignore[override]
        """The action with an id.

        Args:
            action_id: An id (a Python or numpy integer).

        Returns:
            The action.

        Raises:
            ActionSpaceError: If the id is not an integer in ``0 .. size - 1``.
        """
        index = self._index(action_id)
        section = bisect_right(self._starts, index) - 1
        offset = index - self._starts[section]
        if section == 0:
            return _FIXED[offset]
        if section == 1:
            if offset < _RANKS * _SUITS:
                return Discard(Kind(LOWEST_RANK + offset // _SUITS), suit=Suit(offset % _SUITS))
            return Discard(_PLAIN_DISCARDS[offset - _RANKS * _SUITS])
        if section == 2:
            if offset < _SLOT_TARGETS * len(_PAIRS):
                target, pair = divmod(offset, len(_PAIRS))
                return PileTake(TakeMode.PAIR, None if target == 0 else target - 1, _PAIRS[pair])
            onto_sequence, slot = divmod(offset - _SLOT_TARGETS * len(_PAIRS), MELD_SLOTS)
            return PileTake(TakeMode.TOP_ONTO_SEQUENCE if onto_sequence else TakeMode.TOP_ONTO_GROUP, slot)
        if section == 3:
            suit, window = divmod(offset, len(_NEW_WINDOWS))
            return LaySequence(Suit(suit), *_NEW_WINDOWS[window])
        if section == 4:
            slot, window = divmod(offset, len(_GROWN_WINDOWS))
            return Extend(slot, *_GROWN_WINDOWS[window])
        if section == 5:
            return Combine(*_combination(offset))
        if section == 6:
            target, wilds = divmod(offset, len(_WILD_MELDS))
            return LayWild(*_WILD_MELDS[wilds], meld=None if target == 0 else target - 1)
        if section == 7:
            return LayBlackThrees(BLACK_THREES_MIN + offset)
        rest, wilds = divmod(offset, len(self._group_wilds))
        rest, suits = divmod(rest, _SUIT_COMBOS)
        rank, target = divmod(rest, _SLOT_TARGETS)
        counts = tuple((suits >> (2 * (3 - s))) & 3 for s in range(_SUITS))
        twos, jokers = self._group_wilds[wilds]
        return LayGroup(LOWEST_RANK + rank, counts, twos, jokers, None if target == 0 else target - 1)


_use_for_meld_types(SequenceActionSpace)


def _combination(offset: int) -> tuple[int, int]:
    """The pair ``(first, second)``, ``first < second``, at an offset of the combinations' section."""
    first = 0
    row = MELD_SLOTS - 1  # pairs with this ``first``
    while offset >= row:
        offset -= row
        first += 1
        row -= 1
    return first, first + 1 + offset
