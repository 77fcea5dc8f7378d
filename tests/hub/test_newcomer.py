"""Issue 34: the newcomer's first ten minutes.

1. A busy port: the server's socket is bound before anything starts, so ``lumen demo`` moves
   to a free port and plays (it exited 0 with no game: its tasks started before the bind and
   the failed server cancelled them), and ``lumen hub`` says the port is busy before it
   touches the record or shows an address or a token.
2. A bot game ends: every demo game runs on a round clock and an undecided game is decided
   by the end-of-round procedure (ruling R-time) after time, the turn in progress and 3 more.
6. Reading commands open the record read-only and refuse a path that holds none (they made
   the folder and an empty record, and exited 0).
"""

import os
import socket
import subprocess
import sys
import threading

import pytest

from hub.cli.demo import TableDemo
from hub.record.store import Store
from hub.sessions.table import Table
from hub.web import server as web

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _lumen(*argv, timeout=600):
    return subprocess.run([sys.executable, "-m", "hub.cli", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture
def busy_port():
    """A port something else listens on (another hub, the packaged service)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    yield s.getsockname()[1]
    s.close()


def test_a_busy_port_is_known_before_any_task_starts(busy_port):
    started = threading.Event()

    async def task(_display):
        started.set()

    with pytest.raises(web.PortBusy) as e:
        web.start_in_thread(Table(Store(":memory:")), port=busy_port, tasks=(task,))
    assert e.value.busy and str(busy_port) in str(e.value)
    assert not started.is_set(), "a task started on a server that never listened"


def test_the_demo_on_a_busy_port_plays_its_game_on_a_free_one(busy_port):
    r = _lumen("demo", "--port", str(busy_port), "--games", "1", "--pace", "0", "--level", "easy", "--seed", "5")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "port %d is busy, using a free one" % busy_port in r.stdout
    assert "게임 1: 승자" in r.stdout, r.stdout[-2000:]
    assert "테이블 화면 / table display: http://127.0.0.1:%d/" % busy_port not in r.stdout


def test_lumen_hub_on_a_busy_port_fails_naming_it_before_a_token_or_a_record(busy_port, tmp_path):
    db = tmp_path / "games.sqlite3"
    r = _lumen("hub", "--port", str(busy_port), "--db", str(db), "--no-mdns", timeout=120)
    said = r.stdout + r.stderr
    assert r.returncode == 2, said
    assert "port busy 127.0.0.1:%d" % busy_port in said
    assert "admin" not in said and "table display" not in said, said
    assert not db.exists(), "the record was touched before the port was known busy"


class _Wall:
    """The match clock's wall clock, moved by the test (never waited for)."""

    def __init__(self):
        self.ms = 1_000_000

    def now_ms(self):
        return self.ms


def test_a_demo_game_undecided_at_time_is_decided_by_the_end_of_round_procedure(tmp_path):
    """Ruling R-time (docs/rulings.md): at time the turn in progress is finished, then 3 more
    turns (or 5 minutes: this clock does not move again), then the larger share of starting
    health wins. Time is called as turn 2 starts: the game is decided as turn 6 starts."""
    wall = _Wall()
    lines = []

    def out(line):
        lines.append(line)
        if line.startswith("-- 2턴 시작"):
            wall.ms += 4 * 60_000           # past the 3-minute round

    db = str(tmp_path / "demo.sqlite3")
    rc = TableDemo(seed=3, games=1, serve=False, pace=0, level="easy", out=out, wall=wall, db=db).run()
    assert rc == 0
    turns = [line for line in lines if line.startswith("-- ") and "턴 시작" in line]
    assert turns[-1].startswith("-- 6턴 시작"), turns[-3:]
    result = next(line for line in lines if line.startswith("게임 1: 승자"))
    at_time = lines[lines.index(result) + 1]
    assert at_time.strip().startswith("시간 종료:") and "R-time" in at_time, at_time
    assert any(line.strip().startswith("라운드 시계 3분") for line in lines)
    store = Store(db, probe=False, readonly=True)
    try:
        gid = store.games(1)[0]["id"]
        finish = [r.body for r in store.records(gid) if r.kind == "finish"]
    finally:
        store.close()
    assert finish and finish[-1].get("at_time"), finish


def test_reading_commands_refuse_a_missing_record_and_never_write(tmp_path):
    missing = tmp_path / "no-such-dir" / "x.sqlite3"
    for argv in (("games", "--db", str(missing)), ("export", "1", "--db", str(missing))):
        r = _lumen(*argv, timeout=120)
        assert r.returncode == 1 and "no record at %s" % missing in r.stderr, (argv, r.stderr)
    assert not missing.parent.exists(), "a reading command made the folder"
    # a real record: read, exported, not one byte changed, no -wal/-shm left beside it
    db = tmp_path / "kept.sqlite3"
    store = Store(str(db))
    t = Table(store)
    t.start("tracker")
    store.close()
    before = db.read_bytes()
    os.chmod(db, 0o444)
    r = _lumen("games", "--db", str(db), timeout=120)
    assert r.returncode == 0 and "#1" in r.stdout, r.stdout + r.stderr
    r = _lumen("export", "1", "--db", str(db), "-o", str(tmp_path / "m.json"), timeout=120)
    assert r.returncode == 0, r.stderr
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("kept")) == ["kept.sqlite3"]


def test_the_tds_page_on_a_busy_port_is_said_before_the_broker_or_the_td_start(busy_port, tmp_path):
    """`lumen tournament run --port` on a busy port: uvicorn used to bind in its thread and
    exit it, leaving a TD with no page and no word of why. Now the page's socket is bound
    first (hub/web/listen.py) and the refusal names the port, before a broker is started."""
    from argparse import Namespace

    from hub.tournament.cli import run_td
    from hub.tournament.eventdir import new_event

    from tests.tournament.conftest import players
    folder = str(tmp_path / "event")
    new_event(folder, "cup", players(4), rounds=2, round_minutes=30, best_of=1, seed=3)
    lines = []
    args = Namespace(dir=folder, broker=None, broker_port=None, broker_host="127.0.0.1", host="127.0.0.1",
                     port=busy_port, no_web=False)
    assert run_td(args, lines.append) == 2
    assert len(lines) == 1 and "port busy" in lines[0] and str(busy_port) in lines[0], lines
    assert "--port" in lines[0]
    assert not os.path.exists(os.path.join(folder, "broker")), "a broker was started for a TD that cannot serve"
    assert not os.path.exists(os.path.join(folder, "event.sqlite-wal"))
