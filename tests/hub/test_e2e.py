"""End to end over pseudo-terminals with the real firmware under MicroPython (issue 5 tests):
whole games driven by button presses, unplug/replug, a noisy line, and pods that misbehave."""

import asyncio
import json
import os

from engine.api.game import apply, new_game
from hub.pods.protocol import Message, encode
from hub.sessions.referee import RefereeSession, _rebuild
from hub.record.store import Store
from hub.sessions.tracker import TrackerSession

from .rig import needs_micropython, NoisyPort, Rig

pytestmark = needs_micropython


def replay_engine(store, gid):
    """The engine alone, fed the recorded inputs: what the game must have been."""
    recs = store.records(gid)
    start = recs[0].body
    cards, decks = _rebuild(start, store)
    st, _ = new_game(cards, decks["a"], decks["b"], seed=start["seed"], priority=start["priority"])
    for r in recs[1:]:
        if r.kind == "input":
            st, _ = apply(st, r.seat, r.body["kind"], r.body["value"])
    return st


def canon(st):
    return json.dumps(st.to_json(), sort_keys=True)


def inputs(store, gid, kind=None):
    return [r for r in store.records(gid) if r.kind == "input" and (kind is None or r.body["kind"] == kind)]


def test_a_whole_referee_game_by_button_presses(tmp_path):
    rig = Rig(str(tmp_path / "g.sqlite3"), seed=3)
    try:
        async def go(rig):
            await rig.seat_both()
            rig.table.start_referee(seed=3)
            await rig.play_referee()
        rig.run(go)
        s = rig.table.session
        assert s.state.winner in ("a", "b", "draw")
        assert rig.players["a"].presses > 5 and rig.players["b"].presses > 5
        # every decision came from a pod (or the hub's automatic setup), and the engine alone agrees
        sources = {r.body["source"] for r in inputs(rig.table.store, s.game_id)}
        assert sources <= {"pod", "hub"} and "pod" in sources
        assert canon(replay_engine(rig.table.store, s.game_id)) == canon(s.state)
        assert canon(RefereeSession.resume(rig.table.store, s.game_id).state) == canon(s.state)
    finally:
        rig.close()


def test_a_whole_tracker_game_by_button_presses(tmp_path):
    from hub.cli.demo import TableDemo
    demo = TableDemo(seed=2, mode="tracker", serve=False, quiet=True, pace=0, db=str(tmp_path / "t.sqlite3"),
                     out=lambda s: None)
    # keep the record after the run
    demo.run()
    store = Store(str(tmp_path / "t.sqlite3"))
    g = store.games(1)[0]
    assert g["mode"] == "tracker" and g["status"] == "finished"
    again = TrackerSession.resume(store, g["id"])
    assert again.game.winner == g["winner"] == demo.results[0]
    adjusts = [r for r in inputs(store, g["id"], "action") if r.body["source"] == "pod"]
    assert adjusts, "health entries came from the pods' HP page"
    readies = inputs(store, g["id"], "ready")
    assert {r.seat for r in readies} == {"a", "b"}


def test_unplug_and_replug_while_choosing_and_during_a_countdown(tmp_path):
    rig = Rig(str(tmp_path / "r.sqlite3"), seed=5)
    try:
        async def go(rig):
            await rig.seat_both()
            rig.table.start_referee(seed=5)
            s = rig.table.session
            hub = rig.hub
            await rig.wait(lambda: s.requests("a") and s.requests("a")[0]["kind"] == "ready"
                           and rig.players["a"].ready_to_act() and rig.players["b"].ready_to_act(), 20, "first ready")
            # 1) unplug 1P in the middle of choosing (cursor moved, nothing locked)
            await rig.players["a"].press(["next"])
            rig.unplug("a")
            await rig.wait(lambda: hub.seated("a") is None, 10, "the hub to notice the unplug")
            rig.plug("a")
            await rig.wait(lambda: hub.seated("a") is not None and hub.seated("a").link.up
                           and rig.players["a"].ready_to_act(), 20, "1P back")
            assert s.requests("a"), "the ready prompt is still open after the replug"
            # 2) 1P readies; 2P's countdown starts; unplug 2P during it
            rig.players["a"].step()
            await rig.wait(lambda: "a" in s.locked and "b" in hub.countdown, 10, "2P's countdown")
            await asyncio.sleep(0.3)
            rig.unplug("b")
            await rig.wait(lambda: hub.seated("b") is None, 10, "the unplug of 2P")
            rig.plug("b")
            await rig.wait(lambda: hub.seated("b") is not None and hub.seated("b").link.up
                           and rig.players["b"].ready_to_act(), 20, "2P back")
            assert "b" in hub.countdown and s.ready_status()["b"]["ms_left"] > 0
            rig.players["b"].step()
            await rig.wait(lambda: s.state.phase != "ready" or s.state.winner is not None, 10, "the reveal")
            # exactly one ready each: nothing lost, nothing doubled
            readies = inputs(rig.table.store, s.game_id, "ready")
            assert sorted(r.seat for r in readies) == ["a", "b"]
            assert s.state.players["b"].non_responses == 0
            await rig.play_referee()
        rig.run(go)
        assert any("disconnected" in line for line in rig.lines)
    finally:
        rig.close()


def test_a_noisy_line_gives_the_same_game_as_a_clean_one(tmp_path):
    results = []
    touched = 0
    for noisy in (False, True):
        factory = (lambda pod, seat: NoisyPort(pod, seed=11 if seat == "a" else 12)) if noisy else None
        rig = Rig(str(tmp_path / ("n%d.sqlite3" % noisy)), seed=7, port_factory=factory)
        try:
            async def go(rig):
                await rig.seat_both()
                rig.table.start_referee(seed=7)
                await rig.play_referee(max_s=200)
            rig.run(go, timeout=300)
            st = rig.table.session.state
            recs = inputs(rig.table.store, rig.table.session.game_id)
            # simultaneous readies may reach the hub in either order: compare each seat's own decisions
            per_seat = {seat: [(r.body["kind"], json.dumps(r.body["value"])) for r in recs if r.seat == seat]
                        for seat in ("a", "b")}
            results.append((st.winner, st.turn, st.players["a"].health, st.players["b"].health, per_seat, canon(st)))
            if noisy:
                touched = sum(p.touched for p in rig.ports.values())
        finally:
            rig.close()
    assert touched > 20, "the injector did damage the line"
    clean, noisy = results
    for seat in ("a", "b"):
        for i, (x, y) in enumerate(zip(clean[4][seat], noisy[4][seat])):
            assert x == y, "%s's decision %d differs: clean %s, noisy %s" % (seat, i, x, y)
    assert clean == noisy


class ScriptedPort:
    """A misbehaving 'pod': silent, garbage, or a hello with another protocol version."""

    def __init__(self, kind):
        self.kind = kind
        self.name = "bad:%s" % kind
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        self.sent = 0

    def fileno(self):
        return self.r

    def read(self):
        self.sent += 1
        if self.kind == "garbage":
            return bytes((self.sent * 37 + i * 11) % 256 for i in range(64))
        if self.kind == "wrong_proto" and self.sent % 50 == 1:
            return encode(Message("hello", {"proto": 9, "fw_major": 9, "fw_minor": 0, "fw_patch": 0, "boot": 7,
                                            "epoch": 1, "board_id": bytes.fromhex("0badc0de00000009"),
                                            "pixels": 12, "features": 8}))
        return b""

    def write(self, data):
        pass

    def close(self):
        os.close(self.r)
        os.close(self.w)


def test_misbehaving_pods_get_a_clear_message_and_do_not_stop_the_game(tmp_path):
    rig = Rig(str(tmp_path / "b.sqlite3"), seed=9)
    try:
        bad = [ScriptedPort(k) for k in ("silent", "garbage", "wrong_proto")]
        for p in bad:
            rig.hub.add(p)

        async def go(rig):
            await rig.wait(lambda: sum(1 for c in rig.hub.conns if c.board_id) >= 2, 20, "the real pods")
            await rig.seat_both()
            rig.table.start_referee(seed=9)
            await rig.play_referee()
        rig.run(go)
        assert rig.table.session.state.winner is not None
        assert any("speaks protocol 9, this hub speaks 1" in line for line in rig.lines)
        garbage = next(c for c in rig.hub.conns if c.port.name == "bad:garbage")
        assert garbage.link.decoder.errors > 0 and garbage.seat is None and not garbage.link.up
        assert all(c.seat is None for c in rig.hub.conns if c.port.name.startswith("bad:"))
    finally:
        rig.close()


def test_the_other_pod_hears_the_same_whichever_card_was_readied(tmp_path):
    """Hidden information: everything sent to 2P's pod, the status light and the public log
    readers is identical whichever card 1P locks, until the reveal."""
    from hub.light.statuslight import RecordingStrip, StatusLight
    traces = []
    for pick in (0, 1):
        rig = Rig(str(tmp_path / ("h%d.sqlite3" % pick)), seed=13)
        light = StatusLight(RecordingStrip(16))
        rig.table.subscribe(light.on_message)
        try:
            async def go(rig):
                await rig.seat_both()
                rig.table.start_referee(seed=13, priority="a")
                s = rig.table.session
                await rig.wait(lambda: rig.players["a"].ready_to_act() and rig.players["b"].ready_to_act()
                               and s.requests("a"), 20, "ready prompts")
                sent = []
                conn_b = rig.hub.seated("b")
                orig = conn_b.link.send_fields      # every sequenced message goes through it

                def spy(msg_type, now_ms, fields, text=""):
                    shown = dict(fields)
                    if msg_type == "countdown":
                        # the time left is the clock's, not the pick's: 10000 ms, or 9999 on a busy machine
                        assert 0 < shown["ms"] <= 10_000
                        shown["ms"] = "up to 10 s"
                    sent.append((msg_type, text, sorted(shown.items())))
                    return orig(msg_type, now_ms, fields, text)
                conn_b.link.send_fields = spy
                frames_before = len(light.strip.frames)
                # the opening hands were shown at setup (guide 3.4.1 step 4): scan what follows the ready
                public_before = len(rig.table.store.public_records(s.game_id))
                options = s.requests("a")[0]["options"]
                await rig.players["a"].press(["next"] * pick + ["ready"])
                await rig.wait(lambda: "a" in s.locked and "b" in rig.hub.countdown, 10, "the countdown")
                await asyncio.sleep(0.3)
                card = options[pick]
                public = json.dumps(rig.table.store.public_records(s.game_id)[public_before:], ensure_ascii=False)
                judge = json.dumps(s.judge_log(), ensure_ascii=False)
                b_owns = set(s.state.players["b"].owned_cards())
                if card not in b_owns:
                    assert '"%s"' % card not in public and '"%s"' % card not in judge
                return sent, light.strip.frames[frames_before:]
            traces.append(rig.run(go))
        finally:
            rig.close()
    assert traces[0][0] == traces[1][0], "2P's pod was told something that depends on 1P's pick"
    assert traces[0][1] == traces[1][1], "the status light showed something that depends on 1P's pick"
    assert any(t[0] == "countdown" for t in traces[0][0])
