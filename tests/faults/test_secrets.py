"""Issue 39.3 and 39.8: secrets stay secret. The admin token was written to the log at every
start (under the unit: the journal, readable by the adm and systemd-journal groups, while
the token file is 0600), the TD's too; a record made by ``lumen hub`` run by hand was 0644
(its hidden rows hold the hands and the locked readies).

The whole log of a hub's run as the unit runs it (output to the journal: not a terminal)
is searched for the token, the one it is changed to and the admin page's address with it;
the files the run made are private; at a terminal the person there is shown the token."""

import os
import pty
import select
import signal
import stat
import subprocess
import sys
import threading

import httpx

from hub.tournament.broker import free_port

from tests.faults.procs import ROOT, wait_listening

AUTH = "Authorization"


def _hub(tmp_path, port, **kw):
    env = dict(os.environ, PYTHONUNBUFFERED="1", JOURNAL_STREAM="8:12345")     # what systemd sets: journal lines
    env.pop("LUMEN_ADMIN_TOKEN", None)
    return subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--db", str(tmp_path / "g.sqlite3"), "--mode", "referee",
                             "--port", str(port), "--serial", str(tmp_path / "no-pod"), "--no-mdns",
                             "--cards", str(tmp_path / "cards")], cwd=ROOT, env=env, umask=0o022, **kw)


def test_no_line_of_a_hubs_whole_log_holds_its_admin_token_and_its_files_are_private(tmp_path):
    port = free_port()
    hub = _hub(tmp_path, port, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = []
    reader = threading.Thread(target=lambda: out.extend(hub.stdout), daemon=True)
    reader.start()
    try:
        wait_listening(port)
        token_file = tmp_path / "g.table-1.token"
        token = token_file.read_text().strip()
        url = "http://127.0.0.1:%d" % port
        assert httpx.get(url + "/api/admin/check", headers={AUTH: "Bearer " + token}).status_code == 200
        assert httpx.get(url + "/api/admin/check", headers={AUTH: "Bearer wrong-token-123"}).status_code == 403
        new = "a-new-token-made-by-the-judge"
        r = httpx.post(url + "/api/control/token", json={"action_id": "token-change-0001", "new_token": new},
                       headers={AUTH: "Bearer " + token})
        assert r.status_code == 200, r.text
        assert httpx.get(url + "/api/admin/check", headers={AUTH: "Bearer " + new}).status_code == 200
        assert httpx.get(url + "/api/state").status_code == 200
    finally:
        hub.send_signal(signal.SIGINT)          # the unit's KillSignal: whatever a clean stop says is logged too
        hub.wait(60)
        reader.join(30)
    log = "".join(out)
    assert "table display" in log and str(token_file) in log, log
    for secret in (token, new):
        assert secret not in log, "the admin token %r is in the hub's log:\n%s" % (secret, log)
    assert "#admin=" + token not in log
    # the files the run made: 0600 whatever the umask (022 here): the record, its WAL, the token
    for name in os.listdir(tmp_path):
        path = tmp_path / name
        if name.startswith("g.") and path.is_file() and not name.endswith(".lock"):
            mode = stat.S_IMODE(path.stat().st_mode)
            assert mode & 0o077 == 0, "%s is %o" % (name, mode)


def test_at_a_terminal_the_person_there_is_shown_the_token(tmp_path):
    """A person who started the hub by hand at a terminal still sees the token and the admin
    page's address with it (written to the terminal, not to the log)."""
    port = free_port()
    master, slave = pty.openpty()
    hub = _hub(tmp_path, port, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    seen = b""
    try:
        wait_listening(port)
        token = (tmp_path / "g.table-1.token").read_text().strip()
        while token.encode() not in seen:
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, "the terminal was not shown the token: %r" % seen
            seen += os.read(master, 65536)
        assert ("#admin=" + token).encode() in seen
    finally:
        hub.kill()
        hub.wait(30)
        os.close(master)


def test_the_tds_log_holds_no_admin_token(tmp_path):
    """The TD printed its admin token at start (``lumen tournament run``): now the file it is
    kept in (credentials.json, 0600)."""
    from argparse import Namespace

    from hub.tournament.cli import run_td
    from hub.tournament.eventdir import new_event

    from tests.tournament.conftest import need_mosquitto, players
    need_mosquitto()
    folder = str(tmp_path / "event")
    creds = new_event(folder, "cup", players(4), rounds=2, round_minutes=30, best_of=1, seed=3)
    assert stat.S_IMODE(os.stat(os.path.join(folder, "credentials.json")).st_mode) == 0o600
    lines, stop = [], threading.Event()
    args = Namespace(dir=folder, broker=None, broker_port=free_port(), broker_host="127.0.0.1", host="127.0.0.1",
                     port=free_port(), no_web=False)
    before = signal.getsignal(signal.SIGTERM)
    try:
        # the TD as `lumen tournament run` runs it, stopped as soon as it serves (it sets SIGTERM's handler)
        assert run_td(args, lines.append, lambda *_: stop.set(), stop) == 0
    finally:
        signal.signal(signal.SIGTERM, before)
    text = "\n".join(lines)
    assert "credentials.json" in text and creds["admin_token"] not in text, text
