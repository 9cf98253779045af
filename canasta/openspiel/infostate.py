"""A player's information state in the OpenSpiel game: text and tensor.

The information state is the seat's `canasta.Observation`, which holds the
information state of the hand (the cards known to be in each hand, the public
action log), plus what only that seat saw happen: the cards it drew (and any
bonus cards it received), action by action. With the hand number and the
scores, that is everything the seat has observed in the hand, in order:
OpenSpiel's perfect recall, within the hand. Earlier hands of a whole game
enter only through the scores (their play does not change what is legal or
how the hand scores).

- `information_state_text`: OpenSpiel's ``information_state_string``: the
  observation text, then the hand's action log, one line per action, the
  seat's own draws with the cards it drew.
- `InformationStateObserver`: OpenSpiel's ``information_state_tensor``: the
  `canasta.rl.ObservationEncoder` vector (which holds the known cards), then
  per seat (observer first, in turn order) the kinds it discarded this hand,
  then the kinds of the cards the observer drew unseen this hand (in rule sets
  with meld types, the sequence games, by rank and suit: 48 entries a kind
  count, `canasta.rl.seqobservations.SUITED_KINDS`). A summary of
  the log, not every action: a fixed-size tensor of a hand's every action would
  be about a thousand actions by a thousand ids.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from canasta.actions import Discard
from canasta.cards import KIND_COUNT
from canasta.openspiel.config import GameConfig
from canasta.openspiel.observer import BEFORE_THE_DEAL
from canasta.openspiel.play import HoldsPlay, Play
from canasta.openspiel.text import observation_text
from canasta.rl.seqobservations import SUITED_KINDS, suited_kind

__all__ = ["InformationStateObserver", "information_state_text"]


def information_state_text(play: Play, player: int) -> str:
    """A player's information state as text (OpenSpiel's ``information_state_string``).

    Args:
        play: The state's play.
        player: The seat.

    Returns:
        The text (`canasta.openspiel.observer.BEFORE_THE_DEAL` before the deal).
    """
    game = play.game
    if game is None:
        return BEFORE_THE_DEAL
    hand = play.hand
    cards = hand.deck.cards
    drew = dict(play.private[player])
    number = play.hand_offset + (game.hand_number + 1 if play.final_hand is None else len(game.results))
    lines = [f"hand {number}", observation_text(hand.observation(player)), "log:"]
    for index, (seat, action) in enumerate(hand.log):
        seen = drew.get(index) if seat == player else None
        got = f" (got {' '.join(cards[c].code for c in seen)})" if seen else ""
        lines.append(f"{seat}: {action}{got}")
    return "\n".join(lines)


class InformationStateObserver:
    """OpenSpiel's perfect-recall observer: a player's information state.

    Args:
        config: The game's configuration.

    Attributes:
        tensor: The flat ``float32`` information state, overwritten by `set_from`
            (all zeros before the deal).
        dict: ``{"observation": ..., "discards": ..., "drawn": ...}``, views of `tensor`.
    """

    def __init__(self, config: GameConfig) -> None:
        self._encoder = config.encoder
        self._players = players = config.rules.players
        self._suited = suited = bool(config.rules.meld_types)
        self._kinds = kinds = SUITED_KINDS if suited else KIND_COUNT
        size = config.encoder.size
        self.tensor: npt.NDArray[np.float32] = np.zeros(size + (players + 1) * kinds, dtype=np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            "observation": self.tensor[:size],
            "discards": self.tensor[size : size + players * kinds],
            "drawn": self.tensor[size + players * kinds :],
        }

    def set_from(self, state: HoldsPlay, player: int) -> None:
        """Write a player's information state into `tensor`.

        Args:
            state: The state.
            player: The observing seat.
        """
        play = state.play
        self.tensor.fill(0.0)
        if play.game is None:
            return
        hand = play.hand
        self.dict["observation"][:] = self._encoder.encode(hand, player)
        discards = self.dict["discards"]
        players = self._players
        width = self._kinds
        suited = self._suited
        for seat, action in hand.log:
            if type(action) is Discard:
                entry = suited_kind(action.kind, action.suit) if suited else action.kind
                discards[((seat - player) % players) * width + entry] += 1.0
        drawn = self.dict["drawn"]
        kinds = hand.kinds
        cards = hand.deck.cards
        for _, seen in play.private[player]:
            for card in seen:
                drawn[suited_kind(kinds[card], cards[card].suit) if suited else kinds[card]] += 1.0

    def string_from(self, state: HoldsPlay, player: int) -> str:
        """A player's information state as text (`information_state_text`).

        Args:
            state: The state.
            player: The observing seat.

        Returns:
            The text.
        """
        return information_state_text(state.play, player)
