"""The fast observation and mask encoders equal the simple reference encodings (issue 14, item 3)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rl_reference import played, reference_mask, reference_observation  # noqa: E402

import canasta  # noqa: E402
import canasta.rl  # noqa: E402
from canasta import Game, HandState  # noqa: E402
from canasta.rl import ActionSpace, ObservationEncoder  # noqa: E402

# Every variant, the house rule that regroups the players mid-hand (two melds of a rank), and Hand and Foot's
# pierson-family (several melds of a kind, version 6's numbered melds and books). The reference
# encodings (tests/rl_reference.py) are of the rank-counted layouts; the sequence games (rule sets with meld types)
# observe by rank and suit (version 5) and their encodings and masks are checked in tests/test_rl_sequences.py.
STACKS = [
    (v.name, ())
    for v in sorted(canasta.available_variants(), key=lambda v: v.name)
    if not canasta.load_rules(v.name).meld_types
]
STACKS.append(("three-player", ("cutthroat",)))
STACKS.append(("hand-and-foot", ("pierson-family",)))  # several melds of a kind, melds and books by number


def random_states(rules: canasta.Rules, seed: int, games: int = 3, every: int = 7) -> list[HandState]:
    """Copies of the hand every few random actions, across hands (scores, later dealers)."""
    rng = random.Random(seed)
    states: list[HandState] = []
    for g in range(games):
        game = Game(rules=rules, seed=seed * 100 + g)
        for step in range(rng.randrange(150, 600)):
            if game.is_over:
                break
            if step % every == 0:
                states.append(game.hand.copy())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        states.append(game.hand.copy())  # also the last state (possibly over)
    return states


@pytest.mark.parametrize(("variant", "house_rules"), STACKS, ids=lambda x: "+".join(x) if isinstance(x, tuple) else x)
def test_fast_observation_and_mask_equal_the_reference(variant: str, house_rules: tuple[str, ...]) -> None:
    rules = canasta.load_rules(variant, house_rules)
    encoder = ObservationEncoder(rules)
    space = ActionSpace(rules)
    states = random_states(rules, seed=len(variant))
    fields_seen = np.zeros(encoder.size, dtype=bool)
    for hand in states:
        for seat in range(rules.players):
            fast = encoder.encode(hand, seat)
            assert fast.dtype == np.float32 and fast.shape == (encoder.size,)
            expected = reference_observation(encoder, hand, seat)
            np.testing.assert_array_equal(fast, expected)
            assert encoder.values(hand, seat) == expected.tolist()
            fields_seen |= expected != 0
        np.testing.assert_array_equal(space.legal_mask(hand), reference_mask(space, hand))
    # The states exercise the layout: hand, melds, pile, sizes and turn are all non-zero somewhere.
    for name in ("hand", "melds", "pile_top", "pile_kinds", "stock_size", "hand_sizes", "phase", "acting", "turn"):
        assert fields_seen[encoder.fields[name]].any(), name
    # The batch forms equal the single ones, row by row.
    seats = [i % rules.players for i in range(len(states))]
    batch = encoder.encode_many(states, seats)
    for row, (hand, seat) in enumerate(zip(states, seats, strict=True)):
        np.testing.assert_array_equal(batch[row], reference_observation(encoder, hand, seat))
    masks = space.legal_masks(states)
    for row, hand in enumerate(states):
        np.testing.assert_array_equal(masks[row], reference_mask(space, hand))


@given(seed=st.integers(0, 2**20), steps=st.integers(0, 400))
def test_fast_observation_equals_the_reference_anywhere_in_a_classic_game(seed: int, steps: int) -> None:
    rules = canasta.load_rules("classic")
    encoder = ObservationEncoder(rules)
    game = played(Game(rules=rules, seed=seed), steps, seed)
    for seat in range(rules.players):
        np.testing.assert_array_equal(encoder.encode(game, seat), reference_observation(encoder, game.hand, seat))


def test_a_deck_of_more_than_256_cards_is_encoded_exactly() -> None:
    import attrs

    classic = canasta.load_rules("classic")
    rules = attrs.evolve(classic, deck=attrs.evolve(classic.deck, packs=6, jokers=12))
    assert rules.deck.size > 256  # card ids no longer fit in a byte: the fallback path
    encoder = ObservationEncoder(rules)
    states = random_states(rules, seed=5, games=1, every=25)
    for hand in states:
        for seat in range(rules.players):
            np.testing.assert_array_equal(encoder.encode(hand, seat), reference_observation(encoder, hand, seat))
    batch = encoder.encode_many(states, [0] * len(states))
    for row, hand in enumerate(states):
        np.testing.assert_array_equal(batch[row], reference_observation(encoder, hand, 0))


def test_a_mask_learns_new_action_objects_and_forgets_them_past_its_limit() -> None:
    rules = canasta.load_rules("classic")
    space = ActionSpace(rules)
    game = Game(rules=rules, seed=1)

    class Fresh:
        """Legal actions as new, equal objects on every call (not the engine's interned ones)."""

        def legal_actions(self) -> list[canasta.Action]:
            return [canasta.actions.Discard(a.kind) if isinstance(a, canasta.Discard) else a for a in legal]

    legal = game.legal_actions()
    expected = space.legal_mask(game)
    fresh = Fresh()
    for _ in range(5 * space.size):
        np.testing.assert_array_equal(space.legal_mask(fresh), expected)
    assert len(space._known) <= 4 * space.size + len(legal)  # bounded: the memo started over
    # The ids handed out are the caller's to change: the cached ones stay right.
    ids = space.legal_ids(game)
    ids.append(space.size - 1)
    np.testing.assert_array_equal(space.legal_mask(game), expected)
    assert space.legal_ids(game) == [space.to_id(a) for a in legal]


def test_encode_many_refuses_mismatched_arguments() -> None:
    rules = canasta.load_rules("classic")
    encoder = ObservationEncoder(rules)
    game = Game(rules=rules, seed=0)
    with pytest.raises(ValueError, match="2 states but 1 seats"):
        encoder.encode_many([game, game], [0])
    with pytest.raises(ValueError, match="float32 array of shape"):
        encoder.encode_many([game], [0], out=np.zeros((1, encoder.size), dtype=np.float64))
    with pytest.raises(ValueError, match="no seat 4"):
        encoder.encode_many([game], [4])
    with pytest.raises(ValueError, match="bool array of shape"):
        ActionSpace(rules).legal_masks([game], out=np.zeros((2, 3), dtype=bool))


def test_legal_action_gives_the_engines_object_or_refuses_with_the_rule() -> None:
    rules = canasta.load_rules("classic")
    space = ActionSpace(rules)
    game = Game(rules=rules, seed=4)
    legal = game.legal_actions()
    for action in legal:
        assert space.legal_action(game, space.to_id(action)) is action  # identity: apply skips the re-check
        assert space.legal_action(game, np.int64(space.to_id(action))) is action
    discard = space.to_id(canasta.Discard(canasta.Kind.KING))
    with pytest.raises(canasta.IllegalActionError) as caught:
        space.legal_action(game, discard)  # the draw comes first
    assert caught.value.code is canasta.RuleCode.WRONG_PHASE
    draw = space.to_id(canasta.DrawStock())
    for bad in (True, float(draw), -1, space.size, "0"):
        with pytest.raises(canasta.rl.ActionSpaceError):
            space.legal_action(game, bad)
    assert game.history == ()


def test_env_keeps_pettingzoos_order_checks() -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    wrapped = canasta.rl.env("classic")
    assert isinstance(wrapped, OrderEnforcingWrapper)
    with pytest.raises(AssertionError, match="before observe"):
        wrapped.last()
    with pytest.raises(AssertionError, match="before step"):
        wrapped.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        _ = wrapped.agent_selection
    wrapped.reset(seed=3)
    observation, reward, terminated, truncated, info = wrapped.last()
    unwrapped = wrapped.unwrapped
    np.testing.assert_array_equal(
        observation["observation"], unwrapped.observation_encoder.encode(unwrapped.game, unwrapped.game.seat)
    )
    assert (reward, terminated, truncated, info) == (0.0, False, False, {})
    assert wrapped.last(observe=False)[0] is None


def test_values_that_do_not_fit_a_byte_are_encoded_exactly() -> None:
    # Scores, minimums and the turn count are written apart from the byte-sized counts
    # (canasta.viewvalues' ``wide`` pairs): negative and large values must come out exact.
    rules = canasta.load_rules("classic")
    encoder = ObservationEncoder(rules)
    hand = played(Game(rules=rules, seed=3), 40, 3).hand.copy()
    hand.scores = [-1235, 70_015]
    hand.minimums = [15, 120]
    hand.turn = 300
    for seat in range(rules.players):
        expected = reference_observation(encoder, hand, seat)
        assert expected[encoder.fields["scores"]].tolist() in ([-1235, 70_015], [70_015, -1235])
        np.testing.assert_array_equal(encoder.encode(hand, seat), expected)
        assert encoder.values(hand, seat) == expected.tolist()
    assert encoder.field(encoder.encode(hand, 0), "turn").tolist() == [300]
    states = [hand, hand.copy()]
    for batch, seats in ((encoder.encode_many(states), [hand.seat] * 2), (encoder.encode_many(states, [1, 2]), [1, 2])):
        for row, seat in enumerate(seats):
            np.testing.assert_array_equal(batch[row], reference_observation(encoder, states[row], seat))


def test_encode_many_without_seats_encodes_the_acting_seats_view() -> None:
    rules = canasta.load_rules("classic")
    encoder = ObservationEncoder(rules)
    states = random_states(rules, seed=4, games=1, every=9)
    out = np.full((len(states), encoder.size), -1.0, dtype=np.float32)
    assert encoder.encode_many(states, out=out) is out
    for row, hand in enumerate(states):
        np.testing.assert_array_equal(out[row], reference_observation(encoder, hand, hand.seat))
    strided = np.zeros((encoder.size, 2), dtype=np.float32).T  # not C-contiguous: written all the same
    assert encoder.encode_many(states[:2], out=strided) is strided
    for row, hand in enumerate(states[:2]):
        np.testing.assert_array_equal(strided[row], reference_observation(encoder, hand, hand.seat))
