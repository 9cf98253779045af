#!/usr/bin/env python3
"""Load the built documentation site in headless Chromium and fail on any error.

Usage::

    python scripts/browser_check.py                 # build the site (mkdocs --strict), then check it
    python scripts/browser_check.py --site site     # check an already built site
    python scripts/browser_check.py --out artifacts # where the screenshot goes (default: artifacts/)

The site is served on 127.0.0.1 (``http.server`` in a thread) and each main page is
loaded in Debian's ``chromium`` (``apt-get install chromium``), driven through the
Chrome DevTools Protocol over a websocket (a small stdlib client below, so the check
needs no extra Python package). A page fails the check when:

- the server answers 404 (a missing page, stylesheet, script or image) or any
  response is an error;
- the page logs a console error or throws an uncaught exception;
- the page tries to reach any host other than the local server (the site must work
  offline);
- the page has no ``<h1>`` heading in its content;
- the page shows a compiled module's members instead of its source's (mypyc's
  "mypyc filler docstring": the API reference was read from an extension module).

A screenshot of a variant page is saved as ``<out>/variant-classic.png``.
Exit status: 0 when every page passes, 1 otherwise (2 for a setup problem).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import http.server
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent

#: The main pages: (path under the site, what the page must be about).
PAGES = [
    "",
    "getting-started/",
    "concepts/",
    "variants/",
    "variants/classic/",
    "variants/two-player/",
    "variants/three-player/",
    "variants/six-player/",
    "variants/cuban/",
    "variants/modern-american/",
    "variants/modern-american-club/",
    "house-rules/",
    "rules/",
    "rules/classic/",
    "rules/two-player/",
    "rules/three-player/",
    "rules/six-player/",
    "rules/cuban/",
    "rules/modern-american/",
    "rules/modern-american-club/",
    "rules/house-rules/american-discards/",
    "rules/house-rules/cutthroat/",
    "rules/house-rules/wilds-at-most-naturals/",
    "rules/house-rules/rule-of-five/",
    "rules/house-rules/dead-ranks/",
    "rules/house-rules/aces-pure/",
    "rules/house-rules/splash/",
    "rules/house-rules/held-aces-sevens-penalty/",
    "rules/special-hands/",
    "rules/house-rules/american-special-hands/",
    "rules/house-rules/american-special-hands-pagat/",
    "pictures/",
    "web/",
    "reference/rule-codes/",
    "writing-a-plugin/",
    "hooks/",
    "testing/",
    "cli/",
    "rl/",
    "search/",
    "openspiel/",
    "reference/",
    "reference/game/",
    "reference/rules/",
    "reference/determinize/",
    "reference/ismcts/",
    "changelog/",
    "404.html",
]
SCREENSHOT_PAGE = "variants/classic/"
SCREENSHOT_NAME = "variant-classic.png"

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--hide-scrollbars",
    "--mute-audio",
    "--window-size=1280,1000",
    "--remote-debugging-port=0",
    "--remote-allow-origins=*",
]


# --- a minimal websocket client (RFC 6455), enough for the DevTools protocol ----------


class WebSocket:
    """A blocking websocket client for ``ws://127.0.0.1:PORT/...`` URLs."""

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        assert url.startswith("ws://"), url
        host_port, _, path = url[len("ws://") :].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("websocket handshake: connection closed")
            response += chunk
        header, _, self._buffer = response.partition(b"\r\n\r\n")
        if b" 101 " not in header.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"websocket handshake refused: {header[:200]!r}")

    def send(self, text: str) -> None:
        """Send one text message (client frames are masked, as the protocol requires)."""
        payload = text.encode()
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            head = struct.pack("!BB", 0x81, 0x80 | length)
        elif length < 1 << 16:
            head = struct.pack("!BBH", 0x81, 0x80 | 126, length)
        else:
            head = struct.pack("!BBQ", 0x81, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def _read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            chunk = self.sock.recv(max(65536, n - len(self._buffer)))
            if not chunk:
                raise ConnectionError("websocket closed")
            self._buffer += chunk
        data, self._buffer = self._buffer[:n], self._buffer[n:]
        return data

    def recv(self) -> str:
        """One complete text message (fragments joined; pings answered)."""
        message = b""
        while True:
            first, second = self._read(2)
            opcode, final = first & 0x0F, first & 0x80
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._read(8))
            mask = self._read(4) if second & 0x80 else b""
            payload = self._read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise ConnectionError("websocket closed by the browser")
            if opcode == 0x9:  # ping: answer with a pong
                self.sock.sendall(struct.pack("!BB", 0x8A, 0x80 | len(payload)) + b"\0\0\0\0" + payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if final:
                    return message.decode()

    def close(self) -> None:
        """Say goodbye and close the socket."""
        with contextlib.suppress(OSError):
            self.sock.sendall(struct.pack("!BB", 0x88, 0x80) + b"\0\0\0\0")
        self.sock.close()


class DevTools:
    """Commands and events of one page target."""

    def __init__(self, ws_url: str) -> None:
        self.ws = WebSocket(ws_url)
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send a command and return its result, keeping the events that arrive meanwhile."""
        self._next_id += 1
        ident = self._next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            if "method" in message:
                self.events.append(message)

    def wait_for(self, event: str, timeout: float) -> bool:
        """Collect events until one named ``event`` arrives; False on timeout."""
        deadline = time.monotonic() + timeout
        seen = len(self.events)
        while time.monotonic() < deadline:
            if any(e["method"] == event for e in self.events[seen:]):
                return True
            self.ws.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                message = json.loads(self.ws.recv())
            except TimeoutError:
                break
            finally:
                self.ws.sock.settimeout(30)
            if "method" in message:
                self.events.append(message)
        return any(e["method"] == event for e in self.events[seen:])

    def drain(self, seconds: float) -> None:
        """Collect events for a while (scripts that run after the load event)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.ws.sock.settimeout(left)
            try:
                message = json.loads(self.ws.recv())
            except TimeoutError:
                break
            if "method" in message:
                self.events.append(message)
        self.ws.sock.settimeout(30)


# --- the local server ------------------------------------------------------------------


class _Handler(http.server.SimpleHTTPRequestHandler):
    errors: list[str]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        self.errors.append(f"{code} {self.path}")
        super().send_error(code, message, explain)


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, list[str]]:
    """Serve a folder on 127.0.0.1 (a free port) in a thread; also return its list of HTTP errors."""
    errors: list[str] = []
    handler = functools.partial(type("Handler", (_Handler,), {"errors": errors}), directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, errors


# --- the browser -------------------------------------------------------------------------


def _setup_error(message: str) -> NoReturn:
    print(f"browser_check: {message}", file=sys.stderr)
    raise SystemExit(2)


def find_chromium(explicit: str | None) -> str:
    """The browser executable: the one given, $CHROMIUM, or chromium on PATH."""
    if explicit is not None:
        return shutil.which(explicit) or _setup_error(f"{explicit!r} is not an executable browser")
    for candidate in [os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"]:
        if candidate and (path := shutil.which(candidate)):
            return path
    _setup_error("no chromium found (Debian: apt-get install -y chromium)")


def start_browser(chromium: str, profile: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Start headless Chromium with a fresh profile; return it and its DevTools port."""
    process = subprocess.Popen(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    port_file = profile / "DevToolsActivePort"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if port_file.exists() and (text := port_file.read_text().split()):
            return process, int(text[0])
        if process.poll() is not None:
            _setup_error(f"chromium exited with status {process.returncode}")
        time.sleep(0.1)
    process.kill()
    _setup_error("chromium did not open its DevTools port within 60 s")


def open_page(port: int) -> DevTools:
    """Open a new tab and connect to it."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/json/new?about:blank", method="PUT")
    with urllib.request.urlopen(request, timeout=30) as response:
        target = json.load(response)
    return DevTools(target["webSocketDebuggerUrl"])


def problems_of(events: list[dict[str, Any]], origin: str) -> list[str]:
    """What is wrong with a page, from the DevTools events collected while it loaded."""
    found: list[str] = []
    for event in events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            found.append(f"console.{params['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            description = details.get("exception", {}).get("description") or details.get("text")
            found.append(f"uncaught exception: {description}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            found.append(f"browser log error: {entry.get('text')} {entry.get('url', '')}".strip())
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if not url.startswith((origin, "data:", "blob:", "about:")):
                found.append(f"request leaves the local site: {url}")
        elif method == "Network.responseReceived":
            response = params.get("response", {})
            if response.get("status", 200) >= 400 and not response.get("url", "").endswith("/404.html"):
                found.append(f"HTTP {response.get('status')} for {response.get('url')}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            found.append(f"loading failed: {params.get('errorText')}")
    return found


#: The docstring mypyc gives what it generates: a page showing it documents an extension module.
_MYPYC_FILLER = "mypyc filler docstring"


def check_page(tools: DevTools, url: str, origin: str) -> tuple[list[str], str]:
    """Load a page; return its problems and its heading."""
    tools.events.clear()
    result = tools.call("Page.navigate", url=url)
    if result.get("errorText"):
        return [f"navigation failed: {result['errorText']}"], ""
    if not tools.wait_for("Page.loadEventFired", timeout=30):
        return ["the page did not finish loading within 30 s"], ""
    tools.drain(0.5)
    heading = tools.call(
        "Runtime.evaluate",
        expression="(document.querySelector('article h1, .md-content h1') || {}).textContent || ''",
        returnByValue=True,
    )["result"].get("value", "")
    problems = problems_of(tools.events, origin)
    if not heading.strip():
        problems.append("no <h1> in the page content")
    compiled_members = tools.call(
        "Runtime.evaluate", expression=f"document.body.innerText.includes({_MYPYC_FILLER!r})", returnByValue=True
    )["result"].get("value", False)
    if compiled_members:
        problems.append(f"{_MYPYC_FILLER!r} in the page: the API reference was read from a compiled module")
    return problems, heading.strip().rstrip("¶").strip()


def build_site(target: Path) -> None:
    """Build the site strictly (as CI does) into ``target``."""
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or "mkdocs"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([mkdocs, "build", "--strict", "-q", "-d", str(target)], cwd=ROOT, check=True, env=env)


def main(argv: list[str] | None = None) -> int:
    """Run the check; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--site", type=Path, help="an already built site (default: build one with mkdocs)")
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts", help="where the screenshot goes")
    parser.add_argument("--chromium", help="the browser executable (default: chromium on PATH)")
    parser.add_argument("--pages", nargs="*", default=PAGES, help="pages to load, relative to the site root")
    args = parser.parse_args(argv)

    chromium = find_chromium(args.chromium)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="canasta-browser-") as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            build_site(site)
        if not (site / "index.html").exists():
            print(f"browser_check: {site} holds no built site (index.html missing)", file=sys.stderr)
            return 2
        server, server_errors = serve(site)
        origin = f"http://127.0.0.1:{server.server_address[1]}/"
        profile = Path(scratch) / "profile"
        profile.mkdir()
        browser, port = start_browser(chromium, profile)
        failures = 0
        try:
            tools = open_page(port)
            for method in ("Page.enable", "Runtime.enable", "Log.enable", "Network.enable"):
                tools.call(method)
            tools.call("Network.setCacheDisabled", cacheDisabled=True)
            for page in args.pages:
                before = len(server_errors)
                problems, heading = check_page(tools, origin + page, origin)
                problems += [f"server: {e}" for e in server_errors[before:] if not page.endswith("404.html")]
                status = "ok  " if not problems else "FAIL"
                print(f"{status} /{page}  {heading!r}")
                for problem in problems:
                    print(f"       {problem}")
                failures += bool(problems)
                if page == SCREENSHOT_PAGE:
                    tools.call(
                        "Emulation.setDeviceMetricsOverride", width=1280, height=1600, deviceScaleFactor=1, mobile=False
                    )
                    shot = tools.call("Page.captureScreenshot", format="png")
                    tools.call("Emulation.clearDeviceMetricsOverride")
                    args.out.mkdir(parents=True, exist_ok=True)
                    path = args.out / SCREENSHOT_NAME
                    path.write_bytes(base64.b64decode(shot["data"]))
                    print(f"       screenshot: {path}")
            tools.ws.close()
        finally:
            browser.terminate()
            try:
                browser.wait(timeout=10)
            except subprocess.TimeoutExpired:
                browser.kill()
            server.shutdown()
    seconds = time.monotonic() - started
    print(f"browser_check: {len(args.pages) - failures}/{len(args.pages)} pages passed in {seconds:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
