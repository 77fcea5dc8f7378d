# The pictures of docs/pod-ring.md, from the real firmware under the
# MicroPython unix port (fake pins, fake clock, an SSD1306 model on the
# fake I2C bus): one JSON line per state with the ring's logical image and,
# for screen states, the OLED's display RAM. tests/firmware/render_docs.py
# turns them into PNGs; tests/firmware/test_docs_pictures.py keeps
# docs/pod/states.json equal to this output.
# heap: 256K  (a docs tool, not a capped test: pods one after another, the vectors file, JSON lines)
import json
import os
import machine
import board
import harness
import ssd1306

V = json.load(open(os.getenv("LUMEN_VECTORS")))
STRIPS = []
for f in V["frames"]:
    if f["message"]["type"] == "strip":
        STRIPS.append(bytes.fromhex(f["wire"]))
del V


def out(name, h, screen=None):
    d = {"name": name, "ring": h.ring()}
    if screen is not None:
        d["oled"] = "%d:%s" % (screen.h, bytes(screen.ram[:screen.h * 16]).hex())
    print(json.dumps(d))


def feed_strips(h):
    import proto

    d = proto.Decoder()
    for w in STRIPS:
        for c in w:
            if d.feed(c):
                b = d.body
                h.hub(0x8A, b[3], b[4], b[5], b[6], text=bytes(b[7:d.blen]))
    h.run(300)


def ring_states():
    h = harness.H()
    h.run(1300)
    out("waiting", h)
    h.press("next", hold=60, gap=20)
    out("no_hub_next", h)
    h = None
    h = harness.seated(options=5)
    h.press("next")
    out("choosing", h)
    h.hub(0x83, 7, 10000)
    h.run(4000)
    out("choosing_countdown_6s", h)
    h = None
    h = harness.seated(options=10, flags=1)
    h.hub(0x83, 7, 10000)
    h.run(4000)
    out("choosing_10_pass_countdown_6s", h)
    h.run(4500 - 20)
    out("choosing_10_pass_countdown_1_5s", h)
    h.run(2000)
    h = None
    h = harness.seated(options=3)
    h.hub(0x83, 7, 10000)
    h.run(7100)
    out("choosing_3_last_seconds_flash", h)
    h.press("ready")
    h.run(200)
    out("locked", h)
    h.hub_alive = False
    h.run(2500)
    out("link_lost_locked", h)
    h = None
    h = harness.seated(kind=0, fp=0)
    h.hub_alive = False
    h.run(2500)
    out("link_lost", h)
    h = None
    h = harness.seated(seat=2, options=5)
    out("choosing_2p", h)
    h = None
    h = harness.seated(mode=2, options=0)
    h.run(500 - h.elapsed() % 500)
    out("tracker_ready", h)
    h.press("ready")
    h.run(300)
    out("tracker_locked", h)
    h.hub(0x84, 7)
    h.run(100)
    out("reveal", h)
    for fp in (3, -4, 9, -9):
        h.hub(0x82, 8, 0, 0, 0, 0, 1, fp, 5000, 5)
        h.run(100)
        out("fp_%+d" % fp, h)
    h.hub(0x82, 8, 0, 0, 0, 0, 2, 0, 5000, 5)
    h.run(1000 - h.elapsed() % 1000 + 100)
    out("opponent_priority", h)
    for code, name, at in ((1, "hit", 60), (8, "was_hit", 60), (3, "guard", 250), (9, "trade", 100),
                           (2, "counter", 60), (4, "evade", 200), (13, "no_response", 60)):
        h.hub(0x85, code, 0, 0)
        h.run(at)
        out("result_" + name, h)
        h.run(1600)
    h.hub(0x86, 3, 0)
    h.run(200)
    out("notice_win", h)
    h.hub(0x86, 4, 0)
    h.run(200)
    out("notice_lose", h)
    h.hub(0x86, 1, 0)
    h.run(800)
    out("notice_opponent_away", h)
    h = None
    h = harness.H()
    h.run(1000)
    h.pod.incompatible = True
    h.run(400 - h.elapsed() % 400 + 50)
    out("incompatible", h)
    h = None
    h = harness.H()
    h.run(1000)
    h.welcome(0, 0)
    h.run(100)
    out("unseated", h)
    h = None
    h = harness.H()
    h.down("ready")
    h.pod.power_up(h.clk.ms())
    h.run(300)
    h.up("ready")
    h.run(150)
    out("selftest_sweep", h)
    h.run(3700)
    out("selftest_fill_white", h)
    h.run(800)
    h.press("prev", hold=60, gap=20)
    out("selftest_prev", h)
    h.pod.test.action(2, h.clk.ms())  # lumen pod test: where is pixel 0?
    h.run(60)
    out("selftest_mark_top", h)
    h.pod.test.action(3, h.clk.ms())  # and the one a quarter on?
    h.run(60)
    out("selftest_mark_right", h)
    h = None
    # a pin map the rules refuse: refused.run draws only this (firmware/pinmap.py)
    import neopixel
    import ring
    import refused

    r = ring.Ring(neopixel.NeoPixel(machine.Pin(16, machine.Pin.OUT), 12), {"pixels": 12})
    refused.draw(r, 500)
    print(json.dumps({"name": "pinmap_refused", "ring": bytes(r.img).hex()}))


def screen_states(height):
    dev = ssd1306.SSD1306(128, height)
    machine.I2C.device = dev
    pm = json.loads(board.DEFAULT)
    pm["oled"] = {"i2c": 0, "sda": 4, "scl": 5, "addr": 60, "width": 128, "height": height}
    h = harness.H(pinmap=pm)
    machine.I2C.device = None
    tag = "_%d" % height
    h.run(1300)
    out("oled_waiting" + tag, h, dev)
    h.welcome(1, 1)
    h.hub(0x89, 1)
    h.hub(0x82, 7, 1, 2, 1, 0, 1, 2, 4200, 6)
    feed_strips(h)
    out("oled_choosing" + tag, h, dev)
    h.hub(0x83, 7, 10000)
    h.run(3300)
    out("oled_countdown" + tag, h, dev)
    h.press("next")
    h.press("next")
    h.run(200)
    out("oled_pass" + tag, h, dev)
    h.press("prev")
    h.press("prev")
    h.press("ready")
    h.run(300)
    out("oled_locked" + tag, h, dev)
    h.hub_alive = False
    h.run(2500)
    out("oled_link_lost" + tag, h, dev)
    h = None
    machine.I2C.device = dev
    h = harness.H(pinmap=pm)
    machine.I2C.device = None
    h.down("ready")
    h.pod.power_up(h.clk.ms())
    h.run(300)
    out("oled_selftest" + tag, h, dev)


ring_states()
screen_states(32)
screen_states(64)
