# The pod: buttons -> selection -> frames; frames -> state -> ring and sound.
# Single-threaded and clock-driven (every method takes `now`), so tests step
# it with a fake clock, and app.py drives it from asyncio tasks.
from micropython import const
import gc
import struct
import clock
import proto
import buttons
import countdown
import link
import ring
import selection
import board
import views

# proto.py's codes (private copies: tests/firmware/test_codes.py)
_T_READY = const(0x02)
_T_ANSWER = const(0x03)
_T_EXPIRED = const(0x04)
_T_READY_AT = const(0x08)
_T_TEST = const(0x09)
_T_WELCOME = const(0x81)
_T_STATE = const(0x82)
_T_COUNTDOWN = const(0x83)
_T_REVEAL = const(0x84)
_T_RESULT = const(0x85)
_T_NOTICE = const(0x86)
_T_SETUP = const(0x87)
_T_EXT = const(0x89)
_T_STRIP = const(0x8A)
_T_SELFTEST = const(0x8B)
_SELFTEST_START = const(1)
_T_SERVICE = const(0x8F)
_SERVICE_MAGIC = const(0x5AFE)
_LOG_RECOVERED = const(1)
_MODE_TRACKER = const(2)
_KIND_NONE = const(0)
_STATE_FLAG_LOCKED = const(2)
_OUT_HIT = const(1)
_OUT_EVADE = const(4)
_OUT_GUARDED = const(5)
_OUT_COUNTERED = const(7)
_OUT_WAS_HIT = const(8)
_OUT_NON_RESPONSE = const(13)
_NOTE_OPPONENT_LINK_OK = const(2)
_NOTE_NON_RESPONSE = const(6)
_NOTE_RESUMED = const(9)
# buttons.py's codes (private copies: tests/firmware/test_codes.py)
_BTN_READY = const(2)
_EV_PRESS = const(1)
_EV_MASK = const(7)
_EV_SHIFT = const(3)
# selection.py's codes (private copies: tests/firmware/test_codes.py)
_CHOOSING = const(1)
_REVEAL = const(3)
_RESULT = const(4)
_PAGE_BRIGHT = const(3)
# countdown.py's codes (private copies: tests/firmware/test_codes.py)
_CD_NOTHING = const(0)
_CD_SECOND = const(1)
_CD_END = const(2)

_FW_MAJOR = const(0)  # firmware version, sent in the hello
_FW_MINOR = const(6)  # 0.6: the pin map checked at power-up, the orientation marks (issue 33)
_FW_PATCH = const(0)

_OLED_BUDGET = const(128)  # OLED bytes show() sends a frame when no task does (tests' harness)
_RES = const(4000)  # board.RES_HZ: the piezo's resonance
_DEFAULT_BRIGHT = const(6)  # selection.BRIGHT_LEVELS[6] = 144: reads in a lit room


def where(e):
    # "module:line" of the innermost frame of e, for error logs ("" if none);
    # lumen pod flash compiles with line numbers (-O2) so this names the line
    try:
        import io
        import sys

        s = io.StringIO()
        sys.print_exception(e, s)  # pyright: ignore[reportArgumentType]  (the stubs' io.StringIO is not an IOBase_mp)
        t = s.getvalue()  # pyright: ignore[reportAttributeAccessIssue]  (nor has it getvalue: MicroPython's has)
        i = t.rfind('File "')
        if i < 0:
            return ""
        j = t.find('"', i + 6)
        k = t.find("line ", j)
        m = t.find(",", k)
        return "%s:%s" % (t[i + 6:j], t[k + 5:m] if m > k else t[k + 5:].strip())
    except Exception:
        return ""



class _NoTest:
    # the self-test until it is first started (Pod.self_test): never active
    active = False

    def start(self, now, by_hub=False):
        pass

    def button(self, ev, now):
        return False

    def tick(self, now):
        pass

    def action(self, a, now):
        pass

    def draw(self, r, now):
        pass


_NO_TEST = _NoTest()

class Pod:
    def __init__(self, hw, port, boot, now):
        self.hw = hw
        self.ring = ring.Ring(hw.np, hw.ring)
        self.screen = None
        if hw.oled is not None:
            import screen  # (and its built-in words) only on a pod with an OLED

            self.screen = screen.Screen(hw.oled)
        self.test = _NO_TEST  # the builder's self-test: selftest.py loads on its first start (self_test())
        self.ext = 0  # the protocol extension the hub said it speaks (0: none)
        self.hp = 0
        self.hand = 0
        self.btn_seen = -1  # no hub: the last button pressed, and when (views.no_hub)
        self.btn_t = now
        self.gc_soon = False  # a moment for a collection has come (app.py: a lock, a reveal, a result)
        self.oled_in_show = True  # the OLED's changes sent by show() (app.py: by a task of their own)
        self.buttons = buttons.Buttons(hw.pins, hw.active, hw.irq_off, hw.irq_on)
        self.sel = selection.Selection()
        self.cd = countdown.Countdown()
        self.snd = board.Sound(hw.pwm, hw.vibe)
        hello = (proto.PROTO, _FW_MAJOR, _FW_MINOR, _FW_PATCH, hw.board_id, self.ring.n, hw.features)
        self.link = link.Link(port, hello, boot, now)
        self.boot_t0 = now
        self.fp = 0
        self.priority = 0
        self.result_code = 0
        self.result_t0 = now
        self.notice_code = 0
        self.notice_t0 = now
        self.incompatible = False
        self.service_request = False
        self.rx_t = now
        self.faults = 0
        self.on_log = lambda msg: None  # app hook: persist a recovered error
        self.on_bright = lambda idx: None  # app hook: persist the brightness setting
        self.set_bright(_DEFAULT_BRIGHT)
        self.snd.beep(_RES, 80, now, 80)  # boot check: piezo and motor; views.py does the ring
        self.link.send_hello(now)

    def power_up(self, now):
        # READY held while plugging in: the builder's self-test, no hub needed
        if self.buttons.held(_BTN_READY):
            self.self_test().start(now)

    def self_test(self):
        # the builder's self-test (selftest.py), loaded the first time it is
        # asked for: a pod at a table never needs its code in the heap
        if self.test is _NO_TEST:
            import selftest

            self.test = selftest.SelfTest(self)
        return self.test

    def set_bright(self, idx):
        self.sel.bright = idx
        self.ring.level = selection.BRIGHT_LEVELS[idx]

    def fault(self, e, now):
        # Log and carry on: a bad frame or a bug in one handler must not leave
        # the pod dead. Drop transient display state; keep the link and the lock.
        self.faults += 1
        self.result_code = 0
        try:
            self.snd.tick(now, True)
            gc.collect()
            msg = "%s %s %s" % (where(e), type(e).__name__, e)
            self.link.send_log(_LOG_RECOVERED, msg.encode(), now)
            self.on_log(msg)
        except Exception:
            pass

    def input(self, now):
        # Drain every queued button event; a lock becomes a frame right here.
        try:
            sel = self.sel
            while True:
                ev = self.buttons.get()
                if ev < 0:
                    return
                if self.test.active:
                    self.test.button(ev, now)
                    continue
                if not self.link.up and ev & _EV_MASK == _EV_PRESS:
                    self.btn_seen = ev >> _EV_SHIFT  # no hub: the ring shows which button (views.no_hub)
                    self.btn_t = now
                sel.counting = self.cd.active
                was = sel.page
                if not sel.button(ev):
                    continue
                t = sel.out_t
                if t:
                    if t == _T_READY and self.ext:
                        # the hub judges the ready by its first edge, not by
                        # when the press was confirmed
                        age = clock.diff(now, self.buttons.t_press[_BTN_READY])
                        self.link.queue(_T_READY_AT, sel.a, sel.b, now, 0 if age < 0 else 255 if age > 255 else age)
                    else:
                        self.link.queue(t, sel.a, sel.b, now)
                    if t == _T_READY or t == _T_ANSWER:
                        self.cd.active = False
                        self.snd.beep(_RES, 30, now, 40)
                        self.gc_soon = True  # it went out: the press is over
                    else:
                        self.snd.beep(_RES, 20, now)
                else:
                    self.snd.beep(_RES, 5, now)  # a click for each cursor move
                self.ring.level = selection.BRIGHT_LEVELS[sel.bright]
                if was == _PAGE_BRIGHT and sel.page != _PAGE_BRIGHT:
                    self.on_bright(sel.bright)
        except Exception as e:
            self.fault(e, now)

    def rx_buf(self, buf, n, now):
        # buf[0:n] from the link, decoded in bulk (proto.Decoder.feed_from)
        self.rx_t = now
        lk = self.link
        d = lk.dec
        i = 0
        while i < n:
            i = d.feed_from(buf, i, n)
            if d.got:
                try:
                    t = lk.rx_frame(now)
                    if t >= 0:
                        self.handle(t, d.body, now)
                except Exception as e:
                    self.fault(e, now)

    def handle(self, t, b, now):
        sel = self.sel
        cd = self.cd
        if t == _T_STATE:
            v = struct.unpack_from(">BBBBBBbHB", b, 3)
            if v[1] == _KIND_NONE or v[0] != cd.prompt or v[3] & _STATE_FLAG_LOCKED:
                cd.active = False
            sel.on_state(v[0], v[1], v[2], v[3], v[4])
            self.priority = v[5]
            self.fp = v[6]
            self.hp = v[7]
            self.hand = v[8]
        elif t == _T_COUNTDOWN:
            ms = b[4] << 8 | b[5]
            if ms == 0:
                cd.active = False
            elif b[3] == sel.prompt and sel.state == _CHOOSING:
                cd.begin(b[3], ms, now)
        elif t == _T_REVEAL:
            cd.active = False
            self.gc_soon = True
            if b[3] == sel.prompt:
                sel.state = _REVEAL
        elif t == _T_RESULT:
            cd.active = False
            self.gc_soon = True
            c = b[3]
            self.result_code = c if c else 255
            self.result_t0 = now
            sel.state = _RESULT
            # at the piezo's resonance: a win two short beeps, a loss one long,
            # a draw one short; a buzz when it hurts
            win = _OUT_HIT <= c <= _OUT_EVADE
            loss = _OUT_GUARDED <= c <= _OUT_WAS_HIT or c == _OUT_NON_RESPONSE
            hurt = c == _OUT_COUNTERED or c == _OUT_WAS_HIT
            self.snd.beep(_RES, 300 if loss else 70, now, 150 if hurt else 0, 2 if win else 1)
        elif t == _T_NOTICE:
            c = b[3]
            if c == _NOTE_OPPONENT_LINK_OK or c == _NOTE_RESUMED:
                c = 0  # nothing to show
            elif c == _NOTE_NON_RESPONSE:  # you did not respond in time: three long beeps
                self.snd.beep(_RES, 250, now, 300, 3, 120)
            self.notice_code = c
            self.notice_t0 = now
        elif t == _T_SETUP:
            self._setup(b[3], b[4], b[5])
        elif t == _T_STRIP:
            if self.screen is not None:
                self.screen.strips.put(b, self.link.dec.blen)
        elif t == _T_EXT:
            self.ext = b[3]
        elif t == _T_SELFTEST:
            if b[3] == _SELFTEST_START or self.test.active:
                self.self_test().action(b[3], now)
        elif t == _T_WELCOME:
            self.ext = 0  # until this hub says it speaks the extension
            w = self.link.welcome
            self.incompatible = w[0] != proto.PROTO
            if not self.incompatible:
                self._setup(w[3], w[4], w[5])
        elif t == _T_SERVICE:
            if b[3] << 8 | b[4] == _SERVICE_MAGIC:
                self.service_request = True
        # anything else: a newer hub's message this firmware does not know

    def _setup(self, seat, mode, bright):
        sel = self.sel
        sel.seat = seat
        sel.mode = mode
        if mode != _MODE_TRACKER:
            sel.page = 0
        if bright:
            # the hub's 1..255 scale onto our 8 steps
            i = 0
            while i < 7 and selection.BRIGHT_LEVELS[i] < bright:
                i += 1
            self.set_bright(i)

    def tick(self, now):
        # timers, countdown marks, then one ring frame drawn (show() sends it)
        try:
            # times only compared against a few seconds stay a few seconds
            # old, so ticks_diff never crosses half of rp2's 2**30 ms period
            self.boot_t0 = clock.since(now, self.boot_t0, 2000)
            self.result_t0 = clock.since(now, self.result_t0, 2000)
            self.notice_t0 = clock.since(now, self.notice_t0, 2000)
            self.rx_t = clock.since(now, self.rx_t, 1000)
            if self.result_code and clock.diff(now, self.result_t0) >= 2000:
                self.result_code = 0  # shown (or missed while the link was down): gone
            if self.link.poll(now):
                self.cd.active = False  # the hub keeps the deadline; resent on resume
            bt = self.buttons
            # a READY press still being confirmed when the time runs out is
            # judged first (by its first edge): the expiry waits for it
            ev = _CD_NOTHING if bt.raw[_BTN_READY] and not bt.down[_BTN_READY] else self.cd.update(now)
            if ev == _CD_SECOND:
                self.snd.beep(_RES, 80, now, 80)
            elif ev == _CD_END:
                self.link.queue(_T_EXPIRED, self.cd.prompt, 0, now)
                self.snd.beep(_RES, 400, now, 300)
            if self.test.active:
                self.test.tick(now)
            self.snd.tick(now)
            d = self.link.dec
            if d.n >= 4 and clock.diff(now, self.rx_t) > 150 and d.tool_request():
                self.service_request = True  # mpremote is knocking: free the REPL
            views.draw(self, now)
            if self.screen is not None:
                self.screen.update(self, now)
        except Exception as e:
            self.fault(e, now)

    def show(self):
        # the drawn frame out to the LEDs (app.py lets waiting input go first),
        # then a share of what changed on the OLED
        try:
            self.ring.show()
            if self.screen is not None and self.oled_in_show:
                self.screen.flush(_OLED_BUDGET)
        except Exception as e:
            self.fault(e, clock.ms())

    def report(self, part, result, now):
        # a self-test result to the hub (docs/protocol.md section 11)
        self.link.queue(_T_TEST, part, result, now)

    def until_due(self, now):
        # ms the frame loop may sleep: to the next countdown mark or link timer
        d = self.cd.until_event(now)
        u = self.link.until_due(now)
        if u < d:
            d = u
        b = self.buttons.until_due(now)
        return b if b < d else d
