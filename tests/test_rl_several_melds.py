"""canasta.rl under several melds of a kind and wild cards onto books (issue 33, Hand and Foot's ``pierson-family``).

Action-space version 10 and observation version 6: the ids and fields of the rule set without the two
options, then the melds that name a later meld of a kind, the wild cards onto a book, and every side's
melds and books by kind and number. Masks exact, every legal action round-trips, nothing of a foot seen.
"""

from __future__ import annotations

import random

import attrs
import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from rl_reference import played, reference_mask, reference_observation  # noqa: E402
from test_rl_actions import house_rule_cases, variant_names  # noqa: E402

import canasta  # noqa: E402
from canasta import Game, HandState, Kind, Meld  # noqa: E402
from canasta.rl import (  # noqa: E402
    BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION,
    EARNED_PACKETS_OBSERVATION_VERSION,
    SEVERAL_MELDS_ACTION_SPACE_VERSION,
    SEVERAL_MELDS_OBSERVATION_VERSION,
    ActionSpace,
    ActionSpaceError,
    ObservationEncoder,
    VectorEnv,
    random_legal_ids,
)
from canasta.rl.actions import most_books, most_open_melds, several_meld_actions  # noqa: E402
from canasta.rl.observations import MELD_RANKS  # noqa: E402

PIERSON = canasta.load_rules("hand-and-foot", ["pierson-family"])
#: The same rules without the two options: the layout version 10 starts with.
WITHOUT = attrs.evolve(PIERSON, melds=attrs.evolve(PIERSON.melds, several_melds=False, wilds_onto_books=False))
KING = MELD_RANKS.index(Kind.KING)
QUEEN = MELD_RANKS.index(Kind.QUEEN)


# --- action ids ---------------------------------------------------------------------------------


def test_version_10_is_the_layout_without_the_options_then_the_several_meld_actions() -> None:
    space, base = ActionSpace(PIERSON), ActionSpace(WITHOUT)
    assert base.version == BOOKS_AND_PICK_UP_ACTION_SPACE_VERSION == 8
    assert space.version == SEVERAL_MELDS_ACTION_SPACE_VERSION == 10
    added = several_meld_actions(PIERSON)
    assert space.actions[: base.size] == base.actions and space.actions[base.size :] == added
    assert len(set(space.actions)) == space.size  # each action once
    # The size docs/rl.md states: 836 ids of version 8, then 3,760 melds of a natural rank onto meld 1 to
    # 7 (372 a rank, 40 for sevens), 211 wild melds onto meld 1 to 7, and 1,400 wild cards onto books 0 to 3
    # (10 ranks: 5 mixes of 1 or 2 wild cards, with 0 to 12, 8, 4, 0 naturals).
    natural = [a for a in added if not a.book and a.rank != Kind.JOKER]
    wild = [a for a in added if not a.book and a.rank == Kind.JOKER]
    books = [a for a in added if a.book]
    assert (base.size, len(natural), len(wild), len(books), space.size) == (836, 3760, 211, 1400, 6207)
    assert all(a.slot >= 1 for a in natural + wild) and all(a.twos + a.jokers >= 1 for a in books)
    assert several_meld_actions(WITHOUT) == ()


def test_only_rule_sets_with_the_options_get_version_10() -> None:
    cases = [(v, ()) for v in variant_names()] + [(v, (h,)) for v, h in house_rule_cases()]
    for variant, house_rules in cases:
        rules = canasta.load_rules(variant, house_rules)
        numbered = rules.melds.several_melds or rules.melds.wilds_onto_books
        assert numbered == (house_rules == ("pierson-family",)), (variant, house_rules)
        assert (ActionSpace(rules).version == SEVERAL_MELDS_ACTION_SPACE_VERSION) == numbered, (variant, house_rules)
        assert (ObservationEncoder(rules).version == SEVERAL_MELDS_OBSERVATION_VERSION) == numbered


def test_the_bounds_follow_the_rules_numbers_not_the_name() -> None:
    # 16 cards of a rank, melds of 2 naturals or more: 8 open melds of a rank; 24 wild cards, wild melds of
    # 3 or more: 8; books of 4 naturals or more (7 cards, at most 3 wild): 4, natural sevens' 7 naturals: 2.
    assert most_open_melds(PIERSON, Kind.KING) == most_open_melds(PIERSON, Kind.JOKER) == 8
    assert [most_books(PIERSON, kind) for kind in (Kind.KING, Kind.SEVEN, Kind.JOKER)] == [4, 2, 3]
    assert most_open_melds(PIERSON, Kind.TWO) == most_books(PIERSON, Kind.RED_THREE) == 0
    assert most_open_melds(WITHOUT, Kind.KING) == 1  # one meld of a kind without several-melds
    three = attrs.evolve(PIERSON, melds=attrs.evolve(PIERSON.melds, min_naturals=3))
    assert most_open_melds(three, Kind.KING) == 5 and most_books(three, Kind.KING) == 4
    five = attrs.evolve(PIERSON, deck=attrs.evolve(PIERSON.deck, packs=5, jokers=10))
    assert (most_open_melds(five, Kind.KING), most_books(five, Kind.KING)) == (10, 5)
    assert ActionSpace(three).size < ActionSpace(PIERSON).size < ActionSpace(five).size
    space = ActionSpace(PIERSON)
    inside = [
        Meld(Kind.KING, 2, slot=7),  # the eighth meld of kings: 7 before it hold 14 of the 16
        Meld(Kind.KING, 0, 1, 1, slot=7),
        Meld(Kind.JOKER, 0, 2, 1, slot=7),
        Meld(Kind.SEVEN, 2, slot=7),
        Meld(Kind.KING, 12, 1, 1, book=True),  # the first book holds 4 naturals at least
        Meld(Kind.KING, 0, 0, 2, book=True, slot=3),
    ]
    for action in inside:
        assert space.to_action(space.to_id(action)) == action
    outside = [
        Meld(Kind.KING, 2, slot=8),  # a ninth meld of kings: no 18 kings
        Meld(Kind.KING, 3, slot=7),  # 7 melds before it leave 2 kings
        Meld(Kind.KING, 1, 2, 2, slot=1),  # more wild cards than max_wilds
        Meld(Kind.SEVEN, 1, 1, slot=1),  # sevens take no wild card
        Meld(Kind.KING, 0, 3, book=True),  # a dirty book holds one wild card already
        Meld(Kind.KING, 13, 1, book=True),
        Meld(Kind.KING, 0, 1, book=True, slot=4),  # a fifth book of kings: no 20 kings
        Meld(Kind.SEVEN, 0, 1, book=True),  # no dirty book of sevens
    ]
    for action in outside:
        with pytest.raises(ActionSpaceError, match="outside the action space"):
            space.to_id(action)


def _position() -> HandState:
    """Seat 0 to meld: its side holds two melds of kings and two books of queens (clean, then dirty)."""
    return canasta.build_position(
        PIERSON,
        hands=[["KH", "KD", "2H", "*", "QH", "5C", "5D", "5H"], ["4C", "4D"], ["6C", "6D"], ["8C", "8D"]],
        melds=[
            [
                ["KC", "KD", "KH"],
                ["KS", "KC", "2C"],
                ["QC", "QD", "QH", "QS", "QC", "QD", "QH"],
                ["QS", "QC", "QD", "QH", "QS", "QC", "2D"],
            ],
            [["9C", "9D", "9H", "9S"]],
        ],
        packets=[
            [],  # seat 0 holds its foot
            [["4C", "4D", "4H", "4S", "6C", "6D", "6H", "6S", "8C", "8D", "8H"]],
            [["TC", "TD", "TH", "TS", "JC", "JD", "JH", "JS", "3C", "3S", "AC"]],
            [["AD", "AH", "AS", "5S", "7C", "7D", "7H", "7S", "9S", "9C", "9D"]],
        ],
        opened=[True, True],
        phase="meld",
        seat=0,
    )


def test_a_position_with_two_melds_of_a_kind_and_a_dirty_book() -> None:
    state = _position()
    space = ActionSpace(PIERSON)
    legal = state.legal_actions()
    wanted = [
        Meld(Kind.KING, 1),  # onto the first meld of kings
        Meld(Kind.KING, 1, slot=1),  # onto the second
        Meld(Kind.KING, 2, 1, 0, slot=2),  # a third meld of kings
        Meld(Kind.QUEEN, 1, book=True),  # a natural onto a book of queens
        Meld(Kind.QUEEN, 0, 1, 1, book=True, slot=1),  # wild cards onto the dirty book, the second made
    ]
    for action in wanted:
        assert action in legal, action
    assert Meld(Kind.QUEEN, 0, 1, 0, book=True) not in legal  # never onto the clean book
    assert sorted(np.flatnonzero(space.legal_mask(state)).tolist()) == sorted(space.to_ids(legal))
    chosen = wanted[-1]
    assert space.legal_action(state, space.to_id(chosen)) == chosen
    encoder = ObservationEncoder(PIERSON)
    vector = encoder.encode(state, 0)
    melds = encoder.field(vector, "melds").reshape(2, len(MELD_RANKS), 3)
    numbers = encoder.field(vector, "meld_numbers").reshape(2, len(MELD_RANKS), 8, 3)
    books = encoder.field(vector, "book_numbers").reshape(2, len(MELD_RANKS), 4, 3)
    assert melds[0, KING].tolist() == [5, 1, 0]  # the sum of the side's melds of kings
    assert numbers[0, KING, :3].tolist() == [[3, 0, 0], [2, 1, 0], [0, 0, 0]]  # each meld by its number
    assert books[0, QUEEN, :3].tolist() == [[7, 0, 0], [6, 1, 0], [0, 0, 0]]  # each book in the order made
    assert numbers[1, MELD_RANKS.index(Kind.NINE), 0].tolist() == [4, 0, 0] and not books[1].any()
    # Seen from the other side, the sides swap.
    seen = encoder.encode(state, 1)
    assert encoder.field(seen, "book_numbers").reshape(2, len(MELD_RANKS), 4, 3)[1, QUEEN, 1].tolist() == [6, 1, 0]
    np.testing.assert_array_equal(vector, reference_observation(encoder, state, 0))
    # The wild cards onto the dirty book: it grows, and its number's entry with it.
    state.apply(chosen)
    after = encoder.field(encoder.encode(state, 0), "book_numbers").reshape(2, len(MELD_RANKS), 4, 3)
    assert after[0, QUEEN, :2].tolist() == [[7, 0, 0], [6, 2, 1]]


@pytest.mark.parametrize("seed", range(6))
def test_masks_are_exact_and_every_legal_action_round_trips_in_random_deals(seed: int) -> None:
    space = ActionSpace(PIERSON)
    seen: set[str] = set()
    state = HandState.deal(PIERSON, dealer=seed % 4, scores=[0, 0], seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        ids = space.legal_ids(state)
        assert len(set(ids)) == len(ids)
        assert sorted(np.flatnonzero(space.legal_mask(state)).tolist()) == sorted(ids)
        np.testing.assert_array_equal(space.legal_mask(state), reference_mask(space, state))
        for action, action_id in zip(legal, ids, strict=True):
            assert space.to_action(action_id) == action and space.to_id(action) == action_id
            if isinstance(action, Meld) and action.slot:
                seen.add("book" if action.book else "wild meld" if action.rank == Kind.JOKER else "meld")
            elif isinstance(action, Meld) and action.book and action.twos + action.jokers:
                seen.add("book")
        # Melds first, so that sides hold several melds of a kind and books take wild cards.
        melds = [i for i, a in zip(ids, legal, strict=True) if isinstance(a, Meld)]
        pick = rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(ids)
        state.apply(space.legal_action(state, pick))
        steps += 1
    assert steps > 50
    assert {"meld", "book"} <= seen  # random play reaches a later meld of a kind and a dirty book


# --- observations -------------------------------------------------------------------------------


def test_observation_version_6_appends_melds_and_books_by_number() -> None:
    encoder, base = ObservationEncoder(PIERSON), ObservationEncoder(WITHOUT)
    assert base.version == EARNED_PACKETS_OBSERVATION_VERSION == 4
    assert encoder.version == SEVERAL_MELDS_OBSERVATION_VERSION == 6
    assert list(encoder.fields)[: len(base.fields)] == list(base.fields)
    assert all(encoder.fields[k] == base.fields[k] for k in base.fields)
    melds, books = 2 * len(MELD_RANKS) * 8 * 3, 2 * len(MELD_RANKS) * 4 * 3
    assert encoder.fields["meld_numbers"] == slice(base.size, base.size + melds)
    assert encoder.fields["book_numbers"] == slice(base.size + melds, base.size + melds + books)
    assert encoder.size == base.size + melds + books == 1174
    assert (encoder.low[base.size :] == 0).all() and (encoder.high[base.size :] == PIERSON.deck.size).all()


def test_the_numbered_fields_follow_the_table_in_random_play() -> None:
    encoder = ObservationEncoder(PIERSON)
    several = books = 0
    for seed in range(3):
        game = Game(rules=PIERSON, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over:
                break
            hand = game.hand
            batch = encoder.encode_many([hand] * 4, [0, 1, 2, 3])
            for seat in range(4):
                vector = encoder.encode(hand, seat)
                np.testing.assert_array_equal(batch[seat], vector)
                np.testing.assert_array_equal(vector, reference_observation(encoder, hand, seat))
                assert (vector >= encoder.low).all() and (vector <= encoder.high).all()
                # ``melds`` is the sum of ``meld_numbers`` over the numbers.
                numbers = encoder.field(vector, "meld_numbers").reshape(2, len(MELD_RANKS), 8, 3)
                np.testing.assert_array_equal(numbers.sum(axis=2), encoder.field(vector, "melds").reshape(2, -1, 3))
            several += any(key >= 16 for side in hand.melds for key in side)
            books += any(hand.books)
            legal = game.legal_actions()
            melds = [a for a in legal if isinstance(a, Meld)]
            game.apply(rng.choice(melds) if melds and rng.random() < 0.7 else legal[rng.randrange(len(legal))])
    assert several and books  # the states hold several melds of a kind, and books (two of a kind: the position test)


def _swap_foot_card(hand: HandState, seat: int, rng: random.Random) -> HandState | None:
    """A copy that differs only in a card of ``seat``'s foot, exchanged with a stock card of another kind."""
    other = hand.copy()
    if not other.packets[seat] or not other.stock:
        return None
    foot = other.packets[seat][0]
    i = rng.randrange(len(foot))
    swap = next((c for c in other.stock if hand.kinds[c] != hand.kinds[foot[i]]), None)
    if swap is None:
        return None
    j = other.stock.index(swap)
    other.stock[j], foot[i] = foot[i], swap
    other._legal = None
    return other


def test_a_foots_cards_never_change_any_seats_observation() -> None:
    encoder = ObservationEncoder(PIERSON)
    rng = random.Random(5)
    compared = 0
    for seed in range(4):
        hand = played(Game(rules=PIERSON, seed=seed), rng.randrange(0, 150), seed).hand
        for owner in range(4):
            other = _swap_foot_card(hand, owner, rng)
            if other is None:
                continue
            assert other.packets[owner] != hand.packets[owner]
            for seat in range(4):  # its owner included: a foot down is hidden from everyone
                np.testing.assert_array_equal(encoder.encode(hand, seat), encoder.encode(other, seat))
                compared += 1
    assert compared >= 16
    # The comparison can fail: the same exchange with a card of the owner's hand shows in its view.
    hand = Game(rules=PIERSON, seed=9).hand
    other = hand.copy()
    card = next(c for cards in other.hands[0] for c in cards)
    foot = other.packets[0][0]
    swap = next(c for c in foot if hand.kinds[c] != hand.kinds[card])
    kind, new_kind = hand.kinds[card], hand.kinds[swap]
    other.hands[0][kind].remove(card)
    other.counts[0][kind] -= 1
    other.hands[0][new_kind].append(swap)
    other.counts[0][new_kind] += 1
    foot[foot.index(swap)] = card
    other._legal = None
    assert not np.array_equal(encoder.encode(hand, 0), encoder.encode(other, 0))


# --- the environments ---------------------------------------------------------------------------


def test_the_vector_env_plays_pierson_family() -> None:
    venv = VectorEnv(3, "hand-and-foot", ["pierson-family"], max_hands=1)
    obs, infos = venv.reset(seed=2)
    encoder = venv.observation_encoder
    assert encoder.version == SEVERAL_MELDS_OBSERVATION_VERSION and obs.shape == (3, encoder.size)
    assert venv.action_encoding.version == SEVERAL_MELDS_ACTION_SPACE_VERSION
    rng = np.random.default_rng(2)
    for _ in range(300):
        obs, _, _, _, infos = venv.step(random_legal_ids(infos["action_mask"], rng))
        assert infos["action_mask"].any(axis=1).all()
        for i in range(3):  # each row is the acting seat's view, the numbered fields included
            assert venv.games is not None
            game = venv.games[i]
            assert np.array_equal(obs[i], encoder.encode(game, int(infos["seat"][i])))
            np.testing.assert_array_equal(infos["action_mask"][i], venv.action_encoding.legal_mask(game))
