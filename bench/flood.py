"""The 10-second rule under web traffic (issue 11.1). Prints figures; asserts nothing.

    python3 bench/flood.py [--rounds 40] [--clients 300]

A tracker table with two simulated pods (the real firmware under MicroPython on ptys) and
the web server, on the real monotonic clock. Each round both pods press READY; for each
press: the time from the press (the pod's control command) to the hub's arrival stamp of
the ready (hub/pods/link_thread.py). Run once with the web idle and once while ``--clients``
WebSocket clients keep connecting (most are refused by the limits) and reading, the way
the issue's attack did (from another process, as from another machine on the LAN). Also
prints the connections accepted and refused and whether any pod link was lost.
"""

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from hub.cli.demo import BOARD_IDS  # noqa: E402
from hub.pods.pod_hub import PodHub  # noqa: E402
from hub.pods.ports import SimPort  # noqa: E402
from hub.pods.protocol import PROMPT_KINDS, SCHEMA, STATE_FLAG_LOCKED  # noqa: E402
from hub.pods.sim import SimPod, build  # noqa: E402
from hub.record.store import Store  # noqa: E402
from hub.sessions.table import Table  # noqa: E402
from hub.web.server import start_in_thread  # noqa: E402


def ms():
    return time.monotonic_ns() // 1_000_000


def wait(cond, what, timeout=60):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise SystemExit("timed out waiting for %s" % what)
        time.sleep(0.002)


async def _client(url, stop_at, counts):
    import websockets
    while time.monotonic() < stop_at:
        try:
            async with websockets.connect(url, open_timeout=30, close_timeout=2) as ws:
                await ws.recv()
                counts[0] += 1
                for _ in range(20):
                    if time.monotonic() >= stop_at:
                        break
                    await ws.send("ping")
                    await ws.recv()
        except Exception:
            counts[1] += 1
            await asyncio.sleep(0.01)


def flood_client(url, clients, seconds):
    """The attacker, in its own process (it would be another machine on the LAN)."""
    counts = [0, 0]
    stop_at = time.monotonic() + seconds

    async def run():
        await asyncio.gather(*(_client(url, stop_at, counts) for _ in range(clients)))
    asyncio.run(run())
    print("%d %d" % tuple(counts), flush=True)


#: a pod's ready frame: stamped by the pod since firmware 0.5 (ready_at), plain before
READY_KINDS = ("ready", "ready_at")


def rounds(hub, table, server, sims, n):
    delays = []
    for _ in range(n):
        for seat in ("a", "b"):
            before = len(hub.links.stamped)
            t0 = ms()
            sims[seat].press("ready")
            wait(lambda: any(b == BOARD_IDS[seat] and k in READY_KINDS for b, k, _ in list(hub.links.stamped)[before:]),
                 "the stamp")
            stamp = [st for b, k, st in list(hub.links.stamped)[before:] if b == BOARD_IDS[seat] and k in READY_KINDS][0]
            delays.append(stamp - t0)
        wait(lambda: server.call(lambda: table.session.phase) == "battle", "the reveal")
        # two "next turn"s within a second are one double tap (hub/sessions/tracker.py): space them
        time.sleep(max(0.0, rounds.last + 1.1 - time.monotonic()))
        server.call(table.submit, None, "action", {"action": "next_turn"}, "display")
        rounds.last = time.monotonic()
        for seat in ("a", "b"):
            wait(lambda: asked_to_ready(hub, seat), "pod %s prompt" % seat)
    return delays


def asked_to_ready(hub, seat):
    """The pod has been sent an open (unlocked) ready prompt and has acked it."""
    c = hub.seated(seat)
    if not settled(hub, seat):
        return False
    f = dict(zip(SCHEMA["state"][2], c.sent_state))       # the state frame's fields in their order
    return f["kind"] == PROMPT_KINDS["ready"] and not f["flags"] & STATE_FLAG_LOCKED


rounds.last = 0.0


def settled(hub, seat):
    c = hub.seated(seat)
    return c is not None and c.link.up and c.link.unacked == 0 and c.sent_state is not None


def show(label, delays):
    print("%-34s n=%3d  median %4d ms  p95 %4d ms  max %4d ms" % (
        label, len(delays), statistics.median(delays), sorted(delays)[int(0.95 * (len(delays) - 1))], max(delays)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--clients", type=int, default=300)
    ap.add_argument("--flood-s", type=float, default=60.0, help="how long the flood lasts (it must outlast the rounds)")
    ap.add_argument("--flood-client", nargs=3, metavar=("URL", "N", "S"), help=argparse.SUPPRESS)
    ap.add_argument("--smoke", action="store_true", help="every part, small: CI's check that it runs (figures meaningless)")
    args = ap.parse_args()
    if args.smoke:
        args.rounds, args.clients, args.flood_s = 3, 10, 8.0
    if args.flood_client:
        url, n, secs = args.flood_client
        return flood_client(url, int(n), float(secs))
    build()
    tmp = tempfile.TemporaryDirectory()
    table = Table(Store(os.path.join(tmp.name, "g.sqlite3")))
    lines = []
    hub = PodHub(table, mode="tracker", out=lines.append)
    sims = {seat: SimPod(board_id=BOARD_IDS[seat]) for seat in ("a", "b")}
    for seat in ("a", "b"):
        hub.add(SimPort(sims[seat]))
    server = start_in_thread(table, tick_interval=0.1, tasks=(lambda _d: hub.run(serial_devices=(), rescan=False),))
    try:
        wait(lambda: sum(1 for c in hub.conns if c.board_id) == 2, "hellos")
        for seat in ("a", "b"):
            sims[seat].press("ready")
            wait(lambda: hub.seated(seat) is not None, "seat")
        server.call(table.start_tracker)
        for seat in ("a", "b"):
            wait(lambda: asked_to_ready(hub, seat), "prompt")
        print("press on a pod -> the hub's arrival stamp of its ready (host CPython + MicroPython unix port pods)")
        show("web idle", rounds(hub, table, server, sims, args.rounds))
        url = server.url.replace("http", "ws") + "/ws"
        flood = subprocess.Popen([sys.executable, __file__, "--flood-client", url, str(args.clients),
                                  str(args.flood_s)], stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)        # a bench, not a test: let the flood build up
        delays = rounds(hub, table, server, sims, args.rounds)
        accepted, refused = map(int, flood.communicate(timeout=args.flood_s + 120)[0].split())
        show("%d WebSocket clients flooding" % args.clients, delays)
        print("flood (another process): %d connections accepted, %d refused; pod links lost: %d"
              % (accepted, refused, sum(1 for x in lines if "link lost" in x)))
    finally:
        server.stop()
        for sim in sims.values():
            sim.kill()
        table.store.close()
        tmp.cleanup()


if __name__ == "__main__":
    main()
