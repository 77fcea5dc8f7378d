"""The pod firmware on an emulated Raspberry Pi Pico: MicroPython's real rp2
image (v1.22.2) on rp2040js, with the hub's own protocol code at the other
end of the emulated USB CDC. Used by tests/rp2/ and ``bench/pod.py --target rp2040``.

All times here are emulated: the RP2040 runs cycle-counted at 125 MHz, so a
figure does not depend on how fast or busy this machine is.

    files = shared_rp2()                     # None: not on this machine
    with Rp2Pod(files) as pod:               # boots; node runs tests/rp2/pod.mjs
        hub = Rp2Hub(pod)
        hub.run_until(lambda: hub.link.up, 5000)
        pod.press("ready")
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from hub.pods.channel import HubLink
from hub.pods.protocol import Message

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
FIRMWARE = ROOT / "firmware"
FS_OFFSET = 0xA0000  # MicroPython rp2 RPI_PICO: littlefs2 from here to the end of 2 MB
IMAGE = "micropython-v1.22.2-RPI_PICO.bin"
BOOTROM = "rp2040-bootrom-B1.bin"
BUTTONS = {"prev": 10, "next": 11, "ready": 12, "back": 13}  # hardware/pinmaps/pico.json


class EmuError(RuntimeError):
    pass


def shared_rp2() -> Path | None:
    """../shared/rp2/ beside the project (LUMEN_RP2_DIR overrides), or None."""
    d = Path(os.environ.get("LUMEN_RP2_DIR") or ROOT.parent / "shared" / "rp2")
    return d if (d / IMAGE).exists() and (d / BOOTROM).exists() else None


def node_ready() -> str | None:
    """Why the emulator cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        return "rp2040js is not installed (cd tests/rp2 && npm ci)"
    return None


def filesystem(extra: dict[str, bytes] | None = None, pinmap: str = "pico") -> bytes:
    """The littlefs image a flashed pod holds (hub/pods/image.py builds it for
    ``lumen pod image`` too): main.py as source, every other firmware module
    as .mpy (-O3 here, as the lane has always run), the pin map."""
    from hub.pods import image

    return image.filesystem("pico", ROOT / "hardware" / "pinmaps" / f"{pinmap}.json", extra, opt=3)


class Rp2Pod:
    """One emulated Pico: a node process running tests/rp2/pod.mjs."""

    def __init__(self, files: Path, extra: dict[str, bytes] | None = None, uf2: Path | None = None) -> None:
        """``uf2``: boot this whole image (``lumen pod image``) instead of
        ../shared/rp2's MicroPython with the firmware's filesystem."""
        why = node_ready()
        if why:
            raise EmuError(why)
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-rp2-")
        if uf2 is not None:
            flash = [str(uf2)]
        else:
            img = Path(self._tmp.name) / "fs.bin"
            img.write_bytes(filesystem(extra))
            flash = [str(files / IMAGE), str(img), str(FS_OFFSET)]
        self.proc = subprocess.Popen(
            ["node", str(HERE / "pod.mjs"), str(files / BOOTROM), *flash],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=HERE, bufsize=1,
        )
        self.t_us = 0
        self.rx: list[tuple[int, bytes]] = []  # (emulated us, bytes) from the pod, not yet taken
        self.frames: list[int] = []  # emulated us of each WS2812 frame start
        self.images: list[tuple[int, bytes]] = []  # (us, RGB per pixel) decoded from the ring pin's bitstream
        self.tones: list[tuple[int, int, int]] = []  # (us, Hz, ms) measured on the piezo pin
        self.i2c: list[tuple[int, int]] = []  # (us, bytes) of each I2C write to the OLED
        self.vibe: list[tuple[int, int]] = []  # (us, level) at each change of the motor's switch pin
        self.oled: tuple[int, bytes] | None = None  # (rows, display RAM) of the emulated SSD1306
        self.delivered: list[tuple[int, int]] = []  # (emulated us, bytes) handed to the pod
        self.stats_lines: list[str] = []

    def _cmd(self, line: str) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise EmuError(f"the emulator exited ({self.proc.poll()})") from None
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise EmuError(f"the emulator exited ({self.proc.wait()}) during {line!r}")
            kind, _, rest = out.strip().partition(" ")
            if kind == "ok":
                self.t_us = int(rest)
                return
            if kind == "rx":
                t, data = rest.split()
                self.rx.append((int(t), bytes.fromhex(data)))
            elif kind == "tx":
                self.delivered.append(tuple(int(x) for x in rest.split()))
            elif kind == "px":
                t, grb = rest.split()
                self.frames.append(int(t))
                g = bytes.fromhex(grb) if grb != "-" else b""
                # WS2812 order G R B -> R G B, as the pixels show it
                self.images.append((int(t), bytes(b for i in range(0, len(g) - 2, 3) for b in (g[i + 1], g[i], g[i + 2]))))
            elif kind == "tone":
                t, hz, ms = (int(x) for x in rest.split())
                self.tones.append((t, hz, ms))
            elif kind == "vibe":
                t, level = (int(x) for x in rest.split())
                self.vibe.append((t, level))
            elif kind == "i2c":
                t, n = (int(x) for x in rest.split())
                self.i2c.append((t, n))
            elif kind == "oled":
                h, ram = rest.split()
                self.oled = (int(h), bytes.fromhex(ram))
            elif kind == "stats":
                self.stats_lines.append(rest)
            else:
                raise EmuError(out.strip())

    @property
    def ms(self) -> int:
        return self.t_us // 1000

    def run(self, ms: float) -> None:
        self._cmd(f"run {ms}")

    def write(self, data: bytes) -> None:
        if data:
            self._cmd(f"write {data.hex()}")

    def pin(self, gpio: int, level: int) -> None:
        self._cmd(f"pin {gpio} {level}")

    def down(self, button: str) -> None:
        self.pin(BUTTONS[button], 0)

    def up(self, button: str) -> None:
        self.pin(BUTTONS[button], 1)

    def cpu(self) -> dict[str, int]:
        """Emulated ns executing and asleep (WFE) since the last call."""
        self._cmd("stats")
        return {k: int(v) for k, v in (w.split("=") for w in self.stats_lines.pop().split())}

    def image(self) -> bytes:
        """The last ring frame's pixels (RGB, in wiring order from the pod's first pixel)."""
        return self.images[-1][1] if self.images else b""

    def screen(self) -> list[str]:
        """The emulated SSD1306 as text rows ('#' lit)."""
        if self.oled is None:
            return []
        h, ram = self.oled
        return ["".join("#" if ram[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128)) for y in range(h)]

    def take(self) -> list[tuple[int, bytes]]:
        out, self.rx = self.rx, []
        return out

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._cmd("quit")
            except (EmuError, OSError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._tmp.cleanup()

    def __enter__(self) -> Rp2Pod:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Rp2Hub:
    """The hub's side (hub/pods/channel.HubLink) on emulated time: every
    message from the pod lands in ``received`` with its emulated ms; a hello
    is answered with a welcome."""

    def __init__(self, pod: Rp2Pod, seat: int = 1, mode: str = "referee", step_ms: float = 2) -> None:
        self.pod = pod
        self.link = HubLink()
        self.seat = seat
        self.mode = mode
        self.step_ms = step_ms
        self.received: list[tuple[float, Message]] = []
        self.hellos = 0
        self.on_hello = None

    def pump(self) -> None:
        for t_us, data in self.pod.take():
            now = t_us // 1000
            for msg in self.link.feed(data, now):
                if msg.type == "hello":
                    self.hellos += 1
                    self.link.welcome(now, self.seat, self.mode)
                    if self.on_hello is not None:
                        self.on_hello(self)
                else:
                    self.received.append((t_us / 1000, msg))
        self.pod.write(self.link.poll(self.pod.ms))

    def run(self, ms: float) -> None:
        end = self.pod.t_us + ms * 1000
        while self.pod.t_us < end:
            self.pod.run(min(self.step_ms, (end - self.pod.t_us) / 1000))
            self.pump()

    def run_until(self, cond, ms: float) -> bool:
        """Run until cond() holds, at most ms of emulated time."""
        end = self.pod.t_us + ms * 1000
        while self.pod.t_us < end:
            if cond():
                return True
            self.pod.run(self.step_ms)
            self.pump()
        return cond()

    def send(self, msg_type: str, text: str = "", **fields) -> Message:
        m = self.link.send(msg_type, self.pod.ms, text=text, **fields)
        self.pod.write(self.link.take_output())
        return m

    def of(self, msg_type: str) -> list[tuple[float, Message]]:
        return [(t, m) for t, m in self.received if m.type == msg_type]

