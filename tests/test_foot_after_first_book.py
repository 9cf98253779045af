"""Hand and Foot's option ``foot-after-first-book`` (§8.13 and its decided point): the foot earned by a book.

The concept is `canasta.PacketRules.after_first_canasta`; the action `canasta.PickUpPacket`; the state
`HandState.first_canasta`. Positions are built with `test_hand_and_foot._position` (seats 0 and 2
against 1 and 3).
"""

from __future__ import annotations

import random
import types
from collections.abc import Generator

import attrs
import pytest
from helpers import check_conservation, play_random_hand, reference_positions
from test_hand_and_foot import FOOT, _position

import canasta
from canasta import (
    Discard,
    DrawStock,
    GreedyBot,
    HandState,
    IllegalActionError,
    InvalidPositionError,
    Kind,
    Meld,
    PickUpPacket,
    RuleCode,
    TakePile,
)
from canasta.records import action_from_json, action_to_json, observation_to_json
from canasta.testing.reference import ReferenceBudgetExceeded, check_exact_legality

RULES = canasta.load_rules("hand-and-foot", ["foot-after-first-book"])
SEVENS_6 = ["7C", "7D", "7H", "7S", "7C", "7D"]
NINES_4 = ["9C", "9D", "9H", "9S"]
CLEAN_K = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]
HANDS = [["7H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]]


def _unearned(**kwargs: object) -> HandState:
    """Seat 0 with its foot down and no book of its own, its side opened; the others in their feet."""
    kwargs.setdefault("hands", HANDS)
    kwargs.setdefault("melds", [[["AC", "AD", "AH"], SEVENS_6], [["5H", "5S", "5H"]]])
    kwargs.setdefault("packets", [[FOOT], [], [], []])
    return _position(RULES, **kwargs)


def _refused(state: HandState, action: object) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    return caught.value


def test_the_option_sets_the_concept_and_the_base_game_does_not() -> None:
    assert RULES.packets.after_first_canasta
    assert not canasta.load_rules("hand-and-foot").packets.after_first_canasta


# --- before the first book --------------------------------------------------------------------------


def test_before_the_first_book_the_last_card_is_not_discarded() -> None:
    # One card left, which completes the side's sevens: melding it is legal, discarding it is not.
    state = _unearned()
    assert state.first_canasta == [-1, -1, -1, -1]
    assert state.legal_actions() == (Meld(Kind.SEVEN, 1),)
    error = _refused(state, Discard(Kind.SEVEN))
    assert error.code is RuleCode.PACKET_NOT_EARNED and "canasta of your own" in str(error)
    assert error.section is not None and error.section.page == "rules/house-rules/foot-after-first-book.md"
    # The base game: the last card of the hand is discarded, the foot comes next turn.
    base = _position(hands=HANDS, melds=[[["AC", "AD", "AH"], SEVENS_6], []], packets=[[FOOT], [], [], []])
    assert Discard(Kind.SEVEN) in base.legal_actions()
    # A single card that makes no book: a dead end play never reaches (no position).
    with pytest.raises(InvalidPositionError, match="no legal action"):
        _unearned(melds=[[["AC", "AD", "AH"]], []])


def test_before_the_first_book_a_meld_may_not_empty_the_hand_unless_it_makes_the_book() -> None:
    state = _unearned(hands=[["7H", "8C", "8D", "8H"], *HANDS[1:]], melds=[[["AC", "AD", "AH"]], []])
    # 8 8 8 leaves the 7: it cannot be discarded (no book yet), nor melded into one: refused (§0).
    assert Meld(Kind.EIGHT, 3) not in state.legal_actions()
    assert _refused(state, Meld(Kind.EIGHT, 3)).code is RuleCode.PACKET_NOT_EARNED
    assert Meld(Kind.EIGHT, 2) not in state.legal_actions()  # (no meld of two)
    # With six sevens on the side's table, the 7 completes a book: 8 8 8 leaves it, and it empties the hand.
    state = _unearned(hands=[["7H", "8C", "8D", "8H"], *HANDS[1:]])
    assert Meld(Kind.EIGHT, 3) in state.legal_actions()
    state.apply(Meld(Kind.EIGHT, 3))
    assert Meld(Kind.SEVEN, 1) in state.legal_actions() and Discard(Kind.SEVEN) not in state.legal_actions()
    state.apply(Meld(Kind.SEVEN, 1))
    # The book is the player's first: §8.7 applies as written, the foot is picked up at once.
    assert state.first_canasta[0] == state.turn and not state.packets[0] and state.sizes[0] == len(FOOT)
    check_conservation(state)


def test_a_pile_take_that_empties_the_hand_needs_the_book_its_pickup_meld_makes() -> None:
    hands = [["9C", "9D"], *HANDS[1:]]
    state = _unearned(hands=hands, melds=[[["AC", "AD", "AH"]], []], pile=["9H"], phase="draw")
    assert TakePile(2, 0, 0) not in state.legal_actions()  # (§8.10 E1 would pick the foot up: not yet earned)
    assert _refused(state, TakePile(2, 0, 0)).code is RuleCode.PACKET_NOT_EARNED
    state = _unearned(hands=hands, melds=[[["AC", "AD", "AH"], NINES_4], []], pile=["9H"], phase="draw")
    assert TakePile(2, 0, 0) in state.legal_actions()
    state.apply(TakePile(2, 0, 0))  # the pickup meld makes the book: it counts (a pickup meld included)
    assert state.first_canasta[0] == state.turn and not state.packets[0] and state.sizes[0] == len(FOOT)


def test_a_partners_book_does_not_earn_the_foot() -> None:
    # The side has a book its partner (seat 2) made at turn 2; seat 0 has none of its own.
    state = _unearned(melds=[[["AC", "AD", "AH"], CLEAN_K], []], first_canasta=[-1, -1, 2, -1], phase="draw")
    assert PickUpPacket() not in state.legal_actions()
    error = _refused(state, PickUpPacket())
    assert error.code is RuleCode.PACKET_NOT_EARNED and "partner" in str(error)
    state.apply(DrawStock())
    assert Discard(Kind.SEVEN) in state.legal_actions()  # (two cards now: one discarded, one kept)


# --- the turn of the first book, and later turns ----------------------------------------------------


def _pass_round(state: HandState) -> None:
    """Seats 1 to 3 draw and discard, so that seat 0 begins its next turn."""
    for _ in range(3):
        state.apply(DrawStock())
        seat = state.seat
        kind = next(k for k in range(15) if state.counts[seat][k])
        state.apply(Discard(Kind(kind)))
    assert state.seat == 0 and state.phase is canasta.Phase.DRAW


def test_in_the_turn_of_the_first_book_the_foot_is_not_picked_up_at_will_but_at_the_next_turn_it_is() -> None:
    state = _unearned(hands=[["7H", "9C", "9D"], *HANDS[1:]])
    state.apply(Meld(Kind.SEVEN, 1))  # the first book, leaving 9 9
    assert state.first_canasta[0] == state.turn and state.packets[0]
    assert PickUpPacket() not in state.legal_actions()
    error = _refused(state, PickUpPacket())
    assert error.code is RuleCode.PACKET_NOT_EARNED and "this turn" in str(error)
    state.apply(Discard(Kind.NINE))
    _pass_round(state)
    assert state.sizes[0] == 1 and PickUpPacket() in state.legal_actions()  # before the draw, at will
    observed = state.observation(1)
    assert observed.first_canasta[0] == state.turn - 4 and observed.first_canasta[1:] == (-1, -1, -1)
    assert observation_to_json(observed)["first_canasta"][0] == state.turn - 4
    state.apply(PickUpPacket())
    # Both packets held as one; the draw follows.
    assert not state.packets[0] and state.sizes[0] == 1 + len(FOOT) and state.phase is canasta.Phase.DRAW
    assert PickUpPacket() not in state.legal_actions() and DrawStock() in state.legal_actions()
    check_conservation(state)


def test_the_player_may_keep_the_foot_down_and_not_after_the_draw() -> None:
    state = _unearned(melds=[[["AC", "AD", "AH"], CLEAN_K], []], first_canasta=[1, -1, -1, -1], phase="draw")
    assert PickUpPacket() in state.legal_actions() and DrawStock() in state.legal_actions()
    state.apply(DrawStock())  # the player's choice: the foot stays down
    assert state.packets[0] and PickUpPacket() not in state.legal_actions()
    error = _refused(state, PickUpPacket())
    assert error.code is RuleCode.PACKET_NOT_EARNED and "before the draw" in str(error)
    # Earned, the last card may be discarded (the foot then comes at the start of the next turn, §8.7).
    state.apply(Meld(Kind.SEVEN, 1)) if Meld(Kind.SEVEN, 1) in state.legal_actions() else None
    assert any(isinstance(a, Discard) for a in state.legal_actions())


def test_the_base_game_has_no_pick_up_at_will() -> None:
    state = _position(hands=HANDS, melds=[[["AC", "AD", "AH"]], []], packets=[[FOOT], [], [], []], phase="draw")
    assert PickUpPacket() not in state.legal_actions()
    error = _refused(state, PickUpPacket())
    assert error.code is RuleCode.PACKET_NOT_EARNED and "never picked up at will" in str(error)


def test_going_out_still_needs_the_foot() -> None:
    state = _unearned(melds=[[["AC", "AD", "AH"], CLEAN_K], []], first_canasta=[1, -1, -1, -1], phase="draw")
    assert canasta.AskGoOut() not in state.legal_actions()  # (asking needs the last packet)


# --- positions -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "message"),
    [
        ([0, 0, 0], "first_canasta: 3 given for 4 seats"),
        ([True, -1, -1, -1], r"first_canasta\[0\]: expected an integer"),
        ([-2, -1, -1, -1], r"first_canasta\[0\]: -2 is out of range"),
        ([99, -1, -1, -1], "has not played turn 99"),
        ([-1, 4, -1, -1], "has not played turn 4"),
        ([-1, 1, -1, -1], "its side has none on the table"),
    ],
)
def test_build_position_refuses_bad_first_canasta_values(first: list[object], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        _unearned(first_canasta=first, turn=4)


def test_build_position_keeps_first_canasta_and_refuses_it_without_the_rule() -> None:
    state = _unearned(melds=[[CLEAN_K], []], first_canasta=[4, -1, -1, -1], turn=4)
    assert state.first_canasta == [4, -1, -1, -1]
    with pytest.raises(InvalidPositionError, match="earn no packet"):
        _position(hands=HANDS, melds=[[CLEAN_K], []], packets=[[FOOT], [], [], []], first_canasta=[1, -1, -1, -1])
    with pytest.raises(InvalidPositionError, match="needs a canasta of its own"):
        _unearned(hands=[[], *HANDS[1:]], phase="draw", seat=1)


def test_from_hand_plays_on_from_a_built_position() -> None:
    state = _unearned(melds=[[["AC", "AD", "AH"], CLEAN_K], []], first_canasta=[1, -1, -1, -1], phase="draw")
    game = canasta.Game.from_hand(state)
    assert PickUpPacket() in game.legal_actions()
    game.apply(PickUpPacket())
    assert not game.hand.packets[0]


# --- the concept, records, interfaces --------------------------------------------------------------


def _variant_with(base: str, value: object) -> canasta.Registry:
    """A registry with the variant ``earned-test``: ``base`` whose packets' ``after_first_canasta`` is ``value``."""
    plugin = types.ModuleType("earned_test")

    @canasta.hookimpl(wrapper=True)
    def canasta_packets(players: int) -> Generator[None, canasta.PacketRules, canasta.PacketRules]:
        packets: canasta.PacketRules = yield
        return attrs.evolve(packets, after_first_canasta=value)

    plugin.canasta_packets = canasta_packets  # type: ignore[attr-defined]
    registry = canasta.Registry(autoload="builtin")
    registry.add_variant(canasta.Variant(name="earned-test", description="a test", plugins=(plugin,), base=base))
    return registry


def test_malformed_answers_are_rules_errors() -> None:
    with pytest.raises(canasta.RulesError, match="after_first_canasta"):
        canasta.load_rules("earned-test", registry=_variant_with("hand-and-foot", "yes"))
    with pytest.raises(canasta.RulesError, match="no packet is dealt"):
        canasta.load_rules("earned-test", registry=_variant_with("classic", True))
    assert canasta.load_rules("earned-test", registry=_variant_with("hand-and-foot", True)).packets.after_first_canasta


def test_the_action_in_records_text_and_the_terminal_grammar() -> None:
    assert action_to_json(PickUpPacket()) == {"type": "pick_up"}
    assert action_from_json({"type": "pick_up"}) == PickUpPacket()
    assert repr(PickUpPacket()) == "PickUpPacket()" and str(PickUpPacket()) == "pick up the next packet"
    from canasta.commands import notation, parse_command

    state = _unearned(melds=[[["AC", "AD", "AH"], CLEAN_K], []], first_canasta=[1, -1, -1, -1], phase="draw")
    assert notation(PickUpPacket()) == "pu" and parse_command("pu", state) == PickUpPacket()


def test_a_game_with_pick_ups_is_recorded_and_replays() -> None:
    from canasta.records import GameRecorder, loads_record, verify_record

    game = canasta.Game("hand-and-foot", house_rules=["foot-after-first-book"], seed=3)
    recorder = GameRecorder(game)
    bot = GreedyBot()
    picked = 0
    while not game.is_over and picked < 1 and game.hand.turn < 400:
        action = bot.choose(game.hand, game.seat)
        picked += isinstance(action, PickUpPacket)
        recorder.apply(action)
    assert picked == 1
    text = recorder.record().dumps()
    assert '{"type": "pick_up"}' in text
    replayed = verify_record(loads_record(text))  # replays: the first books follow from the actions
    assert replayed.hand.first_canasta == game.hand.first_canasta and max(game.hand.first_canasta) >= 0
    assert replayed.hand.packets == game.hand.packets


def test_rl_action_space_version_7_only_where_the_option_is() -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    import canasta.rl as rl

    space = rl.ActionSpace(RULES)
    base = rl.ActionSpace(canasta.load_rules("hand-and-foot"))
    assert space.version == rl.PICK_UP_ACTION_SPACE_VERSION == 7 and base.version == rl.WILD_PAIR_ACTION_SPACE_VERSION
    assert space.actions[:-1] == base.actions and space.to_action(space.size - 1) == PickUpPacket()
    state = _unearned(melds=[[["AC", "AD", "AH"], CLEAN_K], []], first_canasta=[1, -1, -1, -1], phase="draw")
    mask = space.legal_mask(state)
    assert mask[space.size - 1] and mask.sum() == len(state.legal_actions())


def test_greedy_bot_picks_up_the_foot_as_soon_as_it_may() -> None:
    state = _unearned(melds=[[["AC", "AD", "AH"], CLEAN_K], []], first_canasta=[1, -1, -1, -1], phase="draw")
    assert GreedyBot().choose(state, 0) == PickUpPacket()


# --- random play and the reference -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_play_keeps_every_invariant(players: int) -> None:
    rules = canasta.load_rules("hand-and-foot", ["foot-after-first-book"], players=players)
    picked = 0
    for seed in range(2):
        state, _ = play_random_hand(random.Random(seed), seed=seed, rules=rules, legal_sample=2, illegal_sample=2)
        picked += sum(isinstance(a, PickUpPacket) for _, a in state.log)
        for seat in range(players):
            # Nobody held an empty hand with an unearned foot: the foot is down, or a book came first.
            assert state.packets[seat] or state.first_canasta[seat] >= 0 or state.sizes[seat]
    assert picked


def test_the_reference_agrees_on_positions_of_random_play() -> None:
    checked = reference_positions(RULES, range(3), max_nodes=20_000)
    assert len(checked) >= 4


_SMALL_KINDS = ["7", "8", "9", "K", "2", "*"]


def _random_small_position(rng: random.Random) -> HandState | None:
    """Seat 0 with 1 to 4 cards, its foot down and no book yet, the side's melds near a book."""
    suits = "CDHS"
    hand = [rng.choice(_SMALL_KINDS) for _ in range(rng.randint(1, 4))]
    cards = [k if k == "*" else k + rng.choice(suits) for k in hand]
    sevens = rng.randint(3, 6)
    melds = [[["7C", "7D", "7H", "7S", "7C", "7D"][:sevens]]]
    if rng.random() < 0.5:
        melds[0].append(["8C", "8D", "8H", "8S", "2C"][: rng.randint(3, 5)])
    if rng.random() < 0.5:
        melds[0].append(["2D", "2H", "*", "2S", "*", "*"][: rng.randint(3, 6)])
    phase = rng.choice(["meld", "meld", "draw"])
    pile = [rng.choice(["9S", "KS", "7S", "8S", "2S", "4S"]) for _ in range(rng.randint(0, 2))]
    try:
        return _unearned(hands=[cards, *HANDS[1:]], melds=[*melds, []], phase=phase, pile=pile)
    except InvalidPositionError:
        return None


def test_the_reference_agrees_on_small_positions_near_the_first_book() -> None:
    rng = random.Random(7)
    checked = refused = 0
    for _ in range(120):
        state = _random_small_position(rng)
        if state is None:
            continue
        try:
            check_exact_legality(state, max_nodes=20_000)
        except ReferenceBudgetExceeded:
            continue
        checked += 1
        refused += len(state.allowed_actions()) - len(state.legal_actions())
    assert checked >= 60 and refused


def test_sample_state_keeps_the_first_books_and_ismcts_plays_the_option() -> None:
    state = _unearned(melds=[[["AC", "AD", "AH"], CLEAN_K], []], first_canasta=[1, -1, -1, -1], phase="draw")
    sample = canasta.sample_state(state.observation(1), random.Random(0))
    assert sample.first_canasta == state.first_canasta and PickUpPacket() in sample.legal_actions()
    own = canasta.sample_state(state.observation(0), random.Random(1))  # (the foot unknown to its owner too)
    assert own.first_canasta == state.first_canasta and own.legal_actions() == state.legal_actions()
    action = canasta.ISMCTSBot(0, iterations=30).choose(state, 0)
    assert action in state.legal_actions()


def _last_stock_card_a_red_three(state: HandState) -> None:
    """Leave one red three in the stock: every other stock card goes under the pile (conservation kept)."""
    three = next(c for c in state.stock if state.kinds[c] == Kind.RED_THREE)
    rest = [c for c in state.stock if c != three]
    state.pile[:0] = rest
    state.stock = [three]
    state._legal = None


def test_a_last_card_red_three_strands_a_player_whose_foot_is_not_earned() -> None:
    # §8.9's exception: one card left, which may not be discarded (no book yet) nor make a book: the turn ends.
    state = _unearned(hands=[["9C"], *HANDS[1:]], melds=[[["AC", "AD", "AH"]], []], phase="draw", pile=["4S"])
    _last_stock_card_a_red_three(state)
    state.apply(DrawStock())
    assert not state.stock and state.sizes[0] == 1 and state.legal_actions() == (canasta.EndHand(),)
    check_exact_legality(state)
    state.apply(canasta.EndHand())
    assert state.end is canasta.HandEnd.STOCK_EXHAUSTED
    check_conservation(state)


def test_a_stranded_player_may_still_make_its_first_book_and_play_on_from_the_foot() -> None:
    state = _unearned(hands=[["7H"], *HANDS[1:]], phase="draw", pile=["4S"])
    _last_stock_card_a_red_three(state)
    state.apply(DrawStock())
    assert set(state.legal_actions()) == {canasta.EndHand(), Meld(Kind.SEVEN, 1)}
    check_exact_legality(state)
    state.apply(Meld(Kind.SEVEN, 1))  # the first book, with the last card: the foot comes at once
    assert not state.packets[0] and state.sizes[0] == len(FOOT) and not state.final_meld_only
    assert any(isinstance(a, Discard) for a in state.legal_actions())
    check_conservation(state)


def test_a_version_5_record_with_a_pick_up_is_refused() -> None:
    from canasta.records import RecordError, _record_action

    assert _record_action({"type": "pick_up"}, 0, 6) == PickUpPacket()
    with pytest.raises(RecordError, match="record format version 6"):
        _record_action({"type": "pick_up"}, 3, 5)
