"""The engine's caches of rule-derived tables: shared by equal rules, and bounded."""

from __future__ import annotations

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from canasta import HandState, discards, goingout, legality
from canasta.cards import Kind
from canasta.discards import discardable_kinds, discardable_now, plain_kinds
from canasta.goingout import going_out_options
from canasta.registry import default_registry
from canasta.rulefacts import rule_facts
from canasta.table import MELD_ADDITIONS_CACHE, MeldAdditions, meld_tables


def test_equal_meld_rules_share_their_tables_and_caches() -> None:
    """Rules made anew during a hand (the club rules do) reuse the tables of equal rules."""
    rules = canasta.load_rules("modern-american")
    closed = evolve(rules.melds, closed=frozenset({Kind.ACE}))
    again = evolve(rules.melds, closed=frozenset({Kind.ACE}))
    assert closed is not again and closed == again
    assert all(a is b for a, b in zip(meld_tables(closed), meld_tables(again), strict=True))
    assert meld_tables(closed)[Kind.ACE] is not meld_tables(rules.melds)[Kind.ACE]
    first, second = rules.during_hand(closed), rules.during_hand(again)
    assert all(a is b for a, b in zip(rule_facts(first).additions, rule_facts(second).additions, strict=True))
    assert all(a is b for a, b in zip(rule_facts(first).validity, rule_facts(second).validity, strict=True))
    assert rule_facts(first).additions[Kind.ACE] is not rule_facts(rules).additions[Kind.ACE]


def test_the_meld_tables_kept_are_bounded() -> None:
    """However many meld rules a long run makes, only a bounded number of their tables is kept."""
    rules = canasta.load_rules("classic")
    for size in range(3, 1400):
        meld_tables(evolve(rules.melds, max_size=size))
    assert 0 < len(MELD_ADDITIONS_CACHE) <= 4096


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(["classic", "modern-american", "cuban"]),
    house_rule=st.sampled_from([(), ("wilds-at-most-naturals",), ("aces-pure",), ("viennese-wild-canasta",)]),
    asks=st.lists(
        st.tuples(st.integers(4, 14), st.integers(0, 15), st.integers(0, 4), st.integers(0, 4)),
        min_size=1,
        max_size=40,
    ),
)
def test_new_meld_entries_filtered_from_wider_ones_are_those_built_directly(
    variant: str, house_rule: tuple[str, ...], asks: list[tuple[int, int, int, int]]
) -> None:
    """A new meld's additions filtered from a wider entry (`_new_meld_additions`) are exactly
    `valid_additions`' for those cards: the same actions, in the same order, and the same most."""
    registry = default_registry()
    if house_rule and not registry.fits(house_rule[0], variant):
        house_rule = ()
    melds = canasta.load_rules(variant, house_rule).melds
    built: list[tuple[int, int, int, MeldAdditions]] = []
    rank = asks[0][0]  # (one kind's list, as `meld_tables` keeps one per kind)
    asked: list[tuple[int, int, int]] = []
    for _, have, twos, jokers in asks:
        entry = legality._new_meld_additions(built, melds.is_valid, rank, have, twos, jokers)
        direct = legality._valid_additions(melds.is_valid, (rank, 0, 0, 0, have, twos, jokers))
        assert entry.actions == direct.actions
        assert entry.shapes == direct.shapes
        assert entry.most == direct.most
        # The entries kept to filter from: none contains another, and every situation asked
        # so far is contained in one of them (the widest are kept).
        for i, a in enumerate(built):
            for b in built[i + 1 :]:
                assert not (a[0] <= b[0] and a[1] <= b[1] and a[2] <= b[2])
                assert not (b[0] <= a[0] and b[1] <= a[1] and b[2] <= a[2])
        asked.append((have, twos, jokers))
        for h, t, j in asked:
            assert any(h <= b[0] and t <= b[1] and j <= b[2] for b in built)


@pytest.mark.parametrize("variant", ["classic", "cuban", "modern-american"])
def test_discardable_kinds_read_from_the_facts_are_the_rules_own(variant: str) -> None:
    """`discardable_now` (cached on the hand's facts) answers as `discardable_kinds` of the hand's rules and turn,
    in and after a first round without black-three discards (Cuban), and for another hand of the same rules."""
    rules = canasta.load_rules(variant)
    for seed in (0, 1):
        hand = HandState.deal(rules, dealer=0, scores=[0] * rules.side_count, seed=seed)
        for turn in range(rules.players + 2):
            hand.turn = turn
            assert discardable_now(hand) == discardable_kinds(hand.rules, turn)
    first_round = discardable_kinds(rules, 0)
    later = discardable_kinds(rules, rules.players)
    # Cuban forbids discarding black threes in the first round; in the others the round changes nothing.
    assert (first_round != later) == (variant == "cuban")
    assert not later[Kind.RED_THREE]
    if variant == "cuban":
        assert not first_round[Kind.BLACK_THREE] and later[Kind.BLACK_THREE]


def test_the_rules_kept_for_memo_keys_are_bounded() -> None:
    """The memos keyed by id of the rules keep those rules alive only while their entries stand,
    so a long run making rules objects (the club rules do, every turn) does not keep them all."""
    rules = canasta.load_rules("modern-american", ("american-discards",))
    many = [evolve(rules, hand_size=11 + i % 2) for i in range(5000)]
    hand = [0] * 15
    hand[4] = 3
    for each in many:
        going_out_options(each, hand, {}, (True,) * 15, need=0)
        plain_kinds(each)
    assert len(goingout._KEEP_RULES) <= 64
    assert len(discards._PLAIN) <= 4097
    assert all(kept is each for each, (kept, _) in ((r, discards._PLAIN[id(r)]) for r in many[-10:]))
