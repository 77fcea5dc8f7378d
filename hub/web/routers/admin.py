"""The admin token: check it, change it."""

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import Field, StringConstraints

from hub.web.common import Control

TOKEN_PATTERN = r"^[A-Za-z0-9_\-]{8,128}$"


class NewToken(Control):
    new_token: Annotated[str, StringConstraints(pattern=TOKEN_PATTERN)] = Field(
        description="8-128 of A-Z a-z 0-9 _ -")


def router(ctl):
    table, bearer = ctl.table, ctl.bearer
    claim = ctl.claim
    router = APIRouter()

    @router.get("/api/admin/check", tags=["control"], summary="Check an admin token (200 if it is right)")
    async def admin_check(_=Depends(bearer)):
        return {"ok": True, "table": table.name}

    @router.post("/api/control/token", tags=["control"],
                 summary="Change the admin token (authorised with the old one)")
    async def change_token(body: NewToken, _=Depends(bearer)):
        with claim(body.action_id):
            table.admin_token = body.new_token
        return {"ok": True, "action_id": body.action_id}

    return router
