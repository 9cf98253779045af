"""What a seat number may be: one rule for `Game(first_dealer=...)`, `Game.observation` and the hand's.

A seat is an exact integer from 0 to ``players - 1``. Anything that is an
integer by ``__index__`` (``numpy.int64``, say) is accepted; ``bool`` is
refused (``True`` is not seat 1), and so are floats, strings, ``None`` and
out-of-range numbers (``-1`` is not "the last seat"). A refusal is a
`SeatError`, which is a `canasta.CanastaError` and a ``ValueError``.
"""

from __future__ import annotations

from canasta.errors import CanastaError, short_repr
from canasta.integers import exact_int

__all__ = ["SeatError", "check_seat"]


class SeatError(CanastaError, ValueError):
    """A seat that is not an integer from 0 to the number of players less one.

    Attributes:
        value: A short description of the value given (its ``repr``, cut short).
    """

    def __init__(self, message: str, value: str = "") -> None:
        super().__init__(message)
        self.value = value



def check_seat(value: object, players: int, *, name: str = "seat") -> int:
    """The seat as a plain ``int``, or a `SeatError` saying what a seat must be.

    Args:
        value: The seat given.
        players: The number of players (seats are ``0`` to ``players - 1``).
        name: What the value is called in the message (``"seat"``, ``"first_dealer"``).

    Returns:
        The seat as an ``int`` (``numpy.int64(2)`` becomes ``2``).

    Raises:
        SeatError: If the value is not an integer (``bool`` is not) or is not
            from 0 to ``players - 1``.
    """
    if type(value) is int and 0 <= value < players:  # the common case, at once
        return value
    described = short_repr(value, 40)
    seat = exact_int(value)
    if seat is None:
        raise SeatError(f"{name} must be an integer seat from 0 to {players - 1}, got {described}", described)
    if not 0 <= seat < players:
        raise SeatError(f"{name} must be a seat from 0 to {players - 1}, got {described}", described)
    return seat
