"""Small helpers for the text people read: counts with the right plural, untrusted text made printable."""

from __future__ import annotations

__all__ = ["plural", "printable"]

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
