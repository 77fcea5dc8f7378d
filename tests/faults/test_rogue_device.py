"""A rogue device on a serial port (a pty here), as an attacker with a USB stick would
plug in: issue 11.2 (a second device saying hello with a seated pod's board id is refused
and shown to the judge; only the judge hands the seat over) and the standing check that
no stream of frames from such a device changes the game or the seated pods' links."""

import os
import random
import select
import struct
import time
import tty

from hub.cli.demo import BOARD_IDS
from hub.pods.protocol import PROTO, SCHEMA, Message, encode
from hub.web.display import display_state

from tests.faults.podtable import TOKEN, t10, wait  # noqa: F401  (t10 is a fixture)

AUTH = {"Authorization": "Bearer " + TOKEN}


class RoguePort:
    """The hub's end of a pty; the test speaks for the device on the other end."""

    def __init__(self, name="rogue:usb"):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        os.set_blocking(self.slave, False)
        self.name = name

    def fileno(self):
        return self.master

    def read(self):
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""

    def write(self, data):
        try:
            os.write(self.master, data)
        except BlockingIOError:
            pass        # nobody reads the rogue's side: what the hub says is lost, as on a dead cable

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def say(self, data, timeout=120.0):
        """Write all of ``data``. When the pty's buffer is full (the hub reads late on a loaded
        machine) wait until it has room: the device's bytes are never dropped or cut short."""
        view = memoryview(data)
        deadline = time.monotonic() + timeout
        while view:
            try:
                view = view[os.write(self.slave, view):]
            except BlockingIOError:
                self.heard()        # what the hub says back must not fill its side either
                if time.monotonic() > deadline:
                    raise AssertionError("the hub stopped reading the rogue device's port")
                select.select([], [self.slave], [], 0.05)

    def heard(self):
        try:
            return os.read(self.slave, 65536)
        except BlockingIOError:
            return b""


def hello(board_id, boot=77):
    return encode(Message("hello", {"proto": PROTO, "fw_major": 0, "fw_minor": 4, "fw_patch": 0, "boot": boot,
                                    "epoch": 1, "board_id": bytes.fromhex(board_id), "pixels": 16, "features": 0}))


def record(t10):
    gid = t10.table.session.game_id
    return t10.server.call(lambda: [(r.seq, r.kind, r.seat) for r in t10.table.store.records(gid)])


def test_a_device_claiming_a_connected_pods_id_is_refused_until_the_judge_confirms(t10):
    real = t10.hub.seated("a")
    rogue = RoguePort()
    conn = t10.hub.add(rogue)
    rogue.say(hello(BOARD_IDS["a"]))
    wait(lambda: BOARD_IDS["a"] in t10.hub.conflicts, "the hub to refuse the second 1P")
    assert t10.hub.seated("a") is real and real.link.up and conn.seat is None
    assert any("refused" in line and rogue.name in line for line in t10.lines), t10.lines
    # what the rogue says as if it were seated is not heard: 1P stays unlocked
    rogue.say(encode(Message("ready", {"prompt": 1, "slot": 0}, seq=1, ack=0)))
    t10.sims["b"].press("ready")
    wait(lambda: "b" in t10.server.call(lambda: dict(t10.table.session.locked)), "2P's ready")
    assert "a" not in t10.server.call(lambda: dict(t10.table.session.locked))
    # the judge sees it on the page (no board id there: it is public) and in the admin list
    page = t10.server.call(lambda: display_state(t10.table))
    assert [c["seat"] for c in page["pod_conflicts"]] == ["a"]
    assert BOARD_IDS["a"] not in str(page["pod_conflicts"])
    import httpx
    r = httpx.get(t10.server.url + "/api/admin/pods", headers=AUTH)
    assert r.status_code == 200 and r.json()["conflicts"][0]["board_id"] == BOARD_IDS["a"], r.text
    assert httpx.get(t10.server.url + "/api/admin/pods").status_code == 401     # spectators can't list them
    # a spare pod replacing a broken one: the judge confirms, and the device takes 1P's seat
    r = httpx.post(t10.server.url + "/api/control/pods/takeover",
                   json={"action_id": "takeover-0001", "board_id": BOARD_IDS["a"]}, headers=AUTH)
    assert r.status_code == 200, r.text
    wait(lambda: t10.hub.seated("a") is conn, "the judge's takeover")
    assert real.closed and not t10.hub.conflicts


def test_a_pod_back_after_its_link_died_takes_its_seat_again(t10):
    """The replug case stays automatic: once the seated pod's link is dead, the same pod on a
    port that vouches for it (a USB port's own serial number; here the simulated pod's) is the
    pod itself, back. A device that only says the id waits for the judge (issue 39:
    tests/faults/test_seat_claims.py)."""
    from hub.pods.ports import SimPort
    from hub.pods.sim import SimPod
    real = t10.hub.seated("a")
    t10.sims["a"].kill()
    wait(lambda: real.closed or not real.link.up, "the hub to notice 1P gone")
    t10.sims["a"] = SimPod(board_id=BOARD_IDS["a"])
    conn = t10.hub.add(SimPort(t10.sims["a"], name="usb:replugged"))
    wait(lambda: t10.hub.seated("a") is conn, "the pod back in its seat")
    assert not t10.hub.conflicts and not t10.table.claims.pending()


def _random_frame(rnd):
    """A well-framed message of any type with random field values, or raw garbage."""
    if rnd.random() < 0.2:
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 40)))
    name = rnd.choice(list(SCHEMA))
    code, fmt, fields, _, text = SCHEMA[name]
    values = {}
    for f, ch in zip(fields, struct.Struct(fmt).format.lstrip("<>!=") if fmt else ""):
        if ch == "s" or f == "board_id":
            values[f] = bytes(rnd.randrange(256) for _ in range(8))
        else:
            size = struct.calcsize(">" + ch)
            signed = ch.islower()
            lo, hi = (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1) if signed else (0, (1 << (8 * size)) - 1)
            values[f] = rnd.randint(lo, hi)
    if "board_id" in values and rnd.random() < 0.3:
        values["board_id"] = bytes.fromhex(rnd.choice(list(BOARD_IDS.values())))
    try:
        return encode(Message(name, values, seq=rnd.randrange(256), ack=rnd.randrange(256),
                              text="x" * rnd.randrange(4) if text else ""))
    except Exception:
        return b"\x00garbage\x00"


def test_a_stream_of_random_frames_from_a_rogue_device_changes_nothing(t10):
    before = record(t10)
    rogue = RoguePort()
    t10.hub.add(rogue)
    rnd = random.Random(11)
    for _ in range(3000):
        rogue.say(_random_frame(rnd))      # all 3000, whole: say() waits for room
    # a marker the hub can only have read after everything before it: a hello with a fresh id
    rogue.say(b"\x00" + hello("00112233445566ff"))
    wait(lambda: any(c.board_id == "00112233445566ff" for c in list(t10.hub.conns)), "the marker hello")
    assert record(t10) == before, "a rogue device changed the record"
    for seat in ("a", "b"):
        c = t10.hub.seated(seat)
        assert c is not None and c.link.up and c.port is not rogue
    assert not [line for line in t10.lines if "hub error" in line], t10.lines
