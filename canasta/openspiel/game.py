"""The OpenSpiel game ``python_canasta``: `CanastaGame`, its game type and registration.

``pyspiel.load_game("python_canasta(variant=cuban)")`` makes one, for any
installed variant and house rules (see `canasta.openspiel.config` for the
parameters); `register` registers the name with OpenSpiel (importing
`canasta.openspiel` does it).
"""

from __future__ import annotations

from typing import Any

import pyspiel

from canasta.errors import CanastaError
from canasta.openspiel.config import DEFAULT_PARAMETERS, GameConfig
from canasta.openspiel.infostate import InformationStateObserver
from canasta.openspiel.observer import ObservationObserver
from canasta.openspiel.play import BYTE_OUTCOMES, SEED_BYTES, check_record_rules
from canasta.openspiel.state import CanastaState
from canasta.records import GameRecord, RecordError, loads_record
from canasta.registry import Registry

__all__ = ["GAME_NAME", "GAME_TYPE", "WHOLE_GAME_LENGTH", "CanastaGame", "register"]

#: The name OpenSpiel knows the game by.
GAME_NAME = "python_canasta"

#: ``max_game_length`` of a whole game played to a target: hands are dealt until a
#: side reaches it, and nothing bounds how many that takes, so this is OpenSpiel's
#: largest length, not a bound (a game of a fixed number of deals,
#: `canasta.GameLength.deals`, is bounded by that many hands).
WHOLE_GAME_LENGTH = 2**31 - 1


def _game_type(utility: Any, reward_model: Any, min_players: int, max_players: int) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Canasta",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=reward_model,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMETERS,
    )


#: The registered game type (the family: 2 to 6 players, general-sum); each
#: game's own type (``game.get_type()``) states its variant's utility and reward model.
GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM, pyspiel.GameType.RewardModel.REWARDS, 2, 6)


def hand_length_bound(deck_size: int, *, reshuffles: bool = False) -> int:
    """A bound on the number of actions in one hand, from the deck's size.

    Every turn starts with a stock draw (which takes at least one card from the
    stock) or a pile take (which melds at least the top card, for good), so a
    hand has at most twice as many turns as cards. A turn has at most a draw or
    take, a question, an answer and a discard, plus melds, each of which melds
    at least one card for good; one action may end the hand.

    Where the pile is reshuffled into a new stock (`canasta.ExhaustionRules.reshuffle_pile_at`:
    at least 3 cards, draws of at least 2), the stock and the pile together never
    grow in a turn, and shrink in every turn but a pile take and a one-card draw;
    a one-card draw empties the stock, and the stock comes back to one card only
    through a turn in which they shrink. So at most ``deck_size`` turns shrink them,
    at most ``deck_size + 1`` draw one card and at most ``deck_size`` take the pile.

    Args:
        deck_size: Cards in the deck.
        reshuffles: Whether the rules reshuffle the pile into a new stock.

    Returns:
        ``4 × 2 × deck_size + deck_size + 1``; with reshuffles,
        ``4 × (3 × deck_size + 1) + deck_size + 1``.
    """
    turns = 3 * deck_size + 1 if reshuffles else 2 * deck_size
    return 4 * turns + deck_size + 1


class CanastaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """``python_canasta``: one hand or a whole game of any variant, as an OpenSpiel game.

    Made by ``pyspiel.load_game("python_canasta(variant=...,house_rules=...,whole_game=...)")``
    or directly, ``CanastaGame({"variant": "cuban"})``.

    Args:
        params: Parameter values (see `canasta.openspiel.config.DEFAULT_PARAMETERS`).
        registry: The `canasta.Registry` to look the names up in (default: the
            process-wide one, the only one a game string reaches: register a plugin's
            variants there, `canasta.register_plugin`, to load them by name; states of a
            game built with another registry are cloned, but deserialized only where
            their variant is registered process-wide).

    Raises:
        canasta.openspiel.ParameterError: For an unknown parameter or a bad value.
        canasta.UnknownNameError: For an unknown variant or house rule.

    Attributes:
        config: The checked parameters, compiled rules and encodings.
    """

    def __init__(self, params: dict[str, Any] | None = None, *, registry: Registry | None = None) -> None:
        config = GameConfig(params, registry=registry)
        players = config.rules.players
        utility = pyspiel.GameType.Utility.ZERO_SUM if config.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        reward_model = (
            pyspiel.GameType.RewardModel.REWARDS if config.whole_game else pyspiel.GameType.RewardModel.TERMINAL
        )
        rules = config.rules
        hand_length = hand_length_bound(rules.deck.size, reshuffles=bool(rules.exhaustion.reshuffle_pile_at))
        deals = config.rules.game_length.deals
        if not config.whole_game:
            bound, length = float(config.utility_bound), hand_length
        elif deals is None:
            bound, length = float("inf"), WHOLE_GAME_LENGTH
        else:  # a game of a fixed number of deals: each hand's return and length are bounded
            bound, length = float(deals * config.utility_bound), min(WHOLE_GAME_LENGTH, deals * hand_length)
        info = pyspiel.GameInfo(
            num_distinct_actions=config.actions.size,
            max_chance_outcomes=BYTE_OUTCOMES,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if config.zero_sum else None,
            max_game_length=length,
        )
        super().__init__(_game_type(utility, reward_model, players, players), info, dict(config.parameters))
        self.config = config

    def new_initial_state(self) -> CanastaState:
        """The state before the deal (the first of `SEED_BYTES` chance nodes).

        Returns:
            The state.
        """
        return CanastaState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The chance nodes of any history: the deal's seed bytes.

        Returns:
            `SEED_BYTES`.
        """
        return SEED_BYTES

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> ObservationObserver | InformationStateObserver:
        """An observer for OpenSpiel: the information state (perfect recall) or the observation.

        Args:
            iig_obs_type: OpenSpiel's observation type (default: the observation).
            params: Observer parameters (none are known).

        Returns:
            An `InformationStateObserver` for ``perfect_recall=True``
            (``information_state_string`` / ``_tensor``), else an
            `ObservationObserver` (``observation_string`` / ``_tensor``).

        Raises:
            ValueError: For observer parameters, or an observation type other
                than the seat's own view (public and private information of the
                observing player).
        """
        if params:
            raise ValueError(f"the canasta observer takes no parameters, got {params!r}")
        if iig_obs_type is not None:
            if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise ValueError(
                    "python_canasta observes as one player: public information and that player's private information"
                )
            if iig_obs_type.perfect_recall:
                return InformationStateObserver(self.config)
        return ObservationObserver(self.config)

    def state_from_record(self, record: GameRecord | str) -> CanastaState:
        """The state a canasta record reaches, every action re-checked.

        Args:
            record: A `canasta.GameRecord` or its JSON text (validated as untrusted input).

        Returns:
            The state after the record's last action.

        Raises:
            canasta.RecordError: If the text is not a valid record, the record
                is of other rules or its seed is not a 64-bit deal, an action is
                illegal at its point, or actions follow the end of the game.
        """
        if isinstance(record, str):
            record = loads_record(record)
        check_record_rules(self.config, record)
        if not 0 <= record.seed < 2 ** (8 * SEED_BYTES):
            raise RecordError("seed", f"python_canasta deals from 64-bit seeds; the record's seed is {record.seed}")
        # Through OpenSpiel's apply_action, so that the state's history is the record's.
        state = self.new_initial_state()
        for i in range(SEED_BYTES):
            state.apply_action((record.seed >> (8 * i)) & 0xFF)
        ids = self.config.actions
        for index, action in enumerate(record.actions):
            if state.is_terminal():
                raise RecordError("actions", f"action {index} follows the end of the game", index=index)
            try:
                state.apply_action(ids.to_id(action))
            except CanastaError as exc:
                raise RecordError("actions", f"action {index} is illegal: {exc}", index=index) from None
        return state


def register() -> None:
    """Register ``python_canasta`` with OpenSpiel (once per process; importing `canasta.openspiel` does it)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, CanastaGame)
