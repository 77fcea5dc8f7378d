"""Pin maps (issue 33): the rules are firmware/pinmap.py, one file for the pod (it checks its
/pinmap.json at power-up) and the hub (``lumen pod image`` and ``lumen pod flash`` check a map
before it goes on). Every map of tests/vectors/pinmaps.json's "bad" list is refused by both
commands with exit 2 and a message naming the key at fault, and nothing is written or copied;
the "good" ones pass. The same list under MicroPython: tests/firmware/mp/mp_pinmap.py; a refused
map on the emulated Pico: tests/rp2/test_pinmap_refused.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from firmware import pinmap as rules
from hub.cli.main import main
from hub.pods import flash as podflash
from hub.pods import uf2
from tests.firmware.test_podflash import fake_mpremote  # noqa: F401  (a fixture)
from tests.hub.test_pod_image import fake_micropython

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "tests" / "vectors" / "pinmaps.json").read_text())
BAD = VECTORS["bad"]
GOOD = VECTORS["good"]
CHIP = {"pico": ("1.24.1", "Raspberry Pi Pico with RP2040", uf2.RP2040),
        "pico2": ("1.24.1", "Raspberry Pi Pico2 with RP2350", uf2.RP2350_ARM_S)}


def test_there_are_sixteen_or_more_bad_maps_each_naming_a_key() -> None:
    assert len(BAD) >= 16 and len({c["name"] for c in BAD}) == len(BAD)


@pytest.mark.parametrize("case", BAD, ids=[c["name"] for c in BAD])
def test_the_rules_refuse_a_bad_map_naming_its_key(case) -> None:
    pm, errors = rules.parse(case["text"], case["board"])
    assert case["key"] in [k for k, _ in errors], errors


@pytest.mark.parametrize("case", GOOD, ids=[c["name"] for c in GOOD])
def test_the_rules_take_a_good_map(case) -> None:
    assert rules.parse(case["text"], case["board"])[1] == []


def test_the_shipped_maps_pass_for_their_own_board_only() -> None:
    for b in rules.BOARDS:
        text = (ROOT / "hardware" / "pinmaps" / f"{b}.json").read_text()
        assert rules.parse(text, b)[1] == []
        other = "pico2" if b == "pico" else "pico"
        assert [k for k, _ in rules.parse(text, other)[1]] == ["board"]


def _named(err: str, key: str) -> bool:
    return (f"{key}: " in err) if key else ("not valid JSON" in err or "not a JSON object" in err)


@pytest.mark.parametrize("case", BAD, ids=[c["name"] for c in BAD])
def test_lumen_pod_image_refuses_a_bad_map(case, tmp_path, capsys) -> None:
    mp = fake_micropython(tmp_path, *CHIP[case["board"]])
    pm = tmp_path / "map.json"
    pm.write_text(case["text"])
    out = tmp_path / "pod.uf2"
    rc = main(["pod", "image", "--board", case["board"], "--micropython", str(mp), "--pinmap", str(pm), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and not out.exists(), err
    assert "pin map refused" in err and "핀 맵 거부" in err and _named(err, case["key"]), err
    assert "Traceback" not in err


@pytest.mark.parametrize("case", BAD, ids=[c["name"] for c in BAD])
def test_lumen_pod_flash_refuses_a_bad_map_before_it_touches_the_pod(case, tmp_path, fake_mpremote, capsys) -> None:  # noqa: F811
    pm = tmp_path / "map.json"
    pm.write_text(case["text"])
    master, slave = os.openpty()
    try:
        rc = podflash.main(["--port", os.ttyname(slave), "--board", str(pm), "--source"])
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    if case["key"] == "board":  # the map is fine on its own: refused once the pod names its chip (an RP2040)
        assert rc == 2 and "this map is for a pico2, not for a pico" in err, err
    else:
        assert rc == 2 and _named(err, case["key"]), err
    assert not fake_mpremote.exists()  # nothing was copied


def test_lumen_pod_flash_refuses_a_pico_map_on_a_pico_2(tmp_path, fake_mpremote, monkeypatch, capsys) -> None:  # noqa: F811
    monkeypatch.setenv("FAKE_MP_REPLY", "LUMEN 1 24 1 6 Raspberry_Pi_Pico2_with_RP2350")
    pm = tmp_path / "map.json"
    pm.write_text((ROOT / "hardware" / "pinmaps" / "pico.json").read_text())
    master, slave = os.openpty()
    try:
        rc = podflash.main(["--port", os.ttyname(slave), "--board", str(pm), "--source"])
    finally:
        os.close(master)
        os.close(slave)
    assert rc == 2 and "board: this map is for a pico, not for a pico2" in capsys.readouterr().err
    assert not fake_mpremote.exists()
