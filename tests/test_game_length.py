"""Game length as a policy (`canasta.GameLength`) and minimums by deal number (`MeldMinimums.by_deal`).

SPEC §8.5 (Hand and Foot's minimum table: deal 1: 50, 2: 90, 3: 120, 4: 150), §8.12 (a game
of 4 deals; equal highest totals a draw between those sides) and §8.13 ``score-minimums`` (a
target or a number of deals, whichever the variant says), stated on a classic-rules test
variant: the concepts, not the variant, which comes later.
"""

from __future__ import annotations

import json
import pickle
import random
import types
from collections import Counter
from typing import Any

import attrs
import pytest
from helpers import unplaced

import canasta
from canasta import (
    Discard,
    Game,
    GameLength,
    GameRecorder,
    HandState,
    Kind,
    Meld,
    MeldMinimums,
    Registry,
    RuleCode,
    RulesError,
    Variant,
)
from canasta.records import loads_record, verify_record
from canasta.testing.invariants import check_game
from canasta.testing.reference import check_exact_legality

K, A = Kind.KING, Kind.ACE
HF_MINIMUMS = (50, 90, 120, 150)


def plugin(name: str, **hooks: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    for hook, answer in hooks.items():
        module.__dict__[hook] = canasta.hookimpl(answer)
    return module


def registry_with(*plugins: object, name: str = "deals", base: str = "classic") -> Registry:
    registry = Registry(autoload="builtin")
    registry.add_variant(Variant(name, "A test variant.", plugins=plugins, base=base, origin="a test", version="1"))
    return registry


#: Classic rules played as Hand and Foot's game: four deals, the minimum by the deal's number.
FOUR_DEALS = plugin(
    "four_deals",
    canasta_game_length=lambda: GameLength(deals=4),
    canasta_meld_minimums=lambda: MeldMinimums(by_deal=HF_MINIMUMS),
)


def four_deals() -> tuple[Registry, canasta.Rules]:
    registry = registry_with(FOUR_DEALS)
    return registry, canasta.load_rules("deals", registry=registry)


def play_out(game: Game, seed: int, *, until_hands: int | None = None) -> None:
    rng = random.Random(seed)
    while not game.is_over and (until_hands is None or len(game.results) < until_hands):
        game.apply(rng.choice(game.legal_actions()))


# --- minimums by deal number -----------------------------------------------------------------


@pytest.mark.parametrize(("deal", "minimum"), [(1, 50), (2, 90), (3, 120), (4, 150), (5, 150), (40, 150)])
def test_the_minimum_follows_the_deal_number(deal: int, minimum: int) -> None:
    table = MeldMinimums(by_deal=HF_MINIMUMS)
    assert table.minimum_for(0, deal) == minimum
    assert table.minimum_for(-900, deal) == table.minimum_for(9000, deal) == minimum  # the score is not read
    _, rules = four_deals()
    hand = HandState.deal(rules, dealer=3, scores=[9000, -900], seed=1, deal_number=deal)
    assert hand.deal_number == deal and hand.minimums == [minimum, minimum]
    seat = hand.seat
    observed = hand.observation(seat)
    assert observed.deal_number == deal and observed.minimum_needed == minimum
    assert canasta.observation_to_json(observed)["deal_number"] == deal


def test_a_score_table_ignores_the_deal_number() -> None:
    classic = canasta.load_rules("classic")
    hand = HandState.deal(classic, dealer=3, scores=[0, 3000], seed=1, deal_number=4)
    assert hand.minimums == [50, 120]
    assert classic.minimums.minimum_for(3000, 4) == classic.minimums.minimum_for(3000) == 120


def test_a_deal_number_below_one_is_refused() -> None:
    _, rules = four_deals()
    with pytest.raises(ValueError, match="starts at 1"):
        MeldMinimums(by_deal=HF_MINIMUMS).minimum_for(0, 0)
    with pytest.raises(ValueError, match="starts at 1"):
        HandState.deal(rules, dealer=0, scores=[0, 0], seed=1, deal_number=0)
    with pytest.raises(canasta.InvalidPositionError, match="deal_number"):
        canasta.build_position(rules, hands=[["4H"], ["4C"], ["4D"], ["4S"]], deal_number=0)


OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]
#: Kings 30 and aces 60: 90, deal 2's minimum exactly, short of deal 3's.
OPENING = ["KH", "KS", "KD", "AH", "AS", "AD", "5C", "6C"]


def opening(deal: int) -> HandState:
    _, rules = four_deals()
    return canasta.build_position(rules, hands=[OPENING, *OTHERS], phase="meld", deal_number=deal)


def test_an_opening_that_reaches_the_deals_minimum_is_accepted() -> None:
    state = opening(2)
    assert state.minimums == [90, 90]
    state.apply(Meld(K, 3, 0, 0))  # 30: provisional
    assert not state.opened[0]
    with pytest.raises(canasta.IllegalActionError) as refused:
        state.apply(Discard(Kind.FIVE))
    assert refused.value.code is RuleCode.MINIMUM_NOT_MET
    assert "below the minimum of 90 (deal 2)" in refused.value.message
    state.apply(Meld(A, 3, 0, 0))  # 90
    assert state.opened[0]


def test_the_same_opening_is_refused_in_a_later_deal() -> None:
    state = opening(3)
    assert state.minimums == [120, 120]
    assert not any(isinstance(a, Meld) for a in state.legal_actions())
    with pytest.raises(canasta.IllegalActionError) as refused:
        state.apply(Meld(K, 3, 0, 0))
    assert refused.value.code is RuleCode.MINIMUM_NOT_MET
    assert "initial meld of 120 (deal 3)" in refused.value.message


def test_the_deal_number_survives_copies_pickles_and_the_reference() -> None:
    state = opening(3)
    for other in (state.copy(), pickle.loads(pickle.dumps(state))):
        assert other.deal_number == 3 and other.minimums == [120, 120]
        assert other.legal_actions() == state.legal_actions()
    check_exact_legality(state)  # the brute-force reference agrees with the engine on this position


def test_each_hand_of_a_game_gets_its_deals_minimum() -> None:
    _, rules = four_deals()
    game = Game(rules=rules, seed=7)
    seen = []
    rng = random.Random(7)
    while not game.is_over:
        hand = game.hand
        if not seen or seen[-1][0] != game.deal_number:
            seen.append((game.deal_number, hand.deal_number, tuple(hand.minimums)))
        game.apply(rng.choice(game.legal_actions()))
    assert seen == [(d, d, (m, m)) for d, m in zip(range(1, 5), HF_MINIMUMS, strict=True)]


def test_undo_and_copy_keep_the_deal_number() -> None:
    _, rules = four_deals()
    game = Game(rules=rules, seed=3)
    play_out(game, 3, until_hands=1)
    assert game.deal_number == 2 and game.hand.minimums == [90, 90]
    copy = game.copy()
    assert copy.deal_number == 2 and copy.hand.deal_number == 2
    while game.hand_number == 1 and game.can_undo:
        game.undo()
    assert game.deal_number == 1 and game.hand.deal_number == 1 and game.hand.minimums == [50, 50]


# --- malformed answers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        ({"canasta_game_length": lambda: GameLength()}, "the game never ends"),
        ({"canasta_game_length": lambda: GameLength(deals=0)}, "deals must be positive, got 0"),
        ({"canasta_game_length": lambda: GameLength(deals=-4)}, "deals must be positive, got -4"),
        ({"canasta_game_length": lambda: GameLength(target_score=0)}, "target_score must be positive"),
        ({"canasta_game_length": lambda: 4}, r"canasta_game_length returned 4 \(int\), expected GameLength"),
        ({"canasta_meld_minimums": lambda: MeldMinimums(by_deal=(50, -1))}, "must not be negative"),
        (
            {"canasta_meld_minimums": lambda: MeldMinimums(steps=((0, 50),), by_deal=HF_MINIMUMS)},
            "by deal or by score, not both",
        ),
        ({"canasta_meld_minimums": lambda: MeldMinimums()}, "steps must start at 0"),
    ],
)
def test_a_malformed_answer_is_refused(hooks: dict[str, Any], message: str) -> None:
    registry = registry_with(plugin("bad", **hooks))
    with pytest.raises(RulesError, match=message) as raised:
        canasta.load_rules("deals", registry=registry)
    assert "bad" in str(raised.value)  # the plugin that answered is named


def test_a_by_deal_table_of_non_integers_is_refused() -> None:
    with pytest.raises(TypeError, match="a minimum by deal must be an integer"):
        MeldMinimums(by_deal=(50, 90.5))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a game length must be an integer"):
        GameLength(deals="4")  # type: ignore[arg-type]


def test_no_target_is_needed_with_a_number_of_deals() -> None:
    # Hooks of a variant that never answers canasta_target_score (its base does, so drop it).
    registry = Registry(autoload="builtin")
    answers = plugin(
        "standalone",
        canasta_players=lambda: 2,
        canasta_deck=lambda: canasta.DeckSpec(packs=2, jokers=4),
        canasta_hand_size=lambda: 15,
        canasta_card_values=lambda: canasta.rules.DEFAULT_CARD_VALUES,
        canasta_meld_minimums=lambda: MeldMinimums(by_deal=HF_MINIMUMS),
        canasta_game_length=lambda: GameLength(deals=2),
    )
    registry.add_variant(Variant("standalone", "x", plugins=(answers,), origin="a test"))
    rules = canasta.load_rules("standalone", registry=registry)
    assert rules.game_length == GameLength(deals=2) and rules.target_score is None
    kept = {k: v for k, v in vars(answers).items() if k.startswith("canasta_") and k != "canasta_game_length"}
    missing = types.ModuleType("neither")
    missing.__dict__.update(kept)
    registry.add_variant(Variant("neither", "x", plugins=(missing,), origin="a test"))
    with pytest.raises(RulesError, match=r"never ends.*no plugin answers canasta_target_score"):
        canasta.load_rules("neither", registry=registry)


def test_todays_variants_keep_their_target() -> None:
    todays = ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american", "modern-american-club")
    for name in todays:
        rules = canasta.load_rules(name)
        assert rules.game_length.deals is None
        assert rules.game_length.target_score == rules.target_score and rules.target_score in (5000, 7500, 8500, 10000)
        assert not rules.minimums.by_deal


# --- the end of the game -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_of_four_deals_ends_after_the_fourth(seed: int) -> None:
    _, rules = four_deals()
    game = Game(rules=rules, seed=seed)
    play_out(game, seed, until_hands=3)
    assert not game.is_over and game.winners() == () and game.winner() is None
    assert game.deal_number == 4
    play_out(game, seed)
    assert game.is_over and len(game.results) == 4 and game.deal_number == 4
    assert game.legal_actions() == ()
    best = max(game.scores)
    leaders = tuple(s for s, v in enumerate(game.scores) if v == best)
    assert game.winners() == leaders
    assert game.winner() == (leaders[0] if len(leaders) == 1 else None)
    check_game(game)


def test_the_target_alone_does_not_end_a_game_of_deals() -> None:
    _, rules = four_deals()
    game = Game(rules=rules, seed=5)
    play_out(game, 5, until_hands=1)
    assert not game.is_over  # whatever the totals: no target
    assert rules.target_score is None


def ended_position(rules: canasta.Rules, **kwargs: Any) -> HandState:
    """A hand over at once (empty stock, a black three on the pile): each player holds one 4, 5 points."""
    hands = [[f"4{suit}"] for suit in "HCDS"[: rules.players]]
    rest = unplaced(rules, Counter(card for hand in hands for card in hand))
    rest.sort(key=lambda code: code in ("3C", "3S"))  # a black three on top: nobody may take the pile
    hand = canasta.build_position(rules, hands=hands, pile=rest, stock=[], **kwargs)
    assert hand.is_over
    return hand


def test_equal_highest_totals_are_a_draw_between_those_sides_only() -> None:
    rules = attrs.evolve(canasta.load_rules("three-player"), game_length=GameLength(deals=1))
    game = Game.from_hand(ended_position(rules), scores=[100, 100, 50])
    assert game.is_over and game.scores == (95, 95, 45)
    assert game.winners() == (0, 1)  # a draw between sides 0 and 1; side 2 lost
    assert game.winner() is None
    from canasta.terminal import verdict_text

    assert verdict_text(rules, game.winners()) == "a draw between seat 0 and seat 1"
    assert verdict_text(rules, (0, 1, 2)) == "a tie"
    assert verdict_text(rules, (2,)) == "seat 2 win"


def test_a_single_highest_total_wins() -> None:
    rules = attrs.evolve(canasta.load_rules("three-player"), game_length=GameLength(deals=1))
    game = Game.from_hand(ended_position(rules), scores=[100, 101, 50])
    assert game.winners() == (1,) and game.winner() == 1


def test_a_hand_given_as_a_later_deal_counts_toward_the_deals() -> None:
    rules = attrs.evolve(canasta.load_rules("three-player"), game_length=GameLength(deals=4))
    last = Game.from_hand(ended_position(rules, deal_number=4), scores=[0, 0, 0])
    assert last.is_over and last.deal_number == 4 and last.winners() == (0, 1, 2)  # a tie: every side
    third = Game.from_hand(ended_position(rules, deal_number=3), scores=[0, 0, 0])
    assert not third.is_over and third.deal_number == 4 and third.hand.deal_number == 4


@pytest.mark.parametrize(
    ("length", "totals", "played", "over"),
    [
        (GameLength(target_score=5000), [4995, 0], 9, False),
        (GameLength(target_score=5000), [5000, 0], 1, True),
        (GameLength(deals=4), [99999, 0], 3, False),
        (GameLength(deals=4), [0, 0], 4, True),
        (GameLength(target_score=10000, deals=4), [10000, 0], 2, True),  # the target first
        (GameLength(target_score=10000, deals=4), [9000, 0], 4, True),  # the deals first
        (GameLength(target_score=10000, deals=4), [9000, 0], 3, False),
    ],
)
def test_target_or_deals_whichever_comes_first(length: GameLength, totals: list[int], played: int, over: bool) -> None:
    assert length.is_over(totals, played) is over


def test_a_game_with_both_ends_at_the_first_reached() -> None:
    classic = canasta.load_rules("classic")
    by_deals = Game(rules=attrs.evolve(classic, game_length=GameLength(target_score=10**9, deals=2)), seed=4)
    play_out(by_deals, 4)
    assert len(by_deals.results) == 2
    by_target = Game(rules=attrs.evolve(classic, game_length=GameLength(target_score=1, deals=3)), seed=4)
    play_out(by_target, 4)
    assert len(by_target.results) < 3 and max(by_target.scores) >= 1
    check_game(by_deals)
    check_game(by_target)


def test_a_house_rule_wrapping_the_answer_sets_both() -> None:
    wrapper = types.ModuleType("six_deals")

    @canasta.hookimpl(wrapper=True)
    def canasta_game_length():  # type: ignore[no-untyped-def]
        return attrs.evolve((yield), deals=6)

    wrapper.canasta_game_length = canasta_game_length  # type: ignore[attr-defined]
    rules = canasta.load_rules("deals", registry=registry_with(wrapper))
    assert rules.game_length == GameLength(target_score=5000, deals=6)
    assert ("Game", "deals in a game", "6") in canasta.rules_summary(rules)
    assert ("Game", "game ends at", "5000") in canasta.rules_summary(rules)


def test_the_summary_shows_a_table_by_deal() -> None:
    _, rules = four_deals()
    rows = {rule: value for _, rule, value in canasta.rules_summary(rules)}
    assert rows["minimum count for the initial meld"] == "deal 1: 50; deal 2: 90; deal 3: 120; deal 4 on: 150"
    assert rows["deals in a game"] == "4" and rows["game ends at"] == "no target"


# --- records, simulation, RL -----------------------------------------------------------------


def test_a_game_of_deals_round_trips_through_its_record() -> None:
    registry, _ = four_deals()
    game = Game("deals", seed=11, registry=registry)
    recorder = GameRecorder(game, registry=registry)
    rng = random.Random(11)
    while not game.is_over:
        recorder.apply(rng.choice(game.legal_actions()))
    record = recorder.record()
    assert record.complete and len(record.hand_totals) == 4
    text = json.dumps(record.to_json())
    loaded = loads_record(text, registry=registry)
    replayed = verify_record(loaded, registry=registry)
    assert replayed.is_over and replayed.scores == game.scores and replayed.winners() == game.winners()
    assert replayed.deal_number == 4


def test_simulate_counts_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta.simulate import GameRow, summarize

    rows = [
        GameRow(0, 0, None, (95, 95, 45), 4, 10, (5,), True, (0, 1)),
        GameRow(1, 1, 2, (0, 0, 10), 4, 10, (5,), True, (2,)),
    ]
    summary = summarize(rows, variant="x", house_rules=(), seed=0, seat_bots=("random",) * 3, sides=(0, 1, 2))
    assert [s.draws for s in summary.sides] == [1, 1, 0]
    assert [s.wins for s in summary.sides] == [0, 0, 1]
    assert summary.ties == 1


def test_the_rl_episode_ends_after_the_last_deal() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from canasta.rl import env
    from canasta.rl.rewards import game_rewards

    _, rules = four_deals()
    e = env(rules=rules, reward="game")
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    totals: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        observed, _, terminated, truncated, _ = e.last()
        game = e.unwrapped.game
        if terminated or truncated:
            assert terminated and not truncated and game.is_over and len(game.results) == 4
            e.step(None)
        else:
            assert not game.is_over and len(game.results) < 4  # the fourth deal has not ended
            e.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
        for agent, reward in e.rewards.items():
            totals[agent] += reward
    game = e.unwrapped.game
    assert game.is_over and len(game.results) == 4
    winners = game.winners()
    expected = game_rewards(rules, game.scores, winners)
    for seat, agent in enumerate(e.possible_agents):
        side = rules.sides[seat]
        assert expected[seat] == (-1.0 if side not in winners else 1.0 if len(winners) == 1 else 0.0)
        assert totals[agent] == expected[seat]


def test_game_rewards_name_the_special_hand_winner_and_draws() -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from canasta.rl.rewards import game_rewards

    three = canasta.load_rules("three-player")
    assert game_rewards(three, [95, 95, 45]) == [0.0, 0.0, -1.0]  # a draw between two sides
    assert game_rewards(three, [95, 95, 45], (2,)) == [-1.0, -1.0, 1.0]  # a special hand won it


def test_openspiel_ends_a_whole_game_after_the_last_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspiel")
    import canasta.openspiel.config as config
    from canasta.openspiel import CanastaGame
    from canasta.openspiel.game import hand_length_bound

    registry, rules = four_deals()
    monkeypatch.setattr(config, "default_registry", lambda: registry)
    monkeypatch.setattr(
        config, "load_rules", lambda variant, house_rules: canasta.load_rules(variant, registry=registry)
    )
    game = CanastaGame({"variant": "deals", "whole_game": True})
    assert game.max_game_length() == 4 * hand_length_bound(rules.deck.size)  # bounded: four hands
    assert game.max_utility() == 4 * game.config.utility_bound
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        outcomes = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(outcomes))
    played = state._play.game
    assert played.is_over and len(played.results) == 4
    assert state.returns() == [float(played.scores[s] - played.scores[1 - s]) for s in rules.sides]
