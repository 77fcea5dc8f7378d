"""The card editor's routes are declared at their first request (hub/web/lazy_routes.py, issue 36:
the hub's start). Before then nothing of them is imported, yet every one of their paths reaches
them on the first try, their errors keep the API's shape, and the API document lists them."""

import json
import re
import subprocess
import sys
import threading

import pytest
from fastapi.testclient import TestClient

from hub.library.sets import CardLibrary
from hub.web import lazy_routes
from hub.web.app import create_app
from tests.web.conftest import AUTH, aid, make_table

ROOT = __file__.rsplit("/tests/", 1)[0]


@pytest.fixture
def lib(tmp_path):
    return CardLibrary(str(tmp_path / "cards"))


@pytest.fixture
def fresh(lib):
    """A new app and its cards stand-in, nothing of the editor declared yet."""
    table = make_table()
    app = create_app(table, tick_interval=None, library=lib)
    (lazy,) = app.state.lazy_routes
    assert not lazy.declared
    with TestClient(app) as c:
        c.lazy = lazy
        yield c
    table.store.close()


def test_a_new_hub_imports_neither_the_editor_nor_yaml():
    """In a fresh interpreter, as ``lumen hub`` starts a table's app: the editor's router, the card
    library and PyYAML stay unimported (hub/profiles/parsed.py keeps the bundled profiles parsed)."""
    code = ("import sys\n"
            "from hub.record.store import Store\n"
            "from hub.sessions.table import Table\n"
            "from hub.web.app import create_app\n"
            "t = Table(Store(':memory:'))\n"
            "t.start('tracker', None, None, auto=True)\n"
            "create_app(t, tick_interval=None)\n"
            "print(json.dumps({m: m in sys.modules for m in ('hub.web.routers.cards', 'hub.library.sets', 'yaml')}))\n")
    out = subprocess.run([sys.executable, "-c", "import json\n" + code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"hub.web.routers.cards": False, "hub.library.sets": False,
                                                             "yaml": False}


def test_every_editor_route_is_one_the_stand_in_serves(lib):
    """Each path the cards router declares (its parameters filled in) is one the stand-in answers
    for: no route of the editor is out of reach before the first request."""
    from hub.web.common import Controls
    from hub.web.routers import cards
    table = make_table()
    app = create_app(table, tick_interval=None, library=lib)
    (lazy,) = app.state.lazy_routes
    router = cards.router(Controls(table, app.state.hub, None), lib)
    paths = [re.sub(r"\{[^}]+\}", "x1", r.path) for r in router.routes]
    assert len(paths) > 20
    assert [p for p in paths if not lazy.serves(p)] == []
    assert not lazy.serves("/api/state") and not lazy.serves("/api/cardsx") and not lazy.serves("/card")
    table.store.close()


def test_the_first_request_declares_the_editor_and_is_answered(fresh):
    r = fresh.get("/api/cards/sets")
    assert r.status_code == 200 and [s["id"] for s in r.json()["sets"]] == ["sample"]
    assert fresh.lazy.declared
    assert fresh.get("/cards").headers["content-type"].startswith("text/html")
    assert fresh.get("/api/cards/sets").json() == r.json()       # served by the declared routes now


def test_a_library_error_keeps_the_api_shape_on_the_first_request(fresh):
    """The library's error handler is the app's from the start (a handler added once the app runs
    would never be called: Starlette copies them when it builds its middleware)."""
    r = fresh.get("/api/cards/sets/nope")
    assert r.status_code == 404
    body = r.json()
    assert body["error"] == "not_found" and body["message"]["ko"] and body["message"]["en"]


def test_a_control_path_of_the_editor_still_needs_the_token_and_declares_nothing_without_it(fresh):
    r = fresh.post("/api/control/cards/sets", json={"action_id": aid(), "id": "club", "name": "동호회"})
    assert r.status_code == 401
    assert not fresh.lazy.declared          # refused before routing: a spectator's probe builds nothing
    r = fresh.post("/api/control/cards/sets", json={"action_id": aid(), "id": "club", "name": "동호회", "name_en": "Club"},
                   headers=AUTH)
    assert r.status_code == 200, r.text
    assert fresh.lazy.declared


def test_the_api_document_lists_the_editor_before_any_of_its_requests(fresh):
    spec = fresh.get("/openapi.json").json()
    assert "/api/cards/sets" in spec["paths"] and "/api/control/cards/sets/{set_id}/cards" in spec["paths"]
    assert fresh.lazy.declared


def test_an_unknown_path_under_the_editor_is_a_plain_404(fresh):
    r = fresh.get("/api/cards/no-such-thing/at-all")
    assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_the_part_is_declared_once_however_many_ask_at_once():
    calls = []
    gate = threading.Event()

    class App:
        openapi = staticmethod(lambda: {})

        class state:
            pass

        class router:
            routes = []

    def declare():
        gate.wait(5)
        calls.append(1)

    lazy = lazy_routes.add(App, "part", declare, prefixes=("/p/",))
    threads = [threading.Thread(target=lazy.declare) for _ in range(4)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert calls == [1] and lazy.declared
    assert App.router.routes == [lazy]
