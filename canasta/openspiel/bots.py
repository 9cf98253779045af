"""The library's own bots as OpenSpiel bots: `LibraryBot`.

OpenSpiel plays bots against each other through ``pyspiel.Bot`` (for example
``open_spiel.python.algorithms.evaluate_bots``); `LibraryBot` wraps a
`canasta.Bot` (a `canasta.make_bot` name such as ``"random"``, ``"greedy"`` or
``"ismcts:200"``, or any object with ``choose``) so
that OpenSpiel's MCTS and ISMCTS bots can play against it.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from canasta.bots import Bot, make_bot
from canasta.openspiel.state import CanastaState

__all__ = ["LibraryBot"]


class LibraryBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no type information
    """A `canasta.Bot` playing ``python_canasta`` through OpenSpiel's bot interface.

    Args:
        bot: A bot name of `canasta.make_bot` (``"random"``, ``"greedy"``,
            ``"ismcts:200"``) or a bot.
        seed: The seed of a bot made by name.

    Attributes:
        bot: The canasta bot.
    """

    def __init__(self, bot: Bot | str = "greedy", seed: object = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot: Bot = make_bot(bot, seed) if isinstance(bot, str) else bot

    def step(self, state: CanastaState) -> int:
        """The bot's action id for the acting seat.

        Args:
            state: A ``python_canasta`` state at a player's node.

        Returns:
            The id (`canasta.rl.ActionSpace`) of the bot's choice.
        """
        seat = state.current_player()
        return int(state.play.config.actions.to_id(self.bot.choose(state.hand, seat)))

    def restart_at(self, state: Any) -> None:
        """Start a new game at ``state``: the canasta bots keep nothing between moves."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Be told another player's action: the canasta bots read the table instead."""
