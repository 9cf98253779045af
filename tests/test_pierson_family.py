"""Hand and Foot's preset ``pierson-family`` (HAND-AND-FOOT.md §8.13, "Preset"): each rule, accepted and refused.

The preset is the Pierson family's four-deck game ([LAN]). Its two structural rules are
tested here with their accepted and refused cases: several melds of one rank
(`canasta.MeldRules.several_melds`: a meld from the hand may start a new one beside an
incomplete one, a pile take always does; `canasta.Meld.slot` names which) and wild cards
onto a dirty book while it then holds at most 3 (`canasta.MeldRules.wilds_onto_books`).
Its book kinds (natural sevens) and foot red threes are tested in ``test_special_canastas.py``.
Positions are built as in ``test_hand_and_foot.py`` (seats 0 and 2 against 1 and 3, everyone
in the foot unless ``packets`` says otherwise); random small positions are checked against
the brute-force reference (``_random_position``).
"""

from __future__ import annotations

import random

import attrs
import pytest
from helpers import check_conservation, play_random_hand, reference_positions
from test_hand_and_foot import CLEAN_K, DIRTY_J, WILD, _position

import canasta
from canasta import (
    AnswerGoOut,
    AskGoOut,
    CanastaClass,
    Discard,
    HandState,
    IllegalActionError,
    InvalidPositionError,
    Kind,
    Meld,
    Phase,
    TakePile,
)
from canasta.goingout import can_meld_out
from canasta.testing.reference import ReferenceBudgetExceeded, check_exact_legality

PIERSON = canasta.load_rules("hand-and-foot", ["pierson-family"])
BASE_BOOKS = canasta.load_rules("hand-and-foot", ["add-to-books"])
CLEAN_7 = ["7C", "7D", "7H", "7S", "7C", "7D", "7H"]
DIRTY_Q = ["QC", "QD", "QH", "QS", "QC", "2C", "*"]  # 2 wild cards: room for 1 more


def _melds_of(state: HandState, side: int, rank: Kind) -> list[tuple[int, int, int]]:
    """The side's open melds of a rank, in their numbering (slot 0 first)."""
    found = []
    slot = 0
    while int(rank) + 16 * slot in state.melds[side]:
        m = state.melds[side][int(rank) + 16 * slot]
        found.append((m.naturals, m.twos, m.jokers))
        slot += 1
    return found


# --- the preset's numbers ---------------------------------------------------------------------------


def test_the_preset_states_the_pierson_familys_numbers() -> None:
    r = PIERSON
    assert r.players == 4 and r.sides == (0, 1, 0, 1)
    assert (r.deck.packs, r.deck.jokers, r.deck.size) == (4, 8, 216)
    assert r.hand_size == 15 and r.packets.sizes == (11,)
    assert r.packets.after_first_canasta and not r.packets.replace_threes
    assert r.pile.take_count is None and r.pile.natural_and_wild
    assert r.pile.blocked_top == frozenset({Kind.BLACK_THREE, Kind.RED_THREE})
    m = r.melds
    assert (m.max_wilds, m.min_naturals, m.canasta_size) == (3, 2, 7)
    assert m.natural_only == m.special_ranks == frozenset({Kind.SEVEN})
    assert m.add_to_books and m.several_melds and m.wilds_onto_books and m.book_makes_room
    b = r.canasta_bonuses
    assert (b.wild, b.natural, b.mixed, dict(b.natural_by_rank)) == (2500, 500, 300, {Kind.SEVEN: 1500})
    quota = dict(r.going_out.canastas_by_class)
    assert quota == dict.fromkeys(
        (CanastaClass.NATURAL, CanastaClass.MIXED, CanastaClass.WILD, CanastaClass.SPECIAL), 1
    )
    assert r.going_out.final_discard_required and r.going_out.bonus == 0
    assert r.going_out.quota_text() == "1 natural, 1 mixed, 1 wild and 1 special canastas"
    assert (b.bonus(int(Kind.JOKER), 0, 4, 3), b.bonus(int(Kind.SEVEN), 7, 0, 0)) == (2500, 1500)
    assert (b.bonus(int(Kind.KING), 7, 0, 0), b.bonus(int(Kind.KING), 4, 3, 0)) == (500, 300)
    assert r.black_threes.in_hand_penalty == 100 and r.threes.score(8) == 0 and not r.pile.wild_freezes
    assert r.game_length.deals == 4
    with pytest.raises(canasta.RulesError):
        canasta.Game("hand-and-foot", ["pierson-family"], players=5)


def test_the_structural_rules_are_refused_without_what_they_need() -> None:
    def evolve(**changes: object) -> None:
        class Plugin:
            @canasta.hookimpl(wrapper=True)
            def canasta_meld_rules(self):  # type: ignore[no-untyped-def]
                melds = yield
                return attrs.evolve(melds, **changes)

        registry = canasta.Registry(autoload="builtin")
        registry.add_variant(canasta.Variant(name="t", description="t", plugins=(Plugin(),), base="classic"))
        canasta.load_rules("t", registry=registry)

    with pytest.raises(canasta.RulesError, match="several_melds needs book_makes_room"):
        evolve(several_melds=True)
    with pytest.raises(canasta.RulesError, match="wilds_onto_books"):
        evolve(wilds_onto_books=True)


# --- several melds of a rank ---------------------------------------------------------------------------


def test_a_meld_from_the_hand_may_start_a_new_meld_beside_an_incomplete_one() -> None:
    hands = [["KC", "KD", "KH", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    melds = [[["KS", "KS", "KC"], ["AC", "AD", "AH"]], []]
    state = _position(PIERSON, hands=hands, melds=melds)
    legal = state.legal_actions()
    assert Meld(Kind.KING, 3, slot=1) in legal  # a second meld of kings
    assert Meld(Kind.KING, 3) in legal  # or onto the first
    assert Meld(Kind.KING, 3, slot=2) not in legal  # no meld number 2 to add to or start yet
    with pytest.raises(IllegalActionError):
        state.apply(Meld(Kind.KING, 3, slot=2))
    state.apply(Meld(Kind.KING, 3, slot=1))
    assert _melds_of(state, 0, Kind.KING) == [(3, 0, 0), (3, 0, 0)]
    check_conservation(state)
    # Without the preset a side holds one incomplete meld of a rank.
    base = _position(BASE_BOOKS, hands=hands, melds=melds)
    assert not [a for a in base.legal_actions() if isinstance(a, Meld) and a.slot]
    with pytest.raises(IllegalActionError):
        base.apply(Meld(Kind.KING, 3, slot=1))


def test_second_and_slot_one_are_the_same_action() -> None:
    assert Meld(Kind.KING, 3, second=True) == Meld(Kind.KING, 3, slot=1)
    assert hash(Meld(Kind.KING, 3, second=True)) == hash(Meld(Kind.KING, 3, slot=1))
    assert Meld(Kind.KING, 3, slot=1).second and not Meld(Kind.KING, 3, slot=2).second
    with pytest.raises(ValueError, match="second=True"):
        Meld(Kind.KING, 3, slot=2, second=True)
    with pytest.raises((TypeError, ValueError)):
        Meld(Kind.KING, 3, slot=-1)
    with pytest.raises(TypeError):
        Meld(Kind.KING, 3, slot="1")  # type: ignore[arg-type]
    assert str(Meld(Kind.KING, 3, slot=2)) == "meld 3×K (the third meld of kings (meld 2))"
    assert str(Meld(Kind.JACK, 0, 1, book=True, slot=1)) == "meld 1×2 (the second book of jacks (book 1))"


def test_cards_go_onto_the_meld_the_slot_names() -> None:
    hands = [["KC", "2D", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    melds = [[["KS", "KS", "KC"], ["KD", "KD", "*"], ["AC", "AD", "AH"]], []]
    state = _position(PIERSON, hands=hands, melds=melds)
    assert _melds_of(state, 0, Kind.KING) == [(3, 0, 0), (2, 0, 1)]
    state.apply(Meld(Kind.KING, 1, 1, 0, slot=1))
    assert _melds_of(state, 0, Kind.KING) == [(3, 0, 0), (3, 1, 1)]
    check_conservation(state)


def test_a_pile_take_always_starts_a_new_meld() -> None:
    hands = [["KC", "KD", "9C", "9D", "4C"], ["QC"], ["JC"], ["QH"]]
    melds = [[["KS", "KS", "KC", "KH"], ["AC", "AD", "AH"]], []]
    state = _position(PIERSON, phase="draw", pile=["5S", "KH"], hands=hands, melds=melds)
    takes = [a for a in state.legal_actions() if isinstance(a, TakePile)]
    assert takes == [TakePile(2, 0, 0)]  # no layoff onto the open meld, no take onto it
    state.apply(TakePile(2, 0, 0))
    assert _melds_of(state, 0, Kind.KING) == [(4, 0, 0), (3, 0, 0)]  # a second meld of kings
    assert state.counts[0][Kind.FIVE] == 1  # the rest of the pile joined the hand
    check_conservation(state)
    # Without the preset (add-to-books) the pickup joins the incomplete meld of the rank.
    base = _position(BASE_BOOKS, phase="draw", pile=["5S", "KH"], hands=hands, melds=melds)
    base.apply(TakePile(2, 0, 0))
    assert [(b.rank, b.naturals) for b in base.books[0]] == [(Kind.KING, 7)]  # joined: a book of 7


def test_the_pile_is_never_taken_with_a_three_on_top_and_needs_two_shown_cards() -> None:
    hands = [["3C", "3S", "KC", "9C"], ["QC"], ["JC"], ["QH"]]
    melds = [[["AC", "AD", "AH"]], []]
    state = _position(PIERSON, phase="draw", pile=["5S", "3C"], hands=hands, melds=melds)
    assert not [a for a in state.legal_actions() if isinstance(a, TakePile)]
    one = _position(PIERSON, phase="draw", pile=["5S", "KH"], hands=hands, melds=melds)
    assert not [a for a in one.legal_actions() if isinstance(a, TakePile)]  # one king: no pair
    with pytest.raises(IllegalActionError):
        one.apply(TakePile(0, 0, 0))


def test_a_meld_that_becomes_a_book_leaves_the_numbering() -> None:
    hands = [["KC", "KD", "KH", "9C", "9D", "4C"], ["QC"], ["JC"], ["QH"]]
    melds = [[["KS", "KS", "KC", "KD"], ["KH", "KH", "*"], ["AC", "AD", "AH"]], []]
    state = _position(PIERSON, hands=hands, melds=melds, first_canasta=[-1, -1, -1, -1])
    state.apply(Meld(Kind.KING, 3))  # meld 0 reaches 7: a clean book
    assert [(b.rank, b.naturals) for b in state.books[0]] == [(Kind.KING, 7)]
    assert _melds_of(state, 0, Kind.KING) == [(2, 0, 1)]  # the second meld is now meld 0
    assert Meld(Kind.KING, 0, 0, 0) not in state.legal_actions()
    check_conservation(state)


def test_a_wild_meld_may_be_started_beside_an_incomplete_one() -> None:
    hands = [["2C", "2D", "*", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    melds = [[["2H", "2S", "*"], ["AC", "AD", "AH"]], []]
    state = _position(PIERSON, hands=hands, melds=melds)
    legal = state.legal_actions()
    assert Meld(Kind.JOKER, 0, 2, 1, slot=1) in legal and Meld(Kind.JOKER, 0, 2, 1) in legal
    state.apply(Meld(Kind.JOKER, 0, 2, 1, slot=1))
    assert _melds_of(state, 0, Kind.JOKER) == [(0, 2, 1), (0, 2, 1)]


# --- books that grow -----------------------------------------------------------------------------------


def test_wild_cards_go_onto_a_dirty_book_while_it_then_holds_at_most_three() -> None:
    hands = [["2D", "*", "JC", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    melds = [[CLEAN_K, DIRTY_J, DIRTY_Q, WILD, ["AC", "AD", "AH"]], []]
    state = _position(PIERSON, hands=hands, melds=melds)
    legal = state.legal_actions()
    # DIRTY_J holds 2 wild cards (room for 1), DIRTY_Q 2 (room for 1).
    assert Meld(Kind.JACK, 0, 1, 0, book=True) in legal and Meld(Kind.JACK, 0, 0, 1, book=True) in legal
    assert Meld(Kind.JACK, 1, 1, 0, book=True) in legal  # with a natural, in one meld
    assert Meld(Kind.QUEEN, 0, 0, 1, book=True) in legal
    refused = [
        Meld(Kind.JACK, 0, 1, 1, book=True),  # past 3 wild cards
        Meld(Kind.KING, 0, 1, 0, book=True),  # onto a clean book
        Meld(Kind.JOKER, 0, 1, 0, book=True),  # onto the wild book
        Meld(Kind.JACK, 0, 1, 0, book=True, slot=1),  # no second book of jacks
    ]
    for action in refused:
        assert action not in legal
        with pytest.raises(IllegalActionError):
            state.apply(action)
    before = state.copy()
    state.apply(Meld(Kind.JACK, 0, 0, 1, book=True))
    jack = next(b for b in state.books[0] if b.rank == Kind.JACK)
    assert (jack.naturals, jack.twos, jack.jokers) == (5, 2, 1)
    assert state.book_counts(0) == before.book_counts(0)  # no book made, its kind kept
    assert not [a for a in state.legal_actions() if isinstance(a, Meld) and a.book and a.rank == Kind.JACK and a.jokers]
    check_conservation(state)
    # Without wilds-onto-books (add-to-books alone) no wild card goes onto a book.
    base = _position(BASE_BOOKS, hands=hands, melds=melds)
    assert not [a for a in base.legal_actions() if isinstance(a, Meld) and a.book and (a.twos or a.jokers)]


def test_the_slot_names_which_dirty_book_of_a_rank_takes_the_wild_cards() -> None:
    one_wild = ["JH", "JS", "JD", "JH", "JS", "JD", "2H"]  # room for 2
    hands = [["2D", "2H", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    melds = [[DIRTY_J, one_wild, ["AC", "AD", "AH"]], []]
    state = _position(PIERSON, hands=hands, melds=melds)
    legal = state.legal_actions()
    assert Meld(Kind.JACK, 0, 2, 0, book=True, slot=1) in legal  # two onto the second book
    assert Meld(Kind.JACK, 0, 2, 0, book=True) not in legal  # the first can take one more only
    state.apply(Meld(Kind.JACK, 0, 2, 0, book=True, slot=1))
    assert [(b.twos, b.jokers) for b in state.books[0] if b.rank == Kind.JACK] == [(2, 0), (3, 0)]
    # Books of a rank with as many wild cards are interchangeable: one is offered.
    others = [["2D", "2H", "9C", "9D"], ["5C"], ["5D"], ["5H"]]
    twin = _position(PIERSON, hands=others, melds=[[DIRTY_Q, DIRTY_Q, ["AC", "AD", "AH"]], []])
    assert [a for a in twin.legal_actions() if isinstance(a, Meld) and a.book] == [Meld(Kind.QUEEN, 0, 1, 0, book=True)]


# --- going out and opening with several melds ----------------------------------------------------------


def test_going_out_may_use_two_melds_of_a_rank_and_put_a_wild_card_on_a_dirty_book() -> None:
    # Books: wild, sevens, dirty jacks (room for 1); a clean book is missing. The hand holds 7 kings and a
    # joker, and the side has an open meld of kings already holding 3 wild cards: only a new meld of the 7
    # kings is a clean book, and the joker can go only onto the jacks' book.
    quota = [WILD, CLEAN_7, DIRTY_J]
    hand = ["KC", "KD", "KH", "KS", "KC", "KD", "KH", "*", "9C"]
    melds = [[*quota, ["KS", "KS", "*", "*", "2S"]], []]
    state = _position(PIERSON, hands=[hand, ["QC"], ["JC"], ["QH"]], melds=melds)
    state.apply(AskGoOut())
    state.apply(AnswerGoOut(True))
    legal = state.legal_actions()
    assert Meld(Kind.KING, 7, slot=1) in legal  # the clean book, beside the open meld
    assert Meld(Kind.KING, 2) not in legal  # onto the dirty meld: a dirty book, no clean one left to make
    state.apply(Meld(Kind.KING, 7, slot=1))
    state.apply(Meld(Kind.JACK, 0, 0, 1, book=True))
    state.apply(Discard(Kind.NINE))
    assert state.is_over and state.went_out == 0
    # The search agrees: without the dirty book's room the joker has nowhere to go.
    counts = [0] * 15
    counts[Kind.KING], counts[Kind.JOKER], counts[Kind.NINE] = 7, 1, 1
    books = (0, 1, 1, 0, 1)
    melds_now = {int(Kind.KING): (2, 1, 2)}
    discardable = [True] * 15
    assert can_meld_out(PIERSON, counts, melds_now, discardable, need=0, books=books, book_room=1)
    assert not can_meld_out(PIERSON, counts, melds_now, discardable, need=0, books=books, book_room=0)


def test_an_opening_may_lay_two_melds_of_one_rank() -> None:
    # Deal 2 (90): two melds of fours (2 naturals and a 2 each: 60) and the aces (60) make 120.
    hand = ["4C", "4D", "4H", "4S", "2C", "2D", "AC", "AD", "AH", "9C", "9D"]
    state = _position(PIERSON, hands=[hand, ["QC"], ["JC"], ["QH"]], melds=[[], []], deal_number=2)
    assert state.minimum_needed(0) == 90
    state.apply(Meld(Kind.FOUR, 2, 1, 0))
    assert Meld(Kind.FOUR, 2, 1, 0, slot=1) in state.legal_actions()
    state.apply(Meld(Kind.FOUR, 2, 1, 0, slot=1))
    assert not state.opened[0] and state.provisional_count == 60
    state.apply(Meld(Kind.ACE, 3))
    assert state.opened[0] and _melds_of(state, 0, Kind.FOUR) == [(2, 1, 0), (2, 1, 0)]
    base = _position(BASE_BOOKS, hands=[hand, ["QC"], ["JC"], ["QH"]], melds=[[], []], deal_number=2)
    base.apply(Meld(Kind.FOUR, 2, 1, 0))
    with pytest.raises(IllegalActionError):
        base.apply(Meld(Kind.FOUR, 2, 1, 0, slot=1))


# --- whole games, records, and the reference -------------------------------------------------------------


def test_whole_games_of_four_deals_play_to_the_end() -> None:
    game = canasta.Game("hand-and-foot", ["pierson-family"], seed=3)
    rng = random.Random(3)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert len(game.results) == 4


def test_the_reference_agrees_on_positions_of_random_play() -> None:
    assert len(reference_positions(PIERSON, range(3), max_turn_cards=8)) >= 4


_PLAY_BOTH = """
import hashlib, json, random
import canasta

digest = hashlib.sha256()
for seed in range(2):
    game = canasta.Game("hand-and-foot", ["pierson-family"], seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        digest.update(repr(legal).encode())
        game.apply(legal[rng.randrange(len(legal))])
    digest.update(repr((game.scores, [[repr(m) for m in b] for b in game.hand.books])).encode())
print(json.dumps({"compiled": canasta.compiled, "digest": digest.hexdigest()}))
"""


@pytest.mark.skipif(not canasta.compiled, reason="the compiled engine is not installed: nothing to compare")
def test_both_engines_play_pierson_family_alike() -> None:
    from helpers import run_on_engine

    compiled = run_on_engine(_PLAY_BOTH, pure=False)
    pure = run_on_engine(_PLAY_BOTH, pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert compiled["digest"] == pure["digest"]


@pytest.mark.parametrize("seed", range(3))
def test_random_deals_keep_every_invariant(seed: int) -> None:
    state, _ = play_random_hand(
        random.Random(seed), seed=seed, rules=PIERSON, scores=[0, 0], legal_sample=1, illegal_sample=2
    )
    assert state.is_over
    check_conservation(state)


def test_melds_named_by_slot_are_recorded_and_replayed() -> None:
    from canasta.records import action_from_json, action_to_json

    for action in (
        Meld(Kind.KING, 3, slot=2),
        Meld(Kind.KING, 3, slot=1),
        Meld(Kind.JACK, 0, 1, 0, book=True, slot=1),
        Meld(Kind.JACK, 2, book=True),
    ):
        data = action_to_json(action)
        assert action_from_json(data) == action
    assert action_to_json(Meld(Kind.KING, 3, slot=1)) == {
        "type": "meld", "rank": "K", "naturals": 3, "twos": 0, "jokers": 0, "second": True
    }
    assert action_to_json(Meld(Kind.KING, 3, slot=2))["slot"] == 2


# A random small position of the preset: the acting side with books of each kind or not, several open melds
# of a rank, wild cards and sevens in hand, in the foot (with the partner) or not; or a side not yet opened,
# in the draw or the meld phase, with a pile to take.
_SUITS = "CDHS"
_RANKS = ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


class _Pool:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left = {r + s: 4 for r in [*_RANKS, "2", "3"] for s in _SUITS} | {"*": 8}

    def take(self, options: list[str]) -> str:
        card = self.rng.choice([o for o in options if self.left[o] > 0])
        self.left[card] -= 1
        return card

    def of(self, rank: str) -> str:
        return self.take([rank + s for s in _SUITS])

    def wild(self) -> str:
        return self.take(["2C", "2D", "2H", "2S", "*"])

    def filler(self, count: int, ranks: list[str]) -> list[str]:
        return [self.of(self.rng.choice(ranks)) for _ in range(count)]


def _random_position(seed: int) -> HandState:
    rng = random.Random(seed)
    pool = _Pool(rng)
    ranks = rng.sample([r for r in _RANKS if r != "7"], 4)
    others = [r for r in _RANKS if r not in ranks and r != "7"]
    packets = [[pool.filler(11, others)] for _ in range(4)]
    hand: list[str] = []
    if rng.random() < 0.4:  # a side that has not opened
        for _ in range(rng.randint(3, 9)):
            x = rng.random()
            hand.append(pool.wild() if x < 0.35 else pool.of(rng.choice(ranks[:3])))
        pile = [*pool.filler(rng.randint(0, 3), others), pool.of(rng.choice([*ranks[:3], others[0]]))]
        hands = [hand, *(pool.filler(3, others) for _ in range(3))]
        return canasta.build_position(
            PIERSON, hands=hands, melds=[[], []], packets=packets, phase=rng.choice(["meld", "draw"]),
            pile=pile, deal_number=rng.randint(1, 4),
        )
    side: list[list[str]] = []
    for kind in rng.sample(["clean", "sevens", "dirty", "wild", "dirty2"], rng.choice([0, 2, 3, 4, 4, 5])):
        if kind == "clean":
            side.append([pool.of(ranks[0]) for _ in range(7)])
        elif kind == "sevens":
            side.append([pool.of("7") for _ in range(7)])
        elif kind == "wild":
            side.append([pool.wild() for _ in range(7)])
        else:
            w = rng.randint(1, 3)
            rank = ranks[1] if kind == "dirty" else ranks[2]
            side.append([pool.of(rank) for _ in range(7 - w)] + [pool.wild() for _ in range(w)])
    for _ in range(rng.randint(0, 4)):
        rank = rng.choice([*ranks[:3], "7"])
        n = max(rng.randint(2, 5), 2)
        w = 0 if rank == "7" else rng.randint(0, min(3, 6 - n))
        n = max(n, 3 - w)
        side.append([pool.of(rank) for _ in range(n)] + [pool.wild() for _ in range(w)])
    for _ in range(rng.randint(1, 8)):
        x = rng.random()
        hand.append(pool.wild() if x < 0.25 else pool.of(rng.choice([*ranks[:3], "7"])))
    if rng.random() < 0.7:
        packets[0] = packets[2] = []  # the player and the partner in their feet
    books = any(len(m) >= 7 for m in side)
    hands = [hand, *(pool.filler(3, others) for _ in range(3))]
    return canasta.build_position(
        PIERSON, hands=hands, melds=[side, []], packets=packets, phase="meld", opened=[bool(side), False],
        first_canasta=[1 if books else -1, -1, -1, -1], pile=pool.filler(2, others),
    )


def test_the_reference_agrees_on_random_positions() -> None:
    checked = bound = several = onto_books = 0
    for seed in range(160):
        try:
            state = _random_position(seed)
        except (InvalidPositionError, IndexError):
            continue  # (a position play cannot reach, or a card the pool ran out of)
        states = [state]
        if AskGoOut() in state.legal_actions():
            asked = state.copy()
            asked.apply(AskGoOut())
            if asked.phase is Phase.ANSWER:
                asked.apply(AnswerGoOut(True))
                states.append(asked)
        for s in states:
            try:
                check_exact_legality(s, max_nodes=200_000)
            except ReferenceBudgetExceeded:
                continue
            checked += 1
            legal = s.legal_actions()
            bound += s.bound
            several += any(isinstance(a, Meld) and a.slot and not a.book for a in legal)
            onto_books += any(isinstance(a, Meld) and a.book and (a.twos or a.jokers) for a in legal)
    assert checked >= 150 and bound >= 15 and several >= 40 and onto_books >= 40, (checked, bound, several)


def test_the_json_observation_numbers_several_melds_and_books() -> None:
    hands = [["KC", "9C", "9D"], ["QC"], ["JC"], ["QH"]]
    melds = [[DIRTY_J, ["JH", "JS", "JD", "JH", "JS", "JD", "2H"], ["KS", "KS", "KC"], ["KD", "KD", "*"]], []]
    state = _position(PIERSON, hands=hands, melds=melds)
    seen = canasta.observation_to_json(state.observation(0))["melds"][0]
    assert [(m["rank"], m.get("slot")) for m in seen] == [("K", 0), ("K", 1), ("J", 0), ("J", 1)]
    classic = canasta.observation_to_json(canasta.Game("classic", seed=1).observation(0))
    assert all("slot" not in m for side in classic["melds"] for m in side)
