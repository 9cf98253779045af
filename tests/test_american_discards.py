"""House rule american-discards (the club form's discard restrictions, D1 to D5) on modern American."""

from __future__ import annotations

import pytest
from helpers import accepted, placed, refused
from test_variant_positions import rules_of

import canasta
from canasta import Discard, DrawStock, HandEnd, Kind, Meld, PluginError, RuleCode, TakePile
from canasta.discards import discardable_kinds
from canasta.testing.reference import check_exact_legality

RULE = "american-discards"
CLUB = rules_of("modern-american", RULE)
PLAIN = rules_of("modern-american")
OTHERS = [["4C", "4D", "4H"], ["5C", "5D", "5H"], ["6C", "6D", "6H"]]
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_Q = ["QH", "QS", "QD", "QC", "QH", "QS", "QD"]


def _with_stock(rules: canasta.Rules, stock_top: list[str], **kwargs: object) -> canasta.HandState:
    """`canasta.build_position` with ``stock_top`` on top of the stock and every other card below it."""
    used = placed(stock_top, kwargs)
    rest = []
    for card in canasta.Deck(rules.deck).cards:
        if used[card.code]:
            used[card.code] -= 1
        else:
            rest.append(card.code)
    return canasta.build_position(rules, stock=[*stock_top, *rest], **kwargs)  # type: ignore[arg-type]


def _meld_phase(
    rules: canasta.Rules,
    hand: list[str],
    melds: list[list[str]],
    *,
    pile: tuple[str, ...] = ("9H", "8C"),
    other_melds: list[list[str]] | None = None,
) -> canasta.HandState:
    state = canasta.build_position(
        rules, hands=[hand, *OTHERS], melds=[melds, other_melds or []], pile=list(pile), phase="meld"
    )
    check_exact_legality(state)
    return state


def test_fits_modern_american_only() -> None:
    assert CLUB.house_rules == (RULE,)
    for variant in ("classic", "two-player", "cuban"):
        with pytest.raises(PluginError, match=f"house rule '{RULE}' does not fit variant '{variant}'"):
            canasta.load_rules(variant, (RULE,))


def test_d1_threes_are_never_discarded() -> None:
    kinds = discardable_kinds(CLUB, 10)
    assert not kinds[Kind.RED_THREE] and not kinds[Kind.BLACK_THREE]
    assert all(kinds[k] for k in (Kind.JOKER, Kind.TWO, *canasta.NATURAL_KINDS))


def test_d3_a_wild_card_is_discarded_only_from_an_all_wild_hand_after_the_draw() -> None:
    state = _meld_phase(CLUB, ["2C", "KH", "QH"], [["JC", "JD", "JS"]])
    error = refused(state, Discard(Kind.TWO), RuleCode.WILD_DISCARD)
    assert "every card of your hand was wild" in error.reason
    assert error.section is not None
    assert error.section.path == "rules/house-rules/american-discards.md#american-discards"
    accepted(state, Discard(Kind.KING))
    # Without the house rule the 2 may go.
    assert Discard(Kind.TWO) in _meld_phase(PLAIN, ["2C", "KH", "QH"], [["JC", "JD", "JS"]]).legal_actions()
    # A hand all wild after the draw may discard a wild card.
    wild = _meld_phase(CLUB, ["2C", "2D", "*"], [["JC", "JD", "JS"]])
    assert Discard(Kind.TWO) in wild.legal_actions() and Discard(Kind.JOKER) in wild.legal_actions()


def test_d3_is_decided_by_the_hand_just_after_the_stock_draw() -> None:
    # Seat 0 holds 2 2 joker K K K before drawing; the stock gives two more 2s: not all wild, so after melding
    # the kings no wild card may be discarded, and a meld that keeps only wild cards is refused.
    hand = ["2C", "2D", "*", "KH", "KS", "KD"]
    state = _with_stock(CLUB, ["2H", "2S"], hands=[hand, *OTHERS], melds=[[CANASTA_Q], []], pile=["9H", "8C"])
    accepted(state, DrawStock())
    assert not state.drew_all_wild
    refused(state, Meld(Kind.KING, 3, 0, 0))  # five wild cards left: no discard, and no going out
    assert Meld(Kind.JOKER, 0, 3, 1) in state.legal_actions()  # a wild meld, then a king is discarded
    check_exact_legality(state)
    assert not any(isinstance(a, Discard) and a.kind <= Kind.TWO for a in state.legal_actions())


def test_d2_the_going_out_discard_may_be_a_wild_card() -> None:
    state = _meld_phase(CLUB, ["JH", "2C"], [CANASTA_K, CANASTA_Q, ["JC", "JD", "JS"]])
    refused(state, Discard(Kind.TWO), RuleCode.WILD_DISCARD)  # not going out: the jack stays
    accepted(state, Meld(Kind.JACK, 1, 0, 0))
    accepted(state, Discard(Kind.TWO))
    assert state.end is HandEnd.WENT_OUT


def test_d4_no_stop_card_onto_an_empty_pile_while_a_plain_card_is_held() -> None:
    state = _meld_phase(CLUB, ["AH", "7C", "5D", "KH"], [["JC", "JD", "JS"]], pile=())
    legal = state.legal_actions()
    assert Discard(Kind.FIVE) in legal and Discard(Kind.KING) in legal
    for kind in (Kind.ACE, Kind.SEVEN):
        error = refused(state, Discard(kind), RuleCode.EMPTY_PILE_DISCARD)
        assert "the pile is empty" in error.reason
    # Onto a pile with cards in it the ace and the seven may go.
    full = _meld_phase(CLUB, ["AH", "7C", "5D", "KH"], [["JC", "JD", "JS"]])
    assert Discard(Kind.ACE) in full.legal_actions() and Discard(Kind.SEVEN) in full.legal_actions()


def test_d4_with_no_plain_card_any_natural_goes_and_a_wild_card_only_under_d3() -> None:
    state = _meld_phase(CLUB, ["AH", "AS", "7C", "2D"], [["JC", "JD", "JS"]], pile=())
    legal = state.legal_actions()
    assert Discard(Kind.ACE) in legal and Discard(Kind.SEVEN) in legal
    refused(state, Discard(Kind.TWO), RuleCode.WILD_DISCARD)


def test_d4_a_dead_rank_is_a_stop_card() -> None:
    rules = rules_of("modern-american", RULE, "dead-ranks")
    state = _meld_phase(rules, ["KC", "8D", "8S"], [["JC", "JD", "JS"]], pile=(), other_melds=[CANASTA_K])
    assert Kind.KING in state.closed_ranks
    refused(state, Discard(Kind.KING), RuleCode.EMPTY_PILE_DISCARD)
    assert Discard(Kind.EIGHT) in state.legal_actions()


def test_d5b_no_meld_may_take_the_last_plain_card_with_the_pile_empty() -> None:
    state = _meld_phase(CLUB, ["5C", "5D", "5H", "AH", "7D"], [["JC", "JD", "JS"]], pile=())
    error = refused(state, Meld(Kind.FIVE, 3, 0, 0), RuleCode.NO_PLAIN_CARD)
    assert "no card that may go onto it" in error.reason
    # With cards on the pile the same meld is fine (the ace or the seven is discarded).
    full = _meld_phase(CLUB, ["5C", "5D", "5H", "AH", "7D"], [["JC", "JD", "JS"]])
    accepted(full, Meld(Kind.FIVE, 3, 0, 0))
    accepted(full, Discard(Kind.ACE))


def test_d5b_leaving_one_card_to_go_out_with_is_allowed() -> None:
    state = _meld_phase(CLUB, ["5C", "5D", "5H", "AH"], [CANASTA_K, CANASTA_Q], pile=())
    accepted(state, Meld(Kind.FIVE, 3, 0, 0))
    accepted(state, Discard(Kind.ACE))  # the going-out discard (D2)
    assert state.end is HandEnd.WENT_OUT


def test_d5b_a_meld_that_closes_its_rank_turns_the_held_cards_into_stop_cards() -> None:
    rules = rules_of("modern-american", RULE, "dead-ranks")
    # Six kings on the table and two in hand: adding one makes the canasta, the rank closes, the last king in hand
    # is a stop card and nothing plain is left.
    state = _meld_phase(rules, ["KH", "KC", "AH", "AD"], [["KS", "KD", "KH", "KC", "KS", "KD"]], pile=())
    refused(state, Meld(Kind.KING, 1, 0, 0), RuleCode.NO_PLAIN_CARD)
    assert Meld(Kind.KING, 2, 0, 0) not in state.legal_actions()  # (8 kings: closed at 7)
    accepted(state, Discard(Kind.KING))


def test_d5b_a_pile_take_must_leave_a_plain_card() -> None:
    def take_position(hand: list[str], pile: list[str]) -> canasta.HandState:
        state = canasta.build_position(CLUB, hands=[hand, *OTHERS], melds=[[CANASTA_Q], []], pile=pile)
        check_exact_legality(state)
        return state

    # The nines go to a meld; the hand (two aces) and the rest of the pile (a seven) hold only stop cards.
    state = take_position(["9C", "9D", "AH", "AS"], ["7H", "9H"])
    error = refused(state, TakePile(2, 0, 0), RuleCode.NO_PLAIN_CARD)
    assert "after this take the pile is empty" in error.reason
    # A plain card in the rest of the pile is enough.
    state = take_position(["9C", "9D", "AH", "AS"], ["5H", "9H"])
    accepted(state, TakePile(2, 0, 0))
    assert state.legal_actions() and Discard(Kind.FIVE) in state.legal_actions()
    refused(state, Discard(Kind.ACE), RuleCode.EMPTY_PILE_DISCARD)
    # Without the house rule the first take is fine.
    plain = canasta.build_position(PLAIN, hands=[["9C", "9D", "AH", "AS"], *OTHERS], melds=[[CANASTA_Q], []],
                                   pile=["7H", "9H"])
    assert TakePile(2, 0, 0) in plain.legal_actions()


def test_d5c_bonus_cards_stand_for_the_kept_card() -> None:
    """With american-talon, the player who opens after a stock draw may discard his last card; the bonus follows."""
    hand = ["AH", "AS", "AD", "KH", "KS", "KD", "QH", "QS", "QD", "JH", "JS", "JD", "5S"]
    for house_rules, relieved in ((("american-talon", RULE), True), (("american-talon",), False)):
        rules = rules_of("modern-american", *house_rules)
        state = _with_stock(rules, ["JC"], hands=[hand, *OTHERS], pile=["9H", "8C"], opened=[False, False])
        accepted(state, DrawStock())  # the jack of clubs
        for rank in (Kind.ACE, Kind.KING, Kind.QUEEN):
            accepted(state, Meld(rank, 3, 0, 0))  # 120: the opening of 125 is still to complete
        assert not state.opened[0]
        check_exact_legality(state)
        if not relieved:
            # Four jacks would leave one card, and without canastas it could only be kept: refused.
            refused(state, Meld(Kind.JACK, 4, 0, 0))
            continue
        accepted(state, Meld(Kind.JACK, 4, 0, 0))
        assert state.opened[0] and state.sizes[0] == 1
        check_exact_legality(state)
        accepted(state, Discard(Kind.FIVE))
        assert state.end is None and state.seat == 1
        assert state.sizes[0] == 4  # the bonus cards of the side that melded first


def test_an_opening_that_would_leave_only_stop_cards_is_not_offered() -> None:
    """Found by random play: the opening search's shortcut took any two cards left for a possible discard."""
    hand = ["4C", "4D", "2C", "2D", "5S", "5D", "*", "2H", "7C", "7D", "8C", "8D", "QC", "QD", "QH"]
    state = canasta.build_position(CLUB, hands=[hand, *OTHERS], opened=[False, False], phase="meld")
    accepted(state, Meld(Kind.FOUR, 2, 2, 0))
    accepted(state, Meld(Kind.FIVE, 2, 0, 1))  # 110 of the 125 needed, no clean meld yet; the pile is empty
    # 8 8 2 reaches the count, but then only the queens can make the clean meld, and they would leave 7 7:
    # stop cards, nothing to throw onto the empty pile.
    refused(state, Meld(Kind.EIGHT, 2, 1, 0))
    assert Meld(Kind.QUEEN, 3, 0, 0) in state.legal_actions()
    check_exact_legality(state)
