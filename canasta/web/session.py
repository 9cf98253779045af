"""The state of one browser session: a game against bots, or a record being replayed.

This module is plain Python (no web framework): `canasta.web.app` turns HTTP
requests into calls of `PlaySession`, `ReplaySession` and `SessionStore`, and
their `state` methods give the JSON the page shows. The page has no rules of
its own: every legal action, refusal, picture and score comes from here, that
is from the library (`canasta.Game`, `canasta.commands`, `canasta.render`,
`canasta.records`).
"""

from __future__ import annotations

import itertools
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from canasta.actions import Action, AnswerGoOut, AskGoOut, Discard, DrawStock, Meld, TakePile
from canasta.bots import Bot, bot_names, make_bot
from canasta.commands import GRAMMAR, Command, CommandError, notation, parse_command
from canasta.errors import CanastaError, IllegalActionError
from canasta.game import Game
from canasta.hand import HandState
from canasta.records import GameRecord, GameRecorder, loads_record
from canasta.render import render_observation_svg, render_table_svg
from canasta.scoring import HandScore
from canasta.wording import plural

__all__ = [
    "HUMAN_SEAT",
    "MAX_SEED",
    "NEXT_HAND",
    "PlaySession",
    "ReplaySession",
    "Session",
    "SessionError",
    "SessionStore",
    "action_group",
    "refusal",
]

#: The seat the person plays.
HUMAN_SEAT = 0

#: The id of the "next hand" choice between hands.
NEXT_HAND = "next"

#: Seeds are integers of at most this size (either sign).
MAX_SEED = 2**63 - 1

#: Bot moves kept for the page's log.
_LOG_SIZE = 60

#: Version numbers of the states shown, increasing across every session of the process, so a
#: page sees a change even when it switches sessions (a new game, a record loaded).
_VERSIONS = itertools.count(1)


class SessionError(CanastaError):
    """A request the session cannot carry out (the message says why; nothing changed)."""


def action_group(action: Action) -> str:
    """The heading an action's button is shown under.

    Args:
        action: A legal action.

    Returns:
        ``"draw"``, ``"take"``, ``"meld"``, ``"discard"``, ``"go out"`` or ``"end"``.
    """
    if isinstance(action, DrawStock):
        return "draw"
    if isinstance(action, TakePile):
        return "take"
    if isinstance(action, Meld):
        return "meld"
    if isinstance(action, Discard):
        return "discard"
    if isinstance(action, AskGoOut | AnswerGoOut):
        return "go out"
    return "end"


def _title(game: Game) -> str:
    rules = game.rules
    return rules.variant + "".join(f" + {h}" for h in rules.house_rules)


def _score_json(score: HandScore, game: Game, number: int, totals_after: Sequence[int]) -> dict[str, Any]:
    """A hand's score breakdown as JSON, one entry per side."""
    rules = game.rules
    sides = []
    for side in score.sides:
        sides.append(
            {
                "side": side.side,
                "seats": list(rules.seats_of(side.side)),
                "melded_cards": side.melded_cards,
                "canasta_bonuses": side.canasta_bonuses,
                "red_threes": side.red_threes,
                "going_out": side.going_out,
                "set_aside": side.set_aside,
                "cards_in_hand": side.cards_in_hand,
                "penalties": side.penalties,
                "canastas": side.canastas,
                "total": side.total,
                "score": totals_after[side.side],
            }
        )
    return {
        "hand": number + 1,
        "end": score.end,
        "went_out": score.went_out,
        "concealed": score.concealed,
        "sides": sides,
    }



class PlaySession:
    """A game in the browser: the person at seat 0, bots at the other seats.

    After each of the person's actions the bots play until it is the person's
    turn again, the hand ends (the page then shows the score breakdown and a
    "next hand" choice) or the game ends.

    Args:
        variant: The variant's name.
        house_rules: House rules stacked on it.
        seed: The game's seed (default: a random one).
        bot: The bots' strategy (`canasta.bot_names`).

    Raises:
        CanastaError: For an unknown variant or house rule, or a bad combination.
        SessionError: For an unknown bot or a seed out of range.
    """

    mode = "play"

    def __init__(
        self, variant: str = "classic", house_rules: Sequence[str] = (), seed: int | None = None, bot: str = "greedy"
    ) -> None:
        if bot not in bot_names():
            raise SessionError(f"unknown bot {bot!r}; the bots are {', '.join(bot_names())}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if not -MAX_SEED <= seed <= MAX_SEED:
            raise SessionError(f"the seed must be between -{MAX_SEED} and {MAX_SEED}")
        self.game = Game(variant, tuple(house_rules), seed=seed)
        players = self.game.rules.players
        self.names = ["you" if s == HUMAN_SEAT else bot for s in range(players)]
        self.bots: dict[int, Bot] = {s: make_bot(bot, f"{seed}:{s}") for s in range(players) if s != HUMAN_SEAT}
        self.recorder = GameRecorder(self.game, self.names)
        self.lock = threading.Lock()
        self.version = next(_VERSIONS)
        self.message = f"New game of {_title(self.game)}, seed {seed}: you play seat {HUMAN_SEAT}."
        self.error: str | None = None
        self.log: list[str] = []
        #: The finished hand shown between hands (the game has already dealt the next one).
        self.ended: tuple[HandState, int] | None = None
        self._play_bots()

    # --- moves ------------------------------------------------------------------------

    def legal(self) -> list[Action]:
        """The person's legal actions now (none between hands, on a bot's turn or once the game is over)."""
        if self.ended is not None or self.game.is_over or self.game.seat != HUMAN_SEAT:
            return []
        return self.game.legal_actions()

    def choose(self, choice: str) -> None:
        """Play the choice with this id (an index into `legal`, or `NEXT_HAND`).

        Args:
            choice: The id the page sent.

        Raises:
            SessionError: If no choice has this id now (nothing changes).
        """
        if choice == NEXT_HAND:
            if self.ended is None or self.game.is_over:
                raise SessionError("there is no finished hand to go on from")
            self.ended = None
            self.error = None
            self.message = f"Hand {self.game.hand_number + 1} is dealt."
            self.log = []
            self._changed()
            self._play_bots()
            return
        legal = self.legal()
        if not choice.isdigit() or int(choice) >= len(legal):
            raise SessionError(f"no choice {choice!r} now: reload the table and pick one of its buttons")
        self._play(legal[int(choice)])

    def command(self, text: str) -> None:
        """Play a typed command of `canasta.commands` (``d``, ``m qq*``, ``x 9``, a menu number...).

        Args:
            text: What the person typed.

        Raises:
            IllegalActionError: If it names an action that is not legal now (the
                engine's refusal, naming the rule); nothing changes.
            CommandError: If it is not a command; nothing changes.
            SessionError: If it is not the person's turn.
        """
        if self.ended is not None:
            raise SessionError("the hand is over: press 'Next hand' to play on")
        if self.game.is_over:
            raise SessionError("the game is over: start a new game")
        parsed = parse_command(text, self.game)
        if isinstance(parsed, Command):
            if parsed.kind == "help":
                self.error = None
                self.message = "Commands: " + "; ".join(f"{c}: {meaning}" for c, meaning in GRAMMAR)
                self._changed()
                return
            if parsed.kind == "quit":
                raise CommandError("to stop, close the page or start a new game")
            legal = self.legal()
            if not 1 <= parsed.number <= len(legal):
                raise CommandError(f"the buttons are numbered 1-{len(legal)}")
            self._play(legal[parsed.number - 1])
            return
        self._play(parsed)

    def refuse(self, reason: str) -> None:
        """Show a refusal (the state is otherwise unchanged).

        Args:
            reason: Why the move was not allowed.
        """
        self.error = reason
        self._changed()

    def _play(self, action: Action) -> None:
        self.log = []
        self.error = None
        self.message = f"You: {action}."
        self._apply(HUMAN_SEAT, action)
        self._play_bots()

    def _apply(self, seat: int, action: Action) -> None:
        current = self.game.hand
        before = len(self.game.results)
        self.recorder.apply(action)
        if seat != HUMAN_SEAT:
            self.log.append(f"seat {seat} ({self.names[seat]}): {action}")
            del self.log[:-_LOG_SIZE]
        if len(self.game.results) > before:  # a hand ended (and maybe further hands on their deal)
            self.ended = (current if current.is_over else self.game.hand, len(self.game.results) - 1)
        self._changed()

    def _play_bots(self) -> None:
        """Let the bots play until the person's turn, the end of a hand or of the game."""
        game = self.game
        while self.ended is None and not game.is_over and game.seat != HUMAN_SEAT:
            seat = game.seat
            self._apply(seat, self.bots[seat].choose(game.hand, seat))
        if self.ended is not None:
            number = self.ended[1]
            result = game.results[number]
            how = f"seat {result.went_out} went out" if result.went_out is not None else result.end
            self.message = f"{self.message} Hand {number + 1} is over ({how})."
        if game.is_over:
            winner = game.winner()
            verdict = "a tie" if winner is None else f"the side of seats {self._seats(winner)} wins"
            self.message = f"{self.message} Game over after {plural(len(game.results), 'hand')}: {verdict}."

    def _seats(self, side: int) -> str:
        return " + ".join(str(s) for s in self.game.rules.seats_of(side))

    def _changed(self) -> None:
        self.version = next(_VERSIONS)

    # --- what the page shows ------------------------------------------------------------

    def record(self) -> GameRecord:
        """The record of the game so far (for a download)."""
        return self.recorder.record()

    def state(self) -> dict[str, Any]:
        """The JSON the page shows: the picture, the choices, messages, scores.

        Returns:
            ``{svg, legal: [{id, label, command, group}], message, error, over,
            scores, ...}`` (see the web docs page for every key).
        """
        game = self.game
        legal: list[dict[str, Any]]
        score = None
        if self.ended is not None:
            hand, number = self.ended
            title = f"{_title(game)}: hand {number + 1} is over (every hand face up)"
            svg = render_table_svg(hand, names=self.names, title=title)
            score = _score_json(game.results[number], game, number, game.totals_after(number))
            legal = [] if game.is_over else [{"id": NEXT_HAND, "label": "Next hand", "command": "", "group": "next"}]
        else:
            title = f"{_title(game)}: hand {game.hand_number + 1}"
            svg = render_observation_svg(game.observation(HUMAN_SEAT), game.rules, names=self.names, title=title)
            legal = [
                {"id": str(i), "label": str(a), "command": notation(a), "group": action_group(a)}
                for i, a in enumerate(self.legal())
            ]
        return {
            "mode": self.mode,
            "version": self.version,
            "title": _title(game),
            "variant": game.rules.variant,
            "house_rules": list(game.rules.house_rules),
            "seed": game.seed,
            "names": self.names,
            "hand": (self.ended[1] if self.ended is not None else game.hand_number) + 1,
            "svg": svg,
            "legal": legal,
            "typing": bool(legal) and self.ended is None,
            "message": self.message,
            "error": self.error,
            "log": self.log,
            "over": game.is_over,
            "scores": list(game.scores),
            "hand_score": score,
            "replay": None,
        }


class ReplaySession:
    """A record replayed in the browser, one position at a time (every hand face up).

    Args:
        text: The record's JSON text, validated by `canasta.loads_record` (every
            action re-checked).
        max_bytes: The largest record accepted.

    Raises:
        RecordError: If the record is not valid (the message names where).
    """

    mode = "replay"

    def __init__(self, text: str | bytes, *, max_bytes: int) -> None:
        self.record = loads_record(text, max_bytes=max_bytes)
        self.lock = threading.Lock()
        self.version = next(_VERSIONS)
        self.at = 0
        self.error: str | None = None
        self._game = self.record.new_game()
        self._shown: HandState = self._game.hand
        self._last_score: int | None = None

    @property
    def total(self) -> int:
        """The number of actions in the record."""
        return len(self.record.actions)

    def step(self, to: int | str) -> None:
        """Go to a position: after ``to`` actions, or ``"first"``, ``"prev"``, ``"next"``, ``"last"``.

        Args:
            to: The position (0 is the first deal, `total` the end of the record).

        Raises:
            SessionError: If the position is not one of the record's (nothing changes).
        """
        moves = {"first": 0, "prev": self.at - 1, "next": self.at + 1, "last": self.total}
        if isinstance(to, str):
            if to not in moves:
                raise SessionError(f"step to a position 0-{self.total} or first, prev, next, last; got {to!r}")
            target = max(0, min(self.total, moves[to]))
        else:
            target = to
        if not 0 <= target <= self.total:
            raise SessionError(f"the record has positions 0-{self.total}, not {target}")
        if target < self.at:
            self._game = self.record.new_game()
            self._shown = self._game.hand
            self._last_score = None
            self.at = 0
        while self.at < target:
            current = self._game.hand
            before = len(self._game.results)
            self._game.apply(self.record.actions[self.at])  # checked when the record was loaded
            self.at += 1
            ended = len(self._game.results) > before
            self._shown = current if ended and current.is_over else self._game.hand
            self._last_score = len(self._game.results) - 1 if ended else None
        self.error = None
        self.version = next(_VERSIONS)

    def refuse(self, reason: str) -> None:
        """Show a refusal (the position is unchanged).

        Args:
            reason: Why the request was not carried out.
        """
        self.error = reason
        self.version = next(_VERSIONS)

    def state(self) -> dict[str, Any]:
        """The JSON the page shows for the current position (the keys of `PlaySession.state`).

        Returns:
            The state, with ``replay: {at, total, seats, ...}`` filled in.
        """
        game, record = self._game, self.record
        hand_number = self._last_score if self._last_score is not None else game.hand_number
        if self.at == 0:
            where = "the first deal"
            message = f"Record of {_title(game)}, seed {record.seed}: {plural(self.total, 'action')}."
        else:
            action = record.actions[self.at - 1]
            where = f"after action {self.at} of {self.total}"
            message = f"Action {self.at} of {self.total}: {action}."
        title = f"{_title(game)}: hand {hand_number + 1}, {where}"
        svg = render_table_svg(self._shown, names=record.seats, title=title)
        score = None
        if self._last_score is not None:
            number = self._last_score
            score = _score_json(game.results[number], game, number, game.totals_after(number))
            message += f" Hand {number + 1} is over."
        return {
            "mode": self.mode,
            "version": self.version,
            "title": _title(game),
            "variant": game.rules.variant,
            "house_rules": list(game.rules.house_rules),
            "seed": record.seed,
            "names": list(record.seats),
            "hand": hand_number + 1,
            "svg": svg,
            "legal": [],
            "typing": False,
            "message": message,
            "error": self.error,
            "log": [],
            "over": game.is_over,
            "scores": list(game.scores),
            "hand_score": score,
            "replay": {"at": self.at, "total": self.total, "complete": record.complete},
        }


Session = PlaySession | ReplaySession


class SessionStore:
    """Sessions by random id, in memory, the least recently used dropped beyond a cap.

    Args:
        max_sessions: How many sessions are kept at most.
    """

    def __init__(self, max_sessions: int = 64) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        self.max_sessions = max_sessions
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def get(self, key: str | None) -> Session | None:
        """The session with this id (and mark it used), or ``None``.

        Args:
            key: The id from the cookie, if any.

        Returns:
            The session, or ``None`` if there is none by that id (never made, or dropped).
        """
        if not key:
            return None
        with self._lock:
            session = self._sessions.get(key)
            if session is not None:
                self._sessions.move_to_end(key)
            return session

    def put(self, session: Session, key: str | None = None) -> str:
        """Keep a session under its id (a new random one unless an existing id is given).

        Args:
            session: The session.
            key: The id to replace the session of (from the cookie), if it is one of the store's.

        Returns:
            The id.
        """
        with self._lock:
            if key is None or key not in self._sessions:
                key = secrets.token_urlsafe(18)
            self._sessions[key] = session
            self._sessions.move_to_end(key)
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
            return key


def refusal(exc: IllegalActionError | CommandError | SessionError) -> str:
    """The sentence a refusal shows on the page.

    Args:
        exc: The refusal.

    Returns:
        ``"not allowed now: ..."`` with the engine's message for an illegal action,
        ``"not a command: ..."`` for unreadable input, else the message.
    """
    if isinstance(exc, IllegalActionError):
        return f"not allowed now: {exc.message}"
    if isinstance(exc, CommandError):
        return f"not a command: {exc}"
    return str(exc)
