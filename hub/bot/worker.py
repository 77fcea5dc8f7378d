"""The bot's thinking process: the search runs in its own process, off the table's loop.

The search is CPU-bound Python: on the table's thread it would hold the GIL for the whole
decision (up to ~1 s of a Pi Zero 2 W core at the strong level), and the table's loop, the
10-second rule's ticks and the pods' frames would wait behind it. A :class:`ThinkWorker`
owns one child process (``spawn``: nothing of the hub's state or threads is inherited, and
the process is niced below the hub) fed jobs over a pipe (hub/bot/think.py says what a job
holds: the seat's view as JSON text, the card table once, a seed and a budget). ``submit``
returns a ``concurrent.futures.Future``; a reader thread completes it when the answer comes
back. A job the hub no longer waits for (its deadline came first) is left to finish or the
process is restarted (``restart``): the table never waits on the process.
"""

import hashlib
import itertools
import json
import logging
import multiprocessing
import os
import threading
from concurrent.futures import Future

log = logging.getLogger("lumen.bot")


class WorkerGone(Exception):
    """The thinking process ended (or was restarted) before it answered this job."""


def _serve(conn, niceness):
    """The child process: answer jobs until the pipe closes."""
    try:
        os.nice(niceness)
    except (OSError, AttributeError):
        pass
    from hub.bot import think
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            conn.send(think.run(job))
        except (BrokenPipeError, OSError):
            return


def card_table(cards):
    """(key, JSON) of a game's card table (``{id: Card}``), the form a job carries."""
    data = [c.to_json() for c in cards.values()]
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24], data


class ThinkWorker:
    """One thinking process, started when the first job comes (a hub that never seats a bot
    never starts it). Thread-safe: ``submit`` from any thread."""

    def __init__(self, niceness=5, name="lumen-think"):
        self.niceness = niceness
        self.name = name
        self._lock = threading.Lock()
        self._proc = None
        self._conn = None
        self._futures = {}
        self._ids = itertools.count(1)
        self._held = set()              # card-table keys the current process holds
        self.started = 0                # processes started (restarts included)
        self.jobs = 0

    @property
    def pid(self):
        p = self._proc
        return p.pid if p is not None else None

    def busy(self):
        return bool(self._futures)

    def _start(self):
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(child, self.niceness), name=self.name, daemon=True)
        proc.start()
        child.close()
        self._proc, self._conn, self._held = proc, parent, set()
        self.started += 1
        threading.Thread(target=self._read, args=(parent,), name=self.name + "-reader", daemon=True).start()

    def submit(self, job, cards):
        """Send ``job`` (a dict, see hub/bot/think.py; its ``id`` and ``cards`` are filled in
        here) with ``cards`` = ``card_table(...)``. Returns a Future of the job's result."""
        fut = Future()
        key, data = cards
        with self._lock:
            if self._proc is None or not self._proc.is_alive():
                self._stop_locked()
                self._start()
            job = dict(job, id=next(self._ids), cards={"key": key, "json": None if key in self._held else data})
            self._futures[job["id"]] = (fut, job, data)
            self._held.add(key)
            self.jobs += 1
            try:
                self._conn.send(job)
            except (BrokenPipeError, OSError) as e:
                self._futures.pop(job["id"], None)
                self._stop_locked()
                fut.set_exception(WorkerGone(str(e)))
        return fut

    def _read(self, conn):
        while True:
            try:
                res = conn.recv()
            except (EOFError, OSError):
                break
            with self._lock:
                entry = self._futures.pop(res.get("id"), None)
                if entry is not None and not res.get("ok") and res.get("missing"):
                    # the process lost the card table (it cannot: one process, one cache; but a
                    # job is never lost to it): send the job again with the table
                    fut, job, data = entry
                    job = dict(job, cards={"key": job["cards"]["key"], "json": data})
                    self._futures[job["id"]] = (fut, job, data)
                    try:
                        conn.send(job)
                        continue
                    except (BrokenPipeError, OSError):
                        self._futures.pop(job["id"], None)
            if entry is not None and not entry[0].done():
                entry[0].set_result(res)
        with self._lock:
            if self._conn is conn:
                self._fail_locked("the thinking process ended")
                self._proc = self._conn = None

    def _fail_locked(self, why):
        futures, self._futures = self._futures, {}
        for fut, _, _ in futures.values():
            if not fut.done():
                fut.set_exception(WorkerGone(why))

    def _stop_locked(self):
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        self._fail_locked("the thinking process was restarted")
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass
        if proc is not None and proc.is_alive():
            proc.kill()
            proc.join(5)

    def restart(self):
        """Kill the process (a job nobody waits for any more must not delay the next one); the
        next job starts a fresh one."""
        with self._lock:
            self._stop_locked()

    def close(self):
        with self._lock:
            conn, proc = self._conn, self._proc
            if conn is not None:
                try:
                    conn.send(None)
                except (BrokenPipeError, OSError):
                    pass
            self._stop_locked()
            if proc is not None:
                proc.join(2)
