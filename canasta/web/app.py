"""The Starlette application: the page, its static files and the JSON API.

`create_app` builds it; ``canasta serve`` runs it with uvicorn. Each browser
gets a session (a random id in an HTTP-only cookie) kept in memory by a
`canasta.web.session.SessionStore`; every rule, refusal and picture comes from
the library through `canasta.web.session`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from canasta.bots import bot_names
from canasta.commands import CommandError
from canasta.errors import CanastaError, IllegalActionError
from canasta.records import RecordError
from canasta.registry import default_registry
from canasta.web.session import MAX_SEED, PlaySession, ReplaySession, Session, SessionError, SessionStore, refusal

__all__ = ["COOKIE", "DEFAULT_HOSTS", "MAX_BODY_BYTES", "MAX_RECORD_BYTES", "STATIC", "create_app"]

#: The cookie holding the session id.
COOKIE = "canasta_session"

#: The folder of the page's HTML, JavaScript and CSS (package data).
STATIC = Path(__file__).resolve().parent / "static"

#: Host names the server answers to by default (loopback only: a guard against DNS rebinding).
DEFAULT_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")

#: The largest request body, except a record's.
MAX_BODY_BYTES = 64 * 1024

#: The largest record accepted by ``POST /api/replay``.
MAX_RECORD_BYTES = 8 * 1024 * 1024

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


class _SecurityHeaders:
    """Adds `_SECURITY_HEADERS` to every response."""

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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read up to ``limit`` bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise _Refused(415, "send JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _Refused(413, f"the request is larger than {limit} bytes")
    chunks = bytearray()
    async for chunk in request.stream():
        chunks += chunk
        if len(chunks) > limit:
            raise _Refused(413, f"the request is larger than {limit} bytes")
    try:
        data = json.loads(chunks.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _Refused(400, f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _Refused(400, "the request must be a JSON object")
    return data


def _string_list(value: object, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Refused(400, f"{what} must be a list of names")
    return list(value)


def _seed(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value.strip()) <= 20:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Refused(400, "the seed must be a whole number (or empty for a random one)")
    if not -MAX_SEED <= value <= MAX_SEED:
        raise _Refused(400, f"the seed must be between -{MAX_SEED} and {MAX_SEED}")
    return value


def create_app(
    variant: str = "classic",
    house_rules: Sequence[str] = (),
    seed: int | None = None,
    *,
    bot: str = "greedy",
    max_sessions: int = 64,
    allowed_hosts: Sequence[str] | None = DEFAULT_HOSTS,
) -> Starlette:
    """The web application: a page to play against bots and replay records, and its JSON API.

    Args:
        variant: The variant of a browser's first game.
        house_rules: Its house rules.
        seed: Its seed (default: a random one for each game).
        bot: The bots' strategy.
        max_sessions: How many sessions (browsers) are kept in memory; the
            least recently used is dropped beyond it.
        allowed_hosts: The ``Host`` names answered (default: loopback names
            only); ``None`` answers any.

    Returns:
        The Starlette application.

    Raises:
        CanastaError: If the variant, house rules or bot are unknown.
    """
    PlaySession(variant, house_rules, seed if seed is not None else 0, bot)  # fail now on bad defaults
    store = SessionStore(max_sessions)

    def new_default() -> PlaySession:
        return PlaySession(variant, house_rules, seed, bot)

    def respond(payload: dict[str, Any], key: str | None, status: int = 200) -> JSONResponse:
        response = JSONResponse(payload, status_code=status)
        if key is not None:
            response.set_cookie(COOKIE, key, httponly=True, samesite="strict", path="/")
        return response

    def current(request: Request) -> tuple[str, Session]:
        key = request.cookies.get(COOKIE)
        session = store.get(key)
        if key is None or session is None:
            raise _Refused(404, "this browser has no game on the server (it may have been dropped): start a new one")
        return key, session

    async def guarded(request: Request, handler: Callable[[Request], Any]) -> Response:
        try:
            response: Response = await handler(request)
        except _Refused as exc:
            return _error(exc.status, exc.message)
        return response

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def variants(request: Request) -> Response:
        registry = default_registry()
        return JSONResponse(
            {
                "variants": [{"name": v.name, "description": v.description} for v in registry.variants()],
                "house_rules": [
                    {
                        "name": h.name,
                        "description": h.description,
                        "applies_to": sorted(h.applies_to) if h.applies_to is not None else None,
                    }
                    for h in registry.house_rules()
                ],
                "bots": bot_names(),
                "defaults": {"variant": variant, "house_rules": list(house_rules), "seed": seed, "bot": bot},
            }
        )

    async def state(request: Request) -> Response:
        key = request.cookies.get(COOKIE)
        session = store.get(key)
        if session is None:
            session = await run_in_threadpool(new_default)
            if key:
                session.message = f"No game of this browser is kept on the server any more. {session.message}"
            key = store.put(session)
        with session.lock:
            payload = session.state()
        return respond(payload, key)

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
                    session.refuse(refusal(exc))
                    return session.state(), 422
                return session.state(), 200

        payload, status = await run_in_threadpool(work)
        return respond(payload, key, status)

    async def new(request: Request) -> Response:
        data = await _body(request, MAX_BODY_BYTES)
        name = data.get("variant", variant)
        if not isinstance(name, str):
            raise _Refused(400, "variant must be a name")
        rules = _string_list(data.get("house_rules"), "house_rules")
        strategy = data.get("bot", bot)
        if not isinstance(strategy, str):
            raise _Refused(400, "bot must be a name")
        chosen = _seed(data.get("seed"))

        def work() -> PlaySession:
            try:
                return PlaySession(name, rules, chosen, strategy)
            except CanastaError as exc:
                raise _Refused(422, str(exc)) from None

        session = await run_in_threadpool(work)
        key = store.put(session, request.cookies.get(COOKIE))
        return respond(session.state(), key)

    async def replay(request: Request) -> Response:
        data = await _body(request, MAX_RECORD_BYTES + MAX_BODY_BYTES)
        record = data.get("record")
        if isinstance(record, dict):
            record = json.dumps(record)
        if not isinstance(record, str) or not record.strip():
            raise _Refused(400, 'send the record\'s JSON text as {"record": ...}')
        text = record

        def work() -> ReplaySession:
            try:
                return ReplaySession(text, max_bytes=MAX_RECORD_BYTES)
            except (RecordError, CanastaError) as exc:
                raise _Refused(422, f"not a valid record: {exc}") from None

        session = await run_in_threadpool(work)
        key = store.put(session, request.cookies.get(COOKIE))
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
                    session.refuse(str(exc))
                    return session.state(), 422
                return session.state(), 200

        payload, status = await run_in_threadpool(work)
        return respond(payload, key, status)

    async def record(request: Request) -> Response:
        _, session = current(request)
        if not isinstance(session, PlaySession):
            raise _Refused(409, "this browser is replaying a record, not playing")
        with session.lock:
            text = session.record().dumps()
        filename = f"canasta-{session.game.rules.variant}-{session.game.seed}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{filename}"'},
        )

    def route(path: str, handler: Callable[[Request], Any], methods: list[str]) -> Route:
        async def endpoint(request: Request) -> Response:
            return await guarded(request, handler)

        return Route(path, endpoint, methods=methods)

    middleware = [Middleware(_SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
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
