"""Issue 39: the hub always comes up. Every way the outside review damaged a record (and a
few more: 36) -> a referee hub (table-1, whose game is a referee game) and a tracker hub
(table-2, a tracker game) each started on it as ``lumen hub --resume`` both serve (the
display answers ``/api/state``), never with a traceback, and nothing readable is thrown
away: every game ``lumen doctor --salvage`` reads out of the damaged file is in the record
the hub goes on with (or the thing in the record's place is kept aside whole).

The damage: truncations, bytes no longer UTF-8 in a text cell of each table, the root page
of each index lost, the b-tree and the header garbled, triggers dropped, tables renamed or
dropped, a column renamed, a schema from a newer version, a directory or a FIFO in the
record's place, a read-only file, a garbage WAL. Defects pinned: a card-table byte no longer
UTF-8 (the hub exited with ``Could not decode to UTF-8``), ``records`` renamed or dropped
(a traceback at start), and the others that exited or crash-looped before.

The records are built once (module fixture) and each hub is the user's command line run in a
process forked from one that imported the hub once (tests/faults/hubfork.py); the two hubs
of a variant run at once."""

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time

import httpx
import pytest

from hub.record import doctor
from hub.record.store import Store
from hub.sessions.table import Table

from tests.faults.hubfork import HubForks
from tests.faults.procs import ROOT, alive
from tests.faults.referee_play import play

PAGE = 4096
BOARD = "e66038b7133c7a2e"
HUBS = {"referee": "table-1", "tracker": "table-2"}
#: the lines that end a start: the whole-file check's verdict once the display serves
CHECKED = ("the record's check: sound", "on the salvaged record", "can't go on after the salvage")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """table-1: referee game 1 finished, game 2 in play (its table); table-2: tracker game 3 in
    play (opened by the hub itself, then played); a pod seat, a spent action id, a registered
    deck, the card table and a copy of it: a row in every table of the record."""
    folder = tmp_path_factory.mktemp("pristine")
    db = str(folder / "g.sqlite3")
    store = Store(db)
    t1 = Table(store, name="table-1")
    t1.start_referee(seed=1)
    play(t1, 1)
    t1.start_referee(seed=2)
    n = [0]

    def six(_s):
        n[0] += 1
        return n[0] > 6
    play(t1, 2, stop=six)
    t2 = Table(store, name="table-2")
    t2.start_tracker(auto=True)
    t2.submit(None, "action", {"action": "adjust_health", "seat": "a", "delta": -300}, source="display")
    store.remember_seat("table-1", BOARD, "a")
    store.spend_action(("table-1", "action-0001-matrix"))
    store.register_seat_deck("table-1", "a", {"set": "sample", "deck": "serin"})
    digest = store.records(2)[0].body["card_table"]
    body = store.db.execute("SELECT body FROM card_tables WHERE hash = ?", (digest,)).fetchone()[0]
    store.db.execute("INSERT INTO card_table_copies (hash, seq, body, created_ms) VALUES (?, 0, ?, 0)", (digest, body))
    store.close()          # the WAL checkpointed into the file
    con = sqlite3.connect(db)
    roots = {name: page for name, page in con.execute("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0")}
    con.close()
    return db, roots


# ------------------------------------------------------------ the damage

def _bytes(path):
    return bytearray(open(path, "rb").read())


def _put(path, data):
    with open(path, "wb") as f:
        f.write(bytes(data))


def not_utf8(table, needle, at=2):
    """A byte of ``needle`` (text stored in ``table``'s root page) made 0xFF: no longer UTF-8."""
    def damage(path, roots):
        data = _bytes(path)
        base = (roots[table] - 1) * PAGE
        i = data.find(needle, base, base + PAGE)
        assert i >= 0, "%r is in %s's root page" % (needle, table)
        data[i + at] = 0xFF
        _put(path, data)
    return damage


def text_anywhere(needle, at=2):
    def damage(path, roots):
        data = _bytes(path)
        i = data.find(needle)
        assert i >= 0, needle
        data[i + at] = 0xFF
        _put(path, data)
    return damage


def root_lost(name, garble=False):
    """The root page of a table or an index zeroed (a lost write) or garbled (a torn one)."""
    def damage(path, roots):
        data = _bytes(path)
        base = (roots[name] - 1) * PAGE
        data[base:base + PAGE] = os.urandom(PAGE) if garble else bytes(PAGE)
        _put(path, data)
    return damage


def header(offset, value):
    def damage(path, roots):
        data = _bytes(path)
        data[offset] = value
        _put(path, data)
    return damage


def truncated(size):
    def damage(path, roots):
        n = size(os.path.getsize(path))
        with open(path, "r+b") as f:
            f.truncate(n)
    return damage


def sql(*statements):
    def damage(path, roots):
        con = sqlite3.connect(path, isolation_level=None)
        for s in statements:
            con.execute(s)
        con.close()
    return damage


def directory(path, roots):
    os.unlink(path)
    os.mkdir(path)
    open(os.path.join(path, "something"), "w").close()


def fifo(path, roots):
    os.unlink(path)
    os.mkfifo(path)


def read_only(path, roots):
    os.chmod(path, 0o444)


def garbage_wal(path, roots):
    with open(path + "-wal", "wb") as f:
        f.write(os.urandom(3 * PAGE))


VARIANTS = {
    # truncations
    "truncated to nothing": truncated(lambda n: 0),
    "truncated in the header": truncated(lambda n: 60),
    "truncated to half": truncated(lambda n: n // 2 // PAGE * PAGE + 100),
    "truncated by a page": truncated(lambda n: n - PAGE),
    # the header and the schema
    "header magic garbled": header(3, ord("X")),
    "page size garbled": header(16, 0x03),
    "schema text not UTF-8": text_anywhere(b"CREATE TABLE records", 15),
    # a text cell of each table no longer UTF-8, a b-tree page garbled
    "games: a mode not UTF-8": not_utf8("games", b"referee"),
    "records: a body not UTF-8": text_anywhere(b'"winner"'),
    "records: the root page garbled": root_lost("records", garble=True),
    "pod_seats: a board id not UTF-8": not_utf8("pod_seats", BOARD.encode()),
    "table_log: an entry not UTF-8": not_utf8("table_log", b'"game_id"'),
    "auto_games: the root page garbled": root_lost("auto_games", garble=True),
    "actions: an id not UTF-8": not_utf8("actions", b"action-0001-matrix"),
    "card_tables: a byte not UTF-8": not_utf8("card_tables", b'"damage":', 9),
    "card_table_copies: a byte not UTF-8": not_utf8("card_table_copies", b'"damage":', 9),
    # issue 39.1 as the review found it: the only copy of the card table damaged
    "card_tables: a byte not UTF-8, no copy": lambda path, roots: (
        sql("DROP TRIGGER card_table_copies_no_delete", "DELETE FROM card_table_copies")(path, roots),
        not_utf8("card_tables", b'"name":"', 9)(path, roots)),
    # each index's root page lost
    "records' index lost": root_lost("sqlite_autoindex_records_1"),
    "pod_seats' index lost": root_lost("sqlite_autoindex_pod_seats_1"),
    "table_log's index lost": root_lost("sqlite_autoindex_table_log_1"),
    "actions' index lost": root_lost("sqlite_autoindex_actions_1"),
    "card_tables' index lost": root_lost("sqlite_autoindex_card_tables_1"),
    "card_table_copies' index lost": root_lost("sqlite_autoindex_card_table_copies_1"),
    # the schema changed under the hub
    "records' triggers dropped": sql("DROP TRIGGER records_no_update", "DROP TRIGGER records_no_delete"),
    "every trigger dropped": sql(*("DROP TRIGGER %s" % t for t in (
        "table_log_no_update", "table_log_no_delete", "auto_games_no_delete", "card_tables_no_update",
        "card_tables_no_delete", "records_no_update", "records_no_delete", "games_no_update", "games_no_delete",
        "card_table_copies_no_update", "card_table_copies_no_delete"))),
    "records renamed": sql("ALTER TABLE records RENAME TO records_old"),
    "games renamed": sql("ALTER TABLE games RENAME TO games_2"),
    "table_log renamed": sql("ALTER TABLE table_log RENAME TO tl"),
    "records dropped": sql("DROP TRIGGER records_no_delete", "DROP TABLE records"),
    "card_tables dropped": sql("DROP TABLE card_tables"),
    "a column renamed": sql("ALTER TABLE records RENAME COLUMN body TO b"),
    "a newer schema": sql("PRAGMA user_version = 99"),
    # the file itself
    "a directory in its place": directory,
    "a FIFO in its place": fifo,
    "a read-only file": read_only,
    "a garbage WAL beside it": garbage_wal,
}


# ------------------------------------------------------------ the hubs

@pytest.fixture(scope="module")
def forks():
    f = HubForks()
    yield f
    f.close()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Run:
    def __init__(self, forks, folder, mode, name):
        self.folder, self.mode, self.name = folder, mode, name
        self.db = os.path.join(folder, "g.sqlite3")
        self.log = os.path.join(folder, "hub.log")
        self.port = _free_port()
        argv = ["hub", "--db", self.db, "--resume", "--mode", mode, "--table", HUBS[mode], "--port", str(self.port),
                "--serial", os.path.join(folder, "no-pod"), "--no-mdns", "--cards", os.path.join(folder, "cards")]
        self.proc = None
        if name == "a read-only file" and os.geteuid() == 0:
            # root writes a 0444 file anyway: this hub runs without CAP_DAC_OVERRIDE, as a user would
            log = open(self.log, "w")
            self.proc = subprocess.Popen(["setpriv", "--bounding-set=-dac_override", "--inh-caps=-dac_override", "--",
                                          sys.executable, "-m", "hub.cli", *argv], cwd=ROOT, stdout=log,
                                         stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
            log.close()
            self.pid = self.proc.pid
        else:
            self.pid = forks.start(argv, self.log)

    def text(self):
        try:
            return open(self.log, encoding="utf-8", errors="replace").read()
        except OSError:
            return ""

    def ended(self):
        return self.proc.poll() is not None if self.proc else not alive(self.pid)

    def stop(self, forks):
        if self.proc:
            self.proc.kill()
            self.proc.wait(30)
        else:
            forks.kill(self.pid)
            end = time.monotonic() + 30
            while alive(self.pid) and time.monotonic() < end:
                time.sleep(0.01)


def _until_checked(runs, timeout=180):
    """Wait until each hub's record check has spoken (or the hub ended); the bound only stops a
    broken test."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(any(c in r.text() for c in CHECKED) or r.ended() for r in runs):
            return
        time.sleep(0.02)


def _kept(path):
    """The game ids of a record that read back whole."""
    s = Store(path)
    try:
        return {g["id"] for g in s.games(limit=100) if g["status"] != "damaged"}
    finally:
        s.close()


def _readers(path, folder):
    """What ``lumen doctor --salvage`` reads out of the damaged file (a copy of it)."""
    if not os.path.isfile(path):
        return set()
    spare = os.path.join(folder, "spare.sqlite3")
    shutil.copy(path, spare)
    if os.path.exists(path + "-wal"):
        shutil.copy(path + "-wal", spare + "-wal")
    try:
        copied, _ = doctor.salvage(spare, os.path.join(folder, "readers.sqlite3"))
    except Exception:
        return set()
    return set(copied)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_damaged_record_never_keeps_the_hub_from_serving_nor_loses_what_reads(pristine, forks, tmp_path, name):
    db, roots = pristine
    runs = []
    for mode in HUBS:
        folder = str(tmp_path / mode)
        os.mkdir(folder)
        path = os.path.join(folder, "g.sqlite3")
        shutil.copy(db, path)
        VARIANTS[name](path, roots)
        want = _readers(path, folder) if name != "a read-only file" else {1, 2, 3}
        runs.append((Run(forks, folder, mode, name), want))
    try:
        _until_checked([r for r, _ in runs])
        for run, _ in runs:
            text = run.text()
            assert "table display" in text and not run.ended(), "%s, %s hub: not serving\n%s" % (name, run.mode, text)
            r = httpx.get("http://127.0.0.1:%d/api/state" % run.port, timeout=60)
            assert r.status_code == 200, (name, run.mode, r.status_code)
            assert r.json()["mode"] == run.mode, (name, run.mode, r.json().get("mode"))
    finally:
        for run, _ in runs:
            run.stop(forks)
    for run, want in runs:
        text = run.text()
        print("== %s, %s hub (the readers read %s):\n%s" % (name, run.mode, sorted(want), text))
        assert "Traceback" not in text, "%s, %s hub:\n%s" % (name, run.mode, text)
        kept = _kept(run.db)
        assert want <= kept, "%s, %s hub: the readers read games %s, the hub kept %s\n%s" % (
            name, run.mode, sorted(want), sorted(kept), text)
        table_game = 2 if run.mode == "referee" else 3
        if table_game in want:
            assert "resuming game #%d" % table_game in text, "%s, %s hub: the table's game is not resumed\n%s" % (
                name, run.mode, text)
        aside = [n for n in os.listdir(run.folder) if ".damaged-" in n and not n.endswith(("-wal", "-shm"))]
        if name in ("a directory in its place", "a FIFO in its place", "a read-only file", "a newer schema"):
            assert aside, "%s: the thing in the record's place is kept aside" % name
