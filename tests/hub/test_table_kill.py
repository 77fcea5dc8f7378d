"""Table day (issue 12, points 1-3 and 5): what the record and the clock must survive.
Each test runs the real ``lumen hub`` process, kills it with SIGKILL and starts it again
the way the Pi's service does (``--resume``)."""

import os
import stat
import subprocess
import sys
import time

from tests.hub.hubproc import ROOT, HubProcess

TOKEN = "kill-test-token"


def tracker_cmd(hub, command):
    return hub.post("/api/control/tracker", {"command": command}, TOKEN)


def current_game(hub):
    return hub.get("/api/state")["display"]["game_id"]


def test_resume_brings_back_the_game_being_played_not_the_newest(tmp_path):
    """Point 1: resume #first from the admin page, kill -9, --resume: #first comes back."""
    db = str(tmp_path / "games.sqlite3")
    hub = HubProcess(db, "--token", TOKEN)
    try:
        first = current_game(hub)
        health = hub.get("/api/state")["display"]["seats"]["a"]["health"]
        tracker_cmd(hub, {"action": "adjust_health", "seat": "a", "delta": -300})
        later = hub.post("/api/control/games", {"mode": "tracker"}, TOKEN)["game_id"]
        assert later != first
        hub.post("/api/control/games/%d/resume" % first, {}, TOKEN)
        assert current_game(hub) == first
    finally:
        hub.kill()
    hub = HubProcess(db, "--token", TOKEN, "--resume")
    try:
        assert current_game(hub) == first
        assert hub.get("/api/state")["display"]["seats"]["a"]["health"] == health - 300
    finally:
        hub.kill()
    # a fresh start (no --resume) opens a new game, and that is then the one resumed
    hub = HubProcess(db, "--token", TOKEN)
    try:
        fresh = current_game(hub)
        assert fresh not in (first, later)
    finally:
        hub.kill()
    hub = HubProcess(db, "--token", TOKEN, "--resume")
    try:
        assert current_game(hub) == fresh
    finally:
        hub.kill()


def lumen_games(db):
    out = subprocess.run([sys.executable, "-m", "hub.cli", "games", "--db", db], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def status_everywhere(hub, db, gid):
    one = hub.get("/api/games/%d" % gid)
    listed = [g for g in hub.get("/api/games")["games"] if g["id"] == gid]
    assert listed, "the game being played is in the recent list"
    line = [ln for ln in lumen_games(db).splitlines() if ln.startswith("#%d " % gid)]
    assert line, "lumen games lists #%d" % gid
    return one["status"], one["winner"], listed[0]["status"], line[0]


def test_undoing_the_ko_reopens_the_game_in_the_record(tmp_path):
    """Point 2: KO -> finished; undo -> in progress again in /api/games/{id}, /api/games and
    ``lumen games``, and still after kill -9."""
    db = str(tmp_path / "games.sqlite3")
    hub = HubProcess(db, "--token", TOKEN)
    try:
        gid = current_game(hub)
        health = hub.get("/api/state")["display"]["seats"]["b"]["health"]
        tracker_cmd(hub, {"action": "set_health", "seat": "a", "health": 0})
        st, winner, listed, line = status_everywhere(hub, db, gid)
        assert (st, winner, listed) == ("finished", "b", "finished")
        assert "finished" in line and "winner=b" in line
        tracker_cmd(hub, {"action": "undo"})
        st, winner, listed, line = status_everywhere(hub, db, gid)
        assert (st, winner, listed) == ("in_progress", None, "in_progress")
        assert "in_progress" in line and "winner=None" in line
        # the game goes on: a ready and the next turn are accepted again
        tracker_cmd(hub, {"action": "adjust_health", "seat": "b", "delta": -300})
    finally:
        hub.kill()
    hub = HubProcess(db, "--token", TOKEN, "--resume")
    try:
        assert current_game(hub) == gid
        st, winner, listed, _ = status_everywhere(hub, db, gid)
        assert (st, winner, listed) == ("in_progress", None, "in_progress")
        assert hub.get("/api/state")["display"]["seats"]["b"]["health"] == health - 300
        # a KO again finishes it again
        tracker_cmd(hub, {"action": "set_health", "seat": "b", "health": 0})
        assert status_everywhere(hub, db, gid)[:3] == ("finished", "a", "finished")
    finally:
        hub.kill()


def left_bounds(duration, w_start, w_started, w_read, w_got, paused=0):
    """The true ms left lies between what the slowest and the fastest reading allow."""
    return duration - (w_got - w_start) * 1000 + paused, duration - (w_read - w_started) * 1000 + paused


def timer_of(hub):
    return hub.get("/api/state")["timer"]


def test_the_match_clock_shows_the_true_time_after_kill_9(tmp_path):
    """Point 3: the clock is an anchor in the record: after kill -9 the time that passed
    while the hub was down has passed on the clock too."""
    db = str(tmp_path / "games.sqlite3")
    duration = 30 * 60 * 1000
    hub = HubProcess(db, "--token", TOKEN)
    try:
        w0 = time.time()
        hub.post("/api/control/timer", {"action": "round_start", "duration_ms": duration}, TOKEN)
        w1 = time.time()
        # wait until the clock has visibly run (a whole second) before killing
        end = time.monotonic() + 60
        while timer_of(hub)["ms_left"] > duration - 1500:
            assert time.monotonic() < end
            time.sleep(0.05)
    finally:
        hub.kill()
    hub = HubProcess(db, "--token", TOKEN, "--resume")
    try:
        w2 = time.time()
        t = timer_of(hub)
        w3 = time.time()
        lo, hi = left_bounds(duration, w0, w1, w2, w3)
        assert t["state"] == "running"
        assert lo - 1 <= t["ms_left"] <= hi + 1, (lo, t["ms_left"], hi)
        assert t["ms_left"] < duration - 1500
        # pause, kill, restart: a paused clock stays where it was paused
        paused = hub.post("/api/control/timer", {"action": "pause"}, TOKEN)["timer"]["ms_left"]
    finally:
        hub.kill()
    hub = HubProcess(db, "--token", TOKEN, "--resume")
    try:
        t = timer_of(hub)
        assert (t["state"], t["ms_left"]) == ("paused", paused)
        hub.post("/api/control/timer", {"action": "call_time", "extra_turns": 0}, TOKEN)
        assert timer_of(hub)["state"] == "time"
        # a new game does not keep the last round's TIME
        hub.post("/api/control/games", {"mode": "tracker"}, TOKEN)
        t = timer_of(hub)
        assert t["state"] == "idle" and t["ms_left"] == t["duration_ms"]
    finally:
        hub.kill()


def test_a_new_game_keeps_a_running_round_clock_across_kill_9(tmp_path):
    """A round spans several games: a new game carries a running clock, and the resumed
    new game shows it with the time that passed."""
    db = str(tmp_path / "games.sqlite3")
    duration = 20 * 60 * 1000
    hub = HubProcess(db, "--token", TOKEN)
    try:
        w0 = time.time()
        hub.post("/api/control/timer", {"action": "round_start", "duration_ms": duration}, TOKEN)
        w1 = time.time()
        gid = hub.post("/api/control/games", {"mode": "tracker"}, TOKEN)["game_id"]
    finally:
        hub.kill()
    hub = HubProcess(db, "--token", TOKEN, "--resume")
    try:
        w2 = time.time()
        t = timer_of(hub)
        w3 = time.time()
        assert current_game(hub) == gid
        lo, hi = left_bounds(duration, w0, w1, w2, w3)
        assert t["state"] == "running" and lo - 1 <= t["ms_left"] <= hi + 1, (lo, t, hi)
    finally:
        hub.kill()


def token_file(db):
    return os.path.join(os.path.dirname(db), "games.table-1.token")


def test_the_admin_token_survives_kill_9_and_rotates_only_on_request(tmp_path):
    """Point 5: generated once, kept 0600 beside the record, the same after restarts;
    changed only by a request; --token and LUMEN_ADMIN_TOKEN override it."""
    db = str(tmp_path / "games.sqlite3")
    hub = HubProcess(db)
    try:
        path = token_file(db)
        assert os.path.exists(path), os.listdir(tmp_path)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        token = open(path).read().strip()
        assert len(token) >= 16
        assert hub.request("GET", "/api/admin/check", token=token)[0] == 200
    finally:
        hub.kill()
    hub = HubProcess(db, "--resume")
    try:
        assert open(token_file(db)).read().strip() == token
        assert hub.request("GET", "/api/admin/check", token=token)[0] == 200
        new = "rotated-token-0123"
        hub.post("/api/control/token", {"new_token": new}, token)
    finally:
        hub.kill()
    hub = HubProcess(db, "--resume")
    try:
        assert open(token_file(db)).read().strip() == new
        assert stat.S_IMODE(os.stat(token_file(db)).st_mode) == 0o600
        assert hub.request("GET", "/api/admin/check", token=new)[0] == 200
        status, body = hub.request("GET", "/api/admin/check", token=token)
        assert status == 403
        # a stale token is told how to log in again, in both languages
        assert "admin" in body["message"]["en"] and "관리자" in body["message"]["ko"]
    finally:
        hub.kill()
    hub = HubProcess(db, "--resume", env={"LUMEN_ADMIN_TOKEN": "from-the-unit-file"})
    try:
        assert hub.request("GET", "/api/admin/check", token="from-the-unit-file")[0] == 200
        assert hub.request("GET", "/api/admin/check", token=new)[0] == 403
    finally:
        hub.kill()
    hub = HubProcess(db, "--resume", "--token", "from-the-command-line")
    try:
        assert hub.request("GET", "/api/admin/check", token="from-the-command-line")[0] == 200
    finally:
        hub.kill()
    # the overrides did not replace the stored token
    assert open(token_file(db)).read().strip() == new
    # --rotate-token makes a new one, kept from then on; the old one stops working
    hub = HubProcess(db, "--resume", "--rotate-token")
    try:
        rotated = open(token_file(db)).read().strip()
        assert rotated != new and stat.S_IMODE(os.stat(token_file(db)).st_mode) == 0o600
        assert hub.request("GET", "/api/admin/check", token=rotated)[0] == 200
        assert hub.request("GET", "/api/admin/check", token=new)[0] == 403
    finally:
        hub.kill()
