"""The rule book behind the rule codes: which section of which page states each rule.

Every `canasta.RuleCode` names the rule it enforces by a **section id**, one of
the stable heading anchors that every variant page of the rule book has
(`SECTION_TITLES`); `CODE_SECTIONS` is that mapping. The codes that are about
legality itself rather than one rule (``not-an-action``, ``illegal``,
``turn-cannot-complete``) point to the rule book's page on what "legal" means
(`LEGAL`).

Which page a code points to depends on the game: the hook
``canasta_rule_sections`` lets each variant (and house rule) name its own
sections, and `canasta.compile_rules` freezes the merged answer into
`canasta.Rules.rule_sections`; `canasta.Rules.section` looks a code up, and
every `canasta.IllegalActionError` carries the section it cites. The built-in
variants answer with `variant_sections` (their page ``rules/<variant>.md``),
the built-in house rules with `house_rule_section` for the codes whose rule
they change, and the core default is classic's page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from canasta.errors import RuleCode, RuleSection

__all__ = [
    "CODE_SECTIONS",
    "CODE_SENTENCES",
    "LEGAL",
    "LEGAL_CODES",
    "SECTION_TITLES",
    "house_rule_section",
    "variant_sections",
]

#: The stable heading anchors of a variant's rule-book page, with their titles, in page order.
SECTION_TITLES: Mapping[str, str] = {
    "table-and-deal": "Table and deal",
    "the-turn": "The turn",
    "melds": "Melds",
    "wild-cards": "Wild cards",
    "canastas": "Canastas",
    "initial-meld": "The initial meld",
    "discard-pile": "The discard pile",
    "frozen-pile": "The frozen pile",
    "threes": "Threes",
    "going-out": "Going out",
    "asking-permission": "Asking permission",
    "stock-exhaustion": "Stock exhaustion",
    "scoring": "Scoring",
    "the-game": "The game",
}

#: The rule book's section on what "legal" means, shared by every variant.
LEGAL = RuleSection(id="legal", title="What “legal” means", page="rules/index.md", book="the rule book")

#: The codes about legality itself: they cite `LEGAL` whatever the variant.
LEGAL_CODES: frozenset[RuleCode] = frozenset({RuleCode.TURN_CANNOT_COMPLETE, RuleCode.NOT_AN_ACTION, RuleCode.ILLEGAL})

#: The section id of each code on a variant's page (the codes of `LEGAL_CODES` map to ``"legal"``).
CODE_SECTIONS: Mapping[RuleCode, str] = {
    RuleCode.WRONG_PHASE: "the-turn",
    RuleCode.NOT_YOUR_TURN: "the-turn",
    RuleCode.HAND_OVER: "the-game",
    RuleCode.STOCK_EMPTY: "stock-exhaustion",
    RuleCode.PILE_EMPTY: "discard-pile",
    RuleCode.PILE_BLOCKED: "discard-pile",
    RuleCode.PILE_FROZEN: "frozen-pile",
    RuleCode.PILE_NOT_MELDED: "discard-pile",
    RuleCode.PILE_NEEDS_MATCH: "discard-pile",
    RuleCode.ONE_CARD_RULE: "discard-pile",
    RuleCode.MUST_TAKE_PILE: "stock-exhaustion",
    RuleCode.CARDS_NOT_IN_HAND: "the-turn",
    RuleCode.INVALID_MELD: "melds",
    RuleCode.WILD_MELD: "wild-cards",
    RuleCode.BLACK_THREE_MELD: "threes",
    RuleCode.MELD_CLOSED: "canastas",
    RuleCode.RANK_CLOSED: "canastas",
    RuleCode.NATURAL_LOCKED: "wild-cards",
    RuleCode.RULE_OF_FIVE: "wild-cards",
    RuleCode.SPECIAL_HAND: "the-turn",
    RuleCode.KEPT_THREE: "threes",
    RuleCode.PACKET_NOT_EARNED: "the-turn",
    RuleCode.MINIMUM_NOT_MET: "initial-meld",
    RuleCode.CLEAN_MELD_REQUIRED: "initial-meld",
    RuleCode.CANNOT_DISCARD: "the-turn",
    RuleCode.WILD_DISCARD: "the-turn",
    RuleCode.EMPTY_PILE_DISCARD: "the-turn",
    RuleCode.NO_PLAIN_CARD: "the-turn",
    RuleCode.GOING_OUT_NOT_ALLOWED: "going-out",
    RuleCode.GOING_OUT_REFUSED: "asking-permission",
    RuleCode.MUST_GO_OUT: "asking-permission",
    RuleCode.PERMISSION_NOT_AVAILABLE: "asking-permission",
    RuleCode.TURN_CANNOT_COMPLETE: LEGAL.id,
    RuleCode.NOT_AN_ACTION: LEGAL.id,
    RuleCode.ILLEGAL: LEGAL.id,
}

#: What each code means, in one sentence (the docs' table of rule codes shows these).
CODE_SENTENCES: Mapping[RuleCode, str] = {
    RuleCode.WRONG_PHASE: "The action belongs to another phase of the turn (draw, meld, answer).",
    RuleCode.NOT_YOUR_TURN: "Another seat is to act.",
    RuleCode.HAND_OVER: "The hand (or the game) is over: no action is possible.",
    RuleCode.STOCK_EMPTY: "The stock is empty: no card can be drawn.",
    RuleCode.PILE_EMPTY: "The discard pile is empty: there is nothing to take.",
    RuleCode.PILE_BLOCKED: "The pile's top card (a wild card or a black three) blocks taking it.",
    RuleCode.PILE_FROZEN: "The pile is frozen for the side: it is taken only with a natural pair of the top "
    "card's rank.",
    RuleCode.PILE_NOT_MELDED: "The side must meld from the hand before it may take the pile.",
    RuleCode.PILE_NEEDS_MATCH: "The cards shown (or the side's melds) do not match the top card the way the pile "
    "may be taken.",
    RuleCode.ONE_CARD_RULE: "A player holding one card may not take a pile of one card.",
    RuleCode.MUST_TAKE_PILE: "With the stock exhausted, a discard that fits the side's melds must be taken.",
    RuleCode.CARDS_NOT_IN_HAND: "The player does not hold the cards the action uses.",
    RuleCode.INVALID_MELD: "The meld would break the meld limits (size, naturals, wild cards).",
    RuleCode.WILD_MELD: "Wild cards alone never meld in this variant.",
    RuleCode.BLACK_THREE_MELD: "Black threes meld only when going out, 3 or 4 of them with no wild card.",
    RuleCode.MELD_CLOSED: "The meld would grow past the largest size a meld may have (a closed canasta).",
    RuleCode.NATURAL_LOCKED: "The meld takes wild cards only in its side's opening turn, from the hand: it stays "
    "natural.",
    RuleCode.RULE_OF_FIVE: "After the opening turn a wild card joins a natural meld only if it then holds five "
    "naturals; no wild card joins one while the side's wild meld is incomplete; no mixed canasta in the opening turn.",
    RuleCode.SPECIAL_HAND: "A special hand is declared only by a side that has made no meld, after a stock draw, "
    "with exactly its 14 cards (after a two-card draw, the 15th discarded, never a three), as the hand they score as.",
    RuleCode.KEPT_THREE: "A kept three is laid out only by its holder, in his turn before he discards, "
    "while a stock card is left to replace it.",
    RuleCode.PACKET_NOT_EARNED: "The next packet is earned by a canasta of the player's own: until then it is not "
    "picked up and the hand is never emptied; it is picked up at will only from a later turn, before the draw.",
    RuleCode.RANK_CLOSED: "The rank is closed for the rest of the hand: no meld of it may be started, grow, or take "
    "the pile.",
    RuleCode.MINIMUM_NOT_MET: "The side's initial meld does not reach its minimum count.",
    RuleCode.CLEAN_MELD_REQUIRED: "The side's initial meld needs a clean meld: natural cards from the hand, "
    "no wild card.",
    RuleCode.CANNOT_DISCARD: "This card may not be discarded now.",
    RuleCode.WILD_DISCARD: "A wild card is discarded (other than to go out) only when every card of the hand "
    "was wild just after the turn's stock draw.",
    RuleCode.EMPTY_PILE_DISCARD: "Onto an empty pile an ace, a seven, a wild card or a card of a closed rank is "
    "not discarded while the hand holds another card that is not a three.",
    RuleCode.NO_PLAIN_CARD: "With the pile empty, a meld or pile take may not leave the hand without a card that "
    "could go onto an empty pile (unless one card is left to go out with).",
    RuleCode.GOING_OUT_NOT_ALLOWED: "The action would go out, and the side may not go out now (canastas needed).",
    RuleCode.GOING_OUT_REFUSED: "The partner said no: the player may not go out this turn.",
    RuleCode.MUST_GO_OUT: "The partner said yes: the player must go out this turn.",
    RuleCode.PERMISSION_NOT_AVAILABLE: "The player may not ask the partner for permission to go out now.",
    RuleCode.TURN_CANNOT_COMPLETE: "The rules allow the action, but the turn could not be completed after it.",
    RuleCode.NOT_AN_ACTION: "The value is not a canasta action.",
    RuleCode.ILLEGAL: "Refused for another reason (nothing to undo, or an unexplained refusal).",
}


def _section(code: RuleCode, page: str, book: str) -> RuleSection:
    if code in LEGAL_CODES:
        return LEGAL
    anchor = CODE_SECTIONS[code]
    return RuleSection(id=anchor, title=SECTION_TITLES[anchor], page=page, book=book)


def variant_sections(
    variant: str, *, page: str | None = None, codes: Iterable[RuleCode] | None = None
) -> dict[RuleCode, RuleSection]:
    """The sections of a variant's rule-book page, for every code (or the codes given).

    Each code gets the section `CODE_SECTIONS` names, on the variant's page;
    the codes of `LEGAL_CODES` get `LEGAL`.

    Args:
        variant: The variant's name, shown in citations as ``rules of <variant>``.
        page: The page (default: ``rules/<variant>.md`` in this project's
            rule book); a third-party variant gives its own page or URL, whose
            headings carry the same anchors.
        codes: The codes to map (default: every `canasta.RuleCode`).

    Returns:
        ``{code: section}``, an answer for the hook ``canasta_rule_sections``.
    """
    where = page if page is not None else f"rules/{variant}.md"
    return {code: _section(code, where, f"rules of {variant}") for code in (RuleCode if codes is None else codes)}


def house_rule_section(name: str, title: str, *, page: str | None = None) -> RuleSection:
    """The section of a house rule's page, for the codes whose rule it changes.

    Args:
        name: The house rule's name; it is also the section's anchor.
        title: The section's title, e.g. ``"Black three freezes"``.
        page: The page (default: ``rules/house-rules/<name>.md`` in this
            project's rule book).

    Returns:
        The section, cited as ``house rule <name>``.
    """
    where = page if page is not None else f"rules/house-rules/{name}.md"
    return RuleSection(id=name, title=title, page=where, book=f"house rule {name}")
