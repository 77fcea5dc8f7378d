"""The Pi package's /etc/lumen/hub.toml (hub/deploy/hub.toml) is what the service ran with as
flags before (read by hub/system/config.py, tested in test_config.py), and ``lumen --version``
prints the installed distribution's version (issue 25)."""

import pathlib
import subprocess
import sys
from importlib import metadata

from hub.cli.main import build_parser
from hub.system import config
from tests.hub.hubproc import ROOT

PACKAGED = pathlib.Path(ROOT) / "hub" / "deploy" / "hub.toml"


def test_the_packaged_config_is_what_the_pi_service_ran_with_flags():
    ap = build_parser()
    args = config.apply(ap.hub_parser, ap.parse_args(["hub"]), [], str(PACKAGED))
    assert (args.db, args.host, args.port, args.resume) == ("/var/lib/lumen/games.sqlite3", "0.0.0.0", 8000, True)
    assert args.cards == "/var/lib/lumen/cards" and args.table == "table-1"
    # no mode: tracker, or referee when the file seats the bot (hub/cli/hub.py); durable unless fast
    assert args.serial is None and args.mode is None and args.fast is False


def test_every_commented_setting_of_the_packaged_config_is_a_setting_too(tmp_path):
    """Uncommenting any example line of /etc/lumen/hub.toml gives a file the hub reads."""
    lines = PACKAGED.read_text(encoding="utf-8").splitlines()
    examples = [line[1:] for line in lines if line.startswith("#") and " = " in line and not line.startswith("# ")]
    assert len(examples) >= 8
    f = tmp_path / "hub.toml"
    f.write_text("[hub]\n" + "\n".join(examples) + "\n", encoding="utf-8")
    ap = build_parser()
    args = config.apply(ap.hub_parser, ap.parse_args(["hub"]), [], str(f))
    assert args.fast is True and args.light == "D18" and args.no_mdns is True and len(args.serial) == 2


def test_version_prints_the_installed_distributions_version():
    out = subprocess.run([sys.executable, "-m", "hub.cli", "--version"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 0 and out.stdout == "lumen %s\n" % metadata.version("lumen-condenser")
