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
        if _assign(rules, counts, melds, need, meld_rules.canasta_size):
            return True
    return False


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
    states = {(counts[_TWO], counts[_JOKER], 0)}
    for rank, n, t0, j0, changed in groups:
        new_states: set[tuple[int, int, int]] = set()
        for twos, jokers, canastas in states:
            for dt in range(twos + 1):
                for dj in range(jokers + 1):
                    t, j = t0 + dt, j0 + dj
                    size = n + t + j
                    if size == 0:
                        new_states.add((twos, jokers, canastas))
                        continue
                    if (changed or dt or dj) and not meld_rules.is_valid(rank, n, t, j):
                        continue
                    done = canastas + (1 if size >= canasta_size else 0)
                    new_states.add((twos - dt, jokers - dj, min(done, need)))
        states = new_states
        if not states:
            return False
    return any(t == 0 and j == 0 and c >= need for t, j, c in states)
