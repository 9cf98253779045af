"""The sequence games' pile takes (SEQUENCES.md §9.7, §9.12, §10.3, §11.2): §13's S-1, S-2, B-4 and R-1."""

from __future__ import annotations

from canasta import GoingOutRules
from canasta.cards import Card, Suit
from canasta.meldtypes import (
    BlackThreeGroupType,
    GroupShape,
    GroupType,
    MeldShape,
    MeldType,
    SequenceShape,
    SequenceType,
    WildMeldType,
)
from canasta.suitedpile import PileTake, TakeMode, legal_pile_takes
from canasta.suitedsearch import OpeningRequirement, SuitedHand

SAMBA = (GroupType(), SequenceType(), BlackThreeGroupType())
BOLIVIA = (*SAMBA, WildMeldType())
TWO = GoingOutRules(canastas_required=2)
S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
PILE = SuitedHand.from_cards(["4C", "6D", "9S", "JD", "QC"])  # five cards under the top, none wild


def takes(
    top: Card,
    hand: list[str],
    melds: dict[int, MeldShape],
    *,
    frozen: bool = False,
    opened: bool = True,
    types: tuple[MeldType, ...] = SAMBA,
    minimum: int = 50,
    unopened_may_take: bool = True,
    pile: SuitedHand = PILE,
    bound: bool = False,
) -> list[PileTake]:
    return legal_pile_takes(
        top,
        hand=SuitedHand.from_cards(hand),
        pile_below=pile,
        melds=melds,
        types=types,
        frozen=frozen,
        opened=opened,
        opening=OpeningRequirement(minimum),
        quota=TWO,
        unopened_may_take=unopened_may_take,
        bound=bound,
    )


def test_s1_the_top_card_alone_onto_a_sequence_and_what_is_refused() -> None:
    melds: dict[int, MeldShape] = {0: SequenceShape(H, 5, 7), 1: GroupShape(13, 3)}
    hand = ["9H", "8D", "QS", "JK"]
    # (a) 8♥ onto 5♥6♥7♥: legal (the only take: no pair of eights).
    assert takes(Card(8, H), hand, melds) == [PileTake(TakeMode.TOP_ONTO_SEQUENCE, 0)]
    # (b) 9♥ on top with 8♥ in the hand: the top card must fit by itself.
    assert takes(Card(9, H), ["8H", "QS", "JK"], melds) == []
    # (c) 8♣ on top, 8♦ and a joker: one natural and one wild card never take the pile.
    assert takes(Card(8, C), ["8D", "JK"], melds) == []
    # (d) as (a) with a 2 in the pile: frozen, only a natural pair of eights would take it.
    assert takes(Card(8, H), hand, melds, frozen=True) == []
    assert takes(Card(8, H), ["8D", "8S", "QS"], melds, frozen=True) == [PileTake(TakeMode.PAIR, None, (D, S))]


def test_s2_canastas_and_the_natural_pair() -> None:
    melds: dict[int, MeldShape] = {3: GroupShape(13, 7)}
    legal = takes(Card(13, H), ["KS", "KD", "2C", "9C"], melds)
    # (a) K♥ alone onto the canasta: refused; (b) K♠ and 2♣: refused;
    # (c) K♠ K♦: legal as two actions, a new group or onto the canasta.
    assert legal == [PileTake(TakeMode.PAIR, None, (D, S)), PileTake(TakeMode.PAIR, 3, (D, S))]


def test_the_top_card_alone_joins_a_group_below_seven_cards_and_pairs_name_their_suits() -> None:
    melds: dict[int, MeldShape] = {0: GroupShape(13, 4, 1), 1: GroupShape(13, 6, 1)}
    legal = takes(Card(13, H), ["KH", "KH", "KS", "5C"], melds)
    pairs = [t for t in legal if t.mode is TakeMode.PAIR]
    assert {t.pair for t in pairs} == {(H, H), (H, S)}
    assert {t.meld for t in pairs} == {None, 0, 1}
    alone = [t for t in legal if t.mode is TakeMode.TOP_ONTO_GROUP]
    assert alone == [PileTake(TakeMode.TOP_ONTO_GROUP, 0)]  # meld 1 holds 7 cards


def test_b4_a_wild_card_on_top_never_takes_and_a_frozen_pile_wants_a_pair() -> None:
    melds: dict[int, MeldShape] = {0: GroupShape(8, 3), 1: SequenceShape(S, 5, 7)}
    # (a) a joker on top: never taken, whatever the hand holds.
    assert takes(Card(0, None), ["JK", "JK", "8H", "8D"], melds, types=BOLIVIA) == []
    # (b) 8♠ covers the joker: frozen for everyone; a natural pair of eights only.
    assert takes(Card(8, S), ["9D", "QC"], melds, frozen=True, types=BOLIVIA) == []
    assert takes(Card(8, S), ["9D", "QC"], melds, types=BOLIVIA) == [
        PileTake(TakeMode.TOP_ONTO_GROUP, 0),
        PileTake(TakeMode.TOP_ONTO_SEQUENCE, 1),
    ]


def test_r1_no_pile_before_the_opening_in_brazilian_and_with_the_minimum_elsewhere() -> None:
    hand = ["KH", "KD", "AS", "AH", "AD"]
    assert takes(Card(13, S), hand, {}, opened=False, unopened_may_take=False, types=BOLIVIA) == []
    # Samba and Bolivia: the pair takes it when the top card and the hand reach the minimum (30 + 60 >= 50)...
    assert takes(Card(13, S), hand, {}, opened=False, frozen=True, types=BOLIVIA) == [
        PileTake(TakeMode.PAIR, None, (D, H))
    ]
    # ...and not when they cannot (90 < 120): the pile's cards never count.
    assert takes(Card(13, S), hand, {}, opened=False, frozen=True, types=BOLIVIA, minimum=120) == []


def test_black_threes_and_red_threes_on_top_never_take_and_the_one_card_rule() -> None:
    melds: dict[int, MeldShape] = {0: GroupShape(9, 3)}
    assert takes(Card(3, C), ["3S", "3C"], melds) == []
    assert takes(Card(3, H), ["9C"], melds) == []
    empty = SuitedHand.from_cards([])
    assert takes(Card(9, H), ["5C"], melds, pile=empty) == []  # one card against a one-card pile
    assert takes(Card(9, H), ["5C", "6C"], melds, pile=empty) == [PileTake(TakeMode.TOP_ONTO_GROUP, 0)]


def test_a_take_that_leaves_no_card_must_go_out() -> None:
    """K♠K♦ and a pile of one card: a pair take leaves nothing, so it needs the two canastas."""
    empty = SuitedHand.from_cards([])
    one_canasta: dict[int, MeldShape] = {0: GroupShape(9, 7)}
    assert takes(Card(13, H), ["KS", "KD"], one_canasta, pile=empty) == []
    two: dict[int, MeldShape] = {0: GroupShape(9, 7), 1: GroupShape(13, 4)}
    assert takes(Card(13, H), ["KS", "KD"], two, pile=empty) == [
        PileTake(TakeMode.PAIR, None, (D, S)),  # a new group, then combined with meld 1: 7 kings
        PileTake(TakeMode.PAIR, 1, (D, S)),  # onto meld 1: 7 kings
        PileTake(TakeMode.TOP_ONTO_GROUP, 1),  # the hand keeps two cards: a discard keeps one
    ]
    assert takes(Card(13, H), ["KS", "KD"], {0: GroupShape(9, 7), 1: GroupShape(13, 3)}, pile=empty) == [
        PileTake(TakeMode.TOP_ONTO_GROUP, 1)  # 6 kings at most: no second canasta
    ]


def test_a_player_bound_by_a_yes_takes_only_where_going_out_stays_possible() -> None:
    """SPEC §1 ⟨A⟩: after "yes" every action must keep going out this turn possible (the pile is face up)."""
    melds: dict[int, MeldShape] = {0: GroupShape(9, 7), 1: GroupShape(13, 4)}
    one = SuitedHand.from_cards(["5C"])
    assert len(takes(Card(13, H), ["KS", "KD"], melds, pile=one, bound=True)) == 3  # 5♣ is the final discard
    two = SuitedHand.from_cards(["5C", "6D"])
    assert takes(Card(13, H), ["KS", "KD"], melds, pile=two, bound=True) == []  # a card would be left over
    assert len(takes(Card(13, H), ["KS", "KD"], melds, pile=two)) == 3
