"""Issue 11.6: a damaged record doesn't restart-loop the service. The hub checks the
record at start, skips (and reports) games it can't read, and keeps serving a new game;
``lumen doctor`` reports what is damaged and salvages what is readable."""

import os
import random
import re
import sqlite3
import subprocess
import sys

import pytest

from tests.faults.procs import ROOT, lumen, stop, wait_for_line
from tests.faults.referee_play import play

from hub.record.store import Store
from hub.sessions.table import Table

SERVING = "table display"


def _record(db, games=3):
    """A record with finished referee games and one unfinished tracker game."""
    t = Table(Store(db))
    for seed in range(games):
        t.start_referee(seed=seed)
        play(t, seed)
    t.start_tracker()
    t.submit(None, "action", {"action": "adjust_health", "seat": "a", "delta": -300}, source="display")
    t.store.close()       # checkpoints the WAL into the file


def _run(*args):
    return subprocess.run([sys.executable, "-m", "hub.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


FIRST_FINISH = rb'\{"turn": ?\d+, ?"winner"'       # game 1's finish record, the first one written (compact JSON or not)


def _flip(db, pattern):
    data = bytearray(open(db, "rb").read())
    at = re.search(pattern, data).start()
    data[at] ^= 0x55           # "{" -> "." : that record's JSON no longer parses
    open(db, "wb").write(bytes(data))


def test_one_flipped_byte_in_an_old_game_breaks_neither_games_nor_resume(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    _record(db)
    _flip(db, FIRST_FINISH)
    r = _run("games", "--db", db)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "damaged" in r.stdout, r.stdout
    assert r.stdout.count("\n#") + r.stdout.startswith("#") >= 4, r.stdout
    hub = lumen("hub", "--db", db, "--resume", "--port", "0", "--serial", str(tmp_path / "no-pod"))
    try:
        # the damaged game is reported by the record's check, which runs once the display
        # serves (issue 26: a start that does not read the whole record)
        found, lines = wait_for_line(hub, "game #1 is damaged")
        assert found, "\n".join(lines) + stop(hub)
        text = "\n".join(lines)
        assert "resuming game #4" in text and SERVING in text, text
        assert "salvaged" not in text, text     # quick_check passes: a damaged body is no torn file
    finally:
        out = stop(hub)
    assert "Traceback" not in out, out


@pytest.mark.parametrize("case", range(14))
def test_a_corrupted_record_file_never_crash_loops_the_hub(tmp_path, case):
    """Seeded corruption of the file's pages (headers, b-tree pages, cell contents): the
    hub reports the damage and serves (the old game if it can be read, else a new one)."""
    db = str(tmp_path / "g.sqlite3")
    _record(db, games=2)
    size = os.path.getsize(db)
    rnd = random.Random(case)
    data = bytearray(open(db, "rb").read())
    page = 4096
    for _ in range(1 + case % 4):
        at = rnd.randrange(0, size) if case % 3 else rnd.randrange(0, min(size, 2 * page))
        for k in range(rnd.choice((1, 4, 64))):
            if at + k < size:
                data[at + k] = rnd.randrange(256)
    open(db, "wb").write(bytes(data))
    hub = lumen("hub", "--db", db, "--resume", "--port", "0", "--serial", str(tmp_path / "no-pod"))
    try:
        found, lines = wait_for_line(hub, SERVING)
        assert found, "\n".join(lines) + stop(hub)
    finally:
        out = stop(hub)
    assert "Traceback" not in out, out


def test_lumen_doctor_reports_and_salvages_a_damaged_record(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    _record(db)
    _flip(db, FIRST_FINISH)
    r = _run("doctor", "--db", db)
    assert r.returncode == 1, r.stdout + r.stderr        # damage found
    assert "game #1" in r.stdout and "damaged" in r.stdout, r.stdout
    salvaged = str(tmp_path / "salvaged.sqlite3")
    r = _run("doctor", "--db", db, "--salvage", salvaged)
    assert "Traceback" not in r.stderr, r.stderr
    assert os.path.exists(salvaged), r.stdout
    s = Store(salvaged)
    try:
        ids = [g["id"] for g in s.games(100)]
        assert set(ids) == {2, 3, 4}, ids         # the readable games, under their own ids
        assert s.game(2)["status"] == "finished"
    finally:
        s.close()
    r = _run("doctor", "--db", salvaged)
    assert r.returncode == 0, r.stdout + r.stderr
    con = sqlite3.connect(salvaged)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
