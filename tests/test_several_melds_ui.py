"""Several melds of a rank (Hand and Foot's ``pierson-family``) in what a person types and reads.

The command grammar names a side's open meld of a rank by a number after ``'`` (``m qq'2``)
and a book by a number after ``]`` (``m k:2]1``); the terminal table, the SVG pictures and
the web page (which shows those pictures) mark each meld and book the same way
(`canasta.MeldView.slot`); an illegal ``slot`` is refused naming the rule; the bots play.
"""

from __future__ import annotations

import copy
import random
import re

import pytest

import canasta
from canasta.actions import Action, Meld, TakePile
from canasta.bots import make_bot
from canasta.cards import SECOND_MELD, Kind
from canasta.commands import CommandError, notation, parse_command, slot_mark
from canasta.errors import IllegalActionError, RuleCode
from canasta.game import Game
from canasta.hand import HandState
from canasta.render import render_observation_svg, render_table_svg
from canasta.terminal import _meld_text, render_observation, shown_notation

PIERSON = ("hand-and-foot", ["pierson-family"])
Q, K = Kind.QUEEN, Kind.KING
#: A rank's name in the pictures' captions.
_LABELS = {11: "J", 12: "Q", 13: "K", 14: "A"}


def _position(**changes: object) -> HandState:
    """Side 0: books of kings (clean, then dirty with 2 wild cards), three open melds of queens, a wild book."""
    rules = canasta.load_rules("hand-and-foot", house_rules=["pierson-family"])
    options: dict[str, object] = {
        "hands": [["QH", "QS", "2C", "*", "KS", "5H", "9D"], ["4C", "4D"], ["6C", "6D"], ["8C", "8D"]],
        "pile": ["9C", "JD"],
        "melds": [
            [
                ["KH", "KD", "KC", "KS", "KH", "KD", "KC"],
                ["KH", "KD", "KC", "KS", "KH", "2D", "*"],
                ["QH", "QD", "QC"],
                ["QC", "QD", "2H"],
                ["QS", "QH", "QD", "QC"],
                ["2S", "2H", "*", "*", "2C", "2D", "*"],
            ],
            [["AC", "AD", "AH"]],
        ],
        "seat": 0,
        "phase": "meld",
        "opened": [True, True],
    }
    options.update(changes)
    return canasta.build_position(rules, **options)  # type: ignore[arg-type]


# --- the grammar --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("m qq", Meld(Q, 2)),
        ("m qq'", Meld(Q, 2, slot=1)),
        ("m qq 2nd", Meld(Q, 2, slot=1)),
        ("m qq'1", Meld(Q, 2, slot=1)),
        ("m qq'2", Meld(Q, 2, slot=2)),
        ("m q q ' 2", Meld(Q, 2, slot=2)),
        ("mqq2*'3", Meld(Q, 2, 1, 1, slot=3)),
        ("m qq'0", Meld(Q, 2)),
        ("m q:2'2", Meld(Q, 0, 1, slot=2)),
        ("m 22*'2", Meld(Kind.JOKER, 0, 2, 1, slot=2)),
        ("m k]", Meld(K, 1, book=True)),
        ("m k book", Meld(K, 1, book=True)),
        ("m k:2]1", Meld(K, 0, 1, book=True, slot=1)),
        ("m k:2] 1", Meld(K, 0, 1, book=True, slot=1)),
        ("m k2]1", Meld(K, 1, 1, book=True, slot=1)),
        ("m k:2]0", Meld(K, 0, 1, book=True)),
    ],
)
def test_a_number_after_the_mark_names_the_meld_or_book(text: str, action: Meld) -> None:
    class Fake:
        seat = 0

        def legal_actions(self) -> list[Action]:
            return [action]

        def check(self, other: Action) -> None:
            raise IllegalActionError(RuleCode.ILLEGAL, f"{other} refused")

    assert parse_command(text, Fake()) == action  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("slot", "book", "mark"),
    [(0, False, ""), (1, False, "'"), (2, False, "'2"), (12, False, "'12"), (0, True, "]"), (1, True, "]1")],
)
def test_slot_mark_writes_the_number_the_grammar_reads(slot: int, book: bool, mark: str) -> None:
    meld = Meld(Q, 0, 1, slot=slot, book=book)
    assert slot_mark(meld) == mark
    assert notation(meld) == f"m q:2{mark}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("t'2", "a take names no meld by number ('2)"),
        ("t]1", "a take names no meld by number (]1)"),
        ("m qq'2'", "a ' goes at the end"),
        ("m qq'2q", "a ' goes at the end"),
        ("m k:2]1'", "a ] goes at the end"),
        ("m qq'123", "no meld has a number of 3 digits"),
        ("m k:2 2nd ]1", "name a book by ]1 alone"),
    ],
)
def test_malformed_numbers_are_refused_saying_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_command(text, _position())
    assert message in str(info.value) and "type ? for the commands" in str(info.value)


def test_a_well_formed_number_of_no_meld_is_the_engines_refusal() -> None:
    with pytest.raises(IllegalActionError) as info:
        parse_command("m qq2'5", _position())
    assert info.value.code is RuleCode.INVALID_MELD and "there is no meld 5 of queens" in info.value.message


def _meld_biased_play(seed: int, steps: int, every: int = 3) -> list[HandState]:
    """Every ``every``-th state of a seeded random pierson game that melds when it may (three times in four)."""
    game = Game(*PIERSON, seed=seed)
    rng = random.Random(seed)
    seen = []
    for step in range(steps):
        if game.is_over:
            break
        if step % every == 0:
            seen.append(copy.deepcopy(game.hand))
        legal = game.legal_actions()
        melds = [a for a in legal if isinstance(a, Meld)]
        game.apply(rng.choice(melds) if melds and rng.random() < 0.75 else rng.choice(legal))
    return seen


def test_every_legal_action_of_random_pierson_deals_reads_back() -> None:
    """Each legal action, as the menu writes it (`notation`, `shown_notation`), parses to that action."""
    slots: set[tuple[bool, int]] = set()
    for seed in range(6):
        game = Game(*PIERSON, seed=seed)
        rng = random.Random(seed)
        for _ in range(700):
            if game.is_over:
                break
            legal = game.legal_actions()
            for action in legal:
                if isinstance(action, Meld):
                    slots.add((action.book, action.slot))
                assert parse_command(notation(action), game) == action, notation(action)
                assert parse_command(shown_notation(action), game) == action, shown_notation(action)
            melds = [a for a in legal if isinstance(a, Meld)]
            game.apply(rng.choice(melds) if melds and rng.random() < 0.75 else rng.choice(legal))
    # The deals reach several melds of a rank and wild cards onto a later dirty book.
    assert {(False, 1), (False, 2), (True, 0), (True, 1)} <= slots, sorted(slots)


# --- what the table shows -------------------------------------------------------------------------------


def test_the_terminal_marks_each_meld_and_book_by_its_number() -> None:
    state = _position()
    views = state.observation(0).melds[0]
    assert [(v.rank, v.slot, v.is_canasta) for v in views] == [
        (K, 0, True),
        (K, 1, True),
        (Q, 0, False),
        (Q, 1, False),
        (Q, 2, False),
        (Kind.JOKER, None, True),  # (a wild book takes nothing: it has no number)
    ]
    screen = "\n".join(line.rstrip() for line in _render_lines(state))
    assert "[K×7] [KKKKK2*]1 QQQ QQ2' QQQQ'2 [2222***]" in screen
    # The other side (one meld of a rank) and other rule sets show what they always showed.
    assert "AAA" in screen
    classic = canasta.build_position(
        canasta.load_rules("classic"),
        hands=[["QH"], ["4C"], ["6C"], ["8C"]],
        melds=[[["QH", "QD", "QC"]], []],
        opened=[True, False],
    )
    assert classic.observation(0).melds[0][0].slot is None


def _render_lines(state: HandState) -> list[str]:
    from rich.console import Console

    console = Console(width=80, record=True, color_system=None)
    console.print(render_observation(state.observation(0), state.rules))
    return console.export_text().splitlines()


def _svg_text(svg: str) -> str:
    """The picture's text, tags dropped (a caption's gold mark is a tspan of its own)."""
    return re.sub(r"<title>.*?</title>", "", re.sub(r"<(?!/?title)[^>]*>", "", svg))


def test_the_pictures_caption_each_meld_and_book_with_its_mark() -> None:
    state = _position()
    for svg in (render_table_svg(state), render_observation_svg(state.observation(0), state.rules)):
        text = _svg_text(svg)
        assert "Q ×3" in text and "Q' ×3" in text and "Q'2 ×4" in text
        assert "mixed ×7]1" in text  # (book 1 of kings: its number beside its label)
        assert "<title>Q meld 2 (m q…'2)</title>" in svg and "<title>K book 1 (m k…]1)</title>" in svg
        assert "A ×3" in text  # (side 1's one meld of aces: no mark)


def _shown_mark(text: str, is_canasta: bool) -> str:
    """The mark after a meld as the terminal writes it: ``''``, ``'``, ``'2``; a book's ``]``, ``]1``."""
    if is_canasta:
        found = re.search(r"\](\d*)$", text)
        assert found is not None, text
        return "]" + found.group(1)
    found = re.search(r"'\d*$", text)
    return found.group(0) if found else ""


def _shown_marks(state: HandState, side: int, *, picture: bool = True) -> dict[tuple[str, ...], str]:
    """Each meld and book of a side (by its cards) with the mark the terminal (and the picture) show."""
    svg = _svg_text(render_table_svg(state)) if picture else ""
    shown: dict[tuple[str, ...], str] = {}
    for view in state.observation(0).melds[side]:
        assert view.rank is not None
        mark = _shown_mark(_meld_text(view).plain, view.is_canasta)
        if not picture:
            pass
        elif not view.is_canasta:  # the picture's caption carries the same mark
            name = "wild" if view.rank == Kind.JOKER else _LABELS.get(view.rank, str(int(view.rank)))
            assert f"{name}{mark} ×{len(view.cards)}" in svg
        elif view.slot:
            assert f"×{len(view.cards)}{mark}" in svg
        shown[tuple(sorted(repr(card) for card in view.cards))] = mark
    return shown


def test_the_numbers_shown_are_the_numbers_the_grammar_reads() -> None:
    """A legal meld onto a meld or book grows the one whose mark on the table is its command's.

    For every legal `Meld` of random pierson positions that adds to an existing meld or book,
    the command's mark (``'2``, ``]1``), which the grammar reads back to the action, is the mark
    the terminal and the picture show on the meld or book that applying the action grows.
    """
    checked: set[str] = set()
    for seed in range(8):
        for state in _meld_biased_play(seed, 500, every=2):
            side = state.side_of(state.seat)
            if not (state.melds[side] or state.books[side]):
                continue
            before = _shown_marks(state, side)
            for action in state.legal_actions():
                if not isinstance(action, Meld) or action.rank == Kind.BLACK_THREE:
                    continue
                command = notation(action)
                assert parse_command(command, state) == action
                after_state = copy.deepcopy(state)
                after_state.apply(action)
                after = _shown_marks(after_state, side, picture=False)
                gone = [cards for cards in before if cards not in after]
                if not gone:
                    continue  # (a new meld: it grew none)
                assert len(gone) == 1, command
                mark = slot_mark(action) or ("]" if action.book else "")
                assert command.endswith(slot_mark(action))
                assert before[gone[0]] == mark, (command, before[gone[0]])
                checked.add(mark)
    assert {"", "'", "'2", "]", "]1"} <= checked, checked


def test_a_new_meld_takes_the_next_number_on_the_table() -> None:
    state = _position()
    action = Meld(Q, 2, 1, 0, slot=3)
    assert notation(action) == "m qq2'3"
    state.apply(parse_command("m qq2'3", state))
    screen = "\n".join(_render_lines(state))
    assert "QQQ QQ2' QQQQ'2 QQ2'3" in screen


# --- explanations -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Meld(Q, 2, 1, slot=5), "there is no meld 5 of queens: your side's open melds of queens are numbered 0 to 2"),
        (Meld(Kind.FIVE, 1, slot=1), "there is no meld 1 of fives: your side has no open meld of fives"),
        (Meld(Q, 2, slot=3), "a meld needs at least 3 cards"),
        (Meld(K, 0, 1, book=True), "book 0 of kings is clean: wild cards go only onto a dirty book"),
        (Meld(K, 0, 1, 1, book=True, slot=1), "a dirty book holds at most 3 wild cards: book 1 of kings holds 2"),
        (Meld(K, 0, 1, book=True, slot=2), "there is no book 2 of kings: your side's books of kings are books 0 to 1"),
        (Meld(K, 1, book=True, slot=1), "natural cards go onto book 0 of kings"),
        (Meld(Kind.JOKER, 0, 1, book=True), "a wild book takes no more cards"),
        (Meld(Kind.ACE, 1, book=True), "your side has no clean or dirty book of aces"),
    ],
)
def test_an_illegal_slot_is_refused_naming_the_rule(action: Meld, message: str) -> None:
    state = _position(hands=[["QH", "QS", "2C", "*", "KS", "5H", "AH", "9D"], ["4C", "4D"], ["6C", "6D"], ["8C", "8D"]])
    assert action not in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.check(action)
    assert info.value.code is RuleCode.INVALID_MELD
    assert message in info.value.message


def test_of_two_dirty_books_with_as_many_wild_cards_the_first_is_named() -> None:
    two_dirty = [
        ["KH", "KD", "KC", "KS", "KH", "2D", "*"],
        ["KH", "KD", "KC", "KS", "KH", "2H", "2S"],
        ["QH", "QD", "QC"],
    ]
    state = _position(melds=[two_dirty, [["AC", "AD", "AH"]]])
    assert Meld(K, 0, 1, book=True) in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.check(Meld(K, 0, 1, book=True, slot=1))
    assert "books 0 and 1 of kings hold as many wild cards" in info.value.message


def test_one_meld_of_a_rank_elsewhere_names_the_rule() -> None:
    rules = canasta.load_rules("hand-and-foot")
    state = canasta.build_position(
        rules,
        hands=[["QH", "QS", "QD", "2C", "9D"], ["4C", "4D"], ["6C", "6D"], ["8C", "8D"]],
        pile=["9C", "JD"],
        melds=[[["QH", "QD", "QC"]], [["AC", "AD", "AH"]]],
        seat=0,
        phase="meld",
        opened=[True, True],
    )
    for slot in (1, 2):
        with pytest.raises(IllegalActionError) as info:
            state.check(Meld(Q, 2, slot=slot))
        assert f"your side has no meld {slot} of queens: here a side holds one meld of a rank" in info.value.message


def test_a_pile_take_names_no_meld_under_several_melds() -> None:
    state = _position(phase="draw", pile=["9C", "QD"])
    assert TakePile(2, 0, 0) in state.legal_actions()
    for take in (TakePile(2, 0, 0, second=True), TakePile(2, 0, 0, book=True)):
        with pytest.raises(IllegalActionError) as info:
            state.check(take)
        assert "a pile take always starts a new meld" in info.value.message


# --- the bots -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts:3"])
def test_the_bots_play_pierson_deals(bot: str) -> None:
    melded: set[tuple[bool, int]] = set()
    for seed in range(1 if bot.startswith("ismcts") else 3):
        game = Game(*PIERSON, seed=seed)
        bots = [make_bot(bot, f"{seed}:{seat}") for seat in range(4)]
        while not game.is_over and not game.results:
            hand = game.hand
            action = bots[hand.seat].choose(hand, hand.seat)
            assert action in hand.legal_actions()
            if isinstance(action, Meld):
                melded.add((action.book, action.slot))
            game.apply(action)
        assert game.results  # (the hand was played out)
    assert (False, 0) in melded and (True, 0) in melded


def test_the_greedy_bot_reads_the_meld_a_slot_names() -> None:
    """Of a 2 onto three melds of queens, the greedy bot plays the one that completes a book: meld 2."""
    melds = [["QH", "QD", "QC"], ["QS", "QH", "QD"], ["QS", "QH", "QD", "QC", "QS", "2H"]]
    state = _position(
        melds=[melds, [["AC", "AD", "AH"]]], hands=[["2C", "5H", "9D", "JS"], ["4C", "4D"], ["6C", "6D"], ["8C", "8D"]]
    )
    assert state.melds[0][int(Q) + 2 * SECOND_MELD].size == 6
    assert {Meld(Q, 0, 1), Meld(Q, 0, 1, slot=1), Meld(Q, 0, 1, slot=2)} <= set(state.legal_actions())
    assert make_bot("greedy", 1).choose(state, 0) == Meld(Q, 0, 1, slot=2)


def test_an_open_meld_beside_a_book_of_its_rank_is_no_second_meld() -> None:
    """Hand and Foot (one open meld of a rank beside its books): ``m k`` names the open meld, shown unmarked."""
    rules = canasta.load_rules("hand-and-foot")
    state = canasta.build_position(
        rules,
        hands=[["KS", "9D", "9S", "4H"], ["4C", "4D"], ["6C", "6D"], ["8C", "8D"]],
        pile=["9C", "JD"],
        melds=[[["KH", "KD", "KC", "KS", "KH", "2D", "*"], ["KH", "KD", "KC"]], [["AC", "AD", "AH"]]],
        seat=0,
        phase="meld",
        opened=[True, True],
    )
    assert Meld(K, 1) in state.legal_actions() and notation(Meld(K, 1)) == "m k"
    assert "[KKKKK2*] KKK " in "\n".join(_render_lines(state))
    assert "KKK'" not in "\n".join(_render_lines(state))


def test_a_new_meld_beside_one_is_judged_as_a_new_meld() -> None:
    state = _position(melds=[[["QH", "QD", "QC"]], [["AC", "AD", "AH"]]])
    assert Meld(Q, 2, 1, slot=1) in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.check(Meld(Q, 2, slot=1))
    assert "a meld needs at least 3 cards" in info.value.message
