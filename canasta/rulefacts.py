"""The rule values the engine reads on every action, copied into one compiled object (`RuleFacts`).

A `canasta.Rules` is an attrs class, which the compiled engine reads as any
Python object: ``rules.pile.layoff`` costs two generic attribute look-ups, and
the inner loops read a dozen such values per action. `rule_facts` copies them
once per rules object into a class that mypyc compiles, whose attributes are
plain C fields; a hand keeps its rules' facts beside its rules
(``TableState.facts``). The values are the rules' own: this module decides
nothing, and nothing outside the engine needs it. Two caches that depend only
on the meld rules and card values live beside the values (see `RuleFacts`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import attrs

from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, Kind
from canasta.rules import MeldRules, Permission, Rules

__all__ = [
    "Additions",
    "RankKey",
    "RuleFacts",
    "ScoringTables",
    "TurnStateKey",
    "hand_rules",
    "meld_state_facts",
    "meld_valid",
    "rank_keys",
    "rank_set",
    "rule_facts",
    "state_facts",
]

#: A group's valid additions in one situation, as the opening search uses them
#: (``canasta.completion._additions``): ``(naturals, twos, jokers, cards, count, wild count)``.
Additions = tuple[tuple[int, int, int, int, int, int], ...]

#: A turn's meld state under the club rules (`canasta.table.TableState._meld_state`), from the
#: rules dealt: the ranks closed and the ranks locked against wild cards this turn beyond the
#: rules' own (a bit per rank each), the wild floors and the opening cap. Ints only, so that the
#: garbage collector untracks the keys (a tuple of untracked values is untracked by the first
#: collection it meets). (One int packing the floors costs more: big-int arithmetic each turn.)
TurnStateKey = tuple[int, int, tuple[int, ...], int]


class _StateTest:
    """`canasta.MeldRules.is_valid` of plain meld rules with a hand's meld state, without making those meld rules.

    What ``melds.with_state(...).is_valid`` answers: the limits of ``melds`` (the meld rules
    dealt) and the state's natural-only and closed ranks (as bits), rule-of-five's floors and
    opening cap (`meld_state_facts`; `tests/test_club_speed_design.py` compares the two).
    The test is called as it is (``RuleFacts.is_valid`` holds it, not a bound method: one
    object fewer per meld state for the collector to traverse).
    """

    def __init__(
        self,
        melds: MeldRules,
        natural_only: frozenset[Kind],
        closed: frozenset[Kind],
        wild_floors: tuple[int, ...],
        mixed_cap: int,
    ) -> None:
        self.min_size: int = melds.min_size
        self.max_size: int = -1 if melds.max_size is None else melds.max_size
        self.wild_melds: bool = melds.wild_melds
        self.black_threes: bool = melds.black_threes_when_going_out
        self.min_naturals: int = melds.min_naturals
        self.max_wilds: int = -1 if melds.max_wilds is None else melds.max_wilds
        self.naturals_per_wild: int = melds.naturals_per_wild
        self.extra_naturals: int = melds.extra_naturals
        self.wilds_need_naturals: int = melds.wilds_need_naturals
        natural = 0
        for rank in natural_only:
            natural |= 1 << int(rank)
        shut = 0
        for rank in closed:
            shut |= 1 << int(rank)
        self.natural: int = natural
        self.shut: int = shut
        self.natural_only = natural_only
        self.closed = closed
        self.floors = wild_floors
        self.cap = mixed_cap

    def __call__(self, rank: int, naturals: int, twos: int, jokers: int) -> bool:
        """`canasta.MeldRules.is_valid` under this state (see the class)."""
        wilds = twos + jokers
        size = naturals + wilds
        if size < self.min_size:
            return False
        if self.max_size >= 0 and size > self.max_size:
            return False
        if rank == JOKER:
            return self.wild_melds and naturals == 0
        if rank == BLACK_THREE:
            return self.black_threes and wilds == 0 and 3 <= naturals <= 4
        if naturals < self.min_naturals or not BLACK_THREE < rank < KIND_COUNT:
            return False
        if wilds:
            if self.natural >> rank & 1 or (self.max_wilds >= 0 and wilds > self.max_wilds):
                return False
            if naturals < self.naturals_per_wild * wilds + self.extra_naturals:
                return False
        # The hand's meld state (`canasta.MeldRules._state_allows`).
        if self.shut >> rank & 1:
            return False
        if wilds:
            if self.cap and size > self.cap:
                return False
            floors = self.floors
            if floors and naturals < self.wilds_need_naturals and wilds > floors[rank]:
                return False
        return True


class RuleFacts:
    """One rules object's values, as read by the engine's inner loops (see the module's docstring).

    Each attribute is the value of the `canasta.Rules` field named in its
    comment; ``is_valid`` is the meld rules' `canasta.MeldRules.is_valid`.
    ``validity`` (`meld_valid`'s answers) and ``additions`` (the opening
    search's group additions) are caches by kind, shared by rules whose meld
    rules give the kind the same `RankKey` and whose card values are equal;
    ``discardable`` holds `canasta.discards.discardable_kinds`'
    two answers (after and during a first round without black-three discards),
    filled when first asked; ``plain`` and ``keep`` the answers of
    american-discards that depend on the meld state (its closed ranks), the same way.
    """

    def __init__(
        self,
        rules: Rules,
        dealt: RuleFacts | None = None,
        keys: tuple[RankKey, ...] | None = None,
        near: RuleFacts | None = None,
        state: MeldRules | None = None,
        test: _StateTest | None = None,
    ) -> None:
        """Read the values of ``rules``, or take them from ``dealt`` where ``rules`` differ only in meld state.

        Args:
            rules: The rules.
            dealt: The facts of the rules ``rules`` were made from by `canasta.Rules.during_hand`
                (they differ in the meld rules' hand state alone), or ``None``.
            keys: The meld rules' `rank_keys`, if the caller has them (`state_facts`).
            near: Facts of another meld state of the rules dealt (`state_facts`: the hand's
                state before), whose caches serve the kinds whose key they share; or ``None``.
            state: Meld rules holding a hand's meld state (`meld_state_facts`), made from the meld
                rules of ``rules`` (the rules dealt) with `canasta.MeldRules.with_state`: the facts
                are those of the rules dealt with these meld rules, and no `canasta.Rules` is made
                for them unless asked (`hand_rules`). ``None``: the meld rules of ``rules``.
            test: Instead of ``state``, a hand's meld state as its validity test
                (`meld_state_facts`, plain meld rules): the state's meld rules are made only
                when asked (`meld_rules`).
        """
        melds = rules.melds if state is None else state
        if keys is None:
            keys = rank_keys(melds)
        if dealt is not None and dealt.rank_keys[JOKER] == keys[JOKER]:
            # (same meld rules but for their hand state: see `rank_keys`)
            lender = dealt if near is None or near.dealt_rules is not dealt.dealt_rules else near
            self._take_from(lender, dealt, rules, keys, state, test)
            return
        pile = rules.pile
        exhaustion = rules.exhaustion
        self.rules = rules
        # The rules with this meld state, for readers that want a `canasta.Rules` (`hand_rules`):
        # made when first asked where the facts hold a state of their own.
        self.state_rules: Rules | None = rules if state is None else None
        self.players: int = rules.players
        self.sides: tuple[int, ...] = rules.sides
        self.draw_count: int = rules.draw_count
        self.card_values: tuple[int, ...] = rules.card_values
        self.special_hands: bool = bool(rules.special_hands)
        # melds.*
        self._meld_rules: MeldRules | None = melds
        self.is_valid: Callable[[int, int, int, int], bool] = melds.is_valid
        # The hand's meld state (`canasta.Rules.during_hand`): what the engine reads of it.
        self.natural_only: frozenset[Kind] = melds.natural_only
        self.closed: frozenset[Kind] = melds.closed
        self.wild_floors: tuple[int, ...] = melds.wild_floors
        self.mixed_cap: int = melds.mixed_cap
        self.max_wilds: int | None = melds.max_wilds
        self.wild_melds: bool = melds.wild_melds
        self.black_threes_when_going_out: bool = melds.black_threes_when_going_out
        self.canasta_size: int = melds.canasta_size
        self.min_naturals: int = melds.min_naturals
        self.wild_meld_first: bool = melds.wild_meld_first
        # black_threes.*, threes.*
        self.no_discard_first_round: bool = rules.black_threes.no_discard_first_round
        self.black_threes_are_bonus: bool = rules.threes.black_threes_are_bonus
        self.red_threes_are_bonus: bool = rules.threes.red_threes_are_bonus
        # pile.*
        self.always_frozen: bool = pile.always_frozen
        self.unmelded_side_frozen: bool = pile.unmelded_side_frozen
        self.unmelded_side_may_take: bool = pile.unmelded_side_may_take
        self.natural_and_wild: bool = pile.natural_and_wild
        self.layoff: bool = pile.layoff
        self.blocked_top: frozenset[Kind] = pile.blocked_top
        self.one_card_rule: bool = pile.one_card_rule
        self.empty_pile_stops: bool = bool(pile.empty_pile_stops)
        self.take_count: int = -1 if pile.take_count is None else pile.take_count  # (-1: the whole pile)
        self.wild_pair: bool = pile.wild_pair
        # exhaustion.*
        self.forced_take_by_layoff: bool = exhaustion.forced_take_by_layoff
        self.last_red_three_may_meld: bool = exhaustion.last_red_three_may_meld
        self.red_three_last_ends_hand: bool = exhaustion.red_three_last_ends_hand
        # going_out.*, partnerships.*, initial_meld.*
        self.permission: Permission = rules.going_out.permission
        self.canastas_required: int = rules.going_out.canastas_required
        # Books (`MeldRules.book_makes_room`) and the going-out quota by class (`GoingOutRules.canastas_by_class`):
        # where either is on, the going-out search counts canastas by class (`canasta.goingout`), and a
        # hand's fast tests of "the canastas required" defer to it.
        self.makes_books: bool = melds.book_makes_room
        self.add_to_books: bool = melds.add_to_books
        self.several_melds: bool = melds.several_melds
        self.wilds_onto_books: bool = melds.wilds_onto_books
        # `MeldRules.special_ranks` as bits: natural canastas of these ranks are `CanastaClass.SPECIAL`.
        self.special_bits: int = melds.special_bits
        self.counts_by_class: bool = melds.book_makes_room or bool(rules.going_out.canastas_by_class)
        self.final_discard_required: bool = rules.going_out.final_discard_required
        self.first_taker_alone: bool = rules.partnerships.first_taker_alone
        self.bonus_cards: tuple[int, ...] = rules.initial_meld.bonus_cards
        self.concealed_exemption: bool = rules.initial_meld.concealed_exemption
        self.clean_meld_naturals: int = rules.initial_meld.clean_meld_naturals
        # The switches a hand reads when it is made (`canasta.table.TableState`): once per rules, not per hand.
        self.side_count: int = rules.side_count
        self.closes_ranks: bool = melds.closed_at_canasta  # dead-ranks
        self.locks_wilds: bool = bool(  # aces-pure, rule-of-five: a turn's meld state
            melds.wilds_only_when_opening or melds.wilds_need_naturals or melds.no_mixed_opening_canasta
        )
        self.blocks_out: bool = bool(rules.going_out.not_with_incomplete)  # the club form's going out
        self.opens_by_splash: bool = rules.initial_meld.splash
        self.restricts_discards: bool = bool(pile.empty_pile_stops) or pile.wild_discard_needs_wild_hand
        self.keeps_threes: bool = rules.threes.keep_one  # american-special-hands: "Keeping a three"
        self.bonus_cards_stand_for_kept_card: bool = rules.initial_meld.bonus_cards_stand_for_kept_card
        # A turn's meld state (`canasta.table.TableState._turn_meld_state`), from the rules dealt: the
        # ranks that lock against wild cards (aces-pure), the naturals that need no floor and the
        # opening cap (rule-of-five), and the facts and meld tables of each state met, by its key
        # (shared by the facts of every state: see `_take_from`).
        self.dealt_rules: Rules = rules.as_dealt if dealt is None else dealt.dealt_rules
        self.opening_wilds: tuple[int, ...] = tuple(sorted(int(k) for k in melds.wilds_only_when_opening))
        self.wilds_need_naturals: int = melds.wilds_need_naturals
        self.no_mixed_opening_canasta: bool = melds.no_mixed_opening_canasta
        self.turn_states: dict[TurnStateKey, RuleFacts] = {} if dealt is None else dealt.turn_states
        # The ranks closed, as bits (the turn states' key), and the meld tables of a turn meld state
        # (`canasta.table.TableState._meld_state`: kept here, not beside the facts in a tuple).
        self.closed_bits: int = _bits(self.closed)
        self.tables: object = None
        self.has_packets: bool = bool(rules.packets.sizes)  # Hand and Foot: a packet (the foot) after the hand
        # The sequence games: melds by meld type and identity (`canasta.suitedlegality`, `canasta.suitedplay`).
        self.sequences: bool = bool(rules.meld_types)
        self.partners_first: bool = rules.packets.partners_first
        # foot-after-first-book: a packet is earned by the player's own first canasta (`canasta.PacketRules`).
        self.after_first_canasta: bool = rules.packets.after_first_canasta and bool(rules.packets.sizes)
        self._minimums: dict[int, int] = {}
        # A minimum table by deal number (Hand and Foot), not by score: read once per hand dealt.
        self.minimums_by_deal: bool = bool(rules.minimums.by_deal)
        # For scoring (`scoring`, made when a hand is first scored: the club rules make rules
        # objects during a hand that are never scored), and its memos.
        self._scoring: ScoringTables | None = None
        self._bonuses: dict[tuple[int, int, int, int], int] = {}
        self._three_scores: dict[int, int] = {}
        # Not rule values: by kind, `meld_valid`'s answers by meld contents, and the opening search's
        # group additions by situation (`canasta.completion`). A kind's answers depend on its
        # `RankKey` and the card values only, so rules whose meld state differs elsewhere share
        # them (`_shared_caches`): the club rules make new meld rules every turn or so.
        self.rank_keys: tuple[RankKey, ...] = keys
        self.validity: list[dict[int, bool]] = []
        self.additions: list[dict[tuple[int, int, int, int, int, int], Additions]] = []
        for key in keys:
            validity, additions = _shared_caches(key, rules.card_values)
            self.validity.append(validity)
            self.additions.append(additions)
        # `canasta.discards.discardable_kinds`'s answers outside and inside a first round
        # without black-three discards, filled when first asked (`canasta.discards` decides them;
        # they read no meld state: the facts of every meld state share the dealt rules' list).
        self.discardable: list[tuple[bool, ...] | None] = [None, None]
        # american-discards (`canasta.discards`): D3's switch, and the answers that depend on the
        # meld state's closed ranks, filled when first asked: `canasta.discards.keep_discards`'
        # restricted answers by (first round, strict pile), then `canasta.discards.plain_kinds`
        # (index 4); shared by the meld states with the same closed ranks.
        self.wild_discard_needs_wild_hand: bool = pile.wild_discard_needs_wild_hand
        self.keep: list[tuple[bool, ...] | None] = [None, None, None, None, None]

    def _take_from(
        self,
        near: RuleFacts,
        dealt: RuleFacts,
        rules: Rules,
        keys: tuple[RankKey, ...],
        state: MeldRules | None,
        test: _StateTest | None,
    ) -> None:
        """The facts of ``rules``, made by `canasta.Rules.during_hand` from the rules of ``dealt``.

        With ``state`` (`meld_state_facts`), ``rules`` are the rules dealt and ``state`` the meld
        rules holding the hand's meld state: the facts are those of the state, and its rules
        are made only when asked (`hand_rules`).

        ``near`` (``dealt``, or the facts of another meld state of the same rules dealt) lends
        its caches to the kinds whose key it shares: a turn's state changes a few kinds from
        the state before, while the state as dealt may differ in every kind (rule-of-five's
        floors and cap are part of every natural kind's key).

        Every value but the meld rules' hand state is the dealt rules' own, and so are the
        memos of rule methods; the meld rules, their test and the caches that depend on the
        meld state (by kind; american-discards' answers, which read the closed ranks, shared
        with ``near`` where those are the same) are these rules'.
        """
        own = state is None and test is None  # (the facts of ``rules`` themselves)
        if _COMPILED:
            self.players = dealt.players
            self.sides = dealt.sides
            self.draw_count = dealt.draw_count
            self.card_values = dealt.card_values
            self.special_hands = dealt.special_hands
            self.max_wilds = dealt.max_wilds
            self.wild_melds = dealt.wild_melds
            self.black_threes_when_going_out = dealt.black_threes_when_going_out
            self.canasta_size = dealt.canasta_size
            self.min_naturals = dealt.min_naturals
            self.wild_meld_first = dealt.wild_meld_first
            self.no_discard_first_round = dealt.no_discard_first_round
            self.black_threes_are_bonus = dealt.black_threes_are_bonus
            self.red_threes_are_bonus = dealt.red_threes_are_bonus
            self.always_frozen = dealt.always_frozen
            self.unmelded_side_frozen = dealt.unmelded_side_frozen
            self.unmelded_side_may_take = dealt.unmelded_side_may_take
            self.natural_and_wild = dealt.natural_and_wild
            self.layoff = dealt.layoff
            self.blocked_top = dealt.blocked_top
            self.one_card_rule = dealt.one_card_rule
            self.empty_pile_stops = dealt.empty_pile_stops
            self.take_count = dealt.take_count
            self.wild_pair = dealt.wild_pair
            self.forced_take_by_layoff = dealt.forced_take_by_layoff
            self.last_red_three_may_meld = dealt.last_red_three_may_meld
            self.red_three_last_ends_hand = dealt.red_three_last_ends_hand
            self.permission = dealt.permission
            self.canastas_required = dealt.canastas_required
            self.makes_books = dealt.makes_books
            self.add_to_books = dealt.add_to_books
            self.several_melds = dealt.several_melds
            self.wilds_onto_books = dealt.wilds_onto_books
            self.special_bits = dealt.special_bits
            self.counts_by_class = dealt.counts_by_class
            self.final_discard_required = dealt.final_discard_required
            self.first_taker_alone = dealt.first_taker_alone
            self.bonus_cards = dealt.bonus_cards
            self.concealed_exemption = dealt.concealed_exemption
            self.clean_meld_naturals = dealt.clean_meld_naturals
            self.side_count = dealt.side_count
            self.closes_ranks = dealt.closes_ranks
            self.locks_wilds = dealt.locks_wilds
            self.blocks_out = dealt.blocks_out
            self.opens_by_splash = dealt.opens_by_splash
            self.restricts_discards = dealt.restricts_discards
            self.keeps_threes = dealt.keeps_threes
            self.bonus_cards_stand_for_kept_card = dealt.bonus_cards_stand_for_kept_card
            self.dealt_rules = dealt.dealt_rules
            self.opening_wilds = dealt.opening_wilds
            self.wilds_need_naturals = dealt.wilds_need_naturals
            self.no_mixed_opening_canasta = dealt.no_mixed_opening_canasta
            self.turn_states = dealt.turn_states
            self.has_packets = dealt.has_packets
            self.sequences = dealt.sequences
            self.partners_first = dealt.partners_first
            self.after_first_canasta = dealt.after_first_canasta
            self._minimums = dealt._minimums
            self.minimums_by_deal = dealt.minimums_by_deal
            self._scoring = dealt._scoring
            self._bonuses = dealt._bonuses
            self._three_scores = dealt._three_scores
            self.wild_discard_needs_wild_hand = dealt.wild_discard_needs_wild_hand
        else:
            # (The interpreter: the dealt facts' values in one dict copy, not sixty stores; those of
            # the meld state are set below.)
            vars(self).update(vars(dealt))
        self.rules = rules if own else dealt.rules
        self.state_rules = rules if own else None
        if test is None:
            melds = rules.melds if state is None else state
            self._meld_rules = melds
            self.is_valid = melds.is_valid
            self.natural_only = melds.natural_only
            self.closed = melds.closed
            self.wild_floors = melds.wild_floors
            self.mixed_cap = melds.mixed_cap
        else:
            self._meld_rules = None  # (made when asked: `meld_rules`)
            self.is_valid = test
            self.natural_only = test.natural_only
            self.closed = test.closed
            self.wild_floors = test.floors
            self.mixed_cap = test.cap
        self.rank_keys = keys
        self.validity = []
        self.additions = []
        near_keys = near.rank_keys
        for kind in range(KIND_COUNT):
            key = keys[kind]
            if key == near_keys[kind]:
                # The kind's part of the meld state is the near facts': their caches (same key, same card values).
                self.validity.append(near.validity[kind])
                self.additions.append(near.additions[kind])
            else:
                validity, additions = _shared_caches(key, dealt.card_values)
                self.validity.append(validity)
                self.additions.append(additions)
        self.discardable = dealt.discardable  # (no meld state read: see `__init__`)
        # (The answers that read the closed ranks: shared with the lender's where they are the same.)
        self.closed_bits = closed_bits = _bits(self.closed)
        self.keep = near.keep if near.closed_bits == closed_bits else [None, None, None, None, None]
        self.tables = None

    @property
    def meld_rules(self) -> MeldRules:
        """The meld rules of these facts, with the hand's meld state (made when first asked, `meld_state_facts`)."""
        found = self._meld_rules
        if found is None:
            found = self._meld_rules = self.rules.melds.with_state(
                natural_only=self.natural_only,
                closed=self.closed,
                wild_floors=self.wild_floors,
                mixed_cap=self.mixed_cap,
            )
        return found

    def minimum_for(self, score: int, deal: int = 1) -> int:
        """`canasta.MeldMinimums.minimum_for` of the rules (remembered by score, as `canasta_bonus`).

        Args:
            score: A side's cumulative score before the hand.
            deal: The hand's number in the game, from 1 (read by a table by deal).

        Returns:
            The count its initial meld must reach.
        """
        if self.minimums_by_deal:
            return self.rules.minimums.minimum_for(score, deal)
        value = self._minimums.get(score)
        if value is None:
            if len(self._minimums) > 4096:
                self._minimums.clear()  # (scores are few in a game, but a process may play many)
            value = self._minimums[score] = self.rules.minimums.minimum_for(score)
        return value

    def scoring(self) -> ScoringTables:
        """The rule values scoring reads (`ScoringTables`), made on first use.

        Returns:
            The tables.
        """
        tables = self._scoring
        if tables is None:
            # (They read no meld state: the facts of every meld state share the dealt rules' tables.)
            dealt = rule_facts(self.dealt_rules)
            tables = dealt._scoring
            if tables is None:
                tables = dealt._scoring = ScoringTables(dealt.rules)
            self._scoring = tables
        return tables

    def canasta_bonus(self, rank: int, naturals: int, twos: int, jokers: int) -> int:
        """`canasta.CanastaBonuses.bonus` of the rules (remembered: the rules' method is plain Python).

        Args:
            rank: The canasta's kind (``JOKER`` for a wild canasta).
            naturals: Its natural cards.
            twos: Its 2s.
            jokers: Its jokers.

        Returns:
            The bonus in points.
        """
        key = (rank, naturals, twos, jokers)
        value = self._bonuses.get(key)
        if value is None:
            value = self._bonuses[key] = self.rules.canasta_bonuses.bonus(rank, naturals, twos, jokers)
        return value

    def three_score(self, count: int) -> int:
        """`canasta.ThreeRules.score` of the rules (remembered, as `canasta_bonus`).

        Args:
            count: How many bonus threes of one colour.

        Returns:
            Their points before the sign rule applies.
        """
        value = self._three_scores.get(count)
        if value is None:
            value = self._three_scores[count] = self.rules.threes.score(count)
        return value


class ScoringTables:
    """The rule values scoring reads (`canasta.scoring`), as plain fields.

    Attributes:
        meld_penalties: ``incomplete_meld_penalties`` by kind.
        natural_meld_penalties: ``incomplete_natural_meld_penalties`` by kind.
        hand_values: ``card_values``, with ``black_threes.in_hand_penalty`` for a black three:
            what each card left in hand costs.
        first_seats: Each side's first seat (``seats_of``).
    """

    def __init__(self, rules: Rules) -> None:
        self.meld_penalties: dict[int, int] = {int(kind): penalty for kind, penalty in rules.incomplete_meld_penalties}
        self.natural_meld_penalties: dict[int, int] = {
            int(kind): penalty for kind, penalty in rules.incomplete_natural_meld_penalties
        }
        hand_values = list(rules.card_values)
        hand_values[BLACK_THREE] = rules.black_threes.in_hand_penalty
        self.hand_values: list[int] = hand_values
        self.first_seats: list[int] = [rules.seats_of(side)[0] for side in range(rules.side_count)]


#: Whether this module runs compiled by mypyc or as its Python source (`RuleFacts._take_from` is written for each).
_COMPILED: Final = not __file__.endswith(".py")

# By id of the rules (each kept alive by its facts, so that the id stays its own).
_FACTS: Final[dict[int, RuleFacts]] = {}

# Sets of ranks by their bits (`rank_set`): the meld states of every hand share them.
_RANK_SETS: Final[dict[int, frozenset[Kind]]] = {}


def _bits(ranks: frozenset[Kind]) -> int:
    """The ranks as bits (bit ``rank``)."""
    bits = 0
    for rank in ranks:
        bits |= 1 << int(rank)
    return bits


def rank_set(bits: int) -> frozenset[Kind]:
    """The set of the ranks whose bits are set (bit ``rank``), the same object for the same bits.

    A hand's meld states (`meld_state_facts`) hold their natural-only and closed ranks as such
    sets: made once, not once per state.

    Args:
        bits: The ranks, bit ``rank`` set for each.

    Returns:
        The ranks.
    """
    found = _RANK_SETS.get(bits)
    if found is None:
        found = _RANK_SETS[bits] = frozenset(Kind(rank) for rank in range(KIND_COUNT) if bits >> rank & 1)
    return found


#: What a kind's meld validity depends on (`rank_keys`), as one int: the number of the meld rules
#: without a hand's meld state (their basis), the kind, and the kind's part of the meld state,
#: ``(basis * KIND_COUNT + kind) << 32 | state`` (an int hashes and compares at once, and a new
#: meld state's keys are made without a tuple per kind).
RankKey = int
_STATE_BITS: Final = 32

# The meld state's fields (`canasta.Rules.during_hand`), left out of the basis of `rank_keys`.
_STATE_FIELDS: Final = frozenset({"natural_only", "closed", "wild_floors", "mixed_cap", "has_meld_state"})
_STABLE_FIELDS: Final = tuple(f.name for f in attrs.fields(MeldRules) if f.name not in _STATE_FIELDS)

# `rank_keys`' answers by meld rules (`MeldRules` hashes once: cache_hash), and the numbers of the
# bases by their stable fields (a subclass's meld rules: by themselves). Numbers are never reused.
_RANK_KEYS: Final[dict[MeldRules, tuple[RankKey, ...]]] = {}
_BASES: Final[dict[object, int]] = {}
_NEXT_BASIS: Final = [0]


def _basis_number(key: object) -> int:
    """The number of a basis (see `_BASES`), given when first met."""
    number = _BASES.get(key)
    if number is None:
        number = _BASES[key] = _NEXT_BASIS[0]
        _NEXT_BASIS[0] = number + 1
    return number


def rank_keys(melds: MeldRules) -> tuple[RankKey, ...]:
    """By kind, what `canasta.MeldRules.is_valid` of a meld of that kind depends on (remembered).

    The club rules change the meld rules during a hand (`canasta.Rules.during_hand`:
    closed ranks, natural-only ranks, rule-of-five's wild floors and opening cap),
    but each change touches a kind only through a few facts: whether the kind is
    natural-only, whether it is closed, the cap, and its floor. A kind's key is the
    meld rules with that state cleared (the same object for every state of a rule
    set) with the kind and those facts packed into one int, so two meld rules that
    agree on them answer ``is_valid`` alike for melds of the kind, and the caches
    keyed by it (`RuleFacts`, ``canasta.table.meld_tables``) are shared across the
    hand's meld states. The wild meld and black threes read no meld state.
    Meld rules of a subclass (which may test validity its own way) key by
    themselves.

    Args:
        melds: The meld rules.

    Returns:
        ``KIND_COUNT`` keys, indexed by kind.
    """
    keys = _RANK_KEYS.get(melds)
    if keys is not None:
        return keys
    if len(_RANK_KEYS) > 4096:
        _RANK_KEYS.clear()  # bound the memory of long runs with many rule sets
        _BASES.clear()  # (numbers are not reused: a basis met again gets a new one)
    if type(melds) is not MeldRules:
        own = _basis_number(melds)
        keys = tuple([(own * KIND_COUNT + kind) << _STATE_BITS for kind in range(KIND_COUNT)])
    else:
        basis = _basis_number(tuple([getattr(melds, name) for name in _STABLE_FIELDS]))
        keys = _state_keys(basis, melds.natural_only, melds.closed, melds.wild_floors, melds.mixed_cap)
    _RANK_KEYS[melds] = keys
    return keys


def _state_keys(
    basis: int, natural_only: frozenset[Kind], closed: frozenset[Kind], floors: tuple[int, ...], cap: int
) -> tuple[RankKey, ...]:
    """`rank_keys` of plain `canasta.MeldRules` of this basis number with this meld state."""
    natural = 0  # (the ranks of each set as bits, read once: not a set look-up per kind)
    for rank in natural_only:
        natural |= 1 << int(rank)
    shut = 0
    for rank in closed:
        shut |= 1 << int(rank)
    capped = (cap + 1) << 2
    first = basis * KIND_COUNT
    found = []
    for kind in range(KIND_COUNT):
        if kind in (JOKER, BLACK_THREE):
            state = 0  # (`is_valid` answers these before reading the meld state)
        else:
            state = (natural >> kind & 1) | (shut >> kind & 1) << 1 | capped
            if floors:
                state |= (floors[kind] + 1) << 16
        found.append((first + kind) << _STATE_BITS | state)
    return tuple(found)


def meld_state_facts(
    dealt: RuleFacts,
    near: RuleFacts | None,
    natural_only: frozenset[Kind],
    closed: frozenset[Kind],
    wild_floors: tuple[int, ...],
    mixed_cap: int,
) -> RuleFacts:
    """The facts of a hand's meld state: the rules of ``dealt`` with this state, no rules object made.

    The engine makes a hand's meld states here (`canasta.table.TableState`) and keeps them
    by the state's key (`RuleFacts.turn_states`): the facts read every value but the meld
    state from ``dealt``, their ``rules`` are the rules dealt, and their validity test reads
    the meld rules dealt and the state (no `canasta.MeldRules` is made for plain meld rules:
    ``meld_rules`` makes them when asked). The `canasta.Rules` of the state
    (`canasta.Rules.during_hand`) are made only where something asks for them (`hand_rules`:
    the public `canasta.HandState.rules`, the going-out search).

    Args:
        dealt: The facts of the rules dealt.
        near: The facts of the hand's meld state before (of the same rules dealt), whose caches
            the kinds that keep their key take, or ``None``.
        natural_only: Ranks whose melds may hold no wild card now (`canasta.MeldRules.natural_only`).
        closed: Ranks closed now (`canasta.MeldRules.closed`).
        wild_floors: Rule-of-five's floors (`canasta.MeldRules.wild_floors`).
        mixed_cap: Rule-of-five's opening cap (`canasta.MeldRules.mixed_cap`).

    Returns:
        New facts (the caller keeps them).
    """
    dealt_melds = dealt.meld_rules
    if type(dealt_melds) is not MeldRules:
        # (A subclass's meld rules may test validity their own way: they are made, and key by themselves.)
        melds = dealt_melds.with_state(
            natural_only=natural_only, closed=closed, wild_floors=wild_floors, mixed_cap=mixed_cap
        )
        return RuleFacts(dealt.rules, dealt, rank_keys(melds), near, melds)
    # (The keys from the state itself.)
    basis = (dealt.rank_keys[JOKER] >> _STATE_BITS) // KIND_COUNT  # (the basis of the meld rules dealt)
    keys = _state_keys(basis, natural_only, closed, wild_floors, mixed_cap)
    test = _StateTest(dealt_melds, natural_only, closed, wild_floors, mixed_cap)
    return RuleFacts(dealt.rules, dealt, keys, near, None, test)


def hand_rules(facts: RuleFacts) -> Rules:
    """The rules these facts are of, with their meld state: made when first asked (`meld_state_facts`).

    Args:
        facts: The facts of a hand's rules (`canasta.table.TableState.facts`).

    Returns:
        The rules (`canasta.Rules.during_hand` of the rules dealt with the state's meld rules).
    """
    found = facts.state_rules
    if found is None:
        found = facts.state_rules = facts.dealt_rules.during_hand(facts.meld_rules)
    return found


def state_facts(rules: Rules, dealt: RuleFacts, near: RuleFacts | None = None) -> RuleFacts:
    """`rule_facts` of rules the engine made from the rules of ``dealt`` with a hand's meld state.

    The engine makes a hand's meld states with `canasta.MeldRules.with_state` and
    `canasta.Rules.during_hand` (`canasta.table.TableState`), so their meld rules are those of
    ``dealt`` but for the state: their `rank_keys` follow from the state and the basis of
    ``dealt`` without comparing the other fields (plain `canasta.MeldRules` only; others take
    the general way).

    Args:
        rules: Rules made by `canasta.Rules.during_hand` from ``dealt.rules``.
        dealt: The facts of the rules dealt.
        near: The facts of the hand's meld state before (of the same rules dealt), whose caches
            the kinds that keep their key take, or ``None`` (the caches are found by key).

    Returns:
        The facts of ``rules`` (made once, then cached as `rule_facts` caches them).
    """
    facts = _FACTS.get(id(rules))
    if facts is not None and facts.rules is rules:
        return facts
    melds = rules.melds
    if rules is dealt.rules or type(melds) is not MeldRules or type(dealt.meld_rules) is not MeldRules:
        return rule_facts(rules)
    keys = _RANK_KEYS.get(melds)
    if keys is None:
        basis = (dealt.rank_keys[JOKER] >> _STATE_BITS) // KIND_COUNT  # (the basis of the meld rules dealt)
        keys = _state_keys(basis, melds.natural_only, melds.closed, melds.wild_floors, melds.mixed_cap)
        if len(_RANK_KEYS) > 4096:
            _RANK_KEYS.clear()  # (as `rank_keys`; the basis numbers stay: ``dealt`` holds its own)
        _RANK_KEYS[melds] = keys
    if len(_FACTS) > 1024:
        _FACTS.clear()  # bound the memory of long runs with many rule sets
    facts = _FACTS[id(rules)] = RuleFacts(rules, dealt, keys, near)
    return facts


# The caches of `RuleFacts`, by a kind's `RankKey` and the card values.
_CACHES: Final[
    dict[
        tuple[RankKey, tuple[int, ...]],
        tuple[dict[int, bool], dict[tuple[int, int, int, int, int, int], Additions]],
    ]
] = {}


def _shared_caches(
    key: RankKey, card_values: tuple[int, ...]
) -> tuple[dict[int, bool], dict[tuple[int, int, int, int, int, int], Additions]]:
    """The validity and additions caches of a kind with this key under these card values."""
    caches_key = (key, card_values)
    caches = _CACHES.get(caches_key)
    if caches is None:
        if len(_CACHES) > 4096:
            _CACHES.clear()  # bound the memory of long runs with many rule sets
        caches = _CACHES[caches_key] = ({}, {})
    return caches


def rule_facts(rules: Rules) -> RuleFacts:
    """The facts of a rules object (built once, then cached).

    Args:
        rules: The rules.

    Returns:
        Their `RuleFacts`.
    """
    facts = _FACTS.get(id(rules))
    if facts is None or facts.rules is not rules:
        dealt = rules.as_dealt  # (rules made during a hand take their values from the rules dealt)
        dealt_facts = None if dealt is rules else rule_facts(dealt)
        if len(_FACTS) > 1024:
            _FACTS.clear()  # bound the memory of long runs with many rule sets
        facts = _FACTS[id(rules)] = RuleFacts(rules, dealt_facts)
    return facts


def meld_valid(facts: RuleFacts, rank: int, naturals: int, twos: int, jokers: int) -> bool:
    """``facts.is_valid(rank, naturals, twos, jokers)`` (`canasta.MeldRules.is_valid`), remembered.

    The meld rules' test is Python code, and the pile-take checks ask it the
    same few questions again and again.
    """
    if (naturals | twos | jokers) >= 256:
        return facts.is_valid(rank, naturals, twos, jokers)  # (beyond the key's fields: not remembered)
    key = (naturals * 256 + twos) * 256 + jokers
    validity = facts.validity[rank]
    valid = validity.get(key)
    if valid is None:
        if len(validity) > 100_000:
            validity.clear()  # bound the memory of long runs
        valid = validity[key] = facts.is_valid(rank, naturals, twos, jokers)
    return valid
