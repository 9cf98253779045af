"""Build a hand from an explicit position, validated like any input.

Tests, puzzles and analysis can start anywhere: give the hands, the pile, the
melds, the laid-out threes, the scores and whose turn it is; the rest of the
deck goes to the stock (in the order given, or shuffled from a seed).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from canasta.cards import SEQUENCE_MELD, Card, Deck, Kind, Suit, new_meld_key
from canasta.errors import InvalidPositionError
from canasta.hand import HandState, MeldState, Phase
from canasta.integers import exact_int
from canasta.meldtypes import judging
from canasta.rules import Rules
from canasta.suitedlegality import meld_shape
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
    packets: Sequence[Sequence[Sequence[CardLike]]] | None = None,
    deal_number: int = 1,
    first_canasta: Sequence[int] | None = None,
) -> HandState:
    """Build a validated hand from an explicit position.

    Every argument is checked before anything is built: its type (lists of
    cards nested as shown below, integers that are real ``int`` values, not
    ``bool`` or ``float``; numpy integers are accepted as their value), its
    range, and then the position as a whole, which must be one that play can
    reach and continue from.

    Args:
        rules: The compiled rules.
        hands: Each seat's cards, as notation (``"QH"``, ``"*"``) or `Card`.
            Every seat holds at least one card (a player with none has gone
            out, which ends the hand).
        pile: The discard pile, bottom first.
        melds: For each side, its melds, each a list of cards. A meld's rank
            is its natural rank; all-wild cards make a wild meld. Black threes
            are melded only when going out, which ends the hand, so they are
            refused here. Where canastas are books that make room
            (`canasta.MeldRules.book_makes_room`), a meld of canasta size is a
            book: a side may list several of a rank, beside one incomplete meld of it
            (several incomplete ones under `canasta.MeldRules.several_melds`, numbered
            in the order listed: `canasta.Meld.slot`). Under meld types (`canasta.Rules.meld_types`,
            the sequence games) the melds are judged by the types and numbered 0, 1, ... in the
            order listed: cards of one rank and wild cards are a group, wild cards alone a wild
            meld, naturals of several ranks a sequence (one suit, each rank once, no gap).
        threes: Each seat's laid-out bonus threes.
        set_aside: Each side's set-aside black threes.
        stock: The stock, **top card first**. ``None``: every card not placed
            elsewhere, shuffled with ``stock_seed``.
        stock_seed: Seed for that shuffle, and the source of the hand's
            reshuffles where the rules reshuffle the pile into a new stock
            (`canasta.ExhaustionRules.reshuffle_pile_at`; a dealt hand draws
            its source from the deal's seed): the same position and seed
            reshuffle alike.
        scores: Each side's cumulative score before the hand, integers
            (default zeros).
        dealer: The dealer, ``0`` to ``players - 1`` (default: the seat before
            ``seat``).
        seat: Whose turn it is, ``0`` to ``players - 1``.
        phase: ``"draw"`` (before drawing) or ``"meld"`` (after drawing).
        turn: Turns already played, ``0`` or more (default: a full round, so
            first-round restrictions are over).
        opened: Whether each side has made its initial meld, as ``bool``
            values (default: it has melds on the table).
        packets: For each seat, its packets still face down, the next first, each a
            list of cards (`canasta.PacketRules`: Hand and Foot's foot). A seat
            holding its last ``k`` packets holds the rules' last ``k`` sizes. Red
            threes may be in them (laid out when picked up). Default: none down.
            A seat with a packet down may hold no cards (it discarded its hand).
        deal_number: The hand's number in its game, from 1 (a minimum table
            by deal reads it: `canasta.MeldMinimums.by_deal`).
        first_canasta: Where a packet is earned by a canasta
            (`canasta.PacketRules.after_first_canasta`), for each seat the turn
            (as ``turn`` counts, at most ``turn``) in which it completed its first
            canasta of the hand, or -1 for none (the default for every seat). Only
            the acting seat, in the meld phase, may have made it this turn
            (``turn``); a seat that made one has a side with a canasta on the
            table; a seat holding no card with a packet down has made one.

    Returns:
        The hand, ready for ``seat`` to act (or already over, if the stock is
        exhausted and the rules end the hand there).

    Raises:
        InvalidPositionError: If an argument has the wrong type, shape or
            range, or the position is impossible (a card used twice or
            missing, an invalid or black-three meld, a three in a hand (more
            than one where the rules keep one), a seat
            without cards, a side with melds that has not opened, or no legal
            action for the acting seat). The message starts with the argument
            at fault, e.g. ``"hands[2][0]: ..."``.
    """
    if not isinstance(rules, Rules):
        raise InvalidPositionError(f"rules: expected canasta.Rules, got {_show(rules)}")
    rules = rules.as_dealt  # (a hand's meld state, such as closed ranks, follows from the position itself)
    n = rules.players
    sides = rules.side_count
    # Types and shapes first, so that nothing below meets a value of the wrong kind.
    hand_lists = _cards_per("hands", hands, n, "players")
    pile_cards = _cards("pile", pile)
    meld_lists = [[] for _ in range(sides)] if melds is None else _melds(melds, sides)
    three_lists = [[] for _ in range(n)] if threes is None else _cards_per("threes", threes, n, "seats")
    no_aside: list[list[CardLike]] = [[] for _ in range(sides)]
    aside_lists = no_aside if set_aside is None else _cards_per("set_aside", set_aside, sides, "sides")
    stock_cards = None if stock is None else _cards("stock", stock)
    packet_lists: list[list[list[CardLike]]] = [[] for _ in range(n)]
    if packets is not None:
        per_seat = _sized("packets", packets, n, "seats", "lists of packets (one per seat)")
        packet_lists = [
            [
                _cards(f"packets[{s}][{i}]", packet)
                for i, packet in enumerate(_items(f"packets[{s}]", seat_packets, "packets"))
            ]
            for s, seat_packets in enumerate(per_seat)
        ]
        sizes = rules.packets.sizes
        for s, seat_packets in enumerate(packet_lists):
            down = tuple(len(packet) for packet in seat_packets)
            if len(down) > len(sizes) or (down and down != sizes[len(sizes) - len(down) :]):
                raise InvalidPositionError(
                    f"packets[{s}]: packets of {list(down)} cards, but the rules deal packets of {list(sizes)} "
                    "(a seat holds its last packets whole, the next first)"
                )
    seed = _int("stock_seed", stock_seed)
    side_scores = (
        [0] * sides
        if scores is None
        else [_int(f"scores[{i}]", v) for i, v in enumerate(_sized("scores", scores, sides, "sides", "scores"))]
    )
    acting = _int("seat", seat, low=0, high=n - 1)
    dealer_seat = (acting - 1) % n if dealer is None else _int("dealer", dealer, low=0, high=n - 1)
    if not isinstance(phase, str) or phase not in ("draw", "meld"):
        raise InvalidPositionError(f"phase: must be 'draw' or 'meld', got {_show(phase)}")
    turns = n if turn is None else _int("turn", turn, low=0)
    number = _int("deal_number", deal_number, low=1)
    first = [-1] * n
    if first_canasta is not None:
        first = [
            _int(f"first_canasta[{i}]", v, low=-1)
            for i, v in enumerate(_sized("first_canasta", first_canasta, n, "seats", "turn numbers"))
        ]
        for s, made in enumerate(first):
            if made < 0:
                continue
            if not rules.packets.after_first_canasta:
                raise InvalidPositionError(
                    f"first_canasta[{s}]: these rules earn no packet by a canasta "
                    "(PacketRules.after_first_canasta), so no first canasta is kept"
                )
            if made > turns or (made == turns and (s != acting or phase != "meld")):
                raise InvalidPositionError(
                    f"first_canasta[{s}]: seat {s} has not played turn {made} "
                    f"(the position is turn {turns}, seat {acting} in its {phase} phase)"
                )
    side_opened = (
        None
        if opened is None
        else [_bool(f"opened[{i}]", v) for i, v in enumerate(_sized("opened", opened, sides, "sides", "flags"))]
    )

    deck = Deck(rules.deck)
    taken: set[int] = set()

    def ids(where: str, codes: list[CardLike]) -> list[int]:
        result: list[int] = []
        for i, code in enumerate(codes):  # one at a time, so that the message names the card's index
            try:
                result += deck.ids_for([code], taken)
            except ValueError as exc:
                raise InvalidPositionError(f"{where}[{i}]: {exc}") from None
        return result

    state = HandState(rules, deck, dealer_seat, side_scores, deal_number=number)
    state.seat = acting
    state.shuffle_seed = seed  # (the source of any reshuffle of the pile: `canasta.transitions.reshuffle_pile`)
    kinds = deck.kinds
    bonus = ((2,) if rules.threes.red_threes_are_bonus else ()) + ((3,) if rules.threes.black_threes_are_bonus else ())
    for s, hand in enumerate(hand_lists):
        held = 0
        for card in ids(f"hands[{s}]", hand):
            if kinds[card] in bonus:
                held += 1
                if not rules.threes.keep_one:
                    raise InvalidPositionError(f"hands[{s}]: bonus threes are laid out, not held ({deck.cards[card]})")
                if held > 1:
                    raise InvalidPositionError(f"hands[{s}]: a player keeps at most one three in hand")
            state._to_hand(s, card)
    for s, laid in enumerate(three_lists):
        for card in ids(f"threes[{s}]", laid):
            if kinds[card] not in bonus:
                raise InvalidPositionError(f"threes[{s}]: {deck.cards[card]} is not a bonus three")
            state.threes[s].append(card)
    for side, aside in enumerate(aside_lists):
        for card in ids(f"set_aside[{side}]", aside):
            if kinds[card] != Kind.BLACK_THREE:
                raise InvalidPositionError(f"set_aside[{side}]: {deck.cards[card]} is not a black three")
            state.set_aside[side].append(card)
    for side, side_melds in enumerate(meld_lists):
        for i, meld_cards in enumerate(side_melds):
            where = f"melds[{side}][{i}]"
            if rules.meld_types:
                # Rule sets with meld types (the sequence games): melds are numbered in the order listed,
                # as the engine numbers new ones (`canasta.table.TableState.meld_numbers`).
                state.melds[side][state.meld_numbers[side]] = _make_typed_meld(state, ids(where, meld_cards), where)
                state.meld_numbers[side] += 1
                continue
            state_meld = _make_meld(rules, deck, ids(where, meld_cards), where)
            if rules.melds.book_makes_room and state_meld.size >= rules.melds.canasta_size:
                state.books[side].append(state_meld)  # a book: set apart, its rank free for a new meld
                continue
            key = state_meld.rank
            if rules.melds.several_melds:
                key = new_meld_key(state.melds[side], key)  # the side's melds of a kind, numbered in the order given
            elif key in state.melds[side]:
                raise InvalidPositionError(f"{where}: side {side} has two melds of rank {Kind(state_meld.rank).name}")
            state.melds[side][key] = state_meld
    for s, seat_packets in enumerate(packet_lists):
        for i, packet in enumerate(seat_packets):
            state.packets[s].append(ids(f"packets[{s}][{i}]", packet))
    for card in ids("pile", pile_cards):
        state._push_pile(card)
    if stock_cards is None:
        rest = [c for c in range(len(deck)) if c not in taken]
        random.Random(seed).shuffle(rest)
        state.stock = rest
    else:
        order = ids("stock", stock_cards)
        state.stock = order[::-1]  # the engine draws from the end
        missing = [deck.cards[c].code for c in range(len(deck)) if c not in taken]
        if missing:
            raise InvalidPositionError(f"stock: cards missing from the position: {' '.join(missing)}")
    with_melds = [bool(m or b) for m, b in zip(state.melds, state.books, strict=True)]
    state.opened = side_opened if side_opened is not None else with_melds
    for side in range(sides):
        if (state.melds[side] or state.books[side]) and not state.opened[side]:
            raise InvalidPositionError(f"opened[{side}]: side {side} has melds on the table, so it has opened")
    for s in range(n):
        # A player with no cards has gone out (or could not go on): the hand would be over.
        if state.sizes[s] == 0 and not (state.packets[s] and (s != acting or phase == "draw")):
            who = "the acting player" if s == acting else f"seat {s}"
            raise InvalidPositionError(f"hands[{s}]: {who} has no cards; a player with no cards would have gone out")
    size = rules.melds.canasta_size
    for s, made in enumerate(first):
        if made < 0:
            if state.sizes[s] == 0 and state.packets[s] and rules.packets.after_first_canasta:
                raise InvalidPositionError(
                    f"first_canasta[{s}]: seat {s} holds no card with a packet down, which needs a canasta of its own "
                    "first (the packet is earned by it)"
                )
            continue
        side = rules.sides[s]
        if not state.books[side] and not any(m.size >= size for m in state.melds[side].values()):
            raise InvalidPositionError(
                f"first_canasta[{s}]: seat {s} completed a canasta, but its side has none on the table"
            )
    state.first_canasta = first
    for s in range(n):
        state.melded_before[s] = bool(state.melds[rules.sides[s]] or state.books[rules.sides[s]])
    state.turn = turns
    if rules.melds.closed_at_canasta:
        state._close_ranks()
    state._reset_turn()
    state.phase = Phase.DRAW
    if phase == "meld":
        state.phase = Phase.MELD
        state.drew_from_stock = True
        if state.restricts_discards:
            # american-discards, D3: the hand as given is the hand just after the stock draw.
            counts = state.counts[acting]
            state.drew_all_wild = state.sizes[acting] == counts[Kind.TWO] + counts[Kind.JOKER]
        if state.locks_wilds:
            state._turn_meld_state()  # (as at the start of this turn: see `TableState._turn_meld_state`)
    else:
        begin_turn(state)
    state._legal = None
    # The position as a whole: play never reaches a turn that cannot go on (what "legal" means).
    if not state.is_over and not state.legal_actions():
        raise InvalidPositionError(
            f"position: seat {acting} has no legal action in the {phase} phase "
            "(a dead end that play never reaches)"
        )
    return state


def _show(value: object, limit: int = 60) -> str:
    """A short description of an untrusted value for a message (its repr may raise, or be huge)."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__
        text = "<unprintable>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{text} ({type(value).__name__})"


def _items(argument: str, value: object, what: str) -> list[object]:
    """The items of a list-like argument (any sequence but text), read once."""
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise InvalidPositionError(f"{argument}: expected a list of {what}, got {_show(value)}")
    try:
        return list(value)
    except Exception as exc:  # a sequence whose items cannot be read
        raise InvalidPositionError(f"{argument}: cannot be read ({type(exc).__name__}: {exc})") from None


def _sized(argument: str, value: object, size: int, unit: str, what: str) -> list[object]:
    items = _items(argument, value, what)
    if len(items) != size:
        raise InvalidPositionError(f"{argument}: {len(items)} given for {size} {unit}")
    return items


def _card(argument: str, value: object) -> CardLike:
    if isinstance(value, str):
        if len(value.strip()) > 5:  # longer than "JOKER": refuse before parsing (a 5000-digit rank, say)
            raise InvalidPositionError(f"{argument}: not a card: {_show(value)}")
        return value
    if isinstance(value, Card):
        # A Card built by hand may hold anything; the deck lookup and messages need real fields.
        rank_ok = type(value.rank) is int and 0 <= value.rank <= 14
        suit_ok = value.suit is None or isinstance(value.suit, Suit)
        pack_ok = type(value.pack) is int and value.pack >= 0
        if rank_ok and suit_ok and pack_ok:
            # A subclass of Card becomes a plain Card: the engine (compiled too) takes only its own class.
            return value if type(value) is Card else Card(value.rank, value.suit, value.pack)
        raise InvalidPositionError(f"{argument}: not a valid card: {_show(value)}")
    raise InvalidPositionError(f"{argument}: expected a card (notation such as 'QH', or a Card), got {_show(value)}")


def _cards(argument: str, value: object) -> list[CardLike]:
    return [_card(f"{argument}[{i}]", item) for i, item in enumerate(_items(argument, value, "cards"))]


def _cards_per(argument: str, value: object, size: int, unit: str) -> list[list[CardLike]]:
    """One list of cards per seat or side."""
    items = _sized(argument, value, size, unit, "lists of cards")
    return [_cards(f"{argument}[{i}]", item) for i, item in enumerate(items)]


def _melds(value: object, sides: int) -> list[list[list[CardLike]]]:
    """Per side, its melds, each a list of cards."""
    per_side = _sized("melds", value, sides, "sides", "lists of melds (one per side)")
    return [
        [_cards(f"melds[{side}][{i}]", meld) for i, meld in enumerate(_items(f"melds[{side}]", side_melds, "melds"))]
        for side, side_melds in enumerate(per_side)
    ]


def _int(argument: str, value: object, *, low: int | None = None, high: int | None = None) -> int:
    """An integer argument: ``int`` or anything with an exact ``__index__`` (numpy), never bool or float."""
    number = exact_int(value)
    if number is None:
        extra = " (NaN)" if isinstance(value, float) and math.isnan(value) else ""
        raise InvalidPositionError(f"{argument}: expected an integer, got {_show(value)}{extra}")
    if (low is not None and number < low) or (high is not None and number > high):
        bounds = f"{low} or more" if high is None else f"{low} to {high}"
        raise InvalidPositionError(f"{argument}: {number} is out of range (must be {bounds})")
    return number


def _bool(argument: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidPositionError(f"{argument}: expected True or False, got {_show(value)}")
    return value


def _make_typed_meld(state: HandState, cards: list[int], where: str) -> MeldState:
    """A meld of a rule set with meld types, judged by its types: a group, a wild meld, or a sequence.

    Cards of one natural rank (and wild cards) are a group, wild cards alone a wild meld, naturals
    of several ranks a sequence (one suit, each rank once, no gap, no wild card). A meld type of
    a plugin's own shape is not placed here.
    """
    deck = state.deck
    kinds = [deck.kinds[c] for c in cards]
    twos = kinds.count(int(Kind.TWO))
    jokers = kinds.count(int(Kind.JOKER))
    ranks = sorted({k for k in kinds if k > int(Kind.TWO)})
    shown = " ".join(deck.cards[c].code for c in cards)
    if int(Kind.RED_THREE) in ranks or int(Kind.BLACK_THREE) in ranks:
        raise InvalidPositionError(f"{where}: threes are melded only when going out, never mid-hand ({shown})")
    if not ranks:
        meld = MeldState(int(Kind.JOKER), cards, 0, twos, jokers)
    elif len(ranks) == 1:
        meld = MeldState(ranks[0], cards, len(cards) - twos - jokers, twos, jokers)
    else:
        suits = {deck.cards[c].suit for c in cards}
        if twos or jokers or len(suits) != 1 or len(ranks) != len(cards) or ranks[-1] - ranks[0] != len(ranks) - 1:
            raise InvalidPositionError(
                f"{where}: {shown} mixes ranks but is no sequence (one suit, each rank once, no gap, no wild card)"
            )
        meld = MeldState(SEQUENCE_MELD, sorted(cards, key=lambda c: deck.kinds[c]), len(cards), 0, 0)
    shape = meld_shape(state, meld)
    judge = judging(state.rules.meld_types, shape)
    if judge is None or not judge.valid(shape):
        raise InvalidPositionError(f"{where}: {shown} is not a legal meld under these rules")
    return meld


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
    if rank == int(Kind.BLACK_THREE):
        # Black threes meld only as the last meld of going out, which ends the hand (rule book: "Threes").
        raise InvalidPositionError(f"{where}: black threes are melded only when going out, never mid-hand")
    if not rules.melds.is_valid(rank, naturals, twos, jokers) or rank == int(Kind.RED_THREE):
        raise InvalidPositionError(
            f"{where}: {' '.join(deck.cards[c].code for c in cards)} is not a legal meld under these rules"
        )
    return MeldState(rank, cards, naturals, twos, jokers)
