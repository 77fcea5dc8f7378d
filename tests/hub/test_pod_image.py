"""``lumen pod image`` without the emulator: the UF2's layout per board (the
filesystem where MicroPython's rp2 port mounts it, of its exact block count,
holding the firmware and the board's pin map), and the refusals a builder can
meet (another chip's MicroPython, one too old, not a UF2 at all). The boot
itself is tests/rp2/test_image.py."""

from __future__ import annotations

import json

import pytest
from littlefs import LittleFS

from hub.cli.main import main
from hub.pods import image, uf2


def fake_micropython(tmp_path, version: str, board_text: str, family: int):
    """A stand-in release: 64 KiB of code with the version strings MicroPython carries."""
    blob = (b"\x00" * 1000 + f"3.4.0; MicroPython v{version} on 2024-11-29".encode() + b"\x00"
            + f"; {board_text}".encode() + b"\x00").ljust(65536, b"\x5a")
    p = tmp_path / f"RPI_PICO2-20241129-v{version}.uf2"
    p.write_bytes(uf2.write(uf2.pages(blob, uf2.FLASH_BASE, family)))
    return p


def filesystem_of(data: bytes, board: image.Board) -> LittleFS:
    blocks = uf2.read(data)
    start = uf2.FLASH_BASE + board.fs_offset
    fs = bytearray()
    for b in blocks:
        if b.address >= start:
            assert b.address == start + len(fs)  # contiguous, in order
            fs += b.data
    assert len(fs) == board.fs_blocks * image.FS_BLOCK
    lfs = LittleFS(block_size=image.FS_BLOCK, block_count=board.fs_blocks, mount=False)
    lfs.context.buffer[:] = fs
    lfs.mount()
    return lfs


def test_pico2_image_puts_the_filesystem_at_one_mib_with_the_pico2_pin_map(tmp_path, capsys) -> None:
    mp = fake_micropython(tmp_path, "1.24.1", "Raspberry Pi Pico2 with RP2350", uf2.RP2350_ARM_S)
    out = tmp_path / "pod2.uf2"
    assert main(["pod", "image", "--board", "pico2", "--micropython", str(mp), "-o", str(out)]) == 0
    assert "RP2350 drive" in capsys.readouterr().out
    data = out.read_bytes()
    assert {b.family for b in uf2.read(data)} == {uf2.RP2350_ARM_S}
    fs = filesystem_of(data, image.BOARDS["pico2"])
    names = set(fs.listdir("/"))
    assert {"main.py", "pinmap.json", "app.mpy", "board.mpy", "link.mpy"} <= names
    with fs.open("pinmap.json", "r") as f:
        assert json.load(f) == json.loads((image.PINMAPS / "pico2.json").read_text())
    with fs.open("app.mpy", "rb") as f:
        assert f.read(2) == b"M\x06"  # bytecode format 6: MicroPython 1.19 and later load it
    assert not (tmp_path / "pod2.uf2.part").exists()


def test_a_custom_pin_map_goes_on_the_pod(tmp_path) -> None:
    mp = fake_micropython(tmp_path, "1.24.1", "Raspberry Pi Pico2 with RP2350", uf2.RP2350_ARM_S)
    # a ring wired from another pixel, running the other way, on GP2 (the rules: firmware/pinmap.py)
    mine = json.loads((image.PINMAPS / "pico2.json").read_text())
    mine["ring"].update(pin=2, first=3, reverse=True)
    pm = tmp_path / "mine.json"
    pm.write_text(json.dumps(mine))
    out = tmp_path / "p.uf2"
    assert main(["pod", "image", "--board", "pico2", "--micropython", str(mp), "--pinmap", str(pm), "-o", str(out)]) == 0
    # the filesystem held by a name while its file is read: a file of a LittleFS that was already
    # collected read freed memory (it spun for good under Debian's Python 3.11.2)
    fs = filesystem_of(out.read_bytes(), image.BOARDS["pico2"])
    with fs.open("pinmap.json", "r") as f:
        assert json.load(f)["ring"] == {"pin": 2, "pixels": 16, "first": 3, "reverse": True}


@pytest.mark.parametrize("version, text, family, board, words", [
    ("1.23.0", "Raspberry Pi Pico2 with RP2350", uf2.RP2350_ARM_S, "pico2", "needs 1.24 or later"),
    ("1.21.0", "Raspberry Pi Pico with RP2040", uf2.RP2040, "pico", "needs 1.22 or later"),
    ("1.24.1", "Raspberry Pi Pico2 with RP2350", uf2.RP2350_ARM_S, "pico", "for the RP2350 (Arm, secure), not for a pico"),
    ("1.24.1", "Raspberry Pi Pico with RP2040", uf2.RP2040, "pico2", "not for a pico2"),
])
def test_the_wrong_micropython_is_refused_with_where_to_get_the_right_one(tmp_path, capsys, version, text, family,
                                                                          board, words) -> None:
    mp = fake_micropython(tmp_path, version, text, family)
    out = tmp_path / "x.uf2"
    assert main(["pod", "image", "--board", board, "--micropython", str(mp), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert words in err and "micropython.org/download/RPI_PICO" in err
    assert not out.exists()


def test_not_a_uf2_and_no_micropython_found(tmp_path, capsys, monkeypatch) -> None:
    bad = tmp_path / "RPI_PICO-x.uf2"
    bad.write_bytes(b"\x00" * 700)
    assert main(["pod", "image", "--micropython", str(bad), "-o", str(tmp_path / "o.uf2")]) == 2
    assert "not a multiple of 512" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("LUMEN_MICROPYTHON", raising=False)
    bad.unlink()
    assert main(["pod", "image", "--board", "pico2", "-o", str(tmp_path / "o.uf2")]) == 2
    err = capsys.readouterr().err
    assert "https://micropython.org/download/RPI_PICO2/" in err and "1.24 or later" in err


def test_a_release_found_in_downloads_is_used(tmp_path, capsys, monkeypatch) -> None:
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    for v in ("1.24.0", "1.24.1"):
        p = fake_micropython(tmp_path, v, "Raspberry Pi Pico2 with RP2350", uf2.RP2350_ARM_S)
        p.rename(home / "Downloads" / p.name)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("LUMEN_MICROPYTHON", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["pod", "image", "--board", "pico2", "-o", str(tmp_path / "o.uf2")]) == 0
    assert "MicroPython 1.24.1" in capsys.readouterr().out


def test_the_image_goes_onto_every_board_waiting_in_bootsel(tmp_path, capsys, monkeypatch) -> None:
    # issue 33: a store flashes twenty pods by plugging them in with BOOTSEL held; the image is copied onto
    # every RPI-RP2 drive mounted (a Pico 2's RP2350 drive and any other disk are left alone)
    from hub.pods import drives

    boards = []
    for name, info in (("RPI-RP2", "Board-ID: RPI-RP2"), ("RPI-RP2 1", "Board-ID: RPI-RP2"),
                       ("RP2350", "Board-ID: RP2350"), ("USBSTICK", None)):
        d = tmp_path / "media" / name
        d.mkdir(parents=True)
        if info:
            (d / "INFO_UF2.TXT").write_text(f"UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\n{info}\n")
        boards.append(d)
    mounts = tmp_path / "mounts"
    mounts.write_text("".join(f"/dev/sd{i} {str(d).replace(' ', chr(92) + '040')} vfat rw 0 0\n"
                              for i, d in enumerate(boards)))
    monkeypatch.setattr(drives, "MOUNTS", mounts)
    monkeypatch.setattr(drives.find, "__defaults__", (mounts,))
    mp = fake_micropython(tmp_path, "1.22.2", "Raspberry Pi Pico with RP2040", uf2.RP2040)
    out = tmp_path / "pod.uf2"
    assert main(["pod", "image", "--micropython", str(mp), "-o", str(out), "--drives"]) == 0
    text = capsys.readouterr().out
    assert "2 of 2 boards flashed" in text
    for d in boards[:2]:
        assert (d / "pod.uf2").read_bytes() == out.read_bytes()
    assert not (boards[2] / "pod.uf2").exists() and not (boards[3] / "pod.uf2").exists()
