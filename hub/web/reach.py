"""How a phone reaches this table's display (issue 12, point 6): the addresses it can
use, and QR codes of them. The spectators' code is public and shown on the TV; the
judge's carries the admin token in the URL fragment (``#admin=...``, never sent to a
server) and is served only with that token (``/api/admin/...``)."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hub.web import lan

router = APIRouter()


def _urls(request: Request):
    table = request.app.state.table
    host, port = getattr(request.app.state, "listen", (None, None))
    if host is None:                      # not started by serve(): the address this request came to
        return {"local": str(request.base_url), "lan": [], "mdns": None}
    out = lan.display_urls(host, port, table.name)
    if host not in lan.WILDCARD or not out["lan"]:
        out["lan"] = [str(request.base_url)] if not (request.base_url.hostname or "").startswith("127.") else []
    return out


def spectator_url(request: Request):
    u = _urls(request)
    return (u["lan"] or [str(request.base_url)])[0]


def _svg(text):
    return Response(lan.qr_svg(text), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


@router.get("/api/reach", tags=["public"], summary="Where phones can open this display (LAN addresses, mDNS name)")
async def reach(request: Request):
    u = _urls(request)
    # phones: false when the hub listens on this machine only (the QR code would not open on a phone)
    return dict(u, spectator=spectator_url(request), phones=bool(u["lan"]))


@router.get("/api/reach/qr.svg", tags=["public"], summary="QR code of the display's address, for spectators' phones")
async def spectator_qr(request: Request):
    return _svg(spectator_url(request))


@router.get("/api/admin/qr.svg", tags=["control"],
            summary="QR code of the admin link (with the token) for a judge's phone; needs the admin token")
async def judge_qr(request: Request):
    return _svg(spectator_url(request) + "#admin=" + request.app.state.table.admin_token)
