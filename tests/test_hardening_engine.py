"""Hardening of the engine's edges (issue 31.1, 31.9, 31.10, 31.11, 31.19; issue 32.9, 32.13).

- What the engine returns cannot change it: the legal actions are a tuple (the
  cached one, returned as is), the game's scores, results and history are
  tuples, observations and scores are frozen and hashable all the way down.
- Rules whose deal can leave no stock are refused when compiled; a game never
  recurses per hand.
- Games, hands, observations and decks survive copy, deepcopy and pickle (both
  engines; the differential check is in ``test_compiled_engine.py``).
- Every public exception survives pickle and copy with its fields.
- Hook answers are normalized to plain values or refused, naming the hook;
  descriptors refuse plugins that are not plugin objects.
- A house rule given as a bare string is refused with a sentence.
- ``MeldRules.is_valid`` and the engine agree on meld ranks.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import inspect
import pickle
import pkgutil
import random
import types
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from helpers import position
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from canasta import (
    DeckSpec,
    Game,
    HandState,
    IllegalActionError,
    Kind,
    Meld,
    MeldMinimums,
    PluginError,
    Registry,
    RulesError,
    Variant,
)
from canasta.cards import Deck
from canasta.errors import CanastaError, RuleCode, RuleSection, StandIn
from canasta.plugins import load_rules

VARIANTS = ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american")


def _played(variant: str, seed: int, actions: int) -> Game:
    game = Game(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


# --- 31.1: returned values ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_legal_actions_are_a_tuple_that_cannot_change_the_engine(variant: str) -> None:
    game = _played(variant, 3, 40)
    legal = game.legal_actions()
    assert type(legal) is tuple
    assert game.legal_actions() is legal  # the cached tuple itself: free to return
    assert type(game.hand.legal_actions()) is tuple
    with pytest.raises(AttributeError):
        legal.append(Meld(Kind.ACE, 3, 0, 0))  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        legal[0] = Meld(Kind.ACE, 3, 0, 0)  # type: ignore[index]
    # A copy the caller changes is only the caller's: the engine still refuses what is illegal.
    mine = list(legal)
    bogus = Meld(Kind.ACE, 9, 0, 0)
    mine.append(bogus)
    with pytest.raises(IllegalActionError):
        game.apply(bogus)
    assert game.legal_actions() == legal


def test_an_illegal_action_slipped_into_the_list_is_never_applied() -> None:
    """The attack of issue 31.1, replayed: every way of changing the returned list fails."""
    for seed in range(20):
        game = _played("classic", seed, 25)
        history = game.history
        legal = game.legal_actions()
        bogus = Meld(Kind.KING, 9, 0, 0)
        assert bogus not in legal
        for method, arguments in (("append", (bogus,)), ("remove", (legal[0],)), ("clear", ()), ("insert", (0, bogus))):
            with pytest.raises(AttributeError):
                getattr(legal, method)(*arguments)
        with pytest.raises(IllegalActionError):
            game.apply(bogus)
        assert game.history == history


def test_the_games_scores_results_and_history_are_tuples() -> None:
    game = _played("classic", 5, 600)
    assert game.results, "a hand should have ended in 600 actions"
    assert type(game.scores) is tuple and type(game.results) is tuple and type(game.history) is tuple
    with pytest.raises(TypeError):
        game.scores[0] = 10**6  # type: ignore[index]
    with pytest.raises(AttributeError):
        game.results.append(game.results[0])  # type: ignore[attr-defined]
    totals = game.totals_after(0)
    totals[0] += 10**6  # a new list each call: the caller's own
    assert game.totals_after(0)[0] == totals[0] - 10**6
    assert list(game.scores) == [sum(r.totals[s] for r in game.results) for s in range(game.rules.side_count)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_scores_and_rules_are_immutable_all_the_way_down(variant: str) -> None:
    """Frozen and hashable: a hash needs every part immutable (tuples of frozen values)."""
    game = _played(variant, 7, 300)
    for seat in range(game.rules.players):
        observation = game.observation(seat)
        hash(observation)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            observation.hand = ()  # type: ignore[misc]
        for side in observation.melds:
            for meld in side:
                hash(meld)
    for result in game.results:
        hash(result)
    hash(game.rules)
    hash(game.history)


def test_the_undo_restores_tuples() -> None:
    game = _played("classic", 5, 0)
    while not game.results:
        legal = game.legal_actions()
        game.apply(legal[-1])
    scores, results = game.scores, game.results
    game.undo()
    assert game.results == () and type(game.scores) is tuple
    assert scores != game.scores or results != game.results


# --- 31.9: deals that leave no stock --------------------------------------------------------------


def _module(name: str, **hooks: Callable[..., Any]) -> types.ModuleType:
    plugin = types.ModuleType(name)
    plugin.__dict__.update(hooks)
    return plugin


def _registry(*plugins: object, base: str = "classic") -> Registry:
    registry = Registry(autoload="builtin")
    registry.add_variant(Variant("mine", "A test variant.", plugins=plugins, base=base, origin="a test"))
    return registry


def _hand_size(size: object) -> types.ModuleType:
    @canasta.hookimpl
    def canasta_hand_size(players: int) -> object:
        return size

    return _module("big_hands", canasta_hand_size=canasta_hand_size)


def test_a_hand_size_that_can_leave_no_stock_is_refused_when_compiled() -> None:
    # Cuban: 108 cards; the upcard may take 12 wild cards and a natural, the 4 red threes
    # may need replacing: 17 cards, so at most 22 cards each for 4 players (23 leaves 16).
    with pytest.raises(RulesError) as raised:
        load_rules("mine", registry=_registry(_hand_size(26), base="cuban"))
    message = str(raised.value)
    assert message.startswith("canasta_hand_size: dealing 26 cards to 4 players leaves 4 of the 108 cards")
    assert "no stock to draw from" in message and "at most 22 cards a player" in message
    with pytest.raises(RulesError, match="at most 22 cards a player"):
        load_rules("mine", registry=_registry(_hand_size(23), base="cuban"))
    assert load_rules("mine", registry=_registry(_hand_size(22), base="cuban")).hand_size == 22


def test_every_built_in_variant_and_house_rule_leaves_a_stock() -> None:
    registry = canasta.default_registry()
    for variant in registry.variants():
        rules = load_rules(variant.name)
        assert rules.deck.size - rules.hand_size * rules.players > 17


def test_a_game_of_hand_built_rules_that_end_every_hand_on_the_deal_is_refused_not_recursed() -> None:
    """Such rules (built by hand, past the compiler) used to die in RecursionError in Game()."""
    rules = attrs.evolve(load_rules("cuban"), hand_size=26)
    with pytest.raises(RulesError, match="hands in a row ended on their deal"):
        Game(rules=rules, seed=0)


# --- 31.10: copy, deepcopy, pickle ------------------------------------------------------------


def _objects() -> Iterator[tuple[str, object]]:
    game = _played("cuban", 11, 120)
    yield "game", game
    yield "hand", game.hand
    yield "observation", game.observation(1)
    yield "deck", game.hand.deck
    yield "rules", game.rules
    yield "score", _played("classic", 5, 600).results[0]


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_public_objects_copy_and_pickle(how: str) -> None:
    for name, value in _objects():
        if how == "copy":
            other = copy.copy(value)
        elif how == "deepcopy":
            other = copy.deepcopy(value)
        else:
            other = pickle.loads(pickle.dumps(value))
        assert type(other) is type(value), name
        if isinstance(value, Game):
            assert isinstance(other, Game)
            assert other.history == value.history and other.scores == value.scores
            assert other.legal_actions() == value.legal_actions()
            assert other.observation(0) == value.observation(0)
            # Independent: playing the copy leaves the original as it was.
            before = value.observation(value.seat)
            other.apply(other.legal_actions()[0])
            assert value.observation(value.seat) == before
        elif isinstance(value, HandState):
            assert isinstance(other, HandState)
            assert other.legal_actions() == value.legal_actions()
            assert [other.observation(s) for s in range(value.rules.players)] == [
                value.observation(s) for s in range(value.rules.players)
            ]
        elif isinstance(value, Deck):
            assert isinstance(other, Deck)
            assert other.cards == value.cards and other.kinds == value.kinds
        else:
            assert other == value, name


@pytest.mark.skipif(canasta.compiled, reason="a class compiled by mypyc keeps no __slots__ to compare with")
def test_the_pickled_fields_are_every_slot_but_the_caches_and_what_the_rules_give() -> None:
    from canasta.table import CACHE_FIELDS, PICKLED_FIELDS, TableState

    assert set(PICKLED_FIELDS) == set(TableState.__slots__) - CACHE_FIELDS - {"facts", "kinds", "dealt", "deck"}


def test_a_pickled_game_plays_on_exactly_as_the_original() -> None:
    game = _played("modern-american", 4, 80)
    other = pickle.loads(pickle.dumps(game))
    rng = random.Random(1)
    for _ in range(200):
        if game.is_over:
            break
        legal = game.legal_actions()
        pick = rng.randrange(len(legal))
        assert other.legal_actions() == legal
        assert game.apply(legal[pick]) == other.apply(other.legal_actions()[pick])
    assert other.history == game.history and other.scores == game.scores
    assert other.undo() == game.undo()


# --- 31.11: exceptions survive pickle and copy -------------------------------------------------


def _package_errors() -> list[type[BaseException]]:
    """Every exception class defined in the package (modules whose optional dependencies are missing skipped)."""
    for info in pkgutil.walk_packages(canasta.__path__, "canasta."):
        try:
            importlib.import_module(info.name)
        except ImportError:
            continue
    found: list[type[BaseException]] = []
    for module_name, module in list(importlib.sys.modules.items()):  # type: ignore[attr-defined]
        if not module_name.startswith("canasta") or module is None:
            continue
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__.startswith("canasta")
                and not value.__name__.startswith("_")  # (private: never raised to a caller)
                and value not in found
            ):
                found.append(value)
    return found


#: Errors whose ``__init__`` takes more than a message, built with every field set.
_BUILT: dict[str, Callable[[type[BaseException]], BaseException]] = {
    "IllegalActionError": lambda cls: cls(
        RuleCode.PILE_FROZEN,
        "the pile is frozen",
        Meld(Kind.ACE, 3, 0, 0),
        section=RuleSection(id="frozen-pile", title="The frozen pile", page="rules/classic/", book="rules of classic"),
    ),
    "RecordError": lambda cls: cls("actions[3].rank", "not a rank", hand=2, index=3),
    "SeatError": lambda cls: cls("seat must be an integer from 0 to 3, got -1", "-1"),
    "SeedError": lambda cls: cls("seed must be an integer, got 1.5", "1.5"),
    "WorkerLostError": lambda cls: cls("worker 41 was killed by signal 9", 41, -9),
}


def _instance(cls: type[BaseException]) -> BaseException:
    builder = _BUILT.get(cls.__name__)
    if builder is not None:
        return builder(cls)
    init = cls.__init__
    own = [klass for klass in cls.__mro__ if "__init__" in vars(klass) and klass.__module__.startswith("canasta")]
    assert not own, f"{cls.__qualname__} has its own __init__ ({init}): add it to _BUILT with every field"
    error = cls("a message")
    error.detail = {"kept": [1, 2]}  # type: ignore[attr-defined]  # an attribute set after creation
    return error


def test_every_public_exception_survives_pickle_and_copy_with_its_fields() -> None:
    errors = _package_errors()
    names = {cls.__name__ for cls in errors}
    required = {"IllegalActionError", "RecordError", "CommandError", "RulesError", "SeedError", "SeatError"}
    if importlib.util.find_spec("starlette") is not None:  # (canasta.web needs the web extra)
        required.add("SessionError")
    assert required <= names
    for cls in errors:
        if issubclass(cls, Warning):
            continue
        error = _instance(cls)
        for other in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
            assert type(other) is cls
            assert str(other) == str(error) and other.args == error.args
            assert vars(other) == vars(error), cls.__qualname__


def test_an_illegal_action_error_raised_in_a_worker_reaches_the_parent_whole() -> None:
    game = Game("classic", seed=1)
    try:
        game.apply(Meld(Kind.ACE, 9, 0, 0))
    except IllegalActionError as error:
        raised = error
    back = pickle.loads(pickle.dumps(raised))
    assert isinstance(back, IllegalActionError) and isinstance(back, CanastaError)
    assert (back.code, back.reason, back.message, back.action, back.section) == (
        raised.code,
        raised.reason,
        raised.message,
        raised.action,
        raised.section,
    )


# --- 31.19: hook answers --------------------------------------------------------------------


class _Odd(int):
    """An int that lies in every comparison and arithmetic (a hostile plugin's answer)."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    def __lt__(self, other: object) -> bool:
        return False

    def __le__(self, other: object) -> bool:
        return True

    def __gt__(self, other: object) -> bool:
        return False

    def __ge__(self, other: object) -> bool:
        return True

    def __mul__(self, other: object) -> int:
        return 0

    __rmul__ = __mul__

    def __int__(self) -> int:
        return 11

    def __index__(self) -> int:
        return 11


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def _answer(hook: str, value: object, **arguments: str) -> types.ModuleType:
    names = ", ".join(arguments)
    namespace: dict[str, Any] = {"value": value}
    exec(f"def {hook}({names}):\n    return value\n", namespace)
    return _module("answers", **{hook: canasta.hookimpl(namespace[hook])})


def test_an_int_subclass_is_read_as_its_real_value_before_the_range_checks() -> None:
    with pytest.raises(RulesError, match="canasta_hand_size: dealing 500 cards"):
        load_rules("mine", registry=_registry(_hand_size(_Odd(500))))


def test_int_subclasses_become_plain_ints_in_the_rules() -> None:
    class Plain(int):
        pass

    rules = load_rules("mine", registry=_registry(_hand_size(Plain(12))))
    assert rules.hand_size == 12 and type(rules.hand_size) is int
    sides = load_rules("mine", registry=_registry(_answer("canasta_sides", (Plain(0), 1, 0, 1), players="")))
    assert all(type(s) is int for s in sides.sides)


@pytest.mark.parametrize(
    ("hook", "value", "arguments"),
    [
        ("canasta_sides", (0, True, 0, 1), {"players": ""}),
        ("canasta_card_values", (50, 20, 0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, True), {}),
        ("canasta_hand_size", 11.0, {"players": ""}),
        ("canasta_hand_size", "11", {"players": ""}),
        ("canasta_target_score", True, {}),
        ("canasta_target_score", _Unprintable(), {}),
        ("canasta_incomplete_meld_penalties", ((Kind.ACE, True),), {}),
        ("canasta_held_card_penalties", ((Kind.SEVEN, 3, 1.5),), {}),
        ("canasta_deck", DeckSpec(packs=True, jokers=4), {"players": ""}),  # type: ignore[arg-type]
    ],
)
def test_answers_that_are_not_plain_integers_are_refused_naming_the_hook(
    hook: str, value: object, arguments: dict[str, str]
) -> None:
    with pytest.raises(RulesError) as raised:
        load_rules("mine", registry=_registry(_answer(hook, value, **arguments)))
    assert f"hook {hook} returned" in str(raised.value)


@pytest.mark.parametrize("step", [50.7, "50", True])
def test_minimum_steps_that_are_not_integers_are_refused_not_truncated(step: object) -> None:
    with pytest.raises(TypeError, match="integer"):
        MeldMinimums(below_zero=15, steps=((0, step),))  # type: ignore[arg-type]

    @canasta.hookimpl
    def canasta_meld_minimums() -> MeldMinimums:
        return MeldMinimums(below_zero=15, steps=((0, step),))  # type: ignore[arg-type]

    with pytest.raises(PluginError, match="canasta_meld_minimums"):
        load_rules("mine", registry=_registry(_module("steps", canasta_meld_minimums=canasta_meld_minimums)))


@pytest.mark.parametrize("plugin", [None, 5, "pkg.rules", b"pkg", 1.5])
def test_a_variant_of_things_that_are_not_plugins_is_refused(plugin: object) -> None:
    registry = Registry(autoload="builtin")
    with pytest.raises(PluginError, match="is not a plugin"):
        registry.add_variant(Variant("mine", "x", plugins=(plugin,), base="classic"))
    assert "mine" not in [v.name for v in registry.variants()]


def test_a_plugin_without_any_hook_is_refused() -> None:
    registry = Registry(autoload="builtin")
    with pytest.raises(PluginError, match=r"holds no @canasta\.hookimpl function"):
        registry.add_variant(Variant("mine", "x", plugins=(types.ModuleType("empty"),), base="classic"))


# --- 32.9: house rules given as a string ---------------------------------------------------------


def test_a_house_rule_given_as_a_string_is_refused_with_a_sentence() -> None:
    expected = r"house_rules must be a sequence of house-rule names, such as \['cutthroat'\]"
    with pytest.raises(TypeError, match=expected):
        Game("three-player", "cutthroat")
    with pytest.raises(TypeError, match=expected):
        load_rules("three-player", "cutthroat")
    with pytest.raises(TypeError, match=expected):
        canasta.default_registry().plugin_stack("three-player", "cutthroat")
    with pytest.raises(TypeError, match="not the string"):
        Variant("mine", "x", plugins=(), house_rules="cutthroat")
    with pytest.raises(TypeError, match="house-rule names"):
        load_rules("classic", [5])  # type: ignore[list-item]
    assert load_rules("three-player", ["cutthroat"]).house_rules == ("cutthroat",)


# --- 32.13: meld ranks ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [v.name for v in canasta.default_registry().variants()])
def test_is_valid_refuses_ranks_that_never_meld(variant: str) -> None:
    melds = load_rules(variant).melds
    for rank in (Kind.TWO, Kind.RED_THREE, -1, 15, 99):
        for naturals in range(9):
            for wilds in range(4):
                assert not melds.is_valid(int(rank), naturals, wilds, 0)
                assert not melds.is_valid(int(rank), naturals, 0, wilds)
    assert melds.is_valid(Kind.ACE, 3, 0, 0)


def test_the_engine_and_is_valid_agree_on_twos_and_red_threes() -> None:
    """The engine refuses a meld of 2s as a rank (invalid-meld); the predicate now says the same."""
    others = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]
    state = position(hands=[["2H", "2S", "2D", "9C", "9D"], *others], melds=[[["KH", "KS", "KD"]], []], phase="meld")
    action = Meld(Kind.TWO, 3, 0, 0)
    assert not state.rules.melds.is_valid(int(Kind.TWO), 3, 0, 0)
    with pytest.raises(IllegalActionError) as raised:
        state.check(action)
    assert raised.value.code is RuleCode.INVALID_MELD


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_meld_tuples_valid_ones_are_meld_ranks_and_the_toolkit_agrees_with_is_valid(data: st.DataObject) -> None:
    from canasta.testing.strategies import meld_tuples

    rules = load_rules(data.draw(st.sampled_from(VARIANTS)))
    valid = data.draw(st.sampled_from([True, False, None]))
    rank, naturals, twos, jokers = data.draw(meld_tuples(rules=rules, valid=valid))
    judged = rules.melds.is_valid(int(rank), naturals, twos, jokers)
    if valid is not None:
        assert judged is valid
    if judged:
        assert rank not in (Kind.TWO, Kind.RED_THREE)


def test_a_refused_value_that_cannot_be_pickled_travels_as_its_repr() -> None:
    game = Game("classic", seed=1)

    def hostile() -> None:  # a local function: pickle cannot find it by name
        return None

    with pytest.raises(IllegalActionError) as raised:
        game.apply(hostile)
    error = raised.value
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is IllegalActionError and str(back) == str(error) and back.code is RuleCode.NOT_AN_ACTION
    assert isinstance(back.action, StandIn) and repr(back.action) == repr(hostile)
    assert copy.copy(error).action is hostile  # a copy in the same process keeps the value itself


@pytest.mark.parametrize("seat", [-1, 4, True, 1.0, "1", None])
def test_a_hand_refuses_a_seat_that_is_not_one_with_a_seat_error(seat: object) -> None:
    """As `Game.observation` does; the compiled engine gave its own untyped TypeError for 1.0."""
    from canasta.seats import SeatError

    hand = Game("classic", seed=2).hand
    with pytest.raises(SeatError, match="seat"):
        hand.observation(seat)
