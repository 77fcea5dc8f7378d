"""docs/pod-ring.md's pictures are the firmware's own: the states the views and the screen
draw today under the MicroPython unix port (tests/firmware/render_docs.py) equal the ones
the pictures were made from (docs/pod/states.json), and every picture the page shows exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.firmware import render_docs

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "pod-ring.md"


def test_the_pictures_show_what_the_firmware_draws_now() -> None:
    kept = json.loads((ROOT / "docs" / "pod" / "states.json").read_text())
    now = render_docs.states()
    stale = [s["name"] for s, k in zip(now, kept) if s != k]
    assert [s["name"] for s in now] == [k["name"] for k in kept] and not stale, (
        f"stale pictures {stale}: run python3 tests/firmware/render_docs.py")


def test_every_state_has_its_picture_and_captions() -> None:
    text = DOC.read_text()
    pics = re.findall(r"\]\((pod/[\w+\-]+\.png)\)", text)
    assert len(pics) >= 30
    for p in pics:
        assert (ROOT / "docs" / p).exists(), p
    names = {s["name"] for s in json.loads((ROOT / "docs" / "pod" / "states.json").read_text())}
    shown = {Path(p).stem.removeprefix("ring_") for p in pics}
    assert names <= shown, names - shown  # every rendered state is on the page
    assert "카운트다운" in text and "countdown" in text  # Korean and English captions
