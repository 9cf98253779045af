"""SPEC.md §1 "Stock exhaustion": forced and optional takes, the end, a red three as the last card."""

from __future__ import annotations

from helpers import accepted, refused, short_stock

from canasta import AskGoOut, Discard, DrawStock, EndHand, HandEnd, Kind, Meld, Phase, RuleCode, TakePile

Q = Kind.QUEEN
QUEENS = ["QH", "QS", "QD"]
KINGS = ["KH", "KS", "KD"]
LAYOFF, PAIR = TakePile(0, 0, 0), TakePile(2, 0, 0)


def empty_stock(  # type: ignore[no-untyped-def]
    hand: list[str], pile: list[str], side0: list[list[str]], seat1: tuple[str, ...] = ("4H",), side1=()
):
    return short_stock([], hands=[hand, list(seat1), ["4C"], []], pile=pile, melds=[side0, list(side1)])


def test_a_matching_discard_must_be_taken() -> None:
    state = empty_stock(["9C", "8C"], ["7S", "QC"], [QUEENS], seat1=("7H", "7C", "5C", "6C"), side1=[KINGS])
    assert state.phase is Phase.DRAW and not state.stock
    assert list(state.legal_actions()) == [LAYOFF, AskGoOut()]
    refused(state, EndHand(), RuleCode.MUST_TAKE_PILE)
    refused(state, DrawStock(), RuleCode.STOCK_EMPTY)
    accepted(state, LAYOFF)
    accepted(state, Discard(Kind.SEVEN))
    assert state.seat == 1 and state.end is None  # play goes on while discards are taken
    assert PAIR in state.legal_actions()


def test_a_discard_for_a_new_meld_may_be_taken_or_declined() -> None:
    state = empty_stock(["9C", "9S", "8C"], ["7S", "9D"], [QUEENS])
    assert set(state.legal_actions()) == {PAIR, EndHand(), AskGoOut()}
    trial = state.copy()
    accepted(trial, PAIR)
    assert trial.melds[0][Kind.NINE].size == 3
    accepted(state, EndHand())
    assert state.end is HandEnd.STOCK_EXHAUSTED and state.went_out is None
    assert all(s.going_out == 0 for s in state.score().sides)


def test_the_hand_ends_when_the_player_cannot_take() -> None:
    state = empty_stock(["9C", "8C"], ["7S", "JD"], [QUEENS])
    assert state.is_over and state.end is HandEnd.STOCK_EXHAUSTED
    assert list(state.legal_actions()) == []
    refused(state, DrawStock(), RuleCode.HAND_OVER)


def test_a_frozen_pile_is_not_forced() -> None:
    state = empty_stock(["QC", "QC", "8C"], ["2S", "7S", "QD"], [QUEENS])
    assert list(state.legal_actions()) == [PAIR, EndHand(), AskGoOut()]  # optional: frozen, only a natural pair


def test_the_one_card_rule_still_applies() -> None:
    state = empty_stock(["8C"], ["QC"], [QUEENS])
    assert state.is_over and state.end is HandEnd.STOCK_EXHAUSTED


def test_last_stock_card_a_red_three_ends_the_hand_at_once() -> None:
    state = short_stock(["3H"], hands=[["QC", "QC", "8C"], ["4H"], ["4C"], []], melds=[[QUEENS], []])
    accepted(state, DrawStock())
    assert state.end is HandEnd.RED_THREE_LAST and state.phase is Phase.OVER
    assert [state.deck.cards[c].code for c in state.threes[0]] == ["3H"]
    refused(state, Meld(Q, 2, 0, 0), RuleCode.HAND_OVER)
    refused(state, Discard(Kind.EIGHT), RuleCode.HAND_OVER)
    assert state.sizes[0] == 3  # nothing melded or discarded


def test_last_stock_card_an_ordinary_card_lets_the_turn_finish() -> None:
    state = short_stock(["9H"], hands=[["QC", "QC", "8C"], ["4H"], ["4C"], []], melds=[[QUEENS], []])
    accepted(state, DrawStock())
    assert state.phase is Phase.MELD and not state.stock
    accepted(state, Meld(Q, 2, 0, 0))
    accepted(state, Discard(Kind.EIGHT))
    # Seat 1 (4H) cannot take the 8: no meld of eights, no pair: the hand ends.
    assert state.end is HandEnd.STOCK_EXHAUSTED


def test_stock_exhaustion_in_a_red_three_replacement() -> None:
    state = short_stock(["3D", "3H"], hands=[["QC", "QC", "8C"], ["4H"], ["4C"], []], melds=[[QUEENS], []])
    accepted(state, DrawStock())
    assert state.end is HandEnd.RED_THREE_LAST and len(state.threes[0]) == 2
