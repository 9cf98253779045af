"""Small helpers for the sentences people read: counts with the right plural."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """A count with its noun in the right number: ``1 card``, ``2 cards``, ``0 cards``.

    Args:
        count: The number.
        noun: The singular noun, e.g. ``"card"`` or ``"wild card"``.
        plural_form: The plural if it is not the noun plus ``s``.

    Returns:
        The count and the noun, e.g. ``"1 natural"``.
    """
    return f"{count} {noun if count == 1 else (plural_form or noun + 's')}"
