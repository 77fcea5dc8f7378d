"""The table display, tournament timer and REST API (issue 6), served offline by the hub.

One FastAPI app per :class:`hub.table.Table`. Everything the page needs ships in
``hub/static`` (vanilla JS and CSS, system fonts, a local Swagger UI for ``/docs``).

Live updates: the app subscribes to the table and forwards **only** its
``"public"`` messages (never ``"a"``/``"b"``, the pods' private channels). Each burst of
public messages becomes one ``{"t": "state", ...}`` WebSocket message built by
:func:`display_state` from public views only; while a clock runs (match clock or a
10-second ready countdown) a small ``{"t": "clock", ...}`` message follows every second.

Control (starting/resuming games, tracker actions, the match clock, public decisions,
changing the token) needs ``Authorization: Bearer <admin token>`` and a fresh
``action_id`` per request (an idempotency key: a replay gets 409 and changes nothing).
Spectators are read-only. Errors are JSON ``{"error": code, "detail": message}``.

Threading: the table is not thread-safe, so every table call (requests, the ticker, the
bots) runs on the server's event loop thread; other threads use :meth:`DisplayHub.call`.

Entry points for the CLI: :func:`create_app`, :func:`serve`, :func:`start_in_thread`.
"""

import asyncio
import json
import logging
import random
import secrets
import threading
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from fastapi import Depends, FastAPI, Path as PathParam, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.errors import IllegalDecision
from engine.events import OUTCOME_EN, OUTCOME_KO

from hub.record.store import RecordUnwritable
from hub.sessions import roster
from hub.web import human, lan, reach
from hub.sessions.base import SessionError

log = logging.getLogger("lumen.web")

STATIC_DIR = Path(__file__).parent / "static"
#: Engine events the display log leaves out (card moves are shown as zones instead).
QUIET_EVENTS = frozenset({"move", "battle_end", "phase", "ready_start"})
#: Events of a battle after the judgment that the "last battle" panel lists.
BATTLE_DETAIL_EVENTS = frozenset({"fp_speed", "fp_speed_floor", "result_fp", "damage", "health_loss",
                                  "offset_even", "combo_start", "combo_card", "combo_first_only", "combo_end",
                                  "catch", "break", "nullify", "redo_ready", "defense_over", "fp_spent",
                                  "sudden_death", "win", "draw", "non_response", "pick", "virtual_skill"})
DISPLAY_LOG = 40
SEAT_INFO = {"a": {"label": "1P", "colour": "blue"}, "b": {"label": "2P", "colour": "red"}}
#: Referee decisions the display may answer (hidden ones only on a player's own pod).
DISPLAY_DECISIONS = ("get", "discard", "combo", "catch", "nullify", "choose", "pick")
TOKEN_PATTERN = r"^[A-Za-z0-9_\-]{8,128}$"
#: Live-update limits (issue 11.1): spectators on the LAN can't flood the hub. The pods' links
#: don't share this loop, but the table's CPU does.
WS_MAX_CLIENTS = 64          # open WebSocket connections in all
WS_MAX_PER_HOST = 8          # from one address
WS_OPENS_PER_S = 4           # new connections per address per second (burst WS_MAX_PER_HOST)
WS_MESSAGES_PER_S = 10       # a client sends pings; more than this per second is closed


# ---------------------------------------------------------------- the display state

def _card_info(card):
    d = {"name": card.name, "name_en": card.name_en or card.name, "kind": card.kind}
    if card.kind == "attack":
        d.update(speed=card.speed, position=card.position, damage=card.damage)
    if getattr(card, "ultimate", False):
        d["ultimate"] = True
    return d


def _ids(value, out):
    """Collect card ids (strings) from nested lists."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _ids(v, out)


def _text(entry):
    """An engine log event or a tracker log entry as a display log line."""
    if "text" in entry:
        line = {"e": entry.get("e"), "seat": entry.get("p"), "rule": entry.get("rule"), "text": entry["text"]}
        if entry.get("e") == "turn_start":
            line["turn"] = entry.get("turn")
        return line
    return {"e": entry.get("action"), "seat": entry.get("seat"), "rule": None, "turn": entry.get("turn"),
            "text": {"ko": entry.get("text_ko", ""), "en": entry.get("text_en", "")}}


def _last_battle(log):
    """The most recent battle from the engine's public events: reveal, judgment with its
    reason and rule section, and what followed (FP, damage, combos, catches)."""
    j = None
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("e") == "judgment":
            j = i
            break
    if j is None:
        return None
    ev = log[j]
    out = {"outcome": {s: ev.get(s) for s in ("a", "b")},
           "outcome_text": {s: {"ko": OUTCOME_KO.get(ev.get(s), ev.get(s)), "en": OUTCOME_EN.get(ev.get(s), ev.get(s))}
                            for s in ("a", "b")},
           "winner": ev.get("w"), "reason": ev.get("reason"), "rule": ev.get("rule"), "text": ev["text"],
           "cards": None, "turn": None, "details": []}
    for k in range(j - 1, -1, -1):
        e = log[k].get("e")
        if e == "reveal" and out["cards"] is None:
            out["cards"] = {"a": log[k].get("a_card"), "b": log[k].get("b_card")}
        if e == "turn_start":
            out["turn"] = log[k].get("turn")
            break
    for k in range(j + 1, len(log)):
        e = log[k].get("e")
        if e in ("battle_end", "turn_end", "turn_start", "ready_start", "judgment"):
            break
        if e in BATTLE_DETAIL_EVENTS:
            out["details"].append({"e": e, "seat": log[k].get("p"), "rule": log[k].get("rule"),
                                   "text": log[k]["text"]})
    return out


def _ready(ready):
    """Who is ready (never what) and the countdown: no hub clock values."""
    return {s: {"locked": bool(r.get("locked")), "ms_left": r.get("ms_left")} for s, r in (ready or {}).items()}


def _referee_tokens(character, values):
    """Character token counters of a referee game as ``[{id, name, name_en, value, max}]``."""
    specs = {t.get("id"): t for t in character.get("tokens") or [] if isinstance(t, dict)}
    out = []
    for key, value in (values or {}).items():
        spec = specs.get(key, {})
        out.append({"id": key, "name": spec.get("name", key), "name_en": spec.get("name_en", spec.get("name", key)),
                    "value": value, "max": spec.get("max")})
    return out


def _referee_display(session, view):
    st = session.state
    seats = {}
    visible = set()
    for s in ("a", "b"):
        p = view["players"][s]
        ch = p["character"]
        hand, lst = p["hand"], p["list"]
        seat = dict(SEAT_INFO[s], character=ch.get("id"), name=ch.get("name"), name_en=ch.get("name_en") or ch.get("name"),
                    health=p["health"], start_health=ch["health"][0], bands=list(ch["health"]),
                    hand_limits=list(ch["hand_limit"]), hand_limit=st.players[s].hand_limit, fp=p["fp"],
                    hand=hand if isinstance(hand, list) else [], hand_count=len(hand) if isinstance(hand, list) else hand,
                    list=lst if isinstance(lst, list) else [], list_count=len(lst) if isinstance(lst, list) else lst,
                    side_deck=p["side_deck"] if isinstance(p["side_deck"], int) else len(p["side_deck"]),
                    break_zone=list(p["break_zone"]), lumen_zone=list(p["lumen_zone"]),
                    battle_zone=p["battle_zone"] if isinstance(p["battle_zone"], list) else ["?"] * p["battle_zone"],
                    ultimate=p.get("ultimate"), ultimate_card=p.get("ultimate_card"),
                    non_responses=p.get("non_responses", 0), tokens=_referee_tokens(ch, p.get("tokens")),
                    trait=(ch.get("trait") or None))
        for key in ("hand", "list", "break_zone", "lumen_zone", "battle_zone"):
            _ids(seat[key], visible)
        _ids([seat["ultimate"], seat["ultimate_card"]], visible)
        seats[s] = seat
    pending = []
    for r in view.get("pending", []):
        opts = r.get("options")
        item = {"player": r["player"], "kind": r["kind"], "hidden": bool(r.get("hidden"))}
        if isinstance(opts, list) and not r.get("hidden"):
            item["options"] = opts
            _ids(opts, visible)
        if "count" in r:
            item["count"] = r["count"]
        pending.append(item)
    last = _last_battle(session.log)
    if last and last["cards"]:
        _ids(list(last["cards"].values()), visible)
    lines = [_text(e) for e in session.log if e.get("e") not in QUIET_EVENTS][-DISPLAY_LOG:]
    visible.discard("?")
    cards = {cid: _card_info(st.cards[cid]) for cid in sorted(visible) if cid in st.cards}
    return {"seats": seats, "turn": view["turn"], "phase": view["phase"], "priority": view["priority"],
            "sudden_death": view["sudden_death"], "sd_turn": view.get("sd_turn"), "winner": view["winner"],
            "end_reason": None, "last_outcome": view.get("last_outcome"), "battles": view.get("battles"),
            "stalled_battles": view.get("stalled_battles"), "pending": pending, "ready": _ready(view.get("ready")),
            "last_battle": last, "log": lines, "cards": cards}


def _tracker_display(session, view):
    seats = {}
    for s in ("a", "b"):
        v = view["seats"][s]
        ch = roster.get(v["character"])
        seats[s] = dict(SEAT_INFO[s], character=ch.id, name=ch.name, name_en=ch.name_en, health=v["health"],
                        start_health=ch.start_health, bands=list(ch.health_bands), hand_limits=list(ch.hand_limits),
                        hand_limit=v["hand_limit"], hand_count=v["hand_count"], over_limit=v["over_limit"],
                        fp=v["fp"], tokens=v["tokens"], stance=v["stance"], active_stances=v["active_stances"],
                        stances=[{"name": x.name, "name_en": x.name_en} for x in ch.stances],
                        trait=ch.trait.to_json() if ch.trait else None, trait_on=v["trait_on"],
                        non_responses=v["non_responses"], flags=v["flags"])
    lines = [_text(e) for e in session.game.log[-DISPLAY_LOG:]]
    return {"seats": seats, "turn": view["turn"], "phase": view["phase"], "priority": view["priority"],
            "next_priority": view["next_priority"], "next_priority_reason": view["next_priority_reason"],
            "sudden_death": view["sudden_death"], "sd_turn": view["sudden_death_turn"], "winner": view["winner"],
            "end_reason": view["end_reason"], "game_number": view["game"], "can_undo": view["can_undo"],
            "undo_text": view.get("undo_text"),
            "pending": [], "ready": _ready(view.get("ready")), "last_battle": None, "log": lines, "cards": {}}


def display_state(table):
    """What the page shows, built from public views only (JSON-ready)."""
    snap = table.snapshot()
    out = {"table": table.name, "mode": snap["mode"], "timer": snap["timer"], "game_id": None}
    err = getattr(table.store, "write_error", None)
    out["record_error"] = err.to_json() if err is not None else None   # "the record can't be written: ..."
    s = table.session
    if s is None:
        out.update(seats=None, log=[], ready={}, pending=[], cards={}, last_battle=None)
        return out
    out["game_id"] = s.game_id
    if s.mode == "referee":
        out.update(_referee_display(s, snap["view"]))
    else:
        out.update(_tracker_display(s, snap["view"]))
    for seat, p in out["seats"].items():
        p["player"] = table.names.get(seat)          # the person in the seat, if the judge named them
    out["ahead"] = _ahead(out["seats"]) if snap["timer"]["state"] == "time" else None
    return out


def _ahead(seats):
    """At TIME: who is ahead on health (guide: the game goes on for the extra turns, then
    health decides), "even" when level."""
    ha, hb = seats["a"]["health"], seats["b"]["health"]
    return {"seat": "a" if ha > hb else "b" if hb > ha else "even", "health": {"a": ha, "b": hb}}


def current_turn(table):
    s = table.session
    if s is None:
        return None
    return s.state.turn if s.mode == "referee" else s.game.turn


def game_over(table):
    s = table.session
    if s is None:
        return True
    return (s.state.winner if s.mode == "referee" else s.game.winner) is not None


# ---------------------------------------------------------------- errors

class ApiError(Exception):
    def __init__(self, status, error, detail):
        super().__init__(detail)
        self.status, self.error, self.detail = status, error, detail


def _err(status, error, detail, **extra):
    """An error as JSON: ``detail`` for developers, ``message`` {ko, en} for people (hub/web/human.py)."""
    msg = human.message(status, error, detail, extra.get("errors"))
    return JSONResponse({"error": error, "detail": detail, "message": msg, **extra}, status_code=status)


_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
               422: "invalid_request"}


# ---------------------------------------------------------------- request bodies

Seat = Literal["a", "b"]
GameId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="a game's id (the record's 64-bit row id)")]
ActionId = Annotated[str, StringConstraints(min_length=8, max_length=80, pattern=r"^[A-Za-z0-9._:\-]+$")]
Delta = Annotated[int, Field(ge=-99_999, le=99_999)]
SmallDelta = Annotated[int, Field(ge=-99, le=99)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Control(_Strict):
    action_id: ActionId = Field(description="A fresh idempotency key for every control request (8-80 of "
                                            "A-Z a-z 0-9 . _ : -). A replay is answered 409 and changes nothing.")


class StartGame(Control):
    mode: Literal["referee", "tracker"]
    a: Name | None = Field(None, description="referee: 1P's sample deck id; tracker: 1P's roster character id or Korean name")
    b: Name | None = Field(None, description="referee: 2P's deck; tracker: 2P's character")
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None
    priority: Seat | None = Field(None, description="first priority; null = coin toss")
    names: dict[Seat, Annotated[str, StringConstraints(max_length=40)]] | None = Field(
        None, description="the players' names per seat (shown on the display, kept in the record)")


class _Cmd(_Strict):
    pass


class AdjustHealth(_Cmd):
    action: Literal["adjust_health"]
    seat: Seat
    delta: Delta


class SetHealth(_Cmd):
    action: Literal["set_health"]
    seat: Seat
    health: Delta


class AdjustFp(_Cmd):
    action: Literal["adjust_fp"]
    seat: Seat
    delta: SmallDelta


class ResetFp(_Cmd):
    action: Literal["reset_fp"]
    seat: Seat


class SetHandCount(_Cmd):
    action: Literal["set_hand_count"]
    seat: Seat
    count: Annotated[int, Field(ge=0, le=99)] | None


class TokenCmd(_Cmd):
    action: Literal["token"]
    seat: Seat
    name: Name | None = None
    delta: SmallDelta


class SetToken(_Cmd):
    action: Literal["set_token"]
    seat: Seat
    name: Name | None = None
    value: Annotated[int, Field(ge=0, le=999)]


class SetStance(_Cmd):
    action: Literal["set_stance"]
    seat: Seat
    stance: Name | None


class SetTrait(_Cmd):
    action: Literal["set_trait"]
    seat: Seat
    on: bool


class ApplyBattle(_Cmd):
    action: Literal["apply_battle"]
    health: dict[Seat, Delta] | None = None
    fp: dict[Seat, SmallDelta] | None = None


class NextTurn(_Cmd):
    action: Literal["next_turn"]


class RecordNonResponse(_Cmd):
    action: Literal["record_non_response"]
    seat: Seat


class SetCharacter(_Cmd):
    action: Literal["set_character"]
    seat: Seat
    character: Name


class NewGame(_Cmd):
    action: Literal["new_game"]
    a: Name | None = None
    b: Name | None = None
    priority: Seat | None = None
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None


class Reset(_Cmd):
    action: Literal["reset"]


class Undo(_Cmd):
    action: Literal["undo"]


TrackerCommand = Annotated[Union[AdjustHealth, SetHealth, AdjustFp, ResetFp, SetHandCount, TokenCmd, SetToken,
                                 SetStance, SetTrait, ApplyBattle, NextTurn, RecordNonResponse, SetCharacter,
                                 NewGame, Reset, Undo], Field(discriminator="action")]


class TrackerAction(Control):
    command: TrackerCommand


class Decision(Control):
    seat: Seat
    kind: Literal["ready", "get", "discard", "combo", "catch", "nullify", "choose", "pick", "replenish", "setup"]
    value: Any = True


class TimerAction(Control):
    action: Literal["round_start", "pause", "resume", "extend", "call_time", "turn_ended", "undo"]
    duration_ms: Annotated[int, Field(ge=1000, le=6 * 3600 * 1000)] | None = None
    extra_turns: Annotated[int, Field(ge=0, le=10)] | None = None
    ms: Annotated[int, Field(ge=1, le=30 * 60 * 1000)] | None = None


class NewToken(Control):
    new_token: Annotated[str, StringConstraints(pattern=TOKEN_PATTERN)] = Field(
        description="8-128 of A-Z a-z 0-9 _ -")


class Empty(Control):
    pass


# ---------------------------------------------------------------- the hub (live updates, clock, bots)

class DisplayHub:
    """Connects one table to the web: forwards public messages to WebSocket clients,
    ticks the table, counts turns after "time", and (demo) plays bot games."""

    def __init__(self, table, tick_interval=0.1, bots=False, bot_seed=1, bot_pace=1.0, auto_turn_end=True, tasks=()):
        self.table = table
        self.extra_tasks = tuple(tasks)
        self.tick_interval = tick_interval
        self.bots = bots
        self.bot_seed = bot_seed
        self.bot_pace = bot_pace
        self.auto_turn_end = auto_turn_end
        self.clients = set()
        self.hosts = {}                 # address -> open connections
        self.opens = {}                 # address -> [tokens, last refill] of the connection rate bucket
        self.loop = None
        self.loop_thread = None
        self._flush_scheduled = False
        self._causes = []
        self._turn_seen = (None, None)
        self._tasks = []
        self._last_clock = 0.0
        self.sent = 0
        table.subscribe(self.on_table)

    # -- who may connect (issue 11.1: limits on connections and their rate)
    def admit(self, host):
        """None if a WebSocket from ``host`` may open now (and counts it), else why not."""
        now = time.monotonic()
        tokens, last = self.opens.get(host, (WS_MAX_PER_HOST, now))
        tokens = min(WS_MAX_PER_HOST, tokens + (now - last) * WS_OPENS_PER_S)
        if sum(self.hosts.values()) >= WS_MAX_CLIENTS:
            return "too many live connections"
        if self.hosts.get(host, 0) >= WS_MAX_PER_HOST:
            return "too many live connections from %s" % host
        if tokens < 1:
            self.opens[host] = (tokens, now)
            return "too many new connections from %s" % host
        self.opens[host] = (tokens - 1, now)
        if len(self.opens) > 4 * WS_MAX_CLIENTS:      # forget quiet addresses
            self.opens = {h: v for h, v in self.opens.items() if h in self.hosts}
        self.hosts[host] = self.hosts.get(host, 0) + 1
        return None

    def leave(self, host):
        n = self.hosts.get(host, 0) - 1
        if n > 0:
            self.hosts[host] = n
        else:
            self.hosts.pop(host, None)

    # -- table -> clients
    def on_table(self, audience, msg):
        if audience != "public":        # "a"/"b" are the pods' private channels: never forwarded
            return
        cause = msg.get("t")
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self.loop_thread:
            self._mark(cause)
        else:
            loop.call_soon_threadsafe(self._mark, cause)

    def _mark(self, cause):
        self._causes.append(cause)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self.loop.call_soon(self.flush)

    def flush(self):
        self._flush_scheduled = False
        causes, self._causes = self._causes, []
        try:
            self._count_turns()
            msg = dict(display_state(self.table), t="state", cause=sorted(set(c for c in causes if c)))
        except Exception:       # a display bug must never take the table down
            log.exception("display state failed")
            return
        self.broadcast(msg)

    def broadcast(self, msg):
        text = json.dumps(msg, ensure_ascii=False)
        for q in list(self.clients):
            if q.full():
                while not q.empty():
                    q.get_nowait()
            q.put_nowait(text)
        self.sent += 1

    def clock_message(self):
        s = self.table.session
        ready = _ready(s.ready_status()) if s is not None else {}
        return {"t": "clock", "timer": self.table.timer_view(), "ready": ready}

    def _clock_running(self):
        if self.table.timer.state == "running":
            return True
        s = self.table.session
        return s is not None and bool(s.deadline)

    def _count_turns(self):
        """After "time", each finished turn counts down the extra turns (timer.turn_ended)."""
        s = self.table.session
        key = (s.game_id if s else None, current_turn(self.table))
        gid, turn = self._turn_seen
        self._turn_seen = key
        if not self.auto_turn_end or s is None or gid != key[0] or turn is None or key[1] is None:
            return
        for _ in range(max(0, key[1] - turn)):
            if self.table.timer.state == "time" and self.table.timer.turns_left:
                self.table.timer_action("turn_ended", by="hub")

    # -- background work on the loop
    async def start(self):
        self.loop = asyncio.get_running_loop()
        self.loop_thread = threading.get_ident()
        s = self.table.session
        self._turn_seen = (s.game_id if s else None, current_turn(self.table))
        if self.tick_interval:
            self._tasks.append(asyncio.create_task(self._ticker()))
        if self.bots:
            self._tasks.append(asyncio.create_task(BotPlayers(self, seed=self.bot_seed, pace=self.bot_pace).run()))
        for fn in self.extra_tasks:        # e.g. the pods' serial links: they share this loop with the table
            self._tasks.append(asyncio.ensure_future(fn(self)))

    async def stop(self):
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        self._tasks = []
        self.loop = None

    def tick(self):
        self.table.tick()

    async def _ticker(self):
        while True:
            await asyncio.sleep(self.tick_interval)
            try:
                self.tick()
                self._count_turns()
                now = time.monotonic()
                if self.clients and self._clock_running() and now - self._last_clock >= 1.0:
                    self._last_clock = now
                    self.broadcast(self.clock_message())
            except Exception:
                log.exception("table tick failed")

    def call(self, fn, *args, timeout=10, **kw):
        """Run ``fn(*args, **kw)`` on the server's loop thread and return its result (for other threads)."""
        if self.loop is None:
            raise RuntimeError("the server is not running")
        if threading.get_ident() == self.loop_thread:
            return fn(*args, **kw)

        async def run():
            return fn(*args, **kw)
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)


class BotPlayers:
    """``lumen demo --bots``: two seeded bots play referee games with the sample decks at a
    pace people can follow, forever; readies arrive a few seconds apart so the countdown
    shows, and now and then the second player lets the 10 seconds run out."""

    def __init__(self, hub, seed=1, pace=1.0, end_pause=8.0):
        from engine.bots import Bot
        self.Bot = Bot
        self.hub = hub
        self.table = hub.table
        self.seed = seed
        self.pace = pace
        self.end_pause = end_pause
        self.rnd = random.Random(seed)
        self.bots = None
        self.game_id = None
        self.over_since = None
        self.ready_at = {}

    def new_game(self):
        t = self.table
        if t.timer.state in ("idle",) or t.timer.finished:
            t.timer_action("round_start")
        t.start_referee(seed=self.seed)
        self.seed += 1

    def step(self, now):
        """One look at the table; returns seconds to wait. A tracker game someone started
        pauses the bots; a referee game started or resumed by hand is played on."""
        t = self.table
        s = t.session
        if s is not None and s.mode != "referee":
            return 1.0
        if s is None or game_over(t):
            if s is not None and self.over_since is None:
                self.over_since = now
            if s is None or now - self.over_since >= self.end_pause:
                self.over_since = None
                self.new_game()
            return 0.5
        if self.game_id != s.game_id:
            self.game_id = s.game_id
            seed = s.game_id * 1000 + self.seed
            self.bots = {"a": self.Bot(seed * 2 + 1, "greedy"), "b": self.Bot(seed * 2 + 2, "greedy")}
            self.ready_at = {}
        pending = s.state.pending
        readies = [r for r in pending if r["kind"] == "ready"]
        if readies:
            for r in readies:
                seat = r["player"]
                if seat not in self.ready_at:
                    first = self.rnd.uniform(1.5, 4.0)
                    self.ready_at[seat] = now + (first if not self.ready_at else self.rnd.uniform(first + 1.0, 8.5))
                    if len(self.ready_at) == 2 and self.rnd.random() < 0.03:
                        self.ready_at[seat] = float("inf")     # this one lets the 10 seconds run out
            for r in readies:
                seat = r["player"]
                if now >= self.ready_at[seat]:
                    kind, value = self.bots[seat].answer(s.state, r)
                    t.submit(seat, kind, value, source="pod")
                    return 0.1
            return 0.1
        self.ready_at = {}
        req = pending[0] if pending else None
        if req is None:
            return self.pace
        kind, value = self.bots[req["player"]].answer(s.state, req)
        t.submit(req["player"], kind, value, source="pod")
        return self.pace

    async def run(self):
        while True:
            try:
                wait = self.step(time.monotonic())
            except Exception:
                log.exception("bot step failed")
                self.ready_at = {}
                wait = 1.0
            await asyncio.sleep(wait)


# ---------------------------------------------------------------- the app

def create_app(table, *, tick_interval=0.1, bots=False, bot_seed=1, bot_pace=1.0, tasks=(), routers=()):
    """The FastAPI app for ``table``. A background task calls ``table.tick()`` every
    ``tick_interval`` seconds (None: tests tick by hand) and pushes updates; ``bots=True``
    keeps bot referee games going (``lumen demo --bots``). ``tasks``: callables
    ``fn(hub) -> awaitable`` started with the server on its loop and cancelled when it stops
    (e.g. the serial links of the pods, which must call the table on this loop)."""
    hub = DisplayHub(table, tick_interval=tick_interval, bots=bots, bot_seed=bot_seed, bot_pace=bot_pace, tasks=tasks)

    @asynccontextmanager
    async def lifespan(app):
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="Lumen Condenser table hub / 루멘콘덴서 테이블 허브",
                  description="The table display, tournament timer and REST API of one table. GET endpoints are "
                              "public (spectators). Control endpoints (`/api/control/...`) need `Authorization: "
                              "Bearer <admin token>` and a fresh `action_id` per request (a replay is answered 409). "
                              "Errors are JSON `{\"error\": code, \"detail\": message}`. Live updates: WebSocket "
                              "`/ws` (see docs/display.md).",
                  version="1", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.hub = hub
    app.state.table = table
    bearer = HTTPBearer(auto_error=False, description="the table's admin token (printed when the hub starts)")

    # -- errors as JSON
    @app.exception_handler(ApiError)
    async def _api_error(request, exc):
        return _err(exc.status, exc.error, exc.detail)

    @app.exception_handler(RequestValidationError)
    async def _validation(request, exc):
        errors = [{"loc": ".".join(str(x) for x in e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type"),
                   "ctx": {k: v for k, v in (e.get("ctx") or {}).items() if isinstance(v, (int, float, str))}}
                  for e in exc.errors()]
        detail = "; ".join("%s: %s" % (e["loc"], e["msg"]) for e in errors) or "invalid request"
        return _err(422, "invalid_request", detail, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request, exc):
        return _err(exc.status_code, _HTTP_CODES.get(exc.status_code, "error"), str(exc.detail))

    @app.exception_handler(RecordUnwritable)
    async def _unwritable(request, exc):
        hub.on_table("public", {"t": "record_error"})      # the page shows it at once
        return _err(503, "record_unwritable", str(exc))

    @app.exception_handler(Exception)
    async def _internal(request, exc):
        log.exception("request failed")
        return _err(500, "internal", "internal error: %s" % type(exc).__name__)

    # -- the admin token guards every control path, before the body is even read
    @app.middleware("http")
    async def _auth(request: Request, call_next):
        path = request.url.path
        if path.startswith("/api/control/") or path.startswith("/api/admin/"):
            header = request.headers.get("authorization", "")
            scheme, _, given = header.partition(" ")
            if not header:
                return _err(401, "unauthorized", "this is a control action: send Authorization: Bearer <admin token>")
            if scheme.lower() != "bearer" or not given.strip():
                return _err(401, "unauthorized", "the Authorization header must be: Bearer <admin token>")
            if not secrets.compare_digest(given.strip().encode(), table.admin_token.encode()):
                return _err(403, "forbidden", "wrong admin token: spectators are read-only")
        response = await call_next(request)
        if path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"
        elif path.startswith("/static/") and not path.startswith("/static/vendor/"):
            response.headers["Cache-Control"] = "no-cache"      # revalidate (ETag): a hub update shows at once
        return response

    def claim(action_id):
        """``with claim(id):`` around an action: a spent id is 409; the id is kept with what
        the action writes (durable), and not spent if the action is refused."""
        try:
            return table.claim_action(action_id)
        except SessionError as e:
            raise ApiError(409, "replayed", str(e)) from None

    def game_or_404(game_id):
        g = table.store.game(game_id)
        if g is None:
            raise ApiError(404, "not_found", "no game %d" % game_id)
        return g

    def refused(e):
        if isinstance(e, IllegalDecision):
            return ApiError(409, "illegal_decision", str(e))
        msg = str(e)
        if msg.startswith("no game is running"):
            return ApiError(409, "no_game", msg)
        return ApiError(409, "refused", msg)

    def done(action_id, **extra):
        return dict({"ok": True, "action_id": action_id, "state": display_state(table)}, **extra)

    # -- pages
    @app.get("/", include_in_schema=False)
    async def index():
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/docs", include_in_schema=False)
    async def docs():
        return get_swagger_ui_html(openapi_url=app.openapi_url, title=app.title + " — API",
                                   swagger_js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
                                   swagger_css_url="/static/vendor/swagger-ui/swagger-ui.css",
                                   swagger_favicon_url="/static/favicon.svg")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(reach.router)

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest():
        # at the root so its scope is the whole display: "install app" on a phone or the TV box
        return FileResponse(STATIC_DIR / "manifest.webmanifest", media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache"})

    # -- public reads
    @app.get("/api/state", tags=["public"], summary="The table now: raw public view, match clock, log and the display state")
    async def get_state():
        snap = table.snapshot()
        return dict(snap, display=display_state(table))

    @app.get("/api/games", tags=["public"], summary="Recent games of this table, newest first (game history)")
    async def get_games(limit: Annotated[int, Query(ge=1, le=100)] = 10):
        return {"games": table.games(limit)}

    @app.get("/api/games/{game_id}", tags=["public"], summary="One game's summary")
    async def get_game(game_id: GameId):
        game_or_404(game_id)
        from hub.record.store import public_start
        g = table.store.game(game_id)
        return dict(g, start=public_start(g["start"] or {}))

    @app.get("/api/games/{game_id}/export", tags=["public"],
             summary="Match export (lumen-match/1): everything once finished, only the public record before")
    async def get_export(game_id: GameId, download: bool = False):
        game_or_404(game_id)
        data = table.export(game_id)
        headers = {"Content-Disposition": 'attachment; filename="lumen-match-%d.json"' % game_id} if download else None
        return JSONResponse(data, headers=headers)

    @app.get("/api/games/{game_id}/judge-log", tags=["public"],
             summary="The judge log: ready stamps, commitments, deadlines, reveals")
    async def get_judge_log(game_id: GameId):
        game_or_404(game_id)
        return {"game_id": game_id, "records": [r.to_json() for r in table.store.records(game_id, kinds=("judge",))]}

    @app.get("/api/roster", tags=["public"], summary="Tracker characters: start health, hand limits, tokens")
    async def get_roster():
        return {"characters": [c.to_json() for c in roster.ROSTER]}

    @app.get("/api/decks", tags=["public"], summary="The sample decks a referee game can use")
    async def get_decks():
        return {"decks": [{"id": k, "name": d.name, "character": d.character.name,
                           "character_en": d.character.name_en} for k, d in sorted(_sample_decks().items())]}

    @app.get("/api/admin/check", tags=["control"], summary="Check an admin token (200 if it is right)")
    async def admin_check(_=Depends(bearer)):
        return {"ok": True, "table": table.name}

    # -- control
    @app.post("/api/control/games", tags=["control"], summary="Start a referee or tracker game at this table")
    async def start_game(body: StartGame, _=Depends(bearer)):
        if body.mode == "referee":
            decks = _sample_decks()
            for side in (body.a, body.b):
                if side is not None and side not in decks:
                    raise ApiError(404, "not_found", "unknown deck %r (decks: %s)" % (side, ", ".join(sorted(decks))))
        else:
            for side in (body.a, body.b):
                _character_or_404(side)
        with claim(body.action_id):
            try:
                if body.mode == "referee":
                    table.start_referee(body.a or "serin", body.b or "gangcheol", seed=body.seed,
                                        priority=body.priority, names=body.names)
                else:
                    table.start_tracker(body.a or "generic", body.b or "generic", seed=body.seed,
                                        priority=body.priority, names=body.names)
            except (SessionError, IllegalDecision) as e:
                raise refused(e) from None
        return done(body.action_id, game_id=table.session.game_id)

    @app.post("/api/control/games/{game_id}/resume", tags=["control"], summary="Resume a recent game")
    async def resume_game(game_id: GameId, body: Empty, _=Depends(bearer)):
        game_or_404(game_id)
        with claim(body.action_id):
            try:
                table.resume(game_id)
            except (SessionError, IllegalDecision) as e:
                raise refused(e) from None
        return done(body.action_id, game_id=game_id)

    @app.post("/api/control/tracker", tags=["control"],
              summary="A tracker-mode action (health, FP, tokens, turn, undo...), as from the pods")
    async def tracker_action(body: TrackerAction, _=Depends(bearer)):
        s = table.session
        if s is None:
            raise ApiError(409, "no_game", "no game is running at this table")
        if s.mode != "tracker":
            raise ApiError(409, "wrong_mode", "tracker actions need a tracker game (this one is %s)" % s.mode)
        cmd = body.command.model_dump()
        if cmd["action"] == "set_character":
            _character_or_404(cmd["character"])
        if cmd["action"] == "new_game":
            _character_or_404(cmd["a"])
            _character_or_404(cmd["b"])
        seat = cmd.get("seat") if cmd.get("seat") in ("a", "b") else None
        with claim(body.action_id):
            try:
                entries = table.submit(seat, "action", cmd, source="display")
            except (SessionError, IllegalDecision) as e:
                raise refused(e) from None
        return done(body.action_id, entries=entries)

    @app.post("/api/control/decision", tags=["control"],
              summary="A public decision from the table (tracker: a bare ready lock; referee: get, combo, ...)")
    async def decision(body: Decision, _=Depends(bearer)):
        s = table.session
        if s is None:
            raise ApiError(409, "no_game", "no game is running at this table")
        if s.mode == "tracker":
            if body.kind != "ready" or body.value is not True:
                raise ApiError(422, "invalid_request", "a tracker table takes only {kind: ready, value: true} here")
        else:
            if body.kind not in DISPLAY_DECISIONS:
                raise ApiError(403, "forbidden", "a %s is answered only on the player's own pod" % body.kind)
            req = next((r for r in s.state.pending if r["player"] == body.seat and r["kind"] == body.kind), None)
            if req is not None and req.get("hidden"):
                raise ApiError(403, "forbidden", "a hidden decision is answered only on the player's own pod")
        with claim(body.action_id):
            try:
                table.submit(body.seat, body.kind, body.value, source="display")
            except (SessionError, IllegalDecision) as e:
                raise refused(e) from None
        return done(body.action_id)

    @app.post("/api/control/timer", tags=["control"],
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

    @app.post("/api/control/token", tags=["control"],
              summary="Change the admin token (authorised with the old one)")
    async def change_token(body: NewToken, _=Depends(bearer)):
        with claim(body.action_id):
            table.admin_token = body.new_token
        return {"ok": True, "action_id": body.action_id}

    # -- live updates
    @app.websocket("/ws")
    async def ws(websocket: WebSocket):
        refusal = hub.admit(websocket.client.host if websocket.client else "?")
        if refusal:
            # before the handshake: a flood of spectators costs a refused upgrade each, nothing more
            await websocket.close(code=1013, reason=refusal)
            return
        q = asyncio.Queue(maxsize=64)
        try:
            await websocket.accept()
            hub.clients.add(q)
            await websocket.send_text(json.dumps(dict(display_state(table), t="state", cause=["hello"]),
                                                 ensure_ascii=False))

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
            finally:
                send_task.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.clients.discard(q)
            hub.leave(websocket.client.host if websocket.client else "?")

    for router in routers:     # e.g. the tournament's (hub/tournament/hubroutes.py)
        app.include_router(router)
    return app


_SAMPLE = None


def _sample_decks():
    global _SAMPLE
    if _SAMPLE is None:
        from engine.decks import load_sample
        _SAMPLE = load_sample()[1]
    return _SAMPLE


def _character_or_404(key):
    if key is None:
        return None
    try:
        return roster.get(key)
    except roster.UnknownCharacter:
        raise ApiError(404, "not_found", "unknown character %r (roster ids: %s)"
                       % (key, ", ".join(c.id for c in roster.ROSTER))) from None


# ---------------------------------------------------------------- running it

def urls(table, host, port):
    """The display URL(s) and the admin URL (the token in the fragment never reaches a server log).
    With ``host`` 0.0.0.0 the LAN addresses come from the interfaces (hub/web/lan.py), never
    from the hostname (Debian and Raspberry Pi OS resolve it to 127.0.1.1)."""
    u = lan.display_urls(host, port, table.name)
    out = {"display": u["local"], "lan_all": u["lan"], "mdns": u["mdns"]}
    if u["lan"]:
        out["lan"] = u["lan"][0]
    out["admin"] = out.get("lan", out["display"]) + "#admin=" + table.admin_token
    out["docs"] = out["display"] + "docs"
    return out


def announce(table, host, port, out=print, mdns=None):
    u = urls(table, host, port)
    out("테이블 화면 / table display: %s" % u["display"])
    for address in u["lan_all"]:
        out("휴대폰 (같은 네트워크) / phones on the same network: %s" % address)
    if mdns:
        out("이름으로 / by name (mDNS): http://%s:%d/" % (mdns, port))
    if host in lan.WILDCARD and not u["lan_all"]:
        out("네트워크 주소가 없습니다: 휴대폰은 연결할 수 없습니다 / no network address: phones cannot connect")
    out("관리자 토큰 / admin token: %s" % table.admin_token)
    out("관리자 화면 / admin page: %s" % u["admin"])
    out("API 문서 / API docs: %s" % u["docs"])


def serve(table, host="127.0.0.1", port=8000, *, bots=False, tick_interval=0.1, tasks=(), log_level="warning",
          out=print, routers=(), mdns=True):
    """Serve the display for ``table`` until stopped (Ctrl-C). Blocks. ``out=None`` prints nothing.
    On every interface (``host`` 0.0.0.0) the hub also announces ``lumen-<table>.local`` by mDNS
    unless ``mdns`` is false."""
    import uvicorn
    app = create_app(table, tick_interval=tick_interval, bots=bots, tasks=tasks, routers=routers)
    app.state.listen = (host, port)
    announcer = None
    if mdns and host in lan.WILDCARD:
        announcer = lan.Announcer(table.name, port)
        try:
            if not announcer.start():
                announcer = None
        except Exception as e:          # no multicast here: phones can still use the address
            log.warning("mDNS announcement failed: %s", e)
            announcer = None
    if out:
        announce(table, host, port, out, mdns=announcer.name if announcer else None)
    try:
        uvicorn.run(app, host=host, port=port, log_level=log_level, ws="auto")
    finally:
        if announcer is not None:
            announcer.stop()


class ServerHandle:
    """A server running in a thread (tests, embedding). ``url``, ``port``, ``hub``,
    ``call(fn, *args)`` runs on the server's loop, ``stop()`` shuts it down."""

    def __init__(self, server, thread, app, host, port):
        self.server, self.thread, self.app = server, thread, app
        self.hub = app.state.hub
        self.host, self.port = host, port
        self.url = "http://%s:%d" % (host, port)

    def call(self, fn, *args, **kw):
        return self.hub.call(fn, *args, **kw)

    def stop(self, timeout=10):
        self.server.should_exit = True
        self.thread.join(timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start_in_thread(table, port=0, host="127.0.0.1", *, tick_interval=0.1, bots=False, timeout=15, **kw):
    """Start the server in a daemon thread; port 0 picks a free port. Returns a ServerHandle."""
    import uvicorn
    app = create_app(table, tick_interval=tick_interval, bots=bots, **kw)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws="auto", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="lumen-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    actual = port
    for srv in getattr(server, "servers", []):
        for sock in srv.sockets:
            actual = sock.getsockname()[1]
            break
    app.state.listen = (host, actual)
    return ServerHandle(server, thread, app, host, actual)
