"""A game in the browser: ``canasta serve`` (extra ``web``: Starlette and uvicorn).

`create_app` returns a Starlette application serving one page, where a person
plays any installed variant against bots (seat 0 against greedy bots by
default) or steps through a game record, and a JSON API behind it. The page
has no rules of its own: it shows what the server sends, and the server's
state lives in `canasta.web.session` (the library's `canasta.Game`, typed
commands of `canasta.commands`, pictures of `canasta.render`).

There is no authentication: the server binds to the loopback interface by
default and answers only loopback host names. Do not expose it.
"""

from __future__ import annotations

from canasta.web.app import create_app

__all__ = ["create_app"]
