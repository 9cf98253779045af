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
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from canasta.actions import Action, AnswerGoOut, AskGoOut, Discard, DrawStock, Meld, PickUpPacket, TakePile
from canasta.bots import Bot, bot_names, make_bot
from canasta.commands import GRAMMAR, SEQUENCE_GRAMMAR, Command, CommandError, notation, parse_command
from canasta.errors import CanastaError, IllegalActionError
from canasta.game import Game
from canasta.hand import HandState
from canasta.records import GameRecord, GameRecorder, loads_record
from canasta.render import render_observation_svg, render_table_svg
from canasta.scorelines import NOTED, describe_end, score_lines
from canasta.scoring import HandScore
from canasta.seeds import resolve_seed
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake
from canasta.table import TableState
from canasta.wording import action_text, plural

__all__ = [
    "HUMAN_SEAT",
    "IDLE_SECONDS",
    "NEXT_HAND",
    "PlaySession",
    "ReplaySession",
    "Session",
    "SessionError",
    "SessionStore",
    "StoreFullError",
    "action_group",
    "refusal",
]

#: The seat the person plays.
HUMAN_SEAT = 0

#: The id of the "next hand" choice between hands.
NEXT_HAND = "next"

#: A session untouched this long (seconds) may be dropped for a new one even if a game is in play.
IDLE_SECONDS = 2 * 60 * 60

#: Bot moves kept for the page's log.
_LOG_SIZE = 60

#: Version numbers of the states shown, increasing across every session of the process, so a
#: page sees a change even when it switches sessions (a new game, a record loaded).
_VERSIONS = itertools.count(1)


class SessionError(CanastaError):
    """A request the session cannot carry out (the message says why; nothing changed)."""


class StoreFullError(SessionError):
    """No session can be made: every kept session holds a game in play, none idle long enough to drop."""


def action_group(action: Action) -> str:
    """The heading an action's button is shown under.

    Args:
        action: A legal action.

    Returns:
        ``"draw"``, ``"take"``, ``"meld"``, ``"discard"``, ``"go out"`` or ``"end"``.
    """
    if isinstance(action, DrawStock | PickUpPacket):
        return "draw"  # (a packet picked up at will, before the draw: foot-after-first-book)
    if isinstance(action, TakePile | PileTake):
        return "take"
    if isinstance(action, Meld | LayGroup | LaySequence | Extend | LayWild | Combine | LayBlackThrees):
        return "meld"  # (the sequence games' meld actions too)
    if isinstance(action, Discard):
        return "discard"
    if isinstance(action, AskGoOut | AnswerGoOut):
        return "go out"
    return "end"


def _grammar(game: Game) -> tuple[tuple[str, str], ...]:
    """The command grammar of the game's rules (the sequence games' where rules meld by meld type)."""
    return SEQUENCE_GRAMMAR if game.rules.meld_types else GRAMMAR


def _title(game: Game) -> str:
    rules = game.rules
    return rules.variant + "".join(f" + {h}" for h in rules.house_rules)


def _score_json(
    score: HandScore, game: Game, number: int, totals_after: Sequence[int], hand: TableState | None
) -> dict[str, Any]:
    """A hand's score breakdown as JSON: one entry per side, and the lines to show with their reasons."""
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
        "how": describe_end(score, rules),
        "went_out": score.went_out,
        "concealed": score.concealed,
        "sides": sides,
        "lines": [
            {
                "key": line.key,
                "label": line.label,
                "values": list(line.values),
                "reasons": list(line.reasons),
                "noted": line.key in NOTED,
            }
            for line in score_lines(score, rules, hand)
        ],
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
        players: The number of players, one the variant plays (default: the variant's own).

    Raises:
        CanastaError: For an unknown variant or house rule, a bad combination, or
            a number of players the variant does not play.
        SessionError: For an unknown bot or a seed out of range.
    """

    mode = "play"

    def __init__(
        self,
        variant: str = "classic",
        house_rules: Sequence[str] = (),
        seed: int | None = None,
        bot: str = "greedy",
        players: int | None = None,
    ) -> None:
        base = bot.split(":", 1)[0] if isinstance(bot, str) else bot
        if base not in bot_names():
            raise SessionError(f"unknown bot {bot!r}; the bots are {', '.join(bot_names())}")
        try:
            make_bot(bot, 0)  # a spec's options (``ismcts:50ms``) are checked before the deal
        except (CanastaError, ValueError, TypeError) as exc:
            raise SessionError(f"bad bot {bot!r}: {exc}") from None
        seed = resolve_seed(seed)  # canasta.seeds: the one rule (SeedError, a CanastaError, if it breaks it)
        self.game = Game(variant, tuple(house_rules), seed=seed, players=players)
        players = self.game.rules.players
        self.names = ["you" if s == HUMAN_SEAT else bot for s in range(players)]
        self.bots: dict[int, Bot] = {s: make_bot(bot, f"{seed}:{s}") for s in range(players) if s != HUMAN_SEAT}
        self.recorder = GameRecorder(self.game, self.names)
        self.lock = threading.Lock()
        #: Whether the person has played (a game in play is never dropped for a new session).
        self.in_play = False
        #: When the session was last used (`time.monotonic`), kept by `SessionStore`.
        self.touched = time.monotonic()
        self.version = next(_VERSIONS)
        self.message = f"New game of {_title(self.game)}, seed {seed}: you play seat {HUMAN_SEAT}."
        self.error: str | None = None
        #: The other seats' moves since the person's last move (the page shows them by the message).
        self.log: list[str] = []
        #: Whether the command list is shown (after ``?``).
        self.help = False
        #: The finished hand shown between hands (the game has already dealt the next one).
        self.ended: tuple[HandState, int] | None = None
        self._play_bots()

    # --- moves ------------------------------------------------------------------------

    def legal(self) -> tuple[Action, ...]:
        """The person's legal actions now (none between hands, on a bot's turn or once the game is over)."""
        if self.ended is not None or self.game.is_over or self.game.seat != HUMAN_SEAT:
            return ()
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
            self.help = False
            self.in_play = True
            self.message = f"Hand {self.game.hand_number + 1} is dealt."
            self.log = []
            self._changed()
            self._play_bots()
            return
        legal = self.legal()
        # ASCII digits only: "²" is a digit to str.isdigit but no number to int().
        if not (choice.isascii() and choice.isdecimal() and len(choice) <= 6) or int(choice) >= len(legal):
            raise SessionError(f"no choice {choice[:20]!r} now: reload the table and pick one of its buttons")
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
        try:
            parsed = parse_command(text, self.game)
        except CommandError:
            raise
        except ValueError as exc:  # an unreadable number ("²", thousands of digits) is not a command
            raise CommandError(f"{text[:40]!r} is not a command ({exc})"[:200]) from None
        if isinstance(parsed, Command):
            if parsed.kind == "help":
                self.error = None
                self.help = True
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
        self.help = False
        self.in_play = True
        self.message = f"You: {action_text(action)}."
        self._apply(HUMAN_SEAT, action)
        self._play_bots()

    def _apply(self, seat: int, action: Action) -> None:
        current = self.game.hand
        before = len(self.game.results)
        self.recorder.apply(action)
        if seat != HUMAN_SEAT:
            self.log.append(f"seat {seat} ({self.names[seat]}): {action_text(action)}")
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
            how = describe_end(result, game.rules)
            self.message = f"{self.message} Hand {number + 1} is over ({how})."
        if game.is_over:
            winners = game.winners()
            if len(winners) == 1:
                verdict = f"the side of seats {self._seats(winners[0])} wins"
            elif len(winners) == game.rules.side_count:
                verdict = "a tie"
            else:
                verdict = "a draw between the sides of seats " + " and ".join(self._seats(s) for s in winners)
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
            totals = game.totals_after(number)
            svg = render_table_svg(hand, names=self.names, title=title, scores=totals)
            score = _score_json(game.results[number], game, number, totals, hand)
            legal = [] if game.is_over else [{"id": NEXT_HAND, "label": "Next hand", "command": "", "group": "next"}]
        else:
            title = f"{_title(game)}: hand {game.hand_number + 1}"
            svg = render_observation_svg(game.observation(HUMAN_SEAT), game.rules, names=self.names, title=title)
            legal = [
                {"id": str(i), "label": action_text(a), "command": notation(a), "group": action_group(a)}
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
            "help": [[c, meaning] for c, meaning in _grammar(game)] if self.help else None,
            "over": game.is_over,
            "scores": list(game.scores),
            "hand_score": score,
            "replay": None,
        }


class ReplaySession:
    """A record replayed in the browser, one position at a time (every hand face up).

    Stepping back is cheap: the game is copied at checkpoints while stepping
    forward (one every `checkpoint_every` actions, at most about 32 of them), and
    a step back starts from the nearest checkpoint, never from the deal of the
    first hand.

    Args:
        text: The record's JSON text, validated by `canasta.loads_record` (every
            action re-checked).
        max_bytes: The largest record accepted.

    Raises:
        RecordError: If the record is not valid (the message names where).
        SessionError: If a seat label is not Unicode text (a lone surrogate,
            from a JSON escape of one): it could not be shown.
    """

    mode = "replay"

    def __init__(self, text: str | bytes, *, max_bytes: int) -> None:
        self.record = loads_record(text, max_bytes=max_bytes)
        for seat, label in enumerate(self.record.seats):
            try:
                label.encode("utf-8")
            except UnicodeEncodeError:
                raise SessionError(f"seat {seat}'s label is not Unicode text (it holds a lone surrogate)") from None
        self.lock = threading.Lock()
        #: A record loaded is the person's doing: never dropped for a new session unless idle.
        self.in_play = True
        #: When the session was last used (`time.monotonic`), kept by `SessionStore`.
        self.touched = time.monotonic()
        self.version = next(_VERSIONS)
        self.at = 0
        self.error: str | None = None
        #: Actions between two checkpoints.
        self.checkpoint_every = max(256, -(-self.total // 32))
        self._game = self.record.new_game()
        self._shown: HandState = self._game.hand
        self._last_score: int | None = None
        self._checkpoints: dict[int, tuple[Game, HandState | None, int | None]] = {0: self._checkpoint()}

    @property
    def total(self) -> int:
        """The number of actions in the record."""
        return len(self.record.actions)

    def _checkpoint(self) -> tuple[Game, HandState | None, int | None]:
        ended = self._shown if self._shown is not self._game.hand else None
        return self._game.copy(), ended, self._last_score

    def _restore(self, at: int) -> None:
        game, ended, last_score = self._checkpoints[at]
        self._game = game.copy()
        self._shown = ended if ended is not None else self._game.hand
        self._last_score = last_score
        self.at = at

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
                raise SessionError(f"step to a position 0-{self.total} or first, prev, next, last; got {to[:20]!r}")
            target = max(0, min(self.total, moves[to]))
        else:
            target = to
        if not 0 <= target <= self.total:
            raise SessionError(f"the record has positions 0-{self.total}, not {str(target)[:30]}")
        if target < self.at:
            self._restore(max(at for at in self._checkpoints if at <= target))
        elif target > self.at:
            nearest = max(at for at in self._checkpoints if at <= target)
            if nearest > self.at:
                self._restore(nearest)
        while self.at < target:
            current = self._game.hand
            before = len(self._game.results)
            self._game.apply(self.record.actions[self.at])  # checked when the record was loaded
            self.at += 1
            ended = len(self._game.results) > before
            self._shown = current if ended and current.is_over else self._game.hand
            self._last_score = len(self._game.results) - 1 if ended else None
            if self.at % self.checkpoint_every == 0 and self.at not in self._checkpoints:
                self._checkpoints[self.at] = self._checkpoint()
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
            message = f"Action {self.at} of {self.total}: {action_text(action)}."
        title = f"{_title(game)}: hand {hand_number + 1}, {where}"
        shown_scores = game.totals_after(self._last_score) if self._last_score is not None else None
        svg = render_table_svg(self._shown, names=record.seats, title=title, scores=shown_scores)
        score = None
        if self._last_score is not None:
            number = self._last_score
            score = _score_json(game.results[number], game, number, game.totals_after(number), self._shown)
            message += f" Hand {number + 1} is over ({describe_end(game.results[number], game.rules)})."
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
            "help": None,
            "over": game.is_over,
            "scores": list(game.scores),
            "hand_score": score,
            "replay": {"at": self.at, "total": self.total, "complete": record.complete},
        }


Session = PlaySession | ReplaySession


class SessionStore:
    """Sessions by random id, in memory, at most `max_sessions` of them.

    A new session takes the place of the least recently used one that is not
    in play (no move made yet), or failing that of one idle for `idle_seconds`;
    if every kept session holds a game in play and none is idle, the new one is
    refused (`StoreFullError`). So a flood of new sessions (from a script, say)
    never drops a game someone is playing.

    Args:
        max_sessions: How many sessions are kept at most.
        idle_seconds: How long a session in play is kept unused before a new
            session may take its place.
        clock: The time in seconds (`time.monotonic`; tests pass their own).

    Raises:
        ValueError: If ``max_sessions`` is below 1 or ``idle_seconds`` is negative.
    """

    def __init__(
        self, max_sessions: int = 64, idle_seconds: float = IDLE_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        if idle_seconds < 0:
            raise ValueError(f"idle_seconds must be 0 or more, got {idle_seconds}")
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.clock = clock
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
                session.touched = self.clock()
            return session

    def put(self, session: Session, key: str | None = None) -> str:
        """Keep a session under its id (a new random one unless an existing id is given).

        Args:
            session: The session.
            key: The id to replace the session of (from the cookie), if it is one of the store's.

        Returns:
            The id.

        Raises:
            StoreFullError: If a new id is needed and every kept session is in
                play and not idle (nothing changes).
        """
        with self._lock:
            now = self.clock()
            session.touched = now
            if key is not None and key in self._sessions:
                self._sessions[key] = session
                self._sessions.move_to_end(key)
                return key
            if len(self._sessions) >= self.max_sessions:
                self._make_room(now)
            key = secrets.token_urlsafe(18)
            self._sessions[key] = session
            return key

    def _make_room(self, now: float) -> None:
        """Drop one session for a new one: the least recently used not in play, else one idle too long."""
        victim = next((k for k, s in self._sessions.items() if not s.in_play), None)
        if victim is None:
            victim = next((k for k, s in self._sessions.items() if now - s.touched >= self.idle_seconds), None)
        if victim is None:
            raise StoreFullError(
                f"the server keeps {self.max_sessions} games in play and none is idle: try again later"
            )
        del self._sessions[victim]


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
