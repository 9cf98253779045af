"""Books, several melds of a rank, canasta classes, the going-out quota by class, the wild-card ratio (issue 33).

The concepts are proved without the Hand and Foot variant, on the test plugin
``tests/books_plugin.py`` (``classic-books``: classic whose melds close as books
of 7 that make room, with 2 naturals per wild card and a quota of 1 natural and
1 mixed canasta), against the rule book's Hand and Foot §8.4, §8.8 and §8.11.
"""

from __future__ import annotations

import random

import attrs
import books_plugin
import pytest
from helpers import accepted, play_random_hand, refused

import canasta
from canasta import (
    CanastaClass,
    Discard,
    GoingOutRules,
    HandEnd,
    Kind,
    Meld,
    MeldRules,
    RuleCode,
    canasta_class,
)
from canasta.goingout import can_meld_out
from canasta.testing.reference import check_exact_legality, check_no_dead_end

books_plugin.register()

K, Q, N9 = Kind.KING, Kind.QUEEN, Kind.NINE
OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]
NATURAL_BOOK = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]
MIXED_BOOK = ["JH", "JS", "JD", "JC", "JH", "2C", "2D"]
FIVE_KINGS = ["KH", "KS", "KD", "KC", "KH"]


def rules() -> canasta.Rules:
    return canasta.load_rules(books_plugin.NAME)


def at(hand: list[str], side0: list[list[str]], phase: str = "meld", **kw: object) -> canasta.HandState:
    return canasta.build_position(rules(), hands=[hand, *OTHERS], melds=[side0, []], phase=phase, **kw)


# --- the ratio (§8.4's table) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "most_wilds"),
    [(3, 1), (4, 1), (5, 1), (6, 2), (7, 2)],
)
def test_two_naturals_per_wild_card_at_each_size(size: int, most_wilds: int) -> None:
    melds = MeldRules(naturals_per_wild=2, max_wilds=None, max_size=7)
    for wilds in range(size + 1):
        naturals = size - wilds
        valid = melds.is_valid(int(K), naturals, wilds, 0)
        assert valid == (wilds <= most_wilds and naturals >= 2), (size, wilds)


def test_the_house_rule_wilds_at_most_naturals_is_the_ratio_one() -> None:
    melds = canasta.load_rules("classic", ("wilds-at-most-naturals",)).melds
    assert melds.naturals_per_wild == 1 and melds.max_wilds is None
    assert melds.is_valid(int(K), 4, 2, 2) and not melds.is_valid(int(K), 3, 2, 2)


def test_a_meld_under_the_ratio_is_refused_with_its_reason() -> None:
    state = at(["QH", "QS", "QD", "2C", "2D", "9C", "9D"], [NATURAL_BOOK])
    err = refused(state, Meld(Q, 3, 2, 0), RuleCode.INVALID_MELD)  # 3 naturals, 2 wild cards
    assert "at least 2 naturals for each wild card" in err.reason
    accepted(state, Meld(Q, 3, 1, 0))


# --- books: closed at 7, set apart, making room ------------------------------------------------


def test_a_meld_past_seven_cards_is_refused() -> None:
    state = at(["KC", "KD", "KS", "9C", "9D"], [FIVE_KINGS])
    err = refused(state, Meld(K, 3, 0, 0), RuleCode.MELD_CLOSED)
    assert "at most 7 cards" in err.reason
    assert Meld(K, 2, 0, 0) in state.legal_actions()


def test_a_new_meld_of_a_rank_waits_for_the_book() -> None:
    # With 5 kings on the table, 3 more kings are not a new meld: they would join the open one (8 cards).
    state = at(["KC", "KD", "KS", "KH", "KC", "9C", "9D"], [FIVE_KINGS])
    refused(state, Meld(K, 3, 0, 0))
    accepted(state, Meld(K, 2, 0, 0))  # the book: 7 kings, set apart
    assert [m.rank for m in state.books[0]] == [K] and K not in state.melds[0]
    assert state.canastas(0) == 1 and state.canastas_by_class(0) == [1, 0, 0, 0, 0]
    accepted(state, Meld(K, 3, 0, 0))  # now a new meld of kings
    assert state.melds[0][K].size == 3 and len(state.books[0]) == 1


def test_a_book_is_closed_for_good() -> None:
    state = at(["KC", "2C", "9C", "9D", "9H"], [[*FIVE_KINGS, "KD", "KS"]])
    assert len(state.books[0]) == 1 and not state.melds[0]
    # A king now starts nothing (one natural is not a meld), and no wild card joins the book.
    assert not any(isinstance(a, Meld) and a.rank == K for a in state.legal_actions())
    refused(state, Meld(K, 1, 0, 0))


def test_a_side_holds_books_of_a_rank_beside_its_incomplete_meld() -> None:
    book = ["KH", "KS", "KD", "KC", "KH", "2C", "2D"]
    state = at(["9C", "9D", "9H"], [book, ["KS", "KD", "KC", "KH", "KS", "2H", "2S"], ["KD", "KC", "*"]])
    assert [m.rank for m in state.books[0]] == [K, K] and state.melds[0][K].size == 3
    assert state.canastas(0) == 2 and state.canastas_by_class(0) == [0, 2, 0, 0, 0]
    views = state.observation(0).melds[0]
    assert [v.is_canasta for v in views if v.rank == K] == [True, True, False]
    assert sum(len(v.cards) for v in views) == 17
    located = state.card_locations()["melds 0"]
    assert len(located) == 17


# --- classes and the quota ---------------------------------------------------------------------


def test_canasta_classes() -> None:
    assert canasta_class(int(K), 7, 0, 0) is CanastaClass.NATURAL
    assert canasta_class(int(K), 5, 1, 1) is CanastaClass.MIXED
    assert canasta_class(int(Kind.JOKER), 0, 4, 3) is CanastaClass.WILD


def test_the_quota_in_words_and_its_test() -> None:
    classic = GoingOutRules()
    assert classic.quota_text() == "1 canasta" and classic.quota_met([0, 1, 0]) and not classic.quota_met([0, 0, 0])
    hand_and_foot = GoingOutRules(
        canastas_required=0,
        canastas_by_class={CanastaClass.NATURAL: 2, CanastaClass.MIXED: 2, CanastaClass.WILD: 1},
    )
    assert hand_and_foot.quota_text() == "2 natural, 2 mixed and 1 wild canastas"
    assert hand_and_foot.quota_met([2, 2, 1]) and hand_and_foot.quota_met([3, 4, 1])
    assert not hand_and_foot.quota_met([3, 1, 1])  # a natural book never stands in for a mixed one
    assert not hand_and_foot.quota_met([2, 2, 0])
    with pytest.raises(TypeError):
        GoingOutRules(canastas_by_class={"natural": 1})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="negative"):
        GoingOutRules(canastas_by_class={CanastaClass.NATURAL: -1})


def test_going_out_is_refused_without_the_quota() -> None:
    # Two natural books and no mixed one: the last card may not go (a natural never stands in for a mixed).
    state = at(["9C", "9D"], [NATURAL_BOOK, ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]])
    assert state.canastas(0) == 2 and not state.quota_met(0)
    assert Discard(N9) in state.legal_actions()  # (two cards: one is discarded, one kept)
    accepted(state, Discard(N9))
    assert state.end is None


def test_going_out_with_the_quota() -> None:
    state = at(["9C"], [NATURAL_BOOK, MIXED_BOOK])
    assert state.quota_met(0)
    accepted(state, Discard(N9))
    assert state.end is HandEnd.WENT_OUT


def test_a_book_made_by_the_final_meld_counts() -> None:
    state = at(["JD", "JS"], [NATURAL_BOOK, ["JH", "JS", "JD", "JC", "2C"]])
    assert not state.quota_met(0)
    accepted(state, Meld(Kind.JACK, 2, 0, 0))  # the mixed book, the last cards: out
    assert state.end is HandEnd.WENT_OUT and [m.rank for m in state.books[0]] == [Kind.ACE, Kind.JACK]


def test_a_classic_canasta_counts_for_its_class_when_going_out() -> None:
    # classic-quota: canastas grow as in classic; a natural canasta that takes a 2 is mixed from then on.
    quota = canasta.load_rules(books_plugin.QUOTA_NAME)
    kings = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
    state = canasta.build_position(
        quota, hands=[["9C", "9D"], *OTHERS], melds=[[NATURAL_BOOK, kings], []], phase="meld"
    )
    assert state.canastas_by_class(0) == [2, 0, 0, 0, 0] and not state.quota_met(0)
    accepted(state, Discard(N9))
    assert state.end is None  # two natural canastas: no going out, a card is kept
    state = canasta.build_position(
        quota, hands=[["2C", "9C"], *OTHERS], melds=[[NATURAL_BOOK, kings], []], phase="meld"
    )
    accepted(state, Meld(K, 0, 1, 0))  # the kings turn mixed, the aces stay natural
    assert state.canastas_by_class(0) == [1, 1, 0, 0, 0] and state.quota_met(0)
    accepted(state, Discard(N9))
    assert state.end is HandEnd.WENT_OUT


def test_the_final_meld_without_the_quota_is_refused() -> None:
    state = at(["KD", "KS", "9C"], [NATURAL_BOOK, ["KH", "KS", "KD", "KC", "KH"]])
    # The kings' book would be natural: no mixed canasta, so the 9 cannot go.
    err = refused(state, Meld(K, 2, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)
    assert "needs 1 natural and 1 mixed canastas" in err.reason


def test_the_going_out_search_counts_books_by_class() -> None:
    r = rules()
    hand = [0] * 15
    discard = tuple([True] * 15)
    hand[K] = 9  # 7 kings make a natural book, then 2 kings cannot start a meld alone ...
    assert not can_meld_out(r, hand, {}, discard, need=0, books=(0, 1, 0, 0))
    hand[Kind.TWO] = 1  # ... with a 2 they do (K K 2), a book and an incomplete meld in one turn
    assert can_meld_out(r, hand, {}, discard, need=0, books=(0, 1, 0, 0))
    assert not can_meld_out(r, hand, {}, discard, need=0, books=(0, 0, 0, 0))  # no mixed: none made here
    hand[K] = 12  # 7 + 5 kings and a 2: the 2 goes in the second meld (K x5 + 2 = 6 cards)
    assert can_meld_out(r, hand, {}, discard, need=0, books=(0, 1, 0, 0))
    hand = [0] * 15
    hand[K] = 5
    hand[Kind.TWO] = 2  # 5 naturals and 2 wild cards: a mixed book of 7 (the ratio allows 2 at 7 cards)
    assert can_meld_out(r, hand, {}, discard, need=0, books=(1, 0, 0, 0))
    assert not can_meld_out(r, hand, {}, discard, need=0, books=(0, 0, 0, 0))


def test_a_ten_card_rank_goes_out_as_a_book_and_a_new_meld() -> None:
    hand = ["KC", "KD", "KS", "KH", "KC", "KD", "KS", "KH", "KC", "KD"]
    state = at(hand, [NATURAL_BOOK, MIXED_BOOK])
    accepted(state, Meld(K, 7, 0, 0))
    accepted(state, Meld(K, 3, 0, 0))
    assert state.end is HandEnd.WENT_OUT
    assert [m.rank for m in state.books[0]] == [Kind.ACE, Kind.JACK, K]


# --- scoring ---------------------------------------------------------------------------------


def test_books_score_by_class() -> None:
    state = at(["9C"], [NATURAL_BOOK, MIXED_BOOK, ["QH", "QS", "QD"]])
    accepted(state, Discard(N9))
    side = state.score().sides[0]
    assert side.canastas == 2 and side.canasta_bonuses == 500 + 300
    values = state.rules.card_values
    assert side.melded_cards == 7 * values[Kind.ACE] + 5 * values[Kind.JACK] + 2 * values[Kind.TWO] + 3 * 10


# --- the rules' checks -------------------------------------------------------------------------


def test_books_need_a_size_cap() -> None:
    class Uncapped:
        @canasta.hookimpl(wrapper=True)
        def canasta_meld_rules(self):  # type: ignore[no-untyped-def]
            return attrs.evolve((yield), book_makes_room=True)

    registry = canasta.Registry()
    registry.add_variant(canasta.Variant("uncapped", "x", plugins=(Uncapped(),), base="classic"))
    with pytest.raises(canasta.RulesError, match="book_makes_room needs max_size"):
        canasta.load_rules("uncapped", registry=registry)


def test_a_malformed_ratio_or_quota_is_a_clear_error() -> None:
    class BoolRatio:
        @canasta.hookimpl(wrapper=True)
        def canasta_meld_rules(self):  # type: ignore[no-untyped-def]
            return attrs.evolve((yield), naturals_per_wild=True)

    class NamedQuota:
        @canasta.hookimpl(wrapper=True)
        def canasta_going_out(self):  # type: ignore[no-untyped-def]
            going_out = yield
            object.__setattr__(going_out, "canastas_by_class", (("natural", 1),))  # (past the converter)
            return going_out

    registry = canasta.Registry()
    registry.add_variant(canasta.Variant("bool-ratio", "x", plugins=(BoolRatio(),), base="classic"))
    registry.add_variant(canasta.Variant("named-quota", "x", plugins=(NamedQuota(),), base="classic"))
    with pytest.raises((canasta.RulesError, canasta.PluginError), match="naturals_per_wild"):
        canasta.load_rules("bool-ratio", registry=registry)
    with pytest.raises((canasta.RulesError, canasta.PluginError), match="canastas_by_class"):
        canasta.load_rules("named-quota", registry=registry)


# --- play and the reference ----------------------------------------------------------------------


@pytest.mark.parametrize("name", [books_plugin.NAME, books_plugin.QUOTA_NAME])
def test_random_hands_keep_every_invariant(name: str) -> None:
    r = canasta.load_rules(name)
    books = went_out = 0
    for seed in range(6):
        rng = random.Random(seed)
        state, _ = play_random_hand(rng, seed=seed, scores=[0, 0], dealer=seed % 4, rules=r)
        books += sum(len(b) for b in state.books)
        if state.end is HandEnd.WENT_OUT:
            went_out += 1
            assert state.quota_met(state.seating[state.went_out or 0])
    assert went_out
    assert books if name == books_plugin.NAME else not books


@pytest.mark.parametrize("name", [books_plugin.NAME, books_plugin.QUOTA_NAME])
def test_played_positions_agree_with_the_reference(name: str) -> None:
    from test_legality_reference import _small_positions

    checked = 0
    for seed in range(4):
        for state in _small_positions(name, (), seed, seed + 100, 200):
            check_no_dead_end(state)
            check_exact_legality(state)
            checked += 1
    assert checked


def test_built_going_out_positions_agree_with_the_reference() -> None:
    cases = [
        (["KC", "KD", "KS", "KH", "KC", "KD", "KS", "KH", "KC", "2C"], [NATURAL_BOOK, MIXED_BOOK]),
        (["KC", "KD", "KS", "KH", "KC", "KD", "KS", "KH", "2C", "9C"], [NATURAL_BOOK]),
        (["JD", "JS", "9C"], [NATURAL_BOOK, ["JH", "JS", "JD", "JC", "2C"]]),
        (["KD", "KS", "9C"], [NATURAL_BOOK, ["KH", "KS", "KD", "KC", "KH"]]),
    ]
    for hand, melds in cases:
        for phase in ("meld",):
            state = at(hand, melds, phase=phase)
            check_exact_legality(state)


def test_books_are_drawn() -> None:
    from canasta.render import render_observation_svg, render_table_svg

    book = ["KH", "KS", "KD", "KC", "KH", "2C", "2D"]
    state = at(["9C", "9D", "9H"], [book, ["KD", "KC", "*"]])
    plain = at(["9C", "9D", "9H"], [["KD", "KC", "*"]])
    for draw in (render_table_svg, lambda s: render_observation_svg(s.observation(1), s.rules)):
        # The book is drawn as a canasta (squared up, one card shown) beside the open meld of its rank.
        assert draw(state).count("<title>") == draw(plain).count("<title>") + 1


_PLAY_BOTH = """
import hashlib, json, random, sys
sys.path.insert(0, "tests")
import books_plugin
import canasta
from canasta import HandState

books_plugin.register()
rules = canasta.load_rules(books_plugin.NAME)
digest = hashlib.sha256()
for seed in range(12):
    rng = random.Random(seed)
    state = HandState.deal(rules, dealer=seed % 4, scores=[0, 0], seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        digest.update(repr(legal).encode())
        state.apply(legal[rng.randrange(len(legal))])
    digest.update(repr((state.score().totals, [[repr(m) for m in b] for b in state.books])).encode())
print(json.dumps({"compiled": canasta.compiled, "digest": digest.hexdigest()}))
"""


@pytest.mark.skipif(not canasta.compiled, reason="the compiled engine is not installed: nothing to compare")
def test_both_engines_play_books_alike() -> None:
    from helpers import run_on_engine

    compiled = run_on_engine(_PLAY_BOTH, pure=False)
    pure = run_on_engine(_PLAY_BOTH, pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert compiled["digest"] == pure["digest"]


def test_an_opening_may_need_a_book_and_a_new_meld_of_its_rank() -> None:
    # Minimum 90 (a score of 1500): 7 kings count 70, 6 kings and a 2 count 80; only the book of
    # 7 kings followed by a new meld K K 2 (40) reaches it, so the book is legal (it can be completed).
    kings = ["KH", "KS", "KD", "KC", "KH", "KS", "KD", "KC", "KH"]
    state = canasta.build_position(
        rules(), hands=[[*kings, "2C", "9C", "9D"], *OTHERS], melds=[[], []], phase="meld", scores=[1500, 0]
    )
    assert state.minimum_needed(0) == 90
    check_exact_legality(state)
    accepted(state, Meld(K, 7, 0, 0))
    assert [m.rank for m in state.books[0]] == [K] and not state.opened[0]
    refused(state, Meld(K, 2, 0, 0))  # (two naturals are no meld)
    check_exact_legality(state)
    accepted(state, Meld(K, 2, 1, 0))
    assert state.opened[0]


def _random_book_position(rng: random.Random) -> canasta.HandState | None:
    """A meld-phase position of an opened side with books, an open meld and a hand rich in one rank."""
    suits = "HSDC"
    kings = [f"K{suits[i % 4]}" for i in range(12)]
    rng.shuffle(kings)
    wilds = ["2C", "2D", "2H", "2S", "*", "*", "*"]
    rng.shuffle(wilds)
    books = [NATURAL_BOOK, MIXED_BOOK, ["QH", "QS", "QD", "QC", "QH", "*", "2H"]]
    melds = rng.sample(books, rng.randrange(len(books) + 1))
    wild_used = sum(1 for m in melds for c in m if c in ("*", "2H", "2C", "2D"))
    open_size = rng.choice([0, 0, 3, 4, 5, 6])
    if open_size:
        melds.append(kings[:open_size])
        kings = kings[open_size:]
    hand = kings[: rng.randrange(0, min(len(kings), 9) + 1)]
    hand += wilds[: rng.randrange(0, 3)] if wild_used < 3 else []
    hand += rng.sample(["9C", "9D", "QD", "QS", "3C"], rng.randrange(0, 3))
    if not hand:
        return None
    try:
        state = at(hand, melds)
    except canasta.InvalidPositionError:
        return None
    if rng.random() < 0.5 and canasta.AskGoOut() in state.legal_actions():
        state.apply(canasta.AskGoOut())
        state.apply(canasta.AnswerGoOut(True))
    return state


def test_random_book_positions_agree_with_the_reference() -> None:
    rng = random.Random(33)
    checked = bound = 0
    while checked < 60:
        state = _random_book_position(rng)
        if state is None:
            continue
        check_no_dead_end(state)
        check_exact_legality(state)
        checked += 1
        bound += state.bound
    assert bound  # (some of them after a binding "yes")


def test_random_openings_rich_in_one_rank_agree_with_the_reference() -> None:
    # An unopened side with 5 to 10 kings: the minimum (50, 90 or 120) may need a book and a new meld of kings,
    # and the kings' meld may not be left below the minimum at the discard (a book is a provisional meld too).
    rng = random.Random(34)
    extras = ["2C", "2D", "*", "*", "9C", "9D", "QD", "QS", "QH", "3C", "AH", "AS"]
    checked = 0
    while checked < 40:
        kings = [f"K{'HSDC'[i % 4]}" for i in range(rng.randrange(5, 11))]
        hand = kings + rng.sample(extras, rng.randrange(1, 5))
        score = rng.choice([0, 1500, 3000])
        try:
            state = canasta.build_position(
                rules(), hands=[hand, *OTHERS], melds=[[], []], phase="meld", scores=[score, 0]
            )
        except canasta.InvalidPositionError:
            continue
        check_no_dead_end(state)
        check_exact_legality(state)
        checked += 1


def test_a_book_below_the_minimum_does_not_end_the_turn() -> None:
    kings = ["KH", "KS", "KD", "KC", "KH", "KS", "KD", "KC"]
    state = canasta.build_position(
        rules(), hands=[[*kings, "QD"], *OTHERS], melds=[[], []], phase="meld", scores=[1500, 0]
    )
    assert not any(isinstance(a, Meld) for a in state.legal_actions())  # 8 kings make 70 at most: below 90
    state = canasta.build_position(
        rules(), hands=[[*kings, "QD"], *OTHERS], melds=[[], []], phase="meld", scores=[0, 0]
    )
    accepted(state, Meld(K, 7, 0, 0))  # 70: the opening (50) is complete with the book
    assert state.opened[0]


def test_sample_state_keeps_the_books_and_never_deals_their_cards() -> None:
    book = ["KH", "KS", "KD", "KC", "KH", "2C", "2D"]
    state = at(["9C", "9D", "9H"], [NATURAL_BOOK, book, ["KD", "KC", "*"]])
    rng = random.Random(5)
    for _ in range(5):
        sampled = canasta.sample_state(state.observation(1), rng)
        assert [[m.cards for m in side] for side in sampled.books] == [[m.cards for m in side] for side in state.books]
        placed = sorted(c for cards in sampled.card_locations().values() for c in cards)
        assert placed == list(range(len(state.deck.cards)))  # every card in exactly one place
