"""The club rules of modern American canasta (the rule book's club form): each alone on modern-american."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import accepted
from test_variant_positions import rules_of

import canasta
from canasta import Discard, HandEnd, Kind, Meld, PluginError

OTHERS = [["4C", "4D"], ["5C", "5D"], ["6C", "6D"]]
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_Q = ["QH", "QS", "QD", "QC", "QH", "QS", "QD"]
CLUB_RULES = ["held-aces-sevens-penalty"]


@pytest.mark.parametrize("name", CLUB_RULES)
def test_each_club_rule_fits_modern_american_only(name: str) -> None:
    assert canasta.load_rules("modern-american", (name,)).house_rules == (name,)
    for variant in ("classic", "two-player", "cuban"):
        with pytest.raises(PluginError, match=f"house rule '{name}' does not fit variant '{variant}'"):
            canasta.load_rules(variant, (name,))


def _went_out(rules: canasta.Rules, partner: list[str], opponent: list[str]) -> canasta.HandState:
    """Seat 0 goes out; seat 1 (the other side) holds ``opponent``, seat 2 (partner) ``partner``."""
    state = canasta.build_position(
        rules,
        hands=[["JH", "JS", "JD", "9C"], opponent, partner, ["6C", "6D"]],
        melds=[[CANASTA_K, CANASTA_Q], []],
        phase="meld",
    )
    accepted(state, Meld(Kind.JACK, 3, 0, 0))
    accepted(state, Discard(Kind.NINE))
    assert state.end is HandEnd.WENT_OUT
    return state


def test_held_aces_and_sevens_cost_1500_per_player_and_rank() -> None:
    club = rules_of("modern-american", "held-aces-sevens-penalty")
    plain = rules_of("modern-american")
    # Seat 1 holds three aces and four sevens: two charges; seat 3 (its partner) two sevens: none.
    opponent = ["AH", "AS", "AD", "7H", "7S", "7D", "7C", "KC"]
    for rules, charge in ((club, 3000), (plain, 0)):
        state = _went_out(rules, ["8C", "8D"], opponent)
        other = state.score().sides[1]
        assert other.penalties == -charge
        assert other.cards_in_hand == -(3 * 20 + 4 * 5 + 10 + 2 * 5)  # the cards' values count as well
        assert state.score().sides[0].penalties == 0


def test_held_penalty_is_once_per_player_and_needs_three_in_one_hand() -> None:
    club = rules_of("modern-american", "held-aces-sevens-penalty")
    # Eight aces in one hand: one charge. Two aces with each partner: none (each hand counts alone).
    many = _went_out(club, ["8C", "8D"], ["AH", "AS", "AD", "AC", "AH", "AS", "AD", "AC"])
    assert many.score().sides[1].penalties == -1500
    split = canasta.build_position(
        club,
        hands=[["JH", "JS", "JD", "9C"], ["AH", "AS", "7H", "7S"], ["8C", "8D"], ["AD", "AC", "7D", "7C"]],
        melds=[[CANASTA_K, CANASTA_Q], []],
        phase="meld",
    )
    accepted(split, Meld(Kind.JACK, 3, 0, 0))
    accepted(split, Discard(Kind.NINE))
    assert split.score().sides[1].penalties == 0
    # The going-out side's partner is charged too, even holding a canasta of the rank on the table.
    own = _went_out(club, ["7H", "7S", "7D", "8C"], ["4C", "4D"])
    assert own.score().sides[0].penalties == -1500


def test_held_penalty_applies_when_the_stock_runs_out() -> None:
    club = rules_of("modern-american", "held-aces-sevens-penalty")
    hands = [["AH", "AS", "AD", "9C"], ["7H", "7S", "7D", "4C"], ["8C", "8D"], ["6C", "6D"]]
    used = Counter(c for h in hands for c in h) + Counter(CANASTA_K)
    rest = []
    for card in canasta.Deck(club.deck).cards:  # every other card in the pile: the stock is empty
        if used[card.code]:
            used[card.code] -= 1
        elif card.kind not in (Kind.RED_THREE, Kind.BLACK_THREE):
            rest.append(card.code)
    bonus = (Kind.RED_THREE, Kind.BLACK_THREE)
    threes = [[c.code for c in canasta.Deck(club.deck).cards if c.kind in bonus], [], [], []]
    state = canasta.build_position(club, hands=hands, melds=[[CANASTA_K], []], pile=rest, threes=threes, stock=[])
    assert state.end is HandEnd.STOCK_EXHAUSTED  # due to draw from an empty stock: the hand is over
    assert [s.penalties for s in state.score().sides] == [-1500, -1500]


def test_held_card_penalties_are_validated_at_compilation() -> None:
    import attrs

    rules = rules_of("modern-american", "held-aces-sevens-penalty")
    assert rules.held_card_penalties == ((Kind.ACE, 3, 1500), (Kind.SEVEN, 3, 1500))
    assert attrs.fields(canasta.Rules).held_card_penalties.default == ()
