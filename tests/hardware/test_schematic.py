"""The schematic (hardware/pcb/pod.kicad_sch), checked through its netlist: our ERC (hardware/tools/erc.py:
KiCad 6 has no headless ERC) passes, catches what it is there to catch, and the circuit has what the pod
needs: every 74AHCT125 /OE and unused input tied, the decoupling, the ring's 330R / 10k / 10uF, four buttons
with RC filter and ESD diode, the piezo on GP15, the motor's low-side MOSFET with gate resistor, pull-down
and flyback diode, the OLED's I2C on GP4/GP5, four mounting holes."""

from __future__ import annotations

from pathlib import Path

import erc
import pytest
import sexpr
from schematic import Netlist, Schematic, write_netlist

from tests.hardware.conftest import HW

SCH = HW / "pcb" / "pod.kicad_sch"


@pytest.fixture(scope="module")
def nl(tmp_path_factory) -> Netlist:
    p = tmp_path_factory.mktemp("net") / "pod.net"
    p.write_text(write_netlist(Schematic.load(SCH), "pod.kicad_sch"))
    return Netlist.load(p)


@pytest.fixture
def footprints():
    if not Path("/usr/share/kicad/footprints/Resistor_THT.pretty").is_dir():
        from tests.hardware.conftest import _need
        _need("kicad-footprints is not installed")


def test_erc_passes(tmp_path, footprints, capsys) -> None:
    errors, warnings = erc.check(SCH, tmp_path / "pod.net")
    assert errors == [] and warnings == []
    assert erc.main([str(SCH)]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out


def mutate(tmp_path: Path, edit) -> Path:
    tree = sexpr.parse(SCH.read_text())
    edit(tree)
    p = tmp_path / "pod.kicad_sch"
    p.write_text(sexpr.dump(tree))
    return p


def _symbol(tree, ref, unit=1):
    for s in sexpr.find(tree, "symbol"):
        if sexpr.props(s).get("Reference") == ref and int(sexpr.value(s, "unit", 1)) == unit:
            return s
    raise KeyError(ref)


def _wire_at(tree, x, y):
    for w in sexpr.find(tree, "wire"):
        xy = sexpr.find(sexpr.first(w, "pts"), "xy")
        if any(abs(float(p[1]) - x) < 0.01 and abs(float(p[2]) - y) < 0.01 for p in xy):
            return w
    raise KeyError((x, y))


def _pin_xy(ref, number):
    for s in Schematic.load(SCH).symbols:
        for p in s.pins:
            if s.ref == ref and p.number == number:
                return p.at
    raise KeyError((ref, number))


def test_erc_finds_a_floating_oe(tmp_path, footprints) -> None:
    # /2OE (pin 4) cut from GND: the fault the old hand-wiring table had
    x, y = _pin_xy("U2", "4")
    p = mutate(tmp_path, lambda t: t.remove(_wire_at(t, x, y)))
    errors, _ = erc.check(p)
    assert any("U2 pin 4" in e and "not connected" in e for e in errors), errors


def test_erc_finds_two_power_outputs_on_one_net(tmp_path, footprints) -> None:
    def vbus_to_3v3(t):
        for s in sexpr.find(t, "symbol"):
            if sexpr.value(s, "lib_id") == "power:VBUS":
                s[s.index(sexpr.first(s, "lib_id"))] = ["lib_id", sexpr.Str("power:+3V3")]
                for pr in sexpr.find(s, "property"):
                    if pr[1] == "Value":
                        pr[2] = sexpr.Str("+3V3")
    errors, _ = erc.check(mutate(tmp_path, vbus_to_3v3))
    assert any("U1-36 (power_out) with U1-40 (power_out)" in e or "U1-40 (power_out) with U1-36 (power_out)" in e
               for e in errors), errors


def test_erc_finds_an_unpowered_power_input_and_a_connected_no_connect(tmp_path, footprints) -> None:
    def no_flag_and_nc_on_gnd(t):
        t.remove(_symbol(t, "#FLG01"))
        x, y = _pin_xy("U2", "5")
        t.append(["no_connect", ["at", x, y], ["uuid", sexpr.Str("00000000-0000-0000-0000-000000000001")]])
    errors, _ = erc.check(mutate(tmp_path, no_flag_and_nc_on_gnd))
    assert any("net GND: power input" in e for e in errors), errors
    assert any("U2-5 flagged no-connect but connected" in e for e in errors), errors


def test_erc_finds_a_part_without_a_part_number(tmp_path, footprints) -> None:
    def drop_mpn(t):
        s = _symbol(t, "R1")
        s.remove(next(p for p in sexpr.find(s, "property") if p[1] == "MPN"))
    errors, _ = erc.check(mutate(tmp_path, drop_mpn))
    assert any(e.startswith("R1 (330) is in the BOM without") for e in errors), errors


def _on(nl, net):
    return {(n.ref, n.pin) for n in nl.nets[net]}


def _between(nl, ref, a, b):
    return {nl.net_of(ref, "1"), nl.net_of(ref, "2")} == {a, b}


def test_the_level_shifter_has_every_oe_and_spare_input_tied_and_its_decoupling(nl) -> None:
    gnd = _on(nl, "GND")
    for pin in ("1", "4", "10", "13", "5", "9", "12", "7"):  # the /OEs, the spare A inputs, GND
        assert ("U2", pin) in gnd, pin
    assert nl.net_of("U2", "14") == "VBUS" and nl.net_of("U2", "2") == "RING"
    assert _between(nl, "C1", "VBUS", "GND") and nl.components["C1"]["value"] == "100n"
    for y in ("6", "8", "11"):  # the spare outputs: left open on purpose
        assert any(n.type.endswith("+no_connect") for n in nl.nets[nl.net_of("U2", y)])


def test_the_ring_connector_has_its_330r_10k_and_10uf(nl) -> None:
    assert _between(nl, "R1", nl.net_of("U2", "3"), "RING_DIN") and nl.components["R1"]["value"] == "330"
    assert _between(nl, "R2", "RING_DIN", "GND") and nl.components["R2"]["value"] == "10k"
    assert _between(nl, "C2", "VBUS", "GND") and nl.components["C2"]["value"] == "10u"
    assert [nl.net_of("J1", p) for p in "123"] == ["VBUS", "RING_DIN", "GND"]


@pytest.mark.parametrize("name", ["PREV", "NEXT", "READY", "BACK"])
def test_each_button_has_its_rc_filter_and_esd_diode(nl, name) -> None:
    sw = f"{name}_SW"
    parts = {n.ref for n in nl.nets[sw]}
    kinds = {nl.components[r]["value"]: r for r in parts}
    pull = [r for r in parts if nl.components[r]["value"] == "10k" and "+3V3" in (nl.net_of(r, "1"), nl.net_of(r, "2"))]
    series = [r for r in parts if nl.components[r]["value"] == "1k" and name in (nl.net_of(r, "1"), nl.net_of(r, "2"))]
    assert pull and series, parts
    cap = [n.ref for n in nl.nets[name] if nl.components.get(n.ref, {}).get("value") == "100n"]
    assert cap and _between(nl, cap[0], name, "GND")
    assert "PESD5V0S1BA" in kinds and _between(nl, kinds["PESD5V0S1BA"], sw, "GND")
    switch = next(r for r in parts if r.startswith("SW"))
    assert _between(nl, switch, sw, "GND")


def test_piezo_motor_and_oled(nl) -> None:
    r13 = next(n.ref for n in nl.nets["PIEZO"] if n.ref != "U1")
    assert nl.components[r13]["value"] == "100" and nl.net_of("BZ1", "2") == nl.net_of(r13, "2")
    assert nl.components["BZ1"]["MPN"] == "PS1240P02BT"
    assert [nl.net_of("J4", p) for p in "123"] == ["GND", nl.net_of("BZ1", "1"), "PIEZO_B"]  # the second pad
    assert nl.components["Q1"]["MPN"] == "AO3400A"
    gate = nl.net_of("Q1", "1")
    assert _between(nl, "R11", "VIBE", gate) and nl.components["R11"]["value"] == "1k"
    assert _between(nl, "R12", gate, "GND") and nl.components["R12"]["value"] == "100k"
    assert nl.net_of("Q1", "2") == "GND" and nl.net_of("Q1", "3") == "MOTOR_N"
    assert nl.net_of("D5", "1") == "+3V3" and nl.net_of("D5", "2") == "MOTOR_N"  # cathode to 3V3
    # the OLED's VCC through F1 (issue 33: a module with VCC and GND swapped trips it, the Pico's 3V3 stays up)
    assert [nl.net_of("J3", p) for p in "1234"] == ["GND", "OLED_VCC", "SCL", "SDA"]
    assert {nl.net_of("F1", "1"), nl.net_of("F1", "2")} == {"+3V3", "OLED_VCC"}
    # and the motor's bulk capacitor with its 100 nF across its supply (issue 33)
    assert {nl.net_of("C7", "1"), nl.net_of("C7", "2")} == {"+3V3", "GND"} == {nl.net_of("C8", "1"), nl.net_of("C8", "2")}
    assert sum(1 for r, c in nl.components.items() if c["part"] == "MountingHole") == 4


def test_every_part_is_hand_solderable(nl) -> None:
    # through-hole, or SMD no finer than SOT-23 / SOD-323 hand-soldering pads
    allowed_smd = {"Package_TO_SOT_SMD:SOT-23", "Diode_SMD:D_SOD-323_HandSoldering",
                   "Fuse:Fuse_1206_3216Metric_Pad1.42x1.75mm_HandSolder"}
    for ref, c in nl.components.items():
        lib = c["footprint"].split(":")[0]
        assert c["footprint"] in allowed_smd or "THT" in lib or lib in (
            "pod", "Connector_JST", "Connector_PinSocket_2.54mm", "Connector_PinHeader_2.54mm", "Package_DIP",
            "MountingHole", "Buzzer_Beeper", "Button_Switch_THT"), (ref, c["footprint"])
