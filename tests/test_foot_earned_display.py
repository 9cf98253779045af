"""Hand and Foot's ``foot-after-first-book``: an earned foot is marked in the SVG pictures and the terminal table.

A seat's next packet is earned by its own first canasta (`canasta.PacketRules.after_first_canasta`,
`HandState.first_canasta`, public): the pictures caption it ``foot earned: 13 down`` (in a
``packet-earned`` group), the terminal marks it ``foot 13✓`` beside the seat and ``, earned`` on
the player's own line. Never where the foot is not earned, nor under rule sets without the option.
"""

from __future__ import annotations

import io
import random
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console
from test_hand_and_foot import FOOT
from test_terminal_fit import HEIGHT, WIDTH, meld_favouring_turns, screen_lines

import canasta
from canasta import Game, HandState, Kind, Meld, PickUpPacket
from canasta.render import render_observation_svg, render_table_svg
from canasta.terminal import measure_lines, render_observation, render_turn

EARNED = canasta.load_rules("hand-and-foot", ["foot-after-first-book"])
BASE = canasta.load_rules("hand-and-foot")
FOOT_2 = ["4H", "4S", "5H", "5S", "6H", "6S", "8H", "8S", "9H", "9S", "TH", "JH", "KS"]
NAMES = ["p0", "p1", "p2", "p3"]
SVG = "{http://www.w3.org/2000/svg}"


def _table(rules: canasta.Rules, **kwargs: object) -> HandState:
    """Seat 0 to meld its first book (a 7 onto six); seat 1's side has a book (seat 1's own, under the option)."""
    kwargs.setdefault("hands", [["7H", "9C", "9D"], ["JC", "JD", "TC"], ["KC", "KD", "8H"], ["QH", "QS"]])
    kwargs.setdefault(
        "melds",
        [
            [["AC", "AD", "AH"], ["7C", "7D", "7H", "7S", "7C", "7D"]],
            [["5H", "5S", "5H"], ["QC", "QD", "QH", "QS", "QC", "QD", "QH"]],
        ],
    )
    kwargs.setdefault("packets", [[FOOT], [FOOT], [FOOT_2], [FOOT_2]])
    return canasta.build_position(rules, phase="meld", **kwargs)  # type: ignore[arg-type]


def _earned_table() -> HandState:
    """Under the option: seat 1 earned its foot at turn 0; seat 0 earns its own with ``Meld(SEVEN, 1)``."""
    return _table(EARNED, first_canasta=[-1, 0, -1, -1], turn=1)


def _captions(svg: str) -> dict[str, tuple[str, bool]]:
    """Each seat's packet caption, by seat name, and whether it sits in a ``packet-earned`` group."""
    root = ET.fromstring(svg)
    earned_texts = {id(t) for g in root.iter(f"{SVG}g") if g.get("class") == "packet-earned" for t in g.iter()}
    captions: dict[str, tuple[str, bool]] = {}
    seat = ""
    for text in root.iter(f"{SVG}text"):
        value = (text.text or "").removeprefix("\u25b6 ")
        if value in NAMES:
            seat = value
        elif seat and value.startswith("foot"):
            assert seat not in captions
            captions[seat] = (value, id(text) in earned_texts)
    return captions


def _earned_groups(svg: str) -> int:
    return sum(g.get("class") == "packet-earned" for g in ET.fromstring(svg).iter(f"{SVG}g"))


EARNED_CAPTION = ("foot earned: 13 down", True)
DOWN_CAPTION = ("foot: 13 face down", False)


def test_the_pictures_mark_exactly_the_earned_feet() -> None:
    state = _earned_table()
    before = {"p0": DOWN_CAPTION, "p1": EARNED_CAPTION, "p2": DOWN_CAPTION, "p3": DOWN_CAPTION}
    for seat in range(4):  # every seat's view: the first book is public
        assert _captions(render_observation_svg(state.observation(seat), EARNED, names=NAMES)) == before
    assert _captions(render_table_svg(state, names=NAMES)) == before
    state.apply(Meld(Kind.SEVEN, 1))  # seat 0's first book: its foot is earned now
    after = dict(before, p0=EARNED_CAPTION)
    for seat in range(4):
        svg = render_observation_svg(state.observation(seat), EARNED, names=NAMES)
        assert _captions(svg) == after and _earned_groups(svg) == 2
    assert _captions(render_table_svg(state, names=NAMES)) == after
    # Without the rules (a notebook's Observation._repr_svg_): the observation alone says it.
    assert _earned_groups(render_observation_svg(state.observation(2))) == 2


def test_a_picked_up_foot_is_no_longer_drawn_nor_marked() -> None:
    picked = canasta.build_position(
        EARNED,
        hands=[["9C", "9D"], ["JC", "JD", "TC"], ["KC", "KD", "8H"], ["QH", "QS"]],
        melds=[
            [["AC", "AD", "AH"], ["7C", "7D", "7H", "7S", "7C", "7D", "7H"]],
            [["5H", "5S", "5H"], ["QC", "QD", "QH", "QS", "QC", "QD", "QH"]],
        ],
        packets=[[FOOT], [FOOT], [FOOT_2], [FOOT_2]],
        first_canasta=[1, 0, -1, -1],
        turn=4,
        phase="draw",
    )
    assert _captions(render_observation_svg(picked.observation(0), EARNED, names=NAMES))["p0"] == EARNED_CAPTION
    picked.apply(PickUpPacket())  # at the start of a later turn, before the draw
    svg = render_observation_svg(picked.observation(0), EARNED, names=NAMES)
    captions = _captions(svg)
    assert "p0" not in captions and captions["p1"] == EARNED_CAPTION and _earned_groups(svg) == 1


def test_rule_sets_without_the_option_never_mark_a_foot() -> None:
    state = _table(BASE)
    state.apply(Meld(Kind.SEVEN, 1))  # a book by seat 0 in the base game earns nothing
    for seat in range(4):
        svg = render_observation_svg(state.observation(seat), BASE, names=NAMES)
        assert _captions(svg) == dict.fromkeys(NAMES, DOWN_CAPTION)
        assert _earned_groups(svg) == 0 and "earned" not in svg
    table = render_table_svg(state, names=NAMES)
    assert _earned_groups(table) == 0 and "earned" not in table
    # Random states of the base game and of classic: never a mark.
    for rules in (BASE, canasta.load_rules("classic")):
        game = Game(rules=rules, seed=4)
        rng = random.Random(4)
        for _ in range(120):
            if game.is_over:
                break
            svg = render_observation_svg(game.observation(game.seat), rules) + render_table_svg(game.hand)
            assert "packet-earned" not in svg and "earned" not in svg
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


def _screen(state: HandState, seat: int) -> str:
    return "\n".join(measure_lines(render_observation(state.observation(seat), state.rules, names=NAMES), WIDTH))


def _seat_line(screen: str, seat: int) -> str:
    return next(line for line in screen.splitlines() if f"{seat} p{seat} (" in line)


def test_the_terminal_marks_exactly_the_earned_feet() -> None:
    state = _earned_table()
    for seat in range(4):
        screen = _screen(state, seat)
        assert [("foot 13\u2713)" in _seat_line(screen, s)) for s in range(4)] == [False, True, False, False]
        own = f"hand ({state.sizes[seat]} cards, foot of 13 face down{', earned' if seat == 1 else ''}): "
        assert own in screen and screen.count("\u2713") == 1
    state.apply(Meld(Kind.SEVEN, 1))
    for seat in range(4):
        screen = _screen(state, seat)
        assert [("foot 13\u2713)" in _seat_line(screen, s)) for s in range(4)] == [True, True, False, False]
        assert ("foot of 13 face down, earned): " in screen) == (seat in (0, 1))
    console = Console(width=WIDTH, file=io.StringIO(), color_system=None)
    screen, _ = render_turn(state.observation(0), EARNED, state.legal_actions(), width=WIDTH, height=HEIGHT)
    console.print(screen)
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert len(lines) < HEIGHT and all(len(line) <= WIDTH for line in lines)


def test_the_terminal_never_marks_a_foot_without_the_option() -> None:
    state = _table(BASE)
    state.apply(Meld(Kind.SEVEN, 1))
    for seat in range(4):
        screen = _screen(state, seat)
        assert "\u2713" not in screen and "earned" not in screen
        assert all("foot 13)" in _seat_line(screen, s) for s in range(4))


def test_every_turn_under_the_option_fits_80_by_24_and_shows_earned_feet() -> None:
    """Seeded random play that favours melds (books are made, feet earned)."""
    worst = marked = 0
    for seed in (1, 3):
        game = Game("hand-and-foot", ["foot-after-first-book"], seed=seed)
        for turn in meld_favouring_turns(game, random.Random(seed)):
            worst = max(worst, screen_lines(turn))
            hand = turn.hand
            earned = sum(f >= 0 and bool(p) for f, p in zip(hand.first_canasta, hand.packets, strict=True))
            assert _screen(hand, turn.seat).count("\u2713") == earned
            marked += earned
    assert 0 < worst <= HEIGHT and marked > 0


def test_the_web_pages_picture_marks_the_earned_feet() -> None:
    pytest.importorskip("starlette")
    from canasta.web.session import PlaySession

    session = PlaySession("hand-and-foot", ["foot-after-first-book"], seed=3)
    rng = random.Random(3)
    marked = 0
    for _ in range(300):
        state = session.state()
        if state["over"] or state["hand_score"] is not None:
            break
        hand = session.game.hand
        earned = sum(f >= 0 and bool(p) for f, p in zip(hand.first_canasta, hand.packets, strict=True))
        assert _earned_groups(state["svg"]) == earned
        marked += earned
        legal = session.legal()
        melds = [i for i, a in enumerate(legal) if isinstance(a, Meld)]
        session.choose(str(rng.choice(melds) if melds and rng.random() < 0.8 else rng.randrange(len(legal))))
    assert marked > 0


def test_the_openspiel_observation_text_says_who_has_earned_its_foot() -> None:
    pytest.importorskip("pyspiel")
    from canasta.openspiel.text import observation_text

    state = _earned_table()
    assert "packet earned: no | yes | no | no" in observation_text(state.observation(2))
    state.apply(Meld(Kind.SEVEN, 1))
    for seat in range(4):
        assert "packet earned: yes | yes | no | no" in observation_text(state.observation(seat))
    base = _table(BASE)
    base.apply(Meld(Kind.SEVEN, 1))
    assert "earned" not in observation_text(base.observation(0))
