"""The meld phase's shortcuts decide each candidate meld as the oracle does (SPEC §0).

`canasta.legality` does not run the turn-completion search for every candidate
meld of a side that has not opened: a meld may be covered by an opening already
found, complete the opening on its own with cards to spare, replace one meld of
a found opening, or contain a meld the search refused (legal additions to a
meld are closed downwards). Here every allowed meld of such a meld phase,
reached by seeded random play, is applied to a copy and the oracle is asked
directly whether the turn can still be completed from there: the meld is legal
exactly when it answers yes.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta import HandState, Meld, Phase
from canasta.cards import Deck
from canasta.completion import can_complete
from canasta.legality import meld_counts, turn_facts

CASES = [
    ("classic", ()),
    ("three-player", ()),
    ("modern-american", ()),
    ("modern-american", ("american-discards",)),
    ("modern-american", ("rule-of-five",)),
    # (Rule-of-five learns only from the candidates that commute with every opening: `_MeldChecks._commutes`.)
    ("modern-american", ("rule-of-five", "dead-ranks")),
    ("modern-american-club", ()),
    ("modern-american", ("splash",)),
]


def _completable(state: HandState, seat: int) -> bool:
    """The oracle's answer for the seat's turn in this position, asked directly."""
    side = state.seating[seat]
    return can_complete(
        turn_facts(state, seat),
        state.counts[seat],
        meld_counts(state, side),
        opened=state.opened[side],
        provisional=state.provisional_count,
    )


@pytest.mark.parametrize(("variant", "house_rules"), CASES)
def test_unopened_melds_are_legal_exactly_when_the_oracle_completes_after_them(
    variant: str, house_rules: tuple[str, ...]
) -> None:
    rules = canasta.load_rules(variant, house_rules)
    deck = Deck(rules.deck)
    checked = refused = 0
    for hand_no in range(40):
        state = HandState.deal(rules, dealer=0, scores=[0] * rules.side_count, seed=hand_no, deck=deck)
        rng = random.Random(hand_no)
        while state.phase is not Phase.OVER:
            legal = state.legal_actions()
            seat = state.seat
            if state.phase is Phase.MELD and not state.opened[state.seating[seat]]:
                for action in state.allowed_actions():
                    if not isinstance(action, Meld):
                        continue
                    after = state.copy()
                    after._apply_unchecked(action)
                    # (A meld that goes out ends the hand: the turn is complete.)
                    completable = after.phase is Phase.OVER or _completable(after, seat)
                    assert (action in legal) == completable, (variant, house_rules, hand_no, action)
                    checked += 1
                    refused += not completable
            state.apply(legal[rng.randrange(len(legal))])
    # The hands reach such meld phases, with melds of both kinds.
    assert checked > 100
    assert 0 < refused < checked
