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
        def state():
            try:
                return json.loads(urllib.request.urlopen("http://127.0.0.1:%d/api/state" % port, timeout=5).read())
            except OSError:
                return None
        st = wait_for(state, 90, "the TD page")
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
        assert "TD page" in out and creds["admin_token"] in out
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
