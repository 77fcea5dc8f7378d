# Selection state machine: what the buttons mean right now.
#
#   idle -> choosing (cursor over the hub's option slots) -> locked (no change,
#   no cancel: guide 3.5.2) -> reveal -> result -> next prompt (a state push)
#
# The cursor never leaves the pod: only a locked choice becomes a message.
# Prompt mode reuses the cursor for every decision the hub asks for (get,
# combo, catch, ...), one option per slot, plus "pass" when the hub allows
# it. Tracker mode (no card data): READY locks a bare ready, and the BACK
# pages enter HP and FP changes for this pod's player.
from micropython import const

# proto.py's codes (private copies: tests/firmware/test_codes.py)
_T_READY = const(0x02)
_T_ANSWER = const(0x03)
_T_ADJUST = const(0x05)
_T_CLAIM = const(0x06)
_MODE_TRACKER = const(2)
_KIND_NONE = const(0)
_KIND_READY = const(1)
_STATE_FLAG_PASS = const(1)
_STATE_FLAG_LOCKED = const(2)
_ADJUST_HP_ADD = const(0)
_ADJUST_FP_ADD = const(1)
_ADJUST_FP_SET = const(2)
# buttons.py's codes (private copies: tests/firmware/test_codes.py)
_BTN_NEXT = const(1)
_BTN_READY = const(2)
_BTN_BACK = const(3)
_EV_PRESS = const(1)
_EV_RELEASE = const(2)
_EV_LONG = const(3)
_EV_REPEAT = const(4)
_EV_MASK = const(7)
_EV_SHIFT = const(3)

# states and pages: the one source (views.py, screen.py and pod.py repeat them)
_IDLE = const(0)
_CHOOSING = const(1)
_LOCKED = const(2)
_REVEAL = const(3)
_RESULT = const(4)
_PAGE_MAIN = const(0)
_PAGE_HP = const(1)
_PAGE_FP = const(2)
_PAGE_BRIGHT = const(3)

# HP quick steps, as on the community phone calculator
HP_STEPS = (-100, -200, -300, -400, -500, -600, 100, 200)
# ring levels; the default (index 6) reads in a lit room, and ring.py's frame
# current cap keeps every step within the USB budget
BRIGHT_LEVELS = (12, 20, 32, 48, 72, 104, 144, 200)


class Selection:
    def __init__(self):
        self.state = _IDLE
        self.page = _PAGE_MAIN
        self.seat = 0
        self.mode = 0
        self.prompt = 0
        self.kind = 0  # prompt kind: 0 none, 1 ready, 2.. other decisions
        self.options = 0
        self.flags = 0
        self.cursor = 0
        self.locked_slot = 0
        self.menu = 0  # cursor on the HP page
        self.fp_pending = 0
        self.bright = 6  # index into BRIGHT_LEVELS
        self.counting = False  # a countdown runs: no menus
        # the message the last input asks for: type (0 = none) and two values
        self.out_t = 0
        self.a = 0
        self.b = 0

    def count(self):
        return self.options + (self.flags & _STATE_FLAG_PASS)

    def on_state(self, prompt, kind, options, flags, locked):
        if kind == _KIND_NONE:
            self.state = _IDLE
        elif flags & _STATE_FLAG_LOCKED:
            self.state = _LOCKED  # also how a replugged pod learns it had locked
            self.locked_slot = locked
        elif not (prompt == self.prompt and kind == self.kind and (self.state == _LOCKED or self.state == _REVEAL)):
            # (else: our answer is on its way and the hub has not seen it yet)
            if prompt != self.prompt or self.state != _CHOOSING:
                self.cursor = 0
            self.state = _CHOOSING
        self.prompt = prompt
        self.kind = kind
        self.options = options
        self.flags = flags
        c = self.count()
        if self.cursor >= c:
            self.cursor = c - 1 if c else 0

    def button(self, ev):
        # One button event. Returns True if anything changed; sets out_t (and
        # a, b) when a message is due.
        self.out_t = 0
        btn = ev >> _EV_SHIFT
        kind = ev & _EV_MASK
        step = 0
        if btn <= _BTN_NEXT and (kind == _EV_PRESS or kind == _EV_REPEAT):
            step = 1 if btn == _BTN_NEXT else -1
        ready = btn == _BTN_READY
        pg = self.page
        if btn == _BTN_BACK:  # back: short = next page, long = main page
            if self.counting or (kind != _EV_RELEASE and kind != _EV_LONG):
                return False
            pg = _PAGE_MAIN if kind == _EV_LONG or pg == _PAGE_BRIGHT else pg + 1
            if self.mode != _MODE_TRACKER and pg:
                pg = _PAGE_BRIGHT
            self.page = pg
            self.menu = 0
            self.fp_pending = 0
            return True
        if pg == _PAGE_MAIN:
            return self._main(ready, kind, step)
        if step:
            if pg == _PAGE_HP:
                self.menu = (self.menu + step) % len(HP_STEPS)
            elif pg == _PAGE_FP:
                if -9 <= self.fp_pending + step <= 9:
                    self.fp_pending += step
            elif 0 <= self.bright + step < len(BRIGHT_LEVELS):
                self.bright += step
            return True
        if not ready or (kind != _EV_RELEASE and kind != _EV_LONG):
            return False
        if pg == _PAGE_HP:
            self._out(_T_ADJUST, _ADJUST_HP_ADD, HP_STEPS[self.menu])
        elif pg == _PAGE_FP:
            if kind == _EV_LONG:
                self._out(_T_ADJUST, _ADJUST_FP_SET, 0)  # tap-to-zero, as on the calculator
            elif self.fp_pending:
                self._out(_T_ADJUST, _ADJUST_FP_ADD, self.fp_pending)
            self.fp_pending = 0
        self.page = _PAGE_MAIN
        return True

    def _out(self, t, a=0, b=0):
        self.out_t = t
        self.a = a
        self.b = b

    def _main(self, ready, kind, step):
        if self.state != _CHOOSING:
            if ready and kind == _EV_PRESS and self.seat == 0 and self.state == _IDLE:
                self._out(_T_CLAIM)  # seating: a READY press claims a seat
                return True
            return False
        c = self.count()
        if step:
            if c < 2:
                return False
            self.cursor = (self.cursor + step) % c
            return True
        if not ready or kind != _EV_PRESS:
            return False
        # lock on the press itself: the moment of the ready is the press
        slot = self.cursor + 1 if self.cursor < self.options else 0
        if self.kind == _KIND_READY:
            self._out(_T_READY, self.prompt, slot)
        elif c:
            self._out(_T_ANSWER, self.prompt, slot)
        else:
            return False
        self.locked_slot = slot
        self.state = _LOCKED
        return True
