"""Issue 28.11: a rogue port flooding hellos is heard a few times, then once per half
second (the latest one: it says all the others did), and said once on the console, while
the seated pods play on: 3,000 hellos with ever-new boot numbers on a pty, and 1P readies
in the middle of them."""

import time

from hub.cli.demo import BOARD_IDS

from tests.faults.podtable import t10, wait  # noqa: F401  (t10 is a fixture)
from tests.faults.test_rogue_device import RoguePort, hello

FLOOD = 3000
HELLO_BURST, HELLO_EVERY_MS = 4, 500     # what a port is heard (hub/pods/hello_gate.py)


def test_a_hello_flood_is_heard_at_a_trickle_and_said_once(t10):
    rogue = RoguePort("usb:flood")
    conn = t10.hub.add(rogue)
    heard = []
    on_hello = t10.hub._on_hello

    def counted(c, m, t):          # every hello the table acts on (a seat lookup, a welcome)
        if c is conn:
            heard.append(t)
        return on_hello(c, m, t)
    t10.hub._on_hello = counted
    lines_before = len(t10.lines)
    began = time.monotonic()
    for n in range(FLOOD):
        rogue.say(hello("00aa00bb00cc00dd", boot=100 + n % 60000))
        if n == FLOOD // 2:
            t10.sims["a"].press("ready")        # 1P readies in the middle of the flood
    rogue.say(hello("00112233445566ff", boot=7))       # the last word: a fresh board id
    wait(lambda: conn.board_id == "00112233445566ff", "the latest hello to be heard")
    elapsed_ms = (time.monotonic() - began) * 1000
    wait(lambda: "a" in t10.server.call(lambda: dict(t10.table.session.locked)), "1P's ready")
    heard = len(heard)
    assert heard <= HELLO_BURST + elapsed_ms / HELLO_EVERY_MS + 2, (heard, elapsed_ms)
    assert heard < FLOOD / 10, heard
    said = [line for line in t10.lines[lines_before:] if rogue.name in line]
    print("console lines about the port: %d" % len(said))
    assert len(said) <= 10, "the console got %d lines: %s" % (len(said), said[:5])
    for seat in ("a", "b"):
        c = t10.hub.seated(seat)
        assert c is not None and c.link.up and c.board_id == BOARD_IDS[seat]
    print("hello flood: %d hellos, %d heard, %d console lines" % (FLOOD + 1, heard, len(said)))
