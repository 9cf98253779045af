"""The rule options of Hand and Foot (the rule book's §8.13) as house rules that fit ``hand-and-foot`` only.

Each is a small module of wrapper hooks that changes only what it names. The
options given as a parameter with presets (``pile-count(n)``, ``quota(c, d, w)``,
``black-three-penalty(n)``, ``going-out-bonus(n)``) are one module each, with one
plugin object per preset (its ``PRESETS`` table is the one place of the
numbers). Options that set the same parameter replace each other: stacked
together, the last one wins. Options that contradict are refused:
``no-wild-books`` with ``quota-1-1-1`` (its wild book), and ``pierson-family`` with
``no-wild-books`` (its wild book) and ``pile-onto-meld`` (its take always starts a new meld).

``red-threes-dead`` and ``red-threes-always-minus-500`` contradict (a red three
is laid out or it is not) and are refused together.

``pierson-family`` is a preset: one stack of the Pierson family's whole game (4 players, 4
decks, 15 and 11 cards, several melds of a rank, books that grow, four kinds of book). It sets
most of the parameters the other options set, so stacked with it the last one wins.
"""

from __future__ import annotations

import canasta
from canasta_house_rules.hand_and_foot import (
    add_to_books,
    black_three_penalty,
    deal_eleven,
    decks_per_player,
    discard_to_go_out,
    eights_nines_five,
    foot_after_first_book,
    foot_ends_turn,
    going_out_bonus,
    no_permission,
    no_wild_books,
    partner_foot_free,
    pierson_family,
    pile_count,
    pile_natural_and_wild,
    pile_needs_opening,
    pile_onto_meld,
    quota,
    red_threes_dead,
    red_threes_minus_500,
    reshuffle_discards,
    score_minimums,
    upcard_stays,
    wild_limit_three,
)

__version__ = "1.0"
#: The variant these options fit.
VARIANT = "hand-and-foot"
_FITS = frozenset({VARIANT})
#: Where the options come from (the rule book's §8.E cites each source).
_SOURCE = "Hand and Foot rule options (family and club sheets)"


def _option(name: str, description: str, plugin: object, conflicts: frozenset[str] = frozenset()) -> canasta.HouseRule:
    return canasta.HouseRule(
        name=name,
        description=description,
        plugins=(plugin,),
        applies_to=_FITS,
        conflicts=conflicts,
        version=__version__,
        source=_SOURCE,
    )


#: The quota presets that need a wild book (they contradict ``no-wild-books``).
_WILD_QUOTAS = frozenset(name for name, (_, _, wild) in quota.PRESETS.items() if wild)

HOUSE_RULES: tuple[canasta.HouseRule, ...] = (
    _option("deal-eleven", "Hands and feet of 11 cards (22 dealt to each player).", deal_eleven),
    _option(
        "upcard-stays",
        "A wild or red-three upcard is not buried; a red three on top blocks the pile until covered.",
        upcard_stays,
    ),
    _option("decks-per-player", "One deck per player instead of one more (4 players: 216 cards).", decks_per_player),
    _option("eights-nines-five", "8 and 9 count 5 instead of 10.", eights_nines_five),
    _option(
        "wild-limit-three",
        "A rank meld holds more naturals than wild cards and at most 3 wild cards.",
        wild_limit_three,
    ),
    _option(
        "no-wild-books",
        "No wild melds: wild cards meld only in rank melds, no wild book to go out, a wild top card is never taken.",
        no_wild_books,
        conflicts=_WILD_QUOTAS,
    ),
    _option(
        "add-to-books",
        "Natural cards of a rank may be added to the side's clean or dirty books of it; the pickup meld too.",
        add_to_books,
    ),
    *(
        _option(
            name,
            "The pile take takes the whole pile." if count is None else f"The pile take takes the top {count} cards.",
            pile_count.PileCount(count),
        )
        for name, count in pile_count.PRESETS.items()
    ),
    _option(
        "pile-onto-meld",
        "An opened side may also take the pile by adding its natural top card to its incomplete meld of that rank.",
        pile_onto_meld,
    ),
    _option("pile-needs-opening", "Only a side that has opened may take the pile.", pile_needs_opening),
    _option(
        "pile-natural-and-wild",
        "An unfrozen pile may be taken with a natural and a wild card; wild cards and no opening freeze it.",
        pile_natural_and_wild,
    ),
    _option(
        "red-threes-always-minus-500",
        "Every red three laid out, or left in a foot still down, scores -500.",
        red_threes_minus_500,
        conflicts=frozenset({"red-threes-dead"}),
    ),
    _option(
        "red-threes-dead",
        "Red threes are ordinary cards: never laid out or melded, discardable (one on top blocks the pile); "
        "each left in a hand or a foot down scores -500.",
        red_threes_dead,
        conflicts=frozenset({"red-threes-always-minus-500"}),
    ),
    *(
        _option(
            name,
            f"A black three left in a hand or a foot still down counts -{penalty} instead of -5.",
            black_three_penalty.BlackThreePenalty(penalty),
        )
        for name, penalty in black_three_penalty.PRESETS.items()
    ),
    *(
        _option(
            name,
            f"Going out needs {clean} clean, {dirty} dirty and {wild} wild books, for every side.",
            quota.Quota(clean, dirty, wild),
        )
        for name, (clean, dirty, wild) in quota.PRESETS.items()
    ),
    _option(
        "foot-ends-turn",
        "Emptying the hand ends the turn at once (no discard after a meld); the foot comes at the next turn.",
        foot_ends_turn,
    ),
    _option(
        "foot-after-first-book",
        "The foot is earned by a book of the player's own: picked up at will from a later turn, before the draw.",
        foot_after_first_book,
    ),
    _option(
        "discard-to-go-out",
        "Going out ends with a discard; going out by melding every card is refused.",
        discard_to_go_out,
    ),
    _option(
        "no-permission",
        'Going out needs no "yes"; asking stays possible at any point of the turn, and the answer binds.',
        no_permission,
    ),
    _option("partner-foot-free", "Going out does not wait for the partners to pick up their feet.", partner_foot_free),
    *(
        _option(name, f"Going out scores {bonus} instead of 100.", going_out_bonus.GoingOutBonus(bonus))
        for name, bonus in going_out_bonus.PRESETS.items()
    ),
    _option(
        "score-minimums",
        "Minimums by the side's total (50, 90, 120, 150 from 0, 2500, 5000, 7500); game to 10,000, not 4 deals.",
        score_minimums,
    ),
    _option(
        "pierson-family",
        "The Pierson family's four-deck game: 4 players, hands of 15 and feet of 11, several melds of a rank, "
        "books that grow, wild, sevens, clean and dirty books needed to go out.",
        pierson_family,
        # (Its quota needs a wild book; its pile take always starts a new meld.)
        conflicts=frozenset({"no-wild-books", "pile-onto-meld"}),
    ),
    _option(
        "reshuffle-discards",
        "An empty stock at the start of a turn is refilled by shuffling the pile but its top card (3 cards or more).",
        reshuffle_discards,
    ),
)
