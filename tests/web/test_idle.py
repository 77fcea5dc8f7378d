"""An idle table costs nearly nothing (issue 16): the display's ticker wakes when a
deadline or the match clock falls due or something changed, not ten times a second."""

import time

from fastapi.testclient import TestClient

from hub.record.store import Store
from hub.sessions.base import LINK_ALLOWANCE_MS, READY_MS, FakeClock
from hub.sessions.table import Table
from hub.web.app import create_app
from hub.web.broadcast import MAX_SLEEP_S
from tests.web.conftest import TOKEN, on_loop


def test_next_due_is_the_earliest_deadline_or_the_end_of_the_match_clock():
    clock = FakeClock()
    table = Table(Store(":memory:"), clock=clock, admin_token=TOKEN)
    assert table.next_due_in_ms() is None                      # nothing runs: never
    table.start_tracker()
    assert table.next_due_in_ms() is None
    table.submit("a", "ready", True, source="pod")             # b's 10 seconds start
    assert table.next_due_in_ms() == READY_MS + LINK_ALLOWANCE_MS + 1
    clock.advance(4000)
    assert table.next_due_in_ms() == READY_MS + LINK_ALLOWANCE_MS + 1 - 4000
    table.timer_action("round_start", duration_ms=60_000)
    assert table.next_due_in_ms() == READY_MS + LINK_ALLOWANCE_MS + 1 - 4000   # the deadline comes first
    clock.advance(READY_MS)
    assert table.next_due_in_ms() == 0                         # overdue: tick now
    table.tick()
    assert table.session.phase == "battle" and table.next_due_in_ms() == 60_000 - READY_MS


def test_an_idle_table_is_not_ticked_ten_times_a_second():
    table = Table(Store(":memory:"), admin_token=TOKEN)          # the real clock: the ticker runs
    ticks = []
    with TestClient(create_app(table, tick_interval=0.1)) as client:
        hub = client.app.state.hub
        real = hub.tick
        hub.tick = lambda: (ticks.append(time.monotonic()), real())
        on_loop(client, table.start_referee, seed=3)
        time.sleep(0.5)
        ticks.clear()
        t0 = time.monotonic()
        time.sleep(2.5)
        span = time.monotonic() - t0
    # the old 0.1 s ticker: 25 ticks here; a slower machine only ever ticks less
    assert len(ticks) <= span / MAX_SLEEP_S + 1, ticks


def _each_decision(table, bots):
    """Play the table's referee game to its end with ``bots``, the setups from the decks'
    own order (as the pods' automatic setup does); yield after every decision."""
    s = table.session
    while s.state.winner is None:
        req = s.state.pending[0]
        if req["kind"] == "setup":
            pool = list(req["options"])
            h, n = req["sizes"]["hand"], req["sizes"]["list"]
            table.submit(req["player"], "setup", {"hand": pool[:h], "list": pool[h:h + n]}, source="hub")
        else:
            table.submit(req["player"], *bots[req["player"]].answer(s.state, req), source="pod")
        yield


def test_the_display_log_built_bit_by_bit_is_the_log_built_whole():
    """The log lines and the last battle's panel, kept from one change to the next, are
    what they would be built from the whole game's log."""
    from engine.bots import Bot
    from hub.sessions.display.referee import last_battle, tail_lines
    from hub.web.display import display_state
    table = Table(Store(":memory:"), clock=FakeClock(), admin_token=TOKEN)
    table.start_referee(seed=5)
    s = table.session
    bots = {"a": Bot(5, "greedy"), "b": Bot(6, "greedy")}
    for _ in _each_decision(table, bots):
        d = display_state(table)
        assert d["log"] == tail_lines(s.log)
        assert d["last_battle"] == last_battle(s.log)[0]
    assert len(d["log"]) == 40


def test_the_display_messages_are_the_display_state_as_json():
    """The feed's whole state and every delta after it, applied in order, are the display
    state at each decision (tracker and referee; tests/web/test_display_delta.py has more)."""
    import json

    from engine.bots import Bot
    from hub.web.display import display_state
    from hub.web.display_delta import apply, content
    from hub.web.display_feed import DisplayFeed
    table = Table(Store(":memory:"), clock=FakeClock(), admin_token=TOKEN)
    feed = DisplayFeed(table)
    assert feed.update(["hello"]) is not None
    kept = json.loads(feed.full(["hello"]))
    assert content(kept) == display_state(table)
    table.start_referee(seed=6)
    bots = {"a": Bot(6, "greedy"), "b": Bot(7, "greedy")}
    for _ in _each_decision(table, bots):
        text = feed.update(["state"])
        if text is not None:
            kept = apply(kept, json.loads(text))
        assert content(kept) == display_state(table)
    table.start_tracker()
    kept = apply(kept, json.loads(feed.update(["game"])))
    assert kept["t"] == "state" and content(kept) == display_state(table)
