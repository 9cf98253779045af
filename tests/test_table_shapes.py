"""The table shapes Hand and Foot needs, audited on classic's rules (issue 33, SPEC §8.1, §8.14).

Hand and Foot plays 2, 3 or 5 single players, or 4 and 6 players in partnerships of 2 and 3,
with one pack more than there are players (3 to 7 packs, 2 jokers each: up to 378 cards and
28 cards of one kind). A test plugin (here, not in ``variants/``) seats those tables with
classic's other rules, and whole hands are played with random legal actions under the
invariants of ``benchmarks/random_invariants.py``, with the brute-force legality reference
agreeing on sampled positions. Positions holding 20 to 28 cards of one kind check what
stands on the engine: the exact legal set, the RL action ids and masks, the observation
encoding, the pictures and records.
"""

from __future__ import annotations

import json
import random
import types
from collections import Counter
from collections.abc import Callable

import pytest
from helpers import check_state

import canasta
from canasta import DeckSpec, GameLength, GameRecorder, HandState, Kind, Meld, Registry, Variant
from canasta.records import loads_record, verify_record
from canasta.testing.invariants import check_game
from canasta.testing.reference import check_exact_legality

#: Seating of each table size: single players, or partnerships of 2 and 3 (SPEC §8.1).
SEATING = {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 0, 1), 5: (0, 1, 2, 3, 4), 6: (0, 1, 0, 1, 0, 1)}
PLAYERS = sorted(SEATING)


def _answer(value: object) -> Callable[[], object]:
    return lambda: value


def shape_plugin(players: int) -> types.ModuleType:
    """Classic's rules at a Hand and Foot table: ``players`` seats, players + 1 packs, 2 jokers a pack."""
    plugin = types.ModuleType(f"shape_{players}")
    plugin.canasta_players = canasta.hookimpl(_answer(players))  # type: ignore[attr-defined]
    plugin.canasta_sides = canasta.hookimpl(lambda players: SEATING[players])  # type: ignore[attr-defined]
    plugin.canasta_deck = canasta.hookimpl(  # type: ignore[attr-defined]
        lambda players: DeckSpec(packs=players + 1, jokers=2 * (players + 1))
    )
    plugin.canasta_hand_size = canasta.hookimpl(lambda players: 13)  # type: ignore[attr-defined]
    plugin.canasta_game_length = canasta.hookimpl(_answer(GameLength(deals=1)))  # type: ignore[attr-defined]
    return plugin


REGISTRY = Registry(autoload="builtin")
for _players in PLAYERS:
    REGISTRY.add_variant(
        Variant(f"shape-{_players}", "A test table.", plugins=(shape_plugin(_players),), base="classic", version="1")
    )


def shape_rules(players: int) -> canasta.Rules:
    return canasta.load_rules(f"shape-{players}", registry=REGISTRY)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_table_compiles(players: int) -> None:
    rules = shape_rules(players)
    packs = players + 1
    assert rules.players == players and rules.sides == SEATING[players]
    assert rules.deck == DeckSpec(packs=packs, jokers=2 * packs) and rules.deck.size == 54 * packs
    kinds = Counter(canasta.Deck(rules.deck).kinds)
    assert kinds[Kind.KING] == kinds[Kind.TWO] == 4 * packs and kinds[Kind.JOKER] == 2 * packs
    assert kinds[Kind.RED_THREE] == kinds[Kind.BLACK_THREE] == 2 * packs
    assert rules.has_partners == (players in (4, 6))


def test_the_largest_table_has_28_cards_of_a_kind() -> None:
    rules = shape_rules(6)
    assert rules.deck.size == 378
    assert max(Counter(canasta.Deck(rules.deck).kinds).values()) == 28
    assert canasta.cards.MAX_PACKS >= 7


def test_six_players_ask_the_next_partner_in_turn_order() -> None:
    rules = shape_rules(6)
    assert rules.seats_of(0) == (0, 2, 4) and rules.seats_of(1) == (1, 3, 5)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_hands_keep_every_invariant(players: int, seed: int) -> None:
    rules = shape_rules(players)
    rng = random.Random(seed)
    state = HandState.deal(rules, dealer=rng.randrange(players), scores=[0] * rules.side_count, seed=seed)
    assert len(state.stock) + sum(state.sizes) + len(state.pile) + sum(len(t) for t in state.threes) == 54 * (
        players + 1
    )
    actions = 0
    while True:
        check_state(state, rng, legal_sample=4, illegal_sample=4)
        if actions % 15 == 0 and not state.is_over:
            check_exact_legality(state)  # the brute-force reference agrees on a sample of positions
        if state.is_over:
            break
        legal = state.legal_actions()
        melds = [a for a in legal if isinstance(a, Meld | canasta.TakePile)]
        state.apply(rng.choice(melds) if melds and rng.random() < 0.5 else rng.choice(legal))
        actions += 1
        assert actions < 5000
    assert state.end is not None
    assert len(state.score().totals) == rules.side_count


def _many_kings(players: int) -> HandState:
    """Seat 0 holds 25 kings and three wild cards; its side has a meld of the other 3 kings."""
    rules = shape_rules(players)
    kings = [f"K{suit}" for suit in "HSDC" for _ in range(players + 1)]  # every king of the deck
    assert len(kings) == 4 * (players + 1)
    others = [["4C", "5D", "6D"], ["4D", "5H", "6H"], ["4H", "7C", "8C"], ["4S", "7D", "8D"], ["9H", "9S", "TD"]]
    hands = [[*kings[3:], "2C", "2D", "*", "5C"], *others[: players - 1]]
    melds = [[kings[:3]]] + [[] for _ in range(rules.side_count - 1)]
    return canasta.build_position(rules, hands=hands, phase="meld", melds=melds)


@pytest.mark.parametrize("players", [4, 6])
def test_a_hand_of_many_cards_of_a_kind_is_played_exactly(players: int) -> None:
    state = _many_kings(players)
    held = 4 * (players + 1) - 3
    assert state.counts[0][Kind.KING] == held
    legal = state.legal_actions()
    assert Meld(Kind.KING, held, 0, 0) in legal  # every king at once onto the side's meld
    assert Meld(Kind.KING, held, 2, 1) in legal
    check_exact_legality(state)
    state.apply(Meld(Kind.KING, held, 2, 1))
    assert state.melds[0][Kind.KING].size == 4 * (players + 1) + 3


@pytest.mark.parametrize("players", [4, 6])
def test_a_new_meld_of_more_than_sixteen_cards_is_played_exactly(players: int) -> None:
    # (The meld tables keep entries for fewer than 16 naturals of a kind held; more take the other path.)
    rules = shape_rules(players)
    kings = [f"K{suit}" for suit in "HSDC" for _ in range(players + 1)]
    others = [["4C", "5D", "6D"], ["4D", "5H", "6H"], ["4H", "7C", "8C"], ["4S", "7D", "8D"], ["9H", "9S", "TD"]]
    opened = [True] + [False] * (rules.side_count - 1)
    state = canasta.build_position(
        rules, hands=[[*kings, "2C", "5C"], *others[: players - 1]], phase="meld", opened=opened
    )
    legal = state.legal_actions()
    assert {a.naturals for a in legal if isinstance(a, Meld) and a.rank == Kind.KING} == set(range(2, len(kings) + 1))
    check_exact_legality(state)


@pytest.mark.parametrize("players", [4, 6])
def test_rl_ids_masks_and_observations_hold_28_of_a_kind(players: int) -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from canasta.rl import ActionSpace, ObservationEncoder

    rules = shape_rules(players)
    space = ActionSpace(rules)
    per_kind = 4 * (players + 1)
    for action in (Meld(Kind.KING, per_kind, 0, 0), Meld(Kind.KING, per_kind - 3, 2, 1), Meld(Kind.ACE, 3, 0, 0)):
        assert space.to_action(space.to_id(action)) == action
    state = _many_kings(players)
    mask = space.legal_mask(state)
    legal = state.legal_actions()
    assert int(mask.sum()) == len(legal)
    assert {space.to_action(int(i)) for i in mask.nonzero()[0]} == set(legal)  # exact
    encoder = ObservationEncoder(rules)
    dealt = HandState.deal(rules, dealer=0, scores=[0] * rules.side_count, seed=1)
    for hand in (state, dealt):
        for seat in range(players):
            vector = encoder.encode(hand, seat)
            assert [int(v) for v in vector] == encoder.values(hand, seat)  # counts past a byte kept whole
            assert (encoder.encode_many([hand], [seat])[0] == vector).all()
    assert int(encoder.field(encoder.encode(state, 0), "hand")[Kind.KING]) == per_kind - 3
    stock = encoder.field(encoder.encode(dealt, dealt.seat), "stock_size")
    assert int(stock[0]) == len(dealt.stock) and (players < 6 or len(dealt.stock) > 255)


@pytest.mark.parametrize("players", [4, 6])
def test_pictures_and_terminal_show_28_of_a_kind(players: int) -> None:
    from canasta.render import render_observation_svg, render_table_svg
    from canasta.terminal import render_observation

    state = _many_kings(players)
    assert render_table_svg(state).startswith("<svg")
    assert render_observation_svg(state.observation(0)).startswith("<svg")
    rich = pytest.importorskip("rich.console")
    console = rich.Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(render_observation(state.observation(0), state.rules))
    assert "K" in console.export_text()


@pytest.mark.parametrize("players", PLAYERS)
def test_a_game_round_trips_through_its_record(players: int) -> None:
    game = canasta.Game(f"shape-{players}", seed=players, registry=REGISTRY)
    recorder = GameRecorder(game, registry=REGISTRY)
    rng = random.Random(players)
    while not game.is_over:
        recorder.apply(rng.choice(game.legal_actions()))
    check_game(game)
    record = recorder.record()
    replayed = verify_record(loads_record(json.dumps(record.to_json()), registry=REGISTRY), registry=REGISTRY)
    assert replayed.scores == game.scores and replayed.is_over and len(replayed.results) == 1
