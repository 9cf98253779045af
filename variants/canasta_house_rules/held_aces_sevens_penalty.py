"""House rule ``held-aces-sevens-penalty`` for modern American canasta (club form).

At the end of a hand, each player holding 3 or more natural aces costs the
side 1500, and so does each player holding 3 or more natural sevens, besides
the cards' own values; once per player and rank, however the hand ended and
whatever the melds of that rank.
"""

from __future__ import annotations

from collections.abc import Generator

import canasta
from canasta import Kind
from canasta_house_rules._club import canasta_going_out as canasta_going_out  # the club rules' going out

#: Natural aces (or sevens) in one player's hand at the end of a hand that draw the penalty.
HELD_AT_LEAST = 3
#: What each such player costs the side, per rank.
HELD_PENALTY = 1500

_Penalties = tuple[tuple[Kind, int, int], ...]


@canasta.hookimpl(wrapper=True)
def canasta_held_card_penalties() -> Generator[None, _Penalties, _Penalties]:
    """1500 for each player holding 3 or more aces, and again for 3 or more sevens."""
    below: _Penalties = yield
    return (*below, (Kind.ACE, HELD_AT_LEAST, HELD_PENALTY), (Kind.SEVEN, HELD_AT_LEAST, HELD_PENALTY))
