"""The terminal under packets and wild-pair takes (issue 33): typing ``t 22`` / ``t **``, the packets on screen."""

from __future__ import annotations

import random

import packet_variants
import pytest
from test_terminal_fit import meld_favouring_turns, screen_lines

import canasta
from canasta.actions import DrawStock, TakePile
from canasta.commands import GRAMMAR, LEGEND, CommandError, notation, parse_command
from canasta.errors import IllegalActionError
from canasta.game import Game
from canasta.hand import HandState
from canasta.terminal import measure_lines, render_help, render_observation

WIDTH, HEIGHT = 80, 24
PILE = packet_variants.rules("feet-pile-of-seven")


def _pile_position(pile: list[str], hand: list[str]) -> HandState:
    return canasta.build_position(
        PILE,
        hands=[hand, ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        pile=pile,
        melds=[[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]],
    )


def test_a_wild_pair_take_is_typed_with_two_of_the_top_cards_kind() -> None:
    twos = _pile_position(["9C", "2C"], ["2D", "2H", "*", "4D", "4H"])
    assert notation(TakePile(0, 2, 0)) == "t 22" and notation(TakePile(0, 0, 2)) == "t **"
    for text in ("t 22", "take 22", "T22", "t 2 2"):
        assert parse_command(text, twos) == TakePile(0, 2, 0)
    assert parse_command("t", twos) == TakePile(0, 2, 0)  # the only way to take it
    jokers = _pile_position(["9C", "*"], ["*", "*", "4D", "4H"])
    assert parse_command("t **", jokers) == TakePile(0, 0, 2)
    assert parse_command("take **", jokers) == TakePile(0, 0, 2)


@pytest.mark.parametrize(("typed", "hint"), [("t **", "t 22"), ("t n2", "t 22"), ("t 2", "t 22"), ("t +", "")])
def test_another_take_of_a_wild_top_says_how_to_take_it(typed: str, hint: str) -> None:
    state = _pile_position(["9C", "2C"], ["2D", "2H", "*", "4D", "4H"])
    if hint:
        with pytest.raises(CommandError, match=f"top card is 2: take it with two of its kind, {hint}"):
            parse_command(typed, state)
    else:  # onto a meld of its rank: the engine's refusal, with its rule
        with pytest.raises(IllegalActionError):
            parse_command(typed, state)


def test_a_wild_pair_not_held_or_not_allowed_is_the_engines_refusal() -> None:
    one_joker = _pile_position(["9C", "*"], ["2D", "2H", "*", "4D", "4H"])
    with pytest.raises(IllegalActionError, match="two jokers"):
        parse_command("t **", one_joker)
    # Classic has no wild-pair take: a 2 on top stops the pile, as before.
    classic = canasta.build_position(
        canasta.load_rules("classic"),
        hands=[["2D", "2H", "4D", "4H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        pile=["9C", "2C"],
        melds=[[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]],
    )
    with pytest.raises(IllegalActionError):
        parse_command("t 22", classic)


def test_the_help_lists_the_wild_pair_take_and_the_packets_and_fits_80_by_24() -> None:
    assert ("t 22  t **", "take a 2 / a joker on top with two of its kind") in GRAMMAR
    assert any("foot 11" in symbol for symbol, _ in LEGEND)
    lines = measure_lines(render_help(), WIDTH)
    assert len(lines) + 1 <= HEIGHT and all(len(line) <= WIDTH for line in lines)


def _screen(state: HandState, seat: int = 0) -> str:
    return "\n".join(measure_lines(render_observation(state.observation(seat), state.rules), WIDTH))


def test_the_screen_shows_every_seats_packets_down_and_the_players_own() -> None:
    state = Game(rules=packet_variants.rules("classic-feet"), seed=2).hand
    screen = _screen(state, state.seat)
    assert f"your hand ({state.sizes[state.seat]} cards, foot of 11 face down): " in screen
    assert screen.count(", foot 11)") == 4
    knee = packet_variants.rules("hand-knee-foot")
    picked = canasta.build_position(
        knee,
        hands=[["7C", "7D", "7H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        melds=[[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]],
        packets=[[["9C"] * 5 + ["9H"] * 4], [], [["9D"] * 5 + ["9S"] * 4, ["8D"] * 5 + ["8S"] * 4], []],
        phase="meld",
    )
    screen = _screen(picked)
    assert "your knee (3 cards, foot of 9 face down): " in screen
    assert "(2, knee 9, foot 9)" in screen and "(3, foot 9)" in screen and "(2)" in screen
    assert "your foot (2 cards): " in _screen(picked, 1)
    # Today's variants: as before.
    classic = Game("classic", seed=2).hand
    assert f"your hand ({classic.sizes[0]} cards): " in _screen(classic)
    assert "face down" not in _screen(classic) and "foot" not in _screen(classic)


@pytest.mark.parametrize("name", ["classic-feet", "hand-knee-foot", "feet-pile-of-seven"])
def test_every_turn_of_a_packet_variant_fits_80_by_24(name: str) -> None:
    rules = packet_variants.rules(name)
    worst = 0
    for seed in (1, 3):
        for game in meld_favouring_turns(Game(rules=rules, seed=seed), random.Random(seed)):
            worst = max(worst, screen_lines(game))
    assert 0 < worst <= HEIGHT
    assert DrawStock() in Game(rules=rules, seed=1).legal_actions()
