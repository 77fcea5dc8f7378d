"""The display's page protocol (docs/display.md, "Live updates"): the whole state once, then
deltas with versions. Applied in order, the messages give exactly ``display_state(table)``
after every decision of whole bot games (referee and tracker); a client that misses one,
connects mid-game or falls behind gets the whole state again and is right from there."""

import asyncio
import json

import pytest
from fastapi.testclient import TestClient

from engine.bots import Bot
from hub.web.app import create_app
from hub.web.broadcast import DisplayHub
from hub.web.display import display_state
from hub.web.display_delta import Gap, apply, content, diff
from hub.web.display_feed import DisplayFeed
from tests.web.conftest import AUTH, Mirror, aid, make_table, on_loop


def each_decision(table, seed, submit=None, limit=2000):
    """Play the table's referee game with greedy bots (setups in the decks' order); yield
    after every decision. ``submit(seat, kind, value)`` enters it (default: straight in)."""
    submit = submit or (lambda seat, kind, value: table.submit(seat, kind, value, source="pod"))
    s = table.session
    bots = {"a": Bot(seed, "greedy"), "b": Bot(seed + 1, "greedy")}
    for _ in range(limit):
        if s.state.winner is not None:
            return
        req = s.state.pending[0]
        if req["kind"] == "setup":
            pool = list(req["options"])
            h, n = req["sizes"]["hand"], req["sizes"]["list"]
            submit(req["player"], "setup", {"hand": pool[:h], "list": pool[h:h + n]})
        else:
            submit(req["player"], *bots[req["player"]].answer(s.state, req))
        yield
    raise AssertionError("the bot game did not finish")


def follow(feed, kept, causes=("state",)):
    text = feed.update(list(causes))
    return kept if text is None else apply(kept, json.loads(text))


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_every_delta_applied_in_order_is_the_display_state(seed):
    table = make_table()
    feed = DisplayFeed(table)
    feed.update()
    kept = json.loads(feed.full(["hello"]))
    table.start_referee(seed=seed, names={"a": "김철수"} if seed % 2 else None)    # a player's name: in a seat
    kept = follow(feed, kept, ["game"])
    deltas = decisions = 0
    for i, _ in enumerate(each_decision(table, seed)):
        if i == 9:
            table.timer_action("round_start", duration_ms=60_000)
        before = feed.v
        kept = follow(feed, kept)
        deltas += feed.v - before
        decisions += 1
        assert content(kept) == display_state(table), "decision %d" % i
        assert kept["v"] == feed.v
    assert content(kept)["winner"] is not None and deltas > decisions // 2
    # the whole state at the end, as a client connecting now gets it, is the same
    assert content(json.loads(feed.full(["hello"]))) == content(kept)


def test_tracker_deltas_with_undo_and_a_new_game():
    """The tracker's log lines are built anew at each change and undo takes lines back: the
    log window's delta finds what is shared by value."""
    table = make_table()
    feed = DisplayFeed(table)
    table.start_tracker("wolf", "rita", seed=1)
    feed.update()
    kept = json.loads(feed.full(["hello"]))
    commands = [{"action": "adjust_health", "seat": "a", "delta": -100}, {"action": "adjust_fp", "seat": "b", "delta": 1},
                {"action": "next_turn"}, {"action": "undo"}, {"action": "undo"},
                {"action": "token", "seat": "a", "token": None, "delta": 1}]
    for i in range(60):
        cmd = commands[i % len(commands)]
        try:
            table.submit(None, "action", cmd, source="display")
        except Exception:          # a refused command (e.g. a token this character lacks) changes nothing
            pass
        kept = follow(feed, kept)
        assert content(kept) == display_state(table), (i, cmd)
    assert len(kept["log"]) == 40
    table.start_tracker("nia", "root", seed=2)
    kept = follow(feed, kept, ["game"])
    assert kept["t"] == "state" and content(kept) == display_state(table)


def test_a_change_of_shape_is_sent_whole():
    table = make_table()
    first = display_state(table)
    table.start_referee(seed=3)
    second = display_state(table)
    assert diff(first, second) is None            # no game -> a game: the whole state
    assert diff(second, second) == {}
    table.start_referee(seed=4)
    assert diff(second, display_state(table)) is None      # another game


def test_a_delta_on_another_version_is_refused():
    table = make_table()
    feed = DisplayFeed(table)
    table.start_referee(seed=5)
    feed.update()
    kept = json.loads(feed.full(["hello"]))
    steps = each_decision(table, 5)
    missed = None
    while missed is None:
        next(steps)
        missed = feed.update(["state"])
    with pytest.raises(Gap):
        nxt = None
        while nxt is None:
            next(steps)
            nxt = feed.update(["state"])
        apply(kept, json.loads(nxt))
    with pytest.raises(Gap):
        apply(None, json.loads(nxt))              # nothing kept: only a whole state helps


def drain(client, ws_mirrors):
    """Let the coalesced flush go out and read every message sent since (each mirror)."""
    on_loop(client, lambda: None)
    hub = client.app.state.hub
    for m in ws_mirrors:
        while m.seen < hub.sent + m.extra:
            m.receive()
            m.seen += 1


class Counted(Mirror):
    def __init__(self, ws, sent):
        super().__init__(ws)
        self.seen, self.extra = sent, 0       # broadcasts before it connected; its own full states


def test_through_the_websocket_a_gap_and_a_client_that_connects_mid_game():
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client:
        hub = client.app.state.hub
        with client.websocket_connect("/ws") as ws1:
            one = Counted(ws1, hub.sent)
            one.receive()
            client.post("/api/control/games", json={"action_id": aid(), "mode": "referee", "seed": 21}, headers=AUTH)
            drain(client, [one])
            submit = lambda seat, kind, value: on_loop(client, table.submit, seat, kind, value, "pod")  # noqa: E731
            steps = each_decision(table, 21, submit)
            for _ in range(25):
                next(steps)
                drain(client, [one])
                assert content(one.state) == on_loop(client, display_state, table)
            # a client connecting mid-game: the whole state now, then the same deltas
            with client.websocket_connect("/ws") as ws2:
                two = Counted(ws2, hub.sent)
                hello = two.receive()
                assert two.last["t"] == "state" and two.last["cause"] == ["hello"]
                assert content(hello) == on_loop(client, display_state, table)
                for _ in range(10):
                    next(steps)
                    drain(client, [one, two])
                    assert content(two.state) == content(one.state) == on_loop(client, display_state, table)
                # 2 misses a delta: the next one does not apply; it asks and is right again
                while two.seen == hub.sent:
                    next(steps)
                    drain(client, [one])
                ws2.receive_json()          # read, not applied: as if lost
                two.seen += 1
                while two.gaps == 0:
                    next(steps)
                    drain(client, [one, two])
                assert two.state is None
                ws2.send_text("state")
                two.extra += 1
                drain(client, [one, two])
                assert two.last["t"] == "state" and two.last["cause"] == ["asked"]
                assert content(two.state) == content(one.state) == on_loop(client, display_state, table)
                for _ in steps:           # to the end of the game: both stay right
                    drain(client, [one, two])
                    assert content(two.state) == content(one.state)
            assert content(one.state) == on_loop(client, display_state, table)
            assert one.state["winner"] is not None


def test_a_client_whose_queue_is_full_gets_the_whole_state_instead():
    table = make_table()
    hub = DisplayHub(table, tick_interval=None)
    table.start_referee(seed=8)
    q = asyncio.Queue(maxsize=3)
    kept = json.loads(hub.hello())
    hub.clients.add(q)
    texts = []
    for _ in each_decision(table, 8):
        text = hub.feed.update(["state"])
        if text is not None:
            hub.broadcast(text)
            texts.append(text)
        if len(texts) == 5:
            break
    got = [json.loads(q.get_nowait()) for _ in range(q.qsize())]
    # three deltas, then the fourth found the queue full: the whole state replaced them
    assert [m["t"] for m in got] == ["state", "delta"] and got[0]["cause"] == ["behind"]
    state = apply(kept, got[0])
    state = apply(state, got[1])
    assert content(state) == display_state(table)


def test_the_feed_writes_json_as_json_dumps_reads_it():
    from hub.web.display_feed import dumps
    value = {"a": [1, None, True], "텍스트": {"ko": "불꽃 연격", "en": "Flame \"Flurry\"\n"}, 3: "a non-string key"}
    assert json.loads(dumps(value)) == json.loads(json.dumps(value, ensure_ascii=False))
    assert "불꽃" in dumps(value)          # UTF-8 as is, not \\u escapes
