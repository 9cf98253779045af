"""The sequence games' RL ids (canasta.rl.SequenceActionSpace, version 9): a computed bijection, bounds, refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given
from suited_strategies import every_action_but_groups, groups_of, sequence_game_actions

import canasta
from canasta.actions import AnswerGoOut, Discard, DrawStock, EndHand, Meld, TakePile
from canasta.cards import Kind, Suit
from canasta.rl import (
    ACTION_SPACE_VERSION,
    BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION,
    SEQUENCES_ACTION_SPACE_VERSION,
    ActionSpace,
    ActionSpaceError,
    SequenceActionSpace,
)
from canasta.suitedactions import SequenceGameAction
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

SPACE = SequenceActionSpace()
C, D, H, S = Suit
DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_id_names_one_action_and_comes_back_from_it() -> None:
    # The whole space, dense: 1,105,784 ids, each decoded and encoded again (a few seconds).
    to_action, to_id = SPACE.to_action, SPACE.to_id
    wrong = [i for i in range(SPACE.size) if to_id(to_action(i)) != i]
    assert wrong == []


def test_the_size_and_the_sections() -> None:
    assert len(SPACE) == SPACE.size == 1_105_784
    assert SPACE._starts == (0, 5, 52, 830, 1010, 3314, 5330, 7540, 7544, 1_105_784)
    assert SequenceActionSpace(group_wilds=18).size == 7544 + 11 * 65 * 256 * 91  # bolivia-free-wilds
    assert SequenceActionSpace(group_wilds=0).size == 7544 + 11 * 65 * 256


def test_the_version_is_its_own() -> None:
    assert SPACE.version == SEQUENCES_ACTION_SPACE_VERSION == 9
    assert SEQUENCES_ACTION_SPACE_VERSION > BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION > ACTION_SPACE_VERSION
    assert repr(SPACE) == "SequenceActionSpace(group_wilds=2, size=1105784)"


@pytest.mark.parametrize(
    ("action", "action_id"),
    [
        (DrawStock(), 0),
        (AnswerGoOut(False), 3),
        (EndHand(), 4),
        (Discard(Kind.FOUR, suit=C), 5),
        (Discard(Kind.ACE, suit=S), 48),
        (Discard(Kind.TWO), 49),
        (Discard(Kind.BLACK_THREE), 51),
        (PileTake(TakeMode.PAIR, None, (C, C)), 52),
        (PileTake(TakeMode.PAIR, 0, (C, D)), 52 + 10 + 1),
        (PileTake(TakeMode.TOP_ONTO_GROUP, 0), 52 + 650),
        (PileTake(TakeMode.TOP_ONTO_SEQUENCE, 63), 829),
        (LaySequence(C, 4, 6), 830),
        (LaySequence(S, 4, 14), 830 + 3 * 45 + 8),  # the 4 to the ace: Brazilian's going-out turn
        (Extend(0, 4, 7), 1010),
        (Combine(0, 1), 3314),
        (Combine(62, 63), 5329),
        (LayWild(0, 1), 5330),  # by total, then 2s
        (LayWild(1, 0), 5331),
        (LayBlackThrees(6), 7543),
        (LayGroup(4, (0, 0, 0, 0), 0, 0), 7544),
        (LayGroup(4, (0, 0, 0, 1), 0, 0), 7544 + 6),  # spades the least significant count
        (LayGroup(14, (3, 3, 3, 3), 2, 0, 63), 1_105_783),
    ],
)
def test_documented_ids(action: SequenceGameAction, action_id: int) -> None:
    assert SPACE.to_id(action) == action_id
    assert SPACE.to_action(action_id) == action


def test_every_action_but_the_groups_has_its_own_id() -> None:
    actions = list(every_action_but_groups())
    assert sorted(SPACE.to_ids(actions)) == list(range(7544))  # the first 7,544 ids, each once
    kings = list(groups_of(13, (None, 0, 63)))
    ids = SPACE.to_ids(kings)
    assert len(set(ids)) == len(kings)
    assert all(SPACE.to_action(i) == a for i, a in zip(ids, kings, strict=True))


@given(sequence_game_actions())
def test_an_action_comes_back_from_its_id(action: SequenceGameAction) -> None:
    action_id = SPACE.to_id(action)
    assert 0 <= action_id < SPACE.size
    back = SPACE.to_action(action_id)
    assert back == action and type(back) is type(action)


@pytest.mark.parametrize("action_id", [-1, 1_105_784, 10**12, np.int64(1_105_784), 1.0, True, "3", None])
def test_an_id_outside_the_space_is_refused(action_id: object) -> None:
    with pytest.raises(ActionSpaceError):
        SPACE.to_action(action_id)


def test_numpy_ids_are_read() -> None:
    assert SPACE.to_action(np.int64(830)) == LaySequence(C, 4, 6)


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (LayGroup(13, (1, 1, 0, 0), 0, 0, 64), "meld is None or a number 0 to 63"),
        (LayGroup(13, (1, 1, 0, 0), 2, 1), "at most 2 wild cards"),
        (LayGroup(13, (4, 0, 0, 0), 0, 0), "0 to 3 naturals of a suit"),
        (LaySequence(H, 5, 6), "3 cards or more"),
        (Extend(0, 5, 7), "4 cards or more"),
        (Extend(64, 5, 9), "a meld 0 to 63"),
        (Combine(5, 3), "the older (lower) first"),
        (Combine(2, 2), "the older (lower) first"),
        (LayWild(0, 0), "1 to 7 wild cards"),
        (LayWild(5, 3), "1 to 7 wild cards"),
        (LayBlackThrees(2), "3 to 6"),
        (LayBlackThrees(7), "3 to 6"),
        (PileTake(TakeMode.PAIR, None, (H, C)), "two suits in order"),
        (PileTake(TakeMode.TOP_ONTO_GROUP), "names a meld 0 to 63 and no pair"),
        (PileTake(TakeMode.TOP_ONTO_SEQUENCE, 1, (C, C)), "no pair"),
        (Discard(Kind.KING), "names its suit"),
        (Discard(Kind.RED_THREE), "a red three is never discarded"),
        (Meld(Kind.KING, 3), "Meld is not an action of the sequence games"),
        (TakePile(), "TakePile is not an action"),
        (object(), "object is not an action"),
    ],
)
def test_an_action_outside_the_space_is_refused(action: object, why: str) -> None:
    # (A rank outside 4 to 14 no longer makes an action at all: `tests/test_suited_actions.py`.)
    with pytest.raises(ActionSpaceError, match=re.escape(why)):
        SPACE.to_id(action)
    with pytest.raises(ActionSpaceError):
        SPACE.to_ids([DrawStock(), action])


def test_fewer_wild_cards_in_a_group_make_a_smaller_space() -> None:
    natural = SequenceActionSpace(group_wilds=0)
    with pytest.raises(ActionSpaceError, match="at most 0 wild cards"):
        natural.to_id(LayGroup(13, (1, 1, 0, 0), 1, 0))
    free = SequenceActionSpace(group_wilds=18)
    big = LayGroup(13, (1, 1, 0, 0), 12, 6)
    assert free.to_action(free.to_id(big)) == big
    assert free.to_id(free.to_action(free.size - 1)) == free.size - 1
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="group_wilds"):
            SequenceActionSpace(group_wilds=bad)  # type: ignore[arg-type]


class FakeState:
    def __init__(self, legal: list[SequenceGameAction]) -> None:
        self.legal = legal

    def legal_actions(self) -> list[SequenceGameAction]:
        return self.legal


def test_the_mask_is_true_exactly_at_the_legal_ids() -> None:
    legal: list[SequenceGameAction] = [
        DrawStock(),
        PileTake(TakeMode.PAIR, 2, (H, S)),
        LayGroup(13, (0, 0, 1, 2), 1, 0, 3),
        LaySequence(H, 5, 9),
    ]
    state = FakeState(legal)
    ids = SPACE.legal_ids(state)
    assert ids == SPACE.to_ids(legal)
    mask = SPACE.legal_mask(state)
    assert mask.dtype == np.bool_ and mask.shape == (SPACE.size,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
    with pytest.raises(ActionSpaceError):
        SPACE.legal_mask(FakeState([Discard(Kind.KING)]))


def test_todays_spaces_give_no_id_to_a_suited_action() -> None:
    classic = ActionSpace(canasta.load_rules("classic"))
    assert classic.size == 1005 and classic.to_id(Discard(Kind.KING)) == 5 + 13  # unchanged
    for action in (Discard(Kind.KING, suit=H), LaySequence(H, 5, 9)):
        with pytest.raises(ActionSpaceError):
            classic.to_id(action)  # type: ignore[arg-type]


def test_the_docs_state_the_size() -> None:
    assert "1,105,784" in (DOCS / "rl.md").read_text()
    assert "1,105,784" in (SequenceActionSpace.__doc__ or "")
