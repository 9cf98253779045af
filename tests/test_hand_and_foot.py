"""Hand and Foot (`hand-and-foot`): the rule book's §8, rule by rule, with the accepted and the refused case.

Positions are built with `canasta.build_position` (five packs: every card code has
five copies). The edges of §8.10 are named E1 to E12 where they are tested.
"""

from __future__ import annotations

import random
from collections.abc import Generator

import attrs
import pytest
from helpers import check_conservation, placed, play_random_hand, reference_positions, unplaced

import canasta
from canasta import (
    AnswerGoOut,
    AskGoOut,
    CanastaClass,
    Discard,
    DrawStock,
    EndHand,
    HandState,
    IllegalActionError,
    Kind,
    Meld,
    RuleCode,
    TakePile,
)

RULES = canasta.load_rules("hand-and-foot")

#: Books for a side that may go out (2 clean, 2 dirty, 1 wild: §8.8).
CLEAN_K = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]
CLEAN_Q = ["QC", "QD", "QH", "QS", "QC", "QD", "QH"]
DIRTY_J = ["JC", "JD", "JH", "JS", "JC", "2C", "2D"]
DIRTY_T = ["TC", "TD", "TH", "TS", "TC", "TD", "*"]
WILD = ["2H", "2S", "2H", "2S", "*", "*", "*"]
QUOTA = [CLEAN_K, CLEAN_Q, DIRTY_J, DIRTY_T, WILD]
FOOT = ["4C", "4D", "5C", "5D", "6C", "6D", "8C", "8D", "9C", "9D", "TC", "JC", "QC"]


def _position(rules: canasta.Rules = RULES, **kwargs: object) -> HandState:
    """Seats 0 and 2 against 1 and 3; small hands; everyone in the foot unless ``packets`` says otherwise.

    (`test_hand_and_foot_options.py` builds its positions with this too, under its options' rules.)
    """
    kwargs.setdefault("hands", [["7C", "7D", "7H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]])
    kwargs.setdefault("melds", [[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]])
    kwargs.setdefault("phase", "meld")
    return canasta.build_position(rules, **kwargs)  # type: ignore[arg-type]


# --- §8.1 table and deal ------------------------------------------------------------------------


def test_the_table_of_four() -> None:
    assert RULES.players == 4 and RULES.sides == (0, 1, 0, 1)
    assert (RULES.deck.packs, RULES.deck.jokers, RULES.deck.size) == (5, 10, 270)
    assert RULES.hand_size == 13 and RULES.packets.sizes == (13,)
    state = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=1)
    assert all(len(p[0]) == 13 for p in state.packets)
    # 270 - 104 dealt - 1 upcard = 165 before the hands' red threes are replaced.
    replaced = sum(len(t) for t in state.threes)
    assert len(state.stock) == 165 - replaced
    assert len(state.pile) == 1 and state.kinds[state.pile[0]] >= Kind.BLACK_THREE  # §8.1: never a wild upcard
    check_conservation(state)


def test_card_values() -> None:
    values = RULES.card_values
    assert (values[Kind.JOKER], values[Kind.TWO], values[Kind.ACE]) == (50, 20, 20)
    assert {values[k] for k in (Kind.KING, Kind.QUEEN, Kind.JACK, Kind.TEN, Kind.NINE, Kind.EIGHT)} == {10}
    assert {values[k] for k in (Kind.SEVEN, Kind.SIX, Kind.FIVE, Kind.FOUR, Kind.BLACK_THREE)} == {5}


# --- §8.3, §8.4 melds and books ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "most_wilds"),
    [(3, 1), (4, 1), (5, 1), (6, 2), (7, 2)],
)
def test_a_rank_meld_holds_at_least_twice_as_many_naturals_as_wild_cards(size: int, most_wilds: int) -> None:
    valid = RULES.melds.is_valid
    assert valid(int(Kind.NINE), size - most_wilds, most_wilds, 0)
    assert not valid(int(Kind.NINE), size - most_wilds - 1, most_wilds + 1, 0)


def test_a_wild_meld_is_three_to_seven_wild_cards_and_threes_never_meld() -> None:
    valid = RULES.melds.is_valid
    assert all(valid(int(Kind.JOKER), 0, twos, size - twos) for size in range(3, 8) for twos in range(size + 1))
    assert not valid(int(Kind.JOKER), 0, 1, 1) and not valid(int(Kind.JOKER), 0, 4, 4)
    assert not valid(int(Kind.BLACK_THREE), 3, 0, 0) and not valid(int(Kind.RED_THREE), 3, 0, 0)


def test_a_meld_closes_as_a_book_at_seven_and_a_new_meld_of_its_rank_may_start() -> None:
    state = _position(
        hands=[["9C", "9D", "9H", "9S", "9C", "9D", "4C", "4D"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        melds=[[["9H", "9S", "9C", "9D"], ["AC", "AD", "AH"]], []],
    )
    assert Meld(Kind.NINE, 4, 0, 0) not in state.legal_actions()  # past 7 cards: refused
    with pytest.raises(IllegalActionError):
        state.apply(Meld(Kind.NINE, 4, 0, 0))
    state.apply(Meld(Kind.NINE, 3, 0, 0))  # the book of seven
    assert Kind.NINE not in state.melds[0] and len(state.books[0]) == 1
    assert Meld(Kind.NINE, 3, 0, 0) in state.legal_actions()  # E6: a new meld of nines beside their book


# --- §8.5 initial meld by deal, and the pile ------------------------------------------------------


def test_the_minimum_follows_the_deal() -> None:
    assert [RULES.minimums.minimum_for(0, deal) for deal in (1, 2, 3, 4)] == [50, 90, 120, 150]
    hand = [["AC", "AD", "AH", "KC", "KD", "KH", "5C", "6C"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    unopened = {"melds": [[], []], "hands": hand}
    first = _position(deal_number=1, **unopened)
    assert Meld(Kind.ACE, 3, 0, 0) in first.legal_actions()  # 60 >= 50
    first.apply(Meld(Kind.ACE, 3, 0, 0))
    assert first.opened[0]
    second = _position(deal_number=2, **unopened)
    second.apply(Meld(Kind.ACE, 3, 0, 0))  # 60 of 90: provisional, and no discard yet
    assert not second.opened[0] and not [a for a in second.legal_actions() if isinstance(a, Discard)]
    with pytest.raises(IllegalActionError) as refused:
        second.apply(Discard(Kind.FIVE))
    assert "90" in str(refused.value)
    second.apply(Meld(Kind.KING, 3, 0, 0))  # 60 + 30 = 90: opened
    assert second.opened[0]


def test_the_pile_is_taken_by_a_pair_for_its_top_seven_cards() -> None:
    pile = ["4C", "4D", "4H", "5C", "5D", "6C", "6D", "8C", "8D", "KS"]
    state = _position(phase="draw", pile=pile, hands=[["KC", "KD", "9C"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]])
    takes = [a for a in state.legal_actions() if isinstance(a, TakePile)]
    assert takes == [TakePile(2, 0, 0)]  # a natural pair only; no layoff, no natural and wild
    state.apply(TakePile(2, 0, 0))
    assert [state.deck.cards[c].code for c in state.pile] == ["4C", "4D", "4H"]  # the rest stays, in order


def test_a_black_three_on_top_blocks_the_pile_and_nothing_freezes_it() -> None:
    state = _position(phase="draw", pile=["2C", "9S", "3C"], hands=[["9C", "9D", "4C"], ["QC"], ["JC"], ["QH"]])
    assert not [a for a in state.legal_actions() if isinstance(a, TakePile)]
    state = _position(phase="draw", pile=["3C", "2C", "9S"], hands=[["9C", "9D", "4C"], ["QC"], ["JC"], ["QH"]])
    assert TakePile(2, 0, 0) in state.legal_actions()  # a wild card inside: no freezing


def test_e5_a_wild_top_card_needs_two_of_its_kind_and_room_in_the_wild_meld() -> None:
    hands = [["*", "*", "4C", "4D"], ["QC"], ["JC"], ["QH"]]
    state = _position(phase="draw", pile=["9S", "*"], hands=hands)
    assert TakePile(0, 0, 2) in state.legal_actions()
    full = [["AC", "AD", "AH"], ["2C", "2D", "2H", "2S", "*"]]  # an incomplete wild meld of 5
    state = _position(phase="draw", pile=["9S", "*"], hands=hands, melds=[full, []])
    assert TakePile(0, 0, 2) not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(TakePile(0, 0, 2))


def test_h6_the_pile_cannot_be_taken_onto_an_incomplete_meld_of_five_or_six() -> None:
    melds = [[["9C", "9D", "9H", "9S", "9C"]], []]
    state = _position(phase="draw", pile=["4S", "9S"], hands=[["9C", "9D", "4C"], ["QC"], ["JC"], ["QH"]], melds=melds)
    assert TakePile(2, 0, 0) not in state.legal_actions()  # 5 + 3 > 7


def test_an_unopened_side_takes_the_pile_only_if_the_minimum_can_be_reached() -> None:
    unopened = {"melds": [[], []], "phase": "draw"}
    state = _position(pile=["4S", "9S"], hands=[["9C", "9D", "4C", "5C"], ["QC"], ["JC"], ["QH"]], **unopened)
    assert TakePile(2, 0, 0) not in state.legal_actions()  # 30 of 50
    hands = [["9C", "9D", "AC", "AD", "AH", "4C"], ["QC"], ["JC"], ["QH"]]
    state = _position(pile=["4S", "9S"], hands=hands, **unopened)
    assert TakePile(2, 0, 0) in state.legal_actions()  # 30 + 60


# --- §8.6 threes and §8.7 the foot -------------------------------------------------------------------


def test_e1_a_pickup_meld_with_the_last_two_cards_and_a_one_card_pile_picks_up_the_foot() -> None:
    hands = [["9C", "9D"], ["QC"], ["JC"], ["QH"]]
    state = _position(phase="draw", pile=["9S"], hands=hands, packets=[[FOOT], [], [], []])
    state.apply(TakePile(2, 0, 0))
    assert state.packets[0] == [] and state.sizes[0] == 13 and state.phase is canasta.Phase.MELD


def test_a_red_three_left_in_a_foot_costs_100_and_each_laid_out_scores_100() -> None:
    foot = ["3H", "3D", *FOOT[2:]]
    state = _position(
        melds=[QUOTA, [["5H", "5S", "5H"]]],
        threes=[[], ["3H"], [], []],
        packets=[[], [foot], [], []],
    )
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert state.is_over and state.went_out == 0
    them = state.score().sides[1]
    assert them.red_threes == 100 - 200  # one laid out, two in the foot still down


# --- §8.8 going out ---------------------------------------------------------------------------


def test_going_out_needs_the_quota_every_partner_in_the_foot_and_a_yes() -> None:
    ready = _position(melds=[QUOTA, []])
    assert Meld(Kind.SEVEN, 3, 0, 0) not in ready.legal_actions()  # no "yes" yet
    ready.apply(AskGoOut())
    ready.apply(AnswerGoOut(True))
    assert ready.legal_actions() == (Meld(Kind.SEVEN, 3, 0, 0),)
    short = _position(melds=[QUOTA[:4], []])  # no wild book
    short.apply(AskGoOut())
    short.apply(AnswerGoOut(True))  # a "yes" where going out is impossible binds nothing
    assert Meld(Kind.SEVEN, 3, 0, 0) not in short.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        short.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert refused.value.code is RuleCode.GOING_OUT_NOT_ALLOWED
    partner_down = _position(melds=[QUOTA, []], packets=[[], [], [FOOT], []])
    assert AskGoOut() not in partner_down.legal_actions()  # E3: the answering partner is in the foot


def test_e4_a_book_completed_by_the_final_meld_counts() -> None:
    six_tens = ["TC", "TD", "TH", "TS", "TC", "*"]
    state = _position(hands=[["TD", "7C"], ["QC"], ["JC"], ["QH"]], melds=[[*QUOTA[:3], six_tens, WILD], []])
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    state.apply(Meld(Kind.TEN, 1, 0, 0))  # the second dirty book
    state.apply(Discard(Kind.SEVEN))  # the final discard (optional, but allowed)
    assert state.is_over and state.went_out == 0


# --- §8.9 exhaustion --------------------------------------------------------------------------------


def _stock_empty(stock: tuple[str, ...] = (), **kwargs: object) -> HandState:
    """A position whose stock is ``stock`` (top first): every other card goes into the pile (red threes: seat 1's)."""
    kwargs.setdefault("melds", [[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]])
    rest = unplaced(RULES, placed(stock, kwargs))
    kwargs["pile"] = [c for c in rest if c not in ("3H", "3D")]
    kwargs["threes"] = [[], [c for c in rest if c in ("3H", "3D")], [], []]
    kwargs["stock"] = list(stock)
    return _position(**kwargs)


def test_e2_e11_a_foot_due_when_the_stock_is_empty_is_never_picked_up_and_scores_as_unopened() -> None:
    state = _stock_empty(
        hands=[[], ["QC", "QD"], ["JC", "JD"], ["QH", "QS", "4C"]], packets=[[FOOT], [], [], []], seat=3
    )
    state.apply(Discard(Kind.FOUR))  # seat 0 is due, with no stock: the deal ends first
    assert state.is_over and state.end is canasta.HandEnd.STOCK_EXHAUSTED
    assert len(state.packets[0]) == 1  # never picked up: it scores as an unopened foot (E2)
    assert state.score().sides[0].cards_in_hand == -100 - 20  # the foot (6 x 5 + 7 x 10), then seat 2's jacks


def test_a_red_three_drawn_as_the_last_card_is_laid_out_and_the_turn_goes_on() -> None:
    state = _stock_empty(
        stock=("3H",), hands=[["7C", "8C", "9C"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]], phase="draw"
    )
    state.apply(DrawStock())
    assert not state.is_over and state.phase is canasta.Phase.MELD and len(state.threes[0]) == 1
    assert Discard(Kind.SEVEN) in state.legal_actions()  # the turn is played out normally (§8.9)


def test_a_yes_the_last_card_red_three_makes_void_leaves_the_stranded_player_the_end_without_a_discard() -> None:
    # Found by the soak (add-to-books, seed 436): seat 0, in its foot with one joker and two dirty books
    # (the quota needs clean and wild books too), asks before drawing and hears "yes"; the last stock
    # card is a red three, laid out with no replacement. Going out is now impossible, so the "yes" binds
    # no more (the player plays on as after any draw), and the joker cannot be discarded or melded
    # without going out: §8.9's end without a discard must be offered (it was not: a dead end).
    dirty = [["8C", "8D", "8H", "8S", "8C", "8D", "2H"], ["9C", "9D", "9H", "9S", "9C", "9D", "2S"]]
    state = _stock_empty(
        stock=("3H",),
        hands=[["*"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        melds=[[*dirty, ["6C", "6D", "6H"]], [["5H", "5S", "5H"]]],
        phase="draw",
    )
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    state.apply(DrawStock())
    assert not state.bound and len(state.threes[0]) == 1 and state.sizes[0] == 1
    assert state.legal_actions() == (EndHand(),)
    state.apply(EndHand())
    assert state.is_over and state.end is canasta.HandEnd.STOCK_EXHAUSTED


# --- §8.11 scoring and §8.12 the game ---------------------------------------------------------------


def test_the_books_score_by_kind() -> None:
    bonuses = RULES.canasta_bonuses
    assert (bonuses.natural, bonuses.mixed, bonuses.wild) == (500, 300, 1500)
    quota = dict(RULES.going_out.canastas_by_class)
    assert quota == {CanastaClass.NATURAL: 2, CanastaClass.MIXED: 2, CanastaClass.WILD: 1}


def test_a_game_is_four_deals() -> None:
    game = canasta.Game("hand-and-foot", seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert len(game.results) == 4
    assert game.winners() == tuple(s for s, v in enumerate(game.scores) if v == max(game.scores))


# --- the whole variant --------------------------------------------------------------------------------


def test_random_deals_keep_every_invariant() -> None:
    for seed in range(4):
        state, _ = play_random_hand(random.Random(seed), seed=seed, rules=RULES, legal_sample=2)
        assert state.is_over


def test_the_reference_agrees_on_positions_of_random_play() -> None:
    assert len(reference_positions(RULES, range(4))) >= 8


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_other_tables_play(players: int) -> None:
    rules = canasta.load_rules("hand-and-foot", players=players)
    assert rules.deck.packs == players + 1
    single = players in (2, 3, 5)
    assert len(set(rules.sides)) == (players if single else 2)
    quota = dict(rules.going_out.canastas_by_class)
    assert quota[CanastaClass.NATURAL] == (1 if single else 2)
    assert (rules.going_out.permission is canasta.Permission.NONE) == single
    state, _ = play_random_hand(random.Random(players), seed=players, rules=rules, legal_sample=1, illegal_sample=2)
    assert state.is_over
    game = canasta.Game("hand-and-foot", players=players, seed=players)
    rng = random.Random(players)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert len(game.results) == 4


def test_evolving_the_variant_in_a_wrapper_works() -> None:
    class _Eleven:
        @canasta.hookimpl(wrapper=True)
        def canasta_packets(self, players: int) -> Generator[None, canasta.PacketRules, canasta.PacketRules]:
            packets: canasta.PacketRules = yield
            return attrs.evolve(packets, sizes=(11,))

        @canasta.hookimpl
        def canasta_hand_size(self, players: int) -> int:
            return 11

    registry = canasta.Registry(autoload="builtin")
    eleven = canasta.Variant(name="hf-11", description="a test", plugins=(_Eleven(),), base="hand-and-foot")
    registry.add_variant(eleven)
    rules = canasta.load_rules("hf-11", registry=registry)
    assert rules.hand_size == 11 and rules.packets.sizes == (11,) and rules.packets.names == ("foot",)


# --- the concepts some rule options need (§8.13) --------------------------------------------------


def _on_hand_and_foot(plugin: object) -> canasta.Rules:
    registry = canasta.Registry(autoload="builtin")
    registry.add_variant(canasta.Variant(name="hf-test", description="a test", plugins=(plugin,), base="hand-and-foot"))
    return canasta.load_rules("hf-test", registry=registry)


class _MoreNaturalsThanWilds:
    @canasta.hookimpl(wrapper=True)
    def canasta_meld_rules(self) -> Generator[None, canasta.MeldRules, canasta.MeldRules]:
        melds: canasta.MeldRules = yield
        return attrs.evolve(melds, naturals_per_wild=1, extra_naturals=1, max_wilds=3)


def test_extra_naturals_make_more_naturals_than_wild_cards() -> None:
    valid = _on_hand_and_foot(_MoreNaturalsThanWilds()).melds.is_valid
    nine = int(Kind.NINE)
    assert [valid(nine, size - w, w, 0) for size, w in ((3, 1), (4, 1), (5, 2), (6, 2), (7, 3))] == [True] * 5
    assert [valid(nine, size - w, w, 0) for size, w in ((4, 2), (6, 3), (7, 4))] == [False] * 3
    assert valid(nine, 7, 0, 0)  # (no wild card: no margin)


class _AskAnyTime:
    @canasta.hookimpl(wrapper=True)
    def canasta_going_out(self) -> Generator[None, canasta.GoingOutRules, canasta.GoingOutRules]:
        going_out: canasta.GoingOutRules = yield
        return attrs.evolve(going_out, permission=canasta.Permission.ANY_TIME)


def test_permission_asked_any_time_is_not_needed_to_go_out() -> None:
    rules = _on_hand_and_foot(_AskAnyTime())
    hands = [["7C", "7D", "7H", "8C", "8D", "8H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]
    state = canasta.build_position(rules, hands=hands, melds=[QUOTA, []], phase="meld")
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert AskGoOut() in state.legal_actions()  # after melding, still
    assert Meld(Kind.EIGHT, 3, 0, 0) in state.legal_actions()  # and no "yes" is needed
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(False))
    assert Meld(Kind.EIGHT, 3, 0, 0) not in state.legal_actions()  # "no" binds


class _FootEndsTurn:
    @canasta.hookimpl(wrapper=True)
    def canasta_packets(self, players: int) -> Generator[None, canasta.PacketRules, canasta.PacketRules]:
        packets: canasta.PacketRules = yield
        return attrs.evolve(packets, meld_picks_up=False)


def test_a_foot_that_ends_the_turn_is_picked_up_at_the_next() -> None:
    rules = _on_hand_and_foot(_FootEndsTurn())
    hands = [["7C", "7D", "7H"], ["QC", "QD", "4S"], ["JC", "JD"], ["QH", "QS"]]
    opened = [[["AC", "AD", "AH"]], []]
    state = canasta.build_position(rules, hands=hands, melds=opened, packets=[[FOOT], [], [], []], phase="meld")
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))  # the hand's last cards: the turn ends, no discard
    assert state.seat == 1 and state.sizes[0] == 0 and len(state.packets[0]) == 1
    for _ in range(3):
        state.apply(DrawStock())
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)))
    assert state.seat == 0 and state.packets[0] == [] and state.sizes[0] == 13


def test_the_greedy_bot_asks_once_a_yes_would_let_it_go_out() -> None:
    from canasta.bots import GreedyBot

    bot = GreedyBot(0)
    state = _position(melds=[QUOTA, []])
    assert bot.choose(state, 0) == AskGoOut()
    state.apply(AskGoOut())
    state.apply(bot.choose(state, 2))  # the partner, with two jacks, says yes
    state.apply(bot.choose(state, 0))
    assert state.is_over and state.went_out == 0
    short = _position(melds=[QUOTA[:4], []])  # no wild book: asking would not help
    assert bot.choose(short, 0) != AskGoOut()


# --- the remaining edges of §8.10 -----------------------------------------------------------------


def test_e7_a_discard_never_needs_to_be_safe() -> None:
    state = _position(hands=[["5C", "9C", "9D"], ["QC"], ["JC"], ["QH"]])  # side 1 melds fives
    assert Discard(Kind.FIVE) in state.legal_actions()


def test_e8_no_legality_depends_on_the_cards_of_a_foot() -> None:
    rng = random.Random(8)
    state = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=8)
    compared = 0
    while not state.is_over and compared < 120:
        seat = state.seat
        if state.packets[seat]:
            other = state.copy()
            mine, theirs = other.packets[seat][0], other.packets[(seat + 1) % 4]
            if theirs:
                mine[0], theirs[0][0] = theirs[0][0], mine[0]  # a foot's card swapped with another foot's
            assert other.legal_actions() == state.legal_actions()
            compared += 1
        state.apply(rng.choice(state.legal_actions()))
    assert compared >= 60


def test_e9_a_player_with_no_cards_waits_and_the_partners_may_not_ask() -> None:
    state = _position(
        hands=[[], ["QC", "QD"], ["7C", "7D", "7H"], ["QH", "QS"]],
        melds=[QUOTA, []],
        packets=[[FOOT], [], [], []],
        seat=2,
    )
    assert AskGoOut() not in state.legal_actions()  # seat 0's foot is still down (condition 3)
    assert Meld(Kind.SEVEN, 3, 0, 0) not in state.legal_actions()


def test_e10_red_threes_count_for_a_side_that_never_opened() -> None:
    state = _position(melds=[QUOTA, []], threes=[[], ["3H", "3D"], [], []])
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert not state.opened[1] and state.score().sides[1].red_threes == 200


def test_e12_every_held_card_may_end_the_turn() -> None:
    rng = random.Random(12)
    checked = 0
    for seed in range(3):
        state = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=seed)
        while not state.is_over:
            seat = state.seat
            plain = state.phase is canasta.Phase.MELD and state.opened[state.seating[seat]] and not state.bound
            if plain and state.sizes[seat] >= 2:
                held = {Kind(k) for k, n in enumerate(state.counts[seat]) if n}
                assert {a.kind for a in state.legal_actions() if isinstance(a, Discard)} == held
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 50
