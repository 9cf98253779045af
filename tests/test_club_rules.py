"""The club rules of modern American canasta (the rule book's club form): each alone on modern-american."""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator

import attrs
import pytest
from helpers import accepted, refused
from test_variant_positions import rules_of

import canasta
from canasta import Discard, DrawStock, HandEnd, Kind, Meld, PluginError, RuleCode, TakePile
from canasta.testing.reference import check_exact_legality

OTHERS = [["4C", "4D"], ["5C", "5D"], ["6C", "6D"]]
CANASTA_K = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_Q = ["QH", "QS", "QD", "QC", "QH", "QS", "QD"]
CLUB_RULES = ["held-aces-sevens-penalty", "dead-ranks", "splash", "aces-pure", "rule-of-five"]


@pytest.mark.parametrize("name", CLUB_RULES)
def test_each_club_rule_fits_modern_american_only(name: str) -> None:
    assert canasta.load_rules("modern-american", (name,)).house_rules == (name,)
    for variant in ("classic", "two-player", "cuban"):
        with pytest.raises(PluginError, match=f"house rule '{name}' does not fit variant '{variant}'"):
            canasta.load_rules(variant, (name,))


def _went_out(rules: canasta.Rules, partner: list[str], opponent: list[str]) -> canasta.HandState:
    """Seat 0 goes out; seat 1 (the other side) holds ``opponent``, seat 2 (partner) ``partner``."""
    state = canasta.build_position(
        rules,
        hands=[["JH", "JS", "JD", "9C"], opponent, partner, ["6C", "6D"]],
        melds=[[CANASTA_K, CANASTA_Q], []],
        phase="meld",
    )
    accepted(state, Meld(Kind.JACK, 3, 0, 0))
    accepted(state, Discard(Kind.NINE))
    assert state.end is HandEnd.WENT_OUT
    return state


def test_held_aces_and_sevens_cost_1500_per_player_and_rank() -> None:
    club = rules_of("modern-american", "held-aces-sevens-penalty")
    plain = rules_of("modern-american")
    # Seat 1 holds three aces and four sevens: two charges; seat 3 (its partner) two sevens: none.
    opponent = ["AH", "AS", "AD", "7H", "7S", "7D", "7C", "KC"]
    for rules, charge in ((club, 3000), (plain, 0)):
        state = _went_out(rules, ["8C", "8D"], opponent)
        other = state.score().sides[1]
        assert other.penalties == -charge
        assert other.cards_in_hand == -(3 * 20 + 4 * 5 + 10 + 2 * 5)  # the cards' values count as well
        assert state.score().sides[0].penalties == 0


def test_held_penalty_is_once_per_player_and_needs_three_in_one_hand() -> None:
    club = rules_of("modern-american", "held-aces-sevens-penalty")
    # Eight aces in one hand: one charge. Two aces with each partner: none (each hand counts alone).
    many = _went_out(club, ["8C", "8D"], ["AH", "AS", "AD", "AC", "AH", "AS", "AD", "AC"])
    assert many.score().sides[1].penalties == -1500
    split = canasta.build_position(
        club,
        hands=[["JH", "JS", "JD", "9C"], ["AH", "AS", "7H", "7S"], ["8C", "8D"], ["AD", "AC", "7D", "7C"]],
        melds=[[CANASTA_K, CANASTA_Q], []],
        phase="meld",
    )
    accepted(split, Meld(Kind.JACK, 3, 0, 0))
    accepted(split, Discard(Kind.NINE))
    assert split.score().sides[1].penalties == 0
    # The going-out side's partner is charged too, even holding a canasta of the rank on the table.
    own = _went_out(club, ["7H", "7S", "7D", "8C"], ["4C", "4D"])
    assert own.score().sides[0].penalties == -1500


def test_held_penalty_applies_when_the_stock_runs_out() -> None:
    club = rules_of("modern-american", "held-aces-sevens-penalty")
    hands = [["AH", "AS", "AD", "9C"], ["7H", "7S", "7D", "4C"], ["8C", "8D"], ["6C", "6D"]]
    used = Counter(c for h in hands for c in h) + Counter(CANASTA_K)
    rest = []
    for card in canasta.Deck(club.deck).cards:  # every other card in the pile: the stock is empty
        if used[card.code]:
            used[card.code] -= 1
        elif card.kind not in (Kind.RED_THREE, Kind.BLACK_THREE):
            rest.append(card.code)
    bonus = (Kind.RED_THREE, Kind.BLACK_THREE)
    threes = [[c.code for c in canasta.Deck(club.deck).cards if c.kind in bonus], [], [], []]
    state = canasta.build_position(club, hands=hands, melds=[[CANASTA_K], []], pile=rest, threes=threes, stock=[])
    assert state.end is HandEnd.STOCK_EXHAUSTED  # due to draw from an empty stock: the hand is over
    assert [s.penalties for s in state.score().sides] == [-1500, -1500]


def test_held_card_penalties_are_validated_at_compilation() -> None:
    rules = rules_of("modern-american", "held-aces-sevens-penalty")
    assert rules.held_card_penalties == ((Kind.ACE, 3, 1500), (Kind.SEVEN, 3, 1500))
    assert attrs.fields(canasta.Rules).held_card_penalties.default == ()


DEAD = rules_of("modern-american", "dead-ranks")
PLAIN = rules_of("modern-american")
MIXED_K = ["KD", "KC", "KD", "KC", "KH", "2C", "2D"]


def test_a_canasta_closes_its_rank_for_both_sides() -> None:
    # Side 1 holds an incomplete meld of kings; side 0 completes a mixed canasta of kings (8 kings in all).
    def position(rules: canasta.Rules) -> canasta.HandState:
        return canasta.build_position(
            rules,
            hands=[["KH", "KS", "9C", "9D", "QH"], ["*", "4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
            melds=[[["KH", "KS", "KD", "KC", "2C"], ["QS", "QD", "QC"]], [["KD", "KC", "2D"]]],
            phase="meld",
        )

    state = position(DEAD)
    assert state.closed_ranks == frozenset()
    accepted(state, Meld(Kind.KING, 2, 0, 0))
    assert state.closed_ranks == {Kind.KING}
    accepted(state, Discard(Kind.NINE))
    # Seat 1 may not add to its own incomplete meld of kings any more.
    accepted(state, DrawStock())
    error = refused(state, Meld(Kind.KING, 0, 0, 1), RuleCode.RANK_CLOSED)
    assert error.section is not None and error.section.path == "rules/house-rules/dead-ranks.md#dead-ranks"
    assert not any(isinstance(a, Meld) and a.rank is Kind.KING for a in state.legal_actions())
    plain = position(PLAIN)
    accepted(plain, Meld(Kind.KING, 2, 0, 0))
    accepted(plain, Discard(Kind.NINE))
    accepted(plain, DrawStock())
    accepted(plain, Meld(Kind.KING, 0, 0, 1))  # without the rule the other side's kings still grow
    assert plain.closed_ranks == frozenset()


def test_a_dead_rank_on_top_of_the_pile_cannot_be_taken() -> None:
    def position(rules: canasta.Rules) -> canasta.HandState:
        return canasta.build_position(
            rules,
            hands=[["QH", "QS", "9C", "9D"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
            melds=[[["8H", "8S", "8D"]], [["QD", "QC", "QS", "QD", "QC", "2H", "2S"]]],
            pile=["7S", "QH"],
        )

    refused(position(DEAD), TakePile(2, 0, 0), RuleCode.RANK_CLOSED)
    assert TakePile(2, 0, 0) not in position(DEAD).legal_actions()
    accepted(position(PLAIN), TakePile(2, 0, 0))


def test_a_dead_rank_can_still_be_discarded_and_blocks_going_out_by_melding() -> None:
    # Side 0 has two canastas; seat 0 holds K K 2 9: the kings can no longer be melded (side 1 has a king
    # canasta), so seat 0 cannot go out and must discard and keep a card.
    state = canasta.build_position(
        DEAD,
        hands=[["KH", "KS", "2H", "9C"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
        melds=[[CANASTA_Q, ["9H", "9S", "9D", "9H", "9S", "9D", "2C"]], [MIXED_K]],
        phase="meld",
    )
    assert state.closed_ranks == {Kind.KING, Kind.QUEEN, Kind.NINE}
    legal = state.legal_actions()
    assert Discard(Kind.KING) in legal and Discard(Kind.TWO) in legal
    assert not any(isinstance(a, Meld) and a.rank is not Kind.JOKER for a in legal)
    assert Discard(Kind.NINE) in legal  # nine is dead too: discarding it keeps two kings
    plain = canasta.build_position(
        PLAIN,
        hands=[["KH", "KS", "2H", "9C"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
        melds=[[CANASTA_Q, ["9H", "9S", "9D", "9H", "9S", "9D", "2C"]], [MIXED_K]],
        phase="meld",
    )
    assert Meld(Kind.KING, 2, 1, 0) in plain.legal_actions()


def test_a_dead_rank_cannot_be_part_of_an_opening() -> None:
    # Side 0 has not opened; side 1 has a canasta of aces. A A A is no clean meld any more.
    hands = [["AH", "AS", "AD", "KH", "KS", "KD", "*", "9C"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]]
    melds = [[], [["AC", "AC", "AH", "AS", "AD", "2C", "2D"]]]
    state = canasta.build_position(DEAD, hands=hands, melds=melds, phase="meld", opened=[False, True])
    refused(state, Meld(Kind.ACE, 3, 0, 0), RuleCode.RANK_CLOSED)
    plain = canasta.build_position(PLAIN, hands=hands, melds=melds, phase="meld", opened=[False, True])
    assert Meld(Kind.ACE, 3, 0, 0) in plain.legal_actions()


def test_ranks_closed_in_a_hand_open_again_in_the_next() -> None:
    state = canasta.build_position(
        DEAD,
        hands=[["QH", "QS", "9C", "9D"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
        melds=[[["8H", "8S", "8D"]], [MIXED_K]],
    )
    assert state.closed_ranks == {Kind.KING}
    game = canasta.Game.from_hand(state)
    assert game.rules.melds.closed == frozenset() and game.rules == DEAD
    assert state.rules.as_dealt == DEAD
    assert state.rules.during_hand(attrs.evolve(state.rules.melds, closed=frozenset())) is state.rules.as_dealt


class _Closing:
    """A plugin closing ranks at canasta size on classic, whose melds are not capped."""

    @canasta.hookimpl(wrapper=True)
    def canasta_meld_rules(self) -> Generator[None, canasta.MeldRules, canasta.MeldRules]:
        return attrs.evolve((yield), closed_at_canasta=True)


def test_closed_at_canasta_needs_melds_capped_at_canasta_size() -> None:
    stack = canasta.default_registry().plugin_stack("classic")
    pm = canasta.make_plugin_manager([*stack, ("closing", _Closing())])
    with pytest.raises(canasta.RulesError, match="closed_at_canasta needs max_size equal to canasta_size"):
        canasta.compile_rules(pm, "classic")


@pytest.mark.parametrize("name", CLUB_RULES)
def test_no_going_out_with_an_incomplete_natural_aces_or_sevens_or_wild_meld(name: str) -> None:
    club = rules_of("modern-american", name)

    def position(rules: canasta.Rules, third: list[str]) -> canasta.HandState:
        return canasta.build_position(
            rules,
            hands=[["JH", "JS", "JD", "9C"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
            melds=[[CANASTA_K, CANASTA_Q, third], []],
            phase="meld",
        )

    for third in (["7H", "7S", "7D"], ["AH", "AS", "AD"], ["2H", "2S", "*"]):
        # Melding the jacks leaves one card: only going out could end the turn, so the meld is refused.
        state = position(club, third)
        error = refused(state, Meld(Kind.JACK, 3, 0, 0), RuleCode.GOING_OUT_NOT_ALLOWED)
        assert "not yet a canasta" in error.reason
        assert Discard(Kind.NINE) in state.legal_actions()  # the turn ends with a discard instead
        plain = position(PLAIN, third)
        accepted(plain, Meld(Kind.JACK, 3, 0, 0))
        accepted(plain, Discard(Kind.NINE))
        assert plain.end is HandEnd.WENT_OUT
    # A mixed aces meld does not keep the side from going out.
    mixed = position(club, ["AH", "AS", "2D"])
    accepted(mixed, Meld(Kind.JACK, 3, 0, 0))
    accepted(mixed, Discard(Kind.NINE))
    assert mixed.end is HandEnd.WENT_OUT


def test_completing_the_blocking_meld_lets_the_side_go_out() -> None:
    club = rules_of("modern-american", "dead-ranks")
    state = canasta.build_position(
        club,
        hands=[["7C", "7C", "7D", "7H", "9C"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
        melds=[[CANASTA_K, CANASTA_Q, ["7H", "7S", "7S"]], []],
        phase="meld",
    )
    accepted(state, Meld(Kind.SEVEN, 4, 0, 0))
    accepted(state, Discard(Kind.NINE))
    assert state.end is HandEnd.WENT_OUT


SPLASH = rules_of("modern-american", "splash")


def _unopened(rules: canasta.Rules, hand: list[str], **kwargs: object) -> canasta.HandState:
    return canasta.build_position(
        rules, hands=[hand, ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]], phase="meld", opened=[False, False], **kwargs
    )  # type: ignore[arg-type]


def test_a_natural_canasta_from_the_hand_opens_without_the_minimum() -> None:
    kings = ["KH", "KS", "KD", "KC", "KH", "KS", "KD", "9C", "9D"]  # count 70, below the minimum of 125
    state = _unopened(SPLASH, kings)
    accepted(state, Meld(Kind.KING, 7, 0, 0))
    assert state.opened[0] and state.minimum_needed(0) == 0
    accepted(state, Discard(Kind.NINE))
    refused(_unopened(PLAIN, kings), Meld(Kind.KING, 7, 0, 0), RuleCode.MINIMUM_NOT_MET)
    # Laid in steps, the first steps are provisional: legal because the canasta can still be completed.
    steps = _unopened(SPLASH, kings)
    accepted(steps, Meld(Kind.KING, 4, 0, 0))
    assert not steps.opened[0] and Meld(Kind.KING, 3, 0, 0) in steps.legal_actions()
    assert Discard(Kind.NINE) not in steps.legal_actions()  # the opening is not complete yet
    accepted(steps, Meld(Kind.KING, 3, 0, 0))
    assert steps.opened[0]


def test_a_wild_canasta_from_the_hand_opens_without_the_clean_meld() -> None:
    wilds = ["2C", "2D", "2H", "2S", "*", "*", "*", "9C", "9D"]  # count 230, but no clean meld
    state = _unopened(SPLASH, wilds)
    accepted(state, Meld(Kind.JOKER, 0, 4, 3))
    assert state.opened[0]
    assert not _unopened(PLAIN, wilds).is_legal(Meld(Kind.JOKER, 0, 4, 3))


def test_a_mixed_canasta_is_no_splash() -> None:
    mixed = ["KH", "KS", "KD", "KC", "KH", "2C", "2D", "9C", "9D"]
    error = refused(_unopened(SPLASH, mixed), Meld(Kind.KING, 5, 2, 0), RuleCode.MINIMUM_NOT_MET)
    assert error.section is not None and error.section.path == "rules/house-rules/splash.md#splash"


def test_the_taken_top_card_is_not_laid_from_the_hand() -> None:
    from canasta.completion import has_splash

    assert has_splash(7, {int(Kind.KING): (7, 0, 0)}, -1)
    assert not has_splash(7, {int(Kind.KING): (7, 0, 0)}, int(Kind.KING))
    assert not has_splash(7, {int(Kind.KING): (5, 2, 0)}, -1)
    assert has_splash(7, {int(Kind.JOKER): (0, 4, 3)}, int(Kind.KING))
    assert not has_splash(7, {int(Kind.KING): (6, 0, 0)}, -1)


def test_the_pile_may_be_taken_for_an_opening_a_splash_completes() -> None:
    hand = ["8S", "8D", "KH", "KS", "KD", "KC", "KH", "KS", "KD", "9C"]
    take = TakePile(2, 0, 0)

    def position(rules: canasta.Rules) -> canasta.HandState:
        return canasta.build_position(
            rules, hands=[hand, ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]], pile=["5S", "8H"], opened=[False, False]
        )

    state = position(SPLASH)
    accepted(state, take)
    assert not state.opened[0] and state.pending_pile is not None
    accepted(state, Meld(Kind.KING, 7, 0, 0))
    assert state.opened[0] and state.counts[0][Kind.FIVE] == 1  # the rest of the pile came in
    refused(position(PLAIN), take, RuleCode.MINIMUM_NOT_MET)  # 8 8 and seven kings count 90, below 125


def test_the_brute_force_reference_agrees_on_club_positions() -> None:
    """The completion oracle and the legality reference list the same actions in the positions above."""
    positions = [
        _unopened(SPLASH, ["KH", "KS", "KD", "KC", "KH", "KS", "KD", "9C", "9D"]),
        _unopened(SPLASH, ["2C", "2D", "2H", "2S", "*", "*", "*", "9C", "9D"]),
        _unopened(SPLASH, ["KH", "KS", "KD", "KC", "KH", "2C", "2D", "9C", "9D"]),
        canasta.build_position(
            SPLASH,
            hands=[["8S", "8D", "KH", "KS", "KD", "KC", "KH", "KS", "KD", "9C"], *OTHERS],
            pile=["5S", "8H"],
            opened=[False, False],
        ),
    ]
    for rules in (DEAD, rules_of("modern-american", "held-aces-sevens-penalty")):
        for third in (["7H", "7S", "7D"], ["AH", "AS", "AD"], ["2H", "2S", "*"], ["AH", "AS", "2D"]):
            positions.append(
                canasta.build_position(
                    rules,
                    hands=[["JH", "JS", "JD", "9C"], *OTHERS],
                    melds=[[CANASTA_K, CANASTA_Q, third], []],
                    phase="meld",
                )
            )
    positions.append(
        canasta.build_position(
            DEAD,
            hands=[["KH", "KS", "2H", "9C"], *OTHERS],
            melds=[[CANASTA_Q, ["9H", "9S", "9D", "9H", "9S", "9D", "2C"]], [MIXED_K]],
            phase="meld",
        )
    )
    for state in positions:
        check_exact_legality(state)
        for action in state.legal_actions():
            after = state.copy()
            after.apply(action)
            if not after.is_over:
                check_exact_legality(after)


PURE = rules_of("modern-american", "aces-pure")
OPENING = ["AH", "AS", "AD", "2C", "KH", "KS", "KD", "QH", "QS", "QD", "9C", "9D"]


def test_aces_take_wild_cards_in_the_opening_turn() -> None:
    for rules in (PURE, PLAIN):
        state = _unopened(rules, OPENING)
        accepted(state, Meld(Kind.ACE, 3, 0, 0))
        accepted(state, Meld(Kind.ACE, 0, 1, 0))  # laying A A A, then adding a 2, in the opening turn
        accepted(state, Meld(Kind.KING, 3, 0, 0))
        accepted(state, Meld(Kind.QUEEN, 3, 0, 0))
        assert state.opened[0]
        check_exact_legality(state)


def _opened(rules: canasta.Rules, hand: list[str], aces: list[str] | None) -> canasta.HandState:
    melds = [["KH", "KS", "KD"]] + ([aces] if aces else [])
    return canasta.build_position(rules, hands=[hand, *OTHERS], melds=[melds, []], phase="meld")


def test_a_natural_aces_meld_takes_no_wild_card_in_a_later_turn() -> None:
    state = _opened(PURE, ["2C", "*", "9C", "9D"], ["AH", "AS", "AD"])
    error = refused(state, Meld(Kind.ACE, 0, 1, 0), RuleCode.NATURAL_LOCKED)
    assert error.section is not None and error.section.path == "rules/house-rules/aces-pure.md#aces-pure"
    refused(state, Meld(Kind.ACE, 0, 0, 1), RuleCode.NATURAL_LOCKED)
    check_exact_legality(state)
    assert _opened(PLAIN, ["2C", "*", "9C", "9D"], ["AH", "AS", "AD"]).is_legal(Meld(Kind.ACE, 0, 1, 0))
    # Nor does a new aces meld: it would be laid with a wild card after the opening turn.
    fresh = _opened(PURE, ["AH", "AS", "2C", "9C", "9D"], None)
    refused(fresh, Meld(Kind.ACE, 2, 1, 0), RuleCode.NATURAL_LOCKED)
    assert _opened(PLAIN, ["AH", "AS", "2C", "9C", "9D"], None).is_legal(Meld(Kind.ACE, 2, 1, 0))
    # Sevens are natural-only anyway, with or without the rule.
    assert PURE.melds.natural_only == PLAIN.melds.natural_only == {Kind.SEVEN}


def test_an_aces_meld_made_mixed_in_the_opening_stays_an_ordinary_meld() -> None:
    state = _opened(PURE, ["2C", "AC", "9C", "9D"], ["AH", "AS", "AD", "2D"])
    accepted(state, Meld(Kind.ACE, 1, 1, 0))  # a second wild card: at most 2, as any meld
    check_exact_legality(state)


def test_an_aces_meld_formed_by_taking_the_pile_stays_natural_that_turn() -> None:
    hand = ["AS", "AD", "2C", "KH", "KS", "KD", "QH", "QS", "QD", "JH", "JS", "JD", "9C", "9D"]

    def position(rules: canasta.Rules) -> canasta.HandState:
        return canasta.build_position(rules, hands=[hand, *OTHERS], pile=["5S", "AH"], opened=[False, False])

    for rules in (PURE, PLAIN):
        state = position(rules)
        check_exact_legality(state)
        accepted(state, TakePile(2, 0, 0))
        for rank in (Kind.KING, Kind.QUEEN, Kind.JACK):
            accepted(state, Meld(rank, 3, 0, 0))
        assert state.opened[0]
        check_exact_legality(state)
        if rules is PURE:
            refused(state, Meld(Kind.ACE, 0, 1, 0), RuleCode.NATURAL_LOCKED)
        else:
            accepted(state, Meld(Kind.ACE, 0, 1, 0))


def test_natural_aces_canasta_2500_and_incomplete_natural_aces_minus_2500() -> None:
    aces = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]

    def scored(rules: canasta.Rules, third: list[str]) -> canasta.SideScore:
        state = canasta.build_position(
            rules, hands=[["JH", "JS", "JD", "9C"], *OTHERS], melds=[[CANASTA_K, CANASTA_Q], [third]], phase="meld"
        )
        accepted(state, Meld(Kind.JACK, 3, 0, 0))
        accepted(state, Discard(Kind.NINE))
        return state.score().sides[1]

    assert scored(PURE, aces).canasta_bonuses == 2500
    assert scored(PLAIN, aces).canasta_bonuses == 500
    assert scored(PURE, ["AH", "AS", "AD", "AC", "AH", "2S", "2D"]).canasta_bonuses == 300
    assert scored(PURE, ["AH", "AS", "AD"]).penalties == -2500
    assert scored(PLAIN, ["AH", "AS", "AD"]).penalties == 0
    assert scored(PURE, ["AH", "AS", "2D"]).penalties == 0  # a mixed aces meld has no penalty


FIVE = rules_of("modern-american", "rule-of-five")


def test_rule_of_five_no_mixed_canasta_in_the_opening_turn() -> None:
    hand = ["AH", "AS", "AD", "KH", "KS", "KD", "KC", "KH", "2C", "2D", "9C", "9D"]
    state = _unopened(FIVE, hand)
    accepted(state, Meld(Kind.ACE, 3, 0, 0))
    error = refused(state, Meld(Kind.KING, 5, 2, 0), RuleCode.RULE_OF_FIVE)
    assert "opening turn" in error.reason
    assert error.section is not None and error.section.path == "rules/house-rules/rule-of-five.md#rule-of-five"
    accepted(state, Meld(Kind.KING, 5, 1, 0))  # six cards: wild cards are free in the opening turn
    check_exact_legality(state)
    plain = _unopened(PLAIN, hand)
    accepted(plain, Meld(Kind.ACE, 3, 0, 0))
    accepted(plain, Meld(Kind.KING, 5, 2, 0))


def test_rule_of_five_after_the_opening_turn() -> None:
    kings = [["KH", "KS", "KD"], ["8H", "8S", "8D"]]
    hand = ["2C", "KC", "KH", "9C", "9D"]
    state = canasta.build_position(FIVE, hands=[hand, *OTHERS], melds=[kings, []], phase="meld")
    error = refused(state, Meld(Kind.KING, 0, 1, 0), RuleCode.RULE_OF_FIVE)
    assert "5 naturals or more" in error.reason
    check_exact_legality(state)
    accepted(state, Meld(Kind.KING, 2, 1, 0))  # five naturals after the action: the wild card may join
    plain = canasta.build_position(PLAIN, hands=[hand, *OTHERS], melds=[kings, []], phase="meld")
    accepted(plain, Meld(Kind.KING, 0, 1, 0))
    # A meld made mixed in the opening turn keeps its wild card and grows with naturals, but takes no more wild cards.
    opening_made = [[["KH", "KS", "2D"], ["8H", "8S", "8D"]], []]
    mixed = canasta.build_position(FIVE, hands=[["2C", "KC", "9C", "9D"], *OTHERS], melds=opening_made, phase="meld")
    refused(mixed, Meld(Kind.KING, 0, 1, 0), RuleCode.RULE_OF_FIVE)
    accepted(mixed, Meld(Kind.KING, 1, 0, 0))
    # A new meld after the opening: 5 naturals and a wild card at once, not 3 and one.
    fresh = canasta.build_position(
        FIVE, hands=[["QH", "QS", "QD", "QC", "QH", "2C", "9C", "9D"], *OTHERS], melds=[kings, []], phase="meld"
    )
    assert fresh.is_legal(Meld(Kind.QUEEN, 5, 1, 0)) and not fresh.is_legal(Meld(Kind.QUEEN, 3, 1, 0))


def test_rule_of_five_no_wild_card_into_naturals_while_the_wild_meld_is_incomplete() -> None:
    melds = [[["QH", "QS", "QD", "QC", "QH"], ["2H", "2S", "*"]], []]
    state = canasta.build_position(FIVE, hands=[["2C", "9C", "9D", "8C"], *OTHERS], melds=melds, phase="meld")
    error = refused(state, Meld(Kind.QUEEN, 0, 1, 0), RuleCode.RULE_OF_FIVE)
    assert "wild meld" in error.reason
    accepted(state, Meld(Kind.JOKER, 0, 1, 0))
    plain = canasta.build_position(PLAIN, hands=[["2C", "9C", "9D", "8C"], *OTHERS], melds=melds, phase="meld")
    accepted(plain, Meld(Kind.QUEEN, 0, 1, 0))
    # Completing the wild meld first opens the natural melds to wild cards again.
    melds = [[["QH", "QS", "QD", "QC", "QH"], ["2H", "2S", "2D", "2C", "*"]], []]
    state = canasta.build_position(FIVE, hands=[["2C", "2D", "*", "9C", "9D"], *OTHERS], melds=melds, phase="meld")
    assert not state.is_legal(Meld(Kind.QUEEN, 0, 0, 1))
    accepted(state, Meld(Kind.JOKER, 0, 2, 0))
    accepted(state, Meld(Kind.QUEEN, 0, 0, 1))


def test_rule_of_five_going_out_orders_the_wild_meld_first() -> None:
    # After "yes": K canasta on the table, wild meld of 5, Q Q Q Q Q; the hand 2 2 * 9 goes out only by
    # completing the wild meld with the two 2s and then putting the joker on the queens.
    melds = [[CANASTA_K, ["2H", "2S", "2D", "2C", "*"], ["QH", "QS", "QD", "QC", "QH"]], []]
    state = canasta.build_position(FIVE, hands=[["2H", "2S", "*", "9C"], *OTHERS], melds=melds, phase="meld")
    accepted(state, canasta.AskGoOut())
    accepted(state, canasta.AnswerGoOut(True))
    assert state.bound
    check_exact_legality(state)
    legal = state.legal_actions()
    assert Meld(Kind.JOKER, 0, 2, 0) in legal and Meld(Kind.QUEEN, 0, 0, 1) not in legal
    accepted(state, Meld(Kind.JOKER, 0, 2, 0))
    check_exact_legality(state)
    accepted(state, Meld(Kind.QUEEN, 0, 0, 1))
    accepted(state, Discard(Kind.NINE))
    assert state.end is HandEnd.WENT_OUT


def test_rule_of_five_positions_agree_with_the_reference() -> None:
    positions = [
        canasta.build_position(FIVE, hands=[["2C", "2D", "*", "QC", "9D"], *OTHERS], melds=melds, phase="meld")
        for melds in (
            [[["QH", "QS", "QD"], ["2H", "2S", "*"]], []],
            [[["QH", "QS", "QD", "QH", "QS"], ["2H", "2S", "2C", "*", "*"]], []],
            [[CANASTA_K, ["QH", "QS", "2S"], ["2H", "*", "*"]], []],
        )
    ]
    positions.append(_unopened(FIVE, ["AH", "AS", "AD", "KH", "KS", "KD", "KC", "KH", "2C", "2D", "9C", "9D"]))
    positions.append(_unopened(FIVE, ["2C", "2D", "2H", "*", "*", "AH", "AS", "AD", "KH", "KS", "9C"]))
    for state in positions:
        check_exact_legality(state)
        for action in state.legal_actions():
            after = state.copy()
            after.apply(action)
            if not after.is_over:
                check_exact_legality(after)
