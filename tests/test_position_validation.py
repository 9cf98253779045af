"""`build_position` at its boundary: every malformed or impossible argument is an `InvalidPositionError`.

The message starts with the argument at fault (``"seat: ..."``,
``"hands[2][0]: ..."``). Hypothesis feeds malformed values to every argument
and random positions to the whole; nothing but `InvalidPositionError` may
escape, and an accepted position is one that play can go on from. Reachable
positions, written back as arguments, are always accepted.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from helpers import check_conservation, check_state, classic_rules
from hypothesis import given
from hypothesis import strategies as st

import canasta
from canasta import AskGoOut, Card, HandState, InvalidPositionError, Kind, Phase, Suit, build_position
from canasta.cards import SEQUENCE_MELD
from canasta.suitedmeldactions import Combine
from canasta.testing import strategies as cst

OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]
KINGS = ["KH", "KS", "KD"]
CANASTA = ["QH", "QS", "QD", "QC", "QH", "QS", "QD"]
#: A valid classic position; each case below spoils one argument of it.
BASE: dict[str, Any] = {"hands": [["9C", "9S", "JH"], *OTHERS], "melds": [[KINGS], []], "pile": ["7S"]}


def build(**changes: Any) -> HandState:
    return build_position(classic_rules(), **{**BASE, **changes})


def test_the_base_position_is_valid() -> None:
    state = build()
    assert state.legal_actions()
    assert build(phase="meld").legal_actions()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # cards of the wrong type, and wrong nesting
        ({"hands": [[5, "9S"], *OTHERS]}, r"^hands\[0\]\[0\]: expected a card .*got 5 \(int\)"),
        ({"hands": [["9C", None], *OTHERS]}, r"^hands\[0\]\[1\]: expected a card .*got None \(NoneType\)"),
        ({"hands": [[["9C"]], *OTHERS]}, r"^hands\[0\]\[0\]: expected a card .*\(list\)"),
        ({"hands": None}, r"^hands: expected a list of lists of cards, got None"),
        ({"hands": "9C 9S"}, r"^hands: expected a list of lists of cards, got '9C 9S' \(str\)"),
        ({"hands": ["9C", *OTHERS]}, r"^hands\[0\]: expected a list of cards, got '9C' \(str\)"),
        ({"hands": {0: ["9C"]}}, r"^hands: expected a list"),
        ({"pile": "7S"}, r"^pile: expected a list of cards, got '7S'"),
        ({"pile": [7]}, r"^pile\[0\]: expected a card"),
        ({"set_aside": 5}, r"^set_aside: expected a list of lists of cards, got 5 \(int\)"),
        ({"set_aside": [["3S"]]}, r"^set_aside: 1 given for 2 sides"),
        ({"threes": [["3H"]] * 3}, r"^threes: 3 given for 4 seats"),
        ({"melds": [KINGS, []]}, r"^melds\[0\]\[0\]: expected a list of cards, got 'KH' \(str\)"),
        ({"melds": [[KINGS]]}, r"^melds: 1 given for 2 sides"),
        ({"melds": [None, []]}, r"^melds\[0\]: expected a list of melds, got None"),
        ({"stock": 0}, r"^stock: expected a list of cards"),
        ({"hands": [[Card("K", None)], *OTHERS]}, r"^hands\[0\]\[0\]: not a valid card"),  # type: ignore[arg-type]
        ({"hands": [[Card(13, "H")], *OTHERS]}, r"^hands\[0\]\[0\]: not a valid card"),  # type: ignore[arg-type]
        ({"hands": [[Card(99, Suit.HEARTS)], *OTHERS]}, r"^hands\[0\]\[0\]: not a valid card"),
        ({"hands": [["1" * 5000 + "H"], *OTHERS]}, r"^hands\[0\]\[0\]: not a card: '1111"),
        ({"hands": [["QX"], *OTHERS]}, r"^hands\[0\]\[0\]: not a card: 'QX' \(unknown suit 'X'\)"),
        ({"hands": [["9C", "QH", "QH", "QH"], *OTHERS]}, r"^hands\[0\]\[3\]: card 'QH' appears more often"),
        ({"pile": ["9C", "9C"]}, r"^pile\[1\]: card '9C' appears more often"),
        # seats, turns, dealers
        ({"seat": None}, r"^seat: expected an integer, got None"),
        ({"seat": "0"}, r"^seat: expected an integer, got '0' \(str\)"),
        ({"seat": 1.5}, r"^seat: expected an integer, got 1.5 \(float\)"),
        ({"seat": 1.0}, r"^seat: expected an integer, got 1.0 \(float\)"),
        ({"seat": True}, r"^seat: expected an integer, got True \(bool\)"),
        ({"seat": 4}, r"^seat: 4 is out of range \(must be 0 to 3\)"),
        ({"seat": -1}, r"^seat: -1 is out of range"),
        ({"turn": "x"}, r"^turn: expected an integer, got 'x'"),
        ({"turn": -1}, r"^turn: -1 is out of range \(must be 0 or more\)"),
        ({"turn": 2.0}, r"^turn: expected an integer"),
        ({"dealer": 1.5}, r"^dealer: expected an integer, got 1.5"),
        ({"dealer": math.nan}, r"^dealer: expected an integer, got nan \(float\) \(NaN\)"),
        ({"dealer": 4}, r"^dealer: 4 is out of range"),
        ({"dealer": -1}, r"^dealer: -1 is out of range"),
        ({"stock_seed": 1.5}, r"^stock_seed: expected an integer"),
        ({"phase": None}, r"^phase: must be 'draw' or 'meld', got None"),
        ({"phase": ["draw"]}, r"^phase: must be 'draw' or 'meld'"),
        ({"phase": Phase.DRAW}, r"^phase: must be 'draw' or 'meld'"),
        # opened and scores
        ({"opened": [1, 0]}, r"^opened\[0\]: expected True or False, got 1 \(int\)"),
        ({"opened": [True, None]}, r"^opened\[1\]: expected True or False, got None"),
        ({"opened": [True, "no"]}, r"^opened\[1\]: expected True or False"),
        ({"opened": True}, r"^opened: expected a list of flags"),
        ({"opened": [True]}, r"^opened: 1 given for 2 sides"),
        ({"opened": [False, False]}, r"^opened\[0\]: side 0 has melds on the table, so it has opened"),
        ({"scores": [None, 0]}, r"^scores\[0\]: expected an integer, got None"),
        ({"scores": [0, math.nan]}, r"^scores\[1\]: expected an integer, got nan"),
        ({"scores": [math.inf, 0]}, r"^scores\[0\]: expected an integer, got inf"),
        ({"scores": [-math.inf, 0]}, r"^scores\[0\]: expected an integer"),
        ({"scores": [100.0, 0]}, r"^scores\[0\]: expected an integer, got 100.0 \(float\)"),
        ({"scores": [False, 0]}, r"^scores\[0\]: expected an integer, got False \(bool\)"),
        ({"scores": 0}, r"^scores: expected a list of scores"),
        ({"scores": [0]}, r"^scores: 1 given for 2 sides"),
        # the rules
        ({"rules": "classic"}, r"^rules: expected canasta.Rules, got 'classic' \(str\)"),
    ],
)
def test_a_malformed_argument_is_named(changes: dict[str, Any], message: str) -> None:
    kwargs = {**BASE, **changes}
    rules = kwargs.pop("rules", classic_rules())
    with pytest.raises(InvalidPositionError, match=message):
        build_position(rules, **kwargs)


@pytest.mark.parametrize("phase", ["draw", "meld"])
@pytest.mark.parametrize("empty", [1, 2, 3])
def test_a_seat_without_cards_is_refused_even_when_it_is_not_acting(phase: str, empty: int) -> None:
    hands = [["9C", "9S", "JH"], *OTHERS]
    hands[empty] = []
    with pytest.raises(InvalidPositionError, match=rf"^hands\[{empty}\]: seat {empty} has no cards"):
        build(hands=hands, phase=phase)


def test_the_acting_seat_without_cards_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match=r"^hands\[0\]: the acting player has no cards"):
        build(hands=[[], *OTHERS], phase="meld")


@pytest.mark.parametrize("threes", [["3S", "3C", "3S"], ["3S", "3C", "3S", "3C"]])
def test_a_black_three_meld_cannot_be_on_the_table_mid_hand(threes: list[str]) -> None:
    with pytest.raises(InvalidPositionError, match=r"^melds\[0\]\[1\]: black threes are melded only when going out"):
        build(melds=[[KINGS, threes], []])


def test_a_turn_with_no_legal_action_is_refused() -> None:
    # One card, melds but no canasta: discarding it would go out without a canasta; nothing else is possible.
    with pytest.raises(InvalidPositionError, match=r"^position: seat 0 has no legal action in the meld phase"):
        build(hands=[["9C"], *OTHERS], phase="meld")
    # The same card with a canasta on the table goes out.
    assert build(hands=[["9C"], *OTHERS], melds=[[CANASTA], []], phase="meld").legal_actions()


def test_numpy_integers_are_taken_as_their_value() -> None:
    np = pytest.importorskip("numpy")
    state = build(seat=np.int64(1), dealer=np.int32(0), turn=np.uint8(9), scores=[np.int64(1500), np.int16(-5)])
    assert (state.seat, state.dealer, state.turn, state.scores) == (1, 0, 9, [1500, -5])
    assert all(type(v) is int for v in (state.seat, state.dealer, state.turn, *state.scores))
    with pytest.raises(InvalidPositionError, match=r"^seat: expected an integer"):
        build(seat=np.float64(1.0))
    with pytest.raises(InvalidPositionError, match=r"^opened\[0\]: expected True or False"):
        build(opened=[np.bool_(True), False])


def test_tuples_and_cards_are_accepted() -> None:
    state = build(hands=tuple(tuple(h) for h in BASE["hands"]), pile=(Card(7, Suit.SPADES),))
    assert sorted(c.code for c in state.hand_cards(0)) == ["9C", "9S", "JH"]
    assert [state.deck.cards[c].code for c in state.pile] == ["7S"]


def test_a_position_that_ends_at_once_is_accepted_as_finished() -> None:
    # An empty stock and nothing to take: the hand ends by exhaustion as the turn begins. That is a
    # finished position, not a dead end.
    rest = [c.code for c in canasta.Deck(classic_rules().deck).cards]
    for card in ["9C", "9S", "JH", *(c for hand in OTHERS for c in hand), *KINGS]:
        rest.remove(card)
    red = [c for c in rest if c in ("3H", "3D")]
    hands = [["9C", "9S", "JH", *(c for c in rest if c not in ("3H", "3D"))], *OTHERS]
    over = build(hands=hands, threes=[red, [], [], []], pile=[], stock=[])
    assert over.is_over and list(over.legal_actions()) == []


def test_a_refusal_leaves_nothing_behind() -> None:
    # A refused position is never half-built into shared state: the same valid position builds the same.
    before = build().legal_actions()
    for bad in ({"seat": None}, {"scores": [None, 0]}, {"melds": [[KINGS, ["3S", "3C", "3S"]], []]}):
        with pytest.raises(InvalidPositionError):
            build(**bad)
    assert build().legal_actions() == before


# --- hypothesis: malformed values anywhere --------------------------------------------------------

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6)
    | st.binary(max_size=4)
    | st.sampled_from(["QH", "*", "3H", "3S", "2C", "ZZ", "", "draw", "meld", "10S", "JK"])
    | st.builds(Card, st.integers(-2, 16), st.sampled_from([None, *Suit]), st.integers(-1, 3))
    | st.just(Kind.KING)
    | st.just(object())
)
_junk = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=12,
)
_ARGUMENTS: tuple[str, ...] = (
    *("hands", "pile", "melds", "threes", "set_aside", "stock", "stock_seed"),
    *("scores", "dealer", "seat", "phase", "turn", "opened"),
)


@given(argument=st.sampled_from(_ARGUMENTS), value=_junk)
def test_any_malformed_argument_gives_an_invalid_position_error(argument: str, value: object) -> None:
    try:
        state = build(**{argument: value})
    except InvalidPositionError as exc:
        assert str(exc)
        return
    _assert_playable(state)


@given(
    argument=st.sampled_from(("hands", "melds", "threes", "set_aside", "scores", "opened")),
    index=st.integers(0, 3),
    value=_junk,
)
def test_a_malformed_item_inside_an_argument_gives_an_invalid_position_error(
    argument: str, index: int, value: object
) -> None:
    # One level down: keep the shape, spoil one entry (a hand, a side's melds, a score, a flag).
    defaults: dict[str, list[Any]] = {
        "hands": [list(h) for h in BASE["hands"]],
        "melds": [[KINGS], []],
        "threes": [[], [], [], []],
        "set_aside": [[], []],
        "scores": [0, 0],
        "opened": [True, False],
    }
    items = defaults[argument]
    items[index % len(items)] = value
    try:
        state = build(**{argument: items})
    except InvalidPositionError:
        return
    _assert_playable(state)


def _assert_playable(state: HandState) -> None:
    """An accepted position keeps every card once and is either over or has a legal action."""
    check_conservation(state)
    assert state.is_over or state.legal_actions()


# --- hypothesis: random positions, judged as a whole ---------------------------------------------


@st.composite
def _random_positions(draw: st.DrawFn) -> dict[str, Any]:
    """Melds of one rank (some with wild cards), short hands, a pile and laid-out threes; any seat, phase, turn."""
    rules = classic_rules()
    pool = [c.code for c in canasta.Deck(rules.deck).cards]
    random.Random(draw(st.integers(0, 2**32 - 1))).shuffle(pool)

    def take(match: str, count: int) -> list[str]:
        picked = [c for c in pool if c.startswith(match) or (match == "wild" and c[0] in "2*")][:count]
        for card in picked:
            pool.remove(card)
        return picked

    melds: list[list[list[str]]] = []
    for _ in range(rules.side_count):
        ranks = draw(st.lists(st.sampled_from("456789TJQKA"), max_size=3, unique=True))
        melds.append([take(r, draw(st.integers(2, 8))) + take("wild", draw(st.integers(0, 3))) for r in ranks])
    threes = [take("3H", draw(st.integers(0, 1))) + take("3D", draw(st.integers(0, 1))) for _ in range(rules.players)]
    playable = [c for c in pool if c not in ("3H", "3D")]
    hands = []
    for _ in range(rules.players):
        size = draw(st.sampled_from([0, 1, 1, 2, 3, 4, 6]))  # now and then a seat without cards
        hands.append(playable[:size])
        del playable[:size]
    for card in (c for hand in hands for c in hand):
        pool.remove(card)
    pile = take("", draw(st.integers(0, 4)))
    return {
        "hands": hands,
        "melds": melds,
        "threes": threes,
        "pile": pile,
        "seat": draw(st.integers(0, rules.players - 1)),
        "phase": draw(st.sampled_from(["draw", "meld"])),
        "turn": draw(st.none() | st.integers(0, 12)),
        "opened": draw(st.none() | st.lists(st.booleans(), min_size=2, max_size=2)),
        "scores": draw(st.lists(st.sampled_from([0, -200, 1500, 3000]), min_size=2, max_size=2)),
        "stock_seed": draw(st.integers(0, 3)),
    }


def _sorted_legal(state: HandState) -> list[str]:
    # Whether the partner was asked already this hand is no argument of build_position: leave the ask out.
    return sorted(str(a) for a in state.legal_actions() if not isinstance(a, AskGoOut))


@given(kwargs=_random_positions(), seed=st.integers(0, 2**16))
def test_a_random_position_is_refused_or_can_be_played_on(kwargs: dict[str, Any], seed: int) -> None:
    try:
        state = build_position(classic_rules(), **kwargs)
    except InvalidPositionError:
        return
    _assert_playable(state)
    if not state.is_over:
        # Every listed action applies, and none leads straight into a dead end.
        check_state(state, random.Random(seed), legal_sample=None, illegal_sample=4)


# --- reachable positions are accepted --------------------------------------------------------------


def _as_arguments(state: HandState) -> dict[str, Any]:
    """A reachable hand written back as `build_position` arguments (draw phase, or meld after a stock draw)."""
    code = [c.code for c in state.deck.cards]
    return {
        "hands": [[c.code for c in state.hand_cards(s)] for s in range(state.rules.players)],
        "pile": [code[c] for c in state.pile],
        "melds": [[[code[c] for c in m.cards] for m in state.all_melds(side)] for side in range(len(state.melds))],
        "packets": [[[code[c] for c in packet] for packet in packets] for packets in state.packets],
        "deal_number": state.deal_number,
        "threes": [[code[c] for c in t] for t in state.threes],
        "set_aside": [[code[c] for c in a] for a in state.set_aside],
        "stock": [code[c] for c in reversed(state.stock)],
        "scores": list(state.scores),
        "dealer": state.dealer,
        "seat": state.seat,
        "phase": state.phase.value,
        "turn": state.turn,
        "opened": list(state.opened),
    }


def _rebuildable(state: HandState) -> bool:
    if state.regrouped or state.is_over or state.answer is not None or state.bound:
        # A regrouped seating (cutthroat) and a partner's answer are no arguments of build_position.
        return False
    if state.rules.meld_types and any(list(m) != list(range(len(m))) for m in state.melds):
        # (build_position numbers a side's melds 0, 1, ... as listed: a combination retires a number for
        # the hand, and such a table's numbers are no argument of it.)
        return False
    if state.phase is Phase.DRAW:
        return True
    # The meld phase right after a stock draw, before anything else happened this turn.
    return (
        state.phase is Phase.MELD
        and state.drew_from_stock
        and not state.melded_this_turn
        and state.pending_pile is None
    )


@given(state=cst.hand_states(rules=cst.rules(), max_steps=150, allow_over=False))
def test_every_reachable_position_is_accepted(state: HandState) -> None:
    if not _rebuildable(state):
        return
    rebuilt = build_position(state.rules, **_as_arguments(state))
    assert rebuilt.legal_actions(), "a reachable position has a legal action"
    if state.phase is Phase.DRAW:
        assert _sorted_legal(rebuilt) == _sorted_legal(state)


def test_the_sequence_games_positions_are_built_by_their_meld_types() -> None:
    rules = canasta.load_rules("samba")
    melds = [[["KC", "KD", "KH"], ["5H", "6H", "7H"], ["KS", "KC", "KD"]], []]
    hands = [["QC", "QD", "9C", "5H"], ["4C"], ["4D"], ["4H"]]
    state = build_position(rules, hands=hands, melds=melds, phase="meld")
    assert list(state.melds[0]) == [0, 1, 2] and state.meld_numbers == [3, 0]  # numbered as the engine numbers
    assert [m.rank for m in state.melds[0].values()] == [Kind.KING, SEQUENCE_MELD, Kind.KING]
    assert Combine(0, 2) in state.legal_actions()  # two groups of kings: the rules let them combine
    for bad, why in (
        (["5H", "7H", "8H"], "no sequence"),
        (["5H", "6S", "7H"], "no sequence"),
        (["5H", "6H", "2C"], "no sequence"),
        (["KC", "KD"], "not a legal meld"),
        (["3C", "3S", "3C"], "only when going out"),
    ):
        with pytest.raises(InvalidPositionError, match=why):
            build_position(rules, hands=hands, melds=[[bad], []], phase="meld")


def test_the_positions_of_a_fixed_game_round_trip() -> None:
    # Keep the round trip honest on a fixed seed too (hypothesis may skip many states).
    game = canasta.Game(seed=11)
    for _ in range(60):
        if _rebuildable(game.hand):
            rebuilt = build_position(game.rules, **_as_arguments(game.hand))
            assert rebuilt.legal_actions()
        game.apply(game.legal_actions()[0])
