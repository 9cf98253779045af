"""One behaviour: copies, deep copies and pickles behave the same on the compiled and the pure-Python engine.

Issue 31.10: ``copy.deepcopy``, ``copy.copy`` and ``pickle`` of `Game`, `HandState`,
`Observation` and `Deck` raised ``TypeError`` on the compiled engine only, and a
`Card` subclass in `build_position` an untyped ``TypeError``. Each engine runs the
same script in its own subprocess (as ``test_compiled_engine.py`` does): it copies,
deep-copies and pickles every public object of seeded games of every built-in
variant, plays the copies on, pickles an error of each kind, and builds a position
from a `Card` subclass; the outcomes (what each operation gave, digested) must be
equal. Skipped when the compiled engine is not installed.
"""

from __future__ import annotations

import pytest
from helpers import run_on_engine

import canasta

# Run as a script in each subprocess: prints {"compiled": bool, "outcomes": {...}}.
PROBE = r"""
import copy, hashlib, json, pickle, random
import canasta
from canasta.cards import Card

VARIANTS = ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american")
CLONES = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
}


def summary(value):
    if isinstance(value, canasta.Game):
        return [repr(list(value.legal_actions())), list(value.scores), repr(value.history), value.seed,
                [repr(value.observation(s)) for s in range(value.rules.players)]]
    if isinstance(value, canasta.HandState):
        return [repr(list(value.legal_actions())), [repr(value.observation(s)) for s in range(value.rules.players)]]
    if isinstance(value, canasta.Deck):
        return [len(value), repr(value.cards[:5]), value == canasta.Deck(value.spec)]
    return repr(value)


def outcome(action):
    try:
        return action()
    except Exception as error:  # the outcome compared is the error's type and text
        return ["error", type(error).__name__, str(error)]


outcomes = {}
for variant in VARIANTS:
    game = canasta.Game(variant, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    objects = {"game": game, "hand": game.hand, "observation": game.observation(1), "deck": game.hand.deck,
               "rules": game.rules, "action": game.legal_actions()[0]}
    for how, clone in CLONES.items():
        for name, value in objects.items():
            def trial(value=value, clone=clone):
                other = clone(value)
                same = summary(other) == summary(value)
                played = None
                if isinstance(other, (canasta.Game, canasta.HandState)):
                    other.apply(other.legal_actions()[0])  # the copy plays on; the original is unchanged
                    played = [summary(other), summary(value)]
                equal = None if isinstance(other, (canasta.Game, canasta.HandState)) else bool(other == value)
                return [type(other).__name__, same, hashlib.sha256(json.dumps(played).encode()).hexdigest(), equal]
            outcomes[f"{variant} {how} {name}"] = outcome(trial)

try:
    canasta.Game("classic", seed=1).apply(canasta.Meld(canasta.Kind.ACE, 9, 0, 0))
except canasta.IllegalActionError as error:
    illegal = error
for how, clone in CLONES.items():
    def error_trial(clone=clone):
        other = clone(illegal)
        return [type(other).__name__, str(other), repr(other.action), other.code.value]
    outcomes[f"error {how}"] = outcome(error_trial)


def subclass_trial():
    class MyCard(Card):
        pass

    rules = canasta.load_rules("classic")
    others = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]
    hands = [[MyCard(12, canasta.Suit.HEARTS, 0), "QS", "9C"], *others]
    state = canasta.build_position(rules, hands=hands, melds=[[["KH", "KS", "KD"]], []])
    return [repr(list(state.legal_actions())), [type(c).__name__ for c in state.hand_cards(0)]]


outcomes["card subclass"] = outcome(subclass_trial)

# Hostile calls of the public operations: each must end the same way on both engines (a value, or
# the same error type and text).
hand = canasta.Game("classic", seed=2).hand
rules = hand.rules
OTHERS = [["4H"], ["4C"], ["4D"]]
HOSTILE = {
    "observation(-1)": lambda: hand.observation(-1),
    "observation(9)": lambda: hand.observation(9),
    "observation(1.0)": lambda: hand.observation(1.0),
    "apply(None)": lambda: hand.copy().apply(None),
    "apply('draw')": lambda: hand.copy().apply("draw"),
    "check(5)": lambda: hand.check(5),
    "is_legal([])": lambda: hand.is_legal([]),
    "hand_cards(9)": lambda: hand.hand_cards(9),
    "deal(seed=1.5)": lambda: canasta.HandState.deal(rules, dealer=0, scores=[0, 0], seed=1.5).legal_actions(),
    "deal(scores=(0, 0))": lambda: canasta.HandState.deal(rules, dealer=0, scores=(0, 0), seed=1).legal_actions(),
    "build_position(1.5)": lambda: canasta.build_position(rules, hands=[[1.5], *OTHERS]),
    "build_position(card None)": lambda: canasta.build_position(rules, hands=[[Card(None, None, 0)], *OTHERS]),
    "ids_for(ZZ)": lambda: canasta.Deck(rules.deck).ids_for(["ZZ"], set()),
    "Deck == 5": lambda: canasta.Deck(rules.deck) == 5,
    "Deck in set": lambda: len({canasta.Deck(rules.deck), canasta.Deck(rules.deck)}),
}
for name, call in HOSTILE.items():
    outcomes[f"hostile {name}"] = outcome(lambda call=call: repr(call()))
print(json.dumps({"compiled": canasta.compiled, "outcomes": outcomes}))
"""

pytestmark = pytest.mark.skipif(
    not canasta.compiled,
    reason="the compiled engine is not installed (pure-Python build, or CANASTA_PURE_PYTHON set): nothing to compare",
)


def _probe(pure: bool) -> dict[str, object]:
    return run_on_engine(PROBE, pure=pure)


def test_copies_deep_copies_and_pickles_behave_the_same_on_both_engines() -> None:
    compiled = _probe(pure=False)
    pure = _probe(pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    outcomes = pure["outcomes"]
    assert isinstance(outcomes, dict)
    differing = {key for key, value in outcomes.items() if compiled["outcomes"][key] != value}  # type: ignore[index]
    assert not differing, sorted(differing)
    # And every operation worked (none is an error), giving an equal object.
    for key, value in outcomes.items():
        if key.startswith("hostile "):
            continue  # (refusals are expected there: only the agreement of the engines is checked)
        assert value[0] != "error", (key, value)
        if key.split()[-1] in ("game", "hand", "observation", "deck", "rules", "action"):
            assert value[1] is True, key
            assert value[3] in (None, True), key  # an equal object, where the class has equality
    assert outcomes["card subclass"][1] == ["Card", "Card", "Card"]
    assert all(outcomes[f"error {how}"][0] == "IllegalActionError" for how in ("copy", "deepcopy", "pickle"))
