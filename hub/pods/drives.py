"""The boards waiting in BOOTSEL mode: each shows up as a USB drive (RPI-RP2 for a Pico, RP2350 for a Pico 2)
whose INFO_UF2.TXT names its boot ROM. ``lumen pod image --drives`` copies the one image onto every such drive
mounted now, so a store flashes twenty pods by plugging them in with BOOTSEL held, a hub's worth at a time.

    drives.find("RP2040")          # [Path('/media/me/RPI-RP2'), ...]
    drives.copy(Path("pod.uf2"), found)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

MOUNTS = Path("/proc/mounts")
BOARD_ID = {"RP2040": "RPI-RP2", "RP2350": "RP2350"}  # INFO_UF2.TXT's "Board-ID:" for each chip


def _unescape(field: str) -> str:
    # /proc/mounts writes a space in a path as \040 (and a tab, a newline, a backslash likewise)
    return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")


def find(chip: str, mounts: Path = MOUNTS) -> list[Path]:
    """Every mounted boot drive of this chip, sorted."""
    want = f"Board-ID: {BOARD_ID[chip]}"
    try:
        lines = mounts.read_text().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) < 2:
            continue
        where = Path(_unescape(parts[1]))
        try:
            info = (where / "INFO_UF2.TXT").read_text(errors="replace")
        except OSError:
            continue
        if any(x.strip() == want for x in info.splitlines()):
            out.append(where)
    return sorted(set(out))


def copy(uf2: Path, targets: list[Path]) -> list[tuple[Path, str]]:
    """The image onto each drive: (drive, "ok" or why not). The board reboots into it once the copy is done
    (the drive goes away: that is the success, not an error)."""
    out = []
    for d in targets:
        try:
            with (d / uf2.name).open("wb") as f:
                with uf2.open("rb") as src:
                    shutil.copyfileobj(src, f, 64 * 1024)
                f.flush()
                os.fsync(f.fileno())
            out.append((d, "ok"))
        except OSError as e:
            out.append((d, f"failed: {e.strerror or e}"))
    return out
