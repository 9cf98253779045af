"""Shared test helpers: rules, snapshots, and the invariant checks of random play.

Used by the unit tests, the hypothesis tests and `benchmarks/random_invariants.py`
(which puts this directory on ``sys.path``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from itertools import chain
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

import canasta
from canasta import (
    Action,
    Discard,
    HandState,
    IllegalActionError,
    Kind,
    Meld,
    RuleCode,
    Suit,
    TakePile,
)
from canasta.meldtypes import judging
from canasta.suitedlegality import meld_shape
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode
from canasta.testing.invariants import check_conservation as check_library_conservation
from canasta.testing.invariants import check_earned_packets, check_threes_in_hands, simple_actions


@cache
def classic_rules() -> canasta.Rules:
    """The compiled classic rules (compiled once per test session)."""
    return canasta.load_rules("classic")


def placed(stock: Sequence[str], kwargs: Mapping[str, Any]) -> Counter[str]:
    """The card codes a position places: ``stock`` and the hands, threes, set-aside cards, pile, melds and packets."""
    used: Counter[str] = Counter(stock)
    for key in ("hands", "threes", "set_aside"):
        for cards in kwargs.get(key) or ():
            used.update(cards)
    used.update(kwargs.get("pile") or ())
    for key in ("melds", "packets"):
        for groups in kwargs.get(key) or ():
            for cards in groups:
                used.update(cards)
    return used


def unplaced(rules: canasta.Rules, used: Counter[str]) -> list[str]:
    """The codes of the deck's cards that ``used`` (`placed`) does not hold, in deck order (``used`` is consumed)."""
    rest = []
    for card in canasta.Deck(rules.deck).cards:
        if used[card.code]:
            used[card.code] -= 1
        else:
            rest.append(card.code)
    return rest


def position(*, stock_top: list[str] | None = None, **kwargs: Any) -> HandState:
    """`canasta.build_position` with the classic rules.

    ``stock_top`` gives the top of the stock (top first); every card not placed
    elsewhere follows it in deck order.
    """
    if stock_top is not None:
        kwargs["stock"] = list(stock_top) + unplaced(classic_rules(), placed(stock_top, kwargs))
    return canasta.build_position(classic_rules(), **kwargs)


def snapshot(state: HandState) -> tuple[object, ...]:
    """Everything a refused action must leave unchanged."""
    # (Orders are kept, not sorted: a refused action must not even reorder a hand or a meld.)
    return (
        state.card_locations(),
        list(state.stock),
        list(state.pile),
        state.phase,
        state.seat,
        state.turn,
        [[(r, m.naturals, m.twos, m.jokers, tuple(m.cards)) for r, m in side.items()] for side in state.melds],
        [[(m.rank, m.naturals, m.twos, m.jokers, tuple(m.cards)) for m in side] for side in state.books],
        [[list(packet) for packet in seat] for seat in state.packets],
        [list(threes) for threes in state.threes],
        list(state.asks_used),
        list(state.opened),
        state.provisional_count,
        state.pending_pile,
        state.taken_top,
        state.answer,
        state.asker,
        state.bound,
        state.end,
        tuple(state.legal_actions()),
    )


def refused(state: HandState, action: object, code: RuleCode | None = None) -> IllegalActionError:
    """Assert that ``action`` is refused (with ``code`` if given) and changes nothing."""
    before = snapshot(state)
    assert not state.is_legal(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)  # type: ignore[arg-type]
    err = info.value
    assert isinstance(err.code, RuleCode)
    assert err.message and err.action == action
    if code is not None:
        assert err.code is code, f"{action}: expected {code}, got {err.code} ({err.message})"
    assert snapshot(state) == before
    return err


def accepted(state: HandState, action: Action) -> None:
    """Assert that ``action`` is legal, then apply it."""
    assert state.is_legal(action), f"{action} not legal; legal: {state.legal_actions()}"
    state.check(action)
    state.apply(action)


@contextmanager
def unchanged(state: HandState) -> Iterator[None]:
    """Assert the block leaves the state as it was."""
    before = snapshot(state)
    yield
    assert snapshot(state) == before


# --- invariants of random play --------------------------------------------------------


class InvariantError(AssertionError):
    """An invariant of the engine failed during random play."""


def check_conservation(state: HandState) -> None:
    """Every card of the deck is in exactly one place, and every count agrees with the cards it counts."""
    if state.rules.meld_types:
        # Rule sets with meld types: the library's check (cards, counts, numbers given, runs), then the types'.
        check_library_conservation(state)
        _check_meld_types_accept(state)
        return
    seen = list(chain.from_iterable(state.card_locations().values()))
    total = len(state.deck)
    if len(seen) != total or set(seen) != set(range(total)):
        dupes = len(seen) - len(set(seen))
        raise InvariantError(f"{len(seen)} cards placed, {dupes} twice, deck has {total}")
    kinds = state.kinds
    for seat, (hand, counts, size) in enumerate(zip(state.hands, state.counts, state.sizes, strict=True)):
        lengths = [len(cards) for cards in hand]
        if lengths != counts or sum(lengths) != size:
            raise InvariantError(f"hand {seat}: size/count bookkeeping is off")
        for kind, cards in enumerate(hand):
            for card in cards:
                if kinds[card] != kind:
                    raise InvariantError(f"hand {seat}: a card is filed under the wrong kind")
    # (Judged by the rules as dealt: a meld of a rank closed since, house rule dead-ranks, stays as it is.)
    meld_rules = state.rules.as_dealt.melds
    for side, melds in enumerate(state.melds):
        for rank, m in melds.items():
            ks = [kinds[c] for c in m.cards]
            if (ks.count(0), ks.count(1)) != (m.jokers, m.twos) or len(ks) != m.size:
                raise InvariantError(f"side {side} meld {rank}: counts disagree with its cards")
            if state.opened[side] and not meld_rules.is_valid(m.rank, m.naturals, m.twos, m.jokers):
                raise InvariantError(f"side {side} meld {Kind(m.rank).name} (key {rank}) is not a legal meld: {m}")
    canasta_size = state.rules.melds.canasta_size
    for side, books in enumerate(state.books):
        for m in books:
            ks = [kinds[c] for c in m.cards]
            if (ks.count(0), ks.count(1)) != (m.jokers, m.twos) or len(ks) != m.size:
                raise InvariantError(f"side {side} book {m}: counts disagree with its cards")
            if m.size < canasta_size:
                raise InvariantError(f"side {side} book {m} is smaller than a canasta")


def _check_meld_types_accept(state: HandState) -> None:
    """Rule sets with meld types: the type of each meld accepts it."""
    types = state.rules.meld_types
    for side, melds in enumerate(state.melds):
        # Melds only a going-out turn allows stand in the acting side's turn (it must go out) and after it went out.
        going_out = state.went_out is not None or (not state.is_over and side == state.seating[state.seat])
        for number, m in melds.items():
            shape = meld_shape(state, m)
            kind = judging(types, shape)
            if kind is None or not kind.valid(shape, going_out=going_out):
                raise InvariantError(f"side {side} meld #{number} is not a legal meld: {shape}")


def _suited_near_misses(state: HandState, rng: random.Random) -> list[object]:
    """Actions beside the legal ones of a rule set with meld types: one card more, another suit, another meld."""
    found: list[object] = []
    for a in state.legal_actions():
        if rng.random() > 0.3:
            continue
        if isinstance(a, LayGroup):
            suits = list(a.suits)
            suits[rng.randrange(4)] += 1
            found += [attrs.evolve(a, suits=tuple(suits)), attrs.evolve(a, twos=a.twos + 1), attrs.evolve(a, meld=99)]
        elif isinstance(a, LaySequence):
            other = Suit((a.suit + 1) % 4)
            found += [LaySequence(a.suit, max(4, a.low - 1), a.high), LaySequence(other, a.low, a.high)]
        elif isinstance(a, Extend):
            found += [Extend(a.meld, a.low, min(14, a.high + 1)), Extend(a.meld + 1, a.low, a.high)]
        elif isinstance(a, PileTake):
            found += [PileTake(mode, a.meld, a.pair) for mode in TakeMode] + [attrs.evolve(a, meld=99)]
        elif isinstance(a, Discard) and a.suit is not None:
            found += [Discard(a.kind, suit=Suit((a.suit + s) % 4)) for s in (1, 2, 3)] + [Discard(a.kind)]
        elif isinstance(a, Combine):
            found.append(Combine(a.second, a.first))
    found += [LayWild(3), LayBlackThrees(3), Combine(0, 1)]
    return found


def action_universe(state: HandState, rng: random.Random, extra: int = 6) -> list[object]:
    """Candidate actions for refusal sampling: every simple action plus random melds and takes."""
    cands: list[object] = list(simple_actions())  # (every take of up to 3 naturals and 2 of each wild kind)
    if state.rules.meld_types:
        cands += _suited_near_misses(state, rng)
    # The other meld of a rank (cutthroat) and a book of it (add-to-books).
    cands += [TakePile(2, 0, 0, second=True), TakePile(2, 0, 0, book=True), TakePile(1, 1, 0, book=True)]
    for _ in range(extra):
        cands.append(Meld(Kind(rng.randrange(15)), rng.randrange(5), rng.randrange(4), rng.randrange(3)))
        cands.append(TakePile(rng.randrange(3), rng.randrange(2), rng.randrange(2)))
    # near misses around the legal melds: one more wild or natural
    for a in state.legal_actions():
        if isinstance(a, Meld) and rng.random() < 0.3:
            cands.append(Meld(a.rank, a.naturals + 1, a.twos, a.jokers))
            cands.append(Meld(a.rank, a.naturals, a.twos + 1, a.jokers))
            cands.append(Meld(a.rank, a.naturals, a.twos, a.jokers + 1))
            cands.append(Meld(a.rank, a.naturals, a.twos, a.jokers, second=not a.second))
            cands.append(Meld(a.rank, a.naturals, a.twos, a.jokers, book=not a.book))
    return cands


def check_state(state: HandState, rng: random.Random, *, legal_sample: int | None = 4, illegal_sample: int = 6) -> None:
    """Check every invariant of one reachable state.

    Args:
        state: The hand (not changed).
        rng: Randomness for the samples.
        legal_sample: How many legal actions to apply on copies (``None``: all).
        illegal_sample: How many illegal candidates to try.
    """
    check_conservation(state)
    check_threes_in_hands(state)
    check_earned_packets(state)
    legal = state.legal_actions()
    if state.is_over:
        if legal:
            raise InvariantError("a finished hand lists legal actions")
        score = state.score()
        for s in score.sides:
            parts = (s.melded_cards, s.canasta_bonuses, s.red_threes, s.going_out, s.set_aside, s.cards_in_hand)
            if sum(parts) + s.penalties + s.special_hand != s.total:
                raise InvariantError("a side's breakdown does not sum to its total")
        return
    if not legal:
        raise InvariantError(f"dead end: no legal action in phase {state.phase} for seat {state.seat}")
    if len(set(legal)) != len(legal):
        raise InvariantError("duplicate legal actions")
    before = snapshot(state)
    chosen = legal if legal_sample is None or len(legal) <= legal_sample else rng.sample(legal, legal_sample)
    for action in chosen:
        trial = state.copy()
        try:
            trial.apply(action)
        except IllegalActionError as exc:
            raise InvariantError(f"listed action {action} refused: {exc}") from exc
        check_conservation(trial)
        if not trial.is_over and not trial.legal_actions():
            raise InvariantError(f"dead end after {action}")
    legal_set = set(legal)
    cands = [a for a in action_universe(state, rng) if a not in legal_set]
    for action in rng.sample(cands, min(illegal_sample, len(cands))):
        try:
            state.apply(action)  # type: ignore[arg-type]
        except IllegalActionError as exc:
            if not exc.message or not isinstance(exc.code, RuleCode):
                raise InvariantError(f"refusal of {action} has no code or message") from exc
        else:
            raise InvariantError(f"unlisted action {action} was accepted")
        if snapshot(state) != before:
            raise InvariantError(f"refused {action} changed the state")
    if snapshot(state) != before:
        raise InvariantError("checking changed the state")


def play_random_hand(
    rng: random.Random,
    *,
    seed: object,
    scores: list[int] | None = None,
    dealer: int = 3,
    check: bool = True,
    legal_sample: int | None = 4,
    illegal_sample: int = 6,
    rules: canasta.Rules | None = None,
) -> tuple[HandState, int]:
    """Deal a hand (classic unless ``rules`` are given) and play it to the end with random legal actions.

    Returns:
        The finished hand and the number of actions played.
    """
    rules = classic_rules() if rules is None else rules
    state = HandState.deal(rules, dealer=dealer, scores=scores or [0] * rules.side_count, seed=seed)
    actions = 0
    while True:
        if check:
            check_state(state, rng, legal_sample=legal_sample, illegal_sample=illegal_sample)
        if state.is_over:
            return state, actions
        legal = state.legal_actions()
        # Prefer progress a little so hands do not all end by exhaustion.
        melds = [a for a in legal if isinstance(a, Meld | TakePile)]
        action = rng.choice(melds) if melds and rng.random() < 0.5 else rng.choice(legal)
        state.apply(action)
        actions += 1
        if actions > 5000:
            raise InvariantError("a hand did not finish in 5000 actions")


def short_stock(stock: list[str], *, dump: int = 3, **kwargs: Any) -> HandState:
    """A classic position whose stock holds exactly ``stock`` (top first).

    Every other unplaced card goes to seat ``dump``'s hand (red threes to its
    laid-out threes), so that all 108 cards stay accounted for.
    """
    # The dump seat gets its cards before the position is built: build_position refuses an empty hand.
    used = placed(stock, kwargs)
    hands = [list(h) for h in kwargs.pop("hands")]
    threes = [list(t) for t in (kwargs.pop("threes", None) or [[] for _ in hands])]
    for card in canasta.Deck(classic_rules().deck).cards:
        if used[card.code]:
            used[card.code] -= 1
        else:
            (threes if card.kind is Kind.RED_THREE else hands)[dump].append(card.code)
    return canasta.build_position(classic_rules(), hands=hands, threes=threes, stock=list(stock), **kwargs)


def load_file_module(path: Path, name: str) -> ModuleType:
    """Import a Python file that is not on the path (a docs hook, a script) as a module of its own."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_on_engine(script: str, *args: str, pure: bool) -> dict[str, object]:
    """Run a Python script in a fresh process on one engine and read the JSON object it prints.

    The compiled or the pure-Python engine (``CANASTA_PURE_PYTHON``), with a fixed
    hash seed, from the project's root: the differential tests compare both.
    """
    from canasta import _engine

    env = {k: v for k, v in os.environ.items() if k != _engine.PURE_ENV}
    if pure:
        env[_engine.PURE_ENV] = "1"
    env["PYTHONHASHSEED"] = "0"
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        cwd=Path(canasta.__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def reference_positions(
    rules: canasta.Rules, seeds: Sequence[int], *, max_turn_cards: int = 9, max_nodes: int = 50_000
) -> list[HandState]:
    """Play seeded random hands and check each position small enough for the reference against it.

    At every position whose acting player has at most ``max_turn_cards`` cards to search (outside a
    partner's answer), `canasta.testing.reference.check_exact_legality` must agree with
    ``legal_actions()`` (a position over the reference's node budget is skipped).

    Returns:
        Copies of the positions checked, for the caller to count what they covered.
    """
    from canasta.testing.reference import ReferenceBudgetExceeded, check_exact_legality, turn_cards

    checked: list[HandState] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = HandState.deal(rules, dealer=3, scores=[0] * rules.side_count, seed=seed)
        while not state.is_over:
            if turn_cards(state) <= max_turn_cards and state.phase is not canasta.Phase.ANSWER:
                try:
                    check_exact_legality(state, max_nodes=max_nodes)
                except ReferenceBudgetExceeded:
                    pass
                else:
                    checked.append(state.copy())
            state.apply(rng.choice(state.legal_actions()))
    return checked
