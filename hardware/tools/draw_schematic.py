"""How the pod carrier's schematic was first drawn (bootstrap, kept for the record).

The schematic, hardware/pcb/pod.kicad_sch, is the source of truth: edit it in
eeschema. This script wrote its first version (and the project's symbol
library pod.kicad_sym: the Pico module and the 74AHCT125) from the circuit
below, every pin given a short wire and a net label, a power symbol or a
no-connect flag. It refuses to overwrite an existing schematic without
--force, so a hand edit is never lost to it.

    /usr/bin/python3 hardware/tools/draw_schematic.py [--force]

Symbols come from Debian's kicad-symbols (/usr/share/kicad/symbols) and are
embedded in the schematic as eeschema does (``lib_symbols``).
"""

from __future__ import annotations

import argparse
import math
import sys
import uuid as uuidlib
from pathlib import Path

import sexpr
from schematic import lib_pins, place, units

S = sexpr.Str
HERE = Path(__file__).resolve().parent
PCB = HERE.parent / "pcb"
SYMBOLS = Path("/usr/share/kicad/symbols")
NS = uuidlib.UUID("6c1d0f1e-5a8b-4f4e-9d3c-2b1a0c9e8f70")  # stable uuids: the same input, the same file


def uid(*parts) -> S:
    return S(str(uuidlib.uuid5(NS, "/".join(map(str, parts)))))


def font(*extra):
    return ["effects", ["font", ["size", 1.27, 1.27]], *extra]


# --- the project's own symbols -----------------------------------------------------------

PICO_LEFT = ["GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7", "GP8", "GP9", "GND",
             "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15"]
PICO_RIGHT = ["GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN", "GP26_ADC0",
              "GP27_ADC1", "AGND", "GP28_ADC2", "ADC_VREF", "3V3_OUT", "3V3_EN", "GND", "VSYS", "VBUS"]


def pico_type(name: str) -> str:
    if name.startswith("GP"):
        return "bidirectional"
    return {"GND": "passive", "AGND": "passive", "3V3_OUT": "power_out", "VBUS": "power_out", "VSYS": "power_in",
            "RUN": "input", "3V3_EN": "input", "ADC_VREF": "passive"}[name]


def pin(kind, x, y, angle, name, number, length=2.54, shape="line"):
    return ["pin", kind, shape, ["at", x, y, angle], ["length", length],
            ["name", S(name), font()], ["number", S(number), font()]]


def prop(name, val, pid, x=0.0, y=0.0, hide=False):
    return ["property", S(name), S(val), ["id", pid], ["at", x, y, 0], font(*(["hide"] if hide else []))]


def pico_symbol():
    """Raspberry Pi Pico / Pico 2 as a 40-pin module, pins where they are on
    the board seen from above (USB at the top): 1-20 down the left, 40-21 down the right."""
    body = ["symbol", S("RaspberryPi_Pico_1_1"),
            ["rectangle", ["start", -10.16, 26.67], ["end", 10.16, -26.67],
             ["stroke", ["width", 0.254], ["type", "default"], ["color", 0, 0, 0, 0]], ["fill", ["type", "background"]]]]
    for i, name in enumerate(PICO_LEFT):
        body.append(pin(pico_type(name), -12.7, 24.13 - 2.54 * i, 0, name, str(i + 1)))
    for i, name in enumerate(PICO_RIGHT):
        body.append(pin(pico_type(name), 12.7, -24.13 + 2.54 * i, 180, name, str(21 + i)))
    return ["symbol", S("RaspberryPi_Pico"), ["pin_names", ["offset", 1.016]], ["in_bom", "yes"], ["on_board", "yes"],
            prop("Reference", "U", 0, 0, 27.94), prop("Value", "RaspberryPi_Pico", 1, 0, -27.94),
            prop("Footprint", "pod:RaspberryPi_Pico_Socketed", 2, hide=True),
            prop("Datasheet", "https://datasheets.raspberrypi.com/pico/pico-datasheet.pdf", 3, hide=True),
            prop("ki_description", "Raspberry Pi Pico / Pico H / Pico 2 module (RP2040 / RP2350), 40 castellated pins", 4,
                 hide=True),
            body]


def read_lib(lib: str, name: str) -> list:
    """A library symbol with ``extends`` resolved (as eeschema embeds it)."""
    tree = sexpr.parse((SYMBOLS / f"{lib}.kicad_sym").read_text())
    syms = {str(s[1]): s for s in sexpr.find(tree, "symbol")}
    s = syms[name]
    parent = sexpr.value(s, "extends")
    if parent is None:
        return s
    base = read_lib(lib, str(parent))
    out = [x for x in base if not (isinstance(x, list) and x[0] in ("property", "in_bom", "on_board"))]
    out[1] = S(name)
    for i, x in enumerate(out):
        if isinstance(x, list) and x[0] == "symbol":
            out[i] = [x[0], S(name + str(x[1])[len(str(parent)):]), *x[2:]]
    extra = [x for x in s if isinstance(x, list) and x[0] in ("property", "in_bom", "on_board")]
    return out[:2] + extra + out[2:]


def ahct125_symbol():
    s = read_lib("74xx", "74LS125")
    s = sexpr.parse(sexpr.dump(s).replace('"74LS125', '"74AHCT125'))
    for p in sexpr.find(s, "property"):
        if p[1] == "Value":
            p[2] = S("74AHCT125")
        elif p[1] == "Datasheet":
            p[2] = S("https://www.ti.com/lit/gpn/sn74ahct125")
        elif p[1] == "ki_description":
            p[2] = S("Quad buffer, 3-state outputs, TTL-level inputs at 5 V (drives a WS2812B from 3.3 V logic)")
        elif p[1] == "Footprint":
            p[2] = S("Package_DIP:DIP-14_W7.62mm")
    return s


# --- the circuit ---------------------------------------------------------------------------
# (ref, lib_id, value, footprint, manufacturer, mpn, description, (x, y), {pin: net}); net None = no-connect.
# One entry per unit for the 74AHCT125 (unit 5 is its power pins).

THT_R = "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal"
THT_C = "Capacitor_THT:C_Rect_L4.0mm_W2.5mm_P2.50mm"


def r(ref, val, at, a, b, why):
    mpn = "MFR-25FBF52-" + {"330": "330R", "10k": "10K", "1k": "1K", "100k": "100K", "4.7k": "4K7", "100": "100R"}[val]
    return (ref, "Device:R", val, THT_R, "Yageo", mpn, f"{val} 1% 1/4 W metal film: {why}", at, {"1": a, "2": b})


def c100n(ref, at, a, b, why):
    return (ref, "Device:C", "100n", THT_C, "KEMET", "C320C104K5R5TA", f"100 nF 50 V X7R, 2.54 mm: {why}", at,
            {"1": a, "2": b})


PICO_NETS = {"GP4": "SDA", "GP5": "SCL", "GP10": "PREV", "GP11": "NEXT", "GP12": "READY", "GP13": "BACK",
             "GP14": "VIBE", "GP15": "PIEZO", "GP16": "RING", "GP17": "PIEZO_B",
             "GND": "GND", "AGND": "GND", "3V3_OUT": "+3V3", "VBUS": "VBUS"}


def circuit():
    pico = {str(i + 1): PICO_NETS.get(n) for i, n in enumerate(PICO_LEFT)}
    pico.update({str(21 + i): PICO_NETS.get(n) for i, n in enumerate(PICO_RIGHT)})
    parts = [("U1", "pod:RaspberryPi_Pico", "RaspberryPi_Pico", "pod:RaspberryPi_Pico_Socketed", "Raspberry Pi",
              "SC0917", "Raspberry Pi Pico H (or Pico 2 with headers): plugs into two 1x20 sockets",
              (60.96, 101.6), pico)]
    u2 = ("pod:74AHCT125", "SN74AHCT125N", "Package_DIP:DIP-14_W7.62mm", "Texas Instruments", "SN74AHCT125N",
          "quad buffer: GP16's 3.3 V to the ring's 5 V logic (WS2812B wants 0.7 x VDD)")
    parts += [("U2", *u2, (129.54, 50.8), {"1": "GND", "2": "RING", "3": "RING_Y"}),
              ("U2", *u2, (129.54, 71.12), {"4": "GND", "5": "GND", "6": None}),
              ("U2", *u2, (129.54, 91.44), {"10": "GND", "9": "GND", "8": None}),
              ("U2", *u2, (129.54, 111.76), {"13": "GND", "12": "GND", "11": None}),
              ("U2", *u2, (157.48, 81.28), {"14": "VBUS", "7": "GND"}),
              c100n("C1", (172.72, 81.28), "VBUS", "GND", "decoupling at U2 (pins 14-7)"),
              r("R1", "330", (157.48, 45.72), "RING_Y", "RING_DIN", "series resistor into the ring's DIN"),
              r("R2", "10k", (172.72, 50.8), "RING_DIN", "GND", "holds DIN low while nothing drives it"),
              ("C2", "Device:C_Polarized", "10u", "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm", "Nichicon", "UVR1A100MDD",
               "10 uF 10 V electrolytic across the ring's supply (USB allows at most 10 uF on VBUS)", (187.96, 50.8),
               {"1": "VBUS", "2": "GND"}),
              ("J1", "Connector_Generic:Conn_01x03", "RING", "Connector_JST:JST_XH_B3B-XH-A_1x03_P2.50mm_Vertical",
               "JST", "B3B-XH-A(LF)(SN)", "NeoPixel ring: 1 = 5 V, 2 = DIN, 3 = GND", (205.74, 45.72),
               {"1": "VBUS", "2": "RING_DIN", "3": "GND"})]
    # four buttons: 10k pull-up to the switch, 1k on to the GPIO, 100 nF at the GPIO, ESD diode at the switch
    for i, (name, label) in enumerate([("PREV", "PREV"), ("NEXT", "NEXT"), ("READY", "READY"), ("BACK", "BACK/MENU")]):
        x = 30.48 + 45.72 * i
        sw = f"{name}_SW"
        parts += [r(f"R{3 + i}", "10k", (x, 162.56), "+3V3", sw, f"{label} pull-up (with R{7 + i}: 11 k to charge C{3 + i})"),
                  ("SW" + str(1 + i), "Switch:SW_Push", label, "Button_Switch_THT:SW_PUSH-12mm", "Omron", "B3F-4055",
                   f"{label} button, 12 x 12 mm tactile", (x, 185.42), {"1": sw, "2": "GND"}),
                  ("D" + str(1 + i), "Device:D_TVS", "PESD5V0S1BA", "Diode_SMD:D_SOD-323_HandSoldering", "Nexperia",
                   "PESD5V0S1BA", f"ESD protection, bidirectional, 5 V: the {label} line", (x + 15.24, 177.8),
                   {"1": sw, "2": "GND"}),
                  r(f"R{7 + i}", "1k", (x + 15.24, 162.56), sw, name, "RC filter with C: 0.1 ms press, 1.1 ms release"),
                  c100n(f"C{3 + i}", (x + 30.48, 170.18), name, "GND", f"RC filter of {label} (at the GPIO)")]
    parts += [r("R11", "1k", (215.9, 101.6), "VIBE", "GATE", "gate resistor of Q1"),
              r("R12", "100k", (231.14, 109.22), "GATE", "GND", "keeps the motor off while GP14 floats at reset"),
              ("Q1", "Transistor_FET:AO3400A", "AO3400A", "Package_TO_SOT_SMD:SOT-23", "Alpha & Omega Semiconductor",
               "AO3400A", "logic-level N-MOSFET, low-side motor switch (on at 2.5 V gate)", (246.38, 101.6),
               {"1": "GATE", "2": "GND", "3": "MOTOR_N"}),
              ("D5", "Diode:1N4148", "1N4148", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal", "onsemi", "1N4148TR",
               "flyback diode across the motor (cathode to 3V3)", (259.08, 86.36), {"1": "+3V3", "2": "MOTOR_N"}),
              ("J2", "Connector_Generic:Conn_01x02", "MOTOR", "Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical",
               "JST", "B2B-XH-A(LF)(SN)", "vibration motor: 1 = + (3V3), 2 = - (switched)", (279.4, 86.36),
               {"1": "+3V3", "2": "MOTOR_N"}),
              # issue 33: the motor's start (about 100 mA for a few ms) from the Pico's 3V3, right at J2
              ("C7", "Device:C_Polarized", "47u", "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm", "Nichicon", "UVR1A470MDD",
               "47 uF 10 V electrolytic at J2: the motor's start-up current comes from here, not from the 3V3 rail",
               (292.1, 101.6), {"1": "+3V3", "2": "GND"}),
              c100n("C8", (304.8, 101.6), "+3V3", "GND", "at J2, with C7: the motor's brush noise"),
              r("R13", "100", (215.9, 139.7), "PIEZO", "PIEZO_P", "limits the piezo's charging current"),
              ("BZ1", "Device:Buzzer", "PS1240P02BT", "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm", "TDK",
               "PS1240P02BT", "piezo transducer (not a magnetic buzzer), driven from GP15", (241.3, 139.7),
               {"2": "PIEZO_P", "1": "PIEZO_N"}),
              ("J4", "Connector_Generic:Conn_01x03", "PIEZO_B", "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
               "Sullins", "PRPC003SAAN-RC", "piezo's other leg: shunt 1-2 = GND (as fitted), 2-3 = GP17 (two-pin drive)",
               (266.7, 139.7), {"1": "GND", "2": "PIEZO_N", "3": "PIEZO_B"}),
              ("J3", "Connector_Generic:Conn_01x04", "OLED", "Connector_PinSocket_2.54mm:PinSocket_1x04_P2.54mm_Vertical",
               "Sullins", "PPTC041LFBN-RC", "SSD1306 0.91\" I2C module: 1 GND, 2 VCC (3V3 through F1), 3 SCL, 4 SDA",
               (279.4, 30.48), {"1": "GND", "2": "OLED_VCC", "3": "SCL", "4": "SDA"}),
              # issue 33: a module whose VCC and GND are swapped (cheap ones are) trips F1 instead of pulling the
              # Pico's 3V3 down; it resets once the module comes out
              ("F1", "Device:Polyfuse", "0.12A", "Fuse:Fuse_1206_3216Metric_Pad1.42x1.75mm_HandSolder", "Bourns",
               "MF-NSMF012-2", "resettable fuse in the OLED's supply (0.12 A hold, 0.29 A trip, 1206): a module "
               "plugged in with VCC and GND swapped trips it", (266.7, 38.1), {"1": "+3V3", "2": "OLED_VCC"}),
              r("R14", "4.7k", (241.3, 25.4), "+3V3", "SCL", "I2C pull-up (SCL)"),
              r("R15", "4.7k", (254.0, 25.4), "+3V3", "SDA", "I2C pull-up (SDA)")]
    for i in range(4):
        parts.append((f"H{1 + i}", "Mechanical:MountingHole", "M3", "MountingHole:MountingHole_3.2mm_M3", "", "",
                      "mounting hole, M3 (enclosure boss)", (30.48 + 12.7 * i, 228.6), {}))
    return parts


def pico_footprint() -> list:
    """The Pico on two 1x20 female sockets (2.54 mm, rows 17.78 mm apart),
    origin at the module's centre, USB towards -Y."""
    def line(a, b, layer, w=0.12):
        return ["fp_line", ["start", *a], ["end", *b], ["layer", S(layer)], ["width", w]]

    def rect(x1, y1, x2, y2, layer, w=0.12):
        return [line((x1, y1), (x2, y1), layer, w), line((x2, y1), (x2, y2), layer, w),
                line((x2, y2), (x1, y2), layer, w), line((x1, y2), (x1, y1), layer, w)]

    pads = []
    for i in range(20):
        y = round(-24.13 + 2.54 * i, 3)
        for num, x in ((i + 1, -8.89), (40 - i, 8.89)):
            shape = "rect" if num == 1 else "oval"
            pads.append(["pad", S(str(num)), "thru_hole", shape, ["at", x, y], ["size", 1.7, 1.7], ["drill", 1.0],
                         ["layers", S("*.Cu"), S("*.Mask")]])
    return ["footprint", S("RaspberryPi_Pico_Socketed"), ["version", 20211014], ["generator", "pcbnew"],
            ["layer", S("F.Cu")],
            ["descr", S("Raspberry Pi Pico / Pico 2 (21 x 51 mm) plugged into two 1x20 2.54 mm female sockets; "
                        "USB end towards -Y")],
            ["tags", S("Raspberry Pi Pico RP2040 RP2350 socket")], ["attr", "through_hole"],
            ["fp_text", "reference", S("REF**"), ["at", 0, -27.5], ["layer", S("F.SilkS")], font()],
            ["fp_text", "value", S("RaspberryPi_Pico_Socketed"), ["at", 0, 27.5], ["layer", S("F.Fab")], font()],
            ["fp_text", "user", S("USB"), ["at", 0, -23.0], ["layer", S("F.SilkS")], font()],
            *rect(-10.5, -25.5, 10.5, 25.5, "F.SilkS"), *rect(-4.0, -26.8, 4.0, -25.5, "F.SilkS"),
            *rect(-10.16, -25.4, -7.62, 25.4, "F.Fab", 0.1), *rect(7.62, -25.4, 10.16, 25.4, "F.Fab", 0.1),
            *rect(-10.75, -27.05, 10.75, 25.75, "F.CrtYd", 0.05),
            line((-10.5, -25.5), (-9.4, -25.5), "F.Fab", 0.1), *pads]


# --- writing --------------------------------------------------------------------------------

def lib_symbol(lib_id: str, mine: dict) -> list:
    lib, name = lib_id.split(":")
    s = mine[name] if lib == "pod" else read_lib(lib, name)
    s = [s[0], S(lib_id), *s[2:]]
    return s


def label_for(net: str, at, outward) -> list:
    ang = {(1, 0): 0, (-1, 0): 180, (0, -1): 90, (0, 1): 270}[outward]
    just = "right" if ang in (180, 270) else "left"
    return ["label", S(net), ["at", at[0], at[1], ang], font(["justify", just, "bottom"]), ["uuid", uid("label", net, *at)]]


POWER = {"GND": "power:GND", "+3V3": "power:+3V3", "VBUS": "power:VBUS"}


def draw(force: bool) -> None:
    sch_path = PCB / "pod.kicad_sch"
    if sch_path.exists() and not force:
        sys.exit(f"{sch_path} exists: it is the source now (edit it in eeschema); --force overwrites it")
    mine = {"RaspberryPi_Pico": pico_symbol(), "74AHCT125": ahct125_symbol()}
    (PCB / "pod.pretty").mkdir(exist_ok=True)
    (PCB / "pod.pretty" / "RaspberryPi_Pico_Socketed.kicad_mod").write_text(sexpr.dump(pico_footprint()) + "\n")
    (PCB / "pod.kicad_sym").write_text(sexpr.dump(["kicad_symbol_lib", ["version", 20211014],
                                                   ["generator", "kicad_symbol_editor"], *mine.values()]) + "\n")
    parts = circuit()
    lib_ids = sorted({p[1] for p in parts} | set(POWER.values()) | {"power:PWR_FLAG"})
    libs = {lid: lib_symbol(lid, mine) for lid in lib_ids}
    items: list = []
    instances: list = []
    pwr_n = 0
    unit_of: dict[str, int] = {}

    def power_symbol(net, at):
        nonlocal pwr_n
        pwr_n += 1
        ref = f"#PWR{pwr_n:03d}"
        u = uid("pwr", ref)
        items.append(["symbol", ["lib_id", S(POWER[net])], ["at", at[0], at[1], 0], ["unit", 1],
                      ["in_bom", "yes"], ["on_board", "yes"], ["uuid", u],
                      prop("Reference", ref, 0, at[0], at[1] + 3.81, hide=True),
                      prop("Value", net, 1, at[0], at[1] + (3.81 if net == "GND" else -3.81)),
                      prop("Footprint", "", 2, hide=True), prop("Datasheet", "", 3, hide=True),
                      ["pin", S("1"), ["uuid", uid("pwrpin", ref)]]])
        instances.append(["path", S(f"/{u}"), ["reference", S(ref)], ["unit", 1], ["value", S(net)], ["footprint", S("")]])

    for ref, lib_id, value, fp, mfr, mpn, desc, (x, y), nets in parts:
        libsym = libs[lib_id]
        unit = 1
        if len(units(libsym)) > 1:
            unit = unit_of.get(ref, 0) + 1
            unit_of[ref] = unit
        u = uid("sym", ref, unit)
        pins = lib_pins(libsym, unit)
        sym = ["symbol", ["lib_id", S(lib_id)], ["at", x, y, 0], ["unit", unit], ["in_bom", "no" if ref[0] == "H" else "yes"],
               ["on_board", "yes"], ["uuid", u],
               prop("Reference", ref, 0, x + 3.81, y - 1.27), prop("Value", value, 1, x + 3.81, y + 1.27),
               prop("Footprint", fp, 2, x, y, hide=True), prop("Datasheet", "", 3, x, y, hide=True)]
        if mfr:
            sym += [prop("Manufacturer", mfr, 4, x, y, hide=True), prop("MPN", mpn, 5, x, y, hide=True)]
        sym.append(prop("Description", desc, 6, x, y, hide=True))
        for p in pins:
            sym.append(["pin", S(p.number), ["uuid", uid("pin", ref, p.number)]])
        items.append(sym)
        instances.append(["path", S(f"/{u}"), ["reference", S(ref)], ["unit", unit], ["value", S(value)], ["footprint", S(fp)]])
        for p in pins:
            if p.number not in nets:
                raise SystemExit(f"{ref} pin {p.number} has no net in the circuit table")
            px, py = place(p.x, p.y, (x, y, 0), None)
            # outward, on the sheet: against the pin's direction into the body, Y flipped
            dx, dy = -round(math.cos(math.radians(p.angle))), round(math.sin(math.radians(p.angle)))
            net = nets[p.number]
            if net is None:
                items.append(["no_connect", ["at", px, py], ["uuid", uid("nc", ref, p.number)]])
                continue
            end = (round(px + 2.54 * dx, 2), round(py + 2.54 * dy, 2))
            items.append(["wire", ["pts", ["xy", px, py], ["xy", *end]],
                          ["stroke", ["width", 0], ["type", "default"], ["color", 0, 0, 0, 0]], ["uuid", uid("w", ref, p.number)]])
            if net in POWER:
                power_symbol(net, end)
            else:
                items.append(label_for(net, end, (dx, dy)))
    # the GND net has no power output pin (the Pico's are passive): a PWR_FLAG says it is driven
    fx, fy = 40.64, 215.9
    items.append(["wire", ["pts", ["xy", fx, fy], ["xy", fx, fy + 2.54]],
                  ["stroke", ["width", 0], ["type", "default"], ["color", 0, 0, 0, 0]], ["uuid", uid("w", "flag")]])
    u = uid("flag")
    items.append(["symbol", ["lib_id", S("power:PWR_FLAG")], ["at", fx, fy, 0], ["unit", 1], ["in_bom", "yes"],
                  ["on_board", "yes"], ["uuid", u], prop("Reference", "#FLG01", 0, fx, fy - 2, hide=True),
                  prop("Value", "PWR_FLAG", 1, fx, fy - 3.81), prop("Footprint", "", 2, hide=True),
                  prop("Datasheet", "", 3, hide=True), ["pin", S("1"), ["uuid", uid("flagpin")]]])
    instances.append(["path", S(f"/{u}"), ["reference", S("#FLG01")], ["unit", 1], ["value", S("PWR_FLAG")], ["footprint", S("")]])
    power_symbol("GND", (fx, fy + 2.54))
    texts = [["text", S(t), ["at", x, y, 0], font(["justify", "left", "bottom"]), ["uuid", uid("text", t)]] for t, x, y in [
        ("Level shifter and ring: GP16 -> 74AHCT125 (all /OE and unused inputs to GND) -> 330R -> DIN", 111.76, 35.56),
        ("Buttons: 10k pull-up, switch to GND, ESD diode, 1k + 100n to the GPIO (release tau 1.1 ms, press 0.1 ms)",
         20.32, 152.4),
        ("Vibration motor (low side, from 3V3, C7 + C8 at J2) and piezo (GP15; J4 2-3 for two-pin drive from GP17)",
         205.74, 76.2),
        ("OLED 128x32 I2C (SSD1306, 0x3C): GP4 SDA, GP5 SCL; F1 in its supply", 233.68, 15.24)]]
    tree = ["kicad_sch", ["version", 20211123], ["generator", "eeschema"], ["uuid", uid("sheet")], ["paper", S("A3")],
            ["title_block", ["title", S("Lumen Condenser pod carrier")], ["date", S("2026-12-01")], ["rev", S("1")],
             ["company", S("Lumen Condenser table companion")],
             ["comment", 1, S("Raspberry Pi Pico / Pico 2 socket; pins as hardware/pinmaps/*.json")]],
            ["lib_symbols", *libs.values()], *items, *texts,
            ["sheet_instances", ["path", S("/"), ["page", S("1")]]], ["symbol_instances", *instances]]
    sch_path.write_text(sexpr.dump(tree) + "\n")
    print(f"wrote {sch_path} ({len(parts)} symbol units) and {PCB / 'pod.kicad_sym'}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--force", action="store_true", help="overwrite the existing schematic")
    draw(ap.parse_args().force)
