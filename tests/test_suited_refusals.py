"""The sequence games' refusals name the rule (`canasta.suitedexplain`), and an action of the other family says so.

A refused meld, pile take or discard of a rule set with meld types used to be explained as
"not a canasta action" (its classes were not in the explanation's list) or by the rank-counted
family's reasons (a discard of a suit not held was "below the minimum"). Now each refusal names
its rule: the phase, the cards held by suit, the meld named, the meld type's limit, and last
what "legal" means (SPEC §0).
"""

from __future__ import annotations

import random
from collections import Counter

import helpers
import pytest
from buraco_plugin import VARIANT, buraco_registry

import canasta
from canasta import Discard, HandState, IllegalActionError, Kind, RuleCode, Suit
from canasta.commands import CommandError, notation, parse_command
from canasta.suitedexplain import MELD_ACTION_TYPES
from canasta.suitedlegality import hand_of
from canasta.suitedmeldactions import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

#: The codes of "the rules allow it, but the turn could not be completed after it".
_COMPLETION = {
    RuleCode.MINIMUM_NOT_MET,
    RuleCode.MUST_GO_OUT,
    RuleCode.GOING_OUT_NOT_ALLOWED,
    RuleCode.GOING_OUT_REFUSED,
    RuleCode.TURN_CANNOT_COMPLETE,
}


def _refusal(state: HandState, action: object) -> IllegalActionError:
    before = helpers.snapshot(state)
    with pytest.raises(IllegalActionError) as refused:
        state.apply(action)
    assert helpers.snapshot(state) == before
    return refused.value


def _own(action: object) -> bool:
    """An action of the family that melds by meld type (a natural's discard there names its suit)."""
    if isinstance(action, Discard):
        return action.suit is not None
    return isinstance(action, (PileTake, *MELD_ACTION_TYPES))


@pytest.mark.parametrize("name", ["samba", "bolivia", "brazilian", VARIANT])
def test_every_refusal_in_play_names_a_rule_of_its_family(name: str) -> None:
    """Allowed but incompletable actions get a completion code; near misses a rule's, never "not an action"."""
    rules = canasta.load_rules(name, registry=buraco_registry())
    codes: Counter[RuleCode] = Counter()
    completions = 0
    for seed in range(3):
        rng = random.Random(seed)
        scores = [rng.choice([0, 3000, 7000, 9000]) for _ in range(rules.side_count)]
        state = HandState.deal(rules, dealer=seed % 4, scores=scores, seed=seed)
        while not state.is_over:
            legal = set(state.legal_actions())
            allowed = [a for a in state.allowed_actions() if a not in legal]
            for action in allowed:
                assert _refusal(state, action).code in _COMPLETION, action
                completions += 1
            for action in helpers.action_universe(state, rng):
                if action in legal or not _own(action) or rng.random() > 0.3:
                    continue
                error = _refusal(state, action)
                assert error.code not in (RuleCode.NOT_AN_ACTION, RuleCode.ILLEGAL), (action, str(error))
                codes[error.code] += 1
            state.apply(rng.choice(state.legal_actions()))
    assert completions > 0
    # The near misses meet several rules: the phase, the cards held, the meld named, the type's limits.
    assert {RuleCode.WRONG_PHASE, RuleCode.CARDS_NOT_IN_HAND, RuleCode.INVALID_MELD} <= set(codes)


def _meld_phase(name: str, seed: int = 1) -> HandState:
    """A hand of ``name`` after the first player's stock draw (scores 0)."""
    state = HandState.deal(canasta.load_rules(name), dealer=3, scores=[0, 0], seed=seed)
    state.apply(canasta.DrawStock())
    return state


def test_an_action_of_the_other_family_says_which_family_it_belongs_to() -> None:
    classic = _meld_phase("classic")
    for action in (LaySequence(Suit.HEARTS, 4, 6), LayGroup(5, (1, 1, 1, 0)), PileTake(TakeMode.PAIR)):
        error = _refusal(classic, action)
        assert error.code is RuleCode.NOT_AN_ACTION and "meld by meld type (the sequence games)" in error.reason
    error = _refusal(classic, Discard(Kind.FIVE, suit=Suit.HEARTS))
    assert error.code is RuleCode.NOT_AN_ACTION and "a discard names no suit (Discard(Kind.FIVE))" in error.reason

    samba = _meld_phase("samba")
    error = _refusal(samba, canasta.Meld(Kind.FIVE, 3))
    assert error.code is RuleCode.NOT_AN_ACTION and "LayGroup(rank, suits, twos, jokers, meld)" in error.reason
    error = _refusal(samba, canasta.TakePile(2))
    assert error.code is RuleCode.NOT_AN_ACTION and "PileTake(mode, meld, pair)" in error.reason
    error = _refusal(samba, Discard(Kind.FIVE))
    assert error.code is RuleCode.NOT_AN_ACTION and "names its suit" in error.reason


def test_a_discard_of_a_suit_not_held_says_so() -> None:
    samba = _meld_phase("samba")
    held = hand_of(samba, samba.seat)
    rank, suit = next((r, s) for r in range(4, 15) for s in range(4) if not held.naturals[(r - 4) * 4 + s])
    error = _refusal(samba, Discard(Kind(rank), suit=Suit(suit)))
    assert error.code is RuleCode.CARDS_NOT_IN_HAND
    assert error.reason == f"you hold no {Kind(rank).name.lower()} of {Suit(suit).name.lower()}"


def test_melds_named_wrongly_and_limits_broken_name_the_rule() -> None:
    samba = _meld_phase("samba")
    held = hand_of(samba, samba.seat)
    rank = next(r for r in range(4, 15) if sum(held.naturals[(r - 4) * 4 : (r - 4) * 4 + 4]))
    one = tuple(1 if i == next(s for s in range(4) if held.naturals[(rank - 4) * 4 + s]) else 0 for i in range(4))
    error = _refusal(samba, LayGroup(rank, one))
    assert error.code is RuleCode.INVALID_MELD and error.reason.startswith("a new group needs at least 3 cards")
    assert _refusal(samba, LayGroup(rank, one, meld=7)).reason.endswith("numbered 7")
    assert _refusal(samba, Extend(3, 4, 9)).reason == "your side has no sequence numbered 3"
    assert _refusal(samba, Combine(0, 1)).reason == "your side has no meld numbered 0"
    assert _refusal(samba, LayWild(3)).code is RuleCode.WILD_MELD  # samba has no wild melds (§9.1)
    assert _refusal(samba, PileTake(TakeMode.PAIR)).code is RuleCode.WRONG_PHASE
    drawing = HandState.deal(canasta.load_rules("samba"), dealer=3, scores=[0, 0], seed=1)
    error = _refusal(drawing, LayBlackThrees(3))
    assert error.code is RuleCode.WRONG_PHASE and error.reason.startswith("the meld of 3 black threes is not possible")


def test_an_opening_that_needs_a_canasta_names_it() -> None:
    """Brazilian at 9000 (§11.1): a provisional opening meld that cannot lead to a clean canasta."""
    rules = canasta.load_rules("brazilian")
    for seed in range(40):
        state = HandState.deal(rules, dealer=3, scores=[9000, 9000], seed=seed)
        state.apply(canasta.DrawStock())
        legal = set(state.legal_actions())
        refused = [a for a in state.allowed_actions() if a not in legal and isinstance(a, LayGroup)]
        if refused:
            error = _refusal(state, refused[0])
            assert error.code is RuleCode.MINIMUM_NOT_MET
            assert "its initial meld (a natural, wild or sequence canasta)" in error.reason
            return
    pytest.fail("no refused provisional opening meld in 40 deals")


def test_a_typed_command_naming_an_illegal_action_gets_the_engines_refusal() -> None:
    """The terminal and the web page (`parse_command`): the rule is named, as in the rank-counted games."""
    samba = _meld_phase("samba")
    held = hand_of(samba, samba.seat)
    rank, suit = next((r, s) for r in range(4, 15) for s in range(4) if not held.naturals[(r - 4) * 4 + s])
    text = notation(Discard(Kind(rank), suit=Suit(suit)))
    before = helpers.snapshot(samba)
    with pytest.raises(IllegalActionError) as refused:
        parse_command(text, samba)
    assert refused.value.code is RuleCode.CARDS_NOT_IN_HAND
    with pytest.raises(IllegalActionError, match="numbered 5"):
        parse_command("ext #5 4 9", samba)
    # What names no single action stays a command error: unreadable text, or a choice no legal action settles.
    with pytest.raises(CommandError):
        parse_command("seq h", samba)
    assert helpers.snapshot(samba) == before
