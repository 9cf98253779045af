"""What a game's seed may be: one rule for `Game`, records, the RL environments, the CLI and the web.

A seed is an integer whose absolute value is below ``2**64`` (at most 20
digits, so every record the library writes it also reads back). Python's
``int`` and anything that is an integer by ``__index__`` (``numpy.int64``,
say) are accepted; ``bool``, floats, strings, bytes and ``None`` are not
integers here. ``seed=None`` where a seed is optional means *a fresh random
game*: `fresh_seed` draws one, and the game keeps the seed it drew
(``game.seed``), so its record replays it.
"""

from __future__ import annotations

import secrets

from canasta.errors import CanastaError, short_repr
from canasta.integers import exact_int

__all__ = ["SEED_LIMIT", "SeedError", "check_seed", "fresh_seed", "resolve_seed"]

#: Seeds lie strictly between ``-SEED_LIMIT`` and ``SEED_LIMIT`` (a 64-bit seed, 20 digits at most).
SEED_LIMIT = 2**64


class SeedError(CanastaError, ValueError):
    """A seed that is not an integer, or out of range (see `canasta.seeds`).

    Attributes:
        value: A short description of the value given (its ``repr``, cut short).
    """

    def __init__(self, message: str, value: str = "") -> None:
        super().__init__(message)
        self.value = value



def check_seed(value: object, *, name: str = "seed") -> int:
    """The seed as a plain ``int``, or a `SeedError` saying what a seed must be.

    Args:
        value: The seed given.
        name: What the value is called in the message (``"seed"``, ``"--seed"``).

    Returns:
        The seed as an ``int`` (``numpy.int64(3)`` becomes ``3``).

    Raises:
        SeedError: If the value is not an integer (``bool`` is not) or its
            absolute value is ``2**64`` or more.
    """
    described = short_repr(value, 40)
    seed = exact_int(value)
    if seed is None:
        raise SeedError(f"{name} must be an integer, got {described}", described)
    if not -SEED_LIMIT < seed < SEED_LIMIT:
        raise SeedError(f"{name} must lie strictly between -2**64 and 2**64, got {described}", described)
    return seed


def fresh_seed() -> int:
    """A fresh random seed, ``0 <= seed < 2**64`` (from the operating system's randomness).

    Returns:
        The seed.
    """
    return secrets.randbits(64)


def resolve_seed(value: object, *, name: str = "seed") -> int:
    """`check_seed` of a given seed, or `fresh_seed` for ``None``.

    Args:
        value: The seed given, or ``None`` for a fresh random one.
        name: What the value is called in the message.

    Returns:
        The seed to play.

    Raises:
        SeedError: As `check_seed`.
    """
    return fresh_seed() if value is None else check_seed(value, name=name)
