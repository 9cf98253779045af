"""House rule ``eights-nines-five`` for Hand and Foot (§8.13): 8 and 9 count 5 instead of 10.

The value counts everywhere a card value counts: in melds, in the count of an
initial meld, and against the side for cards left in a hand or a foot still
down.
"""

from __future__ import annotations

from collections.abc import Generator

from canasta import Kind, hookimpl

#: What an 8 or a 9 counts.
VALUE = 5


@hookimpl(wrapper=True)
def canasta_card_values() -> Generator[None, tuple[int, ...], tuple[int, ...]]:
    """8 and 9 count 5."""
    values: tuple[int, ...] = yield
    return tuple(VALUE if kind in (Kind.EIGHT, Kind.NINE) else value for kind, value in enumerate(values))
