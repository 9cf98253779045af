"""Declaring a special hand (the club form's special hands): legality, refusals, scoring, the game win."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from canasta_house_rules.special_hands import CLA_HANDS, PAGAT_HANDS

import canasta
from canasta import DeclareSpecialHand, Discard, DrawStock, Game, HandState, IllegalActionError, Kind, Meld, RuleCode
from canasta.records import GameRecorder, action_from_json, action_to_json, loads_record, replay
from canasta.testing.invariants import check_game, check_score
from canasta.testing.reference import check_exact_legality, reference_declarations

CLUB = ["american-special-hands"]
CLUB_DRAW_ONE = ["american-special-hands", "american-talon"]

#: Card text of each hand's valid example and near miss (one card changed): suits added below.
CASES = {
    "pairs": ("AA KK QQ JJ TT 99 88", "AA KK QQ JJ TT 99 8*"),
    "wild_pairs": ("AA 77 22 KK QQ JJ TT", "AA 77 2* KK QQ JJ TT"),
    "miami_pairs": ("AA 77 22 ** KK QQ JJ", "AA 77 22 ** KK QQ J9"),
    "zip_code": ("KK QQ JJJ TTT 2222", "KK QQ JJJ TTT 222*"),
    "garbage": ("KKKK QQQQ JJJ TTT", "KKKK QQQQ JJJ TT2"),
    "blast_off": ("KKKKK QQQQ JJJ TT", "KKKKK QQQQ JJJ T9"),
    "triples": ("KKK QQQ JJJ TTT 22", "KKK QQQ JJJ TTT 2*"),
    "quads": ("KKKK QQQQ JJJJ **", "KKKK QQQQ JJJJ 2*"),
    "dream_plus_4": ("KKKKK QQQQQ 2222", "KKKKK QQQQQ 222*"),
    "dream_plus_5": ("AAAAA KKKK 222**", "AAAAA KKKK 222*9"),
    "pairs_twos": ("AA 77 22 KK QQ JJ TT", "AA 77 22 KK QQ JJ T9"),
}
_SUITS = "CDHS"


def cards(text: str) -> list[str]:
    """Card names for a hand written by kind (``*`` a joker), suits dealt in turn so no card repeats twice."""
    used: dict[str, int] = {}
    result = []
    for symbol in text.replace(" ", ""):
        n = used.get(symbol, 0)
        used[symbol] = n + 1
        result.append("*" if symbol == "*" else symbol + _SUITS[n % 4])
    return result


# The other seats hold small hands of low cards that form nothing, one suit each (the deck has two of each card).
OTHERS = [[rank + suit for rank in "45689"] for suit in "DHS"]


def position(
    hand: Sequence[str],
    house_rules: Sequence[str] = CLUB,
    *,
    phase: str = "meld",
    opened: Sequence[bool] = (False, False),
    melds: Sequence[Sequence[Sequence[str]]] | None = None,
    scores: Sequence[int] | None = None,
) -> HandState:
    rules = canasta.load_rules("modern-american", list(house_rules))
    kwargs: dict[str, object] = {}
    if melds is not None:
        kwargs["melds"] = melds
    if scores is not None:
        kwargs["scores"] = list(scores)
    return canasta.build_position(
        rules,
        hands=[list(hand), *OTHERS],
        pile=["5H"],
        phase=phase,
        opened=list(opened),
        **kwargs,  # type: ignore[arg-type]
    )


def declarations(state: HandState) -> list[DeclareSpecialHand]:
    return [a for a in state.legal_actions() if isinstance(a, DeclareSpecialHand)]


def refused(state: HandState, action: object) -> IllegalActionError:
    before = (state.phase, [c[:] for c in state.counts], state.pile[:], state.declared)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    assert (state.phase, state.counts, state.pile, state.declared) == before  # nothing changed
    return caught.value


def _table(hand_id: str) -> tuple[tuple[canasta.SpecialHand, ...], list[str]]:
    return (
        (PAGAT_HANDS, ["american-special-hands-pagat", "american-talon"])
        if hand_id == "pairs_twos"
        else (
            CLA_HANDS,
            CLUB_DRAW_ONE,
        )
    )


@pytest.mark.parametrize("hand_id", list(CASES))
def test_each_hand_is_declared_with_its_14_cards_and_its_near_miss_is_refused(hand_id: str) -> None:
    valid, miss = CASES[hand_id]
    _, house_rules = _table(hand_id)
    state = position(cards(valid), house_rules)
    assert declarations(state) == [DeclareSpecialHand(hand_id)]
    check_exact_legality(state)
    near = position(cards(miss), house_rules)
    assert declarations(near) == []
    error = refused(near, DeclareSpecialHand(hand_id))
    assert error.code is RuleCode.SPECIAL_HAND and "form no special hand" in str(error)
    assert error.section is not None and error.section.page.startswith("rules/house-rules/american-special-hands")
    state.apply(DeclareSpecialHand(hand_id))
    assert state.is_over and state.end is canasta.HandEnd.SPECIAL_HAND and state.declared == (0, hand_id)


@pytest.mark.parametrize("hand_id", [h for h in CASES if h != "pairs_twos"])
def test_after_a_two_card_draw_the_15th_card_is_discarded(hand_id: str) -> None:
    valid, _ = CASES[hand_id]
    state = position([*cards(valid), "4S"])  # the 14 cards of the hand and a loose 4
    assert DeclareSpecialHand(hand_id, Kind.FOUR) in declarations(state)
    check_exact_legality(state)
    assert refused(state, DeclareSpecialHand(hand_id)).code is RuleCode.SPECIAL_HAND  # 15 cards need a discard
    pile = len(state.pile)
    state.apply(DeclareSpecialHand(hand_id, Kind.FOUR))
    assert state.is_over and len(state.pile) == pile + 1 and state.sizes[0] == 14


def test_the_discard_is_never_a_three_and_must_be_held() -> None:
    state = position([*cards("AA KK QQ JJ TT 99 88"), "4S"])
    assert refused(state, DeclareSpecialHand("pairs", Kind.BLACK_THREE)).code is RuleCode.SPECIAL_HAND
    assert "no 5 to discard" in str(refused(state, DeclareSpecialHand("pairs", Kind.FIVE)))
    one_draw = position(cards("AA KK QQ JJ TT 99 88"), CLUB_DRAW_ONE)
    assert "no discard" in str(refused(one_draw, DeclareSpecialHand("pairs", Kind.ACE)))


def test_a_hand_matching_two_entries_is_declared_as_the_higher() -> None:
    state = position(cards("44444 KKKK 222 **"), CLUB_DRAW_ONE)
    assert declarations(state) == [DeclareSpecialHand("dream_plus_5")]
    error = refused(state, DeclareSpecialHand("blast_off"))
    assert error.code is RuleCode.SPECIAL_HAND and "Dream Hand +5" in str(error)


def test_unknown_hands_and_rules_without_special_hands_are_refused() -> None:
    state = position(cards("AA KK QQ JJ TT 99 88"), CLUB_DRAW_ONE)
    assert "no special hand of these rules" in str(refused(state, DeclareSpecialHand("straight_flush")))
    plain = canasta.build_position(
        canasta.load_rules("modern-american", ["american-talon"]),
        hands=[cards("AA KK QQ JJ TT 99 88"), *OTHERS],
        pile=["5H"],
        phase="meld",
        opened=[False, False],
    )
    assert declarations(plain) == []
    assert "no special hands" in str(refused(plain, DeclareSpecialHand("pairs")))
    with pytest.raises(TypeError):
        DeclareSpecialHand("")
    with pytest.raises(TypeError):
        DeclareSpecialHand("pairs", "4")  # type: ignore[arg-type]


def test_only_a_side_that_has_not_melded_after_a_stock_draw_declares() -> None:
    hand = cards("AA KK QQ JJ TT 99 88")
    before_draw = position(hand[:-1], CLUB_DRAW_ONE, phase="draw")
    assert refused(before_draw, DeclareSpecialHand("pairs")).code is RuleCode.SPECIAL_HAND
    partner_melded = position(hand, CLUB_DRAW_ONE, opened=(True, False), melds=[[cards("666")], []])
    error = refused(partner_melded, DeclareSpecialHand("pairs"))
    assert "made no meld" in str(error)
    # Melding this turn (an opening in progress) ends the chance.
    state = position(cards("KKK QQ JJJ TTT 2222"), scores=(-100, 0))
    assert DeclareSpecialHand("zip_code", Kind.KING) in declarations(state)
    state.apply(Meld(Kind.KING, 3, 0, 0))
    assert declarations(state) == [] and "made no meld" in str(refused(state, DeclareSpecialHand("zip_code")))
    check_exact_legality(state)


def test_after_asking_and_a_no_the_player_may_still_declare() -> None:
    state = position(cards("AAA KK QQ JJ TT 99 88"))
    state.apply(canasta.AskGoOut())
    state.apply(canasta.AnswerGoOut(False))
    assert declarations(state) == [DeclareSpecialHand("pairs", Kind.ACE)]
    check_exact_legality(state)


def test_a_bound_player_must_go_out_instead() -> None:
    state = position(cards("AA KK QQ JJ TT 99 88"), CLUB_DRAW_ONE)
    state.bound = True  # a partner's binding "yes" (the engine sets it after AnswerGoOut(True))
    state._legal = None
    assert declarations(state) == [] and reference_declarations(state) == []
    assert "must go out" in str(refused(state, DeclareSpecialHand("pairs")))


def test_the_declaring_side_scores_the_value_and_the_opponents_score_normally() -> None:
    rules = canasta.load_rules("modern-american", [*CLUB_DRAW_ONE, "held-aces-sevens-penalty"])
    partner = cards("AAA 5")  # three aces held by the declarer's partner: no penalty, the score is replaced
    opponents = [cards("KKK")]
    state = canasta.build_position(
        rules,
        hands=[cards("KK QQ JJ TT 99 88 66"), cards("4 5 6"), partner, cards("7 7 7")],
        melds=[[], opponents],
        pile=["5H"],
        phase="meld",
        opened=[False, True],
        threes=[[], ["3H"], [], []],
    )
    state.apply(DeclareSpecialHand("pairs"))
    score = check_score(state)
    assert score is not None and score.special_hand == "pairs" and score.declarer == 0 and score.game_won_by is None
    ours, theirs = score.sides
    assert ours.total == ours.special_hand == 2500
    assert (ours.melded_cards, ours.cards_in_hand, ours.penalties, ours.red_threes) == (0, 0, 0, 0)
    values = rules.card_values
    held = -(values[Kind.FOUR] + values[Kind.FIVE] + values[Kind.SIX]) - 3 * values[Kind.SEVEN]
    assert theirs.melded_cards == 3 * values[Kind.KING] and theirs.cards_in_hand == held
    assert theirs.penalties == -1500  # three sevens held by seat 3
    assert theirs.going_out == 0 and score.went_out is None
    assert theirs.red_threes == -rules.threes.score(1)  # as always: a red three counts against a side with no canasta


def test_a_dream_hand_wins_the_game_whatever_the_totals() -> None:
    hand = position(cards("KKKKK QQQQQ 2222"), CLUB_DRAW_ONE, scores=(0, 9000))
    game = Game.from_hand(hand, scores=[0, 9000])
    game.apply(DeclareSpecialHand("dream_plus_4"))
    assert game.is_over and game.scores[0] == 8500 and game.scores[1] > 8500
    assert game.winner() == 0 and game.results[-1].game_won_by == 0
    check_game(game, initial_scores=[0, 9000])
    game.undo()
    assert not game.is_over and game.winner() is None


def test_an_ordinary_special_hand_does_not_end_the_game() -> None:
    game = Game.from_hand(position(cards("AA KK QQ JJ TT 99 88"), CLUB_DRAW_ONE), seed=0)
    game.apply(DeclareSpecialHand("pairs"))
    assert not game.is_over and game.scores[0] == 2500 and game.hand_number == 1
    check_game(game)


# A seed whose first player can declare after the first draw (two-card draw): zip code, discarding a 2.
SEED = 1103


def test_a_declaration_is_recorded_and_replayed() -> None:
    game = Game("modern-american", CLUB, seed=SEED)
    recorder = GameRecorder(game)
    recorder.apply(DrawStock())
    declaration = next(a for a in game.legal_actions() if isinstance(a, DeclareSpecialHand))
    assert declaration == DeclareSpecialHand("pairs", Kind.KING)
    recorder.apply(declaration)
    record = recorder.record()
    text = record.dumps()
    assert '{"type": "declare", "hand": "pairs", "discard": "K"}' in text
    again = loads_record(text)
    assert again == record
    steps = list(replay(again))
    assert steps[-1].game.results[-1].special_hand == "pairs"
    assert action_from_json(action_to_json(DeclareSpecialHand("pairs"))) == DeclareSpecialHand("pairs")
    with pytest.raises(canasta.RecordError):
        action_from_json({"type": "declare", "hand": "pairs", "discard": "x"})


@pytest.mark.parametrize("version", [1, 2])
def test_a_record_older_than_version_3_holding_a_declaration_is_refused(version: int) -> None:
    game = Game("modern-american", CLUB, seed=SEED)
    recorder = GameRecorder(game)
    recorder.apply(DrawStock())
    recorder.apply(DeclareSpecialHand("pairs", Kind.KING))
    text = recorder.record().dumps().replace('"format_version": 6', f'"format_version": {version}')
    text = text.replace('"first_dealer": 3, ', "")  # version 5 added the first dealer
    with pytest.raises(canasta.RecordError) as refused:
        loads_record(text)
    assert refused.value.where == "actions[1]"
    assert "version 3" in str(refused.value)


def test_the_greedy_bot_declares_a_special_hand_it_holds() -> None:
    game = Game("modern-american", CLUB, seed=SEED)
    bot = canasta.make_bot("greedy", 0)
    game.apply(bot.choose(game.hand, game.seat))
    assert game.hand.phase is canasta.Phase.MELD
    assert bot.choose(game.hand, game.seat) == DeclareSpecialHand("pairs", Kind.KING)
    state = position(cards("44444 KKKK 222 **"), CLUB_DRAW_ONE)
    assert bot.choose(state, 0) == DeclareSpecialHand("dream_plus_5")


def test_the_explanation_and_the_score_table_name_the_hand() -> None:
    from canasta.terminal import render_hand_score

    state = position(cards("KKKKK QQQQQ 2222"), CLUB_DRAW_ONE)
    state.apply(DeclareSpecialHand("dream_plus_4"))
    score = state.score()
    table = render_hand_score(score, state.rules, list(score.totals))
    assert "seat 0 declared Dream Hand +4, which wins the game" in str(table.title)
    assert str(DeclareSpecialHand("pairs", Kind.NINE)) == "declare the special hand pairs, discarding 9"
    assert Discard(Kind.NINE) not in state.legal_actions()


def test_the_terminal_grammar_names_and_reads_a_declaration() -> None:
    from canasta.commands import CommandError, notation, parse_command

    state = position([*cards("AA KK QQ JJ TT 99 88"), "4S"])
    declaration = DeclareSpecialHand("pairs", Kind.FOUR)
    assert notation(declaration) == "sh pairs 4"
    assert parse_command("sh pairs 4", state) == declaration
    assert parse_command("declare pairs 4", state) == declaration
    with pytest.raises(IllegalActionError):
        parse_command("sh pairs", state)
    with pytest.raises(CommandError):
        parse_command("sh", state)


def test_the_rl_space_adds_the_declarations_under_a_new_version() -> None:
    from canasta.rl import ACTION_SPACE_VERSION, KEPT_THREE_ACTION_SPACE_VERSION, ActionSpace

    plain = ActionSpace(canasta.load_rules("modern-american"))
    club = ActionSpace(canasta.load_rules("modern-american", CLUB))
    # Version 4: version 3's declarations, then laying out a kept three (the club rules keep one).
    assert (plain.version, club.version) == (ACTION_SPACE_VERSION, KEPT_THREE_ACTION_SPACE_VERSION) == (2, 4)
    assert club.actions[: plain.size] == plain.actions  # version 2's ids unchanged
    assert club.size == plain.size + len(CLA_HANDS) * 14 + 1
    assert club.actions[plain.size] == DeclareSpecialHand("pairs")
    assert club.actions[plain.size + 1] == DeclareSpecialHand("pairs", Kind.JOKER)
    state = position([*cards("AA KK QQ JJ TT 99 88"), "4S"])
    declaration = club.to_id(DeclareSpecialHand("pairs", Kind.FOUR))
    mask = club.legal_mask(state)
    assert mask[declaration] and mask.sum() == len(state.legal_actions())
    assert club.legal_action(state, declaration) == DeclareSpecialHand("pairs", Kind.FOUR)
