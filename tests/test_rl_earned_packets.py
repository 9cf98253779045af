"""canasta.rl under Hand and Foot's ``foot-after-first-book``: the ``packet_earned`` field (layout version 4).

The concept is `canasta.PacketRules.after_first_canasta`; a seat's next packet is earned by its own
first canasta (`HandState.first_canasta`, public). The field is 1 for a seat that has earned its next
packet and still has one down; it must follow the table exactly, from every seat, and never show a
packet's cards.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from rl_reference import played, reference_observation  # noqa: E402
from test_hand_and_foot import FOOT, _position  # noqa: E402
from test_rl_packets import _swap_packet_cards  # noqa: E402

import canasta  # noqa: E402
from canasta import Discard, DrawStock, Game, HandState, Kind, Meld, PickUpPacket  # noqa: E402
from canasta.rl import (  # noqa: E402
    EARNED_PACKETS_OBSERVATION_VERSION,
    OBSERVATION_VERSION,
    PACKETS_OBSERVATION_VERSION,
    ObservationEncoder,
    VectorEnv,
    random_legal_ids,
)

EARNED = canasta.load_rules("hand-and-foot", ["foot-after-first-book"])
BOTH = canasta.load_rules("hand-and-foot", ["add-to-books", "foot-after-first-book"])
BASE = canasta.load_rules("hand-and-foot")
FOOT_2 = ["4H", "4S", "5H", "5S", "6H", "6S", "8H", "8S", "9H", "9S", "TH", "JH", "KS"]


def test_only_earned_packets_get_version_4_and_every_other_layout_is_kept() -> None:
    base = ObservationEncoder(BASE)
    assert base.version == PACKETS_OBSERVATION_VERSION == 3 and "packet_earned" not in base.fields
    classic = ObservationEncoder(canasta.load_rules("classic"))
    assert classic.version == OBSERVATION_VERSION == 2 and "packet_earned" not in classic.fields
    for rules in (EARNED, BOTH):
        encoder = ObservationEncoder(rules)
        assert encoder.version == EARNED_PACKETS_OBSERVATION_VERSION == 4
        # Version 3's fields at the same places, then one entry per seat.
        assert list(encoder.fields)[:-1] == list(base.fields)
        assert all(encoder.fields[k] == base.fields[k] for k in base.fields)
        assert encoder.fields["packet_earned"] == slice(base.size, base.size + 4)
        assert encoder.size == base.size + 4
        assert encoder.low[base.size :].tolist() == [0.0] * 4 and encoder.high[base.size :].tolist() == [1.0] * 4


def _earned(encoder: ObservationEncoder, state: HandState) -> list[list[int]]:
    """The ``packet_earned`` field as each seat sees it (checked against the reference encoding)."""
    seen = []
    for seat in range(state.rules.players):
        vector = encoder.encode(state, seat)
        np.testing.assert_array_equal(vector, reference_observation(encoder, state, seat))
        seen.append(encoder.field(vector, "packet_earned").astype(int).tolist())
    return seen


def _relative(absolute: list[int]) -> list[list[int]]:
    """Per observer, ``absolute`` (a flag per seat) in the observer's relative order."""
    n = len(absolute)
    return [[absolute[(seat + rel) % n] for rel in range(n)] for seat in range(n)]


def test_the_field_flips_exactly_when_a_seat_makes_its_first_book_for_every_observer() -> None:
    encoder = ObservationEncoder(EARNED)
    state = _position(
        EARNED,
        hands=[["7H", "9C", "9D"], ["QC", "QD", "JC"], ["KC", "KD", "8H"], ["QH", "QS"]],
        melds=[
            [["AC", "AD", "AH"], ["7C", "7D", "7H", "7S", "7C", "7D"], ["KC", "KD", "KH", "KS", "KH"]],
            [["5H", "5S", "5H"], ["QC", "QD", "QH", "QS", "QC"]],
        ],
        packets=[[FOOT], [FOOT], [FOOT_2], [FOOT_2]],
    )
    assert state.first_canasta == [-1, -1, -1, -1]
    assert _earned(encoder, state) == _relative([0, 0, 0, 0])
    log: list[tuple[str, list[int]]] = []

    def play(action: canasta.Action) -> None:
        before = list(state.first_canasta)
        state.apply(action)
        made = [int(b < 0 <= a) for b, a in zip(before, state.first_canasta, strict=True)]
        log.append((str(action), made))
        expected = [int(f >= 0 and bool(p)) for f, p in zip(state.first_canasta, state.packets, strict=True)]
        assert _earned(encoder, state) == _relative(expected), log

    play(Meld(Kind.SEVEN, 1))  # seat 0's first book, leaving 9 9: the owner and every other seat see it
    assert log[-1][1] == [1, 0, 0, 0] and _earned(encoder, state) == _relative([1, 0, 0, 0])
    play(Discard(Kind.NINE))
    play(DrawStock())  # seat 1
    play(Meld(Kind.QUEEN, 2))  # seat 1's first book: seat 3, its partner, has not earned its foot by it
    assert log[-1][1] == [0, 1, 0, 0] and _earned(encoder, state) == _relative([1, 1, 0, 0])
    play(Discard(Kind.JACK))
    play(DrawStock())  # seat 2
    assert _earned(encoder, state) == _relative([1, 1, 0, 0])  # (seat 0's book does not earn seat 2's foot)
    play(Meld(Kind.KING, 2))
    assert log[-1][1] == [0, 0, 1, 0] and _earned(encoder, state) == _relative([1, 1, 1, 0])
    play(Discard(Kind.EIGHT))
    play(DrawStock())  # seat 3: no book
    seat3 = next(k for k in range(15) if state.counts[3][k])
    play(Discard(Kind(seat3)))
    assert state.seat == 0 and PickUpPacket() in state.legal_actions()
    play(PickUpPacket())  # seat 0 holds its foot: nothing left to earn
    assert _earned(encoder, state) == _relative([0, 1, 1, 0])
    last = [encoder.field(encoder.encode(state, 0), "last_packet").astype(int).tolist()]
    assert last == [[1, 0, 0, 0]]
    # Exactly the three books flipped the field; no other action changed it.
    assert [made for _, made in log if any(made)] == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]


def test_a_first_book_that_empties_the_hand_picks_the_foot_up_and_the_field_stays_0() -> None:
    encoder = ObservationEncoder(EARNED)
    state = _position(
        EARNED,
        hands=[["7H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        melds=[[["AC", "AD", "AH"], ["7C", "7D", "7H", "7S", "7C", "7D"]], [["5H", "5S", "5H"]]],
        packets=[[FOOT], [FOOT], [], []],
    )
    state.apply(Meld(Kind.SEVEN, 1))
    assert state.first_canasta[0] == state.turn and not state.packets[0]
    assert _earned(encoder, state) == _relative([0, 0, 0, 0])


@pytest.mark.parametrize("rules", [EARNED, BOTH], ids=["foot-after-first-book", "with-add-to-books"])
def test_the_field_follows_the_table_in_random_play(rules: canasta.Rules) -> None:
    encoder = ObservationEncoder(rules)
    players = rules.players
    flips = 0
    for seed in range(3):
        game = Game(rules=rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(500):
            if game.is_over:
                break
            hand = game.hand
            before = list(hand.first_canasta)
            seen = _earned(encoder, hand)
            expected = [int(f >= 0 and bool(p)) for f, p in zip(hand.first_canasta, hand.packets, strict=True)]
            assert seen == _relative(expected)
            batch = encoder.encode_many([hand] * players, list(range(players)))
            for seat in range(players):
                assert np.array_equal(batch[seat], encoder.encode(hand, seat))
            legal = game.legal_actions()
            melds = [a for a in legal if isinstance(a, Meld)]  # melds first, so that books are made
            game.apply(rng.choice(melds) if melds and rng.random() < 0.8 else legal[rng.randrange(len(legal))])
            if game.hand is hand:
                flips += sum(b < 0 <= a for b, a in zip(before, hand.first_canasta, strict=True))
    assert flips > 0  # some first books were made


def test_a_foots_cards_never_change_any_observation_under_the_option() -> None:
    encoder = ObservationEncoder(EARNED)
    rng = random.Random(8)
    compared = 0
    for seed in range(4):
        hand = played(Game(rules=EARNED, seed=seed), rng.randrange(0, 300), seed).hand
        for owner in range(EARNED.players):
            other = _swap_packet_cards(hand, owner, rng)
            if other is None:
                continue
            for seat in range(EARNED.players):
                np.testing.assert_array_equal(encoder.encode(hand, seat), encoder.encode(other, seat))
                compared += 1
    assert compared >= 4 * EARNED.players


def test_the_vector_env_observes_the_field() -> None:
    venv = VectorEnv(3, rules=EARNED, max_hands=1)
    obs, infos = venv.reset(seed=5)
    encoder = venv.observation_encoder
    assert encoder.version == EARNED_PACKETS_OBSERVATION_VERSION and obs.shape == (3, encoder.size)
    rng = np.random.default_rng(2)
    for _ in range(200):
        obs, _, _, _, infos = venv.step(random_legal_ids(infos["action_mask"], rng))
        assert venv.games is not None
        for i in range(3):
            assert np.array_equal(obs[i], encoder.encode(venv.games[i], int(infos["seat"][i])))
