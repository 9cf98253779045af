"""The special hands' "Keeping a three", shared by both forms of ``american-special-hands`` (both have a Straight).

While a player's side has not melded he keeps one three in hand
(`canasta.ThreeRules.keep_one`; the engine's procedure is in `canasta.keeping`),
and a three still in hand when the hand ends counts 5 against: the card value
of a red three in hand (red threes otherwise have none) and a black three's
in-hand cost.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import BlackThreeRules, Kind, ThreeRules


def kept_three_section(name: str) -> canasta.RuleSection:
    """The "Keeping a three" section of a special-hands house rule's page.

    Args:
        name: The house rule (``american-special-hands`` or its pagat form).

    Returns:
        The section, cited as ``house rule <name>``.
    """
    return canasta.RuleSection(
        id="keeping-a-three", title="Keeping a three", page=f"rules/house-rules/{name}.md", book=f"house rule {name}"
    )


#: What a three still in hand at the end of the hand counts against its holder's side.
THREE_IN_HAND = 5


@canasta.hookimpl(wrapper=True)
def canasta_threes() -> Generator[None, ThreeRules, ThreeRules]:
    """While the side has not melded, each player keeps one three in hand."""
    threes: ThreeRules = yield
    return attrs.evolve(threes, keep_one=True)


@canasta.hookimpl(wrapper=True)
def canasta_card_values() -> Generator[None, tuple[int, ...], tuple[int, ...]]:
    """A red three still in hand counts 5 against (its only card value: threes are never melded here)."""
    values: tuple[int, ...] = yield
    return tuple(THREE_IN_HAND if kind == Kind.RED_THREE else value for kind, value in enumerate(values))


@canasta.hookimpl(wrapper=True)
def canasta_black_threes() -> Generator[None, BlackThreeRules, BlackThreeRules]:
    """A black three still in hand counts 5 against."""
    black: BlackThreeRules = yield
    return attrs.evolve(black, in_hand_penalty=THREE_IN_HAND)
