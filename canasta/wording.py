"""Small helpers for the text people read: plurals, printable text, cards, actions, the order of a hand.

Counts get the right plural, untrusted text is made printable, cards and
actions are written as a person reads them (a ten is ``10``, as the pictures
show it), and a hand is shown in one order everywhere.

Records, card codes (``Card.code``: ``TH``) and the command grammar
(`canasta.commands.notation`) keep their formats; these helpers are for what
the terminal and the pages say to a person.
"""

from __future__ import annotations

from canasta.actions import Action, DeclareSpecialHand, Discard, Meld
from canasta.cards import Card, Kind

__all__ = [
    "action_text",
    "card_name",
    "hand_sort_key",
    "kind_name",
    "kind_plural",
    "kind_sort_key",
    "kind_word",
    "plural",
    "printable",
]

_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """A count with its noun in the right number: ``1 card``, ``2 cards``, ``0 cards``.

    Args:
        count: The number.
        noun: The singular noun, e.g. ``"card"`` or ``"wild card"``.
        plural_form: The plural if it is not the noun plus ``s``.

    Returns:
        The count and the noun, e.g. ``"1 natural"``.
    """
    return f"{count} {noun if count == 1 else (plural_form or noun + 's')}"


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


def kind_name(kind: Kind) -> str:
    """A kind's symbol as a person reads it: ``A K Q J 10 9 ... 4``, ``2``, ``*``, ``r3``, ``b3``.

    Args:
        kind: The kind.

    Returns:
        The symbol, ``10`` for a ten (`Kind.symbol` says ``T``, which the command grammar also accepts).
    """
    return "10" if kind == Kind.TEN else kind.symbol


def kind_word(kind: Kind) -> str:
    """A kind as a word, as refusals say it: ``"seven"``, ``"black three"``, ``"joker"``.

    Args:
        kind: The kind.

    Returns:
        Its name in lower case, words apart.
    """
    return kind.name.lower().replace("_", " ")


def kind_plural(kind: Kind) -> str:
    """A kind as a word in the plural: ``"sevens"``, ``"sixes"``, ``"black threes"``.

    Args:
        kind: The kind.

    Returns:
        `kind_word`'s plural.
    """
    name = kind_word(kind)
    return name + ("es" if name.endswith("x") else "s")


def card_name(card: Card) -> str:
    """A card as a person reads it: ``QH``, ``10S``, ``3D``, ``*`` (``Card.code`` writes ``TS``).

    Args:
        card: The card.

    Returns:
        The name.
    """
    code = card.code
    return "10" + code[1:] if code.startswith("T") else code


def action_text(action: Action) -> str:
    """An action as a sentence for a person, tens written ``10`` (``str(action)`` otherwise).

    Args:
        action: The action.

    Returns:
        E.g. ``"discard 10"``, ``"meld 3×10 + 1×joker (tens)"``, ``"draw from the stock"``.
    """
    if isinstance(action, Discard):
        return f"discard {kind_name(action.kind)}"
    if isinstance(action, Meld):
        return action.sentence(kind_name)
    if isinstance(action, DeclareSpecialHand) and action.discard is not None:
        return f"declare the special hand {action.hand}, discarding {kind_name(action.discard)}"
    return str(action)


#: The group of a kind in a shown hand: naturals, then black threes, red threes, 2s, jokers.
_GROUPS = {Kind.JOKER: 4, Kind.TWO: 3, Kind.RED_THREE: 2, Kind.BLACK_THREE: 1}


def kind_sort_key(kind: Kind) -> tuple[int, int]:
    """Where a kind goes in a shown hand: naturals high to low, then black threes, red threes, 2s, jokers.

    This is the order of the SVG pictures (`canasta.render`) and of the terminal.

    Args:
        kind: The kind.

    Returns:
        A sort key.
    """
    return _GROUPS.get(kind, 0), -int(kind)


def hand_sort_key(card: Card) -> tuple[int, int, int, int]:
    """Where a card goes in a shown hand: by `kind_sort_key`, then by rank, suit and pack.

    Args:
        card: The card.

    Returns:
        A sort key.
    """
    return _GROUPS.get(card.kind, 0), -card.rank, int(card.suit) if card.suit is not None else 0, card.pack
