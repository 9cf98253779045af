"""States of the OpenSpiel game ``python_canasta`` for its tests: after the deal, along a hand; the sequence games."""

from __future__ import annotations

import numpy as np
import pyspiel

from canasta.openspiel import SEED_BYTES, CanastaState


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


#: The sequence games' OpenSpiel games (built-in variants: game strings load them by name).
SEQUENCE_GAMES = ("samba", "bolivia", "brazilian")
