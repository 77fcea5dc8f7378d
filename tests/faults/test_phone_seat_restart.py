"""Issue 40.4: the hub killed (kill -9) while a phone's ready is locked resumes the same game, and
the phone's seat link still works: it shows its lock, and the reveal comes when the other seat
readies (the lock was committed before the phone was answered)."""

import os
import signal
import subprocess
import sys

import httpx

from hub.tournament.broker import free_port
from tests.faults.procs import ROOT, wait_listening

TOKEN = "phone-restart-token"
AUTH = {"Authorization": "Bearer " + TOKEN}


def _hub(tmp_path, port, *extra):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--db", str(tmp_path / "g.sqlite3"), "--mode", "referee",
                             "--port", str(port), "--serial", str(tmp_path / "no-pod"), "--no-mdns", "--token", TOKEN,
                             "--cards", str(tmp_path / "cards"), *extra], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _seat(c, seat, token, client, **decision):
    path = "/api/seat/%s/%s" % (seat, "decision" if decision else "state")
    return c.post(path, json=dict({"token": token, "client": client}, **decision))


def test_a_phone_pick_survives_kill_9_of_the_hub(tmp_path):
    port = free_port()
    hub = _hub(tmp_path, port)
    try:
        wait_listening(port)
        with httpx.Client(base_url="http://127.0.0.1:%d" % port, timeout=60) as c:
            links = {s["seat"]: s["link"].split("token=")[1] for s in c.get("/api/admin/seats", headers=AUTH).json()["seats"]}
            st = _seat(c, "a", links["a"], "phone-a-000001").json()
            card = st["prompt"]["options"][1]["value"]
            r = _seat(c, "a", links["a"], "phone-a-000001", kind="ready", value=card)
            assert r.status_code == 200 and r.json()["prompt"]["locked"], r.text
            game = r.json()["game_id"]
    finally:
        hub.send_signal(signal.SIGKILL)
        hub.wait(30)
    hub = _hub(tmp_path, port, "--resume")
    try:
        wait_listening(port)
        with httpx.Client(base_url="http://127.0.0.1:%d" % port, timeout=60) as c:
            st = _seat(c, "a", links["a"], "phone-a-000001").json()
            assert st["game_id"] == game and st["prompt"]["locked"], st
            b = _seat(c, "b", links["b"], "phone-b-000001").json()
            assert b["ready"]["a"]["locked"] and card not in str(b)
            r = _seat(c, "b", links["b"], "phone-b-000001", kind="ready", value=b["prompt"]["options"][0]["value"])
            assert r.status_code == 200, r.text
            log = c.get("/api/log").json()["log"]
            reveal = [line for line in log if line.get("e") == "reveal"]
            assert reveal, log[-5:]
            judge = c.get("/api/games/%d/judge-log" % game).json()
            assert "commit" in str(judge)
    finally:
        hub.send_signal(signal.SIGTERM)
        try:
            hub.wait(30)
        except subprocess.TimeoutExpired:
            hub.kill()
