"""Special hands: 14-card hands a rule set lets a side declare instead of playing the hand out.

A rule set lists its special hands through the hook ``canasta_special_hands``
(`canasta.Rules.special_hands`; none by default). Each is rule data: its value,
whether it wins the game, and the test of a hand's card counts that decides
whether the hand forms it. Club modern American's tables are in
`canasta_house_rules.special_hands`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import field, frozen

__all__ = ["HAND_SIZE", "SpecialHand", "best_of"]

#: Cards in a special hand.
HAND_SIZE = 14


@frozen
class SpecialHand:
    """One special hand of a rule set's table.

    Attributes:
        id: Its stable name, e.g. ``"pairs"``.
        title: Its name for people.
        value: What the declaring side scores (it replaces the side's hand score).
        composition: The 14 cards, in words.
        wins_game: Whether declaring it wins the game (the Dream Hands).
        matches: Whether a hand's card counts (15, indexed by `canasta.Kind`;
            the engine passes a tuple) form it; a picklable callable (a
            module-level function or a frozen value with ``__call__``), so
            rules travel to other processes.
        screen: A necessary condition of ``matches``, or ``None``: counts it
            refuses form no hand it screens, so `best_of` does not ask their
            ``matches``. The hands of a table may share one, asked then once
            per hand of cards (most hands of cards form no special hand, and
            one cheap test refuses them); picklable, like ``matches``.
    """

    id: str
    title: str
    value: int
    composition: str
    wins_game: bool = False
    matches: Callable[[Sequence[int]], bool] = field(kw_only=True, repr=False)
    screen: Callable[[Sequence[int]], bool] | None = field(default=None, kw_only=True, repr=False)


def best_of(hands: Sequence[SpecialHand], counts: Sequence[int]) -> SpecialHand | None:
    """The special hand that 14 cards score as: the highest value they form (the rule book's choice).

    Args:
        hands: A rule set's table.
        counts: The cards' counts, 15 indexed by `canasta.Kind`.

    Returns:
        The hand (the first in table order among equal values), or ``None`` if
        they form none or are not exactly 14 cards.
    """
    if sum(counts) != HAND_SIZE:
        return None
    key = tuple(counts)  # one hashable value for every test (a table may cache on it)
    shared = _SHARED.get(id(hands))
    if shared is None or shared[0] is not hands:
        shared = _shared_screen(hands)
    if shared[1] is not None and not shared[1](key):
        return None  # (the screen every hand of the table shares refused these cards: most hands of cards)
    best: SpecialHand | None = None
    asked: Callable[[Sequence[int]], bool] | None = None  # the last screen asked, and its answer
    passed = True
    for hand in hands:
        if best is not None and hand.value <= best.value:
            continue
        screen = hand.screen
        if screen is not None:
            if screen is not asked:
                asked = screen
                passed = screen(key)
            if not passed:
                continue  # (a necessary condition of its `matches` refused these cards)
        if hand.matches(key):
            best = hand
    return best


# By id of a table (kept alive beside it, so the id stays its own): the screen all its hands share, or None.
_SHARED: dict[int, tuple[Sequence[SpecialHand], Callable[[Sequence[int]], bool] | None]] = {}


def _shared_screen(
    hands: Sequence[SpecialHand],
) -> tuple[Sequence[SpecialHand], Callable[[Sequence[int]], bool] | None]:
    """``hands`` and the screen every one of them has (``None`` if they have none, or not the same one)."""
    screen = hands[0].screen if hands else None
    if screen is not None and any(hand.screen is not screen for hand in hands):
        screen = None
    if len(_SHARED) > 1024:
        _SHARED.clear()  # bound the memory of long runs with many tables
    found = _SHARED[id(hands)] = (hands, screen)
    return found
