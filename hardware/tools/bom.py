"""The bill of materials, from the schematic, and the cost of 1 and of 20 pods.

    python hardware/tools/bom.py            # writes hardware/bom.csv and the cost table in hardware/README.md
    python hardware/tools/bom.py --check    # exit 1 if either is stale

bom.csv: one line per part number, the references, quantity, value,
footprint, manufacturer, part number and what it is for, all from the
schematic's fields (the schematic is the source: pcb/pod.kicad_sch).
The cost table adds what is not on the board (mechanical.csv: ring, OLED,
motor, sockets, screws, printed parts, the PCB order) and prices both with
prices.csv: estimates as of the date written there, not quotes.
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
    for (mfr, mpn, value, fp), refs in groups.items():
        refs.sort(key=_refkey)
        # "what it is: what it does here": one line says what it is, and what it does if all do the same
        descs = [comps[r].fields.get("Description", "") for r in refs]
        desc = descs[0] if len(set(descs)) == 1 else descs[0].split(": ")[0]
        rows.append({"refs": " ".join(refs), "qty": len(refs), "value": value, "footprint": fp, "manufacturer": mfr,
                     "mpn": mpn, "description": desc})
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
                          variant=ONLY.get(first, "all"), p1=p1, p20=p20, per_order=False))
    for m in _csv(HW / "mechanical.csv"):
        items.append(dict(item=m["item"], part=f"{m['manufacturer']} {m['part']}", qty=float(m["qty"]),
                          variant=m["variant"], p1=float(m["price_1"]), p20=float(m["price_20"]),
                          per_order=m["per_order"] == "yes"))
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
            twenty += 20 * it["qty"] * it["p20"]
    return one, twenty


def cost_table(items) -> str:
    def q(x):
        return f"{x:g}"

    lines = [BEGIN, "",
             f"Prices in USD, **estimates as of {PRICE_DATE}** (typical catalogue prices, not quotes; check before "
             f"ordering) / 가격은 {PRICE_DATE} 기준 **추정치**(USD)입니다.", "",
             "| Item / 품목 | Part | Per pod | Variant | 1 pod | 20 pods |", "|---|---|---|---|---|---|"]
    for it in items:
        one = it["p1"] if it["per_order"] else it["qty"] * it["p1"]
        twenty = it["p20"] if it["per_order"] else 20 * it["qty"] * it["p20"]
        lines.append(f"| {it['item']} | {it['part']} | {q(it['qty'])}{' (order)' if it['per_order'] else ''} | "
                     f"{it['variant']} | {one:.2f} | {twenty:.2f} |")
    for v, name in (("pico", "Pico, 12-pixel ring, no OLED"), ("pico2", "Pico 2, 16-pixel ring, OLED")):
        one, twenty = totals(items, v)
        lines.append(f"| **Total: {name}** | | | {v} | **{one:.2f}** | **{twenty:.2f}** ({twenty / 20:.2f} a pod) |")
    lines += ["", END]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    rows = bom_rows()
    text = bom_csv(rows)
    table = cost_table(cost_lines(rows))
    readme = README.read_text()
    if BEGIN not in readme or END not in readme:
        raise SystemExit(f"{README} has no cost table markers")
    new = readme[:readme.index(BEGIN)] + table + readme[readme.index(END) + len(END):]
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
