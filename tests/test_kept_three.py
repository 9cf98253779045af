"""Keeping a three for the Straight (house rule american-special-hands, "Keeping a three").

While a side has not melded each player keeps one three in hand; it is laid
out (and replaced) when the side opens, or by the player's choice at the start
of a turn; with no stock card left it stays, and counts 5 against.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence

import pytest

import canasta
from canasta import (
    DeclareSpecialHand,
    Discard,
    DrawStock,
    HandState,
    IllegalActionError,
    Kind,
    LayOutThree,
    Meld,
    RuleCode,
)
from canasta.records import GameRecorder, action_from_json, action_to_json, loads_record, replay
from canasta.testing.invariants import check_all, check_score
from canasta.testing.reference import check_exact_legality

CLUB = ["american-special-hands"]
CLUB_DRAW_ONE = ["american-special-hands", "american-talon"]
PAGAT = ["american-special-hands-pagat"]
THREES = (Kind.RED_THREE, Kind.BLACK_THREE)

STRAIGHT = ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3H", "2C"]  # the joker missing
OTHERS = [["4D", "5D", "6D"], ["4H", "5H", "6H"], ["4S", "5S", "6S"]]


def full_stock(rules: canasta.Rules, placed: Sequence[str], top: Sequence[str]) -> list[str]:
    """The stock, ``top`` first, then every card of the deck not placed (in deck order)."""
    left = Counter(str(card) for card in canasta.Deck(rules.deck).cards)
    left.subtract([*placed, *top])
    assert min(left.values()) >= 0
    return [*top, *sorted(left.elements())]


def position(
    hand: Sequence[str],
    house_rules: Sequence[str] = CLUB,
    *,
    top: Sequence[str] = (),
    others: Sequence[Sequence[str]] = OTHERS,
    phase: str = "draw",
    seat: int = 0,
    opened: Sequence[bool] = (False, False),
    melds: Sequence[Sequence[Sequence[str]]] | None = None,
    stock: Sequence[str] | None = None,
    pile: Sequence[str] = ("9H",),
) -> HandState:
    rules = canasta.load_rules("modern-american", list(house_rules))
    hands = [list(hand), *(list(o) for o in others)]
    on_table = [card for side in melds or () for meld in side for card in meld]
    placed = [card for h in hands for card in h] + list(pile) + on_table
    return canasta.build_position(
        rules,
        hands=hands,
        pile=list(pile),
        melds=[list(map(list, side)) for side in melds] if melds is not None else None,
        stock=list(stock) if stock is not None else full_stock(rules, placed, top),
        phase=phase,
        seat=seat,
        opened=list(opened),
    )


def refused(state: HandState, action: object) -> IllegalActionError:
    before = ([c[:] for c in state.counts], [t[:] for t in state.threes], state.stock[:], state.phase)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    assert ([c[:] for c in state.counts], [t[:] for t in state.threes], state.stock[:], state.phase) == before
    return caught.value


def threes_in_hand(state: HandState, seat: int) -> int:
    return sum(state.counts[seat][k] for k in THREES)


# --- the rule data ----------------------------------------------------------------------


@pytest.mark.parametrize("house_rules", [CLUB, PAGAT])
def test_both_forms_keep_a_three_and_count_it_5_in_hand(house_rules: list[str]) -> None:
    rules = canasta.load_rules("modern-american", house_rules)
    assert rules.threes.keep_one
    assert rules.card_values[Kind.RED_THREE] == 5 and rules.black_threes.in_hand_penalty == 5
    plain = canasta.load_rules("modern-american")
    assert not plain.threes.keep_one and plain.card_values[Kind.RED_THREE] == 0


def test_the_deal_keeps_one_three_per_player_and_no_more() -> None:
    rules = canasta.load_rules("modern-american", CLUB)
    kept = 0
    for seed in range(40):
        state = HandState.deal(rules, dealer=0, scores=[0, 0], seed=seed)
        for seat in range(4):
            assert threes_in_hand(state, seat) <= 1
            assert state.sizes[seat] == 13  # a kept three is one of the 13 cards: nothing replaces it
            kept += threes_in_hand(state, seat)
    assert kept > 20  # about half the players are dealt a three
    plain = canasta.load_rules("modern-american")
    assert all(
        threes_in_hand(HandState.deal(plain, dealer=0, scores=[0, 0], seed=seed), s) == 0
        for seed in range(10)
        for s in range(4)
    )


# --- the Straight -----------------------------------------------------------------------


def test_the_straight_is_declared_after_a_one_card_draw() -> None:
    state = position(STRAIGHT, CLUB_DRAW_ONE, top=["*"])
    state.apply(DrawStock())
    assert state.legal_actions().count(DeclareSpecialHand("straight")) == 1
    check_exact_legality(state)
    state.apply(DeclareSpecialHand("straight"))
    score = check_score(state)
    assert score is not None and score.special_hand == "straight" and score.sides[0].total == 3000


def test_a_near_miss_straight_is_refused_after_a_one_card_draw() -> None:
    state = position(STRAIGHT, CLUB_DRAW_ONE, top=["9D"])  # a second nine instead of the joker
    state.apply(DrawStock())
    assert not [a for a in state.legal_actions() if isinstance(a, DeclareSpecialHand)]
    error = refused(state, DeclareSpecialHand("straight"))
    assert error.code is RuleCode.SPECIAL_HAND and "form no special hand" in str(error)


def test_the_straight_is_declared_after_a_two_card_draw_discarding_the_15th() -> None:
    state = position(STRAIGHT, CLUB, top=["*", "9D"])
    state.apply(DrawStock())
    declarations = [a for a in state.legal_actions() if isinstance(a, DeclareSpecialHand)]
    assert declarations == [DeclareSpecialHand("straight", Kind.NINE)]
    check_exact_legality(state)
    # The kept three is part of the Straight: it is never the discard.
    assert refused(state, DeclareSpecialHand("straight", Kind.RED_THREE)).code is RuleCode.SPECIAL_HAND
    state.apply(DeclareSpecialHand("straight", Kind.NINE))
    assert state.is_over and state.declared == (0, "straight") and state.sizes[0] == 14


def test_a_near_miss_straight_is_refused_after_a_two_card_draw() -> None:
    state = position(STRAIGHT, CLUB, top=["9D", "8D"])
    state.apply(DrawStock())
    assert not [a for a in state.legal_actions() if isinstance(a, DeclareSpecialHand)]
    assert refused(state, DeclareSpecialHand("straight", Kind.NINE)).code is RuleCode.SPECIAL_HAND


def test_pagats_straight_is_declared_too() -> None:
    state = position(STRAIGHT, PAGAT, top=["*", "9D"])
    state.apply(DrawStock())
    assert DeclareSpecialHand("straight", Kind.NINE) in state.legal_actions()


# --- while kept -------------------------------------------------------------------------


def test_a_kept_three_is_never_discarded_nor_melded() -> None:
    state = position(["3H", "KC", "KD", "KH", "8C"], top=["QC", "QD"], phase="meld")
    legal = state.legal_actions()
    assert Discard(Kind.RED_THREE) not in legal and all(not (isinstance(a, Meld) and a.rank in THREES) for a in legal)
    error = refused(state, Discard(Kind.RED_THREE))
    assert error.code is RuleCode.CANNOT_DISCARD and "kept three" in str(error)
    black = position(["3S", "KC", "KD", "KH", "8C"], top=["QC", "QD"], phase="meld")
    assert Discard(Kind.BLACK_THREE) not in black.legal_actions()
    assert refused(black, Discard(Kind.BLACK_THREE)).code is RuleCode.CANNOT_DISCARD
    check_exact_legality(state)
    check_exact_legality(black)


def test_a_replacement_three_is_kept_after_a_voluntary_lay_out() -> None:
    state = position(["3H", "KC", "KD", "8C"], top=["3S", "9D", "9S"])
    state.apply(LayOutThree())
    # The replacement is a three and the side has not melded: it is kept in turn (nothing replaces it).
    assert state.counts[0][Kind.BLACK_THREE] == 1 and len(state.threes[0]) == 1 and state.sizes[0] == 4
    assert LayOutThree() in state.legal_actions()


def test_laying_out_the_last_stock_card_ends_the_hand() -> None:
    rules = canasta.load_rules("modern-american", CLUB)
    hands = [["3H", "KC", "KD", "8C"], *OTHERS]
    placed = [card for h in hands for card in h] + ["9H", "9D"]
    rest = full_stock(rules, placed, [])
    state = canasta.build_position(rules, hands=hands, pile=["9H", *rest], stock=["9D"], opened=[False, False])
    state.apply(LayOutThree())
    # The player is due to draw from an empty stock: modern American's hand ends.
    assert state.is_over and state.end is canasta.HandEnd.STOCK_EXHAUSTED and state.counts[0][Kind.NINE] == 1


def test_a_drawn_three_is_kept_by_a_player_who_holds_none() -> None:
    state = position(["KC", "KD", "8C"], top=["3H", "3D", "9C"])
    state.apply(DrawStock())
    # The first three is kept (one of the two cards drawn), the second laid out and replaced.
    assert state.counts[0][Kind.RED_THREE] == 1 and len(state.threes[0]) == 1 and state.sizes[0] == 5
    assert state.counts[0][Kind.NINE] == 1


def test_a_player_whose_side_has_melded_keeps_no_three() -> None:
    melds = [[["AC", "AD", "AH"], ["KS", "KD", "KH"], ["QS", "QD", "QH"]], []]
    state = position(["8C", "8D", "9C"], top=["3H", "9D"], opened=(True, False), melds=melds)
    state.apply(DrawStock())
    assert threes_in_hand(state, 0) == 0 and len(state.threes[0]) == 1 and state.sizes[0] == 5


# --- laying it out ----------------------------------------------------------------------


def test_the_holder_may_lay_it_out_at_the_start_of_his_turn() -> None:
    state = position(["3H", "KC", "KD", "8C"], top=["9D", "9S"])
    assert LayOutThree() in state.legal_actions()
    check_exact_legality(state)  # like a stock draw, laying out always leaves the turn completable
    state.apply(LayOutThree())
    assert threes_in_hand(state, 0) == 0 and [str(state.deck.cards[c]) for c in state.threes[0]] == ["3H"]
    assert state.sizes[0] == 4 and state.counts[0][Kind.NINE] == 1  # replaced from the stock
    assert state.phase is canasta.Phase.DRAW and LayOutThree() not in state.legal_actions()
    state.apply(DrawStock())
    assert state.sizes[0] == 6


def test_a_three_drawn_may_be_laid_out_at_once_after_the_draw() -> None:
    state = position(["KC", "KD", "8C"], top=["3H", "9D", "9S"])
    state.apply(DrawStock())  # 3H kept, 9D drawn
    assert state.phase is canasta.Phase.MELD and LayOutThree() in state.legal_actions()
    check_exact_legality(state)
    state.apply(LayOutThree())
    assert threes_in_hand(state, 0) == 0 and state.counts[0][Kind.NINE] == 2 and state.sizes[0] == 5
    assert state.phase is canasta.Phase.MELD and Discard(Kind.NINE) in state.legal_actions()


def test_laying_out_is_refused_naming_the_rule() -> None:
    none = position(["KC", "KD", "8C"])
    error = refused(none, LayOutThree())
    assert error.code is RuleCode.KEPT_THREE and "no kept three" in str(error)
    assert error.section is not None and error.section.id == "keeping-a-three"
    plain = canasta.build_position(
        canasta.load_rules("modern-american"), hands=[["KC", "KD", "8C"], *OTHERS], pile=["9H"], opened=[False, False]
    )
    assert "keep no three" in str(refused(plain, LayOutThree()))
    # The partner answering "may I go out?" is not in his own turn.
    others = [["4H", "5H", "6H"], ["3H", "4S", "5S"], ["4D", "5D", "6D"]]
    asking = position(["KC", "KD", "8C"], others=others)
    asking.apply(canasta.AskGoOut())
    assert asking.seat == 2 and asking.phase is canasta.Phase.ANSWER
    assert "own turn" in str(refused(asking, LayOutThree()))
    # No stock card left to replace it: it stays in the hand.
    rules = canasta.load_rules("modern-american", CLUB)
    hands = [["3H", "KC", "KD", "8C"], *OTHERS]
    placed = [card for h in hands for card in h] + ["9H"]
    empty = canasta.build_position(
        rules, hands=hands, pile=["9H", *full_stock(rules, placed, [])], stock=[], phase="meld", opened=[False, False]
    )
    assert "no stock card" in str(refused(empty, LayOutThree()))


def test_the_opening_lays_the_kept_three_out_and_replaces_it() -> None:
    hand = ["3H", "AC", "AD", "AH", "AS", "KC", "KD", "KH", "QC", "QD", "QH", "8C", "9C"]
    state = position(hand, top=["JD", "JS", "6C"], phase="meld")
    state.apply(Meld(Kind.ACE, 4))  # 80
    state.apply(Meld(Kind.KING, 3))  # 110
    assert threes_in_hand(state, 0) == 1
    check_exact_legality(state)
    stock = len(state.stock)
    state.apply(Meld(Kind.QUEEN, 3))  # 140: the opening is complete
    assert state.opened[0] and state.phase is canasta.Phase.MELD
    assert threes_in_hand(state, 0) == 0 and [str(state.deck.cards[c]) for c in state.threes[0]] == ["3H"]
    assert len(state.stock) == stock - 1 and state.counts[0][Kind.JACK] == 1  # replaced, before the discard
    assert Discard(Kind.JACK) in state.legal_actions()


def test_the_partners_opening_lays_it_out_at_the_start_of_the_holders_next_turn() -> None:
    opener = ["AC", "AD", "AH", "AS", "KC", "KD", "KH", "QC", "QD", "QH", "8C", "9C"]
    others = [["4H", "5H", "6H"], ["3H", "4S", "5S"], ["4D", "5D", "6D"]]  # seat 2, the partner, keeps a three
    state = position(opener, top=["JD", "6C", "7C", "TD", "TS"], others=others, phase="meld")
    for meld in (Meld(Kind.ACE, 4), Meld(Kind.KING, 3), Meld(Kind.QUEEN, 3)):
        state.apply(meld)
    assert state.opened[0]
    state.apply(Discard(Kind.NINE))
    assert threes_in_hand(state, 2) == 1  # still held during the opponent's turn
    state.apply(DrawStock())
    state.apply(Discard(state_kind(state, 1)))
    # Seat 2's turn begins: the three is laid out and replaced before the draw.
    assert state.seat == 2 and state.phase is canasta.Phase.DRAW
    assert threes_in_hand(state, 2) == 0 and len(state.threes[2]) == 1 and state.sizes[2] == 3
    assert LayOutThree() not in state.legal_actions()


def state_kind(state: HandState, seat: int) -> Kind:
    """A kind the seat may discard now."""
    return next(a.kind for a in state.legal_actions() if isinstance(a, Discard))


def test_with_no_stock_card_left_the_three_stays_in_hand_and_counts_5_against() -> None:
    hand = ["3H", "AC", "AD", "AH", "AS", "KC", "KD", "KH", "QC", "QD", "QH", "8C", "9C"]
    rules = canasta.load_rules("modern-american", CLUB)
    hands = [hand, *OTHERS]
    placed = [card for h in hands for card in h] + ["9H"]
    rest = full_stock(rules, placed, [])
    # Every card the stock would hold is in the pile instead: the stock is empty.
    state = canasta.build_position(
        rules, hands=hands, pile=["9H", *rest], stock=[], phase="meld", opened=[False, False]
    )
    for meld in (Meld(Kind.ACE, 4), Meld(Kind.KING, 3), Meld(Kind.QUEEN, 3)):
        state.apply(meld)
    assert state.opened[0] and threes_in_hand(state, 0) == 1 and not state.threes[0]
    check_exact_legality(state)
    assert Discard(Kind.RED_THREE) not in state.legal_actions()
    state.apply(Discard(Kind.NINE))
    assert state.is_over and state.end is canasta.HandEnd.STOCK_EXHAUSTED
    score = check_score(state)
    assert score is not None
    # Seat 0 keeps 3H and 8C (5 + 10), its partner 4S 5S 6S (15).
    assert score.sides[0].cards_in_hand == -(5 + 10 + 15)


def test_a_kept_black_three_counts_5_against_at_the_end() -> None:
    rules = canasta.load_rules("modern-american", CLUB)
    hands = [["3S", "KC", "KD", "8C"], *OTHERS]
    placed = [card for h in hands for card in h] + ["9H", "9D"]
    rest = full_stock(rules, placed, [])
    state = canasta.build_position(rules, hands=hands, pile=["9H", *rest], stock=["9D"], opened=[False, False])
    state.apply(DrawStock())  # the last stock card
    state.apply(Discard(Kind.EIGHT))
    assert state.is_over and state.end is canasta.HandEnd.STOCK_EXHAUSTED
    score = check_score(state)
    assert score is not None
    # Seat 0 keeps 3S K K 9 (5 + 10 + 10 + 10), its partner 4S 5S 6S (15).
    assert score.sides[0].cards_in_hand == -(5 + 30 + 15)


# --- records, the RL space, the bot, the determinizer -------------------------------------


def _game_with_a_lay_out() -> tuple[canasta.Game, GameRecorder]:
    for seed in range(200):
        game = canasta.Game("modern-american", CLUB, seed=seed)
        if LayOutThree() in game.legal_actions():
            return game, GameRecorder(game)
    raise AssertionError("no deal with a kept three for the first player")


def test_a_lay_out_is_recorded_and_replayed() -> None:
    game, recorder = _game_with_a_lay_out()
    recorder.apply(LayOutThree())
    rng = random.Random(1)
    for _ in range(60):
        recorder.apply(rng.choice(game.legal_actions()))
    record = recorder.record()
    text = record.dumps()
    assert '{"type": "lay_out"}' in text and '"format_version": 6' in text
    again = loads_record(text)
    assert again == record
    assert len(list(replay(again))) == len(record.actions)
    assert action_from_json(action_to_json(LayOutThree())) == LayOutThree()
    older = text.replace('"format_version": 6', '"format_version": 3')
    older = re.sub(r'"first_dealer": \d+, ', "", older)  # version 5 added the first dealer
    with pytest.raises(canasta.RecordError) as caught:
        loads_record(older)
    assert "lay_out" in str(caught.value) and "version 4" in str(caught.value)


def test_the_action_space_has_a_new_version_with_lay_out_last() -> None:
    rl = pytest.importorskip("canasta.rl")
    rules = canasta.load_rules("modern-american", CLUB)
    space = rl.ActionSpace(rules)
    assert space.version == rl.KEPT_THREE_ACTION_SPACE_VERSION == 4
    assert space.to_action(space.size - 1) == LayOutThree()
    older = rl.ActionSpace(canasta.load_rules("modern-american"))
    assert older.version == rl.ACTION_SPACE_VERSION and LayOutThree() not in older.actions


def test_the_greedy_bot_keeps_a_three_only_near_a_straight() -> None:
    bot = canasta.make_bot("greedy", 0)
    far = position(["3H", "KC", "KD", "8C"], top=["9D", "9S"])
    assert bot.choose(far, 0) == LayOutThree()
    near = position(["3H", "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "2C"], top=["9D", "9S"])
    assert bot.choose(near, 0) == DrawStock()


def test_sampled_states_keep_at_most_one_three_per_hand_and_only_where_one_may_be_kept() -> None:
    rules = canasta.load_rules("modern-american", CLUB)
    rng = random.Random(5)
    seen_three = False
    for seed in range(6):
        state = HandState.deal(rules, dealer=0, scores=[0, 0], seed=seed)
        play = random.Random(seed)
        for _ in range(play.randrange(0, 40)):
            if state.is_over:
                break
            state.apply(play.choice(state.legal_actions()))
        if state.is_over:
            continue
        holders = canasta.determinize.kept_three_holders(state, len(state.stock))
        for seat in range(4):
            observation = state.observation(seat)
            sample = canasta.sample_state(observation, rng)
            assert sample.observation(seat) == observation
            for other in range(4):
                held = threes_in_hand(sample, other)
                assert held <= 1 and (held == 0 or other == seat or other in holders)
                seen_three = seen_three or (other != seat and held == 1)
            check_all(sample)
    assert seen_three


def test_command_l3_lays_out_the_kept_three() -> None:
    from canasta.commands import notation, parse_command

    state = position(["3H", "KC", "KD", "8C"], top=["9D", "9S"])
    assert parse_command("l3", state) == LayOutThree() and notation(LayOutThree()) == "l3"


def test_an_opening_that_would_leave_only_the_kept_three_is_refused() -> None:
    # After the opening the three is replaced by an unknown card: the turn must be completable without it.
    hand = ["3H", "AC", "AD", "AH", "AS", "KC", "KD", "KH", "QC", "QD", "QH", "QS"]
    state = position(hand, top=["JD", "JS", "6C"], phase="meld")
    state.apply(Meld(Kind.ACE, 4))
    state.apply(Meld(Kind.KING, 3))
    legal = state.legal_actions()
    assert Meld(Kind.QUEEN, 3) in legal  # keeps a queen to discard
    assert Meld(Kind.QUEEN, 4) not in legal  # would leave only the three
    error = refused(state, Meld(Kind.QUEEN, 4))
    assert error.code is RuleCode.TURN_CANNOT_COMPLETE and "only your kept three" in str(error)
    check_exact_legality(state)


def test_only_the_holder_sees_his_kept_three() -> None:
    from canasta.records import observation_to_json

    state = position(["3H", "KC", "KD", "8C"], top=["9D", "9S"])
    own = state.observation(0)
    assert "3H" in [str(card) for card in own.hand]
    assert "3H" in str(observation_to_json(own)["hand"])
    for seat in (1, 2, 3):
        seen = state.observation(seat)
        assert seen.hand_sizes[0] == 4 and not seen.known_cards[0] and not seen.threes[0]
        assert "3H" not in str(observation_to_json(seen)["hand"])
