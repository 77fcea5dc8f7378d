"""``lumen pod test`` (issue 21 part 4) against the emulated Pico: the check's own code
(hub/pods/podtest.py) drives the real firmware on rp2040js over the emulated USB CDC. The
builder here is what the emulated board really did: the y/n questions are answered from the
WS2812 frames decoded on the ring pin, the piezo's tones measured as frequencies, the motor
pin's levels and the SSD1306's display RAM (tests/rp2/pod.mjs), never from the pod's own
reports. Times are emulated (the check's clock is the emulator's), so nothing depends on how
fast this machine is."""

from __future__ import annotations

import csv
import io
import json

import pytest

from hub.pods import podtest
from tests.rp2.emu import Rp2Pod
from tests.rp2.test_seen import oled_pinmap


class EmuWire:
    """The check's wire on the emulated Pico: bytes over its USB CDC, emulated ms."""

    name = "emulated-pico"

    def __init__(self, pod) -> None:
        self.pod = pod

    def now(self) -> int:
        return self.pod.ms

    def wait(self, ms: int) -> bytes:
        self.pod.run(min(ms, 5))
        return b"".join(d for _, d in self.pod.take())

    def write(self, data: bytes) -> None:
        self.pod.write(data)


class SeenBuilder:
    """The person at the bench, as the emulated board's outputs show it: presses what it is
    asked to (except ``lazy`` buttons), answers from what the ring, the piezo, the motor and
    the screen did since the self-test began."""

    def __init__(self, pod, lazy: tuple[str, ...] = (), hiccup: str = "", turned: int = 0, ccw: bool = False) -> None:
        """``turned``: the ring sits that many pixels clockwise of right in its rim; ``ccw``: its chain
        runs counter-clockwise (physical pixel k is ``turned - k`` pixels round from 12 o'clock)."""
        self.pod = pod
        self.lazy = lazy
        self.turned = turned
        self.ccw = ccw
        self.hiccup = hiccup  # before pressing this button the link goes silent for 2.5 s
        self.said: list[str] = []
        self.asked: dict[str, bool] = {}
        self.marks: dict[str, int | None] = {}  # where each orientation mark was seen
        self.t0_us = 0
        self.presses: list[str] = []
        self.n0 = 0
        self.epoch = 0

    def say(self, text: str) -> None:
        self.said.append(text)
        if not self.t0_us:
            self.t0_us = self.pod.t_us
            self.n0 = len(self.pod.images)

    def press(self, button: str) -> None:
        if button in self.lazy:
            return
        if button == self.hiccup:
            self.pod.run(2500)  # nobody reads the port: the pod drops the link and says hello again
        self.pod.down(button)
        self.pod.run(80)
        self.pod.up(button)
        self.presses.append(button)

    def ask(self, part: str, question: str, idle) -> bool:
        # a moment to think, as a person takes, while the link runs: a beep still
        # sounding has ended (pod.mjs reports a tone when it ends)
        for _ in range(40):  # 200 ms of emulated time
            idle()
        yes = getattr(self, "seen_" + part)()
        self.asked[part] = yes
        return yes

    def where(self, mark: str, question: str, idle) -> int | None:
        # where the one lit pixel of the last frames is, on the ring as it sits in its rim
        for _ in range(40):  # 200 ms to look
            idle()
        self.marks[mark] = None
        lone = set()
        for _, img in self.pod.images[-5:]:
            lit = [i for i in range(0, len(img), 3) if max(img[i:i + 3]) > 20]
            if len(lit) == 1:
                lone.add(lit[0] // 3)
        if len(lone) != 1:
            return None
        n = len(self.pod.images[-1][1]) // 3
        pos = (self.turned + (-1 if self.ccw else 1) * lone.pop()) % n
        self.marks[mark] = round(pos * 12 / n) or 12
        return self.marks[mark]

    def seen_ring(self) -> bool:
        # a single colour over the whole ring, in order: red, green, blue, white; and before
        # each fill one pixel going round: every pixel lit alone at some frame
        fills: list[str] = []
        alone: set[int] = set()
        for _, img in self.pod.images[self.n0:]:
            px = [img[i:i + 3] for i in range(0, len(img), 3)]
            lit = [i for i, p in enumerate(px) if max(p) > 20]
            if len(lit) == len(px) and len(set(px)) == 1:
                ch = "".join("RGB"[c] for c in range(3) if px[0][c] > 5)
                if not fills or fills[-1] != ch:
                    fills.append(ch)
            elif len(lit) == 1:
                alone.add(lit[0])
        return fills[:4] == ["R", "G", "B", "RGB"] and len(alone) == 12

    def seen_piezo(self) -> bool:
        # a tone at the PS1240's resonance sounding when the test began (the pod's boot beep
        # runs into it) and one for each press
        beeps = [hz for t, hz, ms in self.pod.tones if t + ms * 1000 >= self.t0_us and abs(hz - 4000) < 200]
        return len(beeps) >= 1 + len(self.presses)

    def seen_motor(self) -> bool:
        # the motor's switch on when the test began and again for the READY press
        spans, on = [], None
        for t, level in self.pod.vibe:
            if level and on is None:
                on = t
            elif not level and on is not None:
                spans.append((on, t))
                on = None
        spans += [(on, self.pod.t_us)] if on is not None else []
        return len([s for s in spans if s[1] >= self.t0_us and s[1] - s[0] >= 50_000]) >= 1 + ("ready" in self.presses)

    def seen_oled(self) -> bool:
        rows = self.pod.screen()
        if not rows:
            return False
        h = len(rows)
        border = rows[0] == rows[-1] == "#" * 128 and all(r[0] == r[127] == "#" for r in rows)
        checker = rows[2][2:6] == "####" and rows[2][6:10] == "...." and rows[6][2:6] == "...."
        text = any("#" in r[34:106] for r in rows[4:12])
        return h in (32, 64) and border and checker and text


def run_check(pod, builder, press_ms: int = 5000) -> tuple[list[podtest.Verdict], int, str]:
    check = podtest.Check(EmuWire(pod), builder, press_ms=press_ms)
    verdicts = check.run()
    out = io.StringIO()
    code = podtest.report(verdicts, out)
    builder.epochs = check.epochs
    return verdicts, code, out.getvalue()


@pytest.fixture(scope="module")
def oled_pod(rp2_files):
    """One emulated Pico with the OLED pin map for the checks that need no other map: each
    check starts the self-test afresh (a new HubLink: the pod's next hello links it)."""
    with Rp2Pod(rp2_files, extra={"pinmap.json": oled_pinmap()}) as pod:
        yield pod


def test_a_good_pod_passes_every_part(oled_pod) -> None:
    # with a link that drops once mid-check (the same boot says hello again: not a reset)
    pod = oled_pod
    builder = SeenBuilder(pod, hiccup="next")
    verdicts, code, text = run_check(pod, builder)
    assert {v.part: v.status for v in verdicts} == dict.fromkeys(
        ("ring", "orientation", "prev", "next", "ready", "back", "piezo", "motor", "oled"), "PASS"), text
    assert code == 0 and "All parts pass" in text and "모든 항목 통과" in text
    assert builder.asked == {"ring": True, "piezo": True, "motor": True, "oled": True}
    assert builder.marks == {"mark_top": 12, "mark_right": 3}  # pixel 0 alone at 12, then one at 3
    assert builder.presses == ["prev", "next", "ready", "back"]
    e = sorted(set(builder.epochs))
    assert e == [e[0], e[0] + 1]  # the link came back once (a hello may come twice before its welcome)


@pytest.mark.parametrize("turned, ccw, seen, advice", [
    (3, False, {"mark_top": 3, "mark_right": 6}, ["Pixel 0 is at 3 o'clock", '"first": 9', "counter-clockwise"]),
    (0, True, {"mark_top": 12, "mark_right": 9}, ["The ring runs the other way", '"first": 0, "reverse": true']),
], ids=["a quarter-turned ring", "a reversed ring"])
def test_a_turned_or_reversed_ring_fails_with_what_to_set(oled_pod, tmp_path, turned, ccw, seen, advice) -> None:
    # the same firmware and pin map as the good pod: only the ring sits differently in its rim (before issue 33
    # every part passed: nobody asked where pixel 0 was); run as `lumen pod test --all` runs a store's pods,
    # a line in the CSV sheet per pod
    builder = SeenBuilder(oled_pod, turned=turned, ccw=ccw)
    out = io.StringIO()
    sheet = tmp_path / "pods.csv"
    code = podtest.run_all([EmuWire(oled_pod)], builder, sheet, press_ms=5000, out=out)
    text = out.getvalue()
    assert code == 1 and builder.marks == seen, text
    for words in advice:
        assert words in text, text
    assert "링 방향" in text and "1 failed" in text and "0 of 1 pods pass" in text
    rows = list(csv.DictReader(sheet.open()))
    assert len(rows) == 1 and rows[0]["port"] == "emulated-pico" and len(rows[0]["board_id"]) == 16
    assert rows[0]["orientation"] == "FAIL" and rows[0]["result"] == "FAIL" and "first" in rows[0]["notes"]
    assert all(rows[0][p] == "PASS" for p in podtest.CSV_PARTS if p != "orientation"), rows[0]


def test_a_missing_oled_and_an_unpressed_button_fail_with_what_to_check(rp2_pod, monkeypatch) -> None:
    # the pin map has an OLED but nothing answers on the bus (LUMEN_OLED_ADDR=0: no SSD1306
    # on the emulated I2C0), and the builder's NEXT does nothing
    monkeypatch.setenv("LUMEN_OLED_ADDR", "0")
    pod = rp2_pod(extra={"pinmap.json": oled_pinmap()})
    builder = SeenBuilder(pod, lazy=("next",))
    verdicts, code, text = run_check(pod, builder, press_ms=3000)
    status = {v.part: v.status for v in verdicts}
    assert status["oled"] == "FAIL" and status["next"] == "FAIL", text
    assert status["ring"] == status["prev"] == status["ready"] == "PASS", text
    assert code == 1
    assert "SDA" in text and "0x3C" in text and "I2C에 응답하지" in text  # what to check, ko + en
    assert "GP11" in text and "no press and release in 3 s" in text
    assert "2 failed" in text and "2개 실패" in text
    assert "oled" not in builder.asked  # a part the pod itself saw fail is not asked about


def test_a_ring_that_shows_wrong_fails(rp2_pod) -> None:
    # a ring pin map on the wrong GPIO: the pod drives GP17, the ring (GP16) stays dark,
    # and what the emulated board showed says so
    pm = json.loads(oled_pinmap())
    pm["ring"]["pin"] = 17
    pod = rp2_pod(extra={"pinmap.json": json.dumps(pm).encode()})
    builder = SeenBuilder(pod)
    verdicts, code, text = run_check(pod, builder)
    assert {v.part: v.status for v in verdicts}["ring"] == "FAIL" and code == 1, text
    assert "DIN" in text and "74AHCT125" in text
