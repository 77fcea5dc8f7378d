"""Issue 28.12: a record the readers can still read is salvaged and resumed at hub start,
never moved aside whole for an empty one; ``lumen export`` of a damaged record is an error
message, never a traceback. 25 records, each damaged its own seeded way (pages overwritten,
bytes flipped in headers, b-tree pages and cells), are each opened as ``lumen hub`` opens
them: every game ``doctor --salvage`` recovers from the file is still there after the
start, and the game on the table resumes when it is one of them."""

import io
import os
import random
import re
import shutil
import sqlite3
from argparse import Namespace
from contextlib import redirect_stderr, redirect_stdout

import pytest

from hub.cli import games as games_cli
from hub.cli.hub import _resume, open_record
from hub.record import doctor
from hub.record.store import Store
from hub.sessions.table import Table

from tests.faults.procs import lumen, stop, wait_for_line
from tests.faults.referee_play import play

PAGE = 4096
VARIANTS = 25


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """Games 1-3 referee (finished), game 4 tracker (on the table, unfinished)."""
    db = str(tmp_path_factory.mktemp("pristine") / "g.sqlite3")
    t = Table(Store(db))
    for seed in range(3):
        t.start_referee(seed=seed)
        play(t, seed)
    t.start_tracker()
    t.submit(None, "action", {"action": "adjust_health", "seat": "a", "delta": -300}, source="display")
    t.store.close()
    return db


def damaged(pristine, folder, case):
    """A copy of the record damaged the ``case``-th way (seeded: the same bytes every run)."""
    data = bytearray(open(pristine, "rb").read())
    rnd = random.Random(2800 + case)
    pages = len(data) // PAGE
    for _ in range(1 + case % 3):
        kind = case % 5
        page = rnd.randrange(pages) if kind else rnd.randrange(min(pages, 3))
        base = page * PAGE
        if kind in (0, 1):                     # a few bytes of a page (its header, cell pointers)
            for k in range(rnd.choice((1, 4, 16))):
                data[base + rnd.randrange(100 if kind == 0 else PAGE)] ^= 1 + rnd.randrange(255)
        elif kind == 2:                        # a whole page of garbage (a torn write)
            data[base:base + PAGE] = bytes(rnd.randrange(256) for _ in range(PAGE))
        elif kind == 3:                        # a page of zeros (a lost write)
            data[base:base + PAGE] = bytes(PAGE)
        else:                                  # a byte in the middle of a cell
            data[base + 200 + rnd.randrange(PAGE - 400)] ^= 0x55
    path = os.path.join(folder, "g%d.sqlite3" % case)
    open(path, "wb").write(bytes(data))
    return path


def readers_recover(path, folder):
    """The games ``doctor --salvage`` copies out of the damaged file."""
    out = os.path.join(folder, "readers.sqlite3")
    try:
        copied, _ = doctor.salvage(path, out)
    except (sqlite3.DatabaseError, ValueError, Exception):
        return set()
    return set(copied)


def test_every_game_the_readers_recover_survives_the_hubs_start(pristine, tmp_path):
    salvaged_cases = 0
    for case in range(VARIANTS):
        folder = tmp_path / str(case)
        folder.mkdir()
        path = damaged(pristine, str(folder), case)
        spare = str(folder / "spare.sqlite3")
        shutil.copy(path, spare)
        want = readers_recover(spare, str(folder))
        lines = []
        store = open_record(path, True, lines.append)
        try:
            have = {g["id"] for g in store.games(limit=100) if g["status"] != "damaged"}
            assert want <= have, "case %d: the readers recover %s, the hub kept %s: %s" % (case, want, have, lines)
            if want != {1, 2, 3, 4} and want:
                salvaged_cases += 1
            t = Table(store)
            s = _resume(t, lines.append)
            if 4 in want:
                assert s is not None and s.game_id == 4, "case %d: the game on the table resumes: %s" % (case, lines)
        finally:
            store.close()
        for gid in (1, 2, 3, 4, 99):     # export of every game of the damaged copy: never a traceback
            err, out = io.StringIO(), io.StringIO()
            with redirect_stderr(err), redirect_stdout(out):
                code = games_cli.export(Namespace(db=spare, game=gid, out=str(folder / "x.json")))
            assert code in (0, 1), (case, gid, code)
            assert "Traceback" not in err.getvalue() + out.getvalue()
            if code:
                assert err.getvalue().strip(), "case %d game %d: a failed export says why" % (case, gid)
    assert salvaged_cases >= 3, "the damage covers records that are partly readable (%d)" % salvaged_cases


def test_lumen_hub_salvages_and_resumes_a_record_that_fails_its_check(pristine, tmp_path):
    """The whole hub (``lumen hub --resume``) on a record whose index pages are torn: quick_check
    fails, the readers recover every game: the hub salvages them and resumes game 4."""
    db = str(tmp_path / "g.sqlite3")
    shutil.copy(pristine, db)
    con = sqlite3.connect(db)
    roots = [r[0] for r in con.execute("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records'")]
    con.close()
    data = bytearray(open(db, "rb").read())
    for root in roots:
        data[(root - 1) * PAGE:(root - 1) * PAGE + PAGE] = bytes(PAGE)    # the index's root page lost
    open(db, "wb").write(bytes(data))
    hub = lumen("hub", "--db", db, "--resume", "--port", "0", "--serial", str(tmp_path / "no-pod"))
    try:
        found, lines = wait_for_line(hub, "table display")
        text = "\n".join(lines)
        assert found, text + stop(hub)
        assert "salvaged" in text and "resuming game #4" in text, text
    finally:
        out = stop(hub)
    assert "Traceback" not in out, out
    moved = [n for n in os.listdir(tmp_path) if ".damaged-" in n]
    assert moved, "the damaged file is kept aside"


def test_damage_the_start_does_not_read_is_found_and_salvaged_once_the_hub_serves(pristine, tmp_path):
    """Issue 26: the start reads only what it needs (not the whole file); a page lost in an old
    game (game 1's finish) is found by the check that runs once the display serves, and the
    record is salvaged then, the table's game (4) resumed from the salvaged record, which is
    sound; the damaged file is kept aside."""
    db = str(tmp_path / "g.sqlite3")
    shutil.copy(pristine, db)
    data = bytearray(open(db, "rb").read())
    at = re.search(rb'"winner"', data).start()      # game 1's finish, the first one written
    page = at // PAGE
    data[page * PAGE:page * PAGE + PAGE] = bytes(PAGE)
    open(db, "wb").write(bytes(data))
    spare = str(tmp_path / "spare" / "g.sqlite3")
    os.mkdir(os.path.dirname(spare))
    shutil.copy(db, spare)
    want = readers_recover(spare, os.path.dirname(spare))
    assert 4 in want and len(want) < 4, want       # the damage costs a game the readers see
    hub = lumen("hub", "--db", db, "--resume", "--port", "0", "--serial", str(tmp_path / "no-pod"))
    try:
        found, lines = wait_for_line(hub, "on the salvaged record")
        text = "\n".join(lines)
        assert found, text + stop(hub)
        serving = next(i for i, line in enumerate(lines) if "table display" in line)
        salvaged = next(i for i, line in enumerate(lines) if "salvaged and go on" in line)
        assert "resuming game #4" in text and serving < salvaged, text
        assert "game #4 (tracker), on the salvaged record" in text, text
    finally:
        out = stop(hub)
    assert "Traceback" not in out, out
    assert [n for n in os.listdir(tmp_path) if ".damaged-" in n], "the damaged file is kept aside"
    store = Store(db)
    try:
        assert doctor.quick_check(store.db) == []
        assert {g["id"] for g in store.games(limit=100) if g["status"] != "damaged"} >= want
        assert store.current_game("table-1") == 4
    finally:
        store.close()
