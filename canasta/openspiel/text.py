"""Text of a hand for OpenSpiel: the whole table (``str(state)``) and one seat's view.

``str(state)`` is OpenSpiel's debugging string of the true state: every hand,
the stock in order, every field of the hand's data. OpenSpiel's tests compare
it between a state and its clone or its deserialized copy, so it leaves nothing
out. `observation_text` is a seat's view, built from `canasta.Observation`
alone, so it never shows a hidden card.
"""

from __future__ import annotations

from collections.abc import Iterable

from canasta.cards import SEQUENCE_MELD, Card, Kind
from canasta.hand import HandState
from canasta.observation import MeldView, Observation
from canasta.table import CACHE_FIELDS, MeldState, data_fields

__all__ = ["observation_text", "table_text"]

# Shown on their own lines, with card codes; the rest of the data fields follow as values.
_CARD_LISTS = ("stock", "pile", "pending_pile")
_SKIPPED = {"rules", "facts", "deck", "kinds", "hands", "counts", "melds", "threes", "set_aside", *CACHE_FIELDS}
_SKIPPED.update(_CARD_LISTS)


def _codes(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards) or "-"


def _meld_view(meld: MeldView) -> str:
    canasta = " (canasta)" if meld.is_canasta else ""
    number = "" if meld.number is None else f"#{meld.number} "  # (melds by identity: the sequence games)
    if meld.rank is None:  # a sequence: its suit and ends, e.g. 5H-9H
        assert meld.suit is not None and meld.low is not None and meld.high is not None
        name = f"{meld.low.symbol}{meld.suit.symbol}-{meld.high.symbol}{meld.suit.symbol}"
    else:
        name = meld.rank.symbol
    return f"{number}{name}: {_codes(meld.cards)}{canasta}"


def table_text(hand: HandState) -> str:
    """The whole table, hidden cards included (OpenSpiel's ``ToString``).

    Args:
        hand: The hand.

    Returns:
        One line per seat's hand, the stock, the pile, the melds and threes,
        then every other field of the hand's data.
    """
    cards = hand.deck.cards
    lines = [f"seat {seat}: {_codes(hand.hand_cards(seat))}" for seat in range(hand.rules.players)]
    for name in _CARD_LISTS:
        ids = getattr(hand, name)
        if ids is not None:
            lines.append(f"{name}: {_codes(cards[c] for c in ids)}")
    numbered = hand.facts.sequences  # (rule sets with meld types: melds by number, sequences among them)
    for side, melds in enumerate(hand.melds):
        shown = "; ".join(_meld(meld, cards, key if numbered else None) for key, meld in sorted(melds.items()))
        lines.append(f"side {side} melds: {shown or '-'}")
    lines.append("threes: " + " | ".join(_codes(cards[c] for c in t) for t in hand.threes))
    lines.append("set aside: " + " | ".join(_codes(cards[c] for c in s) for s in hand.set_aside))
    for name in data_fields(type(hand)):
        if name not in _SKIPPED:
            lines.append(f"{name}: {getattr(hand, name)!r}")
    return "\n".join(lines)


def _meld(meld: MeldState, cards: tuple[Card, ...], number: int | None = None) -> str:
    name = "run" if meld.rank == SEQUENCE_MELD else Kind(meld.rank).symbol
    prefix = "" if number is None else f"#{number} "
    return f"{prefix}{name}: {_codes(cards[c] for c in meld.cards)}"


def observation_text(obs: Observation) -> str:
    """What one seat sees, as text (OpenSpiel's observation string).

    Args:
        obs: The seat's observation.

    Returns:
        Its hand, every hand's size, the stock's size, the pile, the melds, the
        laid-out threes, the cards known to be in each hand (seen taken with
        the pile), while any packet after the hand is still face down the
        sizes of each seat's packets down (`canasta.PacketRules`; never their
        cards) and, where a packet is earned by a canasta
        (`canasta.PacketRules.after_first_canasta`), whether each seat has
        earned its next one, the scores, the opening still needed and who acts.
    """
    frozen = "frozen" if obs.pile_frozen else "not frozen"
    lines = [
        f"seat {obs.seat} (side {obs.side}); seat {obs.acting_seat} to act ({obs.phase})",
        f"hand: {_codes(obs.hand)}",
        f"hand sizes: {' '.join(map(str, obs.hand_sizes))}; stock: {obs.stock_size}",
        f"pile ({len(obs.pile)}, {frozen}): {_codes(obs.pile)}",
    ]
    for side, melds in enumerate(obs.melds):
        lines.append(f"side {side} melds: {'; '.join(_meld_view(m) for m in melds) or '-'}")
    lines.append("threes: " + " | ".join(_codes(t) for t in obs.threes))
    if any(obs.set_aside):
        lines.append("set aside: " + " | ".join(_codes(s) for s in obs.set_aside))
    if any(obs.known_cards):
        lines.append("known in hands: " + " | ".join(_codes(k) for k in obs.known_cards))
    if any(obs.packets_down):  # (Hand and Foot's foot: sizes only, hidden from its owner too)
        lines.append("packets down: " + " | ".join(" ".join(map(str, d)) or "-" for d in obs.packets_down))
        if obs.first_canasta:  # (foot-after-first-book: a packet down is earned by the seat's own first canasta)
            earned = (f >= 0 and bool(d) for f, d in zip(obs.first_canasta, obs.packets_down, strict=True))
            lines.append("packet earned: " + " | ".join("yes" if e else "no" for e in earned))
    needs = f"; clean meld needed: {obs.clean_meld_needed}" if obs.clean_meld_needed else ""
    lines.append(f"scores: {' '.join(map(str, obs.scores))}; minimum needed: {obs.minimum_needed}{needs}")
    return "\n".join(lines)
