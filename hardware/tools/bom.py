"""The bill of materials, from the schematic, the order for twenty pods, and the cost of 1 and of 20 pods.

    python hardware/tools/bom.py            # writes hardware/bom.csv and the two tables in hardware/README.md
    python hardware/tools/bom.py --check    # exit 1 if any is stale

bom.csv: one line per part number, the references, the quantity for a pod,
for twenty, the spares to add and what to order for twenty, value,
footprint, manufacturer, part number, the distributor and its order number,
and what it is for; the parts and their fields come from the schematic
(the source: pcb/pod.kicad_sch), the spares and the distributor's numbers
from prices.csv. The README's order list for twenty adds what is not on the
board (mechanical.csv: ring, OLED, motor, sockets, screws, printed parts,
the PCB order); its cost table prices both with prices.csv: estimates as of
the date written there, not quotes.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from schematic import Schematic, _refkey

HW = HERE.parent
BOM = HW / "bom.csv"
README = HW / "README.md"
BEGIN, END = "<!-- cost table: made by hardware/tools/bom.py -->", "<!-- end of cost table -->"
ORDER_BEGIN, ORDER_END = "<!-- order for twenty: made by hardware/tools/bom.py -->", "<!-- end of the order for twenty -->"
PODS = 20
PRICE_DATE = "2026-12-01"
# parts of the schematic fitted to one variant only (the Pico 2 build swaps the module: mechanical.csv)
ONLY = {"U1": "pico"}


def bom_rows() -> list[dict]:
    comps = Schematic.load(HW / "pcb" / "pod.kicad_sch").components()
    groups: dict[tuple, list[str]] = {}
    for ref, c in comps.items():
        if not c.in_bom:
            continue
        k = (c.fields.get("Manufacturer", ""), c.fields.get("MPN", ""), c.value, c.footprint)
        groups.setdefault(k, []).append(ref)
    rows = []
    dist = {r["mpn"]: r for r in _csv(HW / "prices.csv")}
    for (mfr, mpn, value, fp), refs in groups.items():
        refs.sort(key=_refkey)
        # "what it is: what it does here": one line says what it is, and what it does if all do the same
        descs = [comps[r].fields.get("Description", "") for r in refs]
        desc = descs[0] if len(set(descs)) == 1 else descs[0].split(": ")[0]
        d = dist.get(mpn, {})
        spares = int(d.get("spares") or 0)
        rows.append({"refs": " ".join(refs), "qty": len(refs), "qty_20": PODS * len(refs), "spares": spares,
                     "order_20": PODS * len(refs) + spares, "value": value, "footprint": fp, "manufacturer": mfr,
                     "mpn": mpn, "distributor": d.get("distributor", ""), "distributor_pn": d.get("distributor_pn", ""),
                     "description": desc})
    rows.sort(key=lambda r: _refkey(r["refs"].split()[0]))
    return rows


def bom_csv(rows) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


def _csv(path: Path) -> list[dict]:
    return list(csv.DictReader(line for line in path.read_text().splitlines() if not line.startswith("#")))


def cost_lines(rows) -> list[dict]:
    """Every item of one pod with its price at 1 and at 20 pods."""
    prices = {r["mpn"]: (float(r["price_1"]), float(r["price_20"])) for r in _csv(HW / "prices.csv")}
    items = []
    for r in rows:
        if r["mpn"] not in prices:
            raise SystemExit(f"no price for {r['mpn']} ({r['refs']}) in hardware/prices.csv")
        p1, p20 = prices[r["mpn"]]
        first = r["refs"].split()[0]
        items.append(dict(item=f"{r['refs']}: {r['value']}", part=f"{r['manufacturer']} {r['mpn']}", qty=r["qty"],
                          variant=ONLY.get(first, "all"), p1=p1, p20=p20, per_order=False, spares=r["spares"],
                          dist=f"{r['distributor']} {r['distributor_pn']}".strip()))
    for m in _csv(HW / "mechanical.csv"):
        items.append(dict(item=m["item"], part=f"{m['manufacturer']} {m['part']}", qty=float(m["qty"]),
                          variant=m["variant"], p1=float(m["price_1"]), p20=float(m["price_20"]),
                          per_order=m["per_order"] == "yes", spares=float(m["spares"] or 0),
                          dist=f"{m['distributor']}: {m['distributor_pn']}"))
    return items


def totals(items, variant: str) -> tuple[float, float]:
    one = twenty = 0.0
    for it in items:
        if it["variant"] not in ("all", variant):
            continue
        if it["per_order"]:
            one += it["p1"]
            twenty += it["p20"]
        else:
            one += it["qty"] * it["p1"]
            twenty += (PODS * it["qty"] + it["spares"]) * it["p20"]
    return one, twenty


def cost_table(items) -> str:
    def q(x):
        return f"{x:g}"

    lines = [BEGIN, "",
             f"Prices in USD, **estimates as of {PRICE_DATE}** (typical catalogue prices, not quotes; check before "
             f"ordering) / 가격은 {PRICE_DATE} 기준 **추정치**(USD)입니다. The 20-pod column includes the spares "
             "of the order list above.", "",
             "| Item / 품목 | Part | Per pod | Variant | 1 pod | 20 pods |", "|---|---|---|---|---|---|"]
    for it in items:
        one = it["p1"] if it["per_order"] else it["qty"] * it["p1"]
        twenty = it["p20"] if it["per_order"] else (PODS * it["qty"] + it["spares"]) * it["p20"]
        lines.append(f"| {it['item']} | {it['part']} | {q(it['qty'])}{' (order)' if it['per_order'] else ''} | "
                     f"{it['variant']} | {one:.2f} | {twenty:.2f} |")
    for v, name in (("pico", "Pico, 12-pixel ring, no OLED"), ("pico2", "Pico 2, 16-pixel ring, OLED")):
        one, twenty = totals(items, v)
        lines.append(f"| **Total: {name}** | | | {v} | **{one:.2f}** | **{twenty:.2f}** ({twenty / 20:.2f} a pod) |")
    lines += ["", END]
    return "\n".join(lines)


def order_table(items) -> str:
    """What to order for twenty pods of each variant: per pod, for twenty, the spares, the order, where."""
    def q(x):
        return f"{x:g}"

    lines = [ORDER_BEGIN, "",
             "| Item / 품목 | Part | Variant | Per pod | 20 pods | Spares | **Order** | Distributor: number |",
             "|---|---|---|---|---|---|---|---|"]
    for it in items:
        if it["per_order"]:
            lines.append(f"| {it['item']} | {it['part']} | {it['variant']} | 1 | {PODS} | {q(it['spares'])} | "
                         f"**{q(PODS + it['spares'])}** | {it['dist']} |")
            continue
        n = PODS * it["qty"]
        lines.append(f"| {it['item']} | {it['part']} | {it['variant']} | {q(it['qty'])} | {q(n)} | {q(it['spares'])} | "
                     f"**{q(n + it['spares'])}** | {it['dist']} |")
    lines += ["", ORDER_END]
    return "\n".join(lines)


def _between(text: str, begin: str, end: str, new: str) -> str:
    if begin not in text or end not in text:
        raise SystemExit(f"{README} has no {begin} ... {end} markers")
    return text[:text.index(begin)] + new + text[text.index(end) + len(end):]


def main(argv: list[str]) -> int:
    rows = bom_rows()
    text = bom_csv(rows)
    items = cost_lines(rows)
    readme = README.read_text()
    new = _between(_between(readme, BEGIN, END, cost_table(items)), ORDER_BEGIN, ORDER_END, order_table(items))
    if "--check" in argv:
        stale = [p.name for p, want in ((BOM, text), (README, new)) if p.read_text() != want]
        if stale:
            print(f"stale: {', '.join(stale)}: run python hardware/tools/bom.py", file=sys.stderr)
            return 1
        return 0
    BOM.write_text(text)
    README.write_text(new)
    print(f"wrote {BOM} ({len(rows)} lines) and the cost table in {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
