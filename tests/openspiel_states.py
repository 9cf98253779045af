"""States of the OpenSpiel game ``python_canasta`` for its tests: after the deal, along a hand; the sequence games."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pyspiel
import sequence_variants

import canasta.registry
from canasta.openspiel import SEED_BYTES, CanastaState
from canasta.registry import Registry


def dealt(game: pyspiel.Game, seed: int = 1) -> CanastaState:
    """A state right after the deal, from the canasta seed ``seed`` (its chance bytes, low first)."""
    state = game.new_initial_state()
    for i in range(SEED_BYTES):
        assert state.is_chance_node()
        state.apply_action((seed >> (8 * i)) & 0xFF)
    return state


def random_states(game: pyspiel.Game, seed: int, every: int) -> list[CanastaState]:
    """Every ``every``-th state of a random hand from seed ``seed`` (clones), and its end."""
    state = dealt(game, seed)
    rng = np.random.RandomState(seed)
    states = []
    while not state.is_terminal():
        if len(state.history()) % every == 0:
            states.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return [*states, state]


#: The sequence games' OpenSpiel games (the variants of ``tests/sequence_variants.py``, not installed).
SEQUENCE_GAMES = ("samba", "bolivia", "brazilian")


@contextmanager
def sequence_games_registered() -> Iterator[Registry]:
    """While inside, the process-wide registry holds the sequence games, so that game strings load them.

    ``pyspiel.load_game("python_canasta(variant=samba)")`` and the deserialization of
    a state look names up in the process-wide registry (`canasta.register_plugin`
    is how an application adds a plugin's variants there); the previous registry
    is put back on the way out, so that other tests see the built-in variants only.
    """
    before = canasta.registry._DEFAULT
    registry = sequence_variants.registry()
    canasta.registry._DEFAULT = registry
    try:
        yield registry
    finally:
        canasta.registry._DEFAULT = before
