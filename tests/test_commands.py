"""The terminal's typed commands (canasta.commands): the grammar, matching legal actions, refusals."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

import canasta
from canasta.actions import Action, AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand, Meld, TakePile
from canasta.cards import Card, Kind, Suit
from canasta.commands import Command, CommandError, notation, parse_command
from canasta.errors import IllegalActionError, RuleCode
from canasta.game import Game
from canasta.terminal import shown_notation

Q, K, NINE, TEN = Kind.QUEEN, Kind.KING, Kind.NINE, Kind.TEN
QUEEN_OF_HEARTS = Card(12, Suit.HEARTS)


class FakeState:
    """A state whose legal actions are given; anything else is refused the way the engine refuses."""

    seat = 0

    def __init__(self, legal: list[Action], top: Card | None = QUEEN_OF_HEARTS) -> None:
        self.legal = legal
        self.top = top

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    def check(self, action: Action) -> None:
        if action not in self.legal:
            raise IllegalActionError(RuleCode.ILLEGAL, f"{action} is refused by the fake")

    def observation(self, seat: int) -> Any:
        return SimpleNamespace(pile=(self.top,) if self.top else ())


EVERYTHING: list[Action] = [
    DrawStock(),
    TakePile(2, 0, 0),
    TakePile(1, 1, 0),
    TakePile(1, 0, 1),
    TakePile(0, 0, 0),
    TakePile(2, 0, 0, second=True),
    Meld(Q, 2, 0, 1),
    Meld(Q, 1),
    Meld(Q, 0, 1, 0),
    Meld(Q, 2, 0, 1, second=True),
    Meld(Kind.JOKER, 0, 3, 0),
    Meld(Kind.JOKER, 0, 1, 2),
    Meld(Kind.BLACK_THREE, 3),
    Meld(TEN, 3),
    Discard(NINE),
    Discard(Kind.JOKER),
    Discard(Kind.BLACK_THREE),
    Discard(TEN),
    AskGoOut(),
    AnswerGoOut(True),
    AnswerGoOut(False),
    EndHand(),
]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("d", DrawStock()),
        ("draw", DrawStock()),
        ("t", TakePile(2, 0, 0)),
        ("take", TakePile(2, 0, 0)),
        ("t nn", TakePile(2, 0, 0)),
        ("t qq", TakePile(2, 0, 0)),
        ("t n2", TakePile(1, 1, 0)),
        ("t q2", TakePile(1, 1, 0)),
        ("T N*", TakePile(1, 0, 1)),
        ("t +", TakePile(0, 0, 0)),
        ("t+", TakePile(0, 0, 0)),
        ("t'", TakePile(2, 0, 0, second=True)),
        ("t 2nd", TakePile(2, 0, 0, second=True)),
        ("m qq*", Meld(Q, 2, 0, 1)),
        ("M Q Q *", Meld(Q, 2, 0, 1)),
        ("mqq*", Meld(Q, 2, 0, 1)),
        ("meld *qq", Meld(Q, 2, 0, 1)),
        ("m q", Meld(Q, 1)),
        ("m +q", Meld(Q, 1)),
        ("m q:2", Meld(Q, 0, 1, 0)),
        ("m qq*'", Meld(Q, 2, 0, 1, second=True)),
        ("m qq* 2nd", Meld(Q, 2, 0, 1, second=True)),
        ("m 222", Meld(Kind.JOKER, 0, 3, 0)),
        ("m *2*", Meld(Kind.JOKER, 0, 1, 2)),
        ("m b3b3b3", Meld(Kind.BLACK_THREE, 3)),
        ("m 101010", Meld(TEN, 3)),
        ("m ttt", Meld(TEN, 3)),
        ("x 9", Discard(NINE)),
        ("x9", Discard(NINE)),
        ("discard *", Discard(Kind.JOKER)),
        ("x b3", Discard(Kind.BLACK_THREE)),
        ("x 10", Discard(TEN)),
        ("ask", AskGoOut()),
        ("y", AnswerGoOut(True)),
        ("yes", AnswerGoOut(True)),
        ("n", AnswerGoOut(False)),
        ("no", AnswerGoOut(False)),
        ("end", EndHand()),
        ("  End  ", EndHand()),
    ],
)
def test_commands_name_legal_actions(text: str, action: Action) -> None:
    assert parse_command(text, FakeState(EVERYTHING)) == action


@pytest.mark.parametrize("action", EVERYTHING, ids=str)
def test_the_menu_notation_reads_back(action: Action) -> None:
    assert parse_command(notation(action), FakeState(EVERYTHING)) == action


@pytest.mark.parametrize(
    ("text", "command"),
    [("?", Command("help")), ("help", Command("help")), ("q", Command("quit")), ("quit", Command("quit"))],
)
def test_help_quit_and_numbers(text: str, command: Command) -> None:
    assert parse_command(text, FakeState([])) == command
    assert parse_command(" 12 ", FakeState([])) == Command("pick", 12)


def test_bare_take_is_the_only_legal_take() -> None:
    assert parse_command("t", FakeState([DrawStock(), TakePile(1, 0, 1)])) == TakePile(1, 0, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "nothing typed"),
        ("zz", "unknown command 'zz'"),
        ("x", "say which card to discard"),
        ("x 99", "discard one card"),
        ("x z", "'z' is not a card"),
        ("m", "say which cards to meld"),
        ("m qqk", "a meld holds one rank (plus wild cards), got K and Q"),
        ("m r3r3r3", "red threes are laid out"),
        ("m 2:*", "name the meld's rank"),
        ("m q:", "say which cards to add"),
        ("m q'q", "a ' goes at the end"),
        ("t kk", "the pile's top card is Q"),
        ("d now", "'draw' takes nothing after it"),
    ],
)
def test_malformed_commands_say_what_is_wrong_and_how_to_get_help(text: str, message: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_command(text, FakeState(EVERYTHING))
    assert message in str(info.value)
    if text not in ("m r3r3r3",):
        assert "type ? for the commands" in str(info.value)


def test_a_well_formed_illegal_command_gives_the_engines_reason() -> None:
    game = Game("classic", seed=2)
    assert game.seat == 0 and DrawStock() in game.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        parse_command("x 9", game)
    assert info.value.code is RuleCode.WRONG_PHASE and "draw" in info.value.message
    with pytest.raises(IllegalActionError):
        parse_command("m kkk", game)


@pytest.mark.parametrize(
    ("variant", "house_rules"),
    [(v.name, ()) for v in canasta.available_variants()] + [("three-player", ("cutthroat",))],
)
def test_every_legal_action_of_random_games_reads_back(variant: str, house_rules: tuple[str, ...]) -> None:
    """The menu shows each legal action in the grammar; typing what it shows picks exactly that action."""
    game = Game(variant, list(house_rules), seed=11)
    rng = random.Random(11)
    for _ in range(300):
        if game.is_over:
            break
        legal = game.legal_actions()
        for action in legal:
            assert parse_command(notation(action), game) == action, notation(action)
            shown = shown_notation(action)  # what the terminal's menu shows (10 for T, b3 b3 spaced)
            assert parse_command(shown, game) == action, shown
        game.apply(rng.choice(legal))
