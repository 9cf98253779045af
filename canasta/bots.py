"""Bots: players that choose an action for a seat.

A bot is anything with a ``choose(state, seat)`` method (the `Bot` protocol).
It is handed the live `canasta.HandState` for speed, but a fair bot reads only
what its seat may see (hidden information, as the rules have it): its own hand
(``state.counts[seat]``, ``state.hand_cards(seat)``), the table (melds, laid-out
threes, the discard pile, the stock's size, every hand's size), the scores, and
``state.legal_actions()``. It must never read another seat's hand or the order
of the stock, and it must not change the state (copy it to look ahead; a copy
carries the same hidden cards, so look-ahead must not peek at draws either).
The built-in bots keep to this; `canasta.Observation` is the same information
as a frozen value, for bots that want to be sure.

Bots are registered by name (`BOTS`, `make_bot`) so the command line and
`canasta.simulate` can pick them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol, cast, runtime_checkable

from canasta.actions import (
    Action,
    AnswerGoOut,
    AskGoOut,
    DeclareSpecialHand,
    Discard,
    DrawStock,
    EndHand,
    LayOutThree,
    Meld,
    PickUpPacket,
    TakePile,
)
from canasta.canastaclass import CLASS_INDEX
from canasta.cards import KIND_COUNT, SECOND_MELD, Kind
from canasta.errors import CanastaError, UnknownNameError
from canasta.hand import HandState, MeldState, Phase
from canasta.rules import CanastaClass, Permission
from canasta.suitedmeldactions import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild, SuitedMeld
from canasta.suitedpile import PileTake

__all__ = [
    "BOTS",
    "CONFIGURABLE_BOTS",
    "Bot",
    "GreedyBot",
    "NoLegalActionError",
    "RandomBot",
    "bot_names",
    "check_spec_numbers",
    "make_bot",
]

_JOKER = int(Kind.JOKER)
_TWO = int(Kind.TWO)
_B3 = int(Kind.BLACK_THREE)
_PICK_UP = PickUpPacket()
#: The classes of the sequence games' meld actions (`canasta.suitedmelds.SuitedMeld`).
_SUITED_MELDS: Final[frozenset[type]] = frozenset({LayGroup, LaySequence, Extend, LayWild, Combine, LayBlackThrees})


class NoLegalActionError(CanastaError):
    """A bot was asked to act in a state with no legal action (an engine bug or a finished hand)."""


@runtime_checkable
class Bot(Protocol):
    """A player: picks one legal action for the seat that must act.

    Implementations read only what ``seat`` may see (see the module docs) and
    return an element of ``state.legal_actions()``.
    """

    def choose(self, state: HandState, seat: int) -> Action:
        """Pick an action.

        Args:
            state: The hand in play (read-only for the bot).
            seat: The seat the bot plays; it is ``state.seat``.

        Returns:
            A legal action.
        """
        ...


def _legal(state: HandState) -> tuple[Action, ...]:
    actions = state.legal_actions()
    if not actions:
        raise NoLegalActionError(
            f"no legal action for seat {state.seat} in phase {state.phase.value} (turn {state.turn})"
        )
    return actions


class RandomBot:
    """Chooses uniformly among the legal actions.

    Args:
        seed: Seed of the bot's own random generator (same seed, same choices).
    """

    name = "random"

    def __init__(self, seed: object = 0) -> None:
        self._rng = random.Random(str(seed))

    def choose(self, state: HandState, seat: int) -> Action:
        """Pick a legal action uniformly at random.

        Args:
            state: The hand in play.
            seat: The seat to play.

        Returns:
            One of ``state.legal_actions()``.
        """
        actions = _legal(state)
        return actions[self._rng.randrange(len(actions))]


#: The greedy bot keeps a kept three only while its hand holds this many of the Straight's 14 kinds.
STRAIGHT_KINDS_TO_KEEP = 10


def _near_straight(counts: list[int]) -> bool:
    """Whether a hand holds at least `STRAIGHT_KINDS_TO_KEEP` of the 14 kinds (both threes are one kind)."""
    kinds = sum(1 for k, n in enumerate(counts) if n and k != Kind.BLACK_THREE)
    if counts[Kind.BLACK_THREE] and not counts[Kind.RED_THREE]:
        kinds += 1
    return kinds >= STRAIGHT_KINDS_TO_KEEP


class GreedyBot:
    """Simple sensible play, deterministic given its seed.

    - Takes the pile whenever it can use it (for a side that has not melded,
      only if the opening then reaches the minimum, checked on a copy).
    - Melds as much as is legal: opening melds only when its greedy plan
      reaches the minimum that turn; natural cards first, wild cards where
      they make a new meld or complete a canasta. Where the going-out quota
      counts a wild book (Hand and Foot), once the quota's dirty books are
      made it keeps its wild cards for a wild meld instead.
    - Answers its partner "yes" when its own hand is cheap to be caught with; where
      going out needs a "yes" (`canasta.Permission.REQUIRED`), asks in the meld phase
      as soon as a "yes" would let it go out.
    - Discards the least useful card: a black three first (it stops the next
      player), never a wild card while another card will do, preferring single
      low cards of ranks the next side has not melded.
    - Declares a special hand when it holds one (a game win first, then the
      highest value).
    - Keeps a kept three (rules that keep one for the Straight) only while
      its hand holds at least `STRAIGHT_KINDS_TO_KEEP` of the Straight's 14
      kinds; otherwise it lays it out as soon as it may (before drawing, or at
      once when it draws one).
    - In the sequence games (rule sets with meld types: Samba, Bolivia, Brazilian
      canasta) it takes the pile whenever it may, and lays the meld action that
      puts the most cards from its hand on the table (naturals before wild cards,
      a canasta completed first), until none is left to lay; the engine lists only
      the actions after which the turn can be completed (an opening begun is
      finished in the turn).

    Args:
        seed: Seed used to break ties (same seed, same choices).
        answer_threshold: Answer "yes" when the count of the answering
            player's hand is at most this.
    """

    name = "greedy"

    def __init__(self, seed: object = 0, *, answer_threshold: int = 60) -> None:
        self._rng = random.Random(str(seed))
        self.answer_threshold = answer_threshold

    # --- decision ---------------------------------------------------------------------

    def choose(self, state: HandState, seat: int) -> Action:
        """Pick an action by the heuristics above.

        Args:
            state: The hand in play.
            seat: The seat to play.

        Returns:
            One of ``state.legal_actions()``.
        """
        actions = _legal(state)
        if len(actions) == 1:
            return actions[0]
        phase = state.phase
        if phase is Phase.ANSWER:
            return self._answer(state, seat, actions)
        declarations = [a for a in actions if isinstance(a, DeclareSpecialHand)]
        if declarations:
            return self._best_declaration(state, declarations)
        lay_out = next((a for a in actions if isinstance(a, LayOutThree)), None)
        if lay_out is not None and not _near_straight(state.counts[seat]):
            return lay_out
        if phase is Phase.DRAW and state.facts.after_first_canasta and _PICK_UP in actions:
            # foot-after-first-book: the foot as soon as it may be picked up (its cards count against the side
            # whether held or still down, its red threes score only once laid out, and more cards meld more).
            return _PICK_UP
        if state.rules.meld_types:  # the sequence games: actions by meld type (canasta.suitedmelds)
            return self._sequence_game(state, seat, actions)
        if phase is Phase.DRAW:
            return self._draw(state, seat, actions)
        return self._meld_or_discard(state, seat, actions)

    def _sequence_game(self, state: HandState, seat: int, actions: Sequence[Action]) -> Action:
        """The draw and meld phases of the sequence games: take the pile when it may, meld the most cards, discard."""
        if state.phase is Phase.DRAW:
            take = next((a for a in actions if isinstance(a, PileTake)), None)
            if take is not None:
                return take
            return next((a for a in actions if isinstance(a, DrawStock | EndHand)), actions[0])
        if _ASK in actions and state.rules.going_out.permission is Permission.REQUIRED and _yes_binds(state):
            return _ASK  # where going out needs a "yes" (Brazilian canasta), ask once it is possible
        # (`HandState.legal_actions` is typed by today's actions; in these games it lists theirs.)
        scored: list[tuple[float, Action]] = [
            (_sequence_meld_score(state, seat, cast(SuitedMeld, a)), a) for a in actions if type(a) in _SUITED_MELDS
        ]
        best = max(scored, key=lambda pair: pair[0], default=None)
        if best is not None and best[0] > 0:
            return best[1]
        discards = [a for a in actions if isinstance(a, Discard)]
        if discards:
            return self._best_discard(state, seat, discards)
        return best[1] if best is not None else actions[0]  # only melds (or a question) let the turn go on

    @staticmethod
    def _best_declaration(state: HandState, declarations: list[DeclareSpecialHand]) -> Action:
        """A special hand held is declared: a game win first, then the highest value."""
        hands = {hand.id: hand for hand in state.rules.special_hands}
        return max(declarations, key=lambda a: (hands[a.hand].wins_game, hands[a.hand].value))

    def _answer(self, state: HandState, seat: int, actions: Sequence[Action]) -> Action:
        values = state.rules.card_values
        count = sum(values[k] * n for k, n in enumerate(state.counts[seat]))
        yes = count <= self.answer_threshold
        return next((a for a in actions if isinstance(a, AnswerGoOut) and a.yes is yes), actions[0])

    def _draw(self, state: HandState, seat: int, actions: Sequence[Action]) -> Action:
        takes = [a for a in actions if isinstance(a, TakePile)]
        # Fewest cards from hand first: a layoff, then a natural pair, then natural + wild.
        takes.sort(key=lambda t: (t.twos + t.jokers, t.naturals != 2, t.naturals))
        side = state.side_of(seat)
        for take in takes:
            if state.opened[side] or self._opening_plan_opens(state, take):
                return take
        for action in actions:
            if isinstance(action, DrawStock):
                return action
        for action in actions:
            if isinstance(action, EndHand):
                return action
        # Only takes (forced, or ones we judged poor) or a question remain.
        non_ask = [a for a in actions if not isinstance(a, AskGoOut)]
        return (non_ask or actions)[0]

    def _opening_plan_opens(self, state: HandState, first: Action) -> bool:
        """Whether ``first`` followed by greedy melds opens the side (looked at on a copy)."""
        trial = state.copy()
        side = trial.side_of(trial.seat)
        trial.apply(first)
        for _ in range(KIND_COUNT * 4):  # each meld removes cards, so this ends quickly
            if trial.opened[side] or trial.phase is not Phase.MELD:
                break
            meld = self._best_meld(trial, [a for a in trial.legal_actions() if isinstance(a, Meld)])
            if meld is None:
                break
            trial.apply(meld)
        return trial.opened[side] or trial.phase is Phase.OVER

    def _meld_or_discard(self, state: HandState, seat: int, actions: Sequence[Action]) -> Action:
        if _ASK in actions and state.rules.going_out.permission is Permission.REQUIRED and _yes_binds(state):
            return _ASK  # where going out needs a "yes" (Hand and Foot), ask once it is possible
        side = state.side_of(seat)
        melds = [a for a in actions if isinstance(a, Meld)]
        best = self._best_meld(state, melds)
        if best is not None and (state.opened[side] or self._opening_plan_opens(state, best)):
            return best
        discards = [a for a in actions if isinstance(a, Discard)]
        if discards:
            return self._best_discard(state, seat, discards)
        # No discard: an opening still below its minimum, or a hand that must go out
        # by melding; the engine lists only melds that let the turn be completed (what "legal" means).
        if melds:
            return best if best is not None else melds[0]
        return actions[0]

    # --- scoring of candidate actions -------------------------------------------------------

    def _best_meld(self, state: HandState, melds: list[Meld]) -> Meld | None:
        if not melds:
            return None
        side = state.side_of(state.seat)
        canasta = state.rules.melds.canasta_size
        table = state.melds[side]
        wild_book_wanted, mixed_quota_met = _quota_wants(state, side)
        best: Meld | None = None
        best_score = 0.0
        for meld in melds:
            wilds = meld.twos + meld.jokers
            if meld.book:  # onto a book: its number among the rank's books (wild cards name a dirty one)
                on_table = _book(state, side, int(meld.rank), meld.slot)
            else:  # the side's open meld number ``slot`` of the rank (None: a new meld)
                on_table = table.get(int(meld.rank) + SECOND_MELD * meld.slot)
            size_before = on_table.size if on_table is not None else 0
            size_after = size_before + meld.naturals + wilds
            score = 10.0 * meld.naturals
            if wilds and int(meld.rank) == _JOKER and wild_book_wanted:
                score += 6.0 * wilds  # the quota needs a wild book: wild cards go there first
            elif wilds:
                completes = size_before < canasta <= size_after
                opens_rank = on_table is None and meld.naturals >= 2
                if wild_book_wanted and mixed_quota_met:
                    score -= 30.0 * wilds  # the quota's dirty books are made: keep wild cards for its wild book
                else:
                    score += (4.0 if completes else 1.0 if opens_rank else -12.0) * wilds
                score -= 2.0 * meld.jokers  # keep jokers for later if a 2 does the job
            if score > best_score:
                best, best_score = meld, score
        return best

    def _best_discard(self, state: HandState, seat: int, discards: list[Discard]) -> Discard:
        counts = state.counts[seat]
        values = state.rules.card_values
        next_seat = (seat + 1) % state.rules.players
        next_melds = state.melds[state.side_of(next_seat)]
        own_melds = state.melds[state.side_of(seat)]
        best: Discard | None = None
        best_score = float("-inf")
        for discard in discards:
            kind = int(discard.kind)
            if kind == _B3:
                score = 1000.0
            elif kind in (_TWO, _JOKER):
                score = -1000.0 - values[kind]
            else:
                score = -10.0 * counts[kind] - values[kind]
                by_rank = not state.rules.meld_types  # (the sequence games keep melds by number)
                if by_rank and kind in next_melds:
                    score -= 50.0  # the next side could add it to a meld
                if by_rank and kind in own_melds:
                    score -= 30.0  # we can meld it ourselves
            score += self._rng.random()  # break ties reproducibly
            if score > best_score:
                best, best_score = discard, score
        assert best is not None
        return best


#: Bot factories by name: ``factory(seed) -> Bot`` (``"ismcts"`` is added by `canasta.ismcts`,
#: which ``import canasta`` loads).
BOTS: dict[str, Callable[[object], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}

#: Bots that take options after a colon in their name (``"ismcts:50ms"``):
#: ``factory(seed, options_text) -> Bot``.
CONFIGURABLE_BOTS: dict[str, Callable[[object, str], Bot]] = {}


#: Numbers in a bot's name (a budget, ``c=0.4``) lie within this bound, and are finite.
MAX_SPEC_NUMBER = 10**7

#: The longest bot name (with its options) accepted.
MAX_SPEC_LENGTH = 200

_NUMBER_RULE = f"numbers in a bot's options must be finite and at most {MAX_SPEC_NUMBER:,} in size"


def check_spec_numbers(name: str) -> None:
    """Refuse a bot name whose options hold a number that is not finite or is out of bounds.

    A configurable bot's name is ``base:option,option,...``, each option a
    value or ``key=value``; a value that reads as a number (``300``,
    ``50ms``, ``c=0.4``, ``c=nan``) must be finite and at most
    `MAX_SPEC_NUMBER` in size, whatever the bot. This is the one check of
    numbers for every configurable bot, made before the bot reads its options.

    Args:
        name: The bot's name with its options (``"ismcts:300,c=0.4"``).

    Raises:
        CanastaError: Naming the option, if a number is not finite or too
            large, or the name is longer than `MAX_SPEC_LENGTH`.
    """
    if len(name) > MAX_SPEC_LENGTH:
        raise CanastaError(f"a bot name with its options has at most {MAX_SPEC_LENGTH} characters, got {len(name)}")
    _, _, text = name.partition(":")
    for part in text.split(","):
        value = part.partition("=")[2] if "=" in part else part
        value = value.strip()
        if value.lower().endswith("ms"):
            value = value[:-2].strip()
        try:
            number = float(value)
        except ValueError:
            continue  # not a number: the bot itself says whether it is a valid option
        if not -MAX_SPEC_NUMBER <= number <= MAX_SPEC_NUMBER:  # False for nan too
            raise CanastaError(f"bad option {part.strip()!r} in bot {name!r}: {_NUMBER_RULE}")


def bot_names() -> list[str]:
    """The names of the registered bots, sorted."""
    return sorted(BOTS)


def make_bot(name: str, seed: object = 0, **options: object) -> Bot:
    """Create a registered bot by name.

    Args:
        name: A name from `BOTS` (``"random"``, ``"greedy"``, ``"ismcts"``), or
            a configurable bot's name with its options after a colon
            (``"ismcts:300"`` for 300 iterations, ``"ismcts:50ms"`` for 50 ms
            per decision).
        seed: The bot's seed.
        **options: Keyword arguments for the bot's class
            (``make_bot("ismcts", 1, iterations=50, playout="random")``).

    Returns:
        The bot.

    Raises:
        UnknownNameError: If no bot has that name.
        CanastaError: If its options are bad.
    """
    if not isinstance(name, str):
        raise UnknownNameError(f"a bot is named by a string, got {type(name).__name__}")
    base, colon, text = name.partition(":")
    for key, value in options.items():
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number and not -MAX_SPEC_NUMBER <= value <= MAX_SPEC_NUMBER:  # type: ignore[operator]
            raise CanastaError(f"bad option {key}={value!r} for bot {base!r}: {_NUMBER_RULE}")
    if colon and options:
        raise CanastaError(f"give the options of {base!r} in its name or as keywords, not both")
    if colon and base in CONFIGURABLE_BOTS:
        check_spec_numbers(name)
        return CONFIGURABLE_BOTS[base](seed, text)
    factory = BOTS.get(name) if not colon else None
    if factory is None:
        known = ", ".join(bot_names())
        extra = ", ".join(f"{b}:<options>" for b in sorted(CONFIGURABLE_BOTS))
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise UnknownNameError(f"unknown bot {shown!r}; known: {known}" + (f", {extra}" if extra else ""))
    try:
        return factory(seed, **options)
    except TypeError as exc:
        raise CanastaError(f"bad options for bot {name!r}: {exc}") from None


_ASK: Final = AskGoOut()


def _book(state: HandState, side: int, rank: int, slot: int) -> MeldState | None:
    """The side's book number ``slot`` of a rank, in the order made (`canasta.Meld.slot` with ``book``)."""
    books = [m for m in state.books[side] if m.rank == rank]
    return books[slot] if slot < len(books) else None


def _quota_wants(state: HandState, side: int) -> tuple[bool, bool]:
    """What the going-out quota by class still asks of ``side`` (Hand and Foot's books).

    Returns:
        Whether the quota needs a wild book the side has not made, and whether the
        side has made every dirty (mixed) book the quota needs. ``(False, False)``
        where the quota is not counted by class (classic and its relatives).
    """
    quota = state.rules.going_out.canastas_by_class
    if not quota:
        return False, False
    made = state.canastas_by_class(side)
    need = dict(quota)
    wild_wanted = made[CLASS_INDEX[CanastaClass.WILD]] < need.get(CanastaClass.WILD, 0)
    mixed_met = made[CLASS_INDEX[CanastaClass.MIXED]] >= need.get(CanastaClass.MIXED, 0)
    return wild_wanted, mixed_met


#: Each class's position in `HandState.canastas_by_class`'s answer (`CanastaClass` order).


def _sequence_meld_score(state: HandState, seat: int, action: SuitedMeld) -> float:
    """How much the greedy bot likes a meld action of the sequence games: cards laid from the hand.

    Naturals count 10 each, wild cards 2 (they are kept for later where a natural
    does the job), a canasta completed 30 more; combining two melds lays nothing (0).
    """
    melds = state.melds[state.side_of(seat)]
    canasta = 7
    if isinstance(action, LayGroup):
        before = len(melds[action.meld].cards) if action.meld is not None else 0
        added = action.naturals + action.twos + action.jokers
        score = 10.0 * action.naturals + 2.0 * (action.twos + action.jokers)
    elif isinstance(action, LayWild):
        before = len(melds[action.meld].cards) if action.meld is not None else 0
        added = action.twos + action.jokers
        score = 2.0 * added
    elif isinstance(action, LaySequence):
        before, added = 0, action.high - action.low + 1
        score = 10.0 * added
    elif isinstance(action, Extend):
        before = len(melds[action.meld].cards)
        added = action.high - action.low + 1 - before
        score = 10.0 * added
    elif isinstance(action, LayBlackThrees):
        return 10.0 * action.count
    else:
        assert isinstance(action, Combine)
        return 0.0
    if before < canasta <= before + added:
        score += 30.0
    return score


def _yes_binds(state: HandState) -> bool:
    """Whether asking now and hearing "yes" would let (and oblige) the acting player to go out (on a copy)."""
    trial = state.copy()
    trial.apply(_ASK)
    trial.apply(AnswerGoOut(True))
    return trial.bound
