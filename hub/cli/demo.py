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
                 play=None, pace=None, forever=False, db=None, out=print, host="127.0.0.1", level="easy",
                 round_minutes=None, wall=None):
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
        # every game runs on a round clock and ends, by the rules or by the end-of-round procedure
        # (hub/sessions/end_of_round.py, ruling R-time): bots that keep 철벽 against 잔영난무 hold
        # the stall count at 0 (guide 5.1.1) and never end by the rules (issue 34.2)
        self.round_ms = int(round((round_minutes if round_minutes is not None
                                   else DEMO_ROUND_MIN if play is None else PLAYER_ROUND_MIN) * 60_000))
        self.pace = (0.6 if serve and (forever or games == 1) else 0.0) if pace is None else pace
        self.out = out
        self.tmp = None
        if db is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="lumen-demo-")
            db = os.path.join(self.tmp.name, "games.sqlite3")
        self.table = Table(Store(db), wall=wall)     # wall: the match clock's (a test's own clock)
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
        self.terminal = None            # the person's seat at the terminal (--play)

    # -- printing
    def _on_table(self, audience, msg):
        if self.terminal is not None and audience == self.play and msg.get("t") in ("you", "opponent_ready"):
            self.terminal.on_own(msg)
            return
        if audience != "public":
            return
        if self.terminal is not None and msg.get("t") == "coach":
            self.terminal.on_coach()
        if self.quiet:
            return
        s = self.table.session
        if s is not None:
            for line in s.narrate(msg, self.lang):
                self.out(line)

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
            from hub.cli.terminal_seat import TerminalSeat
            self.players[self.play].human = True
            self.terminal = TerminalSeat(self, self.play)
            threading.Thread(target=self.terminal.read, args=(sys.stdin,), daemon=True).start()
        interrupted = False
        try:
            if self.serve:
                from hub.web import server as web
                try:
                    handle = web.start_in_thread(self.table, port=self.port, host=self.host,
                                                 tasks=(self._pods_task, self._driver_task))
                except web.PortBusy as e:
                    if not e.busy:
                        raise
                    # bound before anything starts (issue 34): any free port will do for a demo
                    self.out("포트 %d 사용 중: 빈 포트로 엽니다 / port %d is busy, using a free one" % (self.port, self.port))
                    handle = web.start_in_thread(self.table, port=0, host=self.host,
                                                 tasks=(self._pods_task, self._driver_task))
                self._announce(handle)
                try:
                    while not self.done.wait(0.2):
                        pass
                except KeyboardInterrupt:
                    self.out("\n중단 / stopped")
                    interrupted = True
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
        if self.results:
            self.out(self._record_line())
        if interrupted:
            return 130
        if not self.forever and len(self.results) < self.games:
            # never a silent success without the games asked for (issue 34.1)
            self.out("데모가 게임 %d개 중 %d개만 마쳤습니다 / the demo finished %d of %d games"
                     % (self.games, len(self.results), len(self.results), self.games))
            return 1
        return 0

    def _record_line(self):
        """Where the games went: a temporary record is gone with the demo (``lumen games`` shows
        nothing of it); ``--db`` keeps one."""
        if self.tmp is not None:
            return ("기록: 임시 파일이라 데모와 함께 지워졌습니다 (--db FILE 로 남기고 lumen games --db FILE 로 봅니다) / "
                    "record: temporary, gone with the demo (keep it with --db FILE, then lumen games --db FILE)")
        path = self.table.store.path
        return "기록 / record: %s (lumen games --db %s)" % (path, path)

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
        if self.terminal is not None:
            # the first ready waits for the person: its 10 seconds never run out while the banner is read
            self.terminal.banner()
            await self._wait(self.terminal.started.is_set, float("inf"), "Enter")
        n = 0
        sides = DEMO_SIDES[self.mode]
        while self.forever or n < self.games:
            n += 1
            gseed = self.seed + n - 1
            if not self.quiet:      # the header comes before the game's first events (turn 1)
                self.out("== %s %d: %s (seed %d) ==" % ("게임" if self.lang == "ko" else "game", n,
                                                       _title(self.mode, sides), gseed))
            meta = {"coach": ["a", "b"]} if self.coach is not None else None
            if not self.quiet:
                self.out(round_line(self.round_ms, self.lang))
            self.table.start(self.mode, *sides, seed=gseed, **({"meta": meta} if meta else {}))
            self.table.timer_action("round_start", by="demo", duration_ms=self.round_ms)
            for p in self.players.values():
                p.acted = None
            await self._play_game(n)
            self._report(n)
            if self.forever:
                await asyncio.sleep(5)

    async def _play_game(self, n=1):
        """Play the game on the table to its end: every seat's prompt answered on its pod
        (the bots press the buttons); where the players enter results themselves (a tracker
        game: the session takes actions), one of them enters the battle's result on their
        pod after each reveal, and the display's "next turn" opens the next ready.
        ``--quiet`` says a progress line every PROGRESS_TURNS turns of a long game."""
        turns = 0
        said = 0
        while True:
            s = self.table.session
            if s.winner is not None or self.table.round_end.decided is not None:
                return              # by the rules, or at time by the end-of-round procedure
            if self.quiet and s.turn >= said + PROGRESS_TURNS:
                said = s.turn - s.turn % PROGRESS_TURNS
                self.out(self._progress_line(n, s))
            if s.takes_actions:
                await self._entered_turn()
                turns += 1
                if turns > 300:
                    raise RuntimeError("tracker demo did not end")
            else:
                for p in self.players.values():
                    p.step()
            if self.terminal is not None:
                self.terminal.tick()
            if self.table.next_due_in_ms() == 0:
                self.table.tick()           # the round clock's time (without the display's loop, nobody else looks)
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

    def _progress_line(self, n, s):
        status = {p: s.seat_status(p) for p in "ab"}
        left = self.table.timer.left(self.table.wall.now_ms()) // 1000
        if self.lang == "ko":
            return "게임 %d: %d턴 진행 중 (1P 체력 %d, 2P 체력 %d, 라운드 시계 %d:%02d)" % (
                n, s.turn, status["a"].health, status["b"].health, left // 60, left % 60)
        return "game %d: turn %d (1P health %d, 2P health %d, round clock %d:%02d)" % (
            n, s.turn, status["a"].health, status["b"].health, left // 60, left % 60)

    def _report(self, n):
        from hub.sessions.end_of_round import describe
        s = self.table.session
        status = {p: s.seat_status(p) for p in "ab"}
        decided = self.table.round_end.decided
        winner = s.winner if s.winner is not None else decided["winner"]
        self.out(result_line(n, winner, s.turn, {p: status[p].health for p in "ab"},
                             {p: status[p].character for p in "ab"}, self.lang))
        if s.winner is None:
            self.out("   " + describe(decided, self.lang))
        self.results.append(winner)


#: the round clock of a demo game (minutes): bots on both pods, or a person playing one
DEMO_ROUND_MIN = 3
PLAYER_ROUND_MIN = 30
#: ``--quiet``: a progress line every this many turns of a game
PROGRESS_TURNS = 25


def round_line(ms, lang):
    m = ms / 60_000
    m = "%d" % m if m == int(m) else "%.1f" % m
    if lang == "ko":
        return ("   라운드 시계 %s분: 시간이 되면 진행 중인 턴을 마치고 3턴 또는 5분 더 (먼저 오는 쪽), 그래도 끝나지 "
                "않으면 시작 체력 대비 남은 체력으로 판정합니다 (규정 R-time)" % m)
    return ("   round clock %s min: at time the turn in progress is finished, then 3 more turns or 5 minutes "
            "(whichever first); a game still undecided goes to the larger share of starting health (ruling R-time)" % m)


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
    if args.round_minutes is not None and not 1 / 60 <= args.round_minutes <= 600:
        print("--round-minutes: from 1/60 (a second) to 600, got %g" % args.round_minutes, file=sys.stderr)
        return 2
    forever = args.bots and args.games is None and args.port is not None
    level = getattr(args, "level", None) or ("strong" if args.bots or args.play else "easy")
    return run_table_demo(seed=args.seed, lang=args.lang, games=args.games or 1, mode=args.mode,
                          port=args.port if args.port is not None else 8000, serve=not args.no_serve,
                          quiet=args.quiet, play=args.play, pace=args.pace, forever=forever, db=args.db,
                          host=args.host, level=level, round_minutes=args.round_minutes)
