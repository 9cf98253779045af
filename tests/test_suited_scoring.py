"""The sequence games' hand score (SEQUENCES.md §9.10, §10.6, §10.7, §11.5): §13's S-6, B-5 and R-6."""

from __future__ import annotations

from collections.abc import Generator

import attrs
import pytest

import canasta
from canasta import CanastaBonuses, ThreeRules, ThreeSign
from canasta.cards import Suit
from canasta.meldtypes import (
    BlackThreeGroupType,
    BlackThreeShape,
    GroupShape,
    GroupType,
    MeldShape,
    SequenceShape,
    SequenceType,
    WildMeldType,
    WildShape,
)
from canasta.scoring import three_sign
from canasta.suitedscoring import meld_value, side_score
from canasta.suitedsearch import SuitedHand

CLASSIC = canasta.load_rules("classic")
SAMBA = attrs.evolve(
    CLASSIC,
    canasta_bonuses=CanastaBonuses(natural=500, mixed=300, sequence=1500),
    threes=ThreeRules(
        schedule=(0, 100, 200, 300, 400, 500, 1000), sign=ThreeSign.NEGATIVE_WITHOUT_CANASTA, canastas_for_plus=2
    ),
    going_out=attrs.evolve(CLASSIC.going_out, bonus=200, concealed_bonus=None),
)
BOLIVIA = attrs.evolve(
    SAMBA,
    canasta_bonuses=CanastaBonuses(natural=500, mixed=300, sequence=1500, wild=2500),
    black_threes=attrs.evolve(CLASSIC.black_threes, in_hand_penalty=100),
)
BRAZILIAN = attrs.evolve(
    BOLIVIA,
    canasta_bonuses=CanastaBonuses(natural=500, mixed=300, sequence=1500, wild=2000),
    threes=ThreeRules(schedule=(0, 100, 200, 300, 400, 1000, 1200), sign=ThreeSign.NEGATIVE_WITHOUT_CANASTA),
)
SAMBA_TYPES = (GroupType(), SequenceType(), BlackThreeGroupType())
BOLIVIA_TYPES = (GroupType(), SequenceType(), WildMeldType(), BlackThreeGroupType())
BRAZILIAN_TYPES = (
    GroupType(),
    SequenceType(going_out_max_size=11, short_size=5, short_penalty=1000),
    WildMeldType(),
    BlackThreeGroupType(),
)


def hands(*groups: tuple[str, ...]) -> list[SuitedHand]:
    return [SuitedHand.from_cards(cards) for cards in groups]


def test_s6_samba_scores_sambas_red_threes_by_two_canastas_and_the_hands() -> None:
    ns: list[MeldShape] = [
        SequenceShape(Suit.DIAMONDS, 5, 11),
        GroupShape(14, 5, 2),
        GroupShape(9, 3),
        GroupShape(12, 3),  # the queens North went out with
    ]
    north_south = side_score(0, ns, SAMBA_TYPES, SAMBA, red_threes=2, hands=hands((), ("KS", "7D")), went_out=True)
    assert (north_south.canasta_bonuses, north_south.melded_cards, north_south.red_threes) == (1800, 255, 200)
    assert north_south.total == 2440
    ew = [GroupShape(8, 3), SequenceShape(Suit.SPADES, 10, 12)]
    east_west = side_score(
        1, ew, SAMBA_TYPES, SAMBA, red_threes=1, hands=hands(("JK", "2H", "AC"), ("4H", "5H", "3C")), went_out=False
    )
    assert (east_west.melded_cards, east_west.red_threes, east_west.cards_in_hand) == (60, -100, -105)
    assert east_west.total == -145


def test_b5_bolivia_scores_the_bolivia_and_black_threes_held_at_100() -> None:
    ns = [GroupShape(13, 7), GroupShape(10, 5, 2)]
    north_south = side_score(
        0, ns, BOLIVIA_TYPES, BOLIVIA, red_threes=3, hands=hands(("3S", "3C", "9D"), ("6C",)), went_out=False
    )
    assert (north_south.red_threes, north_south.melded_cards, north_south.cards_in_hand) == (300, 160, -215)
    assert north_south.total == 1045
    ew = [SequenceShape(Suit.HEARTS, 7, 13), WildShape(5, 2)]
    east_west = side_score(1, ew, BOLIVIA_TYPES, BOLIVIA, red_threes=2, hands=hands((), ("3C", "AS")), went_out=True)
    assert (east_west.canasta_bonuses, east_west.melded_cards, east_west.cards_in_hand) == (4000, 265, -120)
    assert east_west.total == 4545


def test_r6_brazilian_scores_short_sequences_and_five_red_threes() -> None:
    ns = [GroupShape(6, 5, 2), SequenceShape(Suit.SPADES, 7, 9), SequenceShape(Suit.HEARTS, 9, 12)]
    north_south = side_score(
        0, ns, BRAZILIAN_TYPES, BRAZILIAN, red_threes=5, hands=hands(("KS",), ("3C",)), went_out=False
    )
    assert (north_south.red_threes, north_south.penalties, north_south.cards_in_hand) == (1000, -2000, -110)
    assert north_south.total == -680
    ew = [SequenceShape(Suit.CLUBS, 4, 10), WildShape(7), SequenceShape(Suit.DIAMONDS, 11, 14)]
    east_west = side_score(1, ew, BRAZILIAN_TYPES, BRAZILIAN, red_threes=1, hands=hands((), ("8H",)), went_out=True)
    assert (east_west.canasta_bonuses, east_west.melded_cards, east_west.penalties) == (3500, 240, -1000)
    assert east_west.total == 3030
    # All six red threes and no canasta: -1200.
    none = side_score(0, [GroupShape(9, 3)], BRAZILIAN_TYPES, BRAZILIAN, red_threes=6, hands=[], went_out=False)
    assert none.red_threes == -1200


def test_red_threes_count_plus_from_the_rule_sets_number_of_canastas() -> None:
    """Samba: 2 canastas; Cuban (the default threshold) and Brazilian: 1."""
    sign = ThreeSign.NEGATIVE_WITHOUT_CANASTA
    assert [three_sign(sign, True, n, 2) for n in (0, 1, 2, 3)] == [-1, -1, 1, 1]
    assert [three_sign(sign, True, n) for n in (0, 1, 2)] == [-1, 1, 1]
    with pytest.raises(ValueError, match="canastas_for_plus must not be negative"):
        ThreeRules(canastas_for_plus=-1)


def test_melded_black_threes_count_their_card_value_and_a_meld_of_no_type_is_refused() -> None:
    assert meld_value(BlackThreeShape(4), CLASSIC.card_values) == 20
    score = side_score(0, [BlackThreeShape(3)], BOLIVIA_TYPES, BOLIVIA, red_threes=0, hands=[], went_out=True)
    assert score.melded_cards == 15 and score.canastas == 0
    with pytest.raises(ValueError, match="no meld type"):
        side_score(0, [WildShape(3)], SAMBA_TYPES, SAMBA, red_threes=0, hands=[], went_out=False)


def test_a_negative_sequence_bonus_is_refused_when_rules_are_compiled() -> None:
    class Negative:
        @canasta.hookimpl(wrapper=True)
        def canasta_canasta_bonuses(self) -> Generator[None, CanastaBonuses, CanastaBonuses]:
            return attrs.evolve((yield), sequence=-1)

    stack = canasta.default_registry().plugin_stack("classic")
    pm = canasta.make_plugin_manager([*stack, ("negative", Negative())])
    with pytest.raises(canasta.RulesError, match="bonuses must not be negative"):
        canasta.compile_rules(pm, "classic")
