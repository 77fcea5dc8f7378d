"""The table display, tournament timer and REST API (issue 6), served offline by the hub.

One FastAPI app per :class:`hub.sessions.table.Table`. Everything the page needs ships in
``hub/web/static`` (vanilla JS and CSS, system fonts, a local Swagger UI for ``/docs``).

Live updates: the app subscribes to the table and forwards **only** its
``"public"`` messages (never ``"a"``/``"b"``, the pods' private channels). A client gets
the whole ``{"t": "state", ...}`` (built by :func:`display_state` from public views only)
when it connects, then each burst of public messages becomes one ``{"t": "delta", ...}``
with only what changed (versioned: docs/display.md, "Live updates"); while a clock runs
(match clock or a 10-second ready countdown) a small ``{"t": "clock", ...}`` message
follows every second.

Control (starting/resuming games, tracker actions, the match clock, public decisions,
changing the token) needs ``Authorization: Bearer <admin token>`` and a fresh
``action_id`` per request (an idempotency key: a replay gets 409 and changes nothing).
Spectators are read-only. Errors are JSON ``{"error": code, "detail": message}``.

Threading: the table is not thread-safe, so every table call (requests, the ticker, the
bots) runs on the server's event loop thread; other threads use :meth:`DisplayHub.call`.

This module is the app factory: errors, the admin-token guard, the static files and the
routers (``hub/web/routers/``). Entry points for the CLI: :func:`create_app` here,
:func:`hub.web.server.serve`, :func:`hub.web.server.start_in_thread`.
"""

import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from hub.library.errors import LibraryError
from hub.record.store import RecordUnwritable
from hub.web import guard, reach
from hub.web.limits import RequestLimits, WrongTokens
from hub.web.broadcast import DisplayHub
from hub.web.common import HTTP_CODES, STATIC_DIR, ApiError, Controls, error_response, make_bearer
from hub.web import lazy_routes
from hub.web.routers import admin, bot, display, games, profile, rules, seat, timer, tracker
from hub.web import v1_check

log = logging.getLogger("lumen.web")
v1_check.install()      # before any route is declared: no pydantic.v1 import to refuse its models


#: where the card editor's routes are (hub/web/routers/cards.py): declared at their first request
CARDS_PATHS = ("/cards",)
CARDS_PREFIXES = ("/api/cards/", "/api/admin/cards/", "/api/control/cards/")


def _cards(app, ctl, library):
    from hub.library.sets import CardLibrary
    from hub.web.routers import cards
    if library is None:
        library = CardLibrary()
    elif not isinstance(library, CardLibrary):
        library = library()
    cards.install(app, ctl, library)


def create_app(table, *, tick_interval=0.1, bots=False, bot_seed=1, bot_pace=1.0, tasks=(), routers=(), library=None):
    """The FastAPI app for ``table``. A background task calls ``table.tick()`` when a
    deadline or the match clock falls due, and sends the 1-second clock messages
    (``tick_interval=None``: no task, tests tick by hand; any other value turns it on); ``bots=True``
    keeps bot referee games going (``lumen demo --bots``). ``tasks``: callables
    ``fn(hub) -> awaitable`` started with the server on its loop and cancelled when it stops
    (e.g. the serial links of the pods, which must call the table on this loop). ``library``:
    the card library the editor and the table's decks use (hub.library.sets.CardLibrary, or a
    function that makes one; by default the one under ~/.local/share/lumen/cards, or $LUMEN_CARDS).
    The editor's routes, and so the library, are made at their first request (hub/web/lazy_routes.py)."""
    hub = DisplayHub(table, tick_interval=tick_interval, bots=bots, bot_seed=bot_seed, bot_pace=bot_pace, tasks=tasks)

    @asynccontextmanager
    async def lifespan(app):
        guard.install_loop_quieting()      # an error a connection is logged once a minute, not once each
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="Lumen Condenser table hub / 루멘콘덴서 테이블 허브",
                  description="The table display, tournament timer and REST API of one table. GET endpoints are "
                              "public (spectators). Control endpoints (`/api/control/...`) need `Authorization: "
                              "Bearer <admin token>` and a fresh `action_id` per request (a replay is answered 409). "
                              "Errors are JSON `{\"error\": code, \"detail\": message}`. Live updates: WebSocket "
                              "`/ws` (see docs/display.md).",
                  version="1", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.hub = hub
    app.state.table = table
    bearer = make_bearer()
    wrong_tokens = WrongTokens()

    # -- errors as JSON
    @app.exception_handler(ApiError)
    async def _api_error(request, exc):
        return error_response(exc.status, exc.error, exc.detail)

    @app.exception_handler(RequestValidationError)
    async def _validation(request, exc):
        errors = [{"loc": ".".join(str(x) for x in e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type"),
                   "ctx": {k: v for k, v in (e.get("ctx") or {}).items() if isinstance(v, (int, float, str))}}
                  for e in exc.errors()]
        detail = "; ".join("%s: %s" % (e["loc"], e["msg"]) for e in errors) or "invalid request"
        return error_response(422, "invalid_request", detail, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request, exc):
        return error_response(exc.status_code, HTTP_CODES.get(exc.status_code, "error"), str(exc.detail))

    @app.exception_handler(RecordUnwritable)
    async def _unwritable(request, exc):
        hub.on_table("public", {"t": "record_error"})      # the page shows it at once
        return error_response(503, "record_unwritable", str(exc))

    @app.exception_handler(LibraryError)
    async def _library(request, exc):
        from hub.web.routers.cards import library_error     # raised only by those routes: declared by now
        return library_error(exc)

    @app.exception_handler(Exception)
    async def _internal(request, exc):
        log.exception("request failed")
        return error_response(500, "internal", "internal error: %s" % type(exc).__name__)

    # -- the admin token guards every control path, before the body is even read
    @app.middleware("http")
    async def _auth(request: Request, call_next):
        path = request.url.path
        if path.startswith("/api/control/") or path.startswith("/api/admin/"):
            refused = wrong_tokens.refusal(request, table.admin_token, error_response, "spectators are read-only")
            if refused is not None:
                return refused
        response = await call_next(request)
        if path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"
        elif path.startswith("/static/") and not path.startswith("/static/vendor/"):
            response.headers["Cache-Control"] = "no-cache"      # revalidate (ETag): a hub update shows at once
        return response

    # -- bodies limited per route before they are read, frame headers (hub/web/limits.py): the outermost
    app.state.body_limits = {}
    app.add_middleware(RequestLimits, refuse=error_response, stats=app.state.body_limits)

    ctl = Controls(table, hub, bearer)
    app.include_router(display.router(ctl))
    app.include_router(rules.router(ctl))
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(reach.router)
    app.include_router(games.router(ctl))
    app.include_router(admin.router(ctl))
    app.include_router(tracker.router(ctl))
    app.include_router(profile.router(ctl))
    app.include_router(timer.router(ctl))
    app.include_router(bot.router(ctl))
    app.include_router(seat.router(ctl))
    lazy_routes.add(app, "cards", lambda: _cards(app, ctl, library), paths=CARDS_PATHS, prefixes=CARDS_PREFIXES)
    for router in routers:     # e.g. the tournament's (hub/tournament/hubroutes.py)
        app.include_router(router)
    return app
