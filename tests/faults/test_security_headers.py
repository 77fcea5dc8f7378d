"""Issue 39.8: every response of the hub and of the TD's page says ``X-Content-Type-Options:
nosniff`` and ``Referrer-Policy: no-referrer`` (and, as before, that it may not be framed):
pages, static files, the API, its errors and the refusal of a body past its route's limit."""

import httpx

from hub.web.limits import SECURITY_HEADERS

from tests.faults.test_request_limits import server  # noqa: F401  (the fixture)

WANT = {k.decode(): v.decode() for k, v in SECURITY_HEADERS}


def _has_all(r, what):
    missing = {k: v for k, v in WANT.items() if r.headers.get(k) != v}
    assert not missing, "%s %s lacks %s (has %s)" % (what, r.status_code, missing, dict(r.headers))


def test_every_kind_of_response_of_the_hub_carries_the_security_headers(server):  # noqa: F811
    assert {"x-content-type-options", "referrer-policy", "x-frame-options"} <= set(WANT)
    with httpx.Client(base_url=server.url, timeout=30) as c:
        for path in ("/", "/cards", "/static/app.js", "/static/style.css", "/api/state", "/openapi.json", "/docs",
                     "/api/games", "/no/such/page", "/api/admin/check"):
            _has_all(c.get(path), path)
        _has_all(c.post("/api/control/tracker", json={}), "POST without a token")
        _has_all(c.post("/api/cards/lint", content=b"x" * (300 * 1024), headers={"Content-Type": "application/json"}),
                 "a body past its limit")


def test_the_tds_page_carries_them_too(tmp_path):
    from fastapi.testclient import TestClient

    from hub.tournament.eventdir import new_event
    from hub.tournament.td import TD
    from hub.tournament.web import create_app

    from tests.tournament.conftest import players
    folder = str(tmp_path / "event")
    creds = new_event(folder, "cup", players(4), rounds=2, round_minutes=30, best_of=1, seed=3)
    td = TD(str(tmp_path / "event" / "event.sqlite"), "mqtt://td:x@127.0.0.1:1")
    with TestClient(create_app(td, creds["admin_token"])) as c:
        for path in ("/", "/api/room", "/no/such/page"):
            _has_all(c.get(path), "TD " + path)
        _has_all(c.post("/api/control/pair", json={}), "TD POST without a token")
