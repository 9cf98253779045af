"""The state of one hand and its rules engine: `HandState`.

`HandState` holds everything on the table during a hand: the stock, the discard
pile, the hands, each side's melds and laid-out threes, the turn phase and who
acts. Its data lives in `canasta.table`; it generates the exact set of legal
actions with `canasta.legality` (what "legal" means: allowed by the rules and completable,
decided by the oracle in `canasta.completion`), explains refusals with
`canasta.explain` and applies actions with `canasta.transitions`. Rule values
come from the compiled `canasta.Rules`.

For speed the state is mutable and kept in flat lists of card ids and counts;
`apply` refuses an illegal action *before* changing anything, and `copy` is
cheap, so search code copies and applies.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from canasta import legality, scoring, transitions
from canasta import observation as observing
from canasta.actions import ACTION_TYPES, Action
from canasta.cards import Deck
from canasta.errors import IllegalActionError, RuleCode
from canasta.explain import explain
from canasta.observation import Observation
from canasta.rules import Rules
from canasta.scoring import HandScore
from canasta.seats import check_seat
from canasta.suitedscoring import score_table
from canasta.suitedtransitions import SUITED_TRANSITIONS
from canasta.table import HandEnd, MeldState, Phase, TableState

__all__ = ["HandEnd", "HandState", "MeldState", "Phase"]

#: Whether this module runs compiled by mypyc or as its Python source (`HandState.apply` is written for each).
_COMPILED: Final = not __file__.endswith(".py")
_TRANSITIONS: Final = transitions.TRANSITIONS
#: Every action type the engine accepts: `canasta.actions.ACTION_TYPES` and the sequence games' own.
_ACCEPTED_TYPES: Final = ACTION_TYPES | frozenset(SUITED_TRANSITIONS)


def _safe_repr(value: object, limit: int = 80) -> str:
    """A short repr of untrusted input (a repr may raise, or be huge)."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shuffled(count: int, rng: random.Random) -> list[int]:
    """``list(range(count))`` shuffled exactly as ``rng.shuffle`` shuffles it (the same draws, the same order).

    `random.Random.shuffle` written out (Fisher-Yates, each index drawn as
    ``_randbelow`` draws it: ``getrandbits`` of the bound's bit length until below
    the bound) so that the compiled engine deals without running the standard
    library's Python code; `tests/test_engine_deal.py` checks it against
    ``rng.shuffle``.

    Args:
        count: How many card ids (``0 .. count - 1``).
        rng: The generator, advanced as ``rng.shuffle`` would advance it.

    Returns:
        The shuffled ids.
    """
    order = list(range(count))
    getrandbits = rng.getrandbits
    for i in range(count - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        order[i], order[j] = order[j], order[i]
    return order


class HandState(TableState):
    """One hand of canasta: table state, legal actions and their application.

    Create one with `HandState.deal` (shuffled from a seed) or
    `canasta.position.build_position` (an explicit position); `canasta.Game`
    does this for you across a whole game.

    Attributes:
        rules: The compiled rules, with the hand's meld state (ranks closed,
            melds locked against wild cards this turn: see `canasta.Rules.during_hand`;
            `rules.as_dealt` are the rules the hand was dealt with).
        deck: The deck (card ids index ``deck.cards``).
        dealer: The dealer's seat.
        scores: Each side's cumulative score before this hand.
        deal_number: This hand's number in its game, from 1.
        minimums: Each side's initial-meld minimum for this hand.
        seat: The seat that must act now.
        phase: The turn phase.
        turn: Turns started so far in this hand, minus one (0 during the first turn).
        end: Why the hand ended, once it has.
        went_out: The seat that went out, if one did.
        concealed: Whether that player went out concealed.
        declared: ``(seat, hand id)`` of the special hand declared, if one was (rules with special hands).
        shuffle_seed: The hand's secret source of reshuffles (`canasta.ExhaustionRules.reshuffle_pile_at`):
            drawn from the deal's seed, ``build_position``'s ``stock_seed`` for a built position; 0 (unused)
            where the rules never reshuffle. No observation shows it.
        reshuffles: How many times the pile was shuffled into a new stock in this hand.
        reshuffled: The card ids the last reshuffle put into the stock, in the order they lay in the
            pile (public), as a tuple; empty before any.
        first_canasta: Per seat, the turn (as ``turn`` counts) in which the player first completed a
            canasta (a book) by their own action in this hand, or -1 if not yet (kept only where a
            packet is earned so: `canasta.PacketRules.after_first_canasta`; public).
    """

    __slots__ = ()

    # --- construction ---------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        *,
        dealer: int,
        scores: Sequence[int],
        seed: object,
        deck: Deck | None = None,
        deal_number: int = 1,
    ) -> HandState:
        """Shuffle and deal a hand (the rule book's "Table and deal").

        Args:
            rules: The compiled rules.
            dealer: The dealer's seat.
            scores: Each side's cumulative score before the hand.
            seed: Any hashable seed for the shuffle (same seed, same deal).
            deck: The deck to use (built from the rules if omitted).
            deal_number: The hand's number in the game, from 1 (a minimum table
                by deal reads it: `canasta.MeldMinimums.by_deal`).

        Returns:
            The hand, with the upcard turned and deal-time red threes laid out
            and replaced, ready for the first player's draw.

        Raises:
            ValueError: If ``deal_number`` is below 1.
        """
        if deal_number < 1:
            raise ValueError(f"a deal's number starts at 1, got {deal_number}")
        deck = deck or Deck(rules.deck)
        state = cls(rules, deck, dealer, scores, deal_number=deal_number)
        rng = random.Random(str(seed) if not isinstance(seed, int) else seed)
        order = shuffled(len(deck), rng)
        state.stock = order  # the top of the stock is the end of the list
        n = rules.players
        first = (dealer + 1) % n
        for _ in range(rules.hand_size):
            for i in range(n):
                state._to_hand((first + i) % n, state.stock.pop())
        for size in rules.packets.sizes:
            # Packets after the hand (Hand and Foot's foot, §8.1): dealt the same way, face down.
            packets: list[list[int]] = [[] for _ in range(n)]
            for _ in range(size):
                for i in range(n):
                    packets[i].append(state.stock.pop())
            for i in range(n):
                state.packets[(first + i) % n].append(packets[i])
        transitions.turn_upcard(state, rng)
        if rules.exhaustion.reshuffle_pile_at:
            # The source of the hand's reshuffles (`canasta.ExhaustionRules.reshuffle_pile_at`): secret, from the seed.
            state.shuffle_seed = rng.getrandbits(64)
        # Deal-time threes: each player in turn lays out and replaces them.
        for i in range(n):
            seat = (first + i) % n
            transitions.lay_out_and_replace(state, seat)
        transitions.begin_turn(state)
        return state

    # --- legality -------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the acting seat may take now, exactly (what "legal" means).

        An action is legal when the rules allow it and the turn can still be
        completed legally after it.

        Returns:
            The legal actions, as a tuple: the hand keeps it until the state
            changes and returns the same tuple each time (free), and no caller
            can change what the engine accepts through it.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = tuple(legality.generate(self, True))  # `legality.legal_actions`, one call less
        return legal

    def allowed_actions(self) -> list[Action]:
        """What the rules allow now, before the completion filter of what "legal" means.

        A superset of `legal_actions`, for references and explanations (see
        `canasta.testing.reference`); play uses `legal_actions`.

        Returns:
            The allowed actions.
        """
        return legality.allowed_actions(self)

    def is_legal(self, action: object) -> bool:
        """Whether an action is legal now, without applying it.

        Args:
            action: The action (anything: a non-action is simply not legal).

        Returns:
            True if `apply` would accept it.
        """
        return type(action) in _ACCEPTED_TYPES and action in self.legal_actions()

    def check(self, action: object) -> None:
        """Raise if an action is illegal now; change nothing.

        Args:
            action: The action.

        Raises:
            IllegalActionError: With the rule's code and a sentence naming it
                (``not-an-action`` for anything that is not an action value).
        """
        if type(action) not in _ACCEPTED_TYPES:
            # Exact types only: the membership test below compares with ==,
            # which a look-alike (or a numpy array) could answer wrongly.
            raise IllegalActionError(
                RuleCode.NOT_AN_ACTION,
                f"{_safe_repr(action)} is not a canasta action",
                action,
                section=self.rules.section(RuleCode.NOT_AN_ACTION),
            )
        if action not in self.legal_actions():
            try:
                code, message = explain(self, action)
            except Exception:  # an explanation must never hide the refusal itself
                code, message = RuleCode.ILLEGAL, f"{action} is not legal now"
            raise IllegalActionError(code, message, action, section=self.rules.section(code))

    def _apply_unchecked(self, action: Action) -> None:
        transitions.apply_unchecked(self, action)

    def apply(self, action: Action | object) -> None:
        """Apply a legal action, or raise and change nothing.

        Args:
            action: The action (anything else is refused as ``not-an-action``;
                annotated ``object`` as well so that the compiled engine refuses
                it with `IllegalActionError`, not with its own ``TypeError``).

        Raises:
            IllegalActionError: If the action is illegal now.
        """
        # The usual case first, by identity (no attrs-generated __eq__ calls, and a
        # plain loop that the compiled engine runs as pointer comparisons): an action
        # object taken from the cached legal list. Anything else (an equal action
        # built by the caller, a stale or illegal one) is checked.
        unchecked = True
        legal = self._legal
        if legal is not None:
            for candidate in legal:
                if candidate is action:
                    unchecked = False
                    break
        if unchecked:
            self.check(action)
        # Past the check it is an Action: typed without a cast() call on the hot path.
        known: Action = action  # type: ignore[assignment]
        # `transitions.apply_unchecked`, inlined: one call less per action.
        self._legal = None
        self.log.append((self.seat, known))  # everything a player does is done in public
        if _COMPILED:
            transitions.transition(self, known)  # (its identity tests let the compiled engine call directly)
        else:
            _TRANSITIONS[type(known)](self, known)  # (the table itself: one Python frame less than `transition`)

    def __copy__(self) -> HandState:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> HandState:
        return self.copy()

    def score(self) -> HandScore:
        """Score the finished hand (the rule book's "Scoring").

        Returns:
            The per-side breakdown.

        Raises:
            ValueError: If the hand is not over.
        """
        if self.facts.sequences:
            return score_table(self)  # rule sets with meld types (the sequence games)
        return scoring.score_hand(self)

    def observation(self, seat: object) -> Observation:
        """What a seat may see (the rule book's "What each player sees").

        Args:
            seat: The seat, an integer from 0 to ``players - 1`` (annotated
                ``object`` so that the compiled engine refuses anything else with
                `canasta.seats.SeatError`, as the pure one does, not with its own
                ``TypeError``).

        Returns:
            Its observation.

        Raises:
            SeatError: If ``seat`` is not a seat of the hand (``-1``, ``True``
                and ``1.0`` are not).
        """
        return observing.observe(self, check_seat(seat, self.dealt.players))

    def _repr_svg_(self) -> str:
        """The whole table, every hand face up, as SVG, so that Jupyter shows it (`canasta.render.render_table_svg`)."""
        from canasta.render import render_table_svg

        return render_table_svg(self)
