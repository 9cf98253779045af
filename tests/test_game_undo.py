"""Game.undo: the game's history restores every earlier state exactly, across hand boundaries too."""

from __future__ import annotations

import random
from enum import Enum
from typing import Any

import attrs
import pytest

import canasta
from canasta import Action, CanastaError, Game
from canasta.table import data_fields

VARIANTS = ["classic", "two-player", "three-player", "six-player", "cuban", "modern-american"]


def _plain(value: object) -> object:
    """A comparable copy of a hand field (melds and other slotted objects become tuples)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, (int, str, float, Enum)) or value is None:
        return value
    # Private slots are caches (a meld's table of valid additions), not state.
    slots = [s for s in data_fields(type(value)) if not s.startswith("_")]
    return (type(value).__name__, *(_plain(getattr(value, s)) for s in slots))


def hand_fields(hand: canasta.HandState) -> dict[str, object]:
    """Every public field of the hand (its private caches and shared rule objects left out)."""
    skip = {"rules", "facts", "deck", "kinds"}
    slots = set(data_fields(type(hand)))
    return {s: _plain(getattr(hand, s)) for s in sorted(slots) if not s.startswith("_") and s not in skip}


def fingerprint(game: Game) -> dict[str, Any]:
    """Everything observable about a game: enough to tell any two different states apart."""
    hand = game.hand
    return {
        "legal": game.legal_actions(),
        "observations": [game.observation(s) for s in range(game.rules.players)],
        "locations": hand.card_locations(),
        "scores": list(game.scores),
        "results": list(game.results),
        "hand_number": game.hand_number,
        "is_over": game.is_over,
        "seat": hand.seat,
        "phase": hand.phase,
        "turn": hand.turn,
        "fields": hand_fields(hand),
    }


def play_random(game: Game, rng: random.Random, *, hands: int, limit: int = 5000) -> list[dict[str, Any]]:
    """Play random legal actions until `hands` hands are finished; return the fingerprint before each one."""
    before: list[dict[str, Any]] = []
    while not game.is_over and len(game.results) < hands and len(before) < limit:
        before.append(fingerprint(game))
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return before


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_undo_one_by_one_restores_every_state_then_reapplying_replays_them(variant: str, seed: int) -> None:
    game = Game(variant, seed=seed)
    before = play_random(game, random.Random(seed), hands=3)
    assert game.is_over or len(game.results) >= 3  # two hand boundaries at least
    played = game.history
    assert len(played) == len(before)
    final = fingerprint(game)

    undone: list[Action] = []
    for expected in reversed(before):
        undone.append(game.undo())
        assert fingerprint(game) == expected
    assert undone[::-1] == list(played)
    assert not game.can_undo and game.history == ()

    for action, expected in zip(played, before, strict=True):
        assert fingerprint(game) == expected
        game.apply(action)  # still legal: the same state lists the same actions
    assert fingerprint(game) == final
    assert game.history == played


@pytest.mark.parametrize("variant", VARIANTS)
def test_undoing_the_action_that_ends_a_hand_brings_the_hand_back_unscored(variant: str) -> None:
    game = Game(variant, seed=5)
    rng = random.Random(5)
    while not game.results:
        legal = game.legal_actions()
        state = fingerprint(game)
        ended = game.apply(legal[rng.randrange(len(legal))])
    assert ended is not None and game.hand_number == 1

    game.undo()
    assert fingerprint(game) == state
    assert game.results == () and game.hand_number == 0 and not game.hand.is_over
    assert game.scores == (0,) * game.rules.side_count


@pytest.mark.parametrize("variant", VARIANTS)
def test_after_an_undo_the_next_hand_deals_the_same_whatever_the_end(variant: str) -> None:
    # Hands are dealt from per-hand seeds, so restoring hand_number restores the deal.
    game = Game(variant, seed=9)
    rng = random.Random(9)
    while not game.results:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    second_deal = game.hand.card_locations()
    second_dealer = game.hand.dealer
    while game.hand_number == 1:
        game.undo()  # back into the first hand, before its last action
    for _ in range(30):  # a few actions further back, then play the hand out differently
        if not game.can_undo:
            break
        game.undo()
    rng = random.Random(99)
    while not game.results:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert game.hand_number == 1
    assert game.hand.dealer == second_dealer
    assert game.hand.card_locations() == second_deal


def test_undo_of_the_action_that_ends_the_game() -> None:
    over_at_once = canasta.GameLength(target_score=-(10**9))  # over after the first hand
    rules = attrs.evolve(canasta.load_rules("classic"), game_length=over_at_once)
    game = Game(rules=rules, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        state = fingerprint(game)
        legal = game.legal_actions()
        last = legal[rng.randrange(len(legal))]
        game.apply(last)
    over = fingerprint(game)
    assert game.winner() is not None or max(game.scores) == min(game.scores)

    assert game.undo() == last
    assert fingerprint(game) == state
    assert not game.is_over and game.winner() is None and game.results == ()
    game.apply(last)
    assert fingerprint(game) == over


def test_a_new_game_has_nothing_to_undo() -> None:
    game = Game("classic", seed=1)
    state = fingerprint(game)
    assert not game.can_undo
    assert game.history == ()
    with pytest.raises(CanastaError, match="nothing to undo"):
        game.undo()
    assert fingerprint(game) == state
    game.apply(game.legal_actions()[0])
    assert game.can_undo
    game.undo()
    with pytest.raises(CanastaError):
        game.undo()
    assert fingerprint(game) == state


def test_history_lists_applied_actions_oldest_first() -> None:
    game = Game("two-player", seed=4)
    rng = random.Random(4)
    applied: list[Action] = []
    while len(game.results) < 2 and not game.is_over:
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        game.apply(action)
        applied.append(action)
        assert game.history == tuple(applied)
    for _ in range(10):
        applied.pop()
        game.undo()
    assert game.history == tuple(applied)


def test_copy_carries_the_history_and_is_independent() -> None:
    game = Game("classic", seed=6)
    rng = random.Random(6)
    before = play_random(game, rng, hands=2)
    copy = game.copy()
    assert copy.history == game.history
    original = fingerprint(game)
    played = game.history

    # Play on a copy: the original's history does not grow.
    ahead = game.copy()
    for _ in range(5):
        ahead.apply(ahead.legal_actions()[0])
    assert game.history == played and ahead.history[: len(played)] == played

    # Undo on the copy across both hand boundaries, then play on it: the original is untouched.
    for expected in reversed(before[len(before) // 3 :]):
        copy.undo()
        assert fingerprint(copy) == expected
    for _ in range(20):
        legal = copy.legal_actions()
        copy.apply(legal[rng.randrange(len(legal))])
    assert fingerprint(game) == original and game.history == played

    # And the original still undoes through the hands the copy went back into.
    for expected in reversed(before):
        game.undo()
        assert fingerprint(game) == expected


def test_from_hand_undoes_back_to_the_given_position_and_no_further() -> None:
    game = Game("classic", seed=8)
    rng = random.Random(8)
    for _ in range(15):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    resumed = Game.from_hand(game.hand.copy(), scores=[100, 40], seed=8)
    start = fingerprint(resumed)
    before = play_random(resumed, random.Random(1), hands=1)
    assert before[0] == start
    for expected in reversed(before):
        resumed.undo()
        assert fingerprint(resumed) == expected
    assert not resumed.can_undo
    with pytest.raises(CanastaError):
        resumed.undo()
