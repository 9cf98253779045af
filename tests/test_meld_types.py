"""Meld types (SEQUENCES.md §9 to §12): each rule of groups, sequences, wild melds and black-three groups.

The cases are the rule book's: §13's worked examples where they concern a meld
alone (S-3, S-4, B-1, B-2, R-5) and the decided points before §12. A plugin's
own type (Buraco's runs with one wild card) is built from the public concept
at the end.
"""

from __future__ import annotations

import pickle
from collections.abc import Generator

import attrs
import pytest
from buraco_plugin import BuracoRuns, RunShape

import canasta
from canasta.cards import Suit
from canasta.meldtypes import (
    BlackThreeGroupType,
    BlackThreeShape,
    GroupShape,
    GroupType,
    SequenceShape,
    SequenceType,
    WildMeldType,
    WildShape,
)

SAMBA_GROUP = GroupType()
SAMBA_SEQUENCE = SequenceType()
BOLIVIA_WILD = WildMeldType()
BRAZILIAN_SEQUENCE = SequenceType(going_out_max_size=11)
FREE_WILDS_GROUP = GroupType(max_wilds=None)  # bolivia-free-wilds (§10.9)
Q, J, K = 12, 11, 13
S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def test_s3_wild_cards_in_groups_and_combining() -> None:
    """S-3: a group holds at most 2 wild cards, none joins a canasta, and combining keeps the limits."""
    queens_a = GroupShape(Q, 3, 0, 1)  # Q♠Q♥Q♦Jo
    queens_b = GroupShape(Q, 3)  # Q♣Q♥Q♠
    jacks = GroupShape(J, 7)  # a natural canasta
    # 1. Add 2♥ to A: legal (3 naturals, 2 wild cards).
    a2 = GroupShape(Q, 3, 1, 1)
    assert SAMBA_GROUP.can_add(queens_a, a2)
    # 2. Add 2♣ to A: refused, 3 wild cards.
    assert not SAMBA_GROUP.can_add(a2, GroupShape(Q, 3, 2, 1))
    # 3. Add 2♣ to the jacks: refused, a wild card never joins a canasta.
    assert not SAMBA_GROUP.can_add(jacks, GroupShape(J, 7, 1))
    # 4. Combine A and B: legal, 6 naturals and 2 wild cards, a mixed canasta.
    combined = SAMBA_GROUP.combine(a2, queens_b)
    assert combined == GroupShape(Q, 6, 1, 1)
    assert SAMBA_GROUP.canasta_class(combined) is canasta.CanastaClass.MIXED
    # 5. Lay J♦ J♠ 2♣: legal, a second group of jacks.
    new_jacks = GroupShape(J, 2, 1)
    assert SAMBA_GROUP.valid(new_jacks)
    # 6. Combine it with the jacks canasta: refused, its wild card would join a canasta.
    assert SAMBA_GROUP.combine(new_jacks, jacks) is None
    assert SAMBA_GROUP.combine(jacks, new_jacks) is None
    # ...but a natural group joins a canasta (naturals are unlimited), still natural.
    assert SAMBA_GROUP.combine(jacks, GroupShape(J, 3)) == GroupShape(J, 10)
    assert SAMBA_GROUP.canasta_class(GroupShape(J, 10)) is canasta.CanastaClass.NATURAL


def test_a_natural_and_a_wild_card_join_a_group_together_only_up_to_seven_cards() -> None:
    """§9.3 decided point: n naturals and b >= 1 wild cards join a group of s only if s + n + b <= 7."""
    six = GroupShape(K, 5, 1)
    assert not SAMBA_GROUP.can_add(six, GroupShape(K, 6, 2))  # 6 + 1 + 1 = 8: refused
    assert SAMBA_GROUP.can_add(six, GroupShape(K, 6, 1))  # the natural alone: legal
    assert not SAMBA_GROUP.can_add(GroupShape(K, 6, 1), GroupShape(K, 6, 2))  # then no wild card joins
    assert SAMBA_GROUP.can_add(GroupShape(K, 4), GroupShape(K, 5, 1, 1))  # 4 + 1 + 2 = 7: legal
    assert SAMBA_GROUP.can_add(GroupShape(K, 9), GroupShape(K, 12))  # naturals join a canasta
    assert not SAMBA_GROUP.closed(GroupShape(K, 12))


def test_a_new_group_may_hold_two_wild_cards_at_any_size_and_needs_two_naturals() -> None:
    """§9.3: laid with up to 2 wild cards whatever its size; at least 2 naturals; 3 cards at least."""
    assert SAMBA_GROUP.valid(GroupShape(K, 7, 2))  # 9 cards with 2 wild cards, laid at once
    assert SAMBA_GROUP.canasta_class(GroupShape(K, 7, 2)) is canasta.CanastaClass.MIXED
    assert not SAMBA_GROUP.valid(GroupShape(K, 1, 2))  # one natural
    assert not SAMBA_GROUP.valid(GroupShape(K, 2))  # two cards
    assert not SAMBA_GROUP.valid(GroupShape(K, 4, 2, 1))  # three wild cards
    assert SAMBA_GROUP.canasta_class(GroupShape(K, 6)) is None


def test_b2_the_group_wild_limit_and_bolivia_free_wilds() -> None:
    """B-2: K♠K♥2♣2♦ legal, with Jo refused; legal under bolivia-free-wilds; 2♣2♦Jo is a wild meld."""
    assert SAMBA_GROUP.valid(GroupShape(K, 2, 2))
    assert not SAMBA_GROUP.valid(GroupShape(K, 2, 2, 1))
    assert FREE_WILDS_GROUP.valid(GroupShape(K, 2, 2, 1))
    assert BOLIVIA_WILD.valid(WildShape(2, 1))
    # bolivia-free-wilds lifts the limit for adding and combining alike, never past a canasta (§10.9).
    assert FREE_WILDS_GROUP.can_add(GroupShape(K, 2, 2, 1), GroupShape(K, 2, 3, 1))
    assert not FREE_WILDS_GROUP.can_add(GroupShape(K, 7), GroupShape(K, 7, 1))
    assert FREE_WILDS_GROUP.combine(GroupShape(K, 2, 2), GroupShape(K, 2, 0, 1)) == GroupShape(K, 4, 2, 1)
    assert SAMBA_GROUP.combine(GroupShape(K, 2, 2), GroupShape(K, 2, 0, 1)) is None


def test_s4_sequence_limits() -> None:
    """S-4: a samba is closed at 7; sequences never join; the ace is high only."""
    run = SequenceShape(S, 8, 13)  # 8♠ to K♠
    samba = SequenceShape(S, 8, 14)
    # 1. Add A♠: legal, a samba, closed.
    assert SAMBA_SEQUENCE.can_add(run, samba)
    assert SAMBA_SEQUENCE.canasta_class(samba) is canasta.CanastaClass.SEQUENCE
    assert SAMBA_SEQUENCE.closed(samba)
    # 2. Add 7♠ to the samba: refused.
    assert not SAMBA_SEQUENCE.can_add(samba, SequenceShape(S, 7, 14))
    # 3. Lay 4♠5♠6♠7♠: legal, a separate sequence (never combined).
    low = SequenceShape(S, 4, 7)
    assert SAMBA_SEQUENCE.valid(low)
    assert SAMBA_SEQUENCE.combine(low, run) is None
    # 4. K♦ A♦ 4♦: no wrap (no shape holds it: a sequence runs 4 up to the ace).
    with pytest.raises(ValueError, match="4 up to the ace"):
        SequenceShape(D, 13, 4)
    with pytest.raises(ValueError, match="4 up to the ace"):
        SequenceShape(D, 3, 5)
    # 5. Q♦ K♦ A♦: legal.
    assert SAMBA_SEQUENCE.valid(SequenceShape(D, 12, 14))


def test_sequences_grow_at_their_ends_only_and_within_seven_cards() -> None:
    """§9.4: cards join at the low end, the high end or both; the result is a sequence of at most 7."""
    run = SequenceShape(H, 5, 7)
    assert SAMBA_SEQUENCE.can_add(run, SequenceShape(H, 4, 8))  # both ends in one action
    assert SAMBA_SEQUENCE.can_add(run, SequenceShape(H, 5, 11))  # 5 to J: 7 cards, a samba
    assert not SAMBA_SEQUENCE.can_add(run, SequenceShape(H, 5, 12))  # 8 cards
    assert not SAMBA_SEQUENCE.can_add(run, SequenceShape(D, 5, 8))  # another suit
    assert not SAMBA_SEQUENCE.can_add(run, run)  # nothing added
    assert not SAMBA_SEQUENCE.can_add(run, SequenceShape(H, 6, 8))  # a card taken away
    assert not SAMBA_SEQUENCE.valid(SequenceShape(H, 5, 6))  # two cards
    assert SAMBA_SEQUENCE.valid(SequenceShape(H, 4, 10))  # laid at 7: a samba at once
    assert SAMBA_SEQUENCE.canasta_class(SequenceShape(H, 4, 10)) is canasta.CanastaClass.SEQUENCE
    assert not SAMBA_SEQUENCE.valid(SequenceShape(H, 4, 11))  # 8 cards never laid


def test_r5_an_escalera_grows_past_seven_only_in_a_going_out_turn() -> None:
    """R-5: Brazilian's escalera 5♦ to J♦ takes Q♦ and 4♦ while going out (to 11), never otherwise."""
    escalera = SequenceShape(D, 5, 11)
    grown = SequenceShape(D, 4, 12)
    assert BRAZILIAN_SEQUENCE.can_add(escalera, grown, going_out=True)
    assert not BRAZILIAN_SEQUENCE.can_add(escalera, SequenceShape(D, 5, 12))  # (b): no going out
    assert BRAZILIAN_SEQUENCE.closed(escalera)
    assert not BRAZILIAN_SEQUENCE.closed(escalera, going_out=True)
    assert BRAZILIAN_SEQUENCE.can_add(SequenceShape(D, 4, 13), SequenceShape(D, 4, 14), going_out=True)  # 11
    assert BRAZILIAN_SEQUENCE.closed(SequenceShape(D, 4, 14), going_out=True)
    # §11.3: a sequence of 8 or more cards may be laid in that turn too, never otherwise.
    assert BRAZILIAN_SEQUENCE.valid(SequenceShape(D, 4, 12), going_out=True)
    assert not BRAZILIAN_SEQUENCE.valid(SequenceShape(D, 4, 12))
    # (c) samba and bolivia: always refused.
    assert not SAMBA_SEQUENCE.can_add(escalera, grown, going_out=True)


def test_b1_wild_melds_and_the_bolivia() -> None:
    """B-1: a wild meld of 7 is a bolivia, closed; a second wild meld may be laid; samba has none."""
    six = WildShape(4, 2)
    bolivia = WildShape(4, 3)
    assert BOLIVIA_WILD.can_add(six, bolivia)
    assert BOLIVIA_WILD.canasta_class(bolivia) is canasta.CanastaClass.WILD
    assert BOLIVIA_WILD.closed(bolivia)
    assert not BOLIVIA_WILD.can_add(bolivia, WildShape(5, 3))
    assert BOLIVIA_WILD.valid(WildShape(3))
    assert not BOLIVIA_WILD.valid(WildShape(2))
    assert BOLIVIA_WILD.combine(WildShape(3), WildShape(2, 2)) == WildShape(5, 2)
    assert BOLIVIA_WILD.combine(WildShape(3, 1), WildShape(2, 2)) is None  # 8 wild cards
    # A group type never judges a wild meld (and Samba's types have no wild meld type at all).
    assert not SAMBA_GROUP.valid(WildShape(3))


def test_black_three_groups_are_laid_whole_when_going_out_and_never_a_canasta() -> None:
    """§9.5: one group of 3 to 6 black threes, only when going out; never a canasta, takes no card."""
    threes = BlackThreeGroupType()
    assert threes.going_out_only and not SAMBA_GROUP.going_out_only
    assert threes.valid(BlackThreeShape(3)) and threes.valid(BlackThreeShape(6))
    assert not threes.valid(BlackThreeShape(2)) and not threes.valid(BlackThreeShape(7))
    assert not threes.can_add(BlackThreeShape(3), BlackThreeShape(4), going_out=True)
    assert threes.closed(BlackThreeShape(3))
    assert threes.canasta_class(BlackThreeShape(6)) is None


def test_types_refuse_shapes_of_other_types_and_groups_of_other_ranks() -> None:
    """Every answer about another type's shape is a refusal, never an error."""
    for kind in (SAMBA_GROUP, SAMBA_SEQUENCE, BOLIVIA_WILD, BlackThreeGroupType()):
        shapes = (GroupShape(K, 3), SequenceShape(H, 4, 6), WildShape(3), BlackThreeShape(3))
        others = [s for s in shapes if not kind.judges(s)]
        assert len(others) == 3
        for shape in others:
            assert not kind.valid(shape)
            assert not kind.can_add(shape, shape)
            assert not kind.closed(shape)
            assert kind.canasta_class(shape) is None
            assert kind.combine(shape, shape) is None
    assert not SAMBA_GROUP.can_add(GroupShape(K, 3), GroupShape(Q, 4))
    assert SAMBA_GROUP.combine(GroupShape(K, 3), GroupShape(Q, 3)) is None


def test_shapes_refuse_impossible_contents() -> None:
    """A shape is a plain value: negative counts, non-natural ranks and non-int counts are refused."""
    with pytest.raises(ValueError, match="natural rank"):
        GroupShape(3, 3)
    with pytest.raises(ValueError, match="must not be negative"):
        GroupShape(K, -1)
    with pytest.raises(TypeError, match="must be an int"):
        WildShape(True)
    with pytest.raises(ValueError):
        SequenceShape(7, 4, 6)  # (no such suit)


def test_types_are_hashable_and_picklable_rule_data() -> None:
    """Rules travel to other processes and key caches: a type is a frozen, picklable value."""
    for kind in (SAMBA_GROUP, BRAZILIAN_SEQUENCE, BOLIVIA_WILD, BlackThreeGroupType(max_size=4)):
        again = pickle.loads(pickle.dumps(kind))
        assert again == kind and hash(again) == hash(kind)
    assert GroupType() != GroupType(max_wilds=None)


def test_a_sequence_canasta_is_refused_in_a_going_out_quota_until_the_engine_plays_sequences() -> None:
    """A quota no meld of the engine can meet is refused when rules are compiled, naming the hook."""

    class SequenceQuota:
        @canasta.hookimpl(wrapper=True)
        def canasta_going_out(self) -> Generator[None, canasta.GoingOutRules, canasta.GoingOutRules]:
            return attrs.evolve((yield), canastas_by_class={canasta.CanastaClass.SEQUENCE: 1})

    stack = canasta.default_registry().plugin_stack("classic")
    pm = canasta.make_plugin_manager([*stack, ("sequence quota", SequenceQuota())])
    with pytest.raises(canasta.RulesError, match=r"canasta_going_out: the quota needs 1 sequence canasta"):
        canasta.compile_rules(pm, "classic")


def test_a_plugin_defines_its_own_meld_type_from_the_public_concept() -> None:
    """Buraco's runs with one wild card (`buraco_plugin`, played in `tests/test_own_meld_types.py`), judged."""
    runs = BuracoRuns()
    dirty = RunShape(H, frozenset({5, 7}), twos=1)  # the 2 stands for the 6
    assert runs.valid(dirty) and runs.judges(dirty) and not SAMBA_SEQUENCE.judges(dirty)
    assert runs.can_add(dirty, RunShape(H, frozenset(range(5, 11)) - {6}, twos=1))
    assert runs.canasta_class(RunShape(H, frozenset(range(5, 11)), twos=1)) is canasta.CanastaClass.MIXED
    assert runs.canasta_class(RunShape(H, frozenset(range(5, 12)))) is canasta.CanastaClass.SEQUENCE
    assert not runs.can_add(dirty, RunShape(H, frozenset({5, 6, 7, 8})))  # the wild card stays
    assert runs.combine(dirty, dirty) is None  # the default: runs never merge
    assert runs.shape_of(runs.cards_of(dirty)) == dirty  # lossless
    assert pickle.loads(pickle.dumps(runs)) == runs
    assert not SAMBA_GROUP.valid(dirty)
