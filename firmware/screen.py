# What the OLED shows (docs/pod-ring.md "The screen"), as a function of the
# pod's state: the selected option's name (a strip the hub rendered: the pod
# has no Korean font), n/N, signed FP, seconds left, LOCKED, connection and
# error states. Rows 0-15 hold a 16-row strip, then 8-row text lines (framebuf's
# built-in font); a 64-row screen adds HP, hand and priority lines.
# The text is rebuilt only when a value it shows changes (checked each frame
# without allocating), and a line is redrawn (and sent) only when its text changed.
import framebuf
from array import array
from micropython import const
import clock
import selection
import words

# proto.py's codes (private copies: tests/firmware/test_codes.py)
_OUT_HIT = const(1)
_OUT_EVADE = const(4)
_OUT_GUARDED = const(5)
_OUT_WAS_HIT = const(8)
_OUT_NON_RESPONSE = const(13)
_NOTE_OPPONENT_LINK_LOST = const(1)
_NOTE_WIN = const(3)
_NOTE_DRAW = const(5)
_NOTE_NON_RESPONSE = const(6)
_NOTE_PAUSED = const(8)
# selection.py's codes (private copies: tests/firmware/test_codes.py)
_CHOOSING = const(1)
_LOCKED = const(2)
_REVEAL = const(3)
_PAGE_HP = const(1)
_PAGE_FP = const(2)
_PAGE_BRIGHT = const(3)

_N_SLOTS = const(16)
_N_VALS = const(17)
_STRIP_BYTES = const(256)  # 128 columns x 2 pages
_PART = const(32)

_RESULT_MS = const(1500)

OUTCOMES = ("", "HIT", "COUNTER", "GUARD", "EVADE", "GUARDED", "EVADED", "COUNTERED", "WAS HIT",
            "TRADE", "OFFSET", "BOTH DEFEND", "BOTH EVADE", "NO RESPONSE")
BUTTON_NAMES = ("PREV", "NEXT", "READY", "BACK")


def _nothing():
    pass


class Strips:
    # option names as the hub sent them (protocol.md section 11), by slot
    def __init__(self):
        self.buf = [bytearray(0)] * _N_SLOTS  # made on first use (256 bytes each)
        self.fb = [None] * _N_SLOTS  # type: list

        self.w = bytearray(_N_SLOTS)
        self.prompt = bytearray(_N_SLOTS)
        self.got = [0] * _N_SLOTS
        self.version = 0  # +1 whenever a strip completes

    def put(self, b, blen):
        # a strip frame's body (header at 0..2): prompt, slot, width, part, data
        prompt = b[3]
        slot = b[4]
        w = b[5]
        part = b[6]
        n = blen - 7
        if slot >= _N_SLOTS or not 0 < w <= 128 or part * _PART + n > 2 * w:
            return
        if self.prompt[slot] != prompt or self.w[slot] != w:
            self.prompt[slot] = prompt
            self.w[slot] = w
            self.got[slot] = 0
            self.fb[slot] = None
        buf = self.buf[slot]
        if not len(buf):
            buf = self.buf[slot] = bytearray(_STRIP_BYTES)
        o = part * _PART
        for i in range(n):
            buf[o + i] = b[7 + i]
        g = self.got[slot] | 1 << part
        self.got[slot] = g
        parts = (2 * w + _PART - 1) // _PART
        if g == (1 << parts) - 1 and self.fb[slot] is None:
            self.fb[slot] = framebuf.FrameBuffer(buf, w, 16, framebuf.MONO_VLSB)
            self.version += 1

    def get(self, prompt, slot):
        if 0 <= slot < _N_SLOTS and self.prompt[slot] == prompt:
            return self.fb[slot]
        return None


class Screen:
    def __init__(self, oled):
        self.oled = oled
        self.strips = Strips()
        self.sig = -1  # -1: never drawn, -2: the test pattern shown, 0: drawn
        self.now = array("i", bytes(4 * _N_VALS))
        self.last = array("i", bytes(4 * _N_VALS))
        self.wake = _nothing  # app.py: wakes the task that sends what changed
        self.lines = [""] * (oled.h // 8)
        self.strip_key = (0, 0)
        self.wfb = {}  # built-in word -> FrameBuffer, made once each

    def word(self, name):
        f = self.wfb.get(name)
        if f is None:
            w, data = words.W[name]
            f = self.wfb[name] = (framebuf.FrameBuffer(bytearray(data), w, 16, framebuf.MONO_VLSB), w)
        return f

    def _changed(self, p, now):
        # has anything shown changed since the last look? (small ints into a
        # preallocated array: the check each frame allocates nothing)
        sel = p.sel
        lk = p.link
        cd = p.cd
        v = self.now
        v[0] = sel.state
        v[1] = sel.page
        v[2] = sel.seat
        v[3] = sel.cursor
        v[4] = sel.options + 256 * sel.flags
        v[5] = sel.prompt + 256 * sel.locked_slot
        v[6] = lk.up + 2 * lk.ever_up + 4 * p.incompatible
        v[7] = (cd.remaining(now) + 999) // 1000 if cd.active else -1
        v[8] = p.fp + sel.fp_pending
        v[9] = p.result_code if p.result_code and clock.diff(now, p.result_t0) < _RESULT_MS else 0
        v[10] = p.notice_code
        v[11] = p.btn_seen if not lk.up else -1
        v[12] = p.priority
        v[13] = sel.bright + 16 * sel.menu
        v[14] = p.hp
        v[15] = p.hand
        v[16] = self.strips.version
        last = self.last
        ch = False
        for i in range(_N_VALS):
            if v[i] != last[i]:
                last[i] = v[i]
                ch = True
        return ch

    def update(self, p, now):
        # the picture for now: redraws what changed (sent by flush later)
        o = self.oled
        if not o.ok:
            return
        if p.test.active:
            if self.sig != -2:
                self.sig = -2
                self.test_pattern(p)
                self.wake()
            return
        if not self._changed(p, now) and self.sig == 0:
            return
        self.sig = 0
        strip, extra, lines = self.compose(p, now)
        key = (None if strip is None else strip[0], extra)
        if key[0] is not self.strip_key[0] or key[1] is not self.strip_key[1]:
            self.strip_key = key
            fb = o.fb
            fb.fill_rect(0, 0, o.w, 16, 0)
            x = 0
            if strip is not None:
                fb.blit(strip[0], 0, 0)
                x = strip[1] + 6
            if extra is not None:
                fb.blit(extra, x, 0)
            o.mark(0, 0, o.w, 16)
        for i in range(2, len(self.lines)):
            t = lines[i - 2] if i - 2 < len(lines) else ""
            if t != self.lines[i]:
                # only the columns the old or the new text covers
                w = 8 * (len(t) if len(t) > len(self.lines[i]) else len(self.lines[i]))
                self.lines[i] = t
                o.fb.fill_rect(0, 8 * i, o.w, 8, 0)
                o.fb.text(t, 0, 8 * i, 1)
                o.mark(0, 8 * i, w if w < o.w else o.w, 8)
        if o.dirty():
            self.wake()

    def compose(self, p, now):
        # (built-in word or None, a strip FrameBuffer or None, text lines)
        sel = p.sel
        lk = p.link
        fp = p.fp + sel.fp_pending
        fps = "FP%+d" % fp
        if p.incompatible:
            return self.word("UPDATE"), None, ["UPDATE FIRMWARE", "lumen pod flash"]
        if not lk.up:
            b = BUTTON_NAMES[p.btn_seen] if p.btn_seen >= 0 else ""
            if lk.ever_up:
                return self.word("LOST"), None, ["LINK LOST", "LOCKED" if sel.state == _LOCKED else b]
            return self.word("WAIT"), None, ["WAITING FOR HUB", b]
        if p.result_code and clock.diff(now, p.result_t0) < _RESULT_MS:
            c = p.result_code
            name = OUTCOMES[c] if c < len(OUTCOMES) else "RESULT %d" % c
            w = "WIN" if _OUT_HIT <= c <= _OUT_EVADE else "LOSE" if _OUT_GUARDED <= c <= _OUT_WAS_HIT \
                else "TIMEOUT" if c == _OUT_NON_RESPONSE else "DRAW"
            return self.word(w), None, [name, fps]
        nc = p.notice_code
        if _NOTE_WIN <= nc <= _NOTE_DRAW:
            return self.word(("WIN", "LOSE", "DRAW")[nc - _NOTE_WIN]), None, ["GAME OVER", fps]
        if nc == _NOTE_NON_RESPONSE:
            return self.word("TIMEOUT"), None, ["NO RESPONSE", fps]
        if nc == _NOTE_OPPONENT_LINK_LOST or nc == _NOTE_PAUSED:
            return None, None, ["OPPONENT AWAY" if nc == _NOTE_OPPONENT_LINK_LOST else "PAUSED", fps]
        seat = "%dP" % sel.seat if sel.seat else "--"
        cd = p.cd
        secs = " %2ds" % ((cd.remaining(now) + 999) // 1000) if cd.active else ""
        more = self.more(p)
        if sel.page == _PAGE_HP:
            return None, None, ["HP %+d" % selection.HP_STEPS[sel.menu], "HP %d" % p.hp] + more
        if sel.page == _PAGE_FP:
            return None, None, ["SET " + fps, "READY: ADD"] + more
        if sel.page == _PAGE_BRIGHT:
            return None, None, ["BRIGHT %d/8" % (sel.bright + 1), ""] + more
        if sel.seat == 0:
            return None, None, ["PRESS READY", "TO TAKE A SEAT"]
        if sel.state == _CHOOSING:
            c = sel.count()
            if not c:
                return None, None, ["PRESS READY" + secs, fps + " " + seat] + more
            slot = sel.cursor + 1 if sel.cursor < sel.options else 0
            strip = self.strips.get(sel.prompt, slot)
            if strip is None and slot == 0:
                return self.word("PASS"), None, ["%d/%d%s" % (sel.cursor + 1, c, secs), fps + " " + seat] + more
            return (None if strip is None else (strip, 0)), None, \
                ["%d/%d%s" % (sel.cursor + 1, c, secs), fps + " " + seat] + more
        if sel.state == _LOCKED:
            strip = self.strips.get(sel.prompt, sel.locked_slot)
            return self.word("LOCKED"), strip, ["LOCKED", fps + " " + seat] + more
        if sel.state == _REVEAL:
            return None, None, ["REVEAL", fps + " " + seat] + more
        return None, None, [fps + " " + seat, "HP %d" % p.hp] + more

    def more(self, p):
        # the 64-row screen's two extra lines
        if self.oled.h < 64:
            return []
        pr = "YOU" if p.priority and p.priority == p.sel.seat else "OPPONENT" if p.priority else "-"
        return ["", "HP %d HAND %d" % (p.hp, p.hand), "PRIORITY " + pr]

    def test_pattern(self, p):
        # self-test: border, a checkerboard, the size and what was found
        o = self.oled
        fb = o.fb
        fb.fill(0)
        fb.rect(0, 0, o.w, o.h, 1)
        for y in range(2, o.h - 2, 4):
            for x in range(2, 30, 4):
                if (x + y) & 4:
                    fb.fill_rect(x, y, 4, 4, 1)
        fb.text("SELF TEST", 34, 4, 1)
        fb.text("%dx%d" % (o.w, o.h), 34, 14 if o.h < 64 else 20, 1)
        if o.h >= 64:
            fb.blit(self.word("TEST")[0], 34, 36)
        o.mark(0, 0, o.w, o.h)
        self.lines = ["\x00"] * len(self.lines)  # matches no text: all redrawn after the test
        self.strip_key = (0, 0)

    def flush(self, budget):
        return self.oled.flush(budget)
