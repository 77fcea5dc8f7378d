"""The display: the page, the API docs page, the table state and the live-update WebSocket."""

import asyncio
import time

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse

from hub.web.broadcast import WS_MESSAGES_PER_S
from hub.web.common import STATIC_DIR
from hub.web.limits import origin_ok


def router(ctl):
    table, hub = ctl.table, ctl.hub
    router = APIRouter()

    # -- pages
    @router.get("/", include_in_schema=False)
    async def index():
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @router.get("/docs", include_in_schema=False)
    async def docs(request: Request):
        return get_swagger_ui_html(openapi_url=request.app.openapi_url, title=request.app.title + " — API",
                                   swagger_js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
                                   swagger_css_url="/static/vendor/swagger-ui/swagger-ui.css",
                                   swagger_favicon_url="/static/favicon.svg")

    @router.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest():
        # at the root so its scope is the whole display: "install app" on a phone or the TV box
        return FileResponse(STATIC_DIR / "manifest.webmanifest", media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache"})

    # -- public reads
    @router.get("/api/state", tags=["public"], summary="The table now: raw public view, match clock, log and the display state")
    async def get_state():
        snap = table.snapshot()
        return dict(snap, display=hub.display_now())

    @router.get("/api/log", tags=["public"],
                summary="The whole game's display log (public lines only; the live state keeps the last 40)")
    async def get_log():
        s = table.session
        lines = s.display_log() if s is not None else []
        return {"game_id": s.game_id if s is not None else None, "total": len(lines), "log": lines}

    # -- live updates
    @router.websocket("/ws")
    async def ws(websocket: WebSocket):
        if not origin_ok(websocket.headers):
            # a page of another site (issue 28.13): browsers name it; refused before the handshake
            await websocket.close(code=1008, reason="the page that opened this is not from this hub")
            return
        slot = hub.admit(websocket.client.host if websocket.client else "?")
        if isinstance(slot, str):
            # before the handshake: a flood of spectators costs a refused upgrade each, nothing more
            await websocket.close(code=1013, reason=slot)
            return
        q: asyncio.Queue = asyncio.Queue(maxsize=64)
        slot.close = lambda: asyncio.ensure_future(_make_room(websocket))
        try:
            await websocket.accept()
            # the whole state, then every message of the stream after it (no await between:
            # no delta can fall between the two)
            q.put_nowait(hub.hello())
            hub.clients.add(q)
            hub.poke()          # a running clock now has someone to tell every second

            async def sender():
                while True:
                    await websocket.send_text(await q.get())

            send_task = asyncio.create_task(sender())
            try:
                window, count = 0.0, 0
                while True:
                    msg = await websocket.receive()
                    if msg["type"] == "websocket.disconnect":
                        break
                    if "text" not in msg or msg["text"] is None:
                        await websocket.close(code=1003, reason="text frames only (ping)")
                        break
                    now = time.monotonic()
                    if now - window >= 1.0:
                        window, count = now, 0
                    count += 1
                    if count > WS_MESSAGES_PER_S:
                        await websocket.close(code=1008, reason="too many messages")
                        break
                    if msg["text"] == "ping":      # pings from the page; anything else is ignored
                        await websocket.send_text('{"t":"pong"}')
                    elif msg["text"] == "state" and not q.full():    # a client that saw a gap
                        q.put_nowait(hub.hello("asked"))
            finally:
                send_task.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.clients.discard(q)
            hub.leave(slot)

    return router


async def _make_room(websocket):
    """Close a connection whose slot another address took (issue 28.8); the page reconnects
    and is let in again once it no longer holds more than the others."""
    try:
        await websocket.close(code=1013, reason="room made for another address: try again later")
    except (RuntimeError, WebSocketDisconnect, OSError):
        pass
