"""The club rules' meld state and the engine's caches (issue 35): what did not change is reused.

The club rules make new meld rules during a hand (`canasta.Rules.during_hand`).
The caches of meld validity and additions are keyed by what a kind's validity
depends on (`canasta.rulefacts.rank_keys`), so a kind whose part of the meld
state did not change keeps its tables; the facts of rules made during a hand
take every other value from the rules dealt.
"""

from __future__ import annotations

import enum
import gc
import random
import types

import attrs
import pytest
from attrs import evolve
from canasta_house_rules.special_hands import CLA_HANDS, PAGAT_HANDS
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, NATURAL_INTS, Kind
from canasta.hand import HandState
from canasta.rulefacts import RuleFacts, meld_state_facts, rank_keys, rule_facts, state_facts
from canasta.rules import MeldRules
from canasta.special import SpecialHand, best_of
from canasta.table import MELD_ADDITIONS_CACHE, MeldTables, meld_tables

CLUB = canasta.load_rules("modern-american-club")

# A meld state of the club rules: natural-only and closed ranks, rule-of-five's floors and cap.
meld_states = st.builds(
    lambda melds, natural, closed, floors, cap: evolve(
        melds,
        natural_only=frozenset(Kind(k) for k in natural),
        closed=frozenset(Kind(k) for k in closed),
        wild_floors=tuple(floors) if floors is not None else (),
        mixed_cap=cap,
    ),
    st.sampled_from([CLUB.melds, canasta.load_rules("classic").melds]),
    st.sets(st.sampled_from(NATURAL_INTS), max_size=3),
    st.sets(st.sampled_from(NATURAL_INTS), max_size=3),
    st.none() | st.lists(st.integers(0, 3), min_size=KIND_COUNT, max_size=KIND_COUNT),
    st.sampled_from([0, 6]),
)


@settings(max_examples=80, deadline=None)
@given(first=meld_states, second=meld_states)
def test_equal_rank_keys_mean_equal_validity(first: MeldRules, second: MeldRules) -> None:
    """Where two meld states give a kind the same key, `is_valid` answers alike for every meld of that kind."""
    keys_first, keys_second = rank_keys(first), rank_keys(second)
    for kind in range(KIND_COUNT):
        if keys_first[kind] != keys_second[kind]:
            continue
        for naturals in range(9):
            for twos in range(4):
                for jokers in range(4):
                    assert first.is_valid(kind, naturals, twos, jokers) == second.is_valid(kind, naturals, twos, jokers)


def test_a_kind_keeps_its_key_and_tables_when_another_kind_changes() -> None:
    """A new meld state that changes one kind (a floor, a closed rank) keeps every other kind's tables."""
    floors = [0] * KIND_COUNT
    before = evolve(CLUB.melds, wild_floors=tuple(floors))
    floors[Kind.KING] = 2
    after = evolve(CLUB.melds, wild_floors=tuple(floors))
    closed = evolve(after, closed=frozenset({Kind.ACE}))
    keys = rank_keys(before), rank_keys(after), rank_keys(closed)
    tables = meld_tables(before), meld_tables(after), meld_tables(closed)
    for kind in range(KIND_COUNT):
        assert (keys[0][kind] == keys[1][kind]) is (kind != Kind.KING)
        assert (tables[0][kind] is tables[1][kind]) is (kind != Kind.KING)
        assert (keys[1][kind] == keys[2][kind]) is (kind != Kind.ACE)
        assert (tables[1][kind] is tables[2][kind]) is (kind != Kind.ACE)
    # The wild meld and black threes read no meld state.
    for kind in (JOKER, BLACK_THREE):
        assert keys[0][kind] == rank_keys(evolve(CLUB.melds, mixed_cap=6, closed=frozenset({Kind.ACE})))[kind]
    # Other rules (another basis) never share a key.
    other = rank_keys(evolve(CLUB.melds, canasta_size=8))
    assert all(a != b for a, b in zip(keys[0], other, strict=True))


def test_facts_of_rules_made_during_a_hand_are_those_of_the_rules_themselves() -> None:
    """Facts taken from the rules dealt equal the facts read afresh, value by value; the rule memos are shared."""
    floors = [0] * KIND_COUNT
    earlier = CLUB.during_hand(evolve(CLUB.melds, wild_floors=tuple(floors)))  # (a later turn's floors: none)
    floors[Kind.QUEEN] = 1
    state = evolve(CLUB.melds, wild_floors=tuple(floors), closed=frozenset({Kind.FIVE}))
    during = CLUB.during_hand(state)
    assert during.as_dealt is CLUB
    derived = rule_facts(during)
    fresh = RuleFacts(during)  # (read from the rules themselves)
    caches = {
        "validity",
        "additions",
        "discardable",
        "_minimums",
        "_scoring",
        "_bonuses",
        "_three_scores",
        "turn_states",  # (the rules dealt's memo of turn meld states: shared, compared below)
    }
    for name in dir(fresh):
        if name.startswith("__") or (callable(getattr(fresh, name)) and name != "is_valid") or name in caches:
            continue
        assert getattr(derived, name) == getattr(fresh, name), name
    assert derived.meld_rules is state and derived.rules is during
    assert derived._bonuses is rule_facts(CLUB)._bonuses  # (the rules' own methods: the same answers)
    assert derived.turn_states is rule_facts(CLUB).turn_states  # (the turn meld states of the rules dealt)
    assert derived.discardable is rule_facts(CLUB).discardable  # (what may be discarded reads no meld state)
    for kind in range(KIND_COUNT):
        assert derived.validity[kind] is fresh.validity[kind]
        shared = derived.validity[kind] is rule_facts(earlier).validity[kind]
        assert shared is (kind not in (Kind.QUEEN, Kind.FIVE))


def test_a_meld_state_s_facts_follow_from_its_state_and_the_basis_dealt() -> None:
    """`state_facts` (the engine's way to a new meld state's facts) gives what `rule_facts` gives.

    Its rank keys are made from the state and the basis of the rules dealt, without reading
    the other meld rules (issue 35): they must be `rank_keys`' own, and the facts and the meld
    tables found by them those that the general way finds.
    """
    floors = [0] * KIND_COUNT
    floors[Kind.KING] = 2
    # (A state that play never meets, a cap of 4 with floors: other tests may have met any other.)
    state = CLUB.melds.with_state(
        natural_only=frozenset({Kind.ACE, Kind.SEVEN}),
        closed=frozenset({Kind.SIX}),
        wild_floors=tuple(floors),
        mixed_cap=4,
    )
    during = CLUB.during_hand(state)
    found = state_facts(during, rule_facts(CLUB))
    assert found is rule_facts(during) and found.rules is during and found.meld_rules is state
    fresh = RuleFacts(during)  # (keys read from the meld rules themselves)
    assert found.rank_keys == fresh.rank_keys == rank_keys(state)
    assert found.rank_keys != rule_facts(CLUB).rank_keys
    assert [found.validity[kind] is fresh.validity[kind] for kind in range(KIND_COUNT)] == [True] * KIND_COUNT
    assert state_facts(CLUB, rule_facts(CLUB)) is rule_facts(CLUB)  # (the state as dealt: the facts dealt)
    tables = meld_tables(state)
    assert all(tables[kind] is MELD_ADDITIONS_CACHE[key] for kind, key in enumerate(found.rank_keys))
    # The next state (one floor more on the kings) takes the caches of the kinds that kept their key
    # from the state before, and its own kind's from the shared caches.
    floors[Kind.KING] = 3
    after = CLUB.during_hand(evolve(state, wild_floors=tuple(floors)))
    following = state_facts(after, rule_facts(CLUB), found)
    assert following.rank_keys == rank_keys(after.melds)
    assert [following.validity[kind] is found.validity[kind] for kind in range(KIND_COUNT)] == [
        kind != Kind.KING for kind in range(KIND_COUNT)
    ]
    assert following.validity[Kind.KING] is RuleFacts(after).validity[Kind.KING]


@settings(max_examples=80, deadline=None)
@given(state=meld_states)
def test_a_meld_state_facts_test_validity_as_its_meld_rules(state: MeldRules) -> None:
    """The facts of a meld state made without meld rules (`meld_state_facts`) test validity as those meld rules do.

    Their meld rules, made when asked, are the meld rules dealt with the state.
    """
    dealt_rules = CLUB if state.wilds_need_naturals else canasta.load_rules("classic")
    dealt = rule_facts(dealt_rules)
    facts = meld_state_facts(dealt, None, state.natural_only, state.closed, state.wild_floors, state.mixed_cap)
    assert facts.rules is dealt_rules and facts.closed == state.closed and facts.rank_keys == rank_keys(state)
    for kind in range(KIND_COUNT + 1):  # (and a number beyond the kinds)
        for naturals in range(9):
            for twos in range(5):
                for jokers in range(5):
                    assert facts.is_valid(kind, naturals, twos, jokers) == state.is_valid(kind, naturals, twos, jokers)
    assert facts.meld_rules == state and facts.meld_rules is facts.meld_rules


def test_club_hands_reuse_the_meld_tables_of_unchanged_kinds() -> None:
    """In club play, a new meld state keeps the tables of the kinds its change did not touch."""
    deck = canasta.cards.Deck(CLUB.deck)
    changes = kept = 0
    for seed in range(6):
        hand = HandState.deal(CLUB, dealer=3, scores=[0, 0], seed=seed, deck=deck)
        rng = random.Random(seed)
        while not hand.is_over:
            rules = hand.rules
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
            if hand.rules is not rules and hand.rules.melds != rules.melds:
                old, new = meld_tables(rules.melds), meld_tables(hand.rules.melds)
                changes += 1
                kept += sum(1 for kind in NATURAL_INTS if old[kind] is new[kind])
    assert changes > 20
    # (A turn's floors or opening cap touch every kind when they come or go; other changes touch a few.)
    assert kept > changes * 3


def test_a_meld_state_makes_no_rules_object_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand's meld state is its facts: its `canasta.MeldRules` and `canasta.Rules` are made when asked (issue 35).

    The engine reads the rules dealt and the state's facts (their validity test reads the
    meld rules dealt and the state); only the going-out search and the public
    `canasta.HandState.rules` ask for the state's rules. Those carry the state the engine
    plays by: the rules dealt with the meld rules of the hand's facts.
    """
    made_melds: list[MeldRules] = []
    made_rules: list[MeldRules] = []
    real_with_state, real_with_melds = MeldRules.with_state, canasta.Rules._with_melds

    def with_state(self: MeldRules, **fields: object) -> MeldRules:
        found = real_with_state(self, **fields)  # type: ignore[arg-type]
        made_melds.append(found)
        return found

    def with_melds(self: canasta.Rules, melds: MeldRules) -> canasta.Rules:
        made_rules.append(melds)
        return real_with_melds(self, melds)

    monkeypatch.setattr(MeldRules, "with_state", with_state)
    monkeypatch.setattr(canasta.Rules, "_with_melds", with_melds)
    deck = canasta.cards.Deck(CLUB.deck)
    states: dict[int, RuleFacts] = {}  # (the meld states play moved through, by their facts)
    for seed in range(7000, 7012):  # (hands no other test plays: their meld states are new to the process)
        hand = HandState.deal(CLUB, dealer=3, scores=[0, 0], seed=seed, deck=deck)
        rng = random.Random(seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
            states[id(hand.facts)] = hand.facts
    assert len(states) > 40
    # (One of each per state before.)
    assert len(made_rules) * 4 < len(states) and len(made_melds) * 4 < len(states)
    # Asked, the rules are the rules dealt with the hand's meld state.
    closed = 0
    for seed in range(7000, 7006):
        hand = HandState.deal(CLUB, dealer=3, scores=[0, 0], seed=seed, deck=deck)
        rng = random.Random(seed)
        while not hand.is_over:
            rules = hand.rules
            assert rules.as_dealt is CLUB and rules.melds == hand.facts.meld_rules
            assert rules.melds.closed == hand.closed_ranks and hand.rules is rules  # (made once per state)
            closed += bool(hand.closed_ranks)
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
    assert closed > 10


# What a meld state may share without owning it: the engine's classes, code and enums, other
# facts, the meld tables (kept by kind, `MELD_ADDITIONS_CACHE`).
_NOT_OWNED = (type, types.ModuleType, types.FunctionType, enum.Enum, RuleFacts, MeldTables)


def _reach(roots: list[object], stop: set[int], own: object = None) -> dict[int, object]:
    """The tracked objects ``roots`` reach, entering neither ``stop`` nor `_NOT_OWNED` (but ``own``)."""
    seen: dict[int, object] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in stop or not gc.is_tracked(obj):
            continue
        if obj is not own and isinstance(obj, _NOT_OWNED):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return seen


def test_a_meld_state_keeps_few_objects_for_the_collector() -> None:
    """A meld state kept for later turns and hands owns few objects the garbage collector traverses (issue 35).

    The club rules meet about five new meld states a hand, and the rules dealt keep them
    (`RuleFacts.turn_states`): every object a state owns grows the heap that each later
    collection traverses. A state's key holds ints only (untracked by the collector); its
    facts hold its meld tables, call its validity test directly (no bound method) and share what does not
    read the state (the discard answers, the scoring tables, interned rank sets). Counted
    here: the tracked objects reachable from one state's key and facts and from no other
    state nor the facts dealt: 12.4 a state on average before on the interpreter, 11.4
    compiled (key and value tuples, a bound method, four lists, a new set of ranks), 6.4 and
    5.4 now.
    """
    club = evolve(CLUB)  # (rules equal to the club's, with turn states of their own: this test's alone)
    deck = canasta.cards.Deck(club.deck)
    for seed in range(40):
        hand = HandState.deal(club, dealer=3, scores=[0, 0], seed=seed, deck=deck)
        rng = random.Random(seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
    gc.collect()  # (the collector untracks tuples and dicts that hold nothing it traverses:
    gc.collect()  # a key's floors first, then the key)
    dealt = rule_facts(club)
    states = list(dealt.turn_states.items())
    assert len(states) > 100
    shared = _reach([dealt], {id(dealt.turn_states)}, dealt)
    shared[id(dealt.turn_states)] = dealt.turn_states
    reached: dict[int, int] = {}  # (how many states reach each object)
    owned: list[dict[int, object]] = []
    for key, value in states:
        facts = value if isinstance(value, RuleFacts) else value[0]  # (a pair of facts and tables before)
        found = _reach([key, value, facts], set(shared), facts)
        owned.append(found)
        for i in found:
            reached[i] = reached.get(i, 0) + 1
    counts = [sum(1 for i in found if reached[i] == 1) for found in owned]
    assert sum(counts) / len(counts) <= 7
    assert not any(gc.is_tracked(key) for key, _ in states)


def test_a_new_meld_state_is_made_without_hashing_or_rebuilding_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Rules.during_hand` finds and makes a meld state's rules by the meld rules alone (issue 35).

    The rules dealt are neither hashed (a hash of every rule, special hands included)
    nor built again through ``__init__``: the rules of a new state are the rules dealt
    with other meld rules, equal to ``attrs.evolve``'s, sharing every other field, and
    the same state gives the same rules.
    """
    dealt = canasta.load_rules("modern-american-club")
    # (A state that play never meets, a cap of 3: the club hands other tests played may have met any other.)
    state = evolve(dealt.melds, mixed_cap=3, closed=frozenset({Kind.NINE}))
    calls: list[str] = []

    def counted(name: str, real: object) -> object:
        def call(*args: object, **kwargs: object) -> object:
            calls.append(name)
            return real(*args, **kwargs)  # type: ignore[operator]

        return call

    monkeypatch.setattr(canasta.Rules, "__hash__", counted("hash", canasta.Rules.__hash__))
    monkeypatch.setattr(canasta.Rules, "__init__", counted("init", canasta.Rules.__init__))
    during = dealt.during_hand(state)
    again = dealt.during_hand(evolve(dealt.melds, mixed_cap=3, closed=frozenset({Kind.NINE})))
    assert calls == []
    monkeypatch.undo()
    assert again is during and during.as_dealt is dealt and during.melds is state
    assert during == evolve(dealt, melds=state) and during.rule_sections == dealt.rule_sections
    assert all(
        getattr(during, f.name) is getattr(dealt, f.name) for f in attrs.fields(canasta.Rules) if f.name != "melds"
    )
    assert during.during_hand(dealt.melds) is dealt  # (the state as dealt is the rules dealt)


def _random_counts(rng: random.Random) -> list[int]:
    """14 cards (sometimes 13 or 15) drawn at random, or grouped so that special hands are formed often."""
    counts = [0] * KIND_COUNT
    if rng.random() < 0.5:
        deck = [k for k in range(4, KIND_COUNT) for _ in range(8)] + [1] * 8 + [0] * 4 + [2] * 4 + [3] * 4
        for kind in rng.sample(deck, rng.choice((13, 14, 14, 15))):
            counts[kind] += 1
        return counts
    left = 14
    kinds = list(range(KIND_COUNT))
    rng.shuffle(kinds)
    for kind in kinds:
        if left <= 0:
            break
        n = min(left, rng.choice((1, 1, 2, 2, 2, 3, 4, 5)), 4 if kind in (0, 2, 3) else 8)
        counts[kind] = n
        left -= n
    return counts


def test_the_special_hands_screen_refuses_no_hand_they_form() -> None:
    """`SpecialHand.screen` is a necessary condition: `best_of` with it finds what every `matches` finds."""
    rng = random.Random(35)
    formed = 0
    for _ in range(20_000):
        counts = _random_counts(rng)
        for table in (CLA_HANDS, PAGAT_HANDS):
            matching = [hand for hand in table if hand.matches(tuple(counts))]
            formed += bool(matching)
            for hand in matching:
                assert hand.screen is not None and hand.screen(tuple(counts)), (hand.id, counts)
            unscreened = tuple(attrs.evolve(hand, screen=None) for hand in table)
            found, plain = best_of(table, counts), best_of(unscreened, counts)
            assert (found and found.id) == (plain and plain.id)
    assert formed > 100  # (the grouped draws form special hands often enough to test the screen)


def test_best_of_asks_a_shared_screen_once_and_skips_the_hands_it_refuses() -> None:
    """A table's hands sharing one screen: it is asked once per hand of cards, and a refusal asks no `matches`."""
    asked: list[str] = []

    def screen(counts: object) -> bool:
        asked.append("screen")
        return False

    def matches(counts: object) -> bool:
        asked.append("matches")
        return True

    table = tuple(SpecialHand(f"h{i}", f"H{i}", 1000 + i, "any", matches=matches, screen=screen) for i in range(3))
    counts = [0] * KIND_COUNT
    counts[Kind.FOUR] = 14
    assert best_of(table, counts) is None
    assert asked == ["screen"]
    found = best_of(tuple(attrs.evolve(h, screen=None) for h in table), counts)
    assert found is not None and found.id == "h2"  # (without a screen: every `matches` is asked)
    # Not shared by every hand: the refusal skips the hands it screens, and the others are asked.
    asked.clear()
    mixed = (*table[:2], attrs.evolve(table[2], id="open", screen=None))
    found = best_of(mixed, counts)
    assert found is not None and found.id == "open" and asked == ["screen", "matches"]


@pytest.mark.skipif(canasta.compiled, reason="patches the engine's private shortcuts: the pure-Python engine only")
@pytest.mark.parametrize("house", [(), ("american-discards",), ("american-discards", "dead-ranks", "rule-of-five")])
def test_the_club_shortcuts_decide_as_the_oracle(house: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """The meld phase's shortcuts (american-discards, rule-of-five) give the legal actions the oracle alone gives.

    Each position of random play is generated twice: with the shortcuts, and with each turned
    off (the two-kinds discard test, the two-plain-kinds D5 b test, the shared opening groups).
    """
    from canasta import completion, legality
    from canasta.cards import SECOND_MELD
    from canasta.discards import meld_strands, strict_pile
    from canasta.table import MELD_PHASE

    variant = "modern-american-club" if not house else "modern-american"
    rules = canasta.load_rules(variant, list(house))
    deck = canasta.cards.Deck(rules.deck)
    shortcuts = {
        "_anchored": lambda *args: False,
        "_plain_kinds_held": lambda *args: False,
        "opening_completes_after": lambda turn, hand, after, provisional, groups, rank, *, witness=None, size=-1: (
            completion.can_complete(
                turn, hand, after, opened=False, provisional=provisional, scratch=True, witness=witness, size=size
            )
        ),
    }
    real = {name: getattr(legality, name) for name in shortcuts}
    positions = 0
    for seed in range(40):  # (the first position the two-kinds test decides alone is in hand 15)
        hand = HandState.deal(rules, dealer=seed % 4, scores=[0, 0], seed=seed, deck=deck)
        rng = random.Random(seed)
        while not hand.is_over:
            fast = legality.generate(hand, True)
            for name, off in shortcuts.items():
                monkeypatch.setattr(legality, name, off)
            slow = legality.generate(hand, True)
            for name, on in real.items():
                monkeypatch.setattr(legality, name, on)
            assert fast == slow
            positions += 1
            seat = hand.seat
            two_plain = hand.phase is MELD_PHASE and legality._plain_kinds_held(hand, hand.counts[seat], 2)
            if two_plain and strict_pile(hand, seat):
                # D5 b refuses no meld where two plain kinds are held (the filter is skipped there).
                for action in legality.generate(hand, False):
                    if isinstance(action, canasta.Meld):
                        key = action.rank + SECOND_MELD if action.second else action.rank
                        assert not meld_strands(hand, seat, key, action.naturals, action.twos, action.jokers)
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
    assert positions > 1500


def test_with_state_is_evolve_of_the_meld_state() -> None:
    """`MeldRules.with_state` gives what `attrs.evolve` gives, and passes every field (in the constructor's order)."""
    assert [f.name for f in attrs.fields(MeldRules) if f.init] == [
        "min_size",
        "min_naturals",
        "max_wilds",
        "naturals_per_wild",
        "extra_naturals",
        "add_to_books",
        "several_melds",
        "wilds_onto_books",
        "max_size",
        "canasta_size",
        "wild_melds",
        "natural_only",
        "black_threes_when_going_out",
        "closed_at_canasta",
        "book_makes_room",
        "closed",
        "wilds_only_when_opening",
        "wilds_need_naturals",
        "no_mixed_opening_canasta",
        "wild_meld_first",
        "wild_floors",
        "mixed_cap",
        "special_ranks",
    ], "a MeldRules field was added or moved: update MeldRules.with_state"
    state = {
        "natural_only": frozenset({Kind.ACE}),
        "closed": frozenset({Kind.FIVE}),
        "wild_floors": (1,) * KIND_COUNT,
        "mixed_cap": 6,
    }
    hand_and_foot = canasta.load_rules("hand-and-foot").melds
    for melds in (
        CLUB.melds,
        canasta.load_rules("classic").melds,
        evolve(CLUB.melds, max_size=9, min_size=4),
        hand_and_foot,
        evolve(hand_and_foot, naturals_per_wild=1, extra_naturals=1),
        evolve(hand_and_foot, special_ranks=frozenset({Kind.SEVEN})),
    ):
        made = melds.with_state(**state)
        assert made == evolve(melds, **state)
        assert all(getattr(made, f.name) == getattr(evolve(melds, **state), f.name) for f in attrs.fields(MeldRules))
