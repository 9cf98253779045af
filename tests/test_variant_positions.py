"""Helpers for the variant tests: positions under any rules, with a chosen stock.

`with_stock` builds a position whose stock holds exactly the given cards (top
first); every other card goes to a dump seat's hand (bonus threes to its
laid-out threes), so every card of the deck stays accounted for.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from helpers import placed

import canasta
from canasta import HandState, Kind, Rules


@cache
def rules_of(variant: str, *house_rules: str) -> Rules:
    """Compiled rules, once per test session."""
    return canasta.load_rules(variant, house_rules)


def codes(state: HandState, cards: list[int]) -> list[str]:
    """Card codes of card ids."""
    return [state.deck.cards[c].code for c in cards]


def hand_codes(state: HandState, seat: int) -> list[str]:
    """A seat's hand as sorted card codes."""
    return sorted(c.code for c in state.hand_cards(seat))


def with_stock(rules: Rules, stock: list[str], *, dump: int, phase: str = "draw", **kwargs: Any) -> HandState:
    """A position whose stock is exactly ``stock`` (top first); the other unplaced cards go to seat ``dump``."""
    used = placed(stock, kwargs)
    bonus = {Kind.RED_THREE, Kind.BLACK_THREE} if rules.threes.black_threes_are_bonus else {Kind.RED_THREE}
    rest: list[str] = []
    rest_threes: list[str] = []
    for card in canasta.Deck(rules.deck).cards:
        if used[card.code]:
            used[card.code] -= 1
        elif card.kind in bonus:
            rest_threes.append(card.code)
        else:
            rest.append(card.code)
    hands = [list(h) for h in kwargs.pop("hands")]
    hands[dump] += rest
    threes = [list(t) for t in (kwargs.pop("threes", None) or [[] for _ in range(rules.players)])]
    threes[dump] += rest_threes
    return canasta.build_position(rules, hands=hands, threes=threes, stock=stock, phase=phase, **kwargs)


def test_with_stock_accounts_for_every_card() -> None:
    for variant in ("two-player", "six-player", "modern-american"):
        rules = rules_of(variant)
        hands = [[f"{rank}C"] for rank in "456789"[: rules.players]]
        state = with_stock(rules, ["KH", "QH"], dump=1, hands=hands, pile=["8D"])
        assert sum(len(v) for v in state.card_locations().values()) == rules.deck.size
        assert codes(state, state.stock[::-1]) == ["KH", "QH"]
