"""Driving a game (issue 2 item 5): exact legal actions, typed refusals, observations, seeds, copies, positions."""

from __future__ import annotations

import random

import pytest
from helpers import classic_rules, position, refused, snapshot, unchanged

from canasta import (
    AskGoOut,
    Discard,
    DrawStock,
    Game,
    IllegalActionError,
    InvalidPositionError,
    Kind,
    Meld,
    RuleCode,
    TakePile,
    build_position,
)

OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]


def test_legal_actions_are_exact_in_a_known_position() -> None:
    state = position(hands=[["QH", "QS", "2C", "9C"], *OTHERS], pile=["7S", "QD"], melds=[[["KH", "KS", "KD"]], []])
    assert state.legal_actions() == (DrawStock(), TakePile(2, 0, 0), TakePile(1, 1, 0), AskGoOut())
    meld = position(hands=[["QH", "QS", "QD", "9C", "9D"], *OTHERS], melds=[[["KH", "KS", "KD"]], []], phase="meld")
    assert meld.legal_actions() == (
        Meld(Kind.QUEEN, 3, 0, 0),
        Discard(Kind.NINE),
        Discard(Kind.QUEEN),
        AskGoOut(),
    )


def test_check_and_is_legal_do_not_apply() -> None:
    state = position(hands=[["QH", "QS", "9C"], *OTHERS], melds=[[["KH", "KS", "KD"]], []])
    with unchanged(state):
        assert state.is_legal(DrawStock())
        state.check(DrawStock())
        assert not state.is_legal(Discard(Kind.NINE))
        with pytest.raises(IllegalActionError) as info:
            state.check(Discard(Kind.NINE))
    assert info.value.code is RuleCode.WRONG_PHASE
    assert "draw" in info.value.message and str(info.value).startswith("[wrong-phase]")


def test_refusals_carry_a_stable_code_and_change_nothing() -> None:
    state = position(hands=[["QH", "2C", "*", "9C"], *OTHERS], melds=[[["KH", "KS", "KD"]], []], phase="meld")
    err = refused(state, Meld(Kind.QUEEN, 1, 1, 1), RuleCode.INVALID_MELD)
    assert "2 naturals" in err.message
    refused(state, "draw please", RuleCode.NOT_AN_ACTION)
    game = Game(seed=1)
    before = snapshot(game.hand)
    with pytest.raises(IllegalActionError) as info:
        game.apply(Discard(Kind.ACE))
    assert info.value.code is RuleCode.WRONG_PHASE and snapshot(game.hand) == before


def test_observation_holds_exactly_what_the_seat_may_see() -> None:
    state = position(
        hands=[["QH", "QS", "9C"], ["4H", "5H"], ["4C", "7C", "8C", "JC"], ["4D"]],
        pile=["2H", "7S"],
        melds=[[["KH", "KS", "KD"]], [["AH", "AS", "AD"]]],
        threes=[["3H"], [], [], ["3D"]],
    )
    obs = state.observation(0)
    assert sorted(c.code for c in obs.hand) == ["9C", "QH", "QS"]
    assert obs.hand_sizes == (3, 2, 4, 1) and obs.stock_size == len(state.stock)
    assert [c.code for c in obs.pile] == ["2H", "7S"] and obs.pile_frozen
    assert [[m.rank for m in side] for side in obs.melds] == [[Kind.KING], [Kind.ACE]]
    assert [[c.code for c in t] for t in obs.threes] == [["3H"], [], [], ["3D"]]
    assert obs.legal_actions == tuple(state.legal_actions()) and obs.acting_seat == 0
    other = state.observation(2)
    assert sorted(c.code for c in other.hand) == ["4C", "7C", "8C", "JC"] and other.legal_actions == ()
    with pytest.raises(ValueError):
        state.observation(4)


def test_observation_does_not_depend_on_hidden_cards() -> None:
    # Two tables that differ only in cards seat 0 cannot see: other hands and the stock order.
    common = {"pile": ["7S"], "melds": [[["KH", "KS", "KD"]], []], "seat": 0}
    a = position(hands=[["QH", "QS", "9C"], ["4H", "5H"], ["4C", "7C"], ["4D"]], stock_seed=1, **common)
    b = position(hands=[["QH", "QS", "9C"], ["JH", "TH"], ["AC", "AS"], ["*"]], stock_seed=2, **common)
    assert a.observation(0) == b.observation(0)
    assert a.observation(1) != b.observation(1)
    fields = {f.name for f in a.observation(0).__attrs_attrs__}
    assert "stock" not in fields and "hands" not in fields


def test_a_seed_makes_a_game_reproducible() -> None:
    def play(seed: int) -> tuple[object, ...]:
        game = Game(seed=seed)
        rng = random.Random(99)
        trace = []
        for _ in range(300):
            action = rng.choice(game.legal_actions())
            trace.append(action)
            game.apply(action)
        return tuple(trace), tuple(game.scores), snapshot(game.hand)

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_games_of_one_deck_spec_share_their_deck_and_still_play_apart() -> None:
    # One Deck per deck spec (building its cards was most of a new game's cost); a deck is never changed.
    first, second = Game(seed=1), Game(seed=1)
    assert first.hand.deck is second.hand.deck
    assert Game("six-player").hand.deck is not first.hand.deck  # three packs: another deck
    first.apply(first.legal_actions()[0])
    assert snapshot(second.hand) == snapshot(Game(seed=1).hand) != snapshot(first.hand)


def test_copy_is_independent() -> None:
    game = Game(seed=2)
    before = snapshot(game.hand)
    clone = game.copy()
    clone.apply(clone.legal_actions()[0])
    clone.apply(clone.legal_actions()[-1])
    assert snapshot(game.hand) == before and snapshot(clone.hand) != before
    state = position(hands=[["QH", "QS", "QD", "9C", "8C"], *OTHERS], melds=[[["KH", "KS", "KD"]], []], phase="meld")
    copy = state.copy()
    copy.apply(Meld(Kind.QUEEN, 3, 0, 0))
    assert Kind.QUEEN not in state.melds[0] and state.sizes[0] == 5
    assert state.melds[0][Kind.KING] is not copy.melds[0][Kind.KING]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": [["QH", "QH", "QH"], *OTHERS]}, "more often"),
        ({"hands": [["QH"], *OTHERS], "stock": ["KC"]}, "missing"),
        ({"hands": [["QH"], *OTHERS], "melds": [[["QS", "QD", "2C", "2D", "*", "2H"]], []]}, "not a legal meld"),
        ({"hands": [["QH"], *OTHERS], "melds": [[["QS", "KD", "KH"]], []]}, "mixes ranks"),
        ({"hands": [["QH"], *OTHERS], "melds": [[["2S", "2D", "*"]], []]}, "not a legal meld"),
        ({"hands": [["QH", "3H"], *OTHERS]}, "laid out"),
        ({"hands": [["QH"], *OTHERS], "threes": [["3S"], [], [], []]}, "not a bonus three"),
        ({"hands": [["QH"], *OTHERS], "seat": 4}, "seat"),
        ({"hands": [["QH"], *OTHERS], "phase": "discard"}, "phase"),
        ({"hands": [["QH"], *OTHERS[:2]]}, "hands"),
        ({"hands": [[], *OTHERS]}, "no cards"),
        ({"hands": [["QH"], *OTHERS], "melds": [[["QS", "QD", "QC"]], []], "opened": [False, False]}, "opened"),
        ({"hands": [["QH"], *OTHERS], "scores": [0]}, "scores"),
        ({"hands": [["ZZ"], *OTHERS]}, "ZZ"),
    ],
)
def test_build_position_validates(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        build_position(classic_rules(), **kwargs)  # type: ignore[arg-type]
