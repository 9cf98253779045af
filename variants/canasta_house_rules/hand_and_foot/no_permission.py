"""House rule ``no-permission`` for Hand and Foot (§8.13): going out needs no "yes".

A player in the foot may go out without asking (the other conditions still
hold), and may keep fewer than 2 cards in the foot wherever going out is then
possible. Asking stays possible, once a turn at any point before the discard,
and the answer binds as usual: after "yes" the player must go out this turn,
after "no" may not.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from canasta import GoingOutRules, Permission, hookimpl


@hookimpl(wrapper=True)
def canasta_going_out(players: int) -> Generator[None, GoingOutRules, GoingOutRules]:
    """Permission is optional, asked at any point of the turn, and binds."""
    going_out: GoingOutRules = yield
    return attrs.evolve(going_out, permission=Permission.ANY_TIME)
