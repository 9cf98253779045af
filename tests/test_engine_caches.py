"""The engine's caches of rule-derived tables: shared by equal rules, and bounded."""

from __future__ import annotations

from attrs import evolve

import canasta
from canasta.cards import Kind
from canasta.rulefacts import rule_facts
from canasta.table import MELD_ADDITIONS_CACHE, meld_tables


def test_equal_meld_rules_share_their_tables_and_caches() -> None:
    """Rules made anew during a hand (the club rules do) reuse the tables of equal rules."""
    rules = canasta.load_rules("modern-american")
    closed = evolve(rules.melds, closed=frozenset({Kind.ACE}))
    again = evolve(rules.melds, closed=frozenset({Kind.ACE}))
    assert closed is not again and closed == again
    # (The dicts are the shared tables: a compiled engine returns the pair as a new tuple.)
    assert all(a is b for a, b in zip(meld_tables(closed), meld_tables(again), strict=True))
    assert meld_tables(closed)[0] is not meld_tables(rules.melds)[0]
    first, second = rules.during_hand(closed), rules.during_hand(again)
    assert rule_facts(first).additions is rule_facts(second).additions
    assert rule_facts(first).validity is rule_facts(second).validity
    assert rule_facts(first).additions is not rule_facts(rules).additions


def test_the_meld_tables_kept_are_bounded() -> None:
    """However many meld rules a long run makes, only a bounded number of their tables is kept."""
    rules = canasta.load_rules("classic")
    for size in range(3, 1400):
        meld_tables(evolve(rules.melds, max_size=size))
    assert 0 < len(MELD_ADDITIONS_CACHE) <= 1024
