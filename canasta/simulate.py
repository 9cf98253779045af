"""Simulations: bots play many games, in one process, local processes, or Dask.

Every game is seeded from ``(seed, game index)`` alone, and results are put
back in game order, so the totals do not depend on the number of workers or on
the backend. ``backend="dask"`` runs the same per-chunk function on a Dask
distributed cluster (install the ``distributed`` extra:
``pip install 'canasta[distributed]'``).

A cluster runs what it is sent: tasks and results travel as pickles, so passing
a client of a scheduler means trusting that cluster, and whoever can reach it,
with code execution on both sides. Without a client (and no current one), a
local cluster is started for the run: its scheduler and workers listen on
127.0.0.1 only, and its dashboard is off (start your own
``distributed.LocalCluster`` for a dashboard; see "Distributed simulations" in
the docs).

Local worker processes are never more than the tasks, nor (unless
``oversubscribe=True``) than the CPUs this process may use, and at most
`MAX_WORKERS` are asked for. They die with the process that started them (on
Linux by ``prctl(PR_SET_PDEATHSIG)``, elsewhere by a watchdog thread that
watches the parent's pid), ignore Ctrl+C (the parent stops them: an
interrupted run cancels what has not started and terminates its workers at
once), and a worker that dies or is stopped (``SIGSTOP``) ends the run with a
`WorkerLostError` naming it, instead of a ``BrokenProcessPool`` traceback or
a run that never ends.

Workers look variants up by name in their own process: variants installed
through entry points are found everywhere; a variant added with
`canasta.register_plugin` is seen by forked local workers (the default on
Linux) but must be registered in each worker process elsewhere (or installed).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

from attrs import asdict, frozen

from canasta.bots import make_bot
from canasta.errors import CanastaError
from canasta.game import Game
from canasta.plugins import load_rules

__all__ = [
    "MAX_WORKERS",
    "GameRow",
    "SideSummary",
    "SimulationResult",
    "Summary",
    "WorkerLostError",
    "available_cpus",
    "game_seed",
    "play_game",
    "simulate",
    "worker_count",
]

Backend = Literal["process", "dask"]

#: The most worker processes a simulation may ask for (a `CanastaError` above it).
MAX_WORKERS = 256

#: Seconds between two checks of the workers' health while no task finishes.
LIVENESS_INTERVAL = 0.5

#: A worker seen stopped (``SIGSTOP``) at this many checks in a row, over `STOPPED_SECONDS` at least, ends the run.
STOPPED_CHECKS = 6

#: How long a worker must stay stopped before the run ends (a Ctrl+Z of the whole job stops the parent too).
STOPPED_SECONDS = 3.0

#: How long the workers of a finished run may take to exit before they are killed (an idle worker
#: stopped or stuck after its last task must not hang the end of a run whose results are all in).
SHUTDOWN_SECONDS = 5.0


class WorkerLostError(CanastaError):
    """A worker process of a simulation died or was stopped, so the run cannot finish.

    Attributes:
        pid: The worker's process id, if known.
        exitcode: Its exit code (``-9``: killed by signal 9), if it died and it is known.
    """

    def __init__(self, message: str, pid: int | None = None, exitcode: int | None = None) -> None:
        super().__init__(message)
        self.pid = pid
        self.exitcode = exitcode

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.pid, self.exitcode))


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system says, else the machine's count).

    Returns:
        At least 1.
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def worker_count(workers: int, tasks: int, *, oversubscribe: bool = False) -> int:
    """The worker processes a run starts: ``workers`` capped by the tasks and (by default) by the CPUs.

    Args:
        workers: The workers asked for, from 1 to `MAX_WORKERS`.
        tasks: The tasks to run.
        oversubscribe: Allow more workers than `available_cpus`.

    Returns:
        From 1 to ``workers``.

    Raises:
        CanastaError: If ``workers`` is not an integer from 1 to `MAX_WORKERS`.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise CanastaError(f"workers must be an integer from 1 to {MAX_WORKERS}, got {workers!r}")
    cap = workers if oversubscribe else min(workers, available_cpus())
    return max(1, min(cap, tasks))


@frozen
class GameRow:
    """The result of one simulated game.

    Attributes:
        index: The game's index in the simulation.
        seed: The game's seed (derived from the simulation seed and the index).
        winner: The winning side, or ``None`` (a tie, or the game was cut off).
        scores: Each side's final total.
        hands: Hands played.
        actions: Actions played.
        hand_turns: Turns in each hand.
        complete: False if the game was cut off at ``max_hands``.
        winners: The sides sharing the win (`canasta.Game.winners`): one
            side, or several in a draw; ``()`` if the game was cut off.
    """

    index: int
    seed: int
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    actions: int
    hand_turns: tuple[int, ...]
    complete: bool
    winners: tuple[int, ...] = ()


@frozen
class SideSummary:
    """One side's results over a simulation.

    Attributes:
        side: The side.
        seats: Its seats.
        bots: The bot playing each of its seats.
        wins: Games won.
        win_rate: ``wins / games``.
        win_rate_low: Lower end of the 95% Wilson confidence interval.
        win_rate_high: Upper end of the 95% Wilson confidence interval.
        mean_score: Mean final total.
        draws: Games it drew: it shared the highest total with other sides
            (counted in the summary's ``ties`` too).
    """

    side: int
    seats: tuple[int, ...]
    bots: tuple[str, ...]
    wins: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    mean_score: float
    draws: int = 0


@frozen
class Summary:
    """Totals of a simulation (identical for any number of workers).

    Attributes:
        variant: The variant.
        house_rules: The house rules.
        games: Games played.
        seed: The simulation's seed.
        bots: The bot of each seat.
        sides: Per-side results.
        ties: Games without a single winner.
        incomplete: Games cut off at ``max_hands``.
        mean_hands: Mean hands per game.
        mean_turns_per_hand: Mean turns per hand.
        mean_actions_per_hand: Mean actions per hand.
        total_hands: Hands played.
        total_actions: Actions played.
        players: The number of players chosen (``None``: the variant's
            default; the seats are ``bots`` either way).
    """

    variant: str
    house_rules: tuple[str, ...]
    games: int
    seed: int
    bots: tuple[str, ...]
    sides: tuple[SideSummary, ...]
    ties: int
    incomplete: int
    mean_hands: float
    mean_turns_per_hand: float
    mean_actions_per_hand: float
    total_hands: int
    total_actions: int
    players: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        data = asdict(self, recurse=True)
        data["house_rules"] = list(self.house_rules)
        data["bots"] = list(self.bots)
        for side in data["sides"]:
            side["seats"] = list(side["seats"])
            side["bots"] = list(side["bots"])
        return data


@frozen
class SimulationResult:
    """What `simulate` returns.

    Attributes:
        summary: The totals.
        rows: One row per game, in game order.
        seconds: Wall-clock time taken (the only field that varies between runs).
        workers: Workers used.
        backend: The backend used.
    """

    summary: Summary
    rows: tuple[GameRow, ...]
    seconds: float
    workers: int
    backend: str


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation seeded with ``seed``.

    Args:
        seed: The simulation's seed.
        index: The game's index.

    Returns:
        A 63-bit seed that depends only on both numbers.
    """
    digest = hashlib.sha256(f"canasta-simulation:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_game(
    variant: str,
    house_rules: Sequence[str],
    seat_bots: Sequence[str],
    seed: int,
    index: int = 0,
    max_hands: int | None = None,
    *,
    players: int | None = None,
) -> GameRow:
    """Play one game with bots.

    Args:
        variant: The variant.
        house_rules: The house rules.
        seat_bots: The bot name of each seat.
        seed: The game's seed (the bots are seeded from it too).
        index: The game's index, copied into the row.
        max_hands: Stop after this many hands (``None``: play to the end).
        players: The number of players (``None``: the variant's default; see `canasta.Game`).

    Returns:
        The game's row.
    """
    game = Game(variant, house_rules, seed=seed, players=players)
    bots = [make_bot(name, f"{seed}:{seat}") for seat, name in enumerate(seat_bots)]
    turns: list[int] = []
    actions = 0
    while not game.is_over and (max_hands is None or len(game.results) < max_hands):
        hand = game.hand
        seat = hand.seat
        before = len(game.results)
        last_turn = hand.turn
        game.apply(bots[seat].choose(hand, seat))
        actions += 1
        if len(game.results) > before:
            turns.append(last_turn + 1)
            turns.extend(0 for _ in range(len(game.results) - before - 1))
    return GameRow(
        index=index,
        seed=seed,
        winner=game.winner(),
        scores=tuple(game.scores),
        hands=len(game.results),
        actions=actions,
        hand_turns=tuple(turns),
        complete=game.is_over,
        winners=game.winners(),
    )


def _play_chunk(
    variant: str,
    house_rules: tuple[str, ...],
    seat_bots: tuple[str, ...],
    seed: int,
    indexes: tuple[int, ...],
    max_hands: int | None,
    players: int | None = None,
) -> list[GameRow]:
    """Play a chunk of games (module level, so process pools and Dask can ship it)."""
    return [
        play_game(variant, house_rules, seat_bots, game_seed(seed, i), i, max_hands, players=players) for i in indexes
    ]


def _chunks(games: int, size: int) -> list[tuple[int, ...]]:
    return [tuple(range(start, min(start + size, games))) for start in range(0, games, size)]


def _wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # Rounding must not put the observed rate outside its own interval (e.g. 0.9999... for 10 of 10).
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def summarize(
    rows: Sequence[GameRow],
    *,
    variant: str,
    house_rules: Sequence[str],
    seed: int,
    seat_bots: Sequence[str],
    sides: Sequence[int],
    players: int | None = None,
) -> Summary:
    """Totals of a simulation's rows.

    Args:
        rows: The games' rows.
        variant: The variant.
        house_rules: The house rules.
        seed: The simulation's seed.
        seat_bots: The bot of each seat.
        sides: The side of each seat (``Rules.sides``).
        players: The number of players chosen (``None``: the variant's default).

    Returns:
        The summary.
    """
    n = len(rows)
    side_count = max(sides) + 1
    side_results = []
    for side in range(side_count):
        wins = sum(1 for r in rows if r.winner == side)
        low, high = _wilson(wins, n)
        seats = tuple(s for s, sd in enumerate(sides) if sd == side)
        side_results.append(
            SideSummary(
                side=side,
                seats=seats,
                bots=tuple(seat_bots[s] for s in seats),
                wins=wins,
                win_rate=wins / n if n else 0.0,
                win_rate_low=low,
                win_rate_high=high,
                mean_score=sum(r.scores[side] for r in rows) / n if n else 0.0,
                draws=sum(1 for r in rows if len(r.winners) > 1 and side in r.winners),
            )
        )
    total_hands = sum(r.hands for r in rows)
    total_actions = sum(r.actions for r in rows)
    total_turns = sum(sum(r.hand_turns) for r in rows)
    return Summary(
        variant=variant,
        house_rules=tuple(house_rules),
        games=n,
        seed=seed,
        bots=tuple(seat_bots),
        sides=tuple(side_results),
        ties=sum(1 for r in rows if r.winner is None and r.complete),
        incomplete=sum(1 for r in rows if not r.complete),
        mean_hands=total_hands / n if n else 0.0,
        mean_turns_per_hand=total_turns / total_hands if total_hands else 0.0,
        mean_actions_per_hand=total_actions / total_hands if total_hands else 0.0,
        total_hands=total_hands,
        total_actions=total_actions,
        players=players,
    )


def simulate(
    variant: str = "classic",
    house_rules: Sequence[str] = (),
    *,
    games: int = 100,
    seed: int = 0,
    bots: Sequence[str] = ("greedy",),
    workers: int = 1,
    backend: Backend = "process",
    client: Any = None,
    max_hands: int | None = 200,
    chunk_size: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    oversubscribe: bool = False,
    players: int | None = None,
) -> SimulationResult:
    """Let bots play many games and summarise the results.

    Args:
        variant: The variant's name.
        house_rules: House-rule names.
        games: Number of games.
        seed: The simulation's seed; game ``i`` is seeded with `game_seed(seed, i)`.
        bots: Bot names, one per seat, repeated in turn if shorter
            (``("greedy", "random")`` puts greedy bots on even seats).
        workers: Local worker processes (``process`` backend; 1 runs in this
            process) or the number of workers of a Dask cluster started here,
            from 1 to `MAX_WORKERS`; capped by the number of tasks and by
            `available_cpus` (see `worker_count`). ``SimulationResult.workers``
            says how many ran.
        backend: ``"process"`` (local processes) or ``"dask"`` (Dask distributed).
        client: A ``distributed.Client`` to use with the Dask backend (only with
            ``backend="dask"``): the cluster is trusted with pickled tasks and
            results. Without one the current client is used, or a local cluster
            is started on 127.0.0.1 with its dashboard off.
        max_hands: Cut a game off after this many hands (``None``: no limit), so
            that bots that never reach the target cannot run forever.
        chunk_size: Games per task (default: spread evenly, a few tasks per worker).
        progress: Called as ``progress(games_done, games)`` as games finish.
        oversubscribe: Allow more local workers than the CPUs this process may use.
        players: The number of players, one the variant plays (``None``: the
            variant's default; see `canasta.Game`).

    Returns:
        The summary and one row per game; identical for any ``workers`` and ``backend``.

    Raises:
        CanastaError: For an unknown variant, house rule or bot, bad counts
            (``max_hands`` below 1 among them, or a number of players the
            variant does not play), or a ``client`` without ``backend="dask"``.
        WorkerLostError: If a local worker process dies or is stopped during the run.
        ImportError: For the Dask backend when ``distributed`` is not installed.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise CanastaError(f"games must be an integer, not negative, got {games!r}")
    worker_count(workers, 1)  # the check alone: the count comes once the tasks are known
    if max_hands is not None and (isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1):
        raise CanastaError(f"max_hands must be None or an integer of at least 1, got {max_hands!r}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
        raise CanastaError(f"chunk_size must be None or an integer of at least 1, got {chunk_size!r}")
    if backend not in ("process", "dask"):
        raise CanastaError(f"unknown backend {backend!r}; use 'process' or 'dask'")
    if client is not None and backend != "dask":
        # Silently ignoring it would run the games here while the caller believes they run on the cluster.
        raise CanastaError(f"a Dask client is only used with backend='dask', not {backend!r}")
    try:  # fail fast on bad names, before any worker starts
        rules = load_rules(variant, house_rules, players=players)
    except TypeError as exc:
        raise CanastaError(str(exc)) from None
    if not bots:
        raise CanastaError("at least one bot name is needed")
    seat_bots = tuple(bots[s % len(bots)] for s in range(rules.players))
    for name in set(seat_bots):
        make_bot(name)
    if backend == "process" or client is None:  # workers this run starts itself
        workers = worker_count(workers, games, oversubscribe=oversubscribe)
    size = chunk_size or max(1, min(25, math.ceil(games / (workers * 4)) if games else 1))
    chunks = _chunks(games, size)
    if backend == "process" or client is None:
        workers = worker_count(workers, len(chunks), oversubscribe=oversubscribe)
    args = (variant, tuple(house_rules), seat_bots, seed)
    start = time.perf_counter()
    done_rows: dict[int, GameRow] = {}
    done = 0
    if backend == "dask":
        results: Iterator[list[GameRow]] = _run_dask(args, chunks, max_hands, workers, client, players)
    elif workers == 1:
        results = (_play_chunk(*args, chunk, max_hands, players) for chunk in chunks)
    else:
        results = _run_processes(args, chunks, max_hands, workers, players)
    try:
        for chunk_rows in results:
            for row in chunk_rows:
                done_rows[row.index] = row
            done += len(chunk_rows)
            if progress is not None:
                progress(done, games)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # an interrupted run stops its workers now, not when the generator is collected
    rows = tuple(done_rows[i] for i in range(games))
    summary = summarize(
        rows,
        variant=variant,
        house_rules=house_rules,
        seed=seed,
        seat_bots=seat_bots,
        sides=rules.sides,
        players=players,
    )
    return SimulationResult(
        summary=summary, rows=rows, seconds=time.perf_counter() - start, workers=workers, backend=backend
    )


def _worker_init(parent: int) -> None:
    """Set up a local worker process: die with the parent, leave Ctrl+C to it.

    On Linux the kernel kills the worker when the parent goes
    (``prctl(PR_SET_PDEATHSIG, SIGKILL)``); elsewhere a daemon thread checks
    the parent's pid twice a second. A parent already gone ends the worker at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the run on Ctrl+C and terminates its workers
    if not _die_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), name="canasta-parent-watchdog", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)


def _die_with_parent() -> bool:
    """Ask Linux to kill this process when its parent ends; False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        return int(libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:  # pragma: no cover - runs where prctl is unavailable
    while os.getppid() == parent:
        time.sleep(LIVENESS_INTERVAL)
    os._exit(1)


def _process_state(pid: int) -> str | None:
    """A process's state letter from ``/proc`` (``"T"``: stopped), or ``None`` where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            text = file.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return fields[0] if fields else None


def _lost_worker(processes: dict[int, Any]) -> WorkerLostError:
    """The error for a pool that broke: which worker died, and how, where that is known.

    The pool terminates (``SIGTERM``) the other workers once one is lost, so a
    worker that ended otherwise is named first.
    """
    deadline = time.monotonic() + 2.0
    for process in processes.values():
        process.join(max(0.0, deadline - time.monotonic()))  # the exit codes are read once they are reaped
    ended = [(pid, p.exitcode) for pid, p in processes.items() if p.exitcode not in (None, 0)]
    ended.sort(key=lambda item: item[1] == -signal.SIGTERM)
    for pid, code in ended:
        if code is not None:
            how = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
            return WorkerLostError(
                f"simulation worker process {pid} was lost ({how}); the run was stopped", pid, code
            )
    return WorkerLostError("a simulation worker process was lost (it ended abruptly); the run was stopped")


def _defer_ctrl_c(interrupted: threading.Event) -> Any:
    """Note Ctrl+C in ``interrupted`` instead of raising it anywhere; the run raises it between two waits.

    A `KeyboardInterrupt` raised inside ``concurrent.futures.wait`` while it
    takes the futures' locks one by one leaves some of them taken, and the
    pool's own thread then waits for them forever (the process never exits).
    Only where Python's own handler is installed (in the main thread); the
    handler replaced is returned, to be put back, else ``None``.
    """
    if threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return None  # ignored, or someone else's handler: left as it is
    return signal.signal(signal.SIGINT, lambda signum, frame: interrupted.set())


def _run_processes(
    args: tuple[str, tuple[str, ...], tuple[str, ...], int],
    chunks: list[tuple[int, ...]],
    max_hands: int | None,
    workers: int,
    players: int | None = None,
) -> Iterator[list[GameRow]]:
    """Run the chunks on ``workers`` local processes, yielding each chunk's rows as it finishes.

    Checks the workers while it waits: one that died or stays stopped ends the
    run with `WorkerLostError`. On any early end (an error, Ctrl+C, the
    caller closing the generator) the tasks not started are cancelled and the
    workers are killed at once.
    """
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    interrupted = threading.Event()
    previous_handler = _defer_ctrl_c(interrupted)
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=(os.getpid(),))
    processes: dict[int, Any] = {}
    pending: set[Future[list[GameRow]]] = set()
    finished = False
    try:
        for chunk in chunks:
            pending.add(pool.submit(_play_chunk, *args, chunk, max_hands, players))
            processes.update(getattr(pool, "_processes", None) or {})  # the workers start with the first task
        stopped: dict[int, tuple[int, float]] = {}  # pid: checks in a row that saw it stopped, since when
        while pending:
            if interrupted.is_set():
                raise KeyboardInterrupt
            done, pending = wait(pending, timeout=LIVENESS_INTERVAL, return_when=FIRST_COMPLETED)
            if interrupted.is_set():
                raise KeyboardInterrupt
            processes.update(getattr(pool, "_processes", None) or {})
            for future in done:
                yield future.result()
            for pid, process in processes.items():
                if process.exitcode is not None and pending:
                    raise _lost_worker(processes)
                if _process_state(pid) not in ("T", "t"):
                    stopped.pop(pid, None)
                    continue
                checks, since = stopped.get(pid, (0, time.monotonic()))
                stopped[pid] = (checks + 1, since)
                if checks + 1 >= STOPPED_CHECKS and time.monotonic() - since >= STOPPED_SECONDS:
                    raise WorkerLostError(
                        f"simulation worker process {pid} is stopped (SIGSTOP or a debugger); the run was stopped",
                        pid,
                    )
        finished = True
    except BrokenProcessPool:
        raise _lost_worker(processes) from None
    finally:
        if previous_handler is not None:
            signal.signal(signal.SIGINT, previous_handler)
        if not finished:
            # The tasks not started are cancelled by the shutdown below (cancel_futures), by the pool's own
            # thread: a future cancelled here first made that thread die on InvalidStateError when it found
            # the pool broken.
            processes.update(getattr(pool, "_processes", None) or {})
            for process in processes.values():
                if process.exitcode is None:
                    process.kill()  # SIGKILL also ends a stopped process
        processes.update(getattr(pool, "_processes", None) or {})
        manager = getattr(pool, "_executor_manager_thread", None)  # it joins the workers
        pool.shutdown(wait=False, cancel_futures=True)  # (wait=True would join a stopped worker forever)
        deadline = time.monotonic() + SHUTDOWN_SECONDS
        for process in processes.values():
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
        if manager is not None:
            manager.join(SHUTDOWN_SECONDS)
        if not finished:
            # With the workers gone nothing reads the task queue: this process's end of it must be closed, so
            # that its feeder thread, if blocked on a full pipe, fails instead of hanging the interpreter's exit.
            # The pool's own thread does it when it finds the pool broken (CPython, gh-94777); only after that
            # thread has ended (or was given its time) is it closed here, if still open: closing it while that
            # thread closes it made one of them fail on a closed descriptor (a traceback after "interrupted").
            call_queue = getattr(pool, "_call_queue", None)
            reader = getattr(call_queue, "_reader", None)
            if reader is not None and not reader.closed:
                with contextlib.suppress(OSError):
                    reader.close()


def _local_cluster_options(workers: int) -> dict[str, Any]:
    """Options of the `distributed.LocalCluster` a run starts for itself: nothing reachable from outside.

    The scheduler and workers bind to the loopback interface, and the dashboard
    (by default served on every interface, port 8787) is off. The scheduler
    still runs a small HTTP server (health and metrics routes) whatever the
    options: it gets a free port on 127.0.0.1.
    """
    return {
        "n_workers": workers,
        "threads_per_worker": 1,
        "processes": True,
        "host": "127.0.0.1",
        "dashboard_address": None,  # LocalCluster then passes dashboard=False to the scheduler
        "scheduler_kwargs": {"dashboard_address": "127.0.0.1:0"},
    }


def _run_dask(
    args: tuple[str, tuple[str, ...], tuple[str, ...], int],
    chunks: list[tuple[int, ...]],
    max_hands: int | None,
    workers: int,
    client: Any,
    players: int | None = None,
) -> Iterator[list[GameRow]]:
    import importlib

    try:
        # Imported by name: Dask is an optional extra, and untyped.
        distributed: Any = importlib.import_module("distributed")
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            "the dask backend needs Dask distributed: pip install 'canasta[distributed]'"
        ) from exc
    own_cluster = None
    if client is None:
        try:
            client = distributed.get_client()
        except ValueError:
            own_cluster = distributed.LocalCluster(**_local_cluster_options(workers))
            client = distributed.Client(own_cluster)
    futures: list[Any] = []
    try:
        futures = [
            client.submit(
                _play_chunk, *args, chunk, max_hands, players, pure=False, key=f"canasta-chunk-{i}-{id(chunks)}"
            )
            for i, chunk in enumerate(chunks)
        ]
        for future in distributed.as_completed(futures):
            yield future.result()
    finally:
        unfinished = [f for f in futures if not f.done()]
        if unfinished:  # interrupted or failed: the cluster must not go on with this run's tasks
            client.cancel(unfinished)
        if own_cluster is not None:
            client.close()
            own_cluster.close()
