"""Why a player may not go out now, as a refusal's code and sentence (the rule book's "Going out").

Both families' explanations end here where an action the rules allow leaves going
out as the only way to end the turn, and going out is not possible
(`canasta.explain`, `canasta.suitedexplain`).
"""

from __future__ import annotations

from canasta.cards import Kind
from canasta.errors import RuleCode
from canasta.legality import blocking_melds
from canasta.rules import Permission
from canasta.table import TableState
from canasta.wording import kind_plural

__all__ = ["going_out_refusal", "minimum_text"]


def minimum_text(state: TableState) -> str:
    """The acting seat's minimum as a refusal names it: with the deal's number where the table is by deal.

    Args:
        state: The hand.

    Returns:
        ``"50"``, or ``"90 (deal 2)"`` where the table is by deal.
    """
    minimum = state.personal_minimum(state.seat)
    return f"{minimum} (deal {state.deal_number})" if state.facts.minimums_by_deal else str(minimum)


def going_out_refusal(
    state: TableState, what: str, otherwise: tuple[RuleCode, str] | None = None
) -> tuple[RuleCode, str]:
    """Why going out is not allowed now (the rule book's "Going out").

    Args:
        state: The hand.
        what: What leaves going out as the only way on, as the sentence's start
            (``"after this meld you could end the turn only by going out"``).
        otherwise: The refusal where none of the rules of going out named here refuses it (the
            caller knows why: the sequence games' cards could not all be melded); by default
            ``going-out-not-allowed``, "which is not allowed now".

    Returns:
        ``(code, sentence)``.
    """
    side = state.side
    if state.answer is False:
        return RuleCode.GOING_OUT_REFUSED, f"{what}, but your partner said no: you may not go out this turn"
    if state.rules.going_out.permission is Permission.REQUIRED and state.answer is not True:
        return RuleCode.GOING_OUT_NOT_ALLOWED, f'{what}, which needs your partner\'s "yes" this turn: ask first'
    if state.packets[state.seat]:
        # (Emptying the hand with a packet down picks the packet up: only its last card can be refused here.)
        return RuleCode.GOING_OUT_NOT_ALLOWED, f"{what}, which needs your last packet picked up first"
    if state.facts.partners_first and not state.partners_in_last_packet(state.seat):
        return (
            RuleCode.GOING_OUT_NOT_ALLOWED,
            f"{what}, which needs every partner to have picked up their last packet (a foot is still down)",
        )
    going_out = state.rules.going_out
    if not state.quota_met(side):
        return (
            RuleCode.GOING_OUT_NOT_ALLOWED,
            f"{what}, which needs {going_out.quota_text()} on your side's table",
        )
    blocking = blocking_melds(state, side)
    if blocking:
        names = " and ".join(
            "the wild meld" if r == Kind.JOKER else f"the natural {kind_plural(Kind(r))}" for r in blocking
        )
        return (
            RuleCode.GOING_OUT_NOT_ALLOWED,
            f"{what}, but your side may not go out while {names} on its table "
            f"{'is' if len(blocking) == 1 else 'are'} not yet a canasta",
        )
    if not state.opened[side]:
        concealed = (
            "going out concealed is open only to a player who drew from the stock"
            if state.rules.initial_meld.concealed_exemption
            else "going out needs the initial meld like any opening"
        )
        return (
            RuleCode.MINIMUM_NOT_MET,
            f"{what}, but your melds count {state.provisional_count}, below the minimum of "
            f"{minimum_text(state)}, and {concealed}",
        )
    if otherwise is not None:
        return otherwise
    return RuleCode.GOING_OUT_NOT_ALLOWED, f"{what}, which is not allowed now"
