"""Property-testing toolkit: test your variant, house rule or bot the way canasta tests its own.

- `canasta.testing.invariants`: the invariants every variant keeps, as plain
  functions (`check_all` and friends); no hypothesis needed.
- `canasta.testing.strategies`: hypothesis strategies for cards, melds, hands,
  rule sets, reachable states and legal or illegal actions.
- `canasta.testing.reference`: a brute-force reference for what "legal" means (what
  "legal" means), to prove the legal actions exact in small positions
  (`check_exact_legality`, `reference_legal_actions`); no hypothesis needed.
- `canasta.testing.conformance`: a stateful conformance suite
  (`conformance_machine`, `run_conformance`).

The strategies and the conformance suite need hypothesis:
``pip install 'canasta[testing]'``. Importing `canasta` itself never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.testing.errors import InvariantError
from canasta.testing.invariants import (
    check_all,
    check_conservation,
    check_copy_independence,
    check_earned_packets,
    check_game,
    check_hidden_information,
    check_legal_actions,
    check_observations,
    check_record_round_trip,
    check_refused,
    check_score,
    check_threes_in_hands,
    snapshot,
)
from canasta.testing.play import random_play
from canasta.testing.reference import (
    ReferenceBudgetExceeded,
    check_exact_legality,
    check_no_dead_end,
    reference_legal_actions,
)

if TYPE_CHECKING:
    from canasta.testing.conformance import CanastaConformance, conformance_machine, run_conformance

__all__ = [
    "CanastaConformance",
    "InvariantError",
    "ReferenceBudgetExceeded",
    "check_all",
    "check_conservation",
    "check_copy_independence",
    "check_earned_packets",
    "check_exact_legality",
    "check_game",
    "check_hidden_information",
    "check_legal_actions",
    "check_no_dead_end",
    "check_observations",
    "check_record_round_trip",
    "check_refused",
    "check_score",
    "check_threes_in_hands",
    "conformance_machine",
    "random_play",
    "reference_legal_actions",
    "run_conformance",
    "snapshot",
]

_LAZY = {"CanastaConformance", "conformance_machine", "run_conformance"}


def __getattr__(name: str) -> object:
    # The state machine needs hypothesis; load it only when asked for, so the
    # invariant checks work without the extra.
    if name in _LAZY:
        from canasta.testing import conformance

        return getattr(conformance, name)
    raise AttributeError(f"module 'canasta.testing' has no attribute {name!r}")
