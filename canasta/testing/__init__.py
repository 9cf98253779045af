"""Property-testing toolkit: test your variant, house rule or bot the way canasta tests its own.

- `canasta.testing.invariants`: the invariants every variant keeps, as plain
  functions (`check_all` and friends); no hypothesis needed.
- `canasta.testing.strategies`: hypothesis strategies for cards, melds, hands,
  rule sets, reachable states and legal or illegal actions.
- `canasta.testing.conformance`: a stateful conformance suite
  (`conformance_machine`, `run_conformance`).

The last two need hypothesis: ``pip install 'canasta[testing]'``. Importing
`canasta` itself never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.testing.errors import InvariantError
from canasta.testing.invariants import (
    check_all,
    check_conservation,
    check_copy_independence,
    check_game,
    check_hidden_information,
    check_legal_actions,
    check_observations,
    check_record_round_trip,
    check_refused,
    check_score,
    snapshot,
)
from canasta.testing.play import random_play

if TYPE_CHECKING:
    from canasta.testing.conformance import CanastaConformance, conformance_machine, run_conformance

__all__ = [
    "CanastaConformance",
    "InvariantError",
    "check_all",
    "check_conservation",
    "check_copy_independence",
    "check_game",
    "check_hidden_information",
    "check_legal_actions",
    "check_observations",
    "check_record_round_trip",
    "check_refused",
    "check_score",
    "conformance_machine",
    "random_play",
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
