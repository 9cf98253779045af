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
  threes are in the stock; except where the rules keep a three in hand
  (`canasta.ThreeRules.keep_one`, see `canasta.keeping`): a hand whose holder
  may still hold a kept three (his side has not opened, or his partner opened
  and he has not begun a turn since, or the stock is empty) holds at most one,
  placed uniformly among the deals that respect this (`kept_three_holders`);
- when another seat is in the middle of its turn, the sampled hand must let it
  complete that turn (what "legal" means: the real hand can), so a sample
  that leaves it no legal action is drawn again;
- after the pile was shuffled into a new stock (`canasta.ExhaustionRules.reshuffle_pile_at`),
  the stock holds only cards of that reshuffle (``HandState.reshuffled``, public:
  they lay face up in the pile), in a random order; the unseen ones it no longer
  holds were drawn into other hands since (never into a packet still down, dealt
  before), and the other unseen cards fill the packets and the rest of the
  hands. (Which seat drew them is not tracked: they go to any other hand.) The
  sample gets a fresh source of reshuffles of its own (``shuffle_seed``), so a
  search never plays the real hand's next reshuffle.
"""

from __future__ import annotations

import random

from canasta.actions import AnswerGoOut, Meld, TakePile
from canasta.cards import BLACK_THREE, RED_THREE
from canasta.errors import CanastaError
from canasta.hand import HandState
from canasta.observation import Observation
from canasta.table import ANSWER_PHASE, OVER_PHASE, TableState

__all__ = ["MAX_SAMPLE_TRIES", "SamplingError", "kept_three_holders", "sample_state", "unseen_cards"]

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

    They are in the stock, in packets still down (`canasta.PacketRules`), or in other hands
    (beyond the cards known to be there).

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
    for side in range(len(public.melds)):
        for meld in public.all_melds(side):  # (its books too)
            for card in meld.cards:
                seen[card] = 1
    return [card for card, known in enumerate(seen) if not known]


def kept_three_holders(public: TableState, stock_size: int) -> frozenset[int]:
    """The seats that may hold a kept three now, from public facts alone ("Keeping a three").

    A seat may while its side has not opened; after its partner opened, until
    it begins its next turn (the three is laid out then); and, with the stock
    empty, for good (a three with no replacement stays in the hand). Empty
    where the rules keep no three.

    Args:
        public: The hand (only its public facts are read: the seating, the
            openings, the action log).
        stock_size: Cards left in the stock (a public table holds none).

    Returns:
        The seats.
    """
    if not public.keeps_threes:
        return frozenset()
    if not stock_size:
        return frozenset(range(public.rules.players))
    owner = public.asker if public.phase is ANSWER_PHASE and public.asker is not None else public.seat
    holders = set()
    for seat in range(public.rules.players):
        side = public.seating[seat]
        if not public.opened[side]:
            holders.add(seat)
            continue
        # The side's opening turn is the turn of its first meld (melds are never taken back).
        first = next(
            (
                i
                for i, (who, action) in enumerate(public.log)
                if public.seating[who] == side and isinstance(action, (Meld, TakePile))
            ),
            None,
        )
        if first is None:
            holders.add(seat)  # a position built opened, with no history: it may
            continue
        opener = public.log[first][0]
        if opener == seat or owner == seat:
            continue  # laid out at the opening, or at the start of this turn
        if not any(
            who == seat and not isinstance(action, AnswerGoOut) for who, action in public.log[first + 1 :]
        ):
            holders.add(seat)
    return frozenset(holders)


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
    bonus_red = public.rules.threes.red_threes_are_bonus  # (False: red-threes-dead, ordinary cards)
    threes = [c for c in unseen if (bonus_red and kinds[c] == RED_THREE) or (bonus_black and kinds[c] == BLACK_THREE)]
    others = [
        c for c in unseen if not ((bonus_red and kinds[c] == RED_THREE) or (bonus_black and kinds[c] == BLACK_THREE))
    ]
    players = public.rules.players
    missing = [0 if s == seat else public.sizes[s] - sum(public.counts[s]) for s in range(players)]
    # Packets still down (`canasta.PacketRules`, Hand and Foot's foot) are unseen by everyone, their owner
    # included; like the stock they may hold bonus threes (laid out only when picked up). The stock and
    # the packets are dealt as one block, cut afterwards (`_dealt`).
    packet_sizes = [tuple(sizes) for sizes in observation.packets_down] or [() for _ in range(public.rules.players)]
    if len(packet_sizes) != public.rules.players or [len(p) for p in packet_sizes] != [
        len(p) for p in public.packets
    ]:
        raise SamplingError("the observation's packets do not match its table")
    stock_size = observation.stock_size + sum(sum(sizes) for sizes in packet_sizes)
    if sum(missing) + stock_size != len(unseen) or min(missing) < 0:
        raise SamplingError(
            f"the observation does not add up: {len(unseen)} unseen cards for {sum(missing)} "
            f"hidden hand places and a stock of {observation.stock_size} (with the packets down, {stock_size})"
        )
    mid_turn = public.seat != seat and public.phase is not OVER_PHASE
    holders = [s for s in kept_three_holders(public, observation.stock_size) if s != seat and missing[s]]
    reshuffled = public.reshuffled  # (with the stock empty again too: its cards were drawn, none is in a packet)
    reshuffles = bool(public.rules.exhaustion.reshuffle_pile_at)
    for _ in range(MAX_SAMPLE_TRIES):
        if reshuffled:
            state = _deal_reshuffled(public, seat, missing, observation.stock_size, threes, others, rng)
        elif holders and threes:
            state = _deal_keeping(public, seat, missing, stock_size, threes, others, holders, rng)
        else:
            state = _deal(public, seat, missing, stock_size, threes, others, rng)
        if packet_sizes:
            _cut_packets(state, observation.stock_size, packet_sizes)
        if reshuffles:
            state.shuffle_seed = rng.getrandbits(64)  # (the real one is secret: `public_table` left it out)
        if not mid_turn or state.legal_actions():
            return state
    raise SamplingError(f"no deal of the unseen cards lets seat {public.seat} complete its turn")


def _cut_packets(state: HandState, stock_size: int, packet_sizes: list[tuple[int, ...]]) -> None:
    """Cut the packets still down off the dealt block (the stock's cards, shuffled, then the packets' cards)."""
    block = state.stock
    state.stock = block[:stock_size]
    at = stock_size
    for seat, sizes in enumerate(packet_sizes):
        packets = []
        for size in sizes:
            packets.append(block[at : at + size])
            at += size
        state.packets[seat] = packets


#: How many placements of the unseen threes `_deal_keeping` tries before it deals them as `_deal` does.
_PLACEMENT_TRIES = 1000


def _deal_keeping(
    public: HandState,
    seat: int,
    missing: list[int],
    stock_size: int,
    threes: list[int],
    others: list[int],
    holders: list[int],
    rng: random.Random,
) -> HandState:
    """One uniform deal where some hands may hold one kept three each (rejection sampling of the threes' places)."""
    owners: list[int] = [-1] * stock_size  # each place's owner: -1 the stock, else a seat's hidden card
    for other, count in enumerate(missing):
        if other != seat:
            owners.extend([other] * count)
    allowed = set(holders)
    for _ in range(_PLACEMENT_TRIES):
        places = rng.sample(range(len(owners)), len(threes))
        seats = [owners[p] for p in places if owners[p] >= 0]
        if all(s in allowed for s in seats) and len(set(seats)) == len(seats):
            break
    else:
        return _deal(public, seat, missing, stock_size, threes, others, rng)
    cards: list[int] = [-1] * len(owners)
    for place, three in zip(places, threes, strict=True):
        cards[place] = three
    pool = others[:]
    rng.shuffle(pool)
    free = iter(pool)
    cards = [card if card >= 0 else next(free) for card in cards]
    return _dealt(public, seat, missing, cards[:stock_size], cards[stock_size:])


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
    return _dealt(public, seat, missing, stock, pool[stock_size - into_stock :])


def _deal_reshuffled(
    public: HandState,
    seat: int,
    missing: list[int],
    stock_size: int,
    threes: list[int],
    others: list[int],
    rng: random.Random,
) -> HandState:
    """One deal after a reshuffle: the stock from the reshuffled cards unseen, packets from the other unseen cards.

    ``threes`` and ``others`` are the unseen bonus threes and other cards; the result's stock is
    followed by the packets' cards (cut by `_cut_packets`).
    """
    pool = set(public.reshuffled)
    pile_threes = [c for c in threes if c in pool]  # (a bonus three drawn is laid out at once: still in the stock)
    pile_others = [c for c in others if c in pool]
    if len(pile_threes) + len(pile_others) < stock_size:
        raise SamplingError(
            f"the stock holds {stock_size} cards, but only {len(pile_threes) + len(pile_others)} cards of its "
            "reshuffle are unseen"
        )
    rng.shuffle(pile_others)
    into_stock = min(len(pile_threes), stock_size)
    stock = pile_threes[:into_stock] + pile_others[: stock_size - into_stock]
    rng.shuffle(stock)
    drawn = pile_others[stock_size - into_stock :] + pile_threes[into_stock:]  # drawn since, into other hands
    rest_threes = [c for c in threes if c not in pool]
    rest_others = [c for c in others if c not in pool]
    rng.shuffle(rest_others)
    packet_total = len(threes) + len(others) - stock_size - sum(missing)  # (what the hands and stock leave)
    if packet_total > len(rest_threes) + len(rest_others):
        raise SamplingError("the packets down hold more cards than the unseen cards outside the reshuffle")
    into_packets = min(len(rest_threes), packet_total)
    packet_cards = rest_threes[:into_packets] + rest_others[: packet_total - into_packets]
    rng.shuffle(packet_cards)
    held = drawn + rest_others[packet_total - into_packets :] + rest_threes[into_packets:]
    rng.shuffle(held)
    return _dealt(public, seat, missing, stock + packet_cards, held)


def _dealt(public: HandState, seat: int, missing: list[int], stock: list[int], rest: list[int]) -> HandState:
    """A copy of the public table with this stock, and ``rest`` dealt into the other hands in seat order."""
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
