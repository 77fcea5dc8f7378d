"""Issue 28.13: a table's broker password is not on the hub's command line (``ps`` shows a
process's arguments to every user of the machine): it comes from a file or the environment."""

import os
import subprocess
import sys

from hub.tournament.broker import free_port, make_url
from hub.tournament.td import TD

from tests.faults.procs import ROOT
from tests.tournament.conftest import broker, event_dir, wait_for  # noqa: F401  (fixtures)
from tests.tournament.test_hub_join import call


def test_the_broker_password_is_not_on_the_hubs_command_line(broker, event_dir, tmp_path):  # noqa: F811
    """Issue 28.13: the table's password comes from a file (or the environment), so ``ps``
    (which every user of the machine may run) never shows it; the hub joins all the same."""
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    td.pair_next()
    secret = tmp_path / "table-1.password"
    secret.write_text(creds["table-1"] + "\n")
    secret.chmod(0o600)
    port = free_port()
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("LUMEN_BROKER_PASSWORD", None)
    p = subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--broker", make_url("127.0.0.1", broker.port, "table-1"),
                          "--broker-password-file", str(secret), "--event", "cup", "--table", "1",
                          "--db", str(tmp_path / "hub" / "g.sqlite3"), "--port", str(port), "--no-mdns",
                          "--token", "hub-token-12345", "--mode", "tracker"],
                         cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: (call(port, "/api/tournament") or {}).get("connected"), 90, "the hub to join with the file's password")
        with open("/proc/%d/cmdline" % p.pid, "rb") as f:
            cmdline = f.read()
        assert creds["table-1"].encode() not in cmdline
        wait_for(lambda: td.tables.get(1, {}).get("online") is True, 60, "the TD to see table 1")
    finally:
        p.kill()
        p.wait(30)
        td.stop()
