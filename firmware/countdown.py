# The visible 10-second ready countdown (guide 3.10). The hub is the referee
# of the deadline; the pod only shows it, beeps, and reports its own expiry.
from micropython import const
import clock

# what update() found (pod.py repeats them: tests/firmware/test_codes.py)
_CD_NOTHING = const(0)
_CD_SECOND = const(1)  # a whole second of the last three: beep
_CD_END = const(2)  # the time is up


class Countdown:
    def __init__(self):
        self.active = False
        self.prompt = 0
        self.total = 10000
        self.t0 = 0
        self.mark = -1  # remaining-ms mark of the next event: 3000, 2000, 1000, 0

    def begin(self, prompt, ms, now):
        self.active = True
        self.prompt = prompt
        self.total = ms if ms > 0 else 1
        self.t0 = now
        m = 3000
        while m > 0 and m >= ms:
            m -= 1000  # joined late (resume): no beeps for marks already past
        self.mark = m

    def remaining(self, now):
        r = self.total - clock.diff(now, self.t0)
        return r if r > 0 else 0

    def until_event(self, now):
        # ms to the next beep or the end, so the frame loop wakes on time
        # instead of up to one frame late
        if not self.active:
            return 1000
        d = self.remaining(now) - self.mark
        return d if d > 0 else 0

    def update(self, now):
        if not self.active or self.remaining(now) > self.mark:
            return _CD_NOTHING
        m = self.mark
        self.mark = m - 1000
        if m == 0:
            self.active = False
            return _CD_END
        return _CD_SECOND
