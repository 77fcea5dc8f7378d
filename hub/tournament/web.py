"""The TD's page and API (FastAPI, served offline from the TD's machine).

Reads are open (``GET``: the room, pairings, standings, exports, the projector view);
every control (``POST /api/control/...``: pair, re-pair, round clock, results,
overrides, drops, late entries) needs ``Authorization: Bearer <admin token>``,
checked before the body is read. A refused action changes nothing and says why.
"""

import json
import os
import threading
from typing import Annotated, Literal, Optional

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.security import HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from hub.web import v1_check
from hub.web.common import STATIC_DIR as WEB_STATIC
from hub.web.limits import RequestLimits, WrongTokens

from . import human
from . import standings as st
from .td import ConfirmNeeded, TDError
from .views import ViewError, match_view, pairings_by_name, room_view

v1_check.install()      # before any route is declared (hub/web/v1_check.py)

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
SHARED = WEB_STATIC


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Empty(Body):
    pass


class Repair(Body):
    reason: Annotated[str, Field(min_length=3, max_length=200)] = "re-pair"


class Extend(Body):
    minutes: Annotated[int, Field(ge=1, le=60)]
    table: Optional[Annotated[int, Field(ge=1, le=9999)]] = None


class Score(Body):
    round: Annotated[int, Field(ge=1, le=99)]
    table: Annotated[int, Field(ge=1, le=9999)]
    a_wins: Annotated[int, Field(ge=0, le=5)]
    b_wins: Annotated[int, Field(ge=0, le=5)]
    draws: Annotated[int, Field(ge=0, le=5)] = 0


Who = Annotated[str, Field(min_length=1, max_length=40)]
Warning = Literal["live", "later_round"]


class Played(Body):
    a_wins: Annotated[int, Field(ge=0, le=5)]
    b_wins: Annotated[int, Field(ge=0, le=5)]
    draws: Annotated[int, Field(ge=0, le=5)] = 0


class Override(Score):
    """A correction names its game: ``players`` (the pairing's a and b) and ``before`` (the
    result it replaces; null: the game has none) are checked against the event; ``confirm``
    lists the warnings the TD accepted (a game still in play, a later round started)."""
    reason: Annotated[str, Field(min_length=3, max_length=300)]
    by: Optional[Who] = None
    players: Optional[Annotated[list[Annotated[str, Field(min_length=1, max_length=80)]],
                                Field(min_length=2, max_length=2)]] = None
    before: Optional[Played] = None
    confirm: Annotated[list[Warning], Field(max_length=2)] = []


class UndoCorrection(Body):
    id: Annotated[str, Field(min_length=2, max_length=20)]
    reason: Annotated[str, Field(min_length=3, max_length=300)]
    by: Optional[Who] = None
    confirm: Annotated[list[Warning], Field(max_length=2)] = []


class Resolve(Body):
    id: Annotated[str, Field(min_length=2, max_length=20)]
    keep: Literal["current", "reported"]
    by: Optional[Who] = None
    reason: Optional[Annotated[str, Field(max_length=300)]] = None
    confirm: Annotated[list[Warning], Field(max_length=2)] = []


class Drop(Body):
    player: Annotated[str, Field(min_length=1, max_length=80)]
    reason: Annotated[str, Field(max_length=200)] = "dropped"


class Reinstate(Body):
    player: Annotated[str, Field(min_length=1, max_length=80)]
    reason: Annotated[str, Field(max_length=200)] = "reinstated"


class FixTable(Body):
    player: Annotated[str, Field(min_length=1, max_length=80)]
    table: Optional[Annotated[int, Field(ge=1, le=9999)]] = None


class AddPlayer(Body):
    name: Annotated[str, Field(min_length=1, max_length=80)]


def _err(status, error, detail, errors=None):
    """An error as JSON: ``detail`` for developers, ``message`` {ko, en} for the TD (human.py)."""
    return JSONResponse({"error": error, "detail": detail, "message": human.message(status, error, detail, errors)},
                        status_code=status)


def create_app(td, admin_token):
    app = FastAPI(title="Lumen Condenser tournament (TD)", version="1")
    token = {"value": admin_token}
    wrong_tokens = WrongTokens()
    bearer = HTTPBearer(auto_error=False, description="the event's admin token (printed by lumen tournament run)")

    @app.middleware("http")
    async def _auth(request: Request, call_next):
        if request.url.path.startswith("/api/control/"):
            refused = wrong_tokens.refusal(request, token["value"], _err, "the room view is read-only")
            if refused is not None:
                return refused
        return await call_next(request)

    # bodies limited before they are read, and no framing by other sites (hub/web/limits.py)
    app.add_middleware(RequestLimits, refuse=_err)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request, exc):
        where = "; ".join("%s: %s" % (".".join(str(x) for x in e["loc"][1:]) or "body", e["msg"]) for e in exc.errors())
        return _err(422, "invalid_request", where, exc.errors())

    @app.exception_handler(TDError)
    async def _refused(request, exc):
        return _err(409, "refused", str(exc))

    @app.exception_handler(ViewError)
    async def _no_view(request, exc):
        return _err(404, "not_found", str(exc))

    @app.exception_handler(ConfirmNeeded)
    async def _confirm(request, exc):
        out = _err(409, "confirm_needed", str(exc))
        body = dict(json.loads(out.body), warnings=exc.warnings, round=exc.round, table=exc.table)
        return JSONResponse(body, status_code=409)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # the pages' one way to draw (hub/web/static/draw.js and the morphdom it patches with), shared
    # with the table display rather than copied
    app.mount("/shared", StaticFiles(directory=str(SHARED)), name="shared")

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(os.path.join(STATIC, "td.html"))

    @app.get("/projector", include_in_schema=False)
    def projector():
        return FileResponse(os.path.join(STATIC, "projector.html"))

    api = APIRouter(prefix="/api")

    @api.get("/state", tags=["public"], summary="The room: round, clock, table tiles, standings, pairings")
    def state():
        return room_view(td)

    @api.get("/pairings", tags=["public"], summary="The current round's pairings, by table or by name")
    def pairings(by: str = "table"):
        if by not in ("table", "name"):
            return _err(422, "invalid_request", "by must be table or name")
        with td.lock:
            return pairings_by_name(td.event) if by == "name" else (td.event.public_round() or {})

    @api.get("/standings", tags=["public"], summary="Standings with OMW%, GW%, OGW% (JSON)")
    def standings_json():
        with td.lock:
            return st.to_json(td.event.standings())

    @api.get("/standings.csv", tags=["public"], summary="Standings as CSV")
    def standings_csv():
        with td.lock:
            text = st.to_csv(td.event.standings())
        return PlainTextResponse(text, media_type="text/csv; charset=utf-8",
                                 headers={"Content-Disposition": 'attachment; filename="standings.csv"'})

    @api.get("/match", tags=["public"], summary="One game: its players, result, corrections and conflicts "
                                               "(round: default the one a correction most likely means)")
    def match(table: int, round: Optional[int] = None):
        return match_view(td, table, round)

    @api.get("/log", tags=["public"], summary="The TD's record (overrides with their reasons included)")
    def log(since: int = 0):
        return [r for r in td.record.records() if r["seq"] > since][:500]

    ctl = APIRouter(prefix="/api/control", tags=["control"], dependencies=[Depends(bearer)])

    @ctl.post("/check", summary="200 if the admin token is right")
    def check(body: Empty):
        return {"ok": True}

    @ctl.post("/pair", summary="Pair the next round (Swiss, then the top cut)")
    def pair(body: Empty):
        return td.pair_next()

    @ctl.post("/repair", summary="Throw away the latest round's pairings (before it starts) and pair it again")
    def repair(body: Repair):
        return td.repair(body.reason)

    @ctl.post("/start", summary="Start the round and its clock")
    def start(body: Empty):
        return td.start_round()

    @ctl.post("/pause")
    def pause(body: Empty):
        return td.pause()

    @ctl.post("/resume")
    def resume(body: Empty):
        return td.resume()

    @ctl.post("/time", summary="Call time for the room")
    def call_time(body: Empty):
        return td.call_time()

    @ctl.post("/extend", summary="More time for the room, or for one table (a judge's extension)")
    def extend(body: Extend):
        return td.extend(body.minutes * 60_000, table=body.table)

    @ctl.post("/result", summary="Enter a table's result (a table without a working hub)")
    def result(body: Score):
        return td.enter_result(body.round, body.table, body.a_wins, body.b_wins, body.draws)

    @ctl.post("/override", summary="Correct a table's result, with the reason (kept in the record, can be undone)")
    def override(body: Override):
        before = body.before.model_dump() if body.before is not None else None
        kw = {"before": before} if "before" in body.model_fields_set else {}
        c = td.override(body.round, body.table, body.a_wins, body.b_wins, body.draws, reason=body.reason,
                        by=body.by or "TD", players=body.players, confirm=body.confirm, **kw)
        return {"ok": True, "correction": c}

    @ctl.post("/undo_correction", summary="Undo a correction: the result it replaced is the table's again")
    def undo_correction(body: UndoCorrection):
        return {"ok": True, "correction": td.undo_correction(body.id, body.reason, by=body.by or "TD",
                                                             confirm=body.confirm)}

    @ctl.post("/resolve", summary="Resolve a conflict: keep the current result or take the table's report")
    def resolve(body: Resolve):
        return {"ok": True, "conflict": td.resolve(body.id, body.keep, by=body.by or "TD", reason=body.reason,
                                                   confirm=body.confirm)}

    @ctl.post("/drop", summary="A player leaves the event (from the next round)")
    def drop(body: Drop):
        td.drop(body.player, body.reason)
        return {"ok": True}

    @ctl.post("/reinstate", summary="A dropped player comes back (paired again from the next round)")
    def reinstate(body: Reinstate):
        td.reinstate(body.player, body.reason)
        return {"ok": True}

    @ctl.post("/fix", summary="Seat a player at the same table every round (null: no more)")
    def fix(body: FixTable):
        td.fix_table(body.player, body.table)
        return {"ok": True}

    @ctl.post("/add", summary="A late entry (0 points, paired from the next round)")
    def add(body: AddPlayer):
        return {"player": td.add_player(body.name)}

    app.include_router(api)
    app.include_router(ctl)
    return app


def bind(host, port, out):
    """The page's socket, bound before the broker and the TD start (hub.web.listen); None
    after saying why when the port is busy or the address can't be listened on."""
    from hub.web.listen import PortBusy, listen_socket
    try:
        return listen_socket(host, port)
    except PortBusy as e:
        out("%s (--port 로 다른 포트를 고르세요 / choose another with --port)" % e.strerror)
        return None


def serve(td, admin_token, host="127.0.0.1", port=8100, sock=None):
    """Serve the page in a daemon thread; returns the uvicorn server (``should_exit`` stops it).
    ``sock``: the socket bound already (``bind``), else bound here."""
    from hub.web.guard import server_config
    from hub.web.listen import listen_socket
    from hub.web.uvicorn_lean import Server
    if sock is None:
        sock = listen_socket(host, port)    # PortBusy at once, in the caller
    app = create_app(td, admin_token)
    server = Server(server_config(app, host, port, lifespan="off"))
    sock = app.state.guard.listener(sock)   # bound here, not by uvicorn: served behind the accept gate
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="td-web", daemon=True).start()
    return server
