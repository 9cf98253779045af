"""Canasta in OpenSpiel: every variant and house rule as the game ``python_canasta``.

Install the optional dependencies with ``pip install 'canasta[openspiel]'``
(OpenSpiel's ``open_spiel``, and the dependencies of `canasta.rl`, whose
action ids and observation vectors it uses). Importing this package registers the
game, so that ``pyspiel.load_game("python_canasta(variant=cuban)")`` works.

- Parameters (`DEFAULT_PARAMETERS`): ``variant``, ``house_rules`` (names joined
  by ``+``) and ``whole_game`` (one hand, or a whole game to the target score).
- Sequential, imperfect information, explicit chance: the first `SEED_BYTES`
  nodes are chance nodes, each choosing one byte of a 64-bit seed (256
  outcomes of probability 1/256), and the canasta engine shuffles and deals
  from that seed exactly as ``canasta.Game(..., seed=seed)`` does (later hands
  of a whole game too). A state is then exactly a canasta game (seed and
  actions), so a state serializes as its JSON record (`canasta.records`),
  replayed with every action re-checked. The alternatives were worse:
  OpenSpiel cannot serialize a sampled-stochastic Python game (it needs the
  game's random state, which a Python game cannot give), and a card-by-card
  chance node per dealt and drawn card (some 10^170 deals) would need a new
  engine entry and a record format that stores deals instead of seeds, for no
  algorithm that is tractable at that size.
- Actions: the fixed ids of `canasta.rl.ActionSpace` (lossless: the player
  chooses 2s and jokers).
- Returns, in points: with two sides (every variant but three-player), a
  player's side's score minus the other side's, zero-sum; with three sides,
  the player's own score, general-sum. One hand: the hand's scores (rewards at
  its end only). Whole game: the game totals, with each hand's points as the
  reward of the action that ends it.

**Untrusted input: never** ``pyspiel.deserialize_game_and_state``. OpenSpiel
serializes a Python game's state by pickling it and deserializes it by
unpickling: a tampered or foreign string runs arbitrary code when it is read,
before this package can check anything (the record inside is re-checked only
if the pickle is honest). Deserialize only strings your own program wrote and
kept where nobody else could change them. A state that comes from elsewhere
must come as a canasta record, which is plain JSON read as untrusted input:
`CanastaGame.state_from_record` (or `canasta.records.loads_record` first),
with every field and action checked and the size and memory bounded (see
the guarantees page, "Untrusted records").
"""

from __future__ import annotations

from canasta.extras import require_extra

require_extra("openspiel", ("numpy", "gymnasium", "pettingzoo", "pyspiel"))

from canasta.openspiel.bots import LibraryBot  # noqa: E402
from canasta.openspiel.config import (  # noqa: E402
    DEFAULT_PARAMETERS,
    HOUSE_RULE_SEPARATOR,
    GameConfig,
    ParameterError,
    hand_score_bound,
)
from canasta.openspiel.game import (  # noqa: E402
    GAME_NAME,
    GAME_TYPE,
    WHOLE_GAME_LENGTH,
    CanastaGame,
    hand_length_bound,
    register,
)
from canasta.openspiel.state import BYTE_OUTCOMES, SEED_BYTES, CanastaState, ChanceError  # noqa: E402

register()

__all__ = [
    "BYTE_OUTCOMES",
    "DEFAULT_PARAMETERS",
    "GAME_NAME",
    "GAME_TYPE",
    "HOUSE_RULE_SEPARATOR",
    "SEED_BYTES",
    "WHOLE_GAME_LENGTH",
    "CanastaGame",
    "CanastaState",
    "ChanceError",
    "GameConfig",
    "LibraryBot",
    "ParameterError",
    "hand_length_bound",
    "hand_score_bound",
    "register",
]
