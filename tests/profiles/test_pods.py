"""Profile games on the pods: the real firmware under the MicroPython unix port over
pseudo-terminals (hub/pods/sim.py), driven by button presses.

* 요정전승 2 on 2 (seeds/003 "1대1 또는 2대2"): four pods on one hub take seats 1P-4P (the
  setup frame's seat byte 3 and 4), the turn player's pod ends the turn with READY, the HP
  page enters life (never above 20) and the FP page cost, and when a team is out the pods
  of the winning team hear "win", the others "lose".
* BattleCON (seeds/004 2.A): both pods pick a style, then a base, hidden and locked; a card
  in a discard pile is not a slot (the pods are offered only what may be picked); the
  reveal reaches both pods; a clash asks both pods again.
"""

import asyncio
import time

from hub.pods.pod_hub import PodHub, while_serving
from hub.pods.ports import SimPort
from hub.pods.protocol import NOTICES
from hub.pods.sim import SimPod, build
from hub.record.store import Store
from hub.sessions.table import Table
from tests.hub.rig import needs_micropython

pytestmark = needs_micropython

BOARDS = {"a": "e660583883000011", "b": "e660583883000012", "c": "e660583883000013", "d": "e660583883000014"}


class Table4:
    """A hub with ``n`` simulated pods; presses run in threads, the hub on the test's loop."""

    def __init__(self, db, n):
        build()
        self.table = Table(Store(db))
        self.lines = []
        self.hub = PodHub(self.table, mode="tracker", out=self.lines.append)
        self.sims = {s: SimPod(board_id=BOARDS[s]) for s in "abcd"[:n]}
        self.ports = {s: SimPort(p, name="pod-" + s) for s, p in self.sims.items()}
        for port in self.ports.values():
            self.hub.add(port)
        self.sent = {s: [] for s in self.sims}        # what the hub sent each seat's pod (type, fields)

    def close(self):
        for p in self.sims.values():
            p.close()
        self.table.store.close()

    async def wait(self, cond, what, timeout=60):
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise AssertionError("timed out waiting for %s; hub said: %s" % (what, self.lines[-6:]))
            await asyncio.sleep(0.01)

    async def press(self, seat, buttons):
        await asyncio.get_running_loop().run_in_executor(None, lambda: [self.sims[seat].press(b) for b in buttons])

    def settled(self, seat):
        c = self.hub.seated(seat)
        return c is not None and c.link.up and c.link.unacked == 0 and c.sent_state is not None

    async def seat_all(self):
        await self.wait(lambda: all(c.board_id for c in self.hub.conns) and len(self.hub.conns) == len(self.sims), "hellos")
        by_board = {b: s for s, b in BOARDS.items()}
        for c in self.hub.conns:
            spy(c, self.sent[by_board[c.board_id]])
        for seat in self.sims:                         # a fresh pod's READY claims the next free seat
            await self.press(seat, ["ready"])
            await self.wait(lambda: self.hub.seated(seat) is not None, "seat " + seat)
            assert self.hub.seated(seat).board_id == BOARDS[seat]
        for seat in self.sims:
            await self.wait(lambda: self.settled(seat), "pod %s settled" % seat)

    async def choose(self, seat, value):
        """Cursor to the value's slot of the seat's current prompt, READY."""
        await self.wait(lambda: self.settled(seat) and self.hub.current(seat)[0].kind != "none", "a question on " + seat)
        slot = self.hub.slot_of(seat, value)
        before = self.table.session.answered[seat]
        await self.press(seat, ["prev", "ready"] if slot == 0 else ["next"] * (slot - 1) + ["ready"])   # 0: the pass slot
        await self.wait(lambda: self.table.session.answered[seat] > before, "%s's answer %s" % (seat, value))

    def run(self, coro, timeout=300):
        async def main():
            return await while_serving(self.hub, asyncio.wait_for(coro(), timeout))
        return asyncio.run(main())


def spy(conn, into):
    send = conn.link.send_fields

    def recording(msg_type, now_ms, fields, text=""):
        into.append((msg_type, dict(fields)))
        return send(msg_type, now_ms, fields, text)
    conn.link.send_fields = recording


def test_two_on_two_yojeong_with_four_pods(tmp_path):
    rig = Table4(str(tmp_path / "y.sqlite3"), 4)

    async def play():
        # the 2-on-2 game is on the table first: its four seats are there to claim
        rig.table.start("profile", profile="yojeong", players=4, seed=3, priority="a")
        await rig.seat_all()
        s = rig.table.session
        for seat, n in zip("abcd", (1, 2, 3, 4)):
            setup = [f for t, f in rig.sent[seat] if t == "setup"]
            assert setup and setup[-1]["seat"] == n and setup[-1]["mode"] == 2     # seats 3 and 4: the setup's seat byte
        # the turns go 1P 2P 3P 4P; only the turn player's pod is asked, and READY ends its turn
        order = []
        for _ in range(4):
            tp = s.game.st["turn_player"]
            order.append(tp)
            assert all(rig.hub.current(x)[0].kind == "none" for x in "abcd" if x != tp)
            await rig.choose(tp, "done")
        assert order == ["a", "b", "c", "d"] and s.turn == 5
        # 1P's FP page is its cost meter: -3, then the turn comes round and it is back to 10 (프리페어 페이즈)
        c = rig.hub.seated("a")
        await rig.press("a", ["back", "back"])              # the FP page
        await rig.press("a", ["prev", "prev", "prev", "ready"])
        await rig.wait(lambda: s.game.value("a", "cost") == 7, "1P's cost entry")
        await rig.wait(lambda: rig.settled("a") and c.link.last_state["fp"] == 7, "1P's pod showing cost 7")
        # the HP page: 2P takes -600 (6 life) three times; 4P heals +200 at 20: never above 20
        for _ in range(3):
            await rig.press("b", ["back", "next", "next", "next", "next", "next", "ready"])   # HP page, -600
        await rig.wait(lambda: s.game.value("b", "life") == 2, "2P's life entries")
        n_log = len(s.game.log)
        await rig.press("d", ["back"] + ["next"] * 7 + ["ready"])      # +200
        await rig.wait(lambda: any(r.kind == "input" and isinstance(r.body.get("value"), dict)
                                   and r.body["value"].get("seat") == "d" and r.body["value"].get("delta") == 2
                                   for r in s.store.records(s.game_id)), "4P's +2 taken")
        # at 20 already it changes nothing: no log line, no undo step (issue 37 point 4)
        assert s.game.value("d", "life") == 20 and len(s.game.log) == n_log
        await rig.press("b", ["back", "next", "ready"])                # -200: 2P is out, 4P plays on for the team
        await rig.wait(lambda: "b" in s.game.st["out"], "2P out")
        assert s.winner is None
        while s.game.st["turn_player"] != "d":
            await rig.choose(s.game.st["turn_player"], "done")
        for _ in range(4):                                             # 4P: -600 four times (-24: kept at 0)
            await rig.press("d", ["back", "next", "next", "next", "next", "next", "ready"])
        await rig.wait(lambda: s.winner is not None, "the end")
        assert s.winner == "a"
        for seat in "abcd":
            await rig.wait(lambda: rig.settled(seat), "pod %s settled" % seat)
            notices = [f["code"] for t, f in rig.sent[seat] if t == "notice"]
            assert notices[-1] == NOTICES["win" if seat in "ac" else "lose"], (seat, notices)

    try:
        rig.run(play)
        recs = rig.table.store.records(rig.table.session.game_id, kinds=("input",))
        assert {r.body["source"] for r in recs} == {"pod"} and {r.seat for r in recs if r.seat} >= set("abcd")
    finally:
        rig.close()


def test_a_battlecon_beat_on_two_pods(tmp_path):
    rig = Table4(str(tmp_path / "b.sqlite3"), 2)

    async def play():
        await rig.seat_all()
        rig.table.start("profile", "haneul", "bada", profile="battlecon", seed=3, priority="a")
        s = rig.table.session
        for seat in "ab":
            await rig.wait(lambda: rig.settled(seat) and rig.hub.current(seat)[0].kind == "ready", "the style prompt")
            c = rig.hub.seated(seat)
            assert c.link.last_state["options"] == 3        # 5 styles, 2 in the piles: 3 slots
        await rig.choose("a", "haneul-flame")
        await rig.wait(lambda: rig.settled("a") and rig.hub.current("a")[0].options[0] == "haneul-arc", "the base prompt")
        assert rig.hub.seated("a").link.last_state["options"] == 5     # 7 bases, jab and shot in the piles
        await rig.choose("a", "hold")
        await rig.wait(lambda: rig.settled("a") and rig.hub.seated("a").link.last_state["flags"] & 2, "1P locked")
        # 2P's pod heard that much: a state push with nothing of 1P's pick in it (no card frame at all)
        assert not [f for t, f in rig.sent["b"] if t in ("label", "reveal")]
        await rig.choose("b", "bada-tide")
        await rig.choose("b", "charge")                     # 2+5 ... flame(2)+hold(5)=7 against tide(1)+charge(4)=5
        await rig.choose("a", "pass")                       # the ante: 1P first, then 2P
        await rig.choose("b", "pass")
        for seat in "ab":
            await rig.wait(lambda: any(t == "reveal" for t, f in rig.sent[seat]), "the reveal on " + seat)
        assert s.game.st["leader"] == "a" and s.priority == "a"
        await rig.wait(lambda: rig.settled("b") and rig.hub.seated("b").link.last_state["priority"] == 1, "2P shows 1P leads")
        await rig.choose("a", "done")
        await rig.choose("b", "done")
        assert s.turn == 2 and s.game.st["piles"]["a"][0] == ["haneul-flame", "hold"]
        await rig.wait(lambda: rig.settled("a") and rig.hub.current("a")[0].kind == "ready", "beat 2")
        assert "haneul-flame" not in rig.hub.current("a")[0].options      # in pile 1 now: not a slot

    try:
        rig.run(play)
    finally:
        rig.close()
