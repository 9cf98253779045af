"""Meld types of a shape of their own: how the engine plays a plugin's kind of meld (issue 34).

The engine lays, grows and searches the four built-in kinds of meld
(`canasta.meldtypes.BUILT_IN_KINDS`) by dedicated code. A plugin's type that
derives from none of them (`canasta.meldtypes.has_own_shape`: Buraco's runs
holding one wild card, say) tells the engine what it cannot derive
(`MeldType.shape_of`, `MeldType.cards_of`, `MeldType.lays`,
`MeldType.additions`), and this module plays it by those answers alone:

- the generic, lossless actions `LayMeld` (a type's name and the cards) and
  `AddToMeld` (a meld's number and the cards);
- the candidates of a meld phase (`candidates`: the card sets the types list
  that the hand holds and that `valid` or `can_add` accepts, in a going-out turn
  or not), which `canasta.suitedmelds` filters like its own (SPEC §0);
- the reachable placements of a hand's cards into such melds (`outcomes`), which
  the opening and going-out searches of `canasta.suitedsearch` try before they
  place the rest of the hand by the built-in kinds: a side may open and go out
  with such melds, its quota counted by `MeldType.canasta_class`.

`canasta.suitedtransitions` moves the cards these actions name.
On the table such a meld lies under the rank ``OWN_MELD + i`` (``i``: its type's
place in `canasta.Rules.meld_types`); its shape is its type's `shape_of` its
cards. It takes no pile card (the pile's modes are the built-in kinds') and is
never combined. The general path runs only for a rule set with such a type
(`own_types`: `canasta.typeset.TypeSet.own`, found once per rule set's types): the built-in kinds keep their
dedicated paths and their cost.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Final

from attrs import field, frozen

from canasta.canastaclass import CLASS_INDEX, CanastaClass
from canasta.cards import Card, Kind, Suit, parse_card
from canasta.meldtypes import MeldShape, MeldType, SequenceType, first_of
from canasta.suitedhand import SuitedHand
from canasta.typeset import type_set

__all__ = [
    "OWN_MELD",
    "AddToMeld",
    "LayMeld",
    "OwnMeldAction",
    "card_codes",
    "cards_from_codes",
    "cards_value",
    "own_types",
    "take",
]

#: The ``rank`` of a meld of a type of its own on the table (`canasta.table.MeldState`) is
#: ``OWN_MELD`` plus its type's index in `canasta.Rules.meld_types`: past every kind and
#: `canasta.cards.SEQUENCE_MELD`.
OWN_MELD: Final = 32
_CLASSES: Final = tuple(CanastaClass)
_SUIT_LETTERS: Final = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
_RANK_LETTERS: Final = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


def card_codes(cards: SuitedHand) -> tuple[str, ...]:
    """A card set as codes, naturals by rank then suit, then 2s, jokers and black threes.

    A natural is ``"5H"`` (``"T"`` for a ten), a two ``"2"``, a joker ``"*"``, a black three
    ``"3"`` (their suits never matter to the sequence family's rules: `SuitedHand` does not
    count them). `cards_from_codes` reads them back.

    Args:
        cards: The cards.

    Returns:
        The codes.
    """
    codes: list[str] = []
    for index, count in enumerate(cards.naturals):
        rank, suit = index // 4 + 4, Suit(index % 4)
        codes += [_RANK_LETTERS.get(rank, str(rank)) + _SUIT_LETTERS[suit]] * count
    return (*codes, *["2"] * cards.twos, *["*"] * cards.jokers, *["3"] * cards.black_threes)


def cards_from_codes(codes: Iterable[str]) -> SuitedHand:
    """The card set of `card_codes`' codes (a natural's code as `canasta.cards.parse_card` reads it).

    Raises:
        ValueError: For a code that is no card, or a red three.
    """
    naturals = [0] * 44
    twos = jokers = black = 0
    for code in codes:
        if not isinstance(code, str):
            raise ValueError(f"a card's code is a string, got {code!r}")
        text = code.strip().upper()
        if text == "2":
            twos += 1
        elif text in ("*", "JK"):
            jokers += 1
        elif text == "3":
            black += 1
        else:
            rank, suit = parse_card(text)
            kind = Card(rank, suit).kind
            if kind in (Kind.TWO, Kind.JOKER):
                twos, jokers = twos + (kind is Kind.TWO), jokers + (kind is Kind.JOKER)
            elif kind is Kind.BLACK_THREE:
                black += 1
            elif kind is Kind.RED_THREE or suit is None:
                raise ValueError(f"a red three is never melded: {code!r}")
            else:
                naturals[(rank - 4) * 4 + suit] += 1
    return SuitedHand(tuple(naturals), twos, jokers, black)


def _codes_text(cards: SuitedHand) -> str:
    return " ".join(card_codes(cards))


def _cards(value: object) -> SuitedHand:
    """Converter: a `SuitedHand`, or codes `cards_from_codes` reads; never empty."""
    cards = value if isinstance(value, SuitedHand) else cards_from_codes(value)  # type: ignore[arg-type]
    if not cards.size:
        raise ValueError("a meld action moves at least one card")
    return cards


@frozen(repr=False)
class LayMeld:
    """Lay a new meld of a type of its own: the type's name and the cards (lossless: the cards are the meld).

    Attributes:
        type: The meld type's `canasta.meldtypes.MeldType.name`.
        cards: The cards (a `canasta.suitedhand.SuitedHand`, or card codes: ``("5H", "6H", "2")``).
    """

    type: str
    cards: SuitedHand = field(converter=_cards)

    def __repr__(self) -> str:
        return f"LayMeld({self.type!r}, {_codes_text(self.cards)!r})"


@frozen(repr=False)
class AddToMeld:
    """Add cards to one of the side's melds of a type of its own.

    Attributes:
        meld: The meld's number (its identity, `canasta.MeldView.number`).
        cards: The cards added (a `canasta.suitedhand.SuitedHand`, or card codes).
    """

    meld: int
    cards: SuitedHand = field(converter=_cards)

    def __repr__(self) -> str:
        return f"AddToMeld({self.meld}, {_codes_text(self.cards)!r})"


#: The actions of melds of a type of its own.
OwnMeldAction = LayMeld | AddToMeld


def take(hand: SuitedHand, cards: SuitedHand) -> SuitedHand | None:
    """The hand after ``cards`` leave it, or ``None`` if it does not hold them all."""
    naturals = tuple(a - b for a, b in zip(hand.naturals, cards.naturals, strict=True))
    twos, jokers, black = hand.twos - cards.twos, hand.jokers - cards.jokers, hand.black_threes - cards.black_threes
    if min(naturals) < 0 or min(twos, jokers, black) < 0:
        return None
    return SuitedHand.counted(naturals, twos, jokers, black)


def cards_value(cards: SuitedHand, values: Sequence[int]) -> int:
    """The count of a card set (values indexed by `canasta.Kind`; black threes by their value)."""
    naturals = sum(n * values[i // 4 + 4] for i, n in enumerate(cards.naturals) if n)
    wild = cards.twos * values[Kind.TWO] + cards.jokers * values[Kind.JOKER]
    return naturals + wild + cards.black_threes * values[Kind.BLACK_THREE]


def own_types(types: Sequence[MeldType]) -> tuple[tuple[int, MeldType], ...]:
    """A rule set's types of a shape of their own, with their index in ``types`` (empty: none).

    Read once per rule set's types (`canasta.typeset.TypeSet.own`, found by the tuple's
    identity), so the built-in kinds' paths pay one look-up for it.
    """
    return type_set(types).own


def type_of(types: Sequence[MeldType], shape: MeldShape) -> tuple[int, MeldType] | None:
    """The first type of a shape of its own among ``types`` that judges ``shape``, with its index."""
    for i, kind in own_types(types):
        if kind.judges(shape):
            return i, kind
    return None


def _verdict(ok: bool, going_out_ok: bool) -> int:
    return 1 if ok else (2 if going_out_ok else 0)


def candidates(
    hand: SuitedHand, melds: Mapping[int, MeldShape], types: Sequence[MeldType]
) -> list[tuple[OwnMeldAction, int | None, MeldShape, None, bool, int]]:
    """The meld phase's candidates of the types of a shape of their own (`canasta.suitedmelds`' form).

    Each is (action, the meld number it sets or ``None`` for a new meld, the shape there, ``None``
    (no meld removed), whether only a going-out turn allows it, the cards it takes): a type's `lays`
    then, by meld number, the `additions` to each of its melds, each action once.

    Args:
        hand: The player's hand.
        melds: The side's melds by identity.
        types: The rule set's meld types.

    Returns:
        The candidates.
    """
    found: list[tuple[OwnMeldAction, int | None, MeldShape, None, bool, int]] = []
    seen: set[object] = set()
    for _, kind in own_types(types):
        for cards in kind.lays(hand):
            if cards in seen or not cards.size or take(hand, cards) is None:
                continue
            seen.add(cards)
            shape = kind.shape_of(cards)
            if shape is None:
                continue
            verdict = _verdict(kind.valid(shape), kind.valid(shape, going_out=True))
            if verdict:
                found.append((LayMeld(kind.name, cards), None, shape, None, verdict == 2, cards.size))
    for number, meld in sorted(melds.items()):
        owner = type_of(types, meld)
        if owner is None:
            continue
        kind = owner[1]
        held = kind.cards_of(meld)
        tried: set[SuitedHand] = set()
        for cards in kind.additions(meld, hand):
            if cards in tried or not cards.size or take(hand, cards) is None:
                continue
            tried.add(cards)
            grown = kind.shape_of(held.plus(cards))
            if grown is None:
                continue
            verdict = _verdict(kind.can_add(meld, grown), kind.can_add(meld, grown, going_out=True))
            if verdict:
                found.append((AddToMeld(number, cards), number, grown, None, verdict == 2, cards.size))
    return found


def canasta_counts(melds: Iterable[MeldShape], types: Sequence[MeldType], cap: int) -> tuple[int, ...]:
    """Canastas among own-shape melds by class (`canasta.CanastaClass` order), each count at most ``cap``."""
    counts = [0] * len(_CLASSES)
    for meld in melds:
        owner = type_of(types, meld)
        cls = owner[1].canasta_class(meld) if owner is not None else None
        if cls is not None:
            counts[CLASS_INDEX[cls]] = min(cap, counts[CLASS_INDEX[cls]] + 1)
    return tuple(counts)


_OUTCOMES: dict[tuple[object, ...], tuple[object, ...]] = {}
_OUTCOMES_SIZE: Final = 1 << 12
# Each suit's placements (`_parts`), by the type set, the suit, its cards and melds, the cap and the turn.
_SUIT_PARTS: dict[tuple[object, ...], list[tuple[tuple[int, ...], int, int, int, tuple[int, ...]]]] = {}


class _Mixed(Exception):
    """A card set or meld of the types holds naturals of no suit or of several: the search is not split by suit."""


def _suit_of(cards: SuitedHand) -> int:
    """The one suit of a card set's naturals, or `_Mixed`."""
    suits = {i % 4 for i, n in enumerate(cards.naturals) if n}
    if len(suits) != 1:
        raise _Mixed
    return suits.pop()


def _sorted(melds: Iterable[MeldShape]) -> tuple[MeldShape, ...]:
    return tuple(sorted(melds, key=repr))


def outcomes(
    hand: SuitedHand, melds: Sequence[MeldShape], types: Sequence[MeldType], cap: int, *, going_out: bool
) -> Iterator[tuple[SuitedHand, tuple[int, ...]]]:
    """Every placement of some of the hand's cards into melds of the types of a shape of their own.

    New melds as `lays` lists and `valid` accepts, additions as `additions` lists and `can_add`
    accepts, in any order: what the searches of `canasta.suitedsearch` try before they place
    the rest of the hand by the built-in kinds. Where every card set and meld of the types
    holds naturals of one suit (runs, say), each suit is searched apart with the wild cards,
    and the suits' placements are then combined within the wild cards held (as the built-in
    sequences are), so the cost grows with each suit's placements, not with their product;
    otherwise the whole hand is searched at once.

    Args:
        hand: The cards that may be placed.
        melds: The side's melds of those types on the table.
        types: The rule set's meld types.
        cap: The most canastas of a class worth counting.
        going_out: In a going-out turn.

    Returns:
        (the cards left, canastas by class of those melds afterwards) per placement,
        each once (lazily: the fullest first, where the search is split by suit).
    """
    start = _sorted(melds)
    key = (tuple(types), hand, start, cap, going_out)
    known = _OUTCOMES.get(key)
    if known is None:
        try:
            known = _parts(hand, start, types, cap, going_out)
        except _Mixed:
            known = tuple(_walk(hand, start, types, cap, going_out, None))
        if len(_OUTCOMES) > _OUTCOMES_SIZE:
            _OUTCOMES.clear()
        _OUTCOMES[key] = known
    if known and isinstance(known[0], list):
        return _by_suit(hand, types, cap, known)  # type: ignore[arg-type]
    return iter(known)  # type: ignore[arg-type]


def _walk(
    hand: SuitedHand,
    start: tuple[MeldShape, ...],
    types: Sequence[MeldType],
    cap: int,
    going_out: bool,
    suit: int | None,
) -> dict[tuple[SuitedHand, tuple[int, ...]], None]:
    """Every placement from ``hand`` onto ``start`` (each state once); ``suit``: raise `_Mixed` off that suit."""
    owned = own_types(types)
    found: dict[tuple[SuitedHand, tuple[int, ...]], None] = {}
    seen: set[tuple[SuitedHand, tuple[MeldShape, ...]]] = set()
    stack = [(hand, start)]
    while stack:
        rest, laid = stack.pop()
        if (rest, laid) in seen:
            continue
        seen.add((rest, laid))
        found.setdefault((rest, canasta_counts(laid, types, cap)), None)
        for _, kind in owned:
            for cards in kind.lays(rest):
                left = take(rest, cards) if cards.size else None
                shape = kind.shape_of(cards) if left is not None else None
                if left is not None and shape is not None and kind.valid(shape, going_out=going_out):
                    if suit is not None and _suit_of(cards) != suit:
                        raise _Mixed
                    stack.append((left, _sorted((*laid, shape))))
        for i, meld in enumerate(laid):
            owner = type_of(types, meld)
            if owner is None:
                continue
            kind = owner[1]
            for cards in kind.additions(meld, rest):
                left = take(rest, cards) if cards.size else None
                grown = kind.shape_of(kind.cards_of(meld).plus(cards)) if left is not None else None
                if left is not None and grown is not None and kind.can_add(meld, grown, going_out=going_out):
                    stack.append((left, _sorted((*laid[:i], grown, *laid[i + 1 :]))))
    return found


def _to_rank(used: tuple[int, ...]) -> tuple[int, ...]:
    """Naturals by rank and suit moved to the first suit held of each rank (their count by rank kept)."""
    moved = [0] * 44
    for r in range(0, 44, 4):
        moved[r] = used[r] + used[r + 1] + used[r + 2] + used[r + 3]
    return tuple(moved)


def _left(held: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    """The naturals left when ``used`` (by rank, `_to_rank`'s form) leave ``held``: suit by suit, any suit's."""
    left = list(held)
    for r in range(0, 44, 4):
        need = used[r]
        for i in range(r, r + 4):
            gone = min(need, left[i])
            left[i] -= gone
            need -= gone
    return tuple(left)


def _only_suit(hand: SuitedHand, suit: int) -> SuitedHand:
    naturals = tuple(n if i % 4 == suit else 0 for i, n in enumerate(hand.naturals))
    return SuitedHand.counted(naturals, hand.twos, hand.jokers, hand.black_threes)


_Part = list[tuple[tuple[int, ...], int, int, int, tuple[int, ...]]]


def _parts(
    hand: SuitedHand, start: tuple[MeldShape, ...], types: Sequence[MeldType], cap: int, going_out: bool
) -> tuple[_Part, ...]:
    """Each suit's placements apart (or `_Mixed`): (naturals used, 2s, jokers, black threes, canastas by class)."""
    by_suit: list[list[MeldShape]] = [[], [], [], []]
    for meld in start:
        owner = type_of(types, meld)
        if owner is None:
            raise _Mixed
        by_suit[_suit_of(owner[1].cards_of(meld))].append(meld)
    # Per suit: (naturals used, 2s, jokers, black threes used, canastas by class).
    parts: list[_Part] = []
    kinds = type_set(types)
    for suit in range(4):
        mine = _only_suit(hand, suit)
        # (Kept per suit: the candidates of one meld phase change one suit's cards at a time.)
        key = (kinds, suit, mine, tuple(by_suit[suit]), cap, going_out)
        known = _SUIT_PARTS.get(key)
        if known is not None:
            parts.append(known)
            continue
        part = []
        for rest, made in _walk(mine, _sorted(by_suit[suit]), types, cap, going_out, suit):
            used = tuple(a - b for a, b in zip(mine.naturals, rest.naturals, strict=True))
            spent = (mine.twos - rest.twos, mine.jokers - rest.jokers, mine.black_threes - rest.black_threes)
            part.append((used, *spent, made))
        part.sort(key=lambda p: sum(p[0]) + p[1] + p[2] + p[3])  # (the combination tries the fullest first)
        if len(_SUIT_PARTS) > _OUTCOMES_SIZE:
            _SUIT_PARTS.clear()
        _SUIT_PARTS[key] = part
        parts.append(part)
    return tuple(parts)


def _by_suit(
    hand: SuitedHand, types: Sequence[MeldType], cap: int, parts: tuple[_Part, ...]
) -> Iterator[tuple[SuitedHand, tuple[int, ...]]]:
    """`outcomes` from each suit's placements, combined within the wild cards and black threes held."""
    # The suits combined depth first (each suit's naturals are its own; wild cards and black threes are shared),
    # lazily: the searches stop at the first placement that works. Without a sequence type the rest of the search
    # reads the naturals left by rank only: placements are told apart by rank.
    by_rank = first_of(types, SequenceType) is None
    none = (0,) * len(_CLASSES)
    seen: set[tuple[int, tuple[int, ...], int, int, int, tuple[int, ...]]] = set()
    nothing: tuple[int, ...] = (0,) * 44
    stack: list[tuple[int, tuple[int, ...], int, int, int, tuple[int, ...]]] = [(0, nothing, 0, 0, 0, none)]
    while stack:
        state = stack.pop()
        level, used, twos, jokers, black, made = state
        if level == 4:
            if by_rank:
                naturals = _left(hand.naturals, used)
            else:
                naturals = tuple(a - b for a, b in zip(hand.naturals, used, strict=True))
            yield SuitedHand.counted(naturals, hand.twos - twos, hand.jokers - jokers, hand.black_threes - black), made
            continue
        for p_used, p_twos, p_jokers, p_black, p_made in parts[level]:  # (the stack pops the fullest first)
            t, j, b = twos + p_twos, jokers + p_jokers, black + p_black
            if t > hand.twos or j > hand.jokers or b > hand.black_threes:
                continue
            both = tuple(x + y for x, y in zip(used, p_used, strict=True))
            if by_rank:
                both = _to_rank(both)
            counts = tuple(min(cap, x + y) for x, y in zip(made, p_made, strict=True))
            following = (level + 1, both, t, j, b, counts)
            if following not in seen:
                seen.add(following)
                stack.append(following)
