"""OpenSpiel observers of the canasta game: what one player may see, as a tensor and as text.

OpenSpiel asks a Python game for observers (``make_py_observer``); its
``observation_tensor`` and ``observation_string`` come from them. The tensor
is `canasta.rl.ObservationEncoder`'s vector (observer-relative seats and
sides, raw counts and points); the text is `canasta.openspiel.text.observation_text`
of `canasta.Observation`. Neither ever holds a card the player may not see.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from canasta.openspiel.config import GameConfig
from canasta.openspiel.play import HoldsPlay
from canasta.openspiel.text import observation_text

__all__ = ["BEFORE_THE_DEAL", "ObservationObserver"]

#: Every player's observation string before the cards are dealt (the chance node).
BEFORE_THE_DEAL = "before the deal"


class ObservationObserver:
    """OpenSpiel's default observer: a player's current view of the table.

    Args:
        config: The game's configuration.

    Attributes:
        tensor: The flat ``float32`` observation, overwritten by `set_from`
            (all zeros before the deal).
        dict: ``{"observation": tensor}`` (OpenSpiel's named pieces).
    """

    def __init__(self, config: GameConfig) -> None:
        self._encoder = config.encoder
        self.tensor: npt.NDArray[np.float32] = np.zeros(config.encoder.size, dtype=np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor}

    def set_from(self, state: HoldsPlay, player: int) -> None:
        """Write a player's view of a state into `tensor`.

        Args:
            state: The state.
            player: The observing player (seat).
        """
        play = state.play
        if play.game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self._encoder.encode(play.hand, player)

    def string_from(self, state: HoldsPlay, player: int) -> str:
        """A player's view of a state as text.

        Args:
            state: The state.
            player: The observing player (seat).

        Returns:
            The text (`BEFORE_THE_DEAL` before the deal).
        """
        play = state.play
        if play.game is None:
            return BEFORE_THE_DEAL
        return observation_text(play.hand.observation(player))
