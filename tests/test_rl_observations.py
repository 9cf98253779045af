"""canasta.rl observation arrays: layout, content, and no hidden information (issue 8, SPEC.md §7)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from rl_reference import played  # noqa: E402

import canasta  # noqa: E402
from canasta import Game, HandState, Kind  # noqa: E402
from canasta.rl import ObservationEncoder  # noqa: E402
from canasta.rl.observations import MELD_RANKS, PHASES  # noqa: E402


def variant_names() -> list[str]:
    return sorted(v.name for v in canasta.available_variants())


def hide_differently(hand: HandState, observer: int, rng: random.Random) -> HandState | None:
    """A copy that differs only in what `observer` cannot see: another hand's cards and the stock order."""
    other = hand.copy()
    others = [s for s in range(hand.rules.players) if s != observer and other.sizes[s]]
    natural = [c for c in other.stock if hand.kinds[c] >= int(Kind.FOUR)]
    if not others or not natural:
        return None
    seat = rng.choice(others)
    held = [(k, c) for k, cards in enumerate(other.hands[seat]) for c in cards]
    kind, card = rng.choice(held)
    swap = next((c for c in natural if hand.kinds[c] != kind), None)
    if swap is None:
        return None
    # Exchange one card of that hand with a stock card of another kind, then reshuffle the stock.
    other.hands[seat][kind].remove(card)
    other.counts[seat][kind] -= 1
    new_kind = hand.kinds[swap]
    other.hands[seat][new_kind].append(swap)
    other.counts[seat][new_kind] += 1
    other.stock[other.stock.index(swap)] = card
    rng.shuffle(other.stock)
    other._legal = None
    return other


@pytest.mark.parametrize("variant", variant_names())
def test_hidden_cards_never_change_an_observation(variant: str) -> None:
    rng = random.Random(2)
    rules = canasta.load_rules(variant)
    encoder = ObservationEncoder(rules)
    compared = 0
    for seed in range(6):
        game = played(Game(rules=rules, seed=seed), rng.randrange(0, 120), seed)
        hand = game.hand
        for observer in range(rules.players):
            other = hide_differently(hand, observer, rng)
            if other is None:
                continue
            np.testing.assert_array_equal(encoder.encode(hand, observer), encoder.encode(other, observer))
            compared += 1
            # The seat whose hand changed does see the difference: the comparison can fail.
            changed = next(s for s in range(rules.players) if other.counts[s] != hand.counts[s])
            assert not np.array_equal(encoder.encode(hand, changed), encoder.encode(other, changed))
    assert compared >= rules.players


def test_layout_and_content_on_a_built_position() -> None:
    rules = canasta.load_rules("classic")
    hand = canasta.build_position(
        rules,
        hands=[["QH", "QS", "5C", "2D", "*"], ["4H", "9C", "9D"], ["KH", "KS"], ["7C"]],
        pile=["6D", "8S", "JC"],
        melds=[[], [["AH", "AS", "AC", "2C"]]],
        threes=[["3H"], [], [], ["3D", "3H"]],
        scores=[1500, -20],
        seat=1,
        phase="draw",
    )
    encoder = ObservationEncoder(rules)
    assert encoder.size == len(encoder.low) == len(encoder.high)
    v = encoder.encode(hand, 0)
    f = encoder.field
    assert list(f(v, "hand")) == [1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0]  # *, 2, 5, Q Q
    melds = f(v, "melds").reshape(rules.side_count, len(MELD_RANKS), 3)
    ace = MELD_RANKS.index(Kind.ACE)
    assert melds[1, ace].tolist() == [3, 1, 0] and not melds[0].any()  # side 1 is the opponents of seat 0
    assert f(v, "threes").reshape(4, 2).tolist() == [[1, 0], [0, 0], [0, 0], [2, 0]]
    top = f(v, "pile_top")
    assert top[int(Kind.JACK)] == 1 and top.sum() == 1
    assert f(v, "pile_size")[0] == 3 and f(v, "pile_kinds").sum() == 3
    assert f(v, "hand_sizes").tolist() == [5, 3, 2, 1]
    assert f(v, "scores").tolist() == [1500, -20]
    assert f(v, "minimum_needed").tolist() == [90, 0]  # side 1 has melded
    assert f(v, "opened").tolist() == [0, 1]
    assert f(v, "phase").tolist() == [float(p is canasta.Phase.DRAW) for p in PHASES]
    assert f(v, "acting").tolist() == [0, 1, 0, 0]  # seat 1 acts: offset 1 from seat 0
    # Seen from seat 1 everything is relative: its own side first, itself at offset 0.
    w = encoder.encode(hand, 1)
    assert f(w, "hand_sizes").tolist() == [3, 2, 1, 5]
    assert f(w, "scores").tolist() == [-20, 1500]
    assert f(w, "acting").tolist() == [1, 0, 0, 0]
    assert f(w, "melds").reshape(2, len(MELD_RANKS), 3)[0, ace].tolist() == [3, 1, 0]
    assert f(w, "threes").reshape(4, 2).tolist() == [[0, 0], [0, 0], [2, 0], [1, 0]]


@pytest.mark.parametrize("variant", variant_names())
def test_encodings_stay_in_bounds(variant: str) -> None:
    rules = canasta.load_rules(variant)
    encoder = ObservationEncoder(rules)
    game = Game(rules=rules, seed=4)
    rng = random.Random(4)
    for _ in range(300):
        if game.is_over:
            break
        for seat in range(rules.players):
            v = encoder.encode(game, seat)
            assert v.dtype == np.float32 and v.shape == (encoder.size,)
            assert (v >= encoder.low).all() and (v <= encoder.high).all()
            assert f_sum(encoder, v, "phase") == 1 and f_sum(encoder, v, "acting") == 1
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def f_sum(encoder: ObservationEncoder, v: object, name: str) -> float:
    return float(encoder.field(v, name).sum())  # type: ignore[arg-type]


def test_bad_seat_and_foreign_state_are_refused() -> None:
    rules = canasta.load_rules("classic")
    encoder = ObservationEncoder(rules)
    game = Game(rules=rules, seed=1)
    with pytest.raises(ValueError, match="no seat 4"):
        encoder.encode(game, 4)
    import attrs

    other = attrs.evolve(rules, game_length=canasta.GameLength(target_score=1))
    with pytest.raises(ValueError, match="encoder was built for"):
        ObservationEncoder(other).encode(game, 0)


def test_partners_follow_a_regrouping() -> None:
    if "cutthroat" not in {h.name for h in canasta.available_house_rules()}:
        pytest.skip("the cutthroat house rule is not installed")
    rules = canasta.load_rules("three-player", ["cutthroat"])
    encoder = ObservationEncoder(rules)
    for seed in range(10):
        game = Game(rules=rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.hand_number == 0 and not game.hand.regrouped:
            before = [encoder.field(encoder.encode(game, s), "partners").tolist() for s in range(3)]
            assert before == [[1, 0, 0]] * 3  # everyone alone before anyone takes the pile
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.hand_number == 0 and game.hand.regrouped:
            break
    else:
        pytest.fail("no random hand regrouped")
    seating = game.hand.seating
    for seat in range(3):
        expected = [float(seating[(seat + i) % 3] == seating[seat]) for i in range(3)]
        assert encoder.field(encoder.encode(game, seat), "partners").tolist() == expected
    assert sorted(sum(encoder.field(encoder.encode(game, s), "partners")) for s in range(3)) == [1, 2, 2]
