"""The web server's front guard (issue 28.1): slow clients can't take the hub off the network.

uvicorn holds a connection for as long as its client takes to send the request's headers,
and accepts as many as the open-file limit allows: 1,100 connections trickling their
headers once shut every legitimate request out and filled the log with "Too many open
files". Here every connection passes :class:`ConnectionGuard`:

* **caps**: at most ``max_open`` connections in all (below the process's open-file limit,
  with room left for the record, the pods' ports and the static files) and ``per_host``
  from one address;
* **at a cap the newcomer takes the place of the oldest connection still waiting for its
  client** (headers or body not yet in, or a response the client does not read), which is
  closed; a connection the app is working on, or a WebSocket (limited on its own:
  hub/web/broadcast.py), is never taken. Only when nobody is waiting is the newcomer
  refused (closed at once). A legitimate request sends its headers in milliseconds, so it
  is never the one waiting longest; a slow client only ever holds a place until someone needs it;
* **deadlines**: the request headers within ``header_s`` of the connection (or of the last
  response, on a kept-alive connection), the body within ``body_s`` of the headers; an idle
  kept-alive connection is closed after uvicorn's ``timeout_keep_alive``;
* **the listening socket accepts only while files are left** (hub/web/accept_gate.py): the
  caps above count connections once the protocol sees them, which is an iteration or more
  after asyncio accepted them, and a closed one gives its file back an iteration later
  still; the gate counts every accepted socket until it is closed and holds the rest in
  the kernel's queue at ``files - FILES_KEPT``;
* a connection that is closing but still has a response to send to a client that does not
  read it keeps its place (``closing``, waiting for its client) until it is gone;
* the open-file limit is raised to its hard limit at start (systemd's default soft limit is
  1024), and errors the event loop reports (``socket.accept() out of system resource``) are
  logged once per kind per minute, with a count of those left out (:func:`quiet_loop_errors`).

``server_config`` builds the uvicorn configuration both the hub (hub/web/server.py) and the
TD's page (hub/tournament/web.py) serve with.
"""

import asyncio
import logging
import resource
import time

import h11

from hub.web.accept_gate import AcceptGate, gated
from hub.web.uvicorn_lean import Config, H11Protocol

log = logging.getLogger("lumen.web")

HEADER_S = 10.0            # the request line and headers, from the connection (or the last response)
BODY_S = 60.0              # the body, from the headers (an 8 MB card set from a phone on slow Wi-Fi)
PER_HOST = 32              # open connections from one address (a browser opens ~6, plus a WebSocket)
MAX_OPEN = 512             # in all, at most (see limits(): never past the open-file limit)
FILES_KEPT = 96            # open files kept for everything else (record, WAL, pods, static files, mDNS)
#: connections the event loop accepts in one go, before the guard sees any of them (asyncio
#: accepts up to the listen backlog a wake-up): the caps leave this many files free too
BACKLOG = 64
LOG_EVERY_S = 60.0


def raise_file_limit():
    """Raise the soft open-file limit to the hard one; returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft


def limits(files=None):
    """(max_open, per_host) for an open-file limit of ``files`` (default: this process's)."""
    if files is None:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    max_open = max(8, min(MAX_OPEN, files - FILES_KEPT - BACKLOG))
    return max_open, max(2, min(PER_HOST, max_open // 4))


def socket_limit(max_open, files=None):
    """The accept gate's limit: open connection sockets (seen by the guard or not) for an
    open-file limit of ``files`` (default: this process's); never below ``max_open`` plus a backlog."""
    if files is None:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return max(max_open + BACKLOG, files - FILES_KEPT)


class _Conn:
    __slots__ = ("proto", "host", "since", "state")

    def __init__(self, proto, host, since):
        self.proto, self.host, self.since = proto, host, since
        self.state = "headers"        # headers | body | busy | stalled | ws | closing


#: waiting for the client: may be closed for a newcomer
WAITING = ("headers", "body", "stalled", "closing")


class ConnectionGuard:
    def __init__(self, max_open=None, per_host=None, header_s=HEADER_S, body_s=BODY_S, clock=time.monotonic,
                 max_sockets=None):
        m, p = limits()
        self.max_open = max_open or m
        self.per_host = per_host or p
        self.gate = AcceptGate(max_sockets or socket_limit(self.max_open))
        self.header_s, self.body_s = header_s, body_s
        self.clock = clock
        self.conns = {}             # transport -> _Conn, oldest first
        self.stats = {"accepted": 0, "refused": 0, "evicted": 0, "timed_out": 0}
        self._said = {}

    # -- who gets in
    def admit(self, proto, transport, host):
        """Count the connection in, making room if a cap is reached; False: close it."""
        self._prune()
        same = [c for c in self.conns.values() if c.host == host]
        if len(same) >= self.per_host and not self._evict(same, "from %s" % host):
            return self._refuse(host, "%d connections from %s" % (len(same), host))
        if len(self.conns) >= self.max_open and not self._evict(list(self.conns.values()), "in all"):
            return self._refuse(host, "%d connections in all" % len(self.conns))
        self.conns[transport] = _Conn(proto, host, self.clock())
        self.stats["accepted"] += 1
        return True

    def listener(self, sock):
        """``sock``, the bound socket the server will listen on, behind this guard's accept gate."""
        return gated(sock, self.gate)

    def _prune(self):
        """Closing connections out of the count, except one still sending to a client that does
        not read (its file stays open until it is gone: ``closing``, so a newcomer may take it)."""
        for t, c in list(self.conns.items()):
            if not t.is_closing():
                continue
            if c.state != "ws" and t.get_write_buffer_size() > 0:
                c.state = "closing"
            else:
                del self.conns[t]

    def _evict(self, among, why):
        for c in among:              # dicts keep insertion order: the oldest first
            if c.state in WAITING:
                self.stats["evicted"] += 1
                self._say("evict", "web: a connection from %s still waiting for its client was closed to make "
                                   "room (%s)", c.host, why)
                self.forget(c.proto.transport)
                c.proto.transport.abort()
                return True
        return False

    def _refuse(self, host, why):
        self.stats["refused"] += 1
        self._say("refuse", "web: a connection from %s was refused (%s busy)", host, why)
        return False

    def _say(self, kind, fmt, *args):
        """Log a kind of event at most once per LOG_EVERY_S, with how many were left out."""
        now = self.clock()
        last, skipped = self._said.get(kind, (None, 0))
        if last is not None and now - last < LOG_EVERY_S:
            self._said[kind] = (last, skipped + 1)
            return
        self._said[kind] = (now, 0)
        log.warning(fmt + ("" if not skipped else " (and %d more like it)" % skipped), *args)

    def forget(self, transport):
        self.conns.pop(transport, None)

    def state(self, transport, state):
        c = self.conns.get(transport)
        if c is not None:
            c.state = state

    def timed_out(self, host, what):
        self.stats["timed_out"] += 1
        self._say("timeout", "web: a connection from %s was closed: %s", host, what)

    def view(self):
        self._prune()
        by = {}
        for c in self.conns.values():
            by[c.state] = by.get(c.state, 0) + 1
        return dict(self.stats, open=len(self.conns), states=by, max_open=self.max_open, per_host=self.per_host,
                    **self.gate.view())


def protocol_class(guard):
    """uvicorn's h11 protocol with ``guard`` in front of every connection."""

    class GuardedH11Protocol(H11Protocol):
        _timer = None
        _state = None

        def connection_made(self, transport):
            super().connection_made(transport)
            host = self.client[0] if self.client else "?"
            if not guard.admit(self, transport, host):
                transport.abort()
                return
            self._set("headers", guard.header_s)

        def _set(self, state, deadline=None):
            if state == self._state and deadline is not None and self._timer is not None:
                return               # the same phase: its deadline stands
            self._state = state
            guard.state(self.transport, state)
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if deadline is not None:
                self._timer = self.loop.call_later(deadline, self._too_slow, state)

        def _too_slow(self, state):
            self._timer = None
            if self._state == state and not self.transport.is_closing():
                what = "its request headers took over %.0f s" % guard.header_s if state == "headers" else \
                    "its request body took over %.0f s" % guard.body_s
                guard.timed_out(self.client[0] if self.client else "?", what)
                guard.forget(self.transport)
                self.transport.abort()

        def data_received(self, data):
            super().data_received(data)
            if self.transport.is_closing():
                return
            if self.transport.get_protocol() is not self:       # upgraded to a WebSocket
                self._set("ws")
                return
            theirs = self.conn.their_state
            if theirs is h11.IDLE:
                self._set("headers", guard.header_s)
            elif theirs is h11.SEND_BODY:
                self._set("body", guard.body_s)
            else:
                self._set("busy")

        def on_response_complete(self):
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._set("headers", guard.header_s)     # the next request on a kept-alive connection

        def pause_writing(self):
            super().pause_writing()
            if self._state == "busy":
                self._set("stalled")        # a client that does not read what it asked for

        def resume_writing(self):
            super().resume_writing()
            if self._state == "stalled":
                self._set("busy")

        def connection_lost(self, exc):
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            guard.forget(self.transport)
            super().connection_lost(exc)

    return GuardedH11Protocol


def server_config(app, host, port, log_level="warning", guard=None, **kw):
    """The uvicorn Config both web servers use (see the module's note); ``guard`` (a
    ConnectionGuard) is made from this process's open-file limit unless given."""
    raise_file_limit()
    guard = guard or ConnectionGuard()
    app.state.guard = guard
    # loop "asyncio": the accept gate is a socket's accept, which uvloop would not call
    config = Config(app, host=host, port=port, log_level=log_level, http=protocol_class(guard), ws="auto",
                    loop="asyncio",
                    timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024,
                    ws_max_size=64 * 1024, ws_per_message_deflate=False, backlog=BACKLOG, **kw)
    quiet_client_faults()        # after the Config: it sets up uvicorn's loggers
    return config


#: what uvicorn logs when a client sends something wrong: the client's fault, not the hub's, so
#: a line (no traceback), once a minute at most, with how many were left out
CLIENT_FAULTS = ("Invalid UTF-8 sequence received from client.", "Invalid HTTP request received.")


class QuietClientFaults(logging.Filter):
    def __init__(self, every_s=LOG_EVERY_S, clock=time.monotonic):
        super().__init__()
        self.every_s, self.clock = every_s, clock
        self.said = {}

    def filter(self, record):
        msg = record.msg if isinstance(record.msg, str) else None
        if msg not in CLIENT_FAULTS:
            return True
        now = self.clock()
        last, skipped = self.said.get(msg, (None, 0))
        if last is not None and now - last < self.every_s:
            self.said[msg] = (last, skipped + 1)
            return False
        self.said[msg] = (now, 0)
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        if skipped:
            record.msg = "%s (and %d more like it)" % (msg, skipped)
        return True


def quiet_client_faults():
    """Put the filter on uvicorn's error logger (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietClientFaults) for f in logger.filters):
        logger.addFilter(QuietClientFaults())


def quiet_loop_errors(loop, every_s=LOG_EVERY_S, clock=time.monotonic):
    """The event loop's error reports (an accept that failed, a callback that raised) logged
    once per kind of error per ``every_s``, with a count of those left out: never a log that
    grows by a traceback a connection."""
    said = {}
    default = loop.get_exception_handler()

    def handler(loop, context):
        exc = context.get("exception")
        kind = (context.get("message"), type(exc).__name__ if exc else None)
        now = clock()
        last, skipped = said.get(kind, (None, 0))
        if last is not None and now - last < every_s:
            said[kind] = (last, skipped + 1)
            return
        said[kind] = (now, 0)
        if len(said) > 256:
            said.clear()
        context = dict(context)
        if skipped:
            context["message"] = "%s (and %d more like it)" % (context.get("message"), skipped)
        if default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
    return handler


def install_loop_quieting():
    """For a lifespan: quiet the running loop's error reports (see quiet_loop_errors)."""
    quiet_loop_errors(asyncio.get_running_loop())
