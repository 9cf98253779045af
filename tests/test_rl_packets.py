"""canasta.rl under packets and wild-pair takes (issue 33): new layout versions, exact masks, no packet leaks."""

from __future__ import annotations

import random

import attrs
import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import packet_variants  # noqa: E402
from rl_reference import played  # noqa: E402

import canasta  # noqa: E402
from canasta import Game, HandState, Kind, TakePile  # noqa: E402
from canasta.rl import (  # noqa: E402
    ACTION_SPACE_VERSION,
    OBSERVATION_VERSION,
    PACKETS_OBSERVATION_VERSION,
    WILD_PAIR_ACTION_SPACE_VERSION,
    ActionSpace,
    ObservationEncoder,
    VectorEnv,
    env,
    random_legal_ids,
)
from canasta.rl.actions import WILD_PAIR_TAKES  # noqa: E402

VARIANTS = ("classic-feet", "hand-knee-foot", "feet-pile-of-seven")
REGISTRY = packet_variants.registry()


def _rules(name: str) -> canasta.Rules:
    return packet_variants.rules(name)


# --- action ids: the wild-pair takes ------------------------------------------------------------


def test_wild_pair_takes_get_the_last_two_ids_in_a_new_version() -> None:
    rules = _rules("feet-pile-of-seven")
    space = ActionSpace(rules)
    assert space.version == WILD_PAIR_ACTION_SPACE_VERSION == 5
    assert space.actions[-2:] == WILD_PAIR_TAKES == (TakePile(0, 2, 0), TakePile(0, 0, 2))
    assert [space.to_id(a) for a in WILD_PAIR_TAKES] == [space.size - 2, space.size - 1]
    # Every other id is the one the same rules have without wild-pair takes.
    without = attrs.evolve(rules, pile=attrs.evolve(rules.pile, wild_pair=False))
    plain = ActionSpace(without)
    assert plain.version == ACTION_SPACE_VERSION and space.actions[:-2] == plain.actions
    assert not set(WILD_PAIR_TAKES) & set(plain.actions)
    for other in ("classic-feet", "hand-knee-foot"):  # packets alone change no id
        assert ActionSpace(_rules(other)).version == ACTION_SPACE_VERSION
        assert ActionSpace(_rules(other)).actions == ActionSpace(_rules("classic-feet")).actions


def _pile_position(pile: list[str], hand: list[str]) -> HandState:
    return canasta.build_position(
        _rules("feet-pile-of-seven"),
        hands=[hand, ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        pile=pile,
        melds=[[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]],
    )


@pytest.mark.parametrize(
    ("top", "held", "take"),
    [("2C", ["2D", "2H", "*", "4D", "4H"], TakePile(0, 2, 0)), ("*", ["*", "*", "4D", "4H"], TakePile(0, 0, 2))],
)
def test_a_wild_pair_take_is_in_the_mask_and_plays_by_its_id(top: str, held: list[str], take: TakePile) -> None:
    state = _pile_position(["9C", top], held)
    space = ActionSpace(state.rules)
    mask = space.legal_mask(state)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(space.to_id(a) for a in state.legal_actions())
    take_id = space.to_id(take)
    assert mask[take_id] and take_id >= space.size - 2
    other = WILD_PAIR_TAKES[1 - WILD_PAIR_TAKES.index(take)]
    assert not mask[space.to_id(other)]
    with pytest.raises(canasta.IllegalActionError):
        space.legal_action(state, space.to_id(other))
    state.apply(space.legal_action(state, take_id))
    assert state.melds[0][Kind.JOKER].naturals == 0 and len(state.melds[0][Kind.JOKER].cards) == 3


@pytest.mark.parametrize("name", VARIANTS)
def test_masks_are_exactly_the_legal_actions_of_the_packet_variants(name: str) -> None:
    rules = _rules(name)
    space = ActionSpace(rules)
    checked = 0
    for seed in range(3):
        game = Game(rules=rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(700):
            if game.is_over:
                break
            legal = game.legal_actions()
            mask = space.legal_mask(game)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(space.to_id(a) for a in legal)
            assert [space.to_action(space.to_id(a)) for a in legal] == list(legal)
            checked += 1
            game.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000


# --- observations: packets down, by size only ---------------------------------------------------


def test_packet_rules_get_the_packet_fields_in_a_new_version_and_others_keep_theirs() -> None:
    classic = ObservationEncoder(canasta.load_rules("classic"))
    assert classic.version == OBSERVATION_VERSION == 2
    assert "packets_down" not in classic.fields and "last_packet" not in classic.fields
    for name, packets in (("classic-feet", 1), ("hand-knee-foot", 2), ("feet-pile-of-seven", 1)):
        encoder = ObservationEncoder(_rules(name))
        assert encoder.version == PACKETS_OBSERVATION_VERSION == 3
        # Version 2's fields, unchanged, then the packets.
        assert list(encoder.fields)[: len(classic.fields)] == list(classic.fields)
        assert all(encoder.fields[k] == classic.fields[k] for k in classic.fields)
        assert encoder.fields["packets_down"] == slice(classic.size, classic.size + 4 * packets)
        assert encoder.fields["last_packet"] == slice(classic.size + 4 * packets, classic.size + 4 * packets + 4)
        assert encoder.size == classic.size + 5 * packets + 4 - packets
        assert encoder.high[encoder.fields["packets_down"]].tolist() == [max(_rules(name).packets.sizes)] * 4 * packets


def _expected(hand: HandState, seat: int) -> tuple[list[list[int]], list[int]]:
    """What the packet fields should hold for ``seat``, from the observation's ``packets_down``."""
    obs = hand.observation(seat)
    count = len(hand.rules.packets.sizes)
    players = hand.rules.players
    down = [obs.packets_down[(seat + rel) % players] for rel in range(players)]
    return [[0] * (count - len(d)) + list(d) for d in down], [int(not d) for d in down]


def test_a_knee_and_a_foot_picked_up_show_as_zeros_and_the_last_packet_flag() -> None:
    rules = _rules("hand-knee-foot")
    encoder = ObservationEncoder(rules)
    state = canasta.build_position(
        rules,
        hands=[["7C", "7D", "7H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        melds=[[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]],
        packets=[
            [],  # seat 0 holds its foot
            [["4C", "4D", "4H", "4S", "6C", "6D", "6H", "6S", "8C"]],  # seat 1: its foot still down
            [["9C"] * 5 + ["9H"] * 4, ["9D"] * 5 + ["9S"] * 4],  # seat 2: knee and foot down
            [],
        ],
        phase="meld",
    )
    for seat, (down, last) in enumerate(
        [([[0, 0], [0, 9], [9, 9], [0, 0]], [1, 0, 0, 1]), ([[0, 9], [9, 9], [0, 0], [0, 0]], [0, 0, 1, 1])]
    ):
        vector = encoder.encode(state, seat)
        assert encoder.field(vector, "packets_down").reshape(4, 2).tolist() == down
        assert encoder.field(vector, "last_packet").tolist() == last
        assert (down, last) == _expected(state, seat)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_packet_fields_follow_the_observation_in_random_play(name: str) -> None:
    rules = _rules(name)
    encoder = ObservationEncoder(rules)
    players = rules.players
    picked = 0
    for seed in range(3):
        game = Game(rules=rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            if game.is_over:
                break
            hand = game.hand
            batch = encoder.encode_many([hand] * players, list(range(players)))
            for seat in range(players):
                vector = encoder.encode(hand, seat)
                assert np.array_equal(batch[seat], vector)
                assert encoder.values(hand, seat) == vector.astype(int).tolist()
                assert (vector >= encoder.low).all() and (vector <= encoder.high).all()
                down, last = _expected(hand, seat)
                assert encoder.field(vector, "packets_down").reshape(players, -1).tolist() == down
                assert encoder.field(vector, "last_packet").tolist() == last
            picked += sum(not p for p in hand.packets)
            legal = game.legal_actions()
            # Melds first, so that hands empty and packets are picked up.
            melds = [a for a in legal if isinstance(a, canasta.Meld)]
            game.apply(rng.choice(melds) if melds and rng.random() < 0.8 else legal[rng.randrange(len(legal))])
    assert picked > 0  # some seat held its last packet


def _swap_packet_cards(hand: HandState, seat: int, rng: random.Random) -> HandState | None:
    """A copy that differs only in the cards of ``seat``'s next packet: one of them exchanged with a stock card."""
    other = hand.copy()
    if not other.packets[seat] or not other.stock:
        return None
    packet = other.packets[seat][0]
    i = rng.randrange(len(packet))
    swap = next((c for c in other.stock if hand.kinds[c] != hand.kinds[packet[i]]), None)
    if swap is None:
        return None
    j = other.stock.index(swap)
    other.stock[j], packet[i] = packet[i], swap
    other._legal = None
    return other


@pytest.mark.parametrize("name", VARIANTS)
def test_a_packets_cards_never_change_any_seats_observation(name: str) -> None:
    rules = _rules(name)
    encoder = ObservationEncoder(rules)
    rng = random.Random(5)
    compared = 0
    for seed in range(4):
        hand = played(Game(rules=rules, seed=seed), rng.randrange(0, 150), seed).hand
        for owner in range(rules.players):
            other = _swap_packet_cards(hand, owner, rng)
            if other is None:
                continue
            assert other.packets[owner] != hand.packets[owner]
            for seat in range(rules.players):  # its owner included: a packet down is hidden from everyone
                np.testing.assert_array_equal(encoder.encode(hand, seat), encoder.encode(other, seat))
                compared += 1
    assert compared >= 4 * rules.players
    # The comparison can fail: the same exchange with a card of the owner's hand shows in its view.
    hand = Game(rules=rules, seed=9).hand
    other = hand.copy()
    card = next(c for cards in other.hands[0] for c in cards)
    packet = other.packets[0][0]
    swap = next(c for c in packet if hand.kinds[c] != hand.kinds[card])
    kind, new_kind = hand.kinds[card], hand.kinds[swap]
    other.hands[0][kind].remove(card)
    other.counts[0][kind] -= 1
    other.hands[0][new_kind].append(swap)
    other.counts[0][new_kind] += 1
    packet[packet.index(swap)] = card
    other._legal = None
    assert not np.array_equal(encoder.encode(hand, 0), encoder.encode(other, 0))


# --- the environments ---------------------------------------------------------------------------


def test_the_aec_env_plays_classic_feet() -> None:
    rules = _rules("classic-feet")
    aec = env(rules=rules, max_hands=1)
    aec.reset(seed=3)
    raw = aec.unwrapped
    assert raw.observation_encoder.version == PACKETS_OBSERVATION_VERSION
    rng = np.random.default_rng(0)
    steps = 0
    for _agent in aec.agent_iter(max_iter=400):
        observation, _, terminated, truncated, _ = aec.last()
        assert observation["observation"].shape == (raw.observation_encoder.size,)
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            steps += 1
        aec.step(action)
    assert steps > 100


@pytest.mark.parametrize("name", ["classic-feet", "feet-pile-of-seven"])
def test_the_vector_env_plays_the_packet_variants(name: str) -> None:
    rules = _rules(name)
    venv = VectorEnv(3, rules=rules, max_hands=1)
    obs, infos = venv.reset(seed=11)
    encoder = venv.observation_encoder
    assert obs.shape == (3, encoder.size) and encoder.version == PACKETS_OBSERVATION_VERSION
    rng = np.random.default_rng(1)
    for _ in range(300):
        obs, _, _, _, infos = venv.step(random_legal_ids(infos["action_mask"], rng))
        assert infos["action_mask"].any(axis=1).all()
        for i in range(3):  # each row is the acting seat's view, packets included
            assert venv.games is not None
            game = venv.games[i]
            assert np.array_equal(obs[i], encoder.encode(game, int(infos["seat"][i])))
