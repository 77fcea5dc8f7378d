"""The referee session advances its state in place (no copy a decision) and rolls it back when
a decision fails part-way; views are built once per state version and a seat's only when read
(issue 16)."""

import json

import pytest

from engine.bots import Bot
from engine.cards.decks import load_sample
from engine.api.game import public_view
from hub.record.store import Store
from hub.sessions import referee
from hub.sessions.base import FakeClock
from hub.sessions.referee import RefereeSession


@pytest.fixture(scope="module")
def sample():
    cs, decks = load_sample()
    return cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck()


def new(tmp_path, sample, seed=3):
    cards, da, db = sample
    return RefereeSession.new(Store(str(tmp_path / "g.sqlite3")), cards, da, db, seed=seed, clock=FakeClock())


def step(s, bots):
    req = s.state.pending[0]
    kind, value = bots[req["player"]].answer(s.state, req)
    s.submit(req["player"], kind, value)
    return req["player"], kind, value


def canon(s):
    return json.dumps(s.state.to_json(), sort_keys=True)


def test_the_state_is_one_object_and_the_version_counts_its_changes(tmp_path, sample):
    s = new(tmp_path, sample)
    st, bots = s.state, {"a": Bot(1), "b": Bot(2)}
    for n in range(1, 40):
        step(s, bots)
        assert s.state is st and s.version == n
    with pytest.raises(Exception):
        s.submit("a", "pick", "no such card")
    assert s.version == 39


def test_an_engine_failure_part_way_leaves_the_state_as_it_was(tmp_path, sample, monkeypatch):
    """The engine changes the state in place: if it raises after changing it (a bug), the
    session puts the state back; nothing is recorded and the same decision works after."""
    s = new(tmp_path, sample)
    bots = {"a": Bot(1), "b": Bot(2)}
    for _ in range(25):         # past a checkpoint (referee.CHECKPOINT_EVERY): replayed from there
        step(s, bots)
    assert 0 < s._checkpoint[0] < 25
    real = referee.apply_checked

    def broken(state, answer, until=()):
        real(state, answer, until)          # the whole decision applied, then the failure
        raise RuntimeError("engine bug")
    monkeypatch.setattr(referee, "apply_checked", broken)
    req = s.state.pending[0]
    kind, value = bots[req["player"]].answer(s.state, req)
    before, st, records = canon(s), s.state, len(s.store.records(s.game_id))
    log, version, views = len(s.log), s.version, json.dumps(s.public_view(), sort_keys=True)
    with pytest.raises(RuntimeError, match="engine bug"):
        s.submit(req["player"], kind, value)
    assert canon(s) == before and s.state is st and len(s.log) == log and s.version == version
    assert len(s.store.records(s.game_id)) == records
    assert json.dumps(s.public_view(), sort_keys=True) == views
    monkeypatch.setattr(referee, "apply_checked", real)
    s.submit(req["player"], kind, value)
    # the game goes on as the record says: a resume gives the same state
    for _ in range(20):
        if s.state.winner is not None:
            break
        step(s, bots)
    assert canon(RefereeSession.resume(s.store, s.game_id)) == canon(s)


def test_a_kept_message_shows_the_state_it_was_sent_for(tmp_path, sample):
    """A seat's ``you`` view is built when read: read later, after the state has moved on in
    place, it is still the view of the state it was sent with."""
    s = new(tmp_path, sample)
    kept = []
    s.subscribe(lambda audience, msg: kept.append((audience, msg)) if audience != "public" else None)
    bots, expected = {"a": Bot(1), "b": Bot(2)}, []
    for _ in range(30):
        step(s, bots)
        expected.append({seat: json.dumps(public_view(s.state, seat), sort_keys=True) for seat in "ab"})
    you = [(a, m) for a, m in kept if m["t"] == "you"]
    assert len(you) == 60
    for i, (audience, msg) in enumerate(you):
        view = dict(msg["view"])
        assert view.pop("ready") is not None
        assert json.dumps(view, sort_keys=True) == expected[i // 2][audience]


def test_views_nobody_reads_are_not_built(tmp_path, sample, monkeypatch):
    built = []
    real = referee.Views.view

    def counting(self, state, viewer):
        built.append(viewer)
        return real(self, state, viewer)
    monkeypatch.setattr(referee.Views, "view", counting)
    s = new(tmp_path, sample)
    s.subscribe(lambda audience, msg: msg.get("t"))     # looks at the type only, as the pods' links do
    bots = {"a": Bot(1), "b": Bot(2)}
    for _ in range(20):
        step(s, bots)
        s.public_view()                                 # the display reads the public view again
    assert built == [None] * 21                         # the start's and each decision's, once each
    seen = []
    # a's ``you`` message (an ``opponent_ready`` may come too, when that decision is b's ready)
    s.subscribe(lambda audience, msg: seen.append(json.dumps(msg)) if audience == "a" and msg["t"] == "you" else None)
    step(s, bots)
    assert built[21:] == [None, "a"] and len(seen) == 1
