"""The sequence games' hand score of a side (`SEQUENCES.md` §9.10, §10.6, §10.7, §11.5).

A side scores its melds' cards, a bonus per canasta by class (`canasta.CanastaBonuses`:
natural, mixed, wild, and `sequence` for a samba or escalera), its red threes by the
schedule of `canasta.ThreeRules` with the sign of `canasta.ThreeSign` (Samba and
Bolivia: plus with 2 canastas, Brazilian 1: `ThreeRules.canastas_for_plus`), the
going-out bonus, minus the cards left in its players' hands (a black three at
`canasta.BlackThreeRules.in_hand_penalty`), minus each meld's end penalty
(`canasta.meldtypes.MeldType.end_penalty`: Brazilian's short sequences). The result
is a `canasta.SideScore`, as for every other rule set.

`score_table` scores a finished hand of the engine (`canasta.HandState.score`
calls it for rule sets with meld types); `side_score` is tested on §13's worked
examples S-6, B-5 and R-6.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from canasta.cards import Kind
from canasta.meldtypes import (
    BlackThreeShape,
    GroupShape,
    MeldShape,
    MeldType,
    SequenceShape,
    WildShape,
    has_own_shape,
    judging,
)
from canasta.ownshapes import cards_value
from canasta.rules import CanastaClass, Rules
from canasta.scoring import HandScore, SideScore, three_sign
from canasta.suitedhand import SuitedHand
from canasta.suitedsearch import NATURAL_RANKS

if TYPE_CHECKING:
    from canasta.table import TableState

__all__ = ["meld_value", "side_score"]


def meld_value(meld: MeldShape, values: Sequence[int]) -> int:
    """The count of a meld's cards (the values indexed by `canasta.Kind`).

    Raises:
        TypeError: For a shape of a plugin's own type (its cards are its type's).
    """
    if isinstance(meld, GroupShape):
        return meld.naturals * values[meld.rank] + meld.twos * values[Kind.TWO] + meld.jokers * values[Kind.JOKER]
    if isinstance(meld, SequenceShape):
        return sum(values[rank] for rank in meld.ranks)
    if isinstance(meld, WildShape):
        return meld.twos * values[Kind.TWO] + meld.jokers * values[Kind.JOKER]
    if isinstance(meld, BlackThreeShape):
        return meld.count * values[Kind.BLACK_THREE]
    raise TypeError(f"no card values for a {type(meld).__name__}")


def _hand_value(hand: SuitedHand, rules: Rules) -> int:
    values = rules.card_values
    naturals = sum(n * values[NATURAL_RANKS[i // 4]] for i, n in enumerate(hand.naturals))
    wild = hand.twos * values[Kind.TWO] + hand.jokers * values[Kind.JOKER]
    return naturals + wild + hand.black_threes * rules.black_threes.in_hand_penalty


def _bonus(meld: MeldShape, cls: CanastaClass, rules: Rules) -> int:
    bonuses = rules.canasta_bonuses
    if cls is CanastaClass.SEQUENCE:
        return bonuses.sequence
    if isinstance(meld, WildShape):
        return bonuses.bonus(Kind.JOKER, 0, meld.twos, meld.jokers)
    if isinstance(meld, GroupShape):
        return bonuses.bonus(meld.rank, meld.naturals, meld.twos, meld.jokers)
    return bonuses.mixed if cls is CanastaClass.MIXED else bonuses.natural


def side_score(
    side: int,
    melds: Sequence[MeldShape],
    types: Sequence[MeldType],
    rules: Rules,
    *,
    red_threes: int,
    hands: Sequence[SuitedHand],
    went_out: bool,
) -> SideScore:
    """A side's score for a finished hand of a sequence game.

    Args:
        side: The side's number.
        melds: Its melds as the hand ends.
        types: The rule set's meld types (each meld is judged by the first that judges it).
        rules: The rule set (card values, canasta bonuses, threes, black threes, going out).
        red_threes: The red threes the side laid out.
        hands: The cards left in its players' hands.
        went_out: Whether one of its players went out.

    Returns:
        The side's `canasta.SideScore`.

    Raises:
        ValueError: If a meld is of no type of ``types``.
    """
    values = rules.card_values
    melded = bonuses = penalties = canastas = 0
    for meld in melds:
        kind = judging(types, meld)
        if kind is None:
            raise ValueError(f"no meld type of the rule set judges {meld!r}")
        # (A type of a shape of its own says which cards its meld holds: `canasta.ownshapes`.)
        melded += cards_value(kind.cards_of(meld), values) if has_own_shape(kind) else meld_value(meld, values)
        cls = kind.canasta_class(meld)
        if cls is not None:
            canastas += 1
            bonuses += _bonus(meld, cls, rules)
        penalties -= kind.end_penalty(meld)
    threes = rules.threes
    red = threes.score(red_threes) if red_threes else 0
    red *= three_sign(threes.sign, bool(melds), canastas, threes.canastas_for_plus)
    return SideScore(
        side=side,
        melded_cards=melded,
        canasta_bonuses=bonuses,
        red_threes=red,
        going_out=rules.going_out.bonus if went_out else 0,
        set_aside=0,
        cards_in_hand=-sum(_hand_value(h, rules) for h in hands),
        penalties=penalties,
        canastas=canastas,
    )


def score_table(state: TableState) -> HandScore:
    """Score a finished hand of a rule set with meld types (`canasta.HandState.score` calls it).

    Args:
        state: The hand, which must be over.

    Returns:
        The per-side breakdown (`side_score` for each side).

    Raises:
        ValueError: If the hand is not over.
    """
    from canasta.suitedlegality import hand_of, melds_of  # (that module reads tables; this one scores shapes)

    if state.end is None:
        raise ValueError("the hand is not over yet")
    rules = state.dealt
    sides = []
    for side in range(rules.side_count):
        seats = [s for s in range(rules.players) if state.seating[s] == side]
        red = sum(1 for s in seats for card in state.threes[s] if state.kinds[card] == Kind.RED_THREE)
        went_out = state.went_out is not None and state.seating[state.went_out] == side
        sides.append(
            side_score(
                side,
                list(melds_of(state, side).values()),
                rules.meld_types,
                rules,
                red_threes=red,
                hands=[hand_of(state, s) for s in seats],
                went_out=went_out,
            )
        )
    return HandScore(tuple(sides), state.end.value, state.went_out, state.concealed)
