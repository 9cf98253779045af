"""Scoring a finished hand, with a per-side breakdown (rule book: "Scoring")."""

from __future__ import annotations

from attrs import frozen

from canasta.cards import BLACK_THREE as _B3
from canasta.cards import KIND_COUNT
from canasta.cards import RED_THREE as _R3
from canasta.rules import ThreeSign
from canasta.table import TableState

__all__ = ["HandScore", "SideScore", "score_hand", "three_sign"]


@frozen
class SideScore:
    """One side's score for a hand; `total` is the sum of the other fields.

    Attributes:
        side: The side.
        melded_cards: Count of every card in the side's melds.
        canasta_bonuses: Canasta bonuses.
        red_threes: Bonus-three score (red, plus black where black threes are bonus cards), signed; with
            packets (`canasta.PacketRules`) it includes the red threes of packets still down; where red
            threes are ordinary cards (`canasta.ThreeRules.red_threes_are_bonus` False), it is
            `canasta.ThreeRules.red_held` for each one left in a hand or a packet still down.
        going_out: Going-out bonus (concealed included).
        set_aside: Score of black threes set aside from taken piles.
        cards_in_hand: Minus the count of cards left in the side's hands, and in its packets still down.
        penalties: Minus penalties (incomplete melds and cards held that the variant punishes).
        canastas: Number of canastas (for display).
        special_hand: The value of the special hand the side declared; it
            replaces every other part of the side's score, which are then 0.
    """

    side: int
    melded_cards: int
    canasta_bonuses: int
    red_threes: int
    going_out: int
    set_aside: int
    cards_in_hand: int
    penalties: int
    canastas: int
    special_hand: int = 0

    @property
    def total(self) -> int:
        """The hand's result for the side."""
        return (
            self.melded_cards
            + self.canasta_bonuses
            + self.red_threes
            + self.going_out
            + self.set_aside
            + self.cards_in_hand
            + self.penalties
            + self.special_hand
        )


@frozen
class HandScore:
    """The result of a hand.

    Attributes:
        sides: One breakdown per side.
        end: Why the hand ended (a `canasta.HandEnd` value's text).
        went_out: The seat that went out, if any.
        concealed: Whether it went out concealed.
        special_hand: The id of the special hand declared, if one was.
        declarer: The seat that declared it.
        game_won_by: The side whose special hand wins the game (the Dream
            Hands), if one does: the game ends after this hand with that side
            the winner, whatever the totals.
    """

    sides: tuple[SideScore, ...]
    end: str
    went_out: int | None
    concealed: bool
    special_hand: str | None = None
    declarer: int | None = None
    game_won_by: int | None = None

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's total for the hand."""
        return tuple(s.total for s in self.sides)


def three_sign(sign: ThreeSign, opened: bool, canastas: int, canastas_for_plus: int = 1) -> int:
    """Whether a side's bonus threes count plus (1), minus (-1) or not at all (0) (`canasta.ThreeSign`).

    Args:
        sign: The rule.
        opened: The side made a meld in the hand.
        canastas: The side's canastas.
        canastas_for_plus: `canasta.ThreeRules.canastas_for_plus`.

    Returns:
        The factor of the side's bonus-three score.
    """
    if sign is ThreeSign.NEGATIVE_WITHOUT_MELD:
        return 1 if opened else -1
    if sign is ThreeSign.NEGATIVE_WITHOUT_CANASTA:
        return 1 if canastas >= canastas_for_plus else -1
    if sign is ThreeSign.ALWAYS_POSITIVE:
        return 1
    if sign is ThreeSign.ALWAYS_NEGATIVE:
        return -1
    return -1 if canastas == 0 else (0 if canastas == 1 else 1)


def score_hand(state: TableState) -> HandScore:
    """Score a finished hand.

    Args:
        state: The hand, which must be over.

    Returns:
        The per-side breakdown.

    Raises:
        ValueError: If the hand is not over.
    """
    if state.end is None:
        raise ValueError("the hand is not over yet")
    rules = state.dealt
    facts = state.facts
    tables = facts.scoring()
    values = rules.card_values
    kinds = state.kinds
    canasta_size = rules.melds.canasta_size
    penalties_by_rank = tables.meld_penalties
    held_penalties = rules.held_card_penalties
    natural_penalties = tables.natural_meld_penalties
    hand_values = tables.hand_values
    result = []
    seating = state.seating
    declared = state.declared
    special = None
    if declared is not None:
        special = next(hand for hand in rules.special_hands if hand.id == declared[1])
    for side in range(rules.side_count):
        # The side's unit at the table: itself, unless a partnership rule regrouped the
        # players; each side is credited its unit's result (house rule cutthroat).
        unit = seating[tables.first_seats[side]]
        seats = [s for s in range(rules.players) if seating[s] == unit]
        if special is not None and declared is not None and seating[declared[0]] == unit:
            # The club form's special hands, "Scoring": the hand's value replaces the side's whole score.
            result.append(SideScore(side, 0, 0, 0, 0, 0, 0, 0, 0, special_hand=special.value))
            continue
        three_seats = seats
        if state.regrouped and rules.partnerships.threes_per_player:
            three_seats = [s for s in seats if rules.sides[s] == side]
        melded = 0
        canasta_bonus = 0
        canastas = 0
        penalties = 0
        set_aside_count = len(state.set_aside[unit])
        # (Its books first, where melds become books: each is a canasta; classic has none.)
        for meld in state.all_melds(unit) if state.books[unit] else state.melds[unit].values():
            if meld.rank == _B3 and rules.black_threes.melded_count_with_set_aside:
                set_aside_count += meld.size  # Cuban: scored with the set-aside ones
                continue
            for card in meld.cards:
                melded += values[kinds[card]]
            if meld.size >= canasta_size:
                canastas += 1
                canasta_bonus += facts.canasta_bonus(meld.rank, meld.naturals, meld.twos, meld.jokers)
            else:
                if meld.rank in penalties_by_rank:
                    penalties -= penalties_by_rank[meld.rank]
                if not (meld.twos or meld.jokers) and meld.rank in natural_penalties:
                    penalties -= natural_penalties[meld.rank]
        red = black = 0
        for s in three_seats:
            for card in state.threes[s]:
                kind = kinds[card]
                if kind == _R3:
                    red += 1
                elif kind == _B3:
                    black += 1
        three_rules = rules.threes
        threes = facts.three_score(red) if red else 0
        if black:
            threes += facts.three_score(black)
        threes *= three_sign(three_rules.sign, state.opened[unit], canastas, three_rules.canastas_for_plus)
        # Red threes held as ordinary cards (red-threes-dead): each left in a hand or a packet still down
        # scores ``ThreeRules.red_held`` in this row, not as a card value.
        red_held = three_rules.red_held
        in_hand = 0
        if facts.has_packets:
            # Packets still down (Hand and Foot §8.11): their cards count against the side like cards held,
            # and each red three in them scores ``PacketRules.three_down``.
            for seat in seats:
                for packet in state.packets[seat]:
                    for card in packet:
                        kind = kinds[card]
                        if state._is_bonus_three(kind):
                            threes += rules.packets.three_down
                        else:
                            if kind == _R3:
                                threes += red_held
                            in_hand -= hand_values[kind]
        going_out = 0
        if state.went_out is not None and seating[state.went_out] == unit:
            going_out = rules.going_out.bonus
            if state.concealed and rules.going_out.concealed_bonus is not None:
                going_out = rules.going_out.concealed_bonus
        schedule = rules.black_threes.set_aside_schedule
        set_aside = schedule[min(set_aside_count, len(schedule) - 1)] if set_aside_count else 0
        for seat in seats:
            counts = state.counts[seat]
            for k in range(KIND_COUNT):
                in_hand -= hand_values[k] * counts[k]
            if red_held:
                threes += red_held * counts[_R3]
            for kind, at_least, penalty in held_penalties:
                if counts[kind] >= at_least:
                    penalties -= penalty  # once per player and entry, besides the cards' values
        # (In the fields' order, side to canastas: a positional call costs a third less than keywords.)
        score = SideScore(side, melded, canasta_bonus, threes, going_out, set_aside, in_hand, penalties, canastas)
        result.append(score)
    assert state.end is not None
    if special is None or declared is None:
        return HandScore(sides=tuple(result), end=state.end.value, went_out=state.went_out, concealed=state.concealed)
    side = rules.sides[declared[0]]
    return HandScore(
        sides=tuple(result),
        end=state.end.value,
        went_out=None,
        concealed=False,
        special_hand=special.id,
        declarer=declared[0],
        game_won_by=side if special.wins_game else None,
    )
