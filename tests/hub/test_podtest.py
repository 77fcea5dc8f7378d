"""``lumen pod test`` (hub/pods/podtest.py) where no emulator is needed: a port with no pod
behind it, no pod plugged in, the terminal's y/n. The check against a real firmware is
tests/rp2/test_podtest.py (the emulated Pico)."""

from __future__ import annotations

import io
import os

import pytest

from hub.cli.main import main
from hub.pods import podtest


def test_a_pod_that_never_answers_names_the_port(tmp_path, capsys) -> None:
    # a serial port with nothing behind it that speaks: a pty no pod is on
    master, slave = os.openpty()
    try:
        code = main(["pod", "test", "--port", os.ttyname(slave), "--wait", "1"])
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert code == 2
    assert "no pod answered on /dev/pts/" in err and "lumen pod image" in err
    assert "응답이 없습니다" in err


def test_no_port_and_no_pod_plugged_in(monkeypatch, capsys) -> None:
    monkeypatch.setattr("hub.pods.ports.find_pod_ports", lambda: [])
    assert main(["pod", "test"]) == 2
    err = capsys.readouterr().err
    assert "no pod found" in err and "--port" in err


def test_a_port_that_does_not_exist(capsys) -> None:
    assert main(["pod", "test", "--port", "/dev/lumen-no-such-pod"]) == 2
    assert "/dev/lumen-no-such-pod" in capsys.readouterr().err


@pytest.mark.parametrize("answer, expected", [("y\n", True), ("n\n", False), ("maybe\nyes\n", True), ("", False)])
def test_the_console_reads_yes_or_no_while_the_link_runs(answer, expected) -> None:
    r, w = os.pipe()
    os.write(w, answer.encode())
    os.close(w)
    idles = []
    with os.fdopen(r) as stdin:
        c = podtest.Console(stdin=stdin, out=io.StringIO())
        assert c.ask("ring", "ring?", lambda: idles.append(1)) is expected


@pytest.mark.parametrize("h0, h1, pixels, first, reverse, status, words", [
    (12, 3, 12, 0, False, "PASS", []),
    (12, 3, 16, 5, True, "PASS", []),  # whatever the map says, 12 and 3 o'clock is right
    (3, 6, 12, 0, False, "FAIL", ["3 o'clock", '"first": 9', "counter-clockwise"]),  # turned a quarter
    (3, 6, 12, 3, False, "FAIL", ['"first": 0']),  # the map with "first": 3 on a ring fitted right
    (12, 9, 12, 0, False, "FAIL", ["the other way", '"reverse": true']),
    (12, 9, 12, 0, True, "FAIL", ['"reverse": false']),
    (3, 12, 12, 0, False, "FAIL", ['"first": 3, "reverse": true']),  # turned and reversed
    (3, 6, 16, 0, False, "FAIL", ['"first": 12']),  # a 16-pixel ring a quarter round: 4 pixels
    (1, 4, 16, 0, False, "FAIL", ["until pixel 0 sits at 12"]),  # between two pixels: turn it
    (12, 2, 12, 0, False, "FAIL", ["ring.pixels (12)"]),  # not a quarter apart
    (None, 3, 12, 0, False, "FAIL", ["not seen"]),
])
def test_the_orientation_verdict_says_what_to_set(h0, h1, pixels, first, reverse, status, words) -> None:
    v = podtest.orientation(h0, h1, pixels, first, reverse)
    assert v.status == status and v.part == "orientation", v
    for w in words:
        assert w in v.why, v.why
    if status == "FAIL":
        assert " / " in v.why  # Korean, then English


@pytest.mark.parametrize("answer, expected", [("12\n", 12), ("3시\n", 3), ("noon\n9\n", 9), ("0\n", None), ("", None)])
def test_the_console_reads_an_hour(answer, expected) -> None:
    r, w = os.pipe()
    os.write(w, answer.encode())
    os.close(w)
    with os.fdopen(r) as stdin:
        assert podtest.Console(stdin=stdin, out=io.StringIO()).where("mark_top", "where?", lambda: None) == expected
