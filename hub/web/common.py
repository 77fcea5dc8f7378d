"""What every router shares: JSON errors, the request base models and the control helpers."""

import warnings
from pathlib import Path
from typing import Annotated, Literal

from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from fastapi.security import HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic import warnings as pydantic_warnings

from engine import IllegalDecision

from hub.sessions import roster
from hub.sessions.base import DecisionRefused, NotFound, SessionError
from hub.web import human
import orjson

#: The page, its scripts and the vendored Swagger UI; shipped as package data.
STATIC_DIR = Path(__file__).parent / "static"


# ---------------------------------------------------------------- errors

class ApiError(Exception):
    def __init__(self, status, error, detail):
        super().__init__(detail)
        self.status, self.error, self.detail = status, error, detail


def error_response(status, error, detail, **extra):
    """An error as JSON: ``detail`` for developers, ``message`` {ko, en} for people (hub/web/human.py)."""
    msg = human.message(status, error, detail, extra.get("errors"))
    return JSONResponse({"error": error, "detail": detail, "message": msg, **extra}, status_code=status)


HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
               422: "invalid_request", 429: "too_many_attempts"}


# ---------------------------------------------------------------- request bodies

Seat = Literal["a", "b"]
#: a seat at any table: c and d at a four-seat (2 on 2) profile game
AnySeat = Literal["a", "b", "c", "d"]
GameId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="a game's id (the record's 64-bit row id)")]
ActionId = Annotated[str, StringConstraints(min_length=8, max_length=80, pattern=r"^[A-Za-z0-9._:\-]+$")]
Delta = Annotated[int, Field(ge=-99_999, le=99_999)]
SmallDelta = Annotated[int, Field(ge=-99, le=99)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class StrictModel(BaseModel):
    # defer_build: a body's validator is built at its route's first request, not at start (issue 36:
    # the hub's ~40 request models cost ~35 M instructions, 2.5 % of the start; the first request
    # of a route pays its own part once, docs/performance.md "Start-up, sixth pass")
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


def _quiet_body_alias_warning():
    """FastAPI builds a body's TypeAdapter from ``Annotated[Model, Field(alias=<parameter name>)]``
    and silences pydantic's (>= 2.12) "the 'alias' attribute ... has no effect" while it does.
    With a deferred model that build runs at the first request, outside FastAPI's silence: the
    same warning, for that message only, is silenced here."""
    category = getattr(pydantic_warnings, "UnsupportedFieldAttributeWarning", None)
    if category is not None:
        warnings.filterwarnings("ignore", message=r"The 'alias' attribute with value '\w+' was provided to the `Field\(\)`",
                                category=category)


_quiet_body_alias_warning()


class Control(StrictModel):
    action_id: ActionId = Field(description="A fresh idempotency key for every control request (8-80 of "
                                            "A-Z a-z 0-9 . _ : -). A replay is answered 409 and changes nothing.")


class Empty(Control):
    pass


# ---------------------------------------------------------------- the control helpers

def make_bearer():
    return HTTPBearer(auto_error=False, description="the table's admin token (printed when the hub starts)")


class Controls:
    """One app's table, its display hub and the helpers the control routes share."""

    def __init__(self, table, hub, bearer):
        self.table, self.hub, self.bearer = table, hub, bearer

    def claim(self, action_id):
        """``with claim(id):`` around an action: a spent id is 409; the id is kept with what
        the action writes (durable), and not spent if the action is refused."""
        try:
            return self.table.claim_action(action_id)
        except SessionError as e:
            raise ApiError(409, "replayed", str(e)) from None

    def game_or_404(self, game_id):
        g = self.table.store.game(game_id)
        if g is None:
            raise ApiError(404, "not_found", "no game %d" % game_id)
        return g

    def refused(self, e):
        if isinstance(e, IllegalDecision):
            return ApiError(409, "illegal_decision", str(e))
        if isinstance(e, NotFound):
            return ApiError(404, "not_found", str(e))
        if isinstance(e, DecisionRefused):
            return ApiError(e.status, e.code, str(e))
        msg = str(e)
        if msg.startswith("no game is running"):
            return ApiError(409, "no_game", msg)
        return ApiError(409, "refused", msg)

    def done(self, action_id, **extra):
        """A control request's reply: ``change`` is the display stream's message for what it
        changed (``{"t": "delta", "v", "base", ...}`` or a whole ``state``; null when nothing
        shown changed), the same message the WebSocket clients get: a page applies it as it
        applies a delta (issue 32: not the whole display state for every tap)."""
        text = self.hub.change_now() if self.hub is not None else None
        change = None if text is None else orjson.loads(text)
        return dict({"ok": True, "action_id": action_id, "change": change}, **extra)


def character_or_404(key):
    if key is None:
        return None
    try:
        return roster.get(key)
    except roster.UnknownCharacter:
        raise ApiError(404, "not_found", "unknown character %r (roster ids: %s)"
                       % (key, ", ".join(c.id for c in roster.ROSTER))) from None
