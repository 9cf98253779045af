"""What a state of the OpenSpiel game holds: `Play`, a canasta game with its bookkeeping.

OpenSpiel clones a Python state by deep-copying its attributes and serializes
it by pickling them. A `CanastaState` therefore keeps a single attribute, a
`Play`, which controls both: a deep copy is `canasta.Game.copy` (the compiled
rules and encodings are shared, never copied), and pickling writes the game's
JSON record (`canasta.records`), which unpickling replays with every action
re-checked.

That re-check protects nothing against a hostile string: OpenSpiel's
``deserialize_game_and_state`` unpickles the whole text before this module sees
it, and unpickling runs whatever code a tampered string names. Only text you
wrote yourself may go there; untrusted input goes to
`canasta.records.loads_record` or `CanastaGame.state_from_record`.
"""

from __future__ import annotations

from typing import Any, Protocol

import pyspiel

from canasta.actions import Action, DrawStock
from canasta.errors import IllegalActionError
from canasta.game import Game
from canasta.hand import HandState
from canasta.openspiel.config import GameConfig
from canasta.records import GameRecord, RecordError, loads_record

__all__ = [
    "BYTE_OUTCOMES",
    "CHANCE",
    "SEED_BYTES",
    "TERMINAL",
    "HoldsPlay",
    "Play",
    "check_record_rules",
    "play_from_record",
]

#: OpenSpiel's player ids of a chance node and of the end.
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

#: The deal is the canasta game's seed, chosen by this many chance nodes ...
SEED_BYTES = 8
#: ... of this many equally likely outcomes each: a uniform 64-bit seed, its first byte lowest.
BYTE_OUTCOMES = 256


class Play:
    """One OpenSpiel game's progress: the seed's bytes, then the canasta game, rewards, hand lengths.

    Args:
        config: The OpenSpiel game's configuration (shared by all its states).

    Attributes:
        config: The configuration.
        seed_bytes: The seed's bytes chosen so far (at the chance nodes).
        game: The canasta game, ``None`` until the seed is complete.
        final_hand: The finished hand, once a one-hand game is over.
        rewards: Each player's reward for the last action (points; never changed in place).
        lengths: The number of actions of each finished hand (for the record).
        player: OpenSpiel's current player: the seat to act, `CHANCE` until
            the deal, `TERMINAL` at the end (kept up to date: OpenSpiel asks
            for it several times a step).
        private: Per seat, what only that seat saw in this hand: ``(index,
            cards)`` for each action (``index`` into the hand's action log)
            that brought it cards no one else saw (a stock draw; bonus cards
            where the variant deals them), the card ids in id order.
        hand_offset: Hands played before the canasta game's first one (a
            resampled state's game starts at the hand it was sampled in).
        sampled: Whether the state was resampled (`resampled`): its hand was
            not dealt from a seed, so it has no record.
    """

    __slots__ = (
        "config",
        "final_hand",
        "game",
        "hand_offset",
        "lengths",
        "player",
        "private",
        "rewards",
        "sampled",
        "seed_bytes",
    )

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.seed_bytes: list[int] = []
        self.game: Game | None = None
        self.final_hand: HandState | None = None
        self.rewards = config.no_rewards
        self.lengths: list[int] = []
        self.player = CHANCE
        self.private: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(config.rules.players)]
        self.hand_offset = 0
        self.sampled = False

    def choose_seed_byte(self, value: int) -> None:
        """Apply a chance outcome: the seed's next byte; the last one deals.

        Args:
            value: The byte, ``0 .. BYTE_OUTCOMES - 1``.
        """
        self.seed_bytes.append(value)
        if len(self.seed_bytes) == SEED_BYTES:
            self.deal(sum(b << (8 * i) for i, b in enumerate(self.seed_bytes)))

    def deal(self, seed: int) -> None:
        """Deal the canasta game from a seed (as ``canasta.Game(..., seed=seed)`` does).

        Args:
            seed: The canasta game's seed.
        """
        self.game = Game(rules=self.config.rules, seed=seed)
        self.lengths = [0] * len(self.game.results)  # hands that ended on their deal
        self._settled()
        self._update_player(self.game)

    @property
    def hand(self) -> HandState:
        """The hand shown: the hand in play, or the finished hand of a one-hand game."""
        if self.final_hand is not None:
            return self.final_hand
        if self.game is None:
            raise ValueError("the cards are not dealt yet: apply the chance outcome first")
        return self.game.hand

    @property
    def is_over(self) -> bool:
        """Whether the OpenSpiel game is over: the game ended, or its one hand did."""
        return self.player == TERMINAL

    def _update_player(self, game: Game) -> None:
        over = game.is_over or (not self.config.whole_game and bool(game.results))
        self.player = TERMINAL if over else game.seat

    def returns(self) -> list[float]:
        """Each player's return so far, in points (see `GameConfig.side_returns`)."""
        if self.game is None:
            return [0.0] * self.config.rules.players
        return self.config.side_returns(self.game.scores)

    def apply(self, action: Action) -> None:
        """Apply a legal action (or raise `canasta.IllegalActionError`, changing nothing).

        Args:
            action: The action.
        """
        game = self.game
        if game is None:
            raise ValueError("the cards are not dealt yet: apply the chance outcome first")
        if self.is_over:
            (game if game.is_over else self.hand).check(action)  # raises: the hand is over
        finished = len(game.results)
        hand = game.hand  # the game deals a new one when this one ends
        seat = hand.seat
        # Cards come into a hand unseen by the others with a stock draw, and with the
        # bonus cards some variants deal after an opening (american-talon).
        watch = type(action) is DrawStock or self.config.bonus_cards
        before = _held(hand, seat) if watch else None
        game.apply(action)
        if before is not None:
            unseen = _held(hand, seat) - before - set(hand.known[seat])
            if unseen:
                self.private[seat].append((len(hand.log) - 1, tuple(sorted(unseen))))
        if len(game.results) == finished:
            self.rewards = self.config.no_rewards
            self.player = game.seat
            return
        # Returns are linear in the sides' scores: the reward is the return of the points just scored.
        gained = [sum(r.totals[side] for r in game.results[finished:]) for side in range(self.config.rules.side_count)]
        self.rewards = self.config.side_returns(gained)
        if self.config.whole_game:
            self.private = [[] for _ in self.private]  # a new hand: nothing private seen in it yet
        else:
            self.final_hand = hand
        self._settled()
        self._update_player(game)

    def _settled(self) -> None:
        """Count the actions of hands that just ended (for the record's hand lengths)."""
        game = self.game
        assert game is not None
        if len(game.results) > len(self.lengths):
            played = len(game.history) - sum(self.lengths)
            self.lengths.append(played)
            # Hands that ended on their deal, right after it, took no action.
            self.lengths.extend([0] * (len(game.results) - len(self.lengths)))

    def record(self) -> GameRecord:
        """The JSON record of the game so far (`canasta.GameRecord`).

        Returns:
            The record; replaying it (`play_from_record`) gives this state again.

        Raises:
            ValueError: Before the deal (a record starts from a seed), or for a
                resampled state (its hand was not dealt from a seed).
        """
        game = self.game
        if game is None:
            raise ValueError("the cards are not dealt yet: a record starts from the deal's seed")
        if self.sampled:
            raise ValueError("a resampled state has no record: its hand was sampled, not dealt from a seed")
        config = self.config
        return GameRecord(
            variant=config.variant,
            variant_version=config.variant_version,
            house_rules=config.house_rule_versions,
            seed=game.seed,
            seats=tuple(f"player {p}" for p in range(config.rules.players)),
            actions=game.history,
            hand_totals=tuple(tuple(r.totals) for r in game.results),
            hand_lengths=tuple(self.lengths),
            final_scores=tuple(game.scores),
            complete=game.is_over,
            first_dealer=game.first_dealer,
            players=config.record_players,
        )

    def resampled(self, sample: HandState, player: int, seed: int) -> Play:
        """This play with its hand replaced by a sample of what ``player`` cannot see.

        Args:
            sample: A hand consistent with ``player``'s observation (`canasta.sample_state`).
            player: The seat whose information state the sample keeps.
            seed: Seed of the later hands' deals (a whole game's future is unknown too).

        Returns:
            The new play: its game continues from the sample, with the same
            scores; ``player``'s private draws are kept (the sample keeps its
            hand), the other seats' are unknown and left out.
        """
        game = self.game
        assert game is not None and self.final_hand is None  # dealt, in play
        new = Play(self.config)
        new.seed_bytes = self.seed_bytes[:]
        new.game = Game.from_hand(sample, scores=game.scores, seed=seed)
        new.hand_offset = self.hand_offset + game.hand_number
        new.sampled = True
        new.private = [seen[:] if seat == player else [] for seat, seen in enumerate(self.private)]
        new.rewards = self.rewards
        new.player = self.player
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        new = Play.__new__(Play)
        new.config = self.config
        new.seed_bytes = self.seed_bytes[:]
        new.game = self.game.copy() if self.game is not None else None
        new.final_hand = self.final_hand  # finished: never changed again
        new.rewards = self.rewards  # never changed in place
        new.lengths = self.lengths[:]
        new.player = self.player
        new.private = [seen[:] for seen in self.private]
        new.hand_offset = self.hand_offset
        new.sampled = self.sampled
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        if self.sampled:
            raise TypeError(
                "a resampled state cannot be serialized: its hand was sampled, not dealt from a seed, "
                "so it has no record"
            )
        text = self.record().dumps() if self.game is not None else None
        return (_unpickle, (dict(self.config.parameters), tuple(self.seed_bytes), text, tuple(self.rewards)))


def _held(hand: HandState, seat: int) -> set[int]:
    """The card ids in a seat's hand."""
    return {card for held in hand.hands[seat] for card in held}


def _unpickle(
    parameters: dict[str, object], seed_bytes: tuple[int, ...], text: str | None, rewards: tuple[float, ...]
) -> Play:
    """Rebuild a pickled `Play` (OpenSpiel's deserialization) by replaying its record."""
    config = GameConfig(parameters)
    if text is None:
        play = Play(config)
        play.seed_bytes = list(seed_bytes)
        return play
    play = play_from_record(config, loads_record(text))
    play.rewards = list(rewards)
    return play


class HoldsPlay(Protocol):
    """What the observers read of a state: its `Play` (`CanastaState` is one).

    The observers are typed by this, not by `CanastaState`, so that the modules
    of the state and of its observers do not import each other.
    """

    @property
    def play(self) -> Play:
        """The canasta game in play, with its bookkeeping."""
        ...


def check_record_rules(config: GameConfig, record: GameRecord) -> None:
    """Refuse a record of other rules than the game's.

    Args:
        config: The OpenSpiel game's configuration.
        record: The record.

    Raises:
        RecordError: If the record's variant or house rules differ, or its first
            dealer is not the last seat (the only one the OpenSpiel game deals from).
    """
    if (
        record.variant != config.variant
        or record.house_rule_names != config.rules.house_rules
        or record.players != config.record_players
    ):
        raise RecordError(
            "variant",
            f"the record plays {record.variant} with house rules {list(record.house_rule_names)}, "
            f"this game {config.variant} with {list(config.rules.house_rules)} "
            f"(players: the record's {record.players or 'default'}, the game's {config.record_players or 'default'})",
        )
    last_seat = config.rules.players - 1
    if record.first_dealer not in (None, last_seat):
        raise RecordError(
            "first_dealer",
            f"python_canasta deals the first hand from the last seat ({last_seat}); "
            f"the record's first dealer is seat {record.first_dealer}",
        )


def play_from_record(config: GameConfig, record: GameRecord) -> Play:
    """Replay a record into a `Play`, re-checking every action.

    Args:
        config: The OpenSpiel game's configuration; the record must be of its
            variant and house rules.
        record: The record.

    Returns:
        The play after the record's last action.

    Raises:
        RecordError: If the record is of other rules, an action is illegal at
            its point, or actions follow the end of a one-hand game.
    """
    check_record_rules(config, record)
    play = Play(config)
    play.seed_bytes = [(record.seed >> (8 * i)) & 0xFF for i in range(SEED_BYTES)]
    play.deal(record.seed)
    for index, action in enumerate(record.actions):
        if play.is_over:
            raise RecordError("actions", f"action {index} follows the end of the game", index=index)
        try:
            play.apply(action)
        except IllegalActionError as exc:
            raise RecordError("actions", f"action {index} is illegal: {exc}", index=index) from None
    return play
