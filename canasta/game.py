"""The multi-hand game: cumulative scores, dealer rotation, the end (a target or a number of deals), undo.

Taking back moves is not a rule of Canasta (the rule book, "What “legal”
means"); `Game.undo` is the game's history, for interfaces (a person who
clicked the wrong card) and for search code, in the manner of python-chess's
``Board.pop()``.
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.actions import Action
from canasta.cards import Deck, DeckSpec
from canasta.errors import IllegalActionError, InvalidPositionError, RuleCode, RulesError, short_repr
from canasta.hand import HandState
from canasta.integers import exact_int
from canasta.observation import Observation
from canasta.plugins import load_rules
from canasta.registry import Registry
from canasta.rules import Rules
from canasta.scoring import HandScore
from canasta.seats import check_seat
from canasta.seeds import resolve_seed
from canasta.table import OVER_PHASE

__all__ = ["Game"]

#: One deck per deck spec, shared by the games that use it: a `Deck` is never changed (tuples
#: of frozen cards), and building its cards was two thirds of the cost of a new game (an RL
#: environment starts one every few hundred steps). Bounded, for programs that try many specs.
_DECKS: dict[DeckSpec, Deck] = {}
_DECKS_LIMIT = 64


def _shared_deck(spec: DeckSpec) -> Deck:
    deck = _DECKS.get(spec)
    if deck is None:
        if len(_DECKS) >= _DECKS_LIMIT:
            _DECKS.clear()
        deck = _DECKS.setdefault(spec, Deck(spec))
    return deck


_OVER = OVER_PHASE

#: Hands in a row that may end on their deal before `Game` refuses the rules: compiled rules
#: leave every deal a stock to draw from (`canasta.compile_rules`), so only rules built by hand
#: get here; a thousand in a row does not happen by chance with rules where any hand can be played.
_MOST_HANDS_ENDED_ON_DEAL = 1000


class _HandLog:
    """One hand of a game's history: how it started, the scores before it, its actions.

    The start is either a hand given to `Game.from_hand` (``start``, never
    changed: undo replays a copy of it) or a seeded deal (``deal``: the rules,
    dealer, seed, deck and deal number, which deal the very same hand again), so that a hand
    the game deals costs no copy. ``actions`` is appended to only while the hand
    is the game's last one; an undo that goes back into a hand builds a new log,
    so games made by `Game.copy` can share the logs of earlier hands.
    """

    __slots__ = ("actions", "deal", "scores", "start")

    def __init__(
        self,
        start: HandState | None,
        scores: Sequence[int],
        actions: list[Action],
        deal: tuple[Rules, int, str, Deck, int] | None = None,
    ) -> None:
        self.start = start
        self.scores = tuple(scores)
        self.actions = actions
        self.deal = deal

    def begin(self) -> HandState:
        """A new hand, exactly as this one started."""
        if self.start is not None:
            return self.start.copy()
        assert self.deal is not None
        rules, dealer, seed, deck, number = self.deal
        return HandState.deal(rules, dealer=dealer, scores=list(self.scores), seed=seed, deck=deck, deal_number=number)

    def with_actions(self, actions: list[Action]) -> _HandLog:
        """The same start and scores with other actions."""
        return _HandLog(self.start, self.scores, actions, self.deal)


def _side_scores(scores: object, sides: int) -> list[int]:
    """``scores`` as a list of one exact integer per side, or `InvalidPositionError`."""
    if isinstance(scores, (str, bytes, bytearray)) or not isinstance(scores, Sequence):
        raise InvalidPositionError(
            f"scores must be a sequence of {sides} integers, one per side, got {short_repr(scores, 60)}"
        )
    if len(scores) != sides:
        raise InvalidPositionError(
            f"scores must hold {sides} integers, one per side, got {len(scores)}: {short_repr(scores, 60)}"
        )
    values: list[int] = []
    for side, value in enumerate(scores):
        score = exact_int(value)
        if score is None:
            raise InvalidPositionError(f"scores[{side}] must be an integer, got {short_repr(value, 60)}")
        values.append(score)
    return values


class Game:
    """A game of canasta: hands dealt until the game ends (`canasta.GameLength`).

    The game ends at the end of a hand in which a side reaches the target
    score, or after the variant's number of deals, whichever its rules say
    (``rules.game_length``), or when a special hand wins it.

    Drive it with `legal_actions` and `apply`; when a hand ends it is scored
    and the next hand is dealt automatically (the deal passes left). `undo`
    takes the last applied action back, across hand boundaries too, and
    `history` lists the actions applied so far.

    Args:
        variant: Variant name (default ``"classic"``).
        house_rules: House-rule names stacked on the variant.
        seed: Seed for every shuffle of the game (same seed, same game): an
            integer, ``|seed| < 2**64`` (numpy integers too; see `canasta.seeds`).
            ``None`` (the default) draws a fresh random seed, kept in `seed`.
        rules: Already compiled rules (then names are not looked up).
        registry: Registry to look names up in (default: the process-wide one).
        first_dealer: Seat of the first dealer, an integer from 0 to
            ``players - 1`` (default: the last seat, so seat 0 plays first).

    Raises:
        SeedError: If ``seed`` is not an integer (``bool`` is not) or is out of range.
        SeatError: If ``first_dealer`` is not a seat of the rules (``-1``,
            ``True`` and ``1.0`` are not seats).

    Attributes:
        rules: The compiled rules.
        seed: The game's seed (the one drawn, for ``seed=None``): a plain ``int``.
        hand: The hand in play (or the last hand, once the game is over).
            `undo` replaces it with a new object: re-read it after an undo.
        hand_number: 0 for the first hand (of this object: the hand given to
            `from_hand` too, whatever its `deal_number`).
    """

    hand: HandState  # dealt by `_deal_hand` (and given to `from_hand`); declared for the reference's type

    def __init__(
        self,
        variant: str = "classic",
        house_rules: Sequence[str] = (),
        *,
        seed: int | None = None,
        rules: Rules | None = None,
        registry: Registry | None = None,
        first_dealer: int | None = None,
    ) -> None:
        game_seed = resolve_seed(seed)  # checked before the (dearer) rules are compiled
        self.rules: Rules = rules if rules is not None else load_rules(variant, house_rules, registry=registry)
        dealer = (
            self.rules.players - 1
            if first_dealer is None
            else check_seat(first_dealer, self.rules.players, name="first_dealer")
        )
        self.seed = game_seed
        self.scores = [0] * self.rules.side_count
        self.results = ()
        self.hand_number = 0
        self._first_deal = 1
        self._deck = _shared_deck(self.rules.deck)
        self._over = False
        self._logs: list[_HandLog] = []
        self._deal(dealer)

    @classmethod
    def from_hand(cls, hand: HandState, *, scores: Sequence[int] | None = None, seed: int | None = None) -> Game:
        """Continue a game from an explicit hand (see `canasta.build_position`).

        Such a game cannot be recorded (`canasta.GameRecorder` refuses it): a
        record replays a game from its variant, seed and first dealer. The
        hand's `canasta.HandState.deal_number` places it in the game: the next
        hands are the deals after it (a game of a fixed number of deals,
        `canasta.GameLength.deals`, ends after its last).

        Args:
            hand: The hand in play (the game plays on this object; undo goes back to a copy of it).
            scores: Cumulative totals before it, one integer per side
                (default: the hand's own).
            seed: Seed for the shuffles of later hands, as for `Game`
                (``None``, the default: a fresh random one).

        Returns:
            The game.

        Raises:
            TypeError: If ``hand`` is not a `canasta.HandState`.
            InvalidPositionError: If ``scores`` is not one integer per side.
            SeedError: If ``seed`` is not a valid seed (see `canasta.seeds`).
        """
        if not isinstance(hand, HandState):
            raise TypeError(f"Game.from_hand needs a HandState, got {type(hand).__name__}")
        side_scores = _side_scores(scores, hand.rules.side_count) if scores is not None else list(hand.scores)
        game_seed = resolve_seed(seed)
        game = cls.__new__(cls)
        game.rules = hand.rules.as_dealt  # ranks closed in this hand open again in the next
        game.seed = game_seed
        game.scores = side_scores
        game.results = ()
        game.hand_number = 0
        game._first_deal = hand.deal_number  # the next hands are the deals after it
        game._deck = hand.deck
        game.hand = hand
        game._over = False
        # Undo goes back at most to this hand as given.
        game._logs = [_HandLog(hand.copy(), game.scores, [])]
        game._settle()
        return game

    def _hand_seed(self, number: int) -> str:
        return f"{self.seed}:{number}"

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the game's first hand (for `from_hand`: the given hand's dealer)."""
        first = self._logs[0]
        if first.start is not None:
            return first.start.dealer
        assert first.deal is not None
        return first.deal[1]

    @property
    def starts_from_hand(self) -> bool:
        """True for a game made by `from_hand` (its first hand was given, not dealt from the seed)."""
        return self._logs[0].start is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's cumulative total (a tuple: the game's own, which no caller can change)."""
        return self._scores

    @scores.setter
    def scores(self, value: Sequence[int]) -> None:
        self._scores = tuple(value)

    @property
    def results(self) -> tuple[HandScore, ...]:
        """The score breakdown of every finished hand, oldest first (a tuple of frozen scores)."""
        return self._results

    @results.setter
    def results(self, value: Sequence[HandScore]) -> None:
        self._results = tuple(value)

    @property
    def is_over(self) -> bool:
        """True once the game has ended: at the end of a hand, by its rules' `canasta.GameLength`.

        A side reached the target score, or the last of the game's deals was
        played, or a side won by a Dream Hand.
        """
        return self._over

    @property
    def deal_number(self) -> int:
        """The number in the game of the hand in play (or of the last hand, once over), from 1."""
        return self._first_deal + self.hand_number

    @property
    def seat(self) -> int:
        """The seat that must act."""
        return self.hand.seat

    def winner(self) -> int | None:
        """The winning side once the game is over (``None``: not over, or a draw).

        Returns:
            The only side in `winners`, or ``None`` if there are none (the
            game is not over) or several (a draw among them).
        """
        winners = self.winners()
        return winners[0] if len(winners) == 1 else None

    def winners(self) -> tuple[int, ...]:
        """The sides that share the win once the game is over: one side, or several in a draw.

        Equal highest totals are a draw among those sides only (with three
        sides or more, the others lost). `winner` names the winner when there
        is exactly one.

        Returns:
            The side whose special hand won the game (the Dream Hands),
            whatever the totals; else every side with the highest total, in
            side order; ``()`` while the game is not over.
        """
        if not self._over:
            return ()
        if self.results and self.results[-1].game_won_by is not None:
            return (self.results[-1].game_won_by,)
        best = max(self.scores)
        return tuple(s for s, v in enumerate(self.scores) if v == best)

    def totals_after(self, number: int) -> list[int]:
        """Each side's game total right after a finished hand.

        Args:
            number: The hand's index in `results` (0 for the first hand).

        Returns:
            The sum of each side's hand totals up to and including that hand.
        """
        totals = [0] * self.rules.side_count
        for score in self.results[: number + 1]:
            for side, value in enumerate(score.totals):
                totals[side] += value
        return totals

    def legal_actions(self) -> tuple[Action, ...]:
        """The acting seat's legal actions (empty once the game is over).

        Returns:
            The exact set of legal actions, as a tuple: the hand's cached tuple
            itself (free to return, and no caller can change the engine through it).
        """
        if self._over:
            return ()
        return self.hand.legal_actions()

    def is_legal(self, action: Action) -> bool:
        """Whether an action is legal now.

        Args:
            action: The action.

        Returns:
            True if `apply` would accept it.
        """
        return not self._over and self.hand.is_legal(action)

    def check(self, action: Action) -> None:
        """Raise `IllegalActionError` if an action is illegal now; change nothing.

        Args:
            action: The action.
        """
        if self._over:
            raise IllegalActionError(
                RuleCode.HAND_OVER, "the game is over", action, section=self.rules.section(RuleCode.HAND_OVER)
            )
        self.hand.check(action)

    def apply(self, action: Action) -> HandScore | None:
        """Apply a legal action; score the hand and deal the next when it ends.

        Args:
            action: The action.

        Returns:
            The finished hand's score if this action ended a hand, else ``None``.

        Raises:
            IllegalActionError: If the action is illegal; nothing changes.
        """
        if self._over:
            self.check(action)  # raises: the game is over
        hand = self.hand
        hand.apply(action)
        self._logs[-1].actions.append(action)
        if hand.phase is _OVER:  # (`_settle` only when the hand ended: a call less per action)
            return self._settle()
        return None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far in this game, oldest first (undone ones excluded).

        A game made by `from_hand` starts its history at the hand it was given.
        """
        return tuple(action for log in self._logs for action in log.actions)

    @property
    def can_undo(self) -> bool:
        """Whether `undo` has an action to take back."""
        return any(log.actions for log in self._logs)

    def undo(self) -> Action:
        """Take back the last applied action and restore the game exactly as it was before it.

        The hand in play, the scores, the results, `hand_number` and `is_over`
        are restored; undoing the action that ended a hand brings that hand
        back, un-scored (and undoes the deal of the next hand, which the same
        seed deals again identically). This is the game's history, not a rule
        (the rule book, "What “legal” means"): an undone draw puts a card the
        player has seen back on the stock, so an interface decides when to
        offer it.

        It replays the hand's actions from the hand's start (dealt again from
        its seed, or a copy of the hand given to `from_hand`), so `apply` stays
        cheap; an undo costs one deal or hand copy and at most one hand's
        actions. `hand` is a new object afterwards.

        Returns:
            The action taken back.

        Raises:
            IllegalActionError: If no action has been applied (or all have been
                undone): there is nothing to undo; check `can_undo` first.
        """
        if not self.can_undo:
            raise IllegalActionError(
                RuleCode.ILLEGAL,
                "nothing to undo: no action of this game is left to take back",
                section=self.rules.section(RuleCode.ILLEGAL),
            )
        logs = self._logs
        # Hands after the last one with an action were dealt by that action (more than
        # one only when hands ended on their deal): the undo takes their deals back too.
        while not logs[-1].actions:
            logs.pop()
        number = len(logs) - 1
        log = logs[number]
        action = log.actions[-1]
        kept = log.actions[:-1]
        logs[number] = log.with_actions(kept)  # a new log: copies of the game may share the old
        hand = log.begin()
        for earlier in kept:
            hand._apply_unchecked(earlier)
        self.hand = hand
        self.hand_number = number
        self.scores = log.scores
        self.results = self.results[:number]
        self._over = False  # the game had a legal action, the one undone, so it was not over
        return action

    def _settle(self) -> HandScore | None:
        """Score a finished hand, then deal the next unless the game is over, as long as hands end.

        A hand can end on its deal (the stock runs out replacing red threes):
        then it is scored and the next is dealt, in this loop (never by
        recursion, however many hands end so).

        Returns:
            The score of the hand in play when called, if it had ended, else ``None``.
        """
        first: HandScore | None = None
        dealt_ended = -1  # hands in a row that ended on their deal
        while self.hand.is_over:
            dealt_ended += 1
            if dealt_ended > _MOST_HANDS_ENDED_ON_DEAL:
                raise RulesError(
                    f"{dealt_ended} hands in a row ended on their deal (the stock ran out before anyone acted): "
                    f"these rules ({self.rules.hand_size} cards to each of {self.rules.players} players from "
                    f"{self.rules.deck.size}) leave too small a stock; compiled rules refuse them"
                )
            result = self.hand.score()
            if first is None:
                first = result
            self.results = (*self._results, result)
            self.scores = [total + added for total, added in zip(self._scores, result.totals, strict=True)]
            # The rule book's "The game": play until a side reaches the target at the end of a hand, or
            # the game's last deal is played (`canasta.GameLength`), or a special hand wins it (the Dream Hands).
            if self.rules.game_length.is_over(self._scores, self.hand.deal_number) or result.game_won_by is not None:
                self._over = True
                break
            self.hand_number += 1
            self._deal_hand((self.hand.dealer + 1) % self.rules.players)
        return first

    def _deal(self, dealer: int) -> None:
        """Deal hand `hand_number`, log its start, and settle it (and those after it) if it ends on its deal."""
        self._deal_hand(dealer)
        self._settle()  # a hand can end before anyone acts (the stock runs out on the deal)

    def _deal_hand(self, dealer: int) -> None:
        """Deal hand `hand_number` and log its start (no copy: the seed deals it again for `undo`)."""
        seed = self._hand_seed(self.hand_number)
        number = self._first_deal + self.hand_number
        self.hand = HandState.deal(
            self.rules, dealer=dealer, scores=self._scores, seed=seed, deck=self._deck, deal_number=number
        )
        self._logs.append(_HandLog(None, self._scores, [], (self.rules, dealer, seed, self._deck, number)))

    def observation(self, seat: int) -> Observation:
        """What a seat may see now.

        Args:
            seat: The seat, an integer from 0 to ``players - 1``.

        Returns:
            The observation of the current hand.

        Raises:
            SeatError: If ``seat`` is not a seat of the game (``-1`` and ``True`` are not).
        """
        return self.hand.observation(check_seat(seat, self.rules.players))

    def copy(self) -> Game:
        """An independent copy, history included (cheap: the hand's flat lists are copied).

        Returns:
            The copy; `undo` on it takes back the same actions as on the original.
        """
        new = Game.__new__(Game)
        new.rules = self.rules
        new.seed = self.seed
        new.scores = self._scores  # (tuples: shared)
        new.results = self._results
        new.hand_number = self.hand_number
        new._first_deal = self._first_deal
        new._deck = self._deck
        new.hand = self.hand.copy()
        new._over = self._over
        # Earlier hands' logs are never changed again (see _HandLog); only the last is appended to.
        last = self._logs[-1]
        new._logs = [*self._logs[:-1], last.with_actions(last.actions[:])]
        return new

    def __copy__(self) -> Game:
        """`copy.copy` gives an independent game, as `copy` does (a shallow copy would share the hand in play)."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        """`copy.deepcopy`: `copy` (the rules, deck, actions and scores it shares are immutable)."""
        return self.copy()
