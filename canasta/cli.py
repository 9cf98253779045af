"""The ``canasta`` command: play, simulate, replay, list variants, show rules.

Every command takes its input from standard input and writes to standard
output, so it can be driven from tests and scripts. Errors a user can cause
(an unknown variant, a bad record) print one line and exit with code 2.
Text from a record (seat labels, names) is printed as plain text with control
characters escaped (`canasta.terminal.untrusted_text`), never as rich markup.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

import canasta
from canasta._engine import engine_description
from canasta.bots import Bot, bot_names, make_bot
from canasta.errors import CanastaError
from canasta.game import Game
from canasta.plugins import load_rules
from canasta.records import GameRecorder, load_record, replay, save_record
from canasta.registry import default_registry
from canasta.simulate import simulate
from canasta.summary import format_rules_summary, rules_summary
from canasta.terminal import (
    printable,
    render_actions,
    render_hand_score,
    render_observation,
    render_rules_summary,
    render_simulation_summary,
    render_variants,
    untrusted_text,
)
from canasta.wording import plural

__all__ = ["build_parser", "main"]

HUMAN_SEAT = 0


class _Quit(Exception):
    """The player asked to stop (or the input ended)."""


def version_line() -> str:
    """``canasta X.Y.Z (compiled engine)`` or ``(pure-Python engine)``: the version and the engine running."""
    return f"canasta {canasta.__version__} ({engine_description(canasta.compiled)})"


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

    play = sub.add_parser("play", help="play seat 0 against bots in the terminal")
    rules_args(play)
    play.add_argument("--seed", type=int, default=None, help="seed (default: random)")
    play.add_argument("--bots-only", action="store_true", help="let bots play every seat")
    play.add_argument("--bot", default="greedy", choices=bot_names(), help="the bots' strategy")
    play.add_argument("--max-hands", type=int, default=None, metavar="N", help="stop after N hands")
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE")
    play.add_argument("--quiet", action="store_true", help="with --bots-only: print only hand scores")

    sim = sub.add_parser("simulate", help="let bots play many games and summarise")
    rules_args(sim)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--bots", nargs="+", default=["greedy"], choices=bot_names(), help="bot per seat, repeated")
    sim.add_argument("--workers", type=int, default=1, help="local worker processes")
    sim.add_argument("--backend", choices=["process", "dask"], default="process")
    sim.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="address of a Dask scheduler to run on (needs --backend dask; tasks travel as pickles: trust it)",
    )
    sim.add_argument("--max-hands", type=int, default=200, help="cut a game off after this many hands")
    sim.add_argument("--format", choices=["text", "json", "csv"], default="text")
    sim.set_defaults(check_usage=_check_simulate_usage, subparser=sim)

    rep = sub.add_parser("replay", help="step through a game record")
    rep.add_argument("file")
    rep.add_argument("--step", action="store_true", help="show the table and wait for Enter after each action")
    rep.add_argument("--no-version-check", action="store_true", help="replay despite other variant versions")

    sub.add_parser("variants", help="list installed variants and house rules")

    rules = sub.add_parser("rules", help="print a variant's compiled rules")
    rules.add_argument("name", help="variant name")
    rules.add_argument("--house-rule", action="append", default=[], dest="house_rules", metavar="NAME")
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
    out = stdout if stdout is not None else sys.stdout
    console = Console(file=out, highlight=False, soft_wrap=False, width=None if out.isatty() else 110)
    try:
        if args.command == "play":
            return _play(args, inp, console)
        if args.command == "simulate":
            return _simulate(args, out, console)
        if args.command == "replay":
            return _replay(args, inp, console)
        if args.command == "variants":
            return _variants(console)
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
    return None


# --- play -------------------------------------------------------------------------------


def _read_choice(inp: IO[str], console: Console, count: int) -> int:
    """Read a 1-based action number; ``q`` quits; re-asks on bad input."""
    while True:
        console.print(f"choose 1-{count} (q to quit): ", end="")
        line = inp.readline()
        if not line:
            console.print()
            raise _Quit("input ended")
        text = line.strip().lower()
        if not inp.isatty():
            console.print(untrusted_text(text))  # echo scripted input so the transcript reads well
        if text in ("q", "quit", "exit"):
            raise _Quit("quit")
        if text.isdigit() and 1 <= int(text) <= count:
            return int(text) - 1
        console.print(untrusted_text(f"not a choice: {line.strip()!r}", style="red"))


def _play(args: argparse.Namespace, inp: IO[str], console: Console) -> int:
    import random

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = Game(args.variant, args.house_rules, seed=seed)
    rules = game.rules
    human = None if args.bots_only else HUMAN_SEAT
    bots: dict[int, Bot] = {s: make_bot(args.bot, f"{seed}:{s}") for s in range(rules.players) if s != human}
    names = ["you" if s == human else args.bot for s in range(rules.players)]
    recorder = GameRecorder(game, names)
    title = rules.variant + "".join(f" + {h}" for h in rules.house_rules)
    console.print(f"[bold]canasta: {title}[/bold], seed {seed}, {rules.players} players")
    verbose = not args.quiet
    quit_reason = None
    try:
        while not game.is_over and (args.max_hands is None or len(game.results) < args.max_hands):
            seat = game.seat
            hand_number = game.hand_number
            if seat == human:
                actions = game.legal_actions()
                console.print(render_observation(game.observation(seat), rules, hand_number=hand_number, names=names))
                console.print(render_actions(actions))
                action = actions[_read_choice(inp, console, len(actions))]
            else:
                action = bots[seat].choose(game.hand, seat)
                if verbose:
                    console.print(f"  seat {seat} ({names[seat]}): {action}")
            before = len(game.results)
            recorder.apply(action)
            for number in range(before, len(game.results)):  # a hand can also end on its deal
                score = game.results[number]
                console.print(render_hand_score(score, rules, _totals_after(game, number), hand_number=number))
    except _Quit as exc:
        quit_reason = str(exc)
    if game.is_over:
        winner = game.winner()
        verdict = "a tie" if winner is None else f"side of seats {'+'.join(map(str, rules.seats_of(winner)))} wins"
        hands = plural(len(game.results), "hand")
        console.print(f"[bold]game over after {hands}: {verdict}; scores {game.scores}[/bold]")
    else:
        why = quit_reason or f"stopped after {plural(len(game.results), 'hand')}"
        console.print(f"game not finished ({why}); scores {game.scores}")
    if args.record:
        save_record(recorder.record(), args.record)
        console.print(untrusted_text(f"record saved to {args.record}"))
    return 0


def _totals_after(game: Game, number: int) -> list[int]:
    totals = [0] * game.rules.side_count
    for score in game.results[: number + 1]:
        for side, value in enumerate(score.totals):
            totals[side] += value
    return totals


# --- simulate ---------------------------------------------------------------------------


def _simulate(args: argparse.Namespace, out: IO[str], console: Console) -> int:
    if args.games < 1:
        raise CanastaError(f"--games must be at least 1, got {args.games}")
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
            bots=args.bots,
            workers=args.workers,
            backend=args.backend,
            client=client,
            max_hands=args.max_hands,
            progress=report if show_progress else None,
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
    record = load_record(args.file, check_versions=check)
    seats = [printable(s) for s in record.seats]
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
    game: Game | None = None
    for step in replay(record, check_versions=check):
        game = step.game
        console.print(Text(f"  hand {step.hand + 1}, seat {step.seat} ({seats[step.seat]}): {step.action}"))
        if step.hand_score is not None:
            for number in range(step.hand, len(game.results)):
                score = game.results[number]
                console.print(render_hand_score(score, game.rules, _totals_after(game, number), hand_number=number))
        if args.step and not game.is_over:
            obs = game.observation(game.seat)
            console.print(render_observation(obs, game.rules, hand_number=game.hand_number, names=record.seats))
            console.print("Enter for the next action, q to stop: ", end="")
            line = inp.readline()
            if not line or line.strip().lower() in ("q", "quit"):
                console.print("stopped")
                return 0
    final = list(game.scores) if game is not None else list(record.final_scores)
    console.print(Text(f"replayed {plural(len(record.actions), 'action')}; final scores {final}", style="bold"))
    return 0


# --- variants and rules -----------------------------------------------------------------


def _variants(console: Console) -> int:
    registry = default_registry()
    console.print(render_variants(registry.variants(), registry.house_rules(), registry.failures))
    return 0


def _rules(args: argparse.Namespace, out: IO[str], console: Console) -> int:
    rules = load_rules(args.name, args.house_rules)
    if args.format == "table":
        title = rules.variant + "".join(f" + {h}" for h in rules.house_rules)
        console.print(render_rules_summary(rules_summary(rules), f"Rules of {title}"))
    else:
        out.write(format_rules_summary(rules, args.format))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
