"""The ``canasta`` command: play, simulate, replay, list variants, show rules.

Every command takes its input from standard input and writes to standard
output, so it can be driven from tests and scripts. Errors a user can cause
(an unknown variant, a bad record) print one line and exit with code 2.
Text from a record (seat labels, names) is printed as plain text with control
characters escaped (`canasta.terminal.untrusted_text`), never as rich markup.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import os
import re
import stat
import sys
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

import canasta
from canasta._engine import engine_description
from canasta.actions import Action
from canasta.bots import Bot, bot_names, make_bot
from canasta.commands import Command, CommandError, parse_command
from canasta.errors import CanastaError, IllegalActionError
from canasta.game import Game
from canasta.ismcts import ISMCTSBot, parse_budget
from canasta.plugins import load_rules
from canasta.records import GameRecord, GameRecorder, load_record, replay
from canasta.registry import Registry, default_registry
from canasta.seeds import SEED_LIMIT, SeedError, check_seed, resolve_seed
from canasta.simulate import MAX_WORKERS, simulate
from canasta.summary import format_rules_summary, player_counts_text, rules_summary
from canasta.terminal import (
    describe_changes,
    format_variants,
    menu_prompt,
    printable,
    render_hand_score,
    render_help,
    render_observation,
    render_rules_summary,
    render_simulation_summary,
    render_turn,
    render_variants,
    scores_text,
    untrusted_text,
    verdict_text,
)
from canasta.wording import action_text, plural

__all__ = [
    "HUMAN_LABELS",
    "MAX_GAMES",
    "MAX_HANDS",
    "MAX_PORT",
    "budget_option",
    "build_parser",
    "check_record_path",
    "human_seats",
    "int_option",
    "main",
    "regular_file",
    "seed_option",
    "write_record",
]

HUMAN_SEAT = 0

#: Seat labels of a record that mean a person played the seat (`canasta play` labels its seat ``"you"``).
HUMAN_LABELS = frozenset({"you", "human"})


def human_seats(labels: Sequence[str]) -> tuple[int, ...]:
    """The seats of a record played by a person: those labelled ``you`` or ``human`` (any case).

    Args:
        labels: The record's seat labels.

    Returns:
        The seats, in order.
    """
    return tuple(seat for seat, label in enumerate(labels) if label.strip().lower() in HUMAN_LABELS)


class _Quit(Exception):
    """The player asked to stop (or the input ended)."""


def version_line() -> str:
    """``canasta X.Y.Z (compiled engine)`` or ``(pure-Python engine)``: the version and the engine running."""
    return f"canasta {canasta.__version__} ({engine_description(canasta.compiled)})"


def bot_name(text: str) -> str:
    """An argparse type: a bot name `canasta.make_bot` accepts (``greedy``, ``ismcts:50ms``, ...).

    Args:
        text: The name.

    Returns:
        The same name.

    Raises:
        argparse.ArgumentTypeError: Naming the known bots, if it is not one.
    """
    try:
        make_bot(text)
    except CanastaError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def split_bot_names(items: Sequence[str]) -> list[str]:
    """Bot names given as separate words or comma-separated (``ismcts,greedy``).

    A comma-separated part holding ``=`` is an option of the bot before it
    (``ismcts:300,c=0.4,greedy`` is two bots).

    Args:
        items: The words of the command line.

    Returns:
        One name per bot.
    """
    names: list[str] = []
    for item in items:
        for part in item.split(","):
            if "=" in part and names:
                names[-1] += "," + part
            elif part:
                names.append(part)
    return names


_INTEGER = re.compile(r"[+-]?[0-9]+")

#: Bounds of the numeric options (each refused outside them by the argument parser, exit code 2).
MAX_GAMES = 10_000_000
MAX_HANDS = 1_000_000
MAX_PORT = 65_535


def _integer(text: str) -> int:
    """The integer a command-line value spells (ASCII digits, an optional sign), or an argparse error."""
    stripped = text.strip()
    if not _INTEGER.fullmatch(stripped):
        raise argparse.ArgumentTypeError(f"must be a whole number, got {printable(stripped[:40])!r}")
    if len(stripped.lstrip("+-")) > 18:  # beyond every bound here (and int() refuses 4,300 digits)
        raise argparse.ArgumentTypeError(f"{len(stripped.lstrip('+-'))} digits is out of range")
    return int(stripped)


def int_option(what: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (a one-line error and exit code 2 otherwise).

    Args:
        what: The option's name (argparse puts it before the message), e.g. ``"--port"``.
        low: The smallest value accepted.
        high: The largest value accepted.

    Returns:
        The type function.
    """

    def check(text: str) -> int:
        value = _integer(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {value}")
        return value

    check.__name__ = what  # argparse names a type by its function in some messages
    return check


def seed_option(what: str = "a seed") -> Callable[[str], int]:
    """An argparse type: a seed, by `canasta.seeds.check_seed` (the library's one rule for seeds).

    Args:
        what: The option's name, for the message.

    Returns:
        The type function.
    """

    def check(text: str) -> int:
        stripped = text.strip()
        value: object = stripped  # not a number: check_seed refuses it as not an integer
        digits = len(stripped.lstrip("+-"))
        if _INTEGER.fullmatch(stripped):
            # A number too long for int() is certainly out of range: check the limit itself.
            value = int(stripped) if digits <= 100 else (-SEED_LIMIT if stripped.startswith("-") else SEED_LIMIT)
        try:
            return check_seed(value, name=what)
        except SeedError as exc:
            message = str(exc) if digits <= 100 else f"{str(exc).rsplit(', got', 1)[0]}, got {digits} digits"
            raise argparse.ArgumentTypeError(message) from None

    check.__name__ = what
    return check


def budget_option(text: str) -> str:
    """An argparse type: a search budget (``300`` iterations or ``50ms``), as ``ismcts:<budget>`` accepts it.

    Args:
        text: The budget.

    Returns:
        The same text.

    Raises:
        argparse.ArgumentTypeError: If ``ismcts:<text>`` is not a bot `canasta.make_bot` accepts.
    """
    return bot_name(f"ismcts:{text}").partition(":")[2]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``canasta`` command."""
    parser = argparse.ArgumentParser(prog="canasta", description="Canasta by the rules, for every common variant.")
    parser.add_argument("--version", action="version", version=version_line(), help="show the version and engine")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def rules_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--variant", default="classic", help="variant name (see `canasta variants`)")
        p.add_argument(
            "--house-rule", action="append", default=[], dest="house_rules", metavar="NAME", help="stack a house rule"
        )

    def players_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--players",
            type=int_option("--players", 2, 8),
            default=None,
            metavar="N",
            help="number of players, one the variant plays (see `canasta variants`; default: the variant's own)",
        )

    play = sub.add_parser("play", help="play seat 0 against bots in the terminal")
    rules_args(play)
    players_arg(play)
    play.add_argument("--seed", type=seed_option(), default=None, help="seed (default: random)")
    play.add_argument("--bots-only", action="store_true", help="let bots play every seat")
    play.add_argument(
        "--bot",
        default="greedy",
        type=bot_name,
        help=f"the bots' strategy: {', '.join(bot_names())}, or ismcts:<budget> such as ismcts:50ms or ismcts:300",
    )
    play.add_argument(
        "--hints", action="store_true", help="show the action the ISMCTS search recommends, why, and what it weighed"
    )
    play.add_argument(
        "--hint-budget",
        default="300",
        type=budget_option,
        metavar="BUDGET",
        help="the hint's search budget: iterations, or e.g. 200ms",
    )
    play.add_argument(
        "--max-hands",
        type=int_option("--max-hands", 1, MAX_HANDS),
        default=None,
        metavar="N",
        help="stop after N hands",
    )
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE")
    play.add_argument("--quiet", action="store_true", help="with --bots-only: print only hand scores")

    sim = sub.add_parser("simulate", help="let bots play many games and summarise")
    rules_args(sim)
    players_arg(sim)
    sim.add_argument("--games", type=int_option("--games", 1, MAX_GAMES), default=100, help="games to play")
    sim.add_argument("--seed", type=seed_option(), default=0, help="the simulation's seed (default: 0)")
    sim.add_argument(
        "--bots",
        nargs="+",
        default=["greedy"],
        help=f"bot per seat, repeated; words or comma-separated ({', '.join(bot_names())}, ismcts:<budget>)",
    )
    sim.add_argument(
        "--workers",
        type=int_option("--workers", 1, MAX_WORKERS),
        default=1,
        help="worker processes (default 1; capped at the games' count and at the CPUs, see --oversubscribe)",
    )
    sim.add_argument(
        "--oversubscribe", action="store_true", help="allow more worker processes than the CPUs this process may use"
    )
    sim.add_argument("--backend", choices=["process", "dask"], default="process")
    sim.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="address of a Dask scheduler to run on (needs --backend dask; tasks travel as pickles: trust it)",
    )
    sim.add_argument(
        "--max-hands",
        type=int_option("--max-hands", 1, MAX_HANDS),
        default=200,
        help="cut a game off after this many hands",
    )
    sim.add_argument("--format", choices=["text", "json", "csv"], default="text")
    sim.set_defaults(check_usage=_check_simulate_usage, subparser=sim)

    rep = sub.add_parser("replay", help="step through a game record")
    rep.add_argument("file")
    rep.add_argument("--step", action="store_true", help="show the table and wait for Enter after each action")
    rep.add_argument("--no-version-check", action="store_true", help="replay despite other variant versions")

    pic = sub.add_parser(
        "render",
        help="draw a position of a game record as an SVG picture",
        description="Replay a record up to a position and draw it as SVG: a seat's view (its hand face up, "
        "the others face down), or with --table every hand face up. Hands are numbered from 1, as replay "
        "shows them; --action I is the number of actions played in that hand (0: at the deal).",
    )
    pic.add_argument("file", help="the game record (JSON)")
    pic.add_argument(
        "--hand",
        type=int_option("--hand", 1, MAX_HANDS),
        default=None,
        metavar="H",
        help="hand number, from 1 (default: the last)",
    )
    pic.add_argument(
        "--action",
        type=int_option("--action", 0, 10**9),
        default=None,
        metavar="I",
        help="after I actions of that hand: 0 is the deal, its length the end (default: the end)",
    )
    who = pic.add_mutually_exclusive_group()
    who.add_argument(
        "--seat", type=int_option("--seat", 0, 1000), default=0, metavar="S", help="draw what seat S sees (default: 0)"
    )
    who.add_argument("--table", action="store_true", help="draw the whole table, every hand face up")
    pic.add_argument("-o", "--output", default="-", metavar="FILE", help="write to FILE (default, or -: stdout)")
    pic.add_argument("--no-version-check", action="store_true", help="render despite other variant versions")

    web = sub.add_parser(
        "serve",
        help="play in the browser against bots, or replay a record (extra `web`)",
        description="Serve a page where you play seat 0 against bots and step through game records. "
        "There is no authentication: it binds to 127.0.0.1 by default; do not expose it.",
    )
    rules_args(web)
    players_arg(web)
    web.add_argument(
        "--seed", type=seed_option(), default=None, help="seed of each browser's first game (default: random)"
    )
    web.add_argument(
        "--bot",
        default="greedy",
        type=bot_name,
        help=f"the bots' strategy: {', '.join(bot_names())}, or ismcts:<budget> such as ismcts:50ms",
    )
    web.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, loopback only)")
    web.add_argument(
        "--port", type=int_option("--port", 0, MAX_PORT), default=8000, help="port (default: 8000; 0: any free port)"
    )

    sub.add_parser("variants", help="list installed variants and house rules")

    rules = sub.add_parser("rules", help="print a variant's compiled rules")
    rules.add_argument("name", help="variant name")
    rules.add_argument("--house-rule", action="append", default=[], dest="house_rules", metavar="NAME")
    players_arg(rules)
    rules.add_argument("--format", choices=["table", "text", "markdown"], default="table")
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Run the ``canasta`` command.

    Args:
        argv: Arguments (default: ``sys.argv[1:]``).
        stdin: Where to read a player's input (default: ``sys.stdin``).
        stdout: Where to write (default: ``sys.stdout``).

    Returns:
        The exit code: 0 on success, 2 for a usage error or bad input.
    """
    args = build_parser().parse_args(argv)
    check_usage = getattr(args, "check_usage", None)
    if check_usage is not None:
        problem = check_usage(args)
        if problem:
            args.subparser.error(problem)  # prints usage and exits with code 2, like argparse's own errors
    inp = stdin if stdin is not None else sys.stdin
    if inp is sys.stdin and isinstance(inp, io.TextIOWrapper):
        inp.reconfigure(errors="replace")  # bytes that are not text are refused as a command, not a traceback
    out = stdout if stdout is not None else sys.stdout
    console = Console(file=out, highlight=False, soft_wrap=False, width=None if out.isatty() else 110)
    try:
        if args.command == "play":
            return _play(args, inp, console)
        if args.command == "simulate":
            return _simulate(args, out, console)
        if args.command == "replay":
            return _replay(args, inp, console)
        if args.command == "render":
            return _render(args, out, console)
        if args.command == "variants":
            return _variants(out, console)
        if args.command == "serve":
            return _serve(args, console)
        return _rules(args, out, console)
    except (CanastaError, OSError) as exc:
        # One line, whatever the message holds (it may quote a record): control characters escaped.
        print(f"canasta: error: {printable(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("canasta: interrupted", file=sys.stderr)
        return 130


def _check_simulate_usage(args: argparse.Namespace) -> str | None:
    """A usage error of ``canasta simulate`` that argparse cannot see, or ``None``."""
    if args.scheduler is not None and args.backend != "dask":
        return "--scheduler needs --backend dask (without it the games would run here, ignoring the scheduler)"
    if args.scheduler is not None and not args.scheduler.strip():
        return "--scheduler needs an address, such as tcp://10.0.0.5:8786"
    for name in split_bot_names(args.bots):  # each bot's spec, its budget and numbers, before any game
        try:
            make_bot(name)
        except CanastaError as exc:
            return f"argument --bots: {exc}"
    if not split_bot_names(args.bots):
        return "argument --bots: name at least one bot"
    return None


# --- play -------------------------------------------------------------------------------


def _read_line(inp: IO[str], console: Console, prompt: str) -> str:
    """Print a prompt and read a line (echoed when the input is not a terminal); raise `_Quit` at its end."""
    console.print(prompt, end="")
    line = inp.readline()
    if not line:
        console.print()
        raise _Quit("input ended")
    if not inp.isatty():
        console.print(untrusted_text(line.strip()))  # echo scripted input so the transcript reads well
    return line.strip()


def _read_action(inp: IO[str], console: Console, game: Game, numbered: Sequence[Action]) -> Action | None:
    """Read a menu number or a typed command (`canasta.commands`); ``None`` after showing the help.

    Bad input is refused with what was wrong (an engine refusal names the rule) and asked again.
    """
    count = len(numbered)
    while True:
        line = _read_line(inp, console, menu_prompt(count))
        quoted = repr(line if len(line) <= 40 else line[:37] + "...")  # an over-long input is not echoed whole
        try:
            parsed = parse_command(line, game)
        except IllegalActionError as exc:
            console.print(untrusted_text(f"not allowed now: {exc.message}", style="red"))
            continue
        except CommandError as exc:
            console.print(untrusted_text(f"not a choice: {quoted}: {exc}", style="red"))
            continue
        if not isinstance(parsed, Command):
            return parsed
        if parsed.kind == "quit":
            raise _Quit("quit")
        if parsed.kind == "help":
            console.print(render_help(sequences=bool(game.rules.meld_types)))
            _read_line(inp, console, "press Enter to go back to the table: ")
            return None
        if 1 <= parsed.number <= count:
            return numbered[parsed.number - 1]
        numbers = "only 1" if count == 1 else f"1-{count}"
        console.print(
            untrusted_text(f"not a choice: {quoted}: the menu has {numbers}; type ? for the commands", style="red")
        )


def _pause(inp: IO[str], console: Console) -> None:
    """Wait for Enter after a hand's score (a line of the input; its end quits)."""
    _read_line(inp, console, "press Enter to continue: ")


def _hint_bot(args: argparse.Namespace, seed: int) -> ISMCTSBot:
    iterations, milliseconds = parse_budget(args.hint_budget)
    return ISMCTSBot(f"hints:{seed}", iterations=iterations, milliseconds=milliseconds)


def hint_line(bot: ISMCTSBot, game: Game, seat: int, numbered: Sequence[Action]) -> str:
    """The hint: the action the search recommends with its own numbers, why, and what it weighed (issue 32).

    The first line names the recommended action (with its menu number), its
    share of the search iterations and its mean hand-score difference for the
    seat's side; the next says why it is recommended; then the most visited
    actions (three, and the recommended one if it is not among them), each
    with its share, its mean and, for the others, its mean gain over the
    search's default (the playout policy's own choice) on the deals both were
    tried on: the comparison the recommendation rests on.

    Args:
        bot: The searching bot.
        game: The game (only ``seat``'s view of it is searched).
        seat: The seat to advise.
        numbered: The menu's actions, numbered from 1.

    Returns:
        The hint's lines, joined by newlines: the first as long as it needs
        to be, the others at most 80 characters (long action names shortened
        in the list).
    """
    result = bot.search(game.hand, seat)
    best = result.best

    def label(action: Action) -> str:
        number = next((i for i, a in enumerate(numbered, 1) if a == action), None)
        return f"[{number}] {action_text(action)}" if number is not None else action_text(action)

    if not result.iterations:
        return f"hint: {label(best.action)} ({result.reason})"
    default = result.policy_choice
    lines = [  # one line, however long (the console wraps it): what the recommendation is
        f"hint: {label(best.action)} ({100 * best.share:.0f}% of {result.iterations} search iterations, "
        f"mean {best.mean:+.0f} points for your side)"
    ]
    if bot.confidence is None:
        why = result.reason
    elif default is None or best.action == default:
        why = "the search's default (the playout policy's choice); " + (
            "no other action did better on the same deals by more than "
            f"{bot.confidence:g} standard errors of its gain"
            if any(s.gain is not None for s in result.actions)
            else "no other action was tried on enough of the same deals to be compared with it"
        )
    elif best.gain is not None:
        why = (
            f"it did better than the default, {label(default)}, by {best.gain:+.0f} points a hand "
            f"on the same {best.paired} deals"
        )
    else:
        why = result.reason
    lines += textwrap.wrap(f"why: {why}", width=78, initial_indent="  ", subsequent_indent="       ")
    lines.append("  weighed: share of iterations, mean (your side's hand score minus the other")
    lines.append("  side's), gain over the default on the same deals:")
    shown = list(result.by_visits()[:3])
    if best not in shown:
        shown.append(best)
    width = min(max(len(label(s.action)) for s in shown), 32)
    for stats in shown:
        text = label(stats.action)
        if len(text) > width:
            text = text[: width - 1] + "…"
        row = f"  {'>' if stats is best else ' '} {text:<{width}} {100 * stats.share:3.0f}%  mean {stats.mean:+5.0f}  "
        if stats.action == default:
            row += "(default)"
        elif stats.gain is not None:
            row += f"gain {stats.gain:+.0f} on {stats.paired}"
        else:
            row += "too few deals to compare"
        lines.append(row)
    return "\n".join(lines)


def check_record_path(path: str) -> Path:
    """Refuse, before the first move, a ``--record`` path where the record could not be written.

    The file's directory must exist and take a new file (a temporary file is
    created and removed there, the very operation `write_record` makes), and
    the path must not be a directory or another non-regular file (``/dev/null``,
    a FIFO).

    Args:
        path: The path given.

    Returns:
        The path.

    Raises:
        CanastaError: Saying what is wrong with the path.
    """
    target = Path(path)
    directory = target.parent
    if not directory.is_dir():
        raise CanastaError(f"--record {path}: the directory {directory} does not exist")
    if target.exists() or target.is_symlink():
        try:
            mode = target.stat().st_mode
        except OSError as exc:
            raise CanastaError(f"--record {path}: {exc.strerror}") from None
        if not stat.S_ISREG(mode):
            raise CanastaError(f"--record {path}: not a regular file (a directory, device or FIFO)")
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".canasta-record-", suffix=".tmp"):
            pass
    except OSError as exc:
        raise CanastaError(f"--record {path}: cannot write in {directory}: {exc.strerror or exc}") from None
    return target


def write_record(record: GameRecord, path: str | Path) -> Path:
    """Write a record so that a failure never leaves a half-written file nor loses the game.

    The record is written to a temporary file in the target's directory,
    flushed to disk, and moved into place with `os.replace` (an existing file
    is replaced whole or not at all). If that fails (a full disk, the
    directory gone), the record is written to the system's temporary
    directory, then to the current directory, and the error says where it was kept.

    Args:
        record: The record.
        path: Where to write it.

    Returns:
        The path written (``path``).

    Raises:
        CanastaError: If ``path`` could not be written; the message says where
            the record was kept instead (or, if nowhere, holds it whole).
    """
    text = record.dumps(indent=None) + "\n"
    target = Path(path)
    try:
        _write_atomically(text, target)
        return target
    except OSError as exc:
        reason = exc.strerror or str(exc)
    for directory in (Path(tempfile.gettempdir()), Path.cwd()):
        try:
            fd, kept = tempfile.mkstemp(prefix="canasta-record-", suffix=".json", dir=directory)
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
        except OSError:
            continue
        raise CanastaError(f"could not write the record to {path} ({reason}); it was kept in {kept}")
    raise CanastaError(f"could not write the record to {path} ({reason}) nor anywhere else; the record: {text}")


def _write_atomically(text: str, target: Path) -> None:
    """Write ``text`` to a temporary file beside ``target``, then move it into place."""
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as a plain open() would have made it (mkstemp makes 0600)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _play(args: argparse.Namespace, inp: IO[str], console: Console) -> int:
    record_path = check_record_path(args.record) if args.record else None  # before the first move
    seed = resolve_seed(args.seed)
    game = Game(args.variant, args.house_rules, seed=seed, players=args.players)
    rules = game.rules
    human = None if args.bots_only else HUMAN_SEAT
    humans: tuple[int, ...] = () if human is None else (human,)
    hinter = _hint_bot(args, seed) if args.hints and human is not None else None
    bots: dict[int, Bot] = {s: make_bot(args.bot, f"{seed}:{s}") for s in range(rules.players) if s != human}
    names = ["you" if s == human else args.bot for s in range(rules.players)]
    recorder = GameRecorder(game, names)
    title = rules.variant + "".join(f" + {h}" for h in rules.house_rules)
    console.print(f"[bold]canasta: {title}[/bold], seed {seed}, {rules.players} players")
    verbose = not args.quiet
    watcher = HUMAN_SEAT if human is None else human  # whose view the table's changes are read from
    quit_reason = None

    def tell(lines: Sequence[str]) -> None:
        for line in lines:
            console.print(untrusted_text(f"  {line}"))

    if verbose or human is not None:
        tell(describe_changes(None, game.observation(watcher), names=names, human_seats=humans))
    finished = False
    try:
        while not game.is_over and (args.max_hands is None or len(game.results) < args.max_hands):
            seat = game.seat
            hand_number = game.hand_number
            if seat == human:
                screen, numbered = render_turn(
                    game.observation(seat),
                    rules,
                    game.legal_actions(),
                    width=console.width,
                    height=console.height if console.is_terminal else 24,
                    hand_number=hand_number,
                    names=names,
                    human_seats=humans,
                )
                console.print(screen)
                if hinter is not None:
                    console.print(hint_line(hinter, game, seat, numbered))
                chosen = _read_action(inp, console, game, numbered)
                if chosen is None:  # the help was shown: show the table again
                    continue
                action = chosen
            else:
                action = bots[seat].choose(game.hand, seat)
                if verbose:
                    console.print(untrusted_text(f"  seat {seat} ({names[seat]}): {action_text(action)}"))
            before = len(game.results)
            seen, in_play = game.observation(watcher), game.hand
            recorder.apply(action)
            if len(game.results) == before:
                if verbose or human is not None:
                    tell(describe_changes(seen, game.observation(watcher), action, names=names, human_seats=humans))
                continue
            for number in range(before, len(game.results)):  # a hand can also end on its deal
                score = game.results[number]
                shown = in_play if number == before and in_play.is_over else None  # (a deal's end: no hand)
                totals = game.totals_after(number)
                console.print(render_hand_score(score, rules, totals, hand_number=number, hand=shown))
            more = not game.is_over and (args.max_hands is None or len(game.results) < args.max_hands)
            if human is not None and more:
                _pause(inp, console)  # read the breakdown before the bots start the next hand
            if more and (verbose or human is not None):
                tell(describe_changes(None, game.observation(watcher), names=names, human_seats=humans))
        finished = True
    except _Quit as exc:
        quit_reason = str(exc)
        finished = True
    finally:
        if record_path is not None and not finished:
            # Whatever stopped the game (an error, Ctrl+C), the moves played are kept.
            with contextlib.suppress(CanastaError):
                kept = write_record(recorder.record(), record_path)
                print(printable(f"canasta: the game so far was saved to {kept}"), file=sys.stderr)
    if game.is_over:
        verdict = verdict_text(rules, game.winners())
        hands = plural(len(game.results), "hand")
        final = scores_text(rules, game.scores)
        console.print(f"[bold]game over after {hands}: {verdict}; final: {final}[/bold]")
    else:
        why = quit_reason or f"stopped after {plural(len(game.results), 'hand')}"
        console.print(f"game not finished ({why}): {scores_text(rules, game.scores)}")
    if record_path is not None:
        kept = write_record(recorder.record(), record_path)
        console.print(untrusted_text(f"record saved to {kept}"))
    return 0


# --- replay and render: record files ----------------------------------------------------


def regular_file(path: str) -> str:
    """Refuse a path that is not a regular file (a FIFO or a device would block or never end).

    Args:
        path: The record's path.

    Returns:
        The path.

    Raises:
        CanastaError: If it is not a regular file.
        OSError: If it cannot be examined (it does not exist, say).
    """
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
        raise CanastaError(f"{path}: {kind}; a record is read from a regular file")
    return path


# --- simulate ---------------------------------------------------------------------------


def _simulate(args: argparse.Namespace, out: IO[str], console: Console) -> int:
    client: Any = None
    if args.scheduler is not None:
        try:
            import importlib

            client = importlib.import_module("distributed").Client(args.scheduler)
        except ImportError:
            raise CanastaError("--scheduler needs Dask distributed: pip install 'canasta[distributed]'") from None
    err = Console(stderr=True)
    show_progress = args.format == "text" and err.is_terminal
    progress = Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err, transient=True
    )
    task = progress.add_task("games", total=args.games)

    def report(done: int, total: int) -> None:
        progress.update(task, completed=done)

    try:
        if show_progress:
            progress.start()
        result = simulate(
            args.variant,
            args.house_rules,
            games=args.games,
            seed=args.seed,
            bots=split_bot_names(args.bots),
            workers=args.workers,
            backend=args.backend,
            client=client,
            max_hands=args.max_hands,
            progress=report if show_progress else None,
            oversubscribe=args.oversubscribe,
            players=args.players,
        )
    finally:
        if show_progress:
            progress.stop()
        if client is not None:
            client.close()
    if args.format == "json":
        data = result.summary.to_json()
        data["seconds"] = round(result.seconds, 3)
        data["workers"] = result.workers
        data["backend"] = result.backend
        out.write(json.dumps(data) + "\n")
    elif args.format == "csv":
        sides = len(result.summary.sides)
        writer = csv.writer(out, lineterminator="\n")
        header = ["game", "seed", "winner", *(f"score_{s}" for s in range(sides)), "hands", "actions"]
        writer.writerow([*header, "turns_per_hand", "complete"])
        for row in result.rows:
            turns = sum(row.hand_turns) / row.hands if row.hands else 0.0
            winner = "" if row.winner is None else row.winner
            writer.writerow(
                [row.index, row.seed, winner, *row.scores, row.hands, row.actions, f"{turns:.2f}", row.complete]
            )
    else:
        console.print(render_simulation_summary(result.summary, result.seconds))
    return 0


# --- replay -----------------------------------------------------------------------------


def _replay(args: argparse.Namespace, inp: IO[str], console: Console) -> int:
    check = not args.no_version_check
    # Exactly load_record's checks (every action, the hands' totals and lengths, the final
    # scores, `complete`), before anything is shown: a bad record prints nothing but its error.
    record = load_record(regular_file(args.file), check_versions=check)
    seats = [printable(s) for s in record.seats]
    humans = human_seats(record.seats)
    rules_title = record.variant + "".join(f" + {h}" for h in record.house_rule_names)
    header = Text()
    header.append(printable(f"record: {rules_title}"), style="bold")
    header.append(
        printable(
            f" (version {record.variant_version}), seed {record.seed}, "
            f"seats: {', '.join(record.seats)}, {plural(len(record.actions), 'action')}"
        )
    )
    console.print(header)

    def tell(lines: Sequence[str]) -> None:  # the rules' own moves (threes laid out): public, any seat's view
        for told in lines:
            console.print(Text(f"    {told}"))

    game: Game | None = None
    seen = record.new_game().observation(0)
    tell(describe_changes(None, seen, names=record.seats))
    for done, step in enumerate(replay(record, check_versions=check), start=1):
        game = step.game
        played = action_text(step.action)
        console.print(Text(f"  hand {step.hand + 1}, seat {step.seat} ({seats[step.seat]}): {played}"))
        if step.hand_score is None:
            tell(describe_changes(seen, game.observation(0), step.action, names=record.seats))
        else:
            for number in range(step.hand, len(game.results)):
                score = game.results[number]
                console.print(render_hand_score(score, game.rules, game.totals_after(number), hand_number=number))
            if done < len(record.actions):  # the next hand was played: its deal is told
                tell(describe_changes(None, game.observation(0), names=record.seats))
        seen = game.observation(0)
        if args.step and not game.is_over:
            obs = game.observation(game.seat)
            console.print(
                render_observation(
                    obs, game.rules, hand_number=game.hand_number, names=record.seats, human_seats=humans
                )
            )
            console.print("Enter for the next action, q to stop: ", end="")
            line = inp.readline()
            if not line or line.strip().lower() in ("q", "quit"):
                console.print("stopped")
                return 0
    scores = game.scores if game is not None else record.final_scores
    rules = game.rules if game is not None else record.new_game().rules
    finished = game.is_over if game is not None else record.complete
    said = "final:" if finished else "(an unfinished game); so far:"
    console.print(
        Text(f"replayed {plural(len(record.actions), 'action')} {said} {scores_text(rules, scores)}", style="bold")
    )
    return 0


# --- render -----------------------------------------------------------------------------


def _render(args: argparse.Namespace, out: IO[str], console: Console) -> int:
    from canasta.render import render_observation_svg, render_table_svg

    record = load_record(regular_file(args.file), check_versions=not args.no_version_check)  # every check of replay
    lengths = list(record.hand_lengths)
    if not record.complete:
        lengths.append(len(record.actions) - sum(lengths))  # the hand in play when the record stopped
    if not lengths:
        raise CanastaError("the record holds no hand to draw")
    hand = len(lengths) if args.hand is None else args.hand
    if not 1 <= hand <= len(lengths):
        raise CanastaError(f"--hand {hand}: the record has {plural(len(lengths), 'hand')}, numbered from 1")
    length = lengths[hand - 1]
    action = length if args.action is None else args.action
    if not 0 <= action <= length:
        raise CanastaError(f"--action {action}: hand {hand} has {plural(length, 'action')} (0 is its deal)")
    game = record.new_game()
    state = game.hand
    for recorded in record.actions[: sum(lengths[: hand - 1]) + action]:
        current = game.hand
        game.apply(recorded)
        state = current if current.is_over else game.hand  # the hand as it ended, not the next deal
    if action == 0:
        state = game.hand
    if game.hand_number != hand - 1 and not (action and state.is_over):
        raise CanastaError(f"--hand {hand}: that hand ended on its deal; there is no position to draw")
    where = f"hand {hand}, " + (f"after {plural(action, 'action')}" if action else "at the deal")
    title = f"{record.variant}{''.join(f' + {h}' for h in record.house_rule_names)}: {where}"
    if args.table:
        svg = render_table_svg(state, names=record.seats, title=title)
    else:
        if not 0 <= args.seat < game.rules.players:
            raise CanastaError(f"--seat {args.seat}: the seats are 0 to {game.rules.players - 1}")
        svg = render_observation_svg(state.observation(args.seat), game.rules, names=record.seats, title=title)
    if args.output == "-":
        out.write(svg)
    else:
        with open(args.output, "w", encoding="utf-8") as file:
            file.write(svg)
        console.print(untrusted_text(f"picture written to {args.output}"))
    return 0


# --- serve ------------------------------------------------------------------------------


def _serve(args: argparse.Namespace, console: Console) -> int:
    import socket

    try:
        import uvicorn

        from canasta.web import create_app
        from canasta.web.app import DEFAULT_HOSTS
        from canasta.web.hosts import is_loopback
    except ImportError as exc:
        print(f"canasta: error: canasta serve needs the web extra: pip install 'canasta[web]' ({exc})", file=sys.stderr)
        return 2
    loopback = is_loopback(args.host)  # parsed (127.1, LOCALHOST, 0:0:0:0:0:0:0:1), not a list of spellings
    app = create_app(
        args.variant,
        args.house_rules,
        args.seed,
        bot=args.bot,
        allowed_hosts=DEFAULT_HOSTS if loopback else None,
        players=args.players,
    )
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host.strip("[]"), args.port))
    except OSError:
        sock.close()
        raise
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    console.print(untrusted_text(f"canasta: serving on http://{shown}:{port}/ (Ctrl+C stops it)"))
    if not loopback:
        console.print("[red]warning: not bound to loopback; the page has no authentication: do not expose it[/red]")
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    return 0


# --- variants and rules -----------------------------------------------------------------


def _variants(out: IO[str], console: Console) -> int:
    registry = default_registry()
    listing = (registry.variants(), registry.house_rules(), registry.failures)
    counts = _player_counts(registry)
    if console.is_terminal:
        console.print(render_variants(*listing, provenance=registry.provenance, players=counts))
    else:  # piped: plain lines, so that no name or origin is cut to a guessed width
        out.write(format_variants(*listing, provenance=registry.provenance, players=counts))
    return 0


def _player_counts(registry: Registry) -> Callable[[str], str]:
    """Says how many players a variant seats (`canasta.summary.player_counts_text`; ``"?"`` if its rules fail)."""

    def counts(name: str) -> str:
        try:
            rules = load_rules(name, registry=registry)
        except CanastaError:
            return "?"
        return player_counts_text(rules)

    return counts


def _rules(args: argparse.Namespace, out: IO[str], console: Console) -> int:
    rules = load_rules(args.name, args.house_rules, players=args.players)
    if args.format == "table":
        title = rules.variant + "".join(f" + {h}" for h in rules.house_rules)
        console.print(render_rules_summary(rules_summary(rules), f"Rules of {title}"))
    else:
        out.write(format_rules_summary(rules, args.format))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
