r"""Typed commands for the terminal game: a small grammar matched against the legal actions.

A player may type a number (the menu's numbering) or a short command. The
same short form is how the menu shows each action (`notation`), so the menu
teaches the grammar:

=====================  =============================================================
command                action
=====================  =============================================================
``d``                  draw from the stock
``t``                  take the pile with a natural pair (or the only legal way)
``t n2`` / ``t n*``    take it with one natural and a 2 / a joker (``n``: a natural
                       of the top card's rank; the rank itself works too: ``t q*``)
``t +``                take it by adding the top card to your meld of its rank
``t 22`` / ``t **``    take a 2 / a joker on top with two of its kind, into your wild
                       meld, where the rules allow it (Hand and Foot)
``m qq*``              meld two queens and a joker (one rank, plus wild cards)
``m q`` / ``m +q``     add a queen to your meld of queens
``m q:2``              add a 2 (only wild cards) to your meld of queens
``m 222``              a wild meld of 2s, where the variant allows one
``m qq'2``             two queens onto your meld 2 of queens (several melds of a rank)
``m k:2]1``            a 2 onto your book 1 of kings (wild cards onto dirty books)
``m b3b3b3``           meld black threes (only when going out)
``x 9``                discard a nine (``x *`` a joker, ``x b3`` a black three)
``ask`` / ``y`` / ``n``  ask "may I go out?" / answer yes / no
``end``                end the hand, where the rules let you
``sh pairs``           declare a special hand (``sh pairs 9``: discarding a nine
                       after a two-card draw), where the rules have special hands
``l3``                 lay out the three kept in hand, where the rules keep one
``pu``                 pick up the next packet at will, before the draw, where the
                       rules allow it (Hand and Foot's foot-after-first-book)
``help`` / ``?``       the grammar and a card legend
``q`` / ``quit``       stop playing
=====================  =============================================================

Cards are the kind symbols of `canasta.Kind` (``A K Q J T 9 8 7 6 5 4``, ``2``,
``*`` for a joker, ``b3``, ``10`` for a ten too), in any case, with or without
spaces. A ``'`` after a meld or take (``m q'``, ``t'``), or the word ``2nd``,
means your side's *second* meld of that rank (meld 1; under the ``cutthroat``
house rule, and where a side may hold several melds of a rank). A ``]`` after
a meld or take (``m kk]``, ``t]``), or the word ``book``, means onto one of your
side's *books* of that rank (under Hand and Foot's ``add-to-books``; a book
shows as ``[K×7]``).

Where a side may hold several melds of a rank (`canasta.MeldRules.several_melds`,
Hand and Foot's ``pierson-family``), its open melds of a rank are numbered from 0
in the order made (`canasta.Meld.slot`), and a number after the ``'`` names one:
``m qq`` goes onto meld 0 (or starts the first), ``m qq'`` onto meld 1, ``m qq'2``
onto meld 2, and the next number starts a new meld beside them. The table marks
each meld the same way (``QQQ QQ2' QQQQ'2``). Where wild cards go onto dirty
books (`canasta.MeldRules.wilds_onto_books`), a number after the ``]`` names a
book of the rank, numbered from 0 in the order made: ``m k:2]1`` adds a 2 to
book 1 of kings, shown ``[K×6+2]1`` (book 0 is ``m k:2]``, shown ``[K×6+2]``).
A pile take names no number (``t'2`` is refused): there it starts a new meld.
The verb may be spelled out (``draw``, ``take``, ``meld``, ``discard``, ``yes``, ``no``).

`parse_command` never builds an action the engine does not list: a
well-formed command naming an action that is not legal now raises the
engine's `canasta.IllegalActionError` (from ``state.check``), whose message
names the rule; anything else it cannot read raises `CommandError`.

The sequence games (Samba, Bolivia, Brazilian canasta; `canasta.suitedactions`)
name suits and melds, and have a grammar of their own (`SEQUENCE_GRAMMAR`,
read by `parse_sequence_command`; `notation` writes it). Suits are the
letters ``c d h s``, a side's meld is ``#`` and its number, ranks are written
as the terminal writes them (``10`` for a ten; ``t`` is read too):

========================  =============================================================
command                   action
========================  =============================================================
``x kh`` / ``x 10s``      discard the king of hearts / a ten of spades (``x *``, ``x 2``,
                          ``x b3`` as before; a natural names its suit)
``seq h 5 9``             a new sequence of hearts from 5 to 9 (``seq h 5-9`` too)
``ext #3 4 10``           extend your side's sequence #3 to run from 4 to 10
``grp k hss2``            a new group of kings: K of hearts, two of spades and a 2
``grp k d* #2``           a K of diamonds and a joker onto your group #2
``wild 22*`` / ``wild 2 #4``  a new wild meld (Bolivia) / a 2 onto wild meld #4
``comb #1 #5``            combine your melds #1 and #5 (it keeps number 1)
``b3 3``                  meld your 3 black threes (only when going out)
``t ch`` / ``t ch #2``    take the pile with a natural pair (clubs and hearts) of the top
                          card's rank, as a new group / onto your group #2
``t grp #2`` / ``t seq #2``  take it by adding the top card alone to group / sequence #2
``lay "run" 5h 7h 2``     a new meld of a plugin's type of its own shape (`canasta.ownshapes`;
                          its name in quotes), by its cards (``2``, ``*``, ``b3`` as above)
``add #3 6h 8h``          add cards to your meld #3 of such a type
``d  ask  y  n  end``     as in every game
========================  =============================================================

Spaces between cards are optional (``grp khss2``, ``x10s``), and the verbs may
be spelled out (``sequence``, ``extend``, ``group``, ``combine``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, Protocol, TypeAlias, cast

from attrs import frozen

from canasta.actions import (
    Action,
    AnswerGoOut,
    AskGoOut,
    DeclareSpecialHand,
    Discard,
    DrawStock,
    EndHand,
    LayOutThree,
    Meld,
    PickUpPacket,
    TakePile,
)
from canasta.cards import Kind, Suit, kind_from_symbol
from canasta.errors import CanastaError
from canasta.observation import Observation
from canasta.ownshapes import AddToMeld, LayMeld, OwnMeldAction, card_codes, cards_from_codes
from canasta.suitedactions import SUITED_ACTION_TYPES, SequenceGameAction, SuitedAction
from canasta.suitedhand import SuitedHand
from canasta.suitedmeldactions import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

__all__ = [
    "GRAMMAR",
    "LEGEND",
    "SEQUENCE_GRAMMAR",
    "SEQUENCE_LEGEND",
    "Command",
    "CommandError",
    "Playable",
    "notation",
    "parse_command",
    "parse_sequence_command",
    "slot_mark",
]


class CommandError(CanastaError):
    """Typed input that is not a command (the message says what is wrong and how to get help)."""


@frozen
class Command:
    """A typed command that is not a game action.

    Attributes:
        kind: ``"help"`` (show the grammar and legend), ``"quit"``, or
            ``"pick"`` (a menu number).
        number: The menu number for ``"pick"`` (1-based), else 0.
    """

    kind: Literal["help", "quit", "pick"]
    number: int = 0


class Playable(Protocol):
    """What `parse_command` needs of a game: a `canasta.Game` or a `canasta.HandState`."""

    @property
    def seat(self) -> int:
        """The seat that must act."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """The acting seat's legal actions."""
        ...

    def check(self, action: Action) -> None:
        """Raise `canasta.IllegalActionError` if the action is illegal now."""
        ...

    def observation(self, seat: int) -> Observation:
        """What a seat may see."""
        ...


#: The grammar, as (command, meaning) rows, for help screens and docs.
GRAMMAR: tuple[tuple[str, str], ...] = (
    ("1, 2, ...", "the action with that number in the menu"),
    ("d", "draw from the stock"),
    ("t", "take the pile with a natural pair (or the only way)"),
    ("t n2  t n*", "take it with a natural (n) and a 2 / a joker"),
    ("t +", "take it, adding the top card to your meld of its rank"),
    ("t 22  t **", "take a 2 / a joker on top with two of its kind"),
    ("m qq*", "meld two queens and a joker (one rank + wild cards)"),
    ("m q  m +q  m q:2", "add a queen / only wild cards (a 2) to your queens"),
    ("m 222", "a wild meld of 2s, where the variant allows one"),
    ("m q'  m q'2  t'", "onto meld 1 / meld 2 of the rank (cutthroat: meld 1)"),
    ("m q]  m q:2]1  t]", "onto a book / book 1 of the rank (add-to-books)"),
    ("x 9  ask  y  n", "discard a nine (x *, x b3); ask 'may I go out?'; yes/no"),
    ("sh pairs  sh pairs 9", "declare a special hand (discard a nine), where allowed"),
    ("l3  pu  end  ?  q", "lay out a kept three; pick up a packet; end; help; quit"),
)

#: The card legend, as (symbol, meaning) rows.
LEGEND: tuple[tuple[str, str], ...] = (
    ("A K Q J 10 9..4", "ranks: ace, king, queen, jack, ten (type 10 or T), 9 to 4"),
    ("2  *  r3  b3", "wild: a 2, a joker; a red three (a bonus), a black three"),
    ("QH 7D 3C", "suits: C clubs, D diamonds, H hearts, S spades"),
    ("QQQ2*  Q×6+2", "melds: 3 queens, a 2, a joker; 6 queens and a 2"),
    ("[AAAAAAA]", "a canasta: green natural, yellow mixed, magenta wild"),
    ("Q' Q'2 [K×7]1  ▶", "melds 1, 2 of queens; book 1 of kings; the seat to play"),
    ("frozen", "a frozen pile: take it only with a natural pair"),
    ("(9, foot 11✓)", "9 in hand; foot of 11 face down, ✓ earned (Hand and Foot)"),
)

_VERBS = {
    "d": "draw",
    "draw": "draw",
    "t": "take",
    "take": "take",
    "m": "meld",
    "meld": "meld",
    "x": "discard",
    "discard": "discard",
    "ask": "ask",
    "y": "yes",
    "yes": "yes",
    "n": "no",
    "no": "no",
    "end": "end",
    "l3": "lay_out",
    "pu": "pick_up",
    "sh": "declare",
    "declare": "declare",
}
_HELP_HINT = "type ? for the commands"
#: The takes of a wild card on top with two of its kind (`canasta.PileRules.wild_pair`).
_WILD_PAIR_TAKES = (TakePile(0, 2, 0), TakePile(0, 0, 2))
#: A typed menu number has at most this many digits (no menu is that long; ``int`` refuses 4,300 digits).
_MAX_MENU_DIGITS = 6
#: A typed meld or book number (``'2``, ``]1``) has at most this many digits (a side holds at most 64 of a kind).
_MAX_SLOT_DIGITS = 2


def notation(action: Action | SuitedAction | OwnMeldAction) -> str:
    """An action's short form in the command grammar (what the menu shows).

    Args:
        action: A legal action (a sequence game's too: `SEQUENCE_GRAMMAR`).

    Returns:
        The command that names it, e.g. ``"m qq*"``, ``"t n2"``, ``"x 9"``,
        ``"seq h 5 9"``, ``"grp k hss2 #3"``, ``"x kh"``.
    """
    if type(action) in SUITED_ACTION_TYPES:
        return _suited_notation(action)  # type: ignore[arg-type]  # (one of SUITED_ACTION_TYPES)
    if isinstance(action, LayMeld):  # a meld type of a shape of its own (`canasta.ownshapes`)
        return f'lay "{action.type}" {_own_cards_text(action.cards)}'
    if isinstance(action, AddToMeld):
        return f"add #{action.meld} {_own_cards_text(action.cards)}"
    if isinstance(action, DrawStock):
        return "d"
    if isinstance(action, TakePile):
        second = "]" if action.book else "'" if action.second else ""
        if (action.naturals, action.twos, action.jokers) == (2, 0, 0):
            return "t" + second
        if not (action.naturals or action.twos or action.jokers):
            return "t +" + second
        return "t " + "n" * action.naturals + "2" * action.twos + "*" * action.jokers + second
    if isinstance(action, Meld):
        return "m " + meld_cards(action)
    if isinstance(action, Discard):
        if action.suit is not None:
            return f"x {_rank_text(action.kind)}{action.suit.symbol.lower()}"
        return "x " + action.kind.symbol.lower()
    if isinstance(action, AskGoOut):
        return "ask"
    if isinstance(action, AnswerGoOut):
        return "y" if action.yes else "n"
    if isinstance(action, DeclareSpecialHand):
        return f"sh {action.hand}" + ("" if action.discard is None else " " + action.discard.symbol.lower())
    if isinstance(action, LayOutThree):
        return "l3"
    if isinstance(action, PickUpPacket):
        return "pu"
    return "end"


def meld_cards(meld: Meld) -> str:
    """The cards of a meld action in the grammar, without the verb: ``"qq*"``, ``"q:2"``, ``"22*"``.

    Args:
        meld: The meld action.

    Returns:
        The card part of its command.
    """
    wilds = "2" * meld.twos + "*" * meld.jokers
    second = slot_mark(meld)
    if meld.rank == Kind.JOKER:
        return wilds + second
    symbol = meld.rank.symbol.lower()
    if not meld.naturals:
        return f"{symbol}:{wilds}{second}"
    return symbol * meld.naturals + wilds + second


def slot_mark(meld: Meld) -> str:
    """The mark that names which of the side's melds or books of the rank a meld action goes onto.

    ``''`` for the first open meld of the rank (or a new one where a side holds
    one meld of a rank), ``'`` for meld 1 (cutthroat's second meld), ``'2``,
    ``'3``... for the next ones (`canasta.MeldRules.several_melds`); ``]`` for
    book 0 of the rank, ``]1``, ``]2``... for the next books
    (`canasta.MeldRules.wilds_onto_books`). The table shows the melds with the
    same marks (``Q'2``, ``[K×6+2]1``).

    Args:
        meld: The meld action.

    Returns:
        The mark, written after the cards (``m qq'2``, ``m k:2]1``).
    """
    if meld.book:
        return f"]{meld.slot}" if meld.slot else "]"
    return "" if not meld.slot else "'" if meld.slot == 1 else f"'{meld.slot}"


def parse_command(text: str, state: Playable) -> Action | Command:
    """Read a typed command and match it against the legal actions.

    Where the rules meld by meld type (the sequence games) the command is read by
    `parse_sequence_command` with the legal actions, so it names suits and meld numbers.

    Args:
        text: What the player typed.
        state: The game (or hand) in play; the command is for its acting seat.

    Returns:
        A legal action, or a `Command` (help, quit, or a menu number to look up).

    Raises:
        CommandError: If the text is not a command of the grammar (the message
            says what is wrong and how to get help).
        IllegalActionError: If the command names a well-formed action that is
            not legal now (the engine's refusal, naming the rule).
    """
    rules = getattr(state, "rules", None)
    if rules is not None and rules.meld_types:
        # Rule sets with meld types (the sequence games) read their own grammar, settled by the legal actions.
        try:
            return cast("Action | Command", parse_sequence_command(text, state.legal_actions()))
        except CommandError:
            _refuse_named(text, state)  # a well-formed action that is not legal: the engine names the rule
            raise
    raw = text.strip()
    lower = raw.lower()
    if not lower:
        raise CommandError(f"nothing typed; {_HELP_HINT}")
    if lower in ("?", "h", "help"):
        return Command("help")
    if lower in ("q", "quit", "exit"):
        return Command("quit")
    if lower.isascii() and lower.isdigit():  # str.isdigit alone accepts "²", which int() refuses
        if len(lower) > _MAX_MENU_DIGITS:
            raise CommandError(f"a number of {len(lower)} digits: no menu is that long; {_HELP_HINT}")
        return Command("pick", int(lower))
    verb, rest = _split_verb(lower)
    if verb is None:
        raise CommandError(f"unknown command {raw.split()[0]!r}; {_HELP_HINT}")
    legal = state.legal_actions()
    if verb in ("draw", "ask", "yes", "no", "end", "lay_out", "pick_up"):
        if rest:
            raise CommandError(f"{verb!r} takes nothing after it, got {rest!r}; {_HELP_HINT}")
        simple: dict[str, Action] = {
            "draw": DrawStock(),
            "ask": AskGoOut(),
            "yes": AnswerGoOut(True),
            "no": AnswerGoOut(False),
            "end": EndHand(),
            "lay_out": LayOutThree(),
            "pick_up": PickUpPacket(),
        }
        return _legal(simple[verb], legal, state)
    if verb == "discard":
        return _legal(_discard(rest), legal, state)
    if verb == "declare":
        return _legal(_declare(rest), legal, state)
    rest, book_slot = _book_flag(rest)
    rest, meld_slot = _second_flag(rest)
    book = book_slot is not None
    if verb == "take":
        if (book_slot or 0) or (meld_slot or 0) > 1:
            mark = f"]{book_slot}" if book_slot else f"'{meld_slot}"
            raise CommandError(
                f"a take names no meld by number ({mark}): t' takes onto a second meld, t] onto a book; {_HELP_HINT}"
            )
        return _take(rest, meld_slot == 1, legal, state, book)
    slot = book_slot if book_slot is not None else meld_slot or 0
    if book_slot is not None and meld_slot is not None:
        if book_slot:
            raise CommandError(f"name a book by ]{book_slot} alone, without '; {_HELP_HINT}")
        slot = meld_slot  # (the old spelling of book slot 1: ' and ])
    return _legal(_meld(rest, slot, book), legal, state)


def _split_verb(lower: str) -> tuple[str | None, str]:
    """The verb and the rest: ``"m qq*"`` and ``"mqq*"`` both give ``("meld", "qq*")``."""
    head, _, tail = lower.partition(" ")
    if head in _VERBS:
        return _VERBS[head], tail.strip()
    if head[0] in "tmx" and len(head) > 1:  # a one-letter verb glued to its cards: "x9", "mqq*", "t+", "t'"
        return _VERBS[head[0]], lower[1:].strip()
    return None, ""


def _trailing_mark(rest: str, mark: str, word: str, meaning: str, joiner: str = " ") -> tuple[str, int | None]:
    """Strip a flag given as a trailing ``mark`` (perhaps numbered) or as ``word`` anywhere.

    Returns the rest (its words joined by ``joiner``) and the flag's number:
    ``None`` without the flag, else the digits after the mark (``'2``, ``]1``).
    The bare mark and the word mean the number their flag always meant: 1 for
    ``'`` (a second meld), 0 for ``]`` (a book).
    """
    default = 1 if mark == "'" else 0
    words = rest.split()
    flagged: int | None = None
    if word in words:
        words.remove(word)
        flagged = default
    rest = joiner.join(words)
    end = rest.rfind(mark)
    digits = rest[end + 1 :].strip() if end >= 0 else ""
    if end >= 0 and digits.isascii() and digits.isdigit():
        if len(digits) > _MAX_SLOT_DIGITS:
            raise CommandError(f"no meld has a number of {len(digits)} digits; {_HELP_HINT}")
        rest, flagged = rest[:end].rstrip(), int(digits)
    elif rest.endswith(mark):
        rest, flagged = rest[:-1].rstrip(), default
    if mark in rest:
        raise CommandError(f"a {mark} goes at the end ({meaning}), got {rest!r}; {_HELP_HINT}")
    return rest, flagged


def _book_flag(rest: str) -> tuple[str, int | None]:
    """Strip a book mark: a trailing ``]`` (book 0) or ``]`` and a number (``]1``), or the word ``book``.

    Returns the rest and the book's number (`canasta.Meld.slot` with ``book``), ``None`` without a mark.
    """
    return _trailing_mark(rest, "]", "book", "onto a book of the rank")


def _second_flag(rest: str) -> tuple[str, int | None]:
    """Strip a meld-number mark: a trailing ``'`` (meld 1) or ``'`` and a number (``'2``), or the word ``2nd``.

    Returns the rest (its cards run together) and the meld's number (`canasta.Meld.slot`), ``None`` without a mark.
    """
    return _trailing_mark(rest, "'", "2nd", "which meld of a rank", joiner="")


def _kinds(cards: str) -> list[Kind]:
    """Card symbols run together (``"qq2*"``, ``"10 10 *"``, ``"b3b3"``) as kinds."""
    kinds: list[Kind] = []
    text = cards.replace(" ", "").replace(",", "")
    i = 0
    while i < len(text):
        for width in (2, 1):
            symbol = text[i : i + width]
            if len(symbol) == width and (width == 1 or symbol in ("10", "b3", "r3")):
                try:
                    kinds.append(kind_from_symbol(symbol))
                except ValueError:
                    raise CommandError(
                        f"{symbol!r} is not a card (cards: a k q j t 9 8 7 6 5 4, 2, * for a joker, b3); {_HELP_HINT}"
                    ) from None
                i += width
                break
    return kinds


def _discard(rest: str) -> Discard:
    if not rest:
        raise CommandError(f"say which card to discard, e.g. x 9 or x *; {_HELP_HINT}")
    kinds = _kinds(rest)
    if len(kinds) != 1:
        raise CommandError(f"discard one card, e.g. x 9, got {rest!r}; {_HELP_HINT}")
    return Discard(kinds[0])


def _declare(rest: str) -> DeclareSpecialHand:
    words = rest.split()
    if not words or len(words) > 2:
        raise CommandError(f"say which special hand to declare, e.g. sh pairs or sh pairs 9; {_HELP_HINT}")
    discard = None
    if len(words) == 2:
        kinds = _kinds(words[1])
        if len(kinds) != 1:
            raise CommandError(
                f"discard one card with the declaration, e.g. sh pairs 9, got {words[1]!r}; {_HELP_HINT}"
            )
        discard = kinds[0]
    return DeclareSpecialHand(words[0], discard)


def _meld(rest: str, slot: int, book: bool = False) -> Meld:
    if rest.startswith("+"):
        rest = rest[1:]
    if not rest:
        raise CommandError(f"say which cards to meld, e.g. m qq* or m kkk; {_HELP_HINT}")
    rank: Kind | None = None
    if ":" in rest:
        head, _, rest = rest.partition(":")
        named = _kinds(head)
        if len(named) != 1 or not (named[0].is_natural or named[0] == Kind.BLACK_THREE):
            raise CommandError(f"before ':' name the meld's rank, e.g. m q:2, got {head!r}; {_HELP_HINT}")
        rank = named[0]
        if not rest:
            raise CommandError(f"say which cards to add after ':', e.g. m {head}:2; {_HELP_HINT}")
    kinds = _kinds(rest)
    if Kind.RED_THREE in kinds:
        raise CommandError("red threes are laid out by themselves, never melded")
    ranks = sorted({k for k in kinds if not k.is_wild}, reverse=True)
    if rank is not None:
        ranks = sorted({*ranks, rank}, reverse=True)
    if len(ranks) > 1:
        shown = " and ".join(k.symbol for k in ranks)
        raise CommandError(f"a meld holds one rank (plus wild cards), got {shown}; {_HELP_HINT}")
    meld_rank = ranks[0] if ranks else Kind.JOKER
    naturals = sum(1 for k in kinds if k == meld_rank) if meld_rank != Kind.JOKER else 0
    twos = kinds.count(Kind.TWO)
    jokers = kinds.count(Kind.JOKER)
    return Meld(meld_rank, naturals, twos, jokers, slot=slot, book=book)


def _take(rest: str, second: bool, legal: Sequence[Action], state: Playable, book: bool = False) -> Action:
    if not rest:
        takes = [a for a in legal if isinstance(a, TakePile) and a.second == second and (a.book or not book)]
        if len(takes) == 1:
            return takes[0]
        return _legal(TakePile(2, 0, 0, second=second, book=book), legal, state)
    if rest == "+":
        return _legal(TakePile(0, 0, 0, second=second, book=book), legal, state)
    pile = state.observation(state.seat).pile
    top = pile[-1].kind if pile and pile[-1].kind.is_natural else None
    pair = next((a for a in legal if isinstance(a, TakePile) and a in _WILD_PAIR_TAKES), None)
    if pair is not None and _kinds(rest.replace("n", "")) != [pile[-1].kind] * 2:
        # A wild card on top (`canasta.PileRules.wild_pair`): the only take is with two of its kind.
        raise CommandError(
            f"the pile's top card is {pile[-1].kind.symbol}: take it with two of its kind, {notation(pair)}; "
            f"{_HELP_HINT}"
        )
    naturals = twos = jokers = 0
    spec = rest.replace("n", "")
    naturals += len(rest) - len(spec)
    for kind in _kinds(spec):
        if kind == Kind.TWO:
            twos += 1
        elif kind == Kind.JOKER:
            jokers += 1
        elif kind == top:
            naturals += 1
        else:
            on_top = f"the pile's top card is {top.symbol}" if top is not None else "the pile has no natural on top"
            raise CommandError(
                f"{on_top}: show naturals of its rank (n), 2s or jokers, e.g. t n*, not {kind.symbol}; {_HELP_HINT}"
            )
    return _legal(TakePile(naturals, twos, jokers, second=second, book=book), legal, state)


def _refuse_named(text: str, state: Playable) -> None:
    """Raise the engine's refusal of the one action a sequence game's command names, if it names one.

    (A command that leaves a choice, or is not read, names none: the caller's `CommandError` stands.)
    """
    try:
        action = parse_sequence_command(text)
    except CommandError:
        return
    if not isinstance(action, Command):
        state.check(cast("Action", action))  # raises IllegalActionError naming the rule


def _legal(action: Action, legal: Sequence[Action], state: Playable) -> Action:
    """The action if the engine lists it; else the engine's refusal."""
    if action in legal:
        return action
    state.check(action)  # raises IllegalActionError naming the rule
    raise CommandError(f"{notation(action)} is not among the legal actions now")  # pragma: no cover


# --- the sequence games ---------------------------------------------------------------

#: The sequence games' grammar (Samba, Bolivia, Brazilian canasta), as (command, meaning) rows.
SEQUENCE_GRAMMAR: tuple[tuple[str, str], ...] = (
    ("1, 2, ...", "the action with that number in the menu"),
    ("d  ask  y  n  end", "draw; ask 'may I go out?'; answer yes / no; end the hand"),
    ("x kh  x 10s  x *", "discard the K of hearts, a ten of spades, a joker"),
    ("seq h 5 9", "a new sequence of hearts, 5 to 9"),
    ("ext #3 4 10", "extend your sequence #3 to run from 4 to 10"),
    ("grp k hss2", "a new group of kings: K of hearts, two of spades, a 2"),
    ("grp k d* #2", "add a K of diamonds and a joker to your group #2"),
    ("wild 22*  wild 2 #4", "a new wild meld (Bolivia); add a 2 to wild meld #4"),
    ("comb #1 #5", "combine your melds #1 and #5 (it keeps number 1)"),
    ("b3 3", "meld your 3 black threes (only when going out)"),
    ("t ch  t ch #2", "take the pile with a pair (clubs, hearts): new group / #2"),
    ("t grp #2  t seq #2", "take it, adding the top card alone to group / sequence #2"),
    ('lay "run" 5h 7h 2', 'a new meld of a plugin\'s own type "run", by its cards'),
    ("add #3 6h 8h", "add cards to your meld #3 of a plugin's own type"),
    ("?  q", "help; quit"),
)

#: The sequence games' legend, as (symbol, meaning) rows.
SEQUENCE_LEGEND: tuple[tuple[str, str], ...] = (
    ("c d h s", "suits: clubs, diamonds, hearts, spades"),
    ("A K Q J 10 9..4", "ranks (type 10 or t); 2 and * are wild, b3 a black three"),
    ("#3", "your side's meld number 3 (numbered as laid, never reused)"),
)

_SEQUENCE_VERBS = {
    "d": "draw",
    "draw": "draw",
    "ask": "ask",
    "y": "yes",
    "yes": "yes",
    "n": "no",
    "no": "no",
    "end": "end",
    "x": "discard",
    "discard": "discard",
    "t": "take",
    "take": "take",
    "seq": "sequence",
    "sequence": "sequence",
    "ext": "extend",
    "extend": "extend",
    "grp": "group",
    "group": "group",
    "wild": "wild",
    "comb": "combine",
    "combine": "combine",
    "b3": "black_threes",
    "lay": "lay_meld",
    "add": "add_to_meld",
}
_SEQUENCE_SIMPLE: dict[str, SequenceGameAction] = {
    "draw": DrawStock(),
    "ask": AskGoOut(),
    "yes": AnswerGoOut(True),
    "no": AnswerGoOut(False),
    "end": EndHand(),
}
_SUIT_LETTERS = {suit.symbol.lower(): suit for suit in Suit}
#: A typed meld number has at most this many digits (a side numbers at most 54 melds in a hand).
_MAX_MELD_DIGITS = 4


def _rank_text(rank: int) -> str:
    """A natural rank as the terminal writes it: ``10`` for a ten, else its symbol, lower case."""
    return "10" if rank == Kind.TEN else Kind(rank).symbol.lower()


def _target_text(meld: int | None) -> str:
    return "" if meld is None else f" #{meld}"


def _suited_notation(action: SuitedAction) -> str:
    """A sequence game's meld or pile take in `SEQUENCE_GRAMMAR`."""
    if isinstance(action, LayGroup):
        naturals = "".join(suit.symbol.lower() * n for suit, n in zip(Suit, action.suits, strict=True))
        wilds = "2" * action.twos + "*" * action.jokers
        return f"grp {_rank_text(action.rank)} {naturals}{wilds}{_target_text(action.meld)}"
    if isinstance(action, LaySequence):
        return f"seq {action.suit.symbol.lower()} {_rank_text(action.low)} {_rank_text(action.high)}"
    if isinstance(action, Extend):
        return f"ext #{action.meld} {_rank_text(action.low)} {_rank_text(action.high)}"
    if isinstance(action, LayWild):
        return "wild " + "2" * action.twos + "*" * action.jokers + _target_text(action.meld)
    if isinstance(action, Combine):
        return f"comb #{action.first} #{action.second}"
    if isinstance(action, LayBlackThrees):
        return f"b3 {action.count}"
    if action.mode is TakeMode.PAIR:
        pair = "".join(suit.symbol.lower() for suit in action.pair or ())
        return f"t {pair}{_target_text(action.meld)}"
    onto = "grp" if action.mode is TakeMode.TOP_ONTO_GROUP else "seq"
    return f"t {onto}{_target_text(action.meld)}"


@frozen
class _Choice:
    """A command that leaves a choice the legal actions may settle (``x k``: which king; ``t``: which take)."""

    fits: Callable[[object], bool]
    ask: str


_Read: TypeAlias = SequenceGameAction | OwnMeldAction | Command | _Choice


def parse_sequence_command(
    text: str, legal: Sequence[object] | None = None
) -> SequenceGameAction | OwnMeldAction | Command:
    """Read a typed command of the sequence games (`SEQUENCE_GRAMMAR`).

    Without ``legal`` the command must name one action (``x kh``, not ``x k``).
    With the legal actions, the action must be among them, and a command that
    leaves a choice is settled by them when only one fits: ``x k`` discards the
    only king that may be discarded, ``t`` takes the pile the only way it may
    be taken, ``t + #2`` adds the top card to meld 2 (a group or a sequence).

    Args:
        text: What the player typed.
        legal: The acting seat's legal actions, or ``None`` to read the
            command alone.

    Returns:
        The action (for every action ``a`` of a sequence game that moves a
        card or more, ``parse_sequence_command(notation(a)) == a``; with
        ``legal``, the listed object itself), or a `Command` (help, quit, or a
        menu number).

    Raises:
        CommandError: If the text is not a command of the grammar, leaves a
            choice (without ``legal``, or that the legal actions do not
            settle), or names an action that is not legal now (the message
            says what is wrong and how to get help).
    """
    raw = text.strip()
    read = _read_sequence_command(raw.lower(), raw)
    if isinstance(read, Command):
        return read
    if legal is None:
        if isinstance(read, _Choice):
            raise CommandError(f"{read.ask}; {_HELP_HINT}")
        return read
    if isinstance(read, _Choice):
        fitting = [a for a in legal if read.fits(a)]
        if len(fitting) == 1:
            return fitting[0]  # type: ignore[return-value]  # (a legal action of a sequence game)
        if not fitting:
            raise CommandError(f"no legal action fits {raw!r} now; {_HELP_HINT}")
        shown = ", ".join(notation(a) for a in fitting[:4])  # type: ignore[arg-type]
        raise CommandError(f"{read.ask} ({shown}); {_HELP_HINT}")
    if read not in legal:
        raise CommandError(f"{notation(read)} is not among the legal actions now; {_HELP_HINT}")
    return legal[legal.index(read)]  # type: ignore[return-value]  # (the engine's own object)


def _read_sequence_command(lower: str, raw: str) -> _Read:
    """The action, command or choice a text names, or `CommandError`."""
    if not lower:
        raise CommandError(f"nothing typed; {_HELP_HINT}")
    if lower in ("?", "h", "help"):
        return Command("help")
    if lower in ("q", "quit", "exit"):
        return Command("quit")
    if lower.isascii() and lower.isdigit():
        if len(lower) > _MAX_MENU_DIGITS:
            raise CommandError(f"a number of {len(lower)} digits: no menu is that long; {_HELP_HINT}")
        return Command("pick", int(lower))
    head, _, tail = lower.partition(" ")
    rest = tail.strip()
    verb = _SEQUENCE_VERBS.get(head)
    if verb is None and head[0] in "xt" and len(head) > 1:  # a one-letter verb glued on: "xkh", "tch"
        verb, rest = _SEQUENCE_VERBS[head[0]], lower[1:].strip()
    if verb is None:
        raise CommandError(f"unknown command {raw.split()[0]!r}; {_HELP_HINT}")
    if verb in _SEQUENCE_SIMPLE:
        if rest:
            raise CommandError(f"{verb!r} takes nothing after it, got {rest!r}; {_HELP_HINT}")
        return _SEQUENCE_SIMPLE[verb]
    if verb == "lay_meld":
        return _read_lay_meld(raw.partition(" ")[2].strip())  # (the type's name as typed, its case kept)
    return _SEQUENCE_READERS[verb](rest)


def _own_cards_text(cards: SuitedHand) -> str:
    """A card set as the terminal types it: ``5h 10h 2 * b3``."""
    return " ".join(_OWN_CODE_TEXT.get(code, code.lower().replace("t", "10", 1)) for code in card_codes(cards))


_OWN_CODE_TEXT = {"2": "2", "*": "*", "3": "b3"}


def _own_cards(text: str) -> SuitedHand:
    """Cards typed as `_own_cards_text` writes them (``5h 10h 2 * b3``)."""
    codes = []
    for token in text.split():
        low = token.lower()
        codes.append("3" if low == "b3" else "T" + low[2:] if low.startswith("10") else low)
    if not codes:
        raise CommandError(f"name the cards, e.g. 5h 7h 2; {_HELP_HINT}")
    try:
        return cards_from_codes(codes)
    except ValueError as exc:
        raise CommandError(f"{exc}; {_HELP_HINT}") from None


def _read_lay_meld(rest: str) -> LayMeld:
    """``lay "buraco run" 5h 7h 2``: a new meld of a type of a shape of its own."""
    if not rest.startswith('"') or rest.count('"') < 2:
        raise CommandError(f'name the meld type in quotes, e.g. lay "buraco run" 5h 6h 7h; {_HELP_HINT}')
    name, _, cards = rest[1:].partition('"')
    if not name:
        raise CommandError(f"name the meld type; {_HELP_HINT}")
    return LayMeld(name, _own_cards(cards))


def _read_add_to_meld(rest: str) -> AddToMeld:
    """``add #3 6h 8h``: cards onto a meld of a type of a shape of its own."""
    number, _, cards = rest.partition(" ")
    return AddToMeld(_meld_number(number), _own_cards(cards))


def _meld_number(token: str, *, hash_needed: bool = True) -> int:
    """A meld number: ``#3`` (or ``3`` where nothing else could stand)."""
    digits = token[1:] if token.startswith("#") else token
    if (hash_needed and not token.startswith("#")) or not (digits.isascii() and digits.isdigit()):
        raise CommandError(f"a meld is # and its number, e.g. #3, got {token!r}; {_HELP_HINT}")
    if len(digits) > _MAX_MELD_DIGITS:
        raise CommandError(f"no meld has a number of {len(digits)} digits; {_HELP_HINT}")
    return int(digits)


def _split_target(rest: str) -> tuple[str, int | None]:
    """The words of ``rest`` without its ``#n`` (run together), and the meld number (``None``: none given)."""
    words = rest.replace("#", " #").split()
    numbers = [w for w in words if w.startswith("#")]
    if len(numbers) > 1:
        raise CommandError(f"name one meld, got {' '.join(numbers)}; {_HELP_HINT}")
    return "".join(w for w in words if not w.startswith("#")), _meld_number(numbers[0]) if numbers else None


def _natural_rank(token: str) -> int:
    try:
        kind = kind_from_symbol(token)
    except ValueError:
        kind = None
    if kind is None or not kind.is_natural:
        raise CommandError(f"{token!r} is not a rank 4 to ace (a k q j 10 9 8 7 6 5 4); {_HELP_HINT}")
    return int(kind)


def _split_rank(text: str) -> tuple[int, str]:
    """A rank at the start of ``text`` (``10`` or one letter) and what follows it."""
    if not text:
        raise CommandError(f"say the rank, e.g. grp k hss; {_HELP_HINT}")
    width = 2 if text.startswith("10") else 1
    return _natural_rank(text[:width]), text[width:]


def _suit(letter: str) -> Suit:
    suit = _SUIT_LETTERS.get(letter)
    if suit is None:
        raise CommandError(f"{letter!r} is not a suit (c d h s); {_HELP_HINT}")
    return suit


def _ends(words: list[str], example: str) -> tuple[int, int]:
    if len(words) != 2:
        raise CommandError(f"say the two ends, e.g. {example}; {_HELP_HINT}")
    low, high = _natural_rank(words[0]), _natural_rank(words[1])
    if low > high:
        raise CommandError(f"the low end goes first, e.g. {example}; {_HELP_HINT}")
    return low, high


def _read_discard(rest: str) -> SequenceGameAction | _Choice:
    text = rest.replace(" ", "")
    if not text:
        raise CommandError(f"say which card to discard, e.g. x kh or x *; {_HELP_HINT}")
    if text in ("2", "*", "b3"):
        return Discard(kind_from_symbol(text))
    if text == "r3":
        raise CommandError("red threes are laid out by themselves, never discarded")
    rank, suit = _split_rank(text)
    if not suit:
        kind = Kind(rank)
        return _Choice(
            lambda a: isinstance(a, Discard) and a.kind == kind and a.suit is not None,
            f"say the suit, e.g. x {_rank_text(rank)}h",
        )
    if len(suit) != 1:
        raise CommandError(f"discard one card, its rank and suit, e.g. x kh, got {rest!r}; {_HELP_HINT}")
    return Discard(Kind(rank), suit=_suit(suit))


def _read_take(rest: str) -> SequenceGameAction | _Choice:
    words, meld = _split_target(rest)
    if not words:
        if meld is not None:
            raise CommandError(f"say how to take it onto #{meld}: t ch #{meld}, t grp #{meld} or t seq #{meld}")
        return _Choice(lambda a: isinstance(a, PileTake), "say how to take the pile: t ch, t grp #2, t seq #2")
    if words in ("grp", "seq", "+"):
        if meld is None:
            raise CommandError(f"say which meld the top card joins, e.g. t {words} #2; {_HELP_HINT}")
        if words == "+":
            return _Choice(
                lambda a: isinstance(a, PileTake) and a.mode is not TakeMode.PAIR and a.meld == meld,
                f"say t grp #{meld} or t seq #{meld}",
            )
        mode = TakeMode.TOP_ONTO_GROUP if words == "grp" else TakeMode.TOP_ONTO_SEQUENCE
        return PileTake(mode, meld)
    if len(words) != 2:
        raise CommandError(f"take the pile with a pair: two suits, e.g. t ch or t ch #2, got {rest!r}; {_HELP_HINT}")
    first, second = sorted((_suit(words[0]), _suit(words[1])))
    return PileTake(TakeMode.PAIR, meld, (first, second))


def _read_sequence(rest: str) -> SequenceGameAction:
    words = rest.replace("-", " ").split()
    if words and words[0] in _SUIT_LETTERS:
        suit = _suit(words.pop(0))
    elif words and words[-1] in _SUIT_LETTERS:
        suit = _suit(words.pop())
    else:
        raise CommandError(f"say the suit and the ends, e.g. seq h 5 9; {_HELP_HINT}")
    return LaySequence(suit, *_ends(words, "seq h 5 9"))


def _read_extend(rest: str) -> SequenceGameAction:
    words = rest.replace("-", " ").split()
    if not words:
        raise CommandError(f"say the sequence and its new ends, e.g. ext #3 4 10; {_HELP_HINT}")
    meld = _meld_number(words[0], hash_needed=False)
    return Extend(meld, *_ends(words[1:], "ext #3 4 10"))


def _wild_counts(cards: str, example: str) -> tuple[int, int]:
    bad = cards.replace("2", "").replace("*", "")
    if bad:
        raise CommandError(f"{bad[0]!r} is not a wild card (2 or *), e.g. {example}; {_HELP_HINT}")
    return cards.count("2"), cards.count("*")


def _read_group(rest: str) -> SequenceGameAction:
    words, meld = _split_target(rest)
    rank, cards = _split_rank(words)
    suits = [0, 0, 0, 0]
    wild = ""
    for letter in cards:
        if letter in "2*":
            wild += letter
        elif letter in _SUIT_LETTERS:
            suits[_SUIT_LETTERS[letter]] += 1
        else:
            raise CommandError(
                f"{letter!r} is not a card of a group (suits c d h s, wild cards 2 *; a meld is #3); {_HELP_HINT}"
            )
    if not cards:
        raise CommandError(f"say the cards by suit and the wild cards, e.g. grp k hss2; {_HELP_HINT}")
    twos, jokers = _wild_counts(wild, "grp k hss2")
    return LayGroup(rank, tuple(suits), twos, jokers, meld)


def _read_wild(rest: str) -> SequenceGameAction:
    cards, meld = _split_target(rest)
    if not cards:
        raise CommandError(f"say the wild cards, e.g. wild 22* or wild 2 #4; {_HELP_HINT}")
    return LayWild(*_wild_counts(cards, "wild 22*"), meld=meld)


def _read_combine(rest: str) -> SequenceGameAction:
    words = rest.replace("#", " ").split()
    if len(words) != 2:
        raise CommandError(f"name two melds, e.g. comb #1 #5; {_HELP_HINT}")
    first, second = (_meld_number(w, hash_needed=False) for w in words)
    if first == second:
        raise CommandError(f"name two different melds, e.g. comb #1 #5; {_HELP_HINT}")
    return Combine(min(first, second), max(first, second))


def _read_black_threes(rest: str) -> SequenceGameAction:
    text = rest.replace(" ", "")
    if text and text == "b3" * (len(text) // 2):
        return LayBlackThrees(len(text) // 2)
    if not (text.isascii() and text.isdigit() and len(text) <= 2):
        raise CommandError(f"say how many black threes, e.g. b3 3; {_HELP_HINT}")
    return LayBlackThrees(int(text))


_SEQUENCE_READERS: dict[str, Callable[[str], _Read]] = {
    "discard": _read_discard,
    "take": _read_take,
    "sequence": _read_sequence,
    "extend": _read_extend,
    "group": _read_group,
    "wild": _read_wild,
    "combine": _read_combine,
    "black_threes": _read_black_threes,
    "add_to_meld": _read_add_to_meld,
}
