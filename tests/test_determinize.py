"""canasta.sample_state (issue 16): full states consistent with a seat's information, uniform otherwise."""

from __future__ import annotations

import math
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import canasta
from canasta import Game, Kind, sample_state
from canasta.determinize import SamplingError, unseen_cards
from canasta.testing import InvariantError, random_play, snapshot
from canasta.testing.sampling import check_sample, inconsistencies


def variant_names() -> list[str]:
    return sorted(v.name for v in canasta.available_variants())


@given(
    variant=st.sampled_from(variant_names()),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 400),
)
def test_samples_agree_with_everything_the_seat_knows(variant: str, seed: int, steps: int) -> None:
    game = Game(variant, seed=seed)
    random_play(game, random.Random(seed), steps)
    hand = game.hand
    before = snapshot(hand)
    rng = random.Random(seed)
    for seat in range(hand.rules.players):
        observation = hand.observation(seat)
        for _ in range(3):
            check_sample(hand, seat, observation, sample_state(observation, rng))
    assert snapshot(hand) == before  # sampling never touches the true state


def test_samples_of_positions_with_known_cards() -> None:
    # Greedy play takes piles, so other hands hold known cards: they must stay put.
    game = Game("classic", seed=21)
    bots = [canasta.make_bot("greedy", s) for s in range(4)]
    rng = random.Random(0)
    checked = 0
    while not game.is_over and checked < 20:
        hand = game.hand
        if any(hand.known[s] for s in range(1, 4)):
            observation = hand.observation(0)
            check_sample(hand, 0, observation, sample_state(observation, rng))
            checked += 1
        game.apply(bots[hand.seat].choose(hand, hand.seat))
    assert checked == 20


def test_the_same_generator_state_gives_the_same_sample() -> None:
    observation = Game("classic", seed=2).observation(0)
    first = sample_state(observation, random.Random(9))
    second = sample_state(observation, random.Random(9))
    assert first.stock == second.stock and first.hands == second.hands
    assert sample_state(observation, random.Random(10)).stock != first.stock


def _chi_square_critical(df: int, z: float = 3.09) -> float:
    """The chi-square quantile for ``df`` degrees of freedom at normal quantile ``z`` (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _placements(hand: canasta.HandState, states: list[canasta.HandState]) -> dict[int, Counter[int]]:
    """For each unseen non-three card of seat 0, how often it lay in seat 1, 2, 3 or the stock (place 3)."""
    kinds = hand.kinds
    counts: dict[int, Counter[int]] = {}
    for state in states:
        for place, seat in enumerate((1, 2, 3)):
            for held in state.hands[seat]:
                for card in held:
                    counts.setdefault(card, Counter())[place] += 1
        for card in state.stock:
            if kinds[card] != int(Kind.RED_THREE):
                counts.setdefault(card, Counter())[3] += 1
    return counts


def _chi_square(counts: dict[int, Counter[int]], free: list[int], samples: int) -> float:
    total = sum(free)
    statistic = 0.0
    for placed in counts.values():
        for place, size in enumerate(free):
            expected = samples * size / total
            statistic += (placed[place] - expected) ** 2 / expected
    return statistic


def test_unseen_cards_are_dealt_uniformly() -> None:
    # Seat 0 at the start of a classic hand: each unseen card (red threes aside,
    # which only the stock can hold) must land in each other hand and in the
    # stock with probability proportional to the places free for it there.
    hand = Game("classic", seed=4).hand
    observation = hand.observation(0)
    unseen = unseen_cards(observation)
    red_threes = sum(1 for c in unseen if hand.kinds[c] == int(Kind.RED_THREE))
    free = [hand.sizes[1], hand.sizes[2], hand.sizes[3], len(hand.stock) - red_threes]
    samples = 2000
    rng = random.Random(123)
    states = [sample_state(observation, rng) for _ in range(samples)]
    for state in states:
        assert all(state.kinds[c] != int(Kind.RED_THREE) for s in (1, 2, 3) for held in state.hands[s] for c in held)
    counts = _placements(hand, states)
    assert len(counts) == len(unseen) - red_threes
    # One card's places are one multinomial draw per sample: 3 degrees of freedom per card.
    critical = _chi_square_critical(3 * len(counts))
    assert _chi_square(counts, free, samples) < critical
    # The statistic does catch a sampler that is not uniform: one that always deals the true hands.
    assert _chi_square(_placements(hand, [hand] * samples), free, samples) > critical


def test_an_observation_not_built_by_the_engine_is_refused() -> None:
    observation = Game("classic", seed=1).observation(0)
    bare = attrs.evolve(observation, public=None)
    with pytest.raises(SamplingError, match="observation built by the engine"):
        sample_state(bare, random.Random(0))


def test_the_check_finds_an_inconsistent_sample() -> None:
    hand = Game("classic", seed=6).hand
    observation = hand.observation(0)
    sample = sample_state(observation, random.Random(1))
    # Swap a card of seat 0's own hand with a stock card: the seat would notice.
    own = next(c for held in sample.hands[0] for c in held if sample.kinds[c] >= int(Kind.FOUR))
    kind = sample.kinds[own]
    other = next(c for c in sample.stock if sample.kinds[c] != kind and sample.kinds[c] >= int(Kind.FOUR))
    sample.hands[0][kind].remove(own)
    sample.counts[0][kind] -= 1
    sample.hands[0][sample.kinds[other]].append(other)
    sample.counts[0][sample.kinds[other]] += 1
    sample.stock[sample.stock.index(other)] = own
    sample._legal = None
    assert "the seat's own hand changed" in inconsistencies(hand, 0, observation, sample)
    with pytest.raises(InvariantError):
        check_sample(hand, 0, observation, sample)
