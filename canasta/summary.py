"""A readable summary of compiled rules, generated from `canasta.Rules`.

The command line (``canasta rules NAME``) and the documentation show this
summary, so neither can drift from the code: every field of `Rules` and of its
policy objects appears, including fields added later (they fall back to a label
made from the field's name).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, Literal

import attrs

from canasta.cards import KIND_COUNT, DeckSpec, Kind
from canasta.rules import MeldMinimums, Rules
from canasta.special import SpecialHand

__all__ = ["HAND_STATE_FIELDS", "format_rules_summary", "player_counts_text", "rules_summary"]

#: Section title of each top-level field of `Rules`, in display order.
_SECTIONS: dict[str, str] = {
    "variant": "Game",
    "house_rules": "Game",
    "players": "Table",
    "sides": "Table",
    "deck": "Table",
    "hand_size": "Table",
    "draw_count": "Table",
    "upcard": "Table",
    "card_values": "Card values",
    "minimums": "Initial meld",
    "initial_meld": "Initial meld",
    "melds": "Melds",
    "pile": "Discard pile",
    "canasta_bonuses": "Scoring",
    "threes": "Scoring",
    "black_threes": "Black threes",
    "going_out": "Going out",
    "exhaustion": "Stock exhaustion",
    "game_length": "Game",
    "incomplete_meld_penalties": "Scoring",
    "held_card_penalties": "Scoring",
    "incomplete_natural_meld_penalties": "Scoring",
    "special_hands": "Special hands",
    "packets": "Packets after the hand",
}

#: Readable labels for fields (``"policy.field"`` for policy objects).
_LABELS: dict[str, str] = {
    "variant": "variant",
    "house_rules": "house rules",
    "players": "players",
    "sides": "sides",
    "deck": "deck",
    "hand_size": "cards dealt to each player",
    "draw_count": "cards drawn from the stock per turn",
    "upcard": "upcard",
    "packets.sizes": "cards in each packet dealt after the hand (face down)",
    "packets.partners_first": "going out and asking need every partner in the last packet",
    "packets.three_down": "each red three in a packet still down at the end scores",
    "packets.names": "packet names",
    "packets.meld_picks_up": "a meld that empties the hand picks up the next packet at once",
    "packets.after_first_canasta": "a packet is earned by the player's own first canasta, then picked up at will",
    "card_values": "card values",
    "minimums": "minimum count for the initial meld",
    "game_length.target_score": "game ends at",
    "game_length.deals": "deals in a game",
    "incomplete_meld_penalties": "penalty for an incomplete meld",
    "held_card_penalties": "penalty for cards held by one player",
    "incomplete_natural_meld_penalties": "penalty for an incomplete natural meld",
    "special_hands": "special hands a side may declare",
    "melds.wilds_only_when_opening": "ranks that take wild cards only in the opening turn",
    "melds.wilds_need_naturals": "after the opening turn, naturals a meld needs to take a wild card",
    "melds.no_mixed_opening_canasta": "no mixed canasta in the opening turn",
    "melds.wild_meld_first": "no wild card into a natural meld while the wild meld is incomplete",
    "initial_meld.top_card_counts": "pile's top card counts toward the minimum",
    "initial_meld.concealed_exemption": "no minimum when going out concealed",
    "initial_meld.clean_meld_naturals": "clean meld needed (naturals from hand)",
    "melds.min_size": "cards in a new meld",
    "melds.min_naturals": "naturals in every meld",
    "melds.max_wilds": "wild cards in a meld at most",
    "melds.naturals_per_wild": "naturals needed per wild card in a meld",
    "melds.book_makes_room": "a canasta is a closed book; a new meld of its rank may start",
    "melds.add_to_books": "natural cards may still be added to a clean or dirty book",
    "melds.several_melds": "several melds of a rank, incomplete ones too; a pile take starts a new one",
    "melds.wilds_onto_books": "wild cards may be added to a dirty book up to the wild-card limit",
    "melds.max_size": "cards in a meld at most",
    "melds.canasta_size": "cards in a canasta",
    "melds.wild_melds": "melds of wild cards only",
    "melds.natural_only": "ranks that take no wild card",
    "melds.black_threes_when_going_out": "3 or 4 black threes meld when going out",
    "pile.always_frozen": "pile always frozen",
    "pile.wild_freezes": "a wild card in the pile freezes it",
    "pile.red_three_freezes": "a red three in the pile freezes it",
    "pile.black_three_freezes": "a black three in the pile freezes it",
    "pile.unmelded_side_frozen": "frozen for a side that has not melded",
    "pile.unmelded_side_may_take": "a side that has not melded may take it",
    "pile.natural_and_wild": "unfrozen: take with one natural and a wild card",
    "pile.layoff": "unfrozen: take by adding the top card to a meld",
    "pile.blocked_top": "cards on top that stop anyone taking it",
    "pile.one_card_rule": "holding one card, no taking a one-card pile",
    "canasta_bonuses.natural": "natural canasta",
    "canasta_bonuses.mixed": "mixed canasta",
    "canasta_bonuses.natural_by_rank": "natural canasta of a rank",
    "canasta_bonuses.wild_by_jokers": "wild canasta by number of jokers",
    "canasta_bonuses.wild": "wild canasta",
    "threes.schedule": "bonus threes (1, 2, 3, ... of a colour)",
    "threes.sign": "bonus threes count",
    "threes.black_threes_are_bonus": "black threes are bonus cards",
    "threes.keep_one": "one three kept in hand until the side melds",
    "threes.red_threes_are_bonus": "red threes are bonus cards (laid out); if not, ordinary cards of the hand",
    "threes.red_held": "each red three left in a hand or a packet still down scores",
    "black_threes.no_discard_first_round": "no black-three discard in the first round",
    "black_threes.set_aside_from_pile": "black threes from a taken pile set aside",
    "black_threes.set_aside_schedule": "set-aside black threes (1, 2, ...)",
    "black_threes.in_hand_penalty": "black three left in hand costs",
    "going_out.canastas_required": "canastas needed to go out",
    "going_out.canastas_by_class": "canastas needed to go out, by class",
    "going_out.final_discard_required": "going out needs a final discard",
    "going_out.bonus": "going-out bonus",
    "going_out.concealed_bonus": "concealed going-out bonus",
    "going_out.permission": "asking partner's permission",
    "going_out.not_with_incomplete": "no going out with these melds incomplete (natural, or the wild meld)",
    "melds.closed_at_canasta": "a rank closes once a meld of it is a canasta",
    "exhaustion.continue_with_discards": "play goes on while discards are taken",
    "exhaustion.forced_take": "a matching discard must be taken",
    "exhaustion.forced_take_by_layoff": "a matching discard may be laid off even on a frozen pile",
    "exhaustion.last_red_three_may_meld": "after a last-card red three the player may meld",
    "exhaustion.reshuffle_pile_at": "pile (but its top card) reshuffled into an empty stock from",
}

#: Fields the engine sets during a hand (`canasta.Rules.during_hand`): a hand's meld state, not rules,
#: so the summary leaves them out.
HAND_STATE_FIELDS = frozenset({"melds.closed", "melds.wild_floors", "melds.mixed_cap", "melds.has_meld_state"})

_SIGNS = {
    "negative-without-meld": "for the side; against it if it made no meld",
    "negative-without-canasta": "for the side with a canasta; against it without one",
    "by-canasta-count": "against with no canasta, nothing with one, for with two or more",
    "always-positive": "for the side, always",
    "always-negative": "against the side, always",
}


def _kind(kind: int) -> str:
    symbol = Kind(kind).symbol
    return {"*": "joker", "r3": "red 3", "b3": "black 3"}.get(symbol, symbol)


def _kinds(kinds: Iterable[Any]) -> str:
    ordered = sorted((int(k) for k in kinds), reverse=True)
    return ", ".join(_kind(k) for k in ordered) if ordered else "none"


def _schedule(values: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in values[1:]) if len(values) > 1 else "none"


def _sides(sides: tuple[int, ...]) -> str:
    count = max(sides) + 1
    groups = [[s for s, sd in enumerate(sides) if sd == side] for side in range(count)]
    if all(len(g) == 1 for g in groups):
        return f"{count}, each player alone"
    return " against ".join("seats " + "+".join(str(s) for s in g) for g in groups)


def _deck(deck: DeckSpec) -> str:
    packs = "pack" if deck.packs == 1 else "packs"
    return f"{deck.packs} {packs} + {deck.jokers} jokers ({deck.size} cards)"


def _minimums(minimums: MeldMinimums) -> str:
    by_deal = minimums.by_deal
    if by_deal:
        last = len(by_deal)
        return "; ".join(
            f"deal {deal}{' on' if deal == last else ''}: {minimum}" for deal, minimum in enumerate(by_deal, 1)
        )
    parts = [f"below 0: {minimums.below_zero}"]
    steps = list(minimums.steps)
    for i, (threshold, minimum) in enumerate(steps):
        upper = f" to {steps[i + 1][0] - 5}" if i + 1 < len(steps) else " or more"
        parts.append(f"{threshold}{upper}: {minimum}")
    return "; ".join(parts)


def _card_values(values: tuple[int, ...]) -> str:
    groups: dict[int, list[str]] = {}
    for kind in sorted(range(KIND_COUNT), key=lambda k: (k > 1, -k)):
        if kind == int(Kind.RED_THREE) and values[kind] == 0:
            continue
        groups.setdefault(values[kind], []).append(_kind(kind))
    ordered = sorted(groups.items(), key=lambda item: -item[0])
    return "; ".join(f"{' '.join(names)}: {value}" for value, names in ordered)


def _value(path: str, value: Any) -> str:
    """Format one value for people."""
    if path == "threes.schedule" or path == "black_threes.set_aside_schedule":
        return _schedule(value)
    if path == "threes.sign":
        return _SIGNS.get(str(value.value), str(value.value))
    if path == "going_out.canastas_by_class":
        return ", ".join(f"{cls.value}: {n}" for cls, n in value) if value else "none"
    if path == "melds.wilds_need_naturals" or path == "melds.naturals_per_wild":
        return f"{value}" if value else "none"
    if path == "initial_meld.clean_meld_naturals":
        return f"yes, {value} or more" if value else "no"
    if path == "exhaustion.reshuffle_pile_at":
        return f"{value} cards" if value else "never"
    if path == "sides":
        return _sides(value)
    if path == "card_values":
        return _card_values(value)
    if path in ("canasta_bonuses.natural_by_rank", "incomplete_meld_penalties", "incomplete_natural_meld_penalties"):
        return ", ".join(f"{_kind(k)}: {v}" for k, v in value) if value else "none"
    if path == "held_card_penalties":
        return ", ".join(f"{n} or more {_kind(k)}: {v}" for k, n, v in value) if value else "none"
    if path == "special_hands":
        return ", ".join(_special_hand(h) for h in value) if value else "none"
    if path == "canasta_bonuses.wild_by_jokers":
        return ", ".join(f"{j} jokers: {v}" for j, v in value) if value else "none"
    if path == "game_length.target_score":
        return "no target" if value is None else str(value)
    if path == "game_length.deals":
        return "no fixed number" if value is None else str(value)
    if path == "house_rules":
        return ", ".join(value) if value else "none"
    return _plain(value)


def _special_hand(hand: SpecialHand) -> str:
    return f"{hand.title} {hand.value}" + (" (wins the game)" if hand.wins_game else "")


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, DeckSpec):
        return _deck(value)
    if isinstance(value, MeldMinimums):
        return _minimums(value)
    if isinstance(value, frozenset):
        if all(isinstance(v, int) for v in value):
            return _kinds(value)
        return ", ".join(sorted(map(str, value))) or "none"
    if isinstance(value, tuple):
        return ", ".join(_plain(v) for v in value) if value else "none"
    return str(value)


def player_counts_text(rules: Rules) -> str:
    """The number of players of a rule set, and the others its variant plays.

    Args:
        rules: Compiled rules.

    Returns:
        ``"4"`` for a variant that plays one count; ``"4 (plays 2, 3, 4, 5, 6)"``
        for one that plays several (`canasta.Rules.playable_counts`), ``4``
        being the rules' own count.
    """
    counts = rules.playable_counts
    if len(counts) == 1 and counts[0] == rules.players:
        return str(rules.players)
    return f"{rules.players} (plays {', '.join(map(str, counts))})"


def _label(path: str) -> str:
    return _LABELS.get(path, path.rsplit(".", 1)[-1].replace("_", " "))


def rules_summary(rules: Rules) -> list[tuple[str, str, str]]:
    """Every rule of a compiled rule set as ``(section, rule, value)`` rows.

    Args:
        rules: Compiled rules (`canasta.load_rules`).

    Returns:
        The rows, grouped by section in a fixed order.
    """
    rows: list[tuple[str, str, str]] = []
    for attribute in attrs.fields(type(rules)):
        name = attribute.name
        if name in ("rule_sections", "player_counts"):  # where the rules are written, not a rule; in "players"
            continue
        if name == "players":
            rows.append((_SECTIONS[name], _label(name), player_counts_text(rules)))
            continue
        value = getattr(rules, name)
        section = _SECTIONS.get(name, "Other")
        if attrs.has(type(value)) and not isinstance(value, (DeckSpec, MeldMinimums)):
            for sub in attrs.fields(type(value)):
                path = f"{name}.{sub.name}"
                if path in HAND_STATE_FIELDS:
                    continue  # the engine's meld state during a hand, not a rule
                rows.append((section, _label(path), _value(path, getattr(value, sub.name))))
        else:
            rows.append((section, _label(name), _value(name, value)))
    order = list(dict.fromkeys([*_SECTIONS.values(), "Other"]))
    rows.sort(key=lambda row: order.index(row[0]))  # stable: fields keep their order inside a section
    return rows


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def format_rules_summary(rules: Rules, fmt: Literal["text", "markdown"] = "text") -> str:
    """The rules summary as text or as a Markdown table.

    Args:
        rules: Compiled rules.
        fmt: ``"text"`` (sections with aligned rows) or ``"markdown"`` (one
            table with Section, Rule and Value columns).

    Returns:
        The formatted summary, ending with a newline.

    Raises:
        ValueError: For an unknown format.
    """
    rows = rules_summary(rules)
    if fmt == "markdown":
        lines = ["| Section | Rule | Value |", "| --- | --- | --- |"]
        previous = None
        for section, rule, value in rows:
            shown = section if section != previous else ""
            previous = section
            lines.append(f"| {_escape(shown)} | {_escape(rule)} | {_escape(value)} |")
        return "\n".join(lines) + "\n"
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r}; use 'text' or 'markdown'")
    width = max(len(rule) for _, rule, _ in rows)
    lines = []
    previous = None
    for section, rule, value in rows:
        if section != previous:
            if previous is not None:
                lines.append("")
            lines.append(section)
            previous = section
        lines.append(f"  {rule.ljust(width)}  {value}")
    return "\n".join(lines) + "\n"
