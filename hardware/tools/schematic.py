"""Read a KiCad 6 schematic (.kicad_sch, one sheet) and make its netlist.

KiCad 6.0 has no headless netlist export (eeschema has no Python API and no
command line; kicad-cli came with 7.0), so this does what eeschema's
"Export netlist" does for a flat sheet, from the file itself:

* every placed symbol's pins, from the symbol copy embedded in the file
  (``lib_symbols``), moved to the sheet by the symbol's position, rotation
  and mirroring (library Y points up, the sheet's down);
* wires join what touches their ends (and an end lying on another wire);
  local labels of one name are one net on a sheet, global labels and power
  symbols (by their value: GND, +3V3, VBUS) one net on the whole design;
* a no-connect flag on a pin marks it as left open on purpose.

Two things this netlist carries beyond eeschema's: a pin with a no-connect
flag has ``+no_connect`` after its type (as KiCad 7 writes it), and a
PWR_FLAG appears as a node (ref ``#FLG..``, type power_out) on its net, so
the ERC check can see what drives a power net. Neither is a component.

``write_netlist`` writes KiCad's own S-expression netlist format (export
version "E", as eeschema 6 writes it) with each node's pin type, so the board
script and the ERC checker (erc.py) read the same file a KiCad user would
import into pcbnew.

    sch = Schematic.load("hardware/pcb/pod.kicad_sch")
    nets = sch.nets()            # {"GND": [Node("U1", "3", "GND", "passive"), ...], ...}
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import sexpr

GRID = 0.01  # mm: points closer than this are the same point


@dataclass(frozen=True)
class LibPin:
    number: str
    name: str
    type: str  # input, output, bidirectional, tri_state, passive, free, unspecified, power_in, power_out, ...
    x: float
    y: float
    angle: int  # direction from the connection point into the body, library coordinates
    hidden: bool


@dataclass
class Pin:
    ref: str
    number: str
    name: str
    type: str
    at: tuple[float, float]
    outward: tuple[int, int]  # unit step on the sheet away from the body
    hidden: bool = False


@dataclass
class Symbol:
    ref: str
    lib_id: str
    value: str
    footprint: str
    unit: int
    fields: dict[str, str]
    in_bom: bool
    on_board: bool
    power: bool
    uuid: str
    pins: list[Pin] = field(default_factory=list)
    description: str = ""


@dataclass(frozen=True)
class Node:
    ref: str
    pin: str
    function: str
    type: str


def key(x: float, y: float) -> tuple[int, int]:
    return (round(x / GRID), round(y / GRID))


def lib_pins(libsym: list, unit: int, convert: int = 1) -> list[LibPin]:
    """The pins of one unit (and body style) of an embedded library symbol:
    subsymbols are named NAME_UNIT_STYLE, unit 0 and style 0 are shared."""
    name = str(libsym[1]).split(":")[-1]
    out = []
    for sub in sexpr.find(libsym, "symbol"):
        u, s = (int(v) for v in str(sub[1])[len(name) + 1:].split("_"))
        if u not in (0, unit) or s not in (0, convert):
            continue
        for p in sexpr.find(sub, "pin"):
            at = sexpr.first(p, "at")
            out.append(LibPin(str(sexpr.value(p, "number")), str(sexpr.value(p, "name")), str(p[1]),
                              float(at[1]), float(at[2]), int(float(at[3])) % 360, "hide" in p))
    return out


def units(libsym: list) -> list[int]:
    name = str(libsym[1]).split(":")[-1]
    return sorted({int(str(s[1])[len(name) + 1:].split("_")[0]) for s in sexpr.find(libsym, "symbol")} - {0}) or [1]


def place(x: float, y: float, at: tuple[float, float, float], mirror: str | None) -> tuple[float, float]:
    """A library point on the sheet: flip Y (the sheet's Y points down),
    mirror, then rotate counter-clockwise as seen on the sheet."""
    sx, sy = x, -y
    if mirror == "x":  # about the horizontal axis
        sy = -sy
    elif mirror == "y":
        sx = -sx
    r = math.radians(at[2])
    c, s = round(math.cos(r)), round(math.sin(r))
    return (at[0] + sx * c + sy * s, at[1] - sx * s + sy * c)


def _outward(angle: int, at, mirror) -> tuple[int, int]:
    r = math.radians(angle)
    dx, dy = round(math.cos(r)), round(math.sin(r))
    ox, oy = place(-dx, -dy, (0, 0, at[2]), mirror)
    return (round(ox), round(oy))


class Schematic:
    def __init__(self, tree: list, path: Path | None = None) -> None:
        if not tree or tree[0] != "kicad_sch":
            raise ValueError(f"{path}: not a KiCad schematic")
        self.path = path
        self.tree = tree
        self.lib = {str(s[1]): s for s in sexpr.find(sexpr.first(tree, "lib_symbols", []), "symbol")}
        self.symbols: list[Symbol] = []
        for s in sexpr.find(tree, "symbol"):
            lib_id = str(sexpr.value(s, "lib_id"))
            libsym = self.lib[lib_id]
            at = sexpr.first(s, "at")
            pos = (float(at[1]), float(at[2]), float(at[3]) if len(at) > 3 else 0.0)
            mirror = sexpr.value(s, "mirror")
            unit = int(sexpr.value(s, "unit", 1))
            pr = sexpr.props(s)
            lp = sexpr.props(libsym)
            sym = Symbol(pr.get("Reference", "?"), lib_id, pr.get("Value", ""), pr.get("Footprint", ""), unit,
                         {k: v for k, v in pr.items() if k not in ("Reference", "Value", "Footprint", "Datasheet")},
                         sexpr.value(s, "in_bom", "yes") == "yes", sexpr.value(s, "on_board", "yes") == "yes",
                         sexpr.first(libsym, "power") is not None, str(sexpr.value(s, "uuid", "")),
                         description=lp.get("ki_description", ""))
            for p in lib_pins(libsym, unit, int(sexpr.value(s, "convert", 1))):
                px, py = place(p.x, p.y, pos, mirror)
                sym.pins.append(Pin(sym.ref, p.number, p.name, p.type, (round(px, 4), round(py, 4)),
                                    _outward(p.angle, pos, mirror), p.hidden))
            self.symbols.append(sym)
        self.wires = [tuple((float(xy[1]), float(xy[2])) for xy in sexpr.find(sexpr.first(w, "pts"), "xy"))
                      for w in sexpr.find(tree, "wire")]
        self.labels = [(str(lb[1]), kind, (float(sexpr.first(lb, "at")[1]), float(sexpr.first(lb, "at")[2])))
                       for kind in ("label", "global_label") for lb in sexpr.find(tree, kind)]
        self.no_connects = {key(float(sexpr.first(n, "at")[1]), float(sexpr.first(n, "at")[2]))
                            for n in sexpr.find(tree, "no_connect")}
        self.junctions = {key(float(sexpr.first(n, "at")[1]), float(sexpr.first(n, "at")[2]))
                          for n in sexpr.find(tree, "junction")}

    @classmethod
    def load(cls, path) -> Schematic:
        path = Path(path)
        return cls(sexpr.parse(path.read_text(encoding="utf-8")), path)

    @property
    def parts(self) -> list[Symbol]:
        """Real parts (not power symbols or flags), one entry per unit."""
        return [s for s in self.symbols if not s.power and not s.ref.startswith("#")]

    def components(self) -> dict[str, Symbol]:
        """One Symbol per reference (the first unit's fields), pins of all units."""
        out: dict[str, Symbol] = {}
        for s in self.parts:
            if s.ref in out:
                out[s.ref].pins.extend(s.pins)
            else:
                out[s.ref] = Symbol(**{**s.__dict__, "pins": list(s.pins)})
        return out

    # -- connectivity ---------------------------------------------------------------------
    def _groups(self):
        parent: dict = {}

        def find(a):
            parent.setdefault(a, a)
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        def union(a, b):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb

        points = set()
        for w in self.wires:
            a, b = key(*w[0]), key(*w[-1])
            union(("pt", a), ("pt", b))
            points |= {a, b}
        for s in self.symbols:
            for p in s.pins:
                points.add(key(*p.at))
        for _, _, at in self.labels:
            points.add(key(*at))
        # a point on a wire's inside joins it (a wire end, a pin, a label on it)
        for w in self.wires:
            (x1, y1), (x2, y2) = w[0], w[-1]
            a, b = key(x1, y1), key(x2, y2)
            for pt in points:
                if pt in (a, b):
                    continue
                if _on_segment(pt, a, b):
                    union(("pt", pt), ("pt", a))
        for name, kind, at in self.labels:
            union(("pt", key(*at)), ("label", name))
        for s in self.symbols:
            for p in s.pins:
                union(("pin", s.ref, p.number), ("pt", key(*p.at)))
                if s.power and p.type == "power_in":  # a power symbol's (hidden) pin names a global net (not PWR_FLAG's)
                    union(("pt", key(*p.at)), ("label", s.value))
        return find

    def nets(self) -> dict[str, list[Node]]:
        """Net name -> its pins. Pins alone on their net and not flagged
        no-connect are returned under "unconnected-(REF-PadN)"; flagged ones
        under "unconnected-(REF-PadN)" too, with ``+no_connect`` in the type."""
        find = self._groups()
        members: dict = {}
        names: dict = {}
        for name, _, at in self.labels:
            names.setdefault(find(("label", name)), set()).add(name)
        for s in self.symbols:
            if s.power and any(p.type == "power_in" for p in s.pins):
                names.setdefault(find(("label", s.value)), set()).add(s.value)
        for ref, sym in self.components().items():
            for p in sym.pins:
                root = find(("pin", ref, p.number))
                nc = key(*p.at) in self.no_connects
                members.setdefault(root, []).append(Node(ref, p.number, p.name, p.type + ("+no_connect" if nc else "")))
        for s in self.symbols:  # a PWR_FLAG is a power output on its net (as in eeschema's ERC)
            if s.power and s.value == "PWR_FLAG":
                for p in s.pins:
                    members.setdefault(find(("pin", s.ref, p.number)), []).append(Node(s.ref, p.number, "pwr", "power_out"))
        out: dict[str, list[Node]] = {}
        power = {s.value for s in self.symbols if s.power and s.value != "PWR_FLAG"}
        for root, nodes in members.items():
            labels = names.get(root, set())
            if labels:
                # a power net's name wins over a label on it; else the first label alphabetically
                name = sorted(labels, key=lambda n: (n not in power, n))[0]
            elif len(nodes) == 1:
                name = f"unconnected-({nodes[0].ref}-Pad{nodes[0].pin})"
            else:
                n0 = sorted(nodes, key=lambda n: (n.ref, n.pin))[0]
                name = f"Net-({n0.ref}-Pad{n0.pin})"
            out.setdefault(name, []).extend(sorted(nodes, key=lambda n: (_refkey(n.ref), _refkey(n.pin))))
        return dict(sorted(out.items()))

    def dangling_labels(self) -> list[str]:
        """Labels that touch no pin and no wire (a label left lying about
        names no net)."""
        touched = {key(*p.at) for s in self.symbols for p in s.pins}
        for w in self.wires:
            touched |= {key(*w[0]), key(*w[-1])}
        out = []
        for name, _, at in self.labels:
            k = key(*at)
            if k in touched:
                continue
            if any(_on_segment(k, key(*w[0]), key(*w[-1])) for w in self.wires):
                continue
            out.append(name)
        return out


def _on_segment(p, a, b) -> bool:
    (px, py), (ax, ay), (bx, by) = p, a, b
    if (bx - ax) * (py - ay) - (by - ay) * (px - ax) != 0:
        return False
    return min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by)


def _refkey(s: str):
    head = s.rstrip("0123456789")
    tail = s[len(head):]
    return (head, int(tail) if tail else -1)


def write_netlist(sch: Schematic, source: str) -> str:
    """KiCad's S-expression netlist (export version "E")."""
    S = sexpr.Str
    comps = sch.components()
    tree: list = ["export", ["version", S("E")],
                  ["design", ["source", S(source)], ["tool", S("lumen hardware/tools/schematic.py (KiCad 6 netlist format)")]]]
    cl: list = ["components"]
    for ref in sorted(comps, key=_refkey):
        c = comps[ref]
        lib, _, part = c.lib_id.partition(":")
        comp = ["comp", ["ref", S(ref)], ["value", S(c.value)], ["footprint", S(c.footprint)]]
        if c.fields:
            comp.append(["fields", *(["field", ["name", S(k)], S(v)] for k, v in sorted(c.fields.items()))])
        comp += [["libsource", ["lib", S(lib)], ["part", S(part)], ["description", S(c.description)]],
                 ["property", ["name", S("in_bom")], ["value", S("yes" if c.in_bom else "no")]],
                 ["sheetpath", ["names", S("/")], ["tstamps", S("/")]], ["tstamps", S(c.uuid)]]
        cl.append(comp)
    tree.append(cl)
    lp: list = ["libparts"]
    for lib_id in sorted({c.lib_id for c in comps.values()}):
        lib, _, part = lib_id.partition(":")
        libsym = sch.lib[lib_id]
        pins = {}
        for u in units(libsym):
            for p in lib_pins(libsym, u):
                pins[p.number] = p
        lp.append(["libpart", ["lib", S(lib)], ["part", S(part)],
                   ["pins", *(["pin", ["num", S(n)], ["name", S(p.name)], ["type", S(p.type)]]
                              for n, p in sorted(pins.items(), key=lambda kv: _refkey(kv[0])))]])
    tree.append(lp)
    nl: list = ["nets"]
    for code, (name, nodes) in enumerate(sch.nets().items(), 1):
        nl.append(["net", ["code", S(str(code))], ["name", S(name)],
                   *(["node", ["ref", S(n.ref)], ["pin", S(n.pin)], ["pinfunction", S(n.function)],
                      ["pintype", S(n.type)]] for n in nodes)])
    tree.append(nl)
    return sexpr.dump(tree) + "\n"


@dataclass
class Netlist:
    """A KiCad S-expression netlist as read back: what erc.py and the board script use."""
    components: dict[str, dict[str, str]]  # ref -> value, footprint, lib, part, fields..., in_bom
    pin_types: dict[tuple[str, str], tuple[str, str]]  # (lib, part) -> {pin: (name, type)}
    nets: dict[str, list[Node]]

    @classmethod
    def load(cls, path) -> Netlist:
        t = sexpr.parse(Path(path).read_text(encoding="utf-8"))
        comps = {}
        for c in sexpr.find(sexpr.first(t, "components"), "comp"):
            d = {"value": str(sexpr.value(c, "value", "")), "footprint": str(sexpr.value(c, "footprint", ""))}
            ls = sexpr.first(c, "libsource")
            d["lib"], d["part"] = str(sexpr.value(ls, "lib")), str(sexpr.value(ls, "part"))
            for f in sexpr.find(sexpr.first(c, "fields", []), "field"):
                d[str(sexpr.value(f, "name"))] = str(f[2]) if len(f) > 2 else ""
            for p in sexpr.find(c, "property"):
                d[str(sexpr.value(p, "name"))] = str(sexpr.value(p, "value"))
            comps[str(sexpr.value(c, "ref"))] = d
        pins = {}
        for lp in sexpr.find(sexpr.first(t, "libparts"), "libpart"):
            k = (str(sexpr.value(lp, "lib")), str(sexpr.value(lp, "part")))
            pins[k] = {str(sexpr.value(p, "num")): (str(sexpr.value(p, "name")), str(sexpr.value(p, "type")))
                       for p in sexpr.find(sexpr.first(lp, "pins"), "pin")}
        nets = {}
        for n in sexpr.find(sexpr.first(t, "nets"), "net"):
            nets[str(sexpr.value(n, "name"))] = [
                Node(str(sexpr.value(x, "ref")), str(sexpr.value(x, "pin")), str(sexpr.value(x, "pinfunction", "")),
                     str(sexpr.value(x, "pintype", ""))) for x in sexpr.find(n, "node")]
        return cls(comps, pins, nets)

    def net_of(self, ref: str, pin: str) -> str:
        for name, nodes in self.nets.items():
            if any(n.ref == ref and n.pin == pin for n in nodes):
                return name
        raise KeyError(f"{ref} pin {pin} is on no net")
