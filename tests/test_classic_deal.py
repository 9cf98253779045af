"""SPEC.md §1 "Table and deal" and drawing: the deal, the upcard, red threes."""

from __future__ import annotations

import random

import pytest
from helpers import accepted, classic_rules, position, refused

from canasta import DrawStock, HandState, Kind, Phase, RuleCode, TakePile

R3, WILD = int(Kind.RED_THREE), (int(Kind.JOKER), int(Kind.TWO))


def reference_deal(seed: int, dealer: int = 3) -> dict[str, object]:
    """An independent re-implementation of SPEC.md §1's deal from the same shuffle."""
    rules = classic_rules()
    deck = HandState.deal(rules, dealer=dealer, scores=[0, 0], seed=seed).deck
    stock = list(range(len(deck)))
    random.Random(seed).shuffle(stock)
    hands: list[list[int]] = [[] for _ in range(4)]
    for _ in range(11):
        for i in range(4):
            hands[(dealer + 1 + i) % 4].append(stock.pop())
    pile = [stock.pop()]
    while deck.kinds[pile[-1]] in (*WILD, R3):
        pile.append(stock.pop())
    threes: list[list[int]] = [[] for _ in range(4)]
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        while any(deck.kinds[c] == R3 for c in hands[seat]):
            card = next(c for c in hands[seat] if deck.kinds[c] == R3)
            hands[seat].remove(card)
            threes[seat].append(card)
            hands[seat].append(stock.pop())
    return {"hands": hands, "pile": pile, "threes": threes, "stock": stock}


@pytest.mark.parametrize("seed", range(12))
def test_deal_matches_the_rules(seed: int) -> None:
    state = HandState.deal(classic_rules(), dealer=3, scores=[0, 0], seed=seed)
    ref = reference_deal(seed)
    assert len(state.deck) == 108
    for seat in range(4):
        assert sorted(c for k in state.hands[seat] for c in k) == sorted(ref["hands"][seat])  # type: ignore[index]
        assert sorted(state.threes[seat]) == sorted(ref["threes"][seat])  # type: ignore[index]
        assert state.sizes[seat] == 11  # red threes are replaced: 11 cards each
        assert state.counts[seat][R3] == 0
    assert state.pile == ref["pile"]
    assert state.stock == ref["stock"]
    assert state.seat == 0 and state.phase is Phase.DRAW  # left of dealer 3 plays first
    assert sum(len(v) for v in state.card_locations().values()) == 108


def _seed_where(predicate: object, dealer: int = 3) -> HandState:
    for seed in range(5000):
        state = HandState.deal(classic_rules(), dealer=dealer, scores=[0, 0], seed=seed)
        if predicate(state):  # type: ignore[operator]
            return state
    raise AssertionError("no such deal in 5000 seeds")


def test_covered_upcard_freezes_the_pile() -> None:
    state = _seed_where(lambda s: len(s.pile) >= 2)
    kinds = [state.kinds[c] for c in state.pile]
    assert all(k in (*WILD, R3) for k in kinds[:-1])
    assert kinds[-1] not in (*WILD, R3)
    assert state.pile_freezers == len(kinds) - 1
    assert state.pile_frozen_for(0) and state.pile_frozen_for(1)


def test_uncovered_upcard_does_not_freeze_for_a_melded_side() -> None:
    state = _seed_where(lambda s: len(s.pile) == 1)
    assert state.pile_freezers == 0
    assert state.pile_frozen_for(0)  # side 0 has not melded: frozen for it
    state.opened[0] = True
    assert not state.pile_frozen_for(0)


def test_red_three_upcard_goes_to_the_taker_without_replacement() -> None:
    state = position(
        hands=[["QH", "QS", "5C", "6C"], ["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]],
        pile=["3H", "QD"],
        scores=[-100, 0],
    )
    assert state.pile_frozen_for(0)
    stock_before = list(state.stock)
    refused(state, TakePile(0, 0, 0), RuleCode.PILE_FROZEN)
    accepted(state, TakePile(2, 0, 0))  # three queens = 30 >= 15
    assert [state.deck.cards[c].code for c in state.threes[0]] == ["3H"]
    assert state.stock == stock_before  # no replacement
    assert state.sizes[0] == 2 and state.pile == []
    assert not state.pile_frozen_for(0)  # the pile unfreezes by being taken


def test_red_three_on_top_of_pile_cannot_be_taken() -> None:
    # A red three is only ever buried; but a position may show it on top: it blocks the take.
    state = position(
        hands=[["QH", "QS", "5C"], ["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]],
        pile=["QD", "3H"],
        melds=[[["KH", "KS", "KD"]], []],
    )
    assert list(state.legal_actions()) == [DrawStock(), state.legal_actions()[1]]
    refused(state, TakePile(2, 0, 0), RuleCode.PILE_BLOCKED)


def test_drawing_a_red_three_lays_it_out_and_replaces_it() -> None:
    state = position(
        hands=[["QH", "5C"], ["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]],
        pile=["9D"],
        stock_top=["3D", "3H", "KC", "AD"],
        melds=[[["KH", "KS", "KD"]], []],
    )
    accepted(state, DrawStock())
    assert sorted(state.deck.cards[c].code for c in state.threes[0]) == ["3D", "3H"]
    assert sorted(c.code for c in state.hand_cards(0)) == sorted(["QH", "5C", "KC"])
    assert state.deck.cards[state.stock[-1]].code == "AD" and state.phase is Phase.MELD


def test_draw_refused_outside_the_draw_phase() -> None:
    state = position(
        hands=[["QH", "5C"], ["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]],
        melds=[[["KH", "KS", "KD"]], []],
        phase="meld",
    )
    refused(state, DrawStock(), RuleCode.WRONG_PHASE)


def test_card_values() -> None:
    values = classic_rules().card_values
    expected = {
        Kind.JOKER: 50, Kind.TWO: 20, Kind.ACE: 20, Kind.KING: 10, Kind.EIGHT: 10,
        Kind.SEVEN: 5, Kind.FOUR: 5, Kind.BLACK_THREE: 5, Kind.RED_THREE: 0,
    }  # fmt: skip
    for kind, value in expected.items():
        assert values[kind] == value
