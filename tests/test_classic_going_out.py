"""SPEC.md §1 "Going out": a canasta needed, the optional final discard, permission, the concealed bonus."""

from __future__ import annotations

import pytest
from helpers import accepted, position, refused

from canasta import (
    AnswerGoOut,
    AskGoOut,
    Discard,
    DrawStock,
    HandEnd,
    InvalidPositionError,
    Kind,
    Meld,
    Phase,
    RuleCode,
    TakePile,
)

Q, J, N9 = Kind.QUEEN, Kind.JACK, Kind.NINE
CANASTA = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
SIX_QUEENS = ["QH", "QS", "QD", "QC", "QH", "QS"]
OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]


def at(hand: list[str], side0: list[list[str]], phase: str = "meld", **kw: object):  # type: ignore[no-untyped-def]
    return position(hands=[hand, *OTHERS], melds=[side0, []], phase=phase, **kw)


def test_going_out_needs_a_canasta() -> None:
    # One card left and no canasta: discarding it would go out, and nothing else is possible, so play
    # never reaches this turn (the oracle keeps a card back) and build_position refuses it as a dead end.
    with pytest.raises(InvalidPositionError, match="seat 0 has no legal action in the meld phase"):
        at(["9C"], [["QH", "QS", "QD"]])
    ok = at(["9C"], [CANASTA])
    accepted(ok, Discard(N9))
    assert ok.end is HandEnd.WENT_OUT and ok.went_out == 0 and not ok.concealed


def test_without_a_canasta_a_card_must_stay_after_melding() -> None:
    state = at(["QC", "9C"], [["QH", "QS", "QD"]])
    refused(state, Meld(Q, 1, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)  # 9 would have to go out
    assert list(state.legal_actions()) == [Discard(N9), Discard(Q), AskGoOut()]


def test_a_canasta_completed_in_the_same_turn_counts() -> None:
    state = at(["QC", "9C"], [SIX_QUEENS])
    accepted(state, Meld(Q, 1, 0, 0))
    assert state.canastas(0) == 1
    accepted(state, Discard(N9))
    assert state.end is HandEnd.WENT_OUT


def test_the_final_discard_is_optional() -> None:
    state = at(["QC", "QD"], [SIX_QUEENS])
    accepted(state, Meld(Q, 2, 0, 0))  # melds every card: out without discarding
    assert state.end is HandEnd.WENT_OUT and state.sizes[0] == 0 and state.pile == []


def test_going_out_by_taking_the_pile() -> None:
    # The last two cards show a pair for the pile's only card: everything is melded.
    queens = ["QH", "QS", "QD"]
    state = position(hands=[["QC", "QC"], *OTHERS], melds=[[CANASTA, queens], []], pile=["QH"])
    accepted(state, TakePile(2, 0, 0))
    assert state.end is HandEnd.WENT_OUT and state.melds[0][Q].size == 6
    no_canasta = position(hands=[["QC", "QC"], *OTHERS], melds=[[["KH", "KS", "KD"], queens], []], pile=["QH"])
    refused(no_canasta, TakePile(2, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)


def ask_and_answer(yes: bool, hand: list[str], side0: list[list[str]], draw: str = "8D"):  # type: ignore[no-untyped-def]
    state = at(hand, side0, phase="draw", stock_top=[draw])
    accepted(state, AskGoOut())
    assert state.phase is Phase.ANSWER and state.seat == 2  # the partner answers
    assert list(state.legal_actions()) == [AnswerGoOut(True), AnswerGoOut(False)]
    refused(state, DrawStock(), RuleCode.WRONG_PHASE)
    accepted(state, AnswerGoOut(yes))
    assert state.seat == 0 and state.phase is Phase.DRAW
    refused(state, AskGoOut(), RuleCode.PERMISSION_NOT_AVAILABLE)  # once per turn
    accepted(state, DrawStock())
    return state


def test_yes_binds_only_when_going_out_is_possible() -> None:
    # Hand QC QD 9C + 8D: the 9 and the 8 can never both leave the hand, so going
    # out is impossible this turn; the "yes" cannot bind and the player plays on.
    state = ask_and_answer(True, ["QC", "QD", "9C"], [SIX_QUEENS])
    assert Discard(Kind.EIGHT) in state.legal_actions()


def test_yes_forbids_any_discard_that_does_not_go_out() -> None:
    state = ask_and_answer(True, ["QC", "8C", "8S"], [SIX_QUEENS])  # draws 8D: going out is possible
    refused(state, Discard(Kind.EIGHT), RuleCode.MUST_GO_OUT)
    refused(state, Discard(Q), RuleCode.MUST_GO_OUT)
    accepted(state, Meld(Q, 1, 0, 0))
    refused(state, Discard(Kind.EIGHT), RuleCode.MUST_GO_OUT)
    assert list(state.legal_actions()) == [Meld(Kind.EIGHT, 3, 0, 0)]
    accepted(state, Meld(Kind.EIGHT, 3, 0, 0))
    assert state.end is HandEnd.WENT_OUT


def test_no_forbids_going_out_this_turn() -> None:
    state = ask_and_answer(False, ["QC", "9C", "9S"], [SIX_QUEENS])  # draws 8D
    accepted(state, Meld(Q, 1, 0, 0))  # a canasta: going out would now be allowed but for "no"
    refused(state, Meld(N9, 2, 0, 0), RuleCode.INVALID_MELD)
    accepted(state, Discard(N9))  # keeps two cards: fine
    assert state.seat == 1


def test_no_forbids_melding_or_discarding_out() -> None:
    state = ask_and_answer(False, ["QC", "9C", "9S"], [SIX_QUEENS], draw="9D")
    refused(state, Meld(N9, 3, 0, 0), RuleCode.GOING_OUT_REFUSED)  # QC could only go out
    accepted(state, Meld(Q, 1, 0, 0))
    refused(state, Meld(N9, 3, 0, 0), RuleCode.GOING_OUT_REFUSED)  # melds every card
    accepted(state, Discard(N9))
    assert state.phase is Phase.DRAW and state.seat == 1 and state.end is None


def test_asking_only_before_melding() -> None:
    state = at(["QC", "QD", "9C", "9S"], [SIX_QUEENS])
    assert AskGoOut() in state.legal_actions()  # after drawing, before melding
    accepted(state, Meld(Q, 1, 0, 0))
    refused(state, AskGoOut(), RuleCode.PERMISSION_NOT_AVAILABLE)


def concealed_table(side0: list[list[str]], hand: list[str], melded_before: bool = False):  # type: ignore[no-untyped-def]
    state = at(hand, side0)
    state.melded_before[0] = melded_before  # seat 0 itself has melded nothing earlier
    state._legal = None
    return state


def test_concealed_going_out_scores_200() -> None:
    jacks = ["JH", "JS", "JD", "JC", "JH", "JS", "JD"]
    state = concealed_table([["QH", "QS", "QD"]], [*jacks, "9C"])
    accepted(state, Meld(J, 7, 0, 0))
    accepted(state, Discard(N9))
    assert state.concealed and state.score().sides[0].going_out == 200


def test_adding_to_partners_melds_is_not_concealed() -> None:
    jacks = ["JH", "JS", "JD", "JC", "JH", "JS", "JD"]
    state = concealed_table([["QH", "QS", "QD"]], [*jacks, "QC", "9C"])
    accepted(state, Meld(J, 7, 0, 0))
    accepted(state, Meld(Q, 1, 0, 0))
    accepted(state, Discard(N9))
    assert state.end is HandEnd.WENT_OUT and not state.concealed
    assert state.score().sides[0].going_out == 100


def test_melding_in_an_earlier_turn_is_not_concealed() -> None:
    jacks = ["JH", "JS", "JD", "JC", "JH", "JS", "JD"]
    state = concealed_table([["QH", "QS", "QD"]], [*jacks, "9C"], melded_before=True)
    accepted(state, Meld(J, 7, 0, 0))
    accepted(state, Discard(N9))
    assert not state.concealed and state.score().sides[0].going_out == 100


def test_concealed_after_taking_the_pile_with_the_minimum() -> None:
    jacks = ["JH", "JS", "JD", "JC", "JH", "JS"]
    state = position(hands=[[*jacks, "9C", "9S"], *OTHERS], pile=["9D", "JD"])
    accepted(state, TakePile(2, 0, 0))  # 3 jacks: 30 < 50, the pile is pending
    accepted(state, Meld(J, 4, 0, 0))  # 70: opened, the 9D comes into the hand
    assert state.opened[0]
    accepted(state, Meld(N9, 3, 0, 0))
    assert state.end is HandEnd.WENT_OUT and state.concealed
    assert state.score().sides[0].going_out == 200


def test_no_asking_after_taking_the_pile() -> None:
    # Taking the pile melds its top card: asking is no longer possible this turn.
    state = position(hands=[["JC", "JC", "9C", "9S"], *OTHERS], melds=[[SIX_QUEENS], []], pile=["7S", "JD"])
    assert AskGoOut() in state.legal_actions()
    accepted(state, TakePile(2, 0, 0))
    refused(state, AskGoOut(), RuleCode.PERMISSION_NOT_AVAILABLE)
