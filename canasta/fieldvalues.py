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
from enum import Enum
from typing import SupportsIndex, TypeVar

from canasta.cards import Suit

_Member = TypeVar("_Member", bound=Enum)

__all__ = ["enum_member", "exact_int", "non_negative", "suit_of"]


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


def enum_member(value: object, cls: type[_Member], noun: str) -> _Member:
    """A member of an int-valued enum (`canasta.Kind`, `canasta.Suit`), or the exact integer naming one.

    Args:
        value: The value given.
        cls: The enum.
        noun: What a member is, for the error (``"suit"``, ``"card kind"``).

    Returns:
        The member.

    Raises:
        TypeError: If it is neither a member nor an exact integer (a ``bool`` is not one).
        ValueError: If no member has that number.
    """
    if type(value) is cls:
        return value
    last = len(cls) - 1
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        got = f"{value!r} ({type(value).__name__})"
        raise TypeError(f"a {noun} must be a canasta.{cls.__name__} (or its number, 0 to {last}), got {got}")
    number = operator.index(value)
    try:
        return cls(number)
    except ValueError:
        raise ValueError(f"no {noun} has the number {number} (0 to {last})") from None


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
    return enum_member(value, Suit, "suit")
