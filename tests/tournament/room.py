"""A room for tests: the real broker, a TD and N table links (in this process or the TD
as its own process), with helpers to play a round."""

import os
import subprocess
import sys

from hub.tournament.broker import make_url
from hub.tournament.tablelink import TableLink
from hub.tournament.td import TD
from tests.tournament.conftest import wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Room:
    def __init__(self, broker, folder, creds, tmp, tables=4, via=None, mono=None):
        self.broker, self.folder, self.creds, self.tmp = broker, folder, creds, tmp
        self.rec_path = os.path.join(folder, "event.sqlite")
        self.td = None
        self.proc = None
        self.links = {}
        via = via or {}
        for n in range(1, tables + 1):
            port = via.get(n, broker.port)
            url = make_url("127.0.0.1", port, "table-%d" % n, creds["table-%d" % n])
            kw = {"mono": mono(n)} if mono else {}
            self.links[n] = TableLink(url, "cup", n, os.path.join(tmp, "hub-%d" % n, "outbox.sqlite"),
                                      resend_s=0.5, **kw)

    def start_td(self):
        self.td = TD(self.rec_path, self.broker.url("td")).start()
        assert self.td.link.wait_connected(30)
        return self.td

    def stop_td(self):
        if self.td:
            self.td.stop()
            self.td = None

    def spawn_td(self):
        """The TD as a process (to kill -9)."""
        env = dict(os.environ, PYTHONPATH=ROOT)
        self.proc = subprocess.Popen([sys.executable, "-m", "hub.tournament", "run", "--dir", self.folder,
                                      "--no-web", "--broker", "mqtt://127.0.0.1:%d" % self.broker.port],
                                     cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return self.proc

    def kill_td(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)
        self.proc = None

    def start_tables(self):
        for link in self.links.values():
            link.start()
        for link in self.links.values():
            assert link.link.wait_connected(30)

    def wait_round_started(self, round_no):
        for link in self.links.values():
            wait_for(lambda: link.match and link.match["round"] == round_no and link.match["started"], 60,
                     "table %d to see round %d start" % (link.table, round_no))

    def report_all(self, tables=None, score=(1, 0, 0)):
        out = {}
        for n in tables or self.links:
            link = self.links[n]
            link.new_slip(*score, detail={"health": {"a": 1200, "b": 0}})
            link.confirm("a")
            out[n] = link.confirm("b")
        return out

    def wait_all_acked(self, timeout=90):
        for link in self.links.values():
            wait_for(lambda: not link.pending(), timeout, "table %d's results acknowledged" % link.table)

    def close(self):
        for link in self.links.values():
            try:
                link.stop()
            except Exception:
                pass
        self.stop_td()
        self.kill_td()


def results_in_record(rec_path):
    from hub.tournament.record import EventRecord
    rec = EventRecord(rec_path)
    try:
        return [r["body"] for r in rec.records(("result",))]
    finally:
        rec.close()
