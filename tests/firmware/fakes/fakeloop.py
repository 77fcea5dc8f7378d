# A deterministic stand-in for the parts of asyncio that app.py uses, run on
# the tests' fake clock: tasks are stepped round-robin, a timer wakes
# `late_ms` after it is due (as a real loop does), time only moves when no
# task can run (or when a fake port charges for the bytes it hands out).
# Install with `app.asyncio = fakeloop`; tests drive it with run_for().
import clock

tasks = []  # [coroutine, what it waits on]
late_ms = 1
steps = 0  # task wake-ups, a measure of CPU use


def reset(late=1):
    global late_ms, steps
    del tasks[:]
    late_ms = late
    steps = 0


def sleep_ms(ms):
    yield ("t", clock.add(clock.ms(), ms))


def create_task(coro):
    tasks.append([coro, None])
    return coro


def new_event_loop():
    reset(late_ms)


def run(coro):
    raise KeyboardInterrupt("fakeloop.run: drive tasks with run_for()")


class ThreadSafeFlag:
    def __init__(self):
        self.state = 0

    def set(self):
        self.state = 1

    def wait(self):
        while not self.state:
            yield ("f", self)
        self.state = 0


class _IOQueue:
    # asyncio.core._io_queue: a task yields what queue_read returns and runs
    # again once the stream says it has a byte (stream.ready())
    def queue_read(self, s):
        return ("r", s)


class core:
    _io_queue = _IOQueue()


def _ready(w, now):
    if w is None:
        return True
    k = w[0]
    if k == "t":
        return clock.diff(now, clock.add(w[1], late_ms)) >= 0
    if k == "f":
        return w[1].state
    if k == "r":
        return w[1].ready()
    raise ValueError("fakeloop: unknown wait %r" % (w,))


def one_pass():
    # step every task that can run now, once each; True if any ran
    global steps
    ran = False
    for t in tasks[:]:
        if _ready(t[1], clock.ms()):
            steps += 1
            ran = True
            try:
                t[1] = t[0].send(None)
            except StopIteration:
                tasks.remove(t)
    return ran


def settle():
    # run until every task waits (no fake time passes)
    for _ in range(1000):
        if not one_pass():
            return
    raise KeyboardInterrupt("fakeloop.settle: tasks never wait")


def run_for(ms, clk):
    end = clock.add(clock.ms(), ms)
    while clock.diff(clock.ms(), end) < 0:
        if not one_pass():
            clk.advance(1)
