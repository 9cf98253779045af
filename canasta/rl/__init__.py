"""Reinforcement-learning interface: fixed action ids, legal masks, array observations, a PettingZoo env.

Install the optional dependencies with ``pip install 'canasta[rl]'`` (numpy,
gymnasium, pettingzoo). ``import canasta`` never needs them; importing
``canasta.rl`` without them raises an `ImportError` that names the extra.

- `ActionSpace`: every action of a compiled rule set as a fixed integer id,
  and the boolean legal-action mask of any state (id layout version
  `ACTION_SPACE_VERSION`; `SPECIAL_HANDS_ACTION_SPACE_VERSION` for rule sets
  with special hands; `KEPT_THREE_ACTION_SPACE_VERSION` for rule sets that
  keep a three in hand; `WILD_PAIR_ACTION_SPACE_VERSION` for rule sets with
  wild-pair pile takes; `BOOKS_ACTION_SPACE_VERSION` for rule sets that add to books;
  `PICK_UP_ACTION_SPACE_VERSION` for rule sets where a packet is picked up at will once earned
  by a canasta; `BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION` for both;
  `SEVERAL_MELDS_ACTION_SPACE_VERSION` for rule sets with several melds of a kind or wild cards
  onto books, whose melds name their meld or book by number).
- `SequenceActionSpace`: the ids of the sequence games' actions (Samba, Bolivia,
  Brazilian canasta: groups named by suit, sequences, melds named by number), computed
  from their fields (layout version `SEQUENCES_ACTION_SPACE_VERSION`); ``ActionSpace(rules)``
  returns one for rule sets with meld types.
- `ObservationEncoder`: what one seat may see, as a flat ``float32`` vector
  (layout version `OBSERVATION_VERSION`; `PACKETS_OBSERVATION_VERSION` for
  rule sets that deal packets after the hand; `EARNED_PACKETS_OBSERVATION_VERSION`
  for those whose packets are earned by a canasta; `SEVERAL_MELDS_OBSERVATION_VERSION` for
  rule sets with several melds of a kind or wild cards onto books: melds and books by kind and
  number; `SEQUENCES_OBSERVATION_VERSION` for rule sets with meld types: cards by rank and suit,
  melds by number).
- `env` / `raw_env` / `CanastaEnv`: the PettingZoo AEC environment.
- `VectorEnv`: N games stepped at once, arrays in and out (Gymnasium's vector API),
  and `random_legal_ids`, a random agent for a batch of masks.
"""

from __future__ import annotations

from canasta.extras import require_extra

require_extra("rl", ("numpy", "gymnasium", "pettingzoo"))

from canasta.rl.actions import (  # noqa: E402
    ACTION_SPACE_VERSION,
    BOOKS_ACTION_SPACE_VERSION,
    BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION,
    KEPT_THREE_ACTION_SPACE_VERSION,
    PICK_UP_ACTION_SPACE_VERSION,
    SEQUENCES_ACTION_SPACE_VERSION,
    SEVERAL_MELDS_ACTION_SPACE_VERSION,
    SPECIAL_HANDS_ACTION_SPACE_VERSION,
    WILD_PAIR_ACTION_SPACE_VERSION,
    ActionSpace,
    ActionSpaceError,
)
from canasta.rl.env import CanastaEnv, env, raw_env  # noqa: E402
from canasta.rl.observations import (  # noqa: E402
    EARNED_PACKETS_OBSERVATION_VERSION,
    OBSERVATION_VERSION,
    PACKETS_OBSERVATION_VERSION,
    SEQUENCES_OBSERVATION_VERSION,
    SEVERAL_MELDS_OBSERVATION_VERSION,
    ObservationEncoder,
)
from canasta.rl.sequences import SequenceActionSpace  # noqa: E402
from canasta.rl.vector import VectorEnv, random_legal_ids  # noqa: E402

__all__ = [
    "ACTION_SPACE_VERSION",
    "BOOKS_ACTION_SPACE_VERSION",
    "BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION",
    "EARNED_PACKETS_OBSERVATION_VERSION",
    "KEPT_THREE_ACTION_SPACE_VERSION",
    "OBSERVATION_VERSION",
    "PACKETS_OBSERVATION_VERSION",
    "PICK_UP_ACTION_SPACE_VERSION",
    "SEQUENCES_ACTION_SPACE_VERSION",
    "SEQUENCES_OBSERVATION_VERSION",
    "SEVERAL_MELDS_ACTION_SPACE_VERSION",
    "SEVERAL_MELDS_OBSERVATION_VERSION",
    "SPECIAL_HANDS_ACTION_SPACE_VERSION",
    "WILD_PAIR_ACTION_SPACE_VERSION",
    "ActionSpace",
    "ActionSpaceError",
    "CanastaEnv",
    "ObservationEncoder",
    "SequenceActionSpace",
    "VectorEnv",
    "env",
    "random_legal_ids",
    "raw_env",
]
