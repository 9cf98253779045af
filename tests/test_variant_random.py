"""Random play under every variant and house rule: the invariants of canasta.testing hold.

Cards are conserved (108, or 162 for six players), listed actions are
accepted and unlisted ones refused with a rule code and no change, scores
add up, and every game finishes.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta.bots import make_bot
from canasta.testing import check_all, check_conservation, check_game, random_play

VARIANTS = ["two-player", "three-player", "six-player", "cuban", "modern-american"]
COMBOS = [
    *[(v, ()) for v in VARIANTS],
    ("classic", ("black-three-freezes",)),
    ("classic", ("wilds-at-most-naturals",)),
    ("two-player", ("last-red-three-may-meld",)),
    ("three-player", ("cutthroat",)),
    ("three-player", ("cutthroat", "wilds-at-most-naturals")),
    ("modern-american", ("american-talon",)),
    ("cuban", ("wilds-at-most-naturals", "last-red-three-may-meld")),
    ("six-player", ("last-red-three-may-meld", "black-three-freezes")),
]
DECK = {"six-player": 162}


def _ids(combo: tuple[str, tuple[str, ...]]) -> str:
    return "+".join([combo[0], *combo[1]])


@pytest.mark.parametrize("combo", COMBOS, ids=_ids)
def test_random_hands_keep_every_invariant(combo: tuple[str, tuple[str, ...]]) -> None:
    variant, house_rules = combo
    game = canasta.Game(variant, house_rules, seed=7)
    assert game.rules.house_rules == house_rules
    assert len(game.hand.deck) == DECK.get(variant, 108)
    rng = random.Random(7)
    hands = 0
    for step in range(6000):
        if step % 7 == 0 or game.hand.is_over:
            check_all(game, rng, legal_sample=2, illegal_sample=3)
        if game.is_over or hands == 2:
            break
        before = len(game.results)
        random_play(game, rng, 1, meld_bias=0.7)
        hands += len(game.results) - before
    assert hands == 2 or game.is_over


@pytest.mark.parametrize("combo", COMBOS, ids=_ids)
def test_games_finish(combo: tuple[str, tuple[str, ...]]) -> None:
    # Start 300 short of the target and let the greedy bots play, so that a game
    # is a few hands long (purely random play drifts negative in modern American).
    variant, house_rules = combo
    rules = canasta.load_rules(variant, house_rules)
    start = [rules.target_score - 300] * rules.side_count
    hand = canasta.HandState.deal(rules, dealer=rules.players - 1, scores=start, seed=3)
    game = canasta.Game.from_hand(hand, seed=3)
    bots = [make_bot("greedy", seed=seat) for seat in range(rules.players)]
    for _ in range(20_000):
        if game.is_over:
            break
        if game.apply(bots[game.seat].choose(game.hand, game.seat)) is not None:
            check_conservation(game.hand)
    assert game.is_over
    check_game(game, initial_scores=start)
    assert max(game.scores) >= rules.target_score
