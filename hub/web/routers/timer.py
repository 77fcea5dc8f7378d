"""The match clock: round start, pause, resume, extend, call time, turn ended, undo."""

from typing import Annotated, Literal

from fastapi import APIRouter, Depends
from pydantic import Field

from hub.sessions.base import SessionError
from hub.web.common import Control


class TimerAction(Control):
    action: Literal["round_start", "pause", "resume", "extend", "call_time", "turn_ended", "undo"]
    duration_ms: Annotated[int, Field(ge=1000, le=6 * 3600 * 1000)] | None = None
    extra_turns: Annotated[int, Field(ge=0, le=10)] | None = None
    ms: Annotated[int, Field(ge=1, le=30 * 60 * 1000)] | None = None


def router(ctl):
    table, bearer = ctl.table, ctl.bearer
    claim, refused, done = ctl.claim, ctl.refused, ctl.done
    router = APIRouter()

    @router.post("/api/control/timer", tags=["control"],
                 summary="The match clock: round_start, pause, resume, extend (judge call), call_time, turn_ended, "
                         "undo (reverts the last of these)")
    async def timer(body: TimerAction, _=Depends(bearer)):
        kw = {k: v for k, v in (("duration_ms", body.duration_ms), ("extra_turns", body.extra_turns),
                                ("ms", body.ms)) if v is not None}
        with claim(body.action_id):
            try:
                view = table.timer_action(body.action, **kw)
            except SessionError as e:
                raise refused(e) from None
        return done(body.action_id, timer=view)

    return router
