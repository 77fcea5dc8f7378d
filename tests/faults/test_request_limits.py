"""Issue 28.7: request bodies are limited per route and refused before they are read (six
concurrent 100 MB POSTs to the public lint route once took a hub to 1.33 GB). Issue 28.13:
no page of the hub can be framed by another site; wrong admin tokens are rate-limited per
address; an invalid UTF-8 WebSocket frame closes that connection (1007) with one log line,
no traceback. Loopback only, raw sockets: what a hostile client sends, byte for byte."""

import base64
import logging
import os
import select
import socket
import threading

import httpx
import pytest

from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.server import start_in_thread

TOKEN = "request-limits-token"
MB = 1024 * 1024
#: the limits the hub promises (hub/web/limits.py, docs/display.md)
LIMITS = {"/api/cards/lint": 256 * 1024, "/api/control/tracker": 64 * 1024, "/api/control/cards/import": 8 * MB}
WRONG_TOKEN_BURST = 10


@pytest.fixture
def server(tmp_path):
    t = Table(Store(str(tmp_path / "g.sqlite3")), admin_token=TOKEN)
    t.start_tracker()
    h = start_in_thread(t, tick_interval=None)
    yield h
    h.stop()
    t.store.close()


def _conn(h, source="127.0.0.1"):
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(30)       # a bound for a broken hub, never a measure
    s.connect(("127.0.0.1", h.port))
    return s


def _status(s):
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            return None
        head += chunk
    return int(head.split(b" ", 2)[1])


def test_a_huge_content_length_is_refused_before_a_byte_of_body(server):
    h = server
    results = []

    def one():
        s = _conn(h)
        try:
            s.sendall(b"POST /api/cards/lint HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n" % (100 * MB))
            results.append(_status(s))          # answered with no body sent at all
        except OSError as e:
            results.append(e)
        finally:
            s.close()
    threads = [threading.Thread(target=one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == [413] * 6, results
    assert h.app.state.body_limits["refused"] == 6


@pytest.mark.parametrize("path", ["/api/cards/lint", "/api/control/tracker", "/api/control/cards/import"])
def test_a_chunked_body_is_cut_off_at_the_routes_limit(server, path):
    """No Content-Length: the body is counted as it arrives; the answer is 413 once it passes
    the route's limit, however much more the client would send."""
    h = server
    limit = LIMITS[path]
    s = _conn(h)
    auth = b"Authorization: Bearer %s\r\n" % TOKEN.encode()
    s.sendall(b"POST %s HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n%s"
              b"Transfer-Encoding: chunked\r\n\r\n" % (path.encode(), auth))
    chunk = b"[" + b" " * (64 * 1024 - 2) + b"["
    sent, status = 0, None
    try:
        while sent < limit + 4 * MB:
            readable, _, _ = select.select([s], [], [], 0)
            if readable:
                break              # the hub answered (or closed): stop sending
            try:
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:
                break              # the hub closed the connection after its answer
            sent += len(chunk)
        status = _status(s)
    finally:
        s.close()
    assert status == 413, (status, sent)
    read = h.app.state.body_limits["read_at_refusal"]
    assert limit < read <= limit + 512 * 1024, "the hub took in %d bytes of a body limited to %d" % (read, limit)


def test_pages_cannot_be_framed_and_wrong_tokens_are_rate_limited(server):
    h = server
    with httpx.Client(base_url=h.url, timeout=30) as c:
        for path in ("/", "/cards", "/api/state", "/static/admin.js"):
            r = c.get(path)
            assert r.headers.get("x-frame-options") == "DENY", path
            assert "frame-ancestors 'none'" in r.headers.get("content-security-policy", ""), path
    guesser = httpx.Client(base_url=h.url, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.3"))
    judge = httpx.Client(base_url=h.url, timeout=30)
    try:
        codes = [guesser.get("/api/admin/check", headers={"Authorization": "Bearer guess-%04d" % n}).status_code
                 for n in range(3 * WRONG_TOKEN_BURST)]
        assert codes[:WRONG_TOKEN_BURST] == [403] * WRONG_TOKEN_BURST, codes
        assert set(codes[WRONG_TOKEN_BURST + 1:]) == {429}, codes
        r = guesser.get("/api/admin/check", headers={"Authorization": "Bearer " + TOKEN})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1, "the right token is not even compared"
        assert r.json()["error"] == "too_many_attempts" and r.json()["message"]["ko"]
        r = judge.get("/api/admin/check", headers={"Authorization": "Bearer " + TOKEN})
        assert r.status_code == 200, "the judge's own address is not locked out by another's guesses"
    finally:
        guesser.close()
        judge.close()


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)


def test_an_invalid_utf8_frame_closes_one_connection_and_logs_one_line(server):
    h = server
    seen = _Records()
    logging.getLogger("uvicorn.error").addHandler(seen)
    try:
        codes = []
        for n in range(20):
            s = _conn(h, "127.0.0.%d" % (20 + n))
            key = base64.b64encode(os.urandom(16))
            s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (h.port, key))
            data = b""
            while b"\r\n\r\n" not in data:
                data += s.recv(4096)
            assert data.startswith(b"HTTP/1.1 101")
            mask = os.urandom(4)
            payload = b"\xff\xfe ping"
            s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            while True:          # to the close frame: its code is in its first two payload bytes
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                at = data.rfind(b"\x88\x02")
                if at >= 0 and len(data) >= at + 4:
                    codes.append(int.from_bytes(data[at + 2:at + 4], "big"))
                    break
            s.close()
    finally:
        logging.getLogger("uvicorn.error").removeHandler(seen)
    assert codes == [1007] * 20, codes
    utf8 = [r for r in seen.records if "UTF-8" in r.getMessage()]
    assert len(utf8) <= 1 and not any(r.exc_info for r in utf8), [(r.getMessage(), r.exc_info) for r in utf8]
