"""The hub's bot against a person on a simulated pod (issue 24, "Done means"): the real
firmware under MicroPython on a pty for the person's seat, scripted through its buttons; the
bot's seat played by the hub's bot, its thinking in its own process.

1. A whole game: the pod takes the seat the bot leaves free; the bot's ready is hidden like
   a pod's: while it is locked its card (id or name) and the lock's nonce appear nowhere in the
   table's public messages, the person's own channel, the display state the API serves, the
   public export or the judge log (tests/web/test_hidden.py's scan), and the coach shows
   nothing of a battle before its reveal.
2. The table's loop is free while the bot thinks: with a search that would run for hours, the
   person's ready is stamped between the press and its record, and the bot, out of time,
   locks the greedy answer before its deadline (never a non-response)."""

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor

from hub.bot.coach import Coach
from hub.bot.meta import practice_meta
from hub.bot.seat import BotSeat
from hub.cli.demo import BOARD_IDS, PodPlayer
from hub.pods.pod_hub import PodHub, while_serving
from hub.pods.ports import SimPort
from hub.pods.sim import SimPod, build
from hub.record.store import Store
from hub.sessions.commit_reveal import verify as verify_commitments
from hub.sessions.table import Table
from hub.web.display import display_state
from tests.web.test_hidden import check_hidden

HUMAN, BOT = "b", "a"          # the bot takes 1P: the pod must find 2P for itself


class OnePod:
    def __init__(self, db, bot_kw, coach=True):
        build()
        self.table = Table(Store(db))
        self.lines = []
        self.hub = PodHub(self.table, mode="referee", out=self.lines.append)
        self.sim = SimPod(board_id=BOARD_IDS["b"])
        self.hub.add(SimPort(self.sim, name="pod-2P"))
        self.executor = ThreadPoolExecutor(max_workers=1)
        self.player = PodPlayer(HUMAN, self.sim, self.hub, self.table, 31, 0.0, self.executor)
        self.coach = Coach(self.table, iterations=12) if coach else None
        self.bot = BotSeat(self.table, coach=self.coach, **bot_kw)

    def close(self):
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.bot.worker.close()
        if self.coach is not None:
            self.coach.worker.close()
        self.sim.close()
        self.table.store.close()

    async def wait(self, cond, timeout=60, what="condition"):
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise AssertionError("timed out waiting for %s; hub said: %s" % (what, self.lines[-5:]))
            await asyncio.sleep(0.01)

    async def seat_the_pod(self):
        await self.wait(lambda: self.hub.conns and self.hub.conns[0].board_id, 30, "the pod's hello")
        await self.player.press(["ready"])
        await self.wait(lambda: self.hub.seated(HUMAN) is not None, 20, "the pod taking 2P")
        assert self.hub.seated(BOT) is None

    def run(self, coro_fn, timeout=600):
        async def main():
            tasks = [asyncio.create_task(self.bot.run())]
            if self.coach is not None:
                tasks.append(asyncio.create_task(self.coach.run()))
            try:
                return await asyncio.wait_for(coro_fn(), timeout)
            finally:
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
        return asyncio.run(while_serving(self.hub, main()))


def test_a_whole_game_on_one_pod_against_the_bot_never_shows_its_locked_card(tmp_path):
    rig = OnePod(str(tmp_path / "games.sqlite3"), dict(iterations=16, pace_ms=0, step_ms=0))
    table = rig.table
    scans = {"locks": 0, "items": 0, "reveals": 0}
    lock = {}
    items = []

    def listen(audience, msg):
        s = table.session
        if s is None or audience not in ("public", HUMAN):
            return
        if msg.get("t") == "ready_locked" and msg.get("seat") == BOT and BOT in s.locked:
            seq = s.locked[BOT]["seq"]
            card = next(r.body["value"] for r in table.store.records(s.game_id, kinds=("input",)) if r.seq == seq)
            shown = display_state(table)
            lock.clear()
            lock.update(card=card, nonce=s._nonce[BOT], seq=seq, last_battle=shown["last_battle"],
                        fought=sum(1 for e in s.log if e["e"] == "reveal"),
                        prelog={e["text"]["ko"] for e in s.log})
            scans["locks"] += 1
        if lock and BOT in s.locked and s.engine_state.phase == "ready":
            items.append(("%s %s" % (audience, msg.get("t")), json.dumps(msg, ensure_ascii=False)))
        elif lock:
            lock.clear()
            scans["reveals"] += 1

    table.subscribe(listen)

    def poll():
        """What the API and the record show now, while the bot's ready is locked."""
        s = table.session
        if not lock or BOT not in s.locked or s.engine_state.phase != "ready":
            return
        shown = display_state(table)
        coach = shown.get("coach") or {}
        assert all(e["battle"] <= lock["fought"] for e in coach.get("entries", [])), "the coach shows a battle before its reveal"
        shown = dict(shown, coach=None)      # the coach's earlier battles: history, like the log
        gid = s.game_id
        for name, data in (("/api/state display", shown), ("snapshot", table.snapshot()), ("export", table.export(gid)),
                           ("judge log", {"records": s.judge_log()})):
            items.append((name, json.dumps(data, ensure_ascii=False)))
        scans["items"] += check_hidden(items, {BOT: lock}, s.engine_state.cards)
        items.clear()

    async def game():
        table.start("referee", seed=41, meta=practice_meta(BOT, "strong", ["a", "b"]))
        await rig.seat_the_pod()
        s = table.session
        end = time.monotonic() + 500
        while s.winner is None:
            rig.player.step()
            poll()
            assert time.monotonic() < end, "the game did not finish; hub said: %s" % rig.lines[-5:]
            await asyncio.sleep(0.01)
        # the coach thinks in its own process, after each reveal: its last battle's lines come after
        # the game's end on a busy machine (an earlier battle's, once a later reveal came, are stale)
        await rig.wait(lambda: rig.coach.analysed >= 1, 600, "the coach's first analysis")
        return s

    try:
        s = rig.run(game)
        recs = table.store.records(s.game_id)
        bot_readies = [r for r in recs if r.kind == "input" and r.seat == BOT and r.body["kind"] == "ready"]
        pod_readies = [r for r in recs if r.kind == "input" and r.seat == HUMAN and r.body["kind"] == "ready"]
        assert bot_readies and all(r.body["source"] == "bot" and r.hidden for r in bot_readies)
        assert pod_readies and all(r.body["source"] == "pod" for r in pod_readies)
        checks = verify_commitments(table.store, s.game_id)
        assert checks and all(ok for _, ok in checks)
        assert rig.player.presses > len(pod_readies)          # the person's answers came from the pod's buttons
        assert scans["locks"] >= 3 and scans["items"] >= 20, scans
        assert rig.coach.analysed >= 1
    finally:
        rig.close()


def test_a_pods_ready_is_stamped_on_time_while_the_bot_thinks(tmp_path):
    rig = OnePod(str(tmp_path / "games.sqlite3"), dict(iterations=10 ** 7, pace_ms=0, step_ms=0), coach=False)
    table = rig.table
    out = {}

    async def turn():
        table.start("referee", seed=42, meta=practice_meta(BOT, "strong"))
        await rig.seat_the_pod()
        s = table.session
        await rig.wait(lambda: rig.bot.questions.current.get(BOT) is not None, 60, "the bot's question")
        thinking = rig.bot.questions.current[BOT].future
        await rig.wait(lambda: rig.player.ready_to_act() and rig.hub.current(HUMAN)[0].kind == "ready", 60,
                       "the pod's ready prompt")
        before = table.clock.now_ms()
        await rig.player.press(rig.player.decide())
        await rig.wait(lambda: HUMAN in s.locked, 60, "the pod's ready")
        after = table.clock.now_ms()
        stamp = s.locked[HUMAN]["stamp"]
        out.update(before=before, after=after, stamp=stamp, thinking=not thinking.done(), deadline=s.deadline.get(BOT))
        # the bot's deadline runs: out of time, it locks the greedy answer, on time
        await rig.wait(lambda: rig.bot.submitted >= 1, 30, "the bot's ready")
        return s

    try:
        s = rig.run(turn)
        assert out["before"] <= out["stamp"] <= out["after"], out
        assert out["thinking"], "the bot had finished thinking: this test shows nothing"
        assert out["deadline"] is not None
        recs = table.store.records(s.game_id)
        bot_ready = next(r for r in recs if r.kind == "input" and r.seat == BOT and r.body["kind"] == "ready")
        assert bot_ready.body["source"] == "bot"
        assert not [r for r in recs if r.kind == "judge" and r.body.get("event") == "deadline_expired"]
        assert rig.bot.fallbacks == 1 and rig.bot.worker.started >= 1
    finally:
        rig.close()
