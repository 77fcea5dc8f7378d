# The one place the firmware reads time from: tests swap these for a fake
# clock (clock.ms = fake; tests/firmware/fakes/ticks30.py swaps in rp2's tick
# period), so modules call clock.*, never time.ticks_* directly.
import time

ms = time.ticks_ms
us = time.ticks_us  # (the same wrap-around arithmetic: diff and add work on both)
diff = time.ticks_diff
add = time.ticks_add
sleep_ms = time.sleep_ms


def since(now, t, cap):
    # A "since" time kept at most cap ms old. rp2's ticks wrap every 2**30 ms
    # and a difference past half of that turns negative (after 6.2 days), so
    # a time that only says "long ago" is moved along instead of left to age.
    d = diff(now, t)
    return t if 0 <= d <= cap else add(now, -cap)
