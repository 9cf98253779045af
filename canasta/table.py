"""The table of one hand: every card's place, the turn's bookkeeping, derived facts.

`TableState` is the data of `canasta.HandState`: flat lists of card ids and
counts (fast to copy), the low-level card moves, and read-only facts such as
canastas, freezing and minimums. Legality lives in `canasta.legality` (with the
turn-completion oracle in `canasta.completion`), the transitions in
`canasta.transitions`; all three are plain functions of this data.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Final, Self, cast

from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, RED_THREE, SECOND_MELD, TWO, Card, Deck, Kind
from canasta.completion import OpeningsFound, book_room, has_clean_meld
from canasta.rulefacts import RankKey, RuleFacts, hand_rules, meld_state_facts, rank_keys, rank_set, rule_facts
from canasta.rules import CanastaClass, MeldRules, Rules, canasta_class_index

if TYPE_CHECKING:
    from canasta.actions import Action, Meld

__all__ = [
    "ANSWER_PHASE",
    "CACHE_FIELDS",
    "DRAW_PHASE",
    "MELD_ADDITIONS_CACHE",
    "MELD_PHASE",
    "OVER_PHASE",
    "PICKLED_FIELDS",
    "AdditionsTable",
    "BuiltAdditions",
    "HandEnd",
    "MeldAdditions",
    "MeldState",
    "MeldTables",
    "Phase",
    "TableState",
    "data_fields",
    "meld_counts",
    "meld_tables",
    "restore_table",
]


class MeldAdditions:
    """Every valid addition to a meld in one situation, for legal-move generation (`canasta.legality`).

    Attributes:
        most: The most cards any of them adds.
        actions: The `canasta.Meld` actions, in the order of ``shapes``.
        shapes: Each addition as ``(naturals, twos, jokers, cards)``.
    """

    __slots__ = ("actions", "most", "shapes")

    def __init__(self, most: int, actions: tuple[Meld, ...], shapes: tuple[tuple[int, int, int, int], ...]) -> None:
        self.most = most
        self.actions = actions
        self.shapes = shapes


#: A meld's valid additions by the cards available: indexed by the naturals of its
#: rank held (below 64), then keyed by ``twos * 64 + jokers`` held.
AdditionsTable = list[dict[int, MeldAdditions] | None]

#: The widest new-meld entries of one kind built so far (none contained in another):
#: ``(naturals, twos, jokers available, entry)``.
BuiltAdditions = list[tuple[int, int, int, MeldAdditions]]



class MeldTables:
    """The meld-addition tables of one kind under one `canasta.rulefacts.RankKey` (see `MELD_ADDITIONS_CACHE`).

    A class, not a tuple: compiled code reads its fields natively, and it keeps its identity
    (a compiled engine would box a tuple's items anew on each read).

    Attributes:
        on_table: For a meld on the table, by its contents ``(rank, naturals, twos, jokers)``:
            its additions by the cards available (an `AdditionsTable`).
        new: For new melds, by wild clamp (``twos * 64 + jokers``): entries by the naturals held.
        built: The widest new-meld entries built so far (`BuiltAdditions`).
    """

    __slots__ = ("built", "new", "on_table")

    def __init__(self) -> None:
        self.on_table: dict[tuple[int, int, int, int], AdditionsTable] = {}
        self.new: dict[int, list[MeldAdditions | None]] = {}
        self.built: BuiltAdditions = []


#: Canasta classes (`canasta.CanastaClass`): the length of a count by class.
CLASS_COUNT: Final = len(CanastaClass)

#: The slots of a `TableState` that are caches, not state (legal actions, openings found this turn,
#: valid meld additions): tools that compare or show states field by field leave them out.
CACHE_FIELDS: Final = frozenset({"_legal", "_openings", "_combos"})

#: Whether this module runs compiled by mypyc or as its Python source (`TableState._forget` is written for each).
_COMPILED: Final = not __file__.endswith(".py")

#: Valid meld additions of a kind by its `canasta.rulefacts.RankKey` (the meld rules without a
#: hand's meld state, the kind, and the kind's part of that state): the club rules make new meld
#: rules during a hand, and a kind whose part did not change keeps its tables. Filled by
#: `canasta.legality`: for a meld on the table, by its contents ``(rank, naturals, twos,
#: jokers)`` then by the cards available (an `AdditionsTable`, see `MeldState._additions`),
#: and, for new melds, by wild clamp (``twos * 64 + jokers``) then at the naturals held
#: (fewer than 16: more are not kept), where an entry is filtered from one built for more
#: cards of its kind when there is one (`BuiltAdditions`). At most `_MELD_TABLES_KEPT`
#: keys' tables are kept (see `meld_tables`).
MELD_ADDITIONS_CACHE: Final[dict[RankKey, MeldTables]] = {}
# `meld_tables`' answers by meld rules.
_TABLES_BY_RULES: Final[dict[MeldRules, tuple[MeldTables, ...]]] = {}
_MELD_TABLES_KEPT: Final = 4096


def meld_tables(melds: MeldRules) -> tuple[MeldTables, ...]:
    """By kind, the meld-addition tables of these meld rules (`MELD_ADDITIONS_CACHE`), made empty when new.

    Args:
        melds: The meld rules.

    Returns:
        For each kind, its tables for melds on the table, for new melds, and the widest new-meld
        entries built; meld rules that give a kind the same `canasta.rulefacts.RankKey` share its tables.
    """
    found = _TABLES_BY_RULES.get(melds)
    if found is not None:
        return found
    if len(MELD_ADDITIONS_CACHE) >= _MELD_TABLES_KEPT or len(_TABLES_BY_RULES) >= _MELD_TABLES_KEPT:
        MELD_ADDITIONS_CACHE.clear()  # bound the memory (hands holding tables keep using them)
        _TABLES_BY_RULES.clear()
    by_kind = []
    for key in rank_keys(melds):
        tables = MELD_ADDITIONS_CACHE.get(key)
        if tables is None:
            tables = MELD_ADDITIONS_CACHE[key] = MeldTables()
        by_kind.append(tables)
    found = _TABLES_BY_RULES[melds] = tuple(by_kind)
    return found


def _tables_by_keys(
    keys: tuple[RankKey, ...], near_keys: tuple[RankKey, ...], near: tuple[MeldTables, ...]
) -> tuple[MeldTables, ...]:
    """`meld_tables` of meld rules whose `canasta.rulefacts.rank_keys` are ``keys`` (a new meld state's).

    ``near`` are the tables of the hand's meld state before, whose keys are ``near_keys``: a
    kind that keeps its key keeps its tables.
    """
    if len(MELD_ADDITIONS_CACHE) >= _MELD_TABLES_KEPT:
        MELD_ADDITIONS_CACHE.clear()  # (as `meld_tables`)
        _TABLES_BY_RULES.clear()
    by_kind = []
    for kind in range(KIND_COUNT):
        key = keys[kind]
        if key == near_keys[kind]:
            by_kind.append(near[kind])
            continue
        tables = MELD_ADDITIONS_CACHE.get(key)
        if tables is None:
            tables = MELD_ADDITIONS_CACHE[key] = MeldTables()
        by_kind.append(tables)
    return tuple(by_kind)


# The turn meld states kept per rules dealt (`RuleFacts.turn_states`, `TableState._turn_meld_state`).
_TURN_STATES_KEPT: Final = 4096


class Phase(Enum):
    """Where the acting player is in the turn."""

    #: Draw from the stock or take the pile.
    DRAW = "draw"
    #: Drawn: meld (optional), then discard.
    MELD = "meld"
    #: A partner must answer "may I go out?".
    ANSWER = "answer"
    #: The hand is over.
    OVER = "over"


# The phases as module constants: an enum member lookup (``Phase.DRAW``) costs
# several times a global lookup, and these are read on every action.
DRAW_PHASE: Final = Phase.DRAW
MELD_PHASE: Final = Phase.MELD
ANSWER_PHASE: Final = Phase.ANSWER
OVER_PHASE: Final = Phase.OVER


class HandEnd(Enum):
    """Why a hand ended."""

    WENT_OUT = "went-out"
    STOCK_EXHAUSTED = "stock-exhausted"
    RED_THREE_LAST = "red-three-last"
    SPECIAL_HAND = "special-hand"


class MeldState:
    """A meld on the table (mutable inside the engine; copy before keeping it).

    Attributes:
        rank: The meld's kind (``JOKER`` for a wild meld).
        cards: Card ids in the meld.
        naturals: Natural cards (or black threes).
        twos: 2s.
        jokers: Jokers.
        _additions: A cache for legal-move generation: the valid additions to a
            meld of these contents, by cards available (shared through
            `MELD_ADDITIONS_CACHE`); ``None`` until looked up, and set back to
            ``None`` whenever the contents change.
    """

    __slots__ = ("_additions", "cards", "jokers", "naturals", "rank", "twos")

    def __init__(self, rank: int, cards: list[int], naturals: int, twos: int, jokers: int) -> None:
        self.rank = rank
        self.cards = cards
        self.naturals = naturals
        self.twos = twos
        self.jokers = jokers
        self._additions: AdditionsTable | None = None

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.naturals + self.twos + self.jokers

    def copy(self) -> MeldState:
        """An independent copy."""
        meld = MeldState(self.rank, self.cards[:], self.naturals, self.twos, self.jokers)
        meld._additions = self._additions  # same contents, same additions
        return meld

    def __repr__(self) -> str:
        name = Kind(self.rank).name if self.rank < KIND_COUNT else "SEQUENCE"  # (SEQUENCE_MELD: the sequence games)
        return f"MeldState({name}, n={self.naturals}, twos={self.twos}, jokers={self.jokers})"

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle the contents (the additions cache is looked up again): both engines alike."""
        return (MeldState, (self.rank, self.cards, self.naturals, self.twos, self.jokers))


class TableState:
    """The data of a hand (see `canasta.HandState` for the public class)."""

    __slots__ = (
        "_combos",
        "_legal",
        "_openings",
        "added_to_old",
        "answer",
        "asker",
        "asks_used",
        "blocks_out",
        "books",
        "bound",
        "closes_ranks",
        "concealed",
        "counts",
        "deal_number",
        "dealer",
        "dealt",
        "deck",
        "declared",
        "drew_all_wild",
        "drew_from_stock",
        "end",
        "facts",
        "final_meld_only",
        "first_canasta",
        "hands",
        "keeps_threes",
        "kinds",
        "known",
        "locks_wilds",
        "log",
        "meld_numbers",
        "melded_before",
        "melded_this_turn",
        "melds",
        "minimums",
        "new_ranks",
        "opened",
        "opens_by_splash",
        "packets",
        "pending_pile",
        "phase",
        "pile",
        "pile_freezers",
        "provisional_count",
        "regrouped",
        "relief_stock",
        "reshuffled",
        "reshuffles",
        "restricts_discards",
        "resume_phase",
        "scores",
        "seat",
        "seating",
        "set_aside",
        "shuffle_seed",
        "sizes",
        "stock",
        "taken_top",
        "threes",
        "turn",
        "turn_books",
        "went_out",
        "wild_meld_first",
    )

    def __init__(
        self,
        rules: Rules,
        deck: Deck,
        dealer: int,
        scores: Sequence[int],
        *,
        deal_number: int = 1,
        _copy_of: TableState | None = None,
    ) -> None:
        """Create an empty table; use `deal` or `build_position` instead.

        ``deal_number`` is the hand's number in the game, from 1: a minimum
        table by deal (`canasta.MeldMinimums.by_deal`) reads it.

        ``_copy_of`` (private, used by `copy`) makes an independent copy of that
        table instead: a class compiled by mypyc cannot be created through
        ``__new__`` without running ``__init__``.
        """
        if _copy_of is not None:
            self._copy_from(_copy_of)
            return
        facts = rule_facts(rules)
        n = facts.players
        sides = facts.side_count
        # The rules the hand was dealt under: every value but the hand's meld state (which its
        # facts hold: ``facts.meld_rules``); `rules` gives both as one rules object.
        self.dealt = rules
        self.facts: RuleFacts = facts  # the values the inner loops read, as plain fields
        self.deck = deck
        self.kinds = deck.kinds
        self.dealer = dealer
        self.scores = list(scores)
        self.deal_number = deal_number
        self.minimums = [facts.minimum_for(s, deal_number) for s in self.scores]
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.pile_freezers = 0
        #: `canasta.ExhaustionRules.reshuffle_pile_at`: the hand's secret source of its reshuffles (drawn from the
        #: deal's seed; never seen by a player), the reshuffles so far, and the cards the last one put into the
        #: stock (public: they were the pile's; a tuple, never changed, so copies and observations share it).
        self.shuffle_seed = 0
        self.reshuffles = 0
        self.reshuffled: tuple[int, ...] = ()
        self.hands: list[list[list[int]]] = [[[] for _ in range(KIND_COUNT)] for _ in range(n)]
        self.counts: list[list[int]] = [[0] * KIND_COUNT for _ in range(n)]
        self.sizes = [0] * n
        #: Per seat, the card ids everyone saw go into that hand (picked up with the
        #: pile) and has not seen leave it since: the public knowledge of the hand.
        self.known: list[list[int]] = [[] for _ in range(n)]
        #: The public action log of the hand: ``(seat, action)`` for every action applied.
        self.log: list[tuple[int, Action]] = []
        self.melds: list[dict[int, MeldState]] = [{} for _ in range(sides)]
        #: Per side, the number its next new meld takes, where melds have identities (`canasta.Rules.meld_types`:
        #: the side's melds are kept by number, and a number is never reused in the hand, SEQUENCES.md §9.3).
        self.meld_numbers = [0] * sides
        #: Per seat, the packets still face down after the hand (`canasta.PacketRules`: Hand and Foot's foot),
        #: each a list of card ids, the next to be picked up first; nobody sees them, their owner included.
        self.packets: list[list[list[int]]] = [[] for _ in range(n)]
        #: Per side, its books in the order made (`canasta.MeldRules.book_makes_room`): melds that reached
        #: canasta size, retired from ``melds`` (which keeps one open meld per rank, for the hot paths) and
        #: never changed in place (add-to-books replaces a book with a grown copy).
        #: Values, not keys: when melds get identities (the sequence games), a book
        #: keeps the identity of the meld it was. Always empty where melds do not become books.
        self.books: list[list[MeldState]] = [[] for _ in range(sides)]
        self.threes: list[list[int]] = [[] for _ in range(n)]
        #: Per seat, the turn (`turn`) in which the player first completed a canasta (a book) by their own
        #: action in this hand, or -1: kept where a packet is earned so (`canasta.PacketRules.after_first_canasta`).
        self.first_canasta: list[int] = [-1] * n
        self.set_aside: list[list[int]] = [[] for _ in range(sides)]
        self.opened = [False] * sides
        self.melded_before = [False] * n
        #: The side (meld-owning unit) of each seat in this hand: the variant's seating,
        #: unless a partnership rule regroups the players (the rule book, cutthroat).
        self.seating = list(facts.sides)
        self.regrouped = False
        self.asks_used = [0] * sides
        self.seat = (dealer + 1) % n
        self.phase = DRAW_PHASE
        self.turn = 0
        self.end: HandEnd | None = None
        self.went_out: int | None = None
        self.concealed = False
        # The special hand declared (its id) and by which seat, once one is.
        self.declared: tuple[int, str] | None = None
        # The club rules' switches (`RuleFacts`, read once per rules): plain data for the inner loops
        # (closes_ranks: dead-ranks; locks_wilds: a turn's meld state, aces-pure and rule-of-five;
        # wild_meld_first: rule-of-five; blocks_out: the club form's going out; opens_by_splash: splash).
        self.closes_ranks = facts.closes_ranks
        self.locks_wilds = facts.locks_wilds
        self.wild_meld_first = facts.wild_meld_first
        self.blocks_out = facts.blocks_out
        self.opens_by_splash = facts.opens_by_splash
        # american-discards: the discard rules depend on the hand (`canasta.discards`), and a player owed
        # bonus cards need not keep a card while the stock holds more than ``relief_stock`` cards (-1: never).
        self.restricts_discards = facts.restricts_discards
        self.relief_stock = -1
        if facts.bonus_cards_stand_for_kept_card and facts.bonus_cards:
            # More cards than the floor and every bonus three of the deck: the bonus cards never all are threes.
            black = facts.black_threes_are_bonus
            red = facts.red_threes_are_bonus
            threes = sum(1 for k in deck.kinds if (k == RED_THREE and red) or (k == BLACK_THREE and black))
            self.relief_stock = rules.initial_meld.bonus_cards_stock_floor + threes
        # "Keeping a three" (american-special-hands): a side that has not melded keeps one three per player.
        self.keeps_threes = facts.keeps_threes
        self._reset_turn()
        self._legal: tuple[Action, ...] | None = None
        # Valid meld additions by situation, shared by every hand of these rules.
        self._combos = meld_tables(facts.meld_rules)

    def _reset_turn(self) -> None:
        self.drew_from_stock = False
        # american-discards: every card of the hand was wild just after this turn's stock draw.
        self.drew_all_wild = False
        self.melded_this_turn = False
        self.added_to_old = False
        self.new_ranks: set[int] = set()
        self.provisional_count = 0
        self.pending_pile: list[int] | None = None
        self.taken_top: int | None = None
        self.answer: bool | None = None
        # The rule book, "Asking permission": after "yes" the player must go out this turn, unless a stock
        # draw made it impossible.
        self.bound = False
        self.asker: int | None = None
        self.resume_phase = DRAW_PHASE
        self.final_meld_only = False
        # The acting side's books when the turn began (books that make room: those made since are this turn's).
        self.turn_books = len(self.books[self.seating[self.seat]])
        # Openings found in this turn's meld phases, for the next one (`canasta.completion.OpeningsFound`).
        self._openings: OpeningsFound | None = None

    def _push_pile(self, card: int) -> None:
        self.pile.append(card)
        if self._freezes(self.kinds[card]):
            self.pile_freezers += 1

    def _freezes(self, kind: int) -> bool:
        pile_rules = self.dealt.pile
        if kind <= TWO:
            return pile_rules.wild_freezes
        if kind == RED_THREE:
            return pile_rules.red_three_freezes
        if kind == BLACK_THREE:
            return pile_rules.black_three_freezes
        return False

    def _is_bonus_three(self, kind: int) -> bool:
        if kind == RED_THREE:
            return self.facts.red_threes_are_bonus  # (False: red-threes-dead, an ordinary card)
        return kind == BLACK_THREE and self.facts.black_threes_are_bonus

    def _to_hand(self, seat: int, card: int) -> None:
        kind = self.kinds[card]
        self.hands[seat][kind].append(card)
        self.counts[seat][kind] = self.counts[seat][kind] + 1
        self.sizes[seat] = self.sizes[seat] + 1

    def _from_hand(self, seat: int, kind: int) -> int:
        self.counts[seat][kind] = self.counts[seat][kind] - 1
        self.sizes[seat] = self.sizes[seat] - 1
        card = self.hands[seat][kind].pop()
        if self.known[seat]:
            self._forget(seat, [card])  # it leaves face up (melded, or laid out)
        return card

    def _forget(self, seat: int, cards: list[int]) -> None:
        """Cards that left a seat's hand face up are no longer known to be in it."""
        known = self.known[seat]
        if _COMPILED:
            # One native scan per card (``in`` and ``remove`` are generic comparisons in compiled code,
            # and scan twice); the interpreter's own ``in`` and ``remove`` run in C.
            for card in cards:
                for i in range(len(known)):
                    if known[i] == card:
                        del known[i]
                        break
            return
        for card in cards:
            if card in known:
                known.remove(card)

    def _close_ranks(self) -> None:
        """Close every natural rank with a meld of canasta size, where the rules close ranks (``dead-ranks``).

        The closed ranks are part of the hand's meld state (``facts.closed``, and
        ``rules.melds.closed`` of `rules`), so every legality check, the completion oracle
        included, refuses melds of them and pile takes with them on top.
        """
        facts = self.facts
        size = facts.canasta_size
        closed = facts.closed_bits
        found = closed  # (the ranks closed with the new ones, as bits; none new: nothing to make)
        for side_melds in self.melds:
            for meld in side_melds.values():
                if meld.rank >= 4 and meld.naturals + meld.twos + meld.jokers >= size:
                    found |= 1 << meld.rank
        if found != closed:
            made = meld_state_facts(
                rule_facts(facts.dealt_rules),
                facts,
                facts.natural_only,
                rank_set(found),
                facts.wild_floors,
                facts.mixed_cap,
            )
            self._use_facts(made, _tables_by_keys(made.rank_keys, facts.rank_keys, self._combos))

    def _turn_meld_state(self, taken: int = -1) -> None:
        """Set the meld state of the acting side's turn, where the club rules need one.

        ``aces-pure`` (``wilds_only_when_opening``): from a later turn on (the
        side had opened when it began), such a meld with no wild card (or none
        yet) is natural-only; in the opening turn, a meld formed by taking the
        pile (``taken``: the top card's rank) stays natural. The locked ranks join
        ``melds.natural_only``.

        ``rule-of-five``: in a later turn, ``melds.wild_floors`` holds the wild
        cards each meld of the side held when the turn began; in the opening
        turn, ``melds.mixed_cap`` keeps mixed melds below canasta size.
        """
        hit = self._meld_state(taken)
        if hit is not self.facts:
            self._use_facts(hit, cast("tuple[MeldTables, ...]", hit.tables))

    def _meld_state(self, taken: int = -1, side: int = -1) -> RuleFacts:
        """A side's turn meld state (see `_turn_meld_state`): its facts (which hold its meld tables).

        Found by the state's key in ``facts.turn_states`` (the rules dealt's), made the first
        time it is met; the hand's state is left as it is. ``side`` is the acting side's
        unless given. A pile take by a side that has not opened is decided under the state
        the take would set (``taken``: the top card's rank, under aces-pure), which is then
        the state its turn plays on.
        """
        facts = self.facts
        if side < 0:
            side = self.seating[self.seat]
        melds = self.melds[side]
        later = self.opened[side]
        # The state's key, read from the hand and the facts alone (no rules object is read or made
        # unless the state is new): the ranks locked beyond the rules' own, a bit per rank.
        locked = 0
        opening = facts.opening_wilds
        if later:
            for rank in opening:
                meld = melds.get(rank)
                if meld is None or not (meld.twos or meld.jokers):
                    locked |= 1 << rank
        if taken >= 0 and taken in opening:
            locked |= 1 << taken
        floors: tuple[int, ...] = ()
        need = facts.wilds_need_naturals
        if later and need:
            wilds = [0] * KIND_COUNT
            for meld in melds.values():
                if meld.rank >= 4 and meld.naturals < need:  # (a meld of enough naturals needs no floor)
                    wilds[meld.rank] = meld.twos + meld.jokers
            floors = tuple(wilds)
        cap = facts.canasta_size - 1 if not later and facts.no_mixed_opening_canasta else 0
        # (Ints only, the closed ranks as bits: the collector untracks the key, see
        # `canasta.rulefacts.TurnStateKey`.)
        key = (facts.closed_bits, locked, floors, cap)
        states = facts.turn_states  # (the rules dealt's: shared by the facts of every state)
        hit = states.get(key)
        if hit is None:
            dealt = rule_facts(facts.dealt_rules)
            ranks = dealt.natural_only
            if locked:
                natural = locked
                for rank in ranks:
                    natural |= 1 << int(rank)
                ranks = rank_set(natural)
            if len(states) > _TURN_STATES_KEPT:
                states.clear()  # bound the memory of long runs (the states do not repeat much)
            # (No rules object: the state's facts hold it, `rules` makes its rules when asked.)
            hit = meld_state_facts(dealt, facts, ranks, facts.closed, floors, cap)
            hit.tables = _tables_by_keys(hit.rank_keys, facts.rank_keys, self._combos)
            states[key] = hit
        return hit

    def _use_facts(self, facts: RuleFacts, combos: tuple[MeldTables, ...]) -> None:
        """Play on under another meld state (facts, meld tables): a meld whose kind's tables changed drops its own."""
        old = self._combos
        self.facts = facts
        self._combos = combos
        for side_melds in self.melds:
            for meld in side_melds.values():
                if combos[meld.rank] is not old[meld.rank]:
                    meld._additions = None

    @property
    def rules(self) -> Rules:
        """The hand's rules now: the rules dealt, with the hand's meld state where the rules change it.

        The club rules change the meld rules during a hand (dead-ranks' closed ranks,
        aces-pure's locked ranks, rule-of-five's floors and cap: see
        `canasta.Rules.during_hand`); these are the rules dealt with that state (the
        same object for the same state). The engine reads the rules dealt and the
        state's facts (``dealt``, ``facts``): a state's rules object is made when first
        asked for.
        """
        return hand_rules(self.facts)

    # --- derived facts ----------------------------------------------------------------

    @property
    def side(self) -> int:
        """The side of the acting seat."""
        return self.seating[self.seat]

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.phase is OVER_PHASE

    def side_of(self, seat: int) -> int:
        """The side a seat belongs to.

        Args:
            seat: The seat.

        Returns:
            Its side.
        """
        return self.seating[seat]

    def canastas(self, side: int) -> int:
        """Number of canastas a side has on the table.

        Args:
            side: The side.

        Returns:
            Its count of melds of canasta size or more.
        """
        size = self.dealt.melds.canasta_size
        count = len(self.books[side])  # (its books: every one a canasta)
        for m in self.melds[side].values():
            if m.naturals + m.twos + m.jokers >= size:
                count += 1
        return count

    def partners_in_last_packet(self, seat: int) -> bool:
        """Whether every seat of this seat's side (itself included) holds its last packet.

        Args:
            seat: The seat.

        Returns:
            True if none of them has a packet left to pick up.
        """
        side = self.seating[seat]
        return all(not self.packets[other] for other, other_side in enumerate(self.seating) if other_side == side)
    def canastas_by_class(self, side: int) -> list[int]:
        """A side's canastas on the table (its books included) by class.

        Args:
            side: The side.

        Returns:
            Counts indexed in `canasta.CanastaClass` order (natural, mixed, wild, sequence, special).
        """
        size = self.dealt.melds.canasta_size
        special = self.facts.special_bits
        counts = [0] * CLASS_COUNT
        for m in self.books[side]:
            counts[canasta_class_index(m.rank, m.naturals, m.twos, m.jokers, special)] += 1
        for m in self.melds[side].values():
            if m.naturals + m.twos + m.jokers >= size:
                counts[canasta_class_index(m.rank, m.naturals, m.twos, m.jokers, special)] += 1
        return counts

    def book_counts(self, side: int) -> tuple[int, ...]:
        """A side's books (`books`) by class, in `canasta.CanastaClass` order: the going-out search starts there.

        Args:
            side: The side.

        Returns:
            The counts (natural, mixed, wild, sequence, special).
        """
        special = self.facts.special_bits
        counts = [0] * CLASS_COUNT
        for m in self.books[side]:
            counts[canasta_class_index(m.rank, m.naturals, m.twos, m.jokers, special)] += 1
        return tuple(counts)

    def book_ranks(self, side: int) -> frozenset[int]:
        """The natural ranks of a side's clean and dirty books (`canasta.MeldRules.add_to_books`: they take naturals).

        Args:
            side: The side.

        Returns:
            The ranks (no wild book's).
        """
        return frozenset(m.rank for m in self.books[side] if m.rank != JOKER)

    def quota_met(self, side: int) -> bool:
        """Whether a side has the canastas going out needs (`canasta.GoingOutRules.quota_met`), its books included.

        Args:
            side: The side.

        Returns:
            True if its canastas reach the quota.
        """
        if not self.facts.counts_by_class:
            return self.canastas(side) >= self.facts.canastas_required
        return self.dealt.going_out.quota_met(self.canastas_by_class(side))

    def all_melds(self, side: int) -> list[MeldState]:
        """A side's melds on the table: its books (in the order made), then its open melds.

        Args:
            side: The side.

        Returns:
            A new list of the engine's own meld objects (copy one before keeping it).
        """
        return [*self.books[side], *self.melds[side].values()]

    def book_room(self, side: int) -> int:
        """The wild cards a side's dirty books can still take (`canasta.MeldRules.wilds_onto_books`).

        Args:
            side: The side.

        Returns:
            The sum over its dirty books of natural ranks of ``max_wilds`` less their wild cards.
        """
        facts = self.facts
        room = 0
        for m in self.books[side]:
            room += book_room(facts, m.rank, m.twos, m.jokers)
        return room

    def _retire(self, side: int, key: int) -> None:
        """Set the side's meld under ``key`` apart as a book (`canasta.MeldRules.book_makes_room`): its rank is free."""
        melds = self.melds[side]
        meld = melds.pop(key)
        meld._additions = None
        self.books[side].append(meld)
        if key + SECOND_MELD in melds:
            self._renumber(side, key)

    def _renumber(self, side: int, key: int) -> None:
        """Several melds of a kind (`canasta.MeldRules.several_melds`): the ones after a book move down a number.

        A side's open melds of a kind are numbered in the order made, under ``kind + SECOND_MELD *
        number``; the meld under ``key`` has just become a book. The dict keeps its order; the turn's
        new melds (`new_ranks`) follow their melds.
        """
        melds = self.melds[side]
        new = self.new_ranks
        kind = key & 15
        items = list(melds.items())
        melds.clear()
        for k, m in items:
            melds[k - SECOND_MELD if k & 15 == kind and k > key else k] = m
        later = [k for k in new if k & 15 == kind and k >= key]
        new.difference_update(later)
        new.update(k - SECOND_MELD for k in later if k > key)

    @property
    def closed_ranks(self) -> frozenset[Kind]:
        """Ranks closed for the rest of the hand (house rule ``dead-ranks``; empty where ranks never close)."""
        return self.facts.closed

    def pile_frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen for a side (the rule book's "The frozen pile").

        Args:
            side: The side.

        Returns:
            True if the side may take it only with a natural pair.
        """
        facts = self.facts
        return (
            facts.always_frozen
            or self.pile_freezers > 0
            or (facts.unmelded_side_frozen and not self.opened[side])
        )

    def minimum_needed(self, side: int) -> int:
        """The count the side's initial meld still needs: 0 once (and only once) it has opened.

        This turn's provisional melds count toward it. A side that has not
        opened always needs at least 1: its count may be reached while a
        required clean meld is still missing (see `clean_meld_needed`).

        Args:
            side: The side.

        Returns:
            The remaining minimum.
        """
        if self.opened[side]:
            return 0
        remaining = self.personal_minimum(self.seat) if side == self.side else self.minimums[side]
        if side == self.side and self.phase is not OVER_PHASE:
            remaining -= self.provisional_count
        return max(remaining, 1)

    def clean_meld_needed(self, side: int) -> bool:
        """Whether the side's initial meld still lacks the clean meld its variant requires.

        The clean meld (modern American): at least
        ``rules.initial_meld.clean_meld_naturals`` naturals from the hand and no
        wild card, on the table when the opening is complete.

        Args:
            side: The side.

        Returns:
            False once the side has opened, or where no clean meld is required.
        """
        need = self.dealt.initial_meld.clean_meld_naturals
        if self.opened[side] or not need:
            return False
        top_rank = -1 if self.taken_top is None or side != self.side else self.kinds[self.taken_top]
        return not has_clean_meld(need, meld_counts(self, side), top_rank)

    def personal_minimum(self, seat: int) -> int:
        """The initial-meld minimum of a seat, from its own side's score before the hand.

        Equal to its side's minimum, except after a regrouping (the rule book, cutthroat
        cutthroat), where each partner keeps a personal minimum.

        Args:
            seat: The seat.

        Returns:
            The minimum count.
        """
        return self.minimums[self.dealt.sides[seat]]

    def hand_cards(self, seat: int) -> list[Card]:
        """The cards in a seat's hand, sorted by kind.

        Args:
            seat: The seat.

        Returns:
            Its cards.
        """
        cards = self.deck.cards
        return [cards[c] for kind in range(KIND_COUNT) for c in self.hands[seat][kind]]

    def hand_counts(self, seat: int) -> tuple[int, ...]:
        """Card counts by kind in a seat's hand.

        Args:
            seat: The seat.

        Returns:
            15 counts indexed by `Kind`.
        """
        return tuple(self.counts[seat])

    def card_locations(self) -> dict[str, list[int]]:
        """Where every card is: a list of card ids per location (for conservation checks)."""
        where: dict[str, list[int]] = {"stock": list(self.stock), "pile": list(self.pile)}
        if self.pending_pile is not None:
            where["pile (being taken)"] = list(self.pending_pile)
        for seat in range(self.dealt.players):
            where[f"hand {seat}"] = [c for kind in self.hands[seat] for c in kind]
            for i, packet in enumerate(self.packets[seat]):
                where[f"packet {i + 1} of {seat}"] = list(packet)  # (face down, after the hand)
            where[f"threes {seat}"] = list(self.threes[seat])
        for side in range(self.dealt.side_count):
            where[f"melds {side}"] = [c for m in self.melds[side].values() for c in m.cards]
            where[f"melds {side}"] += [c for m in self.books[side] for c in m.cards]
            where[f"set aside {side}"] = list(self.set_aside[side])
        return where

    def copy(self) -> Self:
        """An independent copy (cheap: flat lists of ints)."""
        return type(self)(self.dealt, self.deck, self.dealer, self.scores, _copy_of=self)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle the table's data; its caches and rule facts are rebuilt on loading (`restore_table`).

        The same on both engines: a class compiled by mypyc has no default
        pickling, and the pure one would pickle shared caches (meld tables).
        """
        state = {name: getattr(self, name) for name in PICKLED_FIELDS}
        return (restore_table, (type(self), self.rules, self.deck, self.dealer, self.scores, state))

    def _copy_from(self, other: TableState) -> None:
        """Make this (new, empty) table an independent copy of ``other``."""
        self.dealt = other.dealt
        self.facts = other.facts
        self.deck = other.deck
        self.kinds = other.kinds
        self.dealer = other.dealer
        self.scores = other.scores[:]
        self.deal_number = other.deal_number
        self.minimums = other.minimums[:]
        self.stock = other.stock[:]
        self.pile = other.pile[:]
        self.pile_freezers = other.pile_freezers
        self.shuffle_seed = other.shuffle_seed
        self.reshuffles = other.reshuffles
        self.reshuffled = other.reshuffled
        self.hands = [[k[:] for k in h] for h in other.hands]
        self.counts = [c[:] for c in other.counts]
        self.sizes = other.sizes[:]
        self.known = [k[:] for k in other.known]
        self.log = other.log[:]
        self.melds = [{r: m.copy() for r, m in side.items()} for side in other.melds]
        self.meld_numbers = other.meld_numbers[:]
        self.packets = [[p[:] for p in seat_packets] for seat_packets in other.packets]
        self.books = [b[:] for b in other.books]  # (books never change: shared)
        self.threes = [t[:] for t in other.threes]
        self.first_canasta = other.first_canasta[:]
        self.set_aside = [s[:] for s in other.set_aside]
        self.opened = other.opened[:]
        self.melded_before = other.melded_before[:]
        self.seating = other.seating[:]
        self.regrouped = other.regrouped
        self.asks_used = other.asks_used[:]
        self.seat = other.seat
        self.phase = other.phase
        self.turn = other.turn
        self.end = other.end
        self.went_out = other.went_out
        self.concealed = other.concealed
        self.declared = other.declared
        self.closes_ranks = other.closes_ranks
        self.locks_wilds = other.locks_wilds
        self.wild_meld_first = other.wild_meld_first
        self.blocks_out = other.blocks_out
        self.opens_by_splash = other.opens_by_splash
        self.restricts_discards = other.restricts_discards
        self.relief_stock = other.relief_stock
        self.keeps_threes = other.keeps_threes
        self.drew_from_stock = other.drew_from_stock
        self.drew_all_wild = other.drew_all_wild
        self.melded_this_turn = other.melded_this_turn
        self.added_to_old = other.added_to_old
        self.new_ranks = set(other.new_ranks)
        self.provisional_count = other.provisional_count
        self.pending_pile = None if other.pending_pile is None else other.pending_pile[:]
        self.taken_top = other.taken_top
        self.answer = other.answer
        self.bound = other.bound
        self.asker = other.asker
        self.resume_phase = other.resume_phase
        self.final_meld_only = other.final_meld_only
        self.turn_books = other.turn_books
        self._legal = other._legal
        self._openings = other._openings  # (checked against the position where it is used)
        self._combos = other._combos


def data_fields(cls: type) -> tuple[str, ...]:
    """The data attributes (slots) of ``cls`` and its bases, the class's own first.

    Read from ``__slots__`` where a class has them (pure Python); a class
    compiled by mypyc keeps no ``__slots__``, and its attributes are the
    descriptors in its ``__dict__``. Tools that walk a `TableState` field by
    field (the legality reference, the refusal snapshot) use this, so they see
    the same fields on either engine.
    """
    names: dict[str, None] = {}
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__")
        if slots is not None:
            names.update(dict.fromkeys((slots,) if isinstance(slots, str) else slots))
            continue
        for name, value in klass.__dict__.items():
            if isinstance(value, types.MemberDescriptorType | types.GetSetDescriptorType) and not (
                name.startswith("__") and name.endswith("__")
            ):
                names[name] = None
    return tuple(names)



#: The slots `TableState.__reduce__` pickles: all but the caches (`CACHE_FIELDS`, looked up again), the
#: rules and deck (given to the constructor) and what follows from them (``facts``, ``kinds``). Named
#: here because a class compiled by mypyc keeps no ``__slots__`` and shows its properties as data
#: descriptors too; `tests/test_hardening_engine.py` checks the list against ``__slots__``.
PICKLED_FIELDS: Final[tuple[str, ...]] = (
        "added_to_old",
        "answer",
        "asker",
        "asks_used",
        "blocks_out",
        "books",
        "bound",
        "closes_ranks",
        "concealed",
        "counts",
        "deal_number",
        "dealer",
        "declared",
        "drew_all_wild",
        "drew_from_stock",
        "end",
        "final_meld_only",
        "first_canasta",
        "hands",
        "keeps_threes",
        "known",
        "locks_wilds",
        "log",
        "melded_before",
        "melded_this_turn",
        "meld_numbers",
        "melds",
        "minimums",
        "new_ranks",
        "opened",
        "opens_by_splash",
        "packets",
        "pending_pile",
        "phase",
        "pile",
        "pile_freezers",
        "provisional_count",
        "regrouped",
        "relief_stock",
        "reshuffled",
        "reshuffles",
        "restricts_discards",
        "resume_phase",
        "scores",
        "seat",
        "seating",
        "set_aside",
        "shuffle_seed",
        "sizes",
        "stock",
        "taken_top",
        "threes",
        "turn",
        "turn_books",
        "went_out",
        "wild_meld_first",
)


def restore_table(
    cls: type[TableState], rules: Rules, deck: Deck, dealer: int, scores: list[int], state: dict[str, object]
) -> TableState:
    """A table of ``cls`` from pickled data (`TableState.__reduce__`): its rules' facts and tables rebuilt.

    Args:
        cls: `TableState` or a subclass (`canasta.HandState`).
        rules: The rules in force (the hand's meld state included).
        deck: The deck.
        dealer: The dealer's seat.
        scores: Each side's score before the hand.
        state: Every other data slot by name.

    Returns:
        The table, equal to the pickled one, with empty caches.
    """
    table = cls(rules, deck, dealer, scores)
    for name, value in state.items():
        setattr(table, name, value)
    table._legal = None
    table._openings = None
    return table


def meld_counts(t: TableState, side: int) -> dict[int, tuple[int, int, int]]:
    """A side's melds as ``rank -> (naturals, twos, jokers)``.

    Args:
        t: The hand.
        side: The side.

    Returns:
        A new dict (safe to change).
    """
    counts = {}
    for r, m in t.melds[side].items():  # (a plain loop: a comprehension is a function call in Python 3.11)
        counts[r] = (m.naturals, m.twos, m.jokers)
    return counts
