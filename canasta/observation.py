"""What one seat may see: its own hand and everything face up, nothing else.

With perfect recall a seat also knows what it saw happen: the public action
log of the hand, and which cards went into which hand with a taken pile (and
have not been melded or discarded since). That is the seat's *information
state*; `canasta.sample_state` deals the cards it cannot see consistently with it.
"""

from __future__ import annotations

from attrs import field, frozen

from canasta.actions import Action
from canasta.cards import KIND_COUNT, Card
from canasta.legality import legal_actions
from canasta.meldview import MeldView, meld_views
from canasta.table import TableState

__all__ = ["MeldView", "Observation", "meld_views", "observe", "public_table"]


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
        melds: Each side's melds (`MeldView`, `meld_views`): by rank, high to low; by
            number in rule sets with meld types (the sequence games).
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
