"""A state of the OpenSpiel canasta game: `CanastaState`.

Player ids are seats. The first `SEED_BYTES` nodes are chance nodes: each
chooses one byte of the canasta game's 64-bit seed, uniformly, and the last
one deals (``canasta.Game(..., seed=seed)``; see `canasta.openspiel` for why).
After them, the acting seat's legal actions are the fixed ids of
`canasta.rl.ActionSpace`, exactly the engine's legal actions; later hands of a
whole game are dealt from the same canasta seed, as `canasta.Game` deals them.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from canasta.determinize import sample_state
from canasta.errors import CanastaError
from canasta.hand import HandState
from canasta.openspiel.config import ConfiguredGame
from canasta.openspiel.play import BYTE_OUTCOMES, SEED_BYTES, TERMINAL, Play
from canasta.openspiel.text import table_text
from canasta.records import GameRecord

__all__ = ["BYTE_OUTCOMES", "SEED_BYTES", "CanastaState", "ChanceError"]

_BYTE_PROBABILITY = 1.0 / BYTE_OUTCOMES
_BYTE_OUTCOMES = [(b, _BYTE_PROBABILITY) for b in range(BYTE_OUTCOMES)]


class ChanceError(CanastaError, ValueError):
    """A chance outcome that is not a byte, or a chance question asked after the deal."""


class CanastaState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A state of ``python_canasta``: the deal (chance nodes), then the hand or game in play.

    Use it through OpenSpiel's API (``current_player``, ``legal_actions``,
    ``apply_action``, ``returns``, ``clone``, ``serialize`` ...). An id that is
    not legal raises `canasta.IllegalActionError` (an id outside the action
    space, `canasta.rl.ActionSpaceError`) from ``apply_action`` and changes
    nothing; OpenSpiel's ``apply_action_with_legality_check`` refuses it first.

    Args:
        game: The OpenSpiel game (`CanastaGame`).
    """

    def __init__(self, game: ConfiguredGame) -> None:
        super().__init__(game)
        # The only attribute: OpenSpiel's clone deep-copies it, serialize pickles it (see Play).
        self._play = Play(game.config)

    # --- the canasta side ----------------------------------------------------------------

    @property
    def play(self) -> Play:
        """The canasta game in play, with its bookkeeping (read it; change it only through ``apply_action``)."""
        return self._play

    @property
    def hand(self) -> HandState:
        """The hand in play (the finished hand once a one-hand game is over).

        Raises:
            ValueError: Before the deal.
        """
        return self._play.hand

    def record(self) -> GameRecord:
        """The canasta JSON record of the game so far (`canasta.GameRecord`).

        ``game.state_from_record(state.record())`` rebuilds the state, every
        action re-checked; `canasta.save_record` writes it for ``canasta replay``.

        Returns:
            The record.

        Raises:
            ValueError: Before the deal.
        """
        return self._play.record()

    # --- OpenSpiel's state API -----------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` until the deal, ``PlayerId.TERMINAL`` at the end.

        Returns:
            The player id.
        """
        return self._play.player

    def _legal_actions(self, player: int) -> list[int]:
        """The acting seat's legal action ids, ascending (OpenSpiel asks only for the acting seat).

        Args:
            player: The acting seat.

        Returns:
            The ids (`canasta.rl.ActionSpace`).
        """
        play = self._play
        return sorted(play.config.actions.legal_ids(play.hand))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of a chance node: the seed's next byte, each of the 256 equally likely.

        Returns:
            ``[(0, 1/256), ..., (255, 1/256)]``.

        Raises:
            ChanceError: After the deal (no chance node follows it).
        """
        if self._play.game is not None:
            raise ChanceError("only the deal has chance nodes, and the cards are dealt")
        return _BYTE_OUTCOMES[:]

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome (a seed byte) or a player's action id.

        Args:
            action: A byte at a chance node, else an action id.

        Raises:
            ChanceError: For a chance outcome that is not a byte.
            canasta.rl.ActionSpaceError: For an id outside the action space.
            canasta.IllegalActionError: For an action that is not legal now.
        """
        play = self._play
        if play.game is None:
            play.choose_seed_byte(_byte(action))
            return
        play.apply(play.config.actions.to_action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """An action id in words (the engine's description of the action).

        Args:
            player: The acting player (``PlayerId.CHANCE`` for a seed byte).
            action: The id.

        Returns:
            For example ``"meld 2×K + 1×joker (kings)"``; ``"seed byte 37"`` for a chance outcome.
        """
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {_byte(action)}"
        return str(self._play.config.actions.to_action(action))

    def is_terminal(self) -> bool:
        """Whether the game (or its one hand) is over.

        Returns:
            True at the end.
        """
        return self._play.player == TERMINAL

    def returns(self) -> list[float]:
        """Each player's points so far (see `canasta.openspiel` for zero-sum and general-sum returns).

        Returns:
            One return per seat.
        """
        return self._play.returns()

    def rewards(self) -> list[float]:
        """Each player's points from the last action (non-zero only when a hand ended).

        Returns:
            One reward per seat.
        """
        return list(self._play.rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CanastaState:
        """A state the player cannot tell from this one: its hidden cards dealt again.

        The player's information state (``information_state_string(player_id)``)
        is unchanged; the other hands and the stock are dealt again by
        `canasta.sample_state`, uniformly among the deals consistent with what
        the player knows, and the later hands of a whole game get a new seed.
        OpenSpiel's ISMCTS calls this for every simulation.

        Args:
            player_id: The seat whose information state is kept.
            probability_sampler: OpenSpiel's sampler (a callable returning
                floats in ``[0, 1)``, such as ``pyspiel.UniformProbabilitySampler``);
                it seeds the sample.

        Returns:
            The new state (its history is this state's; it cannot be serialized:
            a sampled hand has no record).

        Raises:
            canasta.SamplingError: If no consistent deal was found.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        play = self._play
        state: CanastaState = self.clone()
        if play.game is None:
            # Before the deal no player has seen anything: any seed bytes will do.
            state._play.seed_bytes = [rng.randrange(BYTE_OUTCOMES) for _ in play.seed_bytes]
            return state
        if play.player == TERMINAL:
            return state  # nothing is left to play: the hidden cards change nothing
        sample = sample_state(play.hand.observation(player_id), rng)
        state._play = play.resampled(sample, player_id, rng.randrange(2**63))
        return state

    def __str__(self) -> str:
        play = self._play
        if play.game is None:
            return f"before the deal; seed bytes {play.seed_bytes}"
        game = play.game
        # A one-hand game is over after its first hand (the game has dealt the next, unplayed).
        number = play.hand_offset + (game.hand_number + 1 if play.final_hand is None else len(game.results))
        head = f"hand {number}; scores {list(game.scores)}; seed {game.seed}"
        return head + "\n" + table_text(play.hand)


def _byte(action: object) -> int:
    """A chance outcome, checked: a seed byte."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < BYTE_OUTCOMES:
        raise ChanceError(f"a chance outcome is a seed byte, 0 to {BYTE_OUTCOMES - 1}; got {action!r}")
    return action
