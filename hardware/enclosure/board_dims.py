"""The enclosure's dimensions, read from the board file (never typed twice).

    python hardware/enclosure/board_dims.py          # rewrites board_dims.scad beside it
    python hardware/enclosure/board_dims.py --check  # exit 1 if board_dims.scad is stale

From hardware/pcb/pod.kicad_pcb: the outline, the mounting holes, each
switch's centre, the OLED header's first pin, the ring's circle (Dwgs.User),
the Pico's place (its USB end), and a keep-out box with the height of every
tall part. OpenSCAD's Y points to the back (away from the player): Y = board
height - KiCad's y. Part heights above the board are from the parts'
datasheets (HEIGHTS), as placed in their sockets.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))
import sexpr

PCB = HERE.parent / "pcb" / "pod.kicad_pcb"
OUT = HERE / "board_dims.scad"
# mm above the board's top, as fitted (datasheet heights; the Pico on 8.5 mm sockets with its 2.5 mm header spacer)
HEIGHTS = {
    "pod:RaspberryPi_Pico_Socketed": 12.2,  # socket 8.5 + spacer 2.5 + Pico PCB 1.0 (+ parts 0.2)
    "Button_Switch_THT:SW_PUSH-12mm": 7.3,  # Omron B3F-4055: actuator top
    "Connector_PinSocket_2.54mm:PinSocket_1x04_P2.54mm_Vertical": 8.5,
    "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm": 11.5,  # Nichicon UVR 5 x 11
    "Connector_JST:JST_XH_B3B-XH-A_1x03_P2.50mm_Vertical": 12.0,  # header 9.8 with the plug on
    "Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical": 12.0,
    "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical": 11.0,  # pins 8.5 + shunt
    "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm": 6.5,
    "Package_DIP:DIP-14_W7.62mm": 5.3,
    "Capacitor_THT:C_Rect_L4.0mm_W2.5mm_P2.50mm": 6.0,
}
LOW = 3.0  # every other part (resistors, diodes, SOT-23)
# the 0.91" SSD1306 module on J3: 38 x 12 mm, pins along its left short edge, the active area's centre
# 19.5 mm from the pin row; its glass top 14.1 mm above the carrier (socket 8.5 + spacer 2.5 + PCB 1.6 + glass 1.5)
OLED = {"length": 38.0, "width": 12.0, "pin_edge": 1.5, "active_dx": 19.5, "active_w": 22.4, "active_h": 5.6,
        "bottom": 11.0, "top": 14.1}
# the Pico's micro-USB plug: its centre 1.3 mm over the Pico's top, the overmould about 11 x 8 mm
USB = {"above_pico": 1.3, "w": 11.0, "h": 8.0}
# The rings a pin map can name (its "ring": {"pixels": N}), as sold: Adafruit 1643 (12 x WS2812B) and 1463
# (16 x WS2812B). od / id: the PCB's outer and inner diameter; led_r: the radius of the LEDs' centres
# (midway across the PCB); t: the PCB and its 1.6 mm LEDs; led: the 5050 package's side. The enclosure's rim
# and diffuser are made for the ring the pin map names (pod.scad, build.py); the board's Dwgs.User circle is
# the largest ring's outline, centred where every ring sits.
RINGS = {12: {"od": 37.0, "id": 23.0, "led_r": 15.0, "t": 3.2, "led": 5.0},
         16: {"od": 44.5, "id": 31.75, "led_r": 19.06, "t": 3.2, "led": 5.0}}


def _footprints(tree):
    for fp in sexpr.find(tree, "footprint"):
        at = sexpr.first(fp, "at")
        ref = next((str(t[2]) for t in sexpr.find(fp, "fp_text") if t[1] == "reference"), "?")
        yield str(fp[1]), ref, (float(at[1]), float(at[2]), float(at[3]) if len(at) > 3 else 0.0), fp


def _courtyard(fp, at):
    # the footprint's courtyard, turned as the part is placed (KiCad: counter-clockwise as drawn, y down)
    a = math.radians(at[2])
    ca, sa = math.cos(a), math.sin(a)
    xs, ys = [], []
    for kind in ("fp_line", "fp_circle", "fp_rect"):
        for g in sexpr.find(fp, kind):
            if sexpr.value(g, "layer") != "F.CrtYd":
                continue
            if kind == "fp_circle":
                c, e = sexpr.first(g, "center"), sexpr.first(g, "end")
                r = math.hypot(float(e[1]) - float(c[1]), float(e[2]) - float(c[2]))
                cx, cy = float(c[1]) * ca + float(c[2]) * sa, -float(c[1]) * sa + float(c[2]) * ca
                xs += [cx - r, cx + r]
                ys += [cy - r, cy + r]
            else:
                for k in ("start", "end"):
                    p = sexpr.first(g, k)
                    xs.append(float(p[1]) * ca + float(p[2]) * sa)
                    ys.append(-float(p[1]) * sa + float(p[2]) * ca)
    return (at[0] + min(xs), at[1] + min(ys), at[0] + max(xs), at[1] + max(ys))


def read(pcb: Path = PCB) -> dict:
    t = sexpr.parse(pcb.read_text())
    pts = []
    for g in sexpr.find(t, "gr_line") + sexpr.find(t, "gr_arc"):
        if sexpr.value(g, "layer") == "Edge.Cuts":
            for k in ("start", "end"):
                p = sexpr.first(g, k)
                pts.append((float(p[1]), float(p[2])))
    W = max(p[0] for p in pts) - min(p[0] for p in pts)
    H = max(p[1] for p in pts) - min(p[1] for p in pts)
    corner = min(p[0] for p in pts if abs(p[1]) < 1e-6)  # where the top edge's straight line starts
    Y = lambda y: round(H - y, 3)
    d = {"board": [W, H, corner], "holes": [], "switches": [], "parts": []}
    for g in sexpr.find(t, "gr_circle"):
        if sexpr.value(g, "layer") == "Dwgs.User":
            c, e = sexpr.first(g, "center"), sexpr.first(g, "end")
            d["ring"] = [float(c[1]), Y(float(c[2])), round(math.hypot(float(e[1]) - float(c[1]), float(e[2]) - float(c[2])), 3)]
    for fpid, ref, at, fp in _footprints(t):
        pads = [(str(p[1]), sexpr.first(p, "at"), sexpr.first(p, "drill")) for p in sexpr.find(fp, "pad")]
        if fpid.startswith("MountingHole:"):
            d["holes"].append([at[0], Y(at[1]), float(pads[0][2][1])])
            continue
        x1, y1, x2, y2 = _courtyard(fp, at)
        d["parts"].append([ref, round(x1, 3), Y(y2), round(x2, 3), Y(y1), HEIGHTS.get(fpid, LOW)])
        if fpid == "Button_Switch_THT:SW_PUSH-12mm":
            xs = [at[0] + float(p[1][1]) for p in pads]
            ys = [at[1] + float(p[1][2]) for p in pads]
            value = next(str(p[2]) for p in sexpr.find(fp, "fp_text") if p[1] == "value")
            d["switches"].append([round((min(xs) + max(xs)) / 2, 3), Y((min(ys) + max(ys)) / 2), value])
        elif ref == "J3":
            pin1 = next(p for p in pads if p[0] == "1")
            ys = [at[1] + float(p[1][2]) for p in pads]
            cx = at[0] + float(pin1[1][1]) + OLED["active_dx"]
            cy = (min(ys) + max(ys)) / 2
            d["oled"] = [round(cx, 3), Y(cy), OLED["active_w"], OLED["active_h"], OLED["top"]]
            x0 = at[0] - OLED["pin_edge"]
            d["parts"].append(["OLED", round(x0, 3), Y(cy + OLED["width"] / 2), round(x0 + OLED["length"], 3),
                               Y(cy - OLED["width"] / 2), OLED["top"]])
        elif ref == "U1":
            d["pico"] = [at[0], Y(at[1])]
            d["usb"] = [at[0], Y(at[1] - 25.5), HEIGHTS[fpid] + USB["above_pico"], USB["w"], USB["h"]]
    d["switches"].sort(key=lambda s: (s[1], s[0]))
    d["holes"].sort()  # the board file's order of footprints is pcbnew's, not ours
    d["parts"].sort(key=lambda p: p[0])
    return d


def scad(d: dict) -> str:
    def v(x):
        if isinstance(x, str):
            return f'"{x}"'
        if isinstance(x, list):
            return "[" + ", ".join(v(i) for i in x) + "]"
        return f"{x:g}"

    lines = ["// Generated by hardware/enclosure/board_dims.py from hardware/pcb/pod.kicad_pcb: do not edit.",
             "// OpenSCAD coordinates: X right, Y to the back (away from the player), Z up; the board's",
             "// bottom-left corner (front-left) at the origin, its top face at z = 0 here (pod.scad lifts it)."]
    names = {"board": "board_size (w, h, corner radius)", "holes": "mounting holes [x, y, drill]",
             "switches": "switch centres [x, y, name]",
             "oled": "OLED active area [x, y, w, h, its glass's top over the board]",
             "rings": "rings [pixels, outer diameter, inner diameter, LED centre radius, thickness, LED side]",
             "ring": "NeoPixel ring [x, y, outer radius]", "pico": "Pico centre [x, y]",
             "usb": "USB plug [x, y at the board's back edge, centre height over the board, w, h]",
             "parts": "keep-outs [ref, x1, y1, x2, y2, height over the board]"}
    d = dict(d, rings=[[n, r["od"], r["id"], r["led_r"], r["t"], r["led"]] for n, r in sorted(RINGS.items())])
    for k in ("board", "holes", "switches", "oled", "ring", "rings", "pico", "usb", "parts"):
        lines.append(f"// {names[k]}")
        lines.append(f"{k if k != 'board' else 'board_size'} = {v(d[k])};")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = scad(read())
    if "--check" in argv:
        if OUT.read_text() != text:
            print(f"{OUT} is stale: run python hardware/enclosure/board_dims.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
