"""Make the pod carrier's board from its schematic: place, route, save.

Runs under Debian's /usr/bin/python3 (KiCad 6's pcbnew module lives there):

    /usr/bin/python3 hardware/tools/board.py        # writes hardware/pcb/pod.kicad_pcb, then runs DRC

The parts and their nets come from the schematic's netlist (schematic.py),
so the board can only have what the schematic has; where each part sits is
the PLACEMENT table below (the enclosure reads the switch, OLED, hole and
ring positions back from the board file: enclosure/board_dims.py). Footprints
are KiCad's own (Debian's kicad-footprints) and the project's pod.pretty.
The tracks come from router.py. The committed .kicad_pcb is what CI checks
with KiCad's DRC (drc.py); rerun this script after changing the schematic
or the placement, and commit both.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import tempfile
from pathlib import Path

import pcbnew
import router
from router import Capsule, Rect, Router
from schematic import Schematic

HERE = Path(__file__).resolve().parent
PCB = HERE.parent / "pcb"
FOOTPRINTS = Path("/usr/share/kicad/footprints")

WIDTH, HEIGHT, CORNER = 90.0, 88.0, 3.0
CLEARANCE = 0.2
EDGE = 0.5  # copper to the board edge (the router keeps 0.6)
SIGNAL, POWER = 0.3, 0.5  # track widths
POWER_NETS = {"GND", "VBUS", "+3V3", "MOTOR_N"}
VIA = (0.8, 0.4)
# the ring (off the board, on the shell's top under the hood): its centre and the 16-pixel ring's outer radius,
# drawn on Dwgs.User for the enclosure to read
RING = (58.0, 26.0, 22.25)

# ref -> (x, y, rotation) of the footprint's origin, mm from the board's top-left corner; y grows towards the
# player (the front, where the buttons are); the Pico's USB end faces the back edge (y = 0)
PLACEMENT = {
    "H1": (4, 4, 0), "H2": (86, 4, 0), "H3": (4, 84, 0), "H4": (86, 84, 0),
    "U1": (19, 28, 0),
    # level shifter and ring connector (under the ring)
    "U2": (38, 30, 0), "C1": (49, 31, 0), "R1": (49, 38, 0), "R2": (49, 42, 0),
    "J1": (55, 22, 0), "C2": (57, 30, 0),
    # piezo and motor (back right)
    "BZ1": (70, 12, 0), "R13": (67, 21, 0), "J4": (81, 10, 0),
    "R11": (64.5, 26, 0), "Q1": (70, 30, 0), "R12": (64.5, 34, 0), "D5": (74, 30, 0), "J2": (76, 40, 0),
    # the motor's bulk capacitor and its 100 nF, beside J2 (issue 33)
    "C7": (84.5, 35.5, 0), "C8": (87.5, 42, 90),
    # OLED header, its I2C pull-ups and the fuse in its supply; J3 6 mm further back than it was (issue 33):
    # the screen then sits where the player sees all of it past the READY and NEXT caps (enclosure/build.py)
    "J3": (36, 51, 0), "R14": (39.5, 50, 0), "R15": (39.5, 53.5, 0), "F1": (35.5, 62, 0),
    # buttons (origins: pad 1; the switch's centre is +6.25, +2.5) and their filters
    "SW1": (13.75, 75.5, 0), "R3": (9, 60, 0), "R7": (9, 64, 0), "C3": (20, 62, 0), "D1": (14, 69, 0),
    "SW3": (38.75, 75.5, 0), "R5": (40, 60, 0), "R9": (40, 64, 0), "C5": (51, 61, 0), "D3": (44, 69.5, 0),
    "SW2": (63.75, 75.5, 0), "R4": (56, 60, 0), "R8": (56, 64, 0), "C4": (66, 61, 0), "D2": (68, 69.5, 0),
    "SW4": (73.75, 57.5, 0), "R6": (74, 47, 0), "R10": (74, 51, 0), "C6": (66, 49, 0), "D4": (85, 45, 0),
}
SILK_LABELS = [("PREV", 20, 86.4), ("READY", 45, 86.4), ("NEXT", 70, 86.4), ("BACK", 80, 67.6),
               ("Lumen Condenser pod v1.1  2026-12", 52, 1.6)]
# what each connector's pins are, printed beside them (issue 33: a builder wires the ring, the motor and the
# OLED from the board alone); side: where the words go from the pins
LEGENDS = {"J1": (("5V", "DIN", "GND"), "above", 0.65), "J2": (("+", "-"), "above", 0.8),
           "J3": (("GND", "VCC", "SCL", "SDA"), "left", 0.8), "J4": (("GND", "PZ", "GP17"), "right", 0.8)}
# values printed on the silkscreen as the part is marked or bought; shorter where the value is long
SILK_VALUE = {"PESD5V0S1BA": "ESD", "RaspberryPi_Pico": "Pico / Pico 2", "SN74AHCT125N": "74AHCT125",
              "PS1240P02BT": "PS1240", "BACK/MENU": "BACK", "AO3400A": "3400A"}
# where the search below finds no room, a place chosen by eye (mm, board coordinates): still clear of pads,
# outlines and other texts
SILK_SPOTS = {("Q1", "value"): [(65.6, 28.28), (66.0, 31.75)],
              ("C8", "reference"): [(84.6, 41.0)], ("C8", "value"): [(87.6, 43.45), (87.6, 37.9)]}


def mm(x: float, y: float):
    return pcbnew.wxPointMM(float(x), float(y))


def load_footprint(fpid: str):
    lib, _, name = fpid.partition(":")
    path = PCB / f"{lib}.pretty" if lib == "pod" else FOOTPRINTS / f"{lib}.pretty"
    fp = pcbnew.FootprintLoad(str(path), name)
    if fp is None:
        raise SystemExit(f"footprint {fpid} not found in {path}")
    return fp


def outline(board) -> None:
    def seg(a, b):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(mm(*a))
        s.SetEnd(mm(*b))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(pcbnew.FromMM(0.1))
        board.Add(s)

    def arc(c, start, mid, end):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_ARC)
        s.SetArcGeometry(mm(*start), mm(*mid), mm(*end))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(pcbnew.FromMM(0.1))
        board.Add(s)

    r, W, H = CORNER, WIDTH, HEIGHT
    k = r * (1 - math.sqrt(0.5))
    seg((r, 0), (W - r, 0))
    seg((W, r), (W, H - r))
    seg((W - r, H), (r, H))
    seg((0, H - r), (0, r))
    arc((W - r, r), (W - r, 0), (W - k, k), (W, r))
    arc((W - r, H - r), (W, H - r), (W - k, H - k), (W - r, H))
    arc((r, H - r), (r, H), (k, H - k), (0, H - r))
    arc((r, r), (0, r), (k, k), (r, 0))


def pad_shape(pad):
    pos = pad.GetPosition()
    x, y = pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y)
    sz = pad.GetSize()
    w, h = pcbnew.ToMM(sz.x), pcbnew.ToMM(sz.y)
    ang = pad.GetOrientationDegrees()
    shape = pad.GetShape()
    if shape in (pcbnew.PAD_SHAPE_CIRCLE, pcbnew.PAD_SHAPE_OVAL):
        r = min(w, h) / 2
        L = (max(w, h) - min(w, h)) / 2
        a = math.radians(ang + (0 if w >= h else 90))
        dx, dy = L * math.cos(a), -L * math.sin(a)  # KiCad's angles turn counter-clockwise on screen
        return Capsule(x - dx, y - dy, x + dx, y + dy, r)
    return Rect(x, y, w / 2, h / 2, -ang)


def _box(item, grow=0.0):
    return _rect(item.GetBoundingBox(), grow)


def _rect(b, grow=0.0):
    g = pcbnew.FromMM(grow)
    return (b.GetX() - g, b.GetY() - g, b.GetRight() + g, b.GetBottom() + g)


def _hit(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _over_pad(item, pads) -> bool:
    """A silkscreen line or circle that would be printed on a pad's opening."""
    box = _box(item)
    if item.GetShape() == pcbnew.SHAPE_T_CIRCLE:
        c = item.GetCenter()
        r = item.GetRadius()
        for p in pads:
            pp = p.GetPosition()
            half = max(p.GetSize().x, p.GetSize().y) / 2 + pcbnew.FromMM(0.25)
            if abs(math.hypot(pp.x - c.x, pp.y - c.y) - r) < half:
                return True
        return False
    return any(_hit(box, _box(p, 0.25)) for p in pads)


def tidy_silk(board) -> None:
    """Silkscreen a fab can print: library outlines that run over a pad's
    opening are dropped (the 12 mm switch's body outline crosses its legs),
    and each reference, then each value (issue 33: the values belong on the
    silkscreen, not only on F.Fab), goes to the first place beside (a value:
    first inside) its part where it covers no pad, no outline, no other text
    and stays on the board."""
    pads = [_box(p, 0.25) for p in board.GetPads()]
    silk = []
    for fp in board.GetFootprints():
        for it in list(fp.GraphicalItems()):
            if it.GetLayer() != pcbnew.F_SilkS:
                continue
            if it.GetClass() == "MTEXT":  # a footprint's own marks ("K", "+"): in the way of references
                silk.append(_box(it, 0.1))
                continue
            if it.GetClass() != "MGRAPHIC":
                continue
            if _over_pad(it, board.GetPads()):
                fp.Remove(it)
            else:
                silk.append(_box(it, 0.1))
    texts = [_box(t, 0.2) for t in board.GetDrawings() if t.GetLayer() == pcbnew.F_SilkS]
    inner = (pcbnew.FromMM(0.8), pcbnew.FromMM(0.8), pcbnew.FromMM(WIDTH - 0.8), pcbnew.FromMM(HEIGHT - 0.8))
    bodies = {fp.GetReference(): _rect(fp.GetBoundingBox(False, False)) for fp in board.GetFootprints()
              if not fp.GetReference().startswith("H")}

    def gap(b, r):  # between a label's box and a part's box
        dx = max(r[0] - b[2], b[0] - r[2], 0)
        dy = max(r[1] - b[3], b[1] - r[3], 0)
        return math.hypot(dx, dy)

    def place(fp, item, sizes, inside_first, kind) -> bool:
        """item (the reference or the value) at the first spot beside (or in) its part that covers no
        pad, no outline, no other text, stays on the board and is nearer its own part than any other."""
        bb = fp.GetBoundingBox(False, False)
        cx, cyy = bb.Centre().x, bb.Centre().y
        turn = fp.GetOrientation()  # a part's texts turn with it: their angles here are the board's
        for spot in SILK_SPOTS.get((fp.GetReference(), kind), ()):
            for size in sizes:
                item.SetTextSize(pcbnew.wxSizeMM(size, size))
                item.SetTextThickness(pcbnew.FromMM(0.15 * size))
                item.SetTextAngle(-turn)
                item.SetPosition(mm(*spot))
                b = _box(item, 0.15)
                if not (any(_hit(b, o) for o in pads) or any(_hit(b, o) for o in silk) or any(_hit(b, o) for o in texts)):
                    texts.append(_box(item, 0.15))
                    return True
        for size in sizes:  # a smaller text where a full-size one finds no room
            for angle in ((0, 90) if inside_first else (0,)):
                item.SetTextSize(pcbnew.wxSizeMM(size, size))
                item.SetTextThickness(pcbnew.FromMM(0.15 * size))
                item.SetTextAngle(angle * 10 - turn)
                item.SetPosition(pcbnew.wxPoint(int(cx), int(cyy)))
                tb = item.GetBoundingBox()
                h = tb.GetHeight() // 2 + pcbnew.FromMM(0.3)  # the label's half height, and room for the grow below
                cands = [(cx, cyy)] if inside_first else []
                cands += [(cx, bb.GetY() - h), (cx, bb.GetBottom() + h), (cx, cyy)]
                for dx in (-1.5, 1.5, -3, 3, -4.5, 4.5, -6, 6):
                    cands += [(cx + pcbnew.FromMM(dx), bb.GetY() - h), (cx + pcbnew.FromMM(dx), bb.GetBottom() + h)]
                for dy in (0, -1.5, 1.5, -3, 3):
                    cands += [(bb.GetX() - pcbnew.FromMM(2.5 * size), cyy + pcbnew.FromMM(dy)),
                              (bb.GetRight() + pcbnew.FromMM(2.5 * size), cyy + pcbnew.FromMM(dy))]
                for dx, dy in ((-3, -2), (3, -2), (-3, 2), (3, 2)):  # inside the part's outline, clear of its pads
                    cands.append((cx + pcbnew.FromMM(dx), cyy + pcbnew.FromMM(dy)))
                for x, y in cands:
                    item.SetPosition(pcbnew.wxPoint(int(x), int(y)))
                    b = _box(item, 0.15)
                    if not (inner[0] <= b[0] and b[2] <= inner[2] and inner[1] <= b[1] and b[3] <= inner[3]):
                        continue
                    if any(_hit(b, o) for o in pads) or any(_hit(b, o) for o in silk) or any(_hit(b, o) for o in texts):
                        continue
                    own = gap(b, bodies[fp.GetReference()])
                    if any(gap(b, r) < own for k, r in bodies.items() if k != fp.GetReference()):
                        continue  # nearer another part: a builder would read it as that part's
                    texts.append(_box(item, 0.15))
                    return True
        return False

    fps = sorted(board.GetFootprints(), key=lambda f: f.GetReference())
    for fp in fps:  # the references first: a builder finds a part by its name
        ref = fp.Reference()
        ref.SetKeepUpright(True)
        if fp.GetReference().startswith("H"):
            ref.SetVisible(False)  # a mounting hole needs no name on the board
            fp.Value().SetVisible(False)
            continue
        if not place(fp, ref, (1.0, 0.8), False, "reference"):
            ref.SetLayer(pcbnew.F_Fab)  # no room on the silkscreen: the assembly drawing still names it
            ref.SetPosition(fp.GetBoundingBox(False, False).Centre())
            print(f"silk: no room for {fp.GetReference()}'s reference, put on F.Fab", file=sys.stderr)
    for fp in fps:  # then each value (issue 33: a builder fits the part by what is printed there)
        val = fp.Value()
        if fp.GetReference()[0] == "H" or fp.GetReference().startswith("SW"):
            val.SetVisible(False)  # a button's name is printed under it (SILK_LABELS)
            continue
        val.SetText(SILK_VALUE.get(val.GetText(), val.GetText()))
        val.SetLayer(pcbnew.F_SilkS)
        val.SetVisible(True)
        val.SetKeepUpright(True)
        if not place(fp, val, (0.8, 0.7, 0.6, 0.5), True, "value"):
            val.SetLayer(pcbnew.F_Fab)
            val.SetPosition(fp.GetBoundingBox(False, False).Centre())
            print(f"silk: no room for {fp.GetReference()}'s value, put on F.Fab", file=sys.stderr)


def legends(board) -> None:
    """Each connector's pin names on the silkscreen, one word per pin, beside it (LEGENDS)."""
    fps = {fp.GetReference(): fp for fp in board.GetFootprints()}
    for ref, (words, side, size) in LEGENDS.items():
        pads = sorted(fps[ref].Pads(), key=lambda p: int(p.GetNumber()))
        for pad, word in zip(pads, words, strict=True):
            pos = pad.GetPosition()
            x, y = pcbnew.ToMM(pos.x), pcbnew.ToMM(pos.y)
            if side == "above":
                y -= 3.4 if ref == "J2" else 3.0
            elif side == "left":
                x -= 2.6
            else:
                x += 2.9
            t = pcbnew.PCB_TEXT(board)
            t.SetText(word)
            t.SetPosition(mm(x, y))
            t.SetLayer(pcbnew.F_SilkS)
            t.SetTextSize(pcbnew.wxSizeMM(size, size))
            t.SetTextThickness(pcbnew.FromMM(0.15 * size))
            if side == "left":
                t.SetHorizJustify(pcbnew.GR_TEXT_HJUSTIFY_RIGHT)
                t.SetPosition(mm(x + 1.0, y))
            elif side == "right":
                t.SetHorizJustify(pcbnew.GR_TEXT_HJUSTIFY_LEFT)
                t.SetPosition(mm(x - 1.0, y))
            board.Add(t)


def build(out: Path) -> None:
    sch = Schematic.load(PCB / "pod.kicad_sch")
    comps = sch.components()
    nets = sch.nets()
    missing = set(comps) - set(PLACEMENT)
    if missing:
        raise SystemExit(f"no placement for {sorted(missing)}: add them to PLACEMENT")
    board = pcbnew.CreateEmptyBoard()
    ds = board.GetDesignSettings()
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(pcbnew.FromMM(CLEARANCE))
    nc.SetTrackWidth(pcbnew.FromMM(SIGNAL))
    nc.SetViaDiameter(pcbnew.FromMM(VIA[0]))
    nc.SetViaDrill(pcbnew.FromMM(VIA[1]))
    ds.m_CopperEdgeClearance = pcbnew.FromMM(EDGE)
    ds.m_TrackMinWidth = pcbnew.FromMM(0.25)
    ds.m_ViasMinSize = pcbnew.FromMM(0.6)
    ds.m_MinThroughDrill = pcbnew.FromMM(0.3)
    ds.m_HoleToHoleMin = pcbnew.FromMM(0.25)
    ds.SetCopperLayerCount(2)
    tb = board.GetTitleBlock()
    tb.SetTitle("Lumen Condenser pod carrier")
    tb.SetRevision("1")
    tb.SetDate("2026-12-01")

    netinfo = {}
    for code, name in enumerate(n for n in nets if not n.startswith("unconnected-")):
        ni = pcbnew.NETINFO_ITEM(board, name)
        board.Add(ni)
        netinfo[name] = ni
    pin_net = {(n.ref, n.pin): name for name, nodes in nets.items() for n in nodes}
    outline(board)
    rt = Router(WIDTH, HEIGHT, clearance=CLEARANCE, edge=0.6, via_diameter=VIA[0], via_drill=VIA[1])
    ids = {name: i + 1 for i, name in enumerate(netinfo)}
    for ref, c in sorted(comps.items()):
        fp = load_footprint(c.footprint)
        lib, _, fpname = c.footprint.partition(":")
        fp.SetFPID(pcbnew.LIB_ID(lib, fpname))
        fp.SetReference(ref)
        fp.SetValue(c.value)
        x, y, rot = PLACEMENT[ref]
        fp.SetPosition(mm(x, y))
        if rot:
            fp.SetOrientationDegrees(rot)
        board.Add(fp)
        for pad in fp.Pads():
            num = pad.GetNumber()
            name = pin_net.get((ref, num))
            if name and not name.startswith("unconnected-"):
                pad.SetNet(netinfo[name])
            if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                p = pad.GetPosition()
                rt.add_hole(pcbnew.ToMM(p.x), pcbnew.ToMM(p.y), pcbnew.ToMM(pad.GetDrillSize().x) / 2)
                continue
            layers = tuple(L for L, kl in ((0, pcbnew.F_Cu), (1, pcbnew.B_Cu)) if pad.IsOnLayer(kl))
            net = ids.get(name, 0) if name and not name.startswith("unconnected-") else -1 - len(rt.obstacles)
            drill = pcbnew.ToMM(pad.GetDrillSize().x) if pad.GetDrillSize().x else 0.0
            rt.add_pad(net, layers, pad_shape(pad), drill)
    # the ring's place, for the enclosure
    circ = pcbnew.PCB_SHAPE(board)
    circ.SetShape(pcbnew.SHAPE_T_CIRCLE)
    circ.SetCenter(mm(RING[0], RING[1]))
    circ.SetEnd(mm(RING[0] + RING[2], RING[1]))
    circ.SetLayer(pcbnew.Dwgs_User)
    circ.SetWidth(pcbnew.FromMM(0.15))
    board.Add(circ)
    t = pcbnew.PCB_TEXT(board)
    t.SetText("RING (16 px, 44.5 mm) above, on the shell")
    t.SetPosition(mm(RING[0], RING[1] - RING[2] - 1.5))
    t.SetLayer(pcbnew.Dwgs_User)
    board.Add(t)
    for text, x, y in SILK_LABELS:
        t = pcbnew.PCB_TEXT(board)
        t.SetText(text)
        t.SetPosition(mm(x, y))
        t.SetLayer(pcbnew.F_SilkS)
        t.SetTextSize(pcbnew.wxSizeMM(1.2, 1.2))
        t.SetTextThickness(pcbnew.FromMM(0.18))
        board.Add(t)
    legends(board)

    widths = {ids[n]: (POWER if n in POWER_NETS else SIGNAL) for n in netinfo}
    order = sorted(widths, key=lambda i: (len(rt.pads.get(i, ())), i))
    # routing takes minutes: the same pads and nets give the same tracks, so a rerun reuses them
    digest = hashlib.sha256(repr((sorted(PLACEMENT.items()), sorted(pin_net.items()), WIDTH, HEIGHT,
                                  Path(router.__file__).read_bytes())).encode()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"lumen-routes-{digest}.json"
    if cache.exists():
        got = json.loads(cache.read_text())
        rt.tracks = [(n, L, tuple(a), tuple(b), w) for n, L, a, b, w in got["tracks"]]
        rt.vias = [(n, tuple(p)) for n, p in got["vias"]]
        ok = True
    else:
        ok = rt.route(widths, order)
        if ok:
            cache.write_text(json.dumps({"tracks": rt.tracks, "vias": rt.vias}))
    names = {v: k for k, v in ids.items()}
    if not ok:
        print("router: could not route " + ", ".join(names[n] for n in rt.failed), file=sys.stderr)
    for net, L, a, b, w in rt.tracks:
        tr = pcbnew.PCB_TRACK(board)
        tr.SetStart(mm(*a))
        tr.SetEnd(mm(*b))
        tr.SetWidth(pcbnew.FromMM(w))
        tr.SetLayer(pcbnew.F_Cu if L == 0 else pcbnew.B_Cu)
        tr.SetNet(netinfo[names[net]])
        board.Add(tr)
    for net, (x, y) in rt.vias:
        v = pcbnew.PCB_VIA(board)
        v.SetPosition(mm(x, y))
        v.SetWidth(pcbnew.FromMM(VIA[0]))
        v.SetDrill(pcbnew.FromMM(VIA[1]))
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        v.SetNet(netinfo[names[net]])
        board.Add(v)
    tidy_silk(board)
    board.BuildConnectivity()
    pcbnew.SaveBoard(str(out), board)
    print(f"wrote {out}: {len(comps)} parts, {len(netinfo)} nets, {len(rt.tracks)} tracks, {len(rt.vias)} vias"
          + ("" if ok else f", {len(rt.failed)} nets NOT routed"))


if __name__ == "__main__":
    build(PCB / "pod.kicad_pcb")
    import drc
    sys.exit(drc.main([str(PCB / "pod.kicad_pcb")]))
