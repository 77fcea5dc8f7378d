"""``lumen demo``: the whole table on this machine, no hardware.

The hub (a Table with its durable record), two simulated pods running the real
firmware under the MicroPython unix port over pseudo-terminals, and the table
display served on localhost. Each pod is played by a bot that presses the
pod's buttons (cursor to the slot, READY), or by a person at the terminal
(``--play a``). Every battle is printed in Korean (``--lang en`` for English)
with the rule behind each result.

``--text`` keeps the engine-only version: two bots play through the engine
directly, printed turn by turn (no pods, no display; fast).
"""

import asyncio
import os
import random
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from engine.bots import Bot, play
from engine.cards import load_sample
from engine import apply, new_game

from hub.sessions.referee import QUIET_EVENTS, narrate_events  # noqa: F401  (QUIET_EVENTS: older callers)

BOARD_IDS = {"a": "e660583883000001", "b": "e660583883000002"}


# ---------------------------------------------------------------- engine-only text demo

def run_text_demo(seed=1, lang="ko", games=1, quiet=False, out=print):
    cs, decks = load_sample()
    names = sorted(decks)
    da, db = decks[names[1]], decks[names[0]]
    for g in range(games):
        gseed = seed + g
        if not quiet:
            title = "루멘콘덴서 데모 — 샘플 덱 (비공식)" if lang == "ko" else "Lumen Condenser demo — sample decks (unofficial)"
            out("== %s: 1P %s vs 2P %s (seed %d) ==" % (title, da.character.name, db.character.name, gseed))
        st, events = new_game(cs.cards, da.as_game_deck(), db.as_game_deck(), seed=gseed)
        bots = {"a": Bot(gseed * 2 + 1, "greedy"), "b": Bot(gseed * 2 + 2, "greedy")}

        def show(state, evs, *rest):
            if not quiet:
                print_events(state, evs, lang, out)

        show(st, events)
        st = play(st, bots, apply, on_step=show)
        out(result_line(g + 1, st.winner, st.turn, {p: st.players[p].health for p in "ab"},
                        {"a": da.character.name, "b": db.character.name}, lang))
    return 0


def print_events(state, events, lang, out):
    for line in narrate_events(state, events, lang):
        out(line)


def result_line(n, winner, turns, health, names, lang):
    label = {"a": "1P %s" % names["a"], "b": "2P %s" % names["b"], "draw": "무승부" if lang == "ko" else "draw"}[winner]
    if lang == "ko":
        return "게임 %d: 승자 %s (%d턴, 1P 체력 %d, 2P 체력 %d)" % (n, label, turns, health["a"], health["b"])
    return "game %d: winner %s (%d turns, 1P health %d, 2P health %d)" % (n, label, turns, health["a"], health["b"])


# ---------------------------------------------------------------- the table demo

class PodPlayer:
    """Plays one seat through its pod's buttons, as a person would. ``questions``: a search
    level's questions (hub/bot/questions.py): the answer is thought out in the bot's own
    process, and the pod's buttons pressed once it is back; None: the greedy player, here."""

    def __init__(self, seat, sim, hub, table, seed, pace, executor, questions=None, coach=None):
        self.seat = seat
        self.sim = sim
        self.hub = hub
        self.table = table
        self.bot = Bot(seed, "greedy")
        self.questions = questions
        self.coach = coach
        self.rnd = random.Random(seed)
        self.pace = pace
        self.executor = executor
        self.busy = False
        self.acted = None           # the prompt key this player already answered
        self.human = False
        self.presses = 0

    def press(self, buttons):
        """Press a sequence of buttons on the pod (in a worker thread)."""
        def job():
            for b in buttons:
                if self.pace:
                    time.sleep(self.pace * (0.12 + self.rnd.random() * 0.1))
                self.sim.press(b)
                self.presses += 1
        self.busy = True
        fut = asyncio.get_running_loop().run_in_executor(self.executor, job)
        fut.add_done_callback(lambda f: setattr(self, "busy", False))
        return fut

    def ready_to_act(self):
        c = self.hub.seated(self.seat)
        return (not self.busy and c is not None and c.link.up and c.link.unacked == 0
                and c.sent_state is not None)

    def step(self):
        """Press whatever the current prompt needs (a game the engine referees)."""
        if self.human or not self.ready_to_act():
            return
        buttons = self.decide()
        if buttons:
            self.press(buttons)

    def decide(self):
        """The buttons that answer the seat's open prompt as this player would (cursor to the
        slot, READY), or None when nothing new is asked. Also what bench/hub_counts.py plans
        a game's presses with, ahead of the game."""
        s = self.table.session
        pr, flags, _ = self.hub.current(self.seat)
        if pr.kind == "none" or flags & 2:
            return None
        key = (pr.id, len(pr.chosen))
        if key == self.acted:
            return None
        reqs = [r for r in s.requests(self.seat) if r["kind"] != "setup"]
        if not reqs:
            return None
        req = reqs[0]
        if self.questions is not None:
            q = self.questions.look(s, self.seat, self.table.clock.now_ms(), lambda: None)
            if q is None:
                return None
            if q.answer is None and q.failed is None:
                return None           # still thinking (in its own process): look again at the next step
            if q.answer is None:
                q.answer = self.questions.fallback(s, q)
            kind, value = q.answer
            if self.coach is not None and kind == "ready":
                self.coach.bot_decided(s, self.seat, q)     # shown after the reveal, never before
        else:
            kind, value = self.bot.answer(s.engine_state, req)
        if kind == "timeout":
            return None
        if req["kind"] == "discard":
            left = list(value)
            for c in pr.chosen:
                if c in left:
                    left.remove(c)
            value = left[0]
        slot = self.hub.slot_of(self.seat, value)
        self.acted = key
        return ["prev", "ready"] if slot == 0 else ["next"] * (slot - 1) + ["ready"]


class TableDemo:
    def __init__(self, seed=1, lang="ko", games=1, mode="referee", port=8000, serve=True, quiet=False,
                 play=None, pace=None, forever=False, db=None, out=print, host="127.0.0.1", level="easy"):
        from hub.record.store import Store
        from hub.sessions.table import Table
        self.seed = seed
        self.lang = lang
        self.games = games
        self.mode = mode
        self.port = port
        self.host = host
        self.serve = serve
        self.quiet = quiet
        self.play = play
        self.forever = forever
        self.pace = (0.6 if serve and (forever or games == 1) else 0.0) if pace is None else pace
        self.out = out
        self.tmp = None
        if db is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="lumen-demo-")
            db = os.path.join(self.tmp.name, "games.sqlite3")
        self.table = Table(Store(db))
        self.results = []
        self.done = threading.Event()
        self.error = None
        self.sims = {}
        self.hub = None
        # a search level plays the bots' pods (its thinking in its own process), and the coach
        # shows on the display what each of them thought, after each reveal
        from hub.sessions.table import SESSIONS
        self.level = "easy" if SESSIONS[mode].takes_actions else level     # players who enter results: no engine to search
        self.worker = self.coach = None

    # -- printing
    def _on_table(self, audience, msg):
        if audience == self.play and msg.get("t") in ("you", "opponent_ready"):
            self._show_own_prompt(msg)
            return
        if audience != "public" or self.quiet:
            return
        s = self.table.session
        if s is not None:
            for line in s.narrate(msg, self.lang):
                self.out(line)

    # -- a person at the terminal plays one pod (their own terminal: their own choices only)
    def _show_own_prompt(self, msg):
        if msg.get("t") == "opponent_ready":
            self.out("   >> %s" % ("상대가 레디했습니다: 10초 안에 고르세요" if self.lang == "ko"
                                   else "your opponent readied: choose within 10 seconds"))
            return
        if self.hub is None:
            return
        pr, flags, _ = self.hub.current(self.play)
        if pr.kind == "none" or flags & 2 or getattr(self, "_shown", None) == pr.id:
            return
        self._shown = pr.id
        names = self.table.session.labels(pr.options)
        opts = "  ".join("%d) %s" % (i, n) for i, n in enumerate(names, 1))
        if pr.pass_value:
            opts += "  0) %s" % pr.pass_value
        self.out("   >> %s [%s] %s" % ("당신의 선택" if self.lang == "ko" else "your choice", pr.kind, opts or "READY"))
        self.out("      %s" % ("번호+Enter, 또는 n/p/r/b (다음/이전/READY/뒤로)" if self.lang == "ko"
                              else "number+Enter, or n/p/r/b (next/prev/READY/back)"))

    def _stdin_loop(self):
        keys = {"n": "next", "p": "prev", "r": "ready", "b": "back"}
        player = self.players[self.play]
        for line in sys.stdin:
            line = line.strip().lower()
            if self.done.is_set():
                return
            if line in keys:
                buttons = [keys[line]]
            elif line.isdigit():
                slot = int(line)
                pr, _, _ = self.hub.current(self.play)
                if slot == 0:
                    buttons = ["prev", "ready"]
                elif 1 <= slot <= len(pr.options):
                    buttons = ["next"] * (slot - 1) + ["ready"]
                else:
                    self.out("   ?")
                    continue
            else:
                continue
            for b in buttons:
                player.sim.press(b)

    # -- the run
    def run(self):
        from hub.pods.sim import SimPod, build
        from hub.pods.pod_hub import PodHub
        from hub.pods.ports import SimPort
        build()
        self.sims = {seat: SimPod(board_id=BOARD_IDS[seat]) for seat in ("a", "b")}
        self.hub = PodHub(self.table, mode=self.mode, out=self._log)
        for seat in ("a", "b"):
            self.hub.add(SimPort(self.sims[seat], name="pod-%s" % ("1P" if seat == "a" else "2P")))
        self.table.subscribe(self._on_table)
        executor = ThreadPoolExecutor(max_workers=2)
        questions = None
        if self.level != "easy":
            from hub.bot.coach import Coach
            from hub.bot.questions import Questions
            from hub.bot.worker import ThinkWorker
            self.worker = ThinkWorker(name="lumen-demo-bots")
            questions = Questions(self.worker, level=self.level)
            self.coach = Coach(self.table, worker=self.worker, level=self.level)
            self.coach.own = {"a", "b"} - {self.play}
        self.players = {seat: PodPlayer(seat, self.sims[seat], self.hub, self.table, self.seed * 10 + i, self.pace,
                                        executor, questions, self.coach) for i, seat in enumerate(("a", "b"))}
        if self.play:
            self.players[self.play].human = True
            threading.Thread(target=self._stdin_loop, daemon=True).start()
        try:
            if self.serve:
                from hub.web import server as web
                try:
                    handle = web.start_in_thread(self.table, port=self.port, host=self.host,
                                                 tasks=(self._pods_task, self._driver_task))
                except (RuntimeError, OSError):
                    # the port is taken: any free one will do for a demo
                    self.out("포트 %d 사용 중: 빈 포트로 엽니다 / port %d is busy, using a free one" % (self.port, self.port))
                    handle = web.start_in_thread(self.table, port=0, host=self.host,
                                                 tasks=(self._pods_task, self._driver_task))
                self._announce(handle)
                try:
                    while not self.done.wait(0.2):
                        pass
                except KeyboardInterrupt:
                    self.out("\n중단 / stopped")
                handle.stop()
            else:
                asyncio.run(self._standalone())
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
            if self.worker is not None:
                self.worker.close()
            for sim in self.sims.values():
                sim.close()
            self.table.store.close()
            if self.tmp is not None:
                self.tmp.cleanup()
        if self.error:
            raise self.error
        return 0

    def _log(self, text):
        if not self.quiet:
            self.out("   [hub] " + text)

    def _announce(self, handle):
        from hub.web.server import announce
        if not self.quiet or self.forever:
            announce(self.table, self.host, handle.port, self.out)

    async def _standalone(self):
        from hub.pods.pod_hub import while_serving
        await while_serving(self.hub, self._driver_task(None))

    async def _pods_task(self, _display):
        await self.hub.run(serial_devices=(), rescan=False)

    async def _driver_task(self, _display):
        try:
            await self._drive()
        except asyncio.CancelledError:
            raise
        except Exception as e:       # report, then let the main thread end the demo
            self.error = e
        finally:
            self.done.set()

    async def _wait(self, cond, timeout, what):
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise TimeoutError("demo: timed out waiting for %s" % what)
            await asyncio.sleep(0.01)

    async def _drive(self):
        hub = self.hub
        await self._wait(lambda: all(c.board_id for c in hub.conns), 20, "both pods to say hello")
        for seat in ("a", "b"):           # seating: the first READY press on a fresh pod claims a seat
            if hub.seated(seat) is None:
                if not self.quiet:
                    self.out("%s 포드의 READY를 눌러 좌석을 잡습니다 / pressing READY on pod %s to claim a seat"
                             % ("1P" if seat == "a" else "2P", seat))
                await self.players[seat].press(["ready"])
                await self._wait(lambda: hub.seated(seat) is not None, 10, "seat %s" % seat)
        n = 0
        sides = DEMO_SIDES[self.mode]
        while self.forever or n < self.games:
            n += 1
            gseed = self.seed + n - 1
            if not self.quiet:      # the header comes before the game's first events (turn 1)
                self.out("== %s %d: %s (seed %d) ==" % ("게임" if self.lang == "ko" else "game", n,
                                                       _title(self.mode, sides), gseed))
            meta = {"coach": ["a", "b"]} if self.coach is not None else None
            self.table.start(self.mode, *sides, seed=gseed, **({"meta": meta} if meta else {}))
            for p in self.players.values():
                p.acted = None
            await self._play_game()
            self._report(n)
            if self.forever:
                await asyncio.sleep(5)

    async def _play_game(self):
        """Play the game on the table to its end: every seat's prompt answered on its pod
        (the bots press the buttons); where the players enter results themselves (a tracker
        game: the session takes actions), one of them enters the battle's result on their
        pod after each reveal, and the display's "next turn" opens the next ready."""
        turns = 0
        while True:
            s = self.table.session
            if s.winner is not None:
                return
            if s.takes_actions:
                await self._entered_turn()
                turns += 1
                if turns > 300:
                    raise RuntimeError("tracker demo did not end")
            else:
                for p in self.players.values():
                    p.step()
            await asyncio.sleep(0.01)

    async def _entered_turn(self):
        """One turn where the players resolve the battle themselves: both lock a bare ready on
        their pods, reveal, one player enters the battle's result on the HP page of their pod,
        then next turn from the display."""
        s = self.table.session
        rnd = self.players["a"].rnd
        for seat in ("a", "b"):
            await self._wait(lambda: self.players[seat].ready_to_act(), 10, "pod %s" % seat)
            await self.players[seat].press(["ready"])
        # revealed: neither seat is asked to ready nor waits with a locked one
        await self._wait(lambda: all(s.prompt(seat).kind == "none" for seat in ("a", "b")), 15, "the reveal")
        if s.winner is not None:
            return
        loser = rnd.choice(("a", "b"))
        step = rnd.randrange(6)            # HP page: -100 .. -600
        await self._wait(lambda: self.players[loser].ready_to_act(), 10, "pod %s" % loser)
        await self.players[loser].press(["back"] + ["next"] * step + ["ready"])
        await self._wait(lambda: self.players[loser].ready_to_act(), 10, "the entry")
        await asyncio.sleep(1.2)          # past the 1-second processing unit
        if s.winner is None:
            self.table.submit(None, "action", {"action": "next_turn"}, source="display")

    def _report(self, n):
        s = self.table.session
        status = {p: s.seat_status(p) for p in "ab"}
        self.out(result_line(n, s.winner, s.turn, {p: status[p].health for p in "ab"},
                             {p: status[p].character for p in "ab"}, self.lang))
        self.results.append(s.winner)


#: what each mode's demo game is played with: sample decks, or two roster characters
DEMO_SIDES = {"referee": ("serin", "gangcheol"), "tracker": ("니아", "울프")}


def _title(mode, sides):
    decks = load_sample()[1]
    return "%s vs %s" % tuple(decks[x].character.name if x in decks else x for x in sides)


def run_table_demo(**kw):
    return TableDemo(**kw).run()


def run(args):
    if args.text:
        return run_text_demo(seed=args.seed, lang=args.lang, games=args.games or 1, quiet=args.quiet)
    if args.bots and args.play:
        print("--bots and --play cannot go together: --bots means bots play both pods", file=sys.stderr)
        return 2
    forever = args.bots and args.games is None and args.port is not None
    level = getattr(args, "level", None) or ("strong" if args.bots or args.play else "easy")
    return run_table_demo(seed=args.seed, lang=args.lang, games=args.games or 1, mode=args.mode,
                          port=args.port if args.port is not None else 8000, serve=not args.no_serve,
                          quiet=args.quiet, play=args.play, pace=args.pace, forever=forever, db=args.db,
                          host=args.host, level=level)
