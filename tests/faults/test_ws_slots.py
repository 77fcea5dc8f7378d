"""Issue 28.8: eight addresses can't fill every WebSocket slot. With the network's 64 slots
taken (8 addresses x 8), the table's own TV on 127.0.0.1 still connects (its slots are its
own), and a ninth address gets in by taking the newest connection of an address holding
the most (closed with 1013 "make room"), which is then refused if it comes straight back:
no churn. Issue 28.13: a WebSocket opened by a page of another site (its Origin) is refused.
Loopback only: the "addresses" are 127.0.0.2-10."""

import contextlib
import json
import socket

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.broadcast import WS_MAX_CLIENTS, WS_MAX_PER_HOST
from hub.web.server import start_in_thread


_STACK = contextlib.ExitStack()


@pytest.fixture
def server(tmp_path):
    t = Table(Store(str(tmp_path / "g.sqlite3")), admin_token="ws-slots-token")
    t.start_tracker()
    h = start_in_thread(t, tick_interval=None)
    with _STACK:
        yield h
    h.stop()
    t.store.close()


def _open(h, source, origin=None):
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", h.port))
    kw = {"origin": origin} if origin else {}
    ws = _STACK.enter_context(connect("ws://127.0.0.1:%d/ws" % h.port, sock=s, open_timeout=30, **kw))
    first = json.loads(ws.recv(timeout=30))
    assert first["t"] == "state"
    return ws


def _refused(h, source, origin=None):
    try:
        ws = _open(h, source, origin)
    except InvalidStatus as e:
        return e.response.status_code
    ws.close()
    return None


def _closed_code(ws, timeout=30):
    """The close code of a connection the hub closes (waits for the close, or None)."""
    try:
        while True:
            ws.recv(timeout=timeout)
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else None
    except TimeoutError:
        return None


def test_the_tables_tv_and_a_ninth_address_get_in_when_eight_fill_the_slots(server):
    h = server
    held = {}
    try:
        for k in range(WS_MAX_CLIENTS // WS_MAX_PER_HOST):
            src = "127.0.0.%d" % (2 + k)
            held[src] = [_open(h, src) for _ in range(WS_MAX_PER_HOST)]
        assert sum(map(len, held.values())) == WS_MAX_CLIENTS
        assert _refused(h, "127.0.0.2") == 403              # that address holds its 8

        tv = _open(h, "127.0.0.1")                         # the table's own screen
        phone = _open(h, "127.0.0.10")                     # a ninth address
        # exactly one connection made room for it, with 1013, and its address can't come back at once
        closed = []
        for src, conns in held.items():
            ws = conns[-1]
            if _closed_code(ws, timeout=0.5 if closed else 30) == 1013:
                closed.append(src)
                break
        assert len(closed) == 1, closed
        assert _refused(h, closed[0]) == 403
        assert h.app.state.hub.evicted == 1
        tv.close()
        phone.close()
    finally:
        for conns in held.values():
            for ws in conns:
                ws.close()


def test_a_websocket_from_another_sites_page_is_refused(server):
    h = server
    assert _refused(h, "127.0.0.1", origin="http://evil.example") == 403
    assert _refused(h, "127.0.0.1", origin="http://127.0.0.1:%d.evil.example" % h.port) == 403
    assert _refused(h, "127.0.0.1", origin="http://127.0.0.1:%d" % h.port) is None    # the hub's own page
    assert _refused(h, "127.0.0.1") is None                                            # no Origin: not a browser
