"""Issue 40: a table may mix a pod and a phone. A Lumen referee game with 1P on a simulated pod
(the real firmware under MicroPython on a pty, pressed as a person would) and 2P on a phone's
seat page API, both through the same hub: battles are revealed and judged, the phone's ready
is recorded as the pod's is (a lock with its commitment, checked at the reveal), and the pod's
own channel never carries the phone's pick before the reveal."""

import json
import time

import httpx

from hub.cli.demo import BOARD_IDS, PodPlayer
from hub.pods.pod_hub import PodHub
from hub.pods.ports import SimPort
from hub.pods.sim import SimPod, build
from hub.record.store import Store
from hub.sessions.commit_reveal import verify
from hub.sessions.table import Table
from hub.web.server import start_in_thread
from tests.web.conftest import AUTH, TOKEN
from tests.web.test_hidden import _strip

PHONE = "phone-b-pod-and-phone"


def _wait(cond, what, timeout=120):
    end = time.monotonic() + timeout          # the bound only stops a broken test
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for %s" % what)
        time.sleep(0.01)


def test_a_pod_and_a_phone_play_a_referee_game_together(tmp_path):
    build()
    table = Table(Store(str(tmp_path / "g.sqlite3")), admin_token=TOKEN)
    hub = PodHub(table, mode="referee", out=lambda text: None)
    sim = SimPod(board_id=BOARD_IDS["a"])
    hub.add(SimPort(sim, name="pod-1P"))
    heard = []                      # what the pod's seat is told (its own channel)
    table.subscribe(lambda audience, msg: heard.append(json.dumps(msg, ensure_ascii=False, default=str))
                    if audience == "a" else None)
    handle = start_in_thread(table, tick_interval=0.1, tasks=(lambda _d: hub.run(serial_devices=(), rescan=False),))
    player = PodPlayer("a", sim, hub, table, 7, 0.0, None)
    try:
        _wait(lambda: hub.conns and hub.conns[0].board_id, "the pod's hello")
        sim.press("ready")
        _wait(lambda: hub.seated("a") is not None, "the pod taking 1P")
        handle.call(table.start, "referee", seed=9)
        with httpx.Client(base_url=handle.url, timeout=60) as web:
            link = next(s["link"] for s in web.get("/api/admin/seats", headers=AUTH).json()["seats"] if s["seat"] == "b")
            token = link.split("token=")[1]

            def phone(**decision):
                path = "/api/seat/b/" + ("decision" if decision else "state")
                r = web.post(path, json=dict({"token": token, "client": PHONE}, **decision))
                assert r.status_code == 200, r.text
                return r.json()

            reveals = 0
            for _ in range(4000):
                s = table.session
                if s.winner is not None or reveals >= 3:
                    break
                st = phone()
                p = st["prompt"]
                if p["kind"] != "none" and not p["locked"]:
                    value = p["pass"]["value"] if p["pass"] and p["kind"] != "ready" else p["options"][0]["value"]
                    if p["kind"] == "ready":
                        before = len(heard)
                        phone(kind="ready", value=value)
                        # until the reveal, the pod's channel carries nothing of the phone's card
                        # (less the places a public card may stand: hands, lists, the catalogue: test_hidden)
                        if handle.call(lambda: table.session.ready_status()["b"]["locked"]):
                            public = {"last_battle": None, "seq": 1 << 60, "prelog": set()}
                            seen = [json.dumps(_strip(json.loads(m), public)) for m in heard[before:]]
                            assert not [m for m in seen if '"%s"' % value in m], value
                    else:
                        phone(kind=p["kind"], value=value)
                buttons = handle.call(player.decide) if handle.call(player.ready_to_act) else None
                for b in buttons or ():
                    sim.press(b)
                reveals = sum(1 for e in handle.call(lambda: table.session.log_tail(1 << 30)) if e.get("e") == "reveal")
                time.sleep(0.02)
            assert reveals >= 3 or table.session.winner is not None, reveals
            gid = table.session.game_id
        misses = [e for e in table.session.log_tail(1 << 30) if e.get("e") == "non_response" and e.get("p") == "b"]
        assert not misses, misses
        records = list(table.store.records(gid))
        locks = [r for r in records if r.kind == "judge" and r.seat == "b" and "commit" in json.dumps(r.body)]
        assert locks, "the phone's ready was locked with its commitment"
        checked = verify(table.store, gid)
        assert {"a", "b"} <= {seat for seat, _ in checked} and all(ok for _, ok in checked), checked
    finally:
        handle.stop()
        sim.close()
        table.store.close()
