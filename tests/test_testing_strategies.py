"""canasta.testing.strategies: what they generate, and that the engine agrees with them."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, assume, find, given, settings
from hypothesis import strategies as st

import canasta
from canasta.testing import check_all, check_refused, random_play
from canasta.testing import strategies as cst

CLASSIC = canasta.load_rules("classic")
VARIANTS = [v.name for v in canasta.available_variants()]


@given(cst.kinds(wilds=False, threes=False))
def test_kinds_respect_their_groups(kind: canasta.Kind) -> None:
    assert kind.is_natural


def test_kinds_needs_a_group() -> None:
    with pytest.raises(ValueError, match="every group"):
        cst.kinds(naturals=False, wilds=False, threes=False)


@given(cst.hands(rules=CLASSIC, min_size=3, max_size=15))
def test_hands_are_distinct_cards_of_the_deck(hand: list[canasta.Card]) -> None:
    assert 3 <= len(hand) <= 15
    assert len(set(hand)) == len(hand)
    assert set(hand) <= set(canasta.build_deck(CLASSIC.deck))


@given(cst.cards(deck=canasta.DeckSpec(packs=3, jokers=6)))
def test_cards_come_from_the_given_deck(card: canasta.Card) -> None:
    assert card in canasta.build_deck(canasta.DeckSpec(packs=3, jokers=6))
    assert card.pack < (6 if card.kind is canasta.Kind.JOKER else 3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_valid_and_invalid_melds_are_judged_by_the_rules(variant: str) -> None:
    rules = canasta.load_rules(variant)
    valid = rules.melds.is_valid

    @given(cst.meld_tuples(rules=rules, valid=True), cst.meld_tuples(rules=rules, valid=False))
    def check(good: cst.MeldTuple, bad: cst.MeldTuple) -> None:
        assert valid(*good)
        assert not valid(*bad)

    check()


def test_valid_melds_cover_the_interesting_cases() -> None:
    """Mixed melds, canastas and black threes in classic; wild melds where a variant allows them."""
    melds = cst.meld_tuples(rules=CLASSIC)
    quick = settings(database=None, max_examples=500)
    find(melds, lambda t: t[2] + t[3] == CLASSIC.melds.max_wilds and t[0].is_natural, settings=quick)
    find(melds, lambda t: t[1] + t[2] + t[3] >= CLASSIC.melds.canasta_size, settings=quick)
    find(melds, lambda t: t[0] is canasta.Kind.BLACK_THREE, settings=quick)
    for variant in VARIANTS:
        rules = canasta.load_rules(variant)
        if rules.melds.wild_melds:
            find(cst.meld_tuples(rules=rules), lambda t: t[0] is canasta.Kind.JOKER, settings=quick)
    invalid = cst.meld_tuples(rules=CLASSIC, valid=False)
    find(invalid, lambda t: t[0].is_natural and t[1] >= 2 and t[2] + t[3] > CLASSIC.melds.max_wilds, settings=quick)
    find(invalid, lambda t: t[0] is canasta.Kind.JOKER and t[1] == 0, settings=quick)


_RANK_CODES = {canasta.Kind.TEN: "T", canasta.Kind.JACK: "J", canasta.Kind.QUEEN: "Q", canasta.Kind.KING: "K"}
_RANK_CODES[canasta.Kind.ACE] = "A"


def _codes(rank: canasta.Kind, count: int) -> list[str]:
    letter = _RANK_CODES.get(rank, str(int(rank)))
    return [letter + "CDHS"[i % 4] for i in range(count)]


# The strategy's meld tuples are melds of a rank judged by `canasta.MeldRules` (``canasta.Meld``); the sequence
# games (rule sets with meld types) lay groups by suit, judged by their meld types: their legal melds are checked
# against the brute-force reference in tests/test_suited_melds.py and tests/test_sequence_engine.py.
@pytest.mark.parametrize("variant", [v for v in VARIANTS if not canasta.load_rules(v).meld_types])
def test_valid_melds_are_accepted_in_a_real_position(variant: str) -> None:
    """A meld the strategy calls valid can be laid down by an opened side holding its cards."""
    rules = canasta.load_rules(variant)

    @given(cst.meld_tuples(rules=rules).filter(lambda t: t[0] is not canasta.Kind.BLACK_THREE))
    @settings(suppress_health_check=[HealthCheck.filter_too_much])
    def check(meld: cst.MeldTuple) -> None:
        rank, naturals, twos, jokers = meld
        meld_rules = rules.melds
        if (twos or jokers) and rank.is_natural:
            # The position is a later turn of the hand: the club form's rule of five wants five naturals
            # before a wild card joins a natural meld, and its pure aces take none (their meld state).
            assume(naturals >= meld_rules.wilds_need_naturals and rank not in meld_rules.wilds_only_when_opening)
        opened = canasta.Kind.KING if rank is canasta.Kind.ACE else canasta.Kind.ACE
        spare = canasta.Kind.FIVE if rank is canasta.Kind.FOUR else canasta.Kind.FOUR
        hand = _codes(rank, naturals) + [f"2{'CDHS'[i % 4]}" for i in range(twos)] + ["*"] * jokers
        hand += _codes(spare, 2)  # so the meld never goes out
        players = rules.players
        filler = canasta.Kind.SEVEN if rank is canasta.Kind.SIX else canasta.Kind.SIX
        others = _codes(filler, 2 * (players - 1))
        state = canasta.build_position(
            rules,
            hands=[hand] + [others[2 * i : 2 * i + 2] for i in range(players - 1)],
            pile=_codes(spare, 3)[2:],
            melds=[[_codes(opened, 3)]] + [[] for _ in range(rules.side_count - 1)],
            seat=0,
            phase="meld",
        )
        action = canasta.Meld(rank, naturals, twos, jokers)
        assert state.is_legal(action), (action, state.legal_actions())

    check()


@given(st.data())
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_rules_stack_only_fitting_house_rules(data: st.DataObject) -> None:
    rules = data.draw(cst.rules())
    registry = canasta.default_registry()
    for name in rules.house_rules:
        assert registry.fits(name, rules.variant)
    assert rules.variant in VARIANTS
    plain = data.draw(cst.rules(variants=["classic"], house_rules=()))
    assert (plain.variant, plain.house_rules) == ("classic", ())


@given(cst.hand_states(max_steps=150))
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_reachable_states_keep_every_invariant(state: canasta.HandState) -> None:
    check_all(state, legal_sample=2, illegal_sample=4)


@given(st.data())
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_legal_actions_are_accepted_and_illegal_ones_refused(data: st.DataObject) -> None:
    state = data.draw(cst.hand_states(rules=CLASSIC, allow_over=False))
    legal = data.draw(cst.legal_actions(state=state))
    illegal = data.draw(cst.illegal_actions(state=state))
    err = check_refused(state, illegal)
    assert isinstance(err.code, canasta.RuleCode)
    state.apply(legal)


@given(cst.hand_states(rules=CLASSIC, min_steps=300, max_steps=400, allow_over=False))
@settings(max_examples=5, suppress_health_check=[HealthCheck.too_slow])
def test_hand_states_can_exclude_finished_hands(state: canasta.HandState) -> None:
    # 300+ random actions end most classic hands (about 140 each): those are taken one action earlier.
    assert not state.is_over and state.turn > 0
    assert state.legal_actions()


def test_legal_actions_needs_a_live_hand() -> None:
    state = canasta.HandState.deal(CLASSIC, dealer=3, scores=[0, 0], seed=1)
    random_play(state, random.Random(0), 10_000)
    with pytest.raises(ValueError, match="over"):
        cst.legal_actions(state=state)


def test_importing_canasta_does_not_need_hypothesis() -> None:
    """Without hypothesis, canasta and the plain checks import; the strategies name the extra."""
    code = textwrap.dedent(
        """
        import sys
        sys.modules["hypothesis"] = None  # as if not installed
        import canasta, canasta.testing
        from canasta.testing import check_all
        try:
            import canasta.testing.strategies
        except ImportError as exc:
            assert "canasta[testing]" in str(exc), exc
        else:
            raise SystemExit("strategies imported without hypothesis")
        try:
            canasta.testing.conformance_machine
        except ImportError as exc:
            assert "canasta[testing]" in str(exc), exc
        else:
            raise SystemExit("conformance imported without hypothesis")
        print("ok")
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr
