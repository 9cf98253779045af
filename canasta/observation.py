"""What one seat may see: its own hand and everything face up, nothing else.

With perfect recall a seat also knows what it saw happen: the public action
log of the hand, and which cards went into which hand with a taken pile (and
have not been melded or discarded since). That is the seat's *information
state*; `canasta.sample_state` deals the cards it cannot see consistently with it.
"""

from __future__ import annotations

from attrs import field, frozen

from canasta.actions import Action
from canasta.cards import KIND_COUNT, SEQUENCE_MELD, Card, Kind, Suit
from canasta.legality import legal_actions
from canasta.meldtypes import SequenceShape, judging
from canasta.suitedlegality import meld_shape
from canasta.table import MeldState, TableState

__all__ = ["MeldView", "Observation", "meld_views", "observe", "public_table"]


@frozen
class MeldView:
    """A meld as everyone sees it.

    A group is told by its ``rank``; a sequence of one suit (the sequence games,
    `canasta.meldtypes.SequenceType`) has no rank (``None``) but a ``suit`` and
    its lowest and highest ranks (``low``, ``high``: 4 to ace, the ranks between
    them all in it once). Where melds have identities (rule sets with
    `canasta.Rules.meld_types`: a side may hold several melds of one rank),
    ``number`` is the meld's number, which actions use to name it. The fields
    added for those rule sets default to ``None``, so the melds of every other
    rule set are what they always were (equal, and with the same JSON form).

    Attributes:
        rank: The meld's kind (``JOKER`` for a wild meld, ``BLACK_THREE`` for a
            group of black threes); ``None`` for a sequence.
        cards: Its cards (a sequence's in rank order, low to high).
        naturals: Natural cards (or black threes; a sequence's every card).
        twos: 2s.
        jokers: Jokers.
        is_canasta: Whether it is a canasta (a sequence's: a samba or escalera).
        number: The meld's identity on its side (`canasta.table.TableState.meld_numbers`:
            from 0, in creation order, never reused in the hand; a combined
            group keeps the older number), or ``None`` where melds have none.
        suit: A sequence's suit, else ``None``.
        low: A sequence's lowest rank, else ``None``.
        high: A sequence's highest rank, else ``None``.
    """

    rank: Kind | None
    cards: tuple[Card, ...]
    naturals: int
    twos: int
    jokers: int
    is_canasta: bool
    number: int | None = None
    suit: Suit | None = None
    low: Kind | None = None
    high: Kind | None = None

    @property
    def is_sequence(self) -> bool:
        """Whether the meld is a sequence of one suit (it has a suit and no rank)."""
        return self.suit is not None


@frozen
class Observation:
    """Exactly what a seat may see: its own hand, sizes of the others, the face-up cards.

    Attributes:
        seat: The observing seat.
        side: Its side.
        hand: Its cards.
        hand_sizes: Number of cards in each seat's hand.
        stock_size: Cards left in the stock.
        pile: The discard pile, bottom to top (all face up).
        pile_frozen: Whether the pile is frozen for the observer's side.
        melds: Each side's melds.
        threes: Each seat's laid-out threes.
        set_aside: Each side's set-aside black threes.
        scores: Each side's total before the hand.
        minimum_needed: The count the observer's side still needs for its initial
            meld (0 once, and only once, it has opened).
        clean_meld_needed: Whether that initial meld still lacks the clean meld
            its variant requires (modern American).
        acting_seat: The seat that must act.
        phase: The turn phase's name.
        legal_actions: The observer's legal actions if it acts now, else empty.
        known_cards: Per seat, the cards everyone saw go into that hand with a
            taken pile and has not seen leave it since (melded, laid out or
            discarded): the public knowledge of each hand, the observer's own
            included (what the others know of it).
        action_log: The public action log of the hand: ``(seat, action)`` for
            every action taken so far, in order (the deal, the upcard and the
            laying out of threes happen without an action).
        packets_down: Per seat, the sizes of its packets still face down, the
            next first (`canasta.PacketRules`: Hand and Foot's foot; empty tuples
            where the rules deal none). Public: nobody sees their cards, the
            owner included (§8.12).
        deal_number: The hand's number in its game, from 1 (a minimum table by
            deal reads it; public, like the scores).
        reshuffles: How many times the pile was shuffled into a new stock in
            this hand (`canasta.ExhaustionRules.reshuffle_pile_at`; 0 where the
            rules never do).
        reshuffled: The cards the last reshuffle put into the stock, in the
            order they lay in the pile, bottom first: everyone saw them there,
            so everyone knows the stock holds nothing else (those not drawn
            since), never their new order. Empty before any reshuffle.
        first_canasta: Where a packet is earned by a canasta
            (`canasta.PacketRules.after_first_canasta`), per seat the turn in which
            it completed its first canasta of the hand, or -1 (`canasta.HandState.first_canasta`;
            public: everyone saw the meld); empty elsewhere.
    """

    seat: int
    side: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[Card, ...]
    pile_frozen: bool
    melds: tuple[tuple[MeldView, ...], ...]
    threes: tuple[tuple[Card, ...], ...]
    set_aside: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]
    minimum_needed: int
    clean_meld_needed: bool
    acting_seat: int
    phase: str
    legal_actions: tuple[object, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    action_log: tuple[tuple[int, Action], ...]
    packets_down: tuple[tuple[int, ...], ...] = ()
    deal_number: int = 1
    reshuffles: int = 0
    reshuffled: tuple[Card, ...] = ()
    first_canasta: tuple[int, ...] = ()
    #: The table as the seat sees it (hidden cards left out), for `canasta.sample_state`.
    _public: TableState | None = field(default=None, eq=False, repr=False, alias="public")

    def _repr_svg_(self) -> str:
        """The seat's view as SVG, so that Jupyter shows it (`canasta.render.render_observation_svg`)."""
        from canasta.render import render_observation_svg

        return render_observation_svg(self)


def observe(state: TableState, seat: int) -> Observation:
    """Build a seat's observation.

    Args:
        state: The hand.
        seat: The observing seat.

    Returns:
        The observation.

    Raises:
        ValueError: If the seat does not exist.
    """
    if not 0 <= seat < state.rules.players:
        raise ValueError(f"no seat {seat}; seats are 0 to {state.rules.players - 1}")
    cards = state.deck.cards
    side = state.seating[seat]
    pile = list(state.pile)
    if state.pending_pile is not None:
        pile = pile + state.pending_pile  # still face up until picked up (above what a take left behind)
    melds = tuple(meld_views(state, unit) for unit in range(len(state.melds)))
    acting = state.seat
    known = state.known
    return Observation(
        seat=seat,
        side=side,
        hand=tuple(state.hand_cards(seat)),
        hand_sizes=tuple(state.sizes),
        stock_size=len(state.stock),
        pile=tuple(cards[c] for c in pile),
        pile_frozen=state.pile_frozen_for(side),
        melds=melds,
        threes=tuple(tuple(cards[c] for c in t) for t in state.threes),
        set_aside=tuple(tuple(cards[c] for c in s) for s in state.set_aside),
        scores=tuple(state.scores),
        minimum_needed=state.minimum_needed(side),
        clean_meld_needed=state.clean_meld_needed(side),
        acting_seat=acting,
        phase=state.phase.value,
        legal_actions=tuple(legal_actions(state)) if acting == seat else (),
        known_cards=tuple(tuple(cards[c] for c in k) for k in known),
        action_log=tuple(state.log),
        packets_down=tuple(tuple(len(p) for p in seat_packets) for seat_packets in state.packets),
        deal_number=state.deal_number,
        reshuffles=state.reshuffles,
        reshuffled=tuple(cards[c] for c in state.reshuffled),
        first_canasta=tuple(state.first_canasta) if state.facts.after_first_canasta else (),
        public=public_table(state, seat),
    )


def meld_views(state: TableState, side: int) -> tuple[MeldView, ...]:
    """A side's melds on the table as everyone sees them (`Observation.melds` of that side).

    In rule sets with meld types (`canasta.Rules.meld_types`) the melds are
    listed by number (creation order), each with its ``number``, a sequence
    with its suit and ends, and a canasta told by its meld type
    (`canasta.meldtypes.MeldType.canasta_class`). Elsewhere they are listed by
    rank, high to low (a side's books first among melds of a rank), each a
    canasta from `canasta.MeldRules.canasta_size` on.

    Args:
        state: The hand.
        side: The side (the seating's unit: under ``cutthroat`` a seat's own melds).

    Returns:
        The melds.
    """
    cards = state.deck.cards
    if not state.facts.sequences:
        canasta_size = state.rules.melds.canasta_size
        return tuple(
            MeldView(
                rank=Kind(m.rank),
                cards=tuple(cards[c] for c in m.cards),
                naturals=m.naturals,
                twos=m.twos,
                jokers=m.jokers,
                is_canasta=m.size >= canasta_size,
            )
            for m in sorted(state.all_melds(side), key=lambda m: -m.rank)  # (books too, each a canasta)
        )
    books: list[tuple[int | None, MeldState]] = [(None, m) for m in state.books[side]]
    numbered: list[tuple[int | None, MeldState]] = [*sorted(state.melds[side].items())]
    return tuple(_numbered_view(state, number, m) for number, m in books + numbered)


def _numbered_view(state: TableState, number: int | None, meld: MeldState) -> MeldView:
    """A meld of a rule set with meld types: its number, a sequence's suit and ends, a canasta by its type."""
    cards = state.deck.cards
    shape = meld_shape(state, meld)
    judge = judging(state.rules.meld_types, shape)
    is_canasta = judge is not None and judge.canasta_class(shape) is not None
    if meld.rank == SEQUENCE_MELD:
        assert isinstance(shape, SequenceShape)
        return MeldView(
            rank=None,
            cards=tuple(sorted((cards[c] for c in meld.cards), key=lambda card: card.rank)),
            naturals=meld.naturals,
            twos=meld.twos,
            jokers=meld.jokers,
            is_canasta=is_canasta,
            number=number,
            suit=Suit(shape.suit),
            low=Kind(shape.low),
            high=Kind(shape.high),
        )
    return MeldView(
        rank=Kind(meld.rank),
        cards=tuple(cards[c] for c in meld.cards),
        naturals=meld.naturals,
        twos=meld.twos,
        jokers=meld.jokers,
        is_canasta=is_canasta,
        number=number,
    )


def public_table(state: TableState, seat: int) -> TableState:
    """A copy of the hand holding only what ``seat`` may see: the stock and the other hands' unknown cards left out.

    Each other hand keeps its size and holds only its known cards; the stock
    is empty, and so is every packet still down (`canasta.PacketRules`). `canasta.sample_state` fills both back in.
    The hand's secret source of reshuffles (``shuffle_seed``) is 0; the cards of the last reshuffle
    (``reshuffled``) stay: they were face up in the pile.

    Args:
        state: The hand.
        seat: The observing seat.

    Returns:
        The partial copy (not a playable state until filled).
    """
    public = state.copy()
    public.stock = []
    public.shuffle_seed = 0  # the source of the next reshuffles' order: nobody's to see
    # Packets still down are hidden from everyone, their owners included: only their number stays.
    public.packets = [[[] for _ in seat_packets] for seat_packets in state.packets]
    kinds = state.kinds
    for other in range(state.rules.players):
        if other == seat:
            continue
        held: list[list[int]] = [[] for _ in range(KIND_COUNT)]
        counts = [0] * KIND_COUNT
        for card in state.known[other]:
            held[kinds[card]].append(card)
            counts[kinds[card]] += 1
        public.hands[other] = held
        public.counts[other] = counts
    if state.seat != seat:
        public._legal = None  # another seat's legal actions depend on its hidden cards
        # american-discards: whether the acting hand was all wild after its draw is that hand's secret.
        public.drew_all_wild = False
    return public
