"""Peak memory of refusing (or reading) hostile record texts at the record limits (issue 31, item 14).

For each shape of JSON that costs the parser the most memory per byte, the
largest text that the limits let through to the parser (``max_bytes`` and
``max_items``) is parsed by `canasta.loads_record` under ``tracemalloc``; the
script prints the peak and its ratio to ``max_bytes``. A real record (random
bots, many hands) is measured too.

    python benchmarks/record_memory.py                  # the default limits (16 MiB)
    python benchmarks/record_memory.py --max-bytes 1048576
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable, Iterator

from canasta.records import BYTES_PER_ITEM, MAX_RECORD_BYTES, OBJECTS_PER_ITEM, RecordError, loads_record


def _fill(unit: str, items_per_unit: int, max_bytes: int, max_items: int) -> str:
    head, tail = '{"x":[', "]}"
    room = max_bytes - len(head) - len(tail)
    count = min(room // (len(unit) + 1), (max_items - 3) // items_per_unit)
    if unit.startswith("{"):
        count = min(count, max_items // OBJECTS_PER_ITEM - 1)
    return head + ",".join([unit] * count) + tail


def _distinct(make: Callable[[int], str], items_per_unit: int, max_bytes: int, max_items: int) -> str:
    head, tail = '{"x":[', "]}"
    units: list[str] = []
    size = len(head) + len(tail)
    most = max_items // OBJECTS_PER_ITEM - 1  # every unit is an object
    while len(units) * items_per_unit + 3 + items_per_unit <= max_items and len(units) < most:
        unit = make(len(units))
        if size + len(unit) + 1 > max_bytes:
            break
        units.append(unit)
        size += len(unit) + 1
    return head + ",".join(units) + tail


def shapes(max_bytes: int, max_items: int) -> Iterator[tuple[str, str]]:
    """The hostile shapes, each as large as the limits allow."""
    yield "empty lists [],", _fill("[]", 2, max_bytes, max_items)
    yield 'objects {"":0},', _fill('{"":0}', 3, max_bytes, max_items)
    yield 'distinct objects {"":N},', _distinct(lambda i: f'{{"":{i}}}', 3, max_bytes, max_items)
    yield 'strings "ab",', _fill('"ab"', 1, max_bytes, max_items)
    yield "integers 1234,", _fill("1234", 1, max_bytes, max_items)
    yield "floats 1.5,", _fill("1.5", 1, max_bytes, max_items)
    yield 'actions {"type": "draw"},', _fill('{"type": "draw"}', 3, max_bytes, max_items)


def measure(text: str, max_bytes: int) -> tuple[int, float, str]:
    """Peak traced memory, seconds and outcome of parsing ``text``."""
    raw = text.encode()
    tracemalloc.start()
    start = time.perf_counter()
    try:
        loads_record(raw, validate=False, max_bytes=max_bytes)
        outcome = "read"
    except RecordError as error:
        outcome = f"refused ({error.where})"
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, seconds, outcome


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-bytes", type=int, default=MAX_RECORD_BYTES)
    args = parser.parse_args()
    max_bytes = args.max_bytes
    max_items = max_bytes // BYTES_PER_ITEM
    print(f"max_bytes {max_bytes} ({max_bytes / 2**20:.1f} MiB), max_items {max_items}")
    for name, text in shapes(max_bytes, max_items):
        peak, seconds, outcome = measure(text, max_bytes)
        size = len(text.encode())
        print(
            f"{name:28} text {size / 2**20:6.2f} MiB  peak {peak / 2**20:7.1f} MiB "
            f"({peak / max_bytes:5.1f} x max_bytes)  {seconds:5.1f} s  {outcome}"
        )


if __name__ == "__main__":
    main()
