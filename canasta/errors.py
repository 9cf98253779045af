"""Typed errors with stable codes.

Every refusal carries a `RuleCode` (stable, for programs), a sentence naming
the rule (for people) and, where the rules are known, the `RuleSection` of the
rule book that states the rule. Catch `CanastaError` to catch them all.
"""

from __future__ import annotations

import copy
import pickle
import re
from enum import StrEnum

from attrs import field, frozen

__all__ = [
    "CanastaError",
    "IllegalActionError",
    "InvalidPositionError",
    "PluginError",
    "RuleCode",
    "RuleSection",
    "RulesError",
    "StandIn",
    "UnknownNameError",
    "short_repr",
]


class RuleCode(StrEnum):
    """Stable codes for refused actions. The value is the code's text."""

    WRONG_PHASE = "wrong-phase"
    NOT_YOUR_TURN = "not-your-turn"
    HAND_OVER = "hand-over"
    STOCK_EMPTY = "stock-empty"
    PILE_EMPTY = "pile-empty"
    PILE_BLOCKED = "pile-blocked"
    PILE_FROZEN = "pile-frozen"
    PILE_NOT_MELDED = "pile-side-not-melded"
    PILE_NEEDS_MATCH = "pile-needs-match"
    ONE_CARD_RULE = "one-card-rule"
    MUST_TAKE_PILE = "must-take-pile"
    CARDS_NOT_IN_HAND = "cards-not-in-hand"
    INVALID_MELD = "invalid-meld"
    WILD_MELD = "wild-meld-not-allowed"
    BLACK_THREE_MELD = "black-three-meld"
    MELD_CLOSED = "meld-closed"
    #: A rank closed for the rest of the hand (a meld of it reached canasta size, house rule dead-ranks).
    RANK_CLOSED = "rank-closed"
    #: A meld that takes wild cards only in its side's opening turn (house rule aces-pure).
    NATURAL_LOCKED = "natural-locked"
    #: A wild card refused by the rule of five (house rule rule-of-five).
    RULE_OF_FIVE = "rule-of-five"
    #: A special hand's declaration refused (house rule american-special-hands: when one may be declared).
    SPECIAL_HAND = "special-hand"
    #: Laying out a kept three refused (house rule american-special-hands: keeping a three).
    KEPT_THREE = "kept-three"
    #: A packet not yet earned (`canasta.PacketRules.after_first_canasta`, Hand and Foot's
    #: foot-after-first-book): picked up, or the hand emptied, before the player's first canasta.
    PACKET_NOT_EARNED = "packet-not-earned"
    MINIMUM_NOT_MET = "minimum-not-met"
    CLEAN_MELD_REQUIRED = "clean-meld-required"
    CANNOT_DISCARD = "cannot-discard"
    #: A wild card discarded when the hand was not all wild after the stock draw (house rule american-discards).
    WILD_DISCARD = "wild-discard"
    #: A stop card (ace, seven, wild card, closed rank) discarded onto an empty pile while a plain card is held
    #: (house rule american-discards).
    EMPTY_PILE_DISCARD = "empty-pile-discard"
    #: With the pile empty, a meld or pile take that would leave no plain card in the hand (house rule
    #: american-discards).
    NO_PLAIN_CARD = "no-plain-card"
    GOING_OUT_NOT_ALLOWED = "going-out-not-allowed"
    GOING_OUT_REFUSED = "going-out-refused"
    MUST_GO_OUT = "must-go-out"
    PERMISSION_NOT_AVAILABLE = "permission-not-available"
    #: The rules allow the action, but the turn could not be completed after it (what "legal" means).
    TURN_CANNOT_COMPLETE = "turn-cannot-complete"
    NOT_AN_ACTION = "not-an-action"
    ILLEGAL = "illegal"


_ANCHOR = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*")


def _anchor(instance: object, attribute: object, value: str) -> None:
    if not isinstance(value, str) or not _ANCHOR.fullmatch(value):
        raise ValueError(f"RuleSection.id must be a heading anchor such as 'discard-pile', got {value!r}")


def _text(instance: object, attribute: object, value: str) -> None:
    name = getattr(attribute, "name", "value")
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"RuleSection.{name} must be a non-empty string, got {value!r}")
    if name == "page" and ("#" in value or any(c.isspace() for c in value)):
        raise ValueError(f"RuleSection.page is a page without its anchor (put the anchor in id), got {value!r}")


@frozen
class RuleSection:
    """A section of a rule book: where the rule behind a `RuleCode` is written.

    The built-in variants and house rules point into this project's rule book
    (``docs/rules/``); a third-party variant may point to any page, its own
    documentation or a public rule text (see the hook ``canasta_rule_sections``).

    Attributes:
        id: The section's heading anchor, e.g. ``"discard-pile"``.
        title: The section's heading, e.g. ``"The discard pile"``.
        page: The page, without the anchor: a path in the docs site
            (``"rules/classic.md"``) or an absolute URL (``"https://..."``).
        book: Whose rules these are, as the reader should see it, e.g.
            ``"rules of classic"`` or ``"house rule black-three-freezes"``.
    """

    id: str = field(validator=_anchor)
    title: str = field(validator=_text)
    page: str = field(validator=_text)
    book: str = field(validator=_text)

    @property
    def path(self) -> str:
        """The page and the anchor, e.g. ``"rules/classic.md#discard-pile"``."""
        return f"{self.page}#{self.id}"

    @property
    def url(self) -> str:
        """Where the section is in the built docs site, relative to the site's root.

        A Markdown page becomes its directory URL, the way the site is built
        (``"rules/classic.md"`` gives ``"rules/classic/#discard-pile"``;
        ``"rules/index.md"`` gives ``"rules/#legal"``); an absolute URL is kept.
        """
        page = self.page
        if "://" not in page and page.endswith(".md"):
            page = page[: -len(".md")]
            page = page[: -len("index")] if page == "index" or page.endswith("/index") else page + "/"
        return f"{page}#{self.id}"

    @property
    def citation(self) -> str:
        """How a message cites the section, e.g. ``rules of classic, "The frozen pile"``."""
        return f'{self.book}, "{self.title}"'


def _rebuild_error(cls: type[CanastaError], args: tuple[object, ...], fields: dict[str, object]) -> CanastaError:
    """An error of ``cls`` with these ``args`` and attributes, made without calling its ``__init__`` (unpickling)."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(fields)
    return error


class StandIn:
    """Stands, in a pickled error, for a value the error referred to that cannot be pickled.

    A refusal keeps the value it refused (`IllegalActionError.action`), which
    may be anything a caller passed: a lambda, an instance of a class that only
    exists in one process. Pickled, such a value travels as a `StandIn` whose
    ``repr`` is the value's (its type's name if that ``repr`` raised), so the
    error and its message still reach the other process.

    Attributes:
        text: The value's ``repr``.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        """Create the stand-in.

        Args:
            text: The ``repr`` of the value it stands for.
        """
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StandIn) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[object, ...]:
        return (StandIn, (self.text,))


def _travelling(value: object) -> object:
    """``value`` if it can be pickled, else a `StandIn` with its repr."""
    try:
        pickle.dumps(value)
    except Exception:  # anything a hostile value's __reduce__ may raise
        try:
            text = repr(value)
        except Exception:  # a hostile __repr__ too
            text = f"<{type(value).__name__} object>"
        return StandIn(text)
    return value


def short_repr(value: object, limit: int = 120) -> str:
    """A short repr of an untrusted value, for messages (a repr may raise, or be huge).

    Args:
        value: Anything a caller or a plugin gave.
        limit: Most characters.

    Returns:
        ``repr(value)``, cut to ``limit``; the type's name if the repr raises.
    """
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not replace the real error
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class CanastaError(Exception):
    """Base class of every error this library raises on purpose.

    Every error of the library survives `pickle` and `copy` with its message
    and its attributes (``code``, ``action``, ``where``, ...), whatever its
    ``__init__`` takes: raised in a worker process, it reaches the parent as
    itself (``concurrent.futures`` pickles it), not as a ``BrokenProcessPool``.
    A value it refers to that cannot be pickled (a refused lambda) is pickled
    as a `StandIn` holding its ``repr``.
    """

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by state: the class, ``args`` and the attributes, not ``__init__``'s arguments.

        ``Exception``'s own reduction calls ``cls(*args)`` again, which fails for
        an error whose ``__init__`` takes other arguments than its ``args``
        (`IllegalActionError`, `canasta.records.RecordError`).

        Returns:
            The reduction ``(rebuild, (class, args, attributes))``.
        """
        args = tuple(_travelling(arg) for arg in self.args)
        fields = {name: _travelling(value) for name, value in self.__dict__.items()}
        return (_rebuild_error, (type(self), args, fields))

    def __copy__(self) -> CanastaError:
        """A copy with the same ``args`` and attributes (the values themselves, as `copy.copy` does)."""
        return _rebuild_error(type(self), self.args, dict(self.__dict__))

    def __deepcopy__(self, memo: dict[int, object]) -> CanastaError:
        """A copy with deep copies of ``args`` and attributes (a value that cannot be copied is kept as it is)."""
        try:
            args = copy.deepcopy(self.args, memo)
            fields = copy.deepcopy(self.__dict__, memo)
        except Exception:  # a hostile value that refuses to be copied: keep the values themselves
            args, fields = self.args, dict(self.__dict__)
        return _rebuild_error(type(self), args, fields)


class IllegalActionError(CanastaError):
    """An action broke a rule. The state is unchanged.

    ``str(error)`` is ``"[code] message"``, for example ``[pile-frozen] the pile
    is frozen for your side: ... (rules of classic, "The frozen pile")``.

    Attributes:
        code: The stable rule code.
        action: The refused action.
        reason: A sentence naming the rule, without the citation.
        section: The section of the rule book that states the rule, for the
            game's variant and house rules (``None`` when the rules are not
            known, e.g. for rules built by hand without sections).
        message: The reason followed by the citation of the section, in
            parentheses (the reason alone when there is no section).
    """

    def __init__(
        self, code: RuleCode, message: str, action: object = None, *, section: RuleSection | None = None
    ) -> None:
        """Create the error.

        Args:
            code: The stable rule code.
            message: A sentence naming the rule (the citation is added from
                ``section``).
            action: The refused action.
            section: The rule book's section for the rule, if known.
        """
        self.code = code
        self.reason = message
        self.section = section
        self.message = f"{message} ({section.citation})" if section is not None else message
        self.action = action
        super().__init__(f"[{code.value}] {self.message}")


class InvalidPositionError(CanastaError):
    """An explicit position (or record) is malformed or impossible."""


class RulesError(CanastaError):
    """A variant's hooks gave an invalid or missing answer."""


class PluginError(CanastaError):
    """A plugin failed to load or misbehaved; the message names it."""


class UnknownNameError(CanastaError, KeyError):
    """No variant or house rule has the requested name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown name"
