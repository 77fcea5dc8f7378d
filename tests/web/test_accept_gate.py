"""Issue 28.1, the CI failure of 2026-12-05: the front guard capped the connections it had
seen, but asyncio accepts a backlog's worth a wake-up and the guard sees them (and gives a
refused one's file back) iterations later. With clients refilling the backlog every
wake-up, accepted-but-not-closed sockets piled up past the open-file limit and a 256-file
hub logged ``Too many open files``. The listening socket now counts every socket it
accepts until it is closed (hub/web/accept_gate.py).

The flood here runs a real asyncio server (uvicorn's h11 protocol behind the guard) and
real loopback clients, one batch of connections every loop iteration, and counts the
server's sockets from /proc/self/fd, not from the gate's own count."""

import asyncio
import errno
import os
import socket

import pytest
import uvicorn
from uvicorn.server import ServerState

from hub.web import accept_gate, guard

BACKLOG = 16


def _fds():
    return len(os.listdir("/proc/self/fd"))


async def _app(scope, receive, send):
    assert scope["type"] == "http"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


def _flood(gate_it, rounds=20, max_open=4, max_sockets=12):
    """Slow clients (connected, never a byte) BACKLOG a loop iteration for ``rounds``
    iterations, then one legitimate GET. Returns (peak server sockets, the GET's status
    line, the guard)."""
    g = guard.ConnectionGuard(max_open=max_open, per_host=max_open, max_sockets=max_sockets)
    config = uvicorn.Config(_app, loop="asyncio", http=guard.protocol_class(g), lifespan="off", log_level="critical")
    config.load()
    state = ServerState()
    clients = []

    async def main():
        loop = asyncio.get_running_loop()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        if gate_it:
            sock = g.listener(sock)
        server = await loop.create_server(lambda: config.http_protocol_class(config=config, server_state=state,
                                                                               app_state={}),
                                          sock=sock, backlog=BACKLOG)
        addr = sock.getsockname()
        base = _fds()           # the listening socket and the loop's own files
        peak = 0
        try:
            for _ in range(rounds):
                for _ in range(BACKLOG):
                    c = socket.socket()
                    c.setblocking(False)
                    c.connect_ex(addr)
                    clients.append(c)
                await asyncio.sleep(0)
                peak = max(peak, _fds() - base - len(clients))
            reader, writer = await asyncio.wait_for(asyncio.open_connection(*addr), 60)
            writer.write(b"GET / HTTP/1.1\r\nHost: hub\r\nConnection: close\r\n\r\n")
            status = await asyncio.wait_for(reader.readline(), 60)
            writer.close()
            return peak, status, g
        finally:
            for c in clients:
                c.close()
            server.close()

    return asyncio.run(main())


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts files in /proc")
def test_a_flood_never_holds_more_sockets_than_the_gate_allows():
    peak, status, g = _flood(gate_it=True)
    assert status.startswith(b"HTTP/1.1 200"), status
    assert peak <= 12, "the server held %d connection sockets, the gate's limit is 12" % peak
    view = g.view()
    assert view["peak_sockets"] <= 12 and view["held"] > 0, view      # it was the gate that held them
    assert view["evicted"] + view["refused"] > 0, view


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts files in /proc")
def test_without_the_gate_the_same_flood_piles_up_past_the_guards_cap():
    """What the gate is for: the guard's caps alone let accepted sockets pile up (they did,
    to the open-file limit, on CI)."""
    peak, status, _ = _flood(gate_it=False)
    assert status.startswith(b"HTTP/1.1 200"), status
    assert peak > 12 + BACKLOG, peak


def test_the_gate_counts_a_socket_from_accept_to_close():
    gate = accept_gate.AcceptGate(2)
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    listener = accept_gate.gated(lsock, gate)
    assert lsock.fileno() == -1            # detached: the gated socket is the one listening
    listener.listen(8)
    clients = [socket.create_connection(listener.getsockname()) for _ in range(3)]
    try:
        a, _ = listener.accept()
        b, _ = listener.accept()
        assert gate.open == 2
        with pytest.raises(BlockingIOError):
            listener.accept()              # the third waits in the kernel's queue
        a.close()
        a.close()                          # a second close gives nothing back twice
        assert gate.open == 1
        c, _ = listener.accept()           # ... until a place is free
        assert gate.open == 2 and gate.peak == 2 and gate.held == 1
        os.close(b.detach())               # detached: the gate forgets it too
        c.close()
        assert gate.open == 0
    finally:
        for s in clients:
            s.close()
        listener.close()


def test_a_gate_shut_for_a_second_pauses_the_socket_as_out_of_resource():
    now = [0.0]
    gate = accept_gate.AcceptGate(1, clock=lambda: now[0])
    gate.opened()
    assert gate.may_accept() is False
    now[0] = accept_gate.STUCK_S
    with pytest.raises(accept_gate.GateShut) as e:
        gate.may_accept()
    # an errno asyncio's accept treats as "out of system resource": it stops polling for a while
    assert e.value.errno == errno.ENOBUFS and "1 connection sockets open" in str(e.value)
    gate.closed()
    assert gate.may_accept() is True


class _Transport:
    def __init__(self, closing=False, buffered=0):
        self.closing, self.buffered, self.aborted = closing, buffered, False

    def is_closing(self):
        return self.closing or self.aborted

    def get_write_buffer_size(self):
        return self.buffered

    def abort(self):
        self.aborted = True


class _Proto:
    def __init__(self, transport):
        self.transport = transport


def test_a_closing_connection_with_unsent_bytes_keeps_its_place_and_can_be_taken():
    """A response to a client that does not read: closing, but its file is open until it is
    sent. It counts (else such sockets pile up past the cap) and a newcomer may take it."""
    g = guard.ConnectionGuard(max_open=2, per_host=2, max_sockets=8)
    stuck, done = _Transport(), _Transport()
    for t in (stuck, done):
        assert g.admit(_Proto(t), t, "10.0.0.1")
        g.state(t, "busy")
    stuck.closing, stuck.buffered = True, 4096
    done.closing = True
    newcomer = _Transport()
    assert g.admit(_Proto(newcomer), newcomer, "10.0.0.2")
    assert not stuck.aborted                        # the finished one was pruned: room without taking
    assert g.view()["states"] == {"closing": 1, "headers": 1}
    last = _Transport()
    g.state(newcomer, "busy")
    assert g.admit(_Proto(last), last, "10.0.0.3")
    assert stuck.aborted                            # the full cap: the unread response made room
