"""A PettingZoo AEC environment for any variant and house rules.

One episode is one game (or its first ``max_hands`` hands). Agents are
``"player_0"`` .. ``"player_{n-1}"``, one per seat; ``agent_selection`` always
names the seat the engine says must act, which is not always the next seat:
a "may I go out?" question hands the turn to the partner for the answer, then
back (rule book: "Going out").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from canasta.game import Game
from canasta.plugins import chosen_rules
from canasta.registry import Registry
from canasta.rl.actions import ActionSpace
from canasta.rl.observations import ObservationEncoder
from canasta.rl.rewards import RewardMode, check_episode_options, game_rewards, hand_rewards
from canasta.rules import Rules
from canasta.seeds import check_seed

__all__ = ["CanastaEnv", "RewardMode", "env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


class CanastaEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """Canasta as a PettingZoo AEC environment.

    Observations are dicts: ``"observation"``, the observer-relative
    ``float32`` vector of `canasta.rl.ObservationEncoder`, and
    ``"action_mask"``, an ``int8`` vector over the ids of
    `canasta.rl.ActionSpace` (all zeros for an agent that is not to act).
    Actions are ids (``Discrete(size)``, id layout version
    `canasta.rl.ACTION_SPACE_VERSION`, or a later one where the rules need it:
    ``action_encoding.version``). An id that is illegal now raises
    `canasta.IllegalActionError` (an id outside the space,
    `canasta.rl.ActionSpaceError`) and changes nothing: mask your policy.

    Rewards, for every agent, given on the step that earns them:

    - ``reward="hand"``: at the end of each hand, the hand's score of the
      agent's side minus the best hand score among the sides that played
      against it in that hand (raw points; partners share a side and so a
      reward; players a partnership rule joins up for the hand, as in
      cutthroat, are not each other's opponents).
    - ``reward="game"``: at the end of the game, +1 if the agent's side alone
      has the highest total, −1 if another side is ahead of it, 0 if it ties
      for the lead (and 0 for every agent on truncation).

    The episode terminates when the game ends, and is truncated after
    ``max_hands`` finished hands if that is set (``max_hands=1`` makes each
    episode one hand).

    Args:
        variant: Variant name (see `canasta.available_variants`).
        house_rules: House-rule names stacked on it.
        reward: ``"hand"`` or ``"game"``.
        max_hands: Truncate the episode after this many hands (``None``: play the game out).
        render_mode: ``None``, ``"ansi"`` (`render` returns text) or ``"human"`` (prints it).
        rules: Already compiled rules (then the names are not looked up).
        players: The number of players, one the variant plays (``None``: the
            variant's default; see `canasta.Game`). With ``rules``, it must be theirs.
        registry: The `canasta.Registry` to look the names up in (default: the
            process-wide one; a plugin's variants registered in another).

    Raises:
        canasta.RulesError: If the variant does not play ``players`` players,
            or ``rules`` are for another count.

    Attributes:
        rules: The compiled rules.
        action_encoding: The `canasta.rl.ActionSpace` of the ids.
        observation_encoder: The `canasta.rl.ObservationEncoder` of the observations.
        game: The game in play (``None`` before `reset`).
        reward_mode: The reward mode.
        max_hands: The truncation limit, if any.
        render_mode: The render mode.
    """

    # The name's version follows PettingZoo's convention: it changes when trained agents
    # would not carry over (v1: action ids of ActionSpace version 2, no take-back).
    metadata: dict[str, Any] = {  # noqa: RUF012 - pettingzoo's convention
        "name": "canasta_v1",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        house_rules: Sequence[str] = (),
        *,
        reward: RewardMode = "hand",
        max_hands: int | None = None,
        render_mode: str | None = None,
        rules: Rules | None = None,
        players: int | None = None,
        registry: Registry | None = None,
    ) -> None:
        super().__init__()
        check_episode_options(reward, max_hands)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.rules: Rules = chosen_rules(variant, house_rules, rules, players, registry=registry)
        self.reward_mode: RewardMode = reward
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.action_encoding = ActionSpace(self.rules)
        self.observation_encoder = ObservationEncoder(self.rules)
        self.possible_agents: list[str] = [f"player_{i}" for i in range(self.rules.players)]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        encoder = self.observation_encoder
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(encoder.low, encoder.high, shape=(encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.action_encoding.size,), dtype=np.int8),
            }
        )
        action_space = spaces.Discrete(self.action_encoding.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self.game: Game | None = None
        self._seeds = random.Random()
        self._hands_played = 0
        self._paid = False  # whether `rewards` holds a payment of the last step (else all zeros)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of an agent (the same object on every call).

        Args:
            agent: An agent name.

        Returns:
            A ``Dict`` space with ``"observation"`` and ``"action_mask"``.
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of an agent (the same object on every call).

        Args:
            agent: An agent name.

        Returns:
            ``Discrete(size)`` of the action ids.
        """
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        Args:
            seed: Seed of the game (``reset(seed=s)`` plays ``canasta.Game(..., seed=s)``):
                an integer, ``|seed| < 2**64``, numpy integers too (`canasta.seeds`);
                without one, the next seed comes from the last seed given.
            options: Ignored (accepted for the PettingZoo API).

        Raises:
            SeedError: If ``seed`` is not an integer (``bool`` is not) or is out of
                range; the environment is unchanged.
        """
        if seed is not None:
            game_seed = check_seed(seed)  # before anything changes
            self._seeds.seed(game_seed)
        else:
            game_seed = self._seeds.randrange(2**32)
        self.game = Game(rules=self.rules, seed=game_seed)
        self._hands_played = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.seat]
        self._end_if_over(0)

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def observe(self, agent: str) -> Observation:
        """What an agent may see now.

        Args:
            agent: An agent name.

        Returns:
            ``{"observation": float32 vector, "action_mask": int8 vector}``.
        """
        game = self._game()
        seat = self._seat_of[agent]
        if agent == self.agent_selection and not game.is_over and not self._ended(agent):
            mask = self.action_encoding.legal_mask(game.hand).view(np.int8)  # a view: 0 and 1 either way
        else:
            mask = np.zeros(self.action_encoding.size, dtype=np.int8)
        return {"observation": self.observation_encoder.encode(game.hand, seat), "action_mask": mask}

    def _ended(self, agent: str) -> bool:
        return self.terminations.get(agent, True) or self.truncations.get(agent, True)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the selected agent's action id.

        Args:
            action: An id of `action_encoding`; ``None`` for an agent that is
                terminated or truncated (PettingZoo's protocol).

        Raises:
            canasta.rl.ActionSpaceError: If the id is not in the space.
            canasta.IllegalActionError: If the action is illegal now (nothing changes).
        """
        agent = self.agent_selection
        if self._ended(agent):
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None:
            raise ValueError(f"{agent} must act: None is only for terminated or truncated agents")
        finished_before = len(game.results)
        hand = game.hand  # kept: when the hand ends, the game deals a new one
        # The engine's own action object: `apply` then skips re-checking it.
        game.apply(self.action_encoding.legal_action(game, action))  # raises before changing anything
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # only a step that ended a hand or the game paid anything
            self._paid = False
            rewards = self.rewards
            for name in rewards:
                rewards[name] = 0.0
        results = game.results  # (read after the move: a tuple, replaced when a hand ends)
        new_results = results[finished_before:] if len(results) != finished_before else ()
        if new_results:
            self._hands_played += len(new_results)
            if self.reward_mode == "hand":
                for result in new_results:
                    self._add_rewards(hand_rewards(self.rules, result, hand.seating))
        self.agent_selection = self.possible_agents[game.seat]
        if new_results or game.is_over:
            self._end_if_over(len(new_results))
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _add_rewards(self, per_seat: Sequence[float]) -> None:
        self._paid = True
        for agent in self.agents:
            self.rewards[agent] += per_seat[self._seat_of[agent]]

    def _end_if_over(self, new_hands: int) -> None:
        game = self._game()
        if game.is_over:
            for agent in self.agents:
                self.terminations[agent] = True
            if self.reward_mode == "game":
                self._add_rewards(game_rewards(self.rules, game.scores, game.winners()))
        elif new_hands and self.max_hands is not None and self._hands_played >= self.max_hands:
            for agent in self.agents:
                self.truncations[agent] = True

    def render(self) -> str | None:
        """Describe the table as the acting seat sees it.

        Returns:
            The text in ``"ansi"`` mode; ``None`` otherwise (``"human"`` prints it).
        """
        if self.render_mode is None or self.game is None:
            return None
        game = self.game
        view = game.observation(game.seat)
        lines = [
            f"{self.rules.variant}: hand {game.hand_number + 1}, scores {list(game.scores)}",
            f"seat {view.acting_seat} to act ({view.phase}); stock {view.stock_size}, "
            f"pile {len(view.pile)} (top {view.pile[-1] if view.pile else '-'}, "
            f"{'frozen' if view.pile_frozen else 'not frozen'})",
            f"hand: {' '.join(str(c) for c in view.hand)}",
        ]
        for side, melds in enumerate(view.melds):
            shown = ", ".join(" ".join(str(c) for c in m.cards) for m in melds) or "-"
            lines.append(f"side {side} melds: {shown}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Release nothing (the environment holds no outside resources)."""


class _OrderEnforcingWrapper(OrderEnforcingWrapper):  # type: ignore[misc]  # pettingzoo ships no type information
    """PettingZoo's order-enforcing wrapper, with `last` and `step` going straight to the env.

    The base wrapper's `last` reads five attributes through ``__getattr__``
    forwarding on every step, and its agent iterator two more; this one checks the
    order exactly as PettingZoo does and then asks the `CanastaEnv` itself.
    """

    @property
    def agents(self) -> list[str]:
        """The live agents (an `AttributeError` before `reset`, as PettingZoo's wrapper has it)."""
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        """The agent that must act (an `AttributeError` before `reset`, as PettingZoo's wrapper has it)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, termination, truncation and info.

        Args:
            observe: Whether to compute the observation (``None`` if not).

        Returns:
            PettingZoo's ``(observation, reward, terminated, truncated, info)``.
        """
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the selected agent's action id (see `CanastaEnv.step`).

        Args:
            action: An action id, or ``None`` for a terminated or truncated agent.
        """
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:  # PettingZoo's own order checks, in its order
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)


def raw_env(
    variant: str = "classic",
    house_rules: Sequence[str] = (),
    *,
    reward: RewardMode = "hand",
    max_hands: int | None = None,
    render_mode: str | None = None,
    rules: Rules | None = None,
    players: int | None = None,
    registry: Registry | None = None,
) -> CanastaEnv:
    """The unwrapped environment (see `CanastaEnv` for the arguments).

    Args:
        variant: Variant name.
        house_rules: House-rule names.
        reward: ``"hand"`` or ``"game"``.
        max_hands: Truncate after this many hands.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        rules: Already compiled rules.
        players: The number of players (``None``: the variant's default).
        registry: The `canasta.Registry` to look the names up in (default: the process-wide one).

    Returns:
        The environment.
    """
    return CanastaEnv(
        variant,
        house_rules,
        reward=reward,
        max_hands=max_hands,
        render_mode=render_mode,
        rules=rules,
        players=players,
        registry=registry,
    )


def env(
    variant: str = "classic",
    house_rules: Sequence[str] = (),
    *,
    reward: RewardMode = "hand",
    max_hands: int | None = None,
    render_mode: str | None = None,
    rules: Rules | None = None,
    players: int | None = None,
    registry: Registry | None = None,
) -> Any:
    """The environment wrapped in PettingZoo's order-enforcing wrapper (the usual entry point).

    Args:
        variant: Variant name (see `canasta.available_variants`).
        house_rules: House-rule names stacked on it.
        reward: ``"hand"`` (score difference per hand) or ``"game"`` (+1/−1/0).
        max_hands: Truncate the episode after this many hands.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        rules: Already compiled rules (then the names are not looked up).
        players: The number of players, one the variant plays (``None``: the variant's default).
        registry: The `canasta.Registry` to look the names up in (default: the process-wide one).

    Returns:
        A PettingZoo ``AECEnv``; ``.unwrapped`` is the `CanastaEnv`.
    """
    return _OrderEnforcingWrapper(
        raw_env(
            variant,
            house_rules,
            reward=reward,
            max_hands=max_hands,
            render_mode=render_mode,
            rules=rules,
            players=players,
            registry=registry,
        )
    )
