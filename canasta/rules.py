"""Rule values: the small policy objects hooks return, and the compiled `Rules`.

Every rule *value and decision* of a variant lives here, answered once per game
by the plugin hooks (see `canasta.hookspecs`) and frozen. The engine reads these
objects in its inner loops; it never calls a hook while generating moves.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING

from attrs import evolve, field, fields, frozen

from canasta.canastaclass import CanastaClass
from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, SEQUENCE_MELD, DeckSpec, Kind
from canasta.errors import RuleCode, RuleSection
from canasta.special import SpecialHand

if TYPE_CHECKING:
    from canasta.meldtypes import MeldType

__all__ = [
    "DEFAULT_CARD_VALUES",
    "BlackThreeRules",
    "CanastaBonuses",
    "CanastaClass",
    "ExhaustionRules",
    "GameLength",
    "GoingOutRules",
    "InitialMeldRules",
    "MeldMinimums",
    "MeldRules",
    "PacketRules",
    "PartnershipRules",
    "Permission",
    "PileRules",
    "Rules",
    "ThreeRules",
    "ThreeSign",
    "Upcard",
    "canasta_class",
]


def _values(mapping: dict[Kind, int]) -> tuple[int, ...]:
    values = [0] * KIND_COUNT
    for kind, value in mapping.items():
        values[kind] = value
    return tuple(values)


#: Classic's card values (rule book, classic, "Table and deal"): joker 50, 2 and ace 20, K to 8 10,
#: 7 to 4 5, black three 5, red three 0 (it scores only as a bonus).
DEFAULT_CARD_VALUES: tuple[int, ...] = _values(
    {
        Kind.JOKER: 50,
        Kind.TWO: 20,
        Kind.ACE: 20,
        Kind.KING: 10,
        Kind.QUEEN: 10,
        Kind.JACK: 10,
        Kind.TEN: 10,
        Kind.NINE: 10,
        Kind.EIGHT: 10,
        Kind.SEVEN: 5,
        Kind.SIX: 5,
        Kind.FIVE: 5,
        Kind.FOUR: 5,
        Kind.BLACK_THREE: 5,
    }
)


class Upcard(Enum):
    """How the discard pile starts."""

    #: Turn the top stock card up; cover it while it is a wild card or a red three.
    COVER_WILD_AND_RED_THREE = "cover-wild-and-red-three"
    #: No upcard: the pile starts empty.
    NONE = "none"
    #: Turn the top stock card up; while it is a wild card or a red three, put it back into the stock
    #: at a uniformly random place other than the top (the deal's seed decides) and turn the next
    #: (Hand and Foot, §8.1): nothing is frozen by it.
    BURY_WILD_AND_RED_THREE = "bury-wild-and-red-three"
    #: Turn the top stock card up, whatever it is: a wild card or a red three stays as the upcard
    #: (Hand and Foot's ``upcard-stays``; a red three on top blocks the pile until covered).
    TURN_ONE = "turn-one"


class Permission(Enum):
    """Whether a player may ask a partner for permission to go out."""

    #: Never (no partner, or the variant has no such protocol).
    NONE = "none"
    #: Optional, at most once per turn; the answer binds for that turn.
    OPTIONAL = "optional"
    #: Optional, at most once per hand for each side; the answer binds.
    ONCE_PER_HAND = "once-per-hand"
    #: Optional, at most once per turn, at any point before the discard (after melding too); the
    #: answer binds (Hand and Foot's ``no-permission``).
    ANY_TIME = "any-time"
    #: Required: a player with partners goes out only after a "yes" this turn; asked at most once a
    #: turn, at any point before the discard (before or after the draw, after melding too); the
    #: answer binds (Hand and Foot, §8.8).
    REQUIRED = "required"


class ThreeSign(Enum):
    """When a side's bonus threes count for it, against it, or not at all."""

    #: Added; subtracted if the side made no meld in the hand (classic).
    NEGATIVE_WITHOUT_MELD = "negative-without-meld"
    #: Added only if the side has `ThreeRules.canastas_for_plus` canastas (one by default), otherwise
    #: subtracted (Cuban; the sequence games: Samba and Bolivia 2, Brazilian 1).
    NEGATIVE_WITHOUT_CANASTA = "negative-without-canasta"
    #: 0 canastas subtracted, exactly 1 zero, 2 or more added (modern American).
    BY_CANASTA_COUNT = "by-canasta-count"
    #: Always added, whatever the side melded (Hand and Foot, §8.6).
    ALWAYS_POSITIVE = "always-positive"
    #: Always subtracted, whatever the side melded (Hand and Foot's ``red-threes-always-minus-500``).
    ALWAYS_NEGATIVE = "always-negative"


# The classes in `CanastaClass` order (indexed by `canasta_class_index`'s answer): module constants, read per book.
_CLASSES: tuple[CanastaClass, ...] = tuple(CanastaClass)


def canasta_class(rank: int, naturals: int, twos: int, jokers: int, special: Collection[int] = ()) -> CanastaClass:
    """The class of a canasta with these contents.

    Args:
        rank: The meld's kind (``JOKER`` for a wild meld).
        naturals: Its natural cards (or black threes).
        twos: Its 2s.
        jokers: Its jokers.
        special: The ranks whose natural canastas are a class of their own
            (`MeldRules.special_ranks`; none by default).

    Returns:
        `CanastaClass.WILD` for a wild meld, `CanastaClass.MIXED` for a meld
        holding a wild card, `CanastaClass.SPECIAL` for a natural one of a rank in
        ``special``, otherwise `CanastaClass.NATURAL`.
    """
    bits = 0
    for kind in special:
        bits |= 1 << int(kind)
    return _CLASSES[canasta_class_index(rank, naturals, twos, jokers, bits)]


def canasta_class_index(rank: int, naturals: int, twos: int, jokers: int, special: int = 0) -> int:
    """`canasta_class` as the member's index in `CanastaClass`: for the engine's tables.

    0 natural, 1 mixed, 2 wild, 3 sequence, 4 special; ``special`` holds the ranks of
    `MeldRules.special_ranks` as bits (`MeldRules.special_bits`; 0: none).
    """
    if rank == JOKER:
        return 2
    if rank == SEQUENCE_MELD:
        return 3  # a sequence's meld state (the sequence games: `Rules.meld_types`)
    if twos or jokers:
        return 1
    return 4 if special >> (rank & 15) & 1 else 0


def _non_negative(_instance: object, attribute: object, value: int) -> None:
    if value < 0:
        name = getattr(attribute, "name", "value")
        raise ValueError(f"{name} must not be negative, got {value}")


def _natural_ranks(_instance: object, attribute: object, value: frozenset[Kind]) -> None:
    for kind in value:
        if not isinstance(kind, int) or not BLACK_THREE < kind < KIND_COUNT:
            name = getattr(attribute, "name", "value")
            raise ValueError(f"{name} holds natural ranks (4 to ace) only, got {kind!r}")


def _sections(value: object) -> tuple[tuple[RuleCode, RuleSection], ...]:
    """Accept a mapping or pairs of ``(code, section)``."""
    items = value.items() if isinstance(value, dict) else value
    return tuple((RuleCode(code), section) for code, section in items)  # type: ignore[attr-defined]


def _integer(value: object, what: str) -> int:
    """``value`` as a plain `int` (an `int` subclass read by ``int.__int__``), or `TypeError`: never truncated."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            shown = repr(value)
        except Exception:  # a hostile __repr__ must not replace the real error
            shown = f"<{type(value).__name__} object>"
        raise TypeError(f"{what} must be an integer, got {shown[:60]} ({type(value).__name__})")
    return int.__int__(value)


def _class_counts(value: object) -> tuple[tuple[CanastaClass, int], ...]:
    """Accept a mapping or pairs of ``(CanastaClass, count)``; one entry per class, in `CanastaClass` order."""
    items = value.items() if isinstance(value, dict) else value
    counts: dict[CanastaClass, int] = {}
    for cls, count in items:  # type: ignore[attr-defined]
        if not isinstance(cls, CanastaClass):
            raise TypeError(f"a quota's class must be a CanastaClass, got {cls!r}")
        number = _integer(count, "a quota's count")
        if number < 0:
            raise ValueError(f"a quota's count must not be negative, got {number}")
        counts[cls] = number
    return tuple((cls, counts[cls]) for cls in _CLASSES if cls in counts)


def _pairs(steps: object) -> tuple[tuple[int, int], ...]:
    """Accept any iterable of pairs of integers (lists from JSON included); refuse floats, strings and bools."""
    pairs = []
    for step in steps:  # type: ignore[attr-defined]
        start, minimum = step
        pairs.append((_integer(start, "a minimum step's score"), _integer(minimum, "a minimum step's minimum")))
    return tuple(pairs)


def _canasta_bands(bands: object) -> tuple[tuple[int, frozenset[CanastaClass]], ...]:
    """Accept ``(from_score, classes)`` pairs (lists from JSON included): classes as `CanastaClass` values."""
    found = []
    for band in bands:  # type: ignore[attr-defined]
        start, classes = band
        found.append((_integer(start, "a canasta band's score"), frozenset(CanastaClass(c) for c in classes)))
    return tuple(found)


def _deal_minimums(table: object) -> tuple[int, ...]:
    """Accept any iterable of integers (a list from JSON included); refuse floats, strings and bools."""
    return tuple(_integer(minimum, "a minimum by deal") for minimum in table)  # type: ignore[attr-defined]


@frozen
class MeldMinimums:
    """The initial-meld minimum table (rule book: "The initial meld").

    A table is indexed either by the side's cumulative score (``below_zero``
    and ``steps``: every variant of the classic family) or by the deal's number
    in the game (``by_deal``: Hand and Foot's 50, 90, 120, 150), never both.

    Attributes:
        below_zero: The minimum for a cumulative score below 0.
        steps: ``(from_score, minimum)`` pairs in increasing ``from_score``
            order, the first starting at 0. The last step whose ``from_score``
            is at most the score applies. Empty for a table by deal.
        by_deal: The minimum of deal 1, 2, ... of the game; past the end of the
            table the last entry holds. Empty (the default) for a table by score.
        canastas: ``(from_score, classes)`` bands in increasing ``from_score`` order: from
            that score on, the opening must also contain a canasta of one of ``classes``,
            laid in the opening turn from the hand (Brazilian canasta, §11.1; an empty set
            ends the need). Read only by rule sets with meld types (`Rules.meld_types`).
            Empty (the default): the count alone.
    """

    below_zero: int = 0
    steps: tuple[tuple[int, int], ...] = field(default=(), converter=_pairs)
    by_deal: tuple[int, ...] = field(default=(), converter=_deal_minimums)
    canastas: tuple[tuple[int, frozenset[CanastaClass]], ...] = field(
        default=(), converter=_canasta_bands, kw_only=True
    )

    def canastas_for(self, score: int) -> frozenset[CanastaClass]:
        """The canasta classes one of which an opening must contain at this score (Brazilian canasta, §11.1).

        Args:
            score: The side's total before the hand.

        Returns:
            The classes of the last band of `canastas` whose score is at most ``score``
            (empty: no canasta needed, the count alone).
        """
        found: frozenset[CanastaClass] = frozenset()
        for threshold, classes in self.canastas:
            if score >= threshold:
                found = classes
        return found

    def minimum_for(self, score: int, deal: int = 1) -> int:
        """The minimum count for a side with this cumulative score, in this deal of the game.

        Args:
            score: The side's total before the hand.
            deal: The deal's number in the game, from 1 (read only by a table
                by deal).

        Returns:
            The count its initial meld must reach.

        Raises:
            ValueError: If ``deal`` is below 1.
        """
        by_deal = self.by_deal
        if by_deal:
            if deal < 1:
                raise ValueError(f"a deal's number starts at 1, got {deal}")
            return by_deal[min(deal, len(by_deal)) - 1]
        if score < 0:
            return self.below_zero
        result = self.below_zero
        for threshold, minimum in self.steps:
            if score >= threshold:
                result = minimum
        return result


def _optional_integer(value: object) -> int | None:
    return None if value is None else _integer(value, "a game length")


@frozen
class GameLength:
    """When a game ends (rule book: "The game"): at a target total, after a number of deals, or both.

    The game ends at the end of a deal. With both set, whichever comes first
    ends it. Either way the side with the highest total wins, and equal
    highest totals are a draw among those sides (`canasta.Game.winners`).

    Attributes:
        target_score: The game ends once a side's total reaches this
            (``None``: no target).
        deals: The game ends after this many deals (``None``: no fixed count).
    """

    target_score: int | None = field(default=None, converter=_optional_integer)
    deals: int | None = field(default=None, converter=_optional_integer)

    def is_over(self, totals: Sequence[int], deals_played: int) -> bool:
        """Whether a game with these totals ends now, at the end of a deal.

        Args:
            totals: Each side's cumulative total after the deal.
            deals_played: Deals played so far, that one included.

        Returns:
            True if a side reached the target or the last deal was played.
        """
        target = self.target_score
        if target is not None and max(totals) >= target:
            return True
        return self.deals is not None and deals_played >= self.deals


@frozen
class InitialMeldRules:
    """How the initial meld is counted (rule book: "The initial meld").

    Attributes:
        top_card_counts: Whether the pile's top card counts when the pile is
            taken for the initial meld.
        concealed_exemption: Whether a player who drew from the stock and melds
            the whole hand including a canasta needs no minimum.
        clean_meld_naturals: If above 0, the initial meld must include a meld of
            at least this many natural cards from the hand and no wild card.
        bonus_cards: Cards the player who completes the side's initial meld
            draws from the stock after that turn's discard, indexed by how many
            other sides had melded before (rule option ``american-talon``:
            ``(4, 3)``); a side past the end draws none, and so does a side
            whose opening was made by taking the pile.
        bonus_cards_stock_floor: No bonus cards once the stock holds this many
            cards or fewer (``american-talon``: 8).
        splash: A canasta laid entirely from the hand in the opening turn,
            natural (no wild card) or wild, completes the opening with neither
            the minimum nor the clean meld (house rule ``splash``); the meld of
            the pile's top card taken this turn never counts as one.
        bonus_cards_stand_for_kept_card: A player whose side is owed bonus
            cards after this turn's discard (``bonus_cards``) need not keep a
            card: he may discard his last card without going out, and the bonus
            cards follow (house rule ``american-discards``).
    """

    top_card_counts: bool = True
    concealed_exemption: bool = True
    clean_meld_naturals: int = field(default=0, validator=_non_negative)
    bonus_cards: tuple[int, ...] = field(default=(), converter=tuple)
    bonus_cards_stock_floor: int = field(default=0, validator=_non_negative)
    splash: bool = False
    bonus_cards_stand_for_kept_card: bool = False


@frozen
class PileRules:
    """Freezing and taking the discard pile (rule book: "The discard pile", "The frozen pile").

    Attributes:
        always_frozen: The pile is frozen for everyone, always.
        wild_freezes: A wild card in the pile freezes it for everyone.
        red_three_freezes: A red three in the pile (the upcard) freezes it.
        black_three_freezes: A black three in the pile freezes it until taken.
        unmelded_side_frozen: The pile is frozen for a side that has not made
            its initial meld.
        unmelded_side_may_take: Whether a side that has not melded may take the
            pile at all (False: the initial meld must come from the hand).
        natural_and_wild: An unfrozen pile may be taken with one natural of the
            top card's rank plus one wild card.
        layoff: An unfrozen pile may be taken by adding the top card to one of
            the side's melds.
        blocked_top: Kinds that, on top of the pile, stop anyone taking it.
        one_card_rule: A player holding exactly one card may not take a pile
            of exactly one card.
        empty_pile_stops: Kinds that may not be discarded onto an empty pile
            while the hand holds a *plain* card: one that is neither of these
            kinds, nor a three, nor of a rank closed for the hand (house rule
            ``american-discards``: aces, sevens, 2s and jokers; with
            ``dead-ranks`` the closed ranks join them). With the pile empty, no
            meld or pile take may leave the player without a plain card, unless
            he then holds one card and his side has the canastas to go out.
            Empty (the default): no such restriction.
        wild_discard_needs_wild_hand: A wild card may be discarded, other than
            as the final discard of going out, only if every card of the hand
            was wild just after this turn's stock draw (house rule
            ``american-discards``); a turn that took the pile never qualifies.
        take_count: How many cards a pile take takes from the top, the top card
            included (``None``: the whole pile). The rest stays as the pile, in
            order (Hand and Foot takes the top 7, §8.5).
        sequence_take_top_only: In rule sets with meld types, a take that adds the
            top card alone to a sequence takes only that card; the rest stays as
            the pile, its freezing unchanged (the sequence games' option
            ``samba-top-card-only``, §9.13; the one-card rule then applies to every
            such take, since one card is taken).
        wild_pair: A 2 or a joker on top may be taken with two wild cards of its
            kind from the hand (two 2s, two jokers), melded with it into the
            side's wild meld (`MeldRules.wild_melds`; Hand and Foot, §8.5, E5).
            Such a top card is then not blocked by `blocked_top`.
    """

    always_frozen: bool = False
    wild_freezes: bool = True
    red_three_freezes: bool = True
    black_three_freezes: bool = False
    unmelded_side_frozen: bool = True
    unmelded_side_may_take: bool = True
    natural_and_wild: bool = True
    layoff: bool = True
    blocked_top: frozenset[Kind] = frozenset({Kind.TWO, Kind.JOKER, Kind.BLACK_THREE, Kind.RED_THREE})
    one_card_rule: bool = True
    empty_pile_stops: frozenset[Kind] = frozenset()
    wild_discard_needs_wild_hand: bool = False
    take_count: int | None = None
    wild_pair: bool = False
    sequence_take_top_only: bool = field(default=False, kw_only=True)


@frozen(cache_hash=True)  # (hashed where its validity memo is looked up: once per meld table built)
class MeldRules:
    """What a meld may hold (rule book: "Melds", "Wild cards", "Canastas").

    Attributes:
        min_size: Cards a new meld needs.
        min_naturals: Natural cards every meld needs.
        max_wilds: Wild cards a natural meld may hold (``None``: no fixed limit).
        naturals_per_wild: The wild-card ratio: a natural meld holding wild
            cards holds at least this many naturals per wild card (naturals >=
            k x wilds; Hand and Foot 2; the house rule ``wilds-at-most-naturals``
            1); 0, no ratio. It stands beside the absolute caps `max_wilds` and
            `min_naturals`.
        extra_naturals: With wild cards, a natural meld holds at least this many
            naturals beyond the ratio's (naturals >= k x wilds + extra): with a
            ratio of 1 and 1 extra, more naturals than wild cards (Hand and Foot's
            ``wild-limit-three``). 0 by default.
        max_size: Cards a meld may hold at most (``None``: no limit).
        canasta_size: Cards that make a meld a canasta.
        wild_melds: Melds of wild cards only are allowed.
        natural_only: Ranks whose melds may hold no wild card (now: see
            ``wilds_only_when_opening``).
        black_threes_when_going_out: A player going out may meld 3 or 4 black
            threes (no wild cards).
        closed_at_canasta: A natural rank is closed for the rest of the hand,
            to both sides, once either side's meld of it reaches canasta size
            (house rule ``dead-ranks``): no new meld of it, no card added to any
            meld of it, no pile take with it on top. Needs ``max_size`` equal to
            ``canasta_size`` (a canasta's own rank is closed at once).
        book_makes_room: A meld that reaches canasta size is a *book*: closed for
            the rest of the hand (no card joins it) and set apart from the side's
            melds, so that the side may start a new meld of its rank (a new wild
            meld after a wild book). A side holds at most one incomplete meld of a
            rank at a time, and any number of books of it (Hand and Foot). Needs
            ``max_size`` equal to ``canasta_size``.
        add_to_books: With ``book_makes_room``: natural cards of a rank may be
            added to the side's clean or dirty books of that rank (Hand and
            Foot's ``add-to-books``), never a wild card and nothing to a wild
            book; a pile take's meld (top card and shown pair) may go onto such a
            book too (`canasta.Meld` and `canasta.TakePile` with ``book=True``).
            A book so grown keeps its class and bonus, each added card counts
            its value, no book is made by it, and only a side that has opened
            adds to its books. False by default.
        several_melds: With ``book_makes_room``: a side may hold several melds of
            one kind (a natural rank, or wild melds), incomplete ones included,
            and a meld from the hand may start a new one beside them; a pile
            take's meld (top card and shown pair) always starts a new one (the
            Pierson family's game, Hand and Foot's ``pierson-family``). The
            side's open melds of a kind are numbered from 0 in the order made (a
            book leaves the numbering), and `canasta.Meld.slot` names one (the
            next number starts a new meld). False by default.
        wilds_onto_books: With ``add_to_books``: wild cards may also be added to
            a dirty (mixed) book while it then holds at most ``max_wilds`` wild
            cards, never to a clean or wild book (`canasta.Meld` with
            ``book=True`` names the book by ``slot``: the side's books of the
            rank, numbered from 0 in the order made). False by default.
        closed: Ranks closed now. The engine adds to it during a hand (see
            `Rules.during_hand`); a rule set may also close ranks for good.
        wilds_only_when_opening: Ranks whose meld takes wild cards only in the
            side's opening turn, from the hand (house rule ``aces-pure``): a
            meld of them formed by taking the pile stays natural that turn, and
            one with no wild card when a later turn starts never takes one. The
            engine adds such ranks to ``natural_only`` for the turns they are
            locked in.
        wilds_need_naturals: If above 0, after the side's opening turn a wild
            card joins a natural meld only if the meld then holds at least this
            many naturals (house rule ``rule-of-five``: 5); the engine sets
            `wild_floors` for each such turn.
        no_mixed_opening_canasta: No mixed canasta may be completed in the
            side's opening turn (``rule-of-five``); the engine sets `mixed_cap`
            for that turn.
        wild_meld_first: While the side's wild meld is incomplete, no wild card
            joins any of its natural melds (``rule-of-five``).
        wild_floors: The meld state of a later turn under `wilds_need_naturals`:
            for each kind, the wild cards the side's meld of it held when the turn
            began (a meld with fewer naturals than needed keeps those and takes no
            more); empty while the rule is not in force.
        mixed_cap: The meld state of an opening turn under
            `no_mixed_opening_canasta`: a meld holding a wild card has at most
            this many cards (0: no cap).
        special_ranks: Natural ranks whose natural canastas are a class of their
            own, `CanastaClass.SPECIAL`, not `CanastaClass.NATURAL`: a going-out
            quota counts them apart (`GoingOutRules.canastas_by_class`) and their
            bonus is `CanastaBonuses.natural_by_rank`'s (the Pierson family's
            natural sevens: 1500, one needed beside one other clean book). Their
            mixed canastas stay `CanastaClass.MIXED`. Empty by default.
        special_bits: `special_ranks` as bits (``1 << rank``), for the engine.
    """

    min_size: int = 3
    min_naturals: int = 2
    max_wilds: int | None = 3
    naturals_per_wild: int = field(default=0, validator=_non_negative)
    extra_naturals: int = field(default=0, validator=_non_negative, kw_only=True)
    add_to_books: bool = field(default=False, kw_only=True)
    several_melds: bool = field(default=False, kw_only=True)
    wilds_onto_books: bool = field(default=False, kw_only=True)
    max_size: int | None = None
    canasta_size: int = 7
    wild_melds: bool = False
    natural_only: frozenset[Kind] = frozenset()
    black_threes_when_going_out: bool = True
    closed_at_canasta: bool = False
    book_makes_room: bool = False
    closed: frozenset[Kind] = frozenset()
    wilds_only_when_opening: frozenset[Kind] = frozenset()
    wilds_need_naturals: int = 0
    no_mixed_opening_canasta: bool = False
    wild_meld_first: bool = False
    wild_floors: tuple[int, ...] = ()
    mixed_cap: int = 0
    special_ranks: frozenset[Kind] = field(default=frozenset(), kw_only=True, validator=_natural_ranks)
    #: Whether a hand's meld state (`closed`, `wild_floors`, `mixed_cap`) is set: one flag for `is_valid`.
    has_meld_state: bool = field(init=False, eq=False, repr=False)

    special_bits: int = field(init=False, eq=False, repr=False)

    @has_meld_state.default
    def _has_meld_state(self) -> bool:
        return bool(self.closed or self.wild_floors or self.mixed_cap)

    @special_bits.default
    def _special_bits(self) -> int:
        bits = 0
        for kind in self.special_ranks:
            bits |= 1 << int(kind)
        return bits

    def with_state(
        self,
        *,
        natural_only: frozenset[Kind],
        closed: frozenset[Kind],
        wild_floors: tuple[int, ...],
        mixed_cap: int,
    ) -> MeldRules:
        """These meld rules with another hand meld state (see `canasta.Rules.during_hand`).

        What ``attrs.evolve`` gives with these four fields, made by one call of the
        constructor: the engine makes one whenever a hand meets a new meld state.

        Args:
            natural_only: Ranks whose melds may hold no wild card.
            closed: Ranks closed now.
            wild_floors: The floors of a later turn under rule-of-five (``()``: none).
            mixed_cap: The opening turn's cap under rule-of-five (0: none).

        Returns:
            The meld rules.
        """
        if type(self) is not MeldRules:  # (a subclass may add fields: the generic way)
            return evolve(self, natural_only=natural_only, closed=closed, wild_floors=wild_floors, mixed_cap=mixed_cap)
        return MeldRules(  # (every field in order: `tests/test_club_speed_design.py` checks the order)
            self.min_size,
            self.min_naturals,
            self.max_wilds,
            self.naturals_per_wild,
            self.max_size,
            self.canasta_size,
            self.wild_melds,
            natural_only,
            self.black_threes_when_going_out,
            self.closed_at_canasta,
            self.book_makes_room,
            closed,
            self.wilds_only_when_opening,
            self.wilds_need_naturals,
            self.no_mixed_opening_canasta,
            self.wild_meld_first,
            wild_floors,
            mixed_cap,
            extra_naturals=self.extra_naturals,
            add_to_books=self.add_to_books,
            several_melds=self.several_melds,
            wilds_onto_books=self.wilds_onto_books,
            special_ranks=self.special_ranks,
        )

    def book_takes(self, naturals: int, wilds: int) -> bool:
        """Whether a dirty book may hold these cards after wild cards are added (`wilds_onto_books`).

        At most ``max_wilds`` wild cards, and the naturals the ratio asks for (``naturals_per_wild``,
        ``extra_naturals``); a book's size is not capped.

        Args:
            naturals: The book's naturals after the addition.
            wilds: Its wild cards after the addition.

        Returns:
            True if the book may hold them.
        """
        if self.max_wilds is not None and wilds > self.max_wilds:
            return False
        return not self.naturals_per_wild or naturals >= self.naturals_per_wild * wilds + self.extra_naturals

    def is_valid(self, rank: int, naturals: int, twos: int, jokers: int) -> bool:
        """Whether a meld with these contents may be made now (laid, or reached by adding cards).

        A meld of a rank in `closed` may not: it stays as it is. Only the
        natural ranks (4 to ace), ``BLACK_THREE`` and ``JOKER`` (a wild meld)
        are meld ranks: 2s and red threes never are (the rule book, "Melds"),
        nor is any number outside the kinds, so the engine and this predicate
        agree on every rank.

        Args:
            rank: The meld's kind (a natural rank, ``BLACK_THREE``, or ``JOKER``
                for a wild meld).
            naturals: Natural cards (or black threes) in it.
            twos: 2s in it.
            jokers: Jokers in it.

        Returns:
            True if the meld obeys every limit.
        """
        wilds = twos + jokers
        size = naturals + wilds
        if size < self.min_size:
            return False
        if self.max_size is not None and size > self.max_size:
            return False
        if rank == JOKER:  # (int constants: an enum member lookup is slow, and this runs per candidate)
            return self.wild_melds and naturals == 0
        if rank == BLACK_THREE:
            return self.black_threes_when_going_out and wilds == 0 and 3 <= naturals <= 4
        if naturals < self.min_naturals or not BLACK_THREE < rank < KIND_COUNT:
            return False  # (2s, red threes and non-kinds are never a meld's rank)
        if wilds:
            if rank in self.natural_only or (self.max_wilds is not None and wilds > self.max_wilds):
                return False
            if naturals < self.naturals_per_wild * wilds + self.extra_naturals:
                return False
        return not self.has_meld_state or self._state_allows(rank, naturals, wilds, size)

    def _state_allows(self, rank: int, naturals: int, wilds: int, size: int) -> bool:
        """The hand's meld state: closed ranks (dead-ranks), and rule-of-five's floors and opening cap."""
        if rank in self.closed:
            return False
        if wilds:
            if self.mixed_cap and size > self.mixed_cap:
                return False  # rule-of-five: no mixed canasta in the opening turn
            floors = self.wild_floors
            if floors and naturals < self.wilds_need_naturals and wilds > floors[rank]:
                return False  # rule-of-five: a wild card joins a meld of fewer naturals only in the opening turn
        return True


@frozen
class CanastaBonuses:
    """Canasta bonuses (rule book: "Scoring"): a bonus for each `CanastaClass`, with overrides.

    Attributes:
        natural: Bonus of a canasta with no wild card.
        mixed: Bonus of a canasta with at least one wild card.
        natural_by_rank: ``(rank, bonus)`` overrides for natural canastas of a rank.
        wild_by_jokers: ``(jokers, bonus)`` for wild canastas with exactly that
            many jokers.
        wild: Bonus of any other wild canasta.
        sequence: Bonus of a sequence canasta (`CanastaClass.SEQUENCE`: the
            sequence games' samba or escalera, 1500; no rule set of today's
            engine makes one).
    """

    natural: int = 500
    mixed: int = 300
    natural_by_rank: tuple[tuple[Kind, int], ...] = ()
    wild_by_jokers: tuple[tuple[int, int], ...] = ()
    wild: int = 0
    sequence: int = field(default=0, kw_only=True)

    def bonus(self, rank: int, naturals: int, twos: int, jokers: int) -> int:
        """The bonus of a completed canasta.

        Args:
            rank: The meld's kind (``JOKER`` for a wild meld).
            naturals: Its natural cards.
            twos: Its 2s.
            jokers: Its jokers.

        Returns:
            The bonus in points.
        """
        if rank == Kind.JOKER:
            for count, value in self.wild_by_jokers:
                if count == jokers:
                    return value
            return self.wild
        if twos or jokers:
            return self.mixed
        for kind, value in self.natural_by_rank:
            if kind == rank:
                return value
        return self.natural


@frozen
class ThreeRules:
    """Bonus threes: which threes are bonus cards and how they score (rule book: "Threes").

    Attributes:
        schedule: Score for holding ``n`` bonus threes of one colour, indexed
            by ``n``. Counts past the end score the last entry plus 100 for
            each extra three.
        sign: When the score counts for the side, against it, or not at all.
        black_threes_are_bonus: Black threes are laid out and replaced like
            red threes (and scored per colour with the same schedule).
        keep_one: While a player's side has not melded, he keeps one bonus
            three in hand instead of laying it out (the club form's special
            hands, "Keeping a three", for the Straight): it cannot be melded
            or discarded; he may lay it out in his turn before discarding, and it is
            laid out when his side opens (see `canasta.keeping`).
        red_threes_are_bonus: Red threes are bonus cards, laid out and replaced
            (every variant today). False: they are ordinary cards of the hand
            (Hand and Foot's ``red-threes-dead``): never laid out (at the deal,
            in a draw, a pile take or a packet picked up), never melded, and
            discardable (whether one on top blocks the pile is
            `PileRules.blocked_top`'s); they score `red_held` each when left in
            a hand or a packet still down, and the schedule never applies to them.
        red_held: Where red threes are not bonus cards: what each one left in a
            hand or a packet still down scores, in the bonus-threes row of the
            score (`canasta.SideScore.red_threes`), not as a card value
            (``red-threes-dead``: -500). 0 by default.
        canastas_for_plus: With `ThreeSign.NEGATIVE_WITHOUT_CANASTA`, the
            canastas a side needs for its bonus threes to count plus (1 by
            default, Cuban's; Samba and Bolivia 2, SEQUENCES.md §9.10).
    """

    schedule: tuple[int, ...] = (0, 100, 200, 300, 800)
    sign: ThreeSign = ThreeSign.NEGATIVE_WITHOUT_MELD
    black_threes_are_bonus: bool = False
    keep_one: bool = False
    red_threes_are_bonus: bool = True
    red_held: int = 0
    canastas_for_plus: int = field(default=1, validator=_non_negative, kw_only=True)

    def score(self, count: int) -> int:
        """Unsigned score of ``count`` bonus threes of one colour.

        Args:
            count: How many threes.

        Returns:
            Points before the sign rule applies.
        """
        if count < len(self.schedule):
            return self.schedule[count]
        return self.schedule[-1] + 100 * (count - len(self.schedule) + 1)


@frozen
class BlackThreeRules:
    """Black threes beyond the stop-card effect (rule book: "Threes"; Cuban sets them aside).

    Attributes:
        no_discard_first_round: Black threes may not be discarded during the
            first round of turns.
        set_aside_from_pile: Black threes in a taken pile are set aside for the
            taking side instead of going to hand.
        set_aside_schedule: Score of ``n`` set-aside black threes, by ``n``.
        in_hand_penalty: What each black three left in hand costs.
        melded_count_with_set_aside: Black threes melded when going out join the
            set-aside ones: the side scores ``set_aside_schedule`` for the total
            instead of their card values (Cuban: "100 for all four").
    """

    no_discard_first_round: bool = False
    set_aside_from_pile: bool = False
    set_aside_schedule: tuple[int, ...] = (0, 5, 10, 15, 20)
    in_hand_penalty: int = 5
    melded_count_with_set_aside: bool = False


@frozen
class GoingOutRules:
    """Going out (rule book: "Going out", "Asking permission").

    Attributes:
        canastas_required: Canastas of any class the side needs to go out (the
            quota's "any" part; classic: 1).
        canastas_by_class: The quota's part counted per class: ``(class,
            count)`` pairs, each the canastas of that `CanastaClass` the side
            needs; a canasta counts only for its own class (Hand and Foot: 2
            natural, 2 mixed, 1 wild). Together with `canastas_required` (every
            canasta counts toward it) this is the going-out quota; see
            `quota_met`. Canastas completed in the going-out turn count.
        final_discard_required: Going out must end with a discard.
        bonus: Bonus for going out.
        concealed_bonus: Bonus for going out concealed, or ``None`` if there is
            no concealed bonus.
        permission: Whether the partner may be asked first.
        not_with_incomplete: Kinds whose incomplete **natural** meld (no wild
            card) keeps the side from going out; ``Kind.JOKER`` names the wild
            meld, which keeps it whenever incomplete (the club rules of modern
            American: aces, sevens and the wild meld).
    """

    canastas_required: int = 1
    canastas_by_class: tuple[tuple[CanastaClass, int], ...] = field(default=(), converter=_class_counts)
    final_discard_required: bool = False
    bonus: int = 100
    concealed_bonus: int | None = 200
    permission: Permission = Permission.OPTIONAL
    not_with_incomplete: frozenset[Kind] = frozenset()

    def quota_met(self, by_class: Sequence[int]) -> bool:
        """Whether a side with these canastas has the going-out quota.

        Args:
            by_class: The side's canastas by class, indexed in `CanastaClass`
                order (natural, mixed, wild, sequence).

        Returns:
            True if they reach `canastas_required` in all and every count of
            `canastas_by_class`.
        """
        if sum(by_class) < self.canastas_required:
            return False
        return all(by_class[_CLASSES.index(cls)] >= need for cls, need in self.canastas_by_class)

    def quota_text(self) -> str:
        """The quota in words, e.g. ``"1 canasta"`` or ``"2 natural, 2 mixed and 1 wild canasta"``."""
        parts = [f"{need} {cls.value}" for cls, need in self.canastas_by_class if need]
        if self.canastas_required and (not parts or self.canastas_required > sum(n for _, n in self.canastas_by_class)):
            parts.append(f"{self.canastas_required} of any class" if parts else str(self.canastas_required))
        if not parts:
            return "no canasta"
        text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        total = sum(n for _, n in self.canastas_by_class) if self.canastas_by_class else self.canastas_required
        return f"{text} canasta" + ("" if max(total, self.canastas_required) == 1 else "s")

    def blocked_by(self, rank: int, naturals: int, twos: int, jokers: int, canasta_size: int) -> bool:
        """Whether this meld, left as it is, keeps its side from going out (`not_with_incomplete`).

        Args:
            rank: The meld's kind (``JOKER`` for the wild meld).
            naturals: Its natural cards.
            twos: Its 2s.
            jokers: Its jokers.
            canasta_size: Cards that make a canasta.

        Returns:
            True for an incomplete natural meld (or wild meld) of a listed kind.
        """
        size = naturals + twos + jokers
        return 0 < size < canasta_size and rank in self.not_with_incomplete and (rank == JOKER or not (twos or jokers))


@frozen
class ExhaustionRules:
    """What happens when the stock runs out (rule book: "Stock exhaustion").

    Attributes:
        continue_with_discards: Play goes on while players take discards;
            otherwise the hand ends when a player is due to draw from an
            empty stock.
        forced_take: A player must take the discard if it can be added to one
            of the side's melds and the pile is not frozen for them.
        forced_take_by_layoff: During exhaustion a matching discard may be
            taken by adding it to a meld even where the pile rules otherwise
            forbid layoffs (Cuban).
        last_red_three_may_meld: When the last stock card is a red three, the
            player may still meld (but not discard) before the hand ends.
        red_three_last_ends_hand: A red three drawn as the last stock card ends
            the hand at once (classic). Otherwise (Hand and Foot §8.9) it is laid
            out without replacement, the draw takes what the stock held, and the
            turn goes on; a player it leaves with no card to discard and no way
            to go out ends the turn without discarding (`canasta.EndHand`), and
            the hand then ends by exhaustion.
        reshuffle_pile_at: When a player is due to start a turn with an empty
            stock and the discard pile holds at least this many cards, every
            pile card but the top one is shuffled into a new stock and the turn
            begins (Hand and Foot's ``reshuffle-discards``: 3); otherwise the
            rules above apply. 0 (the default): never. At least 3 when set, with
            a draw of 2 cards or more (`canasta.compile_rules` refuses others):
            then every hand ends, as the stock and the pile together lose a card
            for good at the first stock draw from each new stock. The shuffle
            is reproducible: it is drawn from the hand's ``shuffle_seed`` (drawn
            from the deal's seed, or ``build_position``'s ``stock_seed``) and
            the number of the reshuffle, so a replayed record reshuffles alike;
            every player knows which cards the new stock holds, not their order.
    """

    continue_with_discards: bool = True
    forced_take: bool = True
    forced_take_by_layoff: bool = False
    last_red_three_may_meld: bool = False
    red_three_last_ends_hand: bool = True
    reshuffle_pile_at: int = field(default=0, validator=_non_negative)


@frozen
class PartnershipRules:
    """Partnerships that form during a hand (the three-player house rule ``cutthroat``).

    Attributes:
        first_taker_alone: The first player in a hand to take the discard pile
            (or, if nobody has, the player who goes out) plays alone for the
            rest of the hand, and every other player joins one side that shares
            melds: their melds of one rank combine into one meld. Each player
            keeps a personal score and minimum and is credited the side's result.
        threes_per_player: On such a side, each player's red threes score for
            that player alone rather than for the side.
    """

    first_taker_alone: bool = False
    threes_per_player: bool = True


@frozen
class PacketRules:
    """Packets after the hand: a player's further cards, dealt face down and picked up one after another.

    Hand and Foot (the rule book's §8.1, §8.7) deals each player a hand and a
    *foot*: a second packet that nobody sees, its owner included, until it is
    picked up. Today's variants deal no packet (``sizes`` empty), and nothing
    of this applies to them. With packets:

    - *The deal.* After the hands, each packet is dealt the same way, one card
      at a time to each player from the left of the dealer, ``sizes[0]`` cards
      for the first packet, then ``sizes[1]`` for the second, and so on.
    - *Picking up* (§8.7). A player plays from the current packet (the hand
      first) until it is empty. The next packet is picked up **at once**, in the
      same turn, when a meld (or the pickup meld of a pile take) empties it, and
      the turn goes on; **at the start of the player's next turn**, before the
      draw, when a discard emptied it. An empty stock ends the hand first
      (§8.9, E11). The packet's red threes are laid out and replaced, as at the
      deal (without replacement once the stock is empty).
    - *Going out* needs the last packet: a player with a packet still down who
      empties the hand picks the packet up instead (condition 1 of §8.8);
      discarding the last card of a hand with a packet down is not going out
      and needs no going-out conditions. With ``partners_first``, every partner
      must also hold the last packet (condition 3), to go out and to ask.
    - *Legality* never depends on a packet's unseen cards (§8.10 E8): emptying the
      hand with a packet down completes the turn (the packet's cards end it), but
      only once the side has opened (a provisional opening meld never takes the
      last card of a hand, §8.5).
    - *The end of the hand* (§8.11): the cards of a packet still down count
      against the side like cards held, and each red three in it scores
      ``three_down``.

    Attributes:
        sizes: Cards in each packet after the hand, in pick-up order (empty: none).
        partners_first: Going out, and asking permission, need every partner of the
            player's side to hold the last packet (Hand and Foot's condition 3).
        three_down: Points for each red three still in a packet down when the hand
            ends (Hand and Foot: -100).
        names: What each packet after the hand is called, for display (Hand and Foot:
            ``("foot",)``); empty: "packet 2", "packet 3", ... (`name_of`).
        meld_picks_up: A meld that empties the hand picks up the next packet at once and
            the turn goes on (§8.7). False: emptying the hand ends the turn at once, whichever
            way (after a meld there is no discard), and the packet is picked up at the start of
            the player's next turn (Hand and Foot's ``foot-ends-turn``).
        after_first_canasta: A packet is *earned* by a canasta (Hand and Foot's
            ``foot-after-first-book``): until the player has completed a canasta (a book)
            by their own action in this hand (a meld, or the pickup meld of a pile take; a
            partner's canasta does not count), no meld or discard may empty the hand (§0: a
            meld that would leave the turn unable to end so is refused too). Once the player has,
            the pick-up events above apply as written, and from the start of any later turn
            of the player, before the draw, the player may also pick the next packet up at
            will with `canasta.PickUpPacket` (the hand need not be empty: both are then held
            as one). `canasta.HandState.first_canasta` records the turn of each player's first
            canasta; it earns every later packet too. Off by default: emptying the hand is the
            only way to the packet.
        replace_threes: The red threes (bonus threes) of a packet picked up are replaced from
            the stock, as at the deal (§8.6). False: they are laid out without replacement (the
            Pierson family's foot); `canasta.compile_rules` then asks that every packet hold at
            least 2 cards more than the deck's bonus threes, so that no player is left unable to
            end a turn by it. True by default.
    """

    sizes: tuple[int, ...] = field(default=(), converter=tuple)
    partners_first: bool = False
    three_down: int = 0
    names: tuple[str, ...] = field(default=(), converter=tuple)
    meld_picks_up: bool = True
    after_first_canasta: bool = False
    replace_threes: bool = field(default=True, kw_only=True)

    def name_of(self, index: int) -> str:
        """The display name of the packet at ``index`` in `sizes` (0: the first after the hand).

        Args:
            index: The packet's place after the hand, from 0.

        Returns:
            Its name in `names`, or ``"packet N"`` (the hand being packet 1).
        """
        if 0 <= index < len(self.names):
            return self.names[index]
        return f"packet {index + 2}"


@frozen
class Rules:
    """A variant's compiled rules: every answer of its hooks, frozen.

    Build one with `canasta.compile_rules` (or let `canasta.Game` do it);
    the engine only reads it.

    Attributes:
        variant: Name of the variant.
        house_rules: Names of the house rules stacked on it.
        players: Number of players.
        sides: Side of each seat.
        deck: Packs and jokers.
        hand_size: Cards dealt to each player.
        draw_count: Cards drawn from the stock per turn.
        upcard: How the pile starts.
        card_values: Value of each kind (indexed by `Kind`) for counts and scoring.
        minimums: The initial-meld minimum table.
        initial_meld: How the initial meld is counted.
        pile: Freezing and taking the pile.
        melds: Meld limits.
        canasta_bonuses: Canasta bonuses.
        threes: Bonus-three scoring.
        black_threes: Black-three handling.
        going_out: Going out.
        exhaustion: Stock exhaustion.
        game_length: When the game ends (a target total, a number of deals,
            or both); `target_score` reads its target.
        incomplete_meld_penalties: ``(rank, penalty)``: a side holding an
            incomplete meld of that rank at the end of the hand loses the
            penalty (``JOKER`` is the wild meld).
        incomplete_natural_meld_penalties: ``(rank, penalty)``: a side holding
            an incomplete meld of that rank with no wild card at the end of the
            hand loses the penalty.
        held_card_penalties: ``(kind, at_least, penalty)``: a player holding
            ``at_least`` or more cards of ``kind`` at the end of the hand costs
            the side ``penalty``, besides the cards' values (once per player and
            entry).
        special_hands: The special hands a side may declare (`canasta.SpecialHand`;
            none unless a rule set lists them).
        partnerships: Partnerships formed during a hand.
        packets: Packets dealt after the hand (Hand and Foot's foot; none by default).
        meld_types: The kinds of meld of a rule set that melds by meld type
            (`canasta.meldtypes`: groups, sequences, wild melds, black-three
            groups; the sequence games, issue 34). Empty (the default): melds of
            one rank as ``melds`` states them, today's variants.
        rule_sections: ``(code, section)`` pairs: the rule book's section that
            states each rule code's rule for this rule set (the merged answers
            of the hook ``canasta_rule_sections``); see `section`.
        player_counts: Every number of players the variant plays, sorted
            (the hook ``canasta_player_counts``; ``players`` is the one
            chosen). Empty for rules built by hand: only ``players``. Not
            part of equality: it does not change play. See `playable_counts`.
    """

    variant: str
    house_rules: tuple[str, ...]
    players: int
    sides: tuple[int, ...]
    deck: DeckSpec
    hand_size: int
    draw_count: int
    upcard: Upcard
    card_values: tuple[int, ...]
    minimums: MeldMinimums
    initial_meld: InitialMeldRules
    pile: PileRules
    melds: MeldRules
    canasta_bonuses: CanastaBonuses
    threes: ThreeRules
    black_threes: BlackThreeRules
    going_out: GoingOutRules
    exhaustion: ExhaustionRules
    game_length: GameLength
    incomplete_meld_penalties: tuple[tuple[Kind, int], ...] = ()
    incomplete_natural_meld_penalties: tuple[tuple[Kind, int], ...] = ()
    held_card_penalties: tuple[tuple[Kind, int, int], ...] = ()
    special_hands: tuple[SpecialHand, ...] = ()
    partnerships: PartnershipRules = PartnershipRules()
    packets: PacketRules = PacketRules()
    meld_types: tuple[MeldType, ...] = ()
    rule_sections: tuple[tuple[RuleCode, RuleSection], ...] = field(default=(), converter=_sections, eq=False)
    player_counts: tuple[int, ...] = field(default=(), eq=False)

    def section(self, code: RuleCode) -> RuleSection | None:
        """The rule book's section that states the rule behind a code, for these rules.

        Args:
            code: The rule code.

        Returns:
            The section (a built-in variant's page, a house rule's page, or the
            page a third-party variant names), or ``None`` for rules built
            without sections.
        """
        for known, section in self.rule_sections:
            if known is code:
                return section
        return None

    def during_hand(self, melds: MeldRules) -> Rules:
        """These rules as dealt, with the meld rules holding a hand's meld state: interned (equal ones share one).

        The engine uses it when a rank closes (``closed_at_canasta``: `MeldRules.closed`)
        and when a turn begins under the club rules (``wilds_only_when_opening``:
        `MeldRules.natural_only`; ``rule-of-five``: `MeldRules.wild_floors`,
        `MeldRules.mixed_cap`); every legality check then reads them from the meld rules.

        Args:
            melds: The meld rules as dealt with those fields set (``attrs.evolve``).

        Returns:
            The rules; `as_dealt` gives back the rules they came from.
        """
        base = self.as_dealt
        if melds == base.melds:
            return base
        # The hand's meld states, kept by the rules dealt (by identity: hashing whole rules is what cost, see
        # `_DURING`) and found by the meld rules alone, whose hash is cached.
        kept = _DURING.get(id(base))
        if kept is None or kept[0] is not base:
            kept = _DURING[id(base)] = (base, {})
        states = kept[1]
        found = states.get(melds)
        if found is None:
            # Bounded without eviction: at most one entry per rule set and meld state met in play.
            found = states[melds] = base._with_melds(melds)
            _DEALT[id(found)] = base
        return found

    def _with_melds(self, melds: MeldRules) -> Rules:
        """A copy of these rules with other meld rules: every other field is these rules' own object.

        What ``attrs.evolve(self, melds=melds)`` gives, without running ``__init__`` again (the
        fields are already converted, and `Rules` has no validator): a copy of the slots, then the
        meld rules set.
        """
        copier = _FIELD_COPIERS.get(type(self))
        if copier is None:
            names = tuple(f.name for f in fields(type(self)) if f.name != "melds")
            copier = _FIELD_COPIERS[type(self)] = (names, attrgetter(*names))
        names, values = copier
        found = object.__new__(type(self))  # (what `copy.copy` does, without its generic protocol)
        set_field = object.__setattr__  # (frozen: a new object, set before anyone sees it)
        for name, value in zip(names, values(self), strict=True):  # (the values read by one call: ``attrgetter``)
            set_field(found, name, value)
        set_field(found, "melds", melds)
        return found

    @property
    def as_dealt(self) -> Rules:
        """The rules at the deal of a hand: without the meld state of a hand (see `during_hand`)."""
        return _DEALT.get(id(self), self)

    @property
    def target_score(self) -> int | None:
        """The total that ends the game (``game_length.target_score``; ``None``: the game has no target)."""
        return self.game_length.target_score

    @property
    def playable_counts(self) -> tuple[int, ...]:
        """Every number of players these rules' variant plays, sorted (``(players,)`` for rules built by hand)."""
        return self.player_counts or (self.players,)

    @property
    def side_count(self) -> int:
        """Number of sides."""
        return max(self.sides) + 1

    @property
    def has_partners(self) -> bool:
        """True if some side has more than one player."""
        return len(set(self.sides)) < len(self.sides)

    def seats_of(self, side: int) -> tuple[int, ...]:
        """Seats belonging to a side, in turn order.

        Args:
            side: The side.

        Returns:
            Its seats.
        """
        return tuple(s for s, sd in enumerate(self.sides) if sd == side)


#: `Rules.during_hand`'s interned rules: by the id of the rules as dealt, those rules (kept alive here, so the
#: ids in both tables stay theirs) and their rules with each meld state met in play, by the meld rules.
_DURING: dict[int, tuple[Rules, dict[MeldRules, Rules]]] = {}
#: The rules as dealt, by the id of rules with the meld state of a hand.
_DEALT: dict[int, Rules] = {}
#: The attrs field names of `Rules` and its subclasses but ``melds``, and a getter of their
#: values (`Rules._with_melds`).
_FIELD_COPIERS: dict[type, tuple[tuple[str, ...], Callable[[Rules], tuple[object, ...]]]] = {}
