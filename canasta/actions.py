"""Actions: small frozen values in kind terms.

Actions are lossless: a player says how many 2s and how many jokers go into a
meld, never "some wild card". There is no take-back action: taking back moves
is not a rule of Canasta (the rule book, "What “legal” means"); `canasta.Game.undo` gives interfaces an
undo from the game's history. Non-decisions (dealing, laying out red threes,
replacing them, the upcard, picking up the pile once the minimum is met) happen
automatically.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Final, TypeAlias

from attrs import field, frozen

from canasta.cards import Kind, Suit
from canasta.fieldvalues import enum_member, non_negative, suit_of

__all__ = [
    "ACTION_TYPES",
    "Action",
    "AnswerGoOut",
    "AskGoOut",
    "DeclareSpecialHand",
    "Discard",
    "DrawStock",
    "EndHand",
    "LayOutThree",
    "Meld",
    "PickUpPacket",
    "TakePile",
]


def _count(value: object) -> int:
    """Validate a card count at construction: an ``int`` of 0 or more (`canasta.fieldvalues`).

    Look-alikes are refused rather than kept: ``2.0 == 2`` would pass the
    engine's membership test and then corrupt a state. Integer types that say
    they are exact integers (numpy's, via ``__index__``) are converted to ``int``.
    """
    return non_negative(value, "a card count")


def _kind(value: object) -> Kind:
    """Validate a card kind at construction: a `Kind`, or an exact integer naming one."""
    return enum_member(value, Kind, "card kind")


def _optional_suit(value: object) -> Suit | None:
    """A suit (`canasta.Suit`, or its number), or ``None``."""
    return None if value is None else suit_of(value)


def _flag(value: object, what: str) -> bool:
    if type(value) is bool:
        return value
    if type(value).__name__ in ("bool_", "bool") and type(value).__module__ == "numpy":
        return bool(value)
    raise TypeError(f"{what} must be True or False, got {value!r} ({type(value).__name__})")


def _yes(value: object) -> bool:
    """Validate an answer: ``True`` or ``False`` (numpy's bool converted), nothing else.

    ``AnswerGoOut(0)`` would otherwise slip past the engine's ``is False`` checks.
    """
    return _flag(value, "an answer")


def _check_flags(action: TakePile | Meld) -> None:
    """Validate the choices of a take or meld (``second``, ``book``): ``True`` or ``False`` (numpy's converted).

    Called by their ``__attrs_post_init__`` only when a flag is not a plain ``bool``: one
    call per construction where two converters would cost two (the engine makes melds often).
    """
    for name in ("second", "book"):
        value = getattr(action, name)
        if type(value) is not bool:
            object.__setattr__(action, name, _flag(value, name))  # (frozen: set once, before any hash)
    if not isinstance(action, Meld):
        return
    slot = action.slot
    if type(slot) is not int or slot < 0:
        slot = _count(slot)
        object.__setattr__(action, "slot", slot)
    # ``second`` is ``slot == 1`` spelt the old way (cutthroat's second meld of a rank): one action, two spellings.
    if action.second:
        if slot not in (0, 1):
            raise ValueError(f"second=True names meld 1 of the rank; it cannot be combined with slot={slot}")
        object.__setattr__(action, "slot", 1)
    elif slot == 1:
        object.__setattr__(action, "second", True)


def _ordinal(slot: int) -> str:
    """A meld's or book's number as a word: slot 0 is the first."""
    return _ORDINALS[slot] if slot < len(_ORDINALS) else f"{slot + 1}th"


_ORDINALS: Final = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


@frozen(cache_hash=True)
class DrawStock:
    """Draw from the stock (the variant's draw count; red threes are replaced automatically)."""

    name: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw from the stock"


@frozen(cache_hash=True)
class TakePile:
    """Take the discard pile, showing cards of the top card's rank from hand.

    ``TakePile(2, 0, 0)`` shows a natural pair; ``TakePile(1, 1, 0)`` one natural
    and a 2; ``TakePile(1, 0, 1)`` one natural and a joker; ``TakePile(0, 0, 0)``
    adds the top card to the side's meld of that rank. With a wild card on top
    (`canasta.PileRules.wild_pair`), ``TakePile(0, 2, 0)`` shows two 2s for a 2
    and ``TakePile(0, 0, 2)`` two jokers for a joker, into the wild meld. The
    top card and the shown cards are melded at once.

    Attributes:
        naturals: Naturals of the top card's rank shown from hand.
        twos: 2s shown.
        jokers: Jokers shown.
        second: Onto the side's second meld of that rank (only under
            ``cutthroat``, where partners who both held a rank keep two melds).
        book: Onto one of the side's books of that rank (only under
            `canasta.MeldRules.add_to_books`, Hand and Foot's ``add-to-books``:
            a natural pair; the side's books of a rank are interchangeable).
    """

    naturals: int = field(default=2, converter=_count)
    twos: int = field(default=0, converter=_count)
    jokers: int = field(default=0, converter=_count)
    second: bool = field(default=False, kw_only=True)
    book: bool = field(default=False, kw_only=True)
    name: ClassVar[str] = "take"

    def __attrs_post_init__(self) -> None:
        if type(self.second) is not bool or type(self.book) is not bool:
            _check_flags(self)  # type: ignore[unreachable]  # (numpy's bool, or a wrong type: refused there)

    def __repr__(self) -> str:
        second = ", second=True" if self.second else ""
        if self.book:
            second += ", book=True"
        return f"TakePile(naturals={self.naturals}, twos={self.twos}, jokers={self.jokers}{second})"

    def __str__(self) -> str:
        onto = " (onto the second meld of that rank)" if self.second else ""
        if self.book:
            onto = " (onto a book of that rank)"
        if not (self.naturals or self.twos or self.jokers):
            return "take the pile (top card onto a meld)" + onto
        if self.naturals == 2:
            return "take the pile with a natural pair" + onto
        if not self.naturals:
            return "take the pile with two 2s" if self.twos else "take the pile with two jokers"
        wild = "a 2" if self.twos else "a joker"
        return f"take the pile with a natural and {wild}" + onto


_PLURALS = {Kind.SIX: "sixes", Kind.BLACK_THREE: "black threes"}


def _symbol(kind: Kind) -> str:
    return kind.symbol


@frozen(cache_hash=True)
class Meld:
    """Meld cards of one rank from hand: a new meld or additions to the side's meld.

    Attributes:
        rank: The meld's kind: a natural rank, ``BLACK_THREE`` (only when
            going out) or ``JOKER`` for a wild meld where allowed.
        naturals: Natural cards of that rank (black threes for ``BLACK_THREE``).
        twos: 2s.
        jokers: Jokers.
        second: Onto the side's second meld of that rank: ``slot=1`` (under
            ``cutthroat``, where partners who both held a rank keep two melds,
            and under `canasta.MeldRules.several_melds`). Either spelling makes
            the same action: ``second`` is true exactly when ``slot`` is 1.
        book: Onto one of the side's books of that rank (only under
            `canasta.MeldRules.add_to_books`, Hand and Foot's ``add-to-books``:
            natural cards go onto the first book of the rank, ``slot=0``: for
            them the side's books of a rank are interchangeable; wild cards,
            under `canasta.MeldRules.wilds_onto_books`, onto the dirty book
            ``slot`` names).
        slot: Which of the side's melds of that rank (`canasta.MeldRules.several_melds`):
            its open melds of a kind are numbered from 0 in the order made (a
            book leaves the numbering), and the next number starts a new meld;
            with ``book``, which of its books of the rank, numbered from 0 in the
            order made. 0 everywhere else (the side's meld of the rank, or a new one).
    """

    rank: Kind = field(converter=_kind)
    naturals: int = field(default=0, converter=_count)
    twos: int = field(default=0, converter=_count)
    jokers: int = field(default=0, converter=_count)
    second: bool = field(default=False, kw_only=True)
    book: bool = field(default=False, kw_only=True)
    slot: int = field(default=0, kw_only=True)
    name: ClassVar[str] = "meld"

    def __attrs_post_init__(self) -> None:
        if (
            self.slot
            or self.second
            or type(self.second) is not bool
            or type(self.book) is not bool
            or type(self.slot) is not int
        ):
            _check_flags(self)  # (a slot, or numpy's bool, or a wrong type: normalized or refused there)

    def __repr__(self) -> str:
        second = ", second=True" if self.slot == 1 else f", slot={self.slot}" if self.slot else ""
        if self.book:
            second += ", book=True"
        return f"Meld(rank={self.rank!r}, naturals={self.naturals}, twos={self.twos}, jokers={self.jokers}{second})"

    def __str__(self) -> str:
        return self.sentence(_symbol)

    def sentence(self, name: Callable[[Kind], str]) -> str:
        """The meld as a sentence, its rank written by ``name`` (``str(meld)`` writes `Kind.symbol`).

        Args:
            name: How to write a kind (`canasta.wording.kind_name` writes a ten ``10``).

        Returns:
            E.g. ``"meld 3×K + 1×joker (kings)"``.
        """
        parts = []
        if self.naturals:
            parts.append(f"{self.naturals}×{name(self.rank)}")
        if self.twos:
            parts.append(f"{self.twos}×2")
        if self.jokers:
            parts.append(f"{self.jokers}×joker")
        target = "wild meld" if self.rank == Kind.JOKER else _PLURALS.get(self.rank, f"{self.rank.name.lower()}s")
        # (Past the second, the number too: the table and the commands number melds and books from 0.)
        if self.book:
            book = f"the {_ordinal(self.slot)} book of {target} (book {self.slot})"
            target = book if self.slot else f"a book of {target}"
        elif self.slot == 1:
            target = f"the second meld of {target}"
        elif self.slot:
            target = f"the {_ordinal(self.slot)} meld of {target} (meld {self.slot})"
        return f"meld {' + '.join(parts)} ({target})"


@frozen(cache_hash=True)
class Discard:
    """Discard one card of a kind, ending the turn.

    Attributes:
        kind: The kind discarded.
        suit: The suit of the natural card discarded, in rule sets that meld
            sequences (`canasta.Rules.meld_types`: which card goes decides
            which sequences stay possible); ``None`` everywhere else.
    """

    kind: Kind = field(converter=_kind)
    suit: Suit | None = field(default=None, kw_only=True, converter=_optional_suit)
    name: ClassVar[str] = "discard"

    def __attrs_post_init__(self) -> None:
        if self.suit is not None and not self.kind.is_natural:
            raise ValueError(
                f"only a natural card's discard names its suit, got {self.kind.name} with {self.suit.name}"
            )

    def __repr__(self) -> str:
        if self.suit is None:
            return f"Discard(kind={self.kind!r})"
        return f"Discard(kind={self.kind!r}, suit={self.suit!r})"

    def __str__(self) -> str:
        if self.suit is not None:
            return f"discard {self.kind.symbol}{self.suit.symbol}"
        return f"discard {self.kind.symbol}"


@frozen(cache_hash=True)
class AskGoOut:
    """Ask the partner "may I go out?" (before melding anything this turn)."""

    name: ClassVar[str] = "ask"

    def __str__(self) -> str:
        return "ask partner: may I go out?"


@frozen(cache_hash=True)
class AnswerGoOut:
    """The partner's binding answer.

    Attributes:
        yes: True for "yes".
    """

    yes: bool = field(converter=_yes)
    name: ClassVar[str] = "answer"

    def __str__(self) -> str:
        return "answer: yes, go out" if self.yes else "answer: no, do not go out"


@frozen(cache_hash=True)
class EndHand:
    """End the hand where the rules let the player end it.

    With the stock exhausted, this declines an optional pile take; after a
    last-card red three (rule option `last-red-three-may-meld`) it stops melding.
    """

    name: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end the hand"


def _hand_id(value: object) -> str:
    """Validate a special hand's id: a non-empty ``str``."""
    if type(value) is not str or not value:
        raise TypeError(f"a special hand's id must be a non-empty str, got {value!r} ({type(value).__name__})")
    return value


def _optional_kind(value: object) -> Kind | None:
    return None if value is None else _kind(value)


@frozen(cache_hash=True)
class DeclareSpecialHand:
    """Declare a special hand (rule sets with `canasta.Rules.special_hands`): lay 14 cards face up; the hand ends.

    Attributes:
        hand: The special hand's id (`canasta.SpecialHand.id`), e.g. ``"pairs"``.
        discard: With a two-card draw, the 15th card's kind, discarded; ``None``
            when the hand holds exactly the 14 cards.
    """

    hand: str = field(converter=_hand_id)
    discard: Kind | None = field(default=None, converter=_optional_kind)
    name: ClassVar[str] = "declare"

    def __str__(self) -> str:
        discard = f", discarding {self.discard.symbol}" if self.discard is not None else ""
        return f"declare the special hand {self.hand}{discard}"


@frozen(cache_hash=True)
class LayOutThree:
    """Lay out the three kept in hand and draw its replacement (rule sets with `canasta.ThreeRules.keep_one`).

    The club form's special hands, "Keeping a three": a player whose side has
    not melded keeps one three in hand (for the Straight); he may lay it out
    in his turn, before he discards, while a stock card is left to replace
    it. Where the rules lay it out themselves, the engine does it.
    """

    name: ClassVar[str] = "lay_out"

    def __str__(self) -> str:
        return "lay out the kept three"


@frozen(cache_hash=True)
class PickUpPacket:
    """Pick up the next packet at will (rule sets with `canasta.PacketRules.after_first_canasta`).

    Hand and Foot's ``foot-after-first-book``: at the start of any turn after
    the one in which the player first completed a canasta (a book) by their own
    action, before the draw, the player may pick up the next packet (the foot)
    even with cards still in hand; both are then held as one. Its red threes are
    laid out and replaced, and the player then draws as usual. Where the rules
    pick a packet up themselves (an emptied hand), the engine does it.
    """

    name: ClassVar[str] = "pick_up"

    def __str__(self) -> str:
        return "pick up the next packet"


Action: TypeAlias = (
    DrawStock
    | TakePile
    | Meld
    | Discard
    | AskGoOut
    | AnswerGoOut
    | EndHand
    | DeclareSpecialHand
    | LayOutThree
    | PickUpPacket
)

#: The action classes, for a cheap exact type test at the engine's edge.
ACTION_TYPES: frozenset[type] = frozenset(
    {DrawStock, TakePile, Meld, Discard, AskGoOut, AnswerGoOut, EndHand, DeclareSpecialHand, LayOutThree, PickUpPacket}
)
