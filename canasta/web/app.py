"""The Starlette application: the page, its static files and the JSON API.

`create_app` builds it; ``canasta serve`` runs it with uvicorn. Each browser
gets a session (a random id in an HTTP-only cookie) kept in memory by a
`canasta.web.session.SessionStore`; every rule, refusal and picture comes from
the library through `canasta.web.session`.

What the server defends against (the docs' "Guarantees" page, "The web server's
threat model"): other sites' pages in the player's browser (only a same-origin
request may use the API: ``Sec-Fetch-Site`` and ``Origin`` are checked, and a
flood of new sessions never drops one in play), DNS rebinding (only loopback
``Host`` names are answered by default), hostile request bodies (every bad
request gets a 4xx with a reason) and slow work (no lock is waited on, and no
game is replayed, on the event loop).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from canasta.bots import bot_names
from canasta.commands import CommandError
from canasta.errors import CanastaError, IllegalActionError
from canasta.plugins import load_rules
from canasta.records import RecordError
from canasta.registry import default_registry
from canasta.seeds import SeedError, check_seed
from canasta.web.hosts import is_loopback, is_loopback_host, split_host
from canasta.web.session import (
    PlaySession,
    ReplaySession,
    Session,
    SessionError,
    SessionStore,
    StoreFullError,
    refusal,
)

__all__ = [
    "COOKIE",
    "DEFAULT_HOSTS",
    "MAX_BODY_BYTES",
    "MAX_RECORD_BYTES",
    "STATIC",
    "create_app",
    "is_loopback",
    "is_loopback_host",
]

#: The cookie holding the session id.
COOKIE = "canasta_session"

#: The folder of the page's HTML, JavaScript and CSS (package data).
STATIC = Path(__file__).resolve().parent / "static"

#: Host names the server answers to by default (loopback only: a guard against DNS rebinding).
#: Besides these, a ``Host`` naming a loopback address in any spelling is answered
#: (`canasta.web.hosts.is_loopback_host`: ``127.0.0.2``, ``[0:0:0:0:0:0:0:1]``).
DEFAULT_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")

#: The largest request body, except a record's.
MAX_BODY_BYTES = 64 * 1024

#: The largest record accepted by ``POST /api/replay`` (the library's own limit,
#: `canasta.records.MAX_RECORD_BYTES`, is larger: parsing takes many times a record's
#: size in memory, and a server parses what anyone sends).
MAX_RECORD_BYTES = 1024 * 1024

#: Records parsed at the same time (others wait their turn, off the event loop).
_RECORD_PARSES = 2

#: ``Sec-Fetch-Site`` values allowed to use the API: the page itself, or the person typing the address.
_OWN_SITE = ("same-origin", "none")

# A seed typed in the form: ASCII digits with an optional sign (20 digits at most, as every seed).
_SEED_TEXT = re.compile(r"[+-]?[0-9]{1,20}")

_SECURITY_HEADERS = {
    # Only the page's own files: no CDN, no inline script, no framing by other sites.
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


class _Refused(Exception):
    """A request answered with an error (a status and a sentence)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _clean(text: str) -> str:
    """Text safe to send as UTF-8: a lone surrogate (from a JSON escape) is written as a backslash escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8") if not _encodable(text) else text


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _JSON(JSONResponse):
    """A JSON response that never fails on text it was given (lone surrogates are escaped)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


class _SecurityHeaders:
    """Adds `_SECURITY_HEADERS` to every response, the host guard's refusals included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in _SECURITY_HEADERS.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _HostGuard:
    """Answers only requests whose ``Host`` is allowed (a guard against DNS rebinding).

    A ``Host`` is allowed when it is one of ``allowed`` (case-folded, port
    ignored) or names a loopback address in any spelling (`is_loopback_host`);
    any other gets a 400 (with the security headers, added outside this guard).
    """

    def __init__(self, app: ASGIApp, allowed: Sequence[str]) -> None:
        self.app = app
        self.allowed = frozenset(split_host(name) for name in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), "")
        if split_host(header) in self.allowed or is_loopback_host(header):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http":
            await _error(400, "Invalid host header: this server answers only its loopback names")(scope, receive, send)
        # (A websocket on a foreign host is closed unanswered: the app has none.)


def _error(status: int, message: str) -> JSONResponse:
    return _JSON({"error": _clean(message)}, status_code=status)


def _same_origin(request: Request) -> str | None:
    """Why a request does not come from the page itself, or ``None`` if it may use the API.

    A browser names the site a request comes from: ``Sec-Fetch-Site`` (every
    current browser) and ``Origin`` (on every ``POST``). A request from another
    site's page (an ``<img>``, a form, a script; another port of this machine is
    "same-site", not same-origin) is refused. A request with neither header does
    not come from a browser's page (curl, a script), which no web page can make.
    """
    site = request.headers.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in _OWN_SITE:
        return f"a {_clean(site.strip())[:20]} request may not use this server (only its own page may)"
    origin = request.headers.get("origin")
    if origin is not None:
        own = _origin_of(f"{request.url.scheme}://{request.headers.get('host', '')}")
        if own is None or _origin_of(origin) != own:
            return "a request from another origin may not use this server (only its own page may)"
    return None


def _origin_of(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin, default ports filled in; ``None`` if it is not one."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    default = 443 if parts.scheme == "https" else 80
    return parts.scheme, parts.hostname.casefold(), port if port is not None else default


async def _body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read up to ``limit`` bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise _Refused(415, "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _Refused(413, f"the request is larger than {limit} bytes")
    chunks = bytearray()
    try:
        async for chunk in request.stream():
            chunks += chunk
            if len(chunks) > limit:
                raise _Refused(413, f"the request is larger than {limit} bytes")
    except ClientDisconnect:  # the client left mid-body: nobody reads the answer, nothing is logged
        raise _Refused(400, "the request's body was cut off") from None
    try:
        data = json.loads(chunks.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _Refused(400, f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _Refused(400, "the request must be a JSON object")
    return data


def _name(value: object, what: str) -> str:
    """A name sent by the page: text of at most 200 characters, Unicode (no lone surrogate)."""
    if not isinstance(value, str) or len(value) > 200 or not _encodable(value):
        raise _Refused(400, f"{what} must be a name")
    return value


def _string_list(value: object, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 64:
        raise _Refused(400, f"{what} must be a list of names")
    return [_name(v, what) for v in value]


def _players(value: object) -> int | None:
    """The number of players of the new-game form: ``None`` for the variant's default, else an integer."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 8:
        raise _Refused(400, "players must be a number of players from 2 to 8 (or null: the variant's default)")
    return value


def _player_counts(variant: str) -> dict[str, Any]:
    """The counts a variant plays and its default, for the new-game form (none if its rules do not compile)."""
    try:
        rules = load_rules(variant)
    except CanastaError:
        return {"players": [], "default_players": None}
    return {"players": list(rules.playable_counts), "default_players": rules.players}


def _seed(value: object) -> int | None:
    """The seed of the new-game form: ``None`` (or empty) for a random one, else `canasta.seeds.check_seed`'s."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        text = value.strip()
        if not _SEED_TEXT.fullmatch(text):
            raise _Refused(400, f"the seed must be a whole number written in digits (or empty for a random one), "
                           f"got {_clean(text[:30])!r}")
        value = int(text)
    try:
        return check_seed(value, name="the seed")
    except SeedError as exc:
        raise _Refused(400, str(exc)) from None


def create_app(
    variant: str = "classic",
    house_rules: Sequence[str] = (),
    seed: int | None = None,
    *,
    bot: str = "greedy",
    max_sessions: int = 64,
    allowed_hosts: Sequence[str] | None = DEFAULT_HOSTS,
    max_record_bytes: int = MAX_RECORD_BYTES,
    players: int | None = None,
) -> Starlette:
    """The web application: a page to play against bots and replay records, and its JSON API.

    Args:
        variant: The variant of a browser's first game.
        house_rules: Its house rules.
        seed: Its seed (default: a random one for each game), as `canasta.seeds.check_seed` takes it.
        bot: The bots' strategy.
        max_sessions: How many sessions (browsers) are kept in memory. A new
            session takes the place of the least recently used one with no move
            made, else of one idle for `canasta.web.session.IDLE_SECONDS`; when
            every one holds a game in play, a new one is refused (503).
        allowed_hosts: The ``Host`` names answered besides loopback addresses in
            any spelling (default: loopback names only); ``None`` answers any
            (for a server bound to another interface).
        max_record_bytes: The largest record ``POST /api/replay`` accepts.
        players: The number of players of a browser's first game (default: the
            variant's own). The new-game form offers every count a variant plays
            (``GET /api/variants``: ``players`` and ``default_players`` of each).

    Returns:
        The Starlette application.

    Raises:
        CanastaError: If the variant, house rules, bot or seed are not valid.
    """
    if seed is not None:
        seed = check_seed(seed, name="seed")
    PlaySession(variant, house_rules, seed if seed is not None else 0, bot, players)  # fail now on bad defaults
    store = SessionStore(max_sessions)
    parsing = asyncio.Semaphore(_RECORD_PARSES)

    def new_default() -> PlaySession:
        return PlaySession(variant, house_rules, seed, bot, players)

    def respond(payload: dict[str, Any], key: str | None, status: int = 200) -> JSONResponse:
        response = _JSON(payload, status_code=status)
        if key is not None:
            response.set_cookie(COOKIE, key, httponly=True, samesite="strict", path="/")
        return response

    def current(request: Request) -> tuple[str, Session]:
        key = request.cookies.get(COOKIE)
        session = store.get(key)
        if key is None or session is None:
            raise _Refused(404, "this browser has no game on the server (it may have been dropped): start a new one")
        return key, session

    def keep(session: Session, key: str | None) -> str:
        try:
            return store.put(session, key)
        except StoreFullError as exc:
            raise _Refused(503, str(exc)) from None

    async def guarded(request: Request, handler: Callable[[Request], Any]) -> Response:
        if request.url.path.startswith("/api/"):
            reason = _same_origin(request)
            if reason is not None:
                return _error(403, reason)
        try:
            response: Response = await handler(request)
        except _Refused as exc:
            return _error(exc.status, exc.message)
        return response

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def variants(request: Request) -> Response:
        registry = default_registry()
        return _JSON(
            {
                # (The counts compile each variant's rules, once: in a worker thread, off the event loop.)
                "variants": await run_in_threadpool(
                    lambda: [
                        {"name": v.name, "description": v.description, **_player_counts(v.name)}
                        for v in registry.variants()
                    ]
                ),
                "house_rules": [
                    {
                        "name": h.name,
                        "description": h.description,
                        "applies_to": sorted(h.applies_to) if h.applies_to is not None else None,
                    }
                    for h in registry.house_rules()
                ],
                "bots": bot_names(),
                "defaults": {
                    "variant": variant,
                    "house_rules": list(house_rules),
                    "seed": seed,
                    "bot": bot,
                    "players": players,
                },
            }
        )

    async def state(request: Request) -> Response:
        key = request.cookies.get(COOKIE)
        session = store.get(key)
        if session is None:
            session = await run_in_threadpool(new_default)
            if key:
                session.message = f"No game of this browser is kept on the server any more. {session.message}"
            key = keep(session, None)
        shown = session

        def work() -> dict[str, Any]:
            with shown.lock:  # waited for in a worker thread: the event loop never blocks on a game
                return shown.state()

        return respond(await run_in_threadpool(work), key)

    async def act(request: Request) -> Response:
        data = await _body(request, MAX_BODY_BYTES)
        key, session = current(request)
        if not isinstance(session, PlaySession):
            raise _Refused(409, "this browser is replaying a record: start a new game to play")
        choice, command = data.get("id"), data.get("command")
        if (choice is None) == (command is None):
            raise _Refused(400, 'send {"id": ...} (a button) or {"command": ...} (typed)')
        if isinstance(choice, bool) or (choice is not None and not isinstance(choice, str | int)):
            raise _Refused(400, "id must be a button's id")
        if isinstance(choice, int) and not 0 <= choice < 10**6:
            raise _Refused(400, "id must be a button's id")
        if command is not None and (not isinstance(command, str) or len(command) > 200):
            raise _Refused(400, "command must be a line of text")

        def work() -> tuple[dict[str, Any], int]:
            with session.lock:
                try:
                    if choice is not None:
                        session.choose(str(choice))
                    else:
                        session.command(str(command))
                except (IllegalActionError, CommandError, SessionError) as exc:
                    session.refuse(_clean(refusal(exc)))
                    return session.state(), 422
                return session.state(), 200

        payload, status = await run_in_threadpool(work)
        return respond(payload, key, status)

    async def new(request: Request) -> Response:
        data = await _body(request, MAX_BODY_BYTES)
        name = _name(data.get("variant", variant), "variant")
        rules = _string_list(data.get("house_rules"), "house_rules")
        strategy = _name(data.get("bot", bot), "bot")
        if strategy != bot and strategy not in bot_names():
            # A page may pick a registered bot or the server's own (``serve --bot ismcts:50ms``), never
            # a budget of its own choosing: the search runs on this machine.
            raise _Refused(422, f"unknown bot {strategy!r}; the bots are {', '.join(bot_names())}")
        chosen = _seed(data.get("seed"))
        count = _players(data.get("players"))

        def work() -> PlaySession:
            try:
                return PlaySession(name, rules, chosen, strategy, count)
            except CanastaError as exc:
                raise _Refused(422, str(exc)) from None

        session = await run_in_threadpool(work)
        key = keep(session, request.cookies.get(COOKIE))
        return respond(session.state(), key)

    async def replay(request: Request) -> Response:
        data = await _body(request, max_record_bytes + MAX_BODY_BYTES)
        record = data.get("record")
        if isinstance(record, dict):
            try:
                record = json.dumps(record)
            except (ValueError, RecursionError):
                raise _Refused(400, 'send the record\'s JSON text as {"record": ...}') from None
        if not isinstance(record, str) or not record.strip():
            raise _Refused(400, 'send the record\'s JSON text as {"record": ...}')
        if len(record) > max_record_bytes or len(record.encode("utf-8", "surrogatepass")) > max_record_bytes:
            raise _Refused(413, f"the record is larger than this server's limit of {max_record_bytes} bytes")
        text = record

        def work() -> ReplaySession:
            try:
                return ReplaySession(text, max_bytes=max_record_bytes)
            except (RecordError, CanastaError) as exc:
                raise _Refused(422, f"not a valid record: {exc}") from None

        async with parsing:  # a few records at a time: parsing takes many times a record's size in memory
            session = await run_in_threadpool(work)
        key = keep(session, request.cookies.get(COOKIE))
        return respond(session.state(), key)

    async def replay_step(request: Request) -> Response:
        data = await _body(request, MAX_BODY_BYTES)
        key, session = current(request)
        if not isinstance(session, ReplaySession):
            raise _Refused(409, "this browser is playing a game, not replaying a record: load a record first")
        to = data.get("to")
        if isinstance(to, bool) or not isinstance(to, int | str):
            raise _Refused(400, 'send {"to": N} (a position) or first, prev, next, last')
        target: int | str = to

        def work() -> tuple[dict[str, Any], int]:
            with session.lock:
                try:
                    session.step(target)
                except SessionError as exc:
                    session.refuse(_clean(str(exc)))
                    return session.state(), 422
                return session.state(), 200

        payload, status = await run_in_threadpool(work)
        return respond(payload, key, status)

    async def record(request: Request) -> Response:
        _, session = current(request)
        if not isinstance(session, PlaySession):
            raise _Refused(409, "this browser is replaying a record, not playing")
        playing = session

        def work() -> str:
            with playing.lock:
                return playing.record().dumps()

        text = await run_in_threadpool(work)
        filename = f"canasta-{playing.game.rules.variant}-{playing.game.seed}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{filename}"'},
        )

    def route(path: str, handler: Callable[[Request], Any], methods: list[str]) -> Route:
        async def endpoint(request: Request) -> Response:
            return await guarded(request, handler)

        return Route(path, endpoint, methods=methods)

    # The security headers outermost: the host guard's refusals carry them too.
    middleware = [Middleware(_SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(_HostGuard, allowed=tuple(allowed_hosts)))
    routes = [
        route("/", index, ["GET"]),
        route("/api/variants", variants, ["GET"]),
        route("/api/state", state, ["GET"]),
        route("/api/act", act, ["POST"]),
        route("/api/new", new, ["POST"]),
        route("/api/replay", replay, ["POST"]),
        route("/api/replay/step", replay_step, ["POST"]),
        route("/api/record", record, ["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=middleware)
    app.state.sessions = store
    return app
