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
    assert sum(int(r["qty"]) for r in rows) == 38  # every part on the board but the 4 mounting holes
    refs = " ".join(r["refs"] for r in rows).split()
    assert len(refs) == len(set(refs))


def test_the_guide_states_the_price_date_and_estimates() -> None:
    text = (HW / "README.md").read_text()
    assert f"estimates as of {bom.PRICE_DATE}" in text and "추정치" in text
    one, twenty = bom.totals(bom.cost_lines(bom.bom_rows()), "pico")
    assert f"**{one:.2f}**" in text and f"**{twenty:.2f}**" in text
