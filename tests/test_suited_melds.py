"""The sequence games' meld actions and their legality (SEQUENCES.md §9.3 to §9.5, §9.12, §11.3, §11.6)."""

from __future__ import annotations

import random

import pytest

from canasta import CanastaClass, GoingOutRules
from canasta.cards import Suit
from canasta.meldtypes import (
    BlackThreeGroupType,
    GroupShape,
    GroupType,
    MeldShape,
    MeldType,
    SequenceShape,
    SequenceType,
    WildMeldType,
    WildShape,
)
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild, legal_melds
from canasta.suitedsearch import OpeningRequirement, SuitedHand

SAMBA = (GroupType(), SequenceType(), BlackThreeGroupType())
BOLIVIA = (GroupType(), SequenceType(), WildMeldType(), BlackThreeGroupType())
BRAZILIAN = (GroupType(), SequenceType(going_out_max_size=11), WildMeldType(), BlackThreeGroupType())
TWO = GoingOutRules(canastas_required=2)
ESCALERA = GoingOutRules(canastas_required=2, canastas_by_class={CanastaClass.SEQUENCE: 1})
S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
Q, J, K = 12, 11, 13


def legal(
    cards: list[str],
    melds: dict[int, MeldShape],
    types: tuple[MeldType, ...] = SAMBA,
    *,
    quota: GoingOutRules = TWO,
    opened: bool = True,
    minimum: int = 50,
    count: int = 0,
    bound: bool = False,
    may_go_out: bool = True,
) -> list[object]:
    return list(
        legal_melds(
            SuitedHand.from_cards(cards),
            melds,
            types,
            opened=opened,
            opening=OpeningRequirement(minimum),
            count=count,
            quota=quota,
            bound=bound,
            may_go_out=may_go_out,
        )
    )


def test_s3_wild_cards_in_groups_and_combining_as_actions() -> None:
    melds: dict[int, MeldShape] = {0: GroupShape(Q, 3, 0, 1), 1: GroupShape(Q, 3), 2: GroupShape(J, 7)}
    actions = legal(["2H", "2C", "JD", "JS"], melds)
    assert LayGroup(Q, (0, 0, 0, 0), twos=1, meld=0) in actions  # 1. 2♥ onto A
    assert LayGroup(Q, (0, 0, 0, 0), twos=2, meld=0) not in actions  # 3 wild cards
    assert LayGroup(J, (0, 0, 0, 0), twos=1, meld=2) not in actions  # 3. never onto a canasta
    assert Combine(0, 1) in actions  # 4. (A keeps its identity)
    assert LayGroup(J, (0, 1, 0, 1), twos=1) in actions  # 5. a second group of jacks
    after_two: dict[int, MeldShape] = {
        0: GroupShape(Q, 3, 1, 1),
        1: GroupShape(Q, 3),
        2: GroupShape(J, 7),
        3: GroupShape(J, 2, 1),
    }
    assert Combine(2, 3) not in legal(["2C", "5H", "6H"], after_two)  # 6. its wild card would join a canasta
    assert Combine(0, 1) in legal(["2C", "5H", "6H"], after_two)  # 8 cards, 2 wild: a mixed canasta


def test_s4_sequences_grow_at_their_ends_and_never_wrap() -> None:
    melds: dict[int, MeldShape] = {0: SequenceShape(S, 8, 13)}
    actions = legal(["AS", "7S", "4S", "5S", "6S", "QD", "KD", "AD", "4D"], melds)
    assert Extend(0, 8, 14) in actions and Extend(0, 7, 13) in actions
    assert Extend(0, 7, 14) not in actions  # 8 cards
    assert LaySequence(S, 4, 7) in actions and LaySequence(D, 12, 14) in actions
    assert not [a for a in actions if isinstance(a, LaySequence) and a.suit is D and a.low == 4]
    assert LaySequence(S, 4, 8) not in actions  # the 8♠ is on the table


def test_b3_no_meld_may_empty_the_hand_without_an_escalera() -> None:
    melds: dict[int, MeldShape] = {0: GroupShape(K, 7), 1: GroupShape(10, 5, 2), 2: SequenceShape(C, 4, 9)}
    assert legal(["JH", "JD", "JS"], melds, BOLIVIA, quota=ESCALERA) == []
    assert legal(["JH", "JD", "JS"], melds, BOLIVIA, quota=TWO) == [LayGroup(J, (0, 1, 1, 1))]  # goes out
    assert Extend(2, 4, 10) in legal(["TC", "JH"], melds, BOLIVIA, quota=ESCALERA)  # then J♥ is discarded


def test_r5_an_escalera_grows_past_seven_only_when_the_player_may_go_out_and_does() -> None:
    melds: dict[int, MeldShape] = {0: SequenceShape(D, 5, 11), 1: GroupShape(K, 7)}
    cards = ["QD", "4D", "AC", "AH", "AS"]
    assert Extend(0, 5, 12) in legal(cards, melds, BRAZILIAN, bound=True)  # after a "yes"
    assert Extend(0, 5, 12) not in legal(cards, melds, BRAZILIAN, may_go_out=False)  # no "yes": refused
    assert Extend(0, 5, 12) not in legal(cards, melds, BOLIVIA, bound=True)  # never in bolivia
    assert LayGroup(14, (1, 0, 1, 1)) in legal(cards, melds, BRAZILIAN, may_go_out=False)  # 2 cards stay


def test_black_threes_meld_only_by_a_player_who_then_goes_out() -> None:
    melds: dict[int, MeldShape] = {0: GroupShape(K, 7), 1: GroupShape(10, 5, 2)}
    assert LayBlackThrees(3) in legal(["3C", "3S", "3C", "8H"], melds)
    assert LayBlackThrees(3) not in legal(["3C", "3S", "3C", "8H", "9H"], melds)  # 8♥ and 9♥ cannot both go
    assert LayBlackThrees(3) not in legal(["3C", "3S", "3C", "8H"], {0: GroupShape(K, 7)})  # one canasta


def test_wild_melds_in_bolivia_and_not_in_samba() -> None:
    melds: dict[int, MeldShape] = {0: WildShape(2, 2)}
    actions = legal(["2C", "JK", "5H", "6H"], melds, BOLIVIA)
    assert LayWild(1, 1, 0) in actions and LayWild(1, 0, 0) in actions
    assert LayWild(1, 1) not in actions  # a new wild meld needs 3 cards
    assert not [a for a in legal(["2C", "JK", "2D", "5H"], {}, SAMBA) if isinstance(a, LayWild)]


def test_a_provisional_opening_meld_must_leave_the_opening_reachable() -> None:
    """S-5 (a) as actions: at 7000 (150) each of the three melds is legal; at 160 none is.

    "Nothing else that melds": two such cards here (5♣ 8♦), so that after the opening a discard
    keeps a card. With one only, the opening would leave a last card whose discard goes out,
    which the side's canastas do not allow: then no provisional meld is legal (SPEC §0).
    """
    cards = ["AC", "AD", "AH", "2S", "TH", "JH", "QH", "KH", "QC", "QD", "QS", "5C", "8D"]
    assert legal(cards[:-1], {}, opened=False, minimum=150) == []
    opening = legal(cards, {}, opened=False, minimum=150)
    assert LayGroup(14, (1, 1, 1, 0), twos=1) in opening
    assert LaySequence(H, 10, 13) in opening
    assert LayGroup(Q, (1, 1, 0, 1)) in opening
    assert LayGroup(Q, (1, 1, 1, 1)) not in opening  # Q♥ in the queens leaves the hearts short: 80 + 40 < 150
    assert legal(cards, {}, opened=False, minimum=160) == []


def test_bad_actions_are_refused_when_made() -> None:
    with pytest.raises(ValueError, match="four counts"):
        LayGroup(K, (1, 2, 3))
    with pytest.raises(ValueError, match="four counts"):
        LayGroup(K, (1, -1, 0, 0))
    assert LayGroup(K, [1, 0, 2, 0]).naturals == 3


# --- every legal action completes, every refused one cannot (an exhaustive continuation search) ----


def test_the_legal_melds_are_exactly_the_completable_ones_in_random_positions() -> None:
    from test_suited_search import _exhaustive_out  # (the enumeration of every sequence of actions)

    from canasta.suitedmelds import _after, _candidates, hand_after

    rng = random.Random(7)
    checked = 0
    for _ in range(100):
        cards = SuitedHand.from_cards(rng.sample(_POOL, rng.randint(2, 5)))
        melds: dict[int, MeldShape] = dict(enumerate(rng.sample(_TABLES, rng.randint(1, 3))))
        types = rng.choice([SAMBA, BOLIVIA, BRAZILIAN])
        if types is SAMBA:
            melds = {k: m for k, m in melds.items() if not isinstance(m, WildShape)}
        bound = rng.random() < 0.3
        actions = legal_melds(cards, melds, types, opened=True, opening=OpeningRequirement(50), quota=TWO, bound=bound)
        for candidate in _candidates(cards, melds, types):
            action, going_out_only = candidate[0], candidate[4]
            after = _after(melds, candidate, max(melds, default=-1) + 1)
            rest = hand_after(cards, action, melds)
            assert rest is not None
            size = rest.size
            completes = (size >= 2 and not bound and not going_out_only) or _exhaustive_out(
                rest, tuple(after.values()), types, TWO
            )
            assert (action in actions) == completes, (cards, melds, action)
            checked += 1
    assert checked > 100


_POOL = ["8H", "9H", "TH", "JH", "8S", "9S", "TS", "KS", "KH", "KD", "2C", "2D", "JK", "3C", "3S"]
_TABLES: list[MeldShape] = [
    GroupShape(K, 7),
    GroupShape(K, 4, 1),
    GroupShape(10, 5, 2),
    SequenceShape(H, 9, 12),
    SequenceShape(S, 7, 12),
    WildShape(3),
]


def test_provisional_opening_melds_are_exactly_those_after_which_the_opening_stays_reachable() -> None:
    """A provisional opening meld is legal iff the opening stays reachable with two cards left (SPEC §0)."""
    from test_suited_search import _exhaustive_open, _value

    from canasta.suitedmelds import _after, _candidates, hand_after

    rng = random.Random(11)
    checked = 0
    for _ in range(120):
        cards = SuitedHand.from_cards(rng.sample(_POOL[:13], rng.randint(3, 7)))
        types = rng.choice([SAMBA, BOLIVIA])
        need = OpeningRequirement(rng.choice([50, 90, 120]))
        actions = legal_melds(cards, {}, types, opened=False, opening=need, quota=TWO)
        for candidate in _candidates(cards, {}, types):
            action, going_out_only = candidate[0], candidate[4]
            after = _after({}, candidate, 0)
            rest = hand_after(cards, action, {})
            assert rest is not None
            now = _value(cards) - _value(rest)
            size = rest.size
            if now >= need.count:  # the opening is complete: as an opened side
                completes = (size >= 2 and not going_out_only) or _exhaustive_out_of(rest, after, types)
            else:
                # (The opening, then a discard that keeps a card: 2 canastas, the only way out, need 14 cards.)
                completes = not going_out_only and _exhaustive_open(rest, tuple(after.values()), now, types, need, 2)
            assert (action in actions) == completes, (cards, action)
            checked += 1
    assert checked > 100


def _exhaustive_out_of(rest: SuitedHand, after: dict[int, MeldShape], types: tuple[MeldType, ...]) -> bool:
    from test_suited_search import _exhaustive_out

    return _exhaustive_out(rest, tuple(after.values()), types, TWO)


def test_a_new_meld_takes_the_next_number_never_a_retired_one() -> None:
    """§9.3: numbers are identities for the hand; a combined meld's number is retired for good."""
    from canasta.suitedmelds import _after, _candidates

    melds: dict[int, MeldShape] = {0: GroupShape(K, 4)}  # meld 1 was combined into 0: its number is retired
    laid = [_after(melds, c, 2) for c in _candidates(SuitedHand.from_cards(["9H", "9S", "9D"]), melds, SAMBA)]
    assert laid and all(set(after) == {0, 2} for after in laid)


def test_r4_permission_is_mandatory_in_brazilian() -> None:
    """R-4: a mixed canasta and an escalera; Q♥Q♠Q♦ would leave 5♣, discardable only by going out."""
    melds: dict[int, MeldShape] = {0: GroupShape(10, 5, 2), 1: SequenceShape(D, 5, 11)}
    cards = ["QH", "QS", "QD", "5C"]
    queens = LayGroup(Q, (0, 1, 1, 1))
    # (a) not asked, (b) asked and told "no": the player may not go out this turn.
    assert queens not in legal(cards, melds, BRAZILIAN, may_go_out=False)
    # (c) "yes": bound to go out, and the queens (then 5♣ discarded) go out.
    assert queens in legal(cards, melds, BRAZILIAN, bound=True)


def test_legal_melds_answer_alike_for_types_as_a_list_and_asked_again() -> None:
    """The kept answers (verdicts, parts, combinations) are keyed by value: a list of types, a second call,
    and the caller's own list of the result change nothing."""
    cards = SuitedHand.from_cards(["9H", "9S", "9D", "TH", "JH", "KS", "KD", "2C", "JK"])
    melds: dict[int, MeldShape] = {0: GroupShape(K, 3), 2: GroupShape(K, 4), 3: SequenceShape(H, 12, 14)}
    first = legal_melds(cards, melds, BOLIVIA, opened=True, opening=OpeningRequirement(50), quota=TWO)
    first_copy = list(first)
    first.clear()  # (the caller owns its list)
    again = legal_melds(cards, melds, list(BOLIVIA), opened=True, opening=OpeningRequirement(50), quota=TWO)
    assert again == first_copy
    assert Combine(0, 2) in again and LaySequence(Suit.HEARTS, 9, 11) in again and Extend(3, 10, 14) in again
