"""Checks of determinization: a sampled state must agree with everything its seat knows.

`check_sample` is what the property tests and `benchmarks/determinize_check.py`
run on `canasta.sample_state`; it works on any variant and needs no hypothesis.
"""

from __future__ import annotations

from canasta.cards import BLACK_THREE, RED_THREE
from canasta.determinize import kept_three_holders
from canasta.hand import HandState
from canasta.observation import Observation
from canasta.testing.errors import InvariantError
from canasta.testing.invariants import check_conservation

__all__ = ["check_sample", "inconsistencies"]


def inconsistencies(state: HandState, seat: int, observation: Observation, sample: HandState) -> list[str]:
    """Every way ``sample`` contradicts what ``seat`` knows of ``state``.

    Args:
        state: The true hand.
        seat: The observing seat.
        observation: The seat's observation of ``state``.
        sample: A state dealt from ``observation`` (`canasta.sample_state`).

    Returns:
        One sentence per contradiction (empty when consistent).
    """
    problems: list[str] = []
    if sample is state:
        return ["the sample is the true state itself, not a new one"]
    try:
        check_conservation(sample)
    except InvariantError as exc:
        problems.append(f"cards are not conserved: {exc}")
    if sample.observation(seat) != observation:
        problems.append("the seat's observation of the sample differs from its observation")
    players = state.rules.players
    if sorted(c for held in sample.hands[seat] for c in held) != sorted(c for held in state.hands[seat] for c in held):
        problems.append("the seat's own hand changed")
    if list(sample.sizes) != list(state.sizes) or len(sample.stock) != len(state.stock):
        problems.append("hand or stock sizes changed")
    bonus_black = state.rules.threes.black_threes_are_bonus
    # Keeping a three: a hand that may hold a kept three holds at most one.
    holders = kept_three_holders(state, len(state.stock))
    for other in range(players):
        held = {c for cards in sample.hands[other] for c in cards}
        if not set(state.known[other]) <= held:
            problems.append(f"seat {other} lacks cards known to be in its hand")
        if other == seat:
            continue
        bonus = {RED_THREE} if state.rules.threes.red_threes_are_bonus else set()
        if bonus_black:
            bonus.add(BLACK_THREE)
        truly_held = any(state.kinds[c] in bonus for cards in state.hands[other] for c in cards)
        threes = sum(1 for c in held if sample.kinds[c] in bonus)
        if not truly_held and threes and not (other in holders and threes == 1):
            # (Only a hand-built position puts a bonus three in a hand the rules do not let keep one.)
            problems.append(f"seat {other} holds a bonus three, which the rules lay out at once")
    for name in ("pile", "threes", "set_aside", "pending_pile", "seat", "phase", "turn", "opened", "seating"):
        if getattr(sample, name) != getattr(state, name):
            problems.append(f"the public field {name} changed")
    if not sample.is_over and not sample.legal_actions():
        problems.append(f"seat {sample.seat} has no legal action in the sample")
    return problems


def check_sample(state: HandState, seat: int, observation: Observation, sample: HandState) -> None:
    """Raise if ``sample`` contradicts what ``seat`` knows of ``state`` (see `inconsistencies`).

    Args:
        state: The true hand.
        seat: The observing seat.
        observation: The seat's observation of ``state``.
        sample: A state dealt from ``observation``.

    Raises:
        InvariantError: Naming every contradiction found.
    """
    problems = inconsistencies(state, seat, observation, sample)
    if problems:
        raise InvariantError(f"the sample for seat {seat} is inconsistent: " + "; ".join(problems))
