"""Can an opened side's player meld out? One dynamic programme (the rule book's "Going out").

Going out melds every card of the hand, or every card but one which is the
final discard, with the canastas the variant needs. On card counts the
question is an assignment: every natural in hand joins its rank's meld
(existing or new), black threes meld as one group of 3 or 4 (where the variant
melds them), and the wild cards are spread over the groups. A small dynamic
programme runs over the groups with the state *(2s left, jokers left,
canastas so far, discarded yet)*, so the choice of the final discard is part of
the same pass (a natural of some group, a 2, a joker, or none where the variant
allows going out without a discard).

The same pass run backwards gives, for every group, the additions that some
complete assignment makes (`going_out_options`): a meld of the acting player
starts a going-out line exactly when it adds no more than one of them, which
decides every candidate meld of a turn at once. `canasta.completion` uses both.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Final

from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, NATURAL_INTS, RED_THREE, SECOND_MELD, TWO
from canasta.rules import CanastaClass, GoingOutRules, MeldRules, Rules, canasta_class_index

__all__ = ["MeldCounts", "OutOptions", "can_meld_out", "going_out_options", "wild_meld_open"]

#: A side's melds as ``rank -> (naturals, twos, jokers)``; a side's second meld of
#: a rank (cutthroat) is under ``rank + SECOND_MELD``.
MeldCounts = Mapping[int, tuple[int, int, int]]

#: For each group of a going-out assignment (by rank), the feasible additions
#: from the hand ``(naturals, twos, jokers)``: each is what some complete
#: assignment adds to that group.
OutOptions = dict[int, list[tuple[int, int, int]]]

# A group: rank, naturals in hand, the meld's naturals, twos and jokers already on the
# table; for a rank the side holds twice (cutthroat), the second meld's three counts follow.
_Group = tuple[int, ...]
# An option: twos added, jokers added, 1 if a natural of the group is the final discard, canasta made.
_Option = tuple[int, int, int, int]
# A state: twos left, jokers left, canastas (capped at the need), 1 once the final discard is chosen.
# A state of the programme, packed into one int (no tuple to build and hash per step):
# ``((twos * 256 + jokers) * 32 + canastas) * 2 + discarded``: the 2s and jokers still to
# place, the canastas made (capped at ``need``) and whether the final discard is taken.
_State = int
_WILD_LIMIT: Final = 256  # (2s or jokers of a hand the packing holds)
_CANASTA_LIMIT: Final = 32  # (canastas required it holds)
# The private functions' argument types: concrete, so that the compiled engine indexes
# them natively (the public functions accept any sequence and mapping, and convert once).
_Hand = list[int]
_Melds = dict[int, tuple[int, int, int]]
_Discardable = tuple[bool, ...]


def can_meld_out(
    rules: Rules,
    hand: Sequence[int],
    melds: MeldCounts,
    discardable: Sequence[bool],
    *,
    need: int,
    witness: dict[int, tuple[int, int, int]] | None = None,
    books: Sequence[int] | None = None,
    onto_books: Collection[int] = (),
    book_room: int = 0,
) -> bool:
    """Whether the hand can be melded out (all cards, or all but one discarded) by an opened side.

    Args:
        rules: The compiled rules.
        hand: Card counts by kind of the player's hand.
        melds: The side's melds.
        discardable: For each kind, whether it may be the final discard.
        need: Canastas the side must have when it goes out.
        witness: Filled on success with the side's melds after one such
            assignment (``rank -> (naturals, twos, jokers)``, including melds
            the hand does not touch); left empty where canastas are counted by
            class (``books`` given), whose assignments may lay several melds of a rank.
        books: Where the rules count canastas by class (books that make room,
            `canasta.MeldRules.book_makes_room`, or a quota by class,
            `canasta.GoingOutRules.canastas_by_class`): the side's books set
            apart so far, by class (natural, mixed, wild, sequence); the search
            decides the rules' whole quota, and ``need`` is not read. ``None``:
            canastas of any class are counted against ``need``.
        onto_books: With ``books``: the natural ranks whose cards may also be
            added to a book of the side (`canasta.MeldRules.add_to_books`): any
            number of them may go there, making no book and changing none.
        book_room: With ``books``, under `canasta.MeldRules.wilds_onto_books`: the wild
            cards the side's dirty books can still take (each up to ``max_wilds``);
            the dirty books the search makes can take more, up to the same limit.

    Returns:
        True if some assignment of the hand's cards goes out legally.
    """
    # The private functions' concrete types (no copy of the engine's own, and no call: this runs per candidate).
    counts = hand if isinstance(hand, list) else list(hand)
    meld_map = melds if isinstance(melds, dict) else dict(melds)
    may_discard = discardable if isinstance(discardable, tuple) else tuple(discardable)
    if books is not None:
        return _meld_out_by_class(rules, counts, meld_map, may_discard, tuple(books), onto_books, False, book_room)
    if JOKER in meld_map and rules.melds.wild_meld_first and wild_meld_open(rules, meld_map):
        # Rule-of-five: while the wild meld is incomplete no wild card joins a natural meld. A
        # line either puts none there (mode 1), or completes the wild meld first (mode 2).
        return _meld_out(rules, counts, meld_map, may_discard, need, witness, 1) or _meld_out(
            rules, counts, meld_map, may_discard, need, witness, 2
        )
    return _meld_out(rules, counts, meld_map, may_discard, need, witness, 0)


def wild_meld_open(rules: Rules, melds: MeldCounts) -> bool:
    """Whether the side holds an incomplete wild meld (rule-of-five: no wild card joins a natural meld then).

    Args:
        rules: The compiled rules.
        melds: The side's melds.

    Returns:
        True if its wild meld is on the table with fewer cards than a canasta.
    """
    wild = melds.get(JOKER)
    return wild is not None and wild[0] + wild[1] + wild[2] < rules.melds.canasta_size


def _meld_out(
    rules: Rules,
    hand: _Hand,
    melds: _Melds,
    discardable: _Discardable,
    need: int,
    witness: dict[int, tuple[int, int, int]] | None,
    mode: int,
) -> bool:
    """`can_meld_out` in one mode: 0 free, 1 no wild card added to a natural meld, 2 the wild meld completed."""
    if witness is not None and max(melds, default=0) >= SECOND_MELD:
        witness = None  # (a witness names one meld per rank; none is given for a rank held twice)
    if witness is None and sum(hand) <= 1:
        return _meld_out_small(rules, hand, melds, discardable, need, mode)
    plan = _plan(rules, hand, melds, discardable, need, mode)
    if plan is None:
        return False
    groups, options, starts = plan
    final_discard = rules.going_out.final_discard_required
    if witness is None:
        states = set(starts)
        for group_options in options:
            states = _step(states, group_options, need)
            if not states:
                return False
        return any(_accepted(final_discard, state, need) for state in states)
    # With a witness wanted, each layer remembers how it reached a state.
    parents: list[dict[_State, tuple[_State, _Option]]] = []
    current: Iterable[_State] = starts
    for group_options in options:
        reached: dict[_State, tuple[_State, _Option]] = {}
        for state in current:
            d = state & 1
            c = (state >> 1) & 31
            jk = (state >> 6) & 255
            tw = state >> 14
            for option in group_options:
                dt, dj, dd, made = option
                if dt <= tw and dj <= jk and not (d and dd):
                    reached.setdefault(_pack(tw - dt, jk - dj, min(c + made, need), d | dd), (state, option))
        if not reached:
            return False
        parents.append(reached)
        current = reached
    final = next((state for state in current if _accepted(final_discard, state, need)), None)
    if final is None:
        return False
    witness.update(melds)
    state = final
    for index in range(len(groups) - 1, -1, -1):
        rank, hand_naturals, n0, t0, j0 = groups[index]
        state, (dt, dj, dd, _made) = parents[index][state]
        naturals = n0 + hand_naturals - dd
        if naturals + t0 + dt + j0 + dj:
            witness[rank] = (naturals, t0 + dt, j0 + dj)
    return True


def going_out_options(
    rules: Rules,
    hand: Sequence[int],
    melds: MeldCounts,
    discardable: Sequence[bool],
    *,
    need: int,
    books: Sequence[int] | None = None,
) -> OutOptions | None:
    """Every way a meld can start going out from here, in one pass.

    A meld of ``(n, t, j)`` cards onto a rank's group starts a going-out line
    exactly when some complete assignment of the hand adds at least that much
    to the group (the rest of the assignment follows it), so one forward and
    one backward pass answer every candidate meld of a turn.

    Args:
        rules: The compiled rules.
        hand: Card counts by kind of the player's hand.
        melds: The side's melds.
        discardable: For each kind, whether it may be the final discard.
        need: Canastas the side must have when it goes out.
        books: As for `can_meld_out`; only ``None`` is accepted here.

    Returns:
        The feasible additions by rank, or ``None`` if the hand cannot go out.

    Raises:
        ValueError: If the side holds a rank twice (cutthroat), or canastas are
            counted by class (``books`` given: a going-out line may lay several
            melds of a rank): the additions name one meld per rank, so decide
            such candidates with `can_meld_out`.
    """
    if books is not None:
        raise ValueError("going_out_options counts canastas of any class; use can_meld_out per candidate")
    if max(melds, default=0) >= SECOND_MELD:
        raise ValueError("going_out_options needs one meld per rank; use can_meld_out per candidate")
    hand = hand if isinstance(hand, list) else list(hand)  # (the private functions' concrete types)
    melds = melds if isinstance(melds, dict) else dict(melds)
    discardable = discardable if isinstance(discardable, tuple) else tuple(discardable)
    # The draw that keeps or releases a binding "yes" and the meld phase right
    # after it ask about the same cards: remember the last few answers.
    key = (id(rules), tuple(hand), tuple(sorted(melds.items())), need, tuple(discardable))
    if key in _MEMO:
        return _MEMO[key]
    if len(_MEMO) >= 64:
        _MEMO.clear()
        _KEEP_RULES.clear()  # (the rules kept for the memo's keys: each new entry keeps its own)
    _KEEP_RULES[id(rules)] = rules  # the id stays unique while it is part of a key
    if JOKER in melds and rules.melds.wild_meld_first and wild_meld_open(rules, melds):
        first = _options(rules, hand, melds, discardable, need, 1)
        result = _merged(first, _options(rules, hand, melds, discardable, need, 2))
    else:
        result = _options(rules, hand, melds, discardable, need, 0)
    _MEMO[key] = result
    return result


def _merged(first: OutOptions | None, second: OutOptions | None) -> OutOptions | None:
    """The options of either of two sets of going-out lines (rule-of-five's two modes)."""
    if first is None or second is None:
        return second if first is None else first
    merged: OutOptions = {rank: list(options) for rank, options in first.items()}
    for rank, options in second.items():
        feasible = merged.setdefault(rank, [])
        feasible.extend(o for o in options if o not in feasible)
    return merged


_MEMO: Final[dict[tuple[object, ...], OutOptions | None]] = {}
_NO_DISCARD: Final[tuple[bool, ...]] = (False,) * KIND_COUNT  # (a red three held is the discard: `_red_plan`)
_NONE_BLOCKED: Final[list[int]] = []  # (never changed: the melds keeping no side from going out, by default)
_KEEP_RULES: Final[dict[int, Rules]] = {}


def _options(
    rules: Rules, hand: _Hand, melds: _Melds, discardable: _Discardable, need: int, mode: int
) -> OutOptions | None:
    plan = _plan(rules, hand, melds, discardable, need, mode)
    if plan is None:
        return None
    groups, options, starts = plan
    layers = _forward(options, starts, need)
    if layers is None:
        return None
    final_discard = rules.going_out.final_discard_required
    alive = {state for state in layers[-1] if _accepted(final_discard, state, need)}
    if not alive:
        return None
    found: OutOptions = {}
    for index in range(len(groups) - 1, -1, -1):
        rank, hand_naturals = groups[index][0], groups[index][1]
        before: set[_State] = set()
        feasible = found.setdefault(rank, [])
        for state in layers[index]:
            d = state & 1
            c = (state >> 1) & 31
            jk = (state >> 6) & 255
            tw = state >> 14
            for dt, dj, dd, made in options[index]:
                if dt <= tw and dj <= jk and not (d and dd):
                    canastas = c + made
                    if canastas > need:
                        canastas = need
                    if (((tw - dt) * 256 + jk - dj) * 32 + canastas) * 2 + (d | dd) in alive:  # `_pack`
                        before.add(state)
                        option = (hand_naturals - dd, dt, dj)
                        if option not in feasible:
                            feasible.append(option)
        alive = before
    return found


def _pack(twos: int, jokers: int, canastas: int, discarded: int) -> _State:
    """A state as one int (see `_State`)."""
    return ((twos * 256 + jokers) * 32 + canastas) * 2 + discarded


def _accepted(final_discard: bool, state: _State, need: int) -> bool:
    """Every wild card placed, the canastas made, and the final discard where one is required."""
    return state >> 6 == 0 and (state >> 1) & 31 >= need and (state & 1 == 1 or not final_discard)


def _step(states: set[_State], group_options: list[_Option], need: int) -> set[_State]:
    """The states reached from ``states`` by one group's options."""
    reached: set[_State] = set()
    for state in states:
        d = state & 1
        c = (state >> 1) & 31
        jk = (state >> 6) & 255
        tw = state >> 14
        for dt, dj, dd, made in group_options:
            if dt <= tw and dj <= jk and not (d and dd):
                canastas = c + made
                if canastas > need:
                    canastas = need
                reached.add((((tw - dt) * 256 + jk - dj) * 32 + canastas) * 2 + (d | dd))  # `_pack`, inlined
    return reached


def _forward(options: list[list[_Option]], starts: list[_State], need: int) -> list[set[_State]] | None:
    layers = [set(starts)]
    for group_options in options:
        reached = _step(layers[-1], group_options, need)
        if not reached:
            return None
        layers.append(reached)
    return layers


def _plan(
    rules: Rules, hand: _Hand, melds: _Melds, discardable: _Discardable, need: int, mode: int = 0
) -> tuple[list[_Group], list[list[_Option]], list[_State]] | None:
    """The groups, each group's options and the start states, or ``None`` after a cheap necessary test.

    ``mode`` (rule-of-five): 1, no wild card is added to a natural meld; 2, the
    wild meld ends complete; 0, neither restriction.
    """
    if hand[RED_THREE]:
        return _red_plan(rules, hand, melds, discardable, need, mode)
    meld_rules = rules.melds
    if not _canastas_possible(meld_rules, hand, melds, need):
        return None
    problems = _stranded(meld_rules, hand, melds)
    if len(problems) > 1:
        return None  # a final discard removes one card: it cannot rescue two groups
    # Only discarding a card of the group that cannot be melded can help.
    may_discard = [bool(hand[k]) and discardable[k] and (not problems or k == problems[0]) for k in range(KIND_COUNT)]
    if problems and not may_discard[problems[0]]:
        return None
    twos, jokers = hand[TWO], hand[JOKER]
    if twos >= _WILD_LIMIT or jokers >= _WILD_LIMIT or need >= _CANASTA_LIMIT:
        raise ValueError(
            f"the going-out search holds fewer than {_WILD_LIMIT} 2s or jokers and {_CANASTA_LIMIT} canastas required"
        )
    # The final discard is a 2 or a joker (taken off the wild budget at the start),
    # a natural of some group (an option of that group), or none.
    starts: list[_State] = [_pack(twos, jokers, 0, 0)]
    if may_discard[TWO]:
        starts.append(_pack(twos - 1, jokers, 0, 1))
    if may_discard[JOKER]:
        starts.append(_pack(twos, jokers - 1, 0, 1))
    groups = _groups(meld_rules, hand, melds)
    options: list[list[_Option]] = []
    going_out = rules.going_out
    blocking = going_out if going_out.not_with_incomplete else None
    cache_key = (id(meld_rules), id(blocking), mode)
    entry = _GROUP_OPTIONS.get(cache_key)
    if entry is None:
        entry = _GROUP_OPTIONS[cache_key] = ({}, meld_rules, blocking)
    cache = entry[0]
    wild_key = (twos * _WILD_LIMIT + jokers) * 2  # (the wild cards' and the discard's part of a group's key)
    for group in groups:
        rank = group[0]
        discard = rank != JOKER and may_discard[rank]
        by_wilds = cache.get(group)
        if by_wilds is None:
            if len(cache) > 20_000:
                cache.clear()  # bound the memory of long runs
            by_wilds = cache[group] = {}
        key = wild_key + 1 if discard else wild_key
        group_options = by_wilds.get(key)
        if group_options is None:
            group_options = by_wilds[key] = _group_options(meld_rules, group, twos, jokers, discard, blocking)
            if mode:
                group_options = by_wilds[key] = _restricted(meld_rules, group, group_options, mode)
        if not group_options:
            return None
        options.append(group_options)
    return groups, options, starts


#: Each group's options depend only on the group, the wild cards held and
#: whether one of its naturals may be the discard: cached per meld rules and
#: going-out rules where melds can keep a side from going out (both kept alive
#: beside the cache so that the ids stay unique).
_GROUP_OPTIONS: Final[dict[
    tuple[int, int, int], tuple[dict[_Group, dict[int, list[_Option]]], MeldRules, GoingOutRules | None]
]] = {}


def _restricted(meld_rules: MeldRules, group: _Group, options: list[_Option], mode: int) -> list[_Option]:
    """Rule-of-five's modes: 1 drops a natural group's options adding a wild card; 2 keeps the wild meld's complete."""
    rank = group[0]
    if mode == 1 and rank != JOKER:
        return [o for o in options if not (o[0] or o[1])]
    if mode == 2 and rank == JOKER:
        t0, j0 = group[3], group[4]
        return [o for o in options if t0 + o[0] + j0 + o[1] >= meld_rules.canasta_size]
    return options


def _group_options(
    meld_rules: MeldRules, group: _Group, twos: int, jokers: int, discard: bool, blocking: GoingOutRules | None
) -> list[_Option]:
    """The options of one group; with ``blocking``, none that leaves a meld keeping the side from going out."""
    if len(group) > 5:
        return _pair_options(meld_rules, group, twos, jokers, discard, blocking)
    rank, hand_naturals, n0, t0, j0 = group
    canasta_size = meld_rules.canasta_size
    is_valid = meld_rules.is_valid
    group_options: list[_Option] = []
    for dd in (0, 1) if discard else (0,):
        naturals = n0 + hand_naturals - dd
        changed = hand_naturals - dd > 0
        for dt in range(twos + 1):
            for dj in range(jokers + 1):
                size = naturals + t0 + dt + j0 + dj
                if size == 0:
                    group_options.append((dt, dj, dd, 0))
                elif not (changed or dt or dj) or is_valid(rank, naturals, t0 + dt, j0 + dj):
                    if blocking is not None and blocking.blocked_by(rank, naturals, t0 + dt, j0 + dj, canasta_size):
                        continue  # the club rules: no going out with this meld incomplete
                    group_options.append((dt, dj, dd, 1 if size >= canasta_size else 0))
    return group_options


def _pair_options(
    meld_rules: MeldRules, group: _Group, twos: int, jokers: int, discard: bool, blocking: GoingOutRules | None
) -> list[_Option]:
    """Options of a rank the side holds as two melds (cutthroat): the hand's naturals and wild cards split.

    Each meld obeys the meld rules on its own (a meld left unchanged stays as
    it is); the canastas made are those of both.
    """
    rank, hand_naturals, n0, t0, j0, n1, t1, j1 = group
    canasta_size = meld_rules.canasta_size
    is_valid = meld_rules.is_valid

    def one(n: int, t: int, j: int, added: int) -> dict[tuple[int, int], int]:
        # (twos, jokers) added -> canasta made (1 beats 0: the programme caps at the need).
        found: dict[tuple[int, int], int] = {}
        for dt in range(twos + 1):
            for dj in range(jokers + 1):
                if (added or dt or dj) and not is_valid(rank, n + added, t + dt, j + dj):
                    continue
                if blocking is not None and blocking.blocked_by(rank, n + added, t + dt, j + dj, canasta_size):
                    continue  # the club rules: no going out with this meld incomplete
                found[(dt, dj)] = 1 if n + added + t + dt + j + dj >= canasta_size else 0
        return found

    options: set[_Option] = set()
    for dd in (0, 1) if discard else (0,):
        rest = hand_naturals - dd
        if rest < 0:
            continue
        for a in range(rest + 1):
            first, second = one(n0, t0, j0, a), one(n1, t1, j1, rest - a)
            for (dt1, dj1), made1 in first.items():
                for (dt2, dj2), made2 in second.items():
                    if dt1 + dt2 <= twos and dj1 + dj2 <= jokers:
                        options.add((dt1 + dt2, dj1 + dj2, dd, made1 + made2))
    return sorted(options)


def _groups(meld_rules: MeldRules, hand: _Hand, melds: _Melds) -> list[_Group]:
    """The groups of an assignment: black threes, each natural rank in hand or on the table, the wild meld."""
    groups: list[_Group] = []
    if hand[BLACK_THREE]:
        groups.append((BLACK_THREE, hand[BLACK_THREE], 0, 0, 0))
    for rank in NATURAL_INTS:
        existing = melds.get(rank)
        second = melds.get(rank + SECOND_MELD) if existing is not None else None
        if second is not None:
            assert existing is not None
            groups.append((rank, hand[rank], *existing, *second))
        elif existing is not None:
            groups.append((rank, hand[rank], existing[0], existing[1], existing[2]))
        elif hand[rank]:
            groups.append((rank, hand[rank], 0, 0, 0))
    wild = melds.get(JOKER)
    if wild is not None:
        groups.append((JOKER, 0, 0, wild[1], wild[2]))
    elif meld_rules.wild_melds:
        groups.append((JOKER, 0, 0, 0, 0))
    return groups


def _canastas_possible(meld_rules: MeldRules, hand: _Hand, melds: _Melds, need: int) -> bool:
    """A cheap necessary test: enough melds can still reach canasta size."""
    canasta_size = meld_rules.canasta_size
    wilds = hand[TWO] + hand[JOKER]
    possible = 0
    for key, (n, t, j) in melds.items():
        cards = n + t + j
        rank = key & 15  # a second meld's key names its rank too
        if cards >= canasta_size or cards + (hand[rank] if rank >= 4 else 0) + wilds >= canasta_size:
            possible += 1
    if possible >= need:
        return True
    for rank in NATURAL_INTS:
        held = hand[rank]
        if held >= 2 and held + wilds >= canasta_size and rank not in melds:  # (the look-up last: it costs most)
            possible += 1
    if meld_rules.wild_melds and JOKER not in melds and wilds >= canasta_size:
        possible += 1
    return possible >= need


def _stranded(meld_rules: MeldRules, hand: _Hand, melds: _Melds) -> list[int]:
    """The kinds whose cards can go nowhere (a cheap necessary test that skips most programmes)."""
    min_naturals = meld_rules.min_naturals
    max_size = meld_rules.max_size
    problems = []
    for rank in NATURAL_INTS:
        n = hand[rank]
        if not n:
            continue
        existing = melds.get(rank)
        if existing is None:
            if n < min_naturals:
                problems.append(rank)  # a new meld needs more naturals than the hand holds
        elif max_size is not None and existing[0] + existing[1] + existing[2] + n > max_size:
            problems.append(rank)
    black = hand[BLACK_THREE]
    if black and not meld_rules.is_valid(BLACK_THREE, black, 0, 0):
        problems.append(BLACK_THREE)
    return problems


def _red_plan(
    rules: Rules, hand: _Hand, melds: _Melds, discardable: _Discardable, need: int, mode: int
) -> tuple[list[_Group], list[list[_Option]], list[_State]] | None:
    """`_plan` for a hand holding a red three.

    A kept one never leaves the hand; one held as an ordinary card (``ThreeRules.red_threes_are_bonus``
    False) is never melded, so it is the final discard and the rest is melded out (two never are).
    """
    if hand[RED_THREE] > 1 or not discardable[RED_THREE]:
        return None
    rest = list(hand)
    rest[RED_THREE] = 0
    plan = _plan(rules, rest, melds, _NO_DISCARD, need, mode)
    if plan is None:
        return None
    groups, options, _ = plan
    return groups, options, [_pack(hand[TWO], hand[JOKER], 0, 1)]  # (the discard made: the red three)


def _meld_out_small(
    rules: Rules, hand: _Hand, melds: _Melds, discardable: _Discardable, need: int, mode: int = 0
) -> bool:
    """`can_meld_out` for a hand of at most one card: no dynamic programme needed."""
    canasta_size = rules.melds.canasta_size
    canastas = sum(1 for n, t, j in melds.values() if n + t + j >= canasta_size)
    meld_allowed = not rules.going_out.final_discard_required
    kind = next((k for k in range(KIND_COUNT) if hand[k]), -1)
    going_out = rules.going_out
    blocked = (
        [k for k, (n, t, j) in melds.items() if going_out.blocked_by(k & 15, n, t, j, canasta_size)]
        if going_out.not_with_incomplete
        else _NONE_BLOCKED
    )
    if kind < 0:
        return meld_allowed and canastas >= need and not blocked  # the hand was melded out
    if kind == RED_THREE and not discardable[kind]:
        return False  # a kept red three (red threes held as ordinary cards go out as the final discard)
    if discardable[kind] and canastas >= need and not blocked:
        return True  # the final discard goes out
    if len(blocked) > 1:
        return False  # one card completes at most one of the melds that keep the side from going out
    if not meld_allowed:
        return False
    is_valid = rules.melds.is_valid
    for key, (n, t, j) in melds.items():
        rank = key & 15  # a second meld's key names its rank too
        if kind == rank and rank >= 4:
            shape = (n + 1, t, j)
        elif kind == TWO:
            shape = (n, t + 1, j)
        elif kind == JOKER:
            shape = (n, t, j + 1)
        else:
            continue
        if mode and kind in (TWO, JOKER):
            if rank != JOKER and mode == 1:
                continue  # rule-of-five: no wild card into a natural meld while the wild meld is incomplete
            if mode == 2 and (rank != JOKER or t + j + 1 < canasta_size):
                continue  # a single card cannot complete the wild meld and go elsewhere too
        if is_valid(rank, *shape) and canastas + (n + t + j + 1 == canasta_size) >= need:
            if blocked and (blocked[0] != key or going_out.blocked_by(rank, *shape, canasta_size)):
                continue  # a meld that keeps the side from going out stays incomplete
            return True
    return False


# --- canastas counted by class (books that make room, a quota by class) -------------------------------------


class _Quota:
    """The going-out quota of one rules object as a small state space (see `_meld_out_by_class`).

    A state counts the canastas made so far per quota digit, each capped at its need: the
    digits are "any class" (`canasta.GoingOutRules.canastas_required`) and each class's count
    (`canasta.GoingOutRules.canastas_by_class`). States are numbered in mixed radix, so that
    ``full`` (every digit at its need) is the largest; ``add`` combines two states.
    """

    __slots__ = ("add", "caps", "full", "options", "rules", "size")

    def __init__(self, rules: Rules) -> None:
        going_out = rules.going_out
        by_class = [0] * _CLASS_COUNT
        for cls, count in going_out.canastas_by_class:
            by_class[_CLASS_ORDER.index(cls)] = count
        self.rules = rules  # (kept alive: the cache is keyed by its id)
        self.caps: list[int] = [going_out.canastas_required, *by_class]
        size = 1
        for cap in self.caps:
            size *= cap + 1
        self.size = size
        self.full = size - 1
        digits = [self._digits(code) for code in range(size)]
        add = []
        for first in digits:
            for second in digits:
                add.append(self._code([min(a + b, cap) for a, b, cap in zip(first, second, self.caps, strict=True)]))
        self.add: list[int] = add
        #: Each group's options under these rules (`_class_options`), by the group and the wild cards held.
        self.options: dict[tuple[_Group, int, int, bool, bool], list[_Option]] = {}

    def _digits(self, code: int) -> list[int]:
        digits = []
        for cap in self.caps:
            digits.append(code % (cap + 1))
            code //= cap + 1
        return digits

    def _code(self, digits: Sequence[int]) -> int:
        code = 0
        scale = 1
        for digit, cap in zip(digits, self.caps, strict=True):
            code += min(digit, cap) * scale
            scale *= cap + 1
        return code

    def of_books(self, books: Sequence[int]) -> int:
        """The state of canastas counted by class (natural, mixed, wild, sequence, special; missing counts: 0)."""
        return self._code([sum(books), *books, *(0,) * (_CLASS_COUNT - len(books))])


_CLASS_ORDER: Final = tuple(CanastaClass)
_CLASS_COUNT: Final = len(_CLASS_ORDER)
_QUOTAS: Final[dict[int, _Quota]] = {}
# A group's placements under `_fill`: (twos added, jokers added, canastas made by class).
_Placement = tuple[int, int, tuple[int, ...]]
_FILLS: Final[dict[tuple[object, ...], frozenset[_Placement]]] = {}


def _quota(rules: Rules) -> _Quota:
    found = _QUOTAS.get(id(rules))
    if found is None or found.rules is not rules:
        if len(_QUOTAS) > 256:
            _QUOTAS.clear()
        found = _QUOTAS[id(rules)] = _Quota(rules)
    return found


def _meld_out_by_class(
    rules: Rules,
    hand: _Hand,
    melds: _Melds,
    discardable: _Discardable,
    books: tuple[int, ...],
    onto_books: Collection[int] = (),
    discarded: bool = False,
    book_room: int = 0,
) -> bool:
    """`can_meld_out` where canastas count by class: the programme's state counts them per quota digit.

    Each group (a rank, the wild meld, the black threes) is placed by `_fill`: where a
    canasta is a book that makes room, its rank's cards may fill the open meld to a book
    and go on in new melds, each a book but the last (one incomplete meld of a rank at a
    time; under several-melds, any number of them, each incomplete or a book). The books already set
    apart start the count. ``discarded``: the final discard is made (a red three held as an ordinary
    card, set aside by the caller). ``book_room``: wild cards the side's dirty books can still take
    (wilds-onto-books), a last group of the programme.
    """
    if hand[RED_THREE]:
        # A kept red three never leaves the hand; one held as an ordinary card (red_threes_are_bonus
        # False) is never melded: it is the final discard, and the rest is melded out (two never are).
        if discarded or hand[RED_THREE] > 1 or not discardable[RED_THREE]:
            return False
        kept = list(hand)
        kept[RED_THREE] = 0
        return _meld_out_by_class(rules, kept, melds, _NO_DISCARD, books, onto_books, True, book_room)
    quota = _quota(rules)
    twos, jokers = hand[TWO], hand[JOKER]
    if twos >= _WILD_LIMIT or jokers >= _WILD_LIMIT:
        raise ValueError(f"the going-out search holds fewer than {_WILD_LIMIT} 2s or jokers")
    size = quota.size
    start = quota.of_books(books)
    states: set[int] = {((twos * _WILD_LIMIT + jokers) * size + start) * 2 + (1 if discarded else 0)}
    if discardable[TWO] and twos:
        states.add((((twos - 1) * _WILD_LIMIT + jokers) * size + start) * 2 + 1)
    if discardable[JOKER] and jokers:
        states.add(((twos * _WILD_LIMIT + jokers - 1) * size + start) * 2 + 1)
    add = quota.add
    several = rules.melds.several_melds
    groups = _several_groups(rules.melds, hand, melds) if several else _groups(rules.melds, hand, melds)
    for group in groups:
        if len(group) > 5 and not several:
            raise ValueError("canastas counted by class need one meld per rank (no partnerships formed during a hand)")
        rank = group[0]
        discard = rank != JOKER and discardable[rank]
        onto = bool(onto_books) and rank in onto_books  # add-to-books: naturals of the rank may go onto a book
        options = _class_options(rules, quota, group, twos, jokers, discard, onto)
        reached: set[int] = set()
        for state in states:
            d = state & 1
            rest = state >> 1
            c = rest % size
            wilds = rest // size
            jk = wilds % _WILD_LIMIT
            tw = wilds // _WILD_LIMIT
            for dt, dj, dd, made in options:
                if dt <= tw and dj <= jk and not (d and dd):
                    reached.add((((tw - dt) * _WILD_LIMIT + jk - dj) * size + add[c * size + made]) * 2 + (d | dd))
        if not reached:
            return False
        states = reached
    if book_room:
        # wilds-onto-books: wild cards left may go onto the side's dirty books, as many as they can take.
        reached = set()
        for state in states:
            rest = state >> 1
            wilds = rest // size
            jk = wilds % _WILD_LIMIT
            tw = wilds // _WILD_LIMIT
            reached.add(state)
            if tw + jk <= book_room:
                reached.add(((rest % size) << 1) | (state & 1))  # (no wild card left)
        states = reached
    final_discard = rules.going_out.final_discard_required
    done = quota.full * 2  # (no wild card left, every digit at its need)
    return done + 1 in states or (not final_discard and done in states)


def _class_options(
    rules: Rules, quota: _Quota, group: _Group, twos: int, jokers: int, discard: bool, onto_book: bool = False
) -> list[_Option]:
    """A group's options ``(twos, jokers, 1 if a natural of it is the final discard, quota state made)``.

    With ``onto_book`` (add-to-books) any number of the group's naturals may go onto a book of its rank instead;
    under add-to-books they may also go onto a book of the rank this line makes (`canasta.MeldRules.add_to_books`).
    """
    key = (group, twos, jokers, discard, onto_book)
    cache = quota.options
    found = cache.get(key)
    if found is not None:
        return found
    if len(cache) > 20_000:
        cache.clear()  # bound the memory of long runs
    if len(_FILLS) > 20_000:
        _FILLS.clear()
    rank, hand_naturals = group[0], group[1]
    bases = tuple(group[i : i + 3] for i in range(2, len(group), 3))
    n0, t0, j0 = (group[2], group[3], group[4]) if len(group) >= 5 else (0, 0, 0)
    going_out = rules.going_out
    blocking = going_out if going_out.not_with_incomplete else None
    options: set[_Option] = set()
    grows = onto_book or (rules.melds.add_to_books and rank != JOKER)
    several = rules.melds.several_melds
    for dd in (0, 1) if discard and hand_naturals else (0,):
        for onto in range(hand_naturals - dd + 1) if grows else (0,):
            placed = hand_naturals - dd - onto
            if several and rank != BLACK_THREE:
                fills = _fill_several(rules.melds, blocking, rank, placed, bases, twos, jokers)
            else:
                fills = _fill(rules.melds, blocking, rank, placed, (n0, t0, j0), twos, jokers)
            for dt, dj, made in fills:
                if onto and not onto_book and not any(made):
                    continue  # no book of the rank to add them to: neither one before, nor one this line makes
                options.add((dt, dj, dd, quota.of_books(made)))
    found = cache[key] = sorted(options)
    return found


def _fill(
    meld_rules: MeldRules,
    blocking: GoingOutRules | None,
    rank: int,
    naturals: int,
    base: tuple[int, int, int],
    twos: int,
    jokers: int,
) -> frozenset[_Placement]:
    """Every way to place ``naturals`` of a rank and some of the wild cards on its open meld ``base`` and after.

    The open meld takes cards (or none); where canastas are books that make room and it
    reaches canasta size, it is set apart and the rest goes on in new melds of the rank
    (a new wild meld for the wild group). Each meld obeys the meld rules; only the last may
    be incomplete. Returns ``(twos, jokers, canastas made by class)`` for each way.
    """
    key = (meld_rules, blocking, rank, naturals, base, twos, jokers)  # (the rules themselves: their hash is cached)
    found = _FILLS.get(key)
    if found is not None:
        return found
    n0, t0, j0 = base
    size_now = n0 + t0 + j0
    book = meld_rules.canasta_size
    makes_room = meld_rules.book_makes_room
    is_valid = meld_rules.is_valid
    special = meld_rules.special_bits
    none = (0,) * _CLASS_COUNT
    out: set[_Placement] = set()
    for a in range(naturals + 1) if makes_room else (naturals,):
        rest = naturals - a
        for dt in range(twos + 1):
            for dj in range(jokers + 1):
                n, t, j = n0 + a, t0 + dt, j0 + dj
                size = n + t + j
                if size == 0:
                    if rest == 0:
                        out.add((0, 0, none))
                    continue
                if (a or dt or dj) and not is_valid(rank, n, t, j):
                    continue
                if size < book or not makes_room:
                    if rest:
                        continue  # the rest of the rank would need a second meld beside an incomplete one
                    if blocking is not None and blocking.blocked_by(rank, n, t, j, book):
                        continue  # the club rules: no going out with this meld incomplete
                    made = list(none)
                    if size >= book:
                        made[canasta_class_index(rank, n, t, j, special)] += 1
                    out.add((dt, dj, tuple(made)))
                    continue
                # A book: set apart, and the rank starts again with a new meld (or none).
                cls = canasta_class_index(rank, n, t, j, special)
                for dt2, dj2, made2 in _fill(meld_rules, blocking, rank, rest, (0, 0, 0), twos - dt, jokers - dj):
                    made = list(made2)
                    made[cls] += 1
                    out.add((dt + dt2, dj + dj2, tuple(made)))
    if size_now == 0 and naturals == 0:
        out.add((0, 0, none))
    found = _FILLS[key] = frozenset(out)
    return found


# --- several melds of a kind (`canasta.MeldRules.several_melds`) ----------------------------------------


def _several_groups(meld_rules: MeldRules, hand: _Hand, melds: _Melds) -> list[_Group]:
    """`_groups` under several-melds: each group holds every open meld of its kind (sorted), three counts each.

    A group is ``(kind, naturals in hand, n, t, j, n, t, j, ...)``; a kind the side has no open meld
    of is ``(kind, naturals in hand)``. The wild group is there where wild melds are allowed or open.
    """
    by_kind: dict[int, list[tuple[int, int, int]]] = {}
    for key, counts in melds.items():
        by_kind.setdefault(key & 15, []).append(counts)
    groups: list[_Group] = []
    if hand[BLACK_THREE]:
        groups.append((BLACK_THREE, hand[BLACK_THREE], 0, 0, 0))
    for rank in NATURAL_INTS:
        bases = by_kind.get(rank)
        if bases is None and not hand[rank]:
            continue
        group = [rank, hand[rank]]
        for base in sorted(bases or ()):
            group.extend(base)
        groups.append(tuple(group))
    wild = by_kind.get(JOKER)
    if wild is not None or meld_rules.wild_melds:
        group = [JOKER, 0]
        for base in sorted(wild or ()):
            group.extend(base)
        groups.append(tuple(group))
    return groups


# One meld's ways under `_fill_several`: (naturals added, twos added, jokers added, class index made or -1).
_MeldWay = tuple[int, int, int, int]


def _fill_several(
    meld_rules: MeldRules,
    blocking: GoingOutRules | None,
    rank: int,
    naturals: int,
    bases: tuple[tuple[int, ...], ...],
    twos: int,
    jokers: int,
) -> frozenset[_Placement]:
    """`_fill` under several-melds: the kind's open melds ``bases`` each take cards or none, then new melds.

    Every meld obeys the meld rules on its own; any of them may stay incomplete (the side may hold
    several incomplete melds of a kind), and one that reaches canasta size is a book (a dirty one
    may then take more wild cards up to ``max_wilds`` under wilds-onto-books). Every one of the
    ``naturals`` is placed. Returns ``(twos, jokers, canastas made by class)`` for each way.
    """
    key = (meld_rules, blocking, rank, naturals, bases, twos, jokers, True)
    found = _FILLS.get(key)
    if found is not None:
        return found
    out: set[_Placement] = set()
    if not bases and naturals == 0:
        out.add((0, 0, (0,) * _CLASS_COUNT))  # no (further) new meld
    if bases or naturals or rank == JOKER:
        # The first open meld, or else a new one; then the rest (after a new meld: more new melds, or none).
        first = bases[0] if bases else None
        for a, dt, dj, cls in _meld_ways(meld_rules, blocking, rank, naturals, first, twos, jokers):
            rest = _fill_several(meld_rules, blocking, rank, naturals - a, bases[1:], twos - dt, jokers - dj)
            for dt2, dj2, made in rest:
                if cls >= 0:
                    counted = list(made)
                    counted[cls] += 1
                    made = tuple(counted)
                out.add((dt + dt2, dj + dj2, made))
    found = _FILLS[key] = frozenset(out)
    return found


def _meld_ways(
    meld_rules: MeldRules,
    blocking: GoingOutRules | None,
    rank: int,
    naturals: int,
    base: tuple[int, ...] | None,
    twos: int,
    jokers: int,
) -> list[_MeldWay]:
    """The ways one meld of a kind (``base``, or a new one: ``None``) may end a going-out line.

    It takes some of the naturals and wild cards (an open one may take none; a new one takes at
    least a card) and stays valid; at canasta size it is a book of its class, and a dirty book
    may take further wild cards under wilds-onto-books.
    """
    n0, t0, j0 = (0, 0, 0) if base is None else (base[0], base[1], base[2])
    book = meld_rules.canasta_size
    is_valid = meld_rules.is_valid
    special = meld_rules.special_bits
    max_w = meld_rules.max_wilds
    onto_books = meld_rules.wilds_onto_books and rank != JOKER
    # Each way as (naturals, twos, jokers added, the meld's naturals, its wild cards, class made or -1).
    found: list[tuple[int, int, int, int, int, int]] = []
    if base is not None:
        size = n0 + t0 + j0
        if not (blocking is not None and size < book and blocking.blocked_by(rank, n0, t0, j0, book)):
            found.append((0, 0, 0, n0, t0 + j0, canasta_class_index(rank, n0, t0, j0, special) if size >= book else -1))
    top_t, top_j = twos, jokers
    if max_w is not None and rank != JOKER:
        top_t, top_j = min(twos, max_w), min(jokers, max_w)
    for a in range((naturals if rank != JOKER else 0) + 1):
        for dt in range(top_t + 1):
            for dj in range(top_j + 1):
                if not (a or dt or dj):
                    continue
                n, t, j = n0 + a, t0 + dt, j0 + dj
                if not is_valid(rank, n, t, j):
                    continue
                size = n + t + j
                if size < book and blocking is not None and blocking.blocked_by(rank, n, t, j, book):
                    continue  # the club rules: no going out with this meld incomplete
                found.append((a, dt, dj, n, t + j, canasta_class_index(rank, n, t, j, special) if size >= book else -1))
    ways: list[_MeldWay] = []
    for a, dt, dj, n, wilds, cls in found:
        ways.append((a, dt, dj, cls))
        if cls >= 0 and onto_books and wilds:
            # A dirty book (made by this line, or by the meld just judged) takes more wild cards, up to the limit.
            for et in range(twos - dt + 1):
                for ej in range(jokers - dj + 1):
                    if (et or ej) and meld_rules.book_takes(n, wilds + et + ej):
                        ways.append((a, dt + et, dj + ej, cls))
    return ways
