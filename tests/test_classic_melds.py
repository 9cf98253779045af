"""SPEC.md §1 "Melds": naturals, wild cards, one meld per rank, black and red threes, canastas."""

from __future__ import annotations

from helpers import accepted, position, refused

from canasta import Discard, HandEnd, Kind, Meld, RuleCode

Q, K, B3 = Kind.QUEEN, Kind.KING, Kind.BLACK_THREE
OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]


def melding(hand: list[str], side0: list[list[str]] | None = None, side1: list[list[str]] | None = None):  # type: ignore[no-untyped-def]
    """Seat 0 in its meld phase, its side already opened with a meld of kings."""
    return position(
        hands=[hand, *OTHERS],
        melds=[side0 if side0 is not None else [["KH", "KS", "KD"]], side1 or []],
        phase="meld",
    )


def test_a_meld_needs_two_naturals() -> None:
    state = melding(["QH", "QS", "2C", "*", "9C", "9D"])
    refused(state, Meld(Q, 1, 1, 1), RuleCode.INVALID_MELD)
    refused(state, Meld(Q, 1, 1, 0), RuleCode.INVALID_MELD)
    accepted(state, Meld(Q, 2, 1, 0))
    assert (state.melds[0][Q].naturals, state.melds[0][Q].twos) == (2, 1)


def test_a_meld_needs_three_cards() -> None:
    state = melding(["QH", "QS", "QD", "9C", "9D"])
    refused(state, Meld(Q, 2, 0, 0), RuleCode.INVALID_MELD)
    accepted(state, Meld(Q, 3, 0, 0))


def test_at_most_three_wild_cards_in_every_meld() -> None:
    state = melding(["QH", "QS", "QD", "2C", "2D", "*", "*", "9C", "9D"])
    refused(state, Meld(Q, 3, 2, 2), RuleCode.INVALID_MELD)
    accepted(state, Meld(Q, 3, 2, 1))
    refused(state, Meld(Q, 0, 0, 1), RuleCode.INVALID_MELD)  # a fourth wild card, even later


def test_the_wild_limit_holds_for_canastas() -> None:
    canasta = ["QH", "QS", "QD", "QC", "2C", "2D", "*"]
    state = melding(["2H", "QH", "9C", "9D"], side0=[canasta])
    refused(state, Meld(Q, 0, 1, 0), RuleCode.INVALID_MELD)
    accepted(state, Meld(Q, 1, 0, 0))  # naturals may still be added: it grows past 7
    assert state.melds[0][Q].size == 8


def test_one_meld_per_rank_per_side_and_both_sides_may_meld_a_rank() -> None:
    state = melding(["KC", "QH", "QS", "QD", "9C", "9D"], side1=[["QC", "QC", "QD"]])
    accepted(state, Meld(K, 1, 0, 0))  # a king joins the side's meld of kings
    assert list(state.melds[0]) == [K] and state.melds[0][K].naturals == 4
    accepted(state, Meld(Q, 3, 0, 0))  # the other side's queens do not stop this side
    assert state.melds[0][Q].naturals == 3 and state.melds[1][Q].naturals == 3


def test_wild_cards_alone_never_meld() -> None:
    state = melding(["2C", "2D", "*", "9C", "9D"])
    refused(state, Meld(Kind.JOKER, 0, 2, 1), RuleCode.WILD_MELD)
    assert not any(isinstance(a, Meld) and a.rank == Kind.JOKER for a in state.legal_actions())


def test_red_threes_and_twos_are_never_a_meld_rank() -> None:
    state = melding(["2C", "2D", "2H", "9C", "9D"])
    refused(state, Meld(Kind.TWO, 3, 0, 0), RuleCode.INVALID_MELD)
    refused(state, Meld(Kind.RED_THREE, 3, 0, 0))


def test_cards_not_in_hand_are_refused() -> None:
    state = melding(["QH", "QS", "9C", "9D"])
    refused(state, Meld(Q, 3, 0, 0), RuleCode.CARDS_NOT_IN_HAND)
    refused(state, Meld(Q, 2, 1, 0), RuleCode.CARDS_NOT_IN_HAND)
    refused(state, Discard(Kind.ACE), RuleCode.CARDS_NOT_IN_HAND)


def test_black_threes_meld_only_when_going_out() -> None:
    canasta = ["QH", "QS", "QD", "QC", "QH", "QS", "QD"]
    state = melding(["3S", "3S", "3C", "9C", "9D"], side0=[canasta])
    refused(state, Meld(B3, 3, 0, 0), RuleCode.BLACK_THREE_MELD)  # two cards would stay in hand
    going_out = melding(["3S", "3S", "3C", "9C"], side0=[canasta])
    refused(going_out, Meld(B3, 2, 0, 0), RuleCode.BLACK_THREE_MELD)
    wild = melding(["3S", "3S", "3C", "2C"], side0=[canasta])
    refused(wild, Meld(B3, 3, 1, 0), RuleCode.BLACK_THREE_MELD)  # no wild cards with black threes
    accepted(going_out, Meld(B3, 3, 0, 0))
    accepted(going_out, Discard(Kind.NINE))
    assert going_out.end is HandEnd.WENT_OUT and going_out.melds[0][B3].naturals == 3


def test_black_threes_cannot_meld_without_a_canasta() -> None:
    state = melding(["3S", "3S", "3C", "9C"])
    refused(state, Meld(B3, 3, 0, 0), RuleCode.BLACK_THREE_MELD)


def test_a_canasta_grows_past_seven_and_a_wild_card_makes_it_mixed() -> None:
    natural = ["QH", "QS", "QD", "QC", "QH", "QS", "QD"]
    state = melding(["QC", "2C", "9C", "9D"], side0=[natural])
    bonuses = state.rules.canasta_bonuses
    meld = state.melds[0][Q]
    assert bonuses.bonus(Q, meld.naturals, meld.twos, meld.jokers) == 500
    accepted(state, Meld(Q, 1, 0, 0))
    assert meld.size == 8 and state.canastas(0) == 1
    accepted(state, Meld(Q, 0, 1, 0))
    assert meld.size == 9 and meld.twos == 1
    assert bonuses.bonus(Q, meld.naturals, meld.twos, meld.jokers) == 300
