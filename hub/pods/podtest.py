"""The builder's check (``lumen pod test``, issue 21 part 4): talk to a freshly flashed pod over
its serial port, start its self-test (docs/protocol.md section 11, firmware/selftest.py) and
judge each part: PASS, FAIL with what to check, or absent from the pin map.

What the pod can see for itself it reports: a button is *ok* once it was pressed and released,
the OLED *ok* when it answered on I2C (*failed* when not). What only a person can judge (the
ring's colours, the beep, the motor, the OLED's picture) the pod reports as *shown*, and the
builder answers a y/n question. The run is written against two small seams so that the same code
runs at the bench and in the tests: a ``Wire`` (bytes and a clock: a serial port and the wall
clock here, the emulated Pico and its emulated time in tests/rp2) and a ``Builder`` (the person:
the terminal here; in tests, what the emulated Pico really showed).
"""

from __future__ import annotations

import csv
import json
import os
import select
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol, Sequence

from hub.pods.channel import HubLink
from hub.pods.protocol import EXT, FEATURE_EXT, FEATURE_MARKS, SELFTEST_ACTIONS, TEST_PARTS, TEST_RESULTS

PINMAPS = Path(__file__).resolve().parents[2] / "hardware" / "pinmaps"
PART_OF = {v: k for k, v in TEST_PARTS.items()}
RESULT_OF = {v: k for k, v in TEST_RESULTS.items()}
BUTTONS = ("prev", "next", "ready", "back")

# part -> (Korean, English) name
NAMES = {
    "ring": ("링", "ring"), "orientation": ("링 방향", "ring orientation"), "piezo": ("피에조", "piezo"), "motor": ("진동 모터", "motor"),
    "oled": ("OLED", "OLED"), "prev": ("PREV 버튼", "PREV button"), "next": ("NEXT 버튼", "NEXT button"),
    "ready": ("READY 버튼", "READY button"), "back": ("BACK 버튼", "BACK button"),
}
WHERE = {"prev": ("왼쪽", "left"), "next": ("오른쪽", "right"), "ready": ("아래", "bottom"), "back": ("위", "top")}
# the y/n questions (Korean, English)
QUESTIONS = {
    "ring": ("링의 모든 픽셀이 빨강, 초록, 파랑, 흰색 순서로 켜졌습니까?",
             "Did every pixel of the ring light red, then green, then blue, then white?"),
    "piezo": ("시작할 때와 버튼을 누를 때마다 높은 삐 소리(4 kHz)가 났습니까?",
              "Did the pod beep (a high 4 kHz tone) when the test started and at each press?"),
    "motor": ("시작할 때와 READY를 누를 때 진동 모터가 떨렸습니까?",
              "Did the motor buzz when the test started and when you pressed READY?"),
    "oled": ("화면에 테두리, 왼쪽의 체크 무늬, SELF TEST 글자가 보입니까?",
             "Does the screen show a frame round its edge, a checkerboard at the left and SELF TEST?"),
}


# where the orientation marks are (the builder answers with an hour, as on a clock face)
WHERE_MARK = {
    "mark_top": ("링에 흰 점 하나가 켜졌습니다. 위에서 본 시계판으로 몇 시 방향입니까? 12시는 후드의 뒷벽 쪽(상대 쪽)입니다. "
                 "1-12, 켜진 점이 없으면 0",
                 "One white pixel is lit on the ring. Where is it, as on a clock face seen from above? 12 o'clock is by "
                 "the hood's back wall (the opponent's side). 1-12, or 0 if none is lit"),
    "mark_right": ("이번에는 다른 흰 점 하나가 켜졌습니다. 몇 시 방향입니까? 1-12, 없으면 0",
                   "Now another single white pixel is lit. Where is it? 1-12, or 0 if none is lit"),
}


class NoPod(Exception):
    """The check could not run at all (no pod, no answer, an older firmware): the message
    names the port and what to do, Korean and English."""


class Wire(Protocol):
    name: str

    def now(self) -> int:
        """Milliseconds on this wire's clock."""
        ...

    def wait(self, ms: int) -> bytes:
        """Bytes from the pod, waiting at most ``ms`` for the first of them (b"": none)."""
        ...

    def write(self, data: bytes) -> None: ...


class Builder(Protocol):
    def say(self, text: str) -> None: ...

    def press(self, button: str) -> None:
        """Ask for one press and release of a button (the pod reports it)."""
        ...

    def ask(self, part: str, question: str, idle: Callable[[], None]) -> bool:
        """A yes/no question; ``idle`` keeps the link alive while the person thinks."""
        ...

    def where(self, mark: str, question: str, idle: Callable[[], None]) -> int | None:
        """Where the lit pixel is, as an hour 1-12 on a clock face seen from above (None: none lit)."""
        ...


@dataclass
class Verdict:
    part: str
    status: str  # "PASS", "FAIL" or "ABSENT"
    why: str = ""  # what to check (FAIL) or why it was not tested (ABSENT), Korean and English


def _pins(board: str) -> dict:
    """The pin map of a board name (hardware/pinmaps) or a .json file; {} when unreadable."""
    try:
        path = Path(board) if board.endswith(".json") else PINMAPS / f"{board}.json"
        pm = json.loads(path.read_text())
        return pm if isinstance(pm, dict) else {}
    except (OSError, ValueError):
        return {}


def orientation(h0: int | None, h1: int | None, pixels: int, first: int = 0, reverse: bool = False) -> Verdict:
    """The ring's orientation from where the builder saw pixel 0 (``h0``) and the pixel a quarter on
    (``h1``), as clock hours seen from above: PASS only at 12 and 3 o'clock. Otherwise what to do:
    turn the ring, or the pin map's ``first`` and ``reverse`` that put pixel 0 at 12 o'clock running
    clockwise (from the pin map the pod has: ``first``, ``reverse``)."""
    if not h0 or not h1:
        return Verdict("orientation", "FAIL", "표시 점이 보이지 않았습니다: 링의 배선과 핀 맵의 ring.pin / A mark was not "
                                             "seen: check the ring's wiring and the pin map's ring.pin")
    h0, h1 = h0 % 12, h1 % 12
    step = (h1 - h0) % 12
    if h0 == 0 and step == 3:
        return Verdict("orientation", "PASS")
    if step not in (3, 9):
        return Verdict("orientation", "FAIL",
                       f"두 점이 링의 4분의 1만큼 떨어져 있지 않습니다({h0 or 12}시, {h1 or 12}시): 핀 맵의 ring.pixels"
                       f"({pixels})가 링의 픽셀 수와 같은지 확인하세요 / the two marks ({h0 or 12} and {h1 or 12} "
                       f"o'clock) are not a quarter of the ring apart: check that the pin map's ring.pixels ({pixels}) "
                       "is the ring's pixel count (12 or 16)")
    runs = 1 if step == 3 else -1  # the ring as fitted, against the pin map's direction
    r = -1 if reverse else 1
    steps = h0 * pixels / 12  # pixels clockwise from 12 o'clock to where pixel 0 is
    ko, en = [], []
    if h0:
        ko.append(f"0번 픽셀이 12시가 아니라 {h0}시에 있습니다.")
        en.append(f"Pixel 0 is at {h0} o'clock, not 12.")
    if runs < 0:
        ko.append("링이 반대 방향(반시계)으로 돕니다.")
        en.append("The ring runs the other way (counter-clockwise).")
    if steps == int(steps):
        new_first = int(first - runs * r * steps) % pixels
        new_rev = reverse if runs > 0 else not reverse
        keys = ", ".join([f'"first": {new_first}'] + ([f'"reverse": {str(new_rev).lower()}'] if new_rev != reverse else []))
        if runs > 0:
            ko.append(f"링을 위에서 보아 반시계 방향으로 {h0}시간만큼 돌려 끼우거나, 핀 맵의 \"ring\"에 {keys}를 넣고 다시 올리세요.")
            en.append(f"Turn the ring {h0} hour{'s' if h0 > 1 else ''} counter-clockwise (seen from above) in its rim, "
                      f"or set {keys} in the pin map's \"ring\" and flash it again.")
        else:
            ko.append(f"핀 맵의 \"ring\"에 {keys}를 넣고 다시 올리세요.")
            en.append(f"Set {keys} in the pin map's \"ring\" and flash it again.")
    else:
        ko.append("0번 픽셀이 12시에 오도록 링을 돌려 끼우세요.")
        en.append("Turn the ring in its rim until pixel 0 sits at 12 o'clock.")
    return Verdict("orientation", "FAIL", " ".join(ko) + " / " + " ".join(en) +
                   " (lumen pod flash --board FILE; hardware/README.md \"Pixel 0 and the ring's direction\")")


def hints(board: str = "pico") -> dict[str, str]:
    """What to check when a part fails, with the pin map's GPIOs (Korean / English)."""
    pm = _pins(board)
    bt = pm.get("buttons") or {}
    o = pm.get("oled") or {}

    def gp(v) -> str:
        return f"GP{v}" if isinstance(v, int) else "its GPIO"

    ring = (pm.get("ring") or {}).get("pin")
    out = {
        "ring": f"링의 5 V·GND, DIN ({gp(ring)} → 74AHCT125 → 330 Ω), 74AHCT125의 /OE 접지, 10 µF의 방향; 한 픽셀부터 "
                f"꺼지면 그 픽셀의 DOUT→DIN / Check the ring's 5 V and GND, DIN ({gp(ring)} through the 74AHCT125 and "
                "the 330 Ω), the 74AHCT125's /OE tied to GND, the 10 µF's polarity; dark from one pixel on: that "
                "pixel's DOUT to the next DIN; wrong colours: a ring that is not GRB (WS2812B)",
        "piezo": f"피에조(PS1240)와 {gp(pm.get('piezo'))}, GND, J4 점퍼; 자석식 부저는 GPIO에 직접 연결 금지 / Check the piezo "
                 f"(PS1240) on {gp(pm.get('piezo'))} and GND, J4's shunt; a magnetic buzzer (a few ohms) needs a driver, "
                 "never a GPIO",
        "motor": f"AO3400A의 게이트({gp(pm.get('vibe'))}), 플라이백 다이오드 방향, 모터의 3V3와 C7 / Check the AO3400A's gate "
                 f"on {gp(pm.get('vibe'))}, the flyback diode's direction (band to 3V3), the motor's 3V3 (J2 pin 1, C7 "
                 "beside it) and its wires",
        "oled_failed": "OLED가 I2C에 응답하지 않습니다: SDA·SCL 배선, 3V3·GND, 핀 맵의 addr(0x3C 또는 0x3D) / The OLED did "
                       f"not answer on I2C: check SDA ({gp(o.get('sda'))}) and SCL ({gp(o.get('scl'))}), its 3V3 and "
                       "GND, and the pin map's addr (0x3C = 60 or 0x3D = 61)",
        "oled": "버스에는 응답하지만 그림이 다름: 핀 맵의 height(32/64), SSD1306인지(SH1106 아님) / It answers on the bus but "
                "shows wrong: check the pin map's height (32 or 64) and that the module is an SSD1306 (not an SH1106)",
    }
    for b in BUTTONS:
        ko, en = WHERE[b]
        out[b] = (f"스위치, {gp(bt.get(b))}와 GND 배선, 10 kΩ 풀업·100 nF; 누르는 동안 링의 {ko} 사분면이 켜집니다 / "
                  f"Check the switch, its wires to {gp(bt.get(b))} and GND, the 10 kΩ pull-up and 100 nF; while it is "
                  f"held the ring's {en} quarter lights")
    return out


class Check:
    """One run of the builder's check over a wire."""

    def __init__(self, wire: Wire, builder: Builder, board: str = "pico", hello_ms: int = 8000,
                 press_ms: int = 30000, sweep_ms: int = 15000) -> None:
        """``board``: a board name (hardware/pinmaps) or the pin map file on the pod: its GPIOs go
        in the hints, its ``first`` and ``reverse`` in what to do about a turned ring."""
        self.wire = wire
        self.builder = builder
        self.pinmap = _pins(board)
        self.hints = hints(board)
        self.epochs: list[int] = []  # the epoch of each hello (the link coming back: one more)
        self.hello_ms = hello_ms
        self.press_ms = press_ms
        self.sweep_ms = sweep_ms
        self.link = HubLink()
        self.results: dict[str, str] = {}  # part -> the pod's latest report
        self.boot: int | None = None  # the pod's boot id, from its first hello
        self.started = False  # the self-test was asked for
        self.restarted = False
        self.raw = b""  # the last bytes from the pod, for what a pod that does not link prints

    # -- the link
    def pump(self, ms: int = 20) -> None:
        w = self.wire
        data = w.wait(ms)
        now = w.now()
        if data:
            self.raw = (self.raw + data)[-4096:]
            for m in self.link.feed(data, now):
                if m.type == "hello":
                    self.hello(m, now)
                elif m.type == "test":
                    self.results[PART_OF.get(m["part"], str(m["part"]))] = RESULT_OF.get(m["result"], "?")
        out = self.link.poll(now)
        if out:
            w.write(out)

    def hello(self, m, now: int) -> None:
        # a new boot mid-check is a reset (its self-test is gone); the same boot with a new
        # epoch is the link coming back (the pod keeps testing and keeps what it reported)
        if self.boot is not None and m["boot"] != self.boot:
            self.restarted = True
        self.boot = m["boot"]
        self.epochs.append(m["epoch"])
        self.link.welcome(now, 0, "referee")
        if self.started:
            self.link.send("ext", now, version=EXT)  # each welcome resets it on the pod

    def until(self, cond: Callable[[], bool], ms: int) -> bool:
        end = self.wire.now() + ms
        while not cond():
            if self.restarted:
                raise NoPod(f"{self.wire.name}: 점검 중 포드가 다시 시작했습니다(리셋 또는 전압 강하: USB 케이블, 링의 전류) / "
                            "the pod restarted during the check (a reset or a brown-out: check the USB cable and "
                            "the ring's current)")
            if self.wire.now() >= end:
                return False
            self.pump()
        return True

    def send(self, msg_type: str, **fields) -> None:
        self.link.send(msg_type, self.wire.now(), **fields)
        self.wire.write(self.link.take_output())

    # -- the check
    def connect(self) -> None:
        name = self.wire.name
        if not self.until(lambda: self.link.up, self.hello_ms):
            s = self.hello_ms / 1000
            refused = sorted({line.strip() for line in self.raw.decode(errors="replace").splitlines()
                              if "pin map refused" in line})
            if refused:  # firmware/app.refused: the pod runs nothing with a map its rules refuse
                raise NoPod(f"{name}: 포드가 핀 맵을 거부했습니다(링이 주황·흰색으로 번갈아 켜집니다). 고친 핀 맵으로 "
                            "lumen pod flash 또는 lumen pod image를 다시 하세요. / the pod refused its pin map (its ring "
                            "shows alternate orange and white); flash a corrected map (lumen pod flash --board FILE, or "
                            "lumen pod image --pinmap FILE):\n  " + "\n  ".join(refused))
            raise NoPod(f"{name}: {s:g}초 동안 포드의 응답이 없습니다. 펌웨어를 올렸는지(lumen pod image), 데이터 케이블인지, "
                        f"다른 프로그램(lumen hub)이 포트를 쓰고 있지 않은지 확인하세요. / no pod answered on {name} in "
                        f"{s:g} s: is the pod flashed (lumen pod image), the cable a data cable, the port not held by "
                        "another program (a running lumen hub)?")
        pod = self.link.pod
        assert pod is not None
        if not pod.features & FEATURE_EXT:
            raise NoPod(f"{name}: 포드 펌웨어 {pod.firmware}에는 자가 진단이 없습니다: lumen pod image로 새로 올리세요. / the pod's "
                        f"firmware {pod.firmware} has no self-test over the link: flash a current one (lumen pod image)")

    def run(self) -> list[Verdict]:
        self.connect()
        b = self.builder
        self.send("ext", version=EXT)
        b.say("자가 진단을 시작합니다. 링을 보세요: 빨강, 초록, 파랑, 흰색이 한 점씩 돈 뒤 링 전체를 채웁니다. / Starting the "
              "self-test. Watch the ring: red, green, blue and white, each one pixel round, then the whole ring.")
        self.send("selftest", action=1)
        self.started = True
        if not self.until(lambda: len(self.results) > 0, 3000):
            raise NoPod(f"{self.wire.name}: 포드가 자가 진단을 시작하지 않았습니다 / the pod did not start its self-test")
        out = [self.ring(), self.orientation()]
        for btn in BUTTONS:
            out.append(self.button(btn))
        out.append(self.looked("piezo"))
        out.append(self.looked("motor"))
        out.append(self.oled())
        self.send("selftest", action=0)
        self.until(lambda: self.link.unacked == 0, 1000)
        return out

    def absent(self, part: str) -> Verdict:
        return Verdict(part, "ABSENT", "핀 맵에 없음 / not in the pin map")

    def ring(self) -> Verdict:
        if not self.until(lambda: "ring" in self.results, self.sweep_ms):
            return Verdict("ring", "FAIL", "포드가 스윕을 끝내지 못했습니다 / the pod never finished the sweep; " + self.hints["ring"])
        return self.judge("ring")

    def orientation(self) -> Verdict:
        """Pixel 0 alone, then the pixel a quarter on: where the builder sees them (docs/protocol.md 11)."""
        pod = self.link.pod
        assert pod is not None
        if not pod.features & FEATURE_MARKS:
            return Verdict("orientation", "FAIL", "이 펌웨어는 방향 표시를 못 합니다: lumen pod image로 새로 올리세요 / this "
                                                 "firmware cannot show the orientation marks: flash a current one")
        seen = []
        for mark in ("mark_top", "mark_right"):
            self.send("selftest", action=SELFTEST_ACTIONS[mark])
            self.until(lambda: self.link.unacked == 0, 1000)
            ko, en = WHERE_MARK[mark]
            seen.append(self.builder.where(mark, f"{ko} / {en}", self.pump))
        self.send("selftest", action=SELFTEST_ACTIONS["marks_off"])
        rg = self.pinmap.get("ring") or {}
        return orientation(seen[0], seen[1], pod.pixels, int(rg.get("first", 0)), bool(rg.get("reverse", False)))

    def button(self, btn: str) -> Verdict:
        if self.results.get(btn) == "absent":
            return self.absent(btn)
        ko, en = WHERE[btn]
        self.builder.say(f"{NAMES[btn][0]}({ko})을 한 번 눌렀다 떼세요 / Press and release {btn.upper()} ({en}) once")
        self.builder.press(btn)
        if self.until(lambda: self.results.get(btn) == "ok", self.press_ms):
            return Verdict(btn, "PASS")
        s = self.press_ms / 1000
        return Verdict(btn, "FAIL", f"{s:g}초 동안 누름이 없었습니다 / no press and release in {s:g} s; " + self.hints[btn])

    def looked(self, part: str) -> Verdict:
        r = self.results.get(part)
        if r == "absent":
            return self.absent(part)
        if r != "shown":
            return Verdict(part, "FAIL", f"포드의 보고: {r} / the pod reported {r}; " + self.hints[part])
        return self.judge(part)

    def oled(self) -> Verdict:
        r = self.results.get("oled")
        if r == "absent":
            return self.absent("oled")
        if r != "ok":
            return Verdict("oled", "FAIL", self.hints["oled_failed"])
        return self.judge("oled")

    def judge(self, part: str) -> Verdict:
        ko, en = QUESTIONS[part]
        yes = self.builder.ask(part, f"{ko} / {en}", self.pump)
        return Verdict(part, "PASS") if yes else Verdict(part, "FAIL", self.hints[part])


def report(verdicts: list[Verdict], out=None) -> int:
    """PASS/FAIL per part; the exit code: 0 only when nothing failed."""
    out = out or sys.stdout
    for v in verdicts:
        ko, en = NAMES[v.part]
        mark = {"PASS": "PASS", "FAIL": "FAIL", "ABSENT": "----"}[v.status]
        print(f"{mark}  {ko} / {en}" + (f"\n      {v.why}" if v.why else ""), file=out)
    failed = [v for v in verdicts if v.status == "FAIL"]
    if failed:
        print(f"{len(failed)}개 실패: 위의 항목을 확인한 뒤 lumen pod test를 다시 실행하세요. / {len(failed)} failed: check "
              "the parts above and run lumen pod test again.", file=out)
        return 1
    print("모든 항목 통과. / All parts pass.", file=out)
    return 0


# -- at the bench: a serial port and a terminal


class SerialWire:
    """A pod's USB serial port (pyserial through hub/pods/ports.py), on the wall clock."""

    def __init__(self, device: str) -> None:
        from hub.pods.ports import SerialPort

        self.name = device
        self.port = SerialPort(device)

    def now(self) -> int:
        return int(time.monotonic() * 1000)

    def wait(self, ms: int) -> bytes:
        r, _, _ = select.select([self.port.fileno()], [], [], ms / 1000)
        return self.port.read() if r else b""

    def write(self, data: bytes) -> None:
        self.port.write(data)

    def close(self) -> None:
        self.port.close()


class Console:
    """The builder at a terminal: instructions printed, y/n read from stdin while the link
    keeps running (the pod drops a link that is silent for 1.5 s)."""

    def __init__(self, stdin=None, out=None) -> None:
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stdout

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def press(self, button: str) -> None:
        pass  # the instruction was said; the pod reports the press

    def ask(self, part: str, question: str, idle: Callable[[], None]) -> bool:
        while True:
            print(f"{question} [y/n] ", end="", file=self.out, flush=True)
            line = self._line(idle)
            if line is None:
                print("", file=self.out)
                return False  # no answer (end of input): not a pass
            a = line.strip().lower()
            if a in ("y", "yes", "ㅇ", "예", "네"):
                return True
            if a in ("n", "no", "아니오", "아니요"):
                return False
            print("y 또는 n / y or n", file=self.out)

    def where(self, mark: str, question: str, idle: Callable[[], None]) -> int | None:
        while True:
            print(f"{question}: ", end="", file=self.out, flush=True)
            line = self._line(idle)
            if line is None:
                print("", file=self.out)
                return None  # no answer: not seen
            a = line.strip().removesuffix("시").removesuffix("o'clock").strip()
            if a.isdigit() and 0 <= int(a) <= 12:
                return int(a) or None
            print("0-12", file=self.out)

    def _line(self, idle: Callable[[], None]) -> str | None:
        fd = self.stdin.fileno()
        buf = b""
        while True:
            r, _, _ = select.select([fd], [], [], 0)
            if not r:
                idle()  # waits up to 20 ms on the pod's port
                continue
            c = os.read(fd, 1)
            if not c:
                return buf.decode(errors="replace") if buf else None
            if c == b"\n":
                return buf.decode(errors="replace")
            buf += c


def find_port() -> str:
    """The one pod plugged in, found as the hub finds pods (hub/pods/ports.py)."""
    from hub.pods.ports import find_pod_ports

    ports = find_pod_ports()
    if not ports:
        raise NoPod("포드를 찾지 못했습니다: USB를 연결하고(데이터 케이블), 또는 --port 장치를 주세요. / no pod found: plug "
                    "it in (a data cable) or give --port DEV")
    if len(ports) > 1:
        raise NoPod(f"포드가 여러 개입니다({', '.join(ports)}): --port로 하나를 고르세요. / more than one pod "
                    f"({', '.join(ports)}): pick one with --port DEV")
    return ports[0]


CSV_PARTS = ("ring", "orientation", "prev", "next", "ready", "back", "piezo", "motor", "oled")
CSV_FIELDS = ("time", "port", "board_id", "firmware", *CSV_PARTS, "result", "notes")


def csv_row(port: str, check: Check | None, verdicts: list[Verdict], problem: str = "") -> dict[str, str]:
    """One pod's line of the --all sheet: its board id (the flash chip's id, as the hub knows it), PASS/FAIL
    per part ("----" absent), PASS only when nothing failed."""
    pod = check.link.pod if check is not None else None
    status = {v.part: {"ABSENT": "----"}.get(v.status, v.status) for v in verdicts}
    failed = [v.part for v in verdicts if v.status == "FAIL"]
    return {"time": time.strftime("%Y-%m-%d %H:%M:%S"), "port": port, "board_id": pod.board_id if pod else "",
            "firmware": pod.firmware if pod else "", **{p: status.get(p, "") for p in CSV_PARTS},
            "result": "FAIL" if failed or problem else "PASS",
            "notes": problem or "; ".join(f"{v.part}: {v.why}" for v in verdicts if v.status == "FAIL")}


def run_all(wires: Sequence[Wire], builder: Builder, sheet: Path, board: str = "pico", hello_ms: int = 8000,
            press_ms: int = 30000, out=None) -> int:
    """The check on every pod in turn, a line each appended to the CSV sheet (a header first when it is
    new): a store checking twenty pods plugs them into a hub and works down the list. Exit code 0 only when
    every pod passed."""
    out = out or sys.stdout
    new = not sheet.exists() or sheet.stat().st_size == 0
    passed = 0
    with sheet.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        if new:
            w.writeheader()
        for k, wire in enumerate(wires, 1):
            print(f"\n== {k}/{len(wires)}: {wire.name} ==", file=out, flush=True)
            check = Check(wire, builder, board, hello_ms=hello_ms, press_ms=press_ms)
            try:
                verdicts = check.run()
            except NoPod as e:
                print(f"lumen pod test: {e}", file=out)
                row = csv_row(wire.name, check, [], str(e))
            else:
                report(verdicts, out)
                row = csv_row(wire.name, check, verdicts)
            w.writerow(row)
            f.flush()
            passed += row["result"] == "PASS"
    print(f"\n{passed}/{len(wires)}개 통과, 결과: {sheet} / {passed} of {len(wires)} pods pass; the sheet: {sheet}",
          file=out)
    return 0 if passed == len(wires) else 1


def main(port: str | None, board: str = "pico", hello_s: float = 8, press_s: float = 30, all_pods: bool = False,
         sheet: str | None = None) -> int:
    if all_pods:
        from hub.pods.ports import find_pod_ports

        ports = find_pod_ports()
        if not ports:
            print("lumen pod test: 포드를 찾지 못했습니다 / no pod found: plug them in (data cables)", file=sys.stderr)
            return 2
        wires = []
        try:
            for dev in ports:
                try:
                    wires.append(SerialWire(dev))
                except Exception as e:  # pyserial's SerialException, no permission
                    print(f"lumen pod test: {dev}: 포트를 열 수 없습니다 / cannot open the port: {e}", file=sys.stderr)
            return run_all(wires, Console(), Path(sheet or "pod-test.csv"), board, int(hello_s * 1000),
                           int(press_s * 1000)) if wires else 2
        finally:
            for wire in wires:
                wire.close()
    try:
        dev = port or find_port()
        print(f"{dev}: 포드와 연결 중 / talking to the pod", flush=True)
        try:
            wire = SerialWire(dev)
        except Exception as e:  # pyserial's SerialException, a missing device, no permission
            raise NoPod(f"{dev}: 포트를 열 수 없습니다 / cannot open the port: {e}") from None
        try:
            check = Check(wire, Console(), board, hello_ms=int(hello_s * 1000), press_ms=int(press_s * 1000))
            verdicts = check.run()
        finally:
            wire.close()
    except NoPod as e:
        print(f"lumen pod test: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # unplugged mid-test
        print(f"lumen pod test: {e}", file=sys.stderr)
        return 2
    if sheet:
        run_sheet = Path(sheet)
        new = not run_sheet.exists() or run_sheet.stat().st_size == 0
        with run_sheet.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
            if new:
                w.writeheader()
            w.writerow(csv_row(dev, check, verdicts))
    return report(verdicts)
