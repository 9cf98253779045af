"""The simple reference encodings of `canasta.rl` (the straightforward loops the fast code replaced).

`reference_observation` is the observation encoder of canasta 0.1 before issue 14
(a Python loop over every card and field), `reference_mask` the legal mask built
from ``to_id`` of each legal action. The tests require the fast encoders to
equal them on random states of every variant. `played` is the random play
the RL tests share.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from canasta import Game, HandState
from canasta.cards import KIND_COUNT, SECOND_MELD, Kind
from canasta.rl import ActionSpace, ObservationEncoder
from canasta.rl.observations import MELD_RANKS, PHASES

_R3 = int(Kind.RED_THREE)
_MELD_SLOT = {int(rank): i for i, rank in enumerate(MELD_RANKS)}
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}


def reference_observation(encoder: ObservationEncoder, hand: HandState, seat: int) -> npt.NDArray[np.float32]:
    """What `seat` may see, field by field and card by card (slow, obviously right)."""
    seats = encoder.seat_order(seat)
    sides = encoder.side_order(seat)
    kinds = hand.kinds
    fields = encoder.fields
    out = [0.0] * encoder.size
    out[0:KIND_COUNT] = hand.counts[seat]
    base = fields["melds"].start
    for rel, side in enumerate(sides):
        side_base = base + rel * len(MELD_RANKS) * 3
        for meld in hand.melds[side].values():
            i = side_base + _MELD_SLOT[meld.rank] * 3
            out[i] += meld.naturals
            out[i + 1] += meld.twos
            out[i + 2] += meld.jokers
    i = fields["threes"].start
    for s in seats:
        red = sum(1 for c in hand.threes[s] if kinds[c] == _R3)
        out[i] = red
        out[i + 1] = len(hand.threes[s]) - red
        i += 2
    i = fields["set_aside"].start
    out[i : i + len(sides)] = [len(hand.set_aside[side]) for side in sides]
    pile = hand.pile if hand.pending_pile is None else hand.pile + hand.pending_pile  # (a take's cards on top)
    out[fields["pile_top"].start + (kinds[pile[-1]] if pile else KIND_COUNT)] = 1.0
    i = fields["pile_kinds"].start
    for c in pile:
        out[i + kinds[c]] += 1.0
    out[fields["pile_size"].start] = len(pile)
    seating = hand.seating
    out[fields["pile_frozen"].start] = float(hand.pile_frozen_for(seating[seat]))
    out[fields["pile_pending"].start] = float(hand.pending_pile is not None)
    out[fields["stock_size"].start] = len(hand.stock)
    out[fields["hand_sizes"]] = [hand.sizes[s] for s in seats]
    out[fields["partners"]] = [float(seating[s] == seating[seat]) for s in seats]
    out[fields["scores"]] = [hand.scores[side] for side in sides]
    out[fields["minimum_needed"]] = [hand.minimum_needed(side) for side in sides]
    out[fields["opened"]] = [float(hand.opened[side]) for side in sides]
    out[fields["asks_used"]] = [hand.asks_used[side] for side in sides]
    out[fields["phase"].start + _PHASE_INDEX[hand.phase]] = 1.0
    out[fields["acting"].start + (hand.seat - seat) % encoder.players] = 1.0
    answer = hand.answer
    out[fields["answer"].start + (0 if answer is None else 1 if answer else 2)] = 1.0
    out[fields["turn"].start] = hand.turn
    i = fields["known"].start
    for s in seats:
        for c in hand.known[s]:
            out[i + kinds[c]] += 1.0
        i += KIND_COUNT
    if "packets_down" in fields:
        # Packets after the hand: each seat's packets in pick-up order, a size while face down, 0 once
        # picked up (the first ones go first); and whether the seat holds its last packet.
        count = len(hand.rules.packets.sizes)
        for rel, s in enumerate(seats):
            down = hand.packets[s]
            for j, packet in enumerate(down):
                out[fields["packets_down"].start + rel * count + (count - len(down)) + j] = len(packet)
            out[fields["last_packet"].start + rel] = float(not down)
            if "packet_earned" in fields:  # foot-after-first-book: a canasta of its own, a packet still down
                out[fields["packet_earned"].start + rel] = float(bool(down) and hand.first_canasta[s] >= 0)
    if "meld_numbers" in fields:
        # several-melds, wilds-onto-books: per side, per kind, per number, each open meld and each book.
        numbers = (fields["meld_numbers"].stop - fields["meld_numbers"].start) // (len(sides) * len(MELD_RANKS) * 3)
        books = (fields["book_numbers"].stop - fields["book_numbers"].start) // (len(sides) * len(MELD_RANKS) * 3)
        for rel, side in enumerate(sides):
            for key, meld in hand.melds[side].items():
                kind = rel * len(MELD_RANKS) + _MELD_SLOT[meld.rank]
                i = fields["meld_numbers"].start + (kind * numbers + key // SECOND_MELD) * 3
                out[i : i + 3] = [meld.naturals, meld.twos, meld.jokers]
            made = [0] * KIND_COUNT
            for book in hand.books[side]:
                kind = rel * len(MELD_RANKS) + _MELD_SLOT[book.rank]
                i = fields["book_numbers"].start + (kind * books + made[book.rank]) * 3
                made[book.rank] += 1
                out[i : i + 3] = [book.naturals, book.twos, book.jokers]
    return np.array(out, dtype=np.float32)


def reference_mask(space: ActionSpace, hand: HandState) -> npt.NDArray[np.bool_]:
    """The legal mask from the value of each legal action (no identity memo, no cache)."""
    mask = np.zeros(space.size, dtype=np.bool_)
    for action in hand.legal_actions():
        mask[space.actions.index(action)] = True
    return mask


def played(game: Game, steps: int, seed: int) -> Game:
    """The game after up to ``steps`` uniformly random legal actions (seeded; stops when it is over)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game
