"""The real-pod code path: pyserial on a tty device. A simulated pod's link is relayed
to a second pseudo-terminal, whose device path the hub opens with pyserial exactly as
it opens /dev/ttyACM0 at a table."""

import asyncio
import os
import select
import threading
import tty

from hub.cli.demo import BOARD_IDS
from hub.pods.sim import SimPod, build
from hub.pods.pod_hub import PodHub
from hub.pods.ports import SerialPort
from hub.record.store import Store
from hub.sessions.table import Table
from tests.hub.rig import needs_micropython

pytestmark = needs_micropython


def relay(a, b, stop):
    """Copy bytes both ways between two pty masters until stopped."""
    while not stop.is_set():
        r, _, _ = select.select([a, b], [], [], 0.05)
        for src in r:
            try:
                data = os.read(src, 4096)
            except OSError:
                return
            if data:
                os.write(b if src == a else a, data)


def test_a_pod_on_a_serial_device_is_welcomed_seated_and_readies(tmp_path):
    build()
    table = Table(Store(str(tmp_path / "s.sqlite3")))
    pod = SimPod(board_id=BOARD_IDS["a"])
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()
    t = threading.Thread(target=relay, args=(pod.fileno(), master, stop), daemon=True)
    t.start()
    lines = []
    hub = PodHub(table, mode="tracker", out=lines.append)
    try:
        async def go():
            task = asyncio.create_task(hub.run(serial_devices=[os.ttyname(slave)], rescan=False))

            async def wait(cond, what, timeout=20):
                for _ in range(int(timeout / 0.01)):
                    if cond():
                        return
                    await asyncio.sleep(0.01)
                raise AssertionError("timed out waiting for %s: %s" % (what, lines))
            await wait(lambda: hub.conns and hub.conns[0].board_id == BOARD_IDS["a"], "hello over pyserial")
            assert isinstance(hub.conns[0].port, SerialPort)
            await asyncio.get_running_loop().run_in_executor(None, pod.press, "ready")
            await wait(lambda: hub.seated("a") is not None, "the seat claim")
            table.start_tracker(seed=1)
            await wait(lambda: hub.seated("a").link.unacked == 0 and hub.seated("a").sent_state, "the state push")
            await asyncio.get_running_loop().run_in_executor(None, pod.press, "ready")
            await wait(lambda: "a" in table.session.locked, "the ready")
            task.cancel()
        asyncio.run(go())
        assert any("pod port opened" in line for line in lines)
    finally:
        stop.set()
        t.join(1)
        pod.close()
        os.close(master)
        os.close(slave)
        table.store.close()
