"""Issue 11.1: the 10-second rule does not depend on web traffic. The pods' links run on
their own thread and a ready is stamped when its bytes arrive, so neither a stalled web
server nor a flood of spectators' WebSockets at the deadline changes a ruling, or makes a
pod look dead.

The table's 10-second clock is a FakeClock the test moves: 2P presses READY at
"deadline - 200 ms" and the clock is moved far past the deadline as soon as the hub has
stamped that press (an event, not a sleep), before the table's thread gets to apply it.
A hub that stamps on arrival rules the ready on time whatever happens to the web side; a
hub whose links wait for the web's loop stamps it late, or never reads it at all."""

import asyncio
import threading
import time

import pytest

from hub.cli.demo import BOARD_IDS
from hub.pods.links import PodHub
from hub.pods.ports import SimPort
from hub.pods.sim import SimPod, build
from hub.record.store import Store
from hub.sessions.base import FakeClock
from hub.sessions.table import Table
from hub.web.broadcast import WS_MAX_CLIENTS
from hub.web.server import start_in_thread

TOKEN = "flood-test-token"


def wait(cond, what, timeout=60):
    """Wait for an event (a bound only stops a broken test: nothing here depends on speed)."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.01)


class Table10s:
    """A hub (pods on their links, web server) at a tracker table with two simulated pods."""

    def __init__(self, tmp_path):
        build()
        self.clock = FakeClock()
        self.table = Table(Store(str(tmp_path / "g.sqlite3")), clock=self.clock, admin_token=TOKEN)
        self.lines = []
        self.hub = PodHub(self.table, mode="tracker", out=self.lines.append)
        self.sims = {seat: SimPod(board_id=BOARD_IDS[seat]) for seat in ("a", "b")}
        for seat in ("a", "b"):
            self.hub.add(SimPort(self.sims[seat]))
        self.server = start_in_thread(self.table, tick_interval=0.05,
                                      tasks=(lambda _d: self.hub.run(serial_devices=(), rescan=False),))
        wait(lambda: sum(1 for c in self.hub.conns if c.board_id) == 2, "both pods' hellos")
        for seat in ("a", "b"):
            self.sims[seat].press("ready")           # a fresh pod's first READY claims a seat
            wait(lambda: self.hub.seated(seat) is not None, "seat " + seat)
        self.server.call(self.table.start_tracker)
        for seat in ("a", "b"):
            wait(lambda: self.settled(seat), "pod %s to hear the ready prompt" % seat)

    def settled(self, seat):
        c = self.hub.seated(seat)
        return c is not None and c.link.up and c.link.unacked == 0 and c.sent_state is not None

    def session(self):
        return self.server.call(lambda: self.table.session)

    def stamped(self, seat, kind="ready"):
        board = BOARD_IDS[seat]
        return [st for b, t, st in list(self.hub.links.stamped) if b == board and t == kind]

    def a_readies(self):
        self.sims["a"].press("ready")
        wait(lambda: "b" in self.server.call(lambda: dict(self.table.session.deadline)), "2P's deadline")
        return self.server.call(lambda: self.table.session.deadline["b"])

    def inputs(self):
        gid = self.table.session.game_id
        return self.server.call(lambda: [(r.seat, r.body["kind"], r.mono_ms)
                                         for r in self.table.store.records(gid, kinds=("input",))])

    def close(self):
        self.server.stop()
        for sim in self.sims.values():
            sim.kill()
        self.table.store.close()


@pytest.fixture
def t10(tmp_path):
    t = Table10s(tmp_path)
    yield t
    t.close()


def _ruled_on_time(t10, deadline):
    wait(lambda: t10.server.call(lambda: t10.table.session.phase) != "ready", "the reveal")
    inputs = t10.inputs()
    assert ("b", "timeout") not in [(s, k) for s, k, _ in inputs], inputs
    b_ready = [m for s, k, m in inputs if (s, k) == ("b", "ready")]
    assert b_ready == [deadline - 200], "2P's ready counts at its arrival stamp: %s" % inputs
    lost = [line for line in t10.lines if "link lost" in line or "disconnected" in line]
    assert not lost, lost


def test_a_stalled_web_server_changes_no_ruling_and_drops_no_pod(t10):
    deadline = t10.a_readies()
    t10.clock.t = deadline - 200
    stalled, release = threading.Event(), threading.Event()

    def stall():                       # the web's loop (the table's thread) stops dead
        stalled.set()
        release.wait(120)
    t10.server.hub.loop.call_soon_threadsafe(stall)
    try:
        wait(stalled.is_set, "the web loop to stall")
        heard = {s: t10.sims[s].stats()["frames_in"] for s in ("a", "b")}
        t10.sims["b"].press("ready")
        wait(lambda: t10.stamped("b"), "the hub to stamp 2P's ready while its web loop is stalled")
        t10.clock.t = deadline + 5000          # long past the deadline before the table applies it
        # the links keep running without the table's thread: each pod keeps hearing the hub
        for s in ("a", "b"):
            wait(lambda: t10.sims[s].stats()["frames_in"] >= heard[s] + 6, "pod %s to keep hearing the hub" % s)
            assert t10.sims[s].stats()["up"] == 1
    finally:
        release.set()
    assert t10.stamped("b") == [deadline - 200]
    _ruled_on_time(t10, deadline)


def test_a_flood_of_websockets_at_the_deadline_changes_no_ruling(t10):
    import websockets
    deadline = t10.a_readies()
    t10.clock.t = deadline - 200
    url = t10.server.url.replace("http", "ws") + "/ws"
    opened, refused, peak = [0], [0], [0]
    go, done = threading.Event(), threading.Event()

    async def client(i):
        try:
            async with websockets.connect(url, open_timeout=60, close_timeout=5) as ws:
                await ws.recv()
                opened[0] += 1
                peak[0] = max(peak[0], len(t10.server.hub.clients))
                while not done.is_set():
                    await asyncio.sleep(0.05)
        except Exception:
            refused[0] += 1

    async def flood():
        await asyncio.gather(*(client(i) for i in range(300)))

    thread = threading.Thread(target=lambda: (go.set(), asyncio.run(flood())), daemon=True)
    thread.start()
    try:
        go.wait(10)
        t10.sims["b"].press("ready")           # at the height of the flood
        wait(lambda: t10.stamped("b"), "the hub to stamp 2P's ready during the flood")
        t10.clock.t = deadline + 5000
        wait(lambda: opened[0] + refused[0] >= 300 or opened[0] >= WS_MAX_CLIENTS, "the flood to connect")
    finally:
        done.set()
        thread.join(120)
    assert opened[0] + refused[0] == 300
    assert refused[0] > 0 and peak[0] <= WS_MAX_CLIENTS, (opened, refused, peak)
    _ruled_on_time(t10, deadline)
