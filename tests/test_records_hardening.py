"""Records as hostile input: every bad text or value is a `RecordError` naming where, never another exception.

Covers the text-level limits of `load_record` / `loads_record` (size, UTF-8,
nesting depth, integer length, duplicate keys, non-JSON constants) and
hypothesis mutations of a valid record (deleted fields, changed types,
duplicate keys, other encodings, truncation, random bytes).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import canasta
from canasta.bots import make_bot
from canasta.records import (
    MAX_INTEGER_DIGITS,
    MAX_RECORD_BYTES,
    MAX_RECORD_DEPTH,
    GameRecorder,
    RecordError,
    load_record,
    loads_record,
    record_from_json,
)

Key = str | int


def _record_text() -> str:
    # One hand, stopped right where it ends: no action lies outside a stored hand.
    game = canasta.Game("classic", seed=5)
    recorder = GameRecorder(game, ["ann", "bob", "cy", "di"])
    bots = [make_bot("greedy", (5, s)) for s in range(4)]
    while not game.results:
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))
    return recorder.record().dumps()


TEXT = _record_text()
DATA: dict[str, Any] = json.loads(TEXT)


def test_the_valid_record_loads() -> None:
    assert loads_record(TEXT).seats == ("ann", "bob", "cy", "di")
    assert loads_record(TEXT.encode()).seats == ("ann", "bob", "cy", "di")


# --- size ------------------------------------------------------------------------------


def test_documented_default_size_limit() -> None:
    assert MAX_RECORD_BYTES == 8 * 1024 * 1024  # 64 MiB before issue 31 (item 14): parsing took 27 times that


def test_size_limit_is_a_parameter(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(TEXT)
    size = len(TEXT.encode())
    assert load_record(path, max_bytes=size).seed == 5
    assert loads_record(TEXT, max_bytes=size).seed == 5
    for call in (lambda: load_record(path, max_bytes=size - 1), lambda: loads_record(TEXT, max_bytes=size - 1)):
        with pytest.raises(RecordError, match="larger than the limit") as info:
            call()
        assert info.value.where == f"byte offset {size - 1}"


def test_size_of_a_str_counts_its_utf8_bytes() -> None:
    text = TEXT.replace('"ann"', '"\u00e4\u00e4\u00e4"')  # two bytes each in UTF-8
    size = len(text.encode())
    assert len(text) < size
    assert loads_record(text, max_bytes=size).seats[0] == "\u00e4\u00e4\u00e4"
    with pytest.raises(RecordError, match="larger than the limit"):
        loads_record(text, max_bytes=size - 1)


def test_a_huge_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 1)  # sparse: costs no disk
    tracemalloc.start()
    try:
        with pytest.raises(RecordError, match="larger than the limit"):
            load_record(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_stream_is_refused_in_memory_bounded_by_the_limit() -> None:
    limit = 4_000_000
    tracemalloc.start()
    try:
        with pytest.raises(RecordError, match="larger than the limit"):
            load_record("/dev/zero", max_bytes=limit)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * limit


# --- encoding --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("insert", "reason"),
    [
        (b"\xff", "invalid start byte"),
        (b"\xc3(", "invalid continuation byte"),
        (b"\xed\xa0\x80", "invalid continuation byte"),  # an encoded surrogate
        (b"\xc0\xaf", "invalid start byte"),  # an over-long form
    ],
)
def test_invalid_utf8_names_the_byte_offset(insert: bytes, reason: str) -> None:
    raw = TEXT.encode()
    at = raw.index(b'"ann"') + 1
    with pytest.raises(RecordError, match=reason) as info:
        loads_record(raw[:at] + insert + raw[at:])
    assert info.value.where == f"byte offset {at} (line 1)"
    assert "not valid UTF-8" in info.value.message


def test_invalid_utf8_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(TEXT.replace('"ann"', '"Andr\u00e9"').encode("latin-1"))
    with pytest.raises(RecordError, match="not valid UTF-8") as info:
        load_record(path)
    assert info.value.where.startswith("byte offset ")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_other_encodings_are_refused(encoding: str) -> None:
    with pytest.raises(RecordError):
        loads_record(TEXT.encode(encoding))


# --- depth -----------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_RECORD_DEPTH + 1, 5_000, 200_000])
@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deep_nesting_is_refused_naming_where(depth: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    text = opener * depth + "0" + closer * depth
    with pytest.raises(RecordError, match=f"deeper than {MAX_RECORD_DEPTH}") as info:
        loads_record(text)
    column = len(opener) * MAX_RECORD_DEPTH + 1
    assert info.value.where == f"line 1, column {column}"


def test_unclosed_deep_nesting_is_refused() -> None:
    with pytest.raises(RecordError, match="deeper than"):
        loads_record("[" * 1_000_000)


def test_depth_inside_a_record_counts_from_the_root() -> None:
    nested = "[" * (MAX_RECORD_DEPTH - 2) + '"x"' + "]" * (MAX_RECORD_DEPTH - 2)
    # The root object is level 1 and `seats` level 2: 62 more levels reach the limit, 63 pass it.
    ok = TEXT.replace('"seats": [', f'"seats": [{nested}, ', 1)
    with pytest.raises(RecordError) as info:
        loads_record(ok)
    assert "deeper" not in info.value.message  # refused by the schema instead
    deep = TEXT.replace('"seats": [', f'"seats": [[{nested}], ', 1)
    with pytest.raises(RecordError, match="deeper than") as info:
        loads_record(deep)
    assert info.value.where.startswith("line 1, column ")


def test_brackets_inside_strings_do_not_count() -> None:
    text = TEXT.replace('"ann"', json.dumps("[" * 500 + "{" * 500), 1)
    assert loads_record(text).seats[0].startswith("[[[")


# --- numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize("digits", [MAX_INTEGER_DIGITS + 1, 4_300, 4_301, 100_000])
def test_long_integers_are_refused_naming_where(digits: int) -> None:
    data = copy.deepcopy(DATA)
    data["hands"][0]["totals"][1] = 0
    text = json.dumps(data).replace('"totals": [' + str(data["hands"][0]["totals"][0]) + ", 0]", "@", 1)
    assert "@" in text
    text = text.replace("@", '"totals": [' + "-" + "9" * digits + ", 0]")
    with pytest.raises(RecordError, match=f"integer with {digits} digits") as info:
        loads_record(text)
    assert info.value.where == "hands[0].totals[0]"


def test_an_integer_of_the_largest_size_parses() -> None:
    data = copy.deepcopy(DATA)
    data["final_scores"][0] = int("9" * MAX_INTEGER_DIGITS)
    assert loads_record(json.dumps(data), validate=False).final_scores[0] == data["final_scores"][0]
    for seed in (2**64 - 1, -(2**64) + 1):  # the largest seeds (canasta.seeds) have 20 digits
        data["seed"] = seed
        assert loads_record(json.dumps(data), validate=False).seed == seed


def test_long_python_integers_are_refused_too() -> None:
    data = copy.deepcopy(DATA)
    data["seed"] = 10**MAX_INTEGER_DIGITS
    with pytest.raises(RecordError, match="out of range") as info:
        record_from_json(data)
    assert info.value.where == "seed"


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_json_constants_are_refused(literal: str) -> None:
    text = TEXT.replace('"seed": 5', f'"seed": {literal}', 1)
    with pytest.raises(RecordError, match=f"{literal} is not a JSON value") as info:
        loads_record(text)
    assert info.value.where == "seed"


def test_floats_are_refused_where_integers_belong() -> None:
    with pytest.raises(RecordError, match="expected an integer") as info:
        loads_record(TEXT.replace('"seed": 5', '"seed": 5.0', 1))
    assert info.value.where == "seed"
    with pytest.raises(RecordError) as info:
        loads_record(TEXT.replace('"seed": 5', '"seed": 1e999', 1))
    assert info.value.where == "seed"


# --- duplicate keys --------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(DATA))
@pytest.mark.parametrize("same", [True, False])
def test_duplicate_top_level_keys_are_refused(key: str, same: bool) -> None:
    value = DATA[key] if same else {"conflicting": True}
    text = TEXT[:-1] + f", {json.dumps(key)}: {json.dumps(value)}}}"
    with pytest.raises(RecordError, match=f"duplicate key '{key}'") as info:
        loads_record(text)
    assert info.value.where == "record"


@pytest.mark.parametrize(
    ("old", "new", "where", "key"),
    [
        ('"name": "classic"', '"name": "classic", "name": "cuban"', "variant", "name"),
        ('{"type": "draw"}', '{"type": "draw", "type": "draw"}', "actions[0]", "type"),
        ('"totals": [', '"totals": [], "totals": [', "hands[0]", "totals"),
    ],
)
def test_duplicate_nested_keys_are_refused_naming_the_path(old: str, new: str, where: str, key: str) -> None:
    assert old in TEXT
    with pytest.raises(RecordError, match=f"duplicate key '{key}'") as info:
        loads_record(TEXT.replace(old, new, 1))
    assert info.value.where == where


# --- other text ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", " ", "{", "}", "nul", '{"a" 1}', TEXT + "x", TEXT + TEXT, "\ufeff" + TEXT])
def test_broken_json_is_refused_naming_line_and_column(text: str) -> None:
    with pytest.raises(RecordError, match="not valid JSON") as info:
        loads_record(text)
    assert info.value.where.startswith("line ")


def test_record_from_json_refuses_odd_python_values() -> None:
    for data in ({1: 2, "x": 3}, {("a",): 1}, [DATA], None, 3.5, "text"):
        with pytest.raises(RecordError):
            record_from_json(data)


def test_huge_values_give_short_messages() -> None:
    data = copy.deepcopy(DATA)
    data["actions"][0] = {"type": "x" * 1_000_000}
    with pytest.raises(RecordError) as info:
        record_from_json(data)
    assert len(str(info.value)) < 300


# --- hypothesis: mutations of the valid record ---------------------------------------------


def _paths(value: object, prefix: tuple[Key, ...] = ()) -> Iterator[tuple[Key, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _get(data: Any, path: tuple[Key, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


PATHS = list(_paths(DATA))
CHILD_PATHS = PATHS[1:]
OBJECT_PATHS = [p for p in PATHS if isinstance(_get(DATA, p), dict) and _get(DATA, p)]

JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=8,
)
_TYPES: dict[str, st.SearchStrategy[Any]] = {
    "null": st.none(),
    "bool": st.booleans(),
    "int": st.integers(-(10**25), 10**25),
    "float": st.floats(allow_nan=False, allow_infinity=False),
    "str": st.text(max_size=8),
    "list": st.lists(JSON_SCALARS, max_size=3),
    "dict": st.dictionaries(st.text(max_size=5), JSON_SCALARS, max_size=3),
}


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", dict: "dict"}[type(value)]


def _mutated(path: tuple[Key, ...], value: object) -> dict[str, Any]:
    data = copy.deepcopy(DATA)
    if not path:
        return value  # type: ignore[return-value]
    _get(data, path[:-1])[path[-1]] = value
    return data


def _load(data: object) -> None:
    loads_record(json.dumps(data))


@given(path=st.sampled_from(CHILD_PATHS))
def test_deleting_any_field_or_element_is_refused(path: tuple[Key, ...]) -> None:
    data = copy.deepcopy(DATA)
    del _get(data, path[:-1])[path[-1]]
    with pytest.raises(RecordError):
        _load(data)


@given(data=st.data(), path=st.sampled_from(PATHS))
def test_changing_any_value_s_type_is_refused(data: st.DataObject, path: tuple[Key, ...]) -> None:
    current = _json_type(_get(DATA, path))
    other = data.draw(st.sampled_from(sorted(set(_TYPES) - {current})))
    value = data.draw(_TYPES[other])
    with pytest.raises(RecordError):
        _load(_mutated(path, value))


@given(path=st.sampled_from(PATHS), value=JSON_VALUES)
def test_replacing_any_value_is_a_record_error_or_a_valid_record(path: tuple[Key, ...], value: object) -> None:
    with contextlib.suppress(RecordError):
        _load(_mutated(path, value))


def _dumps_with_duplicate(
    value: object, target: tuple[Key, ...], key: str, extra: object, here: tuple[Key, ...] = ()
) -> str:
    """JSON text of ``value`` with ``key`` written a second time (as ``extra``) in the object at ``target``."""
    if isinstance(value, dict):
        items = [
            f"{json.dumps(k)}: {_dumps_with_duplicate(v, target, key, extra, (*here, k))}" for k, v in value.items()
        ]
        if here == target:
            items.append(f"{json.dumps(key)}: {json.dumps(extra)}")
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return (
            "[" + ", ".join(_dumps_with_duplicate(v, target, key, extra, (*here, i)) for i, v in enumerate(value)) + "]"
        )
    return json.dumps(value)


@given(data=st.data(), path=st.sampled_from(OBJECT_PATHS))
def test_a_duplicate_key_anywhere_is_refused_naming_it(data: st.DataObject, path: tuple[Key, ...]) -> None:
    target = _get(DATA, path)
    key = data.draw(st.sampled_from(sorted(target)))
    extra = data.draw(st.just(target[key]) | JSON_VALUES)
    text = _dumps_with_duplicate(DATA, path, key, extra)
    with pytest.raises(RecordError, match="duplicate key") as info:
        loads_record(text)
    assert repr(key) in info.value.message


@given(cut=st.integers(0, len(TEXT.encode()) - 1))
def test_any_truncation_is_refused(cut: int) -> None:
    with pytest.raises(RecordError):
        loads_record(TEXT.encode()[:cut])


_INVALID_UTF8 = st.sampled_from(
    [b"\x80", b"\xbf", b"\xc0", b"\xc1\x81", b"\xe0\x80", b"\xed\xbf\xbf", b"\xf5", b"\xff"]
)


@given(at=st.integers(0, len(TEXT.encode())), bad=_INVALID_UTF8)
def test_invalid_utf8_anywhere_names_its_offset(at: int, bad: bytes) -> None:
    raw = TEXT.encode()
    with pytest.raises(RecordError, match="not valid UTF-8") as info:
        loads_record(raw[:at] + bad + raw[at:])
    assert info.value.where.startswith(f"byte offset {at} ")


@given(
    encoding=st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "cp1252", "latin-1"]),
    label=st.text(st.characters(min_codepoint=0xA0, max_codepoint=0xFF), min_size=1, max_size=4),
)
def test_records_in_other_encodings_are_refused(encoding: str, label: str) -> None:
    # Each accented letter followed by an ASCII one: no single-byte encoding of it is valid UTF-8 by chance.
    label = "".join(c + "x" for c in label)
    text = TEXT.replace('"ann"', json.dumps(label, ensure_ascii=False), 1)
    with pytest.raises(RecordError):
        loads_record(text.encode(encoding))


@given(raw=st.binary(max_size=200))
def test_random_bytes_are_refused(raw: bytes) -> None:
    with pytest.raises(RecordError):
        loads_record(raw)


@given(value=JSON_VALUES)
def test_random_json_values_are_refused(value: object) -> None:
    with pytest.raises(RecordError):
        record_from_json(value)
    with pytest.raises(RecordError):
        loads_record(json.dumps(value))


@given(text=st.text(alphabet=st.sampled_from('[]{}",:0123456789-.eE truefalsnul\\'), max_size=80))
def test_json_like_noise_is_refused(text: str) -> None:
    with pytest.raises(RecordError):
        loads_record(text)
