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

Workers look variants up by name in their own process: variants installed
through entry points are found everywhere; a variant added with
`canasta.register_plugin` is seen by forked local workers (the default on
Linux) but must be registered in each worker process elsewhere (or installed).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

from attrs import asdict, frozen

from canasta.bots import make_bot
from canasta.errors import CanastaError
from canasta.game import Game
from canasta.plugins import load_rules

__all__ = ["GameRow", "SideSummary", "SimulationResult", "Summary", "game_seed", "play_game", "simulate"]

Backend = Literal["process", "dask"]


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
    """

    index: int
    seed: int
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    actions: int
    hand_turns: tuple[int, ...]
    complete: bool


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
    """

    side: int
    seats: tuple[int, ...]
    bots: tuple[str, ...]
    wins: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    mean_score: float


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
) -> GameRow:
    """Play one game with bots.

    Args:
        variant: The variant.
        house_rules: The house rules.
        seat_bots: The bot name of each seat.
        seed: The game's seed (the bots are seeded from it too).
        index: The game's index, copied into the row.
        max_hands: Stop after this many hands (``None``: play to the end).

    Returns:
        The game's row.
    """
    game = Game(variant, house_rules, seed=seed)
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
    )


def _play_chunk(
    variant: str,
    house_rules: tuple[str, ...],
    seat_bots: tuple[str, ...],
    seed: int,
    indexes: tuple[int, ...],
    max_hands: int | None,
) -> list[GameRow]:
    """Play a chunk of games (module level, so process pools and Dask can ship it)."""
    return [play_game(variant, house_rules, seat_bots, game_seed(seed, i), i, max_hands) for i in indexes]


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
) -> Summary:
    """Totals of a simulation's rows.

    Args:
        rows: The games' rows.
        variant: The variant.
        house_rules: The house rules.
        seed: The simulation's seed.
        seat_bots: The bot of each seat.
        sides: The side of each seat (``Rules.sides``).

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
            process) or the number of workers of a Dask cluster started here.
        backend: ``"process"`` (local processes) or ``"dask"`` (Dask distributed).
        client: A ``distributed.Client`` to use with the Dask backend (only with
            ``backend="dask"``): the cluster is trusted with pickled tasks and
            results. Without one the current client is used, or a local cluster
            is started on 127.0.0.1 with its dashboard off.
        max_hands: Cut a game off after this many hands (``None``: no limit), so
            that bots that never reach the target cannot run forever.
        chunk_size: Games per task (default: spread evenly, a few tasks per worker).
        progress: Called as ``progress(games_done, games)`` as games finish.

    Returns:
        The summary and one row per game; identical for any ``workers`` and ``backend``.

    Raises:
        CanastaError: For an unknown variant, house rule or bot, bad counts, or
            a ``client`` without ``backend="dask"``.
        ImportError: For the Dask backend when ``distributed`` is not installed.
    """
    if games < 0:
        raise CanastaError(f"games must not be negative, got {games}")
    if workers < 1:
        raise CanastaError(f"workers must be at least 1, got {workers}")
    if backend not in ("process", "dask"):
        raise CanastaError(f"unknown backend {backend!r}; use 'process' or 'dask'")
    if client is not None and backend != "dask":
        # Silently ignoring it would run the games here while the caller believes they run on the cluster.
        raise CanastaError(f"a Dask client is only used with backend='dask', not {backend!r}")
    rules = load_rules(variant, house_rules)  # fail fast on bad names, before any worker starts
    if not bots:
        raise CanastaError("at least one bot name is needed")
    seat_bots = tuple(bots[s % len(bots)] for s in range(rules.players))
    for name in set(seat_bots):
        make_bot(name)
    size = chunk_size or max(1, min(25, math.ceil(games / (workers * 4)) if games else 1))
    chunks = _chunks(games, size)
    args = (variant, tuple(house_rules), seat_bots, seed)
    start = time.perf_counter()
    done_rows: dict[int, GameRow] = {}
    done = 0
    if backend == "dask":
        results: Iterator[list[GameRow]] = _run_dask(args, chunks, max_hands, workers, client)
    elif workers == 1:
        results = (_play_chunk(*args, chunk, max_hands) for chunk in chunks)
    else:
        results = _run_processes(args, chunks, max_hands, workers)
    for chunk_rows in results:
        for row in chunk_rows:
            done_rows[row.index] = row
        done += len(chunk_rows)
        if progress is not None:
            progress(done, games)
    rows = tuple(done_rows[i] for i in range(games))
    summary = summarize(
        rows, variant=variant, house_rules=house_rules, seed=seed, seat_bots=seat_bots, sides=rules.sides
    )
    return SimulationResult(
        summary=summary, rows=rows, seconds=time.perf_counter() - start, workers=workers, backend=backend
    )


def _run_processes(
    args: tuple[str, tuple[str, ...], tuple[str, ...], int],
    chunks: list[tuple[int, ...]],
    max_hands: int | None,
    workers: int,
) -> Iterator[list[GameRow]]:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_play_chunk, *args, chunk, max_hands) for chunk in chunks]
        for future in as_completed(futures):
            yield future.result()


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
    try:
        futures = [
            client.submit(_play_chunk, *args, chunk, max_hands, pure=False, key=f"canasta-chunk-{i}-{id(chunks)}")
            for i, chunk in enumerate(chunks)
        ]
        for future in distributed.as_completed(futures):
            yield future.result()
    finally:
        if own_cluster is not None:
            client.close()
            own_cluster.close()
