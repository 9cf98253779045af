"""What counts as an integer where the library takes one from a caller: one test for seeds, seats, scores and positions.

An ``int``, or anything whose type says it is an exact integer by ``__index__``
(numpy's integers); never ``bool`` (``True`` is not seat 1), a float, a string
or bytes. A hostile ``__index__`` that raises makes a value that is not an
integer, not a crash.
"""

from __future__ import annotations

import operator

__all__ = ["exact_int"]


def exact_int(value: object) -> int | None:
    """``value`` as a plain ``int`` if it is an integer, else ``None``.

    Args:
        value: Anything a caller gave.

    Returns:
        The integer (``numpy.int64(3)`` gives ``3``), or ``None`` for ``bool``,
        floats, strings, bytes, other objects and an ``__index__`` that fails.
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        return None
    try:
        return int(operator.index(value))  # type: ignore[arg-type]  # checked: its type has __index__
    except Exception:  # a broken __index__ is not an integer
        return None
