"""The pods' links thread (``LinkThread``): the pods' serial ports read, stamped and run on
a thread of their own (issue 11.1), so the 10-second rule does not depend on web traffic.

One thread, driven by events: ``select`` on every pod's file descriptor and a wake-up
pipe, with a timeout at the next thing due (a link's heartbeat, resend or dead-link
check, the next ready deadline, the next port rescan); there is no polling tick. When a
pod's bytes arrive the thread reads them and takes the stamp there, on the table's clock,
before anything else can get in the way; it runs the link protocol (acks, resends,
heartbeats) itself, so a busy web server never makes a pod look dead.

What the pods said is handed to the table's own thread (the asyncio loop the table lives
on) as ``(conn, message, link ms, stamp)``: the table is not thread-safe and stays on one
thread. Nothing is lost between the two: bytes are read, stamped and fed under
``feed_lock``, and whoever decides that a deadline expired (the table's tick) first takes,
under the same lock, everything that arrived until that moment (``PodHub.drain``), so a ready
that reached the hub in time is always applied before its deadline's expiry, with the
stamp of its arrival, however late the table's thread gets to it.

Locks, all held only for a few lines, never while the table works: each link has its own
(``HubLink.lock``: this thread runs its timers and feeds it, the table's thread sends on it);
``lock`` guards the connection list; ``feed_lock`` keeps reading, stamping and the inbox in
arrival order (the ports are read without waiting); a connection's ``wlock`` keeps its
writes in order (this thread's and the table's, PodHub.flush). Order: ``feed_lock``, then
a link's.

The seam: the thread asks its owner (``PodHub``, hub/pods/pod_hub.py) only through
:class:`LinkOwner`'s methods, and the owner uses only this class's public methods.
"""

import asyncio
import collections
import logging
import os
import select
import selectors
import threading
import time

from typing import Any, Protocol

from hub.pods.protocol import ProtocolError
from hub.sessions.base import LINK_ALLOWANCE_MS, MonotonicClock

log = logging.getLogger("lumen.pods")

RESCAN_MS = 1000
PROBE_MS = 1000         # a pod that went away without a readable fd is noticed within this
#: with device events (hub/pods/hotplug.py) a tty that went away says so: the probe is a backstop
HOTPLUG_PROBE_MS = 10_000
NEVER = 1 << 62
HOTPLUG = object()      # the poller's data for the device events' socket
IDLE_MS = 5000          # the longest select() with nothing due (the wake pipe interrupts it)


_mono = time.monotonic_ns


def now_ms():
    return _mono() // 1_000_000


class Poller:
    """Which of the watched fds are readable: epoll itself where there is one (Linux: the
    selectors module's wrapper costs a pod frame as much again in Python steps), the
    selectors module elsewhere. ``select`` returns the data each readable fd was
    registered with."""

    def __init__(self) -> None:
        self._data: dict = {}
        self._ep: Any = None
        self._sel: Any = None
        if hasattr(select, "epoll"):
            self._ep = select.epoll()
        else:
            self._sel = selectors.DefaultSelector()

    def register(self, fd, data):
        if self._ep is not None:
            try:
                self._ep.register(fd, select.EPOLLIN)
            except FileExistsError:     # still watched under a duplicate of a closed fd
                self._ep.modify(fd, select.EPOLLIN)
        else:
            self._sel.register(fd, selectors.EVENT_READ, data)
        self._data[fd] = data

    def unregister(self, fd):
        self._data.pop(fd, None)
        if self._ep is not None:
            self._ep.unregister(fd)
        else:
            self._sel.unregister(fd)

    def select(self, timeout):
        if self._ep is not None:
            data = self._data
            return [data.get(fd) for fd, _ in self._ep.poll(timeout)]
        return [key.data for key, _ in self._sel.select(timeout)]

    def close(self):
        (self._ep or self._sel).close()


class LinkOwner(Protocol):
    """What the links' thread needs of its owner (PodHub), all it may call."""

    table: Any              # its clock stamps arrivals (``table.clock.now_ms()``)
    on_settled: Any         # None, or called with a connection that has acked everything

    def connections(self) -> list: ...          # the connections (PodConn), open or closed
    def prune(self) -> None: ...                # forget the closed connections
    def open_serial(self, dev) -> None: ...     # open a pod's serial port
    def scan(self, auto) -> None: ...           # reopen unplugged ports; with auto, look for new pods
    def service(self, conn, t) -> None: ...     # a link's timers and output (acks, resends, heartbeats)
    def drop(self, conn, why) -> None: ...      # close a connection that failed
    def deadlines(self) -> dict: ...            # the running 10-second deadlines (seat -> ms)
    def drain(self) -> object: ...              # on the table's loop: apply what the pods said


class LinkThread:
    def __init__(self, hub: LinkOwner):
        self.hub = hub
        self.lock = threading.RLock()           # the connection list
        self.feed_lock = threading.Lock()       # reading, stamping and feeding, in arrival order
        self.raw: list[tuple] = []          # (conn, bytes, link ms, stamp) read, not yet fed
        self.inbox: collections.deque[tuple] = collections.deque()    # (conn, message, link ms, stamp) for the table's thread
        self.stamped: collections.deque[tuple] = collections.deque(maxlen=1000)   # (board id, message type, arrival stamp)
        self.thread: threading.Thread | None = None
        self.loop: Any = None               # the table's asyncio loop
        self.stopping = False
        self.serial_devices = ()
        self.rescan = False
        self._next_scan = 0
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        # what the pods said is posted to the table's loop by a byte in a pipe it watches
        # (loop.add_reader): a wake-up through call_soon_threadsafe costs a Handle and the
        # loop's own self-pipe read to its end (an exception each time)
        self._post_r, self._post_w = os.pipe()
        os.set_blocking(self._post_r, False)
        os.set_blocking(self._post_w, False)
        self._reader = False                # the loop watches _post_r
        self._sel: Any = None               # the Poller while the thread runs
        self._registered: dict[int, object] = {}    # fd -> conn
        self._live = None                   # the open connections as last registered
        self.changed = True                 # the connection list changed: register again
        self._due = 0                       # the links' earliest timer (monotonic ms) after the last pass
        self._woken = False                 # a wake-up byte is in the pipe, not yet seen
        self._posted = False
        self._expiry_sent = None            # the deadline whose expiry was handed over
        self._next_probe = 0
        self.wakes = 0                      # passes of the thread's loop (for the benches)
        self.dropped = False                # a connection was closed: the list drops it
        self.hotplug = None                 # the device events while the thread looks for pods (None: it scans)
        self._scans_left = 0                # scans still to make for the last device event
        self.scans = 0                      # scans made (for the benches and tests)

    # ------------------------------------------------------------ lifetime
    def start(self, loop, serial_devices=(), rescan=False):
        self.loop = loop
        self.serial_devices = serial_devices
        self.rescan = rescan
        self.stopping = False
        self.changed = True
        self._sel = Poller()
        self._sel.register(self._wake_r, None)
        if rescan:
            from hub.pods.hotplug import open_monitor
            self.hotplug = open_monitor()
            if self.hotplug is not None:
                self._sel.register(self.hotplug.fileno(), HOTPLUG)
                self._next_scan, self._scans_left = 0, 1       # one look at start, then on events only
        self._reader = False
        try:
            if asyncio.get_running_loop() is loop:      # add_reader only from the loop's own thread
                loop.add_reader(self._post_r, self._on_posted)
                self._reader = True
        except (RuntimeError, NotImplementedError):     # no running loop here; a loop without readers
            pass
        self.thread = threading.Thread(target=self._run, name="lumen-pods", daemon=True)
        self.thread.start()

    def stop(self):
        self.stopping = True
        self.wake()
        if self.thread is not None:
            self.thread.join(10)
        self.thread = None
        if self._sel is not None:
            self._sel.close()
            self._sel = None
        if self.hotplug is not None:
            self.hotplug.close()
            self.hotplug = None
        self._registered = {}
        if self._reader:
            self._reader = False
            loop = self.loop
            try:
                if asyncio.get_running_loop() is loop:
                    loop.remove_reader(self._post_r)
            except RuntimeError:        # not on the loop's thread
                if not loop.is_closed():
                    loop.call_soon_threadsafe(loop.remove_reader, self._post_r)

    @property
    def running(self):
        # the thread only ends when stopped (_run goes on after any error)
        return self.thread is not None and not self.stopping

    def connections_changed(self):
        """The connection list changed (a pod added): watch it again at the next pass."""
        self.changed = True
        self.wake()

    def connection_dropped(self):
        """A connection was closed: the list drops it at the next pass (call under ``lock``)."""
        self.dropped = self.changed = True

    def read_now(self, conns):
        """Read, stamp and feed ``conns`` on the caller's thread (PodHub.pump: no links' thread)."""
        with self.feed_lock:
            self.read(conns)

    def wake(self):
        """Make the thread look again now (new output to write, a new port, a new deadline)."""
        if self._woken:
            return      # the thread has not looked yet: it will see this too
        self._woken = True
        try:
            os.write(self._wake_w, b"!")
        except (BlockingIOError, OSError):
            pass        # a wake-up is already pending

    # ------------------------------------------------------------ the thread
    def _run(self):
        hub = self.hub
        with self.lock:
            auto = self.serial_devices is None
            from hub.pods.ports import find_pod_ports
            for dev in (find_pod_ports() if auto else self.serial_devices):
                hub.open_serial(dev)
        while not self.stopping:
            try:
                self._once(auto)
            except Exception:          # a bug here must not stop the links: say so, go on
                log.exception("pod links")
                time.sleep(0.05)

    def _once(self, auto):
        self.wakes += 1
        hub = self.hub
        live = self._live
        if live is None or self.changed:
            with self.lock:
                self.changed = False
                live = [c for c in hub.connections() if not c.closed]
                self._register(live)
        readable = []
        woken = False
        hotplug = False
        for c in self._sel.select(self._timeout(live)):
            if c is None:
                woken = True
            elif c is HOTPLUG:
                hotplug = True
            else:
                readable.append(c)
        if hotplug and self.hotplug is not None and self.hotplug.drain():
            # a tty came or went: look now, and once more when its node has its permissions
            self._next_scan, self._scans_left, self._next_probe = 0, 2, 0
        if woken:                       # the wake-up pipe
            self._woken = False         # before the output is looked at below: no wake-up is lost
            try:
                os.read(self._wake_r, 4096)     # a byte or two: wake() writes one until seen
            except (BlockingIOError, OSError):
                pass
        t = _mono() // 1_000_000
        if t >= self._next_probe or not (woken or readable or hotplug):
            # woken by a timer: also read the others, so a pod that went away (its process
            # ended, its USB port vanished) is noticed even though its fd never became readable
            self._next_probe = t + (HOTPLUG_PROBE_MS if self.hotplug is not None else PROBE_MS)
            self.changed = True         # and register again what changed its fd meanwhile
            readable = live
        deadlines = hub.deadlines()
        feed_lock = self.feed_lock
        feed_lock.acquire()         # by hand: a with statement binds __enter__ and __exit__ each time
        try:
            # read and stamp first
            if readable:
                self.read(readable)
            if self.raw:
                self.feed()
            if deadlines and self._deadline_due(deadlines):
                self.inbox.append((None, "expire", now_ms(), hub.table.clock.now_ms()))
            post = not self._posted and bool(self.inbox)
            if post:
                self._posted = True
        finally:
            feed_lock.release()
        if post:
            self._post()
            t = _mono() // 1_000_000
        # the links' timers: what is due now is done, and the earliest next one kept for the
        # next select (whoever sends on a link meanwhile wakes this thread or writes itself:
        # PodHub.flush; a link's heartbeat and dead-link timers only move later then)
        due = t + IDLE_MS
        for c in live:
            d = c.link.next_due()
            if d is not None:
                if d <= t and not c.closed:     # output, an ack, a timer
                    hub.service(c, t)
                    d = c.link.next_due()
                    if d is None:
                        continue
                if d < due:
                    due = d
        self._due = due
        if self.rescan and t >= self._next_scan:
            with self.lock:
                if self.hotplug is None:
                    self._next_scan = t + RESCAN_MS
                else:           # device events: no look without one (the second look of an event aside)
                    self._scans_left -= 1
                    self._next_scan = t + RESCAN_MS if self._scans_left > 0 else NEVER
                self.scans += 1
                hub.scan(auto)
        if self.dropped:
            with self.lock:
                self.dropped = False
                hub.prune()
                self.changed = True

    def read(self, conns):
        """Read what arrived and stamp it now (under ``feed_lock``, or on the only thread
        there is: PodHub.pump)."""
        clock = self.hub.table.clock
        same = type(clock) is MonotonicClock        # the table's clock is this one: one reading
        raw = self.raw
        for c in conns:
            if c.closed:
                continue
            try:
                data = c.port.read()
            except Exception as e:     # pyserial raises SerialException (an OSError subclass or not)
                raw.append((c, e, now_ms(), None))
                continue
            if data:
                t = _mono() // 1_000_000
                raw.append((c, data, t, t if same else clock.now_ms()))

    def feed(self):
        """Run the link protocol over what was read (under ``feed_lock``): application
        messages go to the inbox with their stamps."""
        raw, self.raw = self.raw, []
        hub = self.hub
        for c, data, t, stamp in raw:
            if stamp is None:           # data is the exception the read raised
                hub.drop(c, data)
                continue
            link = c.link
            acked = link.all_acked
            try:
                msgs = link.feed(data, t)
            except ProtocolError as e:
                log.warning("bad data from %s: %s", c.name, e)
                continue
            if msgs:
                for m in msgs:
                    self.inbox.append((c, m, t, stamp))
                    self.stamped.append((c.board_id, m.type, stamp))
            if link.all_acked != acked and hub.on_settled is not None:
                hub.on_settled(c)

    def take(self):
        """Everything that arrived until now, for the table's thread: (items, now)."""
        feed_lock = self.feed_lock
        feed_lock.acquire()
        try:
            if self.raw:
                self.feed()
            now = self.hub.table.clock.now_ms()     # anything stamped before is fed: same lock
            items = list(self.inbox)
            self.inbox.clear()
            self._posted = False
        finally:
            feed_lock.release()
        return items, now

    def _post(self):
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if self._reader:
            try:
                os.write(self._post_w, b"!")    # once until the table's thread takes (_posted)
            except (BlockingIOError, OSError):
                pass        # a byte is still there: the loop drains anyway
            return
        try:
            loop.call_soon_threadsafe(self.hub.drain)
        except RuntimeError:        # the loop closed meanwhile
            pass

    def _on_posted(self):
        """On the table's loop: the links' thread posted what the pods said."""
        try:
            os.read(self._post_r, 4096)
        except (BlockingIOError, OSError):
            pass
        self.hub.drain()

    # ------------------------------------------------------------ what is due
    def _register(self, conns):
        """Watch the fds of ``conns`` (the open connections), and only theirs."""
        self._live = conns
        live = {}
        for c in conns:
            try:
                fd = c.port.fileno()
            except (OSError, ValueError):
                continue
            live[fd] = c
        for fd in list(self._registered):
            if fd not in live or self._registered[fd] is not live[fd]:
                try:
                    self._sel.unregister(fd)
                except (KeyError, ValueError, OSError):
                    pass
                del self._registered[fd]
        for fd, c in live.items():
            if fd not in self._registered:
                try:
                    self._sel.register(fd, c)
                    self._registered[fd] = c
                except (ValueError, OSError):
                    pass

    def _timeout(self, live):
        """Seconds until the next thing due: the links' timers as the last pass left them
        (``_due``), the next rescan and probe, the next ready deadline."""
        t = now_ms()
        due = self._due
        if self.rescan and self._next_scan < due:
            due = self._next_scan
        if live and self._next_probe < due:
            due = self._next_probe
        deadlines = self.hub.deadlines()
        if deadlines:
            left = self._ms_to_deadline(deadlines)
            if left is not None and t + left < due:
                due = t + left
        return 0.0 if due <= t else (due - t) / 1000

    def _ms_to_deadline(self, running):
        """ms until the earliest running ready deadline (plus the link allowance) has passed;
        None if none runs or its expiry was already handed to the table's thread."""
        try:
            deadlines = list(running.values())
        except RuntimeError:       # changed size while the table's thread updates it: look again soon
            return 5
        if not deadlines or min(deadlines) == self._expiry_sent:
            return None
        return max(0, min(deadlines) + LINK_ALLOWANCE_MS + 1 - self.hub.table.clock.now_ms())

    def _deadline_due(self, running):
        if not running or self._ms_to_deadline(running) != 0:
            return False
        try:
            self._expiry_sent = min(running.values())
        except (RuntimeError, ValueError):
            return False
        return True
