"""``lumen demo --bots``: bot referee games at the table, at a pace people can follow."""

import asyncio
import logging
import random
import time

from hub.web.display import game_over

log = logging.getLogger("lumen.web")


class BotPlayers:
    """``lumen demo --bots``: two seeded bots play referee games with the sample decks at a
    pace people can follow, forever; readies arrive a few seconds apart so the countdown
    shows, and now and then the second player lets the 10 seconds run out."""

    def __init__(self, hub, seed=1, pace=1.0, end_pause=8.0):
        from engine.bots import Bot
        self.Bot = Bot
        self.hub = hub
        self.table = hub.table
        self.seed = seed
        self.pace = pace
        self.end_pause = end_pause
        self.rnd = random.Random(seed)
        self.bots = None
        self.game_id = None
        self.over_since = None
        self.ready_at = {}

    def new_game(self):
        t = self.table
        if t.timer.state in ("idle",) or t.timer.finished:
            t.timer_action("round_start")
        t.start_referee(seed=self.seed)
        self.seed += 1

    def step(self, now):
        """One look at the table; returns seconds to wait. A tracker game someone started
        pauses the bots; a referee game started or resumed by hand is played on."""
        t = self.table
        s = t.session
        if s is not None and s.engine_state is None:
            return 1.0
        if s is None or game_over(t):
            if s is not None and self.over_since is None:
                self.over_since = now
            if s is None or now - self.over_since >= self.end_pause:
                self.over_since = None
                self.new_game()
            return 0.5
        if self.game_id != s.game_id:
            self.game_id = s.game_id
            seed = s.game_id * 1000 + self.seed
            self.bots = {"a": self.Bot(seed * 2 + 1, "greedy"), "b": self.Bot(seed * 2 + 2, "greedy")}
            self.ready_at = {}
        st = s.engine_state
        pending = st.pending
        readies = [r for r in pending if r["kind"] == "ready"]
        if readies:
            for r in readies:
                seat = r["player"]
                if seat not in self.ready_at:
                    first = self.rnd.uniform(1.5, 4.0)
                    self.ready_at[seat] = now + (first if not self.ready_at else self.rnd.uniform(first + 1.0, 8.5))
                    if len(self.ready_at) == 2 and self.rnd.random() < 0.03:
                        self.ready_at[seat] = float("inf")     # this one lets the 10 seconds run out
            for r in readies:
                seat = r["player"]
                if now >= self.ready_at[seat]:
                    kind, value = self.bots[seat].answer(st, r)
                    t.submit(seat, kind, value, source="pod")
                    return 0.1
            return 0.1
        self.ready_at = {}
        req = pending[0] if pending else None
        if req is None:
            return self.pace
        kind, value = self.bots[req["player"]].answer(st, req)
        t.submit(req["player"], kind, value, source="pod")
        return self.pace

    async def run(self):
        while True:
            try:
                wait = self.step(time.monotonic())
            except Exception:
                log.exception("bot step failed")
                self.ready_at = {}
                wait = 1.0
            await asyncio.sleep(wait)
