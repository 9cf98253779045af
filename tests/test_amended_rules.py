"""The amended rules (⟨A⟩ of the rule book): each fixed or confirmed, accepted and refused.

The cutthroat amendment (partners' melds stay apart) is not built yet; its
tests live in `test_house_rules.py` with today's merged melds.
"""

from __future__ import annotations

from helpers import accepted, refused
from test_variant_positions import hand_codes, rules_of, with_stock

import canasta
from canasta import Discard, DrawStock, EndHand, HandEnd, Kind, Meld, RuleCode, TakePile

OTHERS = [["4C", "4D"], ["5C", "5D"], ["6C", "6D"]]
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_A = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]
MA = rules_of("modern-american")


# --- wilds-at-most-naturals: the only wild-card limit -----------------------------------


def test_wilds_at_most_naturals_replaces_the_three_wild_cap() -> None:
    rules = rules_of("classic", "wilds-at-most-naturals")
    assert rules.melds.max_wilds is None and rules.melds.naturals_per_wild == 1
    hands = [["QH", "QS", "QD", "QC", "2C", "2D", "*", "*", "9C", "9D"], *OTHERS]
    state = canasta.build_position(rules, hands=hands, melds=[[["KH", "KS", "KD"]], []], phase="meld")
    refused(state, Meld(Kind.QUEEN, 3, 2, 2), RuleCode.INVALID_MELD)  # 3 naturals, 4 wild cards
    accepted(state, Meld(Kind.QUEEN, 4, 2, 2))  # 4 naturals and 4 wild cards: a mixed canasta
    queens = state.melds[0][Kind.QUEEN]
    assert (queens.naturals, queens.twos + queens.jokers, queens.size) == (4, 4, 8)
    accepted(state, Discard(Kind.NINE))
    plain = canasta.build_position(
        rules_of("classic"), hands=hands, melds=[[["KH", "KS", "KD"]], []], phase="meld"
    )
    refused(plain, Meld(Kind.QUEEN, 4, 2, 2), RuleCode.INVALID_MELD)  # classic: at most 3 wild cards


def test_wilds_at_most_naturals_adds_wild_cards_to_a_meld_up_to_its_naturals() -> None:
    rules = rules_of("classic", "wilds-at-most-naturals")
    hands = [["2C", "2D", "*", "*", "9C", "9D"], *OTHERS]
    melds = [[["KH", "KS", "KD", "KC", "2H", "2S", "*"]], []]  # 4 naturals, 3 wild cards
    state = canasta.build_position(rules, hands=hands, melds=melds, phase="meld")
    refused(state, Meld(Kind.KING, 0, 1, 1), RuleCode.INVALID_MELD)  # 5 wild cards on 4 naturals
    accepted(state, Meld(Kind.KING, 0, 0, 1))
    assert state.melds[0][Kind.KING].size == 8


def test_wilds_at_most_naturals_keeps_a_variant_s_wild_free_ranks() -> None:
    rules = rules_of("modern-american", "wilds-at-most-naturals")
    assert Kind.SEVEN in rules.melds.natural_only
    assert not rules.melds.is_valid(Kind.SEVEN, 4, 1, 0)
    assert rules.melds.is_valid(Kind.KING, 4, 3, 0)  # modern American's cap of 2 is replaced too
    assert not rules.melds.is_valid(Kind.KING, 4, 3, 1) and not rules.melds.is_valid(Kind.KING, 3, 4, 0)


# --- modern American opening ---------------------------------------------------------------


def test_modern_american_clean_meld_must_stay_clean_until_the_opening_is_complete() -> None:
    hands = [["KH", "KS", "KD", "2C", "AH", "AS", "AD", "*", "QH", "QS", "QD", "9C", "9D"], *OTHERS]
    state = canasta.build_position(MA, hands=hands, melds=[[], []], phase="meld")
    accepted(state, Meld(Kind.KING, 3, 0, 0))  # clean, 30
    accepted(state, Meld(Kind.KING, 0, 1, 0))  # now mixed, 50: the side has no clean meld any more
    accepted(state, Meld(Kind.ACE, 3, 0, 1))  # 160: the count is reached, the clean meld is not
    assert not state.opened[0] and state.clean_meld_needed(0)
    assert state.minimum_needed(0) == 1
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))  # 140 with a clean meld: open
    assert state.opened[0] and state.minimum_needed(0) == 0 and not state.clean_meld_needed(0)


def test_modern_american_spoiling_the_only_clean_meld_is_refused() -> None:
    hands = [["KH", "KS", "KD", "2C", "2D", "AH", "AS", "*", "JH", "9C", "9D"], *OTHERS]
    state = canasta.build_position(MA, hands=hands, melds=[[], []], phase="meld")
    accepted(state, Meld(Kind.KING, 3, 0, 0))  # clean, 30
    # A 2 on the kings leaves no rank that could still hold a clean meld of hand naturals.
    refused(state, Meld(Kind.KING, 0, 1, 0), RuleCode.CLEAN_MELD_REQUIRED)
    accepted(state, Meld(Kind.ACE, 2, 0, 1))  # 120
    accepted(state, Meld(Kind.ACE, 0, 1, 0))  # 140, the kings still clean: open
    assert state.opened[0]
    accepted(state, Discard(Kind.NINE))


def test_modern_american_count_reached_without_a_clean_meld_still_needs_something() -> None:
    hands = [["AH", "AS", "2C", "KH", "KS", "*", "QH", "QS", "QD", "9C", "9D"], *OTHERS]
    state = canasta.build_position(MA, hands=hands, melds=[[], []], phase="meld")
    accepted(state, Meld(Kind.ACE, 2, 1, 0))
    accepted(state, Meld(Kind.KING, 2, 0, 1))  # 130 of 125, nothing clean
    assert not state.opened[0]
    assert state.minimum_needed(0) >= 1 and state.clean_meld_needed(0)
    observation = state.observation(0)
    assert observation.minimum_needed >= 1 and observation.clean_meld_needed
    refused(state, Discard(Kind.NINE), RuleCode.CLEAN_MELD_REQUIRED)


def test_modern_american_has_no_concealed_exemption_even_with_two_canastas() -> None:
    sixes = ["6H", "6S", "6D", "6C", "6H", "6S", "6D"]
    fives = ["5H", "5S", "5D", "5C", "5H", "5S", "5D"]
    state = canasta.build_position(
        MA, hands=[[*sixes, *fives, "9C"], ["4C", "4D"], ["7C", "7D"], ["8C", "8D"]], melds=[[], []], phase="meld"
    )
    assert not any(isinstance(a, Meld) for a in state.legal_actions())  # 70 of 125, and no way to go out


def test_modern_american_exhaustion_ends_the_hand_even_with_a_matching_pair() -> None:
    hands = [["QH", "QS", "9C", "9D"], *OTHERS]
    melds = [[["KH", "KS", "KD", "KC", "KH"], ["QD", "QC", "QH"]], []]
    state = with_stock(MA, [], dump=3, hands=hands, melds=melds, pile=["9H", "QD"])
    assert state.end is HandEnd.STOCK_EXHAUSTED  # no pile take, though the pair of queens matches
    assert state.score().sides[0].going_out == 0


# --- last-red-three-may-meld ----------------------------------------------------------------


def test_last_red_three_may_meld_melding_every_card_goes_out_with_the_bonus() -> None:
    rules = rules_of("classic", "last-red-three-may-meld")
    hands = [["QH", "QS", "QD"], *OTHERS]
    state = with_stock(rules, ["3H"], dump=1, hands=hands, melds=[[CANASTA_K], []], pile=["7S"])
    accepted(state, DrawStock())
    assert state.final_meld_only and not state.is_over
    refused(state, Discard(Kind.QUEEN), RuleCode.CANNOT_DISCARD)
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
    assert state.end is HandEnd.WENT_OUT and state.went_out == 0
    assert state.score().sides[0].going_out == 100


def test_last_red_three_may_meld_without_the_canastas_keeps_a_card() -> None:
    rules = rules_of("classic", "last-red-three-may-meld")
    hands = [["QH", "QS", "QD", "9C"], *OTHERS]
    state = with_stock(rules, ["3H"], dump=1, hands=hands, melds=[[["KH", "KS", "KD"]], []], pile=["7S"])
    accepted(state, DrawStock())
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))  # keeps the 9
    refused(state, Meld(Kind.NINE, 1, 0, 0))
    # Melding the last card with no canasta would empty the hand without going out.
    emptying = with_stock(rules, ["3H"], dump=1, hands=[["QH", "QS", "QD"], *OTHERS],
                          melds=[[["KH", "KS", "KD"]], []], pile=["7S"])
    accepted(emptying, DrawStock())
    refused(emptying, Meld(Kind.QUEEN, 3, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)
    accepted(emptying, EndHand())
    assert emptying.end is HandEnd.RED_THREE_LAST and emptying.score().sides[0].going_out == 0
    accepted(state, EndHand())
    assert state.end is HandEnd.RED_THREE_LAST and hand_codes(state, 0) == ["9C"]


def test_last_red_three_may_meld_where_a_final_discard_is_required_nobody_goes_out() -> None:
    rules = rules_of("modern-american", "last-red-three-may-meld")
    hands = [["QH", "QS", "QD"], *OTHERS]
    state = with_stock(rules, ["3H"], dump=1, hands=hands, melds=[[CANASTA_K, CANASTA_A], []], pile=["7S"])
    accepted(state, DrawStock())
    assert state.final_meld_only
    refused(state, Meld(Kind.QUEEN, 3, 0, 0))  # would empty the hand: going out needs a final discard
    accepted(state, EndHand())
    assert state.end is HandEnd.RED_THREE_LAST


# --- american-talon ------------------------------------------------------------------------


def test_american_talon_opening_by_the_pile_draws_no_bonus_cards() -> None:
    talon = rules_of("modern-american", "american-talon")
    stock = ["4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QC", "KC"]
    # Q-Q + top Q (20: the top card does not count), A-A-A-A (80), K-K-K (30): 130 with clean melds.
    opening = ["QH", "QS", "AH", "AS", "AD", "AC", "KH", "KS", "KD", "9C", "9D"]
    state = with_stock(talon, stock, dump=3, hands=[opening, *OTHERS], melds=[[], []], pile=["7C", "QD"])
    accepted(state, TakePile(2, 0, 0))
    accepted(state, Meld(Kind.ACE, 4, 0, 0))
    accepted(state, Meld(Kind.KING, 3, 0, 0))
    assert state.opened[0]
    held = state.sizes[0]
    accepted(state, Discard(Kind.NINE))
    assert state.sizes[0] == held - 1  # no bonus cards: the opening took the pile
    assert len(state.stock) == len(stock)


# --- going out after the stock ran out -----------------------------------------------------


def test_going_out_after_the_stock_ran_out_scores_the_bonus() -> None:
    classic = rules_of("classic")
    hands = [["QH", "QS"], *OTHERS]
    melds = [[CANASTA_K, ["QD", "QC", "QH"]], []]
    state = with_stock(classic, [], dump=1, hands=hands, melds=melds, pile=["9C", "QD"])
    assert not state.is_over and EndHand() not in state.legal_actions()  # the queen must be taken
    accepted(state, TakePile(0, 0, 0))
    accepted(state, Meld(Kind.QUEEN, 2, 0, 0))
    accepted(state, Discard(Kind.NINE))
    assert state.end is HandEnd.WENT_OUT and state.went_out == 0
    assert state.score().sides[0].going_out == 100
