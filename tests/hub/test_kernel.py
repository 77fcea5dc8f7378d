"""The session kernel (issue 32): one ``submit`` for every mode, one transaction per decision
(nothing changes when the record refuses the write), one change set published per decision,
its audiences kept apart (a seat's hidden pick in no other audience's message), and one
commit-reveal helper whose ``verify`` checks a referee's readies and a profile game's picks alike."""

import ast
import json
from pathlib import Path

import pytest

from engine.bots import Bot
from engine.cards import load_sample
from hub.record.store import Store
from hub.sessions.base import FakeClock, SessionBase, SessionError
from hub.sessions.commit_reveal import verify
from hub.sessions.referee import RefereeSession
from hub.sessions.table import Table

ROOT = Path(__file__).resolve().parents[2]


def test_no_submit_outside_the_kernel():
    """Every ``def submit`` under hub/sessions is the kernel's or the Table's (which hands the
    decision to the session's): no mode writes its own transaction."""
    found = []
    for p in (ROOT / "hub" / "sessions").rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for f in node.body:
                    if isinstance(f, ast.FunctionDef) and f.name == "submit":
                        found.append("%s:%s" % (p.relative_to(ROOT), node.name))
    assert sorted(found) == ["hub/sessions/base.py:SessionBase", "hub/sessions/table.py:Table"], found


def test_a_session_lacking_part_of_the_interface_cannot_be_made():
    class Half(SessionBase):
        pass
    with pytest.raises(TypeError):
        Half(Store(":memory:"), 1)


@pytest.fixture
def table():
    t = Table(Store(":memory:"), clock=FakeClock())
    yield t
    t.store.close()


def referee(table):
    return table.start("referee", "serin", "gangcheol", seed=3, priority="a")


def tracker(table):
    return table.start("tracker", "generic", "generic", seed=3, priority="a")


def battlecon(table):
    return table.start("profile", "haneul", "bada", profile="battlecon", seed=5, priority="a")


def play_referee(table, s, n):
    bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}
    for _ in range(n):
        req = s.state.pending[0]
        kind, value = bots[req["player"]].answer(s.state, req)
        table.submit(req["player"], kind, value, source="bot")


def test_one_change_set_per_decision_in_every_mode(table):
    """Each accepted decision publishes exactly one change set, after the record holds it."""
    def count(s):
        got = []
        s.subscribe_changes(lambda ch: got.append((ch, table.store.next_seq(s.game_id) - 1)))
        return got
    s = referee(table)
    got = count(s)
    play_referee(table, s, 12)
    assert len(got) == 12 and [c.version for c, _ in got] == list(range(got[0][0].version, got[0][0].version + 12))
    assert all(c.last_seq <= last for c, last in got), "published before its rows were written"
    s = tracker(table)
    got = count(s)
    table.submit("a", "ready", True, source="pod")
    table.submit(None, "action", {"action": "adjust_health", "seat": "b", "delta": -300}, source="display")
    assert [c.kind for c, _ in got] == ["ready", "action"]
    s = battlecon(table)
    got = count(s)
    table.submit("a", "ready", "haneul-flame", source="pod")
    assert [(c.seat, c.kind) for c, _ in got] == [("a", "ready")]


def test_a_double_tap_records_nothing_and_publishes_nothing(table):
    s = tracker(table)
    table.submit("a", "ready", True, source="pod")
    table.submit("b", "ready", True, source="pod")
    got = []
    s.subscribe_changes(got.append)
    table.submit(None, "action", {"action": "next_turn"}, source="display")
    before = table.store.next_seq(s.game_id)
    assert table.submit(None, "action", {"action": "next_turn"}, source="display") == []
    assert table.store.next_seq(s.game_id) == before and len(got) == 1


@pytest.mark.parametrize("start, decision", [
    (referee, None),
    (tracker, ("a", "ready", True)),
    (battlecon, ("a", "ready", "haneul-flame")),
])
def test_a_record_that_refuses_the_write_changes_nothing_in_any_mode(table, start, decision, monkeypatch):
    s = start(table)
    if decision is None:
        req = s.state.pending[0]
        decision = (req["player"], *Bot(1, "greedy").answer(s.state, req))
    views = json.dumps({x: s.view_for(x) for x in s.seats}, sort_keys=True, default=str)
    version, seq = s.version, table.store.next_seq(s.game_id)
    got = []
    s.subscribe_changes(got.append)

    def full(*a, **kw):
        raise OSError("disk full")
    monkeypatch.setattr(table.store, "append_many", full)
    with pytest.raises(OSError):
        table.submit(decision[0], decision[1], decision[2], source="pod")
    monkeypatch.undo()
    assert json.dumps({x: s.view_for(x) for x in s.seats}, sort_keys=True, default=str) == views
    assert (s.version, table.store.next_seq(s.game_id), got) == (version, seq, [])
    table.submit(decision[0], decision[1], decision[2], source="pod")      # and it is taken once the disk has room
    assert len(got) == 1


def _ready_change(card_index):
    """A fresh table played to its first ready; a readies its hand's ``card_index``-th option;
    the change set that ready published."""
    table = Table(Store(":memory:"), clock=FakeClock())
    s = referee(table)
    while not any(r["kind"] == "ready" for r in s.state.pending):
        play_referee(table, s, 1)
    got = []
    s.subscribe_changes(got.append)
    req = next(r for r in s.state.pending if r["kind"] == "ready" and r["player"] == "a")
    table.submit("a", "ready", req["options"][card_index], source="pod")
    (change,) = got
    return change


def test_a_ready_is_in_no_other_audiences_message():
    """guide 3.10's hidden ready, as a differential: the change sets of two games alike but for
    the card a readied are the same in every audience but a's (hands are open in this game: the
    card is not hidden, which of them was readied is)."""
    first, second = _ready_change(0), _ready_change(1)
    assert first.seat == "a" and first.kind == "ready" and set(first.audiences()) <= {"public", "a", "b"}

    def seen(change, audience):
        return json.dumps(change.for_audience(audience), sort_keys=True, default=str)
    for audience in ("public", "b"):
        assert seen(first, audience) == seen(second, audience), audience
    assert seen(first, "a") != seen(second, "a")       # its own device shows what it locked
    assert any(m["t"] == "ready_locked" and m["seat"] == "a" for m in first.public)
    assert any(m["t"] == "opponent_ready" for m in first.for_audience("b"))


def test_verify_checks_a_referees_readies_and_a_profile_games_picks(table):
    s = referee(table)
    play_referee(table, s, 40)
    checks = verify(table.store, s.game_id)
    assert checks and all(ok for _, ok in checks)
    s = battlecon(table)
    for seat, pick in (("a", "haneul-flame"), ("a", "charge"), ("b", "bada-squall"), ("b", "blast")):
        table.submit(seat, "ready", pick, source="pod")
    table.submit("a", "ante", "pass", source="pod")
    table.submit("b", "ante", "pass", source="pod")
    checks = verify(table.store, s.game_id)
    assert sorted(checks) == [("a", True), ("a", True), ("b", True), ("b", True)]


def test_verify_catches_a_reveal_that_does_not_open_its_commitment(tmp_path):
    cs, decks = load_sample()
    store = Store(str(tmp_path / "g.sqlite3"))
    s = RefereeSession.new(store, cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=3,
                           clock=FakeClock())
    bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}
    while not any(r["body"].get("event") == "reveal" for r in store.public_records(s.game_id) if r["kind"] == "judge"):
        req = s.state.pending[0]
        s.submit(req["player"], *bots[req["player"]].answer(s.state, req))
    assert all(ok for _, ok in verify(store, s.game_id))

    class Tampered:
        def records(self, game_id):
            out = []
            for r in store.records(game_id):
                if r.kind == "judge" and r.body.get("event") == "reveal":
                    r.body["nonces"] = {k: "0" * 32 for k in r.body["nonces"]}
                out.append(r)
            return out
    assert not any(ok for _, ok in verify(Tampered(), s.game_id))


def test_a_refused_decision_raises_before_anything_is_written(table):
    s = tracker(table)
    seq = table.store.next_seq(s.game_id)
    with pytest.raises(SessionError):
        table.submit("c", "ready", True, source="pod")
    with pytest.raises(SessionError):
        table.submit("a", "combo", True, source="pod")
    assert table.store.next_seq(s.game_id) == seq


def test_the_table_hands_on_each_change_once_as_its_messages_listeners_see_it(table):
    """issue 36: a table's change listeners (the pods) get a decision's change set once, its
    public state with the table's clock as the message listeners got it, in the same order; a
    message of the table's own (the clock's) is a change of one; a game put on the table is one
    change of its game and its state, with nothing in it for the pods to signal."""
    changes, messages = [], []
    table.subscribe_changes(changes.append)
    table.subscribe(lambda audience, msg: messages.append((audience, msg)))
    s = referee(table)
    (start,) = changes
    assert [m["t"] for _, m in start.messages] == ["game", "state"] and start.happenings == []
    assert "timer" in start.messages[1][1]
    changes.clear(), messages.clear()
    play_referee(table, s, 1)
    (change,) = changes
    assert change.messages == messages and change.kind is not None
    public_states = [m for a, m in change.messages if a == "public" and m["t"] == "state"]
    assert public_states and all("timer" in m for m in public_states)
    changes.clear(), messages.clear()
    table.timer_action("round_start")
    (clock,) = changes
    assert [(a, m["t"]) for a, m in clock.messages] == [("public", "timer")] == [(a, m["t"]) for a, m in messages]
