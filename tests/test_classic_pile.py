"""SPEC.md §1 "Black threes" and "The discard pile": stop cards, frozen piles, the three ways to take."""

from __future__ import annotations

from helpers import accepted, position, refused

from canasta import AskGoOut, Discard, DrawStock, Kind, RuleCode, TakePile

Q = Kind.QUEEN
OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]
PAIR, TWO, JOKER, LAYOFF = TakePile(2, 0, 0), TakePile(1, 1, 0), TakePile(1, 0, 1), TakePile(0, 0, 0)
QUEENS = ["QC", "QC", "QS"]


def table(hand: list[str], pile: list[str], side0: list[list[str]] | None = None, score: int = 0):  # type: ignore[no-untyped-def]
    return position(
        hands=[hand, *OTHERS],
        pile=pile,
        melds=[side0 if side0 is not None else [["KH", "KS", "KD"]], []],
        scores=[score, 0],
    )


def takes(state) -> list[TakePile]:  # type: ignore[no-untyped-def]
    return [a for a in state.legal_actions() if isinstance(a, TakePile)]


def test_unfrozen_pile_can_be_taken_three_ways() -> None:
    hand = ["QH", "QS", "2C", "*", "9C", "9D"]
    state = table(hand, ["7S", "QD"], side0=[["KH", "KS", "KD"], QUEENS])
    assert not state.pile_frozen_for(0)
    assert set(takes(state)) == {PAIR, TWO, JOKER, LAYOFF}
    for action, meld_size in ((PAIR, 6), (TWO, 6), (JOKER, 6), (LAYOFF, 4)):
        trial = state.copy()
        accepted(trial, action)
        assert trial.melds[0][Q].size == meld_size
        assert trial.pile == [] and "7S" in [c.code for c in trial.hand_cards(0)]


def test_natural_and_wild_without_a_meld_makes_a_new_meld() -> None:
    state = table(["QH", "2C", "9C", "9D"], ["7S", "QD"])
    assert set(takes(state)) == {TWO}
    refused(state, LAYOFF, RuleCode.PILE_NEEDS_MATCH)  # no meld of queens to add it to
    refused(state, PAIR, RuleCode.CARDS_NOT_IN_HAND)
    accepted(state, TWO)
    meld = state.melds[0][Q]
    assert (meld.naturals, meld.twos) == (2, 1)


def test_a_wild_card_in_the_pile_freezes_it() -> None:
    state = table(["QH", "QS", "2C", "*", "9C", "9D"], ["2H", "7S", "QD"], side0=[["KH", "KS", "KD"], QUEENS])
    assert state.pile_frozen_for(0) and state.pile_frozen_for(1)
    assert takes(state) == [PAIR]
    for action in (TWO, JOKER, LAYOFF):
        refused(state, action, RuleCode.PILE_FROZEN)
    accepted(state, PAIR)  # onto the side's meld of queens
    assert state.melds[0][Q].size == 6
    assert not state.pile_frozen_for(0)  # the pile unfreezes by being taken
    assert "2H" in [c.code for c in state.hand_cards(0)]


def test_the_pile_is_frozen_for_a_side_that_has_not_melded() -> None:
    state = table(["QH", "QS", "2C", "KC", "9C", "9D"], ["7S", "QD"], side0=[], score=-100)
    assert state.pile_frozen_for(0) and state.pile_freezers == 0
    refused(state, TWO, RuleCode.PILE_FROZEN)
    accepted(state, PAIR)
    assert state.opened[0]  # 30 >= 15


def test_no_take_when_a_wild_card_or_black_three_is_on_top() -> None:
    for top in ("2H", "*", "3S"):
        state = table(["QH", "QS", "2C", "9C", "9D"], ["QD", top], side0=[["KH", "KS", "KD"], QUEENS])
        assert list(state.legal_actions()) == [DrawStock(), AskGoOut()]
        refused(state, PAIR, RuleCode.PILE_BLOCKED)


def test_a_black_three_stops_but_does_not_freeze() -> None:
    # Seat 3 discards a black three: seat 0 must draw; the pile is not frozen.
    state = position(
        hands=[["QH", "QS", "9C", "9D"], ["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "3S", "TD"]],
        pile=["QD"],
        melds=[[["KH", "KS", "KD"]], []],
        seat=3,
        phase="meld",
    )
    accepted(state, Discard(Kind.BLACK_THREE))
    assert state.seat == 0 and not state.pile_frozen_for(0) and state.pile_freezers == 0
    refused(state, PAIR, RuleCode.PILE_BLOCKED)
    assert takes(state) == []


def test_a_black_three_under_the_top_does_not_freeze() -> None:
    state = table(["QH", "2C", "9C", "9D"], ["3S", "QD"])
    assert not state.pile_frozen_for(0) and takes(state) == [TWO]


def test_a_red_three_upcard_freezes() -> None:
    state = table(["QH", "2C", "QS", "9C", "9D"], ["3H", "QD"])
    assert state.pile_frozen_for(0)
    assert takes(state) == [PAIR]


def test_one_card_rule() -> None:
    # Holding one card, a pile of one card may not be taken, even by adding it to a meld.
    state = table(["QH"], ["QD"], side0=[["KH", "KS", "KD"], QUEENS])
    refused(state, LAYOFF, RuleCode.ONE_CARD_RULE)
    assert list(state.legal_actions()) == [DrawStock(), AskGoOut()]
    # A pile of two cards may be taken.
    bigger = table(["QH"], ["7S", "QD"], side0=[["KH", "KS", "KD"], QUEENS])
    accepted(bigger, LAYOFF)
    assert bigger.sizes[0] == 2
    # Holding two cards, a pile of one card may be taken.
    two = table(["QH", "9C"], ["QD"], side0=[["KH", "KS", "KD"], QUEENS])
    assert LAYOFF in takes(two)


def test_red_threes_in_the_pile_go_to_the_taker() -> None:
    state = table(["QH", "QS", "9C", "9D"], ["3D", "7S", "QD"])
    stock = list(state.stock)
    accepted(state, PAIR)
    assert [state.deck.cards[c].code for c in state.threes[0]] == ["3D"]
    assert state.stock == stock and state.counts[0][Kind.RED_THREE] == 0


def test_frozen_pile_taken_only_with_a_pair_of_the_top_rank() -> None:
    state = table(["QH", "KC", "KS", "9C", "9D"], ["*", "QD"])
    assert takes(state) == []
    refused(state, PAIR, RuleCode.CARDS_NOT_IN_HAND)
    refused(state, TakePile(3, 0, 0), RuleCode.PILE_FROZEN)
