"""The admin token: check it, change it. The pods: who is connected. Seat claims (issues 11.2,
39: hub/pods/claims.py): what waits for the judge, and the judge's confirm or refusal."""

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import Field, StringConstraints

from hub.pods.claims import claims_of
from hub.sessions.base import SessionError
from hub.web.common import ApiError, Control

TOKEN_PATTERN = r"^[A-Za-z0-9_\-]{8,128}$"


class NewToken(Control):
    new_token: Annotated[str, StringConstraints(pattern=TOKEN_PATTERN)] = Field(
        description="8-128 of A-Z a-z 0-9 _ -")


class ClaimDecision(Control):
    claim: Annotated[str, StringConstraints(pattern=r"^[a-z]{1,16}:[0-9]{1,9}$")] = Field(
        description="the claim's id (GET /api/admin/claims), e.g. pod:1")


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

    @router.get("/api/admin/claims", tags=["control"],
                summary="Seat claims waiting for the judge: a device asking for a seat another pod holds or held")
    async def admin_claims(_=Depends(bearer)):
        return {"claims": claims_of(table).admin_view()}

    def decide(body, how):
        with claim(body.action_id):
            try:
                getattr(claims_of(table), how)(body.claim)
            except SessionError as e:
                raise ApiError(404, "not_found", str(e)) from None
        return {"ok": True, "action_id": body.action_id, "claims": claims_of(table).admin_view()}

    @router.post("/api/control/claims/confirm", tags=["control"],
                 summary="The judge hands the claimed seat to the device that asked for it")
    async def confirm_claim(body: ClaimDecision, _=Depends(bearer)):
        return decide(body, "confirm")

    @router.post("/api/control/claims/refuse", tags=["control"],
                 summary="The judge refuses a seat claim: the device stays unseated")
    async def refuse_claim(body: ClaimDecision, _=Depends(bearer)):
        return decide(body, "refuse")

    @router.post("/api/control/token", tags=["control"],
                 summary="Change the admin token (authorised with the old one)")
    async def change_token(body: NewToken, _=Depends(bearer)):
        with claim(body.action_id):
            table.admin_token = body.new_token
        return {"ok": True, "action_id": body.action_id}

    return router
