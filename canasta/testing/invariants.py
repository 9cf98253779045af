"""The invariants every variant must keep, as plain functions.

Each ``check_*`` function raises `InvariantError` (an `AssertionError`) with a
sentence saying what broke, and never changes the state it is given. They need
no hypothesis: call `check_all` from your own simulation loop, bot arena or
test. The conformance state machine (`canasta.testing.conformance`) calls the
same functions after every step.

What is checked (the behaviour every variant shares):

- card conservation: every card of the deck is in exactly one place;
- legal actions are exact: every listed action is accepted, every other
  action is refused with a typed error and changes nothing;
- observations leak nothing hidden: a seat's observation holds no card of
  another hand or of the stock, and does not change when those cards do;
- score arithmetic: each side's total is the sum of its breakdown, a game's
  totals are the sums of its hands;
- copies are independent of the original;
- records round-trip (only once `canasta.records` exists, see
  `check_record_round_trip`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import attrs

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
from canasta.cards import KIND_COUNT, SEQUENCE_MELD, Card, DeckSpec, Kind, build_deck
from canasta.errors import IllegalActionError, RuleCode
from canasta.game import Game
from canasta.hand import HandState, MeldState, Phase
from canasta.observation import Observation
from canasta.ownshapes import OWN_MELD
from canasta.registry import Registry
from canasta.scoring import HandScore, SideScore
from canasta.suitedhand import SuitedHand
from canasta.table import CACHE_FIELDS, data_fields
from canasta.testing.errors import InvariantError
from canasta.testing.play import random_play

__all__ = [
    "InvariantError",
    "candidate_actions",
    "check_all",
    "check_conservation",
    "check_copy_independence",
    "check_earned_packets",
    "check_game",
    "check_hidden_information",
    "check_legal_actions",
    "check_observations",
    "check_record",
    "check_record_round_trip",
    "check_refused",
    "check_score",
    "check_threes_in_hands",
    "hidden_resample",
    "records_available",
    "simple_actions",
    "snapshot",
]

# Bounds of the action space sampled for refusals: wider than any legal action
# of the built-in variants, so that "too many" is tried as well as "too few".
MAX_TAKE_NATURALS = 3
MAX_TAKE_WILDS = 2
MAX_MELD_NATURALS = 12
MAX_MELD_TWOS = 8
MAX_MELD_JOKERS = 6

# Slots that are configuration or caches (legal actions, valid meld additions), not state.
_NOT_STATE = CACHE_FIELDS | {"rules", "facts", "deck", "kinds"}


def simple_actions() -> list[Action]:
    """The actions that take no card counts (draw, end, ask, answers, laying out a kept three, takes, discards).

    Returns:
        A fresh list, in a fixed order.
    """
    actions: list[Action] = [
        DrawStock(),
        EndHand(),
        AskGoOut(),
        AnswerGoOut(True),
        AnswerGoOut(False),
        LayOutThree(),
        PickUpPacket(),
    ]
    actions += [Discard(kind) for kind in Kind]
    actions += [
        TakePile(n, t, j)
        for n in range(MAX_TAKE_NATURALS + 1)
        for t in range(MAX_TAKE_WILDS + 1)
        for j in range(MAX_TAKE_WILDS + 1)
    ]
    return actions


def candidate_actions(state: HandState, rng: random.Random, *, count: int = 12) -> list[Action]:
    """Actions from the whole action space that are illegal in ``state``.

    Half are drawn uniformly from the action space, half are near misses of a
    legal meld (one card more of a kind), which is where off-by-one rules hide.

    Args:
        state: The hand (not changed).
        rng: The source of randomness.
        count: How many candidates to return at most.

    Returns:
        Distinct actions that ``state.legal_actions()`` does not list.
    """
    legal = set(state.legal_actions())
    pool: list[Action] = simple_actions()
    for _ in range(count):
        pool.append(
            Meld(
                Kind(rng.randrange(KIND_COUNT)),
                rng.randrange(MAX_MELD_NATURALS + 1),
                rng.randrange(MAX_MELD_TWOS + 1),
                rng.randrange(MAX_MELD_JOKERS + 1),
            )
        )
    for a in legal:
        if isinstance(a, Meld):
            pool += [
                Meld(a.rank, a.naturals + 1, a.twos, a.jokers),
                Meld(a.rank, a.naturals, a.twos + 1, a.jokers),
                Meld(a.rank, a.naturals, a.twos, a.jokers + 1),
            ]
            if a.naturals:
                pool.append(Meld(a.rank, a.naturals - 1, a.twos + 1, a.jokers))
        elif isinstance(a, Discard) and a.kind < Kind.ACE:
            pool.append(Discard(Kind(a.kind + 1)))
    for hand in state.rules.special_hands:
        # Declarations of each hand the rules list, with no discard and with a random one (a three too).
        pool += [DeclareSpecialHand(hand.id), DeclareSpecialHand(hand.id, Kind(rng.randrange(KIND_COUNT)))]
    illegal = list(dict.fromkeys(a for a in pool if a not in legal))
    return rng.sample(illegal, min(count, len(illegal)))


# --- snapshots ------------------------------------------------------------------------


def _freeze(value: object) -> object:
    if isinstance(value, list | tuple):
        if not value or type(value[0]) is int:  # the engine's flat lists of ids: the hot path
            return tuple(value)
        return tuple(_freeze(v) for v in value)
    if isinstance(value, MeldState):
        return ("meld", value.rank, value.naturals, value.twos, value.jokers, tuple(value.cards))
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, set | frozenset):
        return frozenset(value)
    return value


def _state_fields(state: HandState) -> Iterator[str]:
    seen: set[str] = set()
    for name in data_fields(type(state)):
        if name not in _NOT_STATE:
            seen.add(name)
            yield name
    for name in getattr(state, "__dict__", {}):
        if name not in seen and name not in _NOT_STATE:
            yield name


def snapshot(state: HandState) -> dict[str, object]:
    """Everything a refused action must leave unchanged, as comparable values.

    Taken field by field from the state's slots, so a field added to
    `canasta.HandState` later is covered without changing this function; the
    legal actions are included too.

    Args:
        state: The hand.

    Returns:
        A dict of frozen values; two snapshots compare equal iff the states do.
    """
    snap = {name: _freeze(getattr(state, name)) for name in _state_fields(state)}
    snap["legal_actions"] = tuple(state.legal_actions())
    return snap


def _diff(before: dict[str, object], after: dict[str, object]) -> str:
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    return ", ".join(changed) or "nothing"


# --- the checks -----------------------------------------------------------------------


def check_conservation(state: HandState) -> None:
    """Every card of the deck is in exactly one place.

    Also checks the engine's per-kind bookkeeping of hands and melds against
    the cards themselves.

    Args:
        state: The hand.

    Raises:
        InvariantError: If a card is missing, duplicated or misfiled.
    """
    locations = state.card_locations()
    where: dict[int, str] = {}
    total = len(state.deck)
    for place, cards in locations.items():
        for card in cards:
            if not 0 <= card < total:
                raise InvariantError(f"{place} holds card id {card}, which is not in the {total}-card deck")
            if card in where:
                raise InvariantError(f"card {state.deck.cards[card]} (id {card}) is in {where[card]} and in {place}")
            where[card] = place
    if len(where) != total:
        missing = [state.deck.cards[c].code for c in range(total) if c not in where]
        raise InvariantError(f"{len(missing)} card(s) are nowhere: {', '.join(missing[:10])}")
    kinds = state.kinds
    for seat in range(state.rules.players):
        hand = [c for cards in state.hands[seat] for c in cards]
        if len(hand) != state.sizes[seat] or [len(k) for k in state.hands[seat]] != list(state.counts[seat]):
            raise InvariantError(f"hand {seat}: its size or per-kind counts disagree with its cards")
        if any(kinds[c] != k for k, cards in enumerate(state.hands[seat]) for c in cards):
            raise InvariantError(f"hand {seat}: a card is filed under the wrong kind")
    numbered = state.facts.sequences  # (rule sets with meld types: melds by number, sequences of a suit)
    for side, melds in enumerate(state.melds):
        for key, meld in melds.items():
            ks = [kinds[c] for c in meld.cards]
            if meld.rank >= OWN_MELD:  # a type of a shape of its own (`canasta.ownshapes`)
                kind = state.rules.meld_types[meld.rank - OWN_MELD]
                name = kind.name
                if kind.shape_of(SuitedHand.from_cards(state.deck.cards[c] for c in meld.cards)) is None:
                    raise InvariantError(f"side {side}, meld {key}: its cards are no {name}")
            else:
                name = "sequence" if meld.rank == SEQUENCE_MELD else Kind(meld.rank).name
            if numbered:
                if not 0 <= key < state.meld_numbers[side]:
                    raise InvariantError(f"side {side}: a meld is filed under number {key}, never given")
                if meld.rank == SEQUENCE_MELD:
                    run = sorted((state.deck.cards[c] for c in meld.cards), key=lambda c: c.rank)
                    ranks = [c.rank for c in run]
                    if len({c.suit for c in run}) != 1 or ranks != list(range(ranks[0], ranks[0] + len(ranks))):
                        raise InvariantError(f"side {side}, meld {key}: a sequence's cards are not a run of one suit")
            elif meld.rank != key & 15:  # a side's second meld of a rank (cutthroat) is under rank + 16
                raise InvariantError(f"side {side}: a meld of {name} is filed under key {key}")
            if (ks.count(Kind.JOKER), ks.count(Kind.TWO), len(ks)) != (meld.jokers, meld.twos, meld.size):
                raise InvariantError(f"side {side}, meld of {name}: its counts disagree with its cards")


def check_threes_in_hands(state: HandState) -> None:
    """Bonus threes stay in a hand only as a kept three ("Keeping a three"): at most one, while allowed.

    Under rules that keep one (`canasta.ThreeRules.keep_one`), a hand holds at
    most one; at the start of a holder's turn (before his draw) his side has
    not opened, or the stock is empty (a three with no replacement stays).
    Elsewhere no hand holds one.

    Args:
        state: The hand.

    Raises:
        InvariantError: If a hand holds a three the rules would have laid out.
    """
    rules = state.rules
    bonus = [Kind.RED_THREE] if rules.threes.red_threes_are_bonus else []
    if rules.threes.black_threes_are_bonus:
        bonus.append(Kind.BLACK_THREE)
    for seat in range(rules.players):
        held = sum(state.counts[seat][k] for k in bonus)
        if held > (1 if rules.threes.keep_one else 0):
            raise InvariantError(f"hand {seat} holds {held} bonus three(s): threes are laid out at once")
    seat = state.seat
    if (
        state.phase is Phase.DRAW
        and state.stock
        and state.opened[state.seating[seat]]
        and any(state.counts[seat][k] for k in bonus)
    ):
        raise InvariantError(f"seat {seat} begins its turn with a three in hand though its side has opened")


def check_earned_packets(state: HandState) -> None:
    """A packet earned by a canasta (`canasta.PacketRules.after_first_canasta`) is never reached before it.

    Every seat's first canasta is a turn already played (the acting seat's may be this turn,
    after its draw), and its side has a canasta on the table; a seat that has made none and
    has a packet down holds a card (its hand was never emptied); `canasta.PickUpPacket` is
    listed only in the draw phase of a seat whose first canasta came in an earlier turn.
    Elsewhere no first canasta is kept.

    Args:
        state: The hand.

    Raises:
        InvariantError: If a seat reached its packet, or a first canasta is kept, against the rule.
    """
    rules = state.rules
    earned = rules.packets.after_first_canasta and bool(rules.packets.sizes)
    size = rules.melds.canasta_size
    playing = state.asker if state.phase is Phase.ANSWER and state.asker is not None else state.seat
    for seat, made in enumerate(state.first_canasta):
        if made < 0:
            if earned and state.packets[seat] and not state.sizes[seat] and not state.is_over:
                raise InvariantError(f"seat {seat} emptied its hand with its packet down before a canasta of its own")
            continue
        if not earned:
            raise InvariantError(f"seat {seat} has a first canasta kept, but no packet is earned by one")
        if made > state.turn or (made == state.turn and seat != playing):
            raise InvariantError(f"seat {seat}'s first canasta is at turn {made}, not yet played (turn {state.turn})")
        side = state.seating[seat]
        if not state.books[side] and not any(m.size >= size for m in state.melds[side].values()):
            raise InvariantError(f"seat {seat} has a first canasta, but its side has none on the table")
    if any(isinstance(a, PickUpPacket) for a in state.legal_actions()):
        seat = state.seat
        made = state.first_canasta[seat]
        if state.phase is not Phase.DRAW or not state.packets[seat] or not 0 <= made < state.turn:
            raise InvariantError(f"seat {seat} may pick up a packet it has not earned in an earlier turn")


def check_refused(state: HandState, action: object) -> IllegalActionError:
    """An action is refused with a typed error, and the state is unchanged.

    Args:
        state: The hand (not changed if the engine is right).
        action: An action ``state.legal_actions()`` does not list.

    Returns:
        The refusal, for further assertions (its ``code``, ``message``).

    Raises:
        InvariantError: If the action is accepted, refused without a
            `RuleCode` and message, or changes the state.
    """
    return _check_refused(state, action, snapshot(state))


def _check_refused(state: HandState, action: object, before: dict[str, object]) -> IllegalActionError:
    if state.is_legal(action):
        raise InvariantError(f"is_legal({action!r}) is true but the action is not listed")
    errors: list[IllegalActionError] = []
    for attempt in (state.check, state.apply):
        try:
            attempt(action)
        except IllegalActionError as exc:
            errors.append(exc)
        else:
            raise InvariantError(f"{attempt.__name__}({action!r}) accepted an action that is not listed")
    after = snapshot(state)
    if after != before:
        raise InvariantError(f"refusing {action!r} changed: {_diff(before, after)}")
    first, err = errors
    if not isinstance(err.code, RuleCode) or not err.message:
        raise InvariantError(f"refusal of {action!r} has no rule code or no message: {err!r}")
    if err.code is not first.code:
        raise InvariantError(f"check and apply refuse {action!r} with different codes: {first.code}, {err.code}")
    return err


def check_legal_actions(
    state: HandState,
    rng: random.Random | None = None,
    *,
    legal_sample: int | None = 4,
    illegal_sample: int = 8,
) -> None:
    """Legal actions are exact: listed ones are accepted, others refused.

    Also: no dead ends (a hand that is not over always has a legal action), no
    duplicates, and nothing legal once the hand is over.

    Args:
        state: The hand (not changed).
        rng: Randomness for the samples (default: seeded from the state's turn).
        legal_sample: How many listed actions to apply, each on a copy
            (``None``: all of them).
        illegal_sample: How many unlisted actions to try.

    Raises:
        InvariantError: If an invariant fails.
    """
    rng = rng or random.Random(state.turn)
    legal = state.legal_actions()
    if state.is_over:
        if legal:
            raise InvariantError(f"the hand is over but lists legal actions: {legal[:5]}")
    elif not legal:
        raise InvariantError(f"dead end: no legal action for seat {state.seat} in phase {state.phase.value}")
    if len(set(legal)) != len(legal):
        raise InvariantError(f"legal_actions() lists an action twice: {legal}")
    before = snapshot(state)
    chosen = legal if legal_sample is None or len(legal) <= legal_sample else rng.sample(legal, legal_sample)
    for action in chosen:
        trial = state.copy()
        if not trial.is_legal(action):
            raise InvariantError(f"{action!r} is listed but is_legal() is false")
        try:
            trial.apply(action)
        except IllegalActionError as exc:
            raise InvariantError(f"listed action {action!r} was refused: {exc}") from exc
        check_conservation(trial)
        if not trial.is_over and not trial.legal_actions():
            raise InvariantError(f"dead end after {action!r}: no legal action, hand not over")
    for action in candidate_actions(state, rng, count=illegal_sample):
        _check_refused(state, action, before)
    after = snapshot(state)
    if after != before:
        raise InvariantError(f"checking legal actions changed the state: {_diff(before, after)}")


_CARD_IDS: dict[DeckSpec, dict[Card, int]] = {}


def _card_ids(spec: DeckSpec) -> dict[Card, int]:
    ids = _CARD_IDS.get(spec)
    if ids is None:
        ids = _CARD_IDS[spec] = {card: i for i, card in enumerate(build_deck(spec))}
    return ids


_PLAIN = (int, str, bool, float, type(None))


def _cards_in(value: object) -> list[Card]:
    """Every `Card` anywhere inside an observation (so new fields are covered too)."""
    found: list[Card] = []
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Card:
            found.append(item)  # type: ignore[arg-type]
        elif isinstance(item, _PLAIN):
            continue
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif attrs.has(kind):
            stack.extend(getattr(item, f.name) for f in attrs.fields(kind))
    return found


def check_observations(state: HandState) -> None:
    """Each seat's observation holds exactly what that seat may see.

    No card of another hand or of the stock appears anywhere in it; its own
    hand, the sizes, the pile, melds, threes and scores match the state. (The
    cards of the last reshuffle, ``reshuffled``, are public: they lay face up
    in the pile. It must list them as the state does, and the public table must
    not keep the hand's secret ``shuffle_seed``.)

    Args:
        state: The hand.

    Raises:
        InvariantError: If an observation leaks a hidden card or misreports a public fact.
    """
    ids = _card_ids(state.deck.spec)
    hidden_everywhere = set(state.stock)
    players = state.rules.players
    hands = [{c for kind in state.hands[seat] for c in kind} for seat in range(players)]
    for seat in range(players):
        if not set(state.known[seat]) <= hands[seat]:
            raise InvariantError(f"seat {seat}'s publicly known cards are not all in its hand")
    # Cards everyone saw go into a hand (with a taken pile) are not hidden.
    unknown = [hands[s] - set(state.known[s]) for s in range(players)]
    for seat in range(players):
        obs = state.observation(seat)
        hidden = hidden_everywhere.union(*(unknown[s] for s in range(players) if s != seat))
        public = obs._public
        if public is not None:
            in_public = set(public.stock).union(*(c for held in public.hands for c in held))
            if in_public & hidden:
                raise InvariantError(f"seat {seat}'s observation keeps hidden cards in its public table")
            if public.shuffle_seed:
                raise InvariantError(f"seat {seat}'s observation keeps the hand's shuffle seed in its public table")
        if [ids[c] for c in obs.reshuffled] != list(state.reshuffled) or obs.reshuffles != state.reshuffles:
            raise InvariantError(f"seat {seat}'s observation misreports the cards of the last reshuffle")
        if [[ids[c] for c in k] for k in obs.known_cards] != [list(k) for k in state.known]:
            raise InvariantError(f"seat {seat}'s observation misreports the known cards of the hands")
        if list(obs.action_log) != list(state.log):
            raise InvariantError(f"seat {seat}'s observation misreports the action log")
        for card in _cards_in(attrs.evolve(obs, reshuffled=())):  # (the reshuffled cards: checked above)
            card_id = ids.get(card)
            if card_id is None:
                raise InvariantError(f"seat {seat}'s observation shows {card!r}, which is not in the deck")
            if card_id in hidden:
                raise InvariantError(f"seat {seat}'s observation leaks the hidden card {card} (id {card_id})")
        if sorted(ids[c] for c in obs.hand) != sorted(hands[seat]):
            raise InvariantError(f"seat {seat}'s observation does not show exactly its own hand")
        if obs.seat != seat or obs.side != state.seating[seat]:
            raise InvariantError(f"seat {seat}'s observation names seat {obs.seat}, side {obs.side}")
        if list(obs.hand_sizes) != list(state.sizes) or obs.stock_size != len(state.stock):
            raise InvariantError(f"seat {seat}'s observation misreports hand or stock sizes")
        pile = list(state.pile) + (state.pending_pile or [])  # (a take's waiting cards above what it left)
        if [ids[c] for c in obs.pile] != pile:
            raise InvariantError(f"seat {seat}'s observation misreports the discard pile")
        for side in range(len(state.melds)):
            shown = sorted(ids[c] for m in obs.melds[side] for c in m.cards)
            if shown != sorted(c for m in state.all_melds(side) for c in m.cards):
                raise InvariantError(f"seat {seat}'s observation misreports side {side}'s melds")
        for s in range(players):
            if [ids[c] for c in obs.threes[s]] != list(state.threes[s]):
                raise InvariantError(f"seat {seat}'s observation misreports seat {s}'s threes")
        acting = obs.acting_seat == seat and not state.is_over
        if acting and list(obs.legal_actions) != list(state.legal_actions()):
            raise InvariantError(f"seat {seat} acts but its observation's legal actions differ from the state's")
        if not acting and obs.legal_actions:
            raise InvariantError(f"seat {seat} does not act but its observation lists legal actions")


def hidden_resample(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A copy of ``state`` in which the cards hidden from ``seat`` are dealt anew.

    The cards in the stock and in the other players' hands (except the cards
    known to be there, see `canasta.Observation.known_cards`) are shuffled
    among those places, each hand keeping its size. Everything ``seat`` may see is
    the same, so its observation must be the same (the copy may not be a
    position real play reaches: another hand may now hold a red three).

    Args:
        state: The hand (not changed).
        seat: The observing seat.
        rng: The source of randomness.

    Returns:
        The resampled copy.
    """
    new = state.copy()
    others = [s for s in range(state.rules.players) if s != seat]
    known = [set(new.known[s]) for s in range(state.rules.players)]
    pool = list(new.stock) + [c for s in others for kind in new.hands[s] for c in kind if c not in known[s]]
    rng.shuffle(pool)
    new.stock = pool[: len(new.stock)]
    rest = pool[len(new.stock) :]
    for s in others:
        size = new.sizes[s] - len(known[s])
        mine, rest = list(new.known[s]) + rest[:size], rest[size:]
        new.hands[s] = [[] for _ in range(KIND_COUNT)]
        new.counts[s] = [0] * KIND_COUNT
        for card in mine:
            kind = new.kinds[card]
            new.hands[s][kind].append(card)
            new.counts[s][kind] += 1
    new._legal = None
    return new


def check_hidden_information(state: HandState, rng: random.Random | None = None, *, seats: Sequence[int] = ()) -> None:
    """A seat's observation and legal actions do not depend on cards hidden from it.

    Compares each seat's observation of ``state`` with its observation of
    `hidden_resample` (a state that differs only in hidden cards).

    Args:
        state: The hand (not changed).
        rng: Randomness for the resample.
        seats: Seats to check (default: every seat).

    Raises:
        InvariantError: If an observation changes with cards its seat cannot see.
    """
    rng = rng or random.Random(state.turn)
    for seat in seats or range(state.rules.players):
        other = hidden_resample(state, seat, rng)
        mine, theirs = state.observation(seat), other.observation(seat)
        if mine != theirs:
            changed = [f.name for f in attrs.fields(Observation) if getattr(mine, f.name) != getattr(theirs, f.name)]
            raise InvariantError(
                f"seat {seat}'s observation depends on cards hidden from it (fields: {', '.join(changed)})"
            )


def _score_parts(side: SideScore) -> int:
    # Every int field except the labels is a part of the total: a part added
    # to SideScore later but forgotten in `total` makes this check fail.
    labels = ("side", "canastas")
    return sum(
        getattr(side, f.name) for f in attrs.fields(SideScore) if f.name not in labels and f.type in (int, "int")
    )


def check_score(state: HandState) -> HandScore | None:
    """Score breakdown arithmetic of a finished hand (rule book: "Scoring").

    Each side's total equals the sum of its parts; the melded-card count is
    the sum of the card values in its melds; the canasta count matches the
    table; only the side that went out has a going-out bonus. A hand that is
    not over must refuse to be scored.

    Args:
        state: The hand.

    Returns:
        The score, or ``None`` if the hand is not over.

    Raises:
        InvariantError: If the arithmetic is off.
    """
    if not state.is_over:
        try:
            state.score()
        except ValueError:
            return None
        raise InvariantError("a hand that is not over was scored")
    score = state.score()
    rules = state.rules
    if len(score.sides) != rules.side_count:
        raise InvariantError(f"{len(score.sides)} side scores for {rules.side_count} sides")
    if score.totals != tuple(s.total for s in score.sides):
        raise InvariantError("HandScore.totals disagrees with the sides' totals")
    out_unit = None if state.went_out is None else state.seating[state.went_out]
    declared = state.declared
    special = None if declared is None else next(h for h in rules.special_hands if h.id == declared[1])
    declarer_unit = None if declared is None else state.seating[declared[0]]
    if (score.special_hand, score.declarer) != ((None, None) if declared is None else (declared[1], declared[0])):
        raise InvariantError(f"the score names the special hand {score.special_hand!r}, the hand {declared!r}")
    # Black threes melded going out score with the set-aside ones where the variant says so (Cuban).
    skip = int(Kind.BLACK_THREE) if rules.black_threes.melded_count_with_set_aside else None
    for side in score.sides:
        if side.total != _score_parts(side):
            raise InvariantError(f"side {side.side}: total {side.total} is not the sum of its parts {side}")
        # The side's unit at the table (itself, unless the players were regrouped, house rule cutthroat).
        unit = state.seating[rules.seats_of(side.side)[0]]
        melded = sum(
            rules.card_values[state.kinds[c]] for m in state.all_melds(unit) if m.rank != skip for c in m.cards
        )
        if side.melded_cards != melded:
            raise InvariantError(f"side {side.side}: melded cards score {side.melded_cards}, the melds count {melded}")
        on_table = state.canastas(unit)
        if side.canastas != on_table:
            raise InvariantError(f"side {side.side}: {side.canastas} canastas scored, {on_table} on the table")
        if side.going_out and unit != out_unit:
            raise InvariantError(f"side {side.side} has a going-out bonus but did not go out")
        if side.cards_in_hand > 0:
            raise InvariantError(f"side {side.side}: cards left in hand score {side.cards_in_hand} > 0")
        if special is not None and unit == declarer_unit:
            # The club form's special hands, "Scoring": the hand's value and nothing else.
            if side.total != special.value or side.special_hand != special.value:
                raise InvariantError(f"side {side.side} declared {special.id} ({special.value}) but scores {side}")
        elif side.special_hand:
            raise InvariantError(f"side {side.side} scores a special hand it did not declare")
    return score


def check_game(game: Game, *, initial_scores: Sequence[int] | None = None) -> None:
    """A game's totals are the sums of its hands (rule book: "The game").

    Args:
        game: The game.
        initial_scores: Each side's total before the game's first recorded hand
            (default: zeros, as for a game created with `canasta.Game`).

    Raises:
        InvariantError: If the totals, hand count or game end disagree.
    """
    sides = game.rules.side_count
    start = list(initial_scores) if initial_scores is not None else [0] * sides
    expected = [start[s] + sum(r.totals[s] for r in game.results) for s in range(sides)]
    if list(game.scores) != expected:
        raise InvariantError(f"game scores {game.scores} are not the sums of the hands' totals {expected}")
    for i, result in enumerate(game.results):
        for side in result.sides:
            if side.total != _score_parts(side):
                raise InvariantError(f"hand {i}, side {side.side}: total is not the sum of its parts")
    length = game.rules.game_length
    target, deals = length.target_score, length.deals
    reached = target is not None and max(game.scores) >= target
    # (The last deal is played once it is over: while it is in play the game goes on.)
    played = bool(game.results) and deals is not None and game.hand.is_over and game.hand.deal_number >= deals
    won = bool(game.results) and game.results[-1].game_won_by is not None
    if game.is_over != (reached or played or won):
        raise InvariantError(
            f"game over is {game.is_over} but the target {'is' if reached else 'is not'} reached and the "
            f"last deal {'is' if played else 'is not'} played"
        )
    if deals is not None and game.deal_number > deals:
        raise InvariantError(f"deal {game.deal_number} was dealt in a game of {deals} deals")
    if won and game.winner() != game.results[-1].game_won_by:
        raise InvariantError("a special hand won the game, but the game names another winner")
    if game.is_over and not won:
        best = max(game.scores)
        leaders = tuple(side for side, total in enumerate(game.scores) if total == best)
        if game.winners() != leaders:
            raise InvariantError(f"the game names winners {game.winners()}, but the highest totals are {leaders}")
    if any(r.game_won_by is not None for r in game.results[:-1]):
        raise InvariantError("the game went on after a special hand had won it")
    if game.is_over and game.legal_actions():
        raise InvariantError("the game is over but lists legal actions")


def check_copy_independence(state: HandState, rng: random.Random | None = None, *, steps: int = 3) -> None:
    """A copy equals its original and then lives its own life.

    Plays a few random legal actions on a copy and checks the original is
    unchanged, and the other way round.

    Args:
        state: The hand (not changed).
        rng: Randomness for the play.
        steps: Actions to play on each copy.

    Raises:
        InvariantError: If a copy differs from the original, or changing one changes the other.
    """
    rng = rng or random.Random(state.turn)
    before = snapshot(state)
    first = state.copy()
    if snapshot(first) != before:
        raise InvariantError(f"a fresh copy differs from the original: {_diff(before, snapshot(first))}")
    second = first.copy()
    random_play(first, rng, steps)
    after = snapshot(state)
    if after != before:
        raise InvariantError(f"playing on a copy changed the original: {_diff(before, after)}")
    if snapshot(second) != before:
        raise InvariantError("playing on a copy changed a copy of that copy")
    first_after = snapshot(first)
    random_play(second, rng, steps)
    if snapshot(first) != first_after:
        raise InvariantError("playing on a copy changed another copy")


def records_available() -> bool:
    """Whether `canasta.records` exists (the record round trip is checked only then).

    Returns:
        True if the module imports.
    """
    try:
        import canasta.records  # noqa: F401
    except ImportError:
        return False
    return True


def check_record_round_trip(game: Game, actions: Sequence[Action], *, registry: Registry | None = None) -> bool:
    """A game's record survives JSON and replays to the same game.

    Records the actions on a fresh game of the same variant, house rules and
    seed (`canasta.records.GameRecorder`), writes the record as JSON, loads it
    back with validation, replays it (`canasta.records.verify_record`) and
    compares the replayed game with ``game``. Skipped (returns ``False``)
    where `canasta.records` is not available.

    Args:
        game: A game created with `canasta.Game` (not ``Game.from_hand``) and
            driven only by ``actions``.
        actions: Every action applied to it since its creation.
        registry: The registry its names come from (default: the default registry).

    Returns:
        True if checked, False if skipped.

    Raises:
        InvariantError: If the record does not round-trip or replays differently.
    """
    if not records_available():
        return False
    from canasta import records

    fresh = Game(
        game.rules.variant,
        game.rules.house_rules,
        seed=game.seed,
        registry=registry,
        first_dealer=game.first_dealer,
    )
    recorder = records.GameRecorder(fresh, registry=registry)
    for action in actions:
        recorder.apply(action)
    check_record(recorder.record(), game, registry=registry)
    return True


def check_record(record: object, game: Game, *, registry: Registry | None = None) -> None:
    """A `canasta.records.GameRecord` survives JSON and replays to ``game``.

    Writes the record as JSON, loads it back as untrusted input, replays it
    re-checking every action (`canasta.records.verify_record`) and compares
    the replayed game with ``game``: scores, hand totals, the current hand.

    Args:
        record: The record (a `canasta.records.GameRecord`).
        game: The game it records, as it is now.
        registry: The registry its names come from (default: the default registry).

    Raises:
        InvariantError: If the record does not round-trip or replays differently.
    """
    import json

    from canasta import records

    if not isinstance(record, records.GameRecord):
        raise TypeError(f"expected a canasta.records.GameRecord, got {type(record).__name__}")
    try:
        loaded = records.record_from_json(json.loads(record.dumps()), validate=False, registry=registry)
        replayed = records.verify_record(loaded, registry=registry)
    except records.RecordError as exc:
        raise InvariantError(f"a record of {len(record.actions)} actions does not load back: {exc}") from exc
    if loaded != record:
        raise InvariantError("a game record changed on its way through JSON")
    same = (
        list(replayed.scores) == list(game.scores)
        and [r.totals for r in replayed.results] == [r.totals for r in game.results]
        and replayed.is_over == game.is_over
        and snapshot(replayed.hand) == snapshot(game.hand)
    )
    if not same:
        raise InvariantError(f"replaying the record of {len(record.actions)} actions gives a different game")


def check_all(
    target: HandState | Game,
    rng: random.Random | None = None,
    *,
    legal_sample: int | None = 4,
    illegal_sample: int = 8,
    initial_scores: Sequence[int] | None = None,
) -> None:
    """Run every invariant on a hand or a game (its current hand).

    Args:
        target: A `canasta.HandState`, or a `canasta.Game` (then the game's
            totals are checked too).
        rng: Randomness for the samples (default: seeded from the turn, so
            repeated calls are reproducible).
        legal_sample: Listed actions to apply on copies (``None``: all).
        illegal_sample: Unlisted actions to try.
        initial_scores: For a game: totals before its first hand (default zeros).

    Raises:
        InvariantError: If an invariant fails.
    """
    state = target.hand if isinstance(target, Game) else target
    rng = rng or random.Random(state.turn)
    check_conservation(state)
    check_threes_in_hands(state)
    check_earned_packets(state)
    check_legal_actions(state, rng, legal_sample=legal_sample, illegal_sample=illegal_sample)
    check_observations(state)
    check_hidden_information(state, rng)
    check_score(state)
    check_copy_independence(state, rng)
    if isinstance(target, Game):
        check_game(target, initial_scores=initial_scores)
