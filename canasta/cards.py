"""Cards, card kinds, card values and deck building.

The rules only ever look at a card's *kind* (the rule book's vocabulary): the eleven
natural ranks, the 2, the joker, the red three and the black three. The engine
therefore keeps per-kind counts for rule checks, and card identities (small
integers indexing a deck) so that users always see real cards.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from enum import IntEnum
from typing import Final

from attrs import frozen

__all__ = [
    "BLACK_THREE",
    "JOKER",
    "KIND_COUNT",
    "MAX_JOKERS",
    "MAX_PACKS",
    "NATURAL_INTS",
    "NATURAL_KINDS",
    "RED_THREE",
    "TWO",
    "WILD_KINDS",
    "Card",
    "Deck",
    "DeckSpec",
    "Kind",
    "Suit",
    "build_deck",
    "kind_from_symbol",
    "new_meld_key",
    "parse_card",
]


class Kind(IntEnum):
    """What a card *is* for the rules.

    Natural ranks use their pip number (``FOUR`` is 4, ``ACE`` is 14) so that
    ``Kind(n)`` reads naturally. ``JOKER`` doubles as the *rank* of a wild meld
    (a meld made only of wild cards) where a variant allows one.
    """

    JOKER = 0
    TWO = 1
    RED_THREE = 2
    BLACK_THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def is_natural(self) -> bool:
        """True for the natural ranks 4 to ace."""
        return self >= Kind.FOUR

    @property
    def is_wild(self) -> bool:
        """True for 2s and jokers."""
        return self <= Kind.TWO

    @property
    def symbol(self) -> str:
        """Short symbol: ``A K Q J T 9 ... 4``, ``2``, ``*`` (joker), ``r3``, ``b3``."""
        return _KIND_SYMBOLS[self]


KIND_COUNT: Final = 15
NATURAL_KINDS: Final[tuple[Kind, ...]] = tuple(Kind(k) for k in range(4, 15))
WILD_KINDS: Final[tuple[Kind, ...]] = (Kind.TWO, Kind.JOKER)

# Plain-int kind indices for the engine's inner loops, defined once here: an
# IntEnum member lookup costs an attribute access per use, an int does not.
#: ``int(Kind.JOKER)``: the joker, and the rank of a wild meld.
JOKER: Final = 0
#: ``int(Kind.TWO)``.
TWO: Final = 1
#: ``int(Kind.RED_THREE)``.
RED_THREE: Final = 2
#: ``int(Kind.BLACK_THREE)``.
BLACK_THREE: Final = 3
#: The natural ranks as plain ints, 4 (four) to 14 (ace).
NATURAL_INTS: Final[tuple[int, ...]] = tuple(range(4, 15))
#: Key offset of a side's second meld of one natural rank: under ``cutthroat``
#: the partners' melds stay apart, so a rank both held is two melds; the second
#: is kept under ``rank + SECOND_MELD`` in the side's melds (its ``rank`` is the
#: natural rank). ``key & 15`` is the rank of either key.
SECOND_MELD: Final = 16
#: The ``rank`` of a sequence's meld state (`canasta.table.MeldState`) in rule sets with meld
#: types (`canasta.Rules.meld_types`: the sequence games): past every kind, so no table by kind
#: is indexed by it; its suit and ranks are its cards'.
SEQUENCE_MELD: Final = 15
#: The most packs a deck may have (`DeckSpec`, checked when rules are compiled): with at most
#: 63 cards of any kind the engine's tables and cache keys hold a count in 6 bits.
MAX_PACKS: Final = 15
#: The most jokers a deck may have (see `MAX_PACKS`).
MAX_JOKERS: Final = 63

_KIND_SYMBOLS: Final = {
    Kind.JOKER: "*",
    Kind.TWO: "2",
    Kind.RED_THREE: "r3",
    Kind.BLACK_THREE: "b3",
    Kind.FOUR: "4",
    Kind.FIVE: "5",
    Kind.SIX: "6",
    Kind.SEVEN: "7",
    Kind.EIGHT: "8",
    Kind.NINE: "9",
    Kind.TEN: "T",
    Kind.JACK: "J",
    Kind.QUEEN: "Q",
    Kind.KING: "K",
    Kind.ACE: "A",
}
_SYMBOL_KINDS: Final = {v: k for k, v in _KIND_SYMBOLS.items()}
_SYMBOL_KINDS["10"] = Kind.TEN


def kind_from_symbol(symbol: str) -> Kind:
    """Parse a kind symbol such as ``"A"``, ``"T"``, ``"10"``, ``"2"``, ``"*"``, ``"r3"``.

    Args:
        symbol: The symbol, case-insensitive for letters.

    Returns:
        The kind.

    Raises:
        ValueError: If the symbol names no kind.
    """
    key = symbol.strip()
    kind = _SYMBOL_KINDS.get(key) or _SYMBOL_KINDS.get(key.upper()) or _SYMBOL_KINDS.get(key.lower())
    if kind is None:
        raise ValueError(f"unknown card kind {symbol!r}; expected one of {sorted(_SYMBOL_KINDS)}")
    return kind


class Suit(IntEnum):
    """Card suits. Only the colour of a three matters to the rules."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def symbol(self) -> str:
        """One-letter symbol: ``C D H S``."""
        return "CDHS"[self]


_RANK_LETTERS: Final = {2: "2", 3: "3", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


@frozen(order=True)
class Card:
    """A physical card.

    Attributes:
        rank: 2 to 14 (ace), or 0 for a joker.
        suit: The suit, or ``None`` for a joker.
        pack: Which pack of the deck the card comes from (0-based). Two cards
            with the same rank and suit differ only by pack.
    """

    rank: int
    suit: Suit | None
    pack: int = 0

    @property
    def kind(self) -> Kind:
        """The card's kind for the rules."""
        if self.suit is None:
            return Kind.JOKER
        if self.rank == 2:
            return Kind.TWO
        if self.rank == 3:
            return Kind.RED_THREE if self.suit.is_red else Kind.BLACK_THREE
        return Kind(self.rank)

    @property
    def code(self) -> str:
        """Compact notation: ``"QH"``, ``"TS"``, ``"3D"``, ``"*"`` for a joker."""
        if self.suit is None:
            return "*"
        return _RANK_LETTERS.get(self.rank, str(self.rank)) + self.suit.symbol

    def __str__(self) -> str:
        return self.code


def parse_card(code: str) -> tuple[int, Suit | None]:
    """Parse card notation into ``(rank, suit)``.

    Accepts ``"QH"``, ``"10S"``, ``"TS"``, ``"3d"``, and ``"*"`` or ``"JK"`` for a joker.

    Args:
        code: The card's notation.

    Returns:
        ``(rank, suit)``; a joker is ``(0, None)``.

    Raises:
        ValueError: If the text is not a card.
    """
    text = code.strip().upper()
    if text in ("*", "JK", "JOKER"):
        return 0, None
    if len(text) < 2:
        raise ValueError(f"not a card: {code!r}")
    rank_text, suit_text = text[:-1], text[-1]
    suits = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}
    if suit_text not in suits:
        raise ValueError(f"not a card: {code!r} (unknown suit {suit_text!r})")
    letters = {v: k for k, v in _RANK_LETTERS.items()}
    if rank_text in letters:
        rank = letters[rank_text]
    elif rank_text.isdigit() and 2 <= int(rank_text) <= 14:
        rank = int(rank_text)
    else:
        raise ValueError(f"not a card: {code!r} (unknown rank {rank_text!r})")
    return rank, suits[suit_text]


@frozen
class DeckSpec:
    """How many packs and jokers make the deck.

    Attributes:
        packs: Number of 52-card packs (1 to `MAX_PACKS`).
        jokers: Number of jokers added (0 to `MAX_JOKERS`).
    """

    packs: int
    jokers: int

    @property
    def size(self) -> int:
        """Total number of cards."""
        return 52 * self.packs + self.jokers


class Deck:
    """The cards of one game, indexed by card id.

    A card id is the index of a card in ``cards``; the engine stores ids and
    looks kinds up in the ``kinds`` table, which keeps rule checks cheap.

    Args:
        spec: Packs and jokers.
    """

    __slots__ = ("cards", "kind_totals", "kinds", "spec")

    def __init__(self, spec: DeckSpec) -> None:
        self.spec = spec
        self.cards: tuple[Card, ...] = tuple(build_deck(spec))
        self.kinds: tuple[int, ...] = tuple(int(c.kind) for c in self.cards)
        totals = [0] * KIND_COUNT
        for k in self.kinds:
            totals[k] = totals[k] + 1
        self.kind_totals: tuple[int, ...] = tuple(totals)

    def __len__(self) -> int:
        return len(self.cards)

    def __eq__(self, other: object) -> bool:
        """Decks are equal when their specs are (the cards follow from the spec)."""
        if not isinstance(other, Deck):
            return NotImplemented
        # Field by field: compiled, ``spec == spec`` would compare identities (attrs adds DeckSpec's
        # __eq__ at run time, which mypyc's compiled comparison of two native instances does not call).
        mine, theirs = self.spec, other.spec
        return mine.packs == theirs.packs and mine.jokers == theirs.jokers

    def __hash__(self) -> int:
        return hash((self.spec.packs, self.spec.jokers))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by spec (both engines: the compiled class has no default pickling)."""
        return (Deck, (self.spec,))

    def __copy__(self) -> Deck:
        """A deck never changes: a copy is the deck itself (as for a tuple)."""
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Deck:
        """A deck never changes: a deep copy is the deck itself (as for a tuple)."""
        return self

    def ids_for(self, codes: Iterable[str | Card], taken: set[int]) -> list[int]:
        """Map card notations to unused card ids of this deck.

        Args:
            codes: Cards as notation (``"QH"``) or `Card` values (whose pack
                is ignored unless it picks a free copy).
            taken: Ids already used; ids chosen here are added to it.

        Returns:
            One card id per code.

        Raises:
            ValueError: If a code is not a card, or no unused copy is left.
        """
        result = []
        for code in codes:
            if isinstance(code, Card):
                rank, suit = code.rank, code.suit
                preferred = code.pack
            else:
                rank, suit = parse_card(code)
                preferred = -1
            candidates = [
                i for i, c in enumerate(self.cards) if c.rank == rank and c.suit == suit and i not in taken
            ]
            if not candidates:
                name = code.code if isinstance(code, Card) else code
                raise ValueError(f"card {name!r} appears more often than the deck holds it")
            pick = next((i for i in candidates if self.cards[i].pack == preferred), candidates[0])
            taken.add(pick)
            result.append(pick)
        return result


def build_deck(spec: DeckSpec) -> list[Card]:
    """List every card of a deck: each pack in suit and rank order, then the jokers.

    Args:
        spec: Packs and jokers.

    Returns:
        The cards; their positions are the card ids used by the engine.
    """
    cards = [Card(rank, suit, pack) for pack in range(spec.packs) for suit in Suit for rank in range(2, 15)]
    cards.extend(Card(0, None, i) for i in range(spec.jokers))
    return cards


def new_meld_key(keys: Container[int], kind: int) -> int:
    """The key a new meld of ``kind`` takes among a side's melds under several melds of a kind.

    A side's open melds of a kind are kept under ``kind + SECOND_MELD * number``, numbered
    from 0 in the order made (`canasta.MeldRules.several_melds`); a new one takes the next number.

    Args:
        keys: The keys of the side's melds (a dict of them will do).
        kind: The kind: a natural rank, or ``JOKER`` for a wild meld.

    Returns:
        The first key of the kind not in ``keys``.
    """
    key = kind
    while key in keys:
        key += SECOND_MELD
    return key
