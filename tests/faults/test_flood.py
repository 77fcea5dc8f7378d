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

from hub.web.broadcast import WS_MAX_CLIENTS

from tests.faults.podtable import t10, wait  # noqa: F401  (t10 is a fixture)


def _ruled_on_time(t10, deadline):
    wait(lambda: t10.server.call(lambda: t10.table.session.phase) != "ready", "the reveal")
    inputs = t10.inputs()
    assert ("b", "timeout") not in [(s, k) for s, k, _ in inputs], inputs
    b_ready = [m for s, k, m in inputs if (s, k) == ("b", "ready")]
    # at its arrival stamp, less the ms the pod says its first edge came before its frame
    # (ready_at, issue 20: a simulated tap's frame leaves within a ms or two of its edge)
    assert len(b_ready) == 1 and deadline - 205 <= b_ready[0] <= deadline - 200, \
        "2P's ready counts at its arrival stamp less its age: %s" % inputs
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
