"""Which kinds a discard may be now: the rule book's discard rules, and the club form's restrictions.

Every variant: bonus threes are never discarded, nor black threes in the first
round where the variant says so (`discardable_kinds`). The club form of modern
American adds, under the house rule ``american-discards`` (its rule-book page,
"Discard restrictions", rules D1 to D5), switched on by two `canasta.PileRules`
fields:

- ``wild_discard_needs_wild_hand`` (D3): a wild card is discarded, other than
  as the final discard of going out, only when every card of the hand was wild
  just after this turn's stock draw (``TableState.drew_all_wild``);
- ``empty_pile_stops`` (D4): onto an empty pile a *stop card* (ace, seven,
  wild card, or a card of a closed rank) is not discarded while the hand holds
  a *plain* card (one that is neither a stop card nor a three);
- and (D5 b) with the pile empty no meld or pile take may leave the player
  without a plain card, unless he then holds one card and his side has the
  canastas to go out: `meld_strands`, `take_strands`.

The final discard of going out may be any card the variant allows (D2): it is
`discardable_kinds`, while `keep_discards` gives the kinds of a discard that
keeps cards in the hand. The completion oracle (`canasta.completion`) reads
both through its `canasta.completion.Turn`.
"""

from __future__ import annotations

from typing import Final

from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, RED_THREE, SECOND_MELD, TWO, Kind
from canasta.rulefacts import RuleFacts, rule_facts
from canasta.rules import Rules
from canasta.table import TableState

__all__ = [
    "discardable_kinds",
    "discardable_now",
    "holds_plain",
    "keep_discards",
    "meld_strands",
    "plain_discards",
    "plain_discards_now",
    "plain_kinds",
    "plain_now",
    "strict_pile",
    "take_strands",
]

# `plain_kinds`' answers by id of the rules, each beside its rules (kept alive: the id stays theirs).
_PLAIN: Final[dict[int, tuple[Rules, tuple[bool, ...]]]] = {}
# `keep_discards`' answers by (the variant's discards, the plain kinds or None for "no wild card").
_KEEP: Final[dict[tuple[tuple[bool, ...], tuple[bool, ...] | None], tuple[bool, ...]]] = {}


def discardable_kinds(rules: Rules, turn: int) -> tuple[bool, ...]:
    """For each kind, whether the variant lets it be discarded in a turn (and so be the final discard of going out).

    Bonus threes are never discarded (the rule book's "Melds"; all threes in modern
    American); black threes not during the first round of turns where the
    variant says so (Cuban).

    Args:
        rules: The compiled rules.
        turn: The hand's turn number (0 for the first turn).

    Returns:
        15 flags indexed by kind.
    """
    return _discardable(rule_facts(rules), turn)


def discardable_now(t: TableState) -> tuple[bool, ...]:
    """`discardable_kinds` of the hand's rules and turn, from the facts the hand keeps (the engine's inner loops).

    Args:
        t: The hand.

    Returns:
        15 flags indexed by kind.
    """
    facts = t.facts
    # (`_discardable`'s look-up, written here: this runs several times a turn, and a call is a frame in Python.)
    found = facts.discardable[1 if facts.no_discard_first_round and t.turn < facts.players else 0]
    return found if found is not None else _discardable(facts, t.turn)


def _discardable(facts: RuleFacts, turn: int) -> tuple[bool, ...]:
    """`discardable_kinds` of the rules these are the facts of, remembered on them (``facts.discardable``)."""
    first_round = 1 if facts.no_discard_first_round and turn < facts.players else 0
    found = facts.discardable[first_round]
    if found is None:
        bonus_black = facts.black_threes_are_bonus
        bonus_red = facts.red_threes_are_bonus  # (False: red-threes-dead, a red three is discarded like any card)
        found = facts.discardable[first_round] = tuple(
            not ((k == RED_THREE and bonus_red) or (k == BLACK_THREE and (bonus_black or first_round)))
            for k in range(KIND_COUNT)
        )
    return found


def plain_kinds(rules: Rules) -> tuple[bool, ...]:
    """For each kind, whether a card of it is *plain* (american-discards, D4): not a stop card, not a three.

    The stop cards are ``rules.pile.empty_pile_stops`` and the ranks closed now
    (``rules.melds.closed``, house rule dead-ranks); a hand's rules carry its
    closed ranks, so the answer is cached per rules object.

    Args:
        rules: The compiled rules (a hand's, with its closed ranks).

    Returns:
        15 flags indexed by kind.
    """
    hit = _PLAIN.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    found = _plain_of(rules, rules.melds.closed)
    if len(_PLAIN) > 4096:
        _PLAIN.clear()  # bound the memory of long runs (the club rules make rules objects during a hand)
    _PLAIN[id(rules)] = (rules, found)
    return found


def _plain_of(rules: Rules, closed: frozenset[Kind]) -> tuple[bool, ...]:
    """`plain_kinds` of ``rules`` with these ranks closed."""
    stops = rules.pile.empty_pile_stops | closed
    return tuple(k >= 4 and k not in stops for k in range(KIND_COUNT))


def holds_plain(t: TableState, seat: int) -> bool:
    """Whether a seat holds a plain card, counting the pile cards waiting for its side's opening (D4, D5 b).

    Args:
        t: The hand.
        seat: The seat.

    Returns:
        True if some card in the hand (or waiting for it) is plain.
    """
    plain = plain_now(t)
    counts = t.counts[seat]
    for kind in range(4, KIND_COUNT):
        if counts[kind] and plain[kind]:
            return True
    pending = t.pending_pile
    if pending is not None:
        kinds = t.kinds
        for card in pending:
            if plain[kinds[card]]:
                return True
    return False


def strict_pile(t: TableState, seat: int) -> bool:
    """Whether the empty-pile rules bind the seat now: the pile is empty and it holds a plain card (D4, D5 b).

    Args:
        t: The hand (in its meld phase).
        seat: The acting seat.

    Returns:
        True if stop cards may not be discarded and no action may strand the hand.
    """
    return t.facts.empty_pile_stops and not t.pile and holds_plain(t, seat)


def keep_discards(t: TableState, seat: int, *, strict: bool | None = None) -> tuple[bool, ...]:
    """For each kind, whether a discard of it that keeps cards in the hand is allowed now.

    It is `discardable_kinds` where the discard rules do not depend on the hand;
    under ``american-discards`` wild cards need an all-wild hand after the stock
    draw (D3), and onto an empty pile only plain cards go while the hand holds
    one (D4).

    Args:
        t: The hand (in its meld phase).
        seat: The acting seat.
        strict: Whether `strict_pile` holds (``None``: decide it now).

    Returns:
        15 flags indexed by kind.
    """
    base = discardable_now(t)
    if not t.restricts_discards:
        return base
    if strict is None:
        strict = strict_pile(t, seat)
    facts = t.facts
    if strict:
        index = 1
    elif facts.wild_discard_needs_wild_hand and not t.drew_all_wild:
        index = 0
    else:
        return base
    if facts.no_discard_first_round and t.turn < facts.players:
        index += 2
    # (The answer depends on the facts, their first-round switch and ``strict`` alone: kept on the facts.)
    found = facts.keep[index]
    if found is None:
        found = facts.keep[index] = _restricted(base, plain_now(t) if strict else None)
    return found


def plain_discards_now(t: TableState) -> tuple[bool, ...]:
    """`plain_discards` of the hand's rules and turn, from the answers its facts keep (the engine's inner loops).

    Args:
        t: The hand.

    Returns:
        15 flags indexed by kind.
    """
    facts = t.facts
    index = 3 if facts.no_discard_first_round and t.turn < facts.players else 1
    found = facts.keep[index]
    if found is None:
        found = facts.keep[index] = _restricted(discardable_now(t), plain_now(t))
    return found


def plain_now(t: TableState) -> tuple[bool, ...]:
    """`plain_kinds` of the hand's rules, kept on its facts (the engine's inner loops).

    Args:
        t: The hand.

    Returns:
        15 flags indexed by kind.
    """
    facts = t.facts
    found = facts.keep[4]
    if found is None:
        found = facts.keep[4] = _plain_of(t.dealt, facts.closed)  # (the hand's meld state's closed ranks)
    return found


def plain_discards(rules: Rules, turn: int) -> tuple[bool, ...]:
    """For each kind, whether a discard of it that keeps cards may go onto an empty pile while a plain card is held.

    The plain kinds the variant lets be discarded (D4): what `keep_discards`
    gives when `strict_pile` holds, and after a pile take.

    Args:
        rules: The compiled rules (a hand's, with its closed ranks).
        turn: The hand's turn number.

    Returns:
        15 flags indexed by kind.
    """
    return _restricted(discardable_kinds(rules, turn), plain_kinds(rules))


def _restricted(base: tuple[bool, ...], plain: tuple[bool, ...] | None) -> tuple[bool, ...]:
    """``base`` limited to the plain kinds, or (``plain`` None) to the natural ones: cached."""
    key = (base, plain)
    found = _KEEP.get(key)
    if found is None:
        if plain is not None:
            found = tuple(base[k] and plain[k] for k in range(KIND_COUNT))
        else:
            found = tuple(base[k] and k != TWO and k != JOKER for k in range(KIND_COUNT))
        if len(_KEEP) > 4096:
            _KEEP.clear()
        _KEEP[key] = found
    return found


def _strands(t: TableState, seat: int, key: int, shown: tuple[int, int, int], added: list[int], top: int) -> bool:
    """D5 b for an action that moves ``shown`` (naturals of the key's rank, 2s, jokers) from the hand to a meld.

    ``top`` is 1 when the pile's top card joins the meld too (a take), else 0.
    ``added`` are the cards the hand gains (a taken pile's rest), or will gain
    when the side's opening is complete. An action that leaves no plain card
    strands the hand, unless it leaves one card and the canastas to go out with.
    A meld the action makes a canasta of closes its rank where ranks close
    (dead-ranks), and the held cards of that rank are stop cards from then on.
    """
    rules = t.dealt
    side = t.seating[seat]
    rank = key & 15
    n, tw, jk = shown
    moved = n + tw + jk + top
    meld = t.melds[side].get(key)
    before = 0 if meld is None else meld.naturals + meld.twos + meld.jokers
    size = rules.melds.canasta_size
    completes = before < size <= before + moved
    closes = completes and t.closes_ranks and rank >= 4
    plain = plain_now(t)
    counts = t.counts[seat]
    kinds = t.kinds
    plain_after = False
    for kind in range(4, KIND_COUNT):
        if counts[kind] - (n if kind == rank else 0) and plain[kind] and not (closes and kind == rank):
            plain_after = True
            break
    else:
        plain_after = any(plain[kinds[c]] and not (closes and kinds[c] == rank) for c in added)
    if plain_after:
        return False
    cards_after = t.sizes[seat] - n - tw - jk + len(added)
    return not (cards_after == 1 and t.canastas(side) + completes >= rules.going_out.canastas_required)


def meld_strands(t: TableState, seat: int, key: int, n: int, tw: int, jk: int) -> bool:
    """Whether a meld, with the pile empty and a plain card held, would leave the seat without one (D5 b).

    A meld that makes a canasta of a rank that then closes (dead-ranks) turns
    the held cards of that rank into stop cards. The pile cards waiting for
    the side's opening count as held.

    Args:
        t: The hand, with `strict_pile` true for the seat.
        seat: The acting seat.
        key: The meld's key (its rank, or ``rank + SECOND_MELD``).
        n: Naturals melded.
        tw: 2s melded.
        jk: Jokers melded.

    Returns:
        True if the meld is refused by D5 b.
    """
    pending = t.pending_pile
    return _strands(t, seat, key, (n, tw, jk), pending if pending is not None else _NONE, 0)


def take_strands(t: TableState, seat: int, shape: tuple[int, int, int, int]) -> bool:
    """Whether a pile take would leave the seat without a plain card (D5 b: the pile is empty after it).

    The hand then holds its cards less those shown, and the rest of the pile
    (at once, or when the side's opening is complete) but its bonus threes
    and set-aside black threes.

    Args:
        t: The hand, in the draw phase, with a pile to take.
        seat: The seat taking.
        shape: ``(naturals, twos, jokers, second)`` shown.

    Returns:
        True if the take is refused by D5 b.
    """
    rules = t.dealt
    kinds = t.kinds
    pile = t.pile
    top = kinds[pile[-1]]
    n, tw, jk, second = shape
    dropped = rules.threes.black_threes_are_bonus or rules.black_threes.set_aside_from_pile
    red = rules.threes.red_threes_are_bonus
    rest = [c for c in pile[:-1] if not ((kinds[c] == RED_THREE and red) or (kinds[c] == BLACK_THREE and dropped))]
    return _strands(t, seat, top + SECOND_MELD if second else top, (n, tw, jk), rest, 1)


_NONE: Final[list[int]] = []
