"""Cutthroat's two melds of a rank (rule book, three-player, cutthroat ⟨A⟩) against the legality reference.

Positions where a partnership holds a rank twice arise only in play (the
partnership forms when the pile is first taken), so random cutthroat hands are
played and every such position small enough for the brute-force reference is
checked: the legal list is exactly the completable allowed actions, and every
meld keeps its own shape.
"""

from __future__ import annotations

import random

import canasta
from canasta.cards import SECOND_MELD, Deck
from canasta.hand import HandState
from canasta.testing.reference import check_exact_legality, turn_cards

RULES = canasta.load_rules("three-player", ["cutthroat"])


def test_positions_with_a_rank_held_twice_have_exactly_the_reference_s_legal_actions() -> None:
    deck = Deck(RULES.deck)
    checked = 0
    for seed in range(60):
        hand = HandState.deal(RULES, dealer=2, scores=[0, 0, 0], seed=seed, deck=deck)
        rng = random.Random(seed)
        while hand.phase is not canasta.Phase.OVER:
            side = hand.seating[hand.seat]
            for key, meld in hand.melds[side].items():
                assert meld.rank == key & 15 and RULES.melds.is_valid(meld.rank, meld.naturals, meld.twos, meld.jokers)
            if any(k >= SECOND_MELD for k in hand.melds[side]) and turn_cards(hand) <= 12:
                check_exact_legality(hand)
                checked += 1
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
    assert checked >= 100  # the seeds above reach well over a hundred such positions
