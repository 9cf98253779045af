"""Checking converters for the fields of the public action values: exact integers, no look-alikes.

``2.0 == 2`` and ``True == 1``: a float or a bool in an action's field would pass the
engine's membership test (an action is legal when it equals a listed one) and then
reach the engine, which indexes with it. So the fields are checked when an action is
made: integer types that say they are exact integers (numpy's, via ``__index__``) are
converted to ``int``, anything else is refused with ``TypeError``, and a value out of
its range with ``ValueError``.
"""

from __future__ import annotations

import operator
from typing import SupportsIndex

from canasta.cards import Suit

__all__ = ["exact_int", "non_negative", "suit_of"]


def exact_int(value: object, what: str) -> int:
    """An exact integer: an ``int``, or a value whose ``__index__`` makes one (never a ``bool`` or a float).

    Args:
        value: The value given.
        what: What it is, for the error (``"a card count"``).

    Returns:
        The ``int``.

    Raises:
        TypeError: If it is not an exact integer.
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        raise TypeError(f"{what} must be an int, got {value!r} ({type(value).__name__})")
    return int(operator.index(value))


def non_negative(value: object, what: str) -> int:
    """An exact integer of 0 or more (`exact_int`).

    Args:
        value: The value given.
        what: What it is, for the error.

    Returns:
        The ``int``.

    Raises:
        TypeError: If it is not an exact integer.
        ValueError: If it is negative.
    """
    result = exact_int(value, what)
    if result < 0:
        raise ValueError(f"{what} must not be negative, got {result}")
    return result


def suit_of(value: object) -> Suit:
    """A suit (`canasta.Suit`, or its number 0 to 3; never a ``bool`` or a float).

    Args:
        value: The value given.

    Returns:
        The suit.

    Raises:
        TypeError: If it is not a suit or an exact integer.
        ValueError: If no suit has that number.
    """
    if type(value) is Suit:
        return value
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        kind = type(value).__name__
        raise TypeError(f"a suit must be a canasta.Suit (or its number, 0 to 3), got {value!r} ({kind})")
    number = operator.index(value)
    try:
        return Suit(number)
    except ValueError:
        raise ValueError(f"no suit has the number {number} (0 to 3)") from None
