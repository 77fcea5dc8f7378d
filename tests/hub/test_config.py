"""``lumen hub --config FILE`` (issue 25): the settings the service's ExecStart line used to
carry, from a TOML ``[hub]`` table; a flag on the command line wins; a bad file is refused
naming the file, the key and what was wrong."""

import os
import subprocess
import sys

import pytest

from hub.cli.main import build_parser
from hub.system import config
from tests.hub.hubproc import ROOT, HubProcess, free_port


def parse(argv, text, tmp_path):
    path = tmp_path / "hub.toml"
    path.write_text(text, encoding="utf-8")
    ap = build_parser()
    args = ap.parse_args(["hub", *argv])
    return config.apply(ap.hub_parser, args, argv, str(path))


def test_the_file_sets_what_the_command_line_does_not(tmp_path):
    args = parse(["--port", "9001"], '[hub]\nport = 8123\nhost = "0.0.0.0"\nresume = true\n'
                                     'serial = ["/dev/ttyACM0", "/dev/ttyACM1"]\ndecks = ["serin", "gangcheol"]\n'
                                     'mode = "referee"\n', tmp_path)
    assert args.port == 9001                       # the flag wins
    assert args.host == "0.0.0.0" and args.resume is True and args.mode == "referee"
    assert args.serial == ["/dev/ttyACM0", "/dev/ttyACM1"] and args.decks == ["serin", "gangcheol"]


@pytest.mark.parametrize("text, says", [
    ('[hub]\nprot = 8000\n', "unknown setting 'prot'"),
    ('[hub]\nport = "8000"\n', "port must be a whole number"),
    ('[hub]\nresume = "yes"\n', "resume must be true or false"),
    ('[hub]\nmode = "arcade"\n', "mode must be one of referee, tracker"),
    ('[hub]\ndecks = ["serin"]\n', "decks must list exactly 2"),
    ('[hub]\nserial = "/dev/ttyACM0"\n', "serial must be a list"),
    ('[pods]\nx = 1\n', "unknown table(s) pods"),
    ('[hub\nport = 1\n', "not a TOML file"),
])
def test_a_bad_file_is_refused_naming_the_key(tmp_path, text, says):
    with pytest.raises(config.ConfigError, match=r"hub\.toml.*" + __import__("re").escape(says)):
        parse([], text, tmp_path)


def test_a_real_hub_starts_from_its_config_file(tmp_path):
    port = free_port()
    cfg = tmp_path / "hub.toml"
    cfg.write_text('[hub]\ndb = "%s"\nport = %d\nno_mdns = true\n' % (tmp_path / "rec" / "games.sqlite3", port),
                   encoding="utf-8")
    h = HubProcess.__new__(HubProcess)          # started here with no --db/--port: the file gives both
    h.db, h.port, h.url = None, port, "http://127.0.0.1:%d" % port
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("LUMEN_ADMIN_TOKEN", None)
    h.proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--config", str(cfg)], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        h.wait_up()
        assert h.get("/api/state")["table"] == "table-1"
        assert (tmp_path / "rec" / "games.sqlite3").exists()
    finally:
        h.stop()


def test_a_bad_config_stops_the_hub_before_it_starts(tmp_path):
    cfg = tmp_path / "hub.toml"
    cfg.write_text('[hub]\nport = "x"\n', encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "hub.cli", "hub", "--config", str(cfg)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "port must be a whole number" in p.stderr
