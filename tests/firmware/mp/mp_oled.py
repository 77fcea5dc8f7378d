# The OLED (issue 20): an SSD1306 model on the fake I2C bus (firmware/sim/ssd1306.py)
# receives what the pod sends; the tests read its display RAM, as a player
# reads the screen: the selected card's name (the hub's strip, from the
# protocol vectors), n/N, FP, seconds, LOCKED, the link states. Redrawn only
# where it changed, a share per frame. Fake clock.
# heap: 128K  (the protocol vectors file is read whole for its strip frames, then dropped)
import json
import os
import framebuf
import machine
import board
import harness
import ssd1306
from mptest import run_tests

V = json.load(open(os.getenv("LUMEN_VECTORS")))
STRIP_FRAMES = [bytes.fromhex(f["wire"]) for f in V["frames"] if f["message"]["type"] == "strip"]
STRIPS = V["strips"]  # slot 1 "회전 차기", slot 2 "패스 pass", prompt 7
del V


def oled_pod(height=32, device=True, **kw):
    dev = ssd1306.SSD1306(128, height) if device else None
    machine.I2C.device = dev
    pm = json.loads(board.DEFAULT)
    pm["oled"] = {"i2c": 0, "sda": 4, "scl": 5, "addr": 60, "width": 128, "height": height}
    h = harness.H(pinmap=pm)
    machine.I2C.device = None
    h.run(1000)
    h.welcome(1, 1)
    h.hub(0x89, 1)  # the hub speaks extension 1
    opts = kw.get("options", 2)
    h.hub(0x82, 7, 1, opts, kw.get("flags", 0), 0, 1, kw.get("fp", 2), 5000, opts)
    return h, dev


def send_strips(h):
    for w in STRIP_FRAMES:
        h.hub_seq = h.hub_seq % 255 + 1
        # renumber: the vectors' seq is not this link's next one
        h.feed(harness.frame(0x8A, h.hub_seq, h.pod_last_seq(), *_fields(w), text=_data(w)))
    h.run(200)


def _decode(w):
    import proto

    d = proto.Decoder()
    for c in w:
        if d.feed(c):
            return bytes(d.body[:d.blen])


def _fields(w):
    b = _decode(w)
    return b[3], b[4], b[5], b[6]


def _data(w):
    return _decode(w)[7:]


def text_rows(t, width=128):
    # the rows framebuf's own 8x8 font gives this text: what a text line must show
    buf = bytearray(width)
    fb = framebuf.FrameBuffer(buf, width, 8, framebuf.MONO_VLSB)
    fb.text(t, 0, 0, 1)
    return ["".join("#" if buf[x] >> y & 1 else "." for x in range(width)) for y in range(8)]


def test_the_screen_shows_the_selected_cards_name():
    h, dev = oled_pod()
    assert dev.on and h.pod.hw.features & 1 and h.pod.hw.features & 32
    send_strips(h)
    s1 = STRIPS[0]
    assert dev.rows(0, 16, 0, s1["width"]) == s1["rows"], "\n".join(dev.rows(0, 16))
    assert dev.rows(16, 24) == text_rows("1/2"), "\n".join(dev.rows(16, 24))
    assert dev.rows(24, 32) == text_rows("FP+2 1P")
    h.press("next")
    h.run(100)
    s2 = STRIPS[1]
    assert dev.rows(0, 16, 0, s2["width"]) == s2["rows"]
    assert dev.rows(16, 24) == text_rows("2/2")


def test_seconds_left_and_locked():
    h, dev = oled_pod()
    send_strips(h)
    h.hub(0x83, 7, 10000)
    h.run(3100)
    assert dev.rows(16, 24) == text_rows("1/2  7s"), "\n".join(dev.rows(16, 24))
    h.press("ready")
    h.run(200)
    assert dev.rows(16, 24) == text_rows("LOCKED")
    # the built-in Korean word, then the locked card's name
    import words

    w = words.W["LOCKED"][0]
    assert "".join(dev.rows(0, 16, 0, w)).count("#") > 20
    s1 = STRIPS[0]
    assert dev.rows(0, 16, w + 6, w + 6 + s1["width"]) == s1["rows"]


def test_link_states_on_the_screen():
    h, dev = oled_pod()
    h.hub_alive = False
    h.run(2500)
    assert dev.rows(16, 24) == text_rows("LINK LOST")
    import words

    w, data = words.W["LOST"]
    assert dev.ram[:w] == data[:w] and dev.ram[128:128 + w] == data[w:2 * w]  # "연결 끊김"


def test_only_what_changed_is_sent_and_a_frame_sends_a_share():
    h, dev = oled_pod()
    send_strips(h)
    h.run(500)
    d0 = dev.data
    h.run(600)  # nothing changes
    assert dev.data == d0
    sent = []
    flush = h.pod.screen.oled.flush

    def f(budget):
        n = h.pod.screen.oled.sent
        r = flush(budget)
        sent.append(h.pod.screen.oled.sent - n)
        return r

    h.pod.screen.oled.flush = f
    h.press("next")
    h.run(200)
    assert max(sent) <= 128, sent  # a share a frame: the ring keeps its 50 Hz
    assert 0 < dev.data - d0 < 2 * 128 + 3 * 128, dev.data - d0  # the name and one line, not the screen


def test_a_64_row_screen():
    h, dev = oled_pod(height=64)
    assert h.pod.hw.features & 16
    send_strips(h)
    assert dev.rows(0, 16, 0, STRIPS[0]["width"]) == STRIPS[0]["rows"]
    assert dev.rows(40, 48) == text_rows("HP 5000 HAND 2")
    assert dev.rows(48, 56) == text_rows("PRIORITY YOU")


def test_an_oled_that_does_not_answer_leaves_the_pod_as_one_without():
    h, dev = oled_pod(device=False)
    assert h.pod.screen is not None and not h.pod.screen.oled.ok
    h.press("next")
    h.press("ready")
    assert len(h.sent("ready_at")) == 1 and h.pod.faults == 0


def test_a_pod_without_an_oled_is_as_before():
    h = harness.seated()
    assert h.pod.screen is None and h.pod.hw.oled is None and not h.pod.hw.features & 1


run_tests(globals())
