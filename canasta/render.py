r"""Pictures of the table as SVG: a seat's view, or the whole table face up.

`render_observation_svg` draws what one seat may see (its hand face up, the
other hands as card backs with their counts); `render_table_svg` draws a
`canasta.HandState` with every hand face up, for authors and researchers.
`canasta.Observation` and `canasta.HandState` show these pictures in Jupyter
notebooks (their ``_repr_svg_``), and ``canasta render`` writes them from a
game record.

The pictures are plain SVG text built here with the standard library: no font,
image or script is fetched (text uses the generic ``sans-serif`` family).
The output is deterministic (the same position gives the same text), its size
is computed from the content (1000 units wide, as tall as needed), and all
text from outside (seat names, variant names, titles) is escaped, with
non-printable characters shown as escapes such as ``\x1b``.

What a picture shows: each side's panel with its seats (name, hand, laid-out
bonus threes), score, and melds (fanned cards; a canasta is squared up under a
label ``natural``, ``mixed`` or ``wild``, its top card red for a natural
canasta and black for a mixed one, as players do), the stock with its size,
the discard pile with its top card, size and a ``FROZEN`` marker, whose turn
it is and the turn's phase. Where the rules deal packets after the hand (Hand
and Foot's foot), each seat's packets still face down show under its name by
size; where a packet is earned by a canasta (`canasta.PacketRules.after_first_canasta`,
``foot-after-first-book``), a seat's next packet, once earned, is captioned
``foot earned: 13 down`` in gold beside a gold-edged card back.

In rule sets that meld by meld type (the sequence games, `canasta.Rules.meld_types`)
every meld is labelled with its number (``#3``, the name the terminal commands
use), a sequence is drawn as a run in rank order (4 to ace) labelled with its
ends (``#4 5♥–9♥``), a sequence canasta (a samba or escalera) is squared up
under a ``sequence`` label with its highest card on top, and a side's melds of
one rank lie side by side (sequences first, by suit, then groups by rank, high
to low).

Where a side may hold several melds of a rank (`canasta.MeldRules.several_melds`,
Hand and Foot's ``pierson-family``), each open meld's caption carries in gold the
mark the terminal commands name it by (`canasta.MeldView.slot`, `canasta.commands.slot_mark`):
``Q ×3`` is meld 0 of queens, ``Q' ×3`` meld 1, ``Q'2 ×4`` meld 2; where wild cards
go onto dirty books (`canasta.MeldRules.wilds_onto_books`), a book after the first
of its rank has its number beside its label (``mixed ×8 ]1``: book 1, ``m k:2]1``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol
from xml.sax.saxutils import escape, quoteattr

from canasta.cards import JOKER, SEQUENCE_MELD, TWO, Card, Kind, Suit
from canasta.meldview import meld_views
from canasta.ownshapes import OWN_MELD
from canasta.rules import Rules
from canasta.table import TableState
from canasta.wording import hand_sort_key, printable

__all__ = ["ObservedMeld", "SeatObservation", "render_observation_svg", "render_table_svg"]


class ObservedMeld(Protocol):
    """What the pictures read of a meld (`canasta.MeldView` has all of it).

    Where melds have identities (rule sets with meld types), the pictures also
    read ``number``, and of a sequence (``rank`` ``None``) its ``suit``, ``low``
    and ``high``, as `canasta.MeldView` has them; where a side holds several
    melds of a rank, ``slot``; a meld without these attributes is drawn as
    before (no number, not a sequence).
    """

    @property
    def rank(self) -> int | None:
        """The meld's kind (``JOKER`` for a wild meld); ``None`` for a sequence."""

    @property
    def cards(self) -> Sequence[Card]:
        """Its cards."""

    @property
    def twos(self) -> int:
        """2s in it."""

    @property
    def jokers(self) -> int:
        """Jokers in it."""

    @property
    def is_canasta(self) -> bool:
        """Whether it is a canasta."""


class SeatObservation(Protocol):
    """What `render_observation_svg` reads of an observation (`canasta.Observation` has all of it)."""

    @property
    def seat(self) -> int:
        """The observing seat."""

    @property
    def side(self) -> int:
        """Its side."""

    @property
    def hand(self) -> Sequence[Card]:
        """Its cards."""

    @property
    def hand_sizes(self) -> Sequence[int]:
        """Cards in each seat's hand."""

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""

    @property
    def pile(self) -> Sequence[Card]:
        """The discard pile, bottom to top."""

    @property
    def pile_frozen(self) -> bool:
        """Whether the pile is frozen for the observer's side."""

    @property
    def melds(self) -> Sequence[Sequence[ObservedMeld]]:
        """Each side's melds."""

    @property
    def threes(self) -> Sequence[Sequence[Card]]:
        """Each seat's laid-out threes."""

    @property
    def set_aside(self) -> Sequence[Sequence[Card]]:
        """Each side's set-aside black threes."""

    @property
    def scores(self) -> Sequence[int]:
        """Each side's total before the hand."""

    @property
    def minimum_needed(self) -> int:
        """The count the observer's side still needs to open (0 once it has)."""

    @property
    def clean_meld_needed(self) -> bool:
        """Whether its opening still lacks a required clean meld."""

    @property
    def acting_seat(self) -> int:
        """The seat that must act."""

    @property
    def phase(self) -> str:
        """The turn phase's name."""

    @property
    def packets_down(self) -> Sequence[Sequence[int]]:
        """Per seat, the sizes of its packets still face down (`canasta.PacketRules`)."""

    @property
    def first_canasta(self) -> Sequence[int]:
        """Per seat, the turn of its first canasta of the hand, or -1; empty where packets are not earned so."""


# --- geometry and colours ---------------------------------------------------------------

WIDTH = 1000
_MARGIN = 16
_PAD = 12
_CARD_W, _CARD_H = 50, 70
_BACK_W, _BACK_H = 34, 48
_LABEL_W = 168  # the seat label column of a panel
_MELD_STEP = 18  # horizontal offset of fanned meld cards: the corner stays readable
_HAND_STEP_MIN, _HAND_STEP_MAX = 20, 46
_HAND_STEP_TIGHT = 22  # below the wide step, at most this: the centre symbol stays hidden
_BACK_STEP = 6
_ROW_GAP = 8
_FONT = "sans-serif"

_FELT = "#1f5c36"
_PANEL = "#256b40"
_PANEL_EDGE = "#17472a"
_OWN_EDGE = "#f2c94c"
_TEXT = "#f5f5f0"
_MUTED = "#cfe5d5"
_RED = "#c62828"
_BLACK = "#1b1b1b"
_JOKER = "#6a1b9a"
_BACK = "#1f4e8c"
_HIGHLIGHT = "#f2c94c"

_SEQUENCE = "#1565c0"  # a sequence canasta's label (a samba or escalera)

_SUIT_SYMBOLS = {Suit.CLUBS: "\u2663", Suit.DIAMONDS: "\u2666", Suit.HEARTS: "\u2665", Suit.SPADES: "\u2660"}
_RANK_LABELS = {11: "J", 12: "Q", 13: "K", 14: "A"}
_NAME_CHARS = 18


# --- what is drawn: a position reduced to what the picture shows --------------------------


@dataclass(frozen=True)
class _Meld:
    rank: int  # SEQUENCE_MELD for a sequence
    cards: tuple[Card, ...]
    wilds: int
    is_canasta: bool
    number: int | None = None  # where melds have identities (rule sets with meld types)
    suit: Suit | None = None  # a sequence's suit and ends
    low: int = 0
    high: int = 0
    meld_type: str | None = None  # a plugin's type of a shape of its own (`canasta.ownshapes`): drawn by its cards
    slot: int | None = None  # which of the side's melds (or books) of its kind (`canasta.MeldView.slot`)


def _drawn(meld: ObservedMeld) -> _Meld:
    """What the picture draws of a meld (`canasta.MeldView`)."""
    cards = tuple(meld.cards)
    wilds = meld.twos + meld.jokers
    number: int | None = getattr(meld, "number", None)  # (read when present: see `ObservedMeld`)
    meld_type: str | None = getattr(meld, "meld_type", None)
    if meld_type is not None:  # a meld of a plugin's type of a shape of its own: its cards as they are
        return _Meld(OWN_MELD, cards, wilds, bool(meld.is_canasta), number, meld_type=meld_type)
    if meld.rank is None:  # a sequence
        suit: Suit | None = getattr(meld, "suit", None)
        low, high = getattr(meld, "low", None) or 0, getattr(meld, "high", None) or 0
        return _Meld(SEQUENCE_MELD, cards, wilds, bool(meld.is_canasta), number, suit, int(low), int(high))
    slot: int | None = getattr(meld, "slot", None)
    return _Meld(int(meld.rank), cards, wilds, bool(meld.is_canasta), number, slot=slot)


def _slot_text(meld: _Meld) -> str:
    """A meld's number as the commands write it (`canasta.commands.slot_mark`): ``'``, ``'2``; a book's ``]1``.

    Empty for meld 0 and book 0 (named by no mark), and where melds carry no number.
    """
    slot = meld.slot
    if not slot:
        return ""
    if meld.is_canasta:
        return f"]{slot}"
    return "'" if slot == 1 else f"'{slot}"


def _slot_tip(meld: _Meld) -> str:
    """The tooltip of a meld with a number (`canasta.MeldView.slot`): ``Q meld 2 (m q…'2)``, ``K book 1 (m k…]1)``."""
    if meld.slot is None:
        return ""
    name = _meld_name(meld.rank)
    what = "book" if meld.is_canasta else "meld"
    mark = _slot_text(meld) or ("]" if meld.is_canasta else "")
    command = f"m {name.lower()}\u2026{mark}" if meld.rank != JOKER else f"m 2\u2026{mark}"
    return f"<title>{escape(f'{name} {what} {meld.slot} ({command})')}</title>"


def _drawn_melds(melds: Sequence[ObservedMeld]) -> tuple[_Meld, ...]:
    """A side's melds in the order drawn: as given, or (melds with numbers) sequences by suit, then groups by rank."""
    drawn = [_drawn(m) for m in melds]
    if not any(m.number is not None for m in drawn):
        return tuple(drawn)  # (by rank, high to low, as observed)
    return tuple(sorted(drawn, key=lambda m: (-m.rank, int(m.suit or 0), m.low, -1 if m.number is None else m.number)))


@dataclass(frozen=True)
class _Seat:
    seat: int
    name: str
    hand: tuple[Card, ...] | None  # None: face down
    size: int
    threes: tuple[Card, ...]
    acting: bool
    observer: bool
    packets: tuple[tuple[str, int], ...] = ()  # (name, size) of each packet still face down
    earned: bool = False  # the next packet is earned (foot-after-first-book: the seat's own first canasta)


@dataclass(frozen=True)
class _Side:
    title: str
    seats: tuple[_Seat, ...]
    score: int
    status: str
    note: str
    melds: tuple[_Meld, ...]
    set_aside: tuple[Card, ...]
    own: bool
    no_melds: str = "no melds yet"


@dataclass(frozen=True)
class _Picture:
    title: str
    subtitle: str
    sides: tuple[_Side, ...]  # top to bottom
    stock_size: int
    pile: tuple[Card, ...]
    frozen: str  # "" when not frozen
    turn: str
    status: tuple[str, ...]


# --- public functions -------------------------------------------------------------------


def render_observation_svg(
    obs: SeatObservation,
    rules: Rules | None = None,
    *,
    names: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """A seat's view of the table as SVG: its hand face up, the other hands face down.

    Args:
        obs: The seat's observation (`canasta.Observation`).
        rules: The rules, for the seating of the sides and the variant's name in
            the title. Without them, seat ``s`` is taken to be on side
            ``s % sides`` (the seating of every built-in variant) and canastas
            are told from the observation alone.
        names: A label per seat (e.g. ``"you"``, ``"greedy"``); missing ones
            are ``"seat N"``. Untrusted text: escaped.
        title: The picture's title (default: the variant's name, or
            ``"canasta"``). Untrusted text: escaped.

    Returns:
        A standalone SVG document.
    """
    players = len(obs.hand_sizes)
    side_count = len(obs.scores)
    sides_of = _seating(rules, players, side_count)
    sides_of[obs.seat] = obs.side
    labels = _labels(names, players)
    seats = [
        _Seat(
            seat=s,
            name=labels[s],
            hand=tuple(obs.hand) if s == obs.seat else None,
            size=obs.hand_sizes[s],
            threes=tuple(obs.threes[s]),
            acting=s == obs.acting_seat,
            observer=s == obs.seat,
            packets=_packets(rules, obs.packets_down[s] if obs.packets_down else ()),
            earned=bool(obs.first_canasta) and obs.first_canasta[s] >= 0,
        )
        for s in range(players)
    ]
    panels = []
    for side in range(side_count):
        own = side == obs.side
        status = _opening_status(obs.minimum_needed, obs.clean_meld_needed) if own else ""
        melds = _drawn_melds(obs.melds[side])
        panels.append(
            _side(side, seats, sides_of, obs.scores[side], status, "", melds, tuple(obs.set_aside[side]), own)
        )
    frozen = "frozen for you" if obs.pile_frozen else ""
    acting = obs.acting_seat
    if obs.phase == "over":
        turn = "the hand is over"
    elif acting == obs.seat:
        turn = f"your turn ({_who(acting, labels)})"
    else:
        turn = f"to play: {_who(acting, labels)}"
    picture = _Picture(
        title=title if title is not None else _rules_title(rules),
        subtitle=f"seat {obs.seat}'s view ({labels[obs.seat]})",
        sides=_order(panels, obs.side),
        stock_size=obs.stock_size,
        pile=tuple(obs.pile),
        frozen=frozen,
        turn=turn,
        status=(f"phase: {obs.phase}",),
    )
    return _draw(picture)


def render_table_svg(
    state: TableState,
    *,
    names: Sequence[str] | None = None,
    title: str | None = None,
    scores: Sequence[int] | None = None,
) -> str:
    """The whole table as SVG, every hand face up (for authors and researchers).

    Args:
        state: The hand (a `canasta.HandState`).
        names: A label per seat; missing ones are ``"seat N"``. Untrusted text: escaped.
        title: The picture's title (default: the variant's name). Untrusted text: escaped.
        scores: Each side's score to show (default: the totals before the hand,
            ``state.scores``); a finished hand is shown with the totals after it
            (`canasta.Game.totals_after`), as the score table beside it.

    Returns:
        A standalone SVG document.

    Raises:
        ValueError: If ``scores`` does not hold one integer per side.
    """
    rules = state.rules
    shown = list(state.scores) if scores is None else list(scores)
    if len(shown) != rules.side_count or not all(isinstance(v, int) and not isinstance(v, bool) for v in shown):
        raise ValueError(f"scores must hold one integer per side ({rules.side_count}), got {shown!r}"[:200])
    cards = state.deck.cards
    players = rules.players
    labels = _labels(names, players)
    seats = [
        _Seat(
            seat=s,
            name=labels[s],
            hand=tuple(state.hand_cards(s)),
            size=state.sizes[s],
            threes=tuple(cards[c] for c in state.threes[s]),
            acting=s == state.seat and not state.is_over,
            observer=False,
            packets=_packets(rules, [len(p) for p in state.packets[s]]),
            earned=rules.packets.after_first_canasta and state.first_canasta[s] >= 0,
        )
        for s in range(players)
    ]
    sides_of = list(rules.sides)
    panels = []
    for side in range(rules.side_count):
        melds = _drawn_melds(meld_views(state, side))  # (books too)
        status = "" if state.is_over else _opening_status(state.minimum_needed(side), state.clean_meld_needed(side))
        note = ""
        if state.regrouped:
            unit = state.seating[rules.seats_of(side)[0]]
            together = [s for s in range(players) if state.seating[s] == unit]
            if len(together) > 1:
                note = "partners this hand: seats " + " + ".join(str(s) for s in together)
        set_aside = tuple(cards[c] for c in state.set_aside[side])
        panel = _side(side, seats, sides_of, shown[side], status, note, melds, set_aside, side == 0)
        unit = state.seating[rules.seats_of(side)[0]]
        if unit != side and not melds:
            kept = _side_name(rules.seats_of(unit))
            panel = dataclasses.replace(panel, no_melds=f"the partnership's melds are kept with {kept}'s")
        panels.append(panel)
    pile_ids = list(state.pile) + (state.pending_pile or [])  # (a take's cards above what it left behind)
    frozen_for = [side for side in range(rules.side_count) if state.pile_frozen_for(side)]
    if not frozen_for:
        frozen = ""
    elif len(frozen_for) == rules.side_count:
        frozen = "frozen"
    else:
        frozen = "frozen for " + ", ".join(_side_name(rules.seats_of(side)) for side in frozen_for)
    if state.is_over:
        turn = "the hand is over"
        if state.went_out is not None:
            how = " concealed" if state.concealed else ""
            turn += f": {_who(state.went_out, labels)} went out{how}"
        elif state.declared is not None:
            turn += f": {_who(state.declared[0], labels)} declared the special hand {state.declared[1]}"
        elif state.end is not None:
            turn += f" ({state.end.value.replace('-', ' ')})"
    else:
        turn = f"to play: {_who(state.seat, labels)}"
    picture = _Picture(
        title=title if title is not None else _rules_title(rules),
        subtitle="the whole table, every hand face up",
        sides=_order(panels, 0),
        stock_size=len(state.stock),
        pile=tuple(cards[c] for c in pile_ids),
        frozen=frozen,
        turn=turn,
        status=(f"phase: {state.phase.value}", f"turn {state.turn + 1}, dealer: seat {state.dealer}"),
    )
    return _draw(picture)


# --- building the picture's content -----------------------------------------------------


def _short(text: str, limit: int) -> str:
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _labels(names: Sequence[str] | None, players: int) -> list[str]:
    given = list(names or ())[:players]
    return [printable(str(n)) for n in given] + [f"seat {s}" for s in range(len(given), players)]


def _who(seat: int, labels: Sequence[str]) -> str:
    """``seat 2`` or ``seat 2, greedy``."""
    name = labels[seat]
    return f"seat {seat}" if name == f"seat {seat}" else f"seat {seat}, {_short(name, _NAME_CHARS)}"


def _seating(rules: Rules | None, players: int, side_count: int) -> list[int]:
    if rules is not None and len(rules.sides) == players:
        return list(rules.sides)
    return [s % side_count for s in range(players)]


def _packets(rules: Rules | None, sizes: Sequence[int]) -> tuple[tuple[str, int], ...]:
    """Each packet still down as (name, size): the last ``len(sizes)`` packets of the rules, the next first."""
    if not sizes:
        return ()
    packets = rules.packets if rules is not None else None
    total = len(packets.sizes) if packets is not None else len(sizes)
    first = total - len(sizes)
    return tuple(
        (packets.name_of(first + i) if packets is not None else f"packet {first + i + 2}", size)
        for i, size in enumerate(sizes)
    )


def _rules_title(rules: Rules | None) -> str:
    if rules is None:
        return "canasta"
    return rules.variant + "".join(f" + {h}" for h in rules.house_rules)


def _side_name(seats: Sequence[int]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + " + ".join(str(s) for s in seats)


def _opening_status(needed: int, clean: bool) -> str:
    if not needed:
        return "has melded"
    if clean:
        count = f"{needed} and " if needed > 1 else ""
        return f"needs {count}a clean meld to open"
    return f"needs {needed} to open"


def _side(
    side: int,
    seats: Sequence[_Seat],
    sides_of: Sequence[int],
    score: int,
    status: str,
    note: str,
    melds: tuple[_Meld, ...],
    set_aside: tuple[Card, ...],
    own: bool,
) -> _Side:
    members = tuple(s for s in seats if sides_of[s.seat] == side)
    title = _side_name([s.seat for s in members]) if members else f"side {side}"
    if own and any(s.observer for s in members):
        title += " (your side)"
    return _Side(title, members, score, status, note, melds, set_aside, own)


def _order(panels: Sequence[_Side], bottom: int) -> tuple[_Side, ...]:
    """Other sides on top (in turn order after the bottom one), the bottom side last."""
    count = len(panels)
    return (*(panels[(bottom + i) % count] for i in range(1, count)), panels[bottom])


def _meld_order(card: Card) -> tuple[int, int, int]:
    kind = int(card.kind)
    group = 2 if kind == JOKER else 1 if kind == TWO else 0
    return group, int(card.suit) if card.suit is not None else 0, card.pack


# --- SVG primitives ---------------------------------------------------------------------


def _text(
    x: int,
    y: int,
    text: str,
    *,
    size: int = 13,
    fill: str = _TEXT,
    weight: str = "normal",
    anchor: str = "start",
    extra: str = "",
) -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    where = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}"{bold}{where}{extra}>{escape(text)}</text>'


def _rect(x: int, y: int, w: int, h: int, *, fill: str, stroke: str = "none", rx: int = 4, width: int = 1) -> str:
    line = f' stroke="{stroke}" stroke-width="{width}"' if stroke != "none" else ""
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}"{line}/>'


def _rank_label(card: Card) -> str:
    return _RANK_LABELS.get(card.rank, str(card.rank))


def _colour(card: Card) -> str:
    if card.suit is None:
        return _JOKER
    return _RED if card.suit.is_red else _BLACK


def _card(x: int, y: int, card: Card, *, edge: str = "#6b6b6b") -> str:
    """A card face up: rank and suit in the corners, the suit (or a star) in the centre."""
    colour = _colour(card)
    title = f"<title>{escape(card.code)}</title>"
    parts = [f'<g transform="translate({x},{y})">', title, _rect(0, 0, _CARD_W, _CARD_H, fill="#ffffff", stroke=edge)]
    if card.suit is None:
        parts.append(_text(10, 16, "\u2605", size=14, fill=colour, anchor="middle"))
        for i, letter in enumerate("JOKER"):
            parts.append(_text(10, 28 + 9 * i, letter, size=9, fill=colour, weight="bold", anchor="middle"))
        parts.append(_text(33, 47, "\u2605", size=26, fill=colour, anchor="middle"))
    else:
        rank = _rank_label(card)
        suit = _SUIT_SYMBOLS[card.suit]
        parts.append(_text(10, 16, rank, size=14, fill=colour, weight="bold", anchor="middle"))
        parts.append(_text(10, 29, suit, size=13, fill=colour, anchor="middle"))
        parts.append(_text(33, 51, suit, size=26, fill=colour, anchor="middle"))
        upside_down = ' transform="rotate(180 40 58)"'
        parts.append(_text(40, 64, rank, size=12, fill=colour, weight="bold", anchor="middle", extra=upside_down))
    parts.append("</g>")
    return "".join(parts)


def _back(x: int, y: int, w: int = _CARD_W, h: int = _CARD_H) -> str:
    """A card face down."""
    return (
        f'<g transform="translate({x},{y})">'
        + _rect(0, 0, w, h, fill=_BACK, stroke="#e8eef7", rx=4)
        + _rect(3, 3, w - 6, h - 6, fill="none", stroke="#8fb0dd", rx=3)
        + f'<path d="M{w // 2} {h // 2 - 9} L{w // 2 + 7} {h // 2} L{w // 2} {h // 2 + 9} L{w // 2 - 7} {h // 2} Z" '
        'fill="#8fb0dd"/>'
        "</g>"
    )


def _text_width(text: str, size: int) -> int:
    """A generous estimate of the width of bold sans-serif text (no font metrics at hand)."""
    units = sum(0.32 if c == " " else 0.74 if c.isupper() or c.isdigit() else 0.62 for c in text)
    return int(units * size + 0.5)


def _pill_width(text: str, size: int = 11) -> int:
    return _text_width(text, size) + 12


def _pill(x: int, y: int, text: str, *, fill: str, colour: str = "#ffffff", size: int = 11) -> tuple[str, int]:
    """A rounded label; returns it and its width."""
    w = _text_width(text, size) + 12
    return _rect(x, y, w, size + 7, fill=fill, rx=(size + 7) // 2) + _text(
        x + w // 2, y + size + 1, text, size=size, fill=colour, weight="bold", anchor="middle"
    ), w


# --- layout -------------------------------------------------------------------------------


def _fan_width(count: int, step: int, card_w: int = _CARD_W) -> int:
    return card_w + step * (count - 1) if count else 0


def _meld_size(meld: _Meld) -> tuple[int, int]:
    if meld.is_canasta:
        width = max(_CARD_W + 6, 84)
        if meld.number is not None:  # the pill and the number beside it
            width = max(width, _pill_width(_canasta_label(meld, len(meld.cards))) + 6 + _number_width(meld.number))
        elif meld.slot:  # the pill and the book's number beside it
            pill = _pill_width(_canasta_label(meld, len(meld.cards)))
            width = max(width, pill + 6 + _text_width(_slot_text(meld), 11))
        return width, _CARD_H + 28
    width = max(_fan_width(len(meld.cards), _MELD_STEP), 56)
    if meld.number is not None or meld.slot:
        width = max(width, _text_width(_meld_label(meld), 12))
    return width, _CARD_H + 24


def _meld_name(rank: int) -> str:
    if rank == JOKER:
        return "wild"
    if rank == int(Kind.BLACK_THREE):
        return "black 3"
    return _RANK_LABELS.get(rank, str(rank))


def _run_name(meld: _Meld) -> str:
    """A sequence's ends: ``5\u2665\u20139\u2665``."""
    suit = _SUIT_SYMBOLS[meld.suit] if meld.suit is not None else ""
    low, high = _RANK_LABELS.get(meld.low, str(meld.low)), _RANK_LABELS.get(meld.high, str(meld.high))
    return f"{low}{suit}\u2013{high}{suit}"


def _meld_label(meld: _Meld) -> str:
    """The caption under a meld's fan: ``K \u00d74``, ``#3 K \u00d74``, ``#4 5\u2665\u20139\u2665``."""
    number = "" if meld.number is None else f"#{meld.number} "
    if meld.rank == SEQUENCE_MELD:
        return number + _run_name(meld)
    if meld.meld_type is not None:
        return f"{number}{meld.meld_type} \u00d7{len(meld.cards)}"
    return f"{number}{_meld_name(meld.rank)}{_slot_text(meld)} \u00d7{len(meld.cards)}"


def _canasta_kind(meld: _Meld) -> str:
    if meld.rank == SEQUENCE_MELD or meld.meld_type is not None:
        return "sequence"  # (a plugin's own type: drawn as a run, by its cards)
    return "wild" if meld.rank == JOKER else "mixed" if meld.wilds else "natural"


def _canasta_label(meld: _Meld, count: int) -> str:
    return f"{meld.meld_type or _canasta_kind(meld)} \u00d7{count}"


def _number_width(number: int) -> int:
    return _text_width(f"#{number}", 11)


def _draw_meld(x: int, y: int, meld: _Meld) -> str:
    if meld.meld_type is not None:
        cards = list(meld.cards)  # (a plugin's own type: as the view orders them)
    elif meld.rank == SEQUENCE_MELD:
        cards = sorted(meld.cards, key=lambda c: (c.rank, c.pack))  # a run, low to high
    else:
        cards = sorted(meld.cards, key=_meld_order)
    parts = []
    tip = f"<title>{escape(_meld_label(meld))}</title>" if meld.number is not None else _slot_tip(meld)
    if tip:
        parts.append(f'<g class="meld">{tip}')
    if meld.is_canasta:
        kind = _canasta_kind(meld)
        top = cards[-1] if kind == "sequence" else _canasta_top(meld, kind, cards)  # (a run's highest card)
        for depth in (3, 2, 1):
            parts.append(_rect(x + 2 * depth, y + 2 * depth, _CARD_W, _CARD_H, fill="#ffffff", stroke="#6b6b6b"))
        parts.append(_card(x, y, top))
        colour = {"natural": _RED, "mixed": _BLACK, "wild": _JOKER, "sequence": _SEQUENCE}[kind]
        pill, width = _pill(x, y + _CARD_H + 10, _canasta_label(meld, len(cards)), fill=colour)
        parts.append(pill)
        if meld.number is not None:
            parts.append(_text(x + width + 4, y + _CARD_H + 21, f"#{meld.number}", size=11, fill=_HIGHLIGHT))
        elif meld.slot:  # book 1, 2... of its rank, as the commands name it (``m k:2]1``)
            parts.append(_text(x + width + 4, y + _CARD_H + 21, _slot_text(meld), size=11, fill=_HIGHLIGHT))
    else:
        for i, card in enumerate(cards):
            parts.append(_card(x + i * _MELD_STEP, y, card))
        if meld.slot:  # meld 1, 2... of its kind: the mark the commands name it by (``Q'2``) in gold
            name = _meld_name(meld.rank)
            parts.append(
                f'<text x="{x}" y="{y + _CARD_H + 16}" font-size="12" fill="{_MUTED}">{escape(name)}'
                f'<tspan fill="{_HIGHLIGHT}">{escape(_slot_text(meld))}</tspan>'
                f"{escape(_meld_label(meld).removeprefix(name + _slot_text(meld)))}</text>"
            )
        elif meld.number is None:
            parts.append(_text(x, y + _CARD_H + 16, _meld_label(meld), size=12, fill=_MUTED))
        else:  # the number (what the terminal commands name) in gold, then the meld
            number = f"#{meld.number}"
            rest = _meld_label(meld).removeprefix(number)
            parts.append(
                f'<text x="{x}" y="{y + _CARD_H + 16}" font-size="12" fill="{_MUTED}">'
                f'<tspan fill="{_HIGHLIGHT}">{number}</tspan>{escape(rest)}</text>'
            )
    if tip:
        parts.append("</g>")
    return "".join(parts)


def _canasta_top(meld: _Meld, kind: str, cards: Sequence[Card]) -> Card:
    """The squared-up canasta's top card: red for natural, black for mixed, a wild card for a wild canasta."""
    if kind == "wild":
        return next((c for c in cards if c.suit is None), cards[0])
    naturals = [c for c in cards if int(c.kind) > TWO]
    want_red = kind == "natural"
    for card in naturals:
        if card.suit is not None and card.suit.is_red == want_red:
            return card
    suit = Suit.HEARTS if want_red else Suit.SPADES
    return Card(meld.rank, suit) if meld.rank > TWO else (naturals or list(cards))[0]


def _flow(items: Sequence[tuple[int, int]], width: int, gap: int = 14) -> tuple[list[tuple[int, int]], int]:
    """Place boxes left to right, wrapping at ``width``; returns their offsets and the total height."""
    places = []
    x = y = row_h = 0
    for w, h in items:
        if x and x + w > width:
            x, y = 0, y + row_h + _ROW_GAP
            row_h = 0
        places.append((x, y))
        x += w + gap
        row_h = max(row_h, h)
    return places, (y + row_h if items else 0)


def _hand_rows(count: int, width: int) -> tuple[int, int]:
    """Cards per row and the step between cards for a face-up hand in ``width``."""
    if count <= 1:
        return max(count, 1), _HAND_STEP_MAX
    step = min(_HAND_STEP_MAX, (width - _CARD_W) // (count - 1))
    if step < _HAND_STEP_MAX:
        step = min(step, _HAND_STEP_TIGHT)
    if step >= _HAND_STEP_MIN:
        return count, step
    per_row = (width - _CARD_W) // _HAND_STEP_MIN + 1
    return per_row, _HAND_STEP_MIN


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, part: str) -> None:
        self.parts.append(part)


def _draw_seat(canvas: _Canvas, x: int, y: int, width: int, seat: _Seat) -> int:
    """One seat's row in its side's panel; returns the row's height."""
    threes_w = _fan_width(len(seat.threes), 22)
    hand_x = x + _LABEL_W
    hand_w = width - _LABEL_W - (threes_w + 16 if threes_w else 0)
    name_colour = _HIGHLIGHT if seat.acting else _TEXT
    marker = "\u25b6 " if seat.acting else ""
    canvas.add(_text(x, y + 16, marker + _short(seat.name, _NAME_CHARS), size=15, weight="bold", fill=name_colour))
    count = f"{seat.size} card{'s' if seat.size != 1 else ''}"
    details = count if seat.name == f"seat {seat.seat}" else f"seat {seat.seat} \u00b7 {count}"
    canvas.add(_text(x, y + 34, details, fill=_MUTED))
    if seat.acting:
        canvas.add(_text(x, y + 51, "to play", size=12, fill=_HIGHLIGHT, weight="bold"))
    height = 56
    for i, (name, size) in enumerate(seat.packets):
        # A packet still face down (Hand and Foot's foot): a card back and its size, nobody sees it.
        py = y + (68 if seat.acting else 51) + 17 * i
        if i == 0 and seat.earned:  # foot-after-first-book: earned by the seat's own first canasta
            canvas.add(_earned_packet(x, py, name, size))
        else:
            canvas.add(_back(x, py - 12, 11, 15))
            canvas.add(_text(x + 16, py, _short(f"{name}: {size} face down", _NAME_CHARS + 4), size=12, fill=_MUTED))
        height = max(height, py - y + 8)
    if seat.hand is not None:
        cards = sorted(seat.hand, key=hand_sort_key)
        per_row, step = _hand_rows(len(cards), hand_w)
        for i, card in enumerate(cards):
            row, col = divmod(i, per_row)
            canvas.add(_card(hand_x + col * step, y + row * (_CARD_H + 6), card))
        rows = (len(cards) + per_row - 1) // per_row
        if not cards:
            canvas.add(_text(hand_x, y + 30, "no cards", fill=_MUTED))
        height = max(height, rows * (_CARD_H + 6) - 6)
    else:
        shown = min(seat.size, 40)
        for i in range(shown):
            canvas.add(_back(hand_x + i * _BACK_STEP, y + 4, _BACK_W, _BACK_H))
        if shown:
            badge_x = hand_x + _fan_width(shown, _BACK_STEP, _BACK_W) + 8
            badge, _ = _pill(badge_x, y + 19, str(seat.size), fill="#0d2f1a")
            canvas.add(badge)
        else:
            canvas.add(_text(hand_x, y + 30, "no cards", fill=_MUTED))
        height = max(height, _BACK_H + 8)
    if seat.threes:
        tx = x + width - threes_w
        for i, card in enumerate(seat.threes):
            canvas.add(_card(tx + i * 22, y, card, edge=_HIGHLIGHT))
        reds = all(c.kind == Kind.RED_THREE for c in seat.threes)
        canvas.add(_text(tx, y + _CARD_H + 14, "red threes" if reds else "threes", size=11, fill=_MUTED))
        height = max(height, _CARD_H + 18)
    return height


def _earned_packet(x: int, y: int, name: str, size: int) -> str:
    """A seat's next packet once earned (`canasta.PacketRules.after_first_canasta`): gold edge, gold caption."""
    tip = f"{printable(name)} earned by a canasta of the player's own: picked up at will before the draw"
    caption = _short(f"{name} earned: {size} down", _NAME_CHARS + 4)
    return (
        f'<g class="packet-earned"><title>{escape(tip)}</title>'
        + _back(x, y - 12, 11, 15)
        + _rect(x - 1, y - 13, 13, 17, fill="none", stroke=_HIGHLIGHT, rx=3, width=2)
        + _text(x + 16, y, caption, size=12, fill=_HIGHLIGHT, weight="bold")
        + "</g>"
    )


def _draw_side(canvas: _Canvas, y: int, side: _Side) -> int:
    """A side's panel; returns its height."""
    x0 = _MARGIN
    inner_x = x0 + _PAD
    inner_w = WIDTH - 2 * _MARGIN - 2 * _PAD
    body = _Canvas()
    cy = y + _PAD
    header = [side.title, f"score {side.score}"]
    body.add(_text(inner_x, cy + 16, header[0], size=16, weight="bold"))
    body.add(_text(inner_x + _text_width(header[0], 16) + 12, cy + 16, header[1], size=15, fill=_HIGHLIGHT))
    right = " \u00b7 ".join(t for t in (side.note, side.status) if t)
    if right:
        body.add(_text(x0 + WIDTH - 2 * _MARGIN - _PAD, cy + 16, right, size=13, fill=_MUTED, anchor="end"))
    cy += 30
    for seat in side.seats:
        cy += _draw_seat(body, inner_x, cy, inner_w, seat) + 10
    items = [_meld_size(m) for m in side.melds]
    if side.set_aside:
        items.append((_fan_width(len(side.set_aside), _MELD_STEP), _CARD_H + 24))
    body.add(_rect(inner_x, cy, inner_w, 1, fill=_PANEL_EDGE, rx=0))
    cy += 10
    if items:
        places, height = _flow(items, inner_w)
        for meld, (dx, dy) in zip(side.melds, places, strict=False):
            body.add(_draw_meld(inner_x + dx, cy + dy, meld))
        if side.set_aside:
            dx, dy = places[-1]
            for i, card in enumerate(side.set_aside):
                body.add(_card(inner_x + dx + i * _MELD_STEP, cy + dy, card))
            count = len(side.set_aside)
            body.add(_text(inner_x + dx, cy + dy + _CARD_H + 16, f"set aside \u00d7{count}", size=12, fill=_MUTED))
        cy += height
    else:
        body.add(_text(inner_x, cy + 16, side.no_melds, fill=_MUTED))
        cy += 22
    height = cy + _PAD - y
    edge = _OWN_EDGE if side.own else _PANEL_EDGE
    canvas.add(_rect(x0, y, WIDTH - 2 * _MARGIN, height, fill=_PANEL, stroke=edge, rx=12, width=2))
    canvas.parts.extend(body.parts)
    return height


def _draw_middle(canvas: _Canvas, y: int, picture: _Picture) -> int:
    """The stock, the pile, whose turn it is; returns the strip's height."""
    x = _MARGIN + 24
    layers = min(4, picture.stock_size)
    for i in range(layers - 1, -1, -1):
        canvas.add(_back(x + 2 * i, y + 2 * i))
    if not picture.stock_size:
        canvas.add(_rect(x, y, _CARD_W, _CARD_H, fill="none", stroke=_MUTED, rx=5))
    canvas.add(_text(x, y + _CARD_H + 24, f"stock \u00b7 {picture.stock_size}", size=13, weight="bold"))
    px = x + 150
    pile = picture.pile
    edge = _RED if picture.frozen else "#6b6b6b"
    if pile:
        for i in range(min(4, len(pile) - 1), 0, -1):
            canvas.add(_rect(px + 2 * i, y + 2 * i, _CARD_W, _CARD_H, fill="#ffffff", stroke="#6b6b6b", rx=4))
        canvas.add(_card(px, y, pile[-1], edge=edge))
    else:
        canvas.add(_rect(px, y, _CARD_W, _CARD_H, fill="none", stroke=_MUTED, rx=5))
        canvas.add(_text(px + _CARD_W // 2, y + 40, "empty", size=11, fill=_MUTED, anchor="middle"))
    canvas.add(_text(px, y + _CARD_H + 24, f"pile \u00b7 {len(pile)}", size=13, weight="bold"))
    if picture.frozen:
        pill, _ = _pill(px + _CARD_W + 18, y + 20, "FROZEN", fill=_RED, size=13)
        canvas.add(pill)
        if picture.frozen != "frozen":
            canvas.add(_text(px + _CARD_W + 18, y + 56, picture.frozen.removeprefix("frozen "), size=12, fill=_TEXT))
    tx = px + 260
    canvas.add(_text(tx, y + 20, picture.turn, size=16, weight="bold", fill=_HIGHLIGHT))
    for i, line in enumerate(picture.status):
        canvas.add(_text(tx, y + 44 + 20 * i, line, size=13, fill=_MUTED))
    return _CARD_H + 34


def _draw(picture: _Picture) -> str:
    canvas = _Canvas()
    y = _MARGIN
    canvas.add(_text(_MARGIN + 4, y + 22, _short(picture.title, 70), size=22, weight="bold"))
    canvas.add(_text(WIDTH - _MARGIN - 4, y + 22, _short(picture.subtitle, 50), size=15, fill=_MUTED, anchor="end"))
    y += 40
    *others, bottom = picture.sides
    for side in others:
        y += _draw_side(canvas, y, side) + 14
    y += 4
    y += _draw_middle(canvas, y, picture) + 12
    y += _draw_side(canvas, y, bottom) + _MARGIN
    height = y
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family={quoteattr(_FONT)} role="img">'
        f"<title>{escape(printable(picture.title))}: {escape(printable(picture.subtitle))}</title>"
        + _rect(0, 0, WIDTH, height, fill=_FELT, rx=0)
    )
    return head + "\n" + "\n".join(canvas.parts) + "\n</svg>\n"
