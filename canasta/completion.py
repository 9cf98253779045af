"""Can the acting player still complete the turn? The turn-completion oracle (SPEC.md §0).

SPEC.md §0: an action is legal when the rules allow it **and** the player can
still complete the turn after it (end it with a legal discard, go out, or end
the hand where the rules end it) without taking anything back. This module
answers that question for the meld phase, exactly, from card counts alone: the
acting player's hand (counts by kind), the side's melds (counts by rank), and
the turn's bookkeeping in a `Turn`. It never copies or mutates a hand; the
legality module builds the counts an action would leave and asks.

How a turn can be completed, by the rules it depends on:

- An opened side (SPEC §1 "Initial meld": it melds freely) ends the turn by
  discarding a discardable card while keeping at least one (§1 "Going out":
  without going out a player keeps a card), or by going out.
- Going out (§1 "Going out") melds every card, or all but one which is the
  final discard, with the canastas the variant needs; `can_meld_out` decides it
  with a small dynamic programme over the wild cards.
- A side that has not opened must first complete its opening this turn (§1
  "Initial meld": the count reaches the minimum; §6 ⟨A⟩ modern American: with a
  clean meld of hand naturals, still clean when the opening is complete). If it
  took the pile, the rest of the pile comes into the hand at that moment.
  Melds below the minimum are provisional and may not be left standing, so the
  search `_opening_completes` looks for a way to reach the minimum and then end
  the turn. The concealed exemption (§1) lets a player who drew from the stock
  go out without the minimum.
- After a binding "yes" (§1 "Going out" ⟨A⟩) only going out completes the turn.
- After a last-card red three under ``last-red-three-may-meld`` the player may
  only meld, then end the hand; provisional melds must reach the minimum first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, NATURAL_INTS, RED_THREE, TWO
from canasta.rules import MeldRules, Rules

__all__ = [
    "MeldCounts",
    "Turn",
    "can_complete",
    "can_meld_out",
    "going_out_options",
    "has_clean_meld",
    "meld_may_complete",
    "opening_reached",
]

#: A side's melds as ``rank -> (naturals, twos, jokers)``.
MeldCounts = Mapping[int, tuple[int, int, int]]


class Turn:
    """The turn's facts the oracle needs besides the cards: fixed for the rest of the turn.

    Attributes:
        rules: The compiled rules.
        minimum: The acting player's initial-meld minimum (SPEC §1).
        exempt: Whether the concealed exemption is open (drew from the stock,
            did not take the pile, and the variant has the exemption).
        out_allowed: Whether going out is allowed this turn (not after a "no").
        bound: Whether a binding "yes" obliges the player to go out this turn.
        final_only: After a last-card red three: meld, then end the hand.
        discardable: For each kind, whether it may be discarded this turn.
        top_rank: Rank of the pile's top card taken this turn (-1: none); it is
            not one of the clean meld's hand naturals (SPEC §6 ⟨A⟩).
        pending: Counts by kind of the pile cards that come into the hand when
            the side's opening is complete (``None``: no pile is waiting).
    """

    __slots__ = (
        "bound",
        "discardable",
        "exempt",
        "final_only",
        "minimum",
        "out_allowed",
        "pending",
        "rules",
        "top_rank",
    )

    def __init__(
        self,
        rules: Rules,
        *,
        minimum: int,
        exempt: bool,
        out_allowed: bool,
        bound: bool,
        final_only: bool,
        discardable: Sequence[bool],
        top_rank: int = -1,
        pending: Sequence[int] | None = None,
    ) -> None:
        """Collect the turn's facts (see the class attributes)."""
        self.rules = rules
        self.minimum = minimum
        self.exempt = exempt
        self.out_allowed = out_allowed
        self.bound = bound
        self.final_only = final_only
        self.discardable = tuple(discardable)
        self.top_rank = top_rank
        self.pending = None if pending is None else tuple(pending)


def has_clean_meld(meld_rules: MeldRules, clean_need: int, melds: MeldCounts, top_rank: int) -> bool:
    """SPEC §6 ⟨A⟩: a meld of at least ``clean_need`` hand naturals and no wild card is on the table.

    Args:
        meld_rules: The meld rules (unused today; kept so the test reads the rules it depends on).
        clean_need: Hand naturals the clean meld needs (0: no clean meld is required).
        melds: The side's melds.
        top_rank: Rank of the pile's top card taken this turn (-1: none), which
            is not a hand natural.

    Returns:
        True if the requirement is met (always, when ``clean_need`` is 0).
    """
    if not clean_need:
        return True
    return any(rank >= 4 and not (t or j) and n - (rank == top_rank) >= clean_need for rank, (n, t, j) in melds.items())


def opening_reached(rules: Rules, count: int, minimum: int, melds: MeldCounts, top_rank: int) -> bool:
    """SPEC §1 "Initial meld" (and §6 ⟨A⟩): the count reaches the minimum, with the clean meld where required.

    Args:
        rules: The compiled rules.
        count: The count the side's melds of this turn reach (what counts per variant).
        minimum: The acting player's minimum.
        melds: The side's melds.
        top_rank: Rank of the pile's top card taken this turn (-1: none).

    Returns:
        True if the opening is complete.
    """
    if count < minimum:
        return False
    return has_clean_meld(rules.melds, rules.initial_meld.clean_meld_naturals, melds, top_rank)


def can_complete(turn: Turn, hand: Sequence[int], melds: MeldCounts, *, opened: bool, provisional: int) -> bool:
    """Whether the acting player, in the meld phase, can still complete the turn legally (SPEC §0).

    Args:
        turn: The turn's facts.
        hand: The player's card counts by kind.
        melds: The side's melds.
        opened: Whether the side has completed its initial meld.
        provisional: The count of the side's provisional opening melds this turn.

    Returns:
        True if some sequence of melds ends the turn legally.
    """
    size = sum(hand)
    if turn.final_only:
        # Rule option last-red-three-may-meld: the hand ends after melding; no
        # provisional melds may be left below the minimum.
        return opened or not melds or _opening_completes(turn, hand, melds, provisional)
    if opened:
        return _opened_completes(turn, hand, melds, size)
    if not melds and not turn.bound and size >= 2 and _has_discard(turn.discardable, hand):
        return True  # nothing laid down this turn: a discard ends it
    rules = turn.rules
    if (
        turn.exempt
        and turn.out_allowed
        and can_meld_out(rules, hand, melds, turn.discardable, need=max(rules.going_out.canastas_required, 1))
    ):
        return True  # SPEC §1 concealed exemption: go out without the minimum
    return _opening_completes(turn, hand, melds, provisional)


def meld_may_complete(
    turn: Turn,
    hand: Sequence[int],
    melds: MeldCounts,
    *,
    opened: bool,
    provisional: int,
    witness: dict[int, tuple[int, int, int]] | None = None,
) -> bool:
    """A necessary condition for any meld from here to leave a completable turn.

    Every completion after a meld is also a completion from here that melds
    first, so if no such completion exists, no meld is legal: the caller skips
    the per-candidate checks. For an opened side without a binding "yes" it is
    simply True (most melds keep a card to discard).

    Args:
        turn: The turn's facts.
        hand: The player's card counts by kind.
        melds: The side's melds.
        opened: Whether the side has completed its initial meld.
        provisional: The count of the side's provisional opening melds this turn.
        witness: Filled, when an opening completes the turn, with the melds of
            one such opening: any meld that adds no more to a rank than the
            witness does starts a completion too (the rest of the witness follows).

    Returns:
        False only if no meld can be followed by a completion.
    """
    if opened:
        if turn.final_only or not turn.bound:
            return True
        return turn.out_allowed and can_meld_out(
            turn.rules, hand, melds, turn.discardable, need=turn.rules.going_out.canastas_required, witness=witness
        )
    rules = turn.rules
    if (
        turn.exempt
        and turn.out_allowed
        and not turn.final_only
        and can_meld_out(rules, hand, melds, turn.discardable, need=max(rules.going_out.canastas_required, 1))
    ):
        return True
    return _opening_completes(turn, hand, melds, provisional, witness)


def _has_discard(discardable: Sequence[bool], hand: Sequence[int]) -> bool:
    for kind in range(KIND_COUNT):  # noqa: SIM110 - a plain loop: this runs per candidate, any() is slower
        if hand[kind] and discardable[kind]:
            return True
    return False


def _opened_completes(turn: Turn, hand: Sequence[int], melds: MeldCounts, size: int) -> bool:
    """An opened side: discard keeping a card (not after "yes"), or go out."""
    if turn.final_only:
        return True
    if not turn.bound and size >= 2 and _has_discard(turn.discardable, hand):
        return True
    if not turn.out_allowed:
        return False
    return can_meld_out(turn.rules, hand, melds, turn.discardable, need=turn.rules.going_out.canastas_required)


def _opening_completes(
    turn: Turn,
    hand: Sequence[int],
    melds: MeldCounts,
    provisional: int,
    witness: dict[int, tuple[int, int, int]] | None = None,
) -> bool:
    """Search for melds from the hand that complete the opening, after which the turn can end.

    Melds commute until the opening is complete, so the search takes the
    groups in a fixed order (natural ranks, the wild meld, black threes) and
    adds to each at most once. As soon as the opening is complete the side is
    opened: the pending pile comes into the hand and `_opened_completes`
    decides the rest (any later meld is possible there too). On success the
    melds of the completed opening are written into ``witness`` if given.
    """
    rules = turn.rules
    meld_rules = rules.melds
    values = rules.card_values
    clean_need = rules.initial_meld.clean_meld_naturals
    if clean_need and not has_clean_meld(meld_rules, clean_need, melds, turn.top_rank):
        # SPEC §6 ⟨A⟩: some rank must still be able to hold the clean meld of hand naturals.
        for rank in NATURAL_INTS:
            existing = melds.get(rank)
            if existing is None:
                if hand[rank] >= clean_need:
                    break
            elif not (existing[1] or existing[2]) and existing[0] - (rank == turn.top_rank) + hand[rank] >= clean_need:
                break
        else:
            return False
    # An upper bound on the count: naturals only of ranks that can be melded,
    # wild cards only if some group can take them.
    groups: list[int] = []
    group_values: list[int] = []
    min_naturals = meld_rules.min_naturals
    for rank in NATURAL_INTS:
        if rank in melds or hand[rank] >= min_naturals:
            groups.append(rank)
            group_values.append(values[rank] * hand[rank])
    if meld_rules.wild_melds:
        groups.append(JOKER)
        group_values.append(0)
    if meld_rules.black_threes_when_going_out and hand[BLACK_THREE] >= 3:
        groups.append(BLACK_THREE)
        group_values.append(values[BLACK_THREE] * hand[BLACK_THREE])
    remaining = sum(group_values)
    if groups and (len(groups) > 1 or groups[0] != BLACK_THREE):
        remaining += values[TWO] * hand[TWO] + values[JOKER] * hand[JOKER]
    if provisional + remaining < turn.minimum:
        return False  # even melding every meldable card would not reach the minimum
    return _search(turn, list(hand), dict(melds), provisional, remaining, groups, group_values, 0, witness)


def _search(
    turn: Turn,
    hand: list[int],
    melds: dict[int, tuple[int, int, int]],
    provisional: int,
    remaining: int,
    groups: list[int],
    group_values: list[int],
    index: int,
    witness: dict[int, tuple[int, int, int]] | None,
) -> bool:
    if index == len(groups) or provisional + remaining < turn.minimum:
        return False
    rules = turn.rules
    values = rules.card_values
    rank = groups[index]
    naturals = 0 if rank == JOKER else hand[rank]
    # Cards of this group that a later group cannot use leave the upper bound.
    later = remaining - group_values[index]
    existing = melds.get(rank)
    n0, t0, j0 = existing if existing is not None else (0, 0, 0)
    size = sum(hand)
    options = _additions(rules.melds, rank, n0, t0, j0, naturals, hand[TWO], hand[JOKER])
    for n, t, j in options:
        added = n + t + j
        if rank == BLACK_THREE and size - added > 1:
            continue  # SPEC §1: black threes meld only as the last meld of going out
        value = values[rank] * n + values[TWO] * t + values[JOKER] * j
        count = provisional + value
        hand[rank] -= n
        hand[TWO] -= t
        hand[JOKER] -= j
        melds[rank] = (n0 + n, t0 + t, j0 + j)
        try:
            if opening_reached(rules, count, turn.minimum, melds, turn.top_rank):
                after = hand if turn.pending is None else [a + b for a, b in zip(hand, turn.pending, strict=True)]
                if _opened_completes(turn, after, melds, size - added + (sum(turn.pending) if turn.pending else 0)):
                    if witness is not None:
                        witness.update(melds)
                    return True
            elif size - added and _search(
                turn,
                hand,
                melds,
                count,
                later - values[TWO] * t - values[JOKER] * j,
                groups,
                group_values,
                index + 1,
                witness,
            ):
                return True
        finally:
            hand[rank] += n
            hand[TWO] += t
            hand[JOKER] += j
            if existing is None:
                del melds[rank]
            else:
                melds[rank] = existing
    return _search(turn, hand, melds, provisional, later, groups, group_values, index + 1, witness)


_ADDITIONS: dict[tuple[int, int, int, int, int, int, int, int], tuple[tuple[int, int, int], ...]] = {}


def _additions(
    meld_rules: MeldRules, rank: int, n0: int, t0: int, j0: int, have: int, twos: int, jokers: int
) -> tuple[tuple[int, int, int], ...]:
    """Valid additions ``(naturals, twos, jokers)`` to a group, largest first (cached per meld rules)."""
    key = (id(meld_rules), rank, n0, t0, j0, have, twos, jokers)
    found = _ADDITIONS.get(key)
    if found is None:
        is_valid = meld_rules.is_valid
        options = [
            (n, t, j)
            for n in range(have + 1)
            for t in range(twos + 1)
            for j in range(jokers + 1)
            if n + t + j and is_valid(rank, n0 + n, t0 + t, j0 + j)
        ]
        options.sort(key=lambda o: -(o[0] + o[1] + o[2]))
        found = tuple(options)
        if len(_ADDITIONS) > 200_000:
            _ADDITIONS.clear()  # bound the memory of long runs with many rule sets
        _ADDITIONS[key] = found
        _KEEP_ALIVE[id(meld_rules)] = meld_rules  # the id stays unique while cached
    return found


_KEEP_ALIVE: dict[int, MeldRules] = {}


def can_meld_out(
    rules: Rules,
    hand: Sequence[int],
    melds: MeldCounts,
    discardable: Sequence[bool],
    *,
    need: int,
    witness: dict[int, tuple[int, int, int]] | None = None,
) -> bool:
    """Whether the hand can be melded out (all cards, or all but one discarded) by an opened side.

    Every natural in hand must join its rank's meld (existing or new), black
    threes meld as one group of 3 or 4, and the wild cards are spread over the
    melds by a small dynamic programme (SPEC §1 "Going out").

    Args:
        rules: The compiled rules.
        hand: Card counts by kind of the player's hand.
        melds: The side's melds.
        discardable: For each kind, whether it may be the final discard.
        need: Canastas the side must have when it goes out.
        witness: Filled on success with the side's melds after one such
            assignment (``rank -> (naturals, twos, jokers)``, including melds
            the hand does not touch).

    Returns:
        True if some assignment of the hand's cards goes out legally.
    """
    if hand[RED_THREE]:
        return False
    meld_rules = rules.melds
    canasta_size = meld_rules.canasta_size
    size = sum(hand)
    if size <= 1 and witness is None:
        return _meld_out_small(rules, hand, melds, discardable, need, size)
    # A cheap necessary test: enough melds can still reach canasta size.
    wilds = hand[TWO] + hand[JOKER]
    possible = 0
    for rank, (n, t, j) in melds.items():
        cards = n + t + j
        if cards >= canasta_size or cards + (hand[rank] if rank >= 4 else 0) + wilds >= canasta_size:
            possible += 1
    if possible < need:
        for rank in NATURAL_INTS:
            if rank not in melds and hand[rank] >= 2 and hand[rank] + wilds >= canasta_size:
                possible += 1
        if meld_rules.wild_melds and JOKER not in melds and wilds >= canasta_size:
            possible += 1
        if possible < need:
            return False
    problems = _stranded(meld_rules, hand, melds)
    if len(problems) > 1:
        return False  # a final discard removes one card: it cannot rescue two groups
    choices: list[int] = [] if rules.going_out.final_discard_required or problems else [-1]
    if problems:
        # Only discarding a card of the group that cannot be melded can help.
        kind = problems[0]
        if discardable[kind]:
            choices.append(kind)
    else:
        choices.extend(k for k in range(KIND_COUNT) if hand[k] and discardable[k])
    for discard in choices:
        counts = list(hand)
        if discard >= 0:
            counts[discard] -= 1
            if problems and _stranded(meld_rules, counts, melds):
                continue
        if _assign(meld_rules, counts, melds, need, witness):
            return True
    return False


#: For each group of a going-out assignment (by rank), the feasible additions
#: ``(naturals, twos, jokers)``: the most of each that some full assignment adds.
OutOptions = dict[int, list[tuple[int, int, int]]]


def going_out_options(
    rules: Rules, hand: Sequence[int], melds: MeldCounts, discardable: Sequence[bool], *, need: int
) -> OutOptions | None:
    """Every way a meld can start going out from here, in one pass (SPEC §1 "Going out").

    A meld of ``(n, t, j)`` cards onto a rank's group starts a going-out line
    exactly when some complete assignment of the hand adds at least that much
    to the group (the rest of the assignment follows it), so one forward and
    backward pass of the dynamic programme of `can_meld_out` answers every
    candidate meld of a phase at once.

    Args:
        rules: The compiled rules.
        hand: Card counts by kind of the player's hand.
        melds: The side's melds.
        discardable: For each kind, whether it may be the final discard.
        need: Canastas the side must have when it goes out.

    Returns:
        The feasible additions by rank, or ``None`` if the hand cannot go out.
    """
    if hand[RED_THREE]:
        return None
    meld_rules = rules.melds
    choices: list[int] = [] if rules.going_out.final_discard_required else [-1]
    choices.extend(k for k in range(KIND_COUNT) if hand[k] and discardable[k])
    found: OutOptions = {}
    for discard in choices:
        counts = list(hand)
        if discard >= 0:
            counts[discard] -= 1
        if not _stranded(meld_rules, counts, melds):
            _feasible(meld_rules, counts, melds, need, found)
    return found or None


def _feasible(meld_rules: MeldRules, counts: list[int], melds: MeldCounts, need: int, found: OutOptions) -> None:
    """Add the feasible group additions of one discard choice to ``found`` (forward-backward pass)."""
    canasta_size = meld_rules.canasta_size
    groups = _groups(meld_rules, counts, melds)
    total_twos, total_jokers = counts[TWO], counts[JOKER]
    is_valid = meld_rules.is_valid
    layers: list[set[tuple[int, int, int]]] = [{(total_twos, total_jokers, 0)}]
    group_options = []
    for rank, n, t0, j0, changed in groups:
        options = []
        for dt in range(total_twos + 1):
            for dj in range(total_jokers + 1):
                size = n + t0 + dt + j0 + dj
                if size == 0:
                    options.append((dt, dj, 0))
                elif not (changed or dt or dj) or is_valid(rank, n, t0 + dt, j0 + dj):
                    options.append((dt, dj, 1 if size >= canasta_size else 0))
        if not options:
            return
        group_options.append(options)
        reached = {
            (tw - dt, jk - dj, min(c + canasta, need))
            for tw, jk, c in layers[-1]
            for dt, dj, canasta in options
            if dt <= tw and dj <= jk
        }
        if not reached:
            return
        layers.append(reached)
    alive = {st for st in layers[-1] if st[0] == 0 and st[1] == 0 and st[2] >= need}
    if not alive:
        return
    for index in range(len(groups) - 1, -1, -1):
        rank, n, t0, j0, _changed = groups[index]
        existing = melds.get(rank)
        base_n = existing[0] if existing is not None else 0
        before: set[tuple[int, int, int]] = set()
        feasible = found.setdefault(rank, [])
        for state in layers[index]:
            tw, jk, c = state
            for dt, dj, canasta in group_options[index]:
                if dt <= tw and dj <= jk and (tw - dt, jk - dj, min(c + canasta, need)) in alive:
                    before.add(state)
                    option = (n - base_n, dt, dj)
                    if option not in feasible:
                        feasible.append(option)
        alive = before


def _groups(meld_rules: MeldRules, counts: list[int], melds: MeldCounts) -> list[tuple[int, int, int, int, bool]]:
    """The groups of a going-out assignment: ``(rank, naturals, twos, jokers, changed)``."""
    groups: list[tuple[int, int, int, int, bool]] = []
    black = counts[BLACK_THREE]
    if black:
        groups.append((BLACK_THREE, black, 0, 0, True))
    for rank in NATURAL_INTS:
        n = counts[rank]
        existing = melds.get(rank)
        if existing is not None:
            groups.append((rank, existing[0] + n, existing[1], existing[2], n > 0))
        elif n:
            groups.append((rank, n, 0, 0, True))
    wild = melds.get(JOKER)
    if wild is not None:
        groups.append((JOKER, 0, wild[1], wild[2], False))
    elif meld_rules.wild_melds:
        groups.append((JOKER, 0, 0, 0, False))
    return groups


def _meld_out_small(
    rules: Rules, hand: Sequence[int], melds: MeldCounts, discardable: Sequence[bool], need: int, size: int
) -> bool:
    """`can_meld_out` for a hand of at most one card: no dynamic programme needed."""
    canasta_size = rules.melds.canasta_size
    canastas = sum(1 for n, t, j in melds.values() if n + t + j >= canasta_size)
    meld_allowed = not rules.going_out.final_discard_required
    if size == 0:
        return meld_allowed and canastas >= need  # the hand was melded out
    kind = next(k for k in range(KIND_COUNT) if hand[k])
    if discardable[kind] and canastas >= need:
        return True  # the final discard goes out
    if not meld_allowed:
        return False
    is_valid = rules.melds.is_valid
    for rank, (n, t, j) in melds.items():
        if kind == rank and rank >= 4:
            shape = (n + 1, t, j)
        elif kind == TWO:
            shape = (n, t + 1, j)
        elif kind == JOKER:
            shape = (n, t, j + 1)
        else:
            continue
        if is_valid(rank, *shape):
            grown = canastas + (1 if n + t + j + 1 == canasta_size else 0)
            if grown >= need:
                return True
    return False


def _stranded(meld_rules: MeldRules, counts: Sequence[int], melds: MeldCounts) -> list[int]:
    """The kinds whose cards can go nowhere: a cheap necessary test that skips most dynamic programmes."""
    min_naturals = meld_rules.min_naturals
    max_size = meld_rules.max_size
    problems = []
    for rank in NATURAL_INTS:
        n = counts[rank]
        if not n:
            continue
        existing = melds.get(rank)
        if existing is None:
            if n < min_naturals:
                problems.append(rank)  # a new meld needs more naturals than the hand holds
        elif max_size is not None and existing[0] + existing[1] + existing[2] + n > max_size:
            problems.append(rank)
    black = counts[BLACK_THREE]
    if black and not meld_rules.is_valid(BLACK_THREE, black, 0, 0):
        problems.append(BLACK_THREE)
    return problems


def _assign(
    meld_rules: MeldRules,
    counts: list[int],
    melds: MeldCounts,
    need: int,
    witness: dict[int, tuple[int, int, int]] | None = None,
) -> bool:
    canasta_size = meld_rules.canasta_size
    groups = _groups(meld_rules, counts, melds)
    total_twos, total_jokers = counts[TWO], counts[JOKER]
    State = tuple[int, int, int]
    states: set[State] | dict[State, tuple[State, int, int]] = {(total_twos, total_jokers, 0)}
    # With a witness wanted, each layer remembers how it reached a state.
    layers: list[dict[State, tuple[State, int, int]]] = []
    is_valid = meld_rules.is_valid
    for rank, n, t0, j0, changed in groups:
        # The valid wild additions to this group, computed once (not per state).
        options = []
        for dt in range(total_twos + 1):
            for dj in range(total_jokers + 1):
                size = n + t0 + dt + j0 + dj
                if size == 0:
                    options.append((dt, dj, 0))
                elif not (changed or dt or dj) or is_valid(rank, n, t0 + dt, j0 + dj):
                    options.append((dt, dj, 1 if size >= canasta_size else 0))
        if not options:
            return False
        if witness is None:
            new_states: set[State] = set()
            for twos, jokers, canastas in states:
                for dt, dj, canasta in options:
                    if dt <= twos and dj <= jokers:
                        new_states.add((twos - dt, jokers - dj, min(canastas + canasta, need)))
            states = new_states
        else:
            reached: dict[State, tuple[State, int, int]] = {}
            for state in states:
                twos, jokers, canastas = state
                for dt, dj, canasta in options:
                    if dt <= twos and dj <= jokers:
                        reached.setdefault((twos - dt, jokers - dj, min(canastas + canasta, need)), (state, dt, dj))
            layers.append(reached)
            states = reached
        if not states:
            return False
    final = next((st for st in states if st[0] == 0 and st[1] == 0 and st[2] >= need), None)
    if final is None:
        return False
    if witness is not None:
        witness.update(melds)
        state = final
        for (rank, n, t0, j0, _changed), layer in zip(reversed(groups), reversed(layers), strict=True):
            state, dt, dj = layer[state]
            if n + t0 + dt + j0 + dj:
                witness[rank] = (n, t0 + dt, j0 + dj)
    return True
