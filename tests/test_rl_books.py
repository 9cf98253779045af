"""canasta.rl under Hand and Foot's add-to-books and red-threes-dead (issue 33): ids, versions and exact masks."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from helpers import play_random_hand  # noqa: E402

import canasta  # noqa: E402
from canasta import HandState, Kind, Meld, TakePile  # noqa: E402
from canasta.rl import (  # noqa: E402
    BOOKS_ACTION_SPACE_VERSION,
    BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION,
    WILD_PAIR_ACTION_SPACE_VERSION,
    ActionSpace,
)
from canasta.rl.actions import book_actions  # noqa: E402

BASE = canasta.load_rules("hand-and-foot")
BOOKS = canasta.load_rules("hand-and-foot", ["add-to-books"])
DEAD = canasta.load_rules("hand-and-foot", ["red-threes-dead"])
BOTH = canasta.load_rules("hand-and-foot", ["add-to-books", "foot-after-first-book"])


def test_book_actions_come_last_in_version_6_and_every_other_id_is_kept() -> None:
    space, base = ActionSpace(BOOKS), ActionSpace(BASE)
    assert space.version == BOOKS_ACTION_SPACE_VERSION == 6
    assert base.version == WILD_PAIR_ACTION_SPACE_VERSION  # the base game keeps its version and ids
    added = book_actions(BOOKS)
    assert space.actions[: base.size] == base.actions and space.actions[base.size :] == added
    per_rank = 4 * BOOKS.deck.packs
    assert added[0] == TakePile(2, 0, 0, book=True) and len(added) == 1 + 11 * per_rank
    assert space.to_id(Meld(Kind.ACE, per_rank, book=True)) == space.size - 1
    assert book_actions(BASE) == ()
    assert ActionSpace(DEAD).actions == base.actions  # red-threes-dead: a red three's discard has its id already


def test_books_with_pick_ups_are_version_8_version_6_then_the_pick_up() -> None:
    space = ActionSpace(BOTH)
    assert space.version == BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION == 8
    assert space.actions[:-1] == ActionSpace(BOOKS).actions and space.actions[-1] == canasta.PickUpPacket()


@pytest.mark.parametrize("rules", [BOOKS, DEAD, BOTH], ids=["add-to-books", "red-threes-dead", "both"])
def test_masks_are_exact_in_random_play(rules: canasta.Rules) -> None:
    space = ActionSpace(rules)
    seen: set[type] = set()
    checked = 0
    for seed in range(3):
        state = HandState.deal(rules, dealer=seed % 4, scores=[0, 0], seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            mask = space.legal_mask(state)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(space.to_id(a) for a in legal)
            action = legal[rng.randrange(len(legal))]
            if getattr(action, "book", False):
                seen.add(type(action))
            assert space.to_action(space.to_id(action)) == action
            state.apply(action)
            checked += 1
    assert checked > 100
    if rules is BOOKS:
        assert Meld in seen  # random play adds to books
    play_random_hand(random.Random(9), seed=9, rules=rules, scores=[0, 0])
