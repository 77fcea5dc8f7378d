"""UF2, the file a Pico's boot ROM takes by drag and drop (Microsoft's uf2 format).

A UF2 file is a run of 512-byte blocks; each carries up to 476 bytes (256 in
practice: one flash page) for one target address, the number of the block
and of all blocks, and a family id that names the chip. The RP2040 boot ROM
writes the payload of every block whose family is RP2040 to flash; the
RP2350's writes the blocks of the family it boots (ARM secure for
MicroPython's RPI_PICO2 build).

    blocks = read(Path("RPI_PICO-20240222-v1.22.2.uf2").read_bytes())
    data = write([*blocks, *pages(fs_bytes, 0x100A0000, RP2040)])
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

MAGIC_START0 = 0x0A324655  # "UF2\n"
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FAMILY_ID = 0x00002000
BLOCK = 512
PAYLOAD = 256
FLASH_BASE = 0x10000000  # XIP flash as both chips map it

RP2040 = 0xE48BFF56
RP2350_ARM_S = 0xE48BFF59
ABSOLUTE = 0xE48BFF57  # RP2350: "write at this address whatever the partitions" (the E10 workaround block)
FAMILIES = {RP2040: "RP2040", RP2350_ARM_S: "RP2350 (Arm, secure)", ABSOLUTE: "RP2350 (absolute)",
            0xE48BFF58: "RP2350 (data)", 0xE48BFF5A: "RP2350 (RISC-V)", 0xE48BFF5B: "RP2350 (Arm, non-secure)"}
_HEAD = struct.Struct("<8I")


class Uf2Error(ValueError):
    """A file that is not a UF2 we can use, in words for the user."""


@dataclass(frozen=True)
class Block:
    address: int
    data: bytes
    family: int | None
    flags: int = FLAG_FAMILY_ID

    @property
    def end(self) -> int:
        return self.address + len(self.data)


def read(raw: bytes, name: str = "the file") -> list[Block]:
    """Every block of a UF2 file, checked (magic numbers, sizes, sequence)."""
    if not raw or len(raw) % BLOCK:
        raise Uf2Error(f"{name} is not a UF2 file (its size, {len(raw)} bytes, is not a multiple of 512)")
    out = []
    total = None
    for i in range(0, len(raw), BLOCK):
        b = raw[i:i + BLOCK]
        m0, m1, flags, addr, size, no, count, family = _HEAD.unpack_from(b)
        (end,) = struct.unpack_from("<I", b, BLOCK - 4)
        if (m0, m1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise Uf2Error(f"{name}: block {i // BLOCK} is not a UF2 block (bad magic numbers)")
        if size > 476:
            raise Uf2Error(f"{name}: block {i // BLOCK} says it carries {size} bytes (at most 476)")
        if total is None:
            total = count
        if no >= count:
            raise Uf2Error(f"{name}: block {i // BLOCK} is numbered {no} of {count}")
        if flags & FLAG_NOT_MAIN_FLASH:
            continue  # not for flash (comments, file containers): the boot ROM skips them too
        out.append(Block(addr, bytes(b[32:32 + size]), family if flags & FLAG_FAMILY_ID else None, flags))
    return out


def pages(data: bytes, address: int, family: int) -> list[Block]:
    """``data`` cut into 256-byte page blocks from ``address`` (the last one padded with 0xFF)."""
    out = []
    for off in range(0, len(data), PAYLOAD):
        chunk = data[off:off + PAYLOAD]
        out.append(Block(address + off, chunk + b"\xff" * (PAYLOAD - len(chunk)), family))
    return out


def write(blocks: list[Block]) -> bytes:
    """A UF2 file of these blocks, numbered in order."""
    n = len(blocks)
    out = bytearray()
    for no, b in enumerate(blocks):
        flags = b.flags | (FLAG_FAMILY_ID if b.family is not None else 0)
        out += _HEAD.pack(MAGIC_START0, MAGIC_START1, flags, b.address, len(b.data), no, n, b.family or 0)
        out += b.data + bytes(476 - len(b.data))
        out += struct.pack("<I", MAGIC_END)
    return bytes(out)


def flash_image(blocks: list[Block], family: int) -> bytes:
    """What the boot ROM leaves in flash from a blank chip: each block of
    ``family`` at its address, 0xFF (erased) elsewhere, up to the last byte
    written."""
    mine = [b for b in blocks if b.family == family]
    if not mine:
        return b""
    end = max(b.end for b in mine) - FLASH_BASE
    img = bytearray(b"\xff" * end)
    for b in mine:
        img[b.address - FLASH_BASE:b.end - FLASH_BASE] = b.data
    return bytes(img)


def main_family(blocks: list[Block]) -> int:
    """The family most of the flash blocks carry: the chip the file is for."""
    counts: dict[int, int] = {}
    for b in blocks:
        if b.family is not None and b.family != ABSOLUTE:
            counts[b.family] = counts.get(b.family, 0) + 1
    if not counts:
        raise Uf2Error("the UF2 file names no chip family")
    return max(counts, key=lambda f: counts[f])
