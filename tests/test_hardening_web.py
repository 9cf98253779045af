"""The web server against a hostile caller (issue 31: items 5, 6, 7, 14, 20, 23).

Other sites' pages in the player's browser, DNS rebinding, hostile bodies, a
slow session, a client that disconnects: every request gets a 4xx with a reason
or is served, a game in play is never dropped, and the event loop never waits.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator, MutableMapping
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'canasta[web]'")
if importlib.util.find_spec("httpx2") is None and importlib.util.find_spec("httpx") is None:
    pytest.skip("Starlette's TestClient needs httpx2 (the test extra)", allow_module_level=True)

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import canasta
from canasta.game import Game
from canasta.records import GameRecorder
from canasta.web import create_app
from canasta.web.app import COOKIE, MAX_RECORD_BYTES
from canasta.web.hosts import is_loopback, is_loopback_host
from canasta.web.session import PlaySession, ReplaySession, SessionStore, StoreFullError

BASE = "http://127.0.0.1"
CROSS_SITE = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image"}
OWN_PAGE = {"sec-fetch-site": "same-origin", "origin": BASE}


def client(app: Any = None, **options: Any) -> TestClient:
    return TestClient(app if app is not None else create_app(**options), base_url=BASE)


def new_game(c: TestClient, seed: int = 5) -> dict[str, Any]:
    response = c.post("/api/new", json={"variant": "classic", "seed": seed}, headers=OWN_PAGE)
    assert response.status_code == 200, response.text
    return dict(response.json())


def play_one(c: TestClient) -> None:
    response = c.post("/api/act", json={"id": "0"}, headers=OWN_PAGE)
    assert response.status_code == 200, response.text


def bot_record(seed: int = 11, seats: tuple[str, ...] = ("a", "b", "c", "d"), hands: int = 1) -> str:
    game = canasta.Game("classic", seed=seed)
    bots = [canasta.make_bot("greedy", f"{seed}:{s}") for s in range(game.rules.players)]
    recorder = GameRecorder(game, list(seats))
    while len(game.results) < hands and not game.is_over:
        recorder.apply(bots[game.seat].choose(game.hand, game.seat))
    return recorder.record().dumps()


# --- 31.5: other sites' pages --------------------------------------------------------------


def test_a_cross_site_flood_neither_makes_sessions_nor_drops_the_players_game() -> None:
    app = create_app(max_sessions=4)
    player = client(app)
    new_game(player)
    play_one(player)
    seed = player.get("/api/state", headers=OWN_PAGE).json()["seed"]
    attacker = client(app)
    for _ in range(64):  # 64 <img src=".../api/state"> on another site
        answer = attacker.get("/api/state", headers=CROSS_SITE)
        assert answer.status_code == 403
        assert "only its own page" in answer.json()["error"]
        assert COOKIE not in answer.cookies
    assert len(app.state.sessions) == 1
    assert player.get("/api/state", headers=OWN_PAGE).json()["seed"] == seed


@pytest.mark.parametrize(
    "headers",
    [
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},  # another port of this machine is same-site, not same-origin
        {"origin": "http://evil.example"},
        {"origin": "http://127.0.0.1:9999"},
        {"origin": "null"},
        {"sec-fetch-site": "same-origin", "origin": "https://127.0.0.1"},
    ],
)
def test_a_request_from_another_origin_changes_nothing(headers: dict[str, str]) -> None:
    c = client()
    state = new_game(c)
    for method, path, body in [
        ("POST", "/api/act", {"id": "0"}),
        ("POST", "/api/new", {"seed": 1}),
        ("POST", "/api/replay", {"record": bot_record()}),
        ("POST", "/api/replay/step", {"to": 1}),
        ("GET", "/api/state", None),
        ("GET", "/api/record", None),
    ]:
        answer = c.request(method, path, json=body, headers=headers)
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.headers["x-content-type-options"] == "nosniff"
    after = c.get("/api/state", headers=OWN_PAGE).json()
    assert after["seed"] == state["seed"] and after["version"] == state["version"]


def test_the_page_itself_and_a_typed_address_are_served() -> None:
    c = client()
    assert c.get("/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"}).status_code == 200
    assert c.get("/api/state", headers={"sec-fetch-site": "none"}).status_code == 200  # typed in the address bar
    assert c.get("/api/state", headers={"sec-fetch-site": "same-origin"}).status_code == 200
    assert c.post("/api/new", json={"seed": 3}, headers={"origin": "http://127.0.0.1:80"}).status_code == 200
    assert c.get("/api/state").status_code == 200  # no browser headers: curl, a script


def test_a_flood_of_new_sessions_never_drops_a_game_in_play() -> None:
    app = create_app(max_sessions=3)
    player = client(app)
    new_game(player, seed=1)
    play_one(player)  # in play
    idle = client(app)
    new_game(idle, seed=2)  # dealt, no move made
    for _ in range(20):  # cookie-less requests of a script (no browser headers) take the free places
        assert client(app).get("/api/state").status_code == 200
    assert player.get("/api/state").json()["seed"] == 1
    assert idle.post("/api/act", json={"id": "0"}).status_code == 404  # a game not in play gave way
    others = [client(app), client(app)]
    for seed, other in enumerate(others, start=8):
        new_game(other, seed=seed)
        play_one(other)  # now three games in play
    full = client(app).get("/api/state")
    assert full.status_code == 503 and "try again later" in full.json()["error"]
    refused = client(app).post("/api/new", json={"seed": 4})
    assert refused.status_code == 503
    for one, seed in ((player, 1), (others[0], 8), (others[1], 9)):
        assert one.get("/api/state").json()["seed"] == seed


def test_an_idle_game_gives_way_after_the_idle_time() -> None:
    now = [0.0]
    store = SessionStore(1, idle_seconds=60, clock=lambda: now[0])
    playing = PlaySession(seed=1)
    playing.in_play = True
    store.put(playing)
    with pytest.raises(StoreFullError):
        store.put(PlaySession(seed=2))
    now[0] = 61.0
    key = store.put(PlaySession(seed=3))
    assert len(store) == 1 and store.get(key) is not None
    with pytest.raises(ValueError):
        SessionStore(1, idle_seconds=-1)


# --- 31.6: loopback by parsing ---------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.1", "127.0.0.2", "LOCALHOST", "localhost.", "::1", "[::1]", "0:0:0:0:0:0:0:1",
             "::ffff:127.0.0.1", "2130706433", "0x7f.1"]
)
def test_every_spelling_of_loopback_is_loopback(host: str) -> None:
    assert is_loopback(host)
    assert is_loopback_host(host if not (":" in host and not host.startswith("[")) else f"[{host}]")


@pytest.mark.parametrize("host", ["", "0.0.0.0", "::", "10.0.0.1", "evil.example", "127.0.0.1 evil", "1.2.3.4"])
def test_other_addresses_are_not_loopback(host: str) -> None:
    assert not is_loopback(host)
    assert not is_loopback_host(host)


@pytest.mark.parametrize(
    "base", ["http://127.0.0.2:8000", "http://[0:0:0:0:0:0:0:1]:8000", "http://LOCALHOST:8000", "http://127.1:8000"]
)
def test_the_rebinding_guard_answers_every_loopback_spelling(base: str) -> None:
    assert TestClient(create_app(), base_url=base).get("/api/variants").status_code == 200


def test_a_foreign_host_is_refused_with_the_security_headers() -> None:
    answer = TestClient(create_app(), base_url="http://evil.example:8000").get("/api/state")
    assert answer.status_code == 400
    assert "Invalid host header" in answer.json()["error"]
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


# --- 31.7: every bad request a 4xx with a reason -------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/act", {"id": "²"}),
        ("/api/act", {"id": "٣"}),
        ("/api/act", {"id": 10**30}),
        ("/api/act", {"command": "²"}),
        ("/api/act", {"command": "x " + "9" * 4400}),
        ("/api/act", {"command": "\ud800"}),
        ("/api/new", {"seed": "²"}),
        ("/api/new", {"seed": "--5"}),
        ("/api/new", {"seed": 2**64}),
        ("/api/new", {"seed": 1.5}),
        ("/api/new", {"seed": True}),
        ("/api/new", {"variant": "\ud800"}),
        ("/api/new", {"house_rules": ["\udfff"]}),
        ("/api/replay/step", {"to": "²"}),
        ("/api/replay/step", {"to": 10**30}),
    ],
)
def test_hostile_values_get_a_4xx_with_a_reason(path: str, body: dict[str, object]) -> None:
    c = client()
    new_game(c)
    if path.startswith("/api/replay"):
        assert c.post("/api/replay", json={"record": bot_record()}).status_code == 200
    answer = c.post(path, content=json.dumps(body), headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500, answer.text
    assert answer.json()["error"]


def test_a_seed_is_checked_by_the_one_rule() -> None:
    c = client()
    assert c.post("/api/new", json={"seed": "-18446744073709551615"}).json()["seed"] == -(2**64) + 1
    assert c.post("/api/new", json={"seed": " 42 "}).json()["seed"] == 42
    too_big = c.post("/api/new", json={"seed": str(2**64)})
    assert too_big.status_code == 400 and "2**64" in too_big.json()["error"]
    with pytest.raises(canasta.CanastaError):
        create_app(seed=2**64)


def test_a_record_whose_seat_label_is_a_lone_surrogate_is_refused() -> None:
    text = bot_record(seats=("SEATLABEL", "b", "c", "d")).replace("SEATLABEL", "\\ud800")
    c = client()
    new_game(c)
    answer = c.post("/api/replay", json={"record": text})
    assert 400 <= answer.status_code < 500, answer.text
    assert "seat 0" in answer.json()["error"]
    assert c.get("/api/state").json()["mode"] == "play"  # the game stays


def test_an_unknown_variant_named_by_a_lone_surrogate_is_refused_in_json() -> None:
    data = json.loads(bot_record())
    data["variant"]["name"] = "VARIANT"
    text = json.dumps(data).replace("VARIANT", "\\udc80")
    answer = client().post("/api/replay", json={"record": text})
    assert answer.status_code == 422 and answer.json()["error"].startswith("not a valid record")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_KEYS = st.sampled_from(["id", "command", "seed", "variant", "house_rules", "bot", "to", "record"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.sampled_from(["/api/act", "/api/new", "/api/replay", "/api/replay/step"]),
    body=st.dictionaries(_KEYS, _JSON_VALUES, max_size=3) | _JSON_VALUES,
)
def test_fuzzed_bodies_never_give_a_server_error(path: str, body: object) -> None:
    c = _FUZZ_CLIENT
    answer = c.post(path, content=json.dumps(body), headers={"content-type": "application/json"})
    assert answer.status_code < 500, (path, body, answer.text)
    if answer.status_code >= 400:
        assert answer.json()["error"]


_FUZZ_CLIENT = client(max_sessions=8)


_HEADER_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    host=st.one_of(_HEADER_TEXT, st.sampled_from(["127.0.0.1", "[::1]:1", "127.1:80", "LOCALHOST", "[", "::1"])),
    origin=st.one_of(st.none(), _HEADER_TEXT, st.just("http://127.0.0.1")),
    site=st.one_of(st.none(), _HEADER_TEXT, st.sampled_from(["same-origin", "cross-site", "none", "same-site"])),
    path=st.sampled_from(["/api/state", "/api/variants", "/api/record", "/"]),
)
def test_fuzzed_hosts_and_origins_never_give_a_server_error(
    host: str, origin: str | None, site: str | None, path: str
) -> None:
    headers = {"host": host}
    if origin is not None:
        headers["origin"] = origin
    if site is not None:
        headers["sec-fetch-site"] = site
    answer = _FUZZ_CLIENT.get(path, headers=headers)
    assert answer.status_code < 500, (headers, answer.text)
    assert answer.headers["x-content-type-options"] == "nosniff"
    if answer.status_code == 200 and path.startswith("/api/"):
        assert is_loopback_host(host) or host.strip().casefold() in ("127.0.0.1", "localhost", "::1", "[::1]")


# --- 31.14: a record limit of the server's own -------------------------------------------------------


def test_the_server_takes_smaller_records_than_the_library() -> None:
    assert MAX_RECORD_BYTES <= 1024 * 1024 < canasta.records.MAX_RECORD_BYTES
    text = bot_record()
    c = client(max_record_bytes=len(text.encode()) - 1)
    answer = c.post("/api/replay", json={"record": text})
    assert answer.status_code == 413 and f"{len(text.encode()) - 1} bytes" in answer.json()["error"]


# --- 31.20: no waiting on the event loop ---------------------------------------------------------------


def test_a_busy_session_does_not_stall_other_requests() -> None:
    uvicorn = pytest.importorskip("uvicorn")
    app = create_app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    serving = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    serving.start()
    url = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                opener.open(f"{url}/api/state", timeout=5).read()  # a session for this "browser"
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        (session,) = app.state.sessions._sessions.values()
        assert session.lock.acquire(timeout=5)  # a long replay step, say
        waiting = threading.Thread(target=lambda: opener.open(f"{url}/api/state", timeout=30).read(), daemon=True)
        try:
            waiting.start()
            time.sleep(0.5)  # that request now waits for the lock: in a worker thread, not on the event loop
            started = time.monotonic()
            with urllib.request.urlopen(f"{url}/api/variants", timeout=10) as answer:
                assert answer.status == 200
            assert time.monotonic() - started < 3
        finally:
            session.lock.release()
        waiting.join(timeout=10)
        assert not waiting.is_alive()
    finally:
        server.should_exit = True
        serving.join(timeout=10)


def test_stepping_back_replays_from_a_checkpoint_not_from_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    replay = ReplaySession(bot_record(hands=2), max_bytes=MAX_RECORD_BYTES)
    replay.checkpoint_every = 16  # (a record this short would otherwise keep only the start)
    replay.step("last")
    applied = []
    original = Game.apply

    def counting(self: Game, action: Any) -> None:
        applied.append(action)
        original(self, action)

    monkeypatch.setattr(Game, "apply", counting)
    before = replay.state()
    replay.step("prev")
    assert len(applied) < 16  # not the whole record again
    assert replay.total > 64
    replay.step("next")
    assert replay.state()["svg"] == before["svg"]
    fresh = ReplaySession(bot_record(hands=2), max_bytes=MAX_RECORD_BYTES)
    fresh.step(replay.total - 1)
    replay.step("prev")
    assert fresh.state()["svg"] == replay.state()["svg"]


# --- 31.23: a client that leaves mid-body ------------------------------------------------------------


def test_a_client_that_disconnects_mid_body_is_answered_without_an_error() -> None:
    app = create_app()
    sent: list[MutableMapping[str, Any]] = []
    messages: Iterator[dict[str, Any]] = iter(
        [{"type": "http.request", "body": b'{"id"', "more_body": True}, {"type": "http.disconnect"}]
    )

    async def receive() -> dict[str, Any]:
        return next(messages)

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/act",
        "raw_path": b"/api/act",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(app(scope, receive, send))  # raised ClientDisconnect before
    assert sent[0]["status"] == 400


@pytest.mark.parametrize("host", ["127.0.0.2", "127.1", "LOCALHOST"])
def test_canasta_serve_on_a_loopback_spelling_keeps_the_guard_and_gives_no_warning(host: str) -> None:
    pytest.importorskip("uvicorn")
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    command = [sys.executable, "-m", "canasta.cli", "serve", "--host", host, "--port", "0", "--seed", "9"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://([0-9.]+):(\d+)/", line)
        assert match, line + (process.stderr.read() if process.stderr else "")
        address, port = match.group(1), int(match.group(2))
        assert address.startswith("127.")
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection((address, port), timeout=5) as conn:
                    conn.sendall(b"GET /api/variants HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
                    answer = b""
                    while chunk := conn.recv(65536):
                        answer += chunk
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert answer.startswith(b"HTTP/1.1 400"), answer[:200]  # the rebinding guard is on
    finally:
        process.terminate()
        rest, err = process.communicate(timeout=10)
    assert "not bound to loopback" not in line + rest + err


def test_the_servers_bot_spec_plays_and_a_page_cannot_choose_a_budget() -> None:
    """`canasta serve --bot ismcts:5ms` plays; a page may pick a registered bot or the server's own, no other spec."""
    c = client(bot="ismcts:5ms")
    new_game(c)  # the server's default bot, a spec with a budget
    own = c.post("/api/new", json={"variant": "classic", "seed": 3, "bot": "ismcts:5ms"}, headers=OWN_PAGE)
    assert own.status_code == 200, own.text
    chosen = c.post("/api/new", json={"variant": "classic", "seed": 3, "bot": "ismcts:100000s"}, headers=OWN_PAGE)
    assert chosen.status_code == 422 and "unknown bot" in chosen.json()["error"]
    with pytest.raises(canasta.CanastaError, match="bad bot"):
        PlaySession("classic", (), 1, "ismcts:300,c=nan")


@pytest.mark.parametrize("host", ["127.0.0.1:80@evil", "127.0.0.1:x", "[::1]evil", "[::1]:80x", "localhost:123456"])
def test_a_host_header_that_is_not_host_and_port_is_refused(host: str) -> None:
    answer = client().get("/api/state", headers={"host": host})
    assert answer.status_code == 400
    assert not is_loopback_host(host)
