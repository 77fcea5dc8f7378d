"""Hardware data files: pin maps the firmware can use, a wiring picture that
parses, and the firmware's built-in default equal to pinmaps/pico.json."""

from __future__ import annotations

import json
import re
import xml.dom.minidom
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HW = ROOT / "hardware"
PINMAPS = sorted((HW / "pinmaps").glob("*.json"))
RP2_GPIOS = set(range(0, 29))


def test_there_are_pin_maps() -> None:
    assert {p.stem for p in PINMAPS} >= {"pico", "pico2"}


@pytest.mark.parametrize("path", PINMAPS, ids=[p.stem for p in PINMAPS])
def test_pin_map_is_usable(path: Path) -> None:
    pm = json.loads(path.read_text())
    assert pm["board"] == path.stem
    assert pm["ring"]["pixels"] in (12, 16) and 0 <= pm["ring"].get("first", 0) < pm["ring"]["pixels"]
    assert set(pm["buttons"]) == {"prev", "next", "ready", "back"}
    pins = [pm["ring"]["pin"], *pm["buttons"].values()]
    pins += [pm[k] for k in ("piezo", "vibe") if pm.get(k) is not None]
    if pm.get("oled"):
        pins += [pm["oled"]["sda"], pm["oled"]["scl"]]
    assert len(pins) == len(set(pins)), "a GPIO used twice"
    assert set(pins) <= RP2_GPIOS
    assert 1000 <= pm["watchdog_ms"] <= 8000  # the RP2040 watchdog tops out at 8.3 s


def test_firmware_default_is_the_pico_pin_map() -> None:
    src = (ROOT / "firmware" / "board.py").read_text()
    m = re.search(r"DEFAULT = ('.*?)\nBUTTONS", src, re.S)
    assert m
    default = json.loads(eval(m.group(1).replace("\\\n", "")))  # noqa: S307 (our own literal)
    pico = json.loads((HW / "pinmaps" / "pico.json").read_text())
    assert {k: pico[k] for k in default} == default


def test_wiring_picture_and_readme() -> None:
    # wiring.svg is drawn from the schematic's netlist (hardware/tools/wiring.py; tests/hardware checks every
    # connection in it against the netlist): here, that it parses and names what a build needs
    doc = xml.dom.minidom.parse(str(HW / "wiring.svg"))
    assert doc.documentElement.tagName == "svg"
    text = " ".join(t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild)
    for label in ("GP10", "GP11", "GP12", "GP13", "GP14", "GP15", "GP16", "VBUS", "GND"):
        assert label in text
    for part in ("SN74AHCT125N", "AO3400A", "PS1240P02BT", "PESD5V0S1BA", "100n", "1k", "4.7k"):
        assert part in text, part
    readme = (HW / "README.md").read_text()
    assert "Level shifter for the ring data (required)" in readme and "레벨 시프터 필수" in readme
    assert "250 mA" in readme and "753 mA" in readme and "1.24 or later" in readme and "1.24 이상" in readme
    for heading in ("Order list and cost", "The carrier board", "Enclosure", "Assembly", "Hub bill of materials",
                    "Flashing", "Common mistakes", "한국어"):
        assert heading in readme
