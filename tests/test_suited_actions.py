"""A discard names a natural's suit in the sequence games (``Discard.suit``); today's discards are as they were."""

from __future__ import annotations

import pickle

import pytest

import canasta
from canasta.actions import Discard, DrawStock, Meld, TakePile
from canasta.cards import Kind, Suit
from canasta.suitedactions import SEQUENCE_GAME_ACTION_TYPES, SUITED_ACTION_TYPES
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

K, H = Kind.KING, Suit.HEARTS


def test_a_discard_without_a_suit_keeps_its_repr_equality_and_hash() -> None:
    plain = Discard(K)
    assert plain.suit is None
    assert repr(plain) == "Discard(kind=<Kind.KING: 13>)"  # (the play digests hash reprs)
    assert str(plain) == "discard K"
    assert plain == Discard(K, suit=None) == Discard(13)
    assert hash(plain) == hash(Discard(K, suit=None))
    assert len({Discard(k) for k in Kind}) == len(Kind)


def test_a_discard_of_a_natural_names_its_suit() -> None:
    hearts = Discard(K, suit=H)
    assert hearts.suit is H and hearts.kind is K
    assert hearts != Discard(K) and hearts != Discard(K, suit=Suit.SPADES)
    assert hearts == Discard(13, suit=2)  # exact integers name a kind and a suit, as for the kind
    assert type(Discard(13, suit=2).suit) is Suit
    assert repr(hearts) == "Discard(kind=<Kind.KING: 13>, suit=<Suit.HEARTS: 2>)"
    assert str(hearts) == "discard KH"
    assert len({Discard(K, suit=s) for s in Suit} | {Discard(K)}) == 5
    assert pickle.loads(pickle.dumps(hearts)) == hearts


def test_the_suit_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        Discard(K, H)  # type: ignore[misc]


@pytest.mark.parametrize("kind", [Kind.TWO, Kind.JOKER, Kind.RED_THREE, Kind.BLACK_THREE])
def test_a_suit_on_a_wild_card_or_a_three_is_refused(kind: Kind) -> None:
    with pytest.raises(ValueError, match="only a natural card's discard names its suit"):
        Discard(kind, suit=Suit.CLUBS)
    assert Discard(kind).suit is None


@pytest.mark.parametrize(
    ("suit", "error", "match"),
    [
        ("H", TypeError, "a suit must be a canasta.Suit"),
        (2.0, TypeError, "a suit must be"),
        (True, TypeError, "a suit must be"),
        (4, ValueError, "no suit has the number 4"),
        (-1, ValueError, "no suit has the number -1"),
    ],
)
def test_a_suit_that_is_not_one_is_refused(suit: object, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        Discard(K, suit=suit)  # type: ignore[arg-type]


def test_todays_engine_refuses_a_discard_that_names_a_suit() -> None:
    game = canasta.Game("classic", seed=3)
    game.apply(DrawStock())
    kinds = {a.kind for a in game.legal_actions() if isinstance(a, Discard) and a.kind.is_natural}
    assert kinds
    for kind in kinds:
        assert Discard(kind) in game.legal_actions()
        assert not game.is_legal(Discard(kind, suit=Suit.SPADES))  # a suit is no part of today's rule sets
        with pytest.raises(canasta.IllegalActionError):
            game.apply(Discard(kind, suit=Suit.SPADES))


def test_the_sequence_games_action_classes() -> None:
    assert LayGroup in SUITED_ACTION_TYPES and PileTake in SUITED_ACTION_TYPES
    assert SUITED_ACTION_TYPES < SEQUENCE_GAME_ACTION_TYPES
    assert Discard in SEQUENCE_GAME_ACTION_TYPES
    assert not {Meld, TakePile} & SEQUENCE_GAME_ACTION_TYPES  # their melds and takes name suits and melds


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (lambda: LayGroup(13.0, (1, 1, 1, 0)), TypeError, "a natural rank must be an int"),
        (lambda: LayGroup(3, (1, 1, 1, 0)), ValueError, "a natural rank is 4 to 14"),
        (lambda: LayGroup(13, (1, 1, 1, 0), jokers=True), TypeError, "a card count must be an int"),
        (lambda: LayGroup(13, (1, 1, 1, 0), twos=-1), ValueError, "must not be negative"),
        (lambda: LayGroup(13, (1, 1, 1, 0), meld=2.0), TypeError, "a meld number must be an int"),
        (lambda: LaySequence(H, 9, 4), ValueError, "from its low rank up to its high rank"),
        (lambda: LaySequence(True, 4, 6), TypeError, "a suit must be a canasta.Suit"),
        (lambda: LaySequence(H, 4, 15), ValueError, "a natural rank is 4 to 14"),
        (lambda: Extend(-1, 4, 9), ValueError, "a meld number must not be negative"),
        (lambda: LayWild(2.5), TypeError, "a card count must be an int"),
        (lambda: Combine(0, 1.0), TypeError, "a meld number must be an int"),
        (lambda: LayBlackThrees(True), TypeError, "a card count must be an int"),
        (lambda: PileTake("pair"), TypeError, "a take's mode must be a canasta.suitedpile.TakeMode"),
        (lambda: PileTake(TakeMode.PAIR, 5.0), TypeError, "a meld number must be an int"),
        (lambda: PileTake(TakeMode.PAIR, None, (2,)), TypeError, "a take's pair is two suits"),
        (lambda: PileTake(TakeMode.PAIR, None, (H, 4)), ValueError, "no suit has the number 4"),
    ],
)
def test_a_field_that_only_looks_right_is_refused_when_the_action_is_made(
    make: object, error: type[Exception], match: str
) -> None:
    """``13.0 == 13``: such a field would match a legal action and then break the engine (it indexes with it)."""
    with pytest.raises(error, match=match):
        make()  # type: ignore[operator]


def test_exact_integers_of_other_types_are_converted() -> None:
    numpy = pytest.importorskip("numpy")
    group = LayGroup(numpy.int64(13), (1, 1, 1, 0), twos=numpy.int8(1), meld=numpy.int32(2))
    assert group == LayGroup(13, (1, 1, 1, 0), twos=1, meld=2)
    assert type(group.rank) is int and type(group.twos) is int and type(group.meld) is int
    assert PileTake(TakeMode.PAIR, None, (2, 3)).pair == (Suit.HEARTS, Suit.SPADES)


def test_a_look_alike_of_a_legal_action_can_no_longer_reach_the_engine() -> None:
    """Found by a hostile check: a legal group with a float rank passed the legality test, then the
    compiled transition failed with a bare TypeError after logging it. It cannot be made now."""
    for seed in range(30):
        state = canasta.HandState.deal(canasta.load_rules("samba"), dealer=3, scores=[0, 0], seed=seed)
        state.apply(DrawStock())
        groups = [a for a in state.legal_actions() if isinstance(a, LayGroup)]
        if groups:
            break
    legal = groups[0]
    with pytest.raises(TypeError):
        LayGroup(float(legal.rank), legal.suits, legal.twos, legal.jokers, legal.meld)
    state.apply(LayGroup(legal.rank, legal.suits, legal.twos, legal.jokers, legal.meld))  # an equal one is played
    assert state.log[-1][1] == legal
