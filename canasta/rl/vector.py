"""N games of one rule set stepped at once, with arrays in and out (Gymnasium's vector API).

Canasta is a turn-based game for several seats, so each step takes one action
per game, for the seat that must act in it (``infos["seat"]``), and every
array has one row per game. A game that ends (or reaches ``max_hands``) is
reset in the same step with its next seed (Gymnasium's ``SAME_STEP``
autoreset): the row then holds the new game's first decision, and the step's
rewards still hold what the ended game paid out.

Each game is exactly the game `canasta.rl.CanastaEnv` plays from the same
seed: same deals, same observations and masks, same rewards, same next seed
after a reset.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymnasiumVectorEnv
from gymnasium.vector.utils import batch_space

from canasta.actions import Action
from canasta.errors import IllegalActionError
from canasta.game import Game
from canasta.hand import HandState
from canasta.plugins import chosen_rules
from canasta.registry import Registry
from canasta.rl.actions import ActionSpace, ActionSpaceError
from canasta.rl.observations import ObservationEncoder
from canasta.rl.rewards import RewardMode, check_episode_options, game_rewards, hand_rewards
from canasta.rl.seqobservations import write_sequence_view
from canasta.rules import Rules
from canasta.scoring import HandScore
from canasta.seeds import check_seed
from canasta.viewvalues import apply_and_observe, chosen_actions, legal_ids_of, write_rows

__all__ = ["VectorEnv", "random_legal_ids"]

_SEED_LIMIT = 2**32


def random_legal_ids(action_mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One uniformly random legal id per row of a batch of masks (a random agent, in numpy).

    Args:
        action_mask: Boolean (or 0/1) masks of shape ``(N, A)``, each row with at least one legal id.
        rng: The random generator.

    Returns:
        ``N`` ids, ``ids[i]`` drawn uniformly from the True entries of row ``i``.

    Raises:
        ValueError: If the masks are not two-dimensional or a row has no legal id.
    """
    mask = np.asarray(action_mask, dtype=np.bool_)
    if mask.ndim != 2:
        raise ValueError(f"action_mask must have shape (N, A), got {mask.shape}")
    n, size = mask.shape
    # The flat indices of the legal ids, row after row; one draw per row among its own.
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // size, minlength=n)
    if not counts.all():
        raise ValueError(f"row {int(np.flatnonzero(counts == 0)[0])} of action_mask has no legal id")
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(n) * counts).astype(np.int64)
    chosen: npt.NDArray[np.int64] = (flat[picks] - np.arange(n) * size).astype(np.int64)
    return chosen


class VectorEnv(GymnasiumVectorEnv):
    """``num_envs`` games of one variant, stepped together (Gymnasium vector API, ``SAME_STEP`` autoreset).

    `reset` returns ``(observations, infos)`` and `step` returns
    ``(observations, rewards, terminations, truncations, infos)``:

    - observations, ``(N, obs_size)`` ``float32``: what the acting seat of
      each game sees (`canasta.rl.ObservationEncoder`, relative to that seat);
    - ``infos["seat"]``, ``(N,)`` ``int64``: the seat that must act in each game;
    - ``infos["action_mask"]``, ``(N, A)`` ``bool``: its legal ids (`canasta.rl.ActionSpace`);
    - rewards, ``(N, players)`` ``float32``: what this step paid each seat of
      each game (as `canasta.rl.CanastaEnv` pays it);
    - terminations, ``(N,)`` ``bool``: the game ended on this step;
    - truncations, ``(N,)`` ``bool``: the game reached ``max_hands`` on this step;
    - ``infos["final_obs"]``, ``(N, obs_size)`` ``float32``, only on a step
      where a game ended: its last state as the seat that acted last sees it
      (``infos["_final_obs"]`` marks those rows; the others are zero).

    Rewards are per seat because in a game for several seats every seat is
    paid when a hand ends, not only the one that acted: ``rewards[i, s]``
    is the reward of seat ``s`` of game ``i``.

    Seeding: ``reset(seed=s)`` gives game ``i`` the seed ``s + i`` (a list
    gives each game its own); after a game ends, its next seed comes from a
    ``random.Random`` seeded with its last given seed, as `canasta.rl.CanastaEnv`
    does, so every game replays exactly through the single env. Without a
    seed the seeds are random.

    `step` checks the whole batch before changing anything: an id outside the
    space raises `canasta.rl.ActionSpaceError`, an id that is illegal in its
    game raises `canasta.IllegalActionError` with the rule it breaks and the
    game's index, and then no game has moved.

    Args:
        num_envs: Number of games (at least 1).
        variant: Variant name (see `canasta.available_variants`).
        house_rules: House-rule names stacked on it.
        reward: ``"hand"`` (score difference per hand) or ``"game"`` (+1/−1/0).
        max_hands: Truncate (and reset) a game after this many hands (``None``: play it out).
        rules: Already compiled rules (then the names are not looked up).
        players: The number of players, one the variant plays (``None``: the
            variant's default; see `canasta.Game`). With ``rules``, it must be theirs.
        copy: Return copies of the arrays (default); ``False`` returns the env's
            own buffers, overwritten by the next call (faster; read them before stepping).
        registry: The `canasta.Registry` to look the names up in (default: the process-wide one).

    Rule sets with meld types (`canasta.Rules.meld_types`: the sequence games)
    have the sequence games' ids (`canasta.rl.SequenceActionSpace`, 1,105,784)
    and observations (version `canasta.rl.SEQUENCES_OBSERVATION_VERSION`),
    stepped and observed in Python (`canasta.rl.seqobservations`); each step
    sets and clears only the ids that change in the ``(N, A)`` mask, but with
    ``copy=True`` the mask is copied whole (``N × A`` bytes): ``copy=False`` saves that.

    Attributes:
        num_envs: Number of games.
        rules: The compiled rules.
        action_encoding: The `canasta.rl.ActionSpace` of the ids.
        observation_encoder: The `canasta.rl.ObservationEncoder` of the observations.
        games: The games in play (``None`` before `reset`).
        reward_mode: The reward mode.
        max_hands: The truncation limit, if any.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - gymnasium's convention

    def __init__(
        self,
        num_envs: int,
        variant: str = "classic",
        house_rules: Sequence[str] = (),
        *,
        reward: RewardMode = "hand",
        max_hands: int | None = None,
        rules: Rules | None = None,
        copy: bool = True,
        players: int | None = None,
        registry: Registry | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer of at least 1, got {num_envs!r}")
        check_episode_options(reward, max_hands)
        self.num_envs = num_envs
        self.rules: Rules = chosen_rules(variant, house_rules, rules, players, registry=registry)
        self.reward_mode: RewardMode = reward
        self.max_hands = max_hands
        self.copy = copy
        self.action_encoding = ActionSpace(self.rules)
        self.observation_encoder = ObservationEncoder(self.rules)
        encoder = self.observation_encoder
        self.single_observation_space = spaces.Box(encoder.low, encoder.high, shape=(encoder.size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.action_encoding.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.games: list[Game] | None = None
        players = self.rules.players
        self._seeds = [random.Random() for _ in range(num_envs)]
        self._hands_played = [0] * num_envs
        self._obs = np.zeros((num_envs, encoder.size), dtype=np.float32)
        self._masks = np.zeros((num_envs, self.action_encoding.size), dtype=np.bool_)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._rewards = np.zeros((num_envs, players), dtype=np.float32)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        # Kept for `step`: each game's legal list (the engine caches it until the state
        # changes) and its ids, in the same order.
        self._legal: list[tuple[Action, ...]] = [() for _ in range(num_envs)]
        self._flat: list[int] = []  # game i's legal ids: self._flat[self._starts[i]:...] - i * size
        self._starts = [0] * (num_envs + 1)
        # For `_observe`, read once: the layouts and the identity memo stay the same objects.
        self._layouts = encoder.layouts
        # The rows, as bytes (each step overwrites every row), and one row of zeros to write
        # each view in (see canasta.viewvalues.write_rows).
        self._rows = bytearray(num_envs * encoder.size)
        self._scratch = bytearray(encoder.size)
        self._ids_by_identity = self.action_encoding.ids_by_identity
        self._chosen: list[Action | None] = [None] * num_envs
        # Rule sets with meld types: rows written in Python, and the mask's set entries cleared one by one.
        self._sequence_layouts = encoder.sequence_layouts
        self._set_in_mask: list[int] = []

    def __repr__(self) -> str:
        return f"canasta.rl.VectorEnv({self.num_envs}, {self.rules.variant!r})"

    # --- the API -----------------------------------------------------------------------

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start a new game in every slot.

        Args:
            seed: ``s``: game ``i`` gets seed ``s + i``; a sequence: one seed per game;
                ``None``: each game's next seed from its own generator (random at first).
            options: Ignored (accepted for the Gymnasium API).

        Returns:
            ``(observations, infos)`` (see the class text).

        Raises:
            SeedError: If a seed is not an integer (``bool`` is not; numpy integers are)
                or ``s + i`` is out of range (`canasta.seeds`); nothing changes.
            ValueError: If a seed sequence has the wrong length.
        """
        seeds = self._reset_seeds(seed)
        self.games = [self._new_game(i, s) for i, s in enumerate(seeds)]
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        self._observe_all()
        return self._out(self._obs), self._infos(None)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Apply one action id per game (for the seat in ``infos["seat"]``), then autoreset ended games.

        Args:
            actions: ``N`` action ids (a sequence or an integer array).

        Returns:
            ``(observations, rewards, terminations, truncations, infos)`` (see the class text).

        Raises:
            RuntimeError: Before `reset`.
            canasta.rl.ActionSpaceError: If ``actions`` is not ``N`` integer ids of the space.
            canasta.IllegalActionError: If an id is illegal in its game (nothing changes).
        """
        games = self._games()
        hands = [game.hand for game in games]
        chosen = self._legal_actions(games, hands, actions)  # raises before anything changes
        rewards = self._rewards
        rewards[:] = 0.0
        terminations = self._terminations
        truncations = self._truncations
        terminations[:] = False
        truncations[:] = False
        final: npt.NDArray[np.float32] | None = None
        wide, seats = self._new_rows()
        finished = [len(game.results) for game in games]
        start = 0
        while True:  # compiled: game by game, each observed right after its move (see apply_and_observe)
            i = (
                self._apply_and_observe_sequences(games, chosen, finished, start, wide, seats)
                if self._sequence_layouts
                else apply_and_observe(
                    games,
                    chosen,
                    finished,
                    start,
                    self._layouts,
                    self._rows,
                    self._scratch,
                    wide,
                    seats,
                    self._ids_by_identity,
                    self._legal,
                    self._flat,
                    self._starts,
                    self.action_encoding.size,
                )
            )
            if i < 0:
                break
            game = games[i]
            results = game.results
            if len(results) != finished[i] and self._hand_ended(i, game, results[finished[i] :], hands[i].seating):
                if final is None:
                    final = np.zeros_like(self._obs)
                final[i] = self.observation_encoder.encode(game, int(self._seats[i]))  # as the seat that acted sees it
                game = games[i] = self._new_game(i, self._seeds[i].randrange(_SEED_LIMIT))
            self._observe(i, game.hand, wide, seats)
            start = i + 1
        self._write_rows(wide, seats)
        infos = self._infos(final)
        return (
            self._out(self._obs),
            self._out(rewards),
            self._out(terminations),
            self._out(truncations),
            infos,
        )

    def _hand_ended(self, i: int, game: Game, new_results: Sequence[HandScore], seating: list[int]) -> bool:
        """Pay game ``i``'s seats for the hands that just ended; mark it terminated or truncated (then True)."""
        rules = self.rules
        rewards = self._rewards
        hand_mode = self.reward_mode == "hand"
        self._hands_played[i] += len(new_results)
        if hand_mode:
            for result in new_results:
                rewards[i] += hand_rewards(rules, result, seating)
        if game.is_over:
            self._terminations[i] = True
            if not hand_mode:
                rewards[i] += game_rewards(rules, game.scores, game.winners())
            return True
        if self.max_hands is not None and self._hands_played[i] >= self.max_hands:
            self._truncations[i] = True
            return True
        return False

    def close_extras(self, **kwargs: Any) -> None:
        """Drop the games (nothing else is held).

        Args:
            **kwargs: Ignored (accepted for the Gymnasium API).
        """
        self.games = None

    # --- helpers -----------------------------------------------------------------------

    def _games(self) -> list[Game]:
        if self.games is None:
            raise RuntimeError("call reset() before step()")
        return self.games

    def _reset_seeds(self, seed: int | Sequence[int] | None) -> list[int]:
        n = self.num_envs
        if seed is None:
            return [rng.randrange(_SEED_LIMIT) for rng in self._seeds]
        if isinstance(seed, (str, bytes, bytearray)) or not isinstance(seed, Sequence | np.ndarray):
            first = check_seed(seed)
            seeds = [check_seed(first + i, name=f"seed + {i}") for i in range(n)]
        else:
            if len(seed) != n:
                raise ValueError(f"seed must be an integer or {n} integers, got {len(seed)} seeds")
            seeds = [check_seed(s, name=f"seed[{i}]") for i, s in enumerate(seed)]
        for rng, s in zip(self._seeds, seeds, strict=True):
            rng.seed(s)  # as CanastaEnv.reset(seed=s): later seeds come from this generator
        return seeds

    def _new_game(self, index: int, seed: int) -> Game:
        game = Game(rules=self.rules, seed=seed)
        self._hands_played[index] = 0
        if game.is_over:  # only rules that end a game before anyone acts
            raise ValueError(f"the game of seed {seed} ended before its first decision: nothing to step")
        return game

    def _legal_actions(self, games: list[Game], hands: list[HandState], actions: npt.ArrayLike) -> list[Action]:
        """The engine's action object for each game's id; raise (changing nothing) if one is not legal."""
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,) or ids.dtype.kind not in "iu":
            raise ActionSpaceError(
                f"actions must be {self.num_envs} integer action ids, got {ids.dtype} array of shape {ids.shape}"
            )
        size = self.action_encoding.size
        if ids.size and (ids.min() < 0 or ids.max() >= size):
            bad = int(np.flatnonzero((ids < 0) | (ids >= size))[0])
            raise ActionSpaceError(f"game {bad}: action id {int(ids[bad])} is outside 0..{size - 1}")
        chosen = self._chosen
        if not chosen_actions(hands, self._legal, self._flat, self._starts, ids.tolist(), size, chosen):
            return chosen  # type: ignore[return-value]  # no None
        for i, action in enumerate(chosen):
            if action is not None:
                continue
            try:  # illegal, or the game was changed from outside since the last step: ask afresh
                chosen[i] = self.action_encoding.legal_action(games[i], ids[i])
            except IllegalActionError as error:
                raise IllegalActionError(
                    error.code, f"game {i}: {error.reason}", error.action, section=error.section
                ) from error
        return chosen  # type: ignore[return-value]  # no None left

    def _observe_all(self) -> None:
        wide, seats = self._new_rows()
        for i, game in enumerate(self._games()):
            self._observe(i, game.hand, wide, seats)
        self._write_rows(wide, seats)

    def _new_rows(self) -> tuple[list[int], list[int]]:
        """For `_observe`: the wide values, the seats."""
        self._flat.clear()
        return [], [0] * self.num_envs

    def _apply_and_observe_sequences(
        self,
        games: list[Game],
        chosen: list[Action],
        finished: list[int],
        start: int,
        wide: list[int],
        seats: list[int],
    ) -> int:
        """`canasta.viewvalues.apply_and_observe` for rule sets with meld types (rows written in Python)."""
        for i in range(start, len(games)):
            game = games[i]
            game.apply(chosen[i])
            if len(game.results) != finished[i]:
                return i
            self._observe(i, game.hand, wide, seats)
        return -1

    def _observe(self, i: int, hand: HandState, wide: list[int], seats: list[int]) -> None:
        """Row ``i``: the acting seat, its view and its legal ids (also kept for the next `step`)."""
        seat = seats[i] = hand.seat
        if self._sequence_layouts:
            size = self.observation_encoder.size
            scratch = self._scratch
            scratch[:] = bytes(size)
            write_sequence_view(hand, self._sequence_layouts[seat], scratch, wide, i * size)
            self._rows[i * size : (i + 1) * size] = scratch
        else:
            write_rows(hand, self._layouts[seat], self._rows, i, self._scratch, wide)
        space = self.action_encoding
        by_identity = self._ids_by_identity
        if not legal_ids_of(hand, i, by_identity, self._legal, self._flat, self._starts, space.size):
            space.learn_ids(hand.legal_actions())  # action objects not met yet: by value, then by identity
            legal_ids_of(hand, i, by_identity, self._legal, self._flat, self._starts, space.size)

    def _write_rows(self, wide: list[int], seats: list[int]) -> None:
        """The arrays of the rows `_observe` wrote."""
        flat = self._flat
        self._starts[self.num_envs] = len(flat)
        self._seats[:] = seats
        self.observation_encoder.rows_to_array(self._rows, wide, self._obs)
        masks = self._masks
        if self._sequence_layouts:  # (a large space: clear only what the last rows set)
            masks.reshape(-1)[self._set_in_mask] = False
            self._set_in_mask = flat[:]
        else:
            masks[...] = False
        masks.reshape(-1)[flat] = True

    def _infos(self, final: npt.NDArray[np.float32] | None) -> dict[str, Any]:
        infos: dict[str, Any] = {"seat": self._out(self._seats), "action_mask": self._out(self._masks)}
        if final is not None:
            infos["final_obs"] = final
            infos["_final_obs"] = self._terminations | self._truncations
        return infos

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array
