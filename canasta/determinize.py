"""Determinization: deal the cards a seat cannot see, consistently with what it knows.

A search bot that plays from one seat's information (ISMCTS, for example)
needs full states to look ahead in. `sample_state` makes one from the seat's
`canasta.Observation`: everything the seat sees or remembers stays where it
is (its own hand, the pile, the melds, the laid-out threes, the cards known to
be in other hands, every hand's size and the stock's), and the remaining
unseen cards are dealt uniformly at random among the other hands and the
stock, under the two constraints the rules themselves impose:

- a hand never holds a bonus three (red threes, and black threes where they
  are bonus cards: the rule book lays them out at once), so unseen bonus
  threes are in the stock;
- when another seat is in the middle of its turn, the sampled hand must let it
  complete that turn (what "legal" means: the real hand can), so a sample
  that leaves it no legal action is drawn again.
"""

from __future__ import annotations

import random

from canasta.cards import BLACK_THREE, RED_THREE
from canasta.errors import CanastaError
from canasta.hand import HandState
from canasta.observation import Observation
from canasta.table import OVER_PHASE, TableState

__all__ = ["MAX_SAMPLE_TRIES", "SamplingError", "sample_state", "unseen_cards"]

#: How many times `sample_state` deals again before it gives up on a position.
MAX_SAMPLE_TRIES = 1000


class SamplingError(CanastaError, ValueError):
    """No full state could be dealt from an observation (not one `canasta.observe` built, or inconsistent)."""


def _public_of(observation: Observation) -> TableState:
    public = observation._public
    if not isinstance(observation, Observation) or public is None:
        raise SamplingError(
            "sample_state needs an observation built by the engine "
            "(HandState.observation or Game.observation), which keeps the public table"
        )
    return public


def unseen_cards(observation: Observation) -> list[int]:
    """The ids of the cards the observing seat cannot see or place, in id order.

    They are in the stock or in other hands (beyond the cards known to be there).

    Args:
        observation: A seat's observation (from `canasta.HandState.observation`).

    Returns:
        Card ids (indices into ``state.deck.cards``).

    Raises:
        SamplingError: If the observation was not built by the engine.
    """
    public = _public_of(observation)
    seen = bytearray(len(public.kinds))
    for seat_hand in public.hands:
        for held in seat_hand:
            for card in held:
                seen[card] = 1
    for group in (public.pile, public.pending_pile or (), *public.threes, *public.set_aside):
        for card in group:
            seen[card] = 1
    for side in public.melds:
        for meld in side.values():
            for card in meld.cards:
                seen[card] = 1
    return [card for card, known in enumerate(seen) if not known]


def sample_state(observation: Observation, rng: random.Random) -> HandState:
    """A full hand consistent with everything the observing seat knows.

    Its own hand, the face-up cards, the known cards of other hands, every
    hand's size and the stock's size are as observed; the unseen cards are
    dealt uniformly at random (the stock in a random order), under the
    constraints the rules impose (see the module docs). The seat's observation
    of the result equals ``observation``.

    Args:
        observation: A seat's observation (`canasta.HandState.observation`
            or `canasta.Game.observation`).
        rng: The source of randomness (same generator state, same sample).

    Returns:
        A new `canasta.HandState`, independent of the observed one.

    Raises:
        SamplingError: If the observation was not built by the engine, or no
            consistent deal was found in `MAX_SAMPLE_TRIES` tries.
    """
    public = _public_of(observation)
    if not isinstance(public, HandState):
        raise SamplingError("the observation was built from a bare table, not a canasta.HandState")
    seat = observation.seat
    kinds = public.kinds
    unseen = unseen_cards(observation)
    bonus_black = public.rules.threes.black_threes_are_bonus
    threes = [c for c in unseen if kinds[c] == RED_THREE or (bonus_black and kinds[c] == BLACK_THREE)]
    others = [c for c in unseen if not (kinds[c] == RED_THREE or (bonus_black and kinds[c] == BLACK_THREE))]
    players = public.rules.players
    missing = [0 if s == seat else public.sizes[s] - sum(public.counts[s]) for s in range(players)]
    stock_size = observation.stock_size
    if sum(missing) + stock_size != len(unseen) or min(missing) < 0:
        raise SamplingError(
            f"the observation does not add up: {len(unseen)} unseen cards for {sum(missing)} "
            f"hidden hand places and a stock of {stock_size}"
        )
    mid_turn = public.seat != seat and public.phase is not OVER_PHASE
    for _ in range(MAX_SAMPLE_TRIES):
        state = _deal(public, seat, missing, stock_size, threes, others, rng)
        if not mid_turn or state.legal_actions():
            return state
    raise SamplingError(f"no deal of the unseen cards lets seat {public.seat} complete its turn")


def _deal(
    public: HandState,
    seat: int,
    missing: list[int],
    stock_size: int,
    threes: list[int],
    others: list[int],
    rng: random.Random,
) -> HandState:
    """One uniform deal of the unseen cards: bonus threes only into the stock."""
    pool = others[:]
    rng.shuffle(pool)
    # Bonus threes go to the stock; if (in a hand-built position) there are more
    # than stock places, the rest go wherever the other cards go.
    into_stock = min(len(threes), stock_size)
    spill = threes[into_stock:]
    if spill:
        pool.extend(spill)
        rng.shuffle(pool)
    stock = threes[:into_stock] + pool[: stock_size - into_stock]
    rng.shuffle(stock)
    rest = pool[stock_size - into_stock :]
    state = public.copy()
    state.stock = stock
    kinds = state.kinds
    start = 0
    for other, count in enumerate(missing):
        if other == seat or not count:
            continue
        held = state.hands[other]
        counts = state.counts[other]
        for card in rest[start : start + count]:
            kind = kinds[card]
            held[kind].insert(0, card)  # under the known cards, as dealt cards are
            counts[kind] += 1
        start += count
    return state
