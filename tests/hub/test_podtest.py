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
