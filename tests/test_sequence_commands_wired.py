"""The terminal reads the sequence games' grammar where rules meld by meld type (issue 34)."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

import canasta
from canasta import Discard, HandState, IllegalActionError
from canasta.commands import CommandError, notation, parse_command
from canasta.terminal import render_help, shown_notation


def _meld_phase() -> HandState:
    h = HandState.deal(canasta.load_rules("samba"), dealer=0, scores=(0, 0), seed=2)
    rng = random.Random(2)
    while h.phase is not canasta.Phase.MELD or not any(isinstance(a, Discard) for a in h.legal_actions()):
        h.apply(rng.choice(h.legal_actions()))
    return h


def test_parse_command_reads_the_sequence_grammar_and_returns_the_engines_action() -> None:
    h = _meld_phase()
    for action in h.legal_actions():
        parsed = parse_command(notation(action), h)  # type: ignore[arg-type]
        assert parsed is action  # the engine's own object
    with pytest.raises(IllegalActionError):  # well formed, not legal: the engine's refusal names the rule
        parse_command("seq h 4 4", h)
    with pytest.raises(CommandError):
        parse_command("seq h 4", h)


def test_the_menu_shows_a_discards_suit() -> None:
    h = _meld_phase()
    discard = next(a for a in h.legal_actions() if isinstance(a, Discard) and a.suit is not None)
    assert shown_notation(discard) == notation(discard) and shown_notation(discard)[-1] in "cdhs"


def test_the_sequence_help_fits_the_screen() -> None:
    console = Console(width=80, record=True, file=None, force_terminal=False)
    with console.capture() as captured:
        console.print(render_help(sequences=True))
    lines = captured.get().rstrip("\n").splitlines()
    assert len(lines) <= 22 and max(len(line) for line in lines) <= 80
    assert any("seq" in line for line in lines) and not any(line.lstrip().startswith("m ") for line in lines)


def test_the_web_page_files_the_sequence_games_actions_and_shows_their_grammar() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'canasta[web]'")
    from canasta.suitedmelds import LaySequence
    from canasta.suitedpile import PileTake, TakeMode
    from canasta.web.session import PlaySession, action_group

    assert action_group(LaySequence(canasta.Suit.HEARTS, 5, 7)) == "meld"
    assert action_group(PileTake(TakeMode.PAIR)) == "take"
    session = PlaySession("samba", seed=4, bot="random")  # the built-in variant, by name
    session.help = True
    state = session.state()
    assert any(command.startswith("seq") for command, _ in state["help"])
    assert {entry["group"] for entry in state["legal"]} <= {"draw", "take", "meld", "discard", "go out", "end"}
