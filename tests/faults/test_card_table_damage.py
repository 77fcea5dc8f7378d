"""Issue 28.5: one damaged byte in the shared card table (the cards every referee game of a
record names by hash) is damage, reported as such: ``lumen doctor`` names it and the games
that need it, a resume says which table is damaged instead of failing on its JSON or playing
with other cards, a new game with the same cards rewrites it (and the old games resume
again, in the same state), and ``doctor --salvage`` rebuilds it from the sample set."""

import json
import subprocess
import sys

import pytest

from hub.record.store import DamagedRecord, Store, StoreError
from hub.record.jsontext import table_text
from hub.sessions.table import Table

from tests.faults.procs import ROOT
from tests.faults.referee_play import play, state_json


def _run(*args):
    return subprocess.run([sys.executable, "-m", "hub.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def _record(db):
    """Game 1 finished, game 2 cut after 6 decisions: both with the sample decks' one table."""
    t = Table(Store(db))
    t.start_referee(seed=1)
    play(t, 1)
    t.start_referee(seed=2)
    n = [0]

    def six(_s):
        n[0] += 1
        return n[0] > 6
    play(t, 2, stop=six)
    digest = t.store.records(2)[0].body["card_table"]
    text = table_text(t.store.card_table(digest))
    want = state_json(t.session)
    t.store.close()          # checkpoints the WAL into the file
    return digest, text, want


def _damage(db, text, how):
    """Change one byte of the card table's text in the file: one that breaks its JSON, or a
    digit of a damage value (still JSON: other cards, silently, unless the hash is checked)."""
    data = bytearray(open(db, "rb").read())
    raw = text.encode()
    if how == "json":
        i = raw.index(b'{"', 5000)
    else:
        i = raw.index(b'"damage":', 5000) + len(b'"damage":')
    new = b"#" if how == "json" else (b"9" if raw[i:i + 1] != b"9" else b"8")
    where = data.find(raw[i - 30:i + 10])
    assert where >= 0, "the card table's text is in the file (not cut by a page boundary)"
    data[where + 30:where + 31] = new
    open(db, "wb").write(bytes(data))


@pytest.mark.parametrize("how", ["json", "digit"])
def test_a_damaged_card_table_is_reported_rewritten_and_salvaged(tmp_path, how):
    db = str(tmp_path / "g.sqlite3")
    digest, text, want = _record(db)
    _damage(db, text, how)
    spare = tmp_path / "spare.sqlite3"
    spare.write_bytes(open(db, "rb").read())

    r = _run("doctor", "--db", db)
    assert r.returncode == 1, "doctor calls the record ok:\n" + r.stdout + r.stderr
    assert "card table %s" % digest[:12] in r.stdout and "#1, #2" in r.stdout, r.stdout

    t = Table(Store(db))
    with pytest.raises((DamagedRecord, StoreError)) as e:
        t.resume(2)
    assert digest[:12] in str(e.value), e.value
    # a new game with the same cards rewrites the table: it plays, and the old game resumes
    t.start_referee(seed=3)
    play(t, 3)
    assert t.session.state.winner is not None
    s = t.resume(2)
    assert state_json(s) == want, "game 2 resumes in the state it was left in"
    t.store.close()
    r = _run("doctor", "--db", db)
    assert r.returncode == 0, r.stdout + r.stderr

    # salvage of the damaged copy: the table is rebuilt from the bundled sample set
    out = str(tmp_path / "salvaged.sqlite3")
    r = _run("doctor", "--db", str(spare), "--salvage", out, "--cards", str(tmp_path / "no-library"))
    assert "Traceback" not in r.stderr, r.stderr
    s2 = Store(out)
    try:
        assert json.loads(s2.db.execute("SELECT body FROM card_tables WHERE hash = ?", (digest,)).fetchone()[0])
        assert state_json(Table(s2).resume(2)) == want
    finally:
        s2.close()
    assert _run("doctor", "--db", out).returncode == 0
