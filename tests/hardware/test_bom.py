"""The BOM comes from the schematic, and the build guide's cost table from the BOM plus the parts off the
board: both as committed are what the generator makes now."""

from __future__ import annotations

import csv

import bom

from tests.hardware.conftest import HW


def test_bom_and_cost_table_are_current() -> None:
    assert bom.main(["--check"]) == 0, "run python hardware/tools/bom.py"


def test_every_bom_line_has_a_part_number_and_a_price() -> None:
    rows = list(csv.DictReader((HW / "bom.csv").open()))
    prices = {r["mpn"] for r in bom._csv(HW / "prices.csv")}
    assert rows and all(r["mpn"] and r["manufacturer"] for r in rows)
    assert {r["mpn"] for r in rows} <= prices
    assert sum(int(r["qty"]) for r in rows) == 41  # every part on the board but the 4 mounting holes
    refs = " ".join(r["refs"] for r in rows).split()
    assert len(refs) == len(set(refs))


def test_the_guide_states_the_price_date_and_estimates() -> None:
    text = (HW / "README.md").read_text()
    assert f"estimates as of {bom.PRICE_DATE}" in text and "추정치" in text
    one, twenty = bom.totals(bom.cost_lines(bom.bom_rows()), "pico")
    assert f"**{one:.2f}**" in text and f"**{twenty:.2f}**" in text


def test_the_bom_is_an_order_for_twenty_with_spares_and_distributor_numbers() -> None:
    # issue 33: per-pod quantities only, no spares, no distributor numbers
    rows = list(csv.DictReader((HW / "bom.csv").open()))
    for r in rows:
        assert int(r["qty_20"]) == 20 * int(r["qty"]) and int(r["spares"]) >= 1, r
        assert int(r["order_20"]) == int(r["qty_20"]) + int(r["spares"]), r
        assert r["distributor"] in ("Mouser", "Digi-Key") and r["distributor_pn"], r
    mech = bom._csv(HW / "mechanical.csv")
    assert all(m["distributor"] and m["distributor_pn"] for m in mech)
    oled = next(m for m in mech if m["item"].startswith("OLED"))
    assert "GND VCC SCL SDA" in oled["item"] and oled["manufacturer"] != "generic"  # a named module, its pin order
    assert any("header" in m["item"] and m["variant"] == "pico2" for m in mech)  # the Pico 2 comes without headers
    text = (HW / "README.md").read_text()
    assert bom.ORDER_BEGIN in text and "**Order**" in text


def test_each_esd_diode_says_which_line_it_guards() -> None:
    # issue 33: D1-D4 were all "the PREV line": one line per part number, so the description is the common one
    rows = list(csv.DictReader((HW / "bom.csv").open()))
    d = next(r for r in rows if r["refs"].startswith("D1"))
    assert "PREV" not in d["description"] and d["refs"] == "D1 D2 D3 D4"
