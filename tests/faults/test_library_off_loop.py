"""Issue 28.10: the card library never blocks the hub's loop. A 356-byte YAML alias bomb
(9 levels of 9 aliases: 4 x 10^8 nodes expanded) is refused at once, naming what it is,
where it once froze the display 26.6 s and ended in a 500 MemoryError; a card set's import
and the public export run on the library's own thread, so the table's state is served
while they work (the test holds the library's work until the state has been served:
ordering, not timing); exports are made once per version of the set; a spectator repeating
them queues at most a few (then 503 ``busy``)."""

import threading

import httpx
import pytest

from engine.cards import cardyaml
from hub.library.sets import CardLibrary
from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.server import start_in_thread

from tests.faults.podtable import wait

TOKEN = "library-token"
AUTH = {"Authorization": "Bearer " + TOKEN}
QUEUE = 8       # library jobs that may wait (hub/web/routers/cards.py LibraryWork.MAX_WAITING)
BOMB = "set: {id: bomb, name: b}\ncharacters: []\nx: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    "%s: &%s [%s]\n" % (n, n, ",".join(["*" + p] * 9)) for p, n in zip("abcdefgh", "bcdefghi")) + "cards: *i\n"


class HeldLibrary(CardLibrary):
    """The real library, whose imports and exports wait (on the library's thread) until the
    test lets them go: what a slow Pi does to a big set, made an ordering the test controls."""

    def __init__(self, root):
        super().__init__(root)
        self.entered = threading.Event()
        self.go = threading.Event()
        self.threads = set()

    def _held(self):
        self.threads.add(threading.get_ident())
        self.entered.set()
        assert self.go.wait(120), "the test never let the library's work go"

    def import_set(self, text, set_id=None):
        self._held()
        return super().import_set(text, set_id)

    def export_set(self, set_id):
        self._held()
        return super().export_set(set_id)


def _set_text(n=120):
    raw = CardLibrary("/nonexistent").raw("sample")
    cards = []
    while len(cards) < n:
        for c in raw["cards"]:
            d = dict(c, id="%s-%04d" % (c["id"], len(cards)), name="%s %d" % (c["name"], len(cards)))
            d.pop("number", None)
            cards.append(d)
            if len(cards) >= n:
                break
    return cardyaml.dump_set(dict(raw, set={"id": "big", "name": "큰 세트"}, cards=cards))


@pytest.fixture
def hub(tmp_path):
    lib = HeldLibrary(str(tmp_path / "cards"))
    t = Table(Store(str(tmp_path / "g.sqlite3")), admin_token=TOKEN)
    t.start_tracker()
    h = start_in_thread(t, tick_interval=None, library=lib)
    yield h, lib
    lib.go.set()
    h.stop()
    t.store.close()


def test_an_alias_bomb_is_refused_at_once(hub):
    h, lib = hub
    lib.go.set()
    with httpx.Client(base_url=h.url, timeout=60) as c:
        r = c.post("/api/control/cards/import", headers=AUTH, json={"action_id": "bomb-00001", "text": BOMB})
        assert r.status_code == 422, r.text
        assert "alias" in r.json()["detail"], r.json()
        assert c.get("/api/state").status_code == 200
        assert c.get("/api/cards/sets").json()["sets"][0]["id"] == "sample"     # nothing was added


def test_the_table_is_served_while_the_library_works(hub):
    h, lib = hub
    text = _set_text()
    done = {}

    def importer():
        with httpx.Client(base_url=h.url, timeout=120) as c:
            done["import"] = c.post("/api/control/cards/import", headers=AUTH,
                                    json={"action_id": "import-00001", "text": text})
    worker = threading.Thread(target=importer)
    worker.start()
    assert lib.entered.wait(60), "the import reached the library"
    with httpx.Client(base_url=h.url, timeout=30) as c:
        r = c.get("/api/state")              # answered while the import is held: the loop is free
        assert r.status_code == 200
        assert "import" not in done
    lib.go.set()
    worker.join(120)
    assert done["import"].status_code == 200, done["import"].text
    assert h.call(threading.get_ident) not in lib.threads, "the library's work ran on the loop"

    # exports: made once per version of the set, off the loop; a spectator can queue only a few
    lib.go.clear()
    lib.entered.clear()
    codes = []

    def export():
        with httpx.Client(base_url=h.url, timeout=120) as c:
            codes.append(c.get("/api/cards/sets/big/export").status_code)
    spectators = [threading.Thread(target=export) for _ in range(14)]
    for s in spectators:
        s.start()
    assert lib.entered.wait(60)
    with httpx.Client(base_url=h.url, timeout=30) as c:
        assert c.get("/api/state").status_code == 200
    wait(lambda: len(codes) >= 14 - QUEUE, "those past the queue to be answered")
    assert set(codes) == {503}, codes
    lib.go.set()
    for s in spectators:
        s.join(120)
    assert codes.count(503) == 14 - QUEUE and codes.count(200) == QUEUE, codes
    with httpx.Client(base_url=h.url, timeout=60) as c:
        first = c.get("/api/cards/sets/big/export").text
        assert c.get("/api/cards/sets/big/export").text == first
    assert sum(1 for k in lib._cache if k[0] == "export") == 1
