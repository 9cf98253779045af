"""The page of `canasta serve` in a real browser: Debian's Chromium driven by Playwright for Python.

A person's game is played by clicking (the first legal button each time) to the end of a
hand of classic, an illegal typed command is refused with the engine's reason on the page,
and a record is loaded (pasted and uploaded) and stepped through. Screenshots go to
``artifacts/web-*.png``.

No browser is downloaded (never ``playwright install``): Playwright launches the system's
``chromium`` (``$CHROMIUM``, or ``chromium`` on PATH) headless with the flags of
``scripts/browser_check.py``. Without Playwright, the web extra or Chromium the test is
skipped, except in CI (``CI=true``), where it must run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import load_file_module

import canasta
from canasta.records import GameRecorder, loads_record

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
IN_CI = os.environ.get("CI") == "true"

# The flags of scripts/browser_check.py, less those Playwright sets itself (headless mode,
# its own remote-debugging pipe) and the window size (a context's viewport sets it).
CHROMIUM_FLAGS = [
    flag
    for flag in load_file_module(ROOT / "scripts" / "browser_check.py", "browser_check").CHROMIUM_FLAGS
    if flag != "--headless" and not flag.startswith(("--remote-", "--window-size="))
]

#: A hand of classic ends within this many clicks of the first button (about 20-40 in practice).
MAX_CLICKS = 400


def _missing() -> str | None:
    for module, extra in (("playwright", "web-test"), ("starlette", "web"), ("uvicorn", "web")):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install -e '.[{extra}]')"
    if _chromium() is None:
        return "no chromium found (Debian: apt-get install chromium); never `playwright install`"
    return None


def _chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        if candidate and (path := shutil.which(candidate)):
            return path
    return None


_REASON = _missing()
if _REASON is not None:
    if IN_CI:
        pytest.fail(f"CI (CI=true) must run the browser test of the web page: {_REASON}", pytrace=False)
    pytest.skip(_REASON, allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright  # noqa: E402

from canasta.web import create_app  # noqa: E402


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    """The app served by uvicorn in a thread, on a free loopback port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(seed=3), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=_chromium(), headless=True, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, origin: str) -> Iterator[Page]:
    """A fresh page (its own cookies: its own session); no error and no outside request allowed."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    tab = context.new_page()
    problems: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type in ("error", "assert") and "status of 422" not in message.text:
            problems.append(f"console.{message.type}: {message.text}")

    tab.on("console", console)
    tab.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    tab.on(
        "request",
        lambda request: (
            None if request.url.startswith((origin, "data:", "blob:")) else problems.append(f"outside: {request.url}")
        ),
    )
    tab.set_default_timeout(15_000)
    tab.goto(origin)
    _settled(tab, "-1")
    yield tab
    context.close()
    assert not problems, problems


def _settled(page: Page, old_version: str) -> None:
    """Wait until the page has shown a state newer than ``old_version`` and is not waiting."""
    page.wait_for_function(
        "old => document.body.dataset.busy === '0' && document.body.dataset.version !== old", arg=old_version
    )


def _version(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.version"))


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def _record_text(seed: int = 11) -> str:
    game = canasta.Game("classic", seed=seed)
    bots = [canasta.make_bot("greedy", f"{seed}:{s}") for s in range(game.rules.players)]
    recorder = GameRecorder(game, ["you", "greedy", "greedy", "greedy"])
    while not game.results:
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))
    return recorder.record().dumps()


def test_a_hand_is_played_by_clicking_and_an_illegal_command_is_refused(page: Page) -> None:
    started = time.monotonic()
    assert page.locator("#picture").get_attribute("src", timeout=5_000).startswith("data:image/svg+xml")  # type: ignore[union-attr]
    assert "Hand 1" in page.inner_text("#scores")
    first = page.locator("#legal button").first
    assert "draw from the stock" in first.inner_text()
    _shot(page, "web-play.png")

    # A typed command that is not legal now: the engine's reason is shown; nothing changes.
    buttons = page.locator("#legal button").all_inner_texts()
    before = _version(page)
    page.fill("#command", "x 9")
    page.press("#command", "Enter")
    _settled(page, before)
    error = page.locator("#error")
    assert error.is_visible()
    text = error.inner_text()
    assert text.startswith("not allowed now: discard 9 is not possible now"), text
    assert "draw phase" in text
    assert page.locator("#legal button").all_inner_texts() == buttons
    _shot(page, "web-refused.png")

    # Click the first legal button until the hand is over.
    clicks = 0
    while not page.locator("#hand-score").is_visible():
        assert clicks < MAX_CLICKS, f"the hand did not end within {MAX_CLICKS} clicks"
        before = _version(page)
        page.locator("#legal button").first.click()
        _settled(page, before)
        clicks += 1
        if clicks == 1:  # after the draw: the meld and discard buttons
            _shot(page, "web-turn.png")
    assert not error.is_visible()
    score = page.inner_text("#hand-score")
    assert re.search(r"Hand 1: (seat \d went out|\w+)", score), score
    assert "hand total" in score and "game score" in score
    assert "hand 1 is over" in page.inner_text("#message").lower()
    assert page.inner_text("#scores").startswith("Hand 1 ")  # the finished hand, not the next deal
    _shot(page, "web-hand-over.png")

    before = _version(page)
    page.get_by_role("button", name="Next hand").click()
    _settled(page, before)
    assert page.locator("#hand-score").is_hidden()
    assert "Hand 2" in page.inner_text("#scores")
    assert page.locator("#legal button").count() > 0
    print(f"a hand in {clicks} clicks, {time.monotonic() - started:.1f} s")


def test_a_record_is_loaded_and_stepped_through(page: Page, tmp_path: Path) -> None:
    text = _record_text()
    total = len(loads_record(text).actions)
    page.click("#record-panel summary")

    # A bad record is refused with its error, and the game stays.
    page.fill("#record-text", text[:-30])
    page.click("#record-load")
    page.wait_for_selector("#record-error:not([hidden])")
    assert page.inner_text("#record-error").startswith("not a valid record: ")
    assert page.evaluate("document.body.dataset.mode") == "play"

    # Pasted: load it, then step.
    before = _version(page)
    page.fill("#record-text", text)
    page.click("#record-load")
    _settled(page, before)
    assert page.evaluate("document.body.dataset.mode") == "replay"
    assert page.locator("#record-error").is_hidden()
    assert page.inner_text("#replay-position").startswith(f"position 0 of {total}")
    assert page.locator("#replay-prev").is_disabled()
    for step in range(1, 4):
        before = _version(page)
        page.click("#replay-next")
        _settled(page, before)
        assert page.inner_text("#replay-position").startswith(f"position {step} of {total}")
    assert page.inner_text("#message").startswith(f"Action 3 of {total}: ")
    _shot(page, "web-replay.png")
    before = _version(page)
    page.click("#replay-last")
    _settled(page, before)
    assert page.inner_text("#replay-position").startswith(f"position {total} of {total}")
    assert page.locator("#replay-next").is_disabled()
    assert page.locator("#hand-score").is_visible()
    _shot(page, "web-replay-end.png")
    before = _version(page)
    page.click("#replay-prev")
    _settled(page, before)
    assert page.inner_text("#replay-position").startswith(f"position {total - 1} of {total}")
    before = _version(page)
    page.keyboard.press("ArrowLeft")  # the arrow keys step too
    _settled(page, before)
    assert page.inner_text("#replay-position").startswith(f"position {total - 2} of {total}")

    # Uploaded: the file input loads it at once.
    path = tmp_path / "record.json"
    path.write_text(json.dumps(json.loads(text), indent=1))
    before = _version(page)
    page.set_input_files("#record-file", str(path))
    _settled(page, before)
    assert page.inner_text("#replay-position").startswith(f"position 0 of {total}")


def test_a_new_game_of_another_variant_from_the_form(page: Page) -> None:
    page.click("#new-panel summary")
    page.select_option("#new-variant", "two-player")
    page.fill("#new-seed", "21")
    before = _version(page)
    page.click("#new-start")
    _settled(page, before)
    title = page.inner_text("#title")
    assert "two-player" in title and "seed 21" in title
    assert page.locator("#legal button").count() > 0


def test_a_whole_game_is_played_to_its_end_by_clicking(page: Page) -> None:
    # Seed 3 with the first button each time: a game of classic in two hands (about 70 clicks).
    clicks = 0
    while "game over" not in page.inner_text("#scores"):
        assert clicks < 10 * MAX_CLICKS, "the game did not end"
        before = _version(page)
        next_hand = page.get_by_role("button", name="Next hand")
        if next_hand.count() and next_hand.is_visible():
            next_hand.click()
        else:
            page.locator("#legal button").first.click()
        _settled(page, before)
        clicks += 1
    assert page.locator("#legal button").count() == 0
    assert "The game is over" in page.inner_text("body")
    _shot(page, "web-game-over.png")


def test_the_page_at_phone_width_shows_the_bots_moves_and_the_commands(browser: Browser, origin: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.set_default_timeout(15_000)
        page.goto(origin)
        _settled(page, "-1")
        for _ in range(2):  # draw, then the first meld or discard: the bots play their turns
            before = _version(page)
            page.locator("#legal button").first.click()
            _settled(page, before)
        # The other seats' moves are shown under the message, not in a collapsed panel.
        moves = page.locator("#moves")
        assert moves.is_visible()
        lines = page.locator("#log li").all_inner_texts()
        assert lines and all(re.match(r"seat [123] \(", line) for line in lines), lines
        # Nothing is wider than the screen: the page never scrolls sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        before = _version(page)
        page.fill("#command", "?")
        page.press("#command", "Enter")
        _settled(page, before)
        assert page.locator("#help").is_visible()
        assert page.locator("#help-table tr").count() >= 10  # a table of commands, not one paragraph
        _shot(page, "web-phone.png")
    finally:
        context.close()
