"""The listening socket's gate: never more connection sockets than the open-file limit leaves room for.

The front guard (hub/web/guard.py) caps the connections it has *seen*, but a connection
costs a file from the moment asyncio accepts it, and asyncio sees it only later: one
wake-up accepts up to the listen backlog (64) and hands each to a task; the protocol's
``connection_made`` runs an iteration or two after that, and a connection it refuses or
closes to make room gives its file back one more iteration later (``transport.abort()``
closes in a ``call_soon``). While slow clients refill the backlog every wake-up, those
stages pile up: three or four backlogs of accepted-but-not-yet-closed sockets on top of
the guard's cap. On a slow CI machine that ran a 256-file hub out of files (issue 28.1's
fault test: ``socket.accept() out of system resource``).

Here the socket the server listens on counts every socket it accepts until that socket is
closed, and accepts nothing while ``limit`` are open: to asyncio the backlog looks empty
(``BlockingIOError``) and the waiting clients stay in the kernel's queue until a file is
free, which is an iteration or two, because everything past the guard's cap is already on
its way out. Should the gate stay shut for ``STUCK_S`` (it cannot while the guard's cap is
below ``limit``; this is the belt), it says so as a resource error instead: asyncio then
stops polling the socket for a second rather than waking for it in a loop, and the event
loop's quieted error report says why, once a minute.

Needs asyncio's own loop (uvloop accepts in C, past this socket's ``accept``):
hub/web/guard.py's ``server_config`` asks for it.
"""

import _socket
import errno
import socket
import time
from typing import Any, Callable

STUCK_S = 1.0


class GateShut(OSError):
    """Raised by a gated accept that has been refused for STUCK_S: asyncio pauses the socket."""


class AcceptGate:
    """The count of open connection sockets and the limit on it."""

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.open = 0            # accepted and not yet closed
        self.peak = 0
        self.held = 0            # accept calls refused while at the limit
        self.clock = clock
        self._shut_since: float | None = None

    def may_accept(self) -> bool:
        if self.open < self.limit:
            self._shut_since = None
            return True
        self.held += 1
        now = self.clock()
        if self._shut_since is None:
            self._shut_since = now
        elif now - self._shut_since >= STUCK_S:
            self._shut_since = None
            raise GateShut(errno.ENOBUFS, "web: %d connection sockets open, at the gate's limit for %.0f s: "
                                          "accepting paused" % (self.open, STUCK_S))
        return False

    def opened(self) -> None:
        self.open += 1
        if self.open > self.peak:
            self.peak = self.open

    def closed(self) -> None:
        self.open -= 1

    def view(self) -> dict[str, int]:
        return {"sockets": self.open, "max_sockets": self.limit, "peak_sockets": self.peak, "held": self.held}


class _CountedSocket(socket.socket):
    """An accepted connection: gives its place back to the gate when it is closed."""

    __slots__ = ("_gate",)
    _gate: AcceptGate | None

    def _give_back(self) -> None:
        gate, self._gate = getattr(self, "_gate", None), None
        if gate is not None:        # once, however often it is closed
            gate.closed()

    def _real_close(self, _ss: Any = _socket.socket) -> None:
        self._give_back()
        _ss.close(self)

    def detach(self) -> int:
        self._give_back()
        return super().detach()


class GatedListener(socket.socket):
    """A listening socket whose ``accept`` waits at the gate (see the module's note)."""

    __slots__ = ("gate",)
    gate: AcceptGate

    def accept(self) -> tuple[socket.socket, Any]:
        gate = self.gate
        if not gate.may_accept():
            raise BlockingIOError(errno.EAGAIN, "the accept gate is shut: %d sockets open" % gate.open)
        fd, addr = self._accept()  # type: ignore[attr-defined]  # _socket's, as socket.accept calls it
        conn = _CountedSocket(self.family, self.type, self.proto, fileno=fd)
        conn._gate = gate
        gate.opened()
        if socket.getdefaulttimeout() is None and self.gettimeout():
            conn.setblocking(True)
        return conn, addr


def gated(sock: socket.socket, gate: AcceptGate) -> GatedListener:
    """``sock`` (bound, maybe listening) as a GatedListener counting into ``gate``; ``sock``
    itself is detached (closing it is then a no-op)."""
    out = GatedListener(sock.family, sock.type, sock.proto, fileno=sock.detach())
    out.gate = gate
    return out
