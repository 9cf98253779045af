"""Fuzz soak: random legal, illegal and malformed actions against every variant and house rule.

Not a timed test: a soak run for the engine's edge (issue 12, "Hardened
boundaries"). For every variant, alone and with each house rule that fits it,
it plays seeded games and, at every position, tries a mix of

- well-typed actions the engine does not list (they must be refused with a
  `canasta.CanastaError` and change nothing),
- objects that are not actions at all (numbers, strings, ``None``, tuples,
  numpy arrays and scalars, look-alike classes): refused the same way,
- malformed action constructions (``TakePile(2.0, 0, 0)``, ``Meld("K", 3)``,
  ``AnswerGoOut(0)`` …): they must fail at construction with ``TypeError`` or
  ``ValueError`` (or convert exactly, for numpy integers),
- one legal action, which moves the game on; card conservation is checked after it.

The attack families of issue 31 (a hostile tester's findings) run beside them:

- *returned values*: every list, tuple, observation and rules object the API hands out
  is mutated in every way a caller could (``append``, ``clear``, item assignment,
  attribute assignment...); the engine must not notice, and an appended action is
  still refused;
- *copies*: ``copy``, ``deepcopy`` and ``pickle`` of `Game`, `HandState`, `Observation`,
  `Deck`, `Rules` and actions give equal, independent objects on either engine;
- *exceptions*: sampled typed refusals are copied, deep-copied and pickled and keep every field;
- *seeds*: hostile seeds (floats, strings, bools, numpy scalars, 26-digit integers...)
  are refused with `SeedError`, or the game's record reads back and replays the same game;
- *web* and *workers* (``--web``, ``--workers``): cross-site and rebinding requests
  against the web app, and simulations whose worker processes are killed.

It prints the counts: attempts, refusals with a typed error, construction
errors, untyped exceptions by type, state changes after a refusal, invariant
breaks. Exit status 1 unless the last three are all 0.

Usage::

    python benchmarks/fuzz_soak.py [--attempts 1000000] [--seed 0] [--web 50] [--workers 20]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import os
import pickle
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

import canasta
from canasta.actions import ACTION_TYPES
from canasta.hand import HandState

_NUMBERS: list[Any] = [0, 1, 2, 3, -1, 99, 2.0, 1.5, float("nan"), True, False, None, "2", "K", b"x"]
_NUMBERS += [np.int64(2), np.int32(13), np.float64(2.0), np.bool_(True), np.array([2, 0, 0])]


class _LookAlike:
    """Compares equal to everything: a hostile stand-in for an action."""

    naturals = twos = jokers = 0

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class _Unrepresentable:
    """An object whose repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def _combos() -> list[tuple[str, tuple[str, ...]]]:
    registry = canasta.default_registry()
    combos: list[tuple[str, tuple[str, ...]]] = []
    for variant in sorted(v.name for v in registry.variants()):
        combos.append((variant, ()))
        for rule in sorted(h.name for h in registry.house_rules()):
            if registry.fits(rule, variant):
                combos.append((variant, (rule,)))
    return combos


def _fingerprint(hand: HandState) -> tuple[object, ...]:
    return (
        tuple(hand.stock),
        tuple(hand.pile),
        tuple(tuple(c) for c in hand.counts),
        tuple(
            tuple(sorted((r, m.naturals, m.twos, m.jokers, tuple(m.cards)) for r, m in side.items()))
            for side in hand.melds
        ),
        tuple(tuple(t) for t in hand.threes),
        tuple(hand.opened),
        hand.phase,
        hand.seat,
        hand.turn,
        hand.answer,
        hand.bound,
        hand.asker,
        hand.provisional_count,
        None if hand.pending_pile is None else tuple(hand.pending_pile),
        hand.end,
    )


def _malformed_constructions(rng: random.Random) -> Callable[[], object]:
    value = rng.choice(_NUMBERS)
    other = rng.choice(_NUMBERS)
    makers: list[Callable[[], object]] = [
        lambda: canasta.TakePile(value, 0, 0),
        lambda: canasta.TakePile(1, value, other),
        lambda: canasta.Meld(value, 3),
        lambda: canasta.Meld(canasta.Kind.KING, value, other),
        lambda: canasta.Discard(value),
        lambda: canasta.AnswerGoOut(value),
    ]
    return rng.choice(makers)


def _non_action(rng: random.Random) -> object:
    return rng.choice(
        [
            *_NUMBERS,
            (2, 0, 0),
            {"type": "draw"},
            canasta.DrawStock,
            _LookAlike(),
            _Unrepresentable(),
            np.zeros(3),
            object(),
        ]
    )


def _unlisted(hand: HandState, rng: random.Random) -> object:
    kinds = list(canasta.Kind)
    choice = rng.randrange(5)
    if choice == 0:
        return canasta.Meld(rng.choice(kinds), rng.randrange(5), rng.randrange(3), rng.randrange(3))
    if choice == 1:
        return canasta.Discard(rng.choice(kinds))
    if choice == 2:
        return canasta.TakePile(rng.randrange(3), rng.randrange(2), rng.randrange(2))
    return rng.choice([canasta.DrawStock(), canasta.AskGoOut(), canasta.EndHand(), canasta.AnswerGoOut(True)])



# --- Attack families added for issue 31 (hostile tester): each is also run, bounded, by tests/test_fuzz_families.py.

_SENTINEL_ACTION = canasta.Discard(canasta.Kind.KING)


def _public_returns(game: canasta.Game) -> list[tuple[str, Callable[[], object]]]:
    """Values the public API hands out, by a name for the counts."""
    seat = game.seat
    return [
        ("Game.legal_actions()", game.legal_actions),
        ("HandState.legal_actions()", game.hand.legal_actions),
        ("Game.history", lambda: game.history),
        ("Game.scores", lambda: game.scores),
        ("Game.results", lambda: game.results),
        ("Game.totals_after(0)", lambda: game.totals_after(0)),
        ("Game.observation(seat)", lambda: game.observation(seat)),
        ("Observation.legal_actions", lambda: game.observation(seat).legal_actions),
        ("HandState.card_locations()", game.hand.card_locations),
        ("HandState.hand_cards(seat)", lambda: game.hand.hand_cards(seat)),
        ("Game.rules", lambda: game.rules),
    ]


def _mutations(value: object) -> list[Callable[[], object]]:
    """Ways a caller might change a returned value in place."""
    out: list[Callable[[], object]] = []
    for name, args in (
        ("append", (_SENTINEL_ACTION,)),
        ("clear", ()),
        ("pop", ()),
        ("reverse", ()),
        ("insert", (0, _SENTINEL_ACTION)),
        ("update", ({"x": 1},)),
    ):
        method = getattr(value, name, None)
        if callable(method):
            out.append(lambda method=method, args=args: method(*args))  # type: ignore[misc]
    if hasattr(value, "__setitem__"):
        out.append(lambda: value.__setitem__(0, _SENTINEL_ACTION))  # type: ignore[attr-defined]
    if hasattr(value, "__dict__") or hasattr(type(value), "__attrs_attrs__"):
        for field in list(getattr(type(value), "__attrs_attrs__", ()))[:3]:
            out.append(lambda field=field: setattr(value, field.name, None))
    return out


def mutate_returned_values(game: canasta.Game, rng: random.Random, counts: Counter[str]) -> None:
    """Family "returned values": change what the API returned; the engine must not notice."""
    hand = game.hand
    before = (_fingerprint(hand), tuple(game.legal_actions()), tuple(game.scores), game.history)
    for name, getter in _public_returns(game):
        try:
            value = getter()
        except IndexError:
            continue  # totals_after(0) before a hand has ended
        for mutate in _mutations(value):
            counts["returned values: mutation attempts"] += 1
            try:
                mutate()
            except (TypeError, AttributeError, ValueError, IndexError, KeyError):
                counts["returned values: refused (immutable)"] += 1
                continue
            except Exception as exc:  # attrs' FrozenInstanceError is an AttributeError; others are news
                counts[f"untyped exception: mutating {name}: {type(exc).__name__}"] += 1
                continue
            counts["returned values: mutated a copy"] += 1
            after = (_fingerprint(game.hand), tuple(game.legal_actions()), tuple(game.scores), game.history)
            if game.hand is not hand or after != before:
                counts["invariant breaks"] += 1
                counts[f"returned values: engine changed through {name}"] += 1
                return
    if _SENTINEL_ACTION not in before[1]:
        try:
            game.apply(_SENTINEL_ACTION)
        except canasta.CanastaError:
            counts["returned values: sentinel refused after mutations"] += 1
        else:
            counts["invariant breaks"] += 1
            counts["returned values: an appended action was accepted"] += 1


def _same_game(a: canasta.Game, b: canasta.Game) -> bool:
    return (
        _fingerprint(a.hand) == _fingerprint(b.hand)
        and tuple(a.legal_actions()) == tuple(b.legal_actions())
        and list(a.scores) == list(b.scores)
        and a.history == b.history
        and a.seed == b.seed
    )


def _pickled(value: object) -> object:
    return pickle.loads(pickle.dumps(value))


#: The ways a caller may clone a public object or an error, by name.
_CLONES: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("copy", copy.copy),
    ("deepcopy", copy.deepcopy),
    ("pickle", _pickled),
)


def copy_and_pickle(game: canasta.Game, counts: Counter[str]) -> None:
    """Family "copies": copy, deepcopy and pickle every public object; equal, independent, same engine."""
    seat = game.seat
    objects: list[tuple[str, object]] = [
        ("Game", game),
        ("HandState", game.hand),
        ("Observation", game.observation(seat)),
        ("Deck", game.hand.deck),
        ("Rules", game.rules),
        ("action", game.legal_actions()[0]),
    ]
    for name, obj in objects:
        for how, clone in _CLONES:
            counts["copies: attempts"] += 1
            try:
                other = clone(obj)
            except Exception as exc:
                counts[f"untyped exception: {how} of {name}: {type(exc).__name__}"] += 1
                continue
            if isinstance(obj, canasta.Game):
                same = _same_game(obj, other)  # type: ignore[arg-type]
            elif isinstance(obj, HandState):
                same = _fingerprint(obj) == _fingerprint(other) and obj.legal_actions() == other.legal_actions()  # type: ignore[arg-type]
            else:
                same = obj == other
            if not same:
                counts["invariant breaks"] += 1
                counts[f"copies: {how} of {name} differs"] += 1
    # Independence: playing on a copy leaves the original as it was.
    before = _fingerprint(game.hand)
    try:
        other = copy.deepcopy(game)
    except Exception:
        return  # counted above
    if other.legal_actions():
        other.apply(other.legal_actions()[0])
    if _fingerprint(game.hand) != before:
        counts["invariant breaks"] += 1
        counts["copies: a deep copy shares state"] += 1


def _same_fields(a: BaseException, b: BaseException) -> bool:
    """Equal attributes; a field whose == is not a bool (a refused numpy array) compares by repr."""
    fields, others = vars(a), vars(b)
    if fields.keys() != others.keys():
        return False
    for name, value in fields.items():
        try:
            if bool(value == others[name]):
                continue
        except Exception:
            pass
        if _text(value) != _text(others[name]):
            return False
    return True


def _text(value: object) -> str:
    """A value's repr without memory addresses (a pickled ``object()`` is another object of the same kind)."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__} object>"
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)


def pickle_exception(error: BaseException, counts: Counter[str]) -> None:
    """Family "exceptions": every typed refusal survives pickling and copying with its fields."""
    for how, clone in _CLONES:
        counts["exceptions: round trips"] += 1
        try:
            other = clone(error)
        except Exception as exc:
            counts[f"untyped exception: {how} of {type(error).__name__}: {type(exc).__name__}"] += 1
            continue
        if type(other) is not type(error) or str(other) != str(error) or not _same_fields(other, error):
            counts["invariant breaks"] += 1
            counts[f"exceptions: {how} of {type(error).__name__} lost a field"] += 1


_HOSTILE_SEEDS: list[Any] = [
    None, 0, -1, 1, 2**63, 2**64 - 1, -(2**64) + 1, 2**64, -(2**64), 10**25, True, False, 1.5, float("nan"),
    "7", "", b"1", (1, 2), [3], np.int64(3), np.uint64(2**64 - 1), np.int32(-5), np.float64(2.0), np.bool_(True),
    _Unrepresentable(),
]


def hostile_seed(rng: random.Random, counts: Counter[str]) -> None:
    """Family "seeds": a seed is refused with SeedError, or the game's record reads back and replays it."""
    from canasta.records import GameRecorder, loads_record, verify_record

    if rng.random() < 0.5:
        seed = rng.choice(_HOSTILE_SEEDS)
    else:
        seed = rng.choice([1, -1]) * rng.randrange(2 ** rng.choice([8, 32, 63, 64, 65, 80]))
    counts["seeds: attempts"] += 1
    try:
        game = canasta.Game("classic", seed=seed)
    except canasta.CanastaError:
        counts["seeds: refused with a typed error"] += 1
        return
    except Exception as exc:
        counts[f"untyped exception: Game(seed={type(seed).__name__}): {type(exc).__name__}"] += 1
        return
    recorder = GameRecorder(game)
    for _ in range(rng.randrange(1, 30)):
        if game.is_over:
            break
        recorder.apply(rng.choice(game.legal_actions()))
    try:
        text = recorder.record().dumps()
        replayed = verify_record(loads_record(text))
    except Exception as exc:
        counts["invariant breaks"] += 1
        counts[f"seeds: a record the library wrote was refused: {type(exc).__name__}"] += 1
        return
    if not _same_game(game, replayed):
        counts["invariant breaks"] += 1
        counts["seeds: the record replays a different game"] += 1
    else:
        counts["seeds: records read back and replayed"] += 1


_ORIGINS = ["http://evil.example", "http://127.0.0.1:9999", "null", "https://127.0.0.1", "http://127.0.0.1.evil.example"]
_HOSTS = ["evil.example", "127.0.0.1.evil.example", "attacker.localhost.example", "[::2]", "127.0.0.1:80@evil"]


def web_requests(rng: random.Random, counts: Counter[str], requests: int = 40) -> None:
    """Family "web": cross-site and DNS-rebinding requests never create, change or drop a session."""
    from starlette.testclient import TestClient

    from canasta.web import create_app

    base = "http://127.0.0.1"
    own = {"sec-fetch-site": "same-origin", "origin": base}
    app = create_app(max_sessions=4)
    player = TestClient(app, base_url=base)
    started = player.post("/api/new", json={"variant": "classic", "seed": rng.randrange(1000)}, headers=own)
    player.post("/api/act", json={"id": "0"}, headers=own)  # a game in play
    before = player.get("/api/state", headers=own).json()
    store = app.state.sessions
    kept = len(store)
    for _ in range(requests):
        attacker = TestClient(app, base_url=base)
        method, path, body = rng.choice(
            [
                ("POST", "/api/act", {"id": str(rng.randrange(3))}),
                ("POST", "/api/new", {"seed": rng.randrange(100)}),
                ("POST", "/api/replay/step", {"to": 1}),
                ("GET", "/api/state", None),
                ("GET", "/api/record", None),
            ]
        )
        if rng.random() < 0.5:
            family, headers, expected = "cross-site", {"sec-fetch-site": rng.choice(["cross-site", "same-site"])}, 403
            if rng.random() < 0.5:
                headers = {"origin": rng.choice(_ORIGINS)}
        else:
            family, headers, expected = "rebinding", {"host": rng.choice(_HOSTS)}, 400
        if rng.random() < 0.5:  # the player's own cookie, carried by the browser to a cross-site request
            attacker.cookies = player.cookies
        counts[f"web: {family} requests"] += 1
        try:
            answer = attacker.request(method, path, json=body, headers=headers)
        except Exception as exc:
            counts[f"untyped exception: web {family}: {type(exc).__name__}"] += 1
            continue
        if answer.status_code >= 500:
            counts["invariant breaks"] += 1
            counts[f"web: {family} got {answer.status_code}"] += 1
        elif answer.status_code != expected:
            counts["invariant breaks"] += 1
            counts[f"web: {family} request served ({answer.status_code})"] += 1
        else:
            counts[f"web: {family} refused ({expected})"] += 1
    after = player.get("/api/state", headers=own).json()
    if started.status_code != 200 or len(store) != kept or (after["seed"], after["version"]) != (
        before["seed"],
        before["version"],
    ):
        counts["invariant breaks"] += 1
        counts["web: the player's session changed"] += 1


def _children() -> set[int]:
    """Pids of this process's living children (Linux: /proc)."""
    mine = os.getpid()
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    fields = file.read().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == mine and fields[0] not in "ZX":
                found.add(int(entry))
    return found


def worker_failure(rng: random.Random, counts: Counter[str]) -> None:
    """Family "workers": a simulation whose worker is killed or stopped ends with WorkerLostError, leaving none."""
    import signal
    import threading

    from canasta.simulate import WorkerLostError, simulate

    signum = rng.choice([signal.SIGKILL, signal.SIGTERM, signal.SIGSTOP])
    earlier = _children()  # processes this one had already (a test runner's): not the run's
    delay = rng.uniform(0.3, 1.2)
    hit: list[int] = []

    def strike() -> None:
        time.sleep(delay)
        children = sorted(_children() - earlier)
        if children:
            pid = rng.choice(children)
            try:
                os.kill(pid, signum)
                hit.append(pid)
            except OSError:
                pass

    threading.Thread(target=strike, daemon=True).start()
    counts["workers: runs"] += 1
    done = threading.Event()

    def watchdog() -> None:  # a hung run is counted, then freed, so the soak itself never hangs
        if not done.wait(60):
            counts["invariant breaks"] += 1
            counts["workers: a run hung"] += 1
            for pid in _children() - earlier:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    threading.Thread(target=watchdog, daemon=True).start()
    try:
        simulate("classic", games=400, workers=2, oversubscribe=True, max_hands=2, chunk_size=1, seed=rng.randrange(99))
        counts["workers: run finished before or despite the strike"] += 1
    except WorkerLostError:
        counts["workers: lost worker reported (WorkerLostError)"] += 1
    except Exception as exc:
        counts[f"untyped exception: simulate with a {signal.Signals(signum).name}: {type(exc).__name__}"] += 1
    done.set()
    time.sleep(0.3)
    for pid in hit:  # a stopped worker must not be left behind
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGCONT)
    if _children() - earlier:
        time.sleep(1.0)
        if _children() - earlier:
            counts["invariant breaks"] += 1
            counts["workers: processes left behind (invariant break)"] += 1


def run(attempts: int, seed: int) -> Counter[str]:
    """Run the soak; returns the counts."""
    counts: Counter[str] = Counter()
    combos = _combos()
    per_combo = max(1, attempts // len(combos))
    rng = random.Random(seed)
    for index, (variant, house_rules) in enumerate(combos):
        rules = canasta.load_rules(variant, house_rules)
        done = 0
        game_no = 0
        while done < per_combo:
            game = canasta.Game(rules=rules, seed=seed * 1000 + index * 100 + game_no)
            game_no += 1
            hostile_seed(rng, counts)
            steps = 0
            while not game.is_over and done < per_combo and steps < 3000:
                hand = game.hand
                before = _fingerprint(hand)
                legal = game.legal_actions()
                for _ in range(rng.randrange(1, 9)):
                    done += 1
                    counts["attempts"] += 1
                    kind = rng.randrange(3)
                    try:
                        if kind == 0:
                            candidate: object = _malformed_constructions(rng)()
                            counts["converted at construction"] += 1
                            if type(candidate) not in ACTION_TYPES:
                                counts["invariant breaks"] += 1
                                continue
                        elif kind == 1:
                            candidate = _non_action(rng)
                        else:
                            candidate = _unlisted(hand, rng)
                    except (TypeError, ValueError):
                        counts["refused at construction"] += 1
                        continue
                    except Exception as exc:
                        counts[f"untyped exception at construction: {type(exc).__name__}"] += 1
                        continue
                    if type(candidate) in ACTION_TYPES and candidate in legal:
                        continue  # a legal action by chance: not a refusal test
                    try:
                        game.apply(candidate)  # type: ignore[arg-type]
                    except canasta.CanastaError as error:
                        counts["refused with a typed error"] += 1
                        if rng.random() < 0.05:
                            pickle_exception(error, counts)
                    except Exception as exc:
                        counts[f"untyped exception: {type(exc).__name__}"] += 1
                    else:
                        counts["invariant breaks"] += 1  # an unlisted action was accepted
                        counts["accepted unlisted"] += 1
                        break
                    if game.hand is not hand or _fingerprint(hand) != before:
                        counts["state changes after a refusal"] += 1
                        break
                if game.hand is not hand or _fingerprint(hand) != before:
                    break
                if rng.random() < 0.02:
                    mutate_returned_values(game, rng, counts)
                if rng.random() < 0.002:
                    copy_and_pickle(game, counts)
                legal = game.legal_actions()
                action = legal[rng.randrange(len(legal))]
                try:
                    game.apply(action)
                except Exception as exc:  # a listed action must be accepted
                    counts["invariant breaks"] += 1
                    counts[f"a listed action failed: {type(exc).__name__}"] += 1
                    break
                steps += 1
                counts["legal actions applied"] += 1
                if not game.is_over:
                    locations = game.hand.card_locations()
                    cards = [c for where in locations.values() for c in where]
                    if len(cards) != len(game.hand.deck) or len(set(cards)) != len(cards):
                        counts["invariant breaks"] += 1
                    if not game.legal_actions():
                        counts["invariant breaks"] += 1
                        counts["dead ends"] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--attempts", type=int, default=1_000_000, help="attempts in all (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--web", type=int, default=0, help="rounds of 40 cross-site and rebinding requests")
    parser.add_argument("--workers", type=int, default=0, help="simulations whose worker is killed or stopped")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    counts = run(args.attempts, args.seed)
    family_rng = random.Random(args.seed)
    for _ in range(args.web):
        web_requests(family_rng, counts)
    for _ in range(args.workers):
        worker_failure(family_rng, counts)
    elapsed = time.perf_counter() - start
    print(f"fuzz soak: {len(_combos())} variant/house-rule combinations, {elapsed:.0f} s")
    for key in sorted(counts):
        print(f"  {key:62} {counts[key]:>10,}")
    untyped = sum(v for k, v in counts.items() if k.startswith("untyped"))
    musts = {
        "untyped exceptions": untyped,
        "state changes after a refusal": counts["state changes after a refusal"],
        "invariant breaks": counts["invariant breaks"],
    }
    for key, value in musts.items():
        print(f"  {key + ' (must be 0)':62} {value:>10,}")
    bad = sum(musts.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
