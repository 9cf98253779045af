"""Simulations: totals independent of workers and backend; summary arithmetic."""

from __future__ import annotations

import importlib.util
import io
import json

import pytest

import canasta
from canasta.cli import main
from canasta.simulate import GameRow, _local_cluster_options, game_seed, play_game, simulate, summarize


def test_game_seed_depends_only_on_seed_and_index() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, i) for i in range(50)}) == 50
    assert game_seed(1, 0) != game_seed(2, 0)


def test_identical_totals_with_one_and_two_workers() -> None:
    one = simulate("classic", games=8, seed=3, workers=1)
    two = simulate("classic", games=8, seed=3, workers=2, chunk_size=1)
    assert one.summary == two.summary
    assert one.rows == two.rows
    assert [r.index for r in two.rows] == list(range(8))


def test_summary_counts_match_rows() -> None:
    result = simulate("classic", games=6, seed=9, bots=("greedy", "random"))
    summary = result.summary
    assert summary.games == 6
    assert summary.bots == ("greedy", "random", "greedy", "random")
    assert sum(s.wins for s in summary.sides) + summary.ties + summary.incomplete == 6
    assert summary.total_hands == sum(r.hands for r in result.rows)
    for side in summary.sides:
        assert side.win_rate_low <= side.win_rate <= side.win_rate_high
        assert side.mean_score == sum(r.scores[side.side] for r in result.rows) / 6
    for row in result.rows:
        assert row.complete
        assert max(row.scores) >= canasta.load_rules("classic").target_score
        assert len(row.hand_turns) == row.hands


def test_max_hands_cuts_games_off() -> None:
    result = simulate("classic", games=2, seed=1, max_hands=1)
    assert all(r.hands == 1 and not r.complete and r.winner is None for r in result.rows)
    assert result.summary.incomplete == 2


def test_play_game_is_reproducible() -> None:
    assert play_game("classic", (), ("random",) * 4, 77, max_hands=1) == play_game(
        "classic", (), ("random",) * 4, 77, max_hands=1
    )


def test_wilson_interval_bounds() -> None:
    rows = [GameRow(i, i, 0, (5000, 0), 1, 10, (5,), True) for i in range(10)]
    summary = summarize(rows, variant="classic", house_rules=(), seed=0, seat_bots=("greedy",) * 4, sides=(0, 1, 0, 1))
    side0, side1 = summary.sides
    assert side0.win_rate == 1.0 and side0.win_rate_high == 1.0 and 0.6 < side0.win_rate_low < 0.8
    assert side1.win_rate == 0.0 and side1.win_rate_low == 0.0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"variant": "no-such"}, "unknown variant"),
        ({"bots": ("nobody",)}, "unknown bot"),
        ({"workers": 0}, "workers"),
        ({"games": -1}, "games"),
        ({"backend": "ray"}, "backend"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(canasta.CanastaError, match=match):
        simulate(**{"games": 1, **kwargs})  # type: ignore[arg-type]


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="dask distributed is not installed")
def test_dask_backend_matches_local_run() -> None:
    import distributed

    local = simulate("classic", games=4, seed=5)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = simulate("classic", games=4, seed=5, backend="dask", client=client, chunk_size=1)
    assert remote.rows == local.rows
    assert remote.summary == local.summary


def test_a_client_without_the_dask_backend_is_refused() -> None:
    with pytest.raises(canasta.CanastaError, match="only used with backend='dask'"):
        simulate("classic", games=1, client=object())


def test_the_local_cluster_listens_on_loopback_only_without_a_dashboard() -> None:
    options = _local_cluster_options(3)
    assert options["host"] == "127.0.0.1"
    assert options["dashboard_address"] is None  # LocalCluster: the dashboard is off
    assert options["scheduler_kwargs"] == {"dashboard_address": "127.0.0.1:0"}
    assert options["n_workers"] == 3


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="dask distributed is not installed")
def test_cli_dask_backend_starts_nothing_reachable_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    import distributed
    import psutil

    seen: dict[str, object] = {}

    class Spy(distributed.LocalCluster):
        def __init__(self, **options: object) -> None:
            super().__init__(**options)
            seen["options"] = options
            seen["dashboard"] = self.scheduler.http_server.address
            me = psutil.Process()
            seen["listening"] = {
                (conn.laddr.ip, conn.laddr.port)
                for process in (me, *me.children(recursive=True))
                for conn in process.net_connections("inet")
                if conn.status == psutil.CONN_LISTEN
            }

    monkeypatch.setattr(distributed, "LocalCluster", Spy)
    out = io.StringIO()
    code = main(
        ["simulate", "--backend", "dask", "--workers", "1", "--games", "2", "--max-hands", "1", "--format", "json"],
        stdout=out,
    )
    assert code == 0
    assert json.loads(out.getvalue())["backend"] == "dask"
    assert seen["dashboard"] == "127.0.0.1"
    listening = seen["listening"]
    assert isinstance(listening, set) and listening
    assert {ip for ip, _ in listening} == {"127.0.0.1"}, listening
    assert ("127.0.0.1", 8787) not in listening
