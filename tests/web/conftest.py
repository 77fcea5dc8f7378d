"""Shared fixtures for the web display tests: a table on a fake clock, the FastAPI test
client (lifespan on, no background ticker: tests tick by hand), headers and fresh action ids."""

import json
import uuid
import warnings

import pytest

# starlette's test client warns that it will move off httpx one day; not our concern here
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from hub.sessions.base import FakeClock  # noqa: E402
from hub.record.store import Store  # noqa: E402
from hub.sessions.table import Table  # noqa: E402
from hub.web.app import create_app  # noqa: E402

TOKEN = "test-admin-token"
AUTH = {"Authorization": "Bearer " + TOKEN}


def pytest_configure(config):
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


def aid():
    """A fresh idempotency key."""
    return "t-" + uuid.uuid4().hex


def make_table(**kw):
    return Table(Store(":memory:"), clock=FakeClock(), admin_token=TOKEN, **kw)


@pytest.fixture
def table():
    t = make_table()
    yield t
    t.store.close()


@pytest.fixture
def client(table):
    with TestClient(create_app(table, tick_interval=None)) as c:
        yield c


def on_loop(client, fn, *args, **kw):
    """Run a table call on the app's event loop thread (where the web reads the table)."""
    return client.portal.call(lambda: fn(*args, **kw))


class Mirror:
    """A display client's kept state: the WebSocket's messages applied in order (the
    reference applier, hub/web/display_delta.py), as the page does: a delta that does not
    apply (one was missed) leaves it with no state (``gaps`` counts them) until a whole one."""

    def __init__(self, ws):
        self.ws, self.state, self.last, self.gaps = ws, None, None, 0

    def receive(self):
        """The next display message (clock and delta applied); returns the state after it."""
        from hub.web import display_delta
        self.last = self.ws.receive_json()
        if self.last["t"] in ("state", "delta", "clock"):
            try:
                self.state = display_delta.apply(self.state, self.last)
            except display_delta.Gap:
                self.state = None
                self.gaps += 1
        return self.state


def fingerprint(table):
    """Everything a bad request must leave unchanged: the public state, the record, the token."""
    snap = table.snapshot()
    records = []
    gid = table.session.game_id if table.session else None
    if gid is not None:
        records = [(r.seq, r.kind) for r in table.store.records(gid)]
    games = [(g["id"], g["records"]) for g in table.store.games(100)]
    return json.dumps({"snap": snap, "records": records, "games": games, "token": table.admin_token},
                      sort_keys=True, ensure_ascii=False)
