"""A simulated table for demos and the benchmark: a real hub table (its session, its
SQLite record) whose two players are seeded bots, joined to the event through a real
``TableLink`` and ``Bridge``. Lightweight: no pods, no web server, no thread of its own;
a driver calls ``step()`` for many tables from one loop."""

import os

from engine.bots import Bot

from hub.record.store import Store
from hub.sessions.table import Table

from .bridge import Bridge
from .tablelink import TableLink


def start_game(table, match, game_no):
    """A referee game with the sample decks, seeded by round, table and game."""
    seed = match["round"] * 10_000 + match["table"] * 10 + game_no
    return table.start_referee(seed=seed)


class SimTable:
    def __init__(self, url, event, number, folder, seed=1, pace=0.05, ready_delay=0.0):
        os.makedirs(folder, exist_ok=True)
        self.number = number
        self.store = Store(os.path.join(folder, "games.sqlite3"))
        self.table = Table(self.store, name="table-%d" % number)
        self.link = TableLink(url, event, number, os.path.join(folder, "outbox.sqlite3"))
        self.bridge = Bridge(self.table, self.link, start_game, auto_confirm=True)
        self.seed, self.pace, self.ready_delay = seed, pace, ready_delay
        self.bots, self.bots_for = None, None
        self.decisions = 0

    def start(self):
        self.link.start()
        return self

    def stop(self, graceful=True):
        self.link.stop(graceful)
        self.store.close()

    def step(self, now):
        """One look at the table: the bridge, then one bot decision. Returns the delay until
        this table wants another step."""
        self.table.tick()
        self.bridge.tick()
        s = self.table.session
        if s is None or s.engine_state is None or s.winner is not None or self.bridge.done:
            return min(max(self.pace, 0.05), 0.1)     # a hub's upkeep looks 10 times a second
        if self.bots_for != s.game_id:
            self.bots_for = s.game_id
            base = (self.seed * 1_000_003 + s.game_id * 101 + self.number) * 2
            self.bots = {"a": Bot(base + 1, "greedy"), "b": Bot(base + 2, "greedy")}
        pending = s.engine_state.pending
        if not pending:
            return self.pace
        req = pending[0]
        kind, value = self.bots[req["player"]].answer(s.engine_state, req)
        self.table.submit(req["player"], kind, value, source="pod")
        self.decisions += 1
        return self.pace
