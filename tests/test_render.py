"""Pictures of the table (canasta.render): valid SVG, the right content, escaping, the CLI."""

from __future__ import annotations

import io
import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta import cli
from canasta.render import render_observation_svg, render_table_svg

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    return root


def _texts(root: ET.Element) -> list[str]:
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def _titles(root: ET.Element) -> list[str]:
    return [el.text or "" for el in root.iter(f"{SVG}title")]


def _classic_position(**kwargs: object) -> canasta.HandState:
    rules = canasta.load_rules("classic")
    defaults: dict[str, object] = {
        "hands": [["QH", "QS", "7D", "*", "4C"], ["5C", "6C"], ["8C", "9C", "TD"], ["JC"]],
        "pile": ["5D", "9S"],
    }
    defaults.update(kwargs)
    return canasta.build_position(rules, **defaults)  # type: ignore[arg-type]


def test_a_seat_view_shows_its_hand_face_up_and_the_other_counts() -> None:
    state = _classic_position()
    root = _parse(render_observation_svg(state.observation(0), state.rules, names=["ann", "bob", "cy", "di"]))
    titles = _titles(root)
    for code in ("QH", "QS", "7D", "*", "4C"):
        assert code in titles  # each card of the hand is drawn face up (its title is its code)
    assert "5C" not in titles and "8C" not in titles  # the other hands are face down
    texts = _texts(root)
    assert "\u25b6 ann" in texts and "bob" in texts  # seat 0 is to play: marked
    assert {"2", "3", "1"} <= set(texts)  # the other seats' counts on their card backs
    assert "seat 1 \u00b7 2 cards" in texts
    assert "9S" in titles  # the pile's top card
    assert f"stock \u00b7 {len(state.stock)}" in texts
    assert "pile \u00b7 2" in texts
    assert "classic" in texts


def test_the_table_view_shows_every_hand() -> None:
    state = _classic_position()
    titles = _titles(_parse(render_table_svg(state)))
    for code in ("QH", "5C", "6C", "8C", "9C", "TD", "JC"):
        assert code in titles


def test_canastas_are_marked_natural_mixed_and_wild() -> None:
    natural = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
    mixed = ["8H", "8S", "8D", "8C", "8H", "2S", "*"]
    melds = [[natural, mixed, ["9H", "9S", "9D"]], []]
    state = _classic_position(melds=melds)
    texts = _texts(_parse(render_observation_svg(state.observation(0), state.rules)))
    assert "natural \u00d77" in texts
    assert "mixed \u00d77" in texts
    assert "9 \u00d73" in texts  # not a canasta: a fan with its rank and size

    rules = canasta.load_rules("modern-american")
    hands = [["QH", "QS", "7D"], ["5C", "6C"], ["8C", "9C"], ["JC", "JD"]]
    wild = ["2H", "2S", "2D", "2C", "*", "*", "2H"]
    state = canasta.build_position(rules, hands=hands, melds=[[wild, ["KH", "KS", "KD"]], [["2D", "2C", "*"]]])
    root = _parse(render_observation_svg(state.observation(0), rules))
    texts = _texts(root)
    assert "wild \u00d77" in texts  # a wild canasta
    assert "wild \u00d73" in texts  # an incomplete wild meld
    # Without the rules (as _repr_svg_ draws it) the canasta still shows, from the observation alone.
    assert "wild \u00d77" in _texts(_parse(state.observation(0)._repr_svg_()))


def test_the_frozen_pile_is_marked() -> None:
    frozen = _classic_position(pile=["5D", "2C", "9S"])
    assert frozen.pile_frozen_for(0)
    assert "FROZEN" in _texts(_parse(render_observation_svg(frozen.observation(0), frozen.rules)))
    assert "FROZEN" in _texts(_parse(render_table_svg(frozen)))
    melds = [[["KH", "KS", "KD"]], [["QD", "QC", "QH"]]]
    open_pile = _classic_position(melds=melds)
    assert not open_pile.pile_frozen_for(0)
    assert "FROZEN" not in _texts(_parse(render_observation_svg(open_pile.observation(0), open_pile.rules)))


def test_bonus_threes_are_drawn_in_front_of_their_seat() -> None:
    state = _classic_position(threes=[["3H"], [], ["3D"], []])
    root = _parse(render_observation_svg(state.observation(0), state.rules))
    assert _titles(root).count("3H") == 1 and _titles(root).count("3D") == 1
    assert _texts(root).count("red threes") == 2


HOSTILE = '<script>alert("x")</script> & \x1b[2J \ud800'


def test_hostile_names_and_titles_are_escaped() -> None:
    state = _classic_position()
    names = [HOSTILE, "b", "c", "d"]
    for svg in (
        render_observation_svg(state.observation(0), state.rules, names=names, title=HOSTILE),
        render_table_svg(state, names=names, title=HOSTILE),
    ):
        assert "<script" not in svg
        assert "\x1b" not in svg
        svg.encode("utf-8")  # no lone surrogate left
        root = _parse(svg)
        assert not list(root.iter("script")) and not list(root.iter(f"{SVG}script"))
        assert any("<script>" in t for t in _texts(root))  # shown as typed, as text
        assert any("\\x1b" in t for t in _texts(root))


def test_the_output_is_deterministic() -> None:
    first = canasta.Game("classic", seed=4)
    second = canasta.Game("classic", seed=4)
    for game in (first, second):
        for _ in range(30):
            game.apply(game.legal_actions()[-1])
    assert render_observation_svg(first.observation(1), first.rules) == render_observation_svg(
        second.observation(1), second.rules
    )
    assert render_table_svg(first.hand) == render_table_svg(second.hand)


def _random_position(variant: str, house_rules: tuple[str, ...], seed: int) -> canasta.Game:
    game = canasta.Game(variant, house_rules, seed=seed)
    bots = {s: canasta.make_bot("greedy", f"{seed}:{s}") for s in range(game.rules.players)}
    steps = random.Random(seed).randrange(20, 160)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(bots[game.seat].choose(game.hand, game.seat))
    return game


BUILT_IN = [(v.name, ()) for v in canasta.available_variants() if v.origin.startswith("canasta ")] + [
    ("three-player", ("cutthroat",)),
    ("modern-american", ("american-talon",)),
]


@pytest.mark.parametrize(("variant", "house_rules"), BUILT_IN, ids=["+".join((v, *h)) for v, h in BUILT_IN])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_built_in_variant_renders(variant: str, house_rules: tuple[str, ...], seed: int) -> None:
    game = _random_position(variant, house_rules, seed)
    players = game.rules.players
    for seat in range(players):
        obs = game.observation(seat)
        root = _parse(render_observation_svg(obs, game.rules, names=[f"p{s}" for s in range(players)]))
        hand_titles = [c.code for c in obs.hand]
        titles = _titles(root)
        assert all(code in titles for code in hand_titles)
        assert f"stock \u00b7 {obs.stock_size}" in _texts(root)
        _parse(obs._repr_svg_())
    root = _parse(render_table_svg(game.hand))
    assert f"stock \u00b7 {len(game.hand.stock)}" in _texts(root)
    _parse(game.hand._repr_svg_())


def test_a_rank_held_twice_under_cutthroat_is_two_melds() -> None:
    for seed in range(1, 30):
        game = canasta.Game("three-player", ["cutthroat"], seed=seed)
        bots = {s: canasta.make_bot("greedy", f"{seed}:{s}") for s in range(3)}
        while not game.is_over and game.hand_number == 0:
            melds = game.hand.melds
            if any(key >= canasta.cards.SECOND_MELD for side in melds for key in side):
                break
            game.apply(bots[game.seat].choose(game.hand, game.seat))
        else:
            continue
        side = next(s for s, melds in enumerate(game.hand.melds) if any(k >= 16 for k in melds))
        rank = next(k & 15 for k in game.hand.melds[side] if k >= 16)
        label = {14: "A", 13: "K", 12: "Q", 11: "J"}.get(rank, str(rank))
        texts = _texts(_parse(render_table_svg(game.hand)))
        assert sum(1 for t in texts if re.fullmatch(rf"{label} \u00d7\d+|(natural|mixed) \u00d7\d+", t)) >= 2
        return
    pytest.skip("no seeded game made a second meld of a rank")


def test_repr_svg_of_an_observation_and_a_hand() -> None:
    game = canasta.Game("two-player", seed=1)
    obs = game.observation(0)
    assert obs._repr_svg_() == render_observation_svg(obs)
    assert "canasta" in _texts(_parse(obs._repr_svg_()))
    assert game.hand._repr_svg_() == render_table_svg(game.hand)


# --- canasta render -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("render") / "game.json"
    out = io.StringIO()
    argv = ["play", "--bots-only", "--seed", "3", "--max-hands", "2", "--quiet", "--record", str(path)]
    assert cli.main(argv, stdout=out) == 0
    return path


def _run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return cli.main(args, stdin=io.StringIO(""), stdout=out), out.getvalue()


def test_render_writes_a_seat_view(record_path: Path, tmp_path: Path) -> None:
    target = tmp_path / "view.svg"
    code, out = _run(["render", str(record_path), "--hand", "1", "--action", "40", "--seat", "1", "-o", str(target)])
    assert code == 0
    assert "picture written" in out
    root = _parse(target.read_text(encoding="utf-8"))
    texts = _texts(root)
    assert "classic: hand 1, after 40 actions" in texts
    assert any("seat 1's view" in t for t in texts)
    # The same position as replaying the record by hand.
    record = canasta.load_record(record_path)
    game = record.new_game()
    for action in record.actions[:40]:
        game.apply(action)
    titles = _titles(root)
    assert all(card.code in titles for card in game.observation(1).hand)


def test_render_to_stdout_and_the_table(record_path: Path) -> None:
    code, out = _run(["render", str(record_path), "--hand", "2", "--action", "0", "--table"])
    assert code == 0
    texts = _texts(_parse(out))
    assert "classic: hand 2, at the deal" in texts
    assert "the whole table, every hand face up" in texts
    code, dash = _run(["render", str(record_path), "--hand", "2", "--action", "0", "--table", "-o", "-"])
    assert dash == out


def test_render_at_the_end_of_a_hand_shows_it_ended(record_path: Path) -> None:
    record = canasta.load_record(record_path)
    length = record.hand_lengths[0]
    code, out = _run(["render", str(record_path), "--hand", "1", "--action", str(length), "--table"])
    assert code == 0
    assert any(t.startswith("the hand is over") for t in _texts(_parse(out)))
    code, default = _run(["render", str(record_path), "--hand", "1", "--table"])
    assert default == out  # without --action: the end of the hand


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", "0"], "argument --hand: must be from 1"),  # the argument parser's range
        (["--hand", "9"], "--hand 9"),
        (["--hand", "1", "--action", "-1"], "argument --action: must be from 0"),
        (["--hand", "1", "--action", "9999"], "--action 9999: hand 1 has"),
        (["--hand", "3", "--action", "1"], "--action 1: hand 3 has 0 actions"),
        (["--seat", "4"], "--seat 4: the seats are 0 to 3"),
    ],
)
def test_render_refuses_a_bad_position(
    record_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code, out = _run(["render", str(record_path), *args])
    except SystemExit as exit:  # refused by the argument parser (its usage line, then one error line)
        code, out = int(str(exit.code)), ""
        err = capsys.readouterr().err.splitlines()[-1]
        assert err.startswith("canasta render: error: ") and message in err
    else:
        err = capsys.readouterr().err
        assert err.startswith("canasta: error: ") and message in err
        assert err.count("\n") == 1
    assert code == 2
    assert out == ""


def test_render_refuses_a_bad_record(record_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(record_path.read_text())
    data["hands"][0]["totals"][0] += 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, out = _run(["render", str(bad), "-o", str(tmp_path / "x.svg")])
    assert out == ""
    assert code == 2
    assert not (tmp_path / "x.svg").exists()
    err = capsys.readouterr().err
    assert err.startswith("canasta: error: hands[0].totals") and err.count("\n") == 1
    missing = tmp_path / "missing.json"
    assert _run(["render", str(missing)])[0] == 2


def test_the_table_view_shows_the_scores_it_is_given() -> None:
    hand = canasta.Game("classic", seed=1).hand
    assert ">score 0<" in render_table_svg(hand)  # the totals before the hand, by default
    svg = render_table_svg(hand, scores=[1245, -410])  # a finished hand: the totals after it
    assert ">score 1245<" in svg and ">score -410<" in svg
    bad: list[list[Any]] = [[1], [1, 2, 3], [1, "2"], [True, 0]]
    for scores in bad:
        with pytest.raises(ValueError, match="one integer per side"):
            render_table_svg(hand, scores=scores)
