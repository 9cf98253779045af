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

It prints the counts: attempts, refusals with a typed error, construction
errors, untyped exceptions by type, state changes after a refusal, invariant
breaks. Exit status 1 unless the last three are all 0.

Usage::

    python benchmarks/fuzz_soak.py [--attempts 1000000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
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
                    except canasta.CanastaError:
                        counts["refused with a typed error"] += 1
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
                action = legal[rng.randrange(len(legal))]
                game.apply(action)
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
    args = parser.parse_args(argv)
    start = time.perf_counter()
    counts = run(args.attempts, args.seed)
    elapsed = time.perf_counter() - start
    print(f"fuzz soak: {len(_combos())} variant/house-rule combinations, {elapsed:.0f} s")
    for key in sorted(counts):
        print(f"  {key:40} {counts[key]:>10,}")
    untyped = sum(v for k, v in counts.items() if k.startswith("untyped"))
    musts = {
        "untyped exceptions": untyped,
        "state changes after a refusal": counts["state changes after a refusal"],
        "invariant breaks": counts["invariant breaks"],
    }
    for key, value in musts.items():
        print(f"  {key + ' (must be 0)':40} {value:>10,}")
    bad = sum(musts.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
