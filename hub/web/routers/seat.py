"""A seat on the player's own phone (issue 40): the seat page and its API.

``/seat`` is the page (its link, with the seat's secret in the fragment, comes from the
judge's page: ``GET /api/admin/seats``). The page reads its seat with ``POST
/api/seat/{seat}/state`` and answers with ``POST /api/seat/{seat}/decision``; both carry the
seat's token and the phone's own id in the body (never in an address a log keeps). It hears
that something changed from the display's public WebSocket (``/ws``) and reads its seat again.
Who may act for a seat, and why, is hub/web/phone_seats.py.
"""

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, Response
from pydantic import Field, StringConstraints

from engine import IllegalDecision

from hub.sessions.asking import card_name, card_summary, question
from hub.sessions.base import SessionError
from hub.sessions.end_of_round import describe
from hub.web import lan
from hub.web.common import STATIC_DIR, AnySeat, ApiError, Control, StrictModel
from hub.web.phone_seats import SEAT_LABEL, SeatRefused, phones_of
from hub.web.reach import spectator_url

Token = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Client = Annotated[str, StringConstraints(min_length=1, max_length=64)]
LOG_LINES = 8           # the last lines of the public log the page shows


class SeatAsk(StrictModel):
    token: Token = Field(description="the seat's secret, from its seat link")
    client: Client = Field(description="this phone's own id (the page makes one and keeps it)")
    lang: Literal["ko", "en"] = "ko"
    rtt_ms: Annotated[int, Field(ge=0, le=600_000)] | None = Field(
        None, description="the page's last round trip to the hub (shown to the judge; the hub's own clock decides)")


class SeatDecision(SeatAsk):
    kind: Literal["ready", "get", "discard", "combo", "catch", "nullify", "choose", "pick", "replenish",
                  "ante", "priority", "end_turn"]
    value: Any = True


class SeatRelease(Control):
    seat: AnySeat


def seat_state(table, seat, lang):
    """What the seat's phone shows: the public state, and its own question and hand."""
    s = table.session
    p = s.prompt(seat)
    st = s.engine_state
    cards = st.cards if st is not None else {}
    prompt = {"kind": p.kind, "locked": p.locked, "bare": p.bare, "hidden": p.hidden, "picks": p.picks,
              "ask": None, "options": [], "pass": None}
    if p.kind != "none" and not p.locked:
        ask, labels, passing = question(s, seat, p.kind, p.options, p.pass_value, p.bare, lang)
        prompt.update(ask=ask, options=[{"value": o, "label": label} for o, label in zip(p.options, labels)],
                      **{"pass": {"value": p.pass_value, "label": passing} if p.pass_value else None})
    status = {}
    for x in s.seats:
        fp, health, hand, character = s.seat_status(x)
        status[x] = {"fp": fp, "health": health, "hand": hand, "character": character, "label": SEAT_LABEL.get(x, x)}
    ready = {x: {"locked": r["locked"], "ms_left": r["ms_left"]} for x, r in s.ready_status().items() if x in s.seats}
    hand = []
    if st is not None:          # referee: the seat's own hand, with what each card is
        for cid in st.players[seat].hand:
            c = cards.get(cid)
            if c is not None:
                text = (c.text or {}).get(lang) or (c.text or {}).get("ko")
                hand.append({"id": cid, "name": card_name(c, lang), "summary": card_summary(c, lang), "text": text})
    decided = table.round_end.decided
    coach = getattr(table, "coach", None)
    view = coach.view() if coach is not None else None
    coached = [{"turn": e["turn"], "text": (e.get("text") or {}).get(lang)} for e in (view or {}).get("entries", ())
               if e["seat"] == seat and (e.get("text") or {}).get(lang)]
    log = [line["text"][lang] for line in s.display_tail(LOG_LINES) if isinstance(line.get("text"), dict)]
    return {"game_id": s.game_id, "mode": s.mode, "seat": seat, "label": SEAT_LABEL.get(seat, seat),
            "seats": list(s.seats), "turn": s.turn, "priority": s.priority, "winner": s.winner,
            "at_time": describe(decided, lang) if decided is not None and s.winner is None else None,
            "status": status, "ready": ready, "prompt": prompt, "hand": hand, "log": log, "coach": coached[-3:]}


def router(ctl):
    table, bearer, claim, refused, done = ctl.table, ctl.bearer, ctl.claim, ctl.refused, ctl.done
    phones = phones_of(table)
    router = APIRouter()

    def admitted(seat, body):
        try:
            phones.check(seat, body.token, body.client)
        except SeatRefused as e:
            raise ApiError(e.status, e.code, str(e)) from None
        if body.rtt_ms is not None:
            phones.latency_ms[seat] = body.rtt_ms

    @router.get("/seat", include_in_schema=False)
    async def seat_page():
        return FileResponse(STATIC_DIR / "seat.html", headers={"Cache-Control": "no-cache"})

    @router.post("/api/seat/{seat}/state", tags=["seat"],
                 summary="A phone's seat: the public state and this seat's own question and hand (its seat token)")
    async def get_seat(seat: AnySeat, body: SeatAsk):
        admitted(seat, body)
        return seat_state(table, seat, body.lang)

    @router.post("/api/seat/{seat}/decision", tags=["seat"],
                 summary="A phone's answer for its seat: the same decision a pod makes (a hidden ready locked and "
                         "committed at the hub's receipt)")
    async def seat_decision(seat: AnySeat, body: SeatDecision):
        admitted(seat, body)
        try:
            table.submit(seat, body.kind, body.value, source="phone")
        except (SessionError, IllegalDecision) as e:
            raise refused(e) from None
        return seat_state(table, seat, body.lang)

    @router.get("/api/admin/seats", tags=["control"],
                summary="The seat links for phones (secret: the judge hands each to its player), who holds each seat "
                        "and the phone's last round trip")
    async def seat_links(_=Depends(bearer)):
        s = table.session
        if s is None:
            return {"game_id": None, "seats": []}
        held = phones.held()
        return {"game_id": s.game_id, "seats": [
            {"seat": x, "label": SEAT_LABEL.get(x, x), "link": phones.link(x), "phone": held.get(x, False),
             "rtt_ms": phones.latency_ms.get(x) if held.get(x) else None} for x in s.seats]}

    @router.get("/api/admin/seats/{seat}/qr.svg", tags=["control"],
                summary="QR code of a seat's link for its player's phone (secret: show it to that player only)")
    async def seat_qr(seat: AnySeat, request: Request, _=Depends(bearer)):
        s = table.session
        if s is None or seat not in s.seats:
            raise ApiError(404, "not_found", "no seat %s in the game on the table" % seat)
        return Response(lan.qr_svg(spectator_url(request).rstrip("/") + phones.link(seat)), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    @router.post("/api/control/seats/release", tags=["control"],
                 summary="Free a seat a phone holds (a lost or broken phone): the next phone with its link takes it")
    async def release(body: SeatRelease, _=Depends(bearer)):
        with claim(body.action_id):
            phones.release(body.seat)
        return done(body.action_id)

    return router
