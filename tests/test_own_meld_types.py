"""A plugin's meld type of a shape of its own, played (issue 34): Buraco's runs holding one wild card.

The type (`buraco_plugin.BuracoRuns`) is built from public names only; the variant
``samba-buraco-runs`` is Samba with the runs instead of its sequences. The engine plays it
by the type's answers (`canasta.ownshapes`): these tests play whole hands and games, check
the legal list against the brute-force reference (SPEC §0), and each rule of the type with
its accepted and refused case, in the type and in play.
"""

from __future__ import annotations

import itertools
import random
import types
from collections.abc import Iterator
from typing import ClassVar

import attrs
import helpers
import pytest
from buraco_plugin import VARIANT, BuracoRuns, RunShape, buraco_registry

import canasta
from canasta import CanastaClass, HandState, Suit
from canasta.meldtypes import GroupType, MeldShape, MeldType, has_own_shape
from canasta.ownshapes import OWN_MELD, AddToMeld, LayMeld, card_codes, cards_from_codes
from canasta.suitedhand import SuitedHand
from canasta.suitedlegality import hand_of, melds_of
from canasta.testing.reference import ReferenceBudgetExceeded, check_exact_legality

REGISTRY = buraco_registry()
RULES = canasta.load_rules(VARIANT, registry=REGISTRY)
RUNS = BuracoRuns()
H = Suit.HEARTS


def _cards(*codes: str) -> SuitedHand:
    return cards_from_codes(codes)


def _hands(seeds: range) -> Iterator[HandState]:
    """Every state of random hands of the variant (the state itself, advanced after each yield)."""
    for seed in seeds:
        h = HandState.deal(RULES, dealer=seed % 4, scores=(0, 0), seed=seed)
        rng = random.Random(seed)
        while not h.is_over:
            yield h
            h.apply(rng.choice(h.legal_actions()))
        yield h


def _find(predicate: object, seeds: range = range(40)) -> tuple[HandState, object]:
    for h in _hands(seeds):
        if h.is_over:
            continue
        for action in h.legal_actions():
            if predicate(h, action):  # type: ignore[operator]
                return h.copy(), action
    raise AssertionError("no such position in the seeds searched")


def test_the_variant_plays_the_runs_instead_of_samba_sequences() -> None:
    assert [type(t) for t in RULES.meld_types][1] is BuracoRuns
    assert has_own_shape(RUNS) and not has_own_shape(GroupType())
    assert not any(type(t).__name__ == "SequenceType" for t in RULES.meld_types)


# Each rule of the type, accepted and refused.


def test_a_run_is_one_suit_three_cards_or_more_each_rank_once() -> None:
    assert RUNS.valid(RUNS.shape_of(_cards("5H", "6H", "7H")))  # type: ignore[arg-type]
    assert RUNS.shape_of(_cards("5H", "6H", "7S")) is None  # two suits
    assert RUNS.shape_of(_cards("5H", "5H", "6H")) is None  # a rank twice
    assert not RUNS.valid(RUNS.shape_of(_cards("5H", "6H")))  # type: ignore[arg-type]
    assert not RUNS.valid(RUNS.shape_of(_cards("5H", "6H", "8H")))  # type: ignore[arg-type]  # a gap, no wild


def test_a_wild_card_stands_for_a_missing_rank_or_extends_an_end() -> None:
    assert RUNS.valid(RUNS.shape_of(_cards("5H", "7H", "2")))  # type: ignore[arg-type]  # the 2 is the 6
    assert RUNS.valid(RUNS.shape_of(_cards("5H", "6H", "*")))  # type: ignore[arg-type]  # the 4 or the 7
    assert not RUNS.valid(RUNS.shape_of(_cards("5H", "8H", "2")))  # type: ignore[arg-type]  # two ranks missing
    ace_high = _cards(*(f"{r}H" for r in "456789TJQKA"), "2")
    assert not RUNS.valid(RUNS.shape_of(ace_high))  # type: ignore[arg-type]  # no room at either end


def test_a_run_with_two_wild_cards_is_refused() -> None:
    assert not RUNS.valid(RUNS.shape_of(_cards("5H", "6H", "7H", "2", "*")))  # type: ignore[arg-type]
    assert not RUNS.valid(RUNS.shape_of(_cards("5H", "7H", "2", "2")))  # type: ignore[arg-type]
    dirty = RUNS.shape_of(_cards("5H", "6H", "7H", "2"))
    assert dirty is not None and not RUNS.can_add(dirty, RUNS.shape_of(_cards("5H", "6H", "7H", "2", "*")))  # type: ignore[arg-type]
    # In play: no listed action ever makes a run with two wild cards.
    for h in _hands(range(6)):
        for side in range(2):
            for meld in melds_of(h, side).values():
                assert not isinstance(meld, RunShape) or meld.wilds <= 1


def test_an_addition_makes_a_canasta_clean_or_mixed() -> None:
    six = RUNS.shape_of(_cards(*(f"{r}H" for r in "56789T")))
    assert isinstance(six, RunShape) and RUNS.canasta_class(six) is None
    clean = RUNS.shape_of(_cards(*(f"{r}H" for r in "56789TJ")))
    dirty = RUNS.shape_of(_cards(*(f"{r}H" for r in "56789T"), "*"))
    assert RUNS.can_add(six, clean) and RUNS.canasta_class(clean) is CanastaClass.SEQUENCE  # type: ignore[arg-type]
    assert RUNS.can_add(six, dirty) and RUNS.canasta_class(dirty) is CanastaClass.MIXED  # type: ignore[arg-type]

    # In play: an addition that makes a canasta, and the canasta scores by its class.
    def completes(h: HandState, action: object) -> bool:
        if not isinstance(action, AddToMeld):
            return False
        meld = melds_of(h, h.side)[action.meld]
        return meld.size < 7 <= meld.size + action.cards.size

    h, action = _find(completes, range(60))
    assert isinstance(action, AddToMeld)
    h.apply(action)
    shape = melds_of(h, h.side)[action.meld]
    assert RUNS.canasta_class(shape) is (CanastaClass.MIXED if shape.wilds else CanastaClass.SEQUENCE)  # type: ignore[attr-defined]


def test_a_natural_that_fills_the_gap_moves_the_wild_card_to_an_end() -> None:
    gapped = RUNS.shape_of(_cards("5H", "7H", "2"))
    filled = RUNS.shape_of(_cards("5H", "6H", "7H", "2"))
    assert gapped is not None and RUNS.can_add(gapped, filled)  # type: ignore[arg-type]
    assert _cards("6H") in set(RUNS.additions(gapped, _cards("6H", "9C")))


def test_the_type_lays_every_valid_set_of_a_hand() -> None:
    """`lays` must not miss a valid set (the engine offers only what it lists): checked against every subset."""
    rng = random.Random(4)
    pool = [f"{r}{s}" for r in "4567890JQKA".replace("0", "T") for s in "HS"] + ["2", "2", "*"]
    for _ in range(40):
        codes = rng.sample(pool, 8)
        hand = _cards(*codes)
        listed = set(RUNS.lays(hand))
        for size in range(3, 9):
            for subset in itertools.combinations(codes, size):
                cards = _cards(*subset)
                shape = RUNS.shape_of(cards)
                if shape is not None and RUNS.valid(shape):
                    assert cards in listed, card_codes(cards)


# The engine plays it.


def test_a_lay_moves_the_named_cards_into_a_new_meld_of_the_type() -> None:
    h, action = _find(lambda h, a: isinstance(a, LayMeld))
    assert isinstance(action, LayMeld) and action.type == "buraco run"
    side, seat, number = h.side, h.seat, h.meld_numbers[h.side]
    before = hand_of(h, seat)
    h.apply(action)
    meld = h.melds[side][number]
    assert meld.rank == OWN_MELD + 1  # (the type's place in the rule set's types)
    assert melds_of(h, side)[number] == RUNS.shape_of(action.cards)
    after = hand_of(h, seat)
    assert before.naturals == tuple(a + b for a, b in zip(after.naturals, action.cards.naturals, strict=True))
    assert (before.twos, before.jokers) == (after.twos + action.cards.twos, after.jokers + action.cards.jokers)


def test_a_run_with_a_wild_card_standing_for_a_missing_rank_is_laid_in_play() -> None:
    def gapped(h: HandState, action: object) -> bool:
        if not isinstance(action, LayMeld):
            return False
        shape = RUNS.shape_of(action.cards)
        return isinstance(shape, RunShape) and max(shape.ranks) - min(shape.ranks) + 1 > len(shape.ranks)

    h, action = _find(gapped, range(80))
    h.apply(action)  # type: ignore[arg-type]


def test_a_player_goes_out_with_runs_and_they_score_by_class() -> None:
    went_out = 0
    for h in _hands(range(30)):
        if not h.is_over or h.went_out is None:
            continue
        side = h.seating[h.went_out]
        shapes = list(melds_of(h, side).values())
        if not any(isinstance(m, RunShape) for m in shapes):
            continue
        went_out += 1
        score = h.score().sides[side]
        runs = [m for m in shapes if isinstance(m, RunShape) and m.size >= 7]
        groups = [m for m in shapes if not isinstance(m, RunShape) and m.size >= 7 and hasattr(m, "rank")]
        bonuses = RULES.canasta_bonuses
        expected = sum(bonuses.mixed if m.wilds else bonuses.sequence for m in runs) + sum(
            bonuses.bonus(m.rank, m.naturals, m.twos, m.jokers)  # type: ignore[attr-defined]
            for m in groups
        )
        assert score.canasta_bonuses == expected
        assert len(runs) + len(groups) >= 2  # Samba's quota: two canastas, the runs counted by their class
        if went_out == 2:
            return
    raise AssertionError("no side went out with a run in the seeds played")


def test_legal_actions_agree_with_the_brute_force_reference() -> None:
    """SPEC §0 with a type of its own: the legal list is exactly the allowed actions a search can complete."""
    checked = own = 0
    rng = random.Random(11)
    for h in _hands(range(8)):
        if h.is_over or rng.random() > 0.15:
            continue
        try:
            check_exact_legality(h, max_nodes=2000)
        except ReferenceBudgetExceeded:
            continue
        checked += 1
        own += any(isinstance(a, LayMeld | AddToMeld) for a in h.legal_actions())
    assert checked >= 20 and own >= 5


def test_random_hands_hold_every_invariant() -> None:
    """The soak's checks (`helpers.check_state`: no dead end, listed actions accepted, others refused unchanged)."""
    for seed in range(4):
        rng = random.Random(seed)
        scores = [rng.choice([-500, 0, 1500, 3000, 7200]) for _ in range(RULES.side_count)]
        state, played = helpers.play_random_hand(rng, seed=seed, scores=scores, dealer=seed % 4, rules=RULES)
        assert state.is_over and played


def test_whole_games_play_to_the_end() -> None:
    game = canasta.Game(VARIANT, seed=3, registry=REGISTRY)
    rng = random.Random(3)
    laid = 0
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        laid += isinstance(action, LayMeld)
        game.apply(action)
    assert max(game.scores) >= game.rules.target_score and laid


def test_the_actions_are_lossless_values() -> None:
    lay = LayMeld("buraco run", ("5H", "7H", "2"))
    same = LayMeld("buraco run", _cards("7H", "2", "5H"))
    assert lay == same and hash(lay) == hash(same)
    assert repr(lay) == "LayMeld('buraco run', '5H 7H 2')" and card_codes(lay.cards) == ("5H", "7H", "2")
    assert repr(AddToMeld(3, ("TH",))) == "AddToMeld(3, 'TH')"
    with pytest.raises(ValueError, match="at least one card"):
        AddToMeld(3, ())
    with pytest.raises(ValueError):
        LayMeld("buraco run", ("3H",))  # a red three is never melded


# What the engine still refuses.


def test_a_type_of_its_own_shape_that_gives_no_candidates_is_refused() -> None:
    @attrs.frozen
    class Pairs(MeldType):
        name: ClassVar[str] = "pair"
        shape: ClassVar[type[MeldShape]] = RunShape

        def valid(self, meld: MeldShape, *, going_out: bool = False) -> bool:
            return isinstance(meld, RunShape) and meld.size == 2

        def can_add(self, meld: MeldShape, grown: MeldShape, *, going_out: bool = False) -> bool:
            return False

        def closed(self, meld: MeldShape, *, going_out: bool = False) -> bool:
            return True

        def canasta_class(self, meld: MeldShape) -> CanastaClass | None:
            return None

    plugin = types.ModuleType("pairs")

    @canasta.hookimpl
    def canasta_meld_types() -> tuple[object, ...]:
        return (GroupType(), Pairs())

    plugin.canasta_meld_types = canasta_meld_types  # type: ignore[attr-defined]
    found = canasta.Registry(autoload="builtin")
    found.add_variant(canasta.Variant(name="pairs", description="a test", plugins=(plugin,), base="samba"))
    with pytest.raises(canasta.RulesError, match=r"shape of its own.*must tell the engine shape_of, cards_of, lays"):
        canasta.load_rules("pairs", registry=found)


def test_a_type_of_its_own_shape_judging_a_built_in_shape_is_refused() -> None:
    from canasta.meldtypes import GroupShape

    @attrs.frozen
    class Groupish(BuracoRuns):
        shape: ClassVar[type[MeldShape]] = GroupShape

    plugin = types.ModuleType("groupish")

    @canasta.hookimpl
    def canasta_meld_types() -> tuple[object, ...]:
        return (GroupType(), Groupish())

    plugin.canasta_meld_types = canasta_meld_types  # type: ignore[attr-defined]
    found = canasta.Registry(autoload="builtin")
    found.add_variant(canasta.Variant(name="groupish", description="a test", plugins=(plugin,), base="samba"))
    with pytest.raises(canasta.RulesError, match="its own MeldShape subclass"):
        canasta.load_rules("groupish", registry=found)


# What stands on the engine carries them.


def _own_actions(seeds: range) -> list[object]:
    found: list[object] = []
    for h in _hands(seeds):
        if not h.is_over:
            found += [a for a in h.legal_actions() if isinstance(a, LayMeld | AddToMeld)]
    return found


def test_records_round_trip_the_actions_and_refuse_malformed_ones() -> None:
    from canasta.records import action_from_json, action_to_json

    actions = _own_actions(range(3))
    assert actions
    for action in actions:
        assert action_from_json(action_to_json(action)) == action  # type: ignore[arg-type]
    assert action_to_json(LayMeld("buraco run", ("5H", "7H", "2"))) == {
        "type": "lay_meld",
        "meld_type": "buraco run",
        "cards": ["5H", "7H", "2"],
    }
    assert action_to_json(AddToMeld(3, ("TH", "*"))) == {"type": "add_to_meld", "meld": 3, "cards": ["TH", "*"]}
    for bad in (
        {"type": "lay_meld", "meld_type": "buraco run", "cards": []},
        {"type": "lay_meld", "meld_type": "", "cards": ["5H"]},
        {"type": "lay_meld", "meld_type": "buraco run", "cards": ["3H"]},
        {"type": "lay_meld", "meld_type": "buraco run", "cards": ["ZZ"]},
        {"type": "add_to_meld", "meld": 1, "cards": [5]},
        {"type": "add_to_meld", "meld": -1, "cards": ["5H"]},
        {"type": "add_to_meld", "cards": ["5H"]},
        {"type": "lay_meld", "meld_type": "buraco run", "cards": ["5H"], "extra": 1},
    ):
        with pytest.raises(canasta.RecordError):
            action_from_json(bad)


def test_a_whole_hand_is_recorded_and_replayed() -> None:
    from canasta.records import action_from_json, action_to_json

    *_, h = _hands(range(2, 3))
    replay = HandState.deal(RULES, dealer=2 % 4, scores=(0, 0), seed=2)
    for _, action in h.log:
        replay.apply(action_from_json(action_to_json(action)))  # type: ignore[arg-type]
    assert replay.is_over and replay.score() == h.score()


def test_commands_write_and_read_the_actions_within_80_columns() -> None:
    from canasta.commands import notation, parse_sequence_command

    for action in _own_actions(range(3)):
        text = notation(action)  # type: ignore[arg-type]
        assert len(text) <= 80 and parse_sequence_command(text) == action
    assert notation(LayMeld("buraco run", ("5H", "7H", "2"))) == 'lay "buraco run" 5h 7h 2'
    assert notation(AddToMeld(3, ("TH", "*"))) == "add #3 10h *"
    assert parse_sequence_command("add #3 10h jh") == AddToMeld(3, ("TH", "JH"))
    for bad in ("lay buraco 5h 6h 7h", 'lay "buraco run"', "add 3 5h", "add #3 zz"):
        with pytest.raises(canasta.commands.CommandError):
            parse_sequence_command(bad)


def test_observations_and_pictures_show_a_meld_by_its_cards() -> None:
    from canasta.records import observation_to_json
    from canasta.render import render_observation_svg

    h, action = _find(lambda h, a: isinstance(a, LayMeld))
    h.apply(action)  # type: ignore[arg-type]
    obs = h.observation(h.seat)
    views = [m for m in obs.melds[h.side] if m.meld_type is not None]
    assert views and views[-1].meld_type == "buraco run" and views[-1].rank is None and views[-1].suit is None
    assert SuitedHand.from_cards(views[-1].cards) == action.cards  # type: ignore[attr-defined]
    melds = [m for side in observation_to_json(obs)["melds"] for m in side if "meld_type" in m]
    assert melds and melds[-1]["rank"] is None
    svg = render_observation_svg(obs)
    assert "buraco run" in svg


def test_the_rl_spaces_refuse_the_rule_set_with_a_clear_error() -> None:
    """No fixed numbering covers any card set a plugin's type accepts: the RL spaces refuse (a typed error)."""
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from canasta.rl import ActionSpace, ActionSpaceError, CanastaEnv

    with pytest.raises(ActionSpaceError, match=r"meld type of a shape of its own \(buraco run"):
        ActionSpace(RULES)
    with pytest.raises(ActionSpaceError, match="not the RL environments or OpenSpiel"):
        CanastaEnv(rules=RULES)
