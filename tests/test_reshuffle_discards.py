"""Hand and Foot's ``reshuffle-discards`` (§8.13): an empty stock refilled from the pile, and what follows from it.

The concept is `canasta.ExhaustionRules.reshuffle_pile_at` (0 by default: every
other rule set plays as before). Positions are built with `canasta.build_position`
as in ``test_hand_and_foot.py`` (seats 0 and 2 against 1 and 3); in `_exhausted`
the stock is empty and every card not placed is in seat 1's hand.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Generator

import attrs
import pytest
from helpers import check_conservation, placed, play_random_hand, unplaced
from test_hand_and_foot import FOOT, _on_hand_and_foot, _position
from test_hand_and_foot import RULES as BASE

import canasta
from canasta import Discard, DrawStock, HandEnd, HandState, Kind, Phase
from canasta.records import GameRecorder, loads_record, replay
from canasta.testing.invariants import check_hidden_information, check_observations

RULES = canasta.load_rules("hand-and-foot", ["reshuffle-discards"])


def _exhausted(pile: list[str], rules: canasta.Rules = RULES, **kwargs: object) -> HandState:
    """Seat 3 to discard its 4 onto ``pile`` with the stock empty; every card not placed is in seat 1's hand."""
    hands = kwargs.setdefault("hands", [["7C", "7D", "7H"], [], ["JC", "JD"], ["QH", "QS", "4C"]])
    kwargs.setdefault("melds", [[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]])
    kwargs.setdefault("packets", [[], [], [], []])
    rest = unplaced(rules, placed(pile, kwargs))
    kwargs["hands"] = [list(h) for h in hands]  # type: ignore[attr-defined]
    kwargs["hands"][1] += [c for c in rest if c not in ("3H", "3D")]  # type: ignore[index]
    kwargs["threes"] = [[], [c for c in rest if c in ("3H", "3D")], [], []]
    kwargs.setdefault("seat", 3)
    return _position(rules, pile=pile, stock=[], **kwargs)


def _codes(state: HandState, ids: object) -> list[str]:
    return [state.deck.cards[c].code for c in ids]  # type: ignore[attr-defined]


# --- the rule value -------------------------------------------------------------------------------


def test_the_option_reshuffles_from_three_cards_and_every_other_rule_set_never() -> None:
    assert RULES.exhaustion.reshuffle_pile_at == 3
    assert RULES.exhaustion == attrs.evolve(BASE.exhaustion, reshuffle_pile_at=3)
    assert canasta.ExhaustionRules().reshuffle_pile_at == 0
    for variant in ("classic", "cuban", "modern-american", "hand-and-foot"):
        assert canasta.load_rules(variant).exhaustion.reshuffle_pile_at == 0, variant
    registry = canasta.default_registry()
    assert registry.fits("reshuffle-discards", "hand-and-foot")
    assert not registry.fits("reshuffle-discards", "classic")


class _ReshuffleAt:
    def __init__(self, at: object) -> None:
        self.at = at

    @canasta.hookimpl(wrapper=True)
    def canasta_stock_exhaustion(self) -> Generator[None, canasta.ExhaustionRules, canasta.ExhaustionRules]:
        exhaustion: canasta.ExhaustionRules = yield
        return attrs.evolve(exhaustion, reshuffle_pile_at=self.at)


class _DrawOne:
    @canasta.hookimpl
    def canasta_draw_count(self) -> int:
        return 1


def test_a_plugin_may_reshuffle_from_more_cards_and_a_bad_answer_is_refused() -> None:
    assert _on_hand_and_foot(_ReshuffleAt(5)).exhaustion.reshuffle_pile_at == 5
    # A new stock of one card, or a draw of one card, could be refilled from the same cards forever.
    for at in (1, 2):
        with pytest.raises(canasta.RulesError, match=r"reshuffle_pile_at must be 0 \(never\) or 3 or more"):
            _on_hand_and_foot(_ReshuffleAt(at))
    registry = canasta.Registry(autoload="builtin")
    plugins = (_DrawOne(), _ReshuffleAt(3))
    variant = canasta.Variant(name="hf-draw-one", description="a test", plugins=plugins, base="hand-and-foot")
    registry.add_variant(variant)
    with pytest.raises(canasta.RulesError, match="reshuffle_pile_at needs a draw of 2 cards or more, not 1"):
        canasta.load_rules("hf-draw-one", registry=registry)
    with pytest.raises(canasta.PluginError, match="reshuffle_pile_at must not be negative"):
        _on_hand_and_foot(_ReshuffleAt(-3))
    with pytest.raises(canasta.RulesError, match="reshuffle_pile_at"):
        _on_hand_and_foot(_ReshuffleAt(True))
    with pytest.raises(canasta.RulesError, match="reshuffle_pile_at"):
        _on_hand_and_foot(_ReshuffleAt(3.0))


# --- when it happens ------------------------------------------------------------------------------


def test_an_empty_stock_and_a_pile_of_three_become_a_stock_of_two_under_the_top_card() -> None:
    state = _exhausted(["9C", "TD"])
    state.apply(Discard(Kind.FOUR))  # the pile: 9C TD 4C, and seat 0 is due with no stock
    assert not state.is_over and state.seat == 0 and state.phase is Phase.DRAW
    assert _codes(state, state.pile) == ["4C"]  # the top card stays
    assert sorted(_codes(state, state.stock)) == ["9C", "TD"]  # the rest is the new stock
    assert _codes(state, state.reshuffled) == ["9C", "TD"] and state.reshuffles == 1
    check_conservation(state)
    state.apply(DrawStock())
    assert state.stock == [] and state.sizes[0] == 5


def test_a_pile_of_two_ends_the_deal_as_without_the_option() -> None:
    state = _exhausted(["9C"])
    state.apply(Discard(Kind.FOUR))
    assert state.is_over and state.end is HandEnd.STOCK_EXHAUSTED and state.reshuffles == 0
    assert _codes(state, state.pile) == ["9C", "4C"]


def test_without_the_option_a_large_pile_still_ends_the_deal() -> None:
    state = _exhausted(["9C", "TD", "KH", "8S"], rules=BASE)
    state.apply(Discard(Kind.FOUR))
    assert state.is_over and state.end is HandEnd.STOCK_EXHAUSTED and state.stock == []


def test_the_stock_is_reshuffled_only_when_empty_at_the_start_of_a_turn() -> None:
    state = _exhausted(["9C", "TD", "KH"])
    state.apply(Discard(Kind.FOUR))
    assert len(state.stock) == 3 and state.reshuffles == 1
    state.apply(DrawStock())  # two drawn, one left: no reshuffle within a turn or at the next while any is left
    state.apply(Discard(Kind.SEVEN))
    assert len(state.stock) == 1 and state.reshuffles == 1 and len(state.pile) == 2
    state.apply(DrawStock())  # seat 1 draws the last card; the pile then holds 3 after its discard
    state.apply(Discard(Kind.KING))
    assert state.reshuffles == 2 and len(state.pile) == 1 and len(state.stock) == 2


def test_a_foot_due_with_an_empty_stock_is_picked_up_after_the_reshuffle() -> None:
    hands = [[], [], ["JC", "JD"], ["QH", "QS", "4C"]]
    state = _exhausted(["9C", "TD", "KH"], hands=hands, packets=[[FOOT], [], [], []])
    state.apply(Discard(Kind.FOUR))
    assert not state.is_over and state.packets[0] == [] and state.sizes[0] == 13  # §8.7, no longer E11
    assert sorted(_codes(state, state.stock)) == ["9C", "KH", "TD"]


def test_a_red_three_from_the_pile_is_laid_out_and_replaced_when_drawn() -> None:
    # Only a covered upcard (upcard-stays) brings a red three into the pile; reshuffled, it is drawn like any card.
    state = _exhausted(["3H", "9C", "TD"])
    state.apply(Discard(Kind.FOUR))
    assert sorted(_codes(state, state.stock)) == ["3H", "9C", "TD"]
    state.stock = [c for c in state.stock if state.kinds[c] != Kind.RED_THREE] + [
        c for c in state.stock if state.kinds[c] == Kind.RED_THREE
    ]  # (the red three on top)
    state.apply(DrawStock())
    assert _codes(state, state.threes[0]) == ["3H"] and state.sizes[0] == 5 and state.stock == []


def test_the_pile_left_is_frozen_only_by_its_top_card() -> None:
    # pile-natural-and-wild freezes the pile while it holds a wild card: the 2 goes into the stock.
    rules = canasta.load_rules("hand-and-foot", ["pile-natural-and-wild", "reshuffle-discards"])
    state = _exhausted(["2C", "9C", "TD"], rules=rules)
    assert state.pile_frozen_for(1)
    state.apply(Discard(Kind.FOUR))
    assert state.reshuffles == 1 and state.pile_freezers == 0 and not state.pile_frozen_for(0)


# --- the shuffle: reproducible, one formula for both engines -------------------------------------


def test_the_new_order_is_the_documented_shuffle_of_the_hands_seed_and_the_reshuffle_number() -> None:
    pile = ["9C", "TD", "KH", "8S", "6D", "JH", "QC", "4S", "5D", "7C"]
    for seed in (0, 1, 12345):
        state = _exhausted(pile, stock_seed=seed)
        assert state.shuffle_seed == seed
        cards = state.pile[:]
        state.apply(Discard(Kind.FOUR))
        expected = cards[:]
        random.Random(f"canasta-reshuffle/{seed}/1").shuffle(expected)  # (what either engine must give)
        assert state.stock == expected
    # The same position and seed reshuffle alike; another seed (almost always) another way.
    orders = set()
    for seed in (1, 1, 2):
        state = _exhausted(pile, stock_seed=seed)
        state.apply(Discard(Kind.FOUR))
        orders.add(tuple(state.stock))
    assert len(orders) == 2


def test_a_deal_draws_its_shuffle_seed_from_its_own_seed_and_only_where_the_rules_reshuffle() -> None:
    one = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=7)
    two = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=7)
    other = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=8)
    assert one.shuffle_seed == two.shuffle_seed != other.shuffle_seed
    assert HandState.deal(BASE, dealer=3, scores=[0, 0], seed=7).shuffle_seed == 0
    assert one.stock == HandState.deal(BASE, dealer=3, scores=[0, 0], seed=7).stock  # the deal itself is unchanged


def _after_reshuffle(seed: int, players: int = 2, extra: int = 3) -> canasta.Game:
    """A game of ``reshuffle-discards`` played at random until ``extra`` actions after its first reshuffle."""
    game = canasta.Game("hand-and-foot", ["reshuffle-discards"], players=players, seed=seed)
    rng = random.Random(seed)
    after = -1
    while after < extra:
        game.apply(rng.choice(game.legal_actions()))
        if after >= 0 or game.hand.reshuffles:
            after += 1
        assert not game.results, "the first deal ended before its first reshuffle"
    return game


def _new_stocks(game: canasta.Game, stocks: list[list[int]]) -> None:
    """Note the stock just after each reshuffle of the first deal."""
    if not game.results and game.hand.reshuffles > len(stocks):
        stocks.append(game.hand.stock[:])


def test_a_record_replays_the_reshuffles() -> None:
    game = canasta.Game("hand-and-foot", ["reshuffle-discards"], players=2, seed=11)
    recorder = GameRecorder(game)
    rng = random.Random(11)
    played: list[list[int]] = []
    while not game.results:
        recorder.apply(rng.choice(game.legal_actions()))
        _new_stocks(game, played)
    record = recorder.record()
    assert len(played) >= 2  # random play reshuffles several times in a deal
    # Stored as seeds and actions (no deck), the record replays every reshuffle: the same new stocks, in order.
    loaded = loads_record(record.dumps())
    replayed: list[list[int]] = []
    for step in replay(loaded):
        _new_stocks(step.game, replayed)
    assert replayed == played
    assert step.game.results == game.results


def test_undo_across_a_reshuffle_and_a_game_from_a_built_position_reshuffle_alike() -> None:
    game = _after_reshuffle(8, extra=2)
    stock, pile, reshuffles = game.hand.stock[:], game.hand.pile[:], game.hand.reshuffles
    action = game.legal_actions()[0]
    game.apply(action)
    game.undo()  # (replayed from the deal's seed: the same reshuffles)
    assert (game.hand.stock, game.hand.pile, game.hand.reshuffles) == (stock, pile, reshuffles)
    orders = []
    for _ in range(2):
        built = canasta.Game.from_hand(_exhausted(["9C", "TD", "KH", "8S", "6D"], stock_seed=4))
        built.apply(Discard(Kind.FOUR))
        built.apply(DrawStock())
        built.undo()
        orders.append(built.hand.stock[:])
    assert orders[0] == orders[1] and len(orders[0]) == 5


# --- what each player knows ----------------------------------------------------------------------


def test_everyone_sees_which_cards_the_stock_holds_and_not_their_order() -> None:
    game = _after_reshuffle(3)
    state = game.hand
    assert state.reshuffles >= 1 and set(state.stock) <= set(state.reshuffled)
    check_observations(state)
    check_hidden_information(state, random.Random(1))
    for seat in range(state.rules.players):
        seen = state.observation(seat)
        assert seen.reshuffles == state.reshuffles
        assert [card.code for card in seen.reshuffled] == _codes(state, state.reshuffled)
        assert seen._public is not None and seen._public.shuffle_seed == 0 and seen._public.stock == []
    # An observation does not change with the stock's order (nor with the hand's secret seed).
    other = state.copy()
    other.stock.reverse()
    other.shuffle_seed += 1
    assert all(other.observation(s) == state.observation(s) for s in range(state.rules.players))


def test_nothing_returned_shares_the_hands_lists() -> None:
    state = _exhausted(["9C", "TD", "KH"])
    state.apply(Discard(Kind.FOUR))
    assert isinstance(state.reshuffled, tuple) and state.reshuffled is not state.stock
    copy = state.copy()
    copy.apply(DrawStock())
    assert len(state.stock) == 3 and len(copy.stock) == 1  # (each its own stock)
    restored = pickle.loads(pickle.dumps(state))
    assert (restored.stock, restored.reshuffled, restored.reshuffles, restored.shuffle_seed) == (
        state.stock,
        state.reshuffled,
        state.reshuffles,
        state.shuffle_seed,
    )


def test_a_sampled_state_fills_the_stock_with_the_reshuffled_cards_in_a_random_order() -> None:
    game = _after_reshuffle(5, players=4, extra=6)
    state = game.hand
    seat = (state.seat + 1) % 4
    seen = state.observation(seat)
    pool = set(state.reshuffled)
    orders = set()
    for i in range(20):
        sample = canasta.sample_state(seen, random.Random(i))
        assert sample.observation(seat) == seen
        check_conservation(sample)
        assert len(sample.stock) == len(state.stock)
        assert set(sample.stock) <= pool  # never an unseen card from elsewhere
        assert not pool & {c for packets in sample.packets for p in packets for c in p}  # feet were dealt before
        assert sample.shuffle_seed != state.shuffle_seed
        orders.add(tuple(sample.stock))
    assert len(orders) > 1


def test_a_sampled_state_before_any_reshuffle_is_dealt_as_before() -> None:
    state = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=4)
    seen = state.observation(1)
    base = HandState.deal(BASE, dealer=3, scores=[0, 0], seed=4)
    one = canasta.sample_state(seen, random.Random(9))
    two = canasta.sample_state(base.observation(1), random.Random(9))
    assert (one.stock, one.packets, one.hands) == (two.stock, two.packets, two.hands)


def test_ismcts_plays_from_a_reshuffled_stock() -> None:
    game = _after_reshuffle(6)
    bot = canasta.make_bot("ismcts", 0, iterations=8)
    action = bot.choose(game.hand, game.seat)
    assert action in game.legal_actions()


# --- random play ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_deals_reshuffle_keep_every_invariant_and_end(players: int) -> None:
    rules = canasta.Game("hand-and-foot", ["reshuffle-discards"], players=players, seed=0).rules
    reshuffles = 0
    for seed in range(2):
        # play_random_hand refuses a hand of more than 5000 actions: each one here ends well before.
        state, actions = play_random_hand(
            random.Random(seed), seed=seed, rules=rules, scores=[0] * rules.side_count, legal_sample=1, illegal_sample=2
        )
        assert state.is_over and actions < 5000
        assert state.end is HandEnd.WENT_OUT or len(state.pile) < 3  # never ended with a pile it could reshuffle
        reshuffles += state.reshuffles
        check_conservation(state)
    assert reshuffles >= 2


def test_the_openspiel_hand_length_bound_covers_reshuffles() -> None:
    pytest.importorskip("pyspiel")
    from canasta.openspiel import CanastaGame, hand_length_bound

    size = RULES.deck.size
    assert hand_length_bound(size) == 9 * size + 1  # (unchanged without reshuffles)
    assert hand_length_bound(size, reshuffles=True) == 4 * (3 * size + 1) + size + 1
    game = CanastaGame({"variant": "hand-and-foot", "house_rules": "reshuffle-discards"})
    assert game.max_game_length() == hand_length_bound(size, reshuffles=True)
    lengths = [
        play_random_hand(random.Random(seed), seed=seed, rules=RULES, scores=[0, 0], check=False)[1]
        for seed in range(5)
    ]
    longest = max(lengths)
    assert longest < hand_length_bound(size, reshuffles=True)
