"""A hand's score as lines a person reads: each non-zero part, with the rule that made it.

`score_lines` turns a `canasta.HandScore` into `ScoreLine` rows for the
terminal's score table and the web page's alike, so the wording lives in one
place. A row is given only when some side scores it (a part a variant cannot
produce, such as Cuban's set-aside threes in classic, never shows), and every
side's non-zero value comes with a reason naming its rule: ``penalties -1500``
in the modern American club game reads "seat 1 held 3 sevens at the end (3 or
more cost 1500) -1500".

The reasons are read from the finished hand when it is given (which melds were
canastas, who held what); without it a row still says which rule it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from canasta.cards import KIND_COUNT, Kind
from canasta.rules import Rules, ThreeSign
from canasta.scoring import HandScore, SideScore
from canasta.table import TableState
from canasta.wording import plural

__all__ = ["NOTED", "ROWS", "ScoreLine", "describe_end", "score_lines"]

#: The parts of a side's score, in the order shown: (`SideScore` field, label).
ROWS: tuple[tuple[str, str], ...] = (
    ("melded_cards", "melded cards"),
    ("canasta_bonuses", "canasta bonuses"),
    ("red_threes", "bonus threes"),
    ("going_out", "going out"),
    ("set_aside", "set-aside black threes"),
    ("cards_in_hand", "cards left in hand"),
    ("penalties", "penalties"),
    ("special_hand", "special hand"),
)

#: The parts whose reasons a short display spells out under the score (the others' labels say it all:
#: melded cards and cards left in hand count their point values, going out its bonus).
NOTED: frozenset[str] = frozenset({"canasta_bonuses", "red_threes", "set_aside", "penalties", "special_hand"})

_BLACK_THREE = int(Kind.BLACK_THREE)


@dataclass(frozen=True)
class ScoreLine:
    """One part of a hand's score, for every side.

    Attributes:
        key: The `canasta.SideScore` field (``"penalties"``).
        label: What the row is called (``"penalties"``).
        values: Each side's value.
        reasons: For each side, why it scored its value: ``""`` where the value is 0.
    """

    key: str
    label: str
    values: tuple[int, ...]
    reasons: tuple[str, ...]


def _kind_word(kind: int, count: int = 2) -> str:
    name = Kind(kind).name.lower().replace("_", " ")
    if count == 1:
        return name
    return name + ("es" if name.endswith("x") else "s")


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _unit_seats(state: TableState, rules: Rules, side: int) -> list[int]:
    """The seats whose cards count for ``side`` (its unit at the table, as scoring counts them)."""
    unit = state.seating[rules.seats_of(side)[0]]
    return [s for s in range(rules.players) if state.seating[s] == unit]


def _melded(side: SideScore, state: TableState | None, rules: Rules) -> str:
    if state is None:
        return f"the point values of the side's melded cards: {_signed(side.melded_cards)}"
    unit = state.seating[rules.seats_of(side.side)[0]]
    count = sum(m.size for m in state.all_melds(unit))
    return f"the point values of the {plural(count, 'card')} in the side's melds: {_signed(side.melded_cards)}"


def _canastas(side: SideScore, state: TableState | None, rules: Rules) -> str:
    if state is None:
        return f"{plural(side.canastas, 'canasta')}: {_signed(side.canasta_bonuses)}"
    unit = state.seating[rules.seats_of(side.side)[0]]
    size = rules.melds.canasta_size
    parts = []
    for meld in sorted(state.all_melds(unit), key=lambda m: -m.rank):
        if meld.size < size:
            continue
        bonus = rules.canasta_bonuses.bonus(meld.rank, meld.naturals, meld.twos, meld.jokers)
        what = "wild" if meld.rank == int(Kind.JOKER) else ("natural" if not (meld.twos or meld.jokers) else "mixed")
        target = "wild cards" if meld.rank == int(Kind.JOKER) else _kind_word(meld.rank)
        parts.append(f"{what} canasta of {target} {_signed(bonus)}")
    return "; ".join(parts) if parts else f"{plural(side.canastas, 'canasta')}: {_signed(side.canasta_bonuses)}"


def _threes(side: SideScore, state: TableState | None, rules: Rules) -> str:
    sign = rules.threes.sign
    if side.red_threes > 0:
        why = ""
    elif sign is ThreeSign.NEGATIVE_WITHOUT_MELD:
        why = " (against a side that made no meld)"
    elif sign is ThreeSign.NEGATIVE_WITHOUT_CANASTA:
        why = " (against a side without a canasta)"
    elif sign is ThreeSign.ALWAYS_NEGATIVE:
        why = " (against the side, always)"
    elif sign is ThreeSign.ALWAYS_POSITIVE or rules.packets.three_down:
        why = " (with those still down in a packet)"
    else:
        why = " (against a side with no canasta; nothing with one)"
    if state is None:
        return f"bonus threes{why} {_signed(side.red_threes)}"
    cards = [state.kinds[c] for s in _unit_seats(state, rules, side.side) for c in state.threes[s]]
    red = sum(1 for k in cards if k == int(Kind.RED_THREE))
    black = len(cards) - red
    held = [plural(red, "red three")] if red else []
    if black:
        held.append(plural(black, "black three"))
    return f"{' and '.join(held) or 'bonus threes'} laid out{why} {_signed(side.red_threes)}"


def _going_out(side: SideScore, score: HandScore, rules: Rules) -> str:
    how = "concealed (in one turn, no meld before)" if score.concealed else ""
    who = f"seat {score.went_out}" if score.went_out is not None else "the side"
    bonus = "the concealed going-out bonus" if score.concealed else "the going-out bonus"
    return f"{who} went out{' ' + how if how else ''}: {bonus} {_signed(side.going_out)}"


def _set_aside(side: SideScore, rules: Rules) -> str:
    schedule = ", ".join(str(v) for v in rules.black_threes.set_aside_schedule[1:])
    return f"black threes set aside from taken piles, scored by their count ({schedule}): {_signed(side.set_aside)}"


def _in_hand(side: SideScore, state: TableState | None, rules: Rules) -> str:
    if state is None:
        return f"the point values of the cards left in the side's hands count against it: {side.cards_in_hand}"
    count = sum(state.sizes[s] for s in _unit_seats(state, rules, side.side))
    return f"{plural(count, 'card')} left in hand, their point values counted against the side: {side.cards_in_hand}"


def _penalties(side: SideScore, state: TableState | None, rules: Rules) -> str:
    if state is None:
        return f"penalties of the rules (incomplete melds, cards held): {side.penalties}"
    parts: list[str] = []
    explained = 0
    unit = state.seating[rules.seats_of(side.side)[0]]
    meld_penalties = {int(k): p for k, p in rules.incomplete_meld_penalties}
    natural_penalties = {int(k): p for k, p in rules.incomplete_natural_meld_penalties}
    size = rules.melds.canasta_size
    for meld in sorted(state.melds[unit].values(), key=lambda m: -m.rank):
        if meld.size >= size or (meld.rank == _BLACK_THREE and rules.black_threes.melded_count_with_set_aside):
            continue
        cost = meld_penalties.get(meld.rank, 0)
        if not (meld.twos or meld.jokers):
            cost += natural_penalties.get(meld.rank, 0)
        if cost:
            explained += cost
            what = "wild meld" if meld.rank == int(Kind.JOKER) else f"meld of {_kind_word(meld.rank)}"
            parts.append(f"unfinished {what} (not a canasta at the end) -{cost}")
    for seat in _unit_seats(state, rules, side.side):
        counts = state.counts[seat]
        for kind, at_least, penalty in rules.held_card_penalties:
            held = counts[int(kind)] if int(kind) < KIND_COUNT else 0
            if held >= at_least and penalty:
                explained += penalty
                parts.append(
                    f"seat {seat} held {plural(held, _kind_word(kind, 1), _kind_word(kind))} at the end "
                    f"({at_least} or more cost {penalty}) -{penalty}"
                )
    if -explained != side.penalties:
        parts.append(f"other penalties of the rules {side.penalties + explained}")
    return "; ".join(parts)


def _special(side: SideScore, score: HandScore, rules: Rules) -> str:
    title = next((h.title for h in rules.special_hands if h.id == score.special_hand), score.special_hand or "")
    return f"seat {score.declarer} declared {title}: its value {_signed(side.special_hand)} replaces the side's score"


def score_lines(score: HandScore, rules: Rules, hand: TableState | None = None) -> list[ScoreLine]:
    """The non-zero parts of a hand's score, each with every side's reason.

    Args:
        score: The hand's score (`canasta.Game.results`).
        rules: The rules it was played under (the game's).
        hand: The finished hand, for reasons that name cards and melds
            (default: reasons naming the rule only).

    Returns:
        One `ScoreLine` per part some side scored, in `ROWS` order (the
        canasta count, the hand's total and the game's are not parts: a caller
        adds them).
    """
    lines = []
    for key, label in ROWS:
        values = tuple(int(getattr(side, key)) for side in score.sides)
        if not any(values):
            continue
        reasons = []
        for side in score.sides:
            if not getattr(side, key):
                reasons.append("")
                continue
            if key == "melded_cards":
                reasons.append(_melded(side, hand, rules))
            elif key == "canasta_bonuses":
                reasons.append(_canastas(side, hand, rules))
            elif key == "red_threes":
                reasons.append(_threes(side, hand, rules))
            elif key == "going_out":
                reasons.append(_going_out(side, score, rules))
            elif key == "set_aside":
                reasons.append(_set_aside(side, rules))
            elif key == "cards_in_hand":
                reasons.append(_in_hand(side, hand, rules))
            elif key == "penalties":
                reasons.append(_penalties(side, hand, rules))
            else:
                reasons.append(_special(side, score, rules))
        lines.append(ScoreLine(key, label, values, tuple(reasons)))
    return lines


def describe_end(score: HandScore, rules: Rules) -> str:
    """How a hand ended, in words: ``"seat 2 went out concealed"``, ``"the stock ran out"``.

    Args:
        score: The hand's score.
        rules: Its rules (for a special hand's title).

    Returns:
        The sentence, without a final stop.
    """
    if score.special_hand is not None:
        title = next((h.title for h in rules.special_hands if h.id == score.special_hand), score.special_hand)
        wins = ", which wins the game" if score.game_won_by is not None else ""
        return f"seat {score.declarer} declared {title}{wins}"
    if score.went_out is not None:
        return f"seat {score.went_out} went out" + (" concealed" if score.concealed else "")
    return score.end.replace("-", " ")

