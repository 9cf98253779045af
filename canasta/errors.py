"""Typed errors with stable codes.

Every refusal carries a `RuleCode` (stable, for programs) and a sentence naming
the rule (for people). Catch `CanastaError` to catch them all.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "CanastaError",
    "IllegalActionError",
    "InvalidPositionError",
    "PluginError",
    "RuleCode",
    "RulesError",
    "UnknownNameError",
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
    MINIMUM_NOT_MET = "minimum-not-met"
    CLEAN_MELD_REQUIRED = "clean-meld-required"
    CANNOT_DISCARD = "cannot-discard"
    GOING_OUT_NOT_ALLOWED = "going-out-not-allowed"
    GOING_OUT_REFUSED = "going-out-refused"
    MUST_GO_OUT = "must-go-out"
    PERMISSION_NOT_AVAILABLE = "permission-not-available"
    #: SPEC §0: the rules allow the action, but the turn could not be completed after it.
    TURN_CANNOT_COMPLETE = "turn-cannot-complete"
    NOT_AN_ACTION = "not-an-action"
    ILLEGAL = "illegal"


class CanastaError(Exception):
    """Base class of every error this library raises on purpose."""


class IllegalActionError(CanastaError):
    """An action broke a rule. The state is unchanged.

    Attributes:
        code: The stable rule code.
        action: The refused action.
        message: A sentence naming the rule.
    """

    def __init__(self, code: RuleCode, message: str, action: object = None) -> None:
        super().__init__(f"[{code.value}] {message}")
        self.code = code
        self.message = message
        self.action = action


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
