r"""Terminal rendering with rich: the table as one seat sees it, scores, summaries.

Everything here renders an `canasta.Observation` (never the hidden state), so
what the terminal shows a player is exactly what that seat may see.

Text that comes from outside (seat labels and names from a record, plugin
descriptions, error messages) is untrusted: it reaches rich only as `rich.text.Text`
built with `untrusted_text`, never as markup, so ``[bold]`` or ``[link=...]`` is
shown as typed, and `printable` shows control characters (``ESC``, ``BEL``, a
newline), lone surrogates and other non-printable characters as escapes such as
``\x1b`` or ``\ud800`` instead of sending them to the terminal.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Collection, Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from canasta.actions import Action, Discard, DrawStock, LayOutThree, Meld, TakePile
from canasta.cards import Card, Kind, Suit
from canasta.commands import GRAMMAR, LEGEND, SEQUENCE_GRAMMAR, SEQUENCE_LEGEND, notation, slot_mark
from canasta.observation import MeldView, Observation
from canasta.registry import HouseRule, Variant
from canasta.rules import Rules
from canasta.scorelines import NOTED, describe_end, score_lines
from canasta.scoring import HandScore
from canasta.simulate import Summary
from canasta.suitedmelds import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild, SuitedMeld
from canasta.table import TableState
from canasta.wording import action_text, card_name, hand_sort_key, kind_name, kind_sort_key, plural, printable

__all__ = [
    "describe_changes",
    "format_variants",
    "measure_lines",
    "menu_prompt",
    "printable",
    "render_actions",
    "render_cards",
    "render_hand_cards",
    "render_hand_score",
    "render_help",
    "render_menu",
    "render_observation",
    "render_rules_summary",
    "render_simulation_summary",
    "render_turn",
    "render_variants",
    "scores_text",
    "shown_notation",
    "side_name",
    "untrusted_text",
    "verdict_text",
]

_RED = "bold red"




def untrusted_text(text: str, style: str = "") -> Text:
    """Untrusted text as a rich `Text`: no markup or emoji codes interpreted, `printable` applied.

    Args:
        text: The text (a seat label, a name from a record, a message).
        style: A style for the whole text.

    Returns:
        The text, shown as typed.
    """
    return Text(printable(text), style=style)


def side_name(rules: Rules, side: int) -> str:
    """A side's name: its seats, e.g. ``"seats 0+2"`` or ``"seat 1"``.

    Args:
        rules: The rules (for the seating).
        side: The side.

    Returns:
        The name.
    """
    seats = rules.seats_of(side)
    return ("seat " if len(seats) == 1 else "seats ") + "+".join(str(s) for s in seats)


def verdict_text(rules: Rules, winners: Sequence[int]) -> str:
    """How a finished game ended, from `canasta.Game.winners`: a win, a draw among some sides, or a tie.

    Args:
        rules: The rules (for the seating).
        winners: The sides sharing the win.

    Returns:
        ``"seats 0+2 win"``, ``"a draw between seat 0 and seat 2"`` (some of
        three or more sides), or ``"a tie"`` (every side).
    """
    if len(winners) == 1:
        return f"{side_name(rules, winners[0])} win"
    if not winners or len(winners) == rules.side_count:
        return "a tie"
    return "a draw between " + " and ".join(side_name(rules, side) for side in winners)


def render_cards(cards: Sequence[Card]) -> Text:
    """Cards as codes, red suits in red.

    Args:
        cards: The cards.

    Returns:
        Styled text such as ``QH 10S 7D *`` (a ten is written ``10``, as the pictures show it).
    """
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        red = card.suit is not None and card.suit.is_red
        text.append(card_name(card), style="red" if red else ("magenta" if card.suit is None else ""))
    return text


def scores_text(rules: Rules, scores: Sequence[int]) -> str:
    """Each side's score with the side's name: ``seats 0+2 755, seats 1+3 535``.

    Args:
        rules: The rules (for the sides' names).
        scores: A score per side.

    Returns:
        The text.
    """
    return ", ".join(f"{side_name(rules, side)} {score}" for side, score in enumerate(scores))


def _who_did(seat: int, names: Sequence[str], humans: Collection[int]) -> str:
    if seat in humans:
        return "you"
    label = printable(names[seat]) if seat < len(names) else ""
    return f"seat {seat} ({label})" if label else f"seat {seat}"


def describe_changes(
    before: Observation | None,
    after: Observation,
    action: Action | None = None,
    *,
    names: Sequence[str] = (),
    human_seats: Collection[int] = (),
) -> list[str]:
    """What a person should be told that happened beyond the action itself, within one hand.

    The cards the observing seat got from the stock (its own knowledge: ``you
    drew 7H``), and every automatic move the table shows: threes laid out (a
    red three drawn or dealt is laid out and replaced from the stock, by the
    rules and not by the player). ``before=None`` describes a fresh deal.

    Args:
        before: The observing seat's view before the action (``None``: at the deal).
        after: Its view after the action, in the same hand.
        action: The action played (a `DrawStock` says "drew"; other cards from
            the stock are said to come automatically), if any.
        names: A label per seat.
        human_seats: The seats of the person reading: the observing seat's
            cards are told only if it is one of them.

    Returns:
        Lines of plain text (possibly none).
    """
    lines: list[str] = []
    seat = after.seat
    old_threes: Sequence[Sequence[Card]] = before.threes if before is not None else [() for _ in after.threes]
    if before is not None and seat in human_seats:
        got = Counter(after.hand) - Counter(before.hand)
        got += Counter(after.threes[seat][len(old_threes[seat]) :])
        if isinstance(action, TakePile):
            got -= Counter(before.pile)  # the pile's cards are no news
        if got:
            cards = " ".join(card_name(c) for c in sorted(got.elements(), key=hand_sort_key))
            lines.append(f"you drew {cards}" if isinstance(action, DrawStock) else f"you drew {cards} (automatically)")
    for s, threes in enumerate(after.threes):
        new = threes[len(old_threes[s]) :]
        if not new:
            continue
        who = _who_did(s, names, human_seats)
        shown = " ".join(card_name(c) for c in new)
        if before is None:
            where = "at the deal, "
        elif isinstance(action, LayOutThree) and s == before.acting_seat:
            where = ""  # the player's own action, not the rules'
        else:
            where = "automatically, "
        them = "it" if len(new) == 1 else "them"
        drew = "a card" if len(new) == 1 else plural(len(new), "card")
        lines.append(f"{where}{who} laid out {shown} and drew {drew} to replace {them}")
    if before is not None and isinstance(action, Discard):
        # A discard takes one card from the hand: more in it afterwards came from the stock by a rule
        # (bonus cards after an opening, modern American). Another seat's cards are its own: only counted.
        actor = before.acting_seat
        extra = after.hand_sizes[actor] - before.hand_sizes[actor] + 1
        if extra > 0 and not (actor == seat and seat in human_seats):
            who = _who_did(actor, names, human_seats)
            lines.append(f"automatically, {who} drew {plural(extra, 'card')} from the stock")
    return lines


def menu_prompt(count: int) -> str:
    """The prompt under a menu of ``count`` numbered actions: ``choose 1-5 ...``, or ``choose 1 ...`` for one.

    Args:
        count: The menu's length.

    Returns:
        The prompt.
    """
    choose = "choose 1" if count == 1 else f"choose 1-{count}"
    return f"{choose} or type a command (? for help, q to quit): "


def _meld_text(meld: MeldView, *, second: bool = False) -> Text:
    """A meld in the compact notation: ``QQQ2*``, ``K×6+2``, ``[AAAAAAA]`` for a canasta.

    A meld's number among the side's melds of its kind (`canasta.MeldView.slot`) is
    written as the commands name it (`canasta.commands.slot_mark`): ``QQQ'`` meld 1,
    ``QQQ'2`` meld 2; a book's after its bracket, ``[K×6+2]1`` book 1. A second
    meld without a number (cutthroat's, ``second``) is ``QQQ'``.
    """
    wilds = "2" * meld.twos + "*" * meld.jokers
    assert meld.rank is not None  # (a sequence: `_run_text`)
    if meld.rank == Kind.JOKER:
        body = wilds if len(wilds) <= 8 else f"2×{meld.twos}+*×{meld.jokers}"
    else:
        symbol = kind_name(meld.rank)
        if meld.naturals <= 5 and (len(symbol) == 1 or meld.naturals == 1):
            body = symbol * meld.naturals + wilds
        else:
            body = f"{symbol}×{meld.naturals}" + (f"+{wilds}" if wilds else "")
    slot = meld.slot
    if slot is None:
        body += "'" if second else ""
    elif not meld.is_canasta:
        body += "" if not slot else "'" if slot == 1 else f"'{slot}"
    if not meld.is_canasta:
        return Text(body)
    if meld.rank == Kind.JOKER:
        style = "bold magenta"
    else:
        style = "bold yellow" if meld.twos or meld.jokers else "bold green"
    text = Text(f"[{body}]", style=style)
    if slot:  # book 1, 2...: its number after the bracket, as ``m k:2]1`` names it
        text.append(str(slot), style=style)
    return text


#: A suit's symbol in the terminal (a sequence's, and a hand's in the sequence games).
_SUIT_SYMBOLS = {Suit.CLUBS: "\u2663", Suit.DIAMONDS: "\u2666", Suit.HEARTS: "\u2665", Suit.SPADES: "\u2660"}
#: From this many melds on a side, sequences are written ``5-9♥`` rather than ``5♥-9♥``.
_COMPACT_FROM = 9


def _run_text(meld: MeldView, *, compact: bool) -> Text:
    """A sequence's ends, its suits coloured: ``5♥-9♥``, or compact ``5-9♥``."""
    assert meld.suit is not None and meld.low is not None and meld.high is not None
    suit = _SUIT_SYMBOLS[meld.suit]
    colour = "red" if meld.suit.is_red else ""
    low, high = kind_name(meld.low), kind_name(meld.high)
    if meld.is_canasta:  # a samba or escalera: squared up in brackets, bold cyan
        return Text(f"[{low}-{high}{suit}]" if compact else f"[{low}{suit}-{high}{suit}]", style="bold cyan")
    text = Text(low)
    if not compact:
        text.append(suit, style=colour)
    text.append(f"-{high}")
    text.append(suit, style=colour)
    return text


def _own_text(meld: MeldView) -> Text:
    """A meld of a plugin's type of a shape of its own by its cards: ``5♥6♥7♥2``, ``[4♥…J♥*]`` a canasta."""
    body = "".join(
        "*" if card.suit is None else "2" if card.rank == 2 else kind_name(card.kind) + _SUIT_SYMBOLS[card.suit]
        for card in meld.cards
    )
    return Text(f"[{body}]", style="bold cyan") if meld.is_canasta else Text(body)


def _numbered_melds_text(melds: Sequence[MeldView]) -> Text:
    """A side's melds by number (rule sets with meld types): ``#0:KKK2 #1:5♥-9♥ #2:[7♠-K♠]``.

    From `_COMPACT_FROM` melds on, a sequence names its suit once (``5-9♥``).
    """
    compact = len(melds) >= _COMPACT_FROM
    parts = []
    for meld in melds:
        # "#3:" joined to its meld, never broken from it: the table wraps only at spaces.
        part = Text(f"#{meld.number}:" if meld.number is not None else "", style="dim")
        if meld.meld_type is not None:  # a plugin's type of a shape of its own: by its cards
            part.append_text(_own_text(meld))
        else:
            part.append_text(_run_text(meld, compact=compact) if meld.is_sequence else _meld_text(meld))
        parts.append(part)
    return Text(" ").join(parts)


def _melds_text(melds: Sequence[MeldView], *, books_apart: bool = False) -> Text:
    """A side's melds on one wrapping line; a second meld of a rank (cutthroat) marked ``'``.

    Where melds carry their numbers (`canasta.MeldView.slot`: several melds of a
    kind), each is marked by its own: ``QQQ QQ2' QQQ'2`` (melds 0, 1 and 2),
    ``[K×7] [K×6+2]1`` (books 0 and 1). Where canastas are books set apart
    (``books_apart``: `canasta.MeldRules.book_makes_room`), an open meld after a
    book of its rank is the side's meld of the rank, not a second one.
    """
    if any(meld.number is not None for meld in melds):
        return _numbered_melds_text(melds)
    seen: set[Kind | None] = set()
    parts = []
    for meld in melds:
        parts.append(_meld_text(meld, second=meld.rank in seen and meld.rank != Kind.JOKER))
        if not (books_apart and meld.is_canasta):
            seen.add(meld.rank)
    return Text(" ").join(parts)


def render_hand_cards(cards: Sequence[Card], *, by_suit: bool = False) -> Text:
    """A hand grouped by kind, in the order of the SVG pictures: ``AAA KK Q 10 10 99 b3 b3 22 **``.

    Naturals high to low, then black threes, red threes, 2s and jokers
    (`canasta.wording.kind_sort_key`). Each symbol is coloured by its card's
    suit (red for hearts and diamonds, magenta for a joker), so a hand of 15
    or 40 cards fits on a line or two; symbols of two characters (``10``,
    ``b3``, ``r3``) are written apart.

    Where suits matter to the rules (the sequence games' sequences of one
    suit), ``by_suit`` writes the naturals after their suit, each suit's high
    to low: ``♣ A K 9  ♦ Q Q 7  ♥ 10 5 4  ♠ J  b3 22 *``.

    Args:
        cards: The cards.
        by_suit: Group the naturals by suit.

    Returns:
        Styled text.
    """
    if by_suit:
        return _hand_by_suit(cards)
    groups: dict[Kind, list[Card]] = {}
    for card in cards:
        groups.setdefault(card.kind, []).append(card)
    text = Text()
    for kind in sorted(groups, key=kind_sort_key):
        symbol = kind_name(kind)
        same = sorted(groups[kind], key=lambda c: (c.suit is not None and c.suit.is_red, c.suit or 0))
        for i, card in enumerate(same):
            if text and (i == 0 or len(symbol) > 1):
                text.append(" ")
            red = card.suit is not None and card.suit.is_red
            text.append(symbol, style="red" if red else ("magenta" if card.suit is None else ""))
    return text


def _hand_by_suit(cards: Sequence[Card]) -> Text:
    """`render_hand_cards` by suit: each suit's naturals high to low, then the other cards by kind."""
    suits: dict[Suit, list[Card]] = {}
    rest: list[Card] = []
    for card in cards:
        if card.suit is not None and int(card.kind) >= int(Kind.FOUR):
            suits.setdefault(card.suit, []).append(card)
        else:
            rest.append(card)
    text = Text()
    for suit in sorted(suits):
        colour = "red" if suit.is_red else ""
        if text:
            text.append("  ")
        text.append(_SUIT_SYMBOLS[suit], style=colour)
        for card in sorted(suits[suit], key=lambda c: -int(c.kind)):
            text.append(" " + kind_name(card.kind), style=colour)
    if rest:
        if text:
            text.append("  ")
        text.append_text(render_hand_cards(rest))
    return text


#: After the size of a seat's next packet in the table: earned by the seat's own first canasta
#: (`canasta.PacketRules.after_first_canasta`, ``foot-after-first-book``): ``(9, foot 11✓)``.
_EARNED_MARK = "\u2713"


def _earned(obs: Observation, seat: int) -> bool:
    """Whether the seat has earned its next packet by a canasta of its own (`canasta.Observation.first_canasta`)."""
    return bool(obs.first_canasta) and obs.first_canasta[seat] >= 0


def _who(label: Sequence[str], obs: Observation, seat: int, rules: Rules) -> Text:
    mark = "▶" if seat == obs.acting_seat else " "
    held = str(obs.hand_sizes[seat])
    down = obs.packets_down[seat] if obs.packets_down else ()
    first = len(rules.packets.sizes) - len(down)
    for i, size in enumerate(down):  # packets still face down (Hand and Foot's foot): their sizes only
        held += f", {rules.packets.name_of(first + i)} {size}"
        if i == 0 and _earned(obs, seat):
            held += _EARNED_MARK
    return Text(f"{mark}{seat} {label[seat]} ({held})", style="bold" if mark != " " else "")


def _held(obs: Observation, rules: Rules) -> str:
    """The seat's cards in play and its packets still down: ``hand (9 cards, foot of 11 face down)``.

    Where the rules deal packets after the hand (`canasta.PacketRules`), the
    cards in play are named after their packet (``foot`` once it is picked up),
    and the packets still down are listed by size (nobody sees their cards); the
    next one, once earned by a canasta of the seat's own (``foot-after-first-book``),
    is ``foot of 11 face down, earned``.
    """
    held = plural(len(obs.hand), "card")
    count = len(rules.packets.sizes)
    if not count:
        return f"hand ({held})"
    down = obs.packets_down[obs.seat] if obs.packets_down else ()
    current = count - len(down)  # (0: the hand, i: the packet after it at index i - 1)
    name = "hand" if current == 0 else rules.packets.name_of(current - 1)
    later = ""
    for i, size in enumerate(down):
        later += f", {rules.packets.name_of(current + i)} of {size} face down"
        if i == 0 and _earned(obs, obs.seat):  # (foot-after-first-book: the next packet is earned)
            later += ", earned"
    return f"{name} ({held}{later})"


def render_observation(
    obs: Observation,
    rules: Rules,
    *,
    hand_number: int = 0,
    names: Sequence[str] = (),
    human_seats: Collection[int] | None = None,
) -> Group:
    """The table as one seat sees it, compact enough for an 80×24 terminal.

    One line with the hand's number, the stock and the pile (its top card,
    its size, whether it is frozen for the seat); one row per side with its
    seats (the seat to play marked ``▶``, each with its hand size), score,
    melds and canastas in the compact notation (see `canasta.commands.LEGEND`)
    and laid-out threes; the minimum the seat's side still needs; whose turn
    it is; and the seat's hand grouped by kind. Where the rules deal packets
    after the hand (Hand and Foot's foot), each seat's packets still face down
    show beside its hand size, and the seat's own line names the packet it
    plays from and those still down; where a packet is earned by a canasta
    (``foot-after-first-book``), a seat's next packet, once earned, is marked
    ``✓`` after its size (``(9, foot 11✓)``) and ``, earned`` on the seat's own line.

    Args:
        obs: The seat's observation.
        rules: The rules (for seating and names).
        hand_number: The hand's number (0-based), for the title.
        names: A label per seat (e.g. ``"you"``, ``"greedy"``).
        human_seats: The seats played by the person at the terminal: the
            hand is "your hand" only if the observing seat is one of them
            (default: the observing seat). A replay shows a bot's view with
            its seat's name instead.

    Returns:
        A renderable.
    """
    # Labels may come from a record: untrusted text.
    label = [printable(n) for n in names] + [f"seat {s}" for s in range(len(names), rules.players)]
    humans = {obs.seat} if human_seats is None else set(human_seats)
    viewer = "you" if obs.seat in humans else f"seat {obs.seat} ({label[obs.seat]})"
    possessive = "your" if obs.seat in humans else f"{viewer}'s"
    top = Text(f"Hand {hand_number + 1}", style="bold")
    top.append(f"   stock: {plural(obs.stock_size, 'card')}   pile: ")
    if obs.pile:
        top.append_text(render_cards(obs.pile[-1:]))
        top.append(f" on top, {plural(len(obs.pile), 'card')}")
    else:
        top.append("empty")
    frozen_for = "you" if obs.seat in humans else f"seat {obs.seat}"
    if obs.pile_frozen:
        top.append(f" — frozen for {frozen_for}", style=_RED)
    else:
        top.append(f" — not frozen for {frozen_for}")
    table = Table(box=None, show_header=True, header_style="bold", padding=(0, 1), pad_edge=False, expand=False)
    table.add_column("seat (cards)", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("melds, canastas [ ] and threes", overflow="fold")
    for side in range(rules.side_count):
        seats = rules.seats_of(side)
        who = Text("\n").join([_who(label, obs, s, rules) for s in seats])
        books_apart = rules.melds.book_makes_room
        melds = _melds_text(obs.melds[side], books_apart=books_apart) if obs.melds[side] else Text("—")
        threes = [card for s in seats for card in obs.threes[s]]
        if threes:
            melds.append("  threes ")
            melds.append_text(render_cards(threes))
        if obs.set_aside[side]:
            melds.append("  set aside ")
            melds.append_text(render_cards(obs.set_aside[side]))
        table.add_row(who, str(obs.scores[side]), melds)
    if not obs.minimum_needed:
        need = Text(f"{possessive} side has melded")
    elif obs.clean_meld_needed:
        # minimum_needed is at least 1 while the side has not opened: 1 means the count is reached.
        count = f"{obs.minimum_needed} and " if obs.minimum_needed > 1 else ""
        need = Text(f"{possessive} side still needs {count}a clean meld (naturals only, no wild card) to open")
    else:
        need = Text(f"{possessive} side still needs {obs.minimum_needed} for its initial meld")
    turn = Text(f"turn: seat {obs.acting_seat} ({label[obs.acting_seat]}), {obs.phase} phase", style="bold")
    hand = Text(f"{possessive} {_held(obs, rules)}: ", style="bold")
    hand.append_text(render_hand_cards(obs.hand, by_suit=bool(rules.meld_types)))  # (suits: the sequence games)
    return Group(top, table, need, turn, hand)


def render_actions(actions: Sequence[Action]) -> Table:
    """Numbered legal actions to choose from (numbers start at 1), one per line.

    The terminal game shows the grouped, numbered menu of `render_menu`
    instead; this long form suits a wide scrolling log.

    Args:
        actions: The legal actions.

    Returns:
        A table.
    """
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(justify="right", style="cyan")
    table.add_column()
    for i, action in enumerate(actions, start=1):
        table.add_row(str(i), action_text(action))
    return table


_LABEL = 6  # width of a menu line's label ("turn", "meld", "x")


#: The meld actions of the sequence games (`canasta.suitedmelds`), shown among the meld options.
_SUITED_MELDS = (LayGroup, LaySequence, Extend, LayWild, Combine, LayBlackThrees)


def _meld_group(action: Meld | SuitedMeld | Action) -> tuple[int, str]:
    """A meld option's group: its rank's order and label (``"Q"``, ``"Q'"``, ``"wild"``).

    The sequence games' options: a group's under its rank (new or onto a group),
    a new sequence under its suit (``"♥"``), an extension under its meld's number
    (``"#3"``), then combining (``"join"``) and the black threes (``"b3"``).
    """
    if isinstance(action, LayGroup):
        return (100 - action.rank, kind_name(Kind(action.rank)))
    if isinstance(action, LayWild):
        return (0, "wild")
    if isinstance(action, LaySequence):
        return (900 + int(action.suit), _SUIT_SYMBOLS[action.suit])
    if isinstance(action, Extend):
        return (1000 + action.meld, f"#{action.meld}")
    if isinstance(action, Combine):
        return (10**6, "join")
    if isinstance(action, LayBlackThrees):
        return (10**6 + 1, "b3")
    assert isinstance(action, Meld)
    mark = slot_mark(action)  # (meld 1, 2... of a rank: ``Q'``, ``Q'2``; a book ``Q]``, ``Q]1``)
    offset = 25 * (2 * action.slot + action.book)
    if action.rank == Kind.JOKER:
        return (offset, "wild" + mark)
    return (100 - int(action.rank) + offset, kind_name(action.rank) + mark)


def _flow(chunks: Sequence[Text], width: int, label: str) -> list[Text]:
    """Chunks laid out in lines of ``width``, the first line labelled, the others indented."""
    lines: list[Text] = []
    line = Text(label.ljust(_LABEL), style="bold")
    used = False
    for chunk in chunks:
        if used and line.cell_len + 2 + chunk.cell_len > width:
            lines.append(line)
            line = Text(" " * _LABEL)
            used = False
        if used:
            line.append("  ")
        line.append_text(chunk)
        used = True
    if used:
        lines.append(line)
    return lines


def shown_notation(action: Action) -> str:
    """An action's command (`canasta.commands.notation`) as the menu shows it: cards as a person reads them.

    A ten is written ``10``, and cards of two characters (``10``, ``b3``) are
    spaced (``m b3 b3 b3``, not ``m b3b3b3``). The grammar reads both forms, so
    what the menu shows can be typed.

    Args:
        action: The action.

    Returns:
        E.g. ``"x 10"``, ``"m 10 10 *"``, ``"m 10:2"``, ``"m b3 b3 b3"``, ``"m qq*"``.
    """
    if isinstance(action, Discard) and action.suit is None:
        return f"x {kind_name(action.kind).lower()}"
    if isinstance(action, Meld) and action.rank != Kind.JOKER:
        symbol = kind_name(action.rank).lower()
        if len(symbol) > 1:
            wilds = "2" * action.twos + "*" * action.jokers
            second = slot_mark(action)
            if not action.naturals:
                return f"m {symbol}:{wilds}{second}"
            return "m " + " ".join([symbol] * action.naturals + ([wilds] if wilds else [])) + second
    return notation(action)


def _item(number: int, action: Action, text: str | None = None) -> Text:
    chunk = Text(f"{number})", style="cyan")
    chunk.append(text if text is not None else shown_notation(action).removeprefix("m ").removeprefix("x "))
    return chunk


def _option_order(action: Meld | SuitedMeld | Action) -> tuple[int, int, int]:
    """Within a group, natural melds first, then by fewer wild cards (others as given)."""
    if isinstance(action, Meld | LayGroup):
        return (action.twos + action.jokers, -action.naturals, action.twos)
    return (0, 0, 0)


def render_menu(
    actions: Sequence[Action], *, width: int = 80, max_lines: int | None = None
) -> tuple[Group, list[Action]]:
    """The legal actions grouped and numbered in a few lines, in the command grammar.

    One line for drawing, taking the pile and the other turn actions (with
    their descriptions when they fit); meld options grouped by rank
    (``Q: 5)qq* 6)qqq``), natural melds first, as many per rank as
    ``max_lines`` allows (``…+3``: three more, to be typed as commands, see
    `canasta.commands`); the discards on one line (``x  9)9 10)8``).

    Args:
        actions: The legal actions.
        width: The screen's width.
        max_lines: At most this many lines (``None``: no limit). The turn and
            discard lines are always shown.

    Returns:
        The menu, and the numbered actions (number ``n`` is element ``n - 1``).
    """
    options: tuple[type, ...] = (Meld, *_SUITED_MELDS)  # (the sequence games' meld actions too)
    turn = [a for a in actions if not isinstance(a, (*options, Discard))]
    melds = [a for a in actions if isinstance(a, options)]
    discards = sorted((a for a in actions if isinstance(a, Discard)), key=lambda d: kind_sort_key(d.kind))
    groups: dict[tuple[int, str], list[Action]] = {}
    for meld in melds:
        groups.setdefault(_meld_group(meld), []).append(meld)
    for items in groups.values():
        items.sort(key=_option_order)
    ordered = sorted(groups.items())
    biggest = max((len(items) for _, items in ordered), default=0)

    def layout(cap: int, shown_groups: int) -> tuple[list[Text], list[Action]]:
        numbered: list[Action] = []
        lines: list[Text] = []
        if turn:
            numbered.extend(turn)
            long = [_item(i, a, " " + shown_notation(a) + f" ({action_text(a)})") for i, a in enumerate(turn, start=1)]
            short = [_item(i, a) for i, a in enumerate(turn, start=1)]
            long_lines = _flow(long, width, "turn")
            lines.extend(long_lines if len(long_lines) == 1 else _flow(short, width, "turn"))
        chunks: list[Text] = []
        room = width - _LABEL
        for (_, name), items in ordered[:shown_groups]:
            chunk = Text(f"{name}:", style="bold")
            shown = 0
            for meld in items[:cap]:
                item = _item(len(numbered) + 1, meld)
                left = len(items) - shown - 1
                tail = len(f" …+{left}") if left else 0
                if shown and chunk.cell_len + 1 + item.cell_len + tail > room:
                    break  # one line per rank: the others are typed as commands
                numbered.append(meld)
                chunk.append(" ")
                chunk.append_text(item)
                shown += 1
            if len(items) > shown:
                chunk.append(f" …+{len(items) - shown}", style="dim")
            chunks.append(chunk)
        hidden = len(ordered) - shown_groups
        if hidden:
            chunks.append(Text(f"…+{hidden} more ranks: type m …", style="dim"))
        lines.extend(_flow(chunks, width, "meld"))
        start = len(numbered)
        numbered.extend(discards)
        lines.extend(_flow([_item(start + i, a) for i, a in enumerate(discards, start=1)], width, "x"))
        return lines, numbered

    lines, numbered = layout(biggest, len(ordered))
    if max_lines is not None and len(lines) > max_lines:
        for shown_groups in range(len(ordered), 0, -1):
            for cap in range(biggest - 1, 0, -1):
                lines, numbered = layout(cap, shown_groups)
                if len(lines) <= max_lines:
                    break
            if len(lines) <= max_lines:
                break
    return Group(*lines), numbered


def render_turn(
    obs: Observation,
    rules: Rules,
    actions: Sequence[Action],
    *,
    width: int = 80,
    height: int = 24,
    hand_number: int = 0,
    names: Sequence[str] = (),
    human_seats: Collection[int] | None = None,
) -> tuple[Group, list[Action]]:
    """A turn's whole screen but the prompt: the table (`render_observation`) and the menu (`render_menu`).

    The menu gets the lines the table leaves of ``height``, less one for the
    prompt, so that the turn fits the screen.

    Args:
        obs: The acting seat's observation.
        rules: The rules.
        actions: The legal actions.
        width: The screen's width.
        height: The screen's height.
        hand_number: The hand's number (0-based).
        names: A label per seat.
        human_seats: The seats played at the terminal (see `render_observation`).

    Returns:
        The screen, and the numbered actions of its menu.
    """
    table = render_observation(obs, rules, hand_number=hand_number, names=names, human_seats=human_seats)
    used = len(measure_lines(table, width))
    menu, numbered = render_menu(actions, width=width, max_lines=max(3, height - used - 1))
    return Group(table, menu), numbered


def measure_lines(renderable: RenderableType, width: int) -> list[str]:
    """The plain lines a renderable takes at a width (for fitting a screen).

    Args:
        renderable: What to render.
        width: The width.

    Returns:
        The lines, without styles.
    """
    console = Console(width=width, file=io.StringIO(), color_system=None, highlight=False, soft_wrap=False)
    console.print(renderable)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return str(text).splitlines()


def render_help(*, sequences: bool = False) -> Group:
    """The command grammar and the card legend (`canasta.commands`), in 22 lines at most.

    Args:
        sequences: Show the sequence games' grammar and legend (`canasta.commands.SEQUENCE_GRAMMAR`,
            `SEQUENCE_LEGEND`: rules with meld types) instead of the others'.

    Returns:
        A renderable.
    """
    grammar = Table(
        title="Commands (or a menu number)", box=None, show_header=False, padding=(0, 1), title_justify="left"
    )
    grammar.add_column(style="cyan", no_wrap=True)
    grammar.add_column()
    for command, meaning in (SEQUENCE_GRAMMAR if sequences else GRAMMAR)[1:]:
        grammar.add_row(command, meaning)
    legend = Table(title="Legend", box=None, show_header=False, padding=(0, 1), title_justify="left")
    legend.add_column(style="cyan", no_wrap=True)
    legend.add_column()
    for symbol, meaning in SEQUENCE_LEGEND if sequences else LEGEND:
        legend.add_row(symbol, meaning)
    return Group(grammar, legend)


def render_hand_score(
    score: HandScore, rules: Rules, totals: Sequence[int], *, hand_number: int = 0, hand: TableState | None = None
) -> Table:
    """A hand's score breakdown per side, with the running totals.

    The rows and their reasons come from `canasta.scorelines` (as on the web
    page): only parts some side scored, and under the table the rule behind
    each bonus or penalty.

    Args:
        score: The hand's score.
        rules: The rules (for side names).
        totals: Each side's cumulative total after the hand.
        hand_number: The hand's number (0-based).
        hand: The finished hand, for reasons naming its cards and melds.

    Returns:
        A table with one column per side.
    """
    table = Table(title=f"Hand {hand_number + 1} score ({describe_end(score, rules)})", header_style="bold")
    table.add_column("")
    for side in range(rules.side_count):
        table.add_column(side_name(rules, side), justify="right")
    notes: list[str] = []
    for line in score_lines(score, rules, hand):
        table.add_row(line.label, *(str(v) for v in line.values))
        if line.key in NOTED:
            sides = enumerate(line.reasons)
            notes.extend(f"{line.label}, {side_name(rules, side)}: {why}" for side, why in sides if why)
    table.add_row("canastas", *(str(s.canastas) for s in score.sides))
    table.add_row(Text("hand total", style="bold"), *(Text(str(s.total), style="bold") for s in score.sides))
    table.add_row(Text("game total", style="bold"), *(Text(str(t), style="bold") for t in totals))
    if notes:  # the reasons under the table, which is widened so that they wrap less
        table.caption = "\n".join(notes)
        table.caption_justify = "left"
        table.min_width = 72
    return table


def render_simulation_summary(summary: Summary, seconds: float | None = None) -> Group:
    """A simulation's summary: win rates with 95% intervals, mean scores, lengths.

    Args:
        summary: The summary.
        seconds: Time taken, if it should be shown.

    Returns:
        A renderable.
    """
    title = f"{plural(summary.games, 'game')} of {summary.variant}"
    if summary.house_rules:
        title += " + " + ", ".join(summary.house_rules)
    table = Table(title=untrusted_text(title + f" (seed {summary.seed})"), header_style="bold")
    table.add_column("side")
    table.add_column("bots")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95% CI)", justify="right")
    table.add_column("mean score", justify="right")
    for side in summary.sides:
        seats = "+".join(str(s) for s in side.seats)
        table.add_row(
            f"seats {seats}",
            untrusted_text(", ".join(side.bots)),
            str(side.wins),
            f"{side.win_rate:.1%} ({side.win_rate_low:.1%}–{side.win_rate_high:.1%})",
            f"{side.mean_score:.0f}",
        )
    lines = [
        f"ties: {summary.ties}   cut off: {summary.incomplete}",
        f"hands per game: {summary.mean_hands:.2f}   turns per hand: {summary.mean_turns_per_hand:.1f}   "
        f"actions per hand: {summary.mean_actions_per_hand:.1f}",
        f"hands: {summary.total_hands}   actions: {summary.total_actions}",
    ]
    if seconds is not None:
        rate = summary.total_hands / seconds if seconds > 0 else 0.0
        lines.append(f"time: {seconds:.2f} s ({rate:.0f} hands/s)")
    return Group(table, *(Text(line) for line in lines))


def render_rules_summary(rows: Sequence[tuple[str, str, str]], title: str) -> Table:
    """A rules summary (`canasta.summary.rules_summary` rows) as a table.

    Args:
        rows: ``(section, rule, value)`` rows.
        title: The table's title.

    Returns:
        A table.
    """
    table = Table(title=untrusted_text(title), header_style="bold")
    table.add_column("section", style="bold")
    table.add_column("rule")
    table.add_column("value")
    previous = None
    for section, rule, value in rows:
        # Plain text: a value such as "[a, b]" is not markup (rules may come from any plugin).
        shown = untrusted_text(section) if section != previous else Text()
        table.add_row(shown, untrusted_text(rule), untrusted_text(value))
        previous = section
    return table


def render_variants(
    variants: Sequence[Variant],
    house_rules: Sequence[HouseRule],
    failures: Sequence[tuple[str, str]],
    provenance: Callable[[Variant | HouseRule], str] | None = None,
    *,
    players: Callable[[str], str] | None = None,
) -> Group:
    """Installed variants and house rules, where each comes from, and plugin failures.

    Args:
        variants: The variants.
        house_rules: The house rules.
        failures: ``(origin, error)`` of plugins that failed to load.
        provenance: Says where a descriptor comes from (``"built in (canasta
            1.0)"``, ``"plugin canasta-x 2.1"``; `canasta.Registry.provenance`),
            for a "from" column.
        players: Says how many players a variant (by name) seats (``"4"``,
            ``"4 (plays 2, 3, 4, 5, 6)"``), for a "players" column.

    Returns:
        A renderable.
    """
    vt = Table(title="Variants", header_style="bold")
    columns: tuple[str, ...] = (
        "name",
        "version",
        "from",
        "players",
        "based on",
        "description",
        "rules from",
        "found in",
    )
    for column in columns:
        if (column != "from" or provenance) and (column != "players" or players):
            vt.add_column(column, overflow="fold", no_wrap=column == "name")
    for v in variants:
        cells: tuple[str, ...] = (v.name, v.version, v.base or "—", v.description, v.source or "—", v.origin or "—")
        if players:
            cells = (*cells[:2], players(v.name), *cells[2:])
        if provenance:
            cells = (*cells[:2], provenance(v), *cells[2:])
        vt.add_row(*(untrusted_text(c) for c in cells))
    ht = Table(title="House rules", header_style="bold")
    columns = ("name", "version", "from", "applies to", "description", "rules from", "found in")
    for column in columns if provenance else (c for c in columns if c != "from"):
        ht.add_column(column, overflow="fold", no_wrap=column == "name")
    for h in house_rules:
        cells = (h.name, h.version, h.fits_description, h.description, h.source or "—", h.origin or "—")
        if provenance:
            cells = (*cells[:2], provenance(h), *cells[2:])
        ht.add_row(*(untrusted_text(c) for c in cells))
    parts: list[RenderableType] = [vt, ht]
    if failures:
        ft = Table(title="Plugins that failed to load", header_style="bold red")
        ft.add_column("plugin", overflow="fold")
        ft.add_column("error", overflow="fold")
        for origin, error in failures:
            ft.add_row(untrusted_text(origin), untrusted_text(error))
        parts.append(ft)
    return Group(*parts)


def format_variants(
    variants: Sequence[Variant],
    house_rules: Sequence[HouseRule],
    failures: Sequence[tuple[str, str]],
    provenance: Callable[[Variant | HouseRule], str],
    *,
    players: Callable[[str], str] | None = None,
) -> str:
    """The `render_variants` listing as plain lines, nothing cut or wrapped (for a pipe or a file).

    Each entry is a line ``name version — from — description``, then indented
    lines for the players it seats (with ``players``), its base or the variants
    it fits, where its rules come from and where it was found. Untrusted text
    is passed through `printable`.

    Args:
        variants: The variants.
        house_rules: The house rules.
        failures: ``(origin, error)`` of plugins that failed to load.
        provenance: Says where a descriptor comes from (`canasta.Registry.provenance`).
        players: Says how many players a variant (by name) seats (``"4"``,
            ``"4 (plays 2, 3, 4, 5, 6)"``).

    Returns:
        The text, ending with a newline.
    """
    lines = ["Variants"]
    for v in variants:
        lines.append(printable(f"  {v.name} {v.version} — {provenance(v)} — {v.description}"))
        if players:
            lines.append(printable(f"      players: {players(v.name)}"))
        lines.append(printable(f"      based on: {v.base or '—'}; rules from: {v.source or '—'}"))
        if v.house_rules:
            lines.append(printable(f"      plays with: {', '.join(v.house_rules)}"))
        lines.append(printable(f"      found in: {v.origin or '—'}"))
    lines.append("House rules")
    for h in house_rules:
        lines.append(printable(f"  {h.name} {h.version} — {provenance(h)} — {h.description}"))
        lines.append(printable(f"      applies to: {h.fits_description}; rules from: {h.source or '—'}"))
        lines.append(printable(f"      found in: {h.origin or '—'}"))
    if failures:
        lines.append("Plugins that failed to load")
        lines.extend(printable(f"  {origin}: {error}") for origin, error in failures)
    return "\n".join(lines) + "\n"
