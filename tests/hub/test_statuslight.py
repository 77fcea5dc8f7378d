"""The table status light (issue 5 item 5): priority side, ready states, countdown and
match-clock warnings, from public messages only; the real neopixel driver runs in
Blinka's OS-agnostic mode inside a recorder."""

import json
import os
import subprocess
import sys
import textwrap

from engine.bots import Bot
from hub.sessions.base import FakeClock
from hub.light.statuslight import BLUE, OFF, RED, WHITE, YELLOW, RecordingStrip, StatusLight
from hub.record.store import Store
from hub.sessions.table import Table


def light_table(seed=3):
    clock = FakeClock()
    table = Table(Store(":memory:"), clock=clock)
    strip = RecordingStrip(16)
    light = StatusLight(strip)
    table.subscribe(light.on_message)
    table.start_referee(seed=seed, priority="a")
    bots = {"a": Bot(1), "b": Bot(2)}
    while table.session.state.pending[0]["kind"] == "setup":
        r = table.session.state.pending[0]
        table.submit(r["player"], *bots[r["player"]].answer(table.session.state, r))
    return table, light, strip, clock


def test_priority_side_and_ready_without_the_card():
    table, light, strip, clock = light_table()
    frame = strip.frames[-1]
    assert frame[0] == BLUE                      # 1P holds priority: its outer pixel at full colour
    card = table.session.requests("a")[0]["options"][0]
    table.submit("a", "ready", card)
    frame = strip.frames[-1]
    assert all(frame[i] == WHITE for i in range(1, 7))       # 1P readied (never what)
    assert frame[8 + 1] != WHITE                              # 2P's half is counting down
    light.countdown("b", 2500)
    frame = strip.frames[-1]
    lit = [i for i in range(9, 16) if frame[i] != OFF]
    assert 1 <= len(lit) <= 2 and all(frame[i] == YELLOW for i in lit if i != 15)


def test_match_clock_warnings_in_the_middle():
    table, light, strip, clock = light_table()
    table.timer_action("round_start", duration_ms=70_000)
    clock.advance(15_000)
    table.tick()
    table.timer_action("pause")
    assert strip.frames[-1][7] == YELLOW and strip.frames[-1][8] == YELLOW
    clock.advance(1_000)            # a resume in the same second as the pause is a double tap (issue 22)
    table.timer_action("resume")
    clock.advance(50_000)
    table.timer_action("pause")
    assert strip.frames[-1][7] == RED


def test_the_light_hears_only_public_messages():
    light = StatusLight(RecordingStrip(16))
    light.on_message("a", {"t": "you", "view": {"priority": "b", "ready": {}}})
    assert light.priority is None and light.strip.frames == []


def test_real_neopixel_driver_in_blinka_os_agnostic_mode():
    code = textwrap.dedent("""
        import json, board, neopixel
        from hub.light.statuslight import RecordingStrip, StatusLight
        px = neopixel.NeoPixel(board.D18 if hasattr(board, "D18") else board.NEOPIXEL, 16, auto_write=False)
        light = StatusLight(RecordingStrip(16, inner=px))
        light.on_message("public", {"t": "state", "view": {"priority": "b", "ready": {"a": {"locked": True}, "b": {}}}})
        print(json.dumps([list(px[i]) for i in range(16)]))
    """)
    env = dict(os.environ, BLINKA_OS_AGNOSTIC="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert out.returncode == 0, out.stderr
    pixels = json.loads(out.stdout.strip().splitlines()[-1])
    assert pixels[1] == list(WHITE) and pixels[15] == list(RED)
