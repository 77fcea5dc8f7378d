"""Table day (issue 12) on a fake clock: the record's game status, the current-game
pointer, the clock's anchor and undo, mis-tap guards. The kill -9 versions of points 1-3
and 5 are in test_table_kill.py."""

import pytest

from hub.sessions.base import FakeClock, SessionError
from hub.record.store import Store
from hub.sessions.table import Table
from hub.sessions.timer import MatchTimer


@pytest.fixture
def table():
    t = Table(Store(":memory:"), clock=FakeClock(), admin_token="table-day-token")
    yield t
    t.store.close()


def act(table, **cmd):
    return table.submit(cmd.get("seat"), "action", cmd, source="display")


def status(table):
    g = table.store.game(table.session.game_id)
    listed = [x for x in table.games() if x["id"] == g["id"]]
    return g["status"], g["winner"], listed[0]["status"] if listed else None


def test_a_double_ko_into_sudden_death_reopens_the_game(table):
    """Two presses inside the 1-s unit: the first KO finishes the game, the second makes it
    a double KO, which is sudden death: the record must say the game goes on."""
    table.start_tracker()
    act(table, action="set_health", seat="a", health=0)
    assert status(table) == ("finished", "b", "finished")
    table.clock.advance(300)
    act(table, action="set_health", seat="b", health=0)
    view = table.session.public_view()
    assert view["sudden_death"] and view["winner"] is None
    assert status(table) == ("in_progress", None, "in_progress")
    # sudden death is a new turn: the ready opens again
    assert table.session.phase == "ready"
    table.submit("a", "ready")
    kinds = [r.kind for r in table.store.records(table.session.game_id)]
    assert kinds.count("finish") == 1 and kinds.count("reopen") == 1


def test_undo_reopens_and_a_new_ko_finishes_again_in_the_record(table):
    table.start_tracker()
    gid = table.session.game_id
    act(table, action="adjust_health", seat="b", delta=-300)
    table.clock.advance(2000)
    act(table, action="set_health", seat="b", health=0)
    assert status(table)[:2] == ("finished", "a")
    table.clock.advance(2000)
    act(table, action="undo")
    assert status(table) == ("in_progress", None, "in_progress")
    assert table.session.phase == "battle"      # the battle is being entered again
    # the record replays to the same: a resumed table agrees
    other = Table(table.store, clock=table.clock, admin_token="x")
    other.resume(gid)
    assert other.session.phase == "battle" and other.session.game.winner is None
    table.clock.advance(2000)
    act(table, action="set_health", seat="a", health=0)
    assert status(table)[:2] == ("finished", "b")


def test_the_table_resumes_its_current_game_not_the_newest(table):
    table.start_tracker()
    first = table.session.game_id
    act(table, action="adjust_health", seat="a", delta=-300)
    table.start_tracker()
    table.resume(first)
    again = Table(table.store, clock=table.clock, admin_token="x")
    assert again.resume_current().game_id == first


def test_blank_games_the_hub_opened_by_itself_are_not_listed(table):
    table.start_tracker()
    played = table.session.game_id
    act(table, action="adjust_health", seat="a", delta=-300)
    for _ in range(12):            # twelve restarts, each opening a blank game
        table.start_tracker(auto=True)
    ids = [g["id"] for g in table.games(10)]
    assert played in ids
    assert ids == [table.session.game_id, played]      # the blank one on the table, then the played one
    table.start_tracker()          # a judge's new game is listed even before anything is entered
    assert table.games(10)[0]["id"] == table.session.game_id


def test_a_double_tap_on_next_turn_advances_one_turn(table):
    table.start_tracker()
    act(table, action="next_turn")
    table.clock.advance(400)
    assert act(table, action="next_turn") == []
    assert table.session.game.turn == 2
    table.clock.advance(1000)
    act(table, action="next_turn")
    assert table.session.game.turn == 3


def test_every_clock_action_can_be_undone_and_names_itself(table):
    table.start_tracker()
    table.timer_action("round_start", duration_ms=60_000)
    table.clock.advance(10_000)
    assert table.timer_view()["undo"] == "round_start"
    table.timer_action("pause")
    table.timer_action("extend", ms=30_000)
    assert table.timer_view()["ms_left"] == 80_000
    table.timer_action("undo")
    assert table.timer_view()["ms_left"] == 50_000 and table.timer_view()["undo"] == "pause"
    table.timer_action("call_time", extra_turns=1)
    table.timer_action("undo")
    assert table.timer_view()["state"] == "paused"
    # the undo steps survive a restart: they are in the record
    again = Table(table.store, clock=table.clock, admin_token="x")
    again.resume_current()
    assert again.timer_view()["undo"] == "pause"
    again.timer_action("undo")
    again.timer_action("undo")
    assert again.timer_view()["state"] == "idle"
    with pytest.raises(SessionError):
        again.timer_action("undo")


def test_a_new_game_starts_with_a_fresh_clock_after_time(table):
    table.start_tracker()
    table.timer_action("round_start", duration_ms=5_000, extra_turns=1)
    table.clock.advance(6_000)
    table.tick()
    assert table.timer.state == "time"
    table.start_tracker()
    v = table.timer_view()
    assert v["state"] == "idle" and v["ms_left"] == 5_000 and v["extra_turns"] == 1


def test_the_anchor_reads_the_same_however_late_it_is_read():
    t = MatchTimer(60_000)
    t.round_start(1_000)
    t.pause(11_000)
    t.resume(21_000)
    again = MatchTimer.from_json(t.to_json(), now_ms=None)
    for now in (21_000, 40_000, 80_000):
        assert again.left(now) == t.left(now)
    assert again.left(40_000) == 31_000
    again.update(81_000)
    assert again.state == "time" and again.left(90_000) == 0


def test_a_clock_record_from_before_anchors_comes_back_paused():
    old = {"duration_ms": 1_800_000, "extra_turns": 0, "state": "running", "turns_left": None,
           "extended_ms": 0, "remaining_ms": 1_200_000}
    t = MatchTimer.from_json(old, now_ms=5_000)
    assert t.state == "paused" and t.left(99_000) == 1_200_000


def test_english_sentences_use_a_cards_english_name(table):
    """Point 10: cards may carry name_en; the English log uses it (after the Korean name)."""
    from engine.bots import Bot
    table.start_referee(seed=3)
    s = table.session
    bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}
    while not any(e["e"] == "reveal" for e in s.log):
        req = s.state.pending[0]
        table.submit(req["player"], *bots[req["player"]].answer(s.state, req), source="pod")
    reveal = next(e for e in s.log if e["e"] == "reveal")
    card = s.state.cards[reveal["a_card"]]
    assert card.name_en, "the sample cards carry English names"
    assert card.name_en in reveal["text"]["en"] and card.name in reveal["text"]["en"]
    assert card.name in reveal["text"]["ko"] and card.name_en not in reveal["text"]["ko"]


def test_a_stopped_clock_shows_the_same_view_until_it_changes(table):
    # issue 16: a clock that does not run is the same dict (nothing in it depends on the time);
    # every change, a turn after time and the running clock show what MatchTimer.view says
    def fresh():
        v = table.timer.view(table.wall.now_ms())
        v["undo"] = table._timer_undo[-1]["action"] if table._timer_undo else None
        return v
    table.start_tracker()
    first = table.timer_view()
    table.clock.advance(5_000)
    assert table.timer_view() is first and first == fresh()
    steps = [lambda: table.timer_action("round_start", duration_ms=60_000), lambda: table.clock.advance(1_000),
             lambda: table.timer_action("pause"), lambda: table.clock.advance(3_000),
             lambda: table.timer_action("extend", ms=30_000), lambda: table.timer_action("undo"),
             lambda: table.timer_action("resume"), lambda: table.clock.advance(2_000),
             lambda: table.timer_action("call_time", extra_turns=2), lambda: table.clock.advance(2_000),
             lambda: table.timer_action("turn_ended"), lambda: table.timer_action("turn_ended"),
             lambda: table.timer_action("undo")]
    for step in steps:
        step()
        assert table.timer_view() == fresh()
        assert table.timer_view()["ms_left"] == table.timer.left(table.wall.now_ms())
    assert table.timer_view()["finished"] is False and table.timer.turns_left == 1
    table.timer.turns_left = 0          # changed in place: the view follows
    assert table.timer_view()["finished"] is True
