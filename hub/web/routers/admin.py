"""The admin token: check it, change it. The pods: who is connected, and the judge's
takeover of a seat another device asked for (issue 11.2)."""

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import Field, StringConstraints

from hub.sessions.base import SessionError
from hub.web.common import ApiError, Control

TOKEN_PATTERN = r"^[A-Za-z0-9_\-]{8,128}$"


class NewToken(Control):
    new_token: Annotated[str, StringConstraints(pattern=TOKEN_PATTERN)] = Field(
        description="8-128 of A-Z a-z 0-9 _ -")


class Takeover(Control):
    board_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{2,32}$")] = Field(
        description="the board id (hex) of the pod whose seat the waiting device takes")


def router(ctl):
    table, bearer = ctl.table, ctl.bearer
    claim = ctl.claim
    router = APIRouter()

    @router.get("/api/admin/check", tags=["control"], summary="Check an admin token (200 if it is right)")
    async def admin_check(_=Depends(bearer)):
        return {"ok": True, "table": table.name}

    @router.get("/api/admin/pods", tags=["control"],
                summary="The pods connected to this hub, and devices refused a seat they claimed")
    async def admin_pods(_=Depends(bearer)):
        pods = table.pods
        if pods is None:
            return {"pods": [], "conflicts": []}
        return pods.pods_view()

    @router.post("/api/control/pods/takeover", tags=["control"],
                 summary="The judge hands a connected pod's seat to the device that asked for it (a spare pod)")
    async def pod_takeover(body: Takeover, _=Depends(bearer)):
        pods = table.pods
        if pods is None:
            raise ApiError(409, "no_pods", "this hub serves no pods")
        with claim(body.action_id):
            try:
                pods.confirm_takeover(body.board_id)
            except SessionError as e:
                raise ApiError(404, "not_found", str(e)) from None
        return {"ok": True, "action_id": body.action_id, **pods.pods_view()}

    @router.post("/api/control/token", tags=["control"],
                 summary="Change the admin token (authorised with the old one)")
    async def change_token(body: NewToken, _=Depends(bearer)):
        with claim(body.action_id):
            table.admin_token = body.new_token
        return {"ok": True, "action_id": body.action_id}

    return router
