"""Fixed integer ids for every action of a rule set, and legal-action masks.

The id layout of a compiled `canasta.Rules` is fixed and documented (see
`ActionSpace`): the non-meld actions come first, at the same ids in every
variant, then one id per meld shape the rules allow. Ids are derived from the
rules' numbers (deck size, wild-card limits, meld size caps), never from a
variant's name, so a new variant or house rule gets its own space for free.

The layout is versioned (`ACTION_SPACE_VERSION`): a change of ids breaks
trained agents, so it gets a new version. Version 2 removed the take-back
(``Retract``, id 23 in version 1; taking back moves is not a rule of Canasta,
the rule book, "What “legal” means") and renumbered the ids after it down by one: `EndHand` is 23 and
the melds start at 24. Version 3 (`SPECIAL_HANDS_ACTION_SPACE_VERSION`) is the layout of rule sets
with special hands (`canasta.Rules.special_hands`): version 2's ids, then the declarations. Version 4
(`KEPT_THREE_ACTION_SPACE_VERSION`) is the layout of rule sets that keep a three in hand
(`canasta.ThreeRules.keep_one`, the special hands' Straight): version 3's ids, then `LayOutThree`.
Version 5 (`WILD_PAIR_ACTION_SPACE_VERSION`) is the layout of rule sets that take a wild card on top
of the pile with two of its kind (`canasta.PileRules.wild_pair`, Hand and Foot): the ids the rule set
would have without it, then ``TakePile(0, 2, 0)`` and ``TakePile(0, 0, 2)``.
Version 6 (`BOOKS_ACTION_SPACE_VERSION`) is the layout of rule sets that add natural cards to books
(`canasta.MeldRules.add_to_books`, Hand and Foot's ``add-to-books``): the ids the rule set would have
without it, then the takes and melds onto a book (`book_actions`).
Version 7 (`PICK_UP_ACTION_SPACE_VERSION`) is the layout of rule sets where a packet is earned by a
canasta and picked up at will (`canasta.PacketRules.after_first_canasta`, Hand and Foot's
``foot-after-first-book``): the ids the rule set would have without it, then `PickUpPacket`.
Version 8 (`BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION`) is the layout of rule sets with both: the ids of
version 6, then `PickUpPacket`.
Every other rule set keeps version 2.
Version 9 (`SEQUENCES_ACTION_SPACE_VERSION`) is the layout of the sequence games (Samba, Bolivia,
Brazilian canasta), whose actions name suits and melds: `canasta.rl.SequenceActionSpace` computes its
ids from the actions' fields, and ``ActionSpace(rules)`` builds one for rule sets with meld types
(`canasta.Rules.meld_types`).
Version 10 (`SEVERAL_MELDS_ACTION_SPACE_VERSION`) is the layout of rule sets where a side holds several
melds of a kind (`canasta.MeldRules.several_melds`) or adds wild cards to dirty books
(`canasta.MeldRules.wilds_onto_books`: Hand and Foot's ``pierson-family``): the ids the rule set would
have without them (its version 2 to 8 layout, unchanged), then the melds onto a later meld of a kind and
the additions of wild cards to a book (`several_meld_actions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from canasta.actions import (
    Action,
    AnswerGoOut,
    AskGoOut,
    DeclareSpecialHand,
    Discard,
    DrawStock,
    EndHand,
    LayOutThree,
    Meld,
    PickUpPacket,
    TakePile,
)
from canasta.cards import KIND_COUNT, NATURAL_KINDS, Kind
from canasta.errors import CanastaError, IllegalActionError, RuleCode
from canasta.rules import Rules

__all__ = [
    "ACTION_SPACE_VERSION",
    "BOOKS_ACTION_SPACE_VERSION",
    "BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION",
    "FIXED_ACTIONS",
    "KEPT_THREE_ACTION_SPACE_VERSION",
    "MELD_OFFSET",
    "PICK_UP_ACTION_SPACE_VERSION",
    "SEQUENCES_ACTION_SPACE_VERSION",
    "SEVERAL_MELDS_ACTION_SPACE_VERSION",
    "SPECIAL_HANDS_ACTION_SPACE_VERSION",
    "WILD_PAIR_ACTION_SPACE_VERSION",
    "WILD_PAIR_TAKES",
    "ActionSpace",
    "ActionSpaceError",
    "HasLegalActions",
    "book_actions",
    "most_books",
    "most_open_melds",
    "several_meld_actions",
]

#: Version of the id layout of rule sets without special hands. 2: no take-back (version 1 had
#: ``Retract`` at id 23), `EndHand` at 23, melds from 24.
ACTION_SPACE_VERSION: int = 2
#: Version of the id layout of rule sets with special hands: version 2's ids, then the declarations.
SPECIAL_HANDS_ACTION_SPACE_VERSION: int = 3
#: Version of the id layout of rule sets that keep a three in hand: version 3's ids, then `LayOutThree`.
KEPT_THREE_ACTION_SPACE_VERSION: int = 4
#: Version of the id layout of rule sets with wild-pair takes (`canasta.PileRules.wild_pair`): the ids
#: the rule set would have without them (version 2, 3 or 4), then `WILD_PAIR_TAKES`.
WILD_PAIR_ACTION_SPACE_VERSION: int = 5
#: Version of the id layout of rule sets that add natural cards to books (`canasta.MeldRules.add_to_books`):
#: the ids the rule set would have without it (version 2 to 5), then the actions of `book_actions`.
BOOKS_ACTION_SPACE_VERSION: int = 6
#: Version of the id layout of rule sets where a packet is picked up at will once earned by a canasta
#: (`canasta.PacketRules.after_first_canasta`): the ids the rule set would have without it, then `PickUpPacket`.
PICK_UP_ACTION_SPACE_VERSION: int = 7
#: Version of the id layout of rule sets with both: version 6's ids, then `PickUpPacket`.
BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION: int = 8
#: Version of the id layout of the sequence games (`canasta.rl.SequenceActionSpace`): ids computed from
#: the fields of `canasta.suitedactions.SequenceGameAction`, which name suits and melds.
SEQUENCES_ACTION_SPACE_VERSION: int = 9
#: Version of the id layout of rule sets with several melds of a kind (`canasta.MeldRules.several_melds`)
#: or wild cards onto dirty books (`canasta.MeldRules.wilds_onto_books`): the ids the rule set would have
#: without them (version 2 to 8), then the actions of `several_meld_actions`.
SEVERAL_MELDS_ACTION_SPACE_VERSION: int = 10


class ActionSpaceError(CanastaError):
    """An action or id is outside a rule set's action space.

    For an id this is a caller error; for an action the engine listed as legal it
    is a bug in the action space (or in a variant that added an action kind it
    does not know), and the message says so.
    """


class HasLegalActions(Protocol):
    """Anything with a ``legal_actions()`` list: `canasta.Game` or `canasta.HandState`."""

    def legal_actions(self) -> Sequence[Action]:
        """The acting seat's legal actions."""
        ...


#: How many remembered action objects, per id, before the identity memo starts over.
_MEMO_LIMIT = 4
#: The identity memo's size limit for large (computed) spaces: it starts over past this many objects.
_MEMO_CAP = 1 << 16

#: The actions at ids ``0 .. MELD_OFFSET - 1``, identical in every variant:
#: draw (0), the four ways to take the pile (1-4), a discard of each kind by
#: `Kind` value (5-19), ask (20), answer yes (21), answer no (22), end the hand (23).
FIXED_ACTIONS: tuple[Action, ...] = (
    DrawStock(),
    TakePile(2, 0, 0),
    TakePile(1, 1, 0),
    TakePile(1, 0, 1),
    TakePile(0, 0, 0),
    *(Discard(Kind(k)) for k in range(KIND_COUNT)),
    AskGoOut(),
    AnswerGoOut(True),
    AnswerGoOut(False),
    EndHand(),
)

#: The id of the first meld action.
MELD_OFFSET: int = len(FIXED_ACTIONS)

#: The takes of a wild card on top with two of its kind (`canasta.PileRules.wild_pair`): two 2s for a 2,
#: two jokers for a joker. Last in the space, and only where the rules have them.
WILD_PAIR_TAKES: tuple[Action, ...] = (TakePile(0, 2, 0), TakePile(0, 0, 2))


def _meld_shapes(rules: Rules) -> list[Meld]:
    """Every ``Meld`` the engine can list under these rules, in id order.

    The bounds are what the engine itself respects (see ``HandState._meld_phase_actions``):
    never more naturals of a rank than the deck holds, never more 2s or jokers
    than the deck holds, never more wild cards added to a natural meld than
    ``max_wilds``, never a meld larger than ``max_size``, no wild card on a
    ``natural_only`` rank, wild melds and black-three melds only where allowed.
    """
    meld_rules = rules.melds
    packs, deck_jokers = rules.deck.packs, rules.deck.jokers
    per_rank = 4 * packs  # copies of one natural rank, and of the 2
    cap = meld_rules.max_size if meld_rules.max_size is not None else per_rank + per_rank + deck_jokers
    shapes: list[Meld] = []
    for rank in NATURAL_KINDS:
        if rank in meld_rules.natural_only:
            wild_room = 0
        elif meld_rules.max_wilds is None:  # no fixed cap: every wild card of the deck
            wild_room = per_rank + deck_jokers
        else:
            wild_room = meld_rules.max_wilds
        for n in range(min(per_rank, cap) + 1):
            for t in range(min(per_rank, wild_room, cap - n) + 1):
                for j in range(min(deck_jokers, wild_room - t, cap - n - t) + 1):
                    if n + t + j:
                        shapes.append(Meld(rank, n, t, j))
    if meld_rules.wild_melds:
        # A wild meld is not bound by max_wilds (it is all wild), only by max_size.
        for t in range(min(per_rank, cap) + 1):
            for j in range(min(deck_jokers, cap - t) + 1):
                if t + j:
                    shapes.append(Meld(Kind.JOKER, 0, t, j))
    if meld_rules.black_threes_when_going_out:
        # Rule book, "Threes": 3 or 4 black threes, no wild card.
        for n in range(3, min(4, 2 * packs, cap) + 1):
            shapes.append(Meld(Kind.BLACK_THREE, n, 0, 0))
    return shapes


def _second_meld_actions(rules: Rules) -> tuple[Action, ...]:
    """Under a partnership rule (``cutthroat``): takes and melds onto a side's second meld of a rank."""
    if not rules.partnerships.first_taker_alone:
        return ()
    takes = tuple(TakePile(n, t, j, second=True) for n, t, j in ((2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 0, 0)))
    melds = tuple(
        Meld(m.rank, m.naturals, m.twos, m.jokers, second=True) for m in _meld_shapes(rules) if m.rank in NATURAL_KINDS
    )
    return takes + melds


def book_actions(rules: Rules) -> tuple[Action, ...]:
    """The actions onto a side's books of a rank, where the rules add to books (else none).

    ``TakePile(2, 0, 0, book=True)``, then ``Meld(rank, n, book=True)`` for each
    natural rank from 4 to ace and ``n`` from 1 to the deck's copies of a rank
    (``4 × packs``), ascending.

    Args:
        rules: The compiled rules.

    Returns:
        The actions, in id order (empty unless `canasta.MeldRules.add_to_books`).
    """
    if not rules.melds.add_to_books:
        return ()
    per_rank = 4 * rules.deck.packs
    melds = tuple(Meld(rank, n, book=True) for rank in NATURAL_KINDS for n in range(1, per_rank + 1))
    return (TakePile(2, 0, 0, book=True), *melds)


def _wild_room(rules: Rules, rank: Kind) -> int:
    """The most wild cards one meld action adds to a natural rank's meld (as `_meld_shapes` bounds them)."""
    meld_rules = rules.melds
    if rank in meld_rules.natural_only:
        return 0
    if meld_rules.max_wilds is None:  # no fixed cap: every wild card of the deck
        return 4 * rules.deck.packs + rules.deck.jokers
    return meld_rules.max_wilds


def most_open_melds(rules: Rules, kind: Kind) -> int:
    """The most open melds (not books) of a kind one side can hold at once, from the rules' numbers.

    Under `canasta.MeldRules.several_melds` every open meld of a natural rank
    holds at least ``min_naturals`` of the deck's ``4 × packs`` cards of the
    rank (where ``min_naturals`` is 0: at least ``min_size`` of the rank's
    cards and the wild cards), and every wild meld at least ``min_size`` of the
    deck's wild cards (``4 × packs`` 2s and the jokers). Elsewhere a side holds one meld of a kind
    (``cutthroat``'s second meld of a rank aside). A kind that never melds
    (2s, red threes; the wild meld or black threes where the rules do not
    allow them) has 0.

    Args:
        rules: The compiled rules.
        kind: The meld's kind: a natural rank, ``JOKER`` (the wild meld) or ``BLACK_THREE``.

    Returns:
        The count (the highest meld number, `canasta.Meld.slot`, is one less).
    """
    meld_rules = rules.melds
    per_rank = 4 * rules.deck.packs
    wilds = per_rank + rules.deck.jokers
    if kind == Kind.JOKER:
        if not meld_rules.wild_melds:
            return 0
        most = wilds // max(meld_rules.min_size, 1)
    elif kind == Kind.BLACK_THREE:
        return 1 if meld_rules.black_threes_when_going_out else 0
    elif kind in NATURAL_KINDS:
        if meld_rules.min_naturals >= 1:
            most = per_rank // meld_rules.min_naturals
        else:
            most = (per_rank + wilds) // max(meld_rules.min_size, 1)
    else:
        return 0
    return most if meld_rules.several_melds else min(most, 1)


def _book_naturals(rules: Rules, rank: Kind) -> int:
    """The fewest naturals a book of a natural rank holds: a canasta of at most ``max_wilds`` wild cards."""
    return max(rules.melds.min_naturals, rules.melds.canasta_size - _wild_room(rules, rank))


def most_books(rules: Rules, kind: Kind) -> int:
    """The most books of a kind one side can hold, from the rules' numbers (0 where canastas stay melds).

    Where canastas are books (`canasta.MeldRules.book_makes_room`), a book of a
    natural rank holds at least ``canasta_size`` cards, at most ``max_wilds`` of
    them wild (none for a ``natural_only`` rank) and at least ``min_naturals``
    natural: so at least ``max(min_naturals, canasta_size - max_wilds)`` of the
    deck's ``4 × packs`` naturals of the rank (where that is 0: ``canasta_size``
    of the rank's cards and the wild cards); a wild book holds
    ``canasta_size`` of the deck's wild cards. Other kinds make no book.

    Args:
        rules: The compiled rules.
        kind: A natural rank, or ``JOKER`` (wild books).

    Returns:
        The count (the highest book number, `canasta.Meld.slot` with ``book=True``, is one less).
    """
    meld_rules = rules.melds
    if not meld_rules.book_makes_room:
        return 0
    per_rank = 4 * rules.deck.packs
    wilds = per_rank + rules.deck.jokers
    size = max(meld_rules.canasta_size, 1)
    if kind == Kind.JOKER:
        return wilds // size if meld_rules.wild_melds else 0
    if kind not in NATURAL_KINDS:
        return 0
    fewest = _book_naturals(rules, kind)
    return per_rank // fewest if fewest >= 1 else (per_rank + wilds) // size


def several_meld_actions(rules: Rules) -> tuple[Action, ...]:
    """The melds that name a later meld of a kind, and the wild cards onto a book (version 10's own ids).

    Under `canasta.MeldRules.several_melds`, for each natural rank from 4 to
    ace, then the wild meld (where the rules allow wild melds), for each meld
    number ``slot`` from 1 to ``most_open_melds(rules, kind) - 1``:
    ``Meld(kind, n, t, j, slot=slot)`` by naturals, then 2s, then jokers, all
    ascending, with the bounds of the meld block (`ActionSpace`: ``4 × packs``
    naturals or 2s, the deck's jokers, ``max_wilds`` wild cards added to a
    natural meld, none to a ``natural_only`` rank, ``max_size`` cards), and
    what the earlier melds of the kind leave: meld ``slot`` exists beside
    ``slot`` others, each holding at least ``min_naturals`` naturals (a wild
    meld: ``min_size`` wild cards), so at most ``4 × packs - slot ×
    min_naturals`` naturals (a wild meld: that many fewer of the deck's wild
    cards) are added to it. Slot 0 is the meld block's own ``Meld(kind, n, t, j)``.

    Then under `canasta.MeldRules.wilds_onto_books`, for each natural rank
    from 4 to ace but the ``natural_only`` ones (they make no dirty book), for
    each book number ``slot`` from 0 to ``most_books(rules, rank) - 1``:
    ``Meld(rank, n, t, j, book=True, slot=slot)`` with ``t + j`` from 1 to
    ``max_wilds - 1`` (a dirty book holds one wild card at least), 2s at most
    ``4 × packs``, jokers at most the deck's, and ``n`` from 0 to what the
    book and the ``slot`` books before it leave of the rank's naturals (each
    holds at least ``max(min_naturals, canasta_size - max_wilds)``), by
    naturals, then 2s, then jokers, ascending. (Natural cards alone onto a
    book are `book_actions`.)

    Every action the engine can list under these rules and no earlier id
    holds is here; some never become legal (a shape no meld reaches).

    Args:
        rules: The compiled rules.

    Returns:
        The actions, in id order (empty unless several_melds or wilds_onto_books).
    """
    meld_rules = rules.melds
    packs, deck_jokers = rules.deck.packs, rules.deck.jokers
    per_rank = 4 * packs
    wilds = per_rank + deck_jokers
    cap = meld_rules.max_size if meld_rules.max_size is not None else per_rank + wilds
    actions: list[Action] = []
    if meld_rules.several_melds:
        for rank in NATURAL_KINDS:
            wild_room = _wild_room(rules, rank)
            for slot in range(1, most_open_melds(rules, rank)):
                for n in range(min(per_rank - slot * meld_rules.min_naturals, cap) + 1):
                    for t in range(min(per_rank, wild_room, cap - n) + 1):
                        for j in range(min(deck_jokers, wild_room - t, cap - n - t) + 1):
                            if n + t + j:
                                actions.append(Meld(rank, n, t, j, slot=slot))
        fewest = max(meld_rules.min_size, 1)
        for slot in range(1, most_open_melds(rules, Kind.JOKER)):
            room = min(wilds - slot * fewest, cap)
            for t in range(min(per_rank, room) + 1):
                for j in range(min(deck_jokers, room - t) + 1):
                    if t + j:
                        actions.append(Meld(Kind.JOKER, 0, t, j, slot=slot))
    if meld_rules.wilds_onto_books and meld_rules.max_wilds:
        room = meld_rules.max_wilds - 1
        for rank in NATURAL_KINDS:
            if rank in meld_rules.natural_only:
                continue
            fewest = _book_naturals(rules, rank)
            for slot in range(most_books(rules, rank)):
                for n in range(max(per_rank - (slot + 1) * fewest, 0) + 1):
                    for t in range(min(per_rank, room) + 1):
                        for j in range(min(deck_jokers, room - t) + 1):
                            if t + j:
                                actions.append(Meld(rank, n, t, j, book=True, slot=slot))
    return tuple(actions)


def _declarations(rules: Rules) -> tuple[Action, ...]:
    """Under rules with special hands: each hand's declaration with no discard, then discarding each kind."""
    discards = [None, *(k for k in Kind if k not in (Kind.RED_THREE, Kind.BLACK_THREE))]
    return tuple(DeclareSpecialHand(hand.id, discard) for hand in rules.special_hands for discard in discards)


def _version(rules: Rules) -> int:
    """The id layout's version under these rules (see the module docs)."""
    if rules.melds.several_melds or rules.melds.wilds_onto_books:
        return SEVERAL_MELDS_ACTION_SPACE_VERSION
    picks_up = rules.packets.after_first_canasta and bool(rules.packets.sizes)
    if rules.melds.add_to_books:
        return BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION if picks_up else BOOKS_ACTION_SPACE_VERSION
    if picks_up:
        return PICK_UP_ACTION_SPACE_VERSION
    if rules.pile.wild_pair:
        return WILD_PAIR_ACTION_SPACE_VERSION
    if rules.threes.keep_one:
        return KEPT_THREE_ACTION_SPACE_VERSION
    return SPECIAL_HANDS_ACTION_SPACE_VERSION if rules.special_hands else ACTION_SPACE_VERSION


def _use_for_meld_types(space: type[ActionSpace]) -> None:
    """Make ``ActionSpace(rules)`` build ``space`` for rules with meld types (`canasta.rl.sequences` calls it).

    The sequence games' space subclasses `ActionSpace`, so this module cannot
    import it without an import cycle; it registers itself instead.
    """
    _MELD_TYPES_SPACE[0] = space


class ActionSpace:
    """The fixed integer encoding of every action under one compiled rule set.

    Layout, version `ACTION_SPACE_VERSION` (stable within a version; it only
    grows if the rules' numbers change):

    - ids ``0 .. 23`` (`FIXED_ACTIONS`, the same in every variant): ``0``
      `DrawStock`; ``1`` ``TakePile(2, 0, 0)``; ``2`` ``TakePile(1, 1, 0)``;
      ``3`` ``TakePile(1, 0, 1)``; ``4`` ``TakePile(0, 0, 0)``; ``5 + k``
      ``Discard(Kind(k))`` for ``k`` in ``0 .. 14``; ``20`` `AskGoOut`;
      ``21`` ``AnswerGoOut(True)``; ``22`` ``AnswerGoOut(False)``; ``23``
      `EndHand`.
    - ids ``24 ..`` (`MELD_OFFSET` on): ``Meld(rank, naturals, twos, jokers)``
      for each natural rank from 4 to ace, then the wild meld (``rank=JOKER``,
      if the rules allow wild melds), then black threes (``rank=BLACK_THREE``,
      if the rules allow them when going out); within a rank, ordered by
      naturals, then 2s, then jokers, all ascending. The counts run over every
      shape the rules can produce: at most ``4 × packs`` naturals or 2s, at
      most the deck's jokers, at most ``max_wilds`` wild cards added to a
      natural meld (none for a ``natural_only`` rank), at most ``max_size``
      cards, at least one card.
    - Only where a partnership rule lets a side hold a rank as two melds
      (``cutthroat``), after those: the four takes onto the second meld
      (``TakePile(..., second=True)`` in the order of ids 1 to 4), then
      ``Meld(..., second=True)`` for every natural-rank meld shape above, in
      the same order.
    - Only where the rules have special hands (version
      `SPECIAL_HANDS_ACTION_SPACE_VERSION`), last: for each
      special hand in the rules' order, ``DeclareSpecialHand(hand)`` and then
      ``DeclareSpecialHand(hand, kind)`` for each kind but the threes, by
      `Kind` value.
    - Only where the rules keep a three in hand (`canasta.ThreeRules.keep_one`,
      version `KEPT_THREE_ACTION_SPACE_VERSION`), after those: `LayOutThree`.
    - Only where the rules take a wild card on top with two of its kind
      (`canasta.PileRules.wild_pair`, version `WILD_PAIR_ACTION_SPACE_VERSION`),
      last: `WILD_PAIR_TAKES`, ``TakePile(0, 2, 0)`` then ``TakePile(0, 0, 2)``.
    - Only where the rules add natural cards to books (`canasta.MeldRules.add_to_books`,
      version `BOOKS_ACTION_SPACE_VERSION`), last: `book_actions`,
      ``TakePile(2, 0, 0, book=True)`` then ``Meld(rank, n, book=True)`` by rank and count.
    - Only where a packet is picked up at will once earned by a canasta
      (`canasta.PacketRules.after_first_canasta`, version `PICK_UP_ACTION_SPACE_VERSION`,
      or `BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION` with books), after those: `PickUpPacket`.
    - Only where a side holds several melds of a kind (`canasta.MeldRules.several_melds`)
      or adds wild cards to a dirty book (`canasta.MeldRules.wilds_onto_books`), version
      `SEVERAL_MELDS_ACTION_SPACE_VERSION`, last: `several_meld_actions`, the melds onto
      meld number 1 and up of a kind, then the wild cards onto each book of a rank, each
      action once (an action an earlier id holds, such as ``cutthroat``'s
      ``second=True`` meld, keeps that id).

    `to_id` and `to_action` are inverse on every action in the space; an
    action outside it raises `ActionSpaceError` (for a legal action that would
    be a bug, and the message says so).

    Rule sets with meld types (`canasta.Rules.meld_types`: the sequence games)
    get the sequence games' space instead: ``ActionSpace(rules)`` returns a
    `canasta.rl.SequenceActionSpace` (a subclass, version
    `SEQUENCES_ACTION_SPACE_VERSION`, with the same interface; its ids are
    computed, and its ``actions`` computes each action on demand).

    Args:
        rules: The compiled rules (`canasta.load_rules`, or ``game.rules``).

    Attributes:
        rules: The rules the space was built for.
        actions: Every action, indexed by id (a sequence: a tuple here, computed in
            `canasta.rl.SequenceActionSpace`).
        size: Number of ids.
        version: The layout's version: `ACTION_SPACE_VERSION`;
            `SPECIAL_HANDS_ACTION_SPACE_VERSION` under rules with special hands;
            `KEPT_THREE_ACTION_SPACE_VERSION` under rules that keep a three;
            `WILD_PAIR_ACTION_SPACE_VERSION` under rules with wild-pair takes;
            `BOOKS_ACTION_SPACE_VERSION` under rules that add to books;
            `PICK_UP_ACTION_SPACE_VERSION` under rules with `canasta.PickUpPacket`;
            `BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION` under rules with both;
            `SEVERAL_MELDS_ACTION_SPACE_VERSION` under rules with several melds of a
            kind or wild cards onto books (whatever else they have).
    """

    __slots__ = ("_ids", "_known", "_last", "_memo", "actions", "rules", "size", "version")

    def __new__(cls, *args: object, **kwargs: object) -> ActionSpace:
        """A new space: the sequence games' (`canasta.rl.SequenceActionSpace`) for rules with meld types."""
        if cls is ActionSpace:
            rules = args[0] if args else kwargs.get("rules")
            if isinstance(rules, Rules) and rules.meld_types:
                # (set when canasta.rl.sequences is imported, which importing canasta.rl always does)
                return object.__new__(_MELD_TYPES_SPACE[0])
        return object.__new__(cls)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        base: tuple[Action, ...] = (
            FIXED_ACTIONS
            + tuple(_meld_shapes(rules))
            + _second_meld_actions(rules)
            + _declarations(rules)
            + ((LayOutThree(),) if rules.threes.keep_one else ())
            + (WILD_PAIR_TAKES if rules.pile.wild_pair else ())
            + book_actions(rules)
            + ((PickUpPacket(),) if rules.packets.after_first_canasta and rules.packets.sizes else ())
        )
        several = several_meld_actions(rules)
        if several:
            known = set(base)  # (cutthroat's second melds are slot 1 already: each action once)
            several = tuple(action for action in several if action not in known)
        self.actions: Sequence[Action] = base + several
        self.size: int = len(self.actions)
        self.version: int = _version(rules)
        self._ids: dict[Action, int] = {action: i for i, action in enumerate(self.actions)}
        # The engine hands out the same action objects again and again (it interns
        # them), so ids are looked up by object identity, in C, instead of by value
        # (an attrs __eq__ in Python per action). `_known` keeps every object in
        # `_memo` alive, so that no other object can take its id().
        self._memo: dict[int, int] = {}
        self._known: list[Action] = []
        # The last legal list seen and its ids: an env asks twice per step (mask, then action).
        self._last: tuple[Sequence[Action], list[int]] = ((), [])

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        house = f" + {', '.join(self.rules.house_rules)}" if self.rules.house_rules else ""
        return f"ActionSpace({self.rules.variant}{house}, size={self.size})"

    def to_id(self, action: Action) -> int:
        """The id of an action.

        Args:
            action: Any action of `canasta.actions`.

        Returns:
            Its id, in ``0 .. size - 1``.

        Raises:
            ActionSpaceError: If the action has no id under these rules.
        """
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise ActionSpaceError(
                f"{action!r} is outside the action space of {self!r}; if the engine listed it as legal, "
                "this is a bug in canasta.rl (please report it with the variant and house rules)"
            ) from None

    def to_action(self, action_id: object) -> Action:
        """The action with an id.

        Args:
            action_id: An id (a Python or numpy integer).

        Returns:
            The action.

        Raises:
            ActionSpaceError: If the id is not an integer in ``0 .. size - 1``.
        """
        return self.actions[self._index(action_id)]

    def _index(self, action_id: object) -> int:
        """The id as an ``int``, or `ActionSpaceError` if it is not an integer in the space."""
        if isinstance(action_id, bool) or not isinstance(action_id, (int, np.integer)):
            raise ActionSpaceError(f"action id must be an integer, got {action_id!r}")
        index = int(action_id)
        if not 0 <= index < self.size:
            raise ActionSpaceError(f"action id {action_id!r} is outside 0..{self.size - 1} of {self!r}")
        return index

    def to_ids(self, actions: Iterable[Action]) -> list[int]:
        """The ids of several actions (see `to_id`).

        Args:
            actions: Actions.

        Returns:
            Their ids, in order.
        """
        return [self.to_id(a) for a in actions]

    def legal_ids(self, state: HasLegalActions) -> list[int]:
        """The ids of the acting seat's legal actions, in the engine's order.

        Args:
            state: A `canasta.Game` or `canasta.HandState`.

        Returns:
            The ids (a new list).

        Raises:
            ActionSpaceError: If the engine lists an action outside the space (a bug).
        """
        return self._ids_of(state.legal_actions())[:]  # a copy: the cached list must stay as it is

    def _ids_of(self, legal: Sequence[Action]) -> list[int]:
        last_legal, last_ids = self._last
        if legal is last_legal:
            return last_ids
        found = list(map(self._memo.get, map(id, legal)))  # all in C
        ids: list[int] = self._learn(legal) if None in found else found  # type: ignore[assignment]  # no None
        self._last = (legal, ids)
        return ids

    @property
    def ids_by_identity(self) -> dict[int, int]:
        """The id of every action object met so far, by its ``id()`` (read it; never change it).

        The space keeps each of these objects alive, so an ``id()`` found here
        is that object's. The dict is the same object for the life of the space
        (`learn_ids` adds to it, and empties it in place past a size limit).
        """
        return self._memo

    def learn_ids(self, actions: Sequence[Action]) -> list[int]:
        """The ids of actions, looked up by value, and remembered by identity for the next look-ups.

        Args:
            actions: Actions (usually the engine's legal list).

        Returns:
            Their ids, in order.

        Raises:
            ActionSpaceError: If an action is outside the space (a bug, for a legal action).
        """
        return self._learn(actions)

    def _learn(self, legal: Sequence[Action]) -> list[int]:
        """Look the actions up by value and remember them by identity."""
        memo = self._memo
        ids = [memo[id(action)] if id(action) in memo else self.to_id(action) for action in legal]
        if len(self._known) > min(_MEMO_LIMIT * self.size, _MEMO_CAP):
            # Not the engine's interned objects (a caller building new ones): start over.
            self._memo.clear()
            self._known.clear()
        for action, action_id in zip(legal, ids, strict=True):
            if id(action) not in self._memo:
                self._memo[id(action)] = action_id
                self._known.append(action)
        return ids

    def legal_action(self, state: HasLegalActions, action_id: object) -> Action:
        """The legal action with an id, as the engine's own object (so applying it is not re-checked).

        Args:
            state: A `canasta.Game` or `canasta.HandState`.
            action_id: An id (a Python or numpy integer).

        Returns:
            The action, taken from ``state.legal_actions()``.

        Raises:
            ActionSpaceError: If the id is not an integer in ``0 .. size - 1``.
            canasta.IllegalActionError: If the id's action is not legal now (with
                the rule it breaks; nothing changes).
        """
        index = action_id if type(action_id) is int else self._index(action_id)
        legal = state.legal_actions()
        try:
            return legal[self._ids_of(legal).index(index)]
        except ValueError:
            pass
        action = self.to_action(index)  # raises for an id outside the space
        check = getattr(state, "check", None)
        if check is not None:
            check(action)  # raises the rule the action breaks
        raise IllegalActionError(RuleCode.ILLEGAL, f"{action} (id {action_id!r}) is not legal now", action)

    def legal_mask(self, state: HasLegalActions) -> npt.NDArray[np.bool_]:
        """The legal-action mask: ``mask[i]`` is True exactly when id ``i`` is legal now.

        Args:
            state: A `canasta.Game` or `canasta.HandState` (all False once over).

        Returns:
            A boolean array of length `size`.

        Raises:
            ActionSpaceError: If the engine lists an action outside the space (a bug).
        """
        # Bytes set in a loop, then one view as numpy: cheaper than numpy's indexing by a short list.
        mask = bytearray(self.size)
        for action_id in self._ids_of(state.legal_actions()):
            mask[action_id] = 1
        return np.frombuffer(mask, dtype=np.bool_)

    def legal_masks(
        self, states: Sequence[HasLegalActions], out: npt.NDArray[np.bool_] | None = None
    ) -> npt.NDArray[np.bool_]:
        """The legal-action masks of several states, one row each (one numpy write for the batch).

        Args:
            states: `canasta.Game` or `canasta.HandState` objects of these rules.
            out: A boolean array of shape ``(len(states), size)`` to write into (a new one if omitted).

        Returns:
            ``out``, row ``i`` being ``legal_mask(states[i])``.

        Raises:
            ValueError: If ``out``'s shape or dtype does not fit.
            ActionSpaceError: If the engine lists an action outside the space (a bug).
        """
        return self.masks_from_ids([self._ids_of(state.legal_actions()) for state in states], out)

    def masks_from_ids(
        self, id_lists: Sequence[Sequence[int]], out: npt.NDArray[np.bool_] | None = None
    ) -> npt.NDArray[np.bool_]:
        """Mask rows from lists of legal ids (as `legal_ids` gives them), in one numpy write.

        Args:
            id_lists: One list of ids per row.
            out: A boolean array of shape ``(len(id_lists), size)`` to write into (a new one if omitted).

        Returns:
            ``out``, with exactly the listed ids of each row True.

        Raises:
            ValueError: If ``out``'s shape or dtype does not fit.
            IndexError: If an id is outside the space.
        """
        n = len(id_lists)
        if out is None:
            out = np.zeros((n, self.size), dtype=np.bool_)
        elif out.shape != (n, self.size) or out.dtype != np.bool_:
            raise ValueError(f"out must be a bool array of shape {(n, self.size)}, got {out.dtype} {out.shape}")
        else:
            out[:] = False
        rows: list[int] = []
        cols: list[int] = []
        for row, ids in enumerate(id_lists):
            rows += [row] * len(ids)
            cols += ids
        out[rows, cols] = True
        return out


#: The class ``ActionSpace(rules)`` builds for rules with meld types (`_use_for_meld_types`; until
#: `canasta.rl.sequences` registers `canasta.rl.SequenceActionSpace`, `ActionSpace` itself).
_MELD_TYPES_SPACE: list[type[ActionSpace]] = [ActionSpace]
