"""``lumen pod image``: the one UF2 a builder drags onto a Pico, booted on the
emulated RP2040 as the boot ROM would leave it in flash, then the link test
against it (hello, seat claim, ready, countdown)."""

from __future__ import annotations

from hub.cli.main import main
from hub.pods import image, uf2
from tests.rp2.emu import IMAGE, Rp2Pod
from tests.rp2.test_rp2 import hello_seat_ready_countdown


def test_the_one_file_image_boots_and_links(rp2_files, tmp_path, capsys) -> None:
    out = tmp_path / "pod.uf2"
    assert main(["pod", "image", "--board", "pico", "--micropython", str(rp2_files / IMAGE), "-o", str(out)]) == 0
    assert "MicroPython 1.22.2" in capsys.readouterr().out
    blocks = uf2.read(out.read_bytes())
    assert {b.family for b in blocks} == {uf2.RP2040}
    fs = [b for b in blocks if b.address >= uf2.FLASH_BASE + image.BOARDS["pico"].fs_offset]
    assert len(fs) * 256 == 352 * 4096  # the whole filesystem region, blank blocks too
    with Rp2Pod(rp2_files, uf2=out) as pod:
        hello_seat_ready_countdown(pod)
