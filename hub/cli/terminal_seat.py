"""A person at the terminal plays one seat of ``lumen demo --play a|b`` (their own choices
only: the terminal is their pod, with a screen).

What a newcomer needs that the first version lacked (issue 34.4): the game waits for Enter
before its first ready (the banner is read first), every question says in the chosen
language what it is about (the card, the effect and its timing, never a request kind), a
bad answer says what was wrong, the 10-second countdown shows, and the coach's line for
this seat is printed after each reveal. Answers are still pressed on the seat's simulated
pod (cursor to the slot, READY), so the terminal keeps every guarantee the pod has.
"""

import threading

from hub.sessions.asking import question

#: seconds left at which the countdown is said (a line each: the terminal is not redrawn)
COUNTDOWN_AT = (5, 3, 1)


def bad_answer(line, count, has_pass, lang):
    """What was wrong with a typed answer, said to the person (None: it is a good one)."""
    keys = ("n", "p", "r", "b")
    if line in keys:
        return None
    if line.isdigit():
        n = int(line)
        if 1 <= n <= count or (n == 0 and has_pass):
            return None
        low = 0 if has_pass else 1
        if count == 0:
            return ("지금은 고를 번호가 없습니다: r 로 READY" if lang == "ko" else "there is no number to choose now: r for READY")
        return ("%d 번은 없습니다: %d부터 %d까지 고르세요" % (n, low, count) if lang == "ko"
                else "there is no option %d: choose %d to %d" % (n, low, count))
    return ("알 수 없는 입력입니다 (%s): 번호+Enter, 또는 n/p/r/b (다음/이전/READY/뒤로)" % line
            if lang == "ko" else "'%s' is not an answer: a number+Enter, or n/p/r/b (next/prev/READY/back)" % line)


class TerminalSeat:
    """The terminal's side of one seat: ``demo`` is the TableDemo (its hub, table, players,
    output and language)."""

    def __init__(self, demo, seat):
        self.demo = demo
        self.seat = seat
        self.lang = demo.lang
        self.started = threading.Event()     # Enter was pressed: the first game may start
        self.shown = None                    # the prompt id last shown
        self.coached = 0                     # coach entries of this seat already printed
        self.said_left = None                # (prompt id, seconds) of the countdown line last said

    def out(self, text):
        self.demo.out(text)

    def banner(self):
        ko = self.lang == "ko"
        seat = "1P" if self.seat == "a" else "2P"
        self.out("== %s ==" % ("당신은 %s입니다. 터미널이 당신의 포드입니다." % seat if ko
                               else "You are %s. The terminal is your pod." % seat))
        self.out("   %s" % ("질문마다 번호+Enter로 답합니다. n/p/r/b: 다음/이전/READY/뒤로" if ko
                           else "Answer each question with a number+Enter. n/p/r/b: next/prev/READY/back"))
        self.out("   %s" % ("상대가 레디하면 10초 안에 골라야 합니다 (가이드 3.10: 무응답)" if ko
                           else "once your opponent readies you have 10 seconds to choose (guide 3.10: non-response)"))
        self.out("   %s" % ("Enter를 누르면 시작합니다" if ko else "press Enter to start"))

    # -- the table's messages for this seat (the demo's subscription calls these)
    def on_own(self, msg):
        if msg.get("t") == "opponent_ready":
            self.out("   >> %s" % ("상대가 레디했습니다: 10초 안에 고르세요" if self.lang == "ko"
                                   else "your opponent readied: choose within 10 seconds"))
            return
        self.show_prompt()

    def show_prompt(self):
        hub, s = self.demo.hub, self.demo.table.session
        if hub is None or s is None:
            return
        pr, flags, _ = hub.current(self.seat)
        if pr.kind == "none" or flags & 2 or self.shown == pr.id:
            return
        self.shown = pr.id
        ask, labels, passing = question(s, self.seat, pr.request_kind or pr.kind, pr.options, pr.pass_value, pr.bare,
                                        self.lang)
        self.out("   >> %s: %s" % ("당신의 차례" if self.lang == "ko" else "your turn", ask))
        for i, label in enumerate(labels, 1):
            self.out("      %d) %s" % (i, label))
        if passing:
            self.out("      0) %s" % passing)

    def on_coach(self):
        """The coach's lines for this seat, once each (after the reveal: the coach says nothing before)."""
        coach = self.demo.coach
        view = coach.view() if coach is not None else None
        if not view:
            return
        mine = [e for e in view["entries"] if e["seat"] == self.seat and (e.get("text") or {}).get(self.lang)]
        for e in mine[self.coached:]:
            self.out("   %s %s" % ("코치:" if self.lang == "ko" else "coach:", e["text"][self.lang]))
        self.coached = len(mine)

    def tick(self):
        """Say the countdown at 5, 3 and 1 seconds left while this seat's ready is open."""
        s = self.demo.table.session
        if s is None or self.demo.hub is None:
            return
        status = s.ready_status().get(self.seat) if hasattr(s, "ready_status") else None
        ms_left = status.get("ms_left") if status else None
        pr, flags, _ = self.demo.hub.current(self.seat)
        if ms_left is None or pr.kind != "ready" or flags & 2:
            return
        secs = (ms_left + 999) // 1000
        for at in COUNTDOWN_AT:
            if secs <= at and (self.said_left is None or self.said_left[0] != pr.id or self.said_left[1] > at):
                self.said_left = (pr.id, at)
                self.out("   ⏱ %s" % ("%d초 남았습니다" % secs if self.lang == "ko" else "%d s left" % secs))
                return

    # -- the keyboard
    def read(self, stdin):
        """Read answers until the input ends (a thread of its own)."""
        keys = {"n": "next", "p": "prev", "r": "ready", "b": "back"}
        player = self.demo.players[self.seat]
        for raw in stdin:
            line = raw.strip().lower()
            if not self.started.is_set():
                self.started.set()          # Enter: the first game may start
                continue
            if self.demo.done.is_set():
                return
            if not line:
                continue
            pr, flags, _ = self.demo.hub.current(self.seat)
            if pr.kind == "none" or flags & 2:
                self.out("   %s" % ("지금은 답할 질문이 없습니다" if self.lang == "ko" else "nothing is asked of you now"))
                continue
            why = bad_answer(line, len(pr.options), pr.pass_value is not None, self.lang)
            if why:
                self.out("   ! " + why)
                continue
            if line in keys:
                buttons = [keys[line]]
            else:
                slot = int(line)
                buttons = ["prev", "ready"] if slot == 0 else ["next"] * (slot - 1) + ["ready"]
            for b in buttons:
                player.sim.press(b)
        self.started.set()          # the input ended (not a terminal): nobody will press Enter
