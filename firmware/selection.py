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

# states (views.py and pod.py use the same numbers)
_IDLE = const(0)
_CHOOSING = const(1)
_LOCKED = const(2)
_REVEAL = const(3)
_RESULT = const(4)
# pages: 0 main, 1 HP, 2 FP, 3 brightness
_MAIN = const(0)
_HP = const(1)
_FP = const(2)
_BRIGHT = const(3)
_TRACKER = const(2)  # mode
_F_PASS = const(1)
_F_LOCKED = const(2)
# message types (proto.py)
_T_READY = const(0x02)
_T_ANSWER = const(0x03)
_T_ADJUST = const(0x05)
_T_CLAIM = const(0x06)
# button event kinds (buttons.py)
_PRESS = const(1)
_RELEASE = const(2)
_LONG = const(3)
_REPEAT = const(4)

# HP quick steps, as on the community phone calculator
HP_STEPS = (-100, -200, -300, -400, -500, -600, 100, 200)
# ring levels; the default (index 6) reads in a lit room, and ring.py's frame
# current cap keeps every step within the USB budget
BRIGHT_LEVELS = (12, 20, 32, 48, 72, 104, 144, 200)


class Selection:
    def __init__(self):
        self.state = _IDLE
        self.page = _MAIN
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
        return self.options + (self.flags & _F_PASS)

    def on_state(self, prompt, kind, options, flags, locked):
        if kind == 0:
            self.state = _IDLE
        elif flags & _F_LOCKED:
            self.state = _LOCKED  # also how a replugged pod learns it had locked
            self.locked_slot = locked
        elif not (prompt == self.prompt and kind == self.kind and self.state in (_LOCKED, _REVEAL)):
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
        btn = ev >> 3
        kind = ev & 7
        step = 0
        if btn < 2 and (kind == _PRESS or kind == _REPEAT):
            step = 1 if btn else -1
        ready = btn == 2
        pg = self.page
        if btn == 3:  # back: short = next page, long = main page
            if self.counting or kind not in (_RELEASE, _LONG):
                return False
            pg = 0 if kind == _LONG or pg == _BRIGHT else pg + 1
            if self.mode != _TRACKER and pg:
                pg = _BRIGHT
            self.page = pg
            self.menu = 0
            self.fp_pending = 0
            return True
        if pg == _MAIN:
            return self._main(ready, kind, step)
        if step:
            if pg == _HP:
                self.menu = (self.menu + step) % len(HP_STEPS)
            elif pg == _FP:
                if -9 <= self.fp_pending + step <= 9:
                    self.fp_pending += step
            elif 0 <= self.bright + step < len(BRIGHT_LEVELS):
                self.bright += step
            return True
        if not ready or kind not in (_RELEASE, _LONG):
            return False
        if pg == _HP:
            self._out(_T_ADJUST, 0, HP_STEPS[self.menu])
        elif pg == _FP:
            if kind == _LONG:
                self._out(_T_ADJUST, 2, 0)  # tap-to-zero, as on the calculator
            elif self.fp_pending:
                self._out(_T_ADJUST, 1, self.fp_pending)
            self.fp_pending = 0
        self.page = _MAIN
        return True

    def _out(self, t, a=0, b=0):
        self.out_t = t
        self.a = a
        self.b = b

    def _main(self, ready, kind, step):
        if self.state != _CHOOSING:
            if ready and kind == _PRESS and self.seat == 0 and self.state == _IDLE:
                self._out(_T_CLAIM)  # seating: a READY press claims a seat
                return True
            return False
        c = self.count()
        if step:
            if c < 2:
                return False
            self.cursor = (self.cursor + step) % c
            return True
        if not ready or kind != _PRESS:
            return False
        # lock on the press itself: the moment of the ready is the press
        slot = self.cursor + 1 if self.cursor < self.options else 0
        if self.kind == 1:
            self._out(_T_READY, self.prompt, slot)
        elif c:
            self._out(_T_ANSWER, self.prompt, slot)
        else:
            return False
        self.locked_slot = slot
        self.state = _LOCKED
        return True
