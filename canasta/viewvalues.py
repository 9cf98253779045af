"""A seat's view of a hand as a row of bytes, written in one pass (compiled with the engine).

This is the per-step work of `canasta.rl`'s observations: `write_view` writes
what one seat may see (the rule book's "What each player sees") into a row of
bytes, at the offsets a `SeatLayout` gives; `write_rows` places it in a batch
of rows. The layout itself (which field goes where, and its version) belongs to
`canasta.rl.ObservationEncoder`; this module only follows it. It reads the same
facts `canasta.observation.observe` exposes to that seat, and nothing hidden:
its own hand, the sizes of other hands and of the stock, the pile, the melds,
the threes, the scores, the minimums, the phase, who acts and what is publicly
known of each hand; where the rules deal packets after the hand, the sizes of
the packets still face down (never their cards), and where a packet is earned
by a canasta, which seats have earned theirs (public).

`legal_ids_of` and `chosen_actions` are the other per-step work of a batch:
the ids of the acting seat's legal actions (its mask), and the engine's own
action objects for the ids an agent chose; `apply_and_observe` is the loop of
a batch's step, game by game.

It is listed in ``canasta._engine.COMPILED_MODULES``: mypyc compiles it with
the engine, so reading a `TableState` costs a native attribute access, not a
dictionary look-up. It imports no numpy; the caller reads the rows with
``numpy.frombuffer`` (no copy, no conversion of Python integers).
"""

from __future__ import annotations

from typing import Final

from canasta.actions import Action
from canasta.cards import KIND_COUNT, RED_THREE, SECOND_MELD
from canasta.game import Game
from canasta.hand import HandState
from canasta.table import MeldState, TableState

__all__ = [
    "BYTE_LIMIT",
    "SeatLayout",
    "apply_and_observe",
    "chosen_actions",
    "legal_ids_of",
    "write_rows",
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
        packets: Packets dealt after the hand (``len(rules.packets.sizes)``); where
            there are any, ``offsets`` has the fields ``packets_down`` and ``last_packet``,
            and where a packet is earned by a canasta (`canasta.PacketRules.after_first_canasta`)
            also ``packet_earned``.
        meld_numbers: Where melds and books are told by number (several melds of a kind,
            `canasta.MeldRules.several_melds`, or wild cards onto books,
            `canasta.MeldRules.wilds_onto_books`): the numbers of a kind's open melds in a
            side's block of ``meld_numbers`` (0: no such fields); ``offsets`` then has
            ``meld_numbers`` and ``book_numbers``, and the ``melds`` field sums a kind's melds.
        book_numbers: The numbers of a kind's books in a side's block of ``book_numbers``.

    Attributes:
        seat: The observing seat.
        size: Length of the row.
        zeros: ``size`` zero bytes (to clear a row with).
        packets: Packets dealt after the hand (0: none, and no packet fields).
        packet_earned_at: The offset of the ``packet_earned`` field, or -1 where the
            layout has none (packets are not earned by a canasta).
        meld_numbers: Meld numbers per kind in the ``meld_numbers`` field (0: no numbered fields).
        book_numbers: Book numbers per kind in the ``book_numbers`` field.
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
        packets: int = 0,
        meld_numbers: int = 0,
        book_numbers: int = 0,
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
        self.zeros = bytes(size)
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
        self.packets = packets
        self.packets_down_at = offsets["packets_down"] if packets else -1
        self.last_packet_at = offsets["last_packet"] if packets else -1
        self.packet_earned_at = offsets.get("packet_earned", -1) if packets else -1
        self.meld_numbers = meld_numbers
        self.book_numbers = book_numbers
        self.kind_blocks = meld_block // 3  # (kinds per side: one (naturals, 2s, jokers) triple each in ``melds``)
        self.meld_numbers_at = offsets["meld_numbers"] if meld_numbers else -1
        self.book_numbers_at = offsets["book_numbers"] if meld_numbers else -1


def _put(row: bytearray, offset: int, value: int, wide: list[int], base: int) -> None:
    """Write a value that may not fit a byte: in the row if it does (0 is there already), else in ``wide``."""
    if 0 < value < BYTE_LIMIT:
        row[offset] = value
    elif value:
        wide.append(base + offset)
        wide.append(value)


def _put_kinds(
    row: bytearray, at: int, cards: list[int], kinds: tuple[int, ...], tally: list[int], wide: list[int], base: int
) -> None:
    """Write the count of each kind among ``cards`` at ``row[at + kind]`` (``tally``: zeros, left zero)."""
    for card in cards:
        kind = kinds[card]
        count: int = tally[kind]  # (typed: compiled, an int addition; ``+=`` on an item is a generic one)
        tally[kind] = count + 1
    for kind in range(len(tally)):
        count = tally[kind]
        if count:
            _put(row, at + kind, count, wide, base)
            tally[kind] = 0


def write_view(hand: TableState, layout: SeatLayout, row: bytearray, wide: list[int], base: int) -> None:
    """Write what ``layout.seat`` may see of ``hand`` into ``row[: layout.size]``, as bytes.

    The row must hold zeros (only the non-zero values are written: a view has
    about a fifth of its entries non-zero). A bytearray converts to numpy
    without a copy (`canasta.rl.ObservationEncoder` reads it with
    ``numpy.frombuffer``), and the garbage collector does not look through it.
    The values that do not fit a byte (scores, minimums, asks and the turn
    count when negative or 256 and more; and the counts of cards in a deck of
    256 cards or more) go through ``wide`` instead: the row holds 0 there and
    ``wide`` gets ``base + offset`` and the value appended, so that the caller
    can convert the rows in one call and patch the few wide values after.

    Args:
        hand: The hand (a `canasta.HandState`).
        layout: The observer's layout.
        row: The row to write into, at least ``layout.size`` zero bytes.
        wide: Receives ``base + offset, value`` pairs of values outside ``0 .. 255``.
        base: Where the row starts in the caller's batch (for ``wide``).
    """
    seat = layout.seat
    kinds = hand.kinds
    kind_count = KIND_COUNT  # (module constants, read once: each read is a dictionary look-up)
    red_three = RED_THREE
    at = layout.hand_at
    counts = hand.counts[seat]
    for kind in range(kind_count):
        _put(row, at + kind, counts[kind], wide, base)
    # Melds: a rank held as two melds (cutthroat) shows both melds' cards together, as do a kind's
    # several melds (several-melds; the numbered fields tell them apart).
    melds = hand.melds
    slots = layout.meld_slot
    sides = layout.sides
    bases = layout.meld_bases
    regrouped = hand.regrouped  # (only a regrouping keeps two melds of a rank)
    summed = regrouped or layout.meld_numbers > 0
    for rel in range(len(sides)):
        block = bases[rel]
        for meld in melds[sides[rel]].values():
            i = block + slots[meld.rank]
            naturals = meld.naturals
            twos = meld.twos
            jokers = meld.jokers
            if summed:
                naturals += _held(row, i, wide, base)
                twos += _held(row, i + 1, wide, base)
                jokers += _held(row, i + 2, wide, base)
            _put(row, i, naturals, wide, base)
            _put(row, i + 1, twos, wide, base)
            _put(row, i + 2, jokers, wide, base)
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
            _put(row, at + 2 * rel, red, wide, base)
            _put(row, at + 2 * rel + 1, len(laid) - red, wide, base)
    set_aside = hand.set_aside
    at = layout.set_aside_at
    for rel in range(len(sides)):
        _put(row, at + rel, len(set_aside[sides[rel]]), wide, base)
    # The pile as observe() shows it: a pile taken for an opening stays face up until picked up.
    tally = [0] * kind_count  # (scratch counts by kind, left zero by each use)
    pending = hand.pending_pile
    pile = hand.pile
    pile_size = len(pile)
    if pending is not None:
        pile_size += len(pending)
        _put_kinds(row, layout.pile_kinds_at, pending + pile, kinds, tally, wide, base)
    else:
        _put_kinds(row, layout.pile_kinds_at, pile, kinds, tally, wide, base)
    at = layout.pile_top_at
    if pending:
        row[at + kinds[pending[-1]]] = 1  # (above what a take left behind, `canasta.PileRules.take_count`)
    elif pile:
        row[at + kinds[pile[-1]]] = 1
    else:
        row[at + kind_count] = 1
    _put(row, layout.pile_size_at, pile_size, wide, base)
    # The seat's meld-owning unit this hand: its side, unless a partnership rule
    # regrouped the players (house rule cutthroat).
    seating = hand.seating
    mine = seating[seat]
    if hand.pile_frozen_for(mine):
        row[layout.pile_frozen_at] = 1
    if pending is not None:
        row[layout.pile_pending_at] = 1
    _put(row, layout.stock_size_at, len(hand.stock), wide, base)
    sizes = hand.sizes
    at = layout.hand_sizes_at
    partners_at = layout.partners_at
    partners = layout.partners
    for rel in range(len(seats)):
        s = seats[rel]
        _put(row, at + rel, sizes[s], wide, base)
        if (seating[s] == mine) if regrouped else partners[rel] == 1:
            row[partners_at + rel] = 1
    scores = hand.scores
    opened = hand.opened
    asks = hand.asks_used
    for rel in range(len(sides)):
        side = sides[rel]
        _put(row, layout.scores_at + rel, scores[side], wide, base)
        _put(row, layout.minimum_needed_at + rel, hand.minimum_needed(side), wide, base)
        if opened[side]:
            row[layout.opened_at + rel] = 1
        _put(row, layout.asks_used_at + rel, asks[side], wide, base)
    phase = hand.phase
    phases = layout.phases
    for i in range(len(phases)):
        if phases[i] is phase:
            row[layout.phase_at + i] = 1
    row[layout.acting_at + (hand.seat - seat) % layout.players] = 1
    answer = hand.answer
    row[layout.answer_at + (0 if answer is None else 1 if answer else 2)] = 1
    _put(row, layout.turn_at, hand.turn, wide, base)
    # The information state: per seat, the kinds of the cards known to be in its hand.
    known = hand.known
    at = layout.known_at
    for rel in range(len(seats)):
        cards = known[seats[rel]]
        if cards:
            _put_kinds(row, at + rel * kind_count, cards, kinds, tally, wide, base)
    if layout.packets:
        _write_packets(hand, layout, row, wide, base)
    if layout.meld_numbers:
        _write_numbered(hand, layout, row, wide, base)


def _write_numbered(hand: TableState, layout: SeatLayout, row: bytearray, wide: list[int], base: int) -> None:
    """Each side's open melds and books by kind and number: naturals, 2s, jokers (several-melds, wilds-onto-books).

    A side's open melds of a kind are kept under ``kind + SECOND_MELD × number`` (numbered in the
    order made); its books of a kind are numbered in the order made. The layout's numbers are the
    most the rules allow (`canasta.rl.actions.most_open_melds`, `canasta.rl.actions.most_books`):
    a number past them (no position the rules reach) is not written.
    """
    sides = layout.sides
    slots = layout.meld_slot
    kinds = layout.kind_blocks
    numbers = layout.meld_numbers
    book_numbers = layout.book_numbers
    melds = hand.melds
    books = hand.books
    for rel in range(len(sides)):
        side = sides[rel]
        tally = [0] * KIND_COUNT  # (the side's books of each kind so far)
        at = layout.meld_numbers_at + rel * kinds * numbers * 3
        for key, meld in melds[side].items():
            slot = slots[meld.rank]
            number = key // SECOND_MELD
            if slot < 0 or number >= numbers:
                continue
            _put_meld(row, at + (slot // 3 * numbers + number) * 3, meld, wide, base)
        at = layout.book_numbers_at + rel * kinds * book_numbers * 3
        for book in books[side]:
            rank = book.rank
            slot = slots[rank]
            number = tally[rank]
            tally[rank] = number + 1
            if slot < 0 or number >= book_numbers:
                continue
            _put_meld(row, at + (slot // 3 * book_numbers + number) * 3, book, wide, base)


def _put_meld(row: bytearray, at: int, meld: MeldState, wide: list[int], base: int) -> None:
    """A meld's naturals, 2s and jokers at ``at``, ``at + 1`` and ``at + 2``."""
    _put(row, at, meld.naturals, wide, base)
    _put(row, at + 1, meld.twos, wide, base)
    _put(row, at + 2, meld.jokers, wide, base)


def _write_packets(hand: TableState, layout: SeatLayout, row: bytearray, wide: list[int], base: int) -> None:
    """Per seat, the sizes of its packets still face down, and 1 if it holds its last packet (never their cards).

    Where the layout has ``packet_earned`` (a packet earned by a canasta), also 1 for
    each seat that has completed its first canasta of the hand with a packet still down.
    """
    seats = layout.seats
    count = layout.packets
    at = layout.packets_down_at
    last_at = layout.last_packet_at
    earned_at = layout.packet_earned_at
    first_canasta = hand.first_canasta
    packets = hand.packets
    for rel in range(len(seats)):
        down = packets[seats[rel]]
        if not down:
            row[last_at + rel] = 1
            continue
        if earned_at >= 0 and first_canasta[seats[rel]] >= 0:
            row[earned_at + rel] = 1  # (public: the table saw the book made)
        first = at + rel * count + count - len(down)  # (picked up from the front: the last ones are down)
        for i in range(len(down)):
            _put(row, first + i, len(down[i]), wide, base)


def _held(row: bytearray, offset: int, wide: list[int], base: int) -> int:
    """The value written at ``offset`` so far, taken back (from the row, or from ``wide``)."""
    held = row[offset]
    if held:
        row[offset] = 0
        return held
    index = base + offset
    for k in range(0, len(wide), 2):
        if wide[k] == index:
            value = wide[k + 1]
            del wide[k : k + 2]
            return value
    return 0


def write_rows(
    hand: TableState,
    layout: SeatLayout,
    rows: bytearray,
    index: int,
    scratch: bytearray,
    wide: list[int],
) -> None:
    """Write ``layout.seat``'s view of ``hand`` as row ``index`` of a batch of rows.

    The view is written in ``scratch``, cleared first (its indices are small:
    up to 256 they are Python's cached integers, where the batch's would be
    new objects), then copied to its place in ``rows``: each row of ``rows``
    is overwritten whole.

    Args:
        hand: The hand.
        layout: The observer's layout.
        rows: The batch, ``layout.size`` bytes per row.
        index: The row.
        scratch: ``layout.size`` bytes to write the view in (any content).
        wide: Receives the values that do not fit a byte (see `write_view`).
    """
    size = layout.size
    base = index * size
    scratch[:] = layout.zeros
    write_view(hand, layout, scratch, wide, base)
    rows[base : base + size] = scratch


def legal_ids_of(
    hand: HandState,
    index: int,
    ids_by_object: dict[int, int],
    legals: list[tuple[Action, ...]],
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
    legals: list[tuple[Action, ...]],
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
    rows: bytearray,
    scratch: bytearray,
    wide: list[int],
    seats: list[int],
    ids_by_object: dict[int, int],
    legals: list[tuple[Action, ...]],
    flat: list[int],
    starts: list[int],
    size: int,
) -> int:
    """Step a batch of games from ``start`` on: apply each one's action, then observe it as row ``i``.

    Each game is observed right after its move, while its state is still in
    the CPU's caches: its acting seat goes to ``seats[i]``, that seat's view to
    row ``i`` of ``rows`` (`write_rows`) and its legal ids to ``flat``
    (`legal_ids_of`). The loop stops at the first game that needs the caller:
    one whose action ended a hand (its count of finished hands is no longer
    ``finished[i]``), or one that lists an action object not in
    ``ids_by_object``. That game's action is applied and nothing of its row is
    written; the caller deals with it, observes it, and calls again from ``i + 1``.

    Args:
        games: The games (`canasta.Game`).
        chosen: The action to apply in each (a legal action object of its hand).
        finished: Each game's ``len(game.results)`` before its action.
        start: The first game to step (the rows before it are written).
        layouts: The layout of each observer seat (`canasta.rl.ObservationEncoder.layouts`).
        rows: The rows of the batch (each overwritten whole).
        scratch: One row's worth of bytes to write each view in (see `write_rows`).
        wide: Receives the values that do not fit a byte (see `write_view`).
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
        write_rows(hand, layouts[seat], rows, i, scratch, wide)
    return -1
