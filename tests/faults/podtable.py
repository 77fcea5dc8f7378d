"""A hub at a tracker table for the fault tests: two simulated pods (the real firmware
under MicroPython) on the pods' links, the web server, and a FakeClock for the 10-second
rule that the test moves by hand."""

import time

import pytest

from hub.cli.demo import BOARD_IDS
from hub.pods.pod_hub import PodHub
from hub.pods.ports import SimPort
from hub.pods.sim import SimPod, build
from hub.record.store import Store
from hub.sessions.base import FakeClock
from hub.sessions.table import Table
from hub.web.server import start_in_thread

TOKEN = "fault-test-token"


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
        # a pod that speaks protocol extension 1 sends its ready as ready_at (issue 20)
        kinds = ("ready", "ready_at") if kind == "ready" else (kind,)
        board = BOARD_IDS[seat]
        return [st for b, t, st in list(self.hub.links.stamped) if b == board and t in kinds]

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
