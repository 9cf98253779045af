"""The rule options of SPEC.md as house rules: what each changes, where each fits."""

from __future__ import annotations

import pytest
from helpers import accepted, refused
from test_variant_positions import hand_codes, rules_of, with_stock

import canasta
from canasta import AskGoOut, Discard, DrawStock, EndHand, HandEnd, Kind, Meld, PluginError, RuleCode, TakePile

VARIANTS = ["classic", "two-player", "three-player", "six-player", "cuban", "modern-american"]
ANYWHERE = ["wilds-at-most-naturals", "last-red-three-may-meld"]
ONLY = {"cutthroat": "three-player", "american-talon": "modern-american"}
#: Fits every variant but these (where the pile is always frozen anyway).
EXCEPT = {"black-three-freezes": {"cuban", "modern-american"}}
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_A = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]
OTHERS = [["4C", "4D"], ["5C", "5D"], ["6C", "6D"]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_house_rules_stack_where_they_fit_and_are_recorded(variant: str) -> None:
    for name in ANYWHERE:
        assert canasta.load_rules(variant, (name,)).house_rules == (name,)
    assert canasta.load_rules(variant, tuple(ANYWHERE)).house_rules == tuple(ANYWHERE)
    for name, home in ONLY.items():
        if variant == home:
            assert canasta.Game(variant, (name,), seed=1).rules.house_rules == (name,)
        else:
            with pytest.raises(PluginError, match=f"house rule '{name}' does not fit variant '{variant}'"):
                canasta.Game(variant, (name,))
    for name, excluded in EXCEPT.items():
        if variant in excluded:
            expected = (
                f"does not fit variant '{variant}'; it applies to: every variant except cuban, hand-and-foot, "
                "modern-american"
            )
            with pytest.raises(PluginError, match=expected):
                canasta.Game(variant, (name,))
        else:
            assert canasta.Game(variant, (name,), seed=1).rules.house_rules == (name,)


def test_black_three_freezes() -> None:
    for rules, frozen in ((rules_of("classic", "black-three-freezes"), True), (rules_of("classic"), False)):
        state = canasta.build_position(
            rules, hands=[["QH", "2C", "9C", "9D"], *OTHERS], melds=[[["KH", "KS", "KD"]], []], pile=["3S", "7S", "QD"]
        )
        assert state.pile_frozen_for(0) is frozen
        if frozen:
            refused(state, TakePile(1, 1, 0), RuleCode.PILE_FROZEN)
        else:
            accepted(state, TakePile(1, 1, 0))
    rules = rules_of("classic", "black-three-freezes")
    discarding = canasta.build_position(rules, hands=[["3S", "9C", "9D"], *OTHERS], pile=["7S"], phase="meld")
    accepted(discarding, Discard(Kind.BLACK_THREE))
    assert discarding.pile_frozen_for(1) and discarding.pile_freezers == 1


def test_wilds_at_most_naturals() -> None:
    hands = [["QH", "QS", "QD", "2C", "2D", "2H", "9C", "9D"], *OTHERS]
    for variant in ("classic", "cuban"):
        plain = canasta.build_position(rules_of(variant), hands=hands, melds=[[["KH", "KS", "KD"]], []], phase="meld")
        state = canasta.build_position(
            rules_of(variant, "wilds-at-most-naturals"), hands=hands, melds=[[["KH", "KS", "KD"]], []], phase="meld"
        )
        assert plain.is_legal(Meld(Kind.QUEEN, 2, 3, 0))
        refused(state, Meld(Kind.QUEEN, 2, 3, 0), RuleCode.INVALID_MELD)
        accepted(state, Meld(Kind.QUEEN, 3, 3, 0))
    cuban = canasta.build_position(
        rules_of("cuban", "wilds-at-most-naturals"), hands=hands, melds=[[["KH", "KS", "KD"]], []], phase="meld"
    )
    accepted(cuban, Meld(Kind.JOKER, 0, 3, 0))  # wild melds are not limited by it


def test_last_red_three_may_meld() -> None:
    hands = [["QH", "QS", "QD", "9C", "9D"], *OTHERS]
    plain = with_stock(rules_of("classic"), ["3H"], dump=1, hands=hands, melds=[[["KH", "KS", "KD"]], []], pile=["7S"])
    accepted(plain, DrawStock())
    assert plain.end is HandEnd.RED_THREE_LAST
    rules = rules_of("classic", "last-red-three-may-meld")
    state = with_stock(rules, ["3H"], dump=1, hands=hands, melds=[[["KH", "KS", "KD"]], []], pile=["7S"])
    accepted(state, DrawStock())
    assert not state.is_over
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
    refused(state, Discard(Kind.NINE), RuleCode.CANNOT_DISCARD)
    accepted(state, EndHand())
    assert state.end is HandEnd.RED_THREE_LAST and state.melds[0][Kind.QUEEN].size == 3


CUT = rules_of("three-player", "cutthroat")


def test_cutthroat_first_taker_plays_alone_and_the_partners_melds_stay_apart() -> None:
    assert CUT.target_score == 7500 and CUT.partnerships.first_taker_alone
    state = canasta.build_position(
        CUT,
        hands=[["9C", "9D", "4H", "5H"], ["QS", "KC", "6C", "6D"], ["7C", "7D", "7H"]],
        melds=[[["8H", "8S", "8D"]], [["KH", "KS", "KD"], ["2C", "QH", "QD"]], [["KC", "KH", "KS", "2D", "*"]]],
        pile=["4S", "9H"],
        scores=[3000, 1500, 0],
    )
    accepted(state, TakePile(2, 0, 0))
    assert state.seating == [0, 1, 1]
    # SPEC §3 ⟨A⟩: both kings melds stay, each as it was; no merged 10-card meld.
    kings = state.melds[1][Kind.KING]
    second = state.melds[1][Kind.KING + canasta.cards.SECOND_MELD]
    assert (kings.naturals, kings.twos, kings.jokers) == (3, 0, 0)
    assert (second.rank, second.naturals, second.twos, second.jokers) == (Kind.KING, 3, 1, 1)
    assert state.melds[2] == {} and state.opened[1]
    assert [state.personal_minimum(s) for s in range(3)] == [120, 90, 50]
    accepted(state, Discard(Kind.FOUR))
    accepted(state, DrawStock())
    accepted(state, Meld(Kind.QUEEN, 1, 0, 0))  # seat 1 adds to the partnership's queens
    assert state.melds[1][Kind.QUEEN].size == 4
    # Cards of a rank held twice may go onto either meld.
    assert Meld(Kind.KING, 1, 0, 0) in state.legal_actions()
    accepted(state, Meld(Kind.KING, 1, 0, 0, second=True))
    assert second.size == 6 and kings.size == 3
    plain = canasta.build_position(
        rules_of("three-player"),
        hands=[["9C", "9D", "4H", "5H"], ["QS"], ["7C"]],
        melds=[[["8H", "8S", "8D"]], [], []],
        pile=["4S", "9H"],
    )
    accepted(plain, TakePile(2, 0, 0))
    assert plain.seating == [0, 1, 2]


def test_cutthroat_each_meld_of_a_rank_held_twice_obeys_the_meld_rules_on_its_own() -> None:
    state = canasta.build_position(
        CUT,
        hands=[["9C", "9D", "4H", "5H"], ["KS", "2H", "*", "6C", "6D"], ["7C", "7D", "7H"]],
        melds=[[["8H", "8S", "8D"]], [["KH", "KS", "KD", "KC", "KH", "2C"]], [["KD", "KC", "2D", "2S", "*"]]],
        pile=["4S", "9H"],
        scores=[0, 0, 0],
    )
    accepted(state, TakePile(2, 0, 0))
    accepted(state, Discard(Kind.FOUR))
    accepted(state, DrawStock())
    # The second kings hold 3 wild cards already: no more (at most 3 wild cards in a meld),
    # although the first kings could take them.
    refused(state, Meld(Kind.KING, 0, 1, 0, second=True), RuleCode.INVALID_MELD)
    assert Meld(Kind.KING, 0, 1, 0) in state.legal_actions()
    accepted(state, Meld(Kind.KING, 1, 0, 0))  # the first kings: a mixed canasta of 7
    assert state.canastas(1) == 1
    assert state.melds[1][Kind.KING + canasta.cards.SECOND_MELD].size == 5


def test_cutthroat_partners_may_ask_each_other_the_lone_hand_may_not() -> None:
    state = canasta.build_position(
        CUT,
        hands=[["9C", "9D", "4H", "5H"], ["QS", "6C", "6D"], ["7C", "7D", "7H"]],
        melds=[[["8H", "8S", "8D"]], [["KH", "KS", "KD"]], [["QH", "QD", "QC"]]],
        pile=["4S", "9H"],
    )
    assert AskGoOut() not in state.legal_actions()  # no partnership yet
    accepted(state, TakePile(2, 0, 0))
    assert AskGoOut() not in state.legal_actions()  # the lone hand has no partner
    accepted(state, Discard(Kind.FOUR))
    assert AskGoOut() in state.legal_actions()  # seat 1 asks its partner, seat 2
    accepted(state, AskGoOut())
    assert state.seat == 2


def test_cutthroat_going_out_first_makes_the_lone_hand_and_partners_share_the_result() -> None:
    state = canasta.build_position(
        CUT,
        hands=[["6C", "6D"], ["QH", "QS", "QD", "9C"], ["7C", "7D", "8C"]],
        melds=[[["5H", "5S", "5D"]], [CANASTA_K, CANASTA_A], [["8H", "8S", "8D"]]],
        threes=[["3H"], [], ["3D", "3H"]],
        seat=1,
        phase="meld",
    )
    accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
    accepted(state, Discard(Kind.NINE))
    assert state.end is HandEnd.WENT_OUT and state.seating == [0, 1, 0]
    alone, partner_a, partner_b = (state.score().sides[s] for s in (1, 0, 2))
    assert alone.going_out == 100 and alone.canasta_bonuses == 1000
    shared = ("melded_cards", "canasta_bonuses", "cards_in_hand", "going_out", "penalties")
    assert all(getattr(partner_a, f) == getattr(partner_b, f) for f in shared)
    assert partner_a.melded_cards == 15 + 30 and partner_a.cards_in_hand == -10 - 20
    assert (partner_a.red_threes, partner_b.red_threes) == (100, 200)  # red threes per player


def test_american_talon_bonus_cards_after_the_initial_meld() -> None:
    talon = rules_of("modern-american", "american-talon")
    assert talon.draw_count == 1
    drawing = with_stock(talon, ["9H", "TC"], dump=3, hands=[["4H", "5H", "6H"], *OTHERS], pile=["8C"])
    accepted(drawing, DrawStock())
    assert hand_codes(drawing, 0) == ["4H", "5H", "6H", "9H"]
    opening = ["QH", "QS", "QD", "AH", "AS", "AD", "AC", "KH", "KS", "KD", "9C", "9D"]

    def open_and_discard(stock: list[str], melds: list[list[list[str]]]) -> int:
        state = with_stock(talon, stock, dump=3, hands=[opening, *OTHERS], melds=melds, phase="meld")
        for rank, n in ((Kind.QUEEN, 3), (Kind.ACE, 4), (Kind.KING, 3)):
            accepted(state, Meld(rank, n, 0, 0))
        assert state.opened[0]
        accepted(state, Discard(Kind.NINE))
        return state.sizes[0]

    stock = ["4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QC", "KC"]
    assert open_and_discard(stock, [[], []]) == 1 + 4  # first side to meld
    assert open_and_discard(stock, [[], [["8H", "8S", "8D"]]]) == 1 + 3  # second
    assert open_and_discard(stock[:8], [[], []]) == 1  # 8 stock cards left: none
