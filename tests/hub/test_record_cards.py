"""The card table is recorded once per content, not once per game (issue 16): a start
record names it by hash; records made before that (the table inline) still resume."""

import json
import sqlite3

import pytest

from engine.bots import Bot
from engine.cards import parse_card
from engine.cards.decks import load_sample
from hub.record.store import Store, StoreError
from hub.sessions.base import FakeClock
from hub.sessions.referee import RefereeSession
from hub.sessions.replay import replay_export
from hub.sessions.table import Table


@pytest.fixture(scope="module")
def sample():
    cs, decks = load_sample()
    return cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck()


def play(session, seed, decisions=None):
    bots = {"a": Bot(seed), "b": Bot(seed + 1)}
    n = 0
    while session.state.winner is None and (decisions is None or n < decisions):
        req = session.state.pending[0]
        session.submit(req["player"], *bots[req["player"]].answer(session.state, req))
        n += 1


def canon(state):
    return json.dumps(state.to_json(), sort_keys=True)


def test_games_with_the_same_cards_share_one_stored_card_table(tmp_path, sample):
    store = Store(str(tmp_path / "g.sqlite3"))
    cards, da, db = sample
    games = [RefereeSession.new(store, cards, da, db, seed=s, clock=FakeClock()) for s in (1, 2, 3)]
    starts = [store.records(g.game_id)[0].body for g in games]
    assert all("cards" not in s for s in starts)
    assert len({s["card_table"] for s in starts}) == 1
    assert store.db.execute("SELECT COUNT(*) FROM card_tables").fetchone()[0] == 1
    assert len(json.dumps(starts[0], ensure_ascii=False)) < 8000      # decks and seed, not ~30 KB of cards
    # a different card table is a second entry
    extra, problems = parse_card(dict(next(iter(cards.values())).to_json(), id="extra-test-card"))
    assert not problems
    RefereeSession.new(store, dict(cards, **{extra.id: extra}), da, db, seed=4, clock=FakeClock())
    assert store.db.execute("SELECT COUNT(*) FROM card_tables").fetchone()[0] == 2
    # and a fresh process (no cache) resumes from the stored table
    play(games[0], 1, decisions=30)
    store.close()
    again = Store(str(tmp_path / "g.sqlite3"))
    assert canon(RefereeSession.resume(again, games[0].game_id).state) == canon(games[0].state)
    again.close()


def test_a_record_with_the_card_table_inline_still_resumes(tmp_path, sample):
    """Records written before issue 16 carry the card table in their start record."""
    store = Store(str(tmp_path / "g.sqlite3"))
    cards, da, db = sample
    s = RefereeSession.new(store, cards, da, db, seed=5, clock=FakeClock())
    play(s, 5, decisions=40)
    recs = store.records(s.game_id)
    old = dict(recs[0].body)
    old["cards"] = store.card_table(old.pop("card_table"))
    gid = store.new_game("referee", old)
    for r in recs[1:]:
        store.append(gid, r.kind, r.body, seat=r.seat, mono_ms=r.mono_ms, hidden=r.hidden)
    assert "card_table" not in store.records(gid)[0].body
    assert canon(RefereeSession.resume(store, gid).state) == canon(s.state)


def test_an_unknown_card_table_is_named_in_the_error(tmp_path, sample):
    store = Store(str(tmp_path / "g.sqlite3"))
    cards, da, db = sample
    s = RefereeSession.new(store, cards, da, db, seed=6, clock=FakeClock())
    body = dict(store.records(s.game_id)[0].body, card_table="0" * 64)
    gid = store.new_game("referee", body)
    with pytest.raises(StoreError, match="no card table '0000"):
        RefereeSession.resume(store, gid)


def test_card_tables_are_append_only(tmp_path, sample):
    store = Store(str(tmp_path / "g.sqlite3"))
    cards, da, db = sample
    RefereeSession.new(store, cards, da, db, seed=7, clock=FakeClock())
    for sql in ("UPDATE card_tables SET body = '[]'", "DELETE FROM card_tables"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            store.db.execute(sql)


def test_a_finished_game_exports_with_its_card_table_and_replays(tmp_path):
    table = Table(Store(str(tmp_path / "g.sqlite3")), clock=FakeClock())
    table.start_referee(seed=8)
    play(table.session, 8)
    data = json.loads(json.dumps(table.export(table.session.game_id)))
    start = data["records"][0]["body"]
    assert len(start["cards"]) == len(table.session.state.cards)
    ok, message = replay_export(data, out=lambda line: None)
    assert ok, message


def test_long_results_are_stored_compressed_and_read_back_the_same(tmp_path, sample):
    from hub.record.store import DamagedRecord, Record
    store = Store(str(tmp_path / "g.sqlite3"))
    cards, da, db = sample
    s = RefereeSession.new(store, cards, da, db, seed=9, clock=FakeClock())
    play(s, 9, decisions=40)
    rows = store.db.execute("SELECT kind, typeof(body), body FROM records WHERE game_id = ?", (s.game_id,)).fetchall()
    assert {k for k, t, _ in rows if t == "blob"} == {"result"}             # only results, only long ones
    assert all(t == "text" for k, t, _ in rows if k != "result")
    blob = next(b for k, t, b in rows if t == "blob")
    events = json.loads(__import__("zlib").decompress(blob))["events"]
    assert any(r.kind == "result" and r.body["events"] == events for r in store.records(s.game_id))
    played = canon(s.state)
    store.close()
    again = Store(str(tmp_path / "g.sqlite3"))
    assert canon(RefereeSession.resume(again, s.game_id).state) == played
    with pytest.raises(DamagedRecord, match="damaged"):
        Record((s.game_id, 5, "result", 0, None, None, 0, blob[:-3] + b"xyz"))


def test_results_compressed_before_the_fast_level_still_read(tmp_path, sample):
    # records written with zlib.compress(text, 9) (before the 4 KB-window stream) read the same
    import zlib
    from hub.record.store import Record, dumps, stored_body
    store = Store(str(tmp_path / "g.sqlite3"))
    cards, da, db = sample
    s = RefereeSession.new(store, cards, da, db, seed=9, clock=FakeClock())
    play(s, 9, decisions=40)
    for r in store.records(s.game_id, kinds=("result",)):
        text = dumps(r.body)
        old = zlib.compress(text.encode(), 9)
        new = stored_body("result", r.body)
        assert Record((s.game_id, r.seq, "result", 0, None, None, 0, old)).body == r.body
        assert isinstance(new, str) or zlib.decompress(new).decode() == text


def test_a_record_written_past_the_stores_own_appends_is_never_overwritten(tmp_path):
    # the store knows a game's next seq from its own committed appends (no query a decision): a
    # record another writer put in is refused by the primary key, and the next append asks again
    import sqlite3
    store = Store(str(tmp_path / "g.sqlite3"))
    gid = store.new_game("referee", {"x": 1})
    assert store.append(gid, "note", {"n": 1}) == 1 and store.next_seq(gid) == 2
    store.db.execute("INSERT INTO records (game_id, seq, kind, wall_ms, body) VALUES (?, 2, 'note', 0, '{\"n\":\"other\"}')",
                     (gid,))
    with pytest.raises(sqlite3.IntegrityError):
        store.append(gid, "note", {"n": 2})
    assert store.append(gid, "note", {"n": 2}) == 3
    assert [r.body["n"] for r in store.records(gid)[1:]] == [1, "other", 2]


def test_record_bodies_are_the_json_dumps_text():
    # the store writes what json.dumps(sort_keys, compact) writes (orjson, and the json module's
    # C encoder where orjson would differ or refuses); a float with an exponent reads back the same
    from hub.record.store import dumps, stored_body
    bodies = [{"b": [1, 2.5, -0.0, 1e300, None, True], "a": {"z": "세린이(가)", "y": "\u0001\"\\/"}},
              {"events": [{"e": "move", "p": "a", "card": "jab", "rule": "guide 4.4 step 18"}]},
              {}, [], "text", 7, {"nested": [[[{"k": [{}]}]]]}, {"n": 123456789012345678901234567890},
              {"x": float("nan"), "y": float("inf")}, {1: "a", 3: "b"}, {"s": "\u2028\x7f\t\n"}, [2.5, -0.0, 0.1]]
    for body in bodies:
        text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        assert dumps(body) == text
        assert stored_body("judge", body) == text
    assert json.loads(dumps({"e": [1e16, 1e-5, 1e300]})) == {"e": [1e16, 1e-5, 1e300]}


def test_every_body_of_played_games_is_the_json_dumps_text(tmp_path, sample):
    # what the hub records (inputs, judge log, results, finish) is exactly json.dumps's text
    import zlib
    from hub.record.store import Record
    store = Store(str(tmp_path / "g.sqlite3"))
    cards, da, db = sample
    n = 0
    for seed in (3, 4, 5):
        s = RefereeSession.new(store, cards, da, db, seed=seed, clock=FakeClock())
        play(s, seed)
        rows = store.db.execute("SELECT game_id, seq, kind, wall_ms, mono_ms, seat, hidden, body FROM records "
                                "WHERE game_id = ?", (s.game_id,)).fetchall()
        for row in rows:
            raw = row[7]
            text = zlib.decompress(raw).decode() if isinstance(raw, bytes) else raw
            body = Record(row).body
            assert text == json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            n += 1
    assert n > 300
