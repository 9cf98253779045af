"""scripts/browser_check.py: it must fail on what a reader would see as broken."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

import pytest
from helpers import load_file_module

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "browser_check.py"
ORIGIN = "http://127.0.0.1:8000/"


def _script() -> ModuleType:
    return load_file_module(SCRIPT, "browser_check")


def test_clean_events_are_no_problem() -> None:
    events = [
        {"method": "Network.requestWillBeSent", "params": {"request": {"url": ORIGIN + "assets/main.js"}}},
        {"method": "Network.responseReceived", "params": {"response": {"status": 200, "url": ORIGIN}}},
        {"method": "Runtime.consoleAPICalled", "params": {"type": "log", "args": [{"value": "hello"}]}},
    ]
    assert _script().problems_of(events, ORIGIN) == []


def test_errors_missing_files_and_outside_requests_are_problems() -> None:
    events = [
        {"method": "Runtime.consoleAPICalled", "params": {"type": "error", "args": [{"value": "boom"}]}},
        {"method": "Runtime.exceptionThrown", "params": {"exceptionDetails": {"text": "Uncaught TypeError"}}},
        {"method": "Network.responseReceived", "params": {"response": {"status": 404, "url": ORIGIN + "x.css"}}},
        {"method": "Network.requestWillBeSent", "params": {"request": {"url": "https://fonts.example/f.woff"}}},
        {"method": "Network.loadingFailed", "params": {"errorText": "net::ERR_FAILED"}},
    ]
    problems = _script().problems_of(events, ORIGIN)
    assert len(problems) == 5
    assert "console.error: boom" in problems
    assert any("404" in p and "x.css" in p for p in problems)
    assert any("leaves the local site" in p for p in problems)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium (apt-get install chromium)")
def test_a_broken_page_fails_and_a_good_page_passes_in_a_real_browser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    (site / "good").mkdir(parents=True)
    (site / "good" / "index.html").write_text(
        '<html><head><link rel="icon" href="data:,"></head><body><article><h1>Good</h1></article></body></html>'
    )
    (site / "index.html").write_text(
        '<html><head><link rel="icon" href="data:,"></head><body><article><h1>Bad</h1></article>'
        '<script>console.error("boom")</script></body></html>'
    )
    script = _script()
    assert script.main(["--site", str(site), "--out", str(tmp_path / "out"), "--pages", "good/"]) == 0
    assert script.main(["--site", str(site), "--out", str(tmp_path / "out"), "--pages", "", "missing/"]) == 1
    out = capsys.readouterr().out
    assert "console.error: boom" in out
    assert "FAIL /missing/" in out
