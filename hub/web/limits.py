"""Per-request limits of the web apps (issue 28.7, 28.13), shared by the hub's app and the
TD's page.

* **Request bodies** are limited per route, and refused (413 ``too_large``) before they are
  read: a ``Content-Length`` past the route's limit is answered at once, a chunked body is
  counted as it arrives and cut off at the limit. Six 100 MB POSTs once took a hub from
  67 MB to 1.33 GB; a Pi Zero 2 W has 512 MB.
* **Framing and the rest** (``SECURITY_HEADERS``): every response says ``X-Frame-Options:
  DENY`` and ``Content-Security-Policy: frame-ancestors 'none'``: no page of ours can be
  framed by another site (the admin page keeps its token in the browser);
  ``X-Content-Type-Options: nosniff``: a browser takes a response for what its type says
  (a card's text served as JSON is never run as a script); ``Referrer-Policy: no-referrer``:
  a link followed from a page tells the next site nothing of the hub's address (issue 39).
* **Wrong tokens**: each address may guess the admin token ``WRONG_TOKEN_BURST`` times, then
  once per ``WRONG_TOKEN_EVERY_S`` (429 ``too_many_attempts`` with ``Retry-After``, the
  token not even compared meanwhile). A right token costs nothing.
* **WebSocket Origin**: a browser names the page that opens a WebSocket; one opened by a page
  of another site (``Origin`` not this server's ``Host``) is refused (:func:`origin_ok`).
"""

import re
import secrets
import time
from urllib.parse import urlsplit


KB, MB = 1024, 1024 * 1024
DEFAULT_BODY = 64 * KB
#: (method, path pattern, limit in bytes), the first that matches wins
BODY_LIMITS = [
    ("POST", re.compile(r"^/api/control/cards/(import|sets/[^/]+/csv)$"), 8 * MB),   # a whole card set, a sheet
    ("POST", re.compile(r"^/api/control/cards/"), 256 * KB),                         # a card, a character, a deck
    ("POST", re.compile(r"^/api/cards/"), 256 * KB),                                 # lint, try, deck status (public)
]

WRONG_TOKEN_BURST = 10
WRONG_TOKEN_EVERY_S = 2.0

FRAME_HEADERS = [(b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'")]
SECURITY_HEADERS = FRAME_HEADERS + [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]


def body_limit(method, path):
    for m, pattern, limit in BODY_LIMITS:
        if m == method and pattern.match(path):
            return limit
    return DEFAULT_BODY


class RequestLimits:
    """ASGI middleware: body limits and framing headers (see the module's note). ``refuse``:
    fn(status, error, detail) -> an ASGI response, in the app's error shape."""

    def __init__(self, app, refuse, stats=None):
        self.app = app
        self.refuse = refuse
        #: refusals, and the most body bytes taken in of a request before its refusal
        self.stats = stats if stats is not None else {}
        self.stats.update(refused=0, read_at_refusal=0)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = body_limit(scope["method"], scope["path"])

        refused = [False]

        async def framed(message):
            if refused[0]:
                return              # the 413 went out already: what the app says after it is dropped
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + SECURITY_HEADERS)
            await send(message)

        length = None
        for k, v in scope.get("headers", ()):
            if k == b"content-length":
                try:
                    length = int(v)
                except ValueError:
                    return await self.refuse(400, "bad_request", "Content-Length is not a number")(scope, receive, framed)
        if length is not None and length > limit:
            self.stats["refused"] += 1
            return await self.refuse(413, "too_large", "the request body is %d bytes; this route takes %d at most"
                                     % (length, limit))(scope, receive, framed)
        seen = [0]

        async def counted():
            if refused[0]:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen[0] += len(message.get("body", b""))
                if seen[0] > limit:
                    # answer now, while the app is still reading (no response started), and tell
                    # the app the client is gone: it stops reading, and what it answers is dropped
                    self.stats["refused"] += 1
                    self.stats["read_at_refusal"] = max(self.stats["read_at_refusal"], seen[0])
                    await self.refuse(413, "too_large", "the request body is over %d bytes, this route's limit"
                                      % limit)(scope, receive, framed)
                    refused[0] = True
                    return {"type": "http.disconnect"}
            return message
        return await self.app(scope, counted, framed)


class WrongTokens:
    """The wrong-token allowance of each address (a token bucket), and the whole check of an
    ``Authorization: Bearer`` header (:meth:`refusal`)."""

    def __init__(self, burst=WRONG_TOKEN_BURST, every_s=WRONG_TOKEN_EVERY_S, clock=time.monotonic):
        self.burst, self.every_s, self.clock = burst, every_s, clock
        self.buckets = {}          # address -> (allowance, when)

    def _now(self, host):
        now = self.clock()
        left, at = self.buckets.get(host, (self.burst, now))
        return min(self.burst, left + (now - at) / self.every_s), now

    def wait_s(self, host):
        """0 if ``host`` may try a token now, else the seconds until it may."""
        left, _ = self._now(host)
        return 0 if left >= 1 else (1 - left) * self.every_s

    def refusal(self, request, token, refuse, readonly):
        """None if ``request`` carries the admin ``token``, else the error response (401 no
        or a malformed header, 429 past the allowance, 403 a wrong token: ``readonly`` says
        who may do what without it)."""
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        if not header:
            return refuse(401, "unauthorized", "this is a control action: send Authorization: Bearer <admin token>")
        if scheme.lower() != "bearer" or not given.strip():
            return refuse(401, "unauthorized", "the Authorization header must be: Bearer <admin token>")
        host = request.client.host if request.client else "?"
        wait = self.wait_s(host)
        if wait:             # issue 28.13: a guess is not even compared until the allowance is back
            resp = refuse(429, "too_many_attempts", "too many wrong admin tokens from %s: try again in %d s"
                          % (host, int(wait) + 1))
            resp.headers["Retry-After"] = str(int(wait) + 1)
            return resp
        if not secrets.compare_digest(given.strip().encode(), token.encode()):
            self.wrong(host)
            return refuse(403, "forbidden", "wrong admin token: " + readonly)
        return None

    def wrong(self, host):
        left, now = self._now(host)
        self.buckets[host] = (max(0.0, left - 1), now)
        if len(self.buckets) > 4096:          # forget the addresses that have their full allowance back
            self.buckets = {h: v for h, v in self.buckets.items() if self._now(h)[0] < self.burst}


def origin_ok(headers):
    """Whether a WebSocket's ``Origin`` (if any: a browser sends one, other clients need not)
    is this server's own ``Host``."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = (headers.get("host") or "").lower()
    try:
        u = urlsplit(origin)
    except ValueError:
        return False
    if u.scheme not in ("http", "https") or not u.netloc:
        return False
    default = {"http": 80, "https": 443}[u.scheme]
    return _hostport(u.netloc.lower(), default) == _hostport(host, default)


def _hostport(netloc, default):
    host, sep, port = netloc.rpartition(":")
    if not sep or "]" in port:
        return netloc, default
    try:
        return host, int(port)
    except ValueError:
        return netloc, default
