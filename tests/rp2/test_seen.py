"""Issue 20, tested as the player sees it on the emulated Pico: the WS2812 bitstream on
the ring pin decoded into each frame's pixel colours, the SSD1306 on the I2C bus turned
into its picture, the piezo's PWM measured as a frequency (tests/rp2/pod.mjs). The firmware
is MicroPython's real rp2 port; times are emulated, so nothing here depends on this
machine's speed."""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path

from hub.pods import glyphs, podext
from hub.pods import sim as podsim
from tests.rp2.emu import Rp2Hub
from tests.rp2.test_rp2 import press

ROOT = Path(__file__).resolve().parents[2]
STATE = {"kind": 1, "options": 5, "flags": 0, "locked": 0, "priority": 1, "fp": 0, "hp": 5000, "hand": 5}
# Okabe-Ito, as firmware/views.py uses it
PALETTE = {"blue": 0x0072B2, "vermillion": 0xD55E00, "green": 0x009E73, "orange": 0xE69F00,
           "yellow": 0xF0E442, "sky": 0x56B4E9, "purple": 0xCC79A7, "white": 0xFFFFFF}


def hue(px: bytes) -> str | None:
    """Which palette colour a pixel the LEDs got is (scaled and rounded by the driver)."""
    m = max(px)
    if m < 3:
        return None
    best, err = None, 1e9
    for name, c in PALETTE.items():
        ref = (c >> 16, c >> 8 & 255, c & 255)
        k = m / max(ref)
        e = sum(abs(p - r * k) for p, r in zip(px, ref)) / m
        if e < err:
            best, err = name, e
    return best if err < 0.25 else None


def hues(img: bytes) -> list[str | None]:
    return [hue(img[i:i + 3]) for i in range(0, len(img), 3)]


def oled_pinmap(height: int = 32) -> bytes:
    pm = json.loads((ROOT / "hardware" / "pinmaps" / "pico.json").read_text())
    pm["oled"] = {"i2c": 0, "sda": 4, "scl": 5, "addr": 60, "width": 128, "height": height}
    return json.dumps(pm).encode()


def connect(pod, seat=1, mode="referee"):
    hub = Rp2Hub(pod, seat=seat, mode=mode)
    assert hub.run_until(lambda: hub.link.up, 10_000), "no hello/welcome in 10 s of emulated time"
    hub.run(1200)  # past the boot check
    return hub


def frames_since(pod, n0):
    return [img for _, img in pod.images[n0:]]


def test_the_countdown_shows_while_choosing_with_1_3_and_10_options(rp2_pod) -> None:
    pod = rp2_pod()
    hub = connect(pod)
    for prompt, (options, flags) in enumerate(((1, 0), (3, 0), (10, 1)), 10):
        hub.send("state", prompt=prompt, **dict(STATE, options=options, flags=flags, hand=options))
        hub.run(100)
        hub.send("countdown", prompt=prompt, ms=10_000)
        ends = []
        for _ in range(9):  # one look a second, at the real pixels
            n0 = len(pod.images)
            hub.run(1000)
            shown = set()
            for img in frames_since(pod, n0)[-6:]:
                shown.update(i for i, h in enumerate(hues(img)) if i and h == "yellow")
            assert shown, (options, [hues(img) for img in frames_since(pod, n0)[-2:]])
            ends.append(max(shown))
        assert ends == sorted(ends, reverse=True) and ends[0] > ends[-1], (options, ends)
        assert hub.run_until(lambda p=prompt: any(m["prompt"] == p for _, m in hub.of("expired")), 2000)


def test_locked_and_choosing_differ_and_fp_reads_exactly(rp2_pod) -> None:
    pod = rp2_pod()
    hub = connect(pod, mode="tracker")
    hub.send("state", prompt=3, **dict(STATE, options=0))
    n0 = len(pod.images)
    hub.run(1500)
    choosing = set(frames_since(pod, n0))
    press(hub, "ready")
    assert hub.run_until(lambda: hub.of("ready"), 1000)
    n0 = len(pod.images)
    hub.run(1500)
    locked = set(frames_since(pod, n0)[5:])
    assert len(locked) == 1 and not choosing & locked and len(choosing) > 1
    assert hues(next(iter(locked)))[1:].count("blue") == 11  # solid seat colour
    shown = {}
    for fp in range(-9, 10):
        hub.send("state", prompt=4, **dict(STATE, kind=0, options=0, fp=fp, priority=0))
        hub.run(200)
        img = pod.image()
        hs = hues(img)
        assert hs.count("green" if fp > 0 else "orange") == abs(fp) or fp == 0, (fp, hs)
        shown[fp] = img
    assert len(set(shown.values())) == 19


def test_a_1ms_ready_glitch_does_not_lock_and_alerts_are_at_4khz(rp2_pod) -> None:
    pod = rp2_pod()
    hub = connect(pod)
    hub.send("state", prompt=5, **STATE)
    hub.run(100)
    for _ in range(3):
        pod.down("ready")
        pod.run(1)
        pod.up("ready")
        hub.run(100)
    assert not hub.of("ready") and not hub.of("ready_at")
    press(hub, "next")
    press(hub, "ready")
    assert hub.run_until(lambda: hub.of("ready"), 1000)
    assert hub.of("ready")[0][1]["slot"] == 2
    hub.send("state", prompt=6, **STATE)
    hub.run(100)
    hub.send("countdown", prompt=6, ms=3500)
    assert hub.run_until(lambda: hub.of("expired"), 5000)
    hub.run(600)
    hub.send("result", outcome=1, fp_delta=1, hp_delta=0)
    hub.run(600)
    tones = pod.tones
    assert len(tones) >= 7, tones  # boot, click, lock, three ticks, the end, a win's two
    assert all(3920 <= hz <= 4080 for _, hz, _ in tones), tones  # the PS1240's resonance
    ends = [ms for _, _, ms in tones]
    assert max(ends) >= 380  # the end of the countdown: one long beep


def test_the_oled_shows_the_selected_cards_name_and_keeps_the_ring_at_50hz(rp2_pod) -> None:
    pod = rp2_pod(extra={"pinmap.json": oled_pinmap()})
    hub = connect(pod)
    info = hub.link.pod
    assert info.features & 1 and podext.speaks_ext(info)
    podext.greet(hub.link, pod.ms)
    names = ["회전 차기", "낮은 방어", "올려 베기"]

    class Conn:
        pass

    hub.send("state", prompt=7, **dict(STATE, options=3, flags=1, hand=3))
    podext.send_names(Conn(), hub.link, pod.ms, 7, names, "pass")
    hub.pod.write(hub.link.take_output())
    hub.run(600)

    def name_rows(text):
        w, data = glyphs.render(text)
        return w, glyphs.to_rows(w, data)

    for k, name in enumerate(names + ["패스 pass"]):
        w, want = name_rows(name)
        assert [r[:w] for r in pod.screen()[:16]] == want, (name, "\n".join(pod.screen()))
        assert pod.screen()[16:24] == text_rows(f"{k + 1}/4")
        press(hub, "next", gap_ms=200)
    # a countdown with the OLED redrawing every second: the ring keeps its 50 Hz
    n0, t0, i0 = len(pod.frames), pod.ms, len(pod.i2c)
    hub.send("countdown", prompt=7, ms=10_000)
    hub.run(4000)
    rate = (len(pod.frames) - n0) / ((pod.ms - t0) / 1000)
    assert rate >= 49, rate
    assert len(pod.i2c) - i0 >= 8  # it did redraw (the seconds)
    press(hub, "ready")
    hub.run(300)
    assert hub.of("ready_at") and pod.screen()[16:24] == text_rows("LOCKED")


@functools.cache
def text_rows(t: str) -> list[str]:
    """A text line as the pod draws it: MicroPython's own framebuf (the unix port) renders it."""
    code = ("import framebuf\nb = bytearray(128)\nf = framebuf.FrameBuffer(b, 128, 8, framebuf.MONO_VLSB)\n"
            f"f.text({t!r}, 0, 0, 1)\nprint(bytes(b).hex())")
    out = subprocess.run([podsim.micropython_binary(), "-c", code], capture_output=True, text=True, check=True)
    b = bytes.fromhex(out.stdout.strip())
    return ["".join("#" if b[x] >> y & 1 else "." for x in range(128)) for y in range(8)]


def test_self_test_from_power_up_and_from_the_hub(rp2_pod) -> None:
    pod = rp2_pod(extra={"pinmap.json": oled_pinmap()})
    pod.down("ready")  # held while plugging in: the self-test, no hub needed
    pod.run(1500)
    pod.up("ready")
    n0 = 0  # from power-up
    pod.run(5500)
    fills = []  # the whole ring in one colour: which channels are lit
    for img in frames_since(pod, n0):
        px = {img[i:i + 3] for i in range(0, len(img), 3)}
        if len(px) == 1 and max(img) > 20:
            lit = "".join("RGB"[c] for c in range(3) if img[c] > 5)
            if not fills or fills[-1] != lit:
                fills.append(lit)
    assert fills[:4] == ["R", "G", "B", "RGB"], fills  # the RGBW sweep
    screen = pod.screen()
    assert screen[0] == "#" * 128 and screen[31] == "#" * 128  # the test pattern's border
    hub = connect(pod)
    podext.greet(hub.link, pod.ms)
    podext.start_selftest(hub.link, pod.ms)
    hub.pod.write(hub.link.take_output())
    hub.run(300)
    for b in ("prev", "next", "ready", "back"):
        press(hub, b)
    hub.run(5500)
    got = {m["part"]: m["result"] for _, m in hub.of("test")}
    assert got == {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1}, got  # the OLED acked on the bus


def lit(img: bytes) -> dict[int, int]:
    """pixel -> its brightest channel, for the pixels that are on."""
    return {i // 3: max(img[i:i + 3]) for i in range(0, len(img), 3) if max(img[i:i + 3]) > 2}


def test_my_link_lost_and_the_opponent_away_are_different_pictures(rp2_pod) -> None:
    # issue 33: both lit pixels 0, 3, 6 and 9 in sky blue, only the pulse's period differed, so a
    # player could not tell "my pod lost the hub" from "the other pod is away". Now, read off the
    # WS2812 frames: the opponent away is one pixel (and its dim trail) swinging over the far side;
    # my link lost pulses every third pixel all round, together
    pod = rp2_pod()
    hub = connect(pod)
    hub.send("state", prompt=3, **dict(STATE, kind=0, options=0))
    hub.run(200)
    hub.send("notice", code=1, arg=0)  # the opponent's pod is away
    hub.run(300)
    n0 = len(pod.images)
    hub.run(2400)  # one whole swing
    away = [lit(img) for img in frames_since(pod, n0)]
    n = len(pod.image()) // 3
    assert away and all(1 <= len(f) <= 2 for f in away), away[:5]
    far = {(n - n // 4) % n, *range(n - n // 4 + 1, n), 0, *range(1, n // 4 + 1)}  # 9 o'clock .. 3 o'clock
    assert set().union(*away) <= far and len(set().union(*away)) >= 5, set().union(*away)
    heads = {max(f, key=f.get) for f in away}
    assert len(heads) >= 5  # it moves
    assert all(hue(pod.images[-1][1][3 * i:3 * i + 3]) == "sky" for i in lit(pod.image()))
    # my own link: nobody answers the pod any more; it drops the link after 1.5 s of silence
    pod.run(2000)
    n0 = len(pod.images)
    pod.run(1000)  # one whole pulse
    lost = [lit(img) for img in frames_since(pod, n0)]
    assert lost and all(set(f) == set(range(0, n, 3)) for f in lost), lost[:3]
    assert all(len(set(f.values())) == 1 for f in lost)  # together
    assert len({next(iter(f.values())) for f in lost}) >= 5  # pulsing
    assert not any(set(f) == set(g) for f in away for g in lost)  # never the same pixels
