"""The sequence games' pile takes (`SEQUENCES.md` §9.7, §9.12, §10.3, §11.2): which ways to take the pile are legal.

A side takes the pile in one of three modes (§9.7): with a **natural pair** of the
top card's rank from the hand, the three cards making a new group or joining one of
the side's groups of that rank (a canasta included); or, while the pile is not
frozen for the side, by adding the top card **alone** to one of its groups of that
rank, or at an end of one of its sequences of that suit, that has fewer than 7
cards. Never with one natural and one wild card, never the top card alone onto a
canasta, never to start a sequence. A side that has not opened takes only with a
natural pair, and only if its opening can still be completed with the top card, the
pair and the hand (`canasta.suitedsearch.opening_reachable`); Brazilian canasta's
unopened sides never take (§11.2). After the take the turn must still be completable
(SPEC §0): a player left with one card or none, or bound by a "yes", must be able to
go out (`canasta.suitedsearch.can_go_out`).

The engine plays the sequence games with it (`canasta.suitedlegality`); tested on
§13's worked examples S-1, S-2, B-4 and R-1. An unopened side's take must leave its
opening reachable with two cards held once the pile's cards join it (a discard then
keeps one), or let it open and go out in the turn (a sound test, as for provisional
melds: `canasta.suitedmelds`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from canasta.cards import Card, Kind, Suit
from canasta.meldtypes import GroupShape, MeldShape, MeldType, SequenceShape
from canasta.rules import DEFAULT_CARD_VALUES, GoingOutRules
from canasta.suitedhand import OpeningRequirement, SuitedHand
from canasta.suitedmelds import opens_and_goes_out
from canasta.suitedsearch import can_go_out, hand_size, opening_reachable
from canasta.suitedtakes import PileTake, TakeMode
from canasta.typeset import group_shape, sequence_shape, type_set

__all__ = ["TOP_ALONE_BELOW", "PileTake", "TakeMode", "legal_pile_takes", "takeable"]

#: A group or sequence the top card joins alone holds fewer cards than this (§9.7 (b), (c)).
TOP_ALONE_BELOW: Final = 7

_NOTHING = SuitedHand((0,) * 44)

# The takes, made once each: their fields are checked when made (`canasta.suitedtakes`), and they are
# frozen values a legal list shares safely. Keyed by plain ints (a mode's and a suit's hash is Python's).
_TAKES: dict[int, PileTake] = {}
_TAKES_SIZE = 1 << 12


def _take(mode: TakeMode, meld: int | None, pair: tuple[Suit, Suit] | None) -> PileTake:
    """The take of these fields, made once."""
    # (The meld most significant, so any number keys apart; a pair as 1 + 4 * first + second, none as 0.)
    code = 0 if mode is TakeMode.PAIR else 1 if mode is TakeMode.TOP_ONTO_GROUP else 2  # (by identity: no hash)
    key = ((0 if meld is None else meld + 1) * 3 + code) * 17
    if pair is not None:
        key += 1 + 4 * pair[0] + pair[1]
    found = _TAKES.get(key)
    if found is None:
        if len(_TAKES) > _TAKES_SIZE:
            _TAKES.clear()
        found = _TAKES[key] = PileTake(mode, meld, pair)
    return found


def _pairs(hand: SuitedHand, rank: int) -> list[tuple[Suit, Suit]]:
    """The distinct pairs of suits of the hand's naturals of ``rank``."""
    held = [hand.naturals[(rank - 4) * 4 + s] for s in range(4)]
    return [
        (Suit(a), Suit(b)) for a in range(4) for b in range(a, 4) if held[a] and held[b] and (a != b or held[a] >= 2)
    ]


def _without(hand: SuitedHand, rank: int, suits: Sequence[Suit]) -> SuitedHand:
    naturals = list(hand.naturals)
    for suit in suits:
        naturals[(rank - 4) * 4 + suit] -= 1
    return SuitedHand.counted(tuple(naturals), hand.twos, hand.jokers, hand.black_threes)


def takeable(top: Card) -> bool:
    """Whether a pile with this top card may be taken at all (never under a wild card or a three, §9.7).

    Args:
        top: The pile's top card.

    Returns:
        False for a joker, a two, a black three or the red-three upcard.
    """
    return top.kind not in (Kind.JOKER, Kind.TWO, Kind.RED_THREE, Kind.BLACK_THREE) and top.suit is not None


def legal_pile_takes(
    top: Card,
    *,
    hand: SuitedHand,
    pile_below: SuitedHand,
    melds: Mapping[int, MeldShape],
    types: Sequence[MeldType],
    frozen: bool,
    opened: bool,
    opening: OpeningRequirement,
    quota: GoingOutRules,
    bound: bool = False,
    unopened_may_take: bool = True,
    values: Sequence[int] = DEFAULT_CARD_VALUES,
    completable_only: bool = True,
    sequence_top_only: bool = False,
    may_go_out: bool = True,
) -> list[PileTake]:
    """The legal ways to take the pile, rules and completability both (§9.7, §9.12, §11.2, SPEC §0).

    Args:
        top: The pile's top card.
        hand: The player's hand.
        pile_below: The pile's other cards (they go to the hand; red threes
            among them are laid out, so the caller leaves them out).
        melds: The side's melds by identity.
        types: The rule set's meld types.
        frozen: The pile is frozen for the side (a wild card or red three in
            it, or the side has not opened).
        opened: The side has made its initial meld.
        opening: What the side's initial meld needs (read while not opened).
        quota: The going-out quota (`canasta.GoingOutRules`).
        bound: The player is bound by a "yes" to go out this turn.
        unopened_may_take: A side that has not opened may take with a pair
            (Samba, Bolivia); ``False``: never (Brazilian, §11.2).
        values: Card values indexed by `canasta.Kind`.
        completable_only: Keep only the takes after which the turn can be
            completed (§9.12, SPEC §0); ``False``: every take the pile rules
            allow (for references, `canasta.HandState.allowed_actions`).
        may_go_out: The player may go out this turn (``False`` after a "no", or where
            permission is required and no "yes" was given): then a take must leave a
            discard that keeps a card.
        sequence_top_only: The top card alone onto a sequence takes that card only
            (``samba-top-card-only``, §9.13): the pile's other cards stay, and the
            one-card rule applies to it.

    Returns:
        The legal takes, pairs first (new group, then the groups by identity),
        then the top card alone onto groups and sequences by identity.
    """
    if not takeable(top):
        return []
    size = hand_size(hand)
    below = hand_size(pile_below)
    if size == 1 and below == 0:
        return []  # the one-card rule (SPEC §1)
    if not opened and not unopened_may_take:
        return []
    kinds = type_set(types)
    groups = kinds.groups
    sequences = kinds.sequences
    rank, suit = top.rank, top.suit
    takes: list[PileTake] = []
    if groups is not None:
        for pair in _pairs(hand, rank):
            rest = _without(hand, rank, pair)
            new_group = group_shape(rank, 3)
            if not opened:
                # The opening must stay reachable, and the turn then end: a discard that keeps a card (the
                # pile's cards join the hand once it opens) or going out where the player may.
                count = 3 * values[rank]
                keep = max(0, 2 - below)
                if (
                    not completable_only
                    or opening_reachable(
                        rest, opening, types, melds=(new_group,), count=count, values=values, keep=keep
                    )
                    or (
                        may_go_out
                        and keep
                        and opens_and_goes_out(rest, (new_group,), types, quota, opening, count, values, pile_below)
                    )
                ):
                    takes.append(_take(TakeMode.PAIR, None, pair))
                continue
            targets: list[tuple[int | None, MeldShape]] = (
                [(None, new_group)] if kinds.valid(groups, new_group, False) else []
            )
            for key, meld in sorted(melds.items()):
                if isinstance(meld, GroupShape) and meld.rank == rank:
                    joined = group_shape(rank, meld.naturals + 3, meld.twos, meld.jokers)
                    if kinds.can_add(groups, meld, joined, False):
                        targets.append((key, joined))
            for target, placed in targets:
                if not completable_only or _completes(
                    melds, target, placed, rest, pile_below, types, quota, bound, may_go_out
                ):
                    takes.append(_take(TakeMode.PAIR, target, pair))
    if not opened or frozen:
        return takes
    for number, meld in sorted(melds.items()):
        alone: MeldShape
        if groups is not None and isinstance(meld, GroupShape) and meld.rank == rank:
            mode = TakeMode.TOP_ONTO_GROUP
            alone = group_shape(rank, meld.naturals + 1, meld.twos, meld.jokers)
            if meld.size >= TOP_ALONE_BELOW or not kinds.can_add(groups, meld, alone, False):
                continue
        elif sequences is not None and isinstance(meld, SequenceShape) and meld.suit == suit:
            mode = TakeMode.TOP_ONTO_SEQUENCE
            if meld.size >= TOP_ALONE_BELOW or rank not in (meld.low - 1, meld.high + 1):
                continue
            if sequence_top_only and size == 1:
                continue  # the one-card rule: one card taken
            alone = sequence_shape(int(suit), min(meld.low, rank), max(meld.high, rank))
            if not kinds.can_add(sequences, meld, alone, False):
                continue
        else:
            continue
        joining = _NOTHING if sequence_top_only and mode is TakeMode.TOP_ONTO_SEQUENCE else pile_below
        if not completable_only or _completes(melds, number, alone, hand, joining, types, quota, bound, may_go_out):
            takes.append(_take(mode, number, None))
    return takes


def _completes(
    melds: Mapping[int, MeldShape],
    number: int | None,
    placed: MeldShape,
    hand: SuitedHand,
    pile_below: SuitedHand,
    types: Sequence[MeldType],
    quota: GoingOutRules,
    bound: bool,
    may_go_out: bool = True,
) -> bool:
    """Whether the turn can still be completed after a take that leaves ``placed`` (SPEC §0)."""
    if hand_size(hand) + hand_size(pile_below) >= 2 and not bound:
        return True  # a discard keeps a card
    after = hand.plus(pile_below)
    if not may_go_out:
        return False  # (fewer than 2 cards: only going out ends the turn, and the player may not)
    table = [m for n, m in melds.items() if n != number]
    table.append(placed)
    return can_go_out(after, table, types, quota)
