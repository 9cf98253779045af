"""The deal's shuffle (`canasta.hand.shuffled`) is the standard library's, draw for draw."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from canasta.hand import shuffled


@given(count=st.integers(min_value=0, max_value=330), seed=st.one_of(st.integers(), st.text(max_size=12)))
def test_shuffled_is_random_shuffle(count: int, seed: int | str) -> None:
    """The same order as ``Random.shuffle`` and the generator left in the same state (later draws agree)."""
    expected = list(range(count))
    reference = random.Random(seed)
    reference.shuffle(expected)
    rng = random.Random(seed)
    assert shuffled(count, rng) == expected
    assert rng.getstate() == reference.getstate()


def test_shuffled_orders_every_id_once() -> None:
    """A permutation of ``0 .. count - 1`` that moves cards (not the identity for a deck)."""
    order = shuffled(108, random.Random("0:0"))
    assert sorted(order) == list(range(108))
    assert order != list(range(108))


def test_shuffled_at_every_bit_length_boundary() -> None:
    """The same order on both sides of each power of two, where the bound's bit length changes."""
    for bits in range(11):
        for count in (2**bits - 1, 2**bits, 2**bits + 1):
            expected = list(range(count))
            random.Random(count).shuffle(expected)
            assert shuffled(count, random.Random(count)) == expected
