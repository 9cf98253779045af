"""The error every invariant check raises."""

from __future__ import annotations

__all__ = ["InvariantError"]


class InvariantError(AssertionError):
    """An invariant of the engine or of a variant does not hold.

    It subclasses `AssertionError` so that pytest and hypothesis report it as
    a test failure (and hypothesis shrinks towards it).
    """
