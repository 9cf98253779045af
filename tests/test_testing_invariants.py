"""canasta.testing.invariants: the checks pass on real play and fail on broken engines."""

from __future__ import annotations

import random

import attrs
import pytest

import canasta
from canasta.testing import (
    InvariantError,
    check_all,
    check_conservation,
    check_copy_independence,
    check_game,
    check_hidden_information,
    check_legal_actions,
    check_observations,
    check_refused,
    check_score,
    random_play,
)
from canasta.testing.invariants import candidate_actions, check_record_round_trip, hidden_resample, snapshot


def _mid_hand(variant: str = "classic", steps: int = 40, seed: int = 7) -> canasta.HandState:
    state = canasta.HandState.deal(canasta.load_rules(variant), dealer=0, scores=[0] * 6, seed=seed)
    random_play(state, random.Random(seed), steps)
    assert not state.is_over
    return state


@pytest.mark.parametrize("variant", [v.name for v in canasta.available_variants()])
def test_check_all_holds_through_a_whole_game_hand(variant: str) -> None:
    game = canasta.Game(variant, seed=11)
    rng = random.Random(3)
    hands_before = len(game.results)
    while len(game.results) == hands_before:  # one whole hand, checked after every action
        check_all(game, rng, legal_sample=2, illegal_sample=3)
        random_play(game, rng, 1)
    check_all(game, rng)
    assert check_score(game.hand) is None  # the next hand is dealt and not over


def test_finished_hand_score_is_checked() -> None:
    state = _mid_hand()
    random_play(state, random.Random(1), 10_000)
    assert state.is_over
    score = check_score(state)
    assert score is not None and score == state.score()
    check_legal_actions(state)  # nothing legal, nothing accepted


def test_conservation_finds_a_lost_and_a_duplicated_card() -> None:
    state = _mid_hand()
    check_conservation(state)
    lost = state.copy()
    lost.stock.pop()
    with pytest.raises(InvariantError, match="nowhere"):
        check_conservation(lost)
    twice = state.copy()
    twice.pile.append(twice.stock[0])
    with pytest.raises(InvariantError, match="is in stock and in pile"):
        check_conservation(twice)


def test_refusal_must_leave_the_state_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _mid_hand()
    action = canasta.Meld(canasta.Kind.ACE, 11, 0, 0)
    err = check_refused(state, action)
    assert isinstance(err.code, canasta.RuleCode)
    real = canasta.HandState.check

    def sloppy(self: canasta.HandState, a: canasta.Action) -> None:
        self.stock.pop()  # a broken engine: changes the state, then refuses
        real(self, a)

    monkeypatch.setattr(canasta.HandState, "check", sloppy)
    with pytest.raises(InvariantError, match="changed: stock"):
        check_refused(state, action)


def test_accepting_an_unlisted_action_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _mid_hand()
    monkeypatch.setattr(canasta.HandState, "is_legal", lambda self, a: True)
    with pytest.raises(InvariantError, match="is not listed"):
        check_refused(state, canasta.Meld(canasta.Kind.ACE, 11, 0, 0))


def test_candidates_are_illegal_and_include_near_misses() -> None:
    state = _mid_hand()
    while state.phase is not canasta.Phase.MELD or not any(isinstance(a, canasta.Meld) for a in state.legal_actions()):
        random_play(state, random.Random(state.turn), 1)
    candidates = candidate_actions(state, random.Random(0), count=500)
    legal = set(state.legal_actions())
    assert candidates and not legal & set(candidates)
    melds = [a for a in state.legal_actions() if isinstance(a, canasta.Meld)]
    near = {canasta.Meld(m.rank, m.naturals + 1, m.twos, m.jokers) for m in melds} - legal
    assert near <= set(candidates)


def test_observation_leaks_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.observation as observation

    state = _mid_hand()
    check_observations(state)
    check_hidden_information(state)
    real = observation.observe

    def shows_stock_top(s: canasta.HandState, seat: int) -> canasta.Observation:
        return attrs.evolve(real(s, seat), pile=(*real(s, seat).pile, s.deck.cards[s.stock[-1]]))

    monkeypatch.setattr(observation, "observe", shows_stock_top)
    with pytest.raises(InvariantError, match="leaks the hidden card"):
        check_observations(state)


def test_a_leak_without_cards_is_caught_by_resampling(monkeypatch: pytest.MonkeyPatch) -> None:
    """No card shows, but the stock size secretly encodes the top card's kind."""
    import canasta.observation as observation

    state = _mid_hand()
    real = observation.observe

    def encodes_next_kind(s: canasta.HandState, seat: int) -> canasta.Observation:
        obs = real(s, seat)
        return attrs.evolve(obs, stock_size=obs.stock_size * 100 + s.kinds[s.stock[-1]])

    monkeypatch.setattr(observation, "observe", encodes_next_kind)
    with pytest.raises(InvariantError, match="stock_size"):
        for seed in range(20):  # the resampled top card has another kind sooner or later
            check_hidden_information(state, random.Random(seed))


def test_hidden_resample_keeps_what_the_seat_sees() -> None:
    state = _mid_hand()
    other = hidden_resample(state, 1, random.Random(5))
    check_conservation(other)
    assert other.hand_cards(1) == state.hand_cards(1)
    assert other.sizes == state.sizes and other.pile == state.pile
    assert other.stock != state.stock  # something hidden did change
    assert snapshot(state) != snapshot(other)


def test_score_arithmetic_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _mid_hand()
    random_play(state, random.Random(2), 10_000)
    check_score(state)
    monkeypatch.setattr(canasta.SideScore, "total", property(lambda self: self.melded_cards))
    with pytest.raises(InvariantError, match="not the sum of its parts"):
        check_score(state)


def test_game_totals_are_checked() -> None:
    game = canasta.Game("classic", seed=2)
    rng = random.Random(0)
    while not game.results:
        random_play(game, rng, 50)
    check_game(game)
    game.scores = (game.scores[0] + 5, *game.scores[1:])  # (corrupted on purpose)
    with pytest.raises(InvariantError, match="not the sums"):
        check_game(game)
    check_game(game, initial_scores=[5, 0])


def test_copies_sharing_state_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _mid_hand()
    check_copy_independence(state)
    real = canasta.HandState.copy

    def shallow(self: canasta.HandState) -> canasta.HandState:
        new = real(self)
        new.stock = self.stock  # a broken copy: shares the stock list
        return new

    monkeypatch.setattr(canasta.HandState, "copy", shallow)
    with pytest.raises(InvariantError, match="changed the original"):
        check_copy_independence(state, random.Random(0), steps=20)


def test_record_round_trip() -> None:
    pytest.importorskip("canasta.records")
    game = canasta.Game("classic", seed=4)
    played = random_play(game, random.Random(4), 400)
    assert check_record_round_trip(game, played) is True
    other = canasta.Game("classic", seed=4)
    random_play(other, random.Random(4), 399)
    with pytest.raises(InvariantError, match="different game"):
        check_record_round_trip(other, played)  # the record has one action more than `other`
