"""Thread safety of the registry: the lazy load happens once, under a lock.

The race needs a cold registry, so each run is a fresh interpreter: eight
threads wait at a barrier, then all create their first `canasta.Game` at once.
Before the lock, the first thread marked the registry loaded before loading it,
and the others found no variant at all ("unknown variant 'classic'; known:
none"; seven of eight threads, in every run).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest

import canasta
from canasta import PluginError, Registry, Variant

THREADS = 8

COLD_START = textwrap.dedent(
    f"""
    import threading

    import canasta
    import canasta.registry

    assert canasta.registry._DEFAULT is None, "importing canasta must not create the registry"
    barrier = threading.Barrier({THREADS})
    errors = []
    games = []

    def start() -> None:
        barrier.wait()
        try:
            games.append(canasta.Game("classic", seed=7))
        except BaseException as exc:
            errors.append(f"{{type(exc).__name__}}: {{exc}}")

    threads = [threading.Thread(target=start) for _ in range({THREADS})]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    registry = canasta.registry.default_registry()
    assert not errors, errors
    assert len(games) == {THREADS}, len(games)
    assert all(game.rules.variant == "classic" for game in games)
    assert len({{game.legal_actions()[0] for game in games}}) == 1, "same seed, same first choices"
    assert registry.failures == [], registry.failures
    print("ok")
    """
)


@pytest.mark.parametrize("run", range(4))
def test_threads_creating_their_first_game_at_once_all_succeed(run: int) -> None:
    done = subprocess.run([sys.executable, "-c", COLD_START], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def _together(count: int, work: object) -> list[BaseException]:
    """Run ``work()`` in ``count`` threads released together; return what they raised."""
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run() -> None:
        barrier.wait()
        try:
            work()  # type: ignore[operator]
        except BaseException as exc:
            with lock:
                errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_a_private_registry_loads_once_for_many_threads() -> None:
    registry = Registry(autoload="builtin")
    errors = _together(THREADS, lambda: registry.variant("classic"))
    assert errors == []
    assert registry.failures == []
    assert [v.name for v in registry.variants()].count("classic") == 1


def test_concurrent_registration_of_one_name_admits_exactly_one() -> None:
    registry = Registry(autoload="builtin")
    names = iter(range(THREADS))
    errors = _together(
        THREADS,
        lambda: registry.add_variant(Variant("mine", "x", plugins=(), base="classic", origin=f"thread {next(names)}")),
    )
    assert len(errors) == THREADS - 1
    assert all(isinstance(e, PluginError) and "'mine' is provided twice" in str(e) for e in errors)
    assert [v.name for v in registry.variants()].count("mine") == 1


def test_lookups_while_another_thread_registers_never_see_a_half_built_table() -> None:
    registry = Registry(autoload="builtin")
    registry.variants()
    stop = threading.Event()
    seen: list[BaseException] = []

    def read() -> None:
        while not stop.is_set():
            try:
                names = [v.name for v in registry.variants()]
                assert "classic" in names
            except BaseException as exc:  # a dict changed size during iteration, say
                seen.append(exc)
                return

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for i in range(300):
            registry.add_variant(Variant(f"v{i}", "x", plugins=(), base="classic"))
    finally:
        stop.set()
        reader.join()
    assert seen == []
    assert len(registry.variants()) >= 300


def test_games_are_independent_across_threads() -> None:
    # One Game per thread is the supported use; each thread plays its own to the same result.
    def play() -> list[int]:
        game = canasta.Game("classic", seed=3)
        for _ in range(200):
            if game.is_over:
                break
            game.apply(game.legal_actions()[0])
        return [*game.scores, len(game.history)]

    expected = play()
    results: list[list[int]] = []
    errors = _together(4, lambda: results.append(play()))
    assert errors == []
    assert results == [expected] * 4
