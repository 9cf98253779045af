"""A reusable stateful conformance suite for any variant and house rules.

A hypothesis `RuleBasedStateMachine` deals a game of the variant, plays it
with a mix of hypothesis-chosen and random legal actions (so it reaches the
end of hands and deals new ones), and after every step checks the invariants
of `canasta.testing.invariants`. Its rules also try illegal actions, copy the
game and resample the cards a seat cannot see.

Run it for your variant in two lines of a test module::

    from canasta.testing import conformance_machine

    TestMyVariant = conformance_machine("my-variant", house_rules=["my-rule"]).TestCase

Needs the ``testing`` extra (``pip install 'canasta[testing]'``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from canasta.actions import Action
from canasta.errors import IllegalActionError
from canasta.game import Game
from canasta.hand import HandState
from canasta.plugins import load_rules
from canasta.registry import Registry
from canasta.testing import invariants as inv
from canasta.testing import strategies as cst
from canasta.testing.errors import InvariantError
from canasta.testing.play import random_play
from canasta.testing.reference import DEFAULT_MAX_NODES, check_exact_legality, check_no_dead_end, turn_cards

try:
    from hypothesis import settings as Settings
    from hypothesis import strategies as st
    from hypothesis.stateful import (
        RuleBasedStateMachine,
        initialize,
        invariant,
        precondition,
        rule,
        run_state_machine_as_test,
    )
except ImportError as exc:  # pragma: no cover - exercised without hypothesis installed
    raise ImportError(
        "canasta.testing.conformance needs hypothesis; install the extra: pip install 'canasta[testing]'"
    ) from exc

__all__ = ["SEVERAL_MELDS_MAX_CARDS", "CanastaConformance", "conformance_machine", "run_conformance"]

_SEEDS = st.integers(0, 2**32 - 1)


def _running(machine: CanastaConformance) -> bool:
    return machine._game is not None and not machine._game.is_over


#: `conformance_machine`'s ``reference_max_cards`` for rule sets with several melds of a rank.
SEVERAL_MELDS_MAX_CARDS: int = 8


class CanastaConformance(RuleBasedStateMachine):
    """The conformance state machine; subclass it or use `conformance_machine`.

    Set the class attributes in a subclass to choose what is tested. Each run
    deals a `canasta.Game` from a drawn seed, plays a drawn number of random
    legal actions to reach a mid-hand state, then interleaves its rules.

    After every step it checks card conservation, exact legal actions (a
    sample of listed actions accepted on copies, unlisted ones refused with
    `canasta.IllegalActionError` and the state unchanged), that a hand that
    is not over has a legal action, every seat's observation against the
    state, score breakdowns of finished hands and the game's totals. Where the
    acting player holds few cards (at most ``reference_max_cards``, counting
    the pile a take would bring in), after each step and before each action
    of its random stretches, it also proves the legal actions exact against
    the brute-force legality reference
    (`canasta.testing.reference.check_exact_legality`): everything listed can
    be completed, and everything the rules allow that can be completed is
    listed. Its rules additionally check refusals of hypothesis-chosen
    illegal actions, observations under resampled hidden cards, and copies.
    At the end of each run the game's record round-trips through JSON and
    replays identically, once `canasta.records` exists (skipped before).

    Attributes:
        variant: The variant's name.
        house_rules: House-rule names stacked on it.
        registry: Where the names are looked up (``None``: the default registry).
        legal_sample: Listed actions applied on copies after each step.
        illegal_sample: Unlisted actions tried after each step.
        max_warmup: Most random actions played right after the deal.
        max_jump: Most random actions played by one ``play_random`` step.
        reference_max_cards: Run the legality reference after a step when the
            acting hand plus the pile hold at most this many cards
            (`canasta.testing.reference.turn_cards`); its cost grows
            exponentially with them. ``0`` turns the reference off.
        reference_max_nodes: The reference's node budget per position; a
            position that needs more fails with
            `canasta.testing.reference.ReferenceBudgetExceeded` (lower
            ``reference_max_cards`` then).
        reference_in_play: Also run it (and the dead-end check) before
            every action of the random stretches, not only after each step.
    """

    variant: ClassVar[str] = "classic"
    house_rules: ClassVar[tuple[str, ...]] = ()
    registry: ClassVar[Registry | None] = None
    legal_sample: ClassVar[int] = 2
    illegal_sample: ClassVar[int] = 4
    max_warmup: ClassVar[int] = 250
    max_jump: ClassVar[int] = 150
    reference_max_cards: ClassVar[int] = 12
    reference_max_nodes: ClassVar[int] = DEFAULT_MAX_NODES
    reference_in_play: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self._game: Game | None = None
        self._recorder: Any = None  # a canasta.records.GameRecorder where records exist
        self._rng = random.Random(0)

    # --- helpers ---------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game under test."""
        if self._game is None:  # pragma: no cover - hypothesis runs initialize first
            raise InvariantError("the game is not dealt yet")
        return self._game

    @property
    def hand(self) -> HandState:
        """The game's current hand."""
        return self.game.hand

    def _apply(self, action: Action) -> None:
        game = self.game
        finished = game.hand
        if self.reference_in_play:
            self._check_reference(finished)
        result = game.apply(action) if self._recorder is None else self._recorder.apply(action)
        if result is not None:
            # The hand just scored is the state the action finished.
            if not finished.is_over:
                raise InvariantError(f"{action!r} produced a hand score but the hand is not over")
            if inv.check_score(finished) != result:
                raise InvariantError("the game's hand score differs from scoring the finished hand")

    # --- setup -------------------------------------------------------------------------------

    @initialize(seed=_SEEDS, warmup=st.integers(0, 1000), play_seed=_SEEDS)
    def deal(self, seed: int, warmup: int, play_seed: int) -> None:
        """Deal a game of the variant and play a random stretch of it."""
        self._game = Game(self.variant, self.house_rules, seed=seed, registry=self.registry)
        if inv.records_available():
            from canasta.records import GameRecorder

            self._recorder = GameRecorder(self._game, registry=self.registry)
        self._rng = random.Random(play_seed)
        self._play(warmup % (self.max_warmup + 1))

    def _play(self, steps: int) -> None:
        random_play(_Recorder(self), self._rng, steps)

    # --- rules --------------------------------------------------------------------------------

    @precondition(_running)
    @rule(data=st.data())
    def play_legal(self, data: st.DataObject) -> None:
        """Apply a legal action chosen by hypothesis."""
        self._apply(data.draw(cst.legal_actions(state=self.hand), label="action"))

    @precondition(_running)
    @rule(steps=st.integers(1, 1000))
    def play_random(self, steps: int) -> None:
        """Jump ahead with random legal play (reaches the end of hands and new deals)."""
        self._play(1 + steps % self.max_jump)

    @rule(data=st.data())
    def illegal_action_is_refused(self, data: st.DataObject) -> None:
        """An action hypothesis picks outside the legal set is refused, changing nothing."""
        action = data.draw(cst.illegal_actions(state=self.hand), label="illegal action")
        err = inv.check_refused(self.hand, action)
        scores = self.game.scores
        try:
            self.game.apply(action)
        except IllegalActionError as exc:
            if exc.code is not err.code:
                raise InvariantError(f"Game and HandState refuse {action!r} differently") from exc
        else:
            raise InvariantError(f"Game.apply accepted {action!r}, which the hand refuses")
        if self.game.scores != scores:
            raise InvariantError("a refused action changed the game's scores")

    @rule(seat=st.integers(0, 5), seed=_SEEDS)
    def hidden_cards_do_not_show(self, seat: int, seed: int) -> None:
        """A seat's observation is the same whatever the cards it cannot see."""
        inv.check_hidden_information(self.hand, random.Random(seed), seats=[seat % self.game.rules.players])

    @rule(steps=st.integers(1, 6), seed=_SEEDS)
    def copies_are_independent(self, steps: int, seed: int) -> None:
        """Playing on copies of the hand and of the game leaves the originals alone."""
        rng = random.Random(seed)
        inv.check_copy_independence(self.hand, rng, steps=steps)
        game = self.game
        before = (list(game.scores), len(game.results), game.hand_number, inv.snapshot(game.hand))
        other = game.copy()
        random_play(other, rng, steps * 20)
        after = (list(game.scores), len(game.results), game.hand_number, inv.snapshot(game.hand))
        if after != before:
            raise InvariantError("playing on a copy of the game changed the original game")

    # --- after every step ----------------------------------------------------------------------

    @invariant()
    def invariants_hold(self) -> None:
        """Conservation, threes in hands, exact legal actions, observations, scores."""
        if self._game is None:  # pragma: no cover
            return
        state = self.hand
        inv.check_conservation(state)
        inv.check_threes_in_hands(state)
        inv.check_earned_packets(state)
        inv.check_legal_actions(state, self._rng, legal_sample=self.legal_sample, illegal_sample=self.illegal_sample)
        inv.check_observations(state)
        inv.check_score(state)
        inv.check_game(self.game)

    @invariant()
    def legal_actions_match_the_reference(self) -> None:
        """No dead end; in small positions, the legal actions equal the legality reference's."""
        if self._game is None:  # pragma: no cover
            return
        state = self.hand
        self._check_reference(state)

    def _check_reference(self, state: HandState) -> None:
        check_no_dead_end(state)
        if 0 < turn_cards(state) <= self.reference_max_cards:
            check_exact_legality(state, max_nodes=self.reference_max_nodes)

    def teardown(self) -> None:
        """Round-trip the game's record, when records exist."""
        if self._game is not None and self._recorder is not None:
            inv.check_record(self._recorder.record(), self._game, registry=self.registry)


class _Recorder:
    """Routes random play through the machine so every action is recorded and checked."""

    def __init__(self, machine: CanastaConformance) -> None:
        self._machine = machine

    @property
    def is_over(self) -> bool:
        return self._machine.game.is_over

    def legal_actions(self) -> tuple[Action, ...]:
        return self._machine.game.legal_actions()

    def apply(self, action: Action) -> None:
        self._machine._apply(action)


def _class_name(variant: str, house_rules: Sequence[str]) -> str:
    words = re.split(r"[^0-9A-Za-z]+", " ".join([variant, *house_rules]))
    return "Conformance" + "".join(w[:1].upper() + w[1:] for w in words if w)


def conformance_machine(
    variant: str = "classic",
    house_rules: Sequence[str] = (),
    *,
    registry: Registry | None = None,
    settings: Settings | None = None,
) -> type[CanastaConformance]:
    """A conformance state machine for a variant with house rules.

    The names are checked at once (an unknown name or a house rule that does
    not fit raises here, not inside hypothesis).

    Args:
        variant: The variant's name.
        house_rules: House-rule names, stacked in this order.
        registry: Where to look the names up (default: the default registry).
        settings: Hypothesis settings for its ``TestCase`` (default: the
            loaded profile, without a deadline).

    Returns:
        A `CanastaConformance` subclass; assign its ``TestCase`` to a
        module-level name for pytest or unittest to collect it, or pass it to
        `run_conformance`. Under rules with several melds of a rank
        (`canasta.MeldRules.several_melds`) its ``reference_max_cards`` is
        `SEVERAL_MELDS_MAX_CARDS` (the reference's search grows faster there).
    """
    rules = load_rules(variant, house_rules, registry=registry)
    fields: dict[str, object] = {
        "variant": variant,
        "house_rules": tuple(house_rules),
        "registry": registry,
        "__module__": __name__,
    }
    if rules.melds.several_melds:
        # Several melds of a rank (`canasta.MeldRules.several_melds`) multiply the ways to place each card:
        # the reference's search grows faster with the cards held, so it checks smaller positions.
        fields["reference_max_cards"] = min(CanastaConformance.reference_max_cards, SEVERAL_MELDS_MAX_CARDS)
    machine: type[CanastaConformance] = type(_class_name(variant, house_rules), (CanastaConformance,), fields)
    if settings is not None:
        machine.TestCase.settings = settings
    return machine


def run_conformance(
    variant: str = "classic",
    house_rules: Sequence[str] = (),
    *,
    registry: Registry | None = None,
    settings: Settings | None = None,
) -> None:
    """Run the conformance suite for a variant now (e.g. inside a parametrized test).

    Args:
        variant: The variant's name.
        house_rules: House-rule names, stacked in this order.
        registry: Where to look the names up (default: the default registry).
        settings: Hypothesis settings (default: the loaded profile, no deadline).

    Raises:
        AssertionError: With hypothesis's minimal failing program, if an invariant fails.
    """
    machine = conformance_machine(variant, house_rules, registry=registry)
    run_state_machine_as_test(machine, settings=settings or Settings(deadline=None))
