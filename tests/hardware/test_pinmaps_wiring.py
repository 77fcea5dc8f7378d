"""The schematic is the source of truth: the pin maps' GPIO numbers and the wiring picture's connections are
derived from its netlist here, and a pin map or wiring.svg that disagrees fails."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
import wiring
from schematic import Schematic

from tests.hardware.conftest import HW

SCH = HW / "pcb" / "pod.kicad_sch"


def gpio_of(sch, net: str) -> int:
    """The GPIO number of the Pico pin on ``net`` (its pin name GPn)."""
    pico = {p.number: p.name for p in sch.components()["U1"].pins}
    pins = [pico[n.pin] for n in sch.nets()[net] if n.ref == "U1"]
    assert len(pins) == 1, (net, pins)
    m = re.match(r"GP(\d+)", pins[0])
    assert m, pins
    return int(m[1])


def through(sch, net: str, kind: str) -> set[str]:
    """Parts of ``kind`` (a reference prefix) reached from ``net`` through one two-pin part (not via a supply)."""
    nets = sch.nets()
    comps = sch.components()
    out = set()
    for n in nets[net]:
        c = comps.get(n.ref)
        if c is None or len(c.pins) != 2:
            continue
        other = next(p.number for p in c.pins if p.number != n.pin)
        beyond = next(name for name, nodes in nets.items() if any(x.ref == n.ref and x.pin == other for x in nodes))
        if beyond in ("GND", "+3V3", "VBUS"):
            continue  # a supply reaches everything
        out |= {x.ref for x in nets[beyond] if x.ref.startswith(kind)}
    return out


@pytest.fixture(scope="module")
def sch():
    return Schematic.load(SCH)


@pytest.mark.parametrize("board", ["pico", "pico2"])
def test_pin_maps_match_the_schematic(sch, board) -> None:
    pm = json.loads((HW / "pinmaps" / f"{board}.json").read_text())
    comps = sch.components()
    for key, net in (("prev", "PREV"), ("next", "NEXT"), ("ready", "READY"), ("back", "BACK")):
        assert pm["buttons"][key] == gpio_of(sch, net), key
        # and that net is the button's: through its series resistor to the switch of that name
        sws = through(sch, net, "SW")
        assert [comps[s].value.split("/")[0] for s in sws] == [net], (net, sws)
    assert pm["active_low"] is True  # the switches pull to GND
    assert pm["ring"]["pin"] == gpio_of(sch, "RING") and ("U2", "2") in {(n.ref, n.pin) for n in sch.nets()["RING"]}
    assert pm["piezo"] == gpio_of(sch, "PIEZO") and through(sch, "PIEZO", "BZ") == {"BZ1"}
    assert pm["vibe"] == gpio_of(sch, "VIBE") and through(sch, "VIBE", "Q") == {"Q1"}
    if pm["oled"]:
        assert (pm["oled"]["sda"], pm["oled"]["scl"]) == (gpio_of(sch, "SDA"), gpio_of(sch, "SCL"))
        assert pm["oled"]["i2c"] == 0  # GP4/GP5 are I2C0's SDA/SCL on the RP2040 and RP2350


def test_a_pin_map_that_disagrees_is_caught(sch) -> None:
    pm = json.loads((HW / "pinmaps" / "pico.json").read_text())
    pm["buttons"]["ready"] = 11
    assert pm["buttons"]["ready"] != gpio_of(sch, "READY")


def test_wiring_svg_is_the_netlist_drawn(sch) -> None:
    assert wiring.main(["--check"]) == 0, "hardware/wiring.svg is stale: python hardware/tools/wiring.py"
    svg = (HW / "wiring.svg").read_text()
    rows = re.findall(r'<g class="wire" data-pin="([^"]*)" data-gpio="([^"]*)" data-net="([^"]*)" data-parts="([^"]*)">',
                      svg)
    nets = sch.nets()
    pico = {p.number: p.name for p in sch.components()["U1"].pins}
    seen = set()
    for pins, gpio, net, parts in rows:
        net = unescape(net)
        for pin in pins.split():
            assert ("U1", pin) in {(n.ref, n.pin) for n in nets[net]}, (pin, net)
            seen.add(pin)
            if gpio:
                assert pico[pin] == f"GP{gpio}"
        want = {f"{n.ref}.{n.pin}" for n in nets[net] if n.ref != "U1" and not n.ref.startswith("#")}
        assert set(parts.split()) == want, net
    used = {n.pin for name, nodes in nets.items() if not name.startswith("unconnected-") for n in nodes if n.ref == "U1"}
    assert seen == used  # every Pico pin in use is drawn, and no other
