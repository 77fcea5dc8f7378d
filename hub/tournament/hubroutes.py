"""The tournament part of a hub's own API (``lumen hub --broker ...``): what the table's
display shows of the event, and the judge's confirmation of a result. Mounted on the
hub's app, so ``/api/control/...`` is guarded by the hub's admin token."""

from typing import Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict

from .tablelink import SlipError


class Confirm(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    who: Literal["a", "b", "judge"]


def tournament_view(bridge):
    link = bridge.link
    slip = link.slip
    return {"event": link.event, "table": link.table, "connected": link.link.connected.is_set(),
            "match": link.match, "clock": link.clock, "clock_left_ms": link.clock_left(), "td_now_ms": link.td_now(),
            "td_error_ms": link.estimator.error_bound, "games": list(bridge.games), "game_id": bridge.game_id,
            "slip": None if slip is None else dict(slip.body, confirmed=sorted(slip.confirmed)),
            "unsent": len(link.pending())}


def router(bridge):
    r = APIRouter(tags=["tournament"])

    @r.get("/api/tournament", summary="This table in the event: pairing, TD clock, result slip, unsent results")
    async def view():
        return tournament_view(bridge)

    @r.post("/api/control/tournament/confirm", summary="Confirm the table's result: player a, player b or the judge")
    async def confirm(body: Confirm):
        try:
            sent = bridge.confirm(body.who)
        except SlipError as e:
            raise HTTPException(409, str(e)) from None
        return {"ok": True, "sent": sent is not None, "tournament": tournament_view(bridge)}

    return r
