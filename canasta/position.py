"""Build a hand from an explicit position, validated like any input.

Tests, puzzles and analysis can start anywhere: give the hands, the pile, the
melds, the laid-out threes, the scores and whose turn it is; the rest of the
deck goes to the stock (in the order given, or shuffled from a seed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.cards import Card, Deck, Kind
from canasta.errors import InvalidPositionError
from canasta.hand import HandState, MeldState, Phase
from canasta.rules import Rules
from canasta.transitions import begin_turn

__all__ = ["build_position"]

CardLike = str | Card


def build_position(
    rules: Rules,
    *,
    hands: Sequence[Sequence[CardLike]],
    pile: Sequence[CardLike] = (),
    melds: Sequence[Sequence[Sequence[CardLike]]] | None = None,
    threes: Sequence[Sequence[CardLike]] | None = None,
    set_aside: Sequence[Sequence[CardLike]] | None = None,
    stock: Sequence[CardLike] | None = None,
    stock_seed: int = 0,
    scores: Sequence[int] | None = None,
    dealer: int | None = None,
    seat: int = 0,
    phase: str = "draw",
    turn: int | None = None,
    opened: Sequence[bool] | None = None,
) -> HandState:
    """Build a validated hand from an explicit position.

    Args:
        rules: The compiled rules.
        hands: Each seat's cards, as notation (``"QH"``, ``"*"``) or `Card`.
        pile: The discard pile, bottom first.
        melds: For each side, its melds, each a list of cards. A meld's rank
            is its natural rank; all-wild cards make a wild meld; black threes
            a black-three meld.
        threes: Each seat's laid-out bonus threes.
        set_aside: Each side's set-aside black threes.
        stock: The stock, **top card first**. ``None``: every card not placed
            elsewhere, shuffled with ``stock_seed``.
        stock_seed: Seed for that shuffle.
        scores: Each side's cumulative score before the hand (default zeros).
        dealer: The dealer (default: the seat before ``seat``).
        seat: Whose turn it is.
        phase: ``"draw"`` (before drawing) or ``"meld"`` (after drawing).
        turn: Turns already played (default: a full round, so first-round
            restrictions are over).
        opened: Whether each side has made its initial meld (default: it has
            melds on the table).

    Returns:
        The hand, ready for ``seat`` to act.

    Raises:
        InvalidPositionError: If the position is malformed or impossible (a
            card used twice or missing, an invalid meld, a three in a hand, a
            bad seat or phase).
    """
    n = rules.players
    sides = rules.side_count
    if len(hands) != n:
        raise InvalidPositionError(f"{len(hands)} hands given for {n} players")
    if not 0 <= seat < n:
        raise InvalidPositionError(f"seat {seat} does not exist (0 to {n - 1})")
    if phase not in ("draw", "meld"):
        raise InvalidPositionError(f"phase must be 'draw' or 'meld', got {phase!r}")
    melds = melds if melds is not None else [[] for _ in range(sides)]
    threes = threes if threes is not None else [[] for _ in range(n)]
    set_aside = set_aside if set_aside is not None else [[] for _ in range(sides)]
    scores = list(scores) if scores is not None else [0] * sides
    for name, value, size in (("melds", melds, sides), ("threes", threes, n), ("set_aside", set_aside, sides)):
        if len(value) != size:
            raise InvalidPositionError(f"{name}: {len(value)} entries given, {size} expected")
    if len(scores) != sides:
        raise InvalidPositionError(f"scores: {len(scores)} given for {sides} sides")
    deck = Deck(rules.deck)
    taken: set[int] = set()

    def ids(where: str, codes: Sequence[CardLike]) -> list[int]:
        try:
            return deck.ids_for(codes, taken)
        except ValueError as exc:
            raise InvalidPositionError(f"{where}: {exc}") from None

    state = HandState(rules, deck, dealer if dealer is not None else (seat - 1) % n, scores)
    state.seat = seat
    kinds = deck.kinds
    bonus = (2, 3) if rules.threes.black_threes_are_bonus else (2,)
    for s, hand in enumerate(hands):
        for card in ids(f"hand {s}", hand):
            if kinds[card] in bonus:
                raise InvalidPositionError(f"hand {s}: bonus threes are laid out, not held ({deck.cards[card]})")
            state._to_hand(s, card)
    for s, laid in enumerate(threes):
        for card in ids(f"threes {s}", laid):
            if kinds[card] not in bonus:
                raise InvalidPositionError(f"threes {s}: {deck.cards[card]} is not a bonus three")
            state.threes[s].append(card)
    for side, aside in enumerate(set_aside):
        for card in ids(f"set_aside {side}", aside):
            if kinds[card] != Kind.BLACK_THREE:
                raise InvalidPositionError(f"set_aside {side}: {deck.cards[card]} is not a black three")
            state.set_aside[side].append(card)
    for side, side_melds in enumerate(melds):
        for i, meld_cards in enumerate(side_melds):
            cards = ids(f"meld {i} of side {side}", meld_cards)
            state_meld = _make_meld(rules, deck, cards, f"meld {i} of side {side}")
            if state_meld.rank in state.melds[side]:
                raise InvalidPositionError(f"side {side} has two melds of rank {Kind(state_meld.rank).name}")
            state.melds[side][state_meld.rank] = state_meld
    for card in ids("pile", pile):
        state._push_pile(card)
    if stock is None:
        rest = [c for c in range(len(deck)) if c not in taken]
        random.Random(stock_seed).shuffle(rest)
        state.stock = rest
    else:
        order = ids("stock", stock)
        state.stock = order[::-1]  # the engine draws from the end
        missing = [deck.cards[c].code for c in range(len(deck)) if c not in taken]
        if missing:
            raise InvalidPositionError(f"cards missing from the position: {' '.join(missing)}")
    state.opened = list(opened) if opened is not None else [bool(m) for m in state.melds]
    if len(state.opened) != sides:
        raise InvalidPositionError(f"opened: {len(state.opened)} given for {sides} sides")
    for side in range(sides):
        if state.melds[side] and not state.opened[side]:
            raise InvalidPositionError(f"side {side} has melds on the table, so it has opened")
    for s in range(n):
        state.melded_before[s] = bool(state.melds[rules.sides[s]])
    state.turn = n if turn is None else turn
    state._reset_turn()
    state.phase = Phase.DRAW
    if phase == "meld":
        state.phase = Phase.MELD
        state.drew_from_stock = True
        if state.sizes[seat] == 0:
            raise InvalidPositionError("the acting player has no cards")
    else:
        if any(size == 0 for size in state.sizes):
            raise InvalidPositionError("a player with no cards would have gone out")
        begin_turn(state)
    state._legal = None
    return state


def _make_meld(rules: Rules, deck: Deck, cards: list[int], where: str) -> MeldState:
    kinds = [deck.kinds[c] for c in cards]
    twos = kinds.count(int(Kind.TWO))
    jokers = kinds.count(int(Kind.JOKER))
    others = {k for k in kinds if k > 1}
    if not others:
        rank = int(Kind.JOKER)
    elif len(others) == 1:
        rank = others.pop()
    else:
        names = sorted(Kind(k).name for k in others)
        raise InvalidPositionError(f"{where}: mixes ranks {names}")
    naturals = len(cards) - twos - jokers
    if not rules.melds.is_valid(rank, naturals, twos, jokers) or rank == int(Kind.RED_THREE):
        raise InvalidPositionError(
            f"{where}: {' '.join(deck.cards[c].code for c in cards)} is not a legal meld under these rules"
        )
    return MeldState(rank, cards, naturals, twos, jokers)
