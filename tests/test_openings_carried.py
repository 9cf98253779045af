"""Openings found in one meld phase carry to the next of the same turn (`canasta.completion.OpeningsFound`).

A side that has not opened melds provisionally; the next meld phase of that turn
reuses the openings already found that contain the melds made since, instead of
searching again (SPEC §0, "The initial meld"). The carried openings must change
no answer: the legal list with them equals the list computed afresh, and a
position that does not follow from the record's by melds alone gets nothing.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta import HandState, Meld, Phase
from canasta.cards import JOKER, KIND_COUNT, TWO, Deck
from canasta.completion import OpeningsFound
from canasta.legality import generate

CASES = [
    ("classic", ()),
    ("three-player", ()),
    ("cuban", ()),
    ("modern-american", ()),
    ("modern-american", ("splash",)),
    ("modern-american", ("aces-pure",)),
    ("modern-american", ("american-discards",)),
    ("modern-american-club", ()),
]


@pytest.mark.parametrize(("variant", "house_rules"), CASES)
def test_legal_list_with_carried_openings_equals_a_fresh_one(variant: str, house_rules: tuple[str, ...]) -> None:
    rules = canasta.load_rules(variant, house_rules)
    deck = Deck(rules.deck)
    carried = 0
    for hand_no in range(60):
        state = HandState.deal(rules, dealer=0, scores=[0] * rules.side_count, seed=f"carry:{hand_no}", deck=deck)
        rng = random.Random(hand_no)
        while state.phase is not Phase.OVER:
            side = state.seating[state.seat]
            if state.phase is Phase.MELD and state.melded_this_turn and not state.opened[side]:
                fresh = state.copy()
                fresh._openings = None
                fresh._legal = None
                record = state._openings
                legal = state.legal_actions()
                assert list(legal) == generate(fresh, True), (variant, house_rules, hand_no)
                kept = state._openings
                if record is not None and kept is not None and kept is not record and kept.found[0] in record.found:
                    carried += 1  # (this phase's witness came from the earlier phase's record)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    if variant in ("classic", "modern-american") and not house_rules:
        assert carried > 0  # the hands do reach meld phases after a provisional meld with a record


def _record() -> OpeningsFound:
    rules = canasta.load_rules("classic")
    hand = [0] * KIND_COUNT
    hand[TWO] = 1
    hand[JOKER] = 1
    hand[9] = 3
    hand[10] = 3
    hand[11] = 2
    opening = {9: (3, 0, 0), 10: (3, 1, 0)}
    other = {9: (3, 0, 0), 11: (2, 0, 1)}
    return OpeningsFound(rules, ("tag",), hand, {}, 0, [opening, other])


def test_covering_gives_the_openings_that_contain_the_melds_made_since() -> None:
    record = _record()
    rules = record.rules
    values = rules.card_values
    assert record.covering(rules, ("tag",), record.hand[:], {}, 0) == record.found
    # Three nines melded: both openings contain that meld.
    hand = record.hand[:]
    hand[9] -= 3
    assert record.covering(rules, ("tag",), hand, {9: (3, 0, 0)}, values[9] * 3) == record.found
    # Two tens and a 2: only the first opening contains it.
    hand = record.hand[:]
    hand[10] -= 2
    hand[TWO] -= 1
    count = values[10] * 2 + values[TWO]
    assert record.covering(rules, ("tag",), hand, {10: (2, 1, 0)}, count) == [record.found[0]]
    # Two tens and the joker: no opening puts a joker with the tens.
    hand = record.hand[:]
    hand[10] -= 2
    hand[JOKER] -= 1
    count = values[10] * 2 + values[JOKER]
    assert record.covering(rules, ("tag",), hand, {10: (2, 0, 1)}, count) == []


def test_covering_refuses_a_position_that_does_not_follow_by_melds() -> None:
    record = _record()
    rules = record.rules
    values = rules.card_values
    melded = record.hand[:]
    melded[9] -= 3
    after = {9: (3, 0, 0)}
    count = values[9] * 3
    assert record.covering(rules, ("tag",), melded, after, count)
    # Another turn, seat or answer (the tag), or other rules.
    assert record.covering(rules, ("other",), melded, after, count) == []
    assert record.covering(canasta.load_rules("classic", ["black-three-freezes"]), ("tag",), melded, after, count) == []
    # The hand changed besides the meld (a card left it some other way, or came in).
    for kind in (9, 10, TWO):
        changed = melded[:]
        changed[kind] -= 1
        assert record.covering(rules, ("tag",), changed, after, count) == []
        changed[kind] += 2
        assert record.covering(rules, ("tag",), changed, after, count) == []
    # A meld that shrank or went away (an earlier position than the record's), or a count that does not add up.
    later = OpeningsFound(rules, ("tag",), melded, after, count, record.found)
    assert later.covering(rules, ("tag",), record.hand[:], {}, 0) == []
    assert record.covering(rules, ("tag",), melded, after, count + 5) == []


def test_meld_phases_after_a_provisional_meld_reuse_the_openings() -> None:
    """In seeded modern American hands, a later meld phase of an opening turn finds its witness carried."""
    rules = canasta.load_rules("modern-american")
    deck = Deck(rules.deck)
    reused = 0
    for hand_no in range(40):
        state = HandState.deal(rules, dealer=0, scores=[0, 0], seed=f"reuse:{hand_no}", deck=deck)
        rng = random.Random(hand_no)
        while state.phase is not Phase.OVER:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            side = state.seating[state.seat]
            opening_turn = state.phase is Phase.MELD and isinstance(action, Meld) and not state.opened[side]
            record = state._openings
            state.apply(action)
            if opening_turn and record is not None and state.phase is Phase.MELD and not state.opened[side]:
                state.legal_actions()
                kept = state._openings
                if kept is not None and kept is not record and kept.found and kept.found[0] in record.found:
                    reused += 1
    assert reused > 10
