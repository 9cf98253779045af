"""Can the acting player still complete the turn? The turn-completion oracle (what "legal" means).

what "legal" means: an action is legal when the rules allow it **and** the player can
still complete the turn after it (end it with a legal discard, go out, or end
the hand where the rules end it) without taking anything back. This module
answers that question for the meld phase, exactly, from card counts alone: the
acting player's hand (counts by kind), the side's melds (counts by rank), and
the turn's bookkeeping in a `Turn`. It never copies or mutates a hand; the
legality module builds the counts an action would leave and asks.

How a turn can be completed, by the rules it depends on:

- An opened side (the rule book's "The initial meld": it melds freely) ends the turn by
  discarding a discardable card while keeping at least one ("Going out":
  without going out a player keeps a card), or by going out.
- Going out ("Going out") melds every card, or all but one which is the
  final discard, with the canastas the variant needs; `can_meld_out` decides it
  with a small dynamic programme over the wild cards.
- A side that has not opened must first complete its opening this turn
  ("The initial meld": the count reaches the minimum; in modern American with a
  clean meld of hand naturals, still clean when the opening is complete). If it
  took the pile, the rest of the pile comes into the hand at that moment.
  Melds below the minimum are provisional and may not be left standing, so the
  search `_opening_completes` looks for a way to reach the minimum and then end
  the turn. The concealed exemption lets a player who drew from the stock
  go out without the minimum.
- Going out itself is decided by `canasta.goingout` (one dynamic programme).
- After a binding "yes" ("Asking permission") only going out completes the turn.
- After a last-card red three under ``last-red-three-may-meld`` the
  player may only meld, then end the hand keeping a card, or go out by melding
  every card (with the canastas required); nothing is discardable then
  (``Turn.discardable`` is all False), and provisional melds must reach the
  minimum first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import add
from typing import Final

from canasta.cards import BLACK_THREE, JOKER, KIND_COUNT, NATURAL_INTS, SECOND_MELD, TWO, new_meld_key
from canasta.goingout import MeldCounts, can_meld_out, wild_meld_open
from canasta.rulefacts import Additions, RuleFacts, hand_rules, rule_facts
from canasta.rules import Rules, canasta_class_index

__all__ = [
    "OpeningGroups",
    "OpeningsFound",
    "Turn",
    "book_room",
    "can_complete",
    "has_clean_meld",
    "has_splash",
    "meld_may_complete",
    "opening_completes_after",
    "opening_groups",
    "opening_reached",
    "valid_additions",
]


class Turn:
    """The turn's facts the oracle needs besides the cards: fixed for the rest of the turn.

    Attributes:
        rules: The compiled rules.
        facts: Their values as read by the search (`canasta.rulefacts.RuleFacts`).
        minimum: The acting player's initial-meld minimum (the rule book).
        exempt: Whether the concealed exemption is open (drew from the stock,
            did not take the pile, and the variant has the exemption).
        out_allowed: Whether going out is allowed this turn (not after a "no").
        bound: Whether a binding "yes" obliges the player to go out this turn.
        final_only: After a last-card red three: meld, then end the hand.
        discardable: For each kind, whether a discard of it that keeps cards
            in the hand may end the turn (`canasta.discards.keep_discards`).
        out_discardable: For each kind, whether it may be the final discard of
            going out (`canasta.discards.discardable_kinds`; by default
            ``discardable``).
        closing: Under american-discards with the pile empty, a rank whose
            meld this turn makes a canasta closes (dead-ranks), and its cards
            are then no longer plain: they may not end the turn.
        hold: Cards the player must keep after a discard that does not go out:
            1, or 0 when bonus cards follow the discard
            (``InitialMeldRules.bonus_cards_stand_for_kept_card``).
        top_rank: Rank of the pile's top card taken this turn (-1: none); it is
            not one of the clean meld's hand naturals (modern American, "The initial meld").
        pending: Counts by kind of the pile cards that come into the hand when
            the side's opening is complete (``None``: no pile is waiting).
        pending_size: How many cards ``pending`` holds (0: none).
        splash: The house rule splash is on (read from ``rules``).
        packet_down: The player has a packet still face down (`canasta.PacketRules`, Hand and
            Foot's foot): emptying the hand picks it up and the turn goes on, so a meld may take
            the last card once the side has opened and a discard may take the last card
            (§8.7; the packet's unseen cards end the turn, §8.10 E8). Going out needs the last packet.
        books: Where the rules count canastas by class (``RuleFacts.counts_by_class``):
            the acting side's books set apart so far, by class (natural, mixed,
            wild), for the going-out search (`canasta.goingout.can_meld_out`);
            ``None`` elsewhere.
        unearned: With ``packet_down``: the packet is not yet earned
            (`canasta.PacketRules.after_first_canasta`, Hand and Foot's
            ``foot-after-first-book``): the hand may be emptied, by a meld or a
            discard, only once the player has completed a canasta, which is a meld
            taken from below canasta size to it from this position on (`_earned`).
        canastas_before: With ``unearned``: the keys of the side's melds already of canasta
            size at this position (a canasta the player made before it is not one it makes).
        books_before: With ``unearned``: the side's books at this position (the search sets
            books apart as it lays them: one more is a canasta the player made).
        onto_books: Under `canasta.MeldRules.add_to_books`, the natural ranks of
            the acting side's clean and dirty books: their naturals may go onto a
            book (for the going-out search); empty elsewhere.
        book_room: Under `canasta.MeldRules.wilds_onto_books`, the wild cards the
            acting side's dirty books can still take (for the going-out search); 0 elsewhere.
    """

    __slots__ = (
        "book_room",
        "books",
        "books_before",
        "bound",
        "canastas_before",
        "closing",
        "discardable",
        "exempt",
        "facts",
        "final_only",
        "hold",
        "minimum",
        "onto_books",
        "out_allowed",
        "out_discardable",
        "packet_down",
        "pending",
        "pending_size",
        "rules",
        "splash",
        "top_rank",
        "unearned",
    )

    def __init__(
        self,
        rules: Rules,
        *,
        minimum: int,
        exempt: bool,
        out_allowed: bool,
        bound: bool,
        final_only: bool,
        discardable: Sequence[bool],
        top_rank: int = -1,
        pending: Sequence[int] | None = None,
        out_discardable: Sequence[bool] | None = None,
        closing: bool = False,
        hold: int = 1,
        facts: RuleFacts | None = None,
        packet_down: bool = False,
        books: tuple[int, ...] | None = None,
        unearned: bool = False,
        canastas_before: tuple[int, ...] = (),
        books_before: int = 0,
        onto_books: frozenset[int] = frozenset(),
        book_room: int = 0,
    ) -> None:
        """Collect the turn's facts (see the class attributes); ``facts`` are the rules' own, if the caller has them."""
        self.rules = rules
        self.facts: RuleFacts = rule_facts(rules) if facts is None else facts  # (plain fields for the search)
        self.minimum = minimum
        self.exempt = exempt
        self.out_allowed = out_allowed
        self.bound = bound
        self.final_only = final_only
        self.discardable = tuple(discardable)
        self.out_discardable = self.discardable if out_discardable is None else tuple(out_discardable)
        self.closing = closing
        self.hold = hold
        self.top_rank = top_rank
        self.pending = None if pending is None else tuple(pending)
        self.pending_size = 0 if self.pending is None else sum(self.pending)
        self.splash = rules.initial_meld.splash
        self.packet_down = packet_down
        self.books = books
        self.unearned = unearned
        self.canastas_before = canastas_before
        self.books_before = books_before
        self.onto_books = onto_books
        self.book_room = book_room

    def with_book_room(self, book_room: int) -> Turn:
        """These facts with another ``book_room`` (wild cards just added to a book, or a dirty book set apart).

        Args:
            book_room: The wild cards the side's dirty books can still take.

        Returns:
            A new `Turn`.
        """
        turn = _copy_turn(self, self.books, self.onto_books)
        turn.book_room = book_room
        return turn


class OpeningsFound:
    """Openings found to complete the turn at one position of a meld phase, kept for the next (`canasta.legality`).

    A side that has not opened melds provisionally, and each meld phase of that turn
    asks again which melds can still lead to a completed opening. An opening found at
    one position (the final counts of its melds, each reached by one valid addition,
    after which the turn can be ended) completes the turn from every later position of
    the same turn that only melded toward it: the cards it still needs are in the hand,
    its count is the same, and the cards left after it are the same (the rule book's
    "The initial meld"). `covering` returns those openings, so that the next meld phase
    needs no new search for them.

    Attributes:
        rules: The rules they were found under (the same object, or nothing is carried).
        tag: The turn's bookkeeping they depend on: turn, seat, answer, binding "yes",
            last-red-three meld, the pile's top card taken, stock draw, pending pile.
        hand: The acting player's counts by kind at that position.
        melds: The side's melds at that position.
        provisional: The count of the side's provisional melds at that position.
        found: The openings, each as ``key -> (naturals, twos, jokers)``; the meld phase
            that made this record appends what it finds later.
    """

    __slots__ = ("found", "hand", "melds", "provisional", "rules", "tag")

    def __init__(
        self,
        rules: Rules,
        tag: tuple[object, ...],
        hand: list[int],
        melds: dict[int, tuple[int, int, int]],
        provisional: int,
        found: list[dict[int, tuple[int, int, int]]],
    ) -> None:
        """Keep the openings ``found`` at this position (``hand`` and ``melds`` are copied by the caller)."""
        self.rules = rules
        self.tag = tag
        self.hand = hand
        self.melds = melds
        self.provisional = provisional
        self.found = found

    def covering(
        self,
        rules: Rules,
        tag: tuple[object, ...],
        hand: list[int],
        melds: dict[int, tuple[int, int, int]],
        provisional: int,
    ) -> list[dict[int, tuple[int, int, int]]]:
        """The openings that complete the turn from this position: none unless it follows from the record's.

        The position follows from the record's when the rules and the turn's bookkeeping
        are the same and the only change is cards moved from the hand onto the side's
        melds (each meld at least what it was, the hand short by exactly the cards added,
        the provisional count up by their value). An opening then still completes the
        turn if it contains every meld as it is now.

        Args:
            rules: The rules now.
            tag: The turn's bookkeeping now (as in ``tag``).
            hand: The acting player's counts by kind now.
            melds: The side's melds now.
            provisional: The count of the side's provisional melds now.

        Returns:
            The openings (a new list, possibly empty).
        """
        if rules is not self.rules or tag != self.tag:
            return []
        before = self.melds
        values = rule_facts(rules).card_values
        earlier = self.hand
        moved = [earlier[k] - hand[k] for k in range(KIND_COUNT)]
        added_value = 0
        for key, (n, tw, jk) in melds.items():
            n0, t0, j0 = before.get(key, (0, 0, 0))
            if n < n0 or tw < t0 or jk < j0:
                return []
            rank = key & 15
            moved[rank] = moved[rank] - (n - n0)
            moved[TWO] = moved[TWO] - (tw - t0)
            moved[JOKER] = moved[JOKER] - (jk - j0)
            added_value += values[rank] * (n - n0) + values[TWO] * (tw - t0) + values[JOKER] * (jk - j0)
        for key in before:
            if key not in melds:
                return []
        for k in range(KIND_COUNT):
            if moved[k]:
                return []
        if provisional != self.provisional + added_value:
            return []
        covering = []
        for opening in self.found:
            for key, (n, tw, jk) in melds.items():
                w = opening.get(key)
                if w is None or n > w[0] or tw > w[1] or jk > w[2]:
                    break
            else:
                covering.append(opening)
        return covering


# The private functions' argument types: concrete, so that the compiled engine indexes
# them natively (the public functions accept any sequence and mapping, and convert once).
_Hand = list[int]
_Melds = dict[int, tuple[int, int, int]]


def has_clean_meld(clean_need: int, melds: MeldCounts, top_rank: int) -> bool:
    """Modern American's clean meld: a meld of at least ``clean_need`` hand naturals and no wild card is on the table.

    Args:
        clean_need: Hand naturals the clean meld needs (0: no clean meld is required).
        melds: The side's melds.
        top_rank: Rank of the pile's top card taken this turn (-1: none), which
            is not a hand natural.

    Returns:
        True if the requirement is met (always, when ``clean_need`` is 0).
    """
    return _has_clean_meld(clean_need, melds if isinstance(melds, dict) else dict(melds), top_rank)


def _has_clean_meld(clean_need: int, melds: _Melds, top_rank: int) -> bool:
    """`has_clean_meld` of a dict (iterated natively by the compiled engine: this runs in the search's inner loop)."""
    if not clean_need:
        return True
    for rank, (n, t, j) in melds.items():  # noqa: SIM110 - a plain loop: any() over a generator is slower
        if rank >= 4 and not (t or j) and n - (rank == top_rank) >= clean_need:
            return True
    return False


def has_splash(canasta_size: int, melds: MeldCounts, top_rank: int) -> bool:
    """House rule splash: a natural canasta (no wild card, not the taken top card's rank) or a wild canasta is laid.

    Args:
        canasta_size: Cards that make a canasta.
        melds: The side's melds (all of this turn: the side has not opened).
        top_rank: Rank of the pile's top card taken this turn (-1: none).

    Returns:
        True if one of the melds is such a canasta.
    """
    for rank, (n, t, j) in melds.items():
        if n + t + j < canasta_size:
            continue
        if rank == JOKER or (4 <= rank <= 14 and not (t or j) and rank != top_rank):
            return True
    return False


def opening_reached(
    rules: Rules, count: int, minimum: int, melds: MeldCounts, top_rank: int, *, splash: bool | None = None
) -> bool:
    """The rule book's "The initial meld": the count reaches the minimum, with the clean meld where required.

    Under the house rule splash a canasta laid from the hand completes it too (see `has_splash`).

    Args:
        rules: The compiled rules.
        count: The count the side's melds of this turn reach (what counts per variant).
        minimum: The acting player's minimum.
        melds: The side's melds.
        top_rank: Rank of the pile's top card taken this turn (-1: none).
        splash: Whether the house rule splash is on (``None``: read it from ``rules``;
            the engine passes its own flag, read once per hand).

    Returns:
        True if the opening is complete.
    """
    if count >= minimum and has_clean_meld(rules.initial_meld.clean_meld_naturals, melds, top_rank):
        return True
    if splash is None:
        splash = rules.initial_meld.splash
    return splash and has_splash(rules.melds.canasta_size, melds, top_rank)


def can_complete(
    turn: Turn,
    hand: Sequence[int],
    melds: MeldCounts,
    *,
    opened: bool,
    provisional: int,
    scratch: bool = False,
    witness: dict[int, tuple[int, int, int]] | None = None,
    size: int = -1,
) -> bool:
    """Whether the acting player, in the meld phase, can still complete the turn legally (what "legal" means).

    Args:
        turn: The turn's facts.
        hand: The player's card counts by kind.
        melds: The side's melds.
        opened: Whether the side has completed its initial meld.
        provisional: The count of the side's provisional opening melds this turn.
        scratch: ``hand`` is a list and ``melds`` a dict the caller made for
            this call: the search works on them in place (and restores them)
            instead of copying them.
        witness: Filled, when the side has not opened and an opening found by
            the search completes the turn, with the melds of that opening (as
            in `meld_may_complete`); left empty when the answer comes another way.
        size: The number of cards in ``hand``, if the caller knows it (-1: count them).

    Returns:
        True if some sequence of melds ends the turn legally.
    """
    hand = hand if isinstance(hand, list) else list(hand)  # (the private functions' concrete types; no copy
    melds = melds if isinstance(melds, dict) else dict(melds)  # of the engine's own, no call either)
    if size < 0:
        size = sum(hand)
    if opened:
        return _opened_completes(turn, hand, melds, size)
    if (
        not melds
        and not turn.bound
        and (size >= 2 or (turn.packet_down and not turn.unearned and size))
        and _has_discard(turn, hand, melds)
    ):
        return True  # nothing laid down this turn: a discard ends it (the last card of a hand, with a packet down)
    if turn.final_only and not melds and not turn.bound and size:
        return True  # last-red-three-may-meld: nothing laid down, the hand simply ends
    # The opening first (it usually settles the question, and it finds the witness).
    if _opening_completes(turn, hand, melds, provisional, witness, scratch=scratch, size=size):
        return True
    return _out_concealed(turn, hand, melds)


def meld_may_complete(
    turn: Turn,
    hand: Sequence[int],
    melds: MeldCounts,
    *,
    opened: bool,
    provisional: int,
    witness: dict[int, tuple[int, int, int]] | None = None,
) -> bool:
    """A necessary condition for any meld from here to leave a completable turn.

    Every completion after a meld is also a completion from here that melds
    first, so if no such completion exists, no meld is legal: the caller skips
    the per-candidate checks. For an opened side without a binding "yes" it is
    simply True (most melds keep a card to discard).

    Args:
        turn: The turn's facts.
        hand: The player's card counts by kind.
        melds: The side's melds.
        opened: Whether the side has completed its initial meld.
        provisional: The count of the side's provisional opening melds this turn.
        witness: Filled, when an opening completes the turn, with the melds of
            one such opening: any meld that adds no more to a rank than the
            witness does starts a completion too (the rest of the witness follows).

    Returns:
        False only if no meld can be followed by a completion.
    """
    hand = hand if isinstance(hand, list) else list(hand)  # (the private functions' concrete types; no copy
    melds = melds if isinstance(melds, dict) else dict(melds)  # of the engine's own, no call either)
    if opened:
        if not turn.bound:
            return True
        return turn.out_allowed and can_meld_out(
            hand_rules(turn.facts),
            hand,
            melds,
            turn.out_discardable,
            need=turn.facts.canastas_required,
            witness=witness,
            books=turn.books,
            onto_books=turn.onto_books,
            book_room=turn.book_room,
        )
    # (The opening first, as in `can_complete`.)
    return _opening_completes(turn, hand, melds, provisional, witness) or _out_concealed(turn, hand, melds)


def _out_concealed(turn: Turn, hand: _Hand, melds: _Melds) -> bool:
    """The rule book's "Going out concealed needs no minimum": a side that has not opened goes out without it."""
    return (
        turn.exempt
        and turn.out_allowed
        and can_meld_out(
            hand_rules(turn.facts),
            hand,
            melds,
            turn.out_discardable,
            need=max(turn.facts.canastas_required, 1),
            books=turn.books,
            onto_books=turn.onto_books,
            book_room=turn.book_room,
        )
    )


def _has_discard(turn: Turn, hand: _Hand, melds: _Melds) -> bool:
    """A card in the hand may end the turn as a discard that keeps cards (see `Turn.discardable`)."""
    discardable = turn.discardable
    if turn.closing:
        return _has_open_discard(turn, hand, melds)
    for kind in range(KIND_COUNT):  # noqa: SIM110 - a plain loop: this runs per candidate, any() is slower
        if hand[kind] and discardable[kind]:
            return True
    return False


def _has_open_discard(turn: Turn, hand: _Hand, melds: _Melds) -> bool:
    """`_has_discard` where a rank this turn's melds make a canasta of closes (american-discards with dead-ranks)."""
    discardable = turn.discardable
    size = turn.facts.canasta_size
    for kind in range(KIND_COUNT):
        if hand[kind] and discardable[kind]:
            meld = melds.get(kind)
            if meld is None or meld[0] + meld[1] + meld[2] < size:
                return True
    return False


def _opened_completes(turn: Turn, hand: _Hand, melds: _Melds, size: int) -> bool:
    """An opened side: discard keeping a card (not after "yes"), or go out."""
    if turn.packet_down:
        # Hand and Foot §8.7: emptying the hand picks up the next packet, whose cards end the turn (E8);
        # a discard may take the last card. (Going out needs the last packet: `out_allowed` is False.)
        if not turn.unearned or _earned(turn, melds):
            return not size or _has_discard(turn, hand, melds)
        # foot-after-first-book: not before the player's first canasta; a discard keeps a card, or a
        # meld completes that canasta first.
        return (size >= 2 and _has_discard(turn, hand, melds)) or _canasta_then_ends(turn, hand, melds)
    if turn.final_only and not turn.bound and size:
        return True  # last-red-three-may-meld: end the hand keeping a card
    if not turn.bound and size > turn.hold and _has_discard(turn, hand, melds):
        return True
    if not turn.out_allowed:
        return False
    return can_meld_out(
        hand_rules(turn.facts),
        hand,
        melds,
        turn.out_discardable,
        need=turn.facts.canastas_required,
        books=turn.books,
        onto_books=turn.onto_books,
        book_room=turn.book_room,
    )


def _earned(turn: Turn, melds: _Melds) -> bool:
    """Whether the player has made a canasta since the turn's position (`Turn.unearned`): the packet is earned.

    Only the player acts in its own turn, so a meld of canasta size that was not one at that
    position, or a book set apart since (the search's books), is the player's own.
    """
    books = turn.books
    if books is not None and sum(books) > turn.books_before:
        return True
    size = turn.facts.canasta_size
    before = turn.canastas_before
    for key, (n, t, j) in melds.items():  # noqa: SIM110 - a plain loop: any() over a generator is slower
        if n + t + j >= size and key not in before:
            return True
    return False


def _canasta_then_ends(turn: Turn, hand: _Hand, melds: _Melds) -> bool:
    """foot-after-first-book: one meld completes a canasta, after which the hand is empty or holds a discard.

    A single addition reaches any meld contents two would (only the result is checked), and melds
    of other kinds before it only take cards away; once the canasta is made the packet is earned,
    and the turn ends as `_opened_completes` says with a packet down. (Called with few cards: a
    hand of two or more discards and keeps one.)
    """
    facts = turn.facts
    size = facts.canasta_size
    is_valid = facts.is_valid
    total = sum(hand)
    keys: list[int] = list(NATURAL_INTS)
    if facts.wild_melds:
        keys.append(JOKER)
    for key in melds:
        if key >= SECOND_MELD:
            keys.append(key)  # (cutthroat: a rank's second meld; several-melds: each open meld)
    if facts.several_melds:
        for kind in [k for k in keys if k < SECOND_MELD]:
            new = new_meld_key(melds, kind)
            if new != kind:
                keys.append(new)  # several-melds: a new meld beside the kind's open ones
    for key in keys:
        rank = key & 15
        n0, t0, j0 = melds.get(key, (0, 0, 0))
        before = n0 + t0 + j0
        if before >= size:
            continue  # already a canasta: adding to it makes none
        have = 0 if rank == JOKER else hand[rank]
        if before + have + hand[TWO] + hand[JOKER] < size:
            continue
        for n, t, j in valid_additions(is_valid, rank, n0, t0, j0, have, hand[TWO], hand[JOKER]):
            if before + n + t + j < size:
                continue
            if total == n + t + j:
                return True  # the hand emptied by the canasta's own meld: the packet is picked up
            left = list(hand)
            left[rank] = left[rank] - n
            left[TWO] = left[TWO] - t
            left[JOKER] = left[JOKER] - j
            if _has_discard(turn, left, melds):
                return True
    return False


def _opening_completes(
    turn: Turn,
    hand: _Hand,
    melds: _Melds,
    provisional: int,
    witness: dict[int, tuple[int, int, int]] | None = None,
    *,
    scratch: bool = False,
    size: int = -1,
) -> bool:
    """Search for melds from the hand that complete the opening, after which the turn can end.

    Melds commute until the opening is complete, so the search takes the
    groups in a fixed order (natural ranks, the wild meld, black threes) and
    adds to each at most once. As soon as the opening is complete the side is
    opened: the pending pile comes into the hand and `_opened_completes`
    decides the rest (any later meld is possible there too). On success the
    melds of the completed opening are written into ``witness`` if given.
    """
    if turn.splash and _splash_completes(turn, hand, melds, witness):
        return True
    if turn.facts.clean_meld_naturals and not _clean_meld_possible(turn, hand, melds):
        return False
    groups = _opening_groups(turn, hand, melds)
    remaining = groups.total
    if groups.take_wilds:
        values = turn.facts.card_values
        remaining += values[TWO] * hand[TWO] + values[JOKER] * hand[JOKER]
    ranks, values_of = groups.ranks, groups.values
    return _search_opening(turn, hand, melds, provisional, ranks, values_of, remaining, witness, scratch, size)


class OpeningGroups:
    """The groups an opening search lays, in its order, with an upper bound of the count each can add.

    Made by `opening_groups`; `opening_completes_after` reuses one for every
    candidate meld of a meld phase (the candidate changes only its own group).

    Attributes:
        ranks: The groups: the meldable natural ranks, richest first, then the
            wild meld (where the variant has one) and black threes (where they
            may meld, three or more held).
        values: The count each group's natural cards could add (0 for the wild meld).
        naturals: How many of ``ranks`` are natural ranks (they come first).
        total: The sum of ``values``.
        take_wilds: Whether some group can take wild cards (any but black threes alone):
            then the hand's wild cards count towards the bound as well.
    """

    __slots__ = ("naturals", "ranks", "take_wilds", "total", "values")

    def __init__(self, ranks: list[int], values: list[int], naturals: int, total: int, take_wilds: bool) -> None:
        self.ranks = ranks
        self.values = values
        self.naturals = naturals
        self.total = total
        self.take_wilds = take_wilds


def opening_groups(turn: Turn, hand: Sequence[int], melds: MeldCounts) -> OpeningGroups:
    """The groups of an opening search from this position (see `OpeningGroups`).

    Args:
        turn: The turn's facts.
        hand: The player's card counts by kind.
        melds: The side's melds.

    Returns:
        The groups, in the order the search lays them.
    """
    hand = hand if isinstance(hand, list) else list(hand)  # (the private functions' concrete types; no copy
    melds = melds if isinstance(melds, dict) else dict(melds)  # of the engine's own, no call either)
    return _opening_groups(turn, hand, melds)


def _opening_groups(turn: Turn, hand: _Hand, melds: _Melds) -> OpeningGroups:
    """`opening_groups` of the concrete types."""
    facts = turn.facts
    values = facts.card_values
    # An upper bound on the count: naturals only of ranks that can be melded,
    # wild cards only if some group can take them.
    min_naturals = facts.min_naturals
    melded = [False] * KIND_COUNT  # (the melds' kinds, read once: a list index per rank below)
    for kind in melds:
        if kind < KIND_COUNT:
            melded[kind] = True
    # Each meldable rank as ``value * 16 + rank``: sorting these ints orders the ranks
    # by value, then by rank (no tuples to build, compare and unpack).
    naturals: list[int] = []
    for r in NATURAL_INTS:  # (a plain loop: a comprehension is a function call in Python 3.11)
        held = hand[r]
        if held >= min_naturals or melded[r]:
            naturals.append(values[r] * held * 16 + r)
    # The richest groups first: the minimum is reached in fewer steps (the order
    # does not change the answer, melds commute until the opening is complete).
    naturals.sort()
    groups: list[int] = []
    group_values: list[int] = []
    total = 0
    for i in range(len(naturals) - 1, -1, -1):
        value = naturals[i] >> 4
        groups.append(naturals[i] & 15)
        group_values.append(value)
        total += value
    if facts.wild_melds:
        groups.append(JOKER)
        group_values.append(0)
    if facts.black_threes_when_going_out and hand[BLACK_THREE] >= 3 and not turn.packet_down:
        groups.append(BLACK_THREE)  # (only going out melds them; with a packet down nobody goes out)
        group_values.append(values[BLACK_THREE] * hand[BLACK_THREE])
        total += values[BLACK_THREE] * hand[BLACK_THREE]
    take_wilds = bool(groups) and (len(groups) > 1 or groups[0] != BLACK_THREE)
    if facts.several_melds:
        return _several_opening_groups(turn, hand, melds, groups, group_values, len(naturals), total, take_wilds)
    return OpeningGroups(groups, group_values, len(naturals), total, take_wilds)


def _several_opening_groups(
    turn: Turn,
    hand: _Hand,
    melds: _Melds,
    kinds: list[int],
    kind_values: list[int],
    naturals: int,
    total: int,
    take_wilds: bool,
) -> OpeningGroups:
    """`_opening_groups` under several-melds: each kind's groups are its open melds, then the new melds it can make.

    Groups are keys (``kind + SECOND_MELD * number``): the open melds of the kind in order, then as
    many new ones as its cards could make (each needs ``min_naturals`` naturals of the hand, or
    ``min_size`` wild cards for a wild meld). A kind's value bounds its last group (an upper bound
    of the count for every group before it).
    """
    facts = turn.facts
    keys: list[int] = []
    values: list[int] = []
    natural_keys = 0
    wilds = hand[TWO] + hand[JOKER]
    for i, kind in enumerate(kinds):
        open_melds = (new_meld_key(melds, kind) - kind) // SECOND_MELD
        if kind == BLACK_THREE:
            new = 1 if not open_melds else 0
        elif kind == JOKER:
            new = wilds // max(turn.rules.melds.min_size, 1)
        else:
            new = hand[kind] // max(facts.min_naturals, 1)
        count = open_melds + new
        for number in range(count):
            keys.append(kind + SECOND_MELD * number)
            values.append(kind_values[i] if number == count - 1 else 0)
        if i < naturals:
            natural_keys += count
    return OpeningGroups(keys, values, natural_keys, total, take_wilds)


def opening_completes_after(
    turn: Turn,
    hand: list[int],
    melds: dict[int, tuple[int, int, int]],
    provisional: int,
    before: OpeningGroups,
    rank: int,
    *,
    witness: dict[int, tuple[int, int, int]] | None = None,
    size: int,
) -> bool:
    """`can_complete` for a side that has not opened, after a meld of natural ``rank`` that does not open it.

    The groups of the search are those of the position before the meld
    (``before``, from `opening_groups`), with this rank's group now the
    meld's: what the cards left can add to it. For the callers that decide many
    candidate melds of one position; not under the concealed-going-out exemption
    or the house rule splash (`can_complete` handles those).

    Args:
        turn: The turn's facts (``turn.exempt`` and ``turn.splash`` false).
        hand: The player's card counts after the meld: a list made for this call
            (the search works on it in place, and restores it).
        melds: The side's melds after the meld: a dict made for this call (likewise).
        provisional: The count of the side's provisional melds, this one included.
        before: The groups of the position before the meld.
        rank: The meld's natural rank (4 to 14).
        witness: As in `can_complete`.
        size: The number of cards in ``hand``.

    Returns:
        True if some sequence of melds ends the turn legally.
    """
    facts = turn.facts
    if facts.clean_meld_naturals and not _clean_meld_possible(turn, hand, melds):
        return False
    card_values = facts.card_values
    value = card_values[rank] * hand[rank]
    ranks = before.ranks
    values = before.values
    naturals = before.naturals
    at = 0
    while at < naturals and ranks[at] != rank:
        at += 1
    if at < naturals:
        remaining = before.total - values[at] + value
        values = list(values)
        values[at] = value
    else:
        # (The rank was not a group before: now that it is melded it is one.)
        remaining = before.total + value
        ranks = [*ranks[:at], rank, *ranks[at:]]
        values = [*values[:at], value, *values[at:]]
    # (A natural group now: the wild cards count.)
    remaining += card_values[TWO] * hand[TWO] + card_values[JOKER] * hand[JOKER]
    return _search_opening(turn, hand, melds, provisional, ranks, values, remaining, witness, True, size)


def _canastas_reachable(turn: Turn, hand: _Hand, melds: _Melds) -> bool:
    """A cheap necessary test of going out this turn: enough melds could reach canasta size.

    A canasta is one meld of a rank (or the wild meld) with ``canasta_size``
    cards: naturals of its rank (from the hand, the pile taken and the meld
    itself) and wild cards (all of them at most). Ranks that cannot get there,
    whatever else is melded, cannot be the canastas going out needs.
    """
    facts = turn.facts
    need = facts.canastas_required
    if need <= 0 or turn.books is not None:
        return True  # (canastas counted by class: the going-out search decides)
    size = facts.canasta_size
    pending = turn.pending
    wilds = hand[TWO] + hand[JOKER]
    if pending is not None:
        wilds += pending[TWO] + pending[JOKER]
    possible = 0
    for key, (_, t, j) in melds.items():
        wilds += t + j
        if key >= SECOND_MELD:
            possible += 1  # (cutthroat: a rank's second meld may be a canasta of its own; counted as possible)
    for kind in range(BLACK_THREE, KIND_COUNT):  # (black threes too: a large deck could make a canasta of them)
        naturals = hand[kind] + (pending[kind] if pending is not None else 0)
        meld = melds.get(kind)
        if meld is not None:
            naturals += meld[0]
        if naturals and naturals + wilds >= size:
            possible += 1
    if facts.wild_melds and wilds >= size:
        possible += 1
    return possible >= need


def _clean_meld_possible(turn: Turn, hand: _Hand, melds: _Melds) -> bool:
    """Modern American, "The initial meld": the clean meld of hand naturals is on the table or can still be made.

    A clean meld on the table with the hand's naturals of its rank, or a new meld of them.
    """
    clean_need = turn.facts.clean_meld_naturals
    top_rank = turn.top_rank
    if _has_clean_meld(clean_need, melds, top_rank):
        return True
    for rank, (n, t, j) in melds.items():
        if 4 <= rank <= 14 and not (t or j) and n - (rank == top_rank) + hand[rank] >= clean_need:
            return True  # a clean meld on the table, with the hand's naturals of its rank
    for rank in NATURAL_INTS:  # noqa: SIM110 - a plain loop: any() over a generator is slower
        if hand[rank] >= clean_need and rank not in melds:
            return True  # a new meld of hand naturals
    return False


def _search_opening(
    turn: Turn,
    hand: _Hand,
    melds: _Melds,
    provisional: int,
    groups: list[int],
    group_values: list[int],
    remaining: int,
    witness: dict[int, tuple[int, int, int]] | None,
    scratch: bool,
    size: int,
) -> bool:
    """The search of `_opening_completes` over these groups (the count they could add: ``remaining``)."""
    if provisional + remaining < turn.minimum:
        return False  # even melding every meldable card would not reach the minimum
    if turn.books is not None and turn.facts.makes_books:
        # Books that make room: a meld of canasta size is set apart (its rank starts again), and melds no
        # longer commute (a book first, then a new meld of its rank), so no witness stands for a candidate.
        witness = None
        turn, melds = _books_set_apart(turn, melds)
        scratch = True  # (a dict of its own now)
    if turn.bound and not _canastas_reachable(turn, hand, melds):
        return False  # after "yes" only going out completes the turn, and it needs canastas the cards cannot make
    if scratch:
        work_hand, work_melds = hand, melds  # the caller's copies (see `can_complete`)
    else:
        work_hand, work_melds = list(hand), dict(melds)
    if size < 0:
        size = sum(hand)
    facts = turn.facts
    if JOKER in melds and facts.wild_meld_first and wild_meld_open(turn.rules, melds):
        # Rule-of-five: while the wild meld is incomplete no wild card joins a natural meld. An opening
        # either puts none there (mode 1), or completes the wild meld first (mode 2: its group first).
        if _search(turn, work_hand, work_melds, provisional, remaining, groups, group_values, 0, witness, size, 1):
            return True
        at = groups.index(JOKER)
        groups = [JOKER, *groups[:at], *groups[at + 1 :]]
        group_values = [group_values[at], *group_values[:at], *group_values[at + 1 :]]
        return _search(turn, work_hand, work_melds, provisional, remaining, groups, group_values, 0, witness, size, 2)
    return _search(turn, work_hand, work_melds, provisional, remaining, groups, group_values, 0, witness, size)


def _splash_completes(
    turn: Turn, hand: Sequence[int], melds: MeldCounts, witness: dict[int, tuple[int, int, int]] | None
) -> bool:
    """House rule splash: complete a canasta from the hand (opening the side), after which the turn can end.

    Melds commute until the opening is complete and every meld stays possible
    after it, so laying the splash canasta first, with no other meld, loses
    nothing: for each canasta the hand can complete (a natural rank other than
    the taken top card's, or the wild meld with each split of 2s and jokers),
    the pending pile comes in and `_opened_completes` decides the rest. The
    normal search (`_search`) covers the openings that reach the minimum.
    """
    facts = turn.facts  # (the hand's meld state: ``turn.rules`` are the rules dealt)
    size = facts.canasta_size
    is_valid = facts.is_valid
    candidates: list[tuple[int, int, int, int]] = []
    for rank in NATURAL_INTS:
        n0, t0, j0 = melds.get(rank, (0, 0, 0))
        need = size - n0
        if rank != turn.top_rank and not (t0 or j0) and 0 < need <= hand[rank] and is_valid(rank, size, 0, 0):
            candidates.append((rank, need, 0, 0))
    if facts.wild_melds:
        _, t0, j0 = melds.get(JOKER, (0, 0, 0))
        for twos in range(t0, size + 1):
            dt, dj = twos - t0, size - twos - j0
            if 0 <= dj <= hand[JOKER] and dt <= hand[TWO] and dt + dj and is_valid(JOKER, 0, twos, size - twos):
                candidates.append((JOKER, 0, dt, dj))
    pending = turn.pending
    for rank, n, dt, dj in candidates:
        after_hand = list(hand)
        if rank != JOKER:
            after_hand[rank] = after_hand[rank] - n
        after_hand[TWO] = after_hand[TWO] - dt
        after_hand[JOKER] = after_hand[JOKER] - dj
        if pending is not None:
            after_hand = list(map(add, after_hand, pending))
        m0 = melds.get(rank, (0, 0, 0))
        after = dict(melds)
        after[rank] = (m0[0] + n, m0[1] + dt, m0[2] + dj)
        if _opened_completes(turn, after_hand, after, sum(after_hand)):
            if witness is not None:
                witness.update(after)
            return True
    return False


def _search(
    turn: Turn,
    hand: list[int],
    melds: dict[int, tuple[int, int, int]],
    provisional: int,
    remaining: int,
    groups: list[int],
    group_values: list[int],
    index: int,
    witness: dict[int, tuple[int, int, int]] | None,
    size: int,
    mode: int = 0,
) -> bool:
    """Lay each group's options in turn until the opening is complete and the turn can end.

    ``mode`` (rule-of-five, wild meld incomplete): 1, no wild card goes into a
    natural meld; 2, the wild meld (the first group) is completed first.
    """
    minimum = turn.minimum
    additions_by_kind = turn.facts.additions  # (by kind: shared across the club rules' meld states)
    clean_need = turn.facts.clean_meld_naturals
    # Books that make room (read once: the options below test it only where it is on).
    book_size = turn.facts.canasta_size if turn.books is not None and turn.facts.makes_books else 0
    several = turn.facts.several_melds
    last = len(groups)
    while index < last and provisional + remaining >= minimum:
        meld_key = groups[index]  # (a kind; several-melds: ``kind + SECOND_MELD * number``)
        rank = meld_key & 15
        # Cards of this group that a later group cannot use leave the upper bound.
        later = remaining - group_values[index]
        existing = melds.get(meld_key)
        n0, t0, j0 = existing if existing is not None else (0, 0, 0)
        naturals = 0 if rank == JOKER else hand[rank]
        twos = hand[TWO]
        jokers = hand[JOKER]
        additions = additions_by_kind[rank]
        key = (n0, t0, j0, naturals, twos, jokers)
        options = additions.get(key)
        if options is None:
            if len(additions) > 200_000:
                additions.clear()  # bound the memory of long runs
            options = additions[key] = _additions(
                turn.facts, rank, n0, t0, j0, naturals, twos, jokers, turn.facts.validity[rank]
            )
        for n, t, j, added, value, wild_value in options:
            if rank == BLACK_THREE and size - added + turn.pending_size > 1:
                # The rule book: black threes meld only as the last meld of going out (and a pile
                # taken before opening comes into the hand when the opening is complete).
                continue
            if mode and (
                (mode == 1 and rank != JOKER and (t or j))
                or (mode == 2 and rank == JOKER and t0 + t + j0 + j < turn.facts.canasta_size)
            ):
                continue  # rule-of-five: no wild card into a natural meld while the wild meld is incomplete
            count = provisional + value
            if (
                count < minimum
                and (size == added or count + later - wild_value < minimum)
                # (Unless a book: the rest of its rank's naturals may still go into a new meld of it.)
                and (
                    not book_size
                    or size == added
                    or n0 + n + t0 + t + j0 + j < book_size
                    or count + later + group_values[index] - value < minimum
                )
            ):
                continue  # the opening stays incomplete and the rest cannot complete it (the next level's test)
            hand[rank] = hand[rank] - n
            hand[TWO] = hand[TWO] - t
            hand[JOKER] = hand[JOKER] - j
            melds[meld_key] = (n0 + n, t0 + t, j0 + j)
            if book_size and n0 + n + t0 + t + j0 + j >= book_size:
                # A book: set apart, and this rank's group starts again with what the hand holds.
                done = _search_after_book(
                    turn, hand, melds, count, remaining - value, groups, group_values, index, size - added, mode
                )
            elif count >= minimum and (not clean_need or _has_clean_meld(clean_need, melds, turn.top_rank)):
                # The opening is complete: the pending pile comes in, the rest is free play.
                pending = turn.pending
                after = hand if pending is None else list(map(add, hand, pending))
                done = _opened_completes(turn, after, melds, size - added + turn.pending_size)
            else:
                done = size != added and _search(  # (the opening is still incomplete: the next group)
                    turn,
                    hand,
                    melds,
                    count,
                    later - wild_value,
                    groups,
                    group_values,
                    index + 1,
                    witness,
                    size - added,
                    mode,
                )
            if done and witness is not None:
                witness.update(melds)
            hand[rank] = hand[rank] + n
            hand[TWO] = hand[TWO] + t
            hand[JOKER] = hand[JOKER] + j
            if existing is None:
                del melds[meld_key]
            else:
                melds[meld_key] = existing
            if done:
                return True
        if mode == 2 and rank == JOKER:
            return False  # the wild meld must be completed before any wild card goes elsewhere
        # Nothing (more) on this group: go on with the next one.
        remaining = later
        index += 1
        if existing is None and several:
            # several-melds: no new meld here, so none after it either (new melds of a kind are interchangeable).
            while index < last and groups[index] & 15 == rank:
                remaining -= group_values[index]
                index += 1
    return False


def valid_additions(
    is_valid: Callable[[int, int, int, int], bool],
    rank: int,
    n0: int,
    t0: int,
    j0: int,
    have: int,
    twos: int,
    jokers: int,
    *,
    validity: dict[int, bool] | None = None,
) -> list[tuple[int, int, int]]:
    """Every addition of at least one card to a group that leaves a valid meld.

    Args:
        is_valid: The meld rules' `canasta.MeldRules.is_valid`.
        rank: The group's kind.
        n0: Naturals already in the meld (0 for a new meld).
        t0: 2s already in it.
        j0: Jokers already in it.
        have: Naturals of the rank available.
        twos: 2s available.
        jokers: Jokers available.
        validity: The kind's validity memo under these meld rules, if the caller has one
            (``RuleFacts.validity[rank]``, shared by the meld states that give the kind the
            same `canasta.rulefacts.RankKey`; keyed as `canasta.rulefacts.meld_valid` keys it).

    Returns:
        ``(naturals, twos, jokers)`` additions, in lexicographic order.
    """
    found: list[tuple[int, int, int]] = []
    if validity is not None and n0 + have < 256 and t0 + twos < 256 and j0 + jokers < 256:
        # The kind's own memo: the club rules' meld states share it where the kind's state is the same
        # (keyed by the contents alone, as `canasta.rulefacts.meld_valid` keys it).
        prefix = 0
        scale = 256
    else:
        # Validity memo of these meld rules (equal rules share one): the tables built
        # from this are cached by situation, and neighbouring situations ask about
        # the same meld contents again and again (keyed by the rank and the contents).
        validity = _VALIDITY.get(is_valid)
        if validity is None:
            if len(_VALIDITY) > 64:
                _VALIDITY.clear()
            validity = _VALIDITY[is_valid] = {}
        prefix = rank * 64
        scale = 64
    for n in range(have + 1):
        naturals = n0 + n
        for t in range(twos + 1):
            base = ((prefix + naturals) * scale + t0 + t) * scale + j0
            for j in range(jokers + 1):
                if n + t + j:
                    valid = validity.get(base + j)
                    if valid is None:
                        valid = validity[base + j] = is_valid(rank, naturals, t0 + t, j0 + j)
                    if valid:
                        found.append((n, t, j))
    return found


_VALIDITY: Final[dict[Callable[[int, int, int, int], bool], dict[int, bool]]] = {}


def _additions(
    facts: RuleFacts,
    rank: int,
    n0: int,
    t0: int,
    j0: int,
    have: int,
    twos: int,
    jokers: int,
    validity: dict[int, bool] | None = None,
) -> Additions:
    """Valid additions to a group, smallest first, with their sizes and counts (cached by the caller).

    Each is ``(naturals, twos, jokers, cards, count, count of its wild cards)``;
    small melds first keep cards for the discard that ends the turn. ``validity``
    is the kind's validity memo (see `valid_additions`). ``facts`` are the hand's meld state's.
    """
    values = facts.card_values
    options = [
        (
            n,
            t,
            j,
            n + t + j,
            values[rank] * n + values[TWO] * t + values[JOKER] * j,
            values[TWO] * t + values[JOKER] * j,
        )
        for n, t, j in valid_additions(facts.is_valid, rank, n0, t0, j0, have, twos, jokers, validity=validity)
    ]
    options.sort(key=lambda o: (o[3], o[1] + o[2]))
    return tuple(options)


def _books_set_apart(turn: Turn, melds: _Melds) -> tuple[Turn, _Melds]:
    """Books that make room: the melds of canasta size moved from ``melds`` to the turn's books (new turn and dict)."""
    size = turn.facts.canasta_size
    books = turn.books
    if books is None or all(n + t + j < size for n, t, j in melds.values()):
        return turn, dict(melds)
    counts = list(books)
    rest: _Melds = {}
    ranks: list[int] = []
    room = 0
    for key, (n, t, j) in melds.items():
        if n + t + j >= size:
            rank = key & 15  # (several-melds: a key names its kind)
            counts[canasta_class_index(rank, n, t, j, turn.facts.special_bits)] += 1
            ranks.append(rank)
            room += book_room(turn.facts, rank, t, j)
        else:
            rest[key] = (n, t, j)
    return _with_books(turn, tuple(counts), ranks, room), rest


def _with_books(turn: Turn, books: tuple[int, ...], ranks: Sequence[int] = (), room: int = 0) -> Turn:
    """The turn's facts with other books (the opening search's own, made as it lays them).

    ``ranks``: the ranks of the books just set apart; under add-to-books their naturals may go onto them.
    ``room``: the wild cards those books can take (wilds-onto-books).
    """
    onto = turn.onto_books
    if ranks and turn.facts.add_to_books:
        onto = onto | frozenset(r for r in ranks if r != JOKER)
    after = _copy_turn(turn, books, onto)
    after.book_room = turn.book_room + room
    return after


def book_room(facts: RuleFacts, rank: int, twos: int, jokers: int) -> int:
    """The wild cards a book can still take (`canasta.MeldRules.wilds_onto_books`: a dirty book of a natural rank).

    Args:
        facts: The rules' facts.
        rank: The book's rank (``JOKER`` for a wild book).
        twos: Its 2s.
        jokers: Its jokers.

    Returns:
        ``max_wilds`` less its wild cards for a dirty book of a natural rank under wilds-onto-books, else 0.
    """
    if not facts.wilds_onto_books or rank == JOKER or not (twos or jokers):
        return 0
    max_w = facts.max_wilds
    return 0 if max_w is None else max(max_w - twos - jokers, 0)


def _copy_turn(turn: Turn, books: tuple[int, ...] | None, onto: frozenset[int]) -> Turn:
    """A copy of the turn's facts with these books (and ranks that take naturals onto books)."""
    return Turn(
        turn.rules,
        minimum=turn.minimum,
        exempt=turn.exempt,
        out_allowed=turn.out_allowed,
        bound=turn.bound,
        final_only=turn.final_only,
        discardable=turn.discardable,
        top_rank=turn.top_rank,
        pending=turn.pending,
        out_discardable=turn.out_discardable,
        closing=turn.closing,
        hold=turn.hold,
        facts=turn.facts,
        packet_down=turn.packet_down,
        books=books,
        unearned=turn.unearned,
        canastas_before=turn.canastas_before,
        books_before=turn.books_before,
        onto_books=onto,
        book_room=turn.book_room,
    )


def _search_after_book(
    turn: Turn,
    hand: list[int],
    melds: dict[int, tuple[int, int, int]],
    count: int,
    remaining: int,
    groups: list[int],
    group_values: list[int],
    index: int,
    size: int,
    mode: int,
) -> bool:
    """`_search` once the option just laid on ``groups[index]`` made a book: set it apart, then go on from that group.

    ``melds`` holds the book under its rank (left as found); ``count`` includes it; ``size``
    is the cards left in the hand. If the opening is complete the rest is free play;
    otherwise the same group is searched again, as a new meld of its rank.
    """
    key = groups[index]
    rank = key & 15
    n, t, j = melds[key]
    books = list(turn.books or ())
    books[canasta_class_index(rank, n, t, j, turn.facts.special_bits)] += 1
    after_turn = _with_books(turn, tuple(books), (rank,), book_room(turn.facts, rank, t, j))
    after_melds = dict(melds)
    del after_melds[key]
    if count >= turn.minimum and not turn.facts.clean_meld_naturals:
        pending = turn.pending
        after = hand if pending is None else list(map(add, hand, pending))
        return _opened_completes(after_turn, after, after_melds, size + turn.pending_size)
    if not size:
        return False
    if turn.facts.several_melds:
        # The kind's further melds are groups of their own (`_opening_groups`): go on with the next group.
        return _search(
            after_turn, hand, after_melds, count, remaining, groups, group_values, index + 1, None, size, mode
        )
    values = list(group_values)
    values[index] = turn.facts.card_values[rank] * hand[rank] if rank != JOKER else 0
    return _search(after_turn, hand, after_melds, count, remaining, groups, values, index, None, size, mode)
