"""A brute-force reference for what "legal" means, to prove the engine's legal actions exact.

The rule book ("What “legal” means"): an action is legal when the rules allow it **and** the player can
still complete the turn legally after it (end it with a legal discard, go out,
or end the hand where the rules end it), without taking anything back. The
engine decides the second half with a fast oracle on card counts
(`canasta.completion`); this module decides it the slow, obvious way, by trying
every continuation on copies of the hand:

- the rules' half is `canasta.HandState.allowed_actions` (what the rules allow,
  before the completion filter), so the reference never consults the oracle it
  checks;
- an allowed action is legal iff, after applying it to a copy, some sequence of
  further *allowed* actions reaches the end of the turn: the hand is over
  (``phase is Phase.OVER``: gone out, or ended by the stock), or the turn
  counter moved on (a discard passed the turn);
- the partner's answer to "may I go out?" is one more choice in that search
  (some answer must lead to a completion);
- a stock draw always counts as completing the turn, where it is the action
  judged and where the search reaches one: its outcome is random, and the rules
  ⟨A⟩ lets a player whose binding "yes" a draw made impossible play on;
- a special hand's declaration ends the hand; which declarations the rules
  allow is decided again here, by trying every hand of the rules with every
  discard against the rule book's conditions written out plainly
  (`reference_declarations`), not taken from the engine;
- picking up a packet (`canasta.PacketRules`, Hand and Foot's foot) in the
  middle of a turn counts as completing it, like a stock draw: the packet's
  cards are unknown when the action is chosen (§8.10 E8), and any of them
  ends the turn (a discard, or §8.9's end); random play checks that claim
  (`tests/test_packets.py`);
- keeping a three (``american-special-hands``): laying out a kept three
  before the draw is, like a stock draw, a completion; after the draw, and
  when an opening lays the holder's kept three out and replaces it, the
  replacement is unknown when the action is chosen, so the search goes on as
  if the three had stayed in the hand (what it does when the stock runs out),
  never laying it out again on that line: the replacement is put back on the
  stock, the three back into the hand.

The search is exhaustive and memoized on the whole state (one table per call),
so its cost grows exponentially with the number of cards the player can meld
this turn; a node budget (``max_nodes``) makes a position that is too big fail
loudly with `ReferenceBudgetExceeded` instead of running for hours. Keep the
positions small: about ten cards in the acting hand, plus the pile if it can be
taken.

Plain Python (no hypothesis needed)::

    from canasta.testing.reference import check_exact_legality

    check_exact_legality(state)  # raises InvariantError listing any difference
"""

from __future__ import annotations

import pickle

from canasta.actions import Action, AnswerGoOut, DeclareSpecialHand, DrawStock, LayOutThree, Meld
from canasta.cards import Kind
from canasta.hand import HandState, Phase
from canasta.table import CACHE_FIELDS, data_fields
from canasta.testing.errors import InvariantError

__all__ = [
    "DEFAULT_MAX_NODES",
    "ReferenceBudgetExceeded",
    "check_exact_legality",
    "check_no_dead_end",
    "reference_declarations",
    "reference_legal_actions",
    "turn_cards",
]

#: Default node budget of one `reference_legal_actions` call (some seconds at most;
#: the positions of canasta's own tests need a few hundred at most).
DEFAULT_MAX_NODES = 20_000

#: Slots that are not part of the position: caches and the immutable rule data.
# The action log and the publicly known cards record what was seen; no rule reads them,
# and the log would make every path to a position a different position.
_NOT_POSITION = CACHE_FIELDS | {"rules", "facts", "deck", "kinds", "log", "known"}
_PROTOCOL = 5


class ReferenceBudgetExceeded(RuntimeError):
    """The reference explored more states than its budget allows.

    Not an invariant failure (it is a `RuntimeError`, not an `AssertionError`):
    the position is too big for a brute-force proof. Choose a smaller position
    or raise ``max_nodes``.
    """


# --- the fingerprint --------------------------------------------------------------------


_SLOT_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(state: HandState) -> tuple[str, ...]:
    """The position's fields: every slot of the class and its bases, and any instance attribute."""
    cls = type(state)
    slots = _SLOT_FIELDS.get(cls)
    if slots is None:
        slots = _SLOT_FIELDS[cls] = tuple(name for name in data_fields(cls) if name not in _NOT_POSITION)
    extra = getattr(state, "__dict__", None)
    if extra:  # a subclass with fields of its own
        return slots + tuple(name for name in extra if name not in _NOT_POSITION and name not in slots)
    return slots


def _melds(state: HandState) -> object:
    """The melds with their cards as multisets: the order of laying them is part of no rule."""
    return [
        sorted((rank, m.naturals, m.twos, m.jokers, sorted(m.cards)) for rank, m in side.items())
        for side in state.melds
    ]


def _fingerprint(state: HandState) -> bytes:
    """Every field of the position (all slots but caches and rule data), pickled.

    Pickling is lossless, so equal fingerprints mean equal positions (the
    melds are taken as `_melds` gives them). Equal positions may still pickle
    differently; that only costs a repeated search, never a wrong answer.
    """
    values = tuple(_melds(state) if name == "melds" else getattr(state, name) for name in _fields(state))
    return pickle.dumps(values, _PROTOCOL)


# --- the search -------------------------------------------------------------------------


class _Search:
    """One exhaustive search: the starting turn, the memo table and the node budget."""

    def __init__(self, start: HandState, max_nodes: int) -> None:
        self.turn = start.turn
        self.max_nodes = max_nodes
        self.nodes = 0
        self.memo: dict[bytes, bool] = {}
        self.where = _describe(start)

    def completes_after(self, state: HandState, action: Action, unknown: bool = False) -> bool:
        """Whether the turn can be completed after ``action`` (``state`` is not changed).

        ``unknown``: a kept three's replacement is unknown on this line of
        play, so the search goes on with the three in the hand and does not
        lay it out again.
        """
        if isinstance(action, DrawStock) or (isinstance(action, LayOutThree) and state.phase is Phase.DRAW):
            return True  # random outcome; the rules: the player then plays on
        if isinstance(action, LayOutThree):
            return self.completable(state, unknown=True)  # the replacement is unknown: as if the three stayed
        child = state.copy()
        child._apply_unchecked(action)
        if len(child.packets[state.seat]) < len(state.packets[state.seat]):
            return True  # a packet picked up: its cards were unknown when the action was chosen (like a draw)
        if child.phase is Phase.MELD and len(child.threes[child.seat]) > len(state.threes[state.seat]):
            unknown = _unknown_replacement(state, child) or unknown
        return self.completable(child, unknown=unknown)

    def completable(self, state: HandState, unknown: bool = False) -> bool:
        """Whether some sequence of allowed actions from ``state`` ends the turn."""
        if state.phase is Phase.OVER or state.turn != self.turn:
            return True
        key = _fingerprint(state) + (b"?" if unknown else b"")
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise ReferenceBudgetExceeded(
                f"the legality reference explored more than {self.max_nodes} states of one turn; "
                f"choose a smaller position or raise max_nodes ({self.where})"
            )
        # Actions that end the turn are tried first: the answer is the same, found sooner.
        actions = sorted(state.allowed_actions(), key=lambda a: isinstance(a, Meld))
        if unknown:
            actions = [a for a in actions if not isinstance(a, LayOutThree)]
        if state.phase is Phase.ANSWER:
            # The answer is the partner's, not the asker's: asking keeps the turn
            # completable only if it stays completable whatever the partner says.
            result = all(self.completes_after(state, a, unknown) for a in actions)
        else:
            result = any(self.completes_after(state, a, unknown) for a in actions)
        self.memo[key] = result
        return result


def _unknown_replacement(before: HandState, after: HandState) -> bool:
    """Keeping a three: an opening laid out the kept three and replaced it; search on without the replacement.

    Returns True if it put a replacement back (the line of play has an unknown card).

    In the meld phase only the holder's own opening draws from the stock (a
    taken pile's threes are laid out with no replacement), so the three that
    left the hand and the stock cards drawn for it are put back where they were.
    """
    seat = before.seat
    drawn = before.stock[len(after.stock) :]
    if not drawn:
        return False  # no stock card was left: the three stayed in the hand
    held = set(before.hands[seat][Kind.RED_THREE]) | set(before.hands[seat][Kind.BLACK_THREE])
    kept = next(card for card in after.threes[seat][len(before.threes[seat]) :] if card in held)
    for card in drawn:
        kind = after.kinds[card]
        if card in after.threes[seat]:
            after.threes[seat].remove(card)
        else:
            after.hands[seat][kind].remove(card)
            after.counts[seat][kind] -= 1
            after.sizes[seat] -= 1
    after.stock.extend(drawn)
    after.threes[seat].remove(kept)
    after._to_hand(seat, kept)
    after._legal = None
    return True


def reference_legal_actions(state: HandState, *, max_nodes: int = DEFAULT_MAX_NODES) -> list[Action]:
    """The legal actions, by brute force (what "legal" means).

    Each action of ``state.allowed_actions()`` is kept iff it is a stock draw,
    or, applied to a copy, some sequence of further allowed actions reaches the
    end of the turn: the hand is over, or the turn counter moved on. The
    partner's answer to "may I go out?" is not the asker's choice, so after
    asking the turn must be completable after *every* answer. A stock draw met
    inside that search also completes the turn.

    What it proves: compared with ``state.legal_actions()`` (see
    `check_exact_legality`), that the engine's completion oracle agrees with an
    exhaustive search over the engine's own transitions and rules, in this
    position. It takes `canasta.HandState.allowed_actions` and the transitions
    as given; their agreement with the rule book is what the other tests check.

    Cost: exponential in the cards the player can meld this turn; memoized on
    the whole state within the call, and at most ``max_nodes`` states are
    expanded (each one an ``allowed_actions`` call and, per action, a copy, a
    transition and a fingerprint: a fraction of a millisecond). Hands of about
    a dozen cards take milliseconds.

    Args:
        state: The hand (not changed).
        max_nodes: Most states the search may expand before it gives up.

    Returns:
        The legal actions, in the order of ``state.allowed_actions()``
        (empty once the hand is over).

    Raises:
        ReferenceBudgetExceeded: If the search needs more than ``max_nodes`` states.
    """
    if state.phase is Phase.OVER:
        return []
    search = _Search(state, max_nodes)
    return [a for a in state.allowed_actions() if search.completes_after(state, a)]


def reference_declarations(state: HandState) -> list[DeclareSpecialHand]:
    """The special-hand declarations the rules allow now, decided from the rule book's conditions alone.

    Every hand of ``rules.special_hands`` with no discard and with a discard of
    each kind is tried: the acting side has no meld, the player drew from the
    stock this turn and has melded nothing, is not bound to go out, and the
    declared cards are exactly 14 (the hand held, or after a two-card draw the
    15 held less a discard that is not a three, held, and not after a last-card
    red three) forming that hand, with no hand of higher value (nor an earlier
    one of equal value) formed by the same cards.

    Args:
        state: The hand (not changed).

    Returns:
        The declarations, as a list (order not significant).
    """
    rules = state.rules
    seat = state.seat
    side = state.seating[seat]
    if (
        state.phase is not Phase.MELD
        or not state.drew_from_stock
        or state.melded_this_turn
        or state.opened[side]
        or state.melds[side]
        or state.bound
    ):
        return []
    found = []
    for discard in (None, *Kind):
        cards = list(state.counts[seat])
        if discard is not None:
            if (
                discard in (Kind.RED_THREE, Kind.BLACK_THREE)
                or rules.draw_count < 2
                or state.final_meld_only
                or cards[discard] == 0
            ):
                continue
            cards[discard] -= 1
        if sum(cards) != 14:
            continue
        formed = [hand for hand in rules.special_hands if hand.matches(tuple(cards))]
        for i, hand in enumerate(formed):
            if all(other.value < hand.value for other in formed[:i]) and all(
                other.value <= hand.value for other in formed[i + 1 :]
            ):
                found.append(DeclareSpecialHand(hand.id, discard))
    return found


def _binding_problems(state: HandState, max_nodes: int) -> list[str]:
    """Where a transition itself decides whether a "yes" binds, decide it again by search.

    The rules ("Asking permission"): after "yes" the player must go out this turn, unless going
    out has become impossible; then the turn is played out normally. The
    engine records the obligation in ``bound`` when the answer is given and
    again after a stock draw, with its oracle; here the obligation must hold
    exactly when the search, with the obligation imposed, still finds a
    completion (that is, a way to go out, or a stock draw still to come).
    """
    if state.phase is Phase.ANSWER:
        trigger: Action = AnswerGoOut(True)
    elif state.phase is Phase.DRAW and state.bound and state.stock:
        trigger = DrawStock()
    else:
        return []
    if trigger not in state.allowed_actions():
        return []
    after = state.copy()
    after._apply_unchecked(trigger)
    if after.phase is Phase.OVER or after.final_meld_only:
        return []  # a last-card red three ends the obligation with the hand
    imposed = after.copy()
    imposed.bound = True
    imposed._legal = None
    possible = _Search(imposed, max_nodes).completable(imposed)
    if after.bound == possible:
        return []
    if possible:
        return [f"after {trigger!r} going out is still possible, but the engine does not hold the player to it"]
    return [f"after {trigger!r} going out is impossible, but the engine still holds the player to it"]


def check_exact_legality(state: HandState, *, max_nodes: int = DEFAULT_MAX_NODES) -> None:
    """The engine's legal actions are exactly those of the legality reference.

    Compares ``state.legal_actions()`` with `reference_legal_actions`: an
    action the engine lists that the reference rejects is "listed but cannot
    be completed" (or "listed but not allowed by the rules", if
    ``allowed_actions()`` does not have it either); one the reference accepts
    that the engine does not list is "completable but not listed".

    The declarations of special hands are compared with
    `reference_declarations`, decided from the rules' conditions alone.
    It also re-decides, by the same search, the two places where a transition
    consults the engine's oracle (so the reference does not simply inherit its
    answer): whether a partner's "yes" binds the asker to go out, and whether
    a stock draw after "yes" releases the obligation ("Asking permission").

    Cost: that of `reference_legal_actions`, plus one more search of the
    same size where a "yes" or a bound draw is possible (each bounded by
    ``max_nodes``).

    Args:
        state: The hand (not changed).
        max_nodes: Node budget of the reference search.

    Raises:
        InvariantError: If the two sets differ, listing each difference and the position.
        ReferenceBudgetExceeded: If the position is too big for the reference.
    """
    engine = state.legal_actions()
    reference = reference_legal_actions(state, max_nodes=max_nodes)
    allowed = set(state.allowed_actions())
    ref_set = set(reference)
    problems: list[str] = []
    for action in engine:
        if action not in allowed:
            problems.append(f"{action!r} is listed but not allowed by the rules (allowed_actions() lacks it)")
        elif action not in ref_set:
            problems.append(f"{action!r} is listed but cannot be completed")
    engine_set = set(engine)
    for action in reference:
        if action not in engine_set:
            problems.append(f"{action!r} is completable but not listed")
    problems += _binding_problems(state, max_nodes)
    declared = {a for a in engine if isinstance(a, DeclareSpecialHand)}
    by_rules = set(reference_declarations(state))
    problems += [f"{a!r} is listed but the special hands' conditions refuse it" for a in declared - by_rules]
    problems += [f"{a!r} meets the special hands' conditions but is not listed" for a in by_rules - declared]
    if problems:
        raise InvariantError(
            "legal_actions() differs from the legality reference: " + "; ".join(problems) + f" ({_describe(state)})"
        )


def check_no_dead_end(state: HandState) -> None:
    """A hand that is not over always has a legal action.

    Cost: one ``legal_actions()`` call.

    Args:
        state: The hand (not changed).

    Raises:
        InvariantError: If the hand is not over and nothing is legal.
    """
    if state.phase is not Phase.OVER and not state.legal_actions():
        raise InvariantError(f"dead end: the hand is not over and nothing is legal ({_describe(state)})")


def turn_cards(state: HandState) -> int:
    """Cards the acting player could hold during the rest of the turn without drawing.

    The acting hand (the asker's while a partner answers), plus the discard
    pile, which a take brings into the hand, plus a taken pile still waiting
    for the opening. The reference's cost grows with it, so callers use it to
    decide whether a position is small enough to check.

    Args:
        state: The hand.

    Returns:
        The number of cards.
    """
    seat = state.asker if state.phase is Phase.ANSWER and state.asker is not None else state.seat
    waiting = len(state.pending_pile) if state.pending_pile is not None else 0
    return state.sizes[seat] + len(state.pile) + waiting


def _describe(state: HandState) -> str:
    """A short description of the position, to reproduce a difference."""
    rules = state.rules
    seat = state.asker if state.phase is Phase.ANSWER and state.asker is not None else state.seat
    side = state.seating[seat]
    acting = f"seat {state.seat}" if seat == state.seat else f"seat {state.seat} answering seat {seat}"
    cards = state.deck.cards
    hand = " ".join(c.code for c in state.hand_cards(seat))
    pile = " ".join(cards[c].code for c in state.pile)
    melds = "; ".join(
        " ".join(cards[c].code for c in sorted(m.cards, key=lambda c: state.kinds[c]))
        for m in state.melds[side].values()
    )
    house = f" + {', '.join(rules.house_rules)}" if rules.house_rules else ""
    return (
        f"{rules.variant}{house}; phase {state.phase.value}, {acting}, turn {state.turn}; "
        f"hand of seat {seat} {hand or '-'}; pile {pile or '-'}; "
        f"side {side} melds [{melds}], opened {state.opened[side]}; "
        f"stock {len(state.stock)}; bound {state.bound}, answer {state.answer}, "
        f"provisional {state.provisional_count}, final_meld_only {state.final_meld_only}"
    )
