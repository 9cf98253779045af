"""The information state (issue 16): the public action log and the cards known to be in each hand.

A card everyone saw go into a hand with a taken pile, and has not seen leave it
face up since, is known to be there (the rule book, "What each player sees":
the discard pile is face up). The engine's bookkeeping is checked against an
independent tracker that reads only the seat's successive observations.
"""

from __future__ import annotations

import json
import random

import attrs
import pytest

import canasta
from canasta import Card, Discard, Game, Meld, TakePile
from canasta.suitedpile import PileTake
from canasta.testing import check_hidden_information, check_observations


def variant_names() -> list[str]:
    return sorted(v.name for v in canasta.available_variants())


def _visible(obs: canasta.Observation) -> set[Card]:
    seen = set(obs.pile)
    for side in obs.melds:
        for meld in side:
            seen.update(meld.cards)
    for group in (*obs.threes, *obs.set_aside):
        seen.update(group)
    return seen


def _play_tracking(variant: str, seed: int, hands: int = 2) -> int:
    """Play greedy games; after every action compare the engine's known cards with a tracker of seat 0's view.

    Returns the number of positions where some card was known (so a test can
    insist that the case it checks really happened).
    """
    game = Game(variant, seed=seed)
    bots = [canasta.make_bot("greedy", seed + s) for s in range(game.rules.players)]
    last_taker: dict[Card, int] = {}  # card -> the seat that last took it with the pile
    positions_with_known = 0
    hand_number = 0
    while not game.is_over and hand_number < hands:
        hand = game.hand
        seat = hand.seat
        action = bots[seat].choose(hand, seat)
        before = hand.observation(0)
        if isinstance(action, TakePile | PileTake):  # (the sequence games' takes: onto a group or a sequence)
            for card in before.pile[:-1]:
                last_taker[card] = seat
        log_length = len(hand.log)
        game.apply(action)
        if game.hand is not hand:  # a new hand was dealt
            hand_number += 1
            last_taker.clear()
            continue
        assert hand.log[log_length:] == [(seat, action)]
        after = hand.observation(0)
        visible = _visible(after)
        expected = [
            sorted((c for c, taker in last_taker.items() if taker == s and c not in visible), key=repr)
            for s in range(hand.rules.players)
        ]
        assert [sorted(k, key=repr) for k in after.known_cards] == expected
        assert after.action_log == tuple(hand.log)
        if any(after.known_cards):
            positions_with_known += 1
            check_observations(hand)
            check_hidden_information(hand, random.Random(seed))
    return positions_with_known


@pytest.mark.parametrize("variant", variant_names())
def test_known_cards_follow_what_the_table_saw(variant: str) -> None:
    assert _play_tracking(variant, seed=7) > 0


def test_a_taken_pile_is_known_until_melded_or_discarded() -> None:
    game = Game("classic", seed=11)
    bots = [canasta.make_bot("greedy", s) for s in range(4)]
    while True:
        hand = game.hand
        action = bots[hand.seat].choose(hand, hand.seat)
        if isinstance(action, TakePile):
            break
        game.apply(action)
    taker = hand.seat
    pile = hand.observation(taker).pile
    game.apply(action)
    known = hand.observation((taker + 1) % 4).known_cards[taker]
    picked = [c for c in pile[:-1] if c.kind not in (canasta.Kind.RED_THREE,)]
    if hand.pending_pile is None:
        assert sorted(known, key=repr) == sorted(picked, key=repr)
    # Whatever the taker then melds or discards is no longer "known in hand".
    while hand.seat == taker and not hand.is_over:
        action = bots[taker].choose(hand, taker)
        game.apply(action)
        if isinstance(action, Meld | Discard):
            shown = set(_visible(hand.observation(taker)))
            assert not shown & set(hand.observation(0).known_cards[taker])


def test_known_cards_and_log_are_in_the_json_observation() -> None:
    game = Game("classic", seed=3)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    data = canasta.observation_to_json(game.observation(1))
    assert data["format_version"] == 3
    assert len(data["known_cards"]) == 4
    assert len(data["action_log"]) == 12
    first = data["action_log"][0]
    assert first["seat"] == game.hand.log[0][0]
    assert canasta.action_from_json(first["action"]) == game.hand.log[0][1]


def test_copy_keeps_its_own_log_and_known_cards() -> None:
    game = Game("classic", seed=5)
    hand = game.hand
    hand.apply(hand.legal_actions()[0])
    copy = hand.copy()
    copy.apply(copy.legal_actions()[0])
    assert len(copy.log) == len(hand.log) + 1
    copy.known[0].append(-1)
    assert -1 not in hand.known[0]


def test_refused_action_leaves_the_log_unchanged() -> None:
    game = Game("classic", seed=5)
    hand = game.hand
    with pytest.raises(canasta.IllegalActionError):
        hand.apply(Discard(canasta.Kind.ACE))  # a discard before drawing
    assert hand.log == []


def test_the_leak_test_catches_hidden_cards_in_the_public_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta import observation as observing
    from canasta.testing import InvariantError

    hand = Game("classic", seed=2).hand
    check_observations(hand)  # the real public table holds nothing hidden
    monkeypatch.setattr(observing, "public_table", lambda state, seat: state.copy())  # the whole table
    with pytest.raises(InvariantError, match="keeps hidden cards in its public table"):
        check_observations(hand)


def test_the_leak_test_catches_a_card_claimed_known_that_is_not_in_the_hand() -> None:
    from canasta.testing import InvariantError

    hand = Game("classic", seed=2).hand
    hand.known[1].append(hand.stock[-1])
    with pytest.raises(InvariantError, match="publicly known cards are not all in its hand"):
        check_observations(hand)


def test_the_json_observation_carries_every_field_of_the_observation() -> None:
    # Hand and Foot with an earned foot and reshuffles: the fields other rule sets leave empty.
    game = Game("hand-and-foot", ["foot-after-first-book", "reshuffle-discards"], seed=2)
    observation = game.observation(1)
    data = json.loads(json.dumps(canasta.observation_to_json(observation)))
    fields = {a.name for a in attrs.fields(type(observation)) if not a.name.startswith("_")}
    assert set(data) == fields | {"format", "format_version"}
    assert data["packets_down"] == [[13], [13], [13], [13]]  # each seat's foot, face down: its size only
    assert data["first_canasta"] == [-1, -1, -1, -1]
    assert (data["reshuffles"], data["reshuffled"]) == (0, [])
