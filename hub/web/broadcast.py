"""The broadcaster: connects one table to the web.

Forwards the table's public messages (never a seat's private channel) to the WebSocket
clients: at most one message per burst, the display's changes since the last one (a
``delta``: hub/web/display_feed.py), a ``clock`` message every second while a clock
runs; a client gets the whole ``state`` when it connects, asks, or falls behind; admits
clients within the live-update limits; ticks the table; counts turns after "time"; runs
the extra tasks (the pods' links) and, in the demo, the bots, all on the server's loop.
"""

import asyncio
import json
import logging
import threading
import time

from hub.web.bots import BotPlayers
from hub.sessions.display.common import ready_view
from hub.web.display import display_state
from hub.web.display_feed import DisplayFeed

log = logging.getLogger("lumen.web")

#: The longest the ticker sleeps with nothing due (a safety net for a change nobody announced).
MAX_SLEEP_S = 10.0
#: Live-update limits (issue 11.1): spectators on the LAN can't flood the hub. The pods' links
#: don't share this loop, but the table's CPU does.
WS_MAX_CLIENTS = 64          # open WebSocket connections from the network
WS_LOCAL_SLOTS = 8           # beside those, for the hub's own screen (127.0.0.1, ::1: the table's TV)
WS_MAX_PER_HOST = 8          # from one address
WS_OPENS_PER_S = 4           # new connections per address per second (burst WS_MAX_PER_HOST)
WS_MESSAGES_PER_S = 10       # a client sends pings; more than this per second is closed
LOCAL_HOSTS = ("127.0.0.1", "::1")


class Slot:
    """One admitted WebSocket: its address, whether it is the hub's own screen, and how to
    close it (set by the route) when it must make room for another address."""

    __slots__ = ("host", "local", "close", "gone")

    def __init__(self, host):
        self.host, self.local = host, host in LOCAL_HOSTS
        self.close = None
        self.gone = False


class DisplayHub:
    """Connects one table to the web: forwards public messages to WebSocket clients,
    ticks the table, counts turns after "time", and (demo) plays bot games."""

    def __init__(self, table, tick_interval=0.1, bots=False, bot_seed=1, bot_pace=1.0, tasks=()):
        self.table = table
        self.extra_tasks = tuple(tasks)
        self.tick_interval = tick_interval
        self.bots = bots
        self.bot_seed = bot_seed
        self.bot_pace = bot_pace
        self.clients = set()
        self.hosts = {}                 # address -> open connections
        self.slots = []                 # admitted WebSockets (Slot), oldest first
        self.evicted = 0                # connections closed to make room for another address
        self.opens = {}                 # address -> [tokens, last refill] of the connection rate bucket
        self.loop = None
        self.loop_thread = None
        self._flush_scheduled = False
        self._causes = []
        self._tasks = []
        self._last_clock = 0.0
        self._ticking = False           # the ticker runs (its timer is armed)
        self._poked = False             # a tick is queued after a change (call_soon), not run yet
        self._timer = None              # the ticker's next wake-up (asyncio TimerHandle)
        self.server = None              # the uvicorn Server serving this hub (hub.web.server sets it)
        self.sent = 0
        self.feed = DisplayFeed(table)
        table.subscribe_changes(self.on_change)

    # -- who may connect (issue 11.1: limits on connections and their rate; 28.8: room kept)
    def admit(self, host):
        """A Slot if a WebSocket from ``host`` may open now (counted), else why not (a string).
        The hub's own screen has slots of its own, so the network can't fill them; when the
        network's slots are full, an address with fewer connections than the one holding the
        most takes that one's newest (closed: "make room"), so eight addresses can't shut a
        ninth out."""
        now = time.monotonic()
        tokens, last = self.opens.get(host, (WS_MAX_PER_HOST, now))
        tokens = min(WS_MAX_PER_HOST, tokens + (now - last) * WS_OPENS_PER_S)
        slot = Slot(host)
        mine = sum(1 for s in self.slots if s.host == host)
        if mine >= WS_MAX_PER_HOST:
            return "too many live connections from %s" % host
        pool = [s for s in self.slots if s.local == slot.local]
        victim = None
        if len(pool) >= (WS_LOCAL_SLOTS if slot.local else WS_MAX_CLIENTS):
            counts = {}
            for s in pool:
                counts[s.host] = counts.get(s.host, 0) + 1
            top = max(counts, key=counts.get)
            if mine + 1 >= counts[top]:
                return "too many live connections"
            victim = [s for s in pool if s.host == top][-1]
        if tokens < 1:
            self.opens[host] = (tokens, now)
            return "too many new connections from %s" % host
        self.opens[host] = (tokens - 1, now)
        if len(self.opens) > 4 * WS_MAX_CLIENTS:      # forget quiet addresses
            self.opens = {h: v for h, v in self.opens.items() if h in self.hosts}
        if victim is not None:
            self.evicted += 1
            self.leave(victim)
            if victim.close is not None:
                victim.close()
        self.slots.append(slot)
        self.hosts[host] = self.hosts.get(host, 0) + 1
        return slot

    def leave(self, slot):
        """A slot is free again (its connection ended, or it made room): once."""
        if slot.gone:
            return
        slot.gone = True
        try:
            self.slots.remove(slot)
        except ValueError:
            pass
        n = self.hosts.get(slot.host, 0) - 1
        if n > 0:
            self.hosts[slot.host] = n
        else:
            self.hosts.pop(slot.host, None)

    # -- table -> clients
    def on_change(self, change):
        """A table change: its public messages mark the display for one flush (one hop to the
        loop a change, whatever its number of messages)."""
        causes = [m.get("t") for a, m in change.messages if a == "public"]     # "a"/"b": the pods' own, never forwarded
        if causes:
            self._mark_soon(causes)

    def on_table(self, audience, msg):
        """One message (outside a change: the record refusing a write)."""
        if audience == "public":
            self._mark_soon([msg.get("t")])

    def _mark_soon(self, causes):
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self.loop_thread:
            self._mark(causes)
        else:
            loop.call_soon_threadsafe(self._mark, causes)

    def _mark(self, causes):
        self.poke()
        self._causes += causes
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self.loop.call_soon(self.flush)

    def flush(self):
        """Send the clients what changed since the last message (nothing if nothing did).
        Returns the message sent (JSON text), or None."""
        self._flush_scheduled = False
        causes, self._causes = self._causes, []
        try:
            text = self.feed.update(causes)
        except Exception:       # a display bug must never take the table down
            log.exception("display state failed")
            return None
        if text is not None:
            self.broadcast(text)
        return text

    def change_now(self):
        """What a control request changed, as the display stream's own message (a ``delta`` or,
        when the display's shape changed, the whole ``state``), sent to the clients now rather
        than at the next turn of the loop: a control reply carries it, so a page whose WebSocket
        is down applies the same change. None when the display shows nothing new."""
        if not self._on_loop():
            return None             # not on the hub's loop: the stream sends it there
        return self.flush()

    def display_now(self):
        """The display state as the stream has it now, with its version ``v`` (what a page that
        polls /api/state keeps, so a control reply's delta applies to it); off the loop, built
        afresh without a version."""
        if not self._on_loop():
            return display_state(self.table)
        self.flush()
        if self.feed.shown is None:
            self.feed.update()
        return dict(self.feed.shown, v=self.feed.v)

    def _on_loop(self):
        return self.loop is None or threading.get_ident() == self.loop_thread

    def hello(self, cause="hello"):
        """The whole display state for a client that connects or asks (JSON text), at the
        version the next delta applies to; a change not yet sent goes to the others first."""
        if self.feed.shown is None:
            self.feed.update()      # the first state: no client has one, nothing to tell the others
        else:
            self.flush()
        return self.feed.full([cause])

    def broadcast(self, msg):
        """Send a message of the stream (a dict, or JSON text already) to every display. A
        client whose queue is full gets the whole state instead of what it missed."""
        text = msg if isinstance(msg, str) else json.dumps(msg, ensure_ascii=False)
        behind = None
        for q in list(self.clients):
            if q.full():
                while not q.empty():
                    q.get_nowait()
                if behind is None:
                    behind = self.feed.full(["behind"])
                q.put_nowait(behind)
            else:
                q.put_nowait(text)
        self.sent += 1

    def clock_message(self):
        """The clock message (JSON text; None before the display has a state), a version."""
        s = self.table.session
        ready = ready_view(s.ready_status()) if s is not None else {}
        return self.feed.clock(self.table.timer_view(), ready)

    def _clock_running(self):
        if self.table.timer.state == "running":
            return True
        s = self.table.session
        return s is not None and bool(s.deadline)

    # -- background work on the loop
    async def start(self):
        self.loop = asyncio.get_running_loop()
        self.loop_thread = threading.get_ident()
        if self.tick_interval:
            self._tasks.append(asyncio.create_task(self._ticker()))
        if self.bots:
            self._tasks.append(asyncio.create_task(BotPlayers(self, seed=self.bot_seed, pace=self.bot_pace).run()))
        for fn in self.extra_tasks:        # e.g. the pods' serial links: they share this loop with the table
            self._tasks.append(asyncio.ensure_future(fn(self)))

    async def serving(self, poll=0.05):
        """Return once the web server accepts connections (a task that should not slow the
        start: the record's whole-file check). Tasks start before the server binds its socket."""
        while self.server is None or not self.server.started:
            await asyncio.sleep(poll)

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

    def poke(self):
        """Something changed (a table message, a display connected): the ticker looks again
        at when it is next needed. On the loop thread."""
        if self._ticking and not self._poked:
            self._poked = True
            self.loop.call_soon(self._tick)

    def _next_wake_s(self):
        """Seconds until the ticker has work: a deadline or the match clock falling due
        (``Table.next_due_in_ms``) or the next 1-second clock message while a display watches
        a running clock. Never more than ``MAX_SLEEP_S`` (a safety net, not a poll)."""
        wait = MAX_SLEEP_S
        due = self.table.next_due_in_ms()
        if due is not None:
            wait = min(wait, due / 1000)
        if self.clients and self._clock_running():
            wait = min(wait, self._last_clock + 1.0 - time.monotonic())
        return max(wait, 0.001)

    async def _ticker(self):
        """Ticks the table only when something falls due or changed: an idle table costs one
        wake-up per ``MAX_SLEEP_S`` here, not one per ``tick_interval`` (issue 16). Driven by
        one timer handle and ``call_soon`` (issue 26): a change used to wake this task through
        ``asyncio.wait_for`` (a new task, a future and a timer each time); this coroutine only
        holds the ticker's lifetime (cancelled when the server stops)."""
        self._ticking, self._poked = True, False
        self._arm()
        try:
            await asyncio.get_running_loop().create_future()       # never set: until cancelled
        finally:
            self._ticking = False
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def _arm(self):
        """The ticker's one timer, at its next wake-up."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self.loop.call_later(self._next_wake_s(), self._tick)

    def _tick(self):
        self._poked = False
        if not self._ticking:
            return
        try:
            self.tick()
            now = time.monotonic()
            if self.clients and self._clock_running() and now - self._last_clock >= 1.0:
                # a change waiting for its delta goes first: the clock message takes the timer
                # into the shown state, and a delta built after it would leave out the timer's
                # change (a round start the phone's clock button never heard of)
                if self._flush_scheduled:
                    self.flush()
                self._last_clock = now
                text = self.clock_message()
                if text is not None:
                    self.broadcast(text)
        except Exception:
            log.exception("table tick failed")
        self._arm()

    def call(self, fn, *args, timeout=10, **kw):
        """Run ``fn(*args, **kw)`` on the server's loop thread and return its result (for other threads)."""
        if self.loop is None:
            raise RuntimeError("the server is not running")
        if threading.get_ident() == self.loop_thread:
            return fn(*args, **kw)

        async def run():
            return fn(*args, **kw)
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)
