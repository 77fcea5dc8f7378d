"""A port's hello allowance (issue 28.11), kept on each pod connection.

A port flooding hellos (20 MB in 5 s once delayed a seated pod's ready by 4.8 s and printed
3,922 lines) is heard ``HELLO_BURST`` times, then once per ``HELLO_EVERY_MS``: the latest
hello waiting is the one heard (each says all an older one did), and the flood is said once a
minute. Hellos that piled up while the hub was slow to read (a Pi starting under load) take
the same path. This is the allowance only; hub/pods/pod_hub.py hears the hellos, schedules the
held one and says the flood.
"""

HELLO_BURST = 4          # hellos a port is heard at once (a pod says one a second until welcomed)
HELLO_EVERY_MS = 500     # past those, one every this long
SAY_EVERY_MS = 60_000    # the flood said at most this often


class HelloGate:
    """A connection's allowance: ``allows`` each hello, holding the latest one past it."""

    def __init__(self):
        self.hellos = (HELLO_BURST, None)   # (hellos left, at ms)
        self.held_hello = None      # (the latest hello past the allowance, its ms): heard when it is back
        self.hellos_held = 0
        self.hellos_heard = 0
        self.hello_timer = None     # the loop's handle that hears the held hello
        self.flood_said = None      # ms the flood was last said

    def allows(self, m, t):
        """True: hear hello ``m`` now. False: it is held (the latest held one is the one heard)."""
        left, at = self.hellos
        left = HELLO_BURST if at is None else min(HELLO_BURST, left + (t - at) / HELLO_EVERY_MS)
        if left >= 1 and self.held_hello is None:
            self.hellos = (left - 1, t)
            self.hellos_heard += 1
            return True
        self.hellos = (left, t)
        self.held_hello = (m, t)
        self.hellos_held += 1
        return False

    def say_flood(self, t):
        """Whether to say the flood now: at the first hello held, then once a minute."""
        if self.hellos_held == 1 or self.flood_said is None or t - self.flood_said >= SAY_EVERY_MS:
            self.flood_said = t
            return True
        return False

    def until_allowed_s(self):
        """Seconds until the allowance holds a hello again."""
        return max(0.0, (1 - self.hellos[0]) * HELLO_EVERY_MS / 1000)

    def take_held(self):
        """The held hello, no longer held (None if there is none)."""
        held, self.held_hello = self.held_hello, None
        return held
