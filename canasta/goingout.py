"""Can a player still go out this turn? An exact feasibility check.

Used where the rules bind a player to go out (after the partner's "yes"), and
to refuse a meld that would leave a player with no legal way to end the turn.
The search works on card counts: every natural in hand must join its rank's
meld (existing or new), black threes meld as a group of 3 or 4, and the wild
cards are spread over the melds by a small dynamic programme.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from canasta.cards import NATURAL_KINDS, Kind
from canasta.rules import Rules

__all__ = ["can_meld_out"]

_TWO = int(Kind.TWO)
_JOKER = int(Kind.JOKER)
_B3 = int(Kind.BLACK_THREE)
_NATURAL_INTS = tuple(int(k) for k in NATURAL_KINDS)


def can_meld_out(
    rules: Rules,
    hand: Sequence[int],
    melds: Mapping[int, tuple[int, int, int]],
    *,
    minimum: int | None,
    discardable: Callable[[int], bool],
) -> bool:
    """Whether the hand can be melded out (all cards, or all but one discarded).

    Args:
        rules: The compiled rules.
        hand: Card counts by kind of the player's hand.
        melds: The side's melds as ``rank -> (naturals, twos, jokers)``.
        minimum: Count the cards melded from now on must reach (``None``:
            no minimum applies).
        discardable: Whether a kind may be the final discard.

    Returns:
        True if some assignment of the hand's cards goes out legally.
    """
    meld_rules = rules.melds
    need = rules.going_out.canastas_required
    choices: list[int | None] = [] if rules.going_out.final_discard_required else [None]
    choices.extend(k for k in range(len(hand)) if hand[k] and discardable(k))
    values = rules.card_values
    for discard in choices:
        counts = list(hand)
        if discard is not None:
            counts[discard] -= 1
        if counts[int(Kind.RED_THREE)]:
            continue
        if minimum is not None:
            melded_value = sum(values[k] * counts[k] for k in range(len(counts)))
            if melded_value < minimum:
                continue
        if _stranded(rules, counts, melds):
            continue
        if _assign(rules, counts, melds, need, meld_rules.canasta_size):
            return True
    return False


def _stranded(rules: Rules, counts: list[int], melds: Mapping[int, tuple[int, int, int]]) -> bool:
    """A cheap necessary test: some card can go nowhere (skips most dynamic programmes)."""
    meld_rules = rules.melds
    min_naturals = meld_rules.min_naturals
    max_size = meld_rules.max_size
    for rank in _NATURAL_INTS:
        n = counts[rank]
        if not n:
            continue
        existing = melds.get(rank)
        if existing is None:
            if n < min_naturals:
                return True  # a new meld needs more naturals than the hand holds
        elif max_size is not None and existing[0] + existing[1] + existing[2] + n > max_size:
            return True
    black = counts[_B3]
    return bool(black) and not meld_rules.is_valid(_B3, black, 0, 0)


def _assign(
    rules: Rules,
    counts: list[int],
    melds: Mapping[int, tuple[int, int, int]],
    need: int,
    canasta_size: int,
) -> bool:
    meld_rules = rules.melds
    groups: list[tuple[int, int, int, int, bool]] = []  # rank, naturals, twos, jokers, changed
    black = counts[_B3]
    if black:
        if not meld_rules.is_valid(_B3, black, 0, 0):
            return False
        groups.append((_B3, black, 0, 0, True))
    for kind in NATURAL_KINDS:
        r = int(kind)
        n = counts[r]
        existing = melds.get(r)
        if existing is not None:
            groups.append((r, existing[0] + n, existing[1], existing[2], n > 0))
        elif n:
            groups.append((r, n, 0, 0, True))
    wild = melds.get(_JOKER)
    if wild is not None:
        groups.append((_JOKER, 0, wild[1], wild[2], False))
    elif meld_rules.wild_melds:
        groups.append((_JOKER, 0, 0, 0, False))
    total_twos, total_jokers = counts[_TWO], counts[_JOKER]
    states = {(total_twos, total_jokers, 0)}
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
        new_states: set[tuple[int, int, int]] = set()
        for twos, jokers, canastas in states:
            for dt, dj, canasta in options:
                if dt <= twos and dj <= jokers:
                    new_states.add((twos - dt, jokers - dj, min(canastas + canasta, need)))
        states = new_states
        if not states:
            return False
    return any(t == 0 and j == 0 and c >= need for t, j, c in states)
