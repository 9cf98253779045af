"""Why an action is refused: the rule code and a sentence naming the rule.

Legality itself is decided by `canasta.legality.legal_actions` (so it is exact
by construction); this module only explains a refusal, checking the rules in
the order a player would think of them, and last SPEC §0: an action the rules
allow is refused when the turn could not be completed after it.
"""

from __future__ import annotations

from canasta.actions import AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand, Meld, TakePile
from canasta.cards import Kind
from canasta.errors import RuleCode
from canasta.legality import allowed_actions, discardable_kinds
from canasta.table import Phase, TableState

__all__ = ["explain"]

_PHASE_OF = {
    DrawStock: "draw",
    TakePile: "draw",
    Meld: "meld",
    Discard: "meld",
    AnswerGoOut: "answer",
}


def explain(state: TableState, action: object) -> tuple[RuleCode, str]:
    """Explain why an action is not legal in a state.

    Args:
        state: The hand.
        action: The refused action.

    Returns:
        ``(code, sentence)``.
    """
    if not isinstance(action, (DrawStock, TakePile, Meld, Discard, AskGoOut, AnswerGoOut, EndHand)):
        return RuleCode.NOT_AN_ACTION, f"{action!r} is not a canasta action"
    if state.phase is Phase.OVER:
        return RuleCode.HAND_OVER, "the hand is over; no action is possible"
    expected = _PHASE_OF.get(type(action))
    if expected is not None and expected != state.phase.value:
        return RuleCode.WRONG_PHASE, f"{action} is not possible now: the turn is in its {state.phase.value} phase"
    if isinstance(action, DrawStock):
        return RuleCode.STOCK_EMPTY, "the stock is empty (SPEC §1 stock exhaustion)"
    if isinstance(action, TakePile):
        return _explain_take(state, action)
    if isinstance(action, Meld):
        return _explain_meld(state, action)
    if isinstance(action, Discard):
        return _explain_discard(state, action)
    if isinstance(action, AskGoOut):
        if action in allowed_actions(state):
            return (
                RuleCode.TURN_CANNOT_COMPLETE,
                "whatever your partner answered, you could not complete the turn (SPEC §0)",
            )
        return (
            RuleCode.PERMISSION_NOT_AVAILABLE,
            "you may ask your partner only once, before melding anything this turn, where the variant has partners",
        )
    if isinstance(action, AnswerGoOut):
        if action.yes:
            return (
                RuleCode.MUST_GO_OUT,
                'after "yes" your partner would have to go out this turn, which is impossible from here (SPEC §1)',
            )
        return (
            RuleCode.TURN_CANNOT_COMPLETE,
            'after "no" your partner could not complete the turn without going out (SPEC §0)',
        )
    if isinstance(action, EndHand):
        if state.bound:
            return RuleCode.MUST_GO_OUT, "your partner said yes: you must go out this turn (SPEC §1 going out)"
        if not state.stock and state.phase is Phase.DRAW:
            return RuleCode.MUST_TAKE_PILE, "the discard matches one of your side's melds: you must take it (SPEC §1)"
        if state.final_meld_only:
            return (
                RuleCode.MINIMUM_NOT_MET,
                "your opening melds do not reach the minimum yet; meld more before the hand ends "
                "(SPEC §1 initial meld)",
            )
        return RuleCode.WRONG_PHASE, "the hand can be ended only when the stock is exhausted"


def _explain_take(state: TableState, action: TakePile) -> tuple[RuleCode, str]:
    pile_rules = state.rules.pile
    side = state.side
    if not state.pile:
        return RuleCode.PILE_EMPTY, "the discard pile is empty"
    top = Kind(state.kinds[state.pile[-1]])
    if top in pile_rules.blocked_top or not top.is_natural:
        return RuleCode.PILE_BLOCKED, f"the pile may not be taken while a {top.name.lower()} is on top (SPEC §1)"
    if pile_rules.one_card_rule and state.sizes[state.seat] == 1 and len(state.pile) == 1:
        return RuleCode.ONE_CARD_RULE, "holding one card, you may not take a pile of one card (SPEC §1)"
    if not state.opened[side] and not pile_rules.unmelded_side_may_take:
        return RuleCode.PILE_NOT_MELDED, "your side must meld from the hand before it may take the pile"
    counts = state.counts[state.seat]
    wild_shown = action.twos + action.jokers
    if state.pile_frozen_for(side) and (action.naturals != 2 or wild_shown):
        return (
            RuleCode.PILE_FROZEN,
            "the pile is frozen for your side: take it only with a natural pair of the top card's rank",
        )
    if action.naturals > counts[top] or action.twos > counts[Kind.TWO] or action.jokers > counts[Kind.JOKER]:
        return RuleCode.CARDS_NOT_IN_HAND, f"you do not hold the cards to show ({action})"
    if not (action.naturals or wild_shown):
        if top not in state.melds[side]:
            return RuleCode.PILE_NEEDS_MATCH, "your side has no meld of the top card's rank to add it to"
        if not pile_rules.layoff:
            return RuleCode.PILE_NEEDS_MATCH, "in this variant the pile is taken only with a natural pair"
    if (action.naturals, action.twos, action.jokers) not in ((2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 0, 0)):
        return RuleCode.PILE_NEEDS_MATCH, "show a natural pair, or one natural and one wild card, or nothing (layoff)"
    existing = state.melds[side].get(int(top))
    n0, t0, j0 = (existing.naturals, existing.twos, existing.jokers) if existing else (0, 0, 0)
    if state.rules.melds.is_valid(int(top), n0 + 1 + action.naturals, t0 + action.twos, j0 + action.jokers):
        # The meld is fine: the take fails because the turn could not be completed after it.
        return _explain_incomplete(state, "this take")
    return RuleCode.INVALID_MELD, "the top card and the shown cards would not make a legal meld"


def _explain_incomplete(state: TableState, what: str) -> tuple[RuleCode, str]:
    """SPEC §0: the rules allow the action, but the turn could not be completed after it."""
    side = state.side
    if state.bound:
        return (
            RuleCode.MUST_GO_OUT,
            f"your partner said yes: after {what} you could not go out this turn (SPEC §1 going out)",
        )
    if not state.opened[side]:
        return (
            RuleCode.MINIMUM_NOT_MET,
            f"after {what} your side could not complete its initial meld of "
            f"{state.personal_minimum(state.seat)} this turn and then end the turn (SPEC §0, §1 initial meld)",
        )
    return _explain_going_out(state, f"after {what} you could end the turn only by going out")


def _explain_meld(state: TableState, action: Meld) -> tuple[RuleCode, str]:
    counts = state.counts[state.seat]
    rank = int(action.rank)
    if min(action.naturals, action.twos, action.jokers) < 0 or action.naturals + action.twos + action.jokers == 0:
        return RuleCode.INVALID_MELD, "a meld action must add at least one card"
    needed = {rank: action.naturals}
    needed[int(Kind.TWO)] = needed.get(int(Kind.TWO), 0) + action.twos
    needed[int(Kind.JOKER)] = needed.get(int(Kind.JOKER), 0) + action.jokers
    if any(counts[k] < c for k, c in needed.items() if c):
        return RuleCode.CARDS_NOT_IN_HAND, f"you do not hold the cards for {action}"
    meld_rules = state.rules.melds
    if action.rank == Kind.RED_THREE or action.rank == Kind.TWO:
        return RuleCode.INVALID_MELD, "red threes and 2s are never melded as a rank (SPEC §1 melds)"
    if action.rank == Kind.JOKER and not meld_rules.wild_melds:
        return RuleCode.WILD_MELD, "wild cards alone never meld in this variant (SPEC §1 melds)"
    if action.rank == Kind.BLACK_THREE:
        return (
            RuleCode.BLACK_THREE_MELD,
            "black threes meld only when going out, 3 or 4 of them with no wild card, as the last meld (SPEC §1)",
        )
    existing = state.melds[state.side].get(rank)
    n0, t0, j0 = (existing.naturals, existing.twos, existing.jokers) if existing else (0, 0, 0)
    n, t, j = n0 + action.naturals, t0 + action.twos, j0 + action.jokers
    if not meld_rules.is_valid(rank, n, t, j):
        if meld_rules.max_size is not None and n + t + j > meld_rules.max_size:
            return RuleCode.MELD_CLOSED, f"a meld may hold at most {meld_rules.max_size} cards"
        return (
            RuleCode.INVALID_MELD,
            f"a meld needs {meld_rules.min_size}+ cards with at least {meld_rules.min_naturals} naturals "
            f"and at most {meld_rules.max_wilds} wild cards (SPEC §1 melds); {action} would give "
            f"{n} naturals and {t + j} wild cards",
        )
    if state.bound or not state.opened[state.side]:
        return _explain_incomplete(state, "this meld")
    if state.sizes[state.seat] - action.naturals - action.twos - action.jokers <= 1:
        return _explain_going_out(state, "after this meld you could end the turn only by going out")
    return (
        RuleCode.TURN_CANNOT_COMPLETE,
        "after this meld you could not end the turn: no card you kept could be discarded and going out "
        "is not possible (SPEC §0)",
    )


def _explain_discard(state: TableState, action: Discard) -> tuple[RuleCode, str]:
    counts = state.counts[state.seat]
    if counts[action.kind] == 0:
        return RuleCode.CARDS_NOT_IN_HAND, f"you hold no {action.kind.name.lower()}"
    if not discardable_kinds(state.rules, state.turn)[action.kind]:
        return RuleCode.CANNOT_DISCARD, f"a {action.kind.name.lower()} may not be discarded now"
    if state.final_meld_only:
        return RuleCode.CANNOT_DISCARD, "after a red three as the last stock card you may not discard"
    if state.sizes[state.seat] == 1:
        return _explain_going_out(state, "discarding your last card goes out")
    if state.bound:
        return RuleCode.MUST_GO_OUT, "your partner said yes: you must go out this turn (SPEC §1 going out)"
    return (
        RuleCode.MINIMUM_NOT_MET,
        f"your opening melds count {state.provisional_count}, below the minimum of "
        f"{state.personal_minimum(state.seat)}; meld more before you discard (SPEC §1 initial meld)",
    )


def _explain_going_out(state: TableState, what: str) -> tuple[RuleCode, str]:
    """Why going out is not allowed now (SPEC.md §1 "Going out")."""
    side = state.side
    if state.answer is False:
        return RuleCode.GOING_OUT_REFUSED, f"{what}, but your partner said no: you may not go out this turn"
    need = state.rules.going_out.canastas_required
    if state.canastas(side) < need:
        return (
            RuleCode.GOING_OUT_NOT_ALLOWED,
            f"{what}, which needs {need} canasta(s) on your side's table (SPEC §1 going out)",
        )
    if not state.opened[side]:
        return (
            RuleCode.MINIMUM_NOT_MET,
            f"{what}, but your melds count {state.provisional_count}, below the minimum of "
            f"{state.personal_minimum(state.seat)}, and going out concealed is open only to a player who drew "
            "from the stock "
            "(SPEC §1 initial meld)",
        )
    return RuleCode.GOING_OUT_NOT_ALLOWED, f"{what}, which is not allowed now (SPEC §1 going out)"
