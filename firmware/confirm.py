# A press confirmed on time, on a board (buttons.py: a level must hold
# 1.2 ms): a one-shot timer fires the moment the confirmation falls due.
import machine
import micropython
import clock


class Confirmer:
    # On a board: a one-shot timer confirms a press the moment it falls due
    # (its soft callback runs between two bytecodes of whatever task holds the
    # CPU), so a press is never late by a frame or the loop's wake-up; the
    # input task then only sends it. The hard IRQ schedules the arming (it
    # may not allocate; Timer.init may).
    def __init__(self, bt):
        self.bt = bt
        self.tim = machine.Timer(-1)
        self.arm_ref = self.arm
        self.fire_ref = self.fire
        bt.on_edge = self.on_edge

    def on_edge(self):
        try:
            micropython.schedule(self.arm_ref, 0)
        except RuntimeError:
            pass  # the schedule queue is full: scan() and the input task confirm instead

    def arm(self, _):
        w = self.bt.until_due_us()
        if w >= 0:
            self.tim.init(mode=machine.Timer.ONE_SHOT, freq=1000000 // (w if w > 20 else 20), callback=self.fire_ref)

    def fire(self, _t):
        bt = self.bt
        bt.confirm(clock.ms())
        if bt.until_due_us() >= 0:
            self.arm(0)  # a bounce moved it on
