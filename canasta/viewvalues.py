"""A seat's view of a hand as flat integer values, written in one pass (compiled with the engine).

This is the per-step work of `canasta.rl`'s observations: `write_view` writes
what one seat may see (the rule book's "What each player sees") into a flat
row of integers, at the offsets a `SeatLayout` gives. The layout itself (which
field goes where, and its version) belongs to `canasta.rl.ObservationEncoder`;
this module only follows it. It reads the same facts `canasta.observation.observe`
exposes to that seat, and nothing hidden: its own hand, the sizes of other hands
and of the stock, the pile, the melds, the threes, the scores, the minimums, the
phase, who acts and what is publicly known of each hand.

`legal_ids_of` and `chosen_actions` are the other per-step work of a batch:
the ids of the acting seat's legal actions (its mask), and the engine's own
action objects for the ids an agent chose; `apply_and_observe` is the loop of
a batch's step, game by game.

It is listed in ``canasta._engine.COMPILED_MODULES``: mypyc compiles it with
the engine, so reading a `TableState` costs a native attribute access, not a
dictionary look-up. It imports no numpy; the caller turns the rows into arrays.
"""

from __future__ import annotations

from typing import Final

from canasta.actions import Action
from canasta.cards import KIND_COUNT, RED_THREE
from canasta.game import Game
from canasta.hand import HandState
from canasta.table import MeldState, TableState

__all__ = [
    "BYTE_LIMIT",
    "SeatLayout",
    "apply_and_observe",
    "chosen_actions",
    "legal_ids_of",
    "view_entries",
    "write_view",
]

#: Values below this (and not negative) fit a byte; others go to the caller's ``wide`` list.
BYTE_LIMIT: Final = 256


class SeatLayout:
    """Where each value of one observer's view goes in a flat row.

    Seats and sides are relative to the observer (offset 0 is the observer,
    then turn order; side 0 is its side). Every ``*_at`` attribute is the
    offset of a field's first entry inside the row.

    Args:
        seat: The observing seat.
        seats: Absolute seats, by relative offset.
        sides: Absolute sides, by relative side.
        partners: For each relative seat, 1 if the variant's seating puts it on the observer's side.
        meld_slot: For each `canasta.Kind` value, the offset of its (naturals, 2s, jokers)
            triple inside a side's meld block (``-1``: no slot).
        meld_block: Entries of one side's meld block.
        phases: The turn phases in the one-hot order of the ``phase`` field.
        offsets: The offset of each field, by name (the names of
            `canasta.rl.ObservationEncoder`'s layout).
        size: Length of the row.

    Attributes:
        seat: The observing seat.
        size: Length of the row.
        zeros: ``size`` zeros (to clear a row with).
    """

    def __init__(
        self,
        seat: int,
        seats: list[int],
        sides: list[int],
        partners: list[int],
        meld_slot: list[int],
        meld_block: int,
        phases: list[object],
        offsets: dict[str, int],
        size: int,
    ) -> None:
        self.seat = seat
        self.size = size
        self.players = len(seats)
        self.seats = seats
        self.sides = sides
        self.partners = partners
        self.meld_slot = meld_slot
        self.meld_bases = [offsets["melds"] + rel * meld_block for rel in range(len(sides))]
        self.phases = phases
        self.zeros = [0] * size
        self.hand_at = offsets["hand"]
        self.threes_at = offsets["threes"]
        self.set_aside_at = offsets["set_aside"]
        self.pile_top_at = offsets["pile_top"]
        self.pile_kinds_at = offsets["pile_kinds"]
        self.pile_size_at = offsets["pile_size"]
        self.pile_frozen_at = offsets["pile_frozen"]
        self.pile_pending_at = offsets["pile_pending"]
        self.stock_size_at = offsets["stock_size"]
        self.hand_sizes_at = offsets["hand_sizes"]
        self.partners_at = offsets["partners"]
        self.scores_at = offsets["scores"]
        self.minimum_needed_at = offsets["minimum_needed"]
        self.opened_at = offsets["opened"]
        self.asks_used_at = offsets["asks_used"]
        self.phase_at = offsets["phase"]
        self.acting_at = offsets["acting"]
        self.answer_at = offsets["answer"]
        self.turn_at = offsets["turn"]
        self.known_at = offsets["known"]


def _put(entries: list[int], offset: int, value: int, wide: list[int], base: int) -> None:
    """Enter a value that may not fit a byte: as ``offset, value`` if it does, else in ``wide`` at ``base + offset``."""
    if 0 < value < BYTE_LIMIT:
        entries.append(offset)
        entries.append(value)
    elif value:
        wide.append(base + offset)
        wide.append(value)


def _enter_kinds(entries: list[int], at: int, cards: list[int], kinds: tuple[int, ...], tally: list[int]) -> None:
    """Enter the count of each kind among ``cards`` at offset ``at + kind`` (``tally``: zeros, left zero)."""
    for card in cards:
        kind = kinds[card]
        count: int = tally[kind]  # (typed: compiled, an int addition; ``+=`` on an item is a generic one)
        tally[kind] = count + 1
    for kind in range(len(tally)):
        count = tally[kind]
        if count:
            entries.append(at + kind)
            entries.append(count)
            tally[kind] = 0


def _rank_repeats(melds: dict[int, MeldState]) -> bool:
    """Whether two of a side's melds have the same rank (a rank held as two melds: house rule cutthroat)."""
    seen = 0
    for meld in melds.values():
        bit = 1 << meld.rank
        if seen & bit:
            return True
        seen |= bit
    return False


def _enter_melds_together(entries: list[int], block: int, slots: list[int], melds: dict[int, MeldState]) -> None:
    """Enter a side's melds with the cards of the melds of one rank added up (each offset entered once)."""
    together: dict[int, list[int]] = {}
    for meld in melds.values():
        i = block + slots[meld.rank]
        cards = together.setdefault(i, [0, 0, 0])
        cards[0] += meld.naturals
        cards[1] += meld.twos
        cards[2] += meld.jokers
    for i, cards in together.items():
        for k in range(3):
            if cards[k]:
                entries.append(i + k)
                entries.append(cards[k])


def view_entries(hand: TableState, layout: SeatLayout, entries: list[int], base: int, wide: list[int]) -> None:
    """Append what ``layout.seat`` may see of ``hand`` to ``entries``: ``offset, value`` pairs of its non-zero values.

    This is the one writer of the observation (`write_view` lays its pairs
    out as a row). Only the non-zero values are entered (a view has about a
    fifth of its entries non-zero), so a batch converts a few bytes per row
    instead of every entry. An offset is relative to the row (``0 <= offset <
    layout.size``) and is entered at most once (a rank held as two melds, under
    the house rule cutthroat, shows both melds' cards together). Scores, minimums, asks and the turn count go to
    ``wide`` instead when they do not fit a byte (negative, or 256 and more),
    as ``base + offset, value``, so that the caller can convert the pairs as
    bytes in one call and patch the few wide values after. Counts of cards
    are always entered (they fit a byte in any deck of fewer than 256 cards;
    in a larger deck the caller's byte conversion fails, and it converts the
    values one by one).

    Args:
        hand: The hand (a `canasta.HandState`).
        layout: The observer's layout.
        entries: Receives the ``offset, value`` pairs (appended to).
        base: Where the observer's row starts in the caller's flat batch (for ``wide``).
        wide: Receives ``base + offset, value`` pairs of values outside ``0 .. 255``.
    """
    seat = layout.seat
    kinds = hand.kinds
    kind_count = KIND_COUNT  # (module constants, read once: each read is a dictionary look-up)
    red_three = RED_THREE
    at = layout.hand_at
    counts = hand.counts[seat]
    for kind in range(kind_count):
        count = counts[kind]
        if count:
            entries.append(at + kind)
            entries.append(count)
    melds = hand.melds
    slots = layout.meld_slot
    sides = layout.sides
    bases = layout.meld_bases
    regrouped = hand.regrouped  # (only a regrouping keeps two melds of a rank: house rule cutthroat)
    for rel in range(len(sides)):
        block = bases[rel]
        side_melds = melds[sides[rel]]
        if regrouped and _rank_repeats(side_melds):
            _enter_melds_together(entries, block, slots, side_melds)
            continue
        for meld in side_melds.values():
            i = block + slots[meld.rank]
            if meld.naturals:
                entries.append(i)
                entries.append(meld.naturals)
            if meld.twos:
                entries.append(i + 1)
                entries.append(meld.twos)
            if meld.jokers:
                entries.append(i + 2)
                entries.append(meld.jokers)
    seats = layout.seats
    threes = hand.threes
    at = layout.threes_at
    for rel in range(len(seats)):
        laid = threes[seats[rel]]
        if laid:
            red = 0
            for card in laid:
                if kinds[card] == red_three:
                    red += 1
            if red:
                entries.append(at + 2 * rel)
                entries.append(red)
            if red < len(laid):
                entries.append(at + 2 * rel + 1)
                entries.append(len(laid) - red)
    set_aside = hand.set_aside
    at = layout.set_aside_at
    for rel in range(len(sides)):
        aside = len(set_aside[sides[rel]])
        if aside:
            entries.append(at + rel)
            entries.append(aside)
    # The pile as observe() shows it: a pile taken for an opening stays face up until picked up.
    tally = [0] * kind_count  # (scratch counts by kind, left zero by each use)
    pending = hand.pending_pile
    pile = hand.pile
    pile_size = len(pile)
    if pending is not None:
        pile_size += len(pending)
        _enter_kinds(entries, layout.pile_kinds_at, pending + pile, kinds, tally)
    else:
        _enter_kinds(entries, layout.pile_kinds_at, pile, kinds, tally)
    at = layout.pile_top_at
    if pile:
        entries.append(at + kinds[pile[-1]])
    elif pending:
        entries.append(at + kinds[pending[-1]])
    else:
        entries.append(at + kind_count)
    entries.append(1)
    if pile_size:
        entries.append(layout.pile_size_at)
        entries.append(pile_size)
    # The seat's meld-owning unit this hand: its side, unless a partnership rule
    # regrouped the players (house rule cutthroat).
    seating = hand.seating
    mine = seating[seat]
    if hand.pile_frozen_for(mine):
        entries.append(layout.pile_frozen_at)
        entries.append(1)
    if pending is not None:
        entries.append(layout.pile_pending_at)
        entries.append(1)
    stock = len(hand.stock)
    if stock:
        entries.append(layout.stock_size_at)
        entries.append(stock)
    sizes = hand.sizes
    at = layout.hand_sizes_at
    partners_at = layout.partners_at
    partners = layout.partners
    for rel in range(len(seats)):
        s = seats[rel]
        size = sizes[s]
        if size:
            entries.append(at + rel)
            entries.append(size)
        if (seating[s] == mine) if regrouped else partners[rel] == 1:
            entries.append(partners_at + rel)
            entries.append(1)
    scores = hand.scores
    opened = hand.opened
    asks = hand.asks_used
    for rel in range(len(sides)):
        side = sides[rel]
        _put(entries, layout.scores_at + rel, scores[side], wide, base)
        _put(entries, layout.minimum_needed_at + rel, hand.minimum_needed(side), wide, base)
        if opened[side]:
            entries.append(layout.opened_at + rel)
            entries.append(1)
        _put(entries, layout.asks_used_at + rel, asks[side], wide, base)
    phase = hand.phase
    phases = layout.phases
    for i in range(len(phases)):
        if phases[i] is phase:
            entries.append(layout.phase_at + i)
            entries.append(1)
    entries.append(layout.acting_at + (hand.seat - seat) % layout.players)
    entries.append(1)
    answer = hand.answer
    entries.append(layout.answer_at + (0 if answer is None else 1 if answer else 2))
    entries.append(1)
    _put(entries, layout.turn_at, hand.turn, wide, base)
    # The information state: per seat, the kinds of the cards known to be in its hand.
    known = hand.known
    at = layout.known_at
    for rel in range(len(seats)):
        cards = known[seats[rel]]
        if cards:
            _enter_kinds(entries, at + rel * kind_count, cards, kinds, tally)


def write_view(hand: TableState, layout: SeatLayout, row: list[int], base: int, wide: list[int]) -> None:
    """Write what ``layout.seat`` may see of ``hand`` into ``row[base : base + layout.size]``.

    The values are `view_entries`' pairs laid out as a row. The range must
    hold zeros (a new ``[0] * size`` list is the cheapest way: clearing a used
    one costs more than making one). As in `view_entries`, the values that do
    not fit a byte go to ``wide`` as ``base + offset, value`` (the row holds 0
    there), so that the caller can convert the rows as bytes in one call and
    patch the few wide values after.

    Args:
        hand: The hand (a `canasta.HandState`).
        layout: The observer's layout.
        row: The flat row (or batch of rows) to write into, zeros in the observer's range.
        base: Where the observer's row starts in ``row``.
        wide: Receives ``index, value`` pairs of values outside ``0 .. 255``.
    """
    entries: list[int] = []
    view_entries(hand, layout, entries, base, wide)
    for k in range(0, len(entries), 2):
        row[base + entries[k]] = entries[k + 1]


def legal_ids_of(
    hand: HandState,
    index: int,
    ids_by_object: dict[int, int],
    legals: list[list[Action]],
    flat: list[int],
    starts: list[int],
    size: int,
) -> bool:
    """The ids of a hand's legal actions, looked up by the identity of the engine's action objects.

    The hand is row ``index`` of a batch: ``legals[index]`` gets its legal list
    (the engine's cached one), ``starts[index]`` the length of ``flat`` before,
    and ``flat`` the indices ``index * size + id`` of its legal ids in a flat
    batch of masks, in the engine's order (so the rows' ids follow each other
    when the rows are done in order).

    Args:
        hand: The hand.
        index: Its row in the batch.
        ids_by_object: Action id by ``id()`` of an action object (`canasta.rl.ActionSpace.ids_by_identity`).
        legals: Receives the legal list at ``index``.
        flat: Receives the flat mask indices (appended to).
        starts: Receives where the row's indices start in ``flat``, at ``index``.
        size: Number of ids of the action space.

    Returns:
        False, with ``flat`` as it was, if an action object is not in
        ``ids_by_object``: the caller looks the actions up by value
        (`canasta.rl.ActionSpace.learn_ids`) and calls again.
    """
    legal = hand.legal_actions()
    first = len(flat)
    starts[index] = first
    base = index * size
    for action in legal:
        found = ids_by_object.get(id(action), -1)
        if found < 0:
            del flat[first:]
            return False
        flat.append(base + found)
    legals[index] = legal
    return True


def chosen_actions(
    hands: list[HandState],
    legals: list[list[Action]],
    flat: list[int],
    starts: list[int],
    action_ids: list[int],
    size: int,
    chosen: list[Action | None],
) -> int:
    """The engine's own action object for each hand's chosen id, from its legal list (applying it is not re-checked).

    Args:
        hands: The hands.
        legals: Each hand's legal list when its ids were looked up (`legal_ids_of`).
        flat: Their flat mask indices (`legal_ids_of`).
        starts: Where each hand's indices start in ``flat``.
        action_ids: The id chosen in each hand.
        size: Number of ids of the action space.
        chosen: Receives each hand's action; ``None`` where the id is not among
            the listed ones, or the hand's legal list is no longer that one (its
            state changed since): the caller then asks the hand afresh.

    Returns:
        How many entries of ``chosen`` are ``None``.
    """
    missing = 0
    for i in range(len(hands)):
        legal = hands[i].legal_actions()
        pick: Action | None = None
        if legal is legals[i]:
            wanted = i * size + action_ids[i]
            first = starts[i]
            for k in range(first, starts[i + 1]):
                if flat[k] == wanted:
                    pick = legal[k - first]
                    break
        if pick is None:
            missing += 1
        chosen[i] = pick
    return missing


def apply_and_observe(
    games: list[Game],
    chosen: list[Action],
    finished: list[int],
    start: int,
    layouts: list[SeatLayout],
    entries: list[int],
    ends: list[int],
    wide: list[int],
    seats: list[int],
    ids_by_object: dict[int, int],
    legals: list[list[Action]],
    flat: list[int],
    starts: list[int],
    size: int,
) -> int:
    """Step a batch of games from ``start`` on: apply each one's action, then observe it as row ``i``.

    Each game is observed right after its move, while its state is still in
    the CPU's caches: its acting seat goes to ``seats[i]``, that seat's view to
    ``entries`` (`view_entries`; ``ends[i]`` gets ``len(entries)`` after it)
    and its legal ids to ``flat`` (`legal_ids_of`). The loop stops at the
    first game that needs the caller: one whose action ended a hand (its count
    of finished hands is no longer ``finished[i]``), or one that lists an
    action object not in ``ids_by_object``. That game's action is applied and
    nothing of its row is written; the caller deals with it, observes it, and
    calls again from ``i + 1`` (so the rows' entries follow each other in order).

    Args:
        games: The games (`canasta.Game`).
        chosen: The action to apply in each (a legal action object of its hand).
        finished: Each game's ``len(game.results)`` before its action.
        start: The first game to step (the rows before it are written).
        layouts: The layout of each observer seat (`canasta.rl.ObservationEncoder.layouts`).
        entries: Receives each row's ``offset, value`` pairs (see `view_entries`).
        ends: Receives, for each row, the length of ``entries`` after its pairs.
        wide: Receives the values that do not fit a byte (see `view_entries`).
        seats: Receives each game's acting seat.
        ids_by_object: Action id by ``id()`` of an action object.
        legals: Receives each game's legal list (see `legal_ids_of`).
        flat: Receives the flat mask indices.
        starts: Receives where each row's indices start in ``flat``.
        size: Number of ids of the action space.

    Returns:
        ``-1`` when every game is done, else the index of the game the caller must take over.
    """
    for i in range(start, len(games)):
        game = games[i]
        game.apply(chosen[i])
        if len(game.results) != finished[i]:
            return i
        hand = game.hand
        if not legal_ids_of(hand, i, ids_by_object, legals, flat, starts, size):
            return i
        seat = hand.seat
        seats[i] = seat
        layout = layouts[seat]
        view_entries(hand, layout, entries, i * layout.size, wide)
        ends[i] = len(entries)
    return -1
