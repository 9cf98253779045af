"""Game records and observations as JSON.

A game record is what it takes to replay a game exactly: the variant (name and
version), the house rules (names and versions), the seed, the seats, and the
list of actions; the hands' totals and the final scores are stored too, for
quick reading, and are checked on replay. Loading treats the file as untrusted:
wrong types, unknown or missing keys, truncated JSON and any action that is
illegal at its point raise `RecordError`, which names where (a JSON path, a
line and column or byte offset, or a hand number and action index).

Limits on the text (`load_record`, `loads_record`): at most `MAX_RECORD_BYTES`
bytes (8 MiB; the ``max_bytes`` parameter; a larger file is refused without
being read whole), at most one JSON value per `BYTES_PER_ITEM` bytes (the
``max_items`` parameter, by default ``max_bytes // BYTES_PER_ITEM``; counted
before parsing as the characters ``{ [ , :``, so the parse's memory is bounded
and not only its bytes), of which at most one in `OBJECTS_PER_ITEM` an object
(counted as ``{``), UTF-8 only, arrays and objects nested at most
`MAX_RECORD_DEPTH` deep, integers of at most `MAX_INTEGER_DIGITS` digits, and no
key twice in one object (JSON leaves duplicates undefined; the last one would
win silently). `NaN` and ``Infinity`` are not JSON and are refused too.

Record format, version 6 (`RECORD_FORMAT_VERSION`; `RECORD_SCHEMA` is the same
as a JSON Schema)::

    {
      "format": "canasta-record",
      "format_version": 6,
      "variant": {"name": "classic", "version": "1.0"},
      "house_rules": [{"name": "black-three-freezes", "version": "1.0"}],
      "seed": 1,
      "first_dealer": 3,
      "seats": ["you", "greedy", "greedy", "greedy"],
      "actions": [{"type": "draw"}, {"type": "discard", "kind": "b3"}, ...],
      "hands": [{"actions": 212, "totals": [1205, -35]}, ...],
      "final_scores": [5105, 3020],
      "complete": true
    }

Actions serialise losslessly (`action_to_json` / `action_from_json`)::

    {"type": "draw"}
    {"type": "take", "naturals": 2, "twos": 0, "jokers": 0}
    {"type": "meld", "rank": "K", "naturals": 2, "twos": 1, "jokers": 0}
    {"type": "discard", "kind": "7"}
    {"type": "ask"}   {"type": "answer", "yes": true}   {"type": "end"}
    {"type": "declare", "hand": "pairs"}   {"type": "declare", "hand": "pairs", "discard": "9"}
    {"type": "lay_out"}   {"type": "pick_up"}

A ``declare`` lays a special hand (rule sets with special hands); ``discard``,
the 15th card after a two-card draw, is optional and written only when there is one.
A ``lay_out`` lays out the three kept in hand and draws its replacement (rule
sets that keep a three, `canasta.ThreeRules.keep_one`); keeping the three, and
laying it out where the rules do, happen without an action. A ``pick_up`` picks up
the next packet at will before the draw (rule sets where a packet is earned by
a canasta, `canasta.PacketRules.after_first_canasta`); a packet the rules pick up
(an emptied hand) comes without an action.

The sequence games (Samba, Bolivia, Brazilian canasta, `canasta.suitedactions`) name a natural
discard's suit and meld with actions that name suits and melds (a meld is named by its number,
``meld``, in creation order per side)::

    {"type": "discard", "kind": "K", "suit": "H"}
    {"type": "group", "rank": "K", "suits": [0, 0, 1, 2], "twos": 1, "jokers": 0, "meld": 3}
    {"type": "sequence", "suit": "H", "low": "5", "high": "9"}
    {"type": "extend", "meld": 2, "low": "4", "high": "T"}
    {"type": "wild", "twos": 2, "jokers": 1, "meld": 0}
    {"type": "combine", "first": 0, "second": 4}   {"type": "black_threes", "count": 3}
    {"type": "pile", "mode": "pair", "pair": ["C", "H"], "meld": 1}
    {"type": "pile", "mode": "top-onto-sequence", "meld": 2}

A plugin's meld type of a shape of its own (`canasta.ownshapes`) lays and adds to its melds by
the type's name or the meld's number and the cards (``"2"`` a two, ``"*"`` a joker, ``"3"`` a
black three)::

    {"type": "lay_meld", "meld_type": "buraco run", "cards": ["5H", "7H", "2"]}
    {"type": "add_to_meld", "meld": 3, "cards": ["6H", "8H"]}

Suits are ``"C" "D" "H" "S"``; ranks and ends are the natural kinds' symbols ``"4"`` to ``"A"``;
``suits`` counts a group's naturals by suit (clubs, diamonds, hearts, spades). ``meld`` is left out
for a new group, wild meld or pair take (it is required for a take of the top card alone), ``pair``
(two suits in suit order) is written only for a ``pair`` take, and ``suit`` only for a discard that
names one (today's rule sets never do, so their records read and write as before). These shapes
came without a new format version: only the sequence games can play them, so a record of any
earlier version that held one would not replay anyway.

A take or meld onto a side's second meld of a rank (house rule ``cutthroat``,
where partners who both held a rank keep two melds) adds ``"second": true``;
one onto a side's books of a rank (`canasta.MeldRules.add_to_books`, Hand and
Foot's ``add-to-books``) adds ``"book": true``. Both keys are optional and
written only when true (the format's version is unchanged: a record without
them reads as before). A meld onto a side's third or later meld of a rank, or
onto its book of a rank that a number names (`canasta.Meld.slot`: rule sets
with `canasta.MeldRules.several_melds` or `canasta.MeldRules.wilds_onto_books`,
Hand and Foot's ``pierson-family``) adds ``"slot": n``; slot 1 of a meld is
written ``"second": true`` as before (the same action), of a book ``"slot": 1``.
Only those rule sets make such melds, so this too came without a new version.

Kinds are written with `canasta.Kind.symbol`: ``"A" "K" "Q" "J" "T" "9"`` ...
``"4"``, ``"2"``, ``"*"`` (joker, also the rank of a wild meld), ``"r3"``, ``"b3"``.

The ``seed`` is any integer with ``|seed| < 2**64`` (`canasta.seeds`: every seed
a game accepts, so every record the library writes it reads back), and
``first_dealer`` the seat that dealt the first hand (``Game(first_dealer=...)``;
``null`` means the variant's default, the last seat). A game of a variant that
plays several numbers of players (`canasta.Rules.playable_counts`) adds
``"players": 5`` when it was played by another count than the variant's
default; the key is optional and written only then. A record replays a game
from these alone, so a game started from a given hand (`canasta.Game.from_hand`)
cannot be recorded: `GameRecorder` refuses it, and a game already played.

Versions (`READABLE_RECORD_FORMAT_VERSIONS`): records are written as version 6,
which is version 5 plus the optional ``players`` (a record of version 5 or older
has no such key and replays with the variant's default count, as it was played;
one holding it is refused) and the ``pick_up`` action (refused in older records);
version 5 is version 4 plus ``first_dealer`` (a record of version 4 or older has no
such key and replays with the last seat dealing first, as it was played); version 4
is version 3 plus the ``lay_out`` action; version 3 is version 2 plus the
``declare`` action. Older records read as before (one holding an action its
version did not have is refused: a version-2 record with a ``declare``, a
version-3 or older one with a ``lay_out``).
Version 1 is the same format plus a ``{"type": "retract"}`` action (taking back
a provisional opening). Taking back moves is not a rule of Canasta (the rule book,
"What “legal” means"), so version 2 has no such action; a version-1 record
still loads and replays unless it holds one, which is refused with a
`RecordError` naming the action's index. Saving a loaded record of an older version writes
version 6. A reader refuses versions it does not know.

Errors number hands from 1 in their text (``hand 1, action 0 (actions[0])``), as
the CLI and the web page do; JSON paths (``hands[0].totals``) and
`RecordError.hand` are 0-based indexes.

Per-seat observations (`observation_to_json`) use the same card and action
notation, so a bot in any language can read its view of the table and answer
with one of the ``legal_actions`` it was given. Version 2 of the observation
JSON adds the seat's information state: ``known_cards`` (per seat, the cards
known to be in that hand) and ``action_log`` (``{"seat": 1, "action": {...}}``
for every action of the hand so far). In rule sets with meld types (the
sequence games, `canasta.Rules.meld_types`) a meld also has ``number`` (its
identity on its side; the melds are listed by number), and a sequence has
``"rank": null`` with ``suit``, ``low`` and ``high`` (``{"rank": null, "suit":
"H", "low": "5", "high": "9", "number": 3, ...}``), and a meld of a plugin's type of a shape of its
own (`canasta.ownshapes`) ``"rank": null`` with ``meld_type`` (its type's name). Under several melds
of a rank (`canasta.MeldRules.several_melds`) an open meld has ``slot`` (its number among the side's
melds of its kind), and under `canasta.MeldRules.wilds_onto_books` a book has ``slot`` (its number
among the side's books of its rank), as `canasta.MeldView.slot`. Other rule sets' melds have none of
these keys, so their JSON is as before (still version 3).
"""

from __future__ import annotations

import json
import os
import re
import reprlib
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from attrs import field, frozen

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
from canasta.cards import Card, Kind, Suit, kind_from_symbol
from canasta.errors import CanastaError, IllegalActionError, RuleCode
from canasta.game import Game
from canasta.observation import MeldView, Observation
from canasta.ownshapes import AddToMeld, LayMeld, OwnMeldAction, card_codes, cards_from_codes
from canasta.plugins import load_rules
from canasta.registry import Registry, default_registry
from canasta.scoring import HandScore
from canasta.seats import SeatError, check_seat
from canasta.seeds import SeedError, check_seed
from canasta.suitedactions import SuitedAction
from canasta.suitedhand import SuitedHand
from canasta.suitedmeldactions import Combine, Extend, LayBlackThrees, LayGroup, LaySequence, LayWild
from canasta.suitedpile import PileTake, TakeMode

__all__ = [
    "BYTES_PER_ITEM",
    "MAX_INTEGER_DIGITS",
    "MAX_RECORD_BYTES",
    "MAX_RECORD_DEPTH",
    "OBJECTS_PER_ITEM",
    "OBSERVATION_FORMAT_VERSION",
    "READABLE_RECORD_FORMAT_VERSIONS",
    "RECORD_FORMAT_VERSION",
    "RECORD_SCHEMA",
    "GameRecord",
    "GameRecorder",
    "RecordError",
    "ReplayStep",
    "action_from_json",
    "action_to_json",
    "load_record",
    "loads_record",
    "observation_to_json",
    "record_from_json",
    "replay",
    "save_record",
]

#: Version of the record format written by this library.
RECORD_FORMAT_VERSION = 6
#: Record format versions this library reads (version 1 only without take-backs).
READABLE_RECORD_FORMAT_VERSIONS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
#: The record format version that added ``first_dealer``.
_FIRST_DEALER_SINCE = 5
#: The record format version that added ``players``.
_PLAYERS_SINCE = 6
#: The numbers of players a record may name (those `canasta.compile_rules` accepts).
_PLAYER_RANGE = range(2, 9)
#: Version of the observation JSON written by `observation_to_json`.
OBSERVATION_FORMAT_VERSION = 3
_RECORD_FORMAT = "canasta-record"
#: Default size limit of a record's text, in bytes (8 MiB). A whole game of bots takes 30-60 KB;
#: 200,000 actions of random bots (a game that never reaches its target), 7.7 MB.
MAX_RECORD_BYTES = 8 * 1024 * 1024
#: The default ``max_items`` is ``max_bytes // BYTES_PER_ITEM``: every record this library
#: writes has more than 6 bytes per JSON value (``{"type": "draw"}, `` is 18 bytes and 3
#: values), while hostile shapes such as ``[[],[],...]`` pack one into 1.5 bytes, and a value
#: costs the parser up to 200 bytes of memory.
BYTES_PER_ITEM = 4
#: At most one JSON value in this many may be an object (``max_items // OBJECTS_PER_ITEM`` objects,
#: one per 24 bytes of the default): an object costs the parser about 270 bytes, and the records
#: this library writes average 40 bytes an object (26 at the very least: a draw, then a discard).
OBJECTS_PER_ITEM = 6
#: Deepest nesting of arrays and objects in a record's text (a valid record needs 3).
MAX_RECORD_DEPTH = 64
#: Most digits an integer in a record may have (a 64-bit seed has at most 20).
MAX_INTEGER_DIGITS = 20
_INTEGER_BOUND = 10**MAX_INTEGER_DIGITS


class RecordError(CanastaError, ValueError):
    """A game record is malformed, or an action in it is illegal at its point.

    Attributes:
        where: Where the problem is: a JSON path such as ``actions[12].rank``,
            or ``hand 3, action 31 (actions[412])`` (hands counted from 1).
        message: What is wrong.
        hand: The hand's index (0-based, as in ``hands[i]``; the message's text
            counts hands from 1) for an illegal action, else ``None``.
        index: The action's index in ``actions`` for a bad action, else ``None``.
    """

    def __init__(self, where: str, message: str, *, hand: int | None = None, index: int | None = None) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message
        self.hand = hand
        self.index = index


# --- actions ---------------------------------------------------------------------------

_ACTION_KEYS: dict[str, dict[str, type]] = {
    "draw": {},
    "take": {"naturals": int, "twos": int, "jokers": int},
    "meld": {"rank": str, "naturals": int, "twos": int, "jokers": int},
    "discard": {"kind": str},
    "ask": {},
    "answer": {"yes": bool},
    "end": {},
    "declare": {"hand": str},
    "lay_out": {},
    "pick_up": {},
    # The sequence games' actions (`canasta.suitedactions`).
    "group": {"rank": str, "suits": list, "twos": int, "jokers": int},
    "sequence": {"suit": str, "low": str, "high": str},
    "extend": {"meld": int, "low": str, "high": str},
    "wild": {"twos": int, "jokers": int},
    "combine": {"first": int, "second": int},
    "black_threes": {"count": int},
    "pile": {"mode": str},
    # A meld type of a shape of its own (`canasta.ownshapes`): the type's name or the meld, and the cards.
    "lay_meld": {"meld_type": str, "cards": list},
    "add_to_meld": {"meld": int, "cards": list},
}
#: Optional keys of an action, with their type.
_OPTIONAL_KEYS: dict[str, dict[str, type]] = {
    "take": {"second": bool, "book": bool},
    "meld": {"second": bool, "book": bool, "slot": int},
    "declare": {"discard": str},
    "discard": {"suit": str},
    "group": {"meld": int},
    "wild": {"meld": int},
    "pile": {"meld": int, "pair": list},
}
#: Suits as records write them.
_SUIT_SYMBOLS: dict[str, Suit] = {suit.symbol: suit for suit in Suit}
_TAKE_MODES: dict[str, TakeMode] = {mode.value: mode for mode in TakeMode}
_SIMPLE: dict[str, Action] = {
    "draw": DrawStock(),
    "ask": AskGoOut(),
    "end": EndHand(),
    "lay_out": LayOutThree(),
    "pick_up": PickUpPacket(),
}
#: The take-back of record format version 1 (removed in version 2).
_RETRACT = "retract"
_RETRACT_REMOVED = (
    "the 'retract' action (taking back a provisional opening) was removed from the rules: "
    'taking back moves is not a rule of Canasta (the rule book, "What “legal” means")'
)


def action_to_json(action: Action | SuitedAction | OwnMeldAction) -> dict[str, Any]:
    """Serialise an action losslessly.

    Args:
        action: The action (one of `canasta.actions`, or a sequence game's,
            `canasta.suitedactions.SuitedAction`).

    Returns:
        A JSON-ready dict (see the module docs for the shapes).

    Raises:
        TypeError: If ``action`` is not a canasta action.
    """
    if isinstance(action, Meld):
        data: dict[str, Any] = {
            "type": "meld",
            "rank": action.rank.symbol,
            "naturals": action.naturals,
            "twos": action.twos,
            "jokers": action.jokers,
        }
        if action.book:
            data["book"] = True
            if action.slot:
                data["slot"] = action.slot
        elif action.slot == 1:
            data["second"] = True  # (cutthroat's spelling, kept: records of it read and write as before)
        elif action.slot:
            data["slot"] = action.slot
        return data
    if isinstance(action, TakePile):
        data = {"type": "take", "naturals": action.naturals, "twos": action.twos, "jokers": action.jokers}
        if action.second:
            data["second"] = True
        if action.book:
            data["book"] = True
        return data
    if isinstance(action, Discard):
        if action.suit is not None:
            return {"type": "discard", "kind": action.kind.symbol, "suit": action.suit.symbol}
        return {"type": "discard", "kind": action.kind.symbol}
    if isinstance(action, AnswerGoOut):
        return {"type": "answer", "yes": action.yes}
    if isinstance(action, DeclareSpecialHand):
        data = {"type": "declare", "hand": action.hand}
        if action.discard is not None:
            data["discard"] = action.discard.symbol
        return data
    if isinstance(action, (DrawStock, AskGoOut, EndHand, LayOutThree, PickUpPacket)):
        return {"type": action.name}
    suited = _suited_to_json(action)
    if suited is None:
        raise TypeError(f"not a canasta action: {action!r}")
    return suited


def _rank_symbol(rank: int) -> str:
    return Kind(rank).symbol


def _suited_to_json(action: object) -> dict[str, Any] | None:
    """A sequence game's meld or pile take as JSON, or ``None`` for anything else."""
    data: dict[str, Any]
    if isinstance(action, LayGroup):
        data = {
            "type": "group",
            "rank": _rank_symbol(action.rank),
            "suits": list(action.suits),
            "twos": action.twos,
            "jokers": action.jokers,
        }
        if action.meld is not None:
            data["meld"] = action.meld
        return data
    if isinstance(action, LaySequence):
        low, high = _rank_symbol(action.low), _rank_symbol(action.high)
        return {"type": "sequence", "suit": action.suit.symbol, "low": low, "high": high}
    if isinstance(action, Extend):
        return {
            "type": "extend",
            "meld": action.meld,
            "low": _rank_symbol(action.low),
            "high": _rank_symbol(action.high),
        }
    if isinstance(action, LayWild):
        data = {"type": "wild", "twos": action.twos, "jokers": action.jokers}
        if action.meld is not None:
            data["meld"] = action.meld
        return data
    if isinstance(action, Combine):
        return {"type": "combine", "first": action.first, "second": action.second}
    if isinstance(action, LayBlackThrees):
        return {"type": "black_threes", "count": action.count}
    if isinstance(action, LayMeld):
        return {"type": "lay_meld", "meld_type": action.type, "cards": list(card_codes(action.cards))}
    if isinstance(action, AddToMeld):
        return {"type": "add_to_meld", "meld": action.meld, "cards": list(card_codes(action.cards))}
    if isinstance(action, PileTake):
        data = {"type": "pile", "mode": action.mode.value}
        if action.meld is not None:
            data["meld"] = action.meld
        if action.pair is not None:
            data["pair"] = [suit.symbol for suit in action.pair]
        return data
    return None


def action_from_json(data: object, where: str = "action") -> Action | SuitedAction | OwnMeldAction:
    """Parse an action written by `action_to_json`, validating it strictly.

    Args:
        data: The decoded JSON value.
        where: Where it is, for error messages.

    Returns:
        The action.

    Raises:
        RecordError: If the value is not a well-formed action (the legality of
            the action is not checked here).
    """
    if not isinstance(data, dict):
        raise RecordError(where, f"expected an object, got {_type_name(data)}")
    kind = data.get("type")
    if kind == _RETRACT:
        raise RecordError(f"{where}.type", _RETRACT_REMOVED)
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        raise RecordError(f"{where}.type", f"expected one of {sorted(_ACTION_KEYS)}, got {_brief(kind)}")
    spec = _ACTION_KEYS[kind]
    optional = _OPTIONAL_KEYS.get(kind, {})
    _check_keys(data, {"type", *spec, *optional}, set(spec) | {"type"}, where)
    for key, expected in (*spec.items(), *((k, t) for k, t in optional.items() if k in data)):
        value = data[key]
        if expected is int:
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 200:
                raise RecordError(f"{where}.{key}", f"expected a count (an integer 0 to 200), got {_brief(value)}")
        elif not isinstance(value, expected):
            raise RecordError(f"{where}.{key}", f"expected {expected.__name__}, got {_type_name(value)}")
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    try:
        if kind == "take":
            return TakePile(
                data["naturals"],
                data["twos"],
                data["jokers"],
                second=data.get("second", False),
                book=data.get("book", False),
            )
        if kind == "answer":
            return AnswerGoOut(data["yes"])
        if kind == "discard":
            suit = data.get("suit")
            return Discard(
                _kind(data["kind"], f"{where}.kind"), suit=None if suit is None else _suit(suit, f"{where}.suit")
            )
        if kind in _SUITED_PARSERS:
            return _SUITED_PARSERS[kind](data, where)
        if kind == "declare":
            discard = data.get("discard")
            return DeclareSpecialHand(data["hand"], None if discard is None else _kind(discard, f"{where}.discard"))
        return Meld(
            _kind(data["rank"], f"{where}.rank"),
            data["naturals"],
            data["twos"],
            data["jokers"],
            second=data.get("second", False),
            book=data.get("book", False),
            slot=data.get("slot", 0),
        )
    except (TypeError, ValueError) as exc:
        # The action classes validate their fields too; whatever they refuse is a malformed record.
        if isinstance(exc, RecordError):
            raise
        raise RecordError(where, f"not a valid {kind} action: {exc}") from None


def _suit(symbol: str, where: str) -> Suit:
    suit = _SUIT_SYMBOLS.get(symbol)
    if suit is None:
        raise RecordError(where, f"unknown suit {_brief(symbol)}; expected one of {sorted(_SUIT_SYMBOLS)}")
    return suit


def _rank(symbol: str, where: str) -> int:
    """A natural rank (4 to 14) from its symbol."""
    kind = _kind(symbol, where)
    if not kind.is_natural:
        raise RecordError(where, f"expected a natural rank (4 to A), got {_brief(symbol)}")
    return int(kind)


def _ends(data: Mapping[str, Any], where: str) -> tuple[int, int]:
    low, high = _rank(data["low"], f"{where}.low"), _rank(data["high"], f"{where}.high")
    if low > high:
        raise RecordError(where, f"a sequence's low end {data['low']!r} is above its high end {data['high']!r}")
    return low, high


def _meld_number(data: Mapping[str, Any]) -> int | None:
    meld = data.get("meld")
    return None if meld is None else int(meld)


def _group_from_json(data: Mapping[str, Any], where: str) -> LayGroup:
    suits = data["suits"]
    if len(suits) != len(Suit) or any(
        not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 200 for n in suits
    ):
        raise RecordError(f"{where}.suits", f"expected four counts (0 to 200) by suit, got {_brief(suits)}")
    return LayGroup(_rank(data["rank"], f"{where}.rank"), suits, data["twos"], data["jokers"], _meld_number(data))


def _sequence_from_json(data: Mapping[str, Any], where: str) -> LaySequence:
    return LaySequence(_suit(data["suit"], f"{where}.suit"), *_ends(data, where))


def _extend_from_json(data: Mapping[str, Any], where: str) -> Extend:
    return Extend(data["meld"], *_ends(data, where))


def _wild_from_json(data: Mapping[str, Any], where: str) -> LayWild:
    return LayWild(data["twos"], data["jokers"], _meld_number(data))


def _combine_from_json(data: Mapping[str, Any], where: str) -> Combine:
    if data["first"] == data["second"]:
        raise RecordError(where, f"a combination names two melds, got meld {data['first']} twice")
    return Combine(data["first"], data["second"])


def _black_threes_from_json(data: Mapping[str, Any], where: str) -> LayBlackThrees:
    return LayBlackThrees(data["count"])


def _pile_from_json(data: Mapping[str, Any], where: str) -> PileTake:
    mode = _TAKE_MODES.get(data["mode"])
    if mode is None:
        raise RecordError(
            f"{where}.mode", f"unknown take mode {_brief(data['mode'])}; expected one of {sorted(_TAKE_MODES)}"
        )
    pair_data = data.get("pair")
    if (pair_data is None) is (mode is TakeMode.PAIR):
        raise RecordError(where, f"a {mode.value!r} take {'needs' if mode is TakeMode.PAIR else 'has no'} 'pair'")
    if mode is not TakeMode.PAIR and "meld" not in data:
        raise RecordError(where, f"a {mode.value!r} take names the meld the top card joins ('meld')")
    pair: tuple[Suit, Suit] | None = None
    if pair_data is not None:
        if len(pair_data) != 2 or not all(isinstance(s, str) for s in pair_data):
            raise RecordError(f"{where}.pair", f"expected two suits, got {_brief(pair_data)}")
        first, second = (_suit(s, f"{where}.pair[{i}]") for i, s in enumerate(pair_data))
        if first > second:
            raise RecordError(f"{where}.pair", f"the pair's suits go in suit order (C D H S), got {_brief(pair_data)}")
        pair = (first, second)
    return PileTake(mode, _meld_number(data), pair)


def _own_cards(data: Mapping[str, Any], where: str) -> SuitedHand:
    cards = data["cards"]
    if not cards or not all(isinstance(c, str) for c in cards):
        raise RecordError(f"{where}.cards", f"expected card codes (e.g. \"5H\", \"2\", \"*\"), got {_brief(cards)}")
    try:
        return cards_from_codes(cards)
    except ValueError as exc:
        raise RecordError(f"{where}.cards", str(exc)) from None


def _lay_meld_from_json(data: Mapping[str, Any], where: str) -> LayMeld:
    if not data["meld_type"]:
        raise RecordError(f"{where}.meld_type", "expected a meld type's name, got an empty string")
    return LayMeld(data["meld_type"], _own_cards(data, where))


def _add_to_meld_from_json(data: Mapping[str, Any], where: str) -> AddToMeld:
    return AddToMeld(data["meld"], _own_cards(data, where))


#: The sequence games' actions by their JSON type.
_SUITED_PARSERS: dict[str, Callable[[Mapping[str, Any], str], SuitedAction | OwnMeldAction]] = {
    "group": _group_from_json,
    "sequence": _sequence_from_json,
    "extend": _extend_from_json,
    "wild": _wild_from_json,
    "combine": _combine_from_json,
    "black_threes": _black_threes_from_json,
    "pile": _pile_from_json,
    "lay_meld": _lay_meld_from_json,
    "add_to_meld": _add_to_meld_from_json,
}


def _kind(symbol: str, where: str) -> Kind:
    try:
        return kind_from_symbol(symbol)
    except ValueError:
        # Our own message: the library's would repeat the whole (untrusted, maybe huge) value.
        symbols = sorted(k.symbol for k in Kind)
        raise RecordError(where, f"unknown card kind {_brief(symbol)}; expected one of {symbols}") from None


_REPR = reprlib.Repr()
_REPR.maxstring = 60
_REPR.maxother = 60


def _brief(value: object) -> str:
    """A short repr of an untrusted value for a message (bounded in length and depth)."""
    return _REPR.repr(value)


def _type_name(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer"}
    if value is None:
        return "null"
    return names.get(type(value), type(value).__name__)


def _check_keys(data: Mapping[str, Any], allowed: set[str], required: set[str], where: str) -> None:
    # Keys of decoded JSON are strings, but a caller's dict may hold any (sorted by repr, never compared).
    unknown = sorted((k for k in data if k not in allowed), key=repr)
    if unknown:
        shown = ", ".join(_brief(k) for k in unknown[:10]) + (", ..." if len(unknown) > 10 else "")
        raise RecordError(where, f"unknown key(s) {shown}; allowed: {sorted(allowed)}")
    missing = sorted(required - set(data))
    if missing:
        raise RecordError(where, f"missing key(s) {', '.join(map(repr, missing))}")


# --- observations ----------------------------------------------------------------------


def _cards(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _meld_json(meld: MeldView) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rank": None if meld.rank is None else meld.rank.symbol,
        "cards": _cards(meld.cards),
        "naturals": meld.naturals,
        "twos": meld.twos,
        "jokers": meld.jokers,
        "canasta": meld.is_canasta,
    }
    # Rule sets with meld types only (`canasta.MeldView`): the meld's number, a sequence's suit and ends.
    if meld.number is not None:
        data["number"] = meld.number
    if meld.suit is not None and meld.low is not None and meld.high is not None:
        data["suit"] = meld.suit.symbol
        data["low"] = meld.low.symbol
        data["high"] = meld.high.symbol
    if meld.meld_type is not None:  # a plugin's type of a shape of its own (`canasta.ownshapes`)
        data["meld_type"] = meld.meld_type
    if meld.slot is not None:  # several melds of a rank, or books named by number (`canasta.Meld.slot`)
        data["slot"] = meld.slot
    return data


def observation_to_json(obs: Observation) -> dict[str, Any]:
    """A seat's observation as a JSON-ready dict, for bots in any language.

    Cards are codes such as ``"QH"``, ``"TS"``, ``"3D"`` and ``"*"`` (joker);
    kinds and actions use the notation of `action_to_json`. A bot answers with
    one element of ``legal_actions`` (parse it back with `action_from_json`).

    Args:
        obs: The observation (`canasta.Game.observation` or `HandState.observation`).

    Returns:
        A dict with ``format``, ``format_version`` and every field of `canasta.Observation`.
    """
    data = {
        "format": "canasta-observation",
        "format_version": OBSERVATION_FORMAT_VERSION,
        "seat": obs.seat,
        "side": obs.side,
        "hand": _cards(obs.hand),
        "hand_sizes": list(obs.hand_sizes),
        "stock_size": obs.stock_size,
        "pile": _cards(obs.pile),
        "pile_frozen": obs.pile_frozen,
        "melds": [[_meld_json(m) for m in side] for side in obs.melds],
        "threes": [_cards(t) for t in obs.threes],
        "set_aside": [_cards(s) for s in obs.set_aside],
        "scores": list(obs.scores),
        "minimum_needed": obs.minimum_needed,
        "clean_meld_needed": obs.clean_meld_needed,
        "acting_seat": obs.acting_seat,
        "phase": obs.phase,
        "legal_actions": [action_to_json(a) for a in obs.legal_actions],  # type: ignore[arg-type]
        "known_cards": [_cards(k) for k in obs.known_cards],
        "action_log": [{"seat": seat, "action": action_to_json(a)} for seat, a in obs.action_log],
        "deal_number": obs.deal_number,
        "packets_down": [list(sizes) for sizes in obs.packets_down],
        "first_canasta": list(obs.first_canasta),
        "reshuffles": obs.reshuffles,
        "reshuffled": _cards(obs.reshuffled),
    }
    if obs.first_canasta:
        data["first_canasta"] = list(obs.first_canasta)  # (rule sets that earn a packet by a canasta only)
    return data


# --- records ---------------------------------------------------------------------------


def _ints(value: Sequence[int]) -> tuple[int, ...]:
    return tuple(value)


def _record_seed(value: object) -> int:
    """A record's seed as a plain ``int`` (`canasta.seeds.check_seed`: a `SeedError` otherwise)."""
    return check_seed(value)


def _first_dealer(value: object) -> int | None:
    """A record's first dealer: ``None`` or a plain ``int`` 0 or more (the rules bound it on replay)."""
    if value is None:
        return None
    return check_seat(value, _SEAT_BOUND, name="first_dealer")


def _players(value: object) -> int | None:
    """A record's number of players: ``None`` (the variant's default) or a plain ``int`` from 2 to 8."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in _PLAYER_RANGE:
        raise RecordError("players", f"expected a number of players from 2 to 8 or null, got {_brief(value)}")
    return int(value)


#: More seats than any rule set has (a record's first dealer is checked against its rules on replay).
_SEAT_BOUND = 1 << 16


@frozen
class GameRecord:
    """A recorded game (see the module docs for the JSON form).

    Attributes:
        variant: The variant's name.
        variant_version: The variant's version when the game was played.
        house_rules: ``(name, version)`` of each house rule, in stacking order.
        seed: The game's seed (an integer, ``|seed| < 2**64``).
        seats: Who played each seat (bot names, ``"you"``, or any label).
        actions: Every action, in order, across all hands.
        hand_totals: Each finished hand's totals per side.
        hand_lengths: Number of actions in each finished hand.
        final_scores: Each side's total at the end of the record.
        complete: Whether the game was played to its end.
        first_dealer: The seat that dealt the first hand (``None``: the
            variant's default, the last seat; records of format version 4 or older).
        players: The number of players when it is not the variant's default
            (``None``: the default; records of format version 5 or older).
    """

    variant: str
    variant_version: str
    house_rules: tuple[tuple[str, str], ...]
    seed: int = field(converter=_record_seed)
    seats: tuple[str, ...]
    actions: tuple[Action, ...]
    hand_totals: tuple[tuple[int, ...], ...]
    hand_lengths: tuple[int, ...]
    final_scores: tuple[int, ...] = field(converter=_ints)
    complete: bool = True
    first_dealer: int | None = field(default=None, converter=_first_dealer)
    players: int | None = field(default=None, converter=_players)

    @property
    def house_rule_names(self) -> tuple[str, ...]:
        """The house rules' names."""
        return tuple(name for name, _ in self.house_rules)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (format version `RECORD_FORMAT_VERSION`)."""
        players: dict[str, Any] = {} if self.players is None else {"players": self.players}
        return {
            "format": _RECORD_FORMAT,
            "format_version": RECORD_FORMAT_VERSION,
            "variant": {"name": self.variant, "version": self.variant_version},
            "house_rules": [{"name": n, "version": v} for n, v in self.house_rules],
            **players,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "seats": list(self.seats),
            "actions": [action_to_json(a) for a in self.actions],
            "hands": [
                {"actions": length, "totals": list(totals)}
                for length, totals in zip(self.hand_lengths, self.hand_totals, strict=True)
            ],
            "final_scores": list(self.final_scores),
            "complete": self.complete,
        }

    def dumps(self, *, indent: int | None = None) -> str:
        """The record as JSON text.

        Args:
            indent: Indentation for pretty printing (``None``: one line per action list).

        Returns:
            The JSON text.
        """
        return json.dumps(self.to_json(), indent=indent)

    def new_game(self, registry: Registry | None = None) -> Game:
        """A fresh game with this record's variant, house rules, number of players, seed and first dealer.

        Args:
            registry: Where to look the names up (default: the process-wide registry).

        Returns:
            The game before its first action.

        Raises:
            SeatError: If the first dealer is not a seat of the variant.
            RulesError: If the variant does not play the record's number of players.
        """
        return Game(
            self.variant,
            self.house_rule_names,
            seed=self.seed,
            registry=registry,
            first_dealer=self.first_dealer,
            players=self.players,
        )


class GameRecorder:
    """Plays a game and records it: use `apply` and `undo` instead of ``game.apply`` and ``game.undo``.

    A record replays a game from its variant, house rules, seed and first
    dealer, so the recorder takes only a game that those describe: one made by
    `Game` (any seed or first dealer) with no action applied yet (or all of
    them undone). A game made by `Game.from_hand` starts from a hand no record
    holds, and is refused rather than recorded as a different game.

    Args:
        game: A game created with a variant name and seed (not `Game.from_hand`)
            and not yet played.
        seats: Labels of the players, one per seat.
        registry: The registry the game's names come from (for versions).

    Raises:
        RecordError: If the game was made by `Game.from_hand`, or has actions
            applied already, or there is not one string label per seat (a
            `RecordError` is a ``ValueError``).

    Attributes:
        game: The game being recorded.
    """

    def __init__(self, game: Game, seats: Sequence[str] | None = None, *, registry: Registry | None = None) -> None:
        if game.starts_from_hand:
            raise RecordError(
                "game",
                "a game made by Game.from_hand cannot be recorded: a record replays a game from its variant, "
                "seed and first dealer, and this one starts from a given hand",
            )
        if game.history:
            raise RecordError(
                "game",
                f"the game has {len(game.history)} action(s) applied already: record a game from its start "
                "(create the GameRecorder before the first action)",
            )
        registry = registry or default_registry()
        players = game.rules.players
        self._first_dealer = game.first_dealer
        self.game = game
        if isinstance(seats, str):
            raise RecordError("seats", f"expected {players} seat labels, got one string {_brief(seats)}")
        self._seats = tuple(seats) if seats is not None else tuple(f"seat {i}" for i in range(players))
        if len(self._seats) != players:
            raise RecordError("seats", f"{len(self._seats)} seat labels for {players} players")
        for i, label in enumerate(self._seats):
            if not isinstance(label, str):  # the reader takes strings only: refuse what it would refuse
                raise RecordError(f"seats[{i}]", f"a seat label is a string, got {_type_name(label)}")
        self._variant_version = registry.variant(game.rules.variant).version
        self._house_rules = tuple((h, registry.house_rule(h).version) for h in game.rules.house_rules)
        # The count is written only when it is not the variant's default (the record of a default game is unchanged).
        default = load_rules(game.rules.variant, game.rules.house_rules, registry=registry).players
        self._players = None if players == default else players
        self._actions: list[Action] = []
        # A hand can end on its deal, before any action: it counts 0 actions.
        self._lengths: list[int] = [0] * len(game.results)
        self._in_hand = 0

    def apply(self, action: Action) -> HandScore | None:
        """Apply an action to the game and record it.

        Args:
            action: The action.

        Returns:
            The finished hand's score if the action ended a hand.
        """
        result = self.game.apply(action)  # raises before recording if illegal
        self._actions.append(action)
        self._in_hand += 1
        for _ in range(len(self.game.results) - len(self._lengths)):
            self._lengths.append(self._in_hand)
            self._in_hand = 0
        return result

    def undo(self) -> Action:
        """Take the last action back in the game and in the record (see `canasta.Game.undo`).

        The record holds only the actions that stand: an undone action is not recorded.

        Returns:
            The action taken back.

        Raises:
            IllegalActionError: If no recorded action is left to take back.
        """
        if not self._actions:
            raise IllegalActionError(
                RuleCode.ILLEGAL,
                "nothing to undo: no recorded action is left to take back",
                section=self.game.rules.section(RuleCode.ILLEGAL),
            )
        action = self.game.undo()
        self._actions.pop()
        # Hands the undone action finished are unfinished again (or were never dealt).
        del self._lengths[len(self.game.results) :]
        self._in_hand = len(self._actions) - sum(self._lengths)
        return action

    def record(self) -> GameRecord:
        """The record of the game so far.

        Returns:
            The record.

        Raises:
            RecordError: If the game was played or undone outside the recorder, so
                the recorded actions are not the game's history.
        """
        if self.game.history != tuple(self._actions):
            raise RecordError(
                "actions",
                "the game's history differs from the recorded actions: "
                "apply and undo through the GameRecorder, not the game",
            )
        return GameRecord(
            variant=self.game.rules.variant,
            variant_version=self._variant_version,
            house_rules=self._house_rules,
            seed=self.game.seed,
            seats=self._seats,
            actions=tuple(self._actions),
            hand_totals=tuple(r.totals for r in self.game.results),
            hand_lengths=tuple(self._lengths),
            final_scores=tuple(self.game.scores),
            complete=self.game.is_over,
            first_dealer=self._first_dealer,
            players=self._players,
        )


_RECORD_KEYS = {
    "format",
    "format_version",
    "variant",
    "house_rules",
    "seed",
    "seats",
    "actions",
    "hands",
    "final_scores",
    "complete",
}


def _expect(value: object, expected: type | tuple[type, ...], where: str, what: str) -> Any:
    ok = isinstance(value, expected) and not (isinstance(value, bool) and bool not in _as_tuple(expected))
    if not ok:
        raise RecordError(where, f"expected {what}, got {_type_name(value)}")
    if isinstance(value, int) and not isinstance(value, bool) and not -_INTEGER_BOUND < value < _INTEGER_BOUND:
        raise RecordError(where, f"integer out of range: more than {MAX_INTEGER_DIGITS} digits")
    return value


def _as_tuple(expected: type | tuple[type, ...]) -> tuple[type, ...]:
    return expected if isinstance(expected, tuple) else (expected,)


def _int_list(value: object, where: str) -> tuple[int, ...]:
    items = _expect(value, list, where, "an array of integers")
    return tuple(_expect(v, int, f"{where}[{i}]", "an integer") for i, v in enumerate(items))


def _name_version(value: object, where: str) -> tuple[str, str]:
    data = _expect(value, dict, where, "an object")
    _check_keys(data, {"name", "version"}, {"name", "version"}, where)
    return (
        _expect(data["name"], str, f"{where}.name", "a string"),
        _expect(data["version"], str, f"{where}.version", "a string"),
    )


def record_from_json(
    data: object, *, validate: bool = True, registry: Registry | None = None, check_versions: bool = True
) -> GameRecord:
    """Build a record from decoded JSON, validating it as untrusted input.

    Args:
        data: The decoded JSON value.
        validate: Also replay every action (re-checking each) and compare the
            stored totals and final scores with the replay's.
        registry: Where to look the variant and house rules up.
        check_versions: Refuse a record whose variant or house-rule versions
            differ from the installed ones (only when validating).

    Returns:
        The record.

    Raises:
        RecordError: If anything is malformed or illegal; the message names where.
    """
    root = _expect(data, dict, "record", "a JSON object")
    _check_keys(root, _RECORD_KEYS | {"first_dealer", "players"}, _RECORD_KEYS, "record")
    if root["format"] != _RECORD_FORMAT:
        raise RecordError("format", f"expected {_RECORD_FORMAT!r}, got {_brief(root['format'])}")
    version = _expect(root["format_version"], int, "format_version", "an integer")
    if version not in READABLE_RECORD_FORMAT_VERSIONS:
        readable = ", ".join(map(str, READABLE_RECORD_FORMAT_VERSIONS))
        raise RecordError("format_version", f"this library reads versions {readable}, got {version}")
    first_dealer: int | None = None
    if version >= _FIRST_DEALER_SINCE:
        if "first_dealer" not in root:
            raise RecordError("record", "missing key(s) 'first_dealer'")
        if root["first_dealer"] is not None:
            first_dealer = _expect(root["first_dealer"], int, "first_dealer", "a seat (an integer) or null")
            if not 0 <= first_dealer < _SEAT_BOUND:
                raise RecordError("first_dealer", f"expected a seat (0 or more), got {first_dealer}")
    elif "first_dealer" in root:
        raise RecordError(
            "first_dealer",
            f"a version-{version} record cannot hold 'first_dealer': it came with record format version "
            f"{_FIRST_DEALER_SINCE}",
        )
    players: int | None = None
    if "players" in root:
        if version < _PLAYERS_SINCE:
            raise RecordError(
                "players",
                f"a version-{version} record cannot hold 'players': it came with record format version "
                f"{_PLAYERS_SINCE}",
            )
        players = _players(_expect(root["players"], int, "players", "a number of players (an integer)"))
    variant, variant_version = _name_version(root["variant"], "variant")
    house_rules = tuple(
        _name_version(h, f"house_rules[{i}]")
        for i, h in enumerate(_expect(root["house_rules"], list, "house_rules", "an array"))
    )
    seed = _expect(root["seed"], int, "seed", "an integer")
    try:
        check_seed(seed)
    except SeedError as exc:
        raise RecordError("seed", str(exc)) from None
    seat_list = _expect(root["seats"], list, "seats", "an array")
    seats = tuple(_expect(s, str, f"seats[{i}]", "a string") for i, s in enumerate(seat_list))
    action_list = _expect(root["actions"], list, "actions", "an array")
    actions = tuple(_record_action(a, i, version) for i, a in enumerate(action_list))
    hands = _expect(root["hands"], list, "hands", "an array")
    lengths: list[int] = []
    totals: list[tuple[int, ...]] = []
    for i, hand in enumerate(hands):
        where = f"hands[{i}]"
        hand = _expect(hand, dict, where, "an object")
        _check_keys(hand, {"actions", "totals"}, {"actions", "totals"}, where)
        length = _expect(hand["actions"], int, f"{where}.actions", "an integer")
        if length < 0:
            raise RecordError(f"{where}.actions", f"expected a count of actions (0 or more), got {length}")
        lengths.append(length)
        totals.append(_int_list(hand["totals"], f"{where}.totals"))
    record = GameRecord(
        variant=variant,
        variant_version=variant_version,
        house_rules=house_rules,
        seed=seed,
        seats=seats,
        actions=actions,
        hand_totals=tuple(totals),
        hand_lengths=tuple(lengths),
        final_scores=_int_list(root["final_scores"], "final_scores"),
        complete=_expect(root["complete"], bool, "complete", "a boolean"),
        first_dealer=first_dealer,
        players=players,
    )
    if validate:
        verify_record(record, registry=registry, check_versions=check_versions)
    return record


#: Actions a record format version added: (type, the version, what it does).
_NEWER_ACTIONS: tuple[tuple[str, int, str], ...] = (
    ("declare", 3, "declaring a special hand"),
    ("lay_out", 4, "laying out a kept three"),
    ("pick_up", 6, "picking up a packet at will"),
)


def _record_action(data: object, index: int, version: int) -> Action:
    """Parse ``actions[index]`` of a record; a version-1 take-back, or an action newer than the version, is refused."""
    if version == 1 and isinstance(data, dict) and data.get("type") == _RETRACT:
        raise RecordError(
            f"actions[{index}]",
            f"this version-1 record takes a move back at action {index}, so it cannot be replayed: "
            f"{_RETRACT_REMOVED}; record format version 2 has no take-back",
            index=index,
        )
    for name, since, what in _NEWER_ACTIONS:
        if version < since and isinstance(data, dict) and data.get("type") == name:
            raise RecordError(
                f"actions[{index}]",
                f"a version-{version} record cannot hold the '{name}' action (action {index}): "
                f"{what} came with record format version {since}",
                index=index,
            )
    try:
        # A sequence game's action is not in the `canasta.Action` alias: the engine takes it only
        # under a rule set with meld types (a record of any other refuses it when replayed).
        return cast(Action, action_from_json(data, f"actions[{index}]"))
    except RecordError as exc:
        raise RecordError(exc.where, exc.message, index=index) from None


def verify_record(record: GameRecord, *, registry: Registry | None = None, check_versions: bool = True) -> Game:
    """Replay a record, re-checking every action and the stored scores.

    Args:
        record: The record.
        registry: Where to look the names up.
        check_versions: Refuse installed variant or house-rule versions that
            differ from the record's.

    Returns:
        The game after the last action.

    Raises:
        RecordError: If an action is illegal at its point, or the stored
            totals, lengths, seats or scores differ from the replay's.
    """
    game: Game | None = None
    for step in replay(record, registry=registry, check_versions=check_versions):
        game = step.game
    if game is None:
        game = _start(record, registry, check_versions)
    replayed = tuple(tuple(r.totals) for r in game.results)
    if replayed != record.hand_totals:
        for number, (stored, actual) in enumerate(zip(record.hand_totals, replayed, strict=False)):
            if stored != actual:
                raise RecordError(
                    f"hands[{number}].totals",
                    f"the stored hand totals differ from the replay's: stored {list(stored)}, replay gives "
                    f"{list(actual)}",
                    hand=number,
                )
        raise RecordError(
            "hands",
            f"the stored hand totals differ from the replay's: {len(record.hand_totals)} hands stored, "
            f"{len(replayed)} replayed",
        )
    if tuple(game.scores) != record.final_scores:
        raise RecordError(
            "final_scores", f"stored {list(record.final_scores)}, but the replay gives {list(game.scores)}"
        )
    if record.complete != game.is_over:
        raise RecordError("complete", f"stored {record.complete}, but the replayed game is_over={game.is_over}")
    return game


def _start(record: GameRecord, registry: Registry | None, check_versions: bool) -> Game:
    reg = registry or default_registry()
    try:
        installed = reg.variant(record.variant)
        if check_versions and installed.version != record.variant_version:
            raise RecordError(
                "variant.version",
                f"the record was played with {record.variant} {_brief(record.variant_version)}, "
                f"installed is {installed.version}",
            )
        for i, (name, version) in enumerate(record.house_rules):
            rule = reg.house_rule(name)
            if check_versions and rule.version != version:
                raise RecordError(
                    f"house_rules[{i}].version",
                    f"the record was played with {name} {_brief(version)}, installed is {rule.version}",
                )
        if record.players is not None:
            counts = load_rules(record.variant, record.house_rule_names, registry=reg).playable_counts
            if record.players not in counts:
                raise RecordError(
                    "players",
                    f"the record was played by {record.players} players, but variant {record.variant!r} plays "
                    f"{', '.join(map(str, counts))} players",
                )
        game = record.new_game(reg)
    except RecordError:
        raise
    except SeatError as exc:
        raise RecordError("first_dealer", str(exc)) from None
    except CanastaError as exc:
        raise RecordError("variant", str(exc)) from None
    if len(record.seats) != game.rules.players:
        raise RecordError("seats", f"{len(record.seats)} seats for a {game.rules.players}-player variant")
    return game


@frozen
class ReplayStep:
    """One step of a replay: the game right after an action.

    Attributes:
        index: The action's index in the record.
        hand: The hand number the action was played in.
        seat: The seat that played it.
        action: The action.
        game: The game after it (the same object at every step: copy it to keep it).
        hand_score: The finished hand's score if the action ended a hand.
    """

    index: int
    hand: int
    seat: int
    action: Action
    game: Game
    hand_score: HandScore | None


def replay(
    record: GameRecord, *, registry: Registry | None = None, check_versions: bool = True
) -> Iterator[ReplayStep]:
    """Step through a record, re-checking every action.

    Args:
        record: The record.
        registry: Where to look the names up.
        check_versions: Refuse installed versions that differ from the record's.

    Yields:
        A `ReplayStep` after each action.

    Raises:
        RecordError: When an action is illegal at its point (naming the hand and
            action index), or the stored hand lengths disagree with the replay.
    """
    game = _start(record, registry, check_versions)
    in_hand = 0
    checked = _check_lengths(record, game, 0, 0, None)
    for index, action in enumerate(record.actions):
        hand_number = game.hand_number
        if game.is_over:
            raise RecordError(f"actions[{index}]", "the game is already over", hand=hand_number, index=index)
        seat = game.seat
        if not game.is_legal(action):
            try:
                game.check(action)
                reason = "illegal"
            except CanastaError as exc:
                reason = str(exc)
            raise RecordError(
                f"hand {hand_number + 1}, action {in_hand} (actions[{index}])",
                f"seat {seat} cannot {action}: {reason}",
                hand=hand_number,
                index=index,
            )
        hand_score = game.apply(action)
        in_hand += 1
        if hand_score is not None:
            checked = _check_lengths(record, game, checked, in_hand, index)
            in_hand = 0
        yield ReplayStep(index, hand_number, seat, action, game, hand_score)


def _check_lengths(record: GameRecord, game: Game, checked: int, in_hand: int, index: int | None) -> int:
    """Compare the stored action counts of newly finished hands with the replay's; return hands checked."""
    for number in range(checked, len(game.results)):
        # A hand can end on its deal (no action): every hand after the first new one has 0 actions.
        played = in_hand if number == checked else 0
        stored = record.hand_lengths[number] if number < len(record.hand_lengths) else None
        if stored != played:
            raise RecordError(
                f"hands[{number}].actions",
                f"stored {stored}, but hand {number + 1} ended after {played} actions",
                hand=number,
                index=index,
            )
    return len(game.results)


def save_record(record: GameRecord, path: str | Path) -> None:
    """Write a record as JSON.

    Args:
        record: The record.
        path: The file to write.
    """
    Path(path).write_text(record.dumps(indent=None) + "\n", encoding="utf-8")


def load_record(
    path: str | Path,
    *,
    validate: bool = True,
    registry: Registry | None = None,
    check_versions: bool = True,
    max_bytes: int = MAX_RECORD_BYTES,
    max_items: int | None = None,
) -> GameRecord:
    """Read and validate a record (untrusted input).

    At most ``max_bytes + 1`` bytes are read, so a huge file (or ``/dev/zero``)
    is refused using memory bounded by the limit; a regular file larger than the
    limit is refused before reading. The JSON values are counted before they
    are parsed (``max_items``), so parsing takes memory bounded by the limits
    too (a few times ``max_bytes``; see the guarantees page, "Untrusted records").

    Args:
        path: The file.
        validate: Replay it, re-checking every action and the stored scores.
        registry: Where to look the names up.
        check_versions: Refuse installed variant versions that differ from the record's.
        max_bytes: The largest file accepted, in bytes (default `MAX_RECORD_BYTES`, 8 MiB).
        max_items: The most JSON values accepted, counted as the characters
            ``{ [ , :`` of the text (default: ``max_bytes // BYTES_PER_ITEM``).

    Returns:
        The record.

    Raises:
        RecordError: If the file is too large, not UTF-8, not valid JSON (e.g.
            truncated), nested too deep, holds an over-long integer or a key
            twice in one object, does not follow the schema, or holds an
            illegal action; the message names where.
        OSError: If the file cannot be read.
        ValueError: If ``max_bytes`` or ``max_items`` is not an integer of 0 or more.
    """
    _check_limit(max_items, "max_items", optional=True)
    return loads_record(
        _read_limited(Path(path), max_bytes),
        validate=validate,
        registry=registry,
        check_versions=check_versions,
        max_bytes=max_bytes,
        max_items=max_items,
    )


def loads_record(
    text: str | bytes | bytearray,
    *,
    validate: bool = True,
    registry: Registry | None = None,
    check_versions: bool = True,
    max_bytes: int = MAX_RECORD_BYTES,
    max_items: int | None = None,
) -> GameRecord:
    """Parse and validate a record from its JSON text (untrusted input), with `load_record`'s checks.

    Args:
        text: The JSON text, or its UTF-8 bytes.
        validate: Replay it, re-checking every action and the stored scores.
        registry: Where to look the names up.
        check_versions: Refuse installed variant versions that differ from the record's.
        max_bytes: The largest text accepted, in bytes of UTF-8 (default `MAX_RECORD_BYTES`).
        max_items: The most JSON values accepted (default: ``max_bytes // BYTES_PER_ITEM``).

    Returns:
        The record.

    Raises:
        RecordError: As `load_record`.
        TypeError: If ``text`` is neither text nor bytes.
        ValueError: If ``max_bytes`` or ``max_items`` is not an integer of 0 or more.
    """
    data = _parse_record_text(text, max_bytes, max_items)
    return record_from_json(data, validate=validate, registry=registry, check_versions=check_versions)


_READ_CHUNK = 1 << 20


def _read_limited(path: Path, max_bytes: int) -> bytearray:
    """Read at most ``max_bytes + 1`` bytes, in chunks (memory follows the file, up to the limit)."""
    _check_limit(max_bytes, "max_bytes")
    buffer = bytearray()
    with path.open("rb") as file:
        info = os.fstat(file.fileno())
        # A regular file says its size: refuse it without reading (devices and pipes say 0).
        if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
            raise _too_large(max_bytes)
        while len(buffer) <= max_bytes:
            chunk = file.read(min(_READ_CHUNK, max_bytes + 1 - len(buffer)))
            if not chunk:
                break
            buffer += chunk
    if len(buffer) > max_bytes:
        raise _too_large(max_bytes)
    return buffer  # not copied to bytes: the decoded text is the only other copy


def _check_limit(limit: object, name: str, *, optional: bool = False) -> None:
    if optional and limit is None:
        return
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"{name} must be an integer, 0 or more, got {_brief(limit)}")


#: The characters that start a JSON value or separate two (a value is counted by one of them, or
#: is the whole text): counted in the text, inside strings too, by C code and with no memory.
_ITEM_MARKS = ("{", "[", ",", ":")
_ITEM_MARK_BYTES = tuple(mark.encode() for mark in _ITEM_MARKS)


def _check_items(text: str | bytes | bytearray, max_items: int) -> None:
    """Refuse a text with more than ``max_items`` JSON values, or a quarter as many objects, before any is built."""
    marks: tuple[str, ...] | tuple[bytes, ...] = _ITEM_MARKS if isinstance(text, str) else _ITEM_MARK_BYTES
    # An object costs the parser about 270 bytes, the dearest value (see OBJECTS_PER_ITEM).
    objects = text.count(marks[0])  # type: ignore[arg-type]  # str marks in a str, bytes in bytes
    if objects > max_items // OBJECTS_PER_ITEM:
        raise RecordError(
            "record",
            f"the record holds more than {max_items // OBJECTS_PER_ITEM} JSON objects (counted as the "
            f"character {{; the limit is one per {OBJECTS_PER_ITEM} JSON values allowed): a record written "
            "by this library averages one per 40 bytes",
        )
    count = 0
    for mark in marks:
        count += text.count(mark)  # type: ignore[arg-type]  # str marks in a str, bytes in bytes
        if count > max_items:
            raise RecordError(
                "record",
                f"the record holds more than {max_items} JSON values (counted as the characters "
                f"{' '.join(_ITEM_MARKS)}; the limit is one per {BYTES_PER_ITEM} bytes of the size limit, or "
                "max_items): a record written by this library holds one per 6 bytes or more",
            )


def _too_large(max_bytes: int) -> RecordError:
    return RecordError(f"byte offset {max_bytes}", f"the record is larger than the limit of {max_bytes} bytes")


def _parse_record_text(text: str | bytes | bytearray, max_bytes: int, max_items: int | None = None) -> object:
    """Decode and parse a record's text, enforcing every text-level limit; returns the JSON value."""
    _check_limit(max_bytes, "max_bytes")
    _check_limit(max_items, "max_items", optional=True)
    items = max_bytes // BYTES_PER_ITEM if max_items is None else max_items
    if isinstance(text, (bytes, bytearray)):
        raw = text
        if len(raw) > max_bytes:
            raise _too_large(max_bytes)
        _check_items(raw, items)  # before decoding: the decoded text is a second copy
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            bad = raw[exc.start : max(exc.end, exc.start + 1)][:4].hex(" ")
            raise RecordError(
                f"byte offset {exc.start} (line {line})", f"not valid UTF-8 ({exc.reason}: bytes {bad})"
            ) from None
    elif isinstance(text, str):
        # A str's size is that of its UTF-8 encoding (up to 4 bytes a character).
        if len(text) > max_bytes or (
            len(text) * 4 > max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes
        ):
            raise _too_large(max_bytes)
        _check_items(text, items)
        decoded = text
    else:
        raise TypeError(f"expected the record's text as str or bytes, got {type(text).__name__}")
    try:
        data = json.loads(
            decoded,
            object_pairs_hook=_SharedObjects(),
            parse_int=_parse_int,
            parse_constant=_NotJson,
        )
    except json.JSONDecodeError as exc:
        raise RecordError(f"line {exc.lineno}, column {exc.colno}", f"not valid JSON ({exc.msg})") from None
    except RecursionError:
        # The C decoder stops at the interpreter's recursion limit: far deeper than ours.
        raise _too_deep(decoded) from None
    _check_tree(data, decoded)
    return data


class _Duplicates(dict[str, Any]):
    """An object in which a key appeared twice (the parse goes on; `_check_tree` names its path)."""

    duplicate: str


class _LongInteger:
    """An integer literal with too many digits (kept as its length: never converted)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


class _NotJson:
    """``NaN``, ``Infinity`` or ``-Infinity``: accepted by Python's decoder, not JSON."""

    def __init__(self, literal: str) -> None:
        self.literal = literal


class _SharedObjects:
    """The JSON decoder's object hook for one parse: equal objects of scalars become one dict.

    A record's actions repeat (``{"type": "draw"}`` thousands of times): the parse
    keeps one dict for each distinct action, not one per action, which divides
    its memory by about ten. Equal means the same keys, values and value types
    (``true`` is not ``1``). The dicts are never changed after the parse. At most
    `_SHARED_LIMIT` distinct objects are kept (a game has a few hundred distinct
    actions): past that, objects are not shared, so a text of distinct objects
    costs no more than without sharing.
    """

    def __init__(self) -> None:
        self.seen: dict[tuple[object, ...], dict[str, Any]] = {}

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        data = _object_pairs(pairs)
        if type(data) is not dict or not set(map(type, data.values())) <= _PLAIN_TYPES:
            return data
        key = tuple((k, type(v), v) for k, v in pairs)
        shared = self.seen.get(key)
        if shared is not None:
            return shared
        if len(self.seen) < _SHARED_LIMIT:
            self.seen[key] = data
        return data


#: The most distinct objects one parse shares (`_SharedObjects`).
_SHARED_LIMIT = 4096


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) == len(pairs):
        return data
    seen: set[str] = set()
    marked = _Duplicates(data)
    for key, _ in pairs:
        if key in seen:
            marked.duplicate = key
            break
        seen.add(key)
    return marked


def _parse_int(literal: str) -> int | _LongInteger:
    digits = len(literal) - literal.startswith("-")
    # Checked before int(): converting a long literal is slow, and over 4300 digits a ValueError.
    return _LongInteger(digits) if digits > MAX_INTEGER_DIGITS else int(literal)


def _json_path(keys: Sequence[str | int]) -> str:
    out = ""
    for key in keys:
        if isinstance(key, int):
            out += f"[{key}]"
        elif key.isidentifier():
            out += f".{key}" if out else key
        else:
            out += f"[{_brief(key)}]"
    return "record" + out if not out or out.startswith("[") else out


_PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})


def _check_tree(data: object, text: str) -> None:
    """Refuse nesting over `MAX_RECORD_DEPTH`, long integers, non-JSON constants and duplicate keys.

    Iterative (no recursion however deep the value), with the path built only on error.
    """
    keys: list[str | int] = []
    stack: list[Iterator[tuple[str | int, object]]] = []
    value: object = data
    while True:
        children: Iterator[tuple[str | int, object]] | None = None
        if isinstance(value, dict):
            if isinstance(value, _Duplicates):
                raise RecordError(_json_path(keys), f"duplicate key {_brief(value.duplicate)} in one object")
            if len(stack) >= MAX_RECORD_DEPTH:
                raise _too_deep(text)
            # Children that are all plain scalars need no look (checked at C speed).
            if not set(map(type, value.values())) <= _PLAIN_TYPES:
                children = iter(value.items())
        elif isinstance(value, list):
            if len(stack) >= MAX_RECORD_DEPTH:
                raise _too_deep(text)
            if not set(map(type, value)) <= _PLAIN_TYPES:
                children = iter(enumerate(value))
        elif isinstance(value, _LongInteger):
            raise RecordError(
                _json_path(keys), f"integer with {value.digits} digits; at most {MAX_INTEGER_DIGITS} are allowed"
            )
        elif isinstance(value, _NotJson):
            raise RecordError(_json_path(keys), f"{value.literal} is not a JSON value")
        if children is not None:
            stack.append(children)
        elif keys:
            keys.pop()  # a leaf (or a container of leaves): done with it
        # Next value: the next child of the innermost container that has one left.
        while stack:
            item = next(stack[-1], None)
            if item is not None:
                keys.append(item[0])
                value = item[1]
                break
            stack.pop()
            if keys:
                keys.pop()
        else:
            return


# Strings (whose brackets do not count) or brackets; possessive, so an unclosed string costs one pass.
_BRACKETS = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]')


def _too_deep(text: str) -> RecordError:
    """The error for nesting over `MAX_RECORD_DEPTH`, at the line and column where it starts."""
    depth = 0
    position = len(text)
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_RECORD_DEPTH:
                position = match.start()
                break
        elif token in "]}":
            depth -= 1
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return RecordError(
        f"line {line}, column {column}", f"arrays and objects nested deeper than {MAX_RECORD_DEPTH} levels"
    )


def _action_schema() -> dict[str, Any]:
    count = {"type": "integer", "minimum": 0, "maximum": 200}
    kind = {"type": "string", "enum": [k.symbol for k in Kind]}
    natural = {"type": "string", "enum": [k.symbol for k in Kind if k.is_natural]}
    suit = {"type": "string", "enum": sorted(_SUIT_SYMBOLS)}
    # The keys whose schema depends on the action (the sequence games' ranks are natural only).
    special: dict[tuple[str, str], dict[str, Any]] = {
        ("group", "rank"): natural,
        ("sequence", "low"): natural,
        ("sequence", "high"): natural,
        ("extend", "low"): natural,
        ("extend", "high"): natural,
        ("group", "suits"): {"type": "array", "items": count, "minItems": 4, "maxItems": 4},
        ("pile", "pair"): {"type": "array", "items": suit, "minItems": 2, "maxItems": 2},
        ("pile", "mode"): {"type": "string", "enum": sorted(_TAKE_MODES)},
        ("lay_meld", "meld_type"): {"type": "string", "minLength": 1},
        ("lay_meld", "cards"): {"type": "array", "items": {"type": "string"}, "minItems": 1},
        ("add_to_meld", "cards"): {"type": "array", "items": {"type": "string"}, "minItems": 1},
        ("sequence", "suit"): suit,
        ("discard", "suit"): suit,
        ("declare", "discard"): kind,
    }
    variants = []
    for name, keys in _ACTION_KEYS.items():
        props: dict[str, Any] = {"type": {"const": name}}
        for key, typ in (*keys.items(), *_OPTIONAL_KEYS.get(name, {}).items()):
            if (name, key) in special:
                props[key] = special[name, key]
            elif key in ("rank", "kind"):
                props[key] = kind
            elif key == "hand":
                props[key] = {"type": "string", "minLength": 1}
            elif typ is bool:
                props[key] = {"type": "boolean"}
            else:
                props[key] = count
        variants.append(
            {"type": "object", "properties": props, "required": ["type", *keys], "additionalProperties": False}
        )
    return {"oneOf": variants}


def _name_version_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"name": {"type": "string"}, "version": {"type": "string"}},
        "required": ["name", "version"],
        "additionalProperties": False,
    }


_INT_ARRAY = {"type": "array", "items": {"type": "integer"}}

#: The record format (version `RECORD_FORMAT_VERSION`) as a JSON Schema (draft 2020-12).
RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "canasta game record",
    "type": "object",
    "properties": {
        "format": {"const": _RECORD_FORMAT},
        "format_version": {"const": RECORD_FORMAT_VERSION},
        "variant": _name_version_schema(),
        "house_rules": {"type": "array", "items": _name_version_schema()},
        "seed": {"type": "integer", "minimum": -(2**64) + 1, "maximum": 2**64 - 1},
        "first_dealer": {"type": ["integer", "null"], "minimum": 0},
        "players": {"type": "integer", "minimum": _PLAYER_RANGE.start, "maximum": _PLAYER_RANGE.stop - 1},
        "seats": {"type": "array", "items": {"type": "string"}},
        "actions": {"type": "array", "items": _action_schema()},
        "hands": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"actions": {"type": "integer", "minimum": 0}, "totals": _INT_ARRAY},
                "required": ["actions", "totals"],
                "additionalProperties": False,
            },
        },
        "final_scores": _INT_ARRAY,
        "complete": {"type": "boolean"},
    },
    "required": sorted(_RECORD_KEYS | {"first_dealer"}),
    "additionalProperties": False,
}
