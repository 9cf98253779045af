"""SPEC.md §1 "Initial meld": the minimum by score, what counts, provisional melds, the concealed exemption."""

from __future__ import annotations

import pytest
from helpers import accepted, classic_rules, position, refused

from canasta import AskGoOut, Discard, DrawStock, HandEnd, Kind, Meld, Phase, RuleCode, TakePile

K, Q, A, N9 = Kind.KING, Kind.QUEEN, Kind.ACE, Kind.NINE
OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]


@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-5000, 15), (-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (9000, 120)],
)
def test_minimum_follows_the_score(score: int, minimum: int) -> None:
    assert classic_rules().minimums.minimum_for(score) == minimum
    state = position(hands=[["5C", "6C"], *OTHERS], scores=[score, 0])
    assert state.minimums == [minimum, 50]
    assert state.minimum_needed(0) == minimum


def opening(hand: list[str], score: int = 0, **kwargs: object):  # type: ignore[no-untyped-def]
    return position(hands=[hand, *OTHERS], scores=[score, 0], phase="meld", **kwargs)


def test_melds_below_the_minimum_are_provisional_and_block_the_discard() -> None:
    state = opening(["KH", "KS", "KD", "9C", "9D", "2C", "5C", "6C"])
    accepted(state, Meld(K, 3, 0, 0))  # 30 < 50, and 9-9-2 can still complete the opening
    assert not state.opened[0] and state.minimum_needed(0) == 20
    refused(state, Discard(Kind.FIVE), RuleCode.MINIMUM_NOT_MET)
    accepted(state, Meld(N9, 2, 1, 0))  # 30 + 40 = 70 >= 50
    assert state.opened[0]
    accepted(state, Discard(Kind.FIVE))
    assert state.seat == 1


def test_a_provisional_meld_is_legal_only_if_the_opening_can_still_be_completed() -> None:
    # SPEC §0: after K-K-K (30) nothing in 9 9 5 6 can be melded to reach 50.
    state = opening(["KH", "KS", "KD", "9C", "9D", "5C", "6C"])
    assert not any(isinstance(a, Meld) for a in state.legal_actions())
    refused(state, Meld(K, 3, 0, 0), RuleCode.MINIMUM_NOT_MET)
    accepted(state, Discard(Kind.FIVE))


def test_an_unopened_side_takes_the_pile_when_the_minimum_can_be_reached() -> None:
    hand = ["QH", "QS", "KH", "KS", "KD", "AH", "AS", "AD", "5C"]
    state = pile_opening(hand, ["7C", "QD"], score=1500)  # minimum 90
    accepted(state, TakePile(2, 0, 0))  # 30 < 90
    accepted(state, Meld(K, 3, 0, 0))  # 60
    assert not state.opened[0]
    accepted(state, Meld(A, 3, 0, 0))  # 30 + 30 + 60 = 120 >= 90
    assert state.opened[0]
    assert sorted(c.code for c in state.hand_cards(0)) == ["5C", "7C"]


def test_the_issue_example_offers_no_pile_take() -> None:
    # 5-5-5 counts 15 of the 50 needed, and the 8 and 9 cannot meld.
    state = pile_opening(["5C", "5D", "8C", "9C"], ["*", "4C", "5H"])
    assert not any(isinstance(a, TakePile) for a in state.legal_actions())
    refused(state, TakePile(2, 0, 0), RuleCode.MINIMUM_NOT_MET)
    assert DrawStock() in state.legal_actions()


def test_black_threes_do_not_complete_an_opening_made_by_taking_the_pile() -> None:
    # K-K-K counts 30 and four black threes would make it 50, but the opening's completion brings
    # the rest of the pile into the hand: the black threes would not be the last meld of going out
    # (SPEC §1 "Melds"), so nothing completes this take and it is not offered.
    state = pile_opening(["KH", "KD", "3C", "3S", "3C", "3S", "7H"], ["4D", "4H", "KC"])
    assert not any(isinstance(a, TakePile) for a in state.legal_actions())
    refused(state, TakePile(2, 0, 0))
    assert DrawStock() in state.legal_actions()


def test_black_threes_go_out_as_the_last_meld_of_an_opening_from_the_hand() -> None:
    # From the hand (no pile waiting): a canasta of kings opens, the black threes follow, the 7 goes out.
    state = opening(["KH", "KD", "KS", "KC", "KH", "KD", "KS", "3C", "3S", "3C", "3S", "7H"])
    accepted(state, Meld(K, 7, 0, 0))
    accepted(state, Meld(Kind.BLACK_THREE, 4, 0, 0))
    accepted(state, Discard(Kind.SEVEN))
    assert state.phase is Phase.OVER and state.went_out == 0


def test_several_melds_in_the_turn_add_up() -> None:
    state = opening(["KH", "KS", "KD", "9C", "9D", "2C", "5C", "6C"])
    accepted(state, Meld(K, 3, 0, 0))
    accepted(state, Meld(N9, 2, 1, 0))  # 30 + 20 + 20 = 70 >= 50
    assert state.opened[0]
    accepted(state, Discard(Kind.FIVE))
    assert state.seat == 1


def test_exactly_the_minimum_is_enough() -> None:
    state = opening(["KH", "KS", "KD", "KC", "9C", "5C"], score=-10)  # minimum 15
    accepted(state, Meld(K, 3, 0, 0))  # 30 >= 15
    assert state.opened[0]
    high = opening(["AH", "AS", "2C", "KH", "KS", "KD", "5C", "6C"], score=1500)  # minimum 90
    accepted(high, Meld(A, 2, 1, 0))  # 60
    assert not high.opened[0]
    refused(high, Discard(Kind.FIVE), RuleCode.MINIMUM_NOT_MET)
    accepted(high, Meld(K, 3, 0, 0))  # 60 + 30 = 90
    assert high.opened[0]


def test_once_opened_either_partner_melds_freely() -> None:
    state = position(
        hands=[["5C", "6C"], ["4H", "5H", "6H"], ["QH", "QS", "QD", "8C", "7C"], ["4D", "5D", "6D"]],
        melds=[[["AH", "AS", "AD"]], []],
        seat=2,
        phase="meld",
    )
    accepted(state, Meld(Q, 3, 0, 0))  # 30, no minimum any more
    accepted(state, Discard(Kind.EIGHT))


def pile_opening(hand: list[str], pile: list[str], score: int = 0):  # type: ignore[no-untyped-def]
    return position(hands=[hand, *OTHERS], pile=pile, scores=[score, 0])


def test_the_pile_top_card_counts() -> None:
    state = pile_opening(["AH", "AS", "9C", "5C"], ["7D", "AD"])
    accepted(state, TakePile(2, 0, 0))  # 3 aces = 60 >= 50: opens, pile picked up
    assert state.opened[0] and state.pending_pile is None
    assert sorted(c.code for c in state.hand_cards(0)) == ["5C", "7D", "9C"]


def test_other_pile_cards_do_not_count_and_wait_for_the_minimum() -> None:
    state = pile_opening(["QH", "QS", "KH", "KS", "KD", "5C"], ["KC", "AD", "QD"])
    accepted(state, TakePile(2, 0, 0))  # 3 queens = 30 < 50
    assert not state.opened[0]
    assert sorted(state.deck.cards[c].code for c in state.pending_pile or []) == ["AD", "KC"]
    assert state.sizes[0] == 4  # the rest of the pile is not in hand yet
    refused(state, Discard(Kind.FIVE), RuleCode.MINIMUM_NOT_MET)
    accepted(state, Meld(K, 3, 0, 0))  # 30 + 30 = 60 >= 50: now the pile is picked up
    assert state.opened[0] and state.pending_pile is None
    assert sorted(c.code for c in state.hand_cards(0)) == ["5C", "AD", "KC"]


def test_no_pile_take_when_the_minimum_cannot_be_met() -> None:
    state = pile_opening(["QH", "QS", "KH", "5C"], ["KC", "KD", "QD"])
    before = list(state.pile)
    # 30 < 50, and the kings in the pile do not help: they come to hand only after the opening.
    refused(state, TakePile(2, 0, 0), RuleCode.MINIMUM_NOT_MET)
    assert state.pile == before and state.phase is Phase.DRAW
    assert list(state.legal_actions()) == [DrawStock(), AskGoOut()]


def test_concealed_exemption_needs_no_minimum() -> None:
    fours = ["4S", "4S", "4C", "4C", "4H", "4D", "4D"]
    state = position(
        hands=[[*fours, "5S", "5S", "5C", "9C"], ["6H", "7H", "8H"], ["6C", "7C", "8C"], ["6D", "7D", "8D"]],
        scores=[3000, 0],  # minimum 120; the whole hand counts 60
        phase="meld",
    )
    accepted(state, Meld(Kind.FOUR, 7, 0, 0))
    accepted(state, Meld(Kind.FIVE, 3, 0, 0))
    assert not state.opened[0]
    accepted(state, Discard(N9))
    assert state.end is HandEnd.WENT_OUT and state.concealed
    assert state.score().sides[0].going_out == 200


def test_no_concealed_exemption_if_a_card_stays() -> None:
    fours = ["4S", "4S", "4C", "4C", "4H", "4D", "4D"]
    state = position(
        hands=[[*fours, "5S", "5S", "5C", "9C", "TC"], ["6H", "7H", "8H"], ["6C", "7C", "8C"], ["6D", "7D", "8D"]],
        scores=[3000, 0],
        phase="meld",
    )
    # 9 and 10 cannot meld, so the hand cannot go out concealed, and 70 < 120.
    refused(state, Meld(Kind.FOUR, 7, 0, 0), RuleCode.MINIMUM_NOT_MET)
    assert all(isinstance(a, Discard) or a == AskGoOut() for a in state.legal_actions())


def test_no_concealed_exemption_after_taking_the_pile() -> None:
    fours = ["4S", "4S", "4C", "4C", "4H", "4D"]
    state = position(
        hands=[[*fours, "5S", "5S", "5C", "9C"], ["6H", "7H", "8H"], ["6C", "7C", "8C"], ["6D", "7D", "8D"]],
        pile=["4D"],
        scores=[3000, 0],
    )
    # Taking the pile rules the exemption out, and 4s and 5s count 50 < 120.
    refused(state, TakePile(2, 0, 0), RuleCode.MINIMUM_NOT_MET)
    assert list(state.legal_actions()) == [DrawStock(), AskGoOut()]
