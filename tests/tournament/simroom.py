"""Simulated tables (real hub tables with bots) driven from one thread, for tests."""

import os
import threading
import time

from hub.tournament.broker import make_url
from hub.tournament.simtable import SimTable


class Driver:
    def __init__(self, broker, creds, tmp, tables, pace=0.01, port=None):
        self.sims = [SimTable(make_url("127.0.0.1", port or broker.port, "table-%d" % n, creds["table-%d" % n]),
                              "cup", n, os.path.join(tmp, "sim-%d" % n), pace=pace) for n in range(1, tables + 1)]
        self.stop_ev = threading.Event()
        self.error = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.paused = set()

    def start(self):
        for s in self.sims:
            s.start()
        self.thread.start()
        return self

    def _run(self):
        due = [0.0] * len(self.sims)
        try:
            while not self.stop_ev.is_set():
                now = time.monotonic()
                for i, s in enumerate(self.sims):
                    if now >= due[i] and s.number not in self.paused:
                        due[i] = now + s.step(now)
                time.sleep(0.002)
        except Exception as e:   # a failing table fails the test that waits on it
            self.error = e
            raise

    def stop(self):
        self.stop_ev.set()
        self.thread.join(10)
        for s in self.sims:
            s.stop()
