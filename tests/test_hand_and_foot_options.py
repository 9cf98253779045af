"""The rule options of Hand and Foot (§8.13) as house rules: each with its accepted and refused case, or its value.

Positions are built with `canasta.build_position` as in ``test_hand_and_foot.py``
(seats 0 and 2 against 1 and 3, everyone in the foot unless ``packets`` says
otherwise). Options that set the same parameter replace each other (the last
stacked wins); ``no-wild-books`` and ``quota-1-1-1`` contradict and are refused.
"""

from __future__ import annotations

import random
from collections.abc import Generator

import attrs
import pytest
from canasta_house_rules.hand_and_foot import HOUSE_RULES
from helpers import check_conservation, play_random_hand, reference_positions
from test_hand_and_foot import CLEAN_K, CLEAN_Q, DIRTY_J, DIRTY_T, FOOT, QUOTA, _position
from test_hand_and_foot import RULES as BASE

import canasta
from canasta import (
    AnswerGoOut,
    AskGoOut,
    CanastaClass,
    Discard,
    HandState,
    IllegalActionError,
    Kind,
    Meld,
    RuleCode,
    TakePile,
)
from canasta.goingout import can_meld_out
from canasta.testing.invariants import check_observations
from canasta.testing.reference import check_exact_legality

OPTIONS = [rule.name for rule in HOUSE_RULES]


def _rules(*options: str) -> canasta.Rules:
    return canasta.load_rules("hand-and-foot", list(options))


def _go_out(state: HandState) -> None:
    """Seat 0 asks, is answered "yes", and melds its three sevens."""
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))


class _Players:
    def __init__(self, players: int) -> None:
        self.players = players

    @canasta.hookimpl
    def canasta_players(self) -> int:
        return self.players


def _at_table(players: int, *options: str) -> canasta.Rules:
    """Hand and Foot for ``players`` with ``options`` (a test variant on top of hand-and-foot)."""
    registry = canasta.Registry(autoload="builtin")
    registry.add_variant(
        canasta.Variant(
            name=f"hand-and-foot-{players}", description="a test", plugins=(_Players(players),), base="hand-and-foot"
        )
    )
    return canasta.load_rules(f"hand-and-foot-{players}", list(options), registry=registry)


# --- every option --------------------------------------------------------------------------------


def test_the_options_fit_hand_and_foot_only() -> None:
    registry = canasta.default_registry()
    assert len(OPTIONS) == 32 and set(OPTIONS) <= {h.name for h in registry.house_rules()}
    for name in OPTIONS:
        assert registry.fits(name, "hand-and-foot"), name
        assert not any(registry.fits(name, v) for v in ("classic", "cuban", "modern-american")), name
    with pytest.raises(canasta.PluginError, match="does not fit variant 'classic'"):
        canasta.load_rules("classic", ["pile-six"])


@pytest.mark.parametrize("option", OPTIONS)
def test_random_deals_with_the_option_keep_every_invariant(option: str) -> None:
    rules = _rules(option)
    assert rules.house_rules == (option,) and rules != BASE
    for seed in range(3):
        state, _ = play_random_hand(
            random.Random(seed), seed=seed, rules=rules, scores=[0, 0], legal_sample=1, illegal_sample=2
        )
        assert state.is_over
        check_conservation(state)


# --- deal and cards ------------------------------------------------------------------------------


def test_deal_eleven_deals_hands_and_feet_of_eleven() -> None:
    rules = _rules("deal-eleven")
    assert (rules.hand_size, rules.packets.sizes, rules.deck) == (11, (11,), BASE.deck)
    state = HandState.deal(rules, dealer=3, scores=[0, 0], seed=2)
    assert all(len(p[0]) == 11 for p in state.packets) and all(size == 11 for size in state.sizes)
    replaced = sum(len(t) for t in state.threes)
    assert len(state.stock) == 270 - 88 - 1 - replaced
    base = HandState.deal(BASE, dealer=3, scores=[0, 0], seed=2)
    assert all(size == 13 for size in base.sizes)


@pytest.mark.parametrize(("players", "packs"), [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6)])
def test_decks_per_player_plays_one_deck_a_player(players: int, packs: int) -> None:
    rules = _rules("decks-per-player") if players == 4 else _at_table(players, "decks-per-player")
    assert (rules.deck.packs, rules.deck.jokers) == (packs, 2 * packs)
    assert BASE.deck.packs == 5
    state = HandState.deal(rules, dealer=0, scores=[0] * rules.side_count, seed=players)
    check_conservation(state)
    if players == 4:
        assert rules.deck.size == 216


def test_eights_nines_five_counts_them_five_in_the_opening_and_in_the_score() -> None:
    rules = _rules("eights-nines-five")
    assert (rules.card_values[Kind.EIGHT], rules.card_values[Kind.NINE]) == (5, 5)
    assert rules.card_values[Kind.TEN] == 10 and rules.card_values[Kind.SEVEN] == 5
    hands = [["8C", "8D", "8H", "9C", "9D", "9H", "4C", "5C"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    base = _position(melds=[[], []], hands=hands)
    base.apply(Meld(Kind.EIGHT, 3, 0, 0))
    base.apply(Meld(Kind.NINE, 3, 0, 0))
    assert base.opened[0]  # 60 >= 50
    option = _position(rules, melds=[[], []], hands=hands)
    assert not [a for a in option.legal_actions() if isinstance(a, Meld)]  # 15 + 15 < 50: no opening
    with pytest.raises(IllegalActionError) as refused:
        option.apply(Meld(Kind.EIGHT, 3, 0, 0))
    assert refused.value.code is RuleCode.MINIMUM_NOT_MET
    # Left in a hand: seat 1 holds an 8 and a 9.
    held = [["7C", "7D", "7H"], ["8C", "9D"], ["JC", "JD"], ["QH", "QS"]]
    out = _position(rules, melds=[QUOTA, []], hands=held)
    _go_out(out)
    assert out.score().sides[1].cards_in_hand == -10 - 20  # and seat 3's two queens
    out = _position(melds=[QUOTA, []], hands=held)
    _go_out(out)
    assert out.score().sides[1].cards_in_hand == -20 - 20


# --- melds and books -----------------------------------------------------------------------------


def test_no_wild_books_refuses_a_wild_meld_and_a_wild_top_card() -> None:
    rules = _rules("no-wild-books")
    assert not rules.melds.wild_melds and not rules.pile.wild_pair
    hands = [["2C", "2D", "*", "4C", "5C"], ["QC"], ["JC"], ["QH"]]
    assert Meld(Kind.JOKER, 0, 2, 1) in _position(hands=hands).legal_actions()
    state = _position(rules, hands=hands)
    assert Meld(Kind.JOKER, 0, 2, 1) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Meld(Kind.JOKER, 0, 2, 1))
    assert refused.value.code is RuleCode.WILD_MELD
    assert "no-wild-books" in str(refused.value.section)
    # A wild card still melds in a rank meld (two naturals per wild card).
    assert Meld(Kind.ACE, 0, 1, 0) in state.legal_actions()
    # A wild top card: taken by two of its kind in the base game, never with the option.
    pile_hands = [["*", "*", "4C", "4D"], ["QC"], ["JC"], ["QH"]]
    assert TakePile(0, 0, 2) in _position(phase="draw", pile=["9S", "*"], hands=pile_hands).legal_actions()
    state = _position(rules, phase="draw", pile=["9S", "*"], hands=pile_hands)
    assert not [a for a in state.legal_actions() if isinstance(a, TakePile)]
    with pytest.raises(IllegalActionError):
        state.apply(TakePile(0, 0, 2))


def test_no_wild_books_goes_out_without_a_wild_book() -> None:
    rules = _rules("no-wild-books")
    assert dict(rules.going_out.canastas_by_class) == {CanastaClass.NATURAL: 2, CanastaClass.MIXED: 2}
    state = _position(rules, melds=[QUOTA[:4], []])
    _go_out(state)
    assert state.is_over and state.went_out == 0
    base = _position(melds=[QUOTA[:4], []])
    base.apply(AskGoOut())
    base.apply(AnswerGoOut(True))
    with pytest.raises(IllegalActionError) as refused:
        base.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert refused.value.code is RuleCode.GOING_OUT_NOT_ALLOWED


def test_no_wild_books_and_a_quota_with_a_wild_book_are_refused_in_either_order() -> None:
    for stack in (["no-wild-books", "quota-1-1-1"], ["quota-1-1-1", "no-wild-books"]):
        with pytest.raises(canasta.PluginError) as refused:
            canasta.load_rules("hand-and-foot", stack)
        assert "'no-wild-books'" in str(refused.value) and "'quota-1-1-1'" in str(refused.value)
    # The quotas without a wild book stack with it.
    assert dict(_rules("no-wild-books", "quota-3-4").going_out.canastas_by_class) == {
        CanastaClass.NATURAL: 3,
        CanastaClass.MIXED: 4,
    }


class _WildQuota:
    """A third party's quota that needs a wild book (not declared as conflicting with no-wild-books)."""

    @canasta.hookimpl(wrapper=True)
    def canasta_going_out(self, players: int) -> Generator[None, canasta.GoingOutRules, canasta.GoingOutRules]:
        going_out: canasta.GoingOutRules = yield
        return attrs.evolve(going_out, canastas_by_class=((CanastaClass.WILD, 1),))


def test_any_stack_whose_quota_needs_a_wild_book_without_wild_melds_is_refused_when_compiled() -> None:
    registry = canasta.Registry(autoload="builtin")
    registry.add_house_rule(canasta.HouseRule(name="wild-quota", description="a test", plugins=(_WildQuota(),)))
    assert canasta.load_rules("hand-and-foot", ["wild-quota", "no-wild-books"], registry=registry)
    with pytest.raises(canasta.RulesError) as refused:
        canasta.load_rules("hand-and-foot", ["no-wild-books", "wild-quota"], registry=registry)
    message = str(refused.value)
    assert "wild melds are not allowed" in message
    assert "house rule no-wild-books" in message and "house rule wild-quota" in message


# --- the discard pile ----------------------------------------------------------------------------

PILE = ["4C", "4D", "4H", "5C", "5D", "6C", "6D", "8C", "8D", "JS", "KS"]


@pytest.mark.parametrize(("option", "left"), [(None, 4), ("pile-whole", 0), ("pile-three", 8), ("pile-six", 5)])
def test_the_pile_count_options_take_the_top_n_cards(option: str | None, left: int) -> None:
    rules = BASE if option is None else _rules(option)
    state = _position(rules, phase="draw", pile=PILE, hands=[["KC", "KD", "9C"], ["QC"], ["JC"], ["QH"]])
    state.apply(TakePile(2, 0, 0))
    assert [state.deck.cards[c].code for c in state.pile] == PILE[:left]
    assert state.sizes[0] == 1 + (len(PILE) - left - 1)  # the 9, and the taken cards but the top


def test_pile_count_options_replace_each_other_the_last_wins() -> None:
    assert _rules("pile-three", "pile-six").pile.take_count == 6
    assert _rules("pile-six", "pile-three").pile.take_count == 3
    assert _rules("pile-three", "pile-whole").pile.take_count is None
    assert BASE.pile.take_count == 7


def test_pile_onto_meld_lays_the_top_card_off_on_the_incomplete_meld() -> None:
    rules = _rules("pile-onto-meld")
    melds = [[["9C", "9D", "9H", "9S", "9C", "2C"]], []]  # an incomplete meld of six nines
    hands = [["4C", "5C"], ["QC"], ["JC"], ["QH"]]
    base = _position(phase="draw", pile=["4S", "9S"], hands=hands, melds=melds)
    assert not [a for a in base.legal_actions() if isinstance(a, TakePile)]
    state = _position(rules, phase="draw", pile=["4S", "9S"], hands=hands, melds=melds)
    assert [a for a in state.legal_actions() if isinstance(a, TakePile)] == [TakePile(0, 0, 0)]
    state.apply(TakePile(0, 0, 0))
    assert len(state.books[0]) == 1 and Kind.NINE not in state.melds[0]  # 7 cards after: a book
    assert state.sizes[0] == 3  # the 4 taken with it joins the hand


def test_pile_onto_meld_never_goes_onto_a_book_a_full_meld_or_for_a_wild_top_card_or_unopened() -> None:
    rules = _rules("pile-onto-meld")
    hands = [["4C", "5C"], ["QC"], ["JC"], ["QH"]]
    nine_book = ["9C", "9D", "9H", "9S", "9C", "9D", "9H"]
    for melds, pile in [
        ([[nine_book, ["AC", "AD", "AH"]], []], ["4S", "9S"]),  # a book of nines only: no incomplete meld
        ([[["AC", "AD", "AH"]], []], ["4S", "9S"]),  # no meld of nines at all
        ([[["2C", "2D", "2H"], ["AC", "AD", "AH"]], []], ["4S", "2S"]),  # a wild top card onto the wild meld
        ([[], []], ["4S", "9S"]),  # not opened (no meld)
    ]:
        state = _position(rules, phase="draw", pile=pile, hands=hands, melds=melds)
        assert not [a for a in state.legal_actions() if isinstance(a, TakePile)], (melds, pile)
        with pytest.raises(IllegalActionError):
            state.apply(TakePile(0, 0, 0))
    # Onto the incomplete meld beside a book of the rank.
    state = _position(rules, phase="draw", pile=["4S", "9S"], hands=hands, melds=[[nine_book, ["9C", "9D", "9H"]], []])
    assert TakePile(0, 0, 0) in state.legal_actions()


def test_pile_needs_opening_refuses_the_pile_to_an_unopened_side() -> None:
    rules = _rules("pile-needs-opening")
    assert not rules.pile.unmelded_side_may_take
    hands = [["KC", "KD", "AC", "AD", "AH", "4C"], ["QC"], ["JC"], ["QH"]]
    unopened = {"phase": "draw", "pile": ["4S", "KS"], "hands": hands, "melds": [[], []]}
    assert TakePile(2, 0, 0) in _position(**unopened).legal_actions()  # type: ignore[arg-type]
    state = _position(rules, **unopened)
    assert TakePile(2, 0, 0) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        state.apply(TakePile(2, 0, 0))
    assert refused.value.code is RuleCode.PILE_NOT_MELDED
    opened = _position(rules, phase="draw", pile=["4S", "KS"], hands=hands)
    assert TakePile(2, 0, 0) in opened.legal_actions()


# --- threes --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "each"),
    [(None, 5), ("black-three-penalty-100", 100), ("black-three-penalty-300", 300), ("black-three-penalty-0", 0)],
)
def test_a_black_three_left_in_a_hand_or_a_foot_down_counts_the_penalty(option: str | None, each: int) -> None:
    rules = BASE if option is None else _rules(option)
    assert rules.black_threes.in_hand_penalty == each
    foot = ["3S", *FOOT[1:]]  # a black three and 12 cards worth 95
    state = _position(
        rules,
        melds=[QUOTA, [["5H", "5S", "5H"]]],
        hands=[["7C", "7D", "7H"], ["3C", "QD"], ["JC", "JD"], ["QH", "QS"]],
        packets=[[], [foot], [], []],
    )
    _go_out(state)
    # Seat 1: a black three and a queen in hand, a black three in the foot down; seat 3: two queens.
    assert state.score().sides[1].cards_in_hand == -(2 * each) - 10 - 95 - 20


def test_black_three_penalties_replace_each_other_the_last_wins() -> None:
    assert _rules("black-three-penalty-300", "black-three-penalty-0").black_threes.in_hand_penalty == 0
    assert _rules("black-three-penalty-0", "black-three-penalty-100").black_threes.in_hand_penalty == 100


# --- going out -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "quota"),
    [("quota-1-1", (1, 1, 0)), ("quota-2-2", (2, 2, 0)), ("quota-1-1-1", (1, 1, 1)), ("quota-3-4", (3, 4, 0))],
)
def test_the_quota_options_set_the_quota_for_every_side_whatever_the_players(
    option: str, quota: tuple[int, int, int]
) -> None:
    classes = (CanastaClass.NATURAL, CanastaClass.MIXED, CanastaClass.WILD)
    expected = {cls: n for cls, n in zip(classes, quota, strict=True) if n}
    for players in (2, 4, 5, 6):
        rules = _rules(option) if players == 4 else _at_table(players, option)
        assert dict(rules.going_out.canastas_by_class) == expected, players
        assert rules.going_out.canastas_required == 0


def test_quota_one_one_goes_out_with_a_clean_and_a_dirty_book() -> None:
    melds = [[CLEAN_K, DIRTY_J], []]
    state = _position(_rules("quota-1-1"), melds=melds)
    _go_out(state)
    assert state.is_over and state.went_out == 0
    base = _position(melds=melds)
    base.apply(AskGoOut())
    base.apply(AnswerGoOut(True))
    assert Meld(Kind.SEVEN, 3, 0, 0) not in base.legal_actions()


def test_quota_three_four_refuses_the_base_quota() -> None:
    _go_out(base := _position(melds=[QUOTA, []]))
    assert base.is_over
    state = _position(_rules("quota-3-4"), melds=[QUOTA, []])
    assert AskGoOut() in state.legal_actions()  # asking before the draw stays possible
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))  # binds nothing: going out is impossible
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert refused.value.code is RuleCode.GOING_OUT_NOT_ALLOWED


def test_quota_options_replace_each_other_the_last_wins() -> None:
    assert dict(_rules("quota-1-1", "quota-3-4").going_out.canastas_by_class) == {
        CanastaClass.NATURAL: 3,
        CanastaClass.MIXED: 4,
    }
    assert dict(_rules("quota-3-4", "quota-1-1-1").going_out.canastas_by_class) == {
        CanastaClass.NATURAL: 1,
        CanastaClass.MIXED: 1,
        CanastaClass.WILD: 1,
    }


def test_discard_to_go_out_refuses_going_out_by_melding_every_card() -> None:
    rules = _rules("discard-to-go-out")
    assert rules.going_out.final_discard_required and not BASE.going_out.final_discard_required
    # Three sevens: the base game goes out by melding them; with the option there is no card left to discard.
    base = _position(melds=[QUOTA, []])
    _go_out(base)
    assert base.is_over
    state = _position(rules, melds=[QUOTA, []])
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))  # binds nothing: going out is impossible with no card to discard
    assert Meld(Kind.SEVEN, 3, 0, 0) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert refused.value.code is RuleCode.GOING_OUT_NOT_ALLOWED
    assert state.legal_actions() == (Discard(Kind.SEVEN),)  # the turn is played on
    # With a fourth card, after "yes" the player must keep one card for the final discard.
    hands = [["7C", "7D", "7H", "7S"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    state = _position(rules, melds=[QUOTA, []], hands=hands)
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    assert state.legal_actions() == (Meld(Kind.SEVEN, 3, 0, 0),)
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Meld(Kind.SEVEN, 4, 0, 0))  # no card left for the final discard
    assert refused.value.code is not RuleCode.INVALID_MELD
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert state.legal_actions() == (Discard(Kind.SEVEN),)
    state.apply(Discard(Kind.SEVEN))
    assert state.is_over and state.went_out == 0
    base = _position(melds=[QUOTA, []], hands=hands)
    base.apply(AskGoOut())
    base.apply(AnswerGoOut(True))
    assert Meld(Kind.SEVEN, 4, 0, 0) in base.legal_actions()


def test_partner_foot_free_goes_out_while_a_partner_is_in_the_hand() -> None:
    rules = _rules("partner-foot-free")
    assert not rules.packets.partners_first
    partner_down = {"melds": [QUOTA, []], "packets": [[], [], [FOOT], []]}
    assert AskGoOut() not in _position(**partner_down).legal_actions()  # type: ignore[arg-type]
    state = _position(rules, **partner_down)
    _go_out(state)
    assert state.is_over and state.went_out == 0
    # The partner's foot still down counts against the side: 6 x 5 + 7 x 10, and the jacks in hand.
    assert state.score().sides[0].cards_in_hand == -100 - 20


@pytest.mark.parametrize(("option", "bonus"), [(None, 100), ("going-out-bonus-200", 200), ("going-out-bonus-500", 500)])
def test_the_going_out_bonus(option: str | None, bonus: int) -> None:
    state = _position(BASE if option is None else _rules(option), melds=[QUOTA, []])
    _go_out(state)
    assert state.score().sides[0].going_out == bonus and state.score().sides[1].going_out == 0


def test_going_out_bonuses_replace_each_other_the_last_wins() -> None:
    assert _rules("going-out-bonus-500", "going-out-bonus-200").going_out.bonus == 200
    assert _rules("going-out-bonus-200", "going-out-bonus-500").going_out.bonus == 500


def test_wild_limit_three_wants_more_naturals_than_wild_cards_and_three_at_most() -> None:
    rules = _rules("wild-limit-three")
    valid, base = rules.melds.is_valid, BASE.melds.is_valid
    nine = int(Kind.NINE)
    most = {3: 1, 4: 1, 5: 2, 6: 2, 7: 3}
    for size, wilds in most.items():
        assert valid(nine, size - wilds, wilds, 0) and not valid(nine, size - wilds - 1, wilds + 1, 0), size
    assert valid(nine, 3, 1, 1) and not base(nine, 3, 1, 1)  # 5 cards, 2 wild: allowed only with the option
    assert valid(nine, 4, 2, 1) and not base(nine, 4, 2, 1)  # a dirty book of 4 naturals and 3 wild cards
    assert all(valid(int(Kind.JOKER), 0, t, size - t) for size in range(3, 8) for t in range(size + 1))
    hands = [["9C", "9D", "9H", "2C", "*", "4C", "5C"], ["QC"], ["JC"], ["QH"]]
    state = _position(rules, hands=hands)
    assert Meld(Kind.NINE, 3, 1, 1) in state.legal_actions()
    state.apply(Meld(Kind.NINE, 3, 1, 1))
    refused_base = _position(hands=hands)
    assert Meld(Kind.NINE, 3, 1, 1) not in refused_base.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        refused_base.apply(Meld(Kind.NINE, 3, 1, 1))
    assert refused.value.code is RuleCode.INVALID_MELD
    hands = [["9C", "9D", "9H", "2C", "2D", "*", "4C", "5C"], ["QC"], ["JC"], ["QH"]]
    as_many = _position(rules, hands=hands)  # three naturals and three wild cards: not more naturals
    with pytest.raises(IllegalActionError) as refused:
        as_many.apply(Meld(Kind.NINE, 3, 2, 1))
    assert refused.value.code is RuleCode.INVALID_MELD and "wild-limit-three" in str(refused.value.section)


def test_foot_ends_turn_ends_the_turn_when_a_meld_empties_the_hand() -> None:
    rules = _rules("foot-ends-turn")
    assert not rules.packets.meld_picks_up
    hands = [["7C", "7D", "7H"], ["QC", "QD", "4S"], ["JC", "JD"], ["QH", "QS"]]
    in_hand = {"hands": hands, "packets": [[FOOT], [], [], []]}
    base = _position(**in_hand)  # type: ignore[arg-type]
    base.apply(Meld(Kind.SEVEN, 3, 0, 0))  # the base game: the foot at once, the turn goes on
    assert base.seat == 0 and base.packets[0] == [] and base.sizes[0] == 13
    state = _position(rules, **in_hand)  # type: ignore[arg-type]
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))  # no discard: the turn ends at once
    assert state.seat == 1 and state.sizes[0] == 0 and len(state.packets[0]) == 1
    for _ in range(3):
        state.apply(next(a for a in state.legal_actions() if not isinstance(a, TakePile | Meld)))
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)))
    assert state.seat == 0 and state.packets[0] == [] and state.sizes[0] == 13  # picked up at the next turn


def test_no_permission_goes_out_without_a_yes_and_a_no_still_binds() -> None:
    rules = _rules("no-permission")
    assert rules.going_out.permission is canasta.Permission.ANY_TIME
    hands = [["7C", "7D", "7H", "8C", "8D", "8H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    base = _position(melds=[QUOTA, []], hands=hands)
    base.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert Meld(Kind.EIGHT, 3, 0, 0) not in base.legal_actions()  # no "yes": 2 cards must stay
    state = _position(rules, melds=[QUOTA, []], hands=hands)
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert Meld(Kind.EIGHT, 3, 0, 0) in state.legal_actions() and AskGoOut() in state.legal_actions()
    state.apply(Meld(Kind.EIGHT, 3, 0, 0))
    assert state.is_over and state.went_out == 0
    asked = _position(rules, melds=[QUOTA, []], hands=hands)
    asked.apply(AskGoOut())
    asked.apply(AnswerGoOut(False))  # "no" binds: not this turn
    asked.apply(Meld(Kind.SEVEN, 3, 0, 0))  # 3 cards kept
    assert Meld(Kind.EIGHT, 3, 0, 0) not in asked.legal_actions()
    with pytest.raises(IllegalActionError):
        asked.apply(Meld(Kind.EIGHT, 3, 0, 0))


def test_no_permission_lets_the_foot_keep_one_card_where_going_out_follows() -> None:
    hands = [["7C", "7D", "7H", "4C"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    state = _position(_rules("no-permission"), melds=[QUOTA, []], hands=hands)
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))  # one card kept, for the final discard
    state.apply(Discard(Kind.FOUR))
    assert state.is_over and state.went_out == 0
    base = _position(melds=[QUOTA, []], hands=hands)
    assert Meld(Kind.SEVEN, 3, 0, 0) not in base.legal_actions()  # no "yes": at least 2 cards kept


# --- the game ------------------------------------------------------------------------------------


def test_score_minimums_follow_the_side_total_not_the_deal() -> None:
    rules = _rules("score-minimums")
    table = [
        (-500, 50),
        (0, 50),
        (2495, 50),
        (2500, 90),
        (4995, 90),
        (5000, 120),
        (7495, 120),
        (7500, 150),
        (20000, 150),
    ]
    for deal in (1, 4, 9):
        assert [rules.minimums.minimum_for(score, deal) for score, _ in table] == [m for _, m in table]
    hands = [["AC", "AD", "AH", "4C", "5C"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    # Deal 4 at a total of 0: 60 opens with the option, not in the base game (150).
    state = _position(rules, deal_number=4, scores=[0, 0], melds=[[], []], hands=hands)
    state.apply(Meld(Kind.ACE, 3, 0, 0))
    assert state.opened[0]
    base = _position(deal_number=4, scores=[0, 0], melds=[[], []], hands=hands)
    assert Meld(Kind.ACE, 3, 0, 0) not in base.legal_actions()  # 60 < 150
    # Deal 1 at a total of 5000: 60 is not enough with the option (120).
    state = _position(rules, deal_number=1, scores=[5000, 0], melds=[[], []], hands=hands)
    assert Meld(Kind.ACE, 3, 0, 0) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Meld(Kind.ACE, 3, 0, 0))
    assert refused.value.code is RuleCode.MINIMUM_NOT_MET and "120" in str(refused.value)
    assert "score-minimums" in str(refused.value.section)


def test_score_minimums_play_to_ten_thousand_not_four_deals() -> None:
    rules = _rules("score-minimums")
    assert rules.game_length == canasta.GameLength(target_score=10000)
    assert not rules.game_length.is_over([9995, -300], 12) and rules.game_length.is_over([10000, 0], 2)
    assert BASE.game_length.is_over([0, 0], 4)
    game = canasta.Game("hand-and-foot", ["score-minimums"], seed=5)
    rng = random.Random(5)
    while len(game.results) < 4:
        game.apply(rng.choice(game.legal_actions()))
    assert game.is_over is (max(game.scores) >= 10000)


# --- legal means completable -----------------------------------------------------------------------

#: The options that change what is legal (the others change numbers of the deal or of the score).
LEGALITY_OPTIONS = [
    "upcard-stays",
    "eights-nines-five",
    "wild-limit-three",
    "foot-ends-turn",
    "foot-after-first-book",
    "no-permission",
    "no-wild-books",
    "pile-whole",
    "pile-three",
    "pile-onto-meld",
    "pile-needs-opening",
    "pile-natural-and-wild",
    "quota-1-1",
    "quota-3-4",
    "discard-to-go-out",
    "partner-foot-free",
    "score-minimums",
    "reshuffle-discards",
    "red-threes-dead",
    "add-to-books",
]


@pytest.mark.parametrize("option", LEGALITY_OPTIONS)
def test_the_reference_agrees_with_the_option_on_positions_of_random_play(option: str) -> None:
    checked = reference_positions(_rules(option), range(3), max_nodes=20_000)
    assert len(checked) >= 4


# --- what the conformance runs of the options found in the base game -------------------------------


def test_the_cards_a_take_leaves_waiting_are_observed_above_the_rest_of_the_pile() -> None:
    # An unopened side takes 7 of 11 cards: the 6 others wait, face up, above the 4 left (check_observations).
    foot = ["5C", "5D", "5H", "5S", "7C", "7D", "7H", "9C", "9D", "TC", "TD", "KS", "KD"]
    hands = [["KC", "KD", "AC", "AD", "AH", "QS", "QH", "QD"], ["QC"], ["JC"], ["QH"]]
    state = _position(phase="draw", pile=PILE, hands=hands, melds=[[], []], packets=[[foot], [], [], []])
    state.apply(TakePile(2, 0, 0))
    assert state.pending_pile is not None and len(state.pending_pile) == 6 and len(state.pile) == 4
    seen = [card.code for card in state.observation(0).pile]
    assert seen == [state.deck.cards[c].code for c in [*state.pile, *state.pending_pile]]
    check_observations(state)


def test_an_opening_by_a_one_card_pile_may_continue_with_a_book_then_reach_the_minimum() -> None:
    # Deal 2 (90): the pickup meld 4 4 4 (15); then 7 7 7 7 7 2 2 (65, a book) and 6 6 6 (15) reach 95.
    foot = ["5C", "5D", "5H", "5S", "8C", "8D", "8H", "9C", "9D", "TC", "TD", "KS", "KD"]
    hands = [
        ["QC", "QD", "KC"],
        ["2D", "2H", "6C", "6C", "6D", "7S", "7H", "7H", "7C", "7S", "JC", "4S", "4D"],
        ["JC", "JD"],
        ["QH", "QS"],
    ]
    state = _position(
        phase="draw", seat=1, pile=["4S"], hands=hands, melds=[[], []], packets=[[], [foot], [], []], deal_number=2
    )
    state.apply(TakePile(2, 0, 0))
    assert Meld(Kind.SEVEN, 5, 2, 0) in state.legal_actions()  # the reference finds it completable


# --- pile-natural-and-wild, red-threes-always-minus-500 ----------------------------------------------


def test_pile_natural_and_wild_takes_an_unfrozen_pile_with_a_natural_and_a_wild_card() -> None:
    rules = _rules("pile-natural-and-wild")
    hands = [["9C", "2C", "4C", "4D"], ["QC"], ["JC"], ["QH"]]
    state = _position(rules, phase="draw", pile=["5S", "9S"], hands=hands)
    assert TakePile(1, 1, 0) in state.legal_actions()
    assert TakePile(1, 1, 0) not in _position(phase="draw", pile=["5S", "9S"], hands=hands).allowed_actions()
    frozen = _position(rules, phase="draw", pile=["2S", "5S", "9S"], hands=hands)  # a wild card in the pile
    assert frozen.pile_frozen_for(0) and TakePile(1, 1, 0) not in frozen.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        frozen.apply(TakePile(1, 1, 0))
    assert refused.value.code is RuleCode.PILE_FROZEN and "pile-natural-and-wild" in str(refused.value)
    unopened = _position(rules, phase="draw", pile=["5S", "9S"], hands=hands, melds=[[], []])
    assert unopened.pile_frozen_for(0)  # frozen for a side that has not opened
    assert not _position(phase="draw", pile=["2S", "5S", "9S"], hands=hands).pile_frozen_for(0)  # base: never


def test_red_threes_always_minus_500_laid_out_and_left_in_a_foot() -> None:
    rules = _rules("red-threes-always-minus-500")
    foot = ["3H", *FOOT[1:]]
    state = _position(rules, melds=[QUOTA, []], threes=[["3D"], ["3H"], [], []], packets=[[], [foot], [], []])
    _go_out(state)
    sides = state.score().sides
    assert sides[0].red_threes == -500  # laid out by the side that went out: against it all the same
    assert sides[1].red_threes == -500 - 500
    assert BASE.threes.sign is canasta.ThreeSign.ALWAYS_POSITIVE


# --- upcard-stays ---------------------------------------------------------------------------------


def test_upcard_stays_keeps_a_wild_or_red_three_upcard() -> None:
    rules = _rules("upcard-stays")
    kinds = canasta.Deck(rules.deck).kinds
    stayed = 0
    for seed in range(200):
        state = HandState.deal(rules, dealer=3, scores=[0, 0], seed=seed)
        base = HandState.deal(BASE, dealer=3, scores=[0, 0], seed=seed)
        assert len(state.pile) == 1
        if kinds[state.pile[0]] <= Kind.RED_THREE:
            stayed += 1
            assert base.pile != state.pile  # the base game buries it
        check_conservation(state)
    assert stayed > 5


def test_a_red_three_upcard_blocks_the_pile_until_covered_and_is_laid_out_when_taken() -> None:
    rules = _rules("upcard-stays")
    hands = [["9C", "9D", "4C", "4D"], ["QC"], ["JC"], ["QH"]]
    blocked = _position(rules, phase="draw", pile=["3H"], hands=hands)
    assert not [a for a in blocked.legal_actions() if isinstance(a, TakePile)]
    covered = _position(rules, phase="draw", pile=["3H", "9S"], hands=hands)
    covered.apply(TakePile(2, 0, 0))
    assert [covered.deck.cards[c].code for c in covered.threes[0]] == ["3H"]  # laid out, no replacement
    wild = _position(rules, phase="draw", pile=["*"], hands=[["*", "*", "4C", "4D"], ["QC"], ["JC"], ["QH"]])
    assert TakePile(0, 0, 2) in wild.legal_actions()


# --- red-threes-dead ------------------------------------------------------------------------------

DEAD = _rules("red-threes-dead")


def test_red_threes_dead_deals_red_threes_into_the_hands_and_lays_none_out() -> None:
    held = 0
    for seed in range(20):
        state = HandState.deal(DEAD, dealer=3, scores=[0, 0], seed=seed)
        assert not any(state.threes)  # never laid out, never replaced
        held += sum(state.counts[seat][Kind.RED_THREE] for seat in range(4))
        # 270 - 104 dealt - 1 upcard: no replacement comes off the stock.
        assert len(state.stock) == 165
        check_conservation(state)
    assert held > 20  # 10 red threes among 270 cards, 52 a hand each deal: about 2 a deal


def _red_threes_on_top(state: HandState) -> HandState:
    """Move two red threes of the stock to its top (the engine draws from the end)."""
    reds = [c for c in state.stock if state.kinds[c] == Kind.RED_THREE][:2]
    state.stock = [c for c in state.stock if c not in reds] + reds
    return state


def test_red_threes_dead_keeps_a_drawn_red_three_in_the_hand_and_it_may_be_discarded() -> None:
    hands = [["9C", "4C", "4D"], ["QC"], ["JC"], ["QH"]]
    state = _red_threes_on_top(_position(DEAD, phase="draw", pile=["5S"], hands=hands))
    stock = len(state.stock)
    state.apply(canasta.DrawStock())
    assert state.counts[0][Kind.RED_THREE] == 2 and not state.threes[0]
    assert len(state.stock) == stock - 2  # no replacement
    legal = state.legal_actions()
    assert Discard(Kind.RED_THREE) in legal
    assert not [a for a in legal if isinstance(a, Meld) and a.rank == Kind.RED_THREE]
    with pytest.raises(IllegalActionError):
        state.apply(Meld(Kind.RED_THREE, 2, 0, 0))
    state.apply(Discard(Kind.RED_THREE))
    assert state.kinds[state.pile[-1]] == Kind.RED_THREE
    base = _red_threes_on_top(_position(phase="draw", pile=["5S"], hands=hands))
    base.apply(canasta.DrawStock())
    assert len(base.threes[0]) >= 2 and base.counts[0][Kind.RED_THREE] == 0  # the base lays them out


def test_red_threes_dead_a_red_three_on_top_blocks_the_pile_until_covered_then_joins_the_hand() -> None:
    hands = [["9C", "9D", "4C", "4D"], ["QC"], ["JC"], ["QH"]]
    blocked = _position(DEAD, phase="draw", pile=["9S", "3H"], hands=hands)
    assert not [a for a in blocked.legal_actions() if isinstance(a, TakePile)]
    with pytest.raises(IllegalActionError):
        blocked.apply(TakePile(2, 0, 0))
    covered = _position(DEAD, phase="draw", pile=["3H", "9S"], hands=hands)
    covered.apply(TakePile(2, 0, 0))
    assert covered.counts[0][Kind.RED_THREE] == 1 and not covered.threes[0]  # taken into the hand
    check_conservation(covered)


def test_red_threes_dead_a_red_three_in_a_foot_picked_up_stays_in_the_hand() -> None:
    foot = ["3H", *FOOT[1:]]
    hands = [["7C", "7D", "7H"], ["QC"], ["JC"], ["QH"]]
    state = _position(DEAD, hands=hands, packets=[[foot], [], [], []])
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))  # the last hand card melded: the foot at once (§8.7)
    assert state.counts[0][Kind.RED_THREE] == 1 and not state.threes[0]
    assert sum(state.counts[0]) == 13


def test_red_threes_dead_goes_out_with_a_red_three_as_the_final_discard_never_with_two() -> None:
    one = _position(DEAD, melds=[QUOTA, []], hands=[["7C", "7D", "7H", "3H"], ["QC"], ["JC"], ["QH"]])
    assert AskGoOut() in one.legal_actions()
    one.apply(AskGoOut())
    one.apply(AnswerGoOut(True))
    assert Discard(Kind.RED_THREE) not in one.legal_actions()  # bound: keep going out possible
    one.apply(Meld(Kind.SEVEN, 3, 0, 0))
    one.apply(Discard(Kind.RED_THREE))
    assert one.is_over and one.went_out == 0
    two = _position(DEAD, melds=[QUOTA, []], hands=[["7C", "7D", "7H", "3H", "3D"], ["QC"], ["JC"], ["QH"]])
    two.apply(AskGoOut())
    two.apply(AnswerGoOut(True))
    assert not two.bound  # a red three never melds, so two cannot both leave: the "yes" does not bind
    assert Discard(Kind.SEVEN) in two.legal_actions()
    hand = [0] * 15
    hand[Kind.RED_THREE] = 1
    discardable = [True] * 15
    assert can_meld_out(DEAD, hand, {}, discardable, need=0, books=(2, 2, 1, 0))  # the red three is the discard
    assert not can_meld_out(DEAD, hand, {}, [k != Kind.RED_THREE for k in range(15)], need=0, books=(2, 2, 1, 0))
    hand[Kind.RED_THREE] = 2
    assert not can_meld_out(DEAD, hand, {}, discardable, need=0, books=(2, 2, 1, 0))
    hand[Kind.RED_THREE], hand[Kind.SEVEN] = 1, 3
    assert can_meld_out(DEAD, hand, {}, discardable, need=0, books=(2, 2, 1, 0))
    classic_dead = attrs.evolve(canasta.load_rules("classic"), threes=DEAD.threes)  # the search without books
    assert can_meld_out(classic_dead, hand, {}, discardable, need=0)
    assert not can_meld_out(classic_dead, hand, {}, discardable, need=1)


def test_red_threes_dead_score_minus_500_each_in_a_hand_or_a_foot_down_in_the_red_three_row() -> None:
    foot = ["3H", "3D", *FOOT[2:]]
    hands = [["7C", "7D", "7H"], ["QC", "3H"], ["JC"], ["QH"]]
    state = _position(DEAD, melds=[QUOTA, []], hands=hands, packets=[[], [], [], [foot]])
    _go_out(state)
    sides = state.score().sides
    assert sides[0].red_threes == 0
    assert sides[1].red_threes == -500 * 3  # one held by seat 1, two in seat 3's foot
    assert sides[1].cards_in_hand == -(10 + 10 + 90)  # Q, Q and the foot's 11 others: the red threes count nothing
    base = _position(melds=[QUOTA, []], hands=[hands[0], ["QC"], ["JC"], ["QH"]], packets=[[], [], [], [foot]])
    _go_out(base)
    assert base.score().sides[1].red_threes == -200  # the base: -100 each in a foot down


def test_red_threes_dead_and_red_threes_always_minus_500_are_refused_together() -> None:
    dead, minus = "red-threes-dead", "red-threes-always-minus-500"
    for stack in ([dead, minus], [minus, dead]):
        with pytest.raises(canasta.PluginError, match="red-threes"):
            _rules(*stack)


class _BadThrees:
    def __init__(self, threes: canasta.ThreeRules) -> None:
        self.threes = threes

    @canasta.hookimpl(wrapper=True)
    def canasta_threes(self) -> Generator[None, canasta.ThreeRules, canasta.ThreeRules]:
        yield
        return self.threes


@pytest.mark.parametrize(
    ("threes", "message"),
    [
        (canasta.ThreeRules(red_held=-500), "red_held"),
        (canasta.ThreeRules(red_threes_are_bonus=False, keep_one=True), "keep_one"),
    ],
)
def test_red_threes_held_as_ordinary_cards_are_checked_when_compiled(threes: canasta.ThreeRules, message: str) -> None:
    registry = canasta.Registry(autoload="builtin")
    registry.add_variant(
        canasta.Variant(name="bad-threes", description="a test", plugins=(_BadThrees(threes),), base="hand-and-foot")
    )
    with pytest.raises(canasta.RulesError, match=message):
        canasta.load_rules("bad-threes", registry=registry)


# --- add-to-books ---------------------------------------------------------------------------------

BOOKS = _rules("add-to-books")
WILD_BOOK = ["2H", "2S", "2H", "2S", "*", "*", "*"]


def _book(state: HandState, rank: Kind) -> canasta.MeldState:
    return next(b for b in state.books[0] if b.rank == rank)


def test_add_to_books_adds_naturals_to_a_clean_or_dirty_book_keeping_its_kind_and_bonus() -> None:
    hands = [["KC", "KS", "JC", "JD", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    state = _position(BOOKS, hands=hands, melds=[[CLEAN_K, DIRTY_J, ["AC", "AD", "AH"]], []])
    legal = state.legal_actions()
    assert Meld(Kind.KING, 2, book=True) in legal and Meld(Kind.JACK, 2, book=True) in legal
    assert Meld(Kind.NINE, 1, book=True) not in legal  # no book of nines
    base = _position(hands=hands, melds=[[CLEAN_K, DIRTY_J, ["AC", "AD", "AH"]], []])
    assert not [a for a in base.legal_actions() if isinstance(a, Meld) and a.book]
    with pytest.raises(IllegalActionError, match="closed"):
        base.apply(Meld(Kind.KING, 1, book=True))
    bonuses = state.copy()
    state.apply(Meld(Kind.KING, 2, book=True))
    state.apply(Meld(Kind.JACK, 1, book=True))
    king, jack = _book(state, Kind.KING), _book(state, Kind.JACK)
    assert (king.naturals, king.twos, king.jokers) == (9, 0, 0) and (jack.naturals, jack.twos) == (6, 2)
    assert state.book_counts(0) == bonuses.book_counts(0) == (1, 1, 0, 0, 0)  # no book made, kinds kept
    assert state.canastas_by_class(0) == bonuses.canastas_by_class(0)
    assert _book(bonuses, Kind.KING).naturals == 7  # (the copy's book is its own)
    check_conservation(state)


def test_add_to_books_never_adds_a_wild_card_nor_to_a_wild_book() -> None:
    hands = [["KC", "2S", "*", "JC", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    state = _position(BOOKS, hands=hands, melds=[[CLEAN_K, WILD_BOOK, ["AC", "AD", "AH"]], []])
    books = [a for a in state.legal_actions() if isinstance(a, Meld) and a.book]
    assert books == [Meld(Kind.KING, 1, book=True)]
    for action, message in (
        (Meld(Kind.KING, 1, 1, 0, book=True), "never a wild card"),
        (Meld(Kind.JOKER, 0, 1, 0, book=True), "never a wild card"),
        (Meld(Kind.JACK, 1, book=True), "no clean or dirty book of jacks"),
    ):
        with pytest.raises(IllegalActionError, match=message):
            state.apply(action)


def test_add_to_books_takes_the_pile_onto_a_book_or_onto_the_incomplete_meld_by_choice() -> None:
    hands = [["TC", "TD", "4C", "4D", "9C"], ["QC"], ["JC"], ["QH"]]
    ten_book = ["TC", "TD", "TH", "TS", "TC", "TD", "TH"]
    pile = ["5S", "TS"]
    both = _position(BOOKS, phase="draw", pile=pile, hands=hands, melds=[[ten_book, ["TH", "TS", "TC"]], []])
    takes = [a for a in both.legal_actions() if isinstance(a, TakePile)]
    assert takes == [TakePile(2, 0, 0), TakePile(2, 0, 0, book=True)]
    onto = both.copy()
    onto.apply(TakePile(2, 0, 0, book=True))
    assert onto.books[0][0].naturals == 10 and onto.melds[0][Kind.TEN].naturals == 3
    assert onto.counts[0][Kind.FIVE] == 1  # the rest of the pile joined the hand
    both.apply(TakePile(2, 0, 0))
    assert both.books[0][0].naturals == 7 and both.melds[0][Kind.TEN].naturals == 6
    # An incomplete meld of 5 cannot take three more (§8.5, H6): onto the book is then the only way.
    tens = [ten_book, ["TH", "TS", "TC", "TD", "TC"]]
    five = _position(BOOKS, phase="draw", pile=pile, hands=hands, melds=[tens, []])
    assert [a for a in five.legal_actions() if isinstance(a, TakePile)] == [TakePile(2, 0, 0, book=True)]
    base = _position(phase="draw", pile=pile, hands=hands, melds=[tens, []])
    assert not [a for a in base.legal_actions() if isinstance(a, TakePile)]
    alone = _position(BOOKS, phase="draw", pile=pile, hands=hands, melds=[[ten_book], []])
    assert [a for a in alone.legal_actions() if isinstance(a, TakePile)] == [takes[0], takes[1]]
    check_exact_legality(five)
    check_exact_legality(alone)


def test_add_to_books_goes_out_by_adding_to_a_book_and_never_counts_toward_the_quota() -> None:
    out = _position(BOOKS, melds=[QUOTA, []], hands=[["KC", "KD"], ["QC"], ["JC"], ["QH"]])
    out.apply(AskGoOut())
    out.apply(AnswerGoOut(True))
    assert out.bound and Meld(Kind.KING, 2, book=True) in out.legal_actions()
    out.apply(Meld(Kind.KING, 2, book=True))
    assert out.is_over and out.went_out == 0
    sides = out.score().sides
    assert sides[0].canasta_bonuses == 2 * 500 + 2 * 300 + 1500  # the grown book keeps its bonus
    assert sides[0].melded_cards == 90 + 70 + 90 + 110 + 230  # K×9 (the 2 added count), Q×7, J×5+2+2, T×6+*, wild
    # Without the quota (one clean book short) two kings onto the book do not go out; in the foot
    # the player must keep two cards: neither addition is legal.
    kings = [["KC", "KD"], ["QC"], ["JC"], ["QH"]]
    short = _position(BOOKS, melds=[[CLEAN_K, DIRTY_J, DIRTY_T, WILD_BOOK], []], hands=kings)
    legal = short.legal_actions()
    assert Meld(Kind.KING, 1, book=True) not in legal and Meld(Kind.KING, 2, book=True) not in legal
    with pytest.raises(IllegalActionError):
        short.apply(Meld(Kind.KING, 2, book=True))
    check_exact_legality(short)


def test_add_to_books_records_and_commands_name_the_book() -> None:
    from canasta.commands import notation, parse_command
    from canasta.records import action_from_json, action_to_json

    for action in (Meld(Kind.KING, 2, book=True), TakePile(2, 0, 0, book=True)):
        data = action_to_json(action)
        assert data["book"] is True and action_from_json(data) == action
        assert "book=True" in repr(action) and "a book" in str(action)
    assert "book" not in action_to_json(Meld(Kind.KING, 2))
    hands = [["KC", "KS", "JC", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    state = _position(BOOKS, hands=hands, melds=[[CLEAN_K, ["AC", "AD", "AH"]], []])
    assert notation(Meld(Kind.KING, 2, book=True)) == "m kk]"
    assert parse_command("m kk]", state) == parse_command("m kk book", state) == Meld(Kind.KING, 2, book=True)


def test_add_to_books_goes_out_onto_a_book_made_in_the_same_turn() -> None:
    # One clean book short; an incomplete meld of five kings, and K K K 9 in hand: two kings complete the
    # book, the third goes onto it, the 9 is the final discard (the going-out search counts a book its own
    # line makes).
    melds = [[CLEAN_Q, DIRTY_J, DIRTY_T, WILD_BOOK, ["KC", "KD", "KH", "KS", "KC"]], []]
    hands = [["KC", "KD", "KH", "9C"], ["QC"], ["JC"], ["QH"]]
    state = _position(BOOKS, melds=melds, hands=hands)
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    assert state.bound  # going out is possible, so the "yes" binds
    assert state.legal_actions() == (Meld(Kind.KING, 1, 0, 0), Meld(Kind.KING, 2, 0, 0))
    check_exact_legality(state)
    state.apply(Meld(Kind.KING, 2, 0, 0))
    assert state.legal_actions() == (Meld(Kind.KING, 1, book=True),)
    state.apply(Meld(Kind.KING, 1, book=True))
    state.apply(Discard(Kind.NINE))
    assert state.is_over and state.went_out == 0
    base = _position(melds=melds, hands=hands)
    base.apply(AskGoOut())
    base.apply(AnswerGoOut(True))
    assert not base.bound  # the base game: the third king has nowhere to go
