"""The sequence games' command grammar (canasta.commands.SEQUENCE_GRAMMAR): notation, parsing, refusals, fit."""

from __future__ import annotations

import pytest
from hypothesis import given
from suited_strategies import every_action_but_groups, groups_of, sequence_game_actions

from canasta.actions import AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand
from canasta.cards import Kind, Suit
from canasta.commands import (
    GRAMMAR,
    SEQUENCE_GRAMMAR,
    SEQUENCE_LEGEND,
    Command,
    CommandError,
    notation,
    parse_sequence_command,
)
from canasta.suitedactions import SequenceGameAction
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

C, D, H, S = Suit
K = Kind.KING


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Discard(K, suit=H), "x kh"),
        (Discard(Kind.TEN, suit=S), "x 10s"),
        (Discard(Kind.JOKER), "x *"),
        (Discard(Kind.BLACK_THREE), "x b3"),
        (LaySequence(H, 5, 9), "seq h 5 9"),
        (LaySequence(S, 10, 14), "seq s 10 a"),
        (Extend(3, 4, 10), "ext #3 4 10"),
        (LayGroup(13, (0, 0, 1, 2), 1, 0), "grp k hss2"),
        (LayGroup(13, (0, 1, 0, 0), 0, 1, 2), "grp k d* #2"),
        (LayGroup(10, (3, 3, 3, 3), 2, 0, 63), "grp 10 cccdddhhhsss22 #63"),
        (LayGroup(12, (0, 0, 0, 0), 1, 0, 0), "grp q 2 #0"),
        (LayWild(2, 1), "wild 22*"),
        (LayWild(1, 0, 4), "wild 2 #4"),
        (Combine(1, 5), "comb #1 #5"),
        (LayBlackThrees(3), "b3 3"),
        (PileTake(TakeMode.PAIR, None, (C, H)), "t ch"),
        (PileTake(TakeMode.PAIR, 2, (S, S)), "t ss #2"),
        (PileTake(TakeMode.TOP_ONTO_GROUP, 2), "t grp #2"),
        (PileTake(TakeMode.TOP_ONTO_SEQUENCE, 2), "t seq #2"),
        (DrawStock(), "d"),
        (AskGoOut(), "ask"),
        (AnswerGoOut(True), "y"),
        (EndHand(), "end"),
    ],
)
def test_notation_writes_and_the_parser_reads_back(action: SequenceGameAction, text: str) -> None:
    assert notation(action) == text
    assert parse_sequence_command(text) == action


def test_todays_notation_is_unchanged() -> None:
    assert notation(Discard(K)) == "x k" and notation(Discard(Kind.TEN)) == "x t"


@given(sequence_game_actions())
def test_every_action_is_read_back_from_its_notation(action: SequenceGameAction) -> None:
    text = notation(action)
    assert parse_sequence_command(text) == action
    assert parse_sequence_command(text.upper()) == action  # letters in any case
    assert parse_sequence_command(f"  {text} ") == action


def test_every_action_but_the_groups_and_every_group_of_a_rank_are_read_back() -> None:
    for action in [*every_action_but_groups(), *groups_of(10, (None, 0, 63))]:
        text = notation(action)
        back = parse_sequence_command(text)
        assert back == action and type(back) is type(action), text


def test_notation_fits_the_command_line() -> None:
    longest = max(map(len, map(notation, [*every_action_but_groups(), *groups_of(10, (None, 63))])))
    assert longest <= 26  # "grp 10 cccdddhhhsss22 #63": the command line is 80 columns


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("x KH", Discard(K, suit=H)),
        ("xkh", Discard(K, suit=H)),
        ("x k h", Discard(K, suit=H)),
        ("x th", Discard(Kind.TEN, suit=H)),
        ("x 2", Discard(Kind.TWO)),
        ("discard 4c", Discard(Kind.FOUR, suit=C)),
        ("seq h 5-9", LaySequence(H, 5, 9)),
        ("seq 5 9 h", LaySequence(H, 5, 9)),
        ("sequence s t a", LaySequence(S, 10, 14)),
        ("ext 3 4 10", Extend(3, 4, 10)),
        ("extend #3 4-t", Extend(3, 4, 10)),
        ("grp k h s s 2", LayGroup(13, (0, 0, 1, 2), 1, 0)),
        ("grp khss2", LayGroup(13, (0, 0, 1, 2), 1, 0)),
        ("grp k ssh2", LayGroup(13, (0, 0, 1, 2), 1, 0)),
        ("group 10cd #4", LayGroup(10, (1, 1, 0, 0), 0, 0, 4)),
        ("grp t cd#4", LayGroup(10, (1, 1, 0, 0), 0, 0, 4)),
        ("wild *22", LayWild(2, 1)),
        ("wild 2#4", LayWild(1, 0, 4)),
        ("comb 1 5", Combine(1, 5)),
        ("combine #5 #1", Combine(1, 5)),  # the older first, whatever the order typed
        ("b3 b3b3b3", LayBlackThrees(3)),
        ("tch", PileTake(TakeMode.PAIR, None, (C, H))),
        ("t hc", PileTake(TakeMode.PAIR, None, (C, H))),
        ("take c h #2", PileTake(TakeMode.PAIR, 2, (C, H))),
        ("draw", DrawStock()),
        ("no", AnswerGoOut(False)),
    ],
)
def test_other_spellings(text: str, action: SequenceGameAction) -> None:
    assert parse_sequence_command(text) == action


@pytest.mark.parametrize(
    ("text", "command"),
    [("?", Command("help")), ("help", Command("help")), ("q", Command("quit")), ("12", Command("pick", 12))],
)
def test_commands_that_are_not_actions(text: str, command: Command) -> None:
    assert parse_sequence_command(text) == command
    assert parse_sequence_command(text, [DrawStock()]) == command


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "nothing typed"),
        ("zz 3", "unknown command 'zz'"),
        ("m qqq", "unknown command 'm'"),  # today's meld is no command of these games
        ("d now", "takes nothing after it"),
        ("x", "say which card to discard"),
        ("x k", "say the suit, e.g. x kh"),
        ("x khs", "discard one card"),
        ("x kz", "'z' is not a suit"),
        ("x r3", "never discarded"),
        ("x 3h", "is not a rank 4 to ace"),
        ("seq h 9 5", "the low end goes first"),
        ("seq h 5", "say the two ends"),
        ("seq 5 9", "say the suit and the ends"),
        ("seq h 5 z", "'z' is not a rank"),
        ("ext 4 10", "say the two ends"),
        ("ext", "say the sequence and its new ends"),
        ("ext x 4 10", "a meld is # and its number"),
        ("ext #123456 4 10", "no meld has a number of 6 digits"),
        ("grp", "say the rank"),
        ("grp k", "say the cards by suit"),
        ("grp 2 hh", "'2' is not a rank 4 to ace"),
        ("grp k hx", "'x' is not a card of a group"),
        ("grp k hs 3", "'3' is not a card of a group"),
        ("grp k hs #1 #2", "name one meld"),
        ("grp k hs #x", "a meld is # and its number"),
        ("wild", "say the wild cards"),
        ("wild 2k", "'k' is not a wild card"),
        ("comb 1", "name two melds"),
        ("comb 2 #2", "name two different melds"),
        ("b3", "say how many black threes"),
        ("b3 x", "say how many black threes"),
        ("t", "say how to take the pile"),
        ("t #2", "say how to take it onto #2"),
        ("t + #2", "say t grp #2 or t seq #2"),
        ("t grp", "say which meld the top card joins"),
        ("t c", "take the pile with a pair"),
        ("t cx", "'x' is not a suit"),
    ],
)
def test_bad_commands_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_sequence_command(text)


LEGAL: list[SequenceGameAction] = [
    Discard(K, suit=H),
    Discard(Kind.QUEEN, suit=C),
    Discard(Kind.QUEEN, suit=S),
    PileTake(TakeMode.TOP_ONTO_SEQUENCE, 2),
    LaySequence(H, 5, 9),
]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("x kh", Discard(K, suit=H)),
        ("x k", Discard(K, suit=H)),  # the only king that may go
        ("t", PileTake(TakeMode.TOP_ONTO_SEQUENCE, 2)),  # the only take
        ("t + #2", PileTake(TakeMode.TOP_ONTO_SEQUENCE, 2)),
        ("seq h 5 9", LaySequence(H, 5, 9)),
    ],
)
def test_the_legal_actions_settle_a_choice(text: str, action: SequenceGameAction) -> None:
    found = parse_sequence_command(text, LEGAL)
    assert found == action
    assert found is LEGAL[LEGAL.index(action)]  # the engine's own object


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x q", r"say the suit, e.g. x qh \(x qc, x qs\)"),
        ("x j", "no legal action fits 'x j' now"),
        ("t + #3", "no legal action fits"),
        ("x ks", "x ks is not among the legal actions now"),
        ("seq h 5 8", "seq h 5 8 is not among the legal actions now"),
    ],
)
def test_the_legal_actions_refuse(text: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_sequence_command(text, LEGAL)


def test_the_help_fits_the_screen() -> None:
    # The help screen is a two-column table (one space either side of a column) for the grammar
    # and one for the legend, each with a title line, in 22 lines of an 80-column screen.
    for rows in (SEQUENCE_GRAMMAR, SEQUENCE_LEGEND):
        width = max(len(c) for c, _ in rows) + max(len(m) for _, m in rows) + 4
        assert width <= 80, rows
    assert (len(SEQUENCE_GRAMMAR) - 1 + 1) + (len(SEQUENCE_LEGEND) + 1) <= 22
    assert SEQUENCE_GRAMMAR[0] == GRAMMAR[0]  # the menu number, as in every game


def test_every_grammar_example_is_read() -> None:
    for command, _ in SEQUENCE_GRAMMAR[1:-1]:
        for example in command.split("  "):
            parse_sequence_command(example)
