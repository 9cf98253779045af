"""The hook specifications: one hook per rule decision.

A variant is a stack of plugins answering these hooks. Each game builds its own
plugin manager holding the core defaults (`canasta.defaults`), the variant's
plugins (its base variant's first) and the chosen house rules, then asks every
hook **once** and freezes the answers into a `canasta.rules.Rules` value.

All rule hooks are ``firstresult``: the plugin registered last that answers
wins, so a variant overrides the core defaults and a house rule overrides the
variant. To *change* an answer rather than replace it, write a wrapper::

    @canasta.hookimpl(wrapper=True)
    def canasta_going_out():
        rules = yield            # the answer of the plugins below
        return attrs.evolve(rules, canastas_required=2)

Hook implementations may accept any subset of the arguments listed (never with
default values). When each hook is called, what it must return and how its answer
is checked: ``docs/hooks.md``; a test fails if a hook here is missing there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# Re-exported: both were defined here before `canasta.markers` held them.
from canasta.markers import PROJECT as PROJECT
from canasta.markers import hookspec as hookspec

if TYPE_CHECKING:
    from collections.abc import Mapping

    from canasta.cards import DeckSpec, Kind
    from canasta.descriptors import HouseRule, Variant
    from canasta.errors import RuleCode, RuleSection
    from canasta.meldtypes import MeldType
    from canasta.rules import (
        BlackThreeRules,
        CanastaBonuses,
        ExhaustionRules,
        GameLength,
        GoingOutRules,
        InitialMeldRules,
        MeldMinimums,
        MeldRules,
        PacketRules,
        PartnershipRules,
        PileRules,
        ThreeRules,
        Upcard,
    )
    from canasta.special import SpecialHand


# --- discovery -------------------------------------------------------------------


@hookspec
def canasta_variants() -> list[Variant]:  # type: ignore[empty-body]
    """Contribute variants to the registry.

    Called once when the registry loads a plugin found through the ``canasta``
    entry-point group (or registered with `canasta.register_plugin`).
    Every answer is collected.

    Returns:
        The `canasta.Variant` descriptors this plugin provides.
    """


@hookspec
def canasta_house_rules() -> list[HouseRule]:  # type: ignore[empty-body]
    """Contribute house rules to the registry.

    Called like `canasta_variants`; every answer is collected.

    Returns:
        The `canasta.HouseRule` descriptors this plugin provides.
    """


# --- table and deal --------------------------------------------------------------


@hookspec(firstresult=True)
def canasta_players() -> int:  # type: ignore[empty-body]
    """Number of players at the table: the variant's default count.

    A game plays this count unless it chooses another one of
    `canasta_player_counts` (``canasta.Game(variant, players=5)``).

    Returns:
        The number of players. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_player_counts() -> tuple[int, ...]:  # type: ignore[empty-body]
    """Every number of players the variant plays; a game chooses one of them.

    Not answered (the default, every variant of the classic family): the
    variant plays only its `canasta_players` count. A variant that plays
    several counts answers them all; `canasta_players` stays its default
    count and must be one of them. The chosen count is what the hooks that
    take ``players`` (`canasta_sides`, `canasta_deck`, `canasta_hand_size`,
    `canasta_packets`) receive, so they answer for every count::

        @canasta.hookimpl
        def canasta_player_counts():
            return (2, 3, 4, 5, 6)

        @canasta.hookimpl
        def canasta_deck(players):
            return canasta.DeckSpec(packs=players + 1, jokers=2 * (players + 1))

    Returns:
        The counts, each 2 to 8, none twice (any order; the rules keep them
        sorted). Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_sides(players: int) -> tuple[int, ...]:  # type: ignore[empty-body]
    """Seating: the side of each seat, in turn order.

    Args:
        players: The number of players.

    Returns:
        One side index per seat, sides numbered from 0 (classic:
        ``(0, 1, 0, 1)``). Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_deck(players: int) -> DeckSpec:  # type: ignore[empty-body]
    """Packs and jokers in the deck.

    Args:
        players: The number of players.

    Returns:
        A `canasta.DeckSpec` of 1 to `canasta.cards.MAX_PACKS` packs and 0 to
        `canasta.cards.MAX_JOKERS` jokers. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_hand_size(players: int) -> int:  # type: ignore[empty-body]
    """Cards dealt to each player.

    Args:
        players: The number of players.

    Returns:
        The deal size. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_draw_count() -> int:  # type: ignore[empty-body]
    """Cards drawn from the stock per turn (a single last card counts as a full draw).

    Returns:
        The draw size. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_upcard() -> Upcard:  # type: ignore[empty-body]
    """How the discard pile starts.

    Returns:
        A `canasta.Upcard`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_card_values() -> tuple[int, ...]:  # type: ignore[empty-body]
    """Card values by kind, for meld counts and scoring.

    Returns:
        15 integers indexed by `canasta.Kind`. Stops at first non-None result.
    """


# --- melding ---------------------------------------------------------------------


@hookspec(firstresult=True)
def canasta_meld_minimums() -> MeldMinimums:  # type: ignore[empty-body]
    """The initial-meld minimum table, by the side's cumulative score.

    Returns:
        A `canasta.MeldMinimums`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_initial_meld() -> InitialMeldRules:  # type: ignore[empty-body]
    """How the initial meld is counted: top card, concealed exemption, clean meld.

    Returns:
        A `canasta.InitialMeldRules`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_meld_rules() -> MeldRules:  # type: ignore[empty-body]
    """Meld limits: naturals, wild cards (absolute caps and a ratio), sizes, books, wild melds, natural-only ranks.

    A book (``book_makes_room``) is a meld closed at canasta size and set apart, so
    that its side may start a new meld of the rank::

        @canasta.hookimpl(wrapper=True)
        def canasta_meld_rules():
            melds = yield
            return attrs.evolve(melds, max_size=7, book_makes_room=True, naturals_per_wild=2, max_wilds=None)

    Returns:
        A `canasta.MeldRules`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_canasta_bonuses() -> CanastaBonuses:  # type: ignore[empty-body]
    """Bonuses of natural, mixed and wild canastas (`canasta.CanastaClass`), with per-rank and per-joker overrides.

    Returns:
        A `canasta.CanastaBonuses`. Stops at first non-None result.
    """


# --- the pile --------------------------------------------------------------------


@hookspec(firstresult=True)
def canasta_pile_rules() -> PileRules:  # type: ignore[empty-body]
    """What freezes the discard pile and how it may be taken.

    Returns:
        A `canasta.PileRules`. Stops at first non-None result.
    """


# --- threes ----------------------------------------------------------------------


@hookspec(firstresult=True)
def canasta_threes() -> ThreeRules:  # type: ignore[empty-body]
    """Bonus threes: which are laid out, their schedule and sign rule.

    Returns:
        A `canasta.ThreeRules`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_black_threes() -> BlackThreeRules:  # type: ignore[empty-body]
    """Black threes: discard restrictions, setting aside, the in-hand penalty.

    Returns:
        A `canasta.BlackThreeRules`. Stops at first non-None result.
    """


# --- ending a hand and the game --------------------------------------------------


@hookspec(firstresult=True)
def canasta_going_out(players: int) -> GoingOutRules:  # type: ignore[empty-body]
    """Going out: the quota of canastas (of any class, and by class), final discard, bonuses, permission.

    A quota by class counts each canasta for its own class only::

        @canasta.hookimpl(wrapper=True)
        def canasta_going_out():
            going_out = yield
            quota = {CanastaClass.NATURAL: 2, CanastaClass.MIXED: 2, CanastaClass.WILD: 1}
            return attrs.evolve(going_out, canastas_required=0, canastas_by_class=quota)

    Args:
        players: Number of players (decided by `canasta_players`): Hand and Foot's quota
            is smaller for players alone. An implementation may leave it out.

    Returns:
        A `canasta.GoingOutRules`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_stock_exhaustion() -> ExhaustionRules:  # type: ignore[empty-body]
    """What happens when the stock runs out.

    Whether the hand ends, play goes on with the pile's discards, or the pile
    but its top card is shuffled into a new stock
    (`canasta.ExhaustionRules.reshuffle_pile_at`: 0, never, or at least 3, with
    a draw of 2 cards or more).

    Example::

        @canasta.hookimpl(wrapper=True)
        def canasta_stock_exhaustion():  # Hand and Foot's reshuffle-discards
            return attrs.evolve((yield), reshuffle_pile_at=3)

    Returns:
        A `canasta.ExhaustionRules`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_incomplete_meld_penalties() -> tuple[tuple[Kind, int], ...]:  # type: ignore[empty-body]
    """Penalties for melds left incomplete (not canastas) at the end of a hand.

    Returns:
        ``(rank, penalty)`` pairs; ``Kind.JOKER`` names the wild meld.
        Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_incomplete_natural_meld_penalties() -> tuple[tuple[Kind, int], ...]:  # type: ignore[empty-body]
    """Penalties for **natural** melds (no wild card) left incomplete at the end of a hand.

    Like `canasta_incomplete_meld_penalties`, but a meld of the rank holding a
    wild card costs nothing (house rule ``aces-pure``: an incomplete natural
    aces meld costs 2500, a mixed one nothing).

    Returns:
        ``(rank, penalty)`` pairs. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_held_card_penalties() -> tuple[tuple[Kind, int, int], ...]:  # type: ignore[empty-body]
    """Penalties for cards of one kind left in one player's hand at the end of a hand.

    Charged besides the cards' own values (which count against the side as
    cards in hand), once per player and per entry, however many cards of the
    kind the player holds past the threshold (club modern American:
    ``((Kind.ACE, 3, 1500), (Kind.SEVEN, 3, 1500))``).

    Returns:
        ``(kind, at_least, penalty)`` triples: a player holding ``at_least``
        or more cards of ``kind`` costs the side ``penalty``.
        Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_special_hands() -> tuple[SpecialHand, ...]:  # type: ignore[empty-body]
    """The special hands a side may declare instead of playing the hand out.

    Each is a `canasta.SpecialHand`: its value, whether it wins the game, and
    the test of a hand's card counts (club modern American's house rule
    ``american-special-hands`` answers its eleven hands). Their ids must be
    unique and their values positive.

    Returns:
        The hands, in the table's order. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_partnerships() -> PartnershipRules:  # type: ignore[empty-body]
    """Partnerships that form during a hand (the three-player house rule ``cutthroat``).

    The core default is `canasta.PartnershipRules()`: the seating of
    `canasta_sides` holds for the whole hand. With ``first_taker_alone``,
    the first player to take the pile plays alone and the others become one
    side sharing melds; each keeps a personal score and minimum.

    Returns:
        A `canasta.PartnershipRules`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_packets(players: int) -> PacketRules:  # type: ignore[empty-body]
    """Packets dealt after the hand, face down, picked up one after another (Hand and Foot's foot).

    The core default is `canasta.PacketRules()`: no packet, one hand per
    player. A variant that deals each player a second packet (the *foot*)
    answers its size; the engine then deals it, hides it from everyone (its
    owner too) until it is picked up, picks it up when the hand is emptied
    (at once after a meld, at the start of the next turn after a discard),
    lets only a player in the last packet go out, and scores a packet still
    down against its side (see `canasta.PacketRules`). With
    ``after_first_canasta`` a packet is earned by the player's own first
    canasta: until then the hand is never emptied, and from a later turn on the
    player may pick it up at will before the draw (`canasta.PickUpPacket`).

    Example::

        @canasta.hookimpl
        def canasta_packets(players: int) -> canasta.PacketRules:
            return canasta.PacketRules(sizes=(13,), partners_first=True, three_down=-100)

    Args:
        players: Number of players (the game's chosen count, see `canasta_player_counts`).

    Returns:
        A `canasta.PacketRules`. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_meld_types() -> tuple[MeldType, ...]:  # type: ignore[empty-body]
    """The kinds of meld a rule set plays by meld type (the sequence games: Samba, Bolivia, Brazilian).

    The core default is ``()``: melds of one rank, as `canasta_meld_rules`
    states them (every variant before the sequence games). A rule set that
    answers meld types plays by them instead: a side may hold several melds
    of one kind, each with its identity (a number per side, in creation
    order, never reused), every action names the meld it joins, and what
    is valid, what may be added, when a meld closes and its canasta class
    are each type's (`canasta.meldtypes`). A plugin may answer a type of
    its own (a subclass of `canasta.meldtypes.MeldType`): one that refines a
    built-in kind, or one of a shape of its own that says which cards make its
    melds and which of a hand's cards may form one (`MeldType.shape_of`,
    `cards_of`, `lays`, `additions`), played by `canasta.ownshapes`.

    Example::

        @canasta.hookimpl
        def canasta_meld_types():
            from canasta.meldtypes import BlackThreeGroupType, GroupType, SequenceType

            return (GroupType(), SequenceType(), BlackThreeGroupType())

    Returns:
        A tuple of `canasta.meldtypes.MeldType` values, at most one of each
        class. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_target_score() -> int:  # type: ignore[empty-body]
    """The total that ends the game at the end of a hand.

    The target alone: `canasta_game_length` receives it and says whether the
    game ends there (the core default), after a number of deals instead, or at
    whichever comes first. A variant whose game has no target need not answer.

    Returns:
        The target score. Stops at first non-None result.
    """


@hookspec(firstresult=True)
def canasta_game_length(target_score: int | None) -> GameLength:  # type: ignore[empty-body]
    """When the game ends: at a target total, after a fixed number of deals, or both.

    The core default is ``GameLength(target_score=target_score)``: the game
    ends at the end of the hand in which a side reaches the target (every
    variant of the classic family). Hand and Foot plays 4 deals::

        @canasta.hookimpl
        def canasta_game_length():
            return canasta.GameLength(deals=4)

    With both fields set, the first reached ends the game. Either way the side
    with the highest total wins; equal highest totals are a draw among those
    sides (`canasta.Game.winners`).

    Args:
        target_score: The answer of `canasta_target_score` (``None`` if no
            plugin answers it).

    Returns:
        A `canasta.GameLength` with a positive ``target_score``, a positive
        ``deals``, or both. Stops at first non-None result.
    """


# --- the rule book ---------------------------------------------------------------


@hookspec
def canasta_rule_sections() -> Mapping[RuleCode, RuleSection]:  # type: ignore[empty-body]
    """Where the rule behind each rule code is written: the sections a refusal cites.

    Asked once at compilation, like the rule hooks, but **every answer is
    collected** and merged code by code: the plugin registered last wins for
    each code it names, so a variant names its own page for the codes whose
    rule it changes (or for all of them) and keeps its base's sections for the
    others, and a house rule names its own page for the codes whose rule it
    changes. The core default is classic's rule book for every code; a
    variant that does not implement the hook cites its base's sections.

    Returns:
        ``{code: section}``: `canasta.RuleCode` members (or their text) to
        `canasta.RuleSection` values, for any subset of the codes.
    """
