"""``lumen hub --config FILE`` (issue 25): the ``[hub]`` table holds the long options, dashes
as underscores; flags override the file; a bad file names the file and the key. And
``lumen --version``."""

import pathlib
import subprocess
import sys
from importlib import metadata

import pytest

from hub.cli import hub_config
from hub.cli.main import build_parser, main
from tests.hub.hubproc import ROOT

PACKAGED = pathlib.Path(ROOT) / "hub" / "deploy" / "hub.toml"


def parse(*argv):
    return hub_config.reparse(build_parser, list(argv), argv[argv.index("--config") + 1])


def test_the_packaged_config_is_what_the_pi_service_ran_with_flags():
    args = parse("hub", "--config", str(PACKAGED))
    assert (args.db, args.host, args.port, args.resume) == ("/var/lib/lumen/games.sqlite3", "0.0.0.0", 8000, True)
    assert args.cards == "/var/lib/lumen/cards" and args.table == "table-1"
    assert args.serial is None and args.mode == "tracker" and args.durable is False


def test_every_key_of_the_contract_is_a_long_option_of_lumen_hub():
    hub = build_parser()._subparsers._group_actions[0].choices["hub"]
    dests = {a.dest for a in hub._actions if any(o.startswith("--") for o in a.option_strings)}
    assert set(hub_config.KEYS) <= dests


def test_flags_override_the_file(tmp_path):
    f = tmp_path / "hub.toml"
    f.write_text('[hub]\ndb = "/x.sqlite3"\nport = 8111\nserial = ["/dev/a", "/dev/b"]\nmode = "referee"\n'
                 'decks = ["serin", "serin"]\nlight_pixels = 24\nno_mdns = true\ntable = 12\n', encoding="utf-8")
    args = parse("hub", "--config", str(f))
    assert (args.db, args.port, args.serial, args.mode, args.decks) == ("/x.sqlite3", 8111, ["/dev/a", "/dev/b"],
                                                                        "referee", ["serin", "serin"])
    assert args.light_pixels == 24 and args.no_mdns is True and args.table == "12"
    args = parse("hub", "--config", str(f), "--port", "9000", "--serial", "/dev/c", "--mode", "tracker")
    assert (args.port, args.serial, args.mode, args.db) == (9000, ["/dev/c"], "tracker", "/x.sqlite3")


@pytest.mark.parametrize("text, named", [
    ('[hub]\nprot = 8000\n', "unknown key(s) in [hub]: prot"),
    ('[hub]\nport = "8000"\n', "[hub] port must be a whole number"),
    ('[hub]\nresume = "yes"\n', "[hub] resume must be true or false"),
    ('[hub]\nmode = "judge"\n', "[hub] mode must be one of referee, tracker"),
    ('[hub]\ndecks = ["serin"]\n', "[hub] decks must name two decks"),
    ('[hub]\nserial = "/dev/a"\n', "[hub] serial must be a list of strings"),
    ('[hubb]\nport = 1\n', "unknown table(s) hubb"),
    ('[hub\nport = 1\n', "is not valid TOML"),
    ('[hub]\ntoken = "secret"\n', "unknown key(s) in [hub]: token"),
])
def test_a_bad_file_is_refused_with_its_name_and_the_key(tmp_path, capsys, text, named):
    f = tmp_path / "hub.toml"
    f.write_text(text, encoding="utf-8")
    assert main(["hub", "--config", str(f), "--db", str(tmp_path / "g.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert str(f) in err and named in err
    assert not (tmp_path / "g.sqlite3").exists()        # the hub did not start on a half-read config


def test_a_missing_file_is_named(tmp_path, capsys):
    assert main(["hub", "--config", str(tmp_path / "none.toml")]) == 2
    assert "cannot read the config file %s" % (tmp_path / "none.toml") in capsys.readouterr().err


def test_version_prints_the_installed_distributions_version():
    out = subprocess.run([sys.executable, "-m", "hub.cli", "--version"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0 and out.stdout == "lumen %s\n" % metadata.version("lumen-condenser")
