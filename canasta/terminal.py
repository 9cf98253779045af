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

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from canasta.actions import Action
from canasta.cards import Card, Kind
from canasta.observation import MeldView, Observation
from canasta.registry import HouseRule, Variant
from canasta.rules import Rules
from canasta.scoring import HandScore
from canasta.simulate import Summary
from canasta.wording import plural

__all__ = [
    "printable",
    "render_actions",
    "render_cards",
    "render_hand_score",
    "render_observation",
    "render_rules_summary",
    "render_simulation_summary",
    "render_variants",
    "side_name",
    "untrusted_text",
]

_RED = "bold red"
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    r"""Untrusted text made safe for a terminal: non-printable characters shown as escapes.

    Control characters (``ESC`` starts terminal escape sequences), lone
    surrogates (which cannot be encoded), format characters such as
    right-to-left overrides, and any other character that `str.isprintable`
    refuses are replaced by a Python-style escape (``\x1b``, ``\n``,
    ``\ud800``, ``\u202e``). Printable text, including non-ASCII letters, is
    returned unchanged.

    Args:
        text: The text.

    Returns:
        Text holding only printable characters.
    """
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char.isprintable():
            out.append(char)
        elif char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        else:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


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


def render_cards(cards: Sequence[Card]) -> Text:
    """Cards as codes, red suits in red.

    Args:
        cards: The cards.

    Returns:
        Styled text such as ``QH QS 7D *``.
    """
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        red = card.suit is not None and card.suit.is_red
        text.append(card.code, style="red" if red else ("magenta" if card.suit is None else ""))
    return text


def _meld_text(meld: MeldView) -> Text:
    name = "wild" if meld.rank == Kind.JOKER else meld.rank.symbol
    text = Text(f"{name}: ", style="bold")
    text.append_text(render_cards(meld.cards))
    if meld.is_canasta:
        kind = "wild" if meld.rank == Kind.JOKER else ("mixed" if meld.twos or meld.jokers else "natural")
        text.append(f"  [{kind} canasta]", style="bold green")
    return text


def render_observation(obs: Observation, rules: Rules, *, hand_number: int = 0, names: Sequence[str] = ()) -> Group:
    """The table as one seat sees it.

    Shows the seat's hand, every side's melds and canastas, laid-out threes,
    the pile's top and size, whether the pile is frozen for the seat, the
    minimum its side still needs, the scores and whose turn it is.

    Args:
        obs: The seat's observation.
        rules: The rules (for seating and names).
        hand_number: The hand's number (0-based), for the title.
        names: A label per seat (e.g. ``"you"``, ``"greedy"``).

    Returns:
        A renderable.
    """
    # Labels may come from a record: untrusted text.
    label = [printable(n) for n in names] + [f"seat {s}" for s in range(len(names), rules.players)]
    table = Table(show_header=True, header_style="bold", expand=False, title=f"Hand {hand_number + 1}")
    table.add_column("side")
    table.add_column("score", justify="right")
    table.add_column("melds")
    table.add_column("threes")
    for side in range(rules.side_count):
        seats = rules.seats_of(side)
        who = ", ".join(f"{s} {label[s]} ({plural(obs.hand_sizes[s], 'card')})" for s in seats)
        melds = Text("\n").join([_meld_text(m) for m in obs.melds[side]]) if obs.melds[side] else Text("—")
        threes = Text(" ").join([render_cards(obs.threes[s]) for s in seats if obs.threes[s]])
        if obs.set_aside[side]:
            threes.append(" set aside: ")
            threes.append_text(render_cards(obs.set_aside[side]))
        marker = " ◀ you" if side == obs.side else ""
        table.add_row(Text(who + marker), str(obs.scores[side]), melds, threes if threes.plain else Text("—"))
    pile = Text("pile: ")
    if obs.pile:
        pile.append_text(render_cards(obs.pile[-1:]))
        pile.append(f" on top, {plural(len(obs.pile), 'card')}")
    else:
        pile.append("empty")
    frozen_text = " — frozen for you" if obs.pile_frozen else " — not frozen for you"
    pile.append(frozen_text, style=_RED if obs.pile_frozen else "")
    status = Text(f"stock: {plural(obs.stock_size, 'card')}   ")
    status.append_text(pile)
    if not obs.minimum_needed:
        need = Text("your side has melded")
    elif obs.clean_meld_needed:
        # minimum_needed is at least 1 while the side has not opened: 1 means the count is reached.
        count = f"{obs.minimum_needed} and " if obs.minimum_needed > 1 else ""
        need = Text(f"your side still needs {count}a clean meld (naturals from your hand, no wild card) to open")
    else:
        need = Text(f"your side still needs {obs.minimum_needed} for its initial meld")
    turn = Text(f"turn: seat {obs.acting_seat} ({label[obs.acting_seat]}), {obs.phase} phase", style="bold")
    hand = Text(f"your hand ({plural(len(obs.hand), 'card')}): ", style="bold")
    hand.append_text(render_cards(obs.hand))
    return Group(table, status, need, turn, Panel(hand, expand=False))


def render_actions(actions: Sequence[Action]) -> Table:
    """Numbered legal actions to choose from (numbers start at 1).

    Args:
        actions: The legal actions.

    Returns:
        A table.
    """
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(justify="right", style="cyan")
    table.add_column()
    for i, action in enumerate(actions, start=1):
        table.add_row(str(i), str(action))
    return table


def render_hand_score(score: HandScore, rules: Rules, totals: Sequence[int], *, hand_number: int = 0) -> Table:
    """A hand's score breakdown per side, with the running totals.

    Args:
        score: The hand's score.
        rules: The rules (for side names).
        totals: Each side's cumulative total after the hand.
        hand_number: The hand's number (0-based).

    Returns:
        A table with one column per side.
    """
    how = score.end.replace("-", " ")
    if score.went_out is not None:
        how = f"seat {score.went_out} went out" + (" concealed" if score.concealed else "")
    table = Table(title=f"Hand {hand_number + 1} score ({how})", header_style="bold")
    table.add_column("")
    for side in range(rules.side_count):
        table.add_column(side_name(rules, side), justify="right")
    rows = [
        ("melded cards", "melded_cards"),
        ("canasta bonuses", "canasta_bonuses"),
        ("bonus threes", "red_threes"),
        ("going out", "going_out"),
        ("set-aside black threes", "set_aside"),
        ("cards left in hand", "cards_in_hand"),
        ("penalties", "penalties"),
    ]
    for label, attr in rows:
        values = [getattr(s, attr) for s in score.sides]
        if any(values):
            table.add_row(label, *(str(v) for v in values))
    table.add_row("canastas", *(str(s.canastas) for s in score.sides))
    table.add_row(Text("hand total", style="bold"), *(Text(str(s.total), style="bold") for s in score.sides))
    table.add_row(Text("game total", style="bold"), *(Text(str(t), style="bold") for t in totals))
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
    variants: Sequence[Variant], house_rules: Sequence[HouseRule], failures: Sequence[tuple[str, str]]
) -> Group:
    """Installed variants and house rules, where each comes from, and plugin failures.

    Args:
        variants: The variants.
        house_rules: The house rules.
        failures: ``(origin, error)`` of plugins that failed to load.

    Returns:
        A renderable.
    """
    vt = Table(title="Variants", header_style="bold")
    for column in ("name", "version", "based on", "description", "rules from", "found in"):
        vt.add_column(column)
    for v in variants:
        cells = (v.name, v.version, v.base or "—", v.description, v.source or "—", v.origin or "—")
        vt.add_row(*(untrusted_text(c) for c in cells))
    ht = Table(title="House rules", header_style="bold")
    for column in ("name", "version", "applies to", "description", "rules from", "found in"):
        ht.add_column(column)
    for h in house_rules:
        cells = (h.name, h.version, h.fits_description, h.description, h.source or "—", h.origin or "—")
        ht.add_row(*(untrusted_text(c) for c in cells))
    parts: list[RenderableType] = [vt, ht]
    if failures:
        ft = Table(title="Plugins that failed to load", header_style="bold red")
        ft.add_column("plugin")
        ft.add_column("error")
        for origin, error in failures:
            ft.add_row(untrusted_text(origin), untrusted_text(error))
        parts.append(ft)
    return Group(*parts)
