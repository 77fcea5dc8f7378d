"""The bot's thinking process: the search runs in its own process, off the table's loop.

The search is CPU-bound Python: on the table's thread it would hold the GIL for the whole
decision (up to ~1 s of a Pi Zero 2 W core at the strong level), and the table's loop, the
10-second rule's ticks and the pods' frames would wait behind it. A :class:`ThinkWorker`
owns one child process (``spawn``: nothing of the hub's state or threads is inherited, and
the process is niced below the hub) fed jobs over a pipe (hub/bot/think.py says what a job
holds: the seat's view as JSON text, the card table once, a seed and a budget). ``submit``
returns a ``concurrent.futures.Future``; a reader thread completes it when the answer comes
back.

Supervised (issue 39): ``submit`` only queues the job, and a writer thread of the process's
own sends it (a 2 MB job to a stopped process blocked its caller, the table's thread, for
more than 10 s); each job has a deadline (``job_s``), and a job past it gets the process
killed and its futures failed (``WorkerGone``), so the next job starts a fresh one: a hung
process (the coach's was never restarted: it showed nothing for the rest of the game) or a
killed one costs one answer, never the rest of the game. ``restart`` kills it at once (the
bot's late ready: nothing may wait behind it).
"""

import hashlib
import itertools
import json
import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from concurrent.futures import Future

log = logging.getLogger("lumen.bot")

#: a job's deadline, seconds from its submit or from its process's start being done (spawn and
#: the engine's imports, whichever is later): the strong search takes ~1 s of a Pi Zero 2 W core
JOB_S = 15.0
#: how long a process may take to start (a Pi Zero 2 W on a cold SD card: several seconds)
START_S = 90.0


class WorkerGone(Exception):
    """The thinking process ended (or was restarted) before it answered this job."""


def _serve(conn, niceness):
    """The child process: answer jobs until the pipe closes."""
    # the hub's stop is its own to make: systemd's SIGINT to the whole unit (KillSignal=) printed
    # a KeyboardInterrupt traceback from here into the journal at every stop (issue 39)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(niceness)
    except (OSError, AttributeError):
        pass
    from hub.bot import think
    try:
        conn.send({"ready": True})      # its imports done: job deadlines run from now (see ThinkWorker)
    except (BrokenPipeError, OSError):
        return
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
    never starts it). Thread-safe: ``submit`` from any thread; it never blocks on the process."""

    def __init__(self, niceness=5, name="lumen-think", job_s=JOB_S):
        self.niceness = niceness
        self.name = name
        self.job_s = job_s
        self._lock = threading.Condition()      # the process, its jobs; the watchdog waits on it
        self._proc = None
        self._conn = None
        self._outbox = None             # the current process's jobs to send (its writer thread's queue)
        self._futures = {}              # job id -> (future, job, card table JSON, due: monotonic s)
        self._ids = itertools.count(1)
        self._held = set()              # card-table keys the current process holds
        self._watchdog = None
        self._closed = False
        self._started_at = self._ready_at = None    # the current process's start, and when it was ready
        self.started = 0                # processes started (restarts included)
        self.jobs = 0
        self.overdue = 0                # processes killed for a job past its deadline

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
        self._outbox = queue.SimpleQueue()
        self._started_at, self._ready_at = time.monotonic(), None
        self.started += 1
        threading.Thread(target=self._read, args=(parent,), name=self.name + "-reader", daemon=True).start()
        threading.Thread(target=self._write, args=(parent, self._outbox), name=self.name + "-writer",
                         daemon=True).start()
        if self._watchdog is None:
            self._watchdog = threading.Thread(target=self._watch, name=self.name + "-watchdog", daemon=True)
            self._watchdog.start()

    def submit(self, job, cards, deadline_s=None):
        """Queue ``job`` (a dict, see hub/bot/think.py; its ``id`` and ``cards`` are filled in
        here) with ``cards`` = ``card_table(...)``. Returns a Future of the job's result, failed
        with WorkerGone if the process ends, or is killed for going past the job's deadline
        (``deadline_s``, default ``job_s``), before it answers."""
        fut = Future()
        key, data = cards
        with self._lock:
            if self._proc is None or not self._proc.is_alive():
                self._stop_locked()
                self._start()
            job = dict(job, id=next(self._ids), cards={"key": key, "json": None if key in self._held else data})
            self._futures[job["id"]] = (fut, job, data, (time.monotonic(), self.job_s if deadline_s is None else deadline_s))
            self._held.add(key)
            self.jobs += 1
            self._outbox.put(job)       # sent by the writer thread: never on the caller's
            self._lock.notify_all()     # the watchdog: a new deadline
        return fut

    def _write(self, conn, outbox):
        """The process's writer thread: sends its jobs in order until the process goes."""
        while True:
            job = outbox.get()
            if job is None:
                return
            try:
                conn.send(job)
            # the process went (killed, restarted); TypeError: its pipe was closed under the send
            except (BrokenPipeError, OSError, ValueError, TypeError):
                with self._lock:
                    if self._conn is conn:
                        self._stop_locked("the thinking process can't be written to")
                return

    def _read(self, conn):
        while True:
            try:
                res = conn.recv()
            except (EOFError, OSError):
                break
            with self._lock:
                if res.get("ready") and self._conn is conn:
                    self._ready_at = time.monotonic()
                    self._lock.notify_all()
                    continue
                entry = self._futures.pop(res.get("id"), None)
                if entry is not None and not res.get("ok") and res.get("missing") and self._conn is conn:
                    # the process lost the card table (it cannot: one process, one cache; but a
                    # job is never lost to it): send the job again with the table
                    fut, job, data, due = entry
                    job = dict(job, cards={"key": job["cards"]["key"], "json": data})
                    self._futures[job["id"]] = (fut, job, data, due)
                    self._outbox.put(job)
                    continue
            if entry is not None and not entry[0].done():
                entry[0].set_result(res)
        with self._lock:
            if self._conn is conn:
                self._stop_locked("the thinking process ended")

    def _watch(self):
        """The watchdog: a job past its deadline gets the process killed (its jobs failed);
        the next job starts another."""
        with self._lock:
            while not self._closed:
                if not self._futures:
                    self._lock.wait()
                    continue
                if self._ready_at is None:          # still starting: its start has a deadline of its own
                    due, what = self._started_at + START_S, "its start"
                else:
                    due = min(max(at, self._ready_at) + s for _, _, _, (at, s) in self._futures.values())
                    what = "a job's deadline"
                left = due - time.monotonic()
                if left > 0:
                    self._lock.wait(left)
                    continue
                self.overdue += 1
                log.warning("%s: the thinking process went past %s: it is restarted", self.name, what)
                self._stop_locked("the thinking process took too long (past %s): restarted" % what)

    def _fail_locked(self, why):
        futures, self._futures = self._futures, {}
        for fut, _, _, _ in futures.values():
            if not fut.done():
                fut.set_exception(WorkerGone(why))

    def _stop_locked(self, why="the thinking process was restarted"):
        proc, conn, outbox = self._proc, self._conn, self._outbox
        self._proc = self._conn = self._outbox = None
        if proc is not None and proc.is_alive():
            proc.kill()                 # first: a writer blocked on a full pipe then fails at once
            proc.join(5)
        if outbox is not None:
            outbox.put(None)
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass
        self._fail_locked(why)
        self._lock.notify_all()

    def restart(self):
        """Kill the process (a job nobody waits for any more must not delay the next one); the
        next job starts a fresh one."""
        with self._lock:
            self._stop_locked()

    def close(self):
        with self._lock:
            self._closed = True
            outbox, proc = self._outbox, self._proc
            if outbox is not None:
                outbox.put(None)        # the writer ends; the process ends when the pipe closes
            self._stop_locked("the hub is stopping")
            if proc is not None:
                proc.join(2)
