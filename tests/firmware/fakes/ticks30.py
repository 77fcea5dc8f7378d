# The rp2 port's ticks arithmetic (period 2**30 ms, about 12.4 days; a
# "since" difference goes negative after 2**29 ms, 6.2 days), for tests on
# the 64-bit unix port whose own period is 2**62. Installed into clock.py.
from micropython import const
import clock

_PERIOD = const(1 << 30)
_HALF = const(1 << 29)
_MASK = const((1 << 30) - 1)


def add(t, d):
    return (t + d) & _MASK


def diff(a, b):
    return ((a - b + _HALF) & _MASK) - _HALF


def install():
    clock.add = add
    clock.diff = diff


def before_wrap(ms):
    # a tick value `ms` before the counter wraps to 0
    return _PERIOD - ms
