"""Which addresses and ``Host`` names are loopback: decided by parsing, not by a list of spellings.

`is_loopback` answers for an address to bind (``canasta serve --host``):
``127.0.0.1``, ``127.1``, ``127.0.0.2``, ``::1``, ``0:0:0:0:0:0:0:1``,
``::ffff:127.0.0.1``, ``localhost`` in any case, or any name that resolves
only to loopback addresses. `is_loopback_host` answers for a request's
``Host`` header, without resolving anything (a DNS-rebinding page controls
what its own name resolves to): a loopback address in any spelling, or
``localhost``. This module needs no web framework, so the command line can
ask it before importing one.
"""

from __future__ import annotations

import ipaddress
import re
import socket

__all__ = ["is_loopback", "is_loopback_host", "split_host"]

# The characters of an IPv4 address in the forms inet_aton reads (127.1, 0x7f.1, 017700000001).
_INET_ATON = re.compile(r"[0-9A-Fa-fXx.]{1,40}")

#: Names that are loopback by definition (RFC 6761), whatever a resolver says.
_LOOPBACK_NAMES = ("localhost", "localhost.")


def _loopback_literal(text: str) -> bool | None:
    """Whether an address literal is loopback; ``None`` if ``text`` is not an address literal."""
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    text = text.split("%", 1)[0] if ":" in text else text  # an IPv6 zone (fe80::1%eth0)
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        address = None
    if address is not None:
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            return address.ipv4_mapped.is_loopback
        return address.is_loopback
    if _INET_ATON.fullmatch(text) and text[0].isdigit():
        try:
            packed = socket.inet_aton(text)  # the short and numeric forms: 127.1, 2130706433, 0x7f.1
        except OSError:
            return None
        return packed[0] == 127
    return None


def is_loopback(host: str, *, resolve: bool = True) -> bool:
    """Whether binding to ``host`` listens on the loopback interface only.

    Args:
        host: An address or a host name, as given to ``canasta serve --host``
            (IPv6 possibly in brackets).
        resolve: Resolve a name other than ``localhost`` and answer ``True`` if
            every address it resolves to is loopback.

    Returns:
        ``True`` for a loopback address in any spelling or a loopback name;
        ``False`` for anything else, the empty string (every interface) and a
        name that does not resolve.
    """
    text = host.strip()
    if not text:
        return False
    literal = _loopback_literal(text)
    if literal is not None:
        return literal
    name = text.casefold()
    if name in _LOOPBACK_NAMES:
        return True
    if not resolve:
        return False
    try:
        found = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError, ValueError):
        return False
    addresses = [str(info[4][0]) for info in found]
    return bool(addresses) and all(_loopback_literal(address) is True for address in addresses)


def split_host(header: str) -> str:
    """The host part of a ``Host`` header (``name``, ``address`` or ``[v6]``, port removed), case-folded.

    Args:
        header: The header's value, such as ``127.0.0.1:8000`` or ``[::1]:8000``.

    Returns:
        The host without its port; IPv6 keeps no brackets. ``""`` for a header
        that is not ``host[:port]`` (a port of other than 1 to 5 ASCII digits,
        text after ``]``, as in ``127.0.0.1:80@evil``): no name matches it.
    """
    text = header.strip()
    port = ""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return ""
        host, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                return ""
            port = rest[1:]
    elif text.count(":") == 1:
        host, port = text.split(":", 1)
    else:
        host = text
    if port and not (len(port) <= 5 and port.isascii() and port.isdigit()):
        return ""
    return host.casefold()


def is_loopback_host(header: str) -> bool:
    """Whether a request's ``Host`` header names this machine's loopback (nothing is resolved).

    Args:
        header: The ``Host`` header.

    Returns:
        ``True`` for a loopback address in any spelling (``127.1``,
        ``[0:0:0:0:0:0:0:1]``, ``127.0.0.2``) or ``localhost`` (any case, with
        or without the final dot); ``False`` for any other name.
    """
    host = split_host(header)
    if not host:
        return False
    literal = _loopback_literal(host)
    if literal is not None:
        return literal
    return host in _LOOPBACK_NAMES
