"""SPEC.md §0 and §1 ⟨A⟩: legal means completable; the binding "yes" cannot be escaped."""

from __future__ import annotations

from helpers import accepted, position, refused

from canasta import AnswerGoOut, AskGoOut, Discard, DrawStock, Kind, Meld, Phase, RuleCode, TakePile
from canasta.completion import Turn, can_complete
from canasta.goingout import can_meld_out
from canasta.legality import discardable_kinds

Q, K, N9 = Kind.QUEEN, Kind.KING, Kind.NINE
CANASTA = ["QH", "QS", "QD", "QC", "QH", "QS", "QD"]
OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]


def test_after_yes_a_pile_take_that_makes_going_out_impossible_is_refused() -> None:
    # Side 0 has a canasta and kings. Taking the pile with the pair of nines is
    # legal in itself, but 5, 7, 8 and 6 from the pile could never be melded out.
    state = position(
        hands=[["KH", "KS", "9C", "9S"], *OTHERS],
        melds=[[CANASTA, ["KD", "KC", "KH"]], []],
        pile=["5C", "7D", "8S", "6S", "9D"],
    )
    assert TakePile(2, 0, 0) in state.legal_actions()
    accepted(state, AskGoOut())
    accepted(state, AnswerGoOut(True))
    assert state.bound
    refused(state, TakePile(2, 0, 0), RuleCode.MUST_GO_OUT)
    assert list(state.legal_actions()) == [DrawStock()]


def test_after_yes_a_meld_that_makes_going_out_impossible_is_refused() -> None:
    state = position(
        hands=[["KH", "KS", "KD", "9C", "9S", "9D", "5C"], *OTHERS],
        melds=[[CANASTA], []],
        phase="meld",
    )
    accepted(state, AskGoOut())
    accepted(state, AnswerGoOut(True))
    assert state.bound and state.phase is Phase.MELD
    # Going out: K-K-K and 9-9-9, then discard the 5. Melding only two nines is no meld;
    # every legal meld keeps going out possible, and no discard but the last is legal.
    assert Discard(Kind.FIVE) not in state.legal_actions()
    refused(state, Discard(Kind.FIVE), RuleCode.MUST_GO_OUT)
    accepted(state, Meld(K, 3, 0, 0))
    accepted(state, Meld(N9, 3, 0, 0))
    accepted(state, Discard(Kind.FIVE))
    assert state.is_over and state.went_out == 0


def test_both_answers_are_legal_and_an_impossible_yes_does_not_bind() -> None:
    # The partner cannot see the asker's hand (SPEC §7), so both answers are listed;
    # this hand cannot go out (no canasta), so "yes" leaves the asker free to play on.
    state = position(hands=[["KH", "KS", "KD", "9C", "5C"], *OTHERS], phase="meld")
    accepted(state, AskGoOut())
    assert list(state.legal_actions()) == [AnswerGoOut(True), AnswerGoOut(False)]
    accepted(state, AnswerGoOut(True))
    assert state.answer is True and not state.bound
    accepted(state, Discard(Kind.FIVE))
    assert state.seat == 1


def test_after_no_going_out_is_refused() -> None:
    state = position(hands=[["KH", "KS", "KD", "5C"], *OTHERS], melds=[[CANASTA], []], phase="meld")
    accepted(state, AskGoOut())
    accepted(state, AnswerGoOut(False))
    # K-K-K then the 5 would go out: refused after "no"; K-K-K itself would leave one card.
    assert Meld(K, 3, 0, 0) not in state.legal_actions()
    assert Discard(Kind.FIVE) in state.legal_actions()


def test_the_oracle_decides_from_counts_alone() -> None:
    rules = position(hands=[["5C"], *OTHERS]).rules
    discardable = discardable_kinds(rules, 8)
    hand = [0] * 15
    hand[K] = 3
    hand[Kind.FIVE] = 1
    canasta = {int(Q): (7, 0, 0)}
    assert can_meld_out(rules, hand, canasta, discardable, need=1)
    assert not can_meld_out(rules, hand, {}, discardable, need=1)
    turn = Turn(
        rules, minimum=50, exempt=False, out_allowed=True, bound=False, final_only=False, discardable=discardable
    )
    # Unopened, K-K-K (30) on the table: 5 is all that is left, the opening cannot complete.
    assert not can_complete(turn, [0] * 5 + [1] + [0] * 9, {int(K): (3, 0, 0)}, opened=False, provisional=30)
    assert can_complete(turn, hand, {}, opened=False, provisional=0)
