"""`lumen tournament new` and `run` as users start them: the event folder, the players file's
errors, the TD with its own local Mosquitto, and a clean stop."""

import json
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from hub.tournament.broker import free_port
from hub.tournament.eventdir import SetupError, load_players
from tests.tournament.conftest import need_mosquitto, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def lumen(*args, **kw):
    return subprocess.run([sys.executable, "-m", "hub.cli"] + list(args), cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT), timeout=120, **kw)


def td_state(port):
    """The TD page's state, or None while it is not up."""
    try:
        return json.loads(urllib.request.urlopen("http://127.0.0.1:%d/api/state" % port, timeout=5).read())
    except OSError:
        return None


def test_players_files_and_their_errors(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("김하나\n# 주석\n\n이둘\n박셋  # 늦게 옴\n", encoding="utf-8")
    assert [p["name"] for p in load_players(str(f))] == ["김하나", "이둘", "박셋"]
    c = tmp_path / "p.csv"
    c.write_text("id,name\nk1,김하나\nk2,\n", encoding="utf-8")
    with pytest.raises(SetupError, match=r"p.csv:3: a player needs a name"):
        load_players(str(c))
    c.write_text("name\n김하나\n", encoding="utf-8")
    with pytest.raises(SetupError, match="at least 2 players"):
        load_players(str(c))
    with pytest.raises(SetupError, match="cannot read"):
        load_players(str(tmp_path / "missing.csv"))


def test_new_then_run_with_its_own_broker(tmp_path):
    need_mosquitto()
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "\n".join("선수%d" % i for i in range(1, 11)) + "\n", encoding="utf-8")
    folder = str(tmp_path / "ev")
    r = lumen("tournament", "new", "cup", "--players", str(players), "--dir", folder, "--best-of", "3", "--cut", "4")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "tournament run --dir" in r.stdout
    again = lumen("tournament", "new", "cup", "--players", str(players), "--dir", folder)
    assert again.returncode == 2 and "already holds an event" in again.stdout
    creds = json.load(open(os.path.join(folder, "credentials.json")))
    assert oct(os.stat(os.path.join(folder, "credentials.json")).st_mode & 0o777) == "0o600"
    assert {"td", "spectator", "admin_token", "table-1", "table-5"} <= set(creds)
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "hub.cli", "tournament", "run", "--dir", folder, "--port", str(port)],
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    try:
        st = wait_for(lambda: td_state(port), 90, "the TD page")
        assert st["room"]["event"] == "cup" and st["room"]["best_of"] == 3 and st["room"]["cut"] == 4
        conf = open(os.path.join(folder, "broker", "mosquitto.conf")).read()
        assert "allow_anonymous false" in conf
        tables = lumen("tournament", "tables", "--dir", folder, "--host", "10.0.0.5")
        assert tables.returncode == 0
        line = tables.stdout.splitlines()[0]
        # the password in the environment, never on the command line (ps shows that: issue 28.13)
        assert line.startswith("LUMEN_BROKER_PASSWORD=%s lumen hub --broker mqtt://table-1@10.0.0.5:" % creds["table-1"])
        p.send_signal(signal.SIGTERM)
        p.wait(60)
        assert p.returncode == 0
        out = p.stdout.read()
        # the token's file, never the token: the output is the TD's log (issue 39)
        assert "TD page" in out and "credentials.json" in out and creds["admin_token"] not in out
    finally:
        if p.poll() is None:
            p.kill()
    # the broker went with it
    assert subprocess.run(["pgrep", "-f", os.path.join(folder, "broker", "mosquitto.conf")],
                          capture_output=True).returncode == 1


def test_a_td_killed_with_9_comes_back_on_the_same_broker(tmp_path):
    need_mosquitto()
    players = tmp_path / "players.txt"
    players.write_text("\n".join("선수%d" % i for i in range(1, 9)) + "\n", encoding="utf-8")
    folder = str(tmp_path / "ev")
    assert lumen("tournament", "new", "cup", "--players", str(players), "--dir", folder).returncode == 0
    conf = os.path.join(folder, "broker", "mosquitto.conf")
    port = free_port()

    def run():
        return subprocess.Popen([sys.executable, "-m", "hub.cli", "tournament", "run", "--dir", folder, "--port",
                                 str(port)], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)

    def up():
        try:
            return json.loads(urllib.request.urlopen("http://127.0.0.1:%d/api/state" % port, timeout=5).read())
        except OSError:
            return None

    def broker_pids():
        r = subprocess.run(["pgrep", "-f", conf], capture_output=True, text=True)
        return r.stdout.split()

    p = run()
    try:
        wait_for(up, 90, "the TD page")
        first = broker_pids()
        assert len(first) == 1
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        assert broker_pids() == first          # the broker outlives its TD: the hubs stay connected
        p = run()
        wait_for(up, 90, "the TD page again")
        assert broker_pids() == first
        p.send_signal(signal.SIGTERM)
        p.wait(60)
        assert "still running (pid %s)" % first[0] in p.stdout.read()
        wait_for(lambda: not broker_pids(), 60, "the broker to stop with the TD")
    finally:
        if p.poll() is None:
            p.kill()
        for pid in broker_pids():
            os.kill(int(pid), signal.SIGKILL)


def test_the_demo_stopped_with_sigterm_stops_its_mosquitto(tmp_path):
    """Issue 22 point 12: `lumen tournament demo` ended by SIGTERM (a service manager, `kill`)
    stops its tables, its TD and its own Mosquitto, as Ctrl+C does; the page's state says the
    autopilot's next step (the demo holds each round so results can be corrected)."""
    need_mosquitto()
    folder = str(tmp_path / "demo")
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "hub.cli", "tournament", "demo", "--no-browser", "--players", "4",
                          "--rounds", "1", "--cut", "0", "--port", str(port), "--dir", folder, "--hold", "600"],
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    pid_file = os.path.join(folder, "broker", "mosquitto.pid")
    try:
        wait_for(lambda: td_state(port), 120, "the demo's TD page")
        pid = int(wait_for(lambda: os.path.exists(pid_file) and open(pid_file).read().strip(), 60, "the broker's pid"))
        assert os.path.exists("/proc/%d" % pid)
        p.send_signal(signal.SIGTERM)
        p.wait(90)
        assert p.returncode == 0, p.stdout.read()
        left = subprocess.run(["pgrep", "-f", os.path.join(folder, "broker", "mosquitto.conf")], capture_output=True)
        assert left.returncode == 1, "the demo's Mosquitto outlived it: %s" % left.stdout
    finally:
        if p.poll() is None:
            p.kill()
        from hub.tournament.broker import LocalBroker
        stray = LocalBroker(os.path.join(folder, "broker"), {}).running_pid()
        if stray is not None:           # this test's own broker, left by a failure: not another test's
            os.kill(stray, signal.SIGTERM)


def test_the_demos_autopilot_holds_a_round_and_says_until_when(tmp_path):
    """Issue 22 point 12: after the last result the autopilot waits before pairing and again
    before starting, telling the page when (results can be corrected until a round starts)."""
    from hub.tournament.demo import Autopilot
    from hub.tournament.eventdir import new_event
    from hub.tournament.td import TD
    folder = str(tmp_path / "ev")
    new_event(folder, "cup", [{"id": "p%d" % i, "name": "n%d" % i} for i in range(1, 5)], rounds=2, seed=1)
    td = TD(os.path.join(folder, "event.sqlite"))
    pilot = Autopilot(td, out=lambda *a: None, pause_s=10)
    assert pilot.step(0.0) == "running" and td.event.current()["number"] == 1       # round 1 paired at once
    assert pilot.step(0.1) == "started"
    for m in td.event.current()["pairings"]:
        td.enter_result(1, m["table"], 1, 0)
    pilot.step(100.0)
    assert td.autopilot["next"] == "pair" and td.event.current()["number"] == 1     # held: corrections still open
    td.override(1, td.event.current()["pairings"][0]["table"], 0, 1, reason="score sheet")
    pilot.step(110.0)
    assert td.event.current()["number"] == 2 and not td.event.current()["started"]
    assert pilot.step(110.5) == "holding" and td.autopilot["next"] == "start"
    td.override(1, td.event.round(1)["pairings"][0]["table"], 1, 0, reason="back again")    # still allowed
    assert pilot.step(121.0) == "started" and td.autopilot is None
    manual = Autopilot(td, out=lambda *a: None, pause_s=0, manual=True)
    assert manual.step(200.0) == "running"
    td.record.close()


def test_the_demo_over_says_how_to_stop_and_takes_its_temporary_folder_with_it(tmp_path):
    """Issue 34.8: the event over, the demo said nothing while it kept the TD page up, and a
    temporary event folder (records, broker) stayed behind after Ctrl+C."""
    need_mosquitto()
    port = free_port()
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    p = subprocess.Popen([sys.executable, "-m", "hub.cli", "tournament", "demo", "--no-browser", "--players", "2",
                          "--rounds", "1", "--cut", "0", "--port", str(port), "--hold", "0", "--pace", "0"],
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT, TMPDIR=str(tmp)), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    said = []
    try:
        for line in p.stdout:
            said.append(line)
            if "Ctrl+C" in line:
                break
        assert any("the event is over" in line for line in said), said[-10:]
        assert [d.name for d in tmp.iterdir() if d.name.startswith("lumen-event-")], "the demo's event folder"
        p.send_signal(signal.SIGINT)
        rest, _ = p.communicate(timeout=120)
        assert p.returncode == 0, rest
        assert "the temporary event folder is removed" in rest
        assert not [d.name for d in tmp.iterdir() if d.name.startswith("lumen-event-")]
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
