"""The ``lumen`` command line: the parser, and each command's handler loaded from its own
module (hub/cli/<command>.py) only when that command runs."""

import argparse
import gc
import importlib
import os
import sys

DEFAULT_DB = os.environ.get("LUMEN_DB", os.path.join(os.path.expanduser("~"), ".local", "share", "lumen", "games.sqlite3"))
CARDS_DIR = os.environ.get("LUMEN_CARDS", os.path.join(os.path.expanduser("~"), ".local", "share", "lumen", "cards"))


def _command(module, name, gc_off=False):
    """The handler ``<module>.<name>``, imported when the command runs. ``gc_off``: garbage
    collection off while it imports and starts (``lumen hub``, issue 26: the start builds
    hundreds of thousands of objects that live on, so the collections it triggers find next
    to nothing); the command turns it back on (hub/cli/hub.py, once the display serves)."""
    def run(args):
        if gc_off:
            gc.disable()
        return getattr(importlib.import_module(module), name)(args)
    return run


class _Version(argparse.Action):
    """``lumen --version``: the installed distribution's version (read only when asked)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib import metadata
        try:
            version = metadata.version("lumen-condenser")
        except metadata.PackageNotFoundError:     # run from a source tree that was never installed
            version = "unknown (not installed)"
        sys.stdout.write("lumen %s\n" % version)
        parser.exit()


class _Unbuilt:
    """A command's parser when another command runs: every call that would build it (add_argument,
    set_defaults, nested commands) does nothing. The command is still listed, with its help."""

    def __getattr__(self, name):
        return self._nothing

    def _nothing(self, *args, **kw):
        return self


class _Commands(argparse._SubParsersAction):
    """The commands, with the options of one (``only``) or of all (None) built (issue 36: each
    ``add_argument`` asks argparse's help formatter for the terminal's size; every command's
    ~150 options cost ``lumen hub`` 31 M instructions of its start, its own 16 M)."""

    only = None

    def add_parser(self, name, **kw):
        if self.only in (None, name):
            return super().add_parser(name, **kw)
        # another command: listed (its name a choice, its help in the list) as argparse lists it,
        # its parser never made (each one looks up three translated titles with gettext, which
        # searches the locale folders every time: ~0.6 M instructions a command)
        if "help" in kw:
            self._choices_actions.append(self._ChoicesPseudoAction(name, kw.get("aliases", ()), kw["help"]))
        self._name_parser_map[name] = unbuilt = _Unbuilt()
        return unbuilt


def build_parser(command=None):
    """The ``lumen`` parser; ``command``: build only that command's options (the others are
    listed, with their help). ``main`` passes the one on its command line."""
    ap = argparse.ArgumentParser(prog="lumen", description="루멘콘덴서 table companion / Lumen Condenser table companion")
    ap.add_argument("--version", action=_Version, help="print the installed version and exit")
    sub = ap.add_subparsers(dest="command", required=True, action=_Commands)
    sub.only = command

    sp = sub.add_parser("scenario", help="run rule-conformance scenario files (PASS/FAIL per file)")
    sp.add_argument("files", nargs="+", metavar="FILE", help="scenario files or directories (every .yaml, .yml, .json under them)")
    sp.add_argument("--json", action="store_true", help="print the full outcome of each scenario as JSON")
    sp.set_defaults(func=_command("hub.cli.scenario", "run"))

    cp = sub.add_parser("cards", help="card and deck files")
    csub = cp.add_subparsers(dest="cards_command", required=True)
    chk = csub.add_parser("check", help="validate card set / deck files; prints file:line errors")
    chk.add_argument("paths", nargs="+", metavar="PATH", help="card set or deck files, or folders of them")
    chk.set_defaults(func=_command("hub.cli.cards", "check"))

    pr = sub.add_parser("profiles", help="game profiles (BattleCON, 요정전승, the Gundam card game, Lumen Condenser's tracker)")
    prsub = pr.add_subparsers(dest="profiles_command", required=True)
    pchk = prsub.add_parser("check", help="validate profile files and profile card files; prints file:line errors")
    pchk.add_argument("paths", nargs="+", metavar="PATH", help="profile or card files, or folders of them")
    pchk.set_defaults(func=_command("hub.cli.profiles", "check"))
    prsub.add_parser("list", help="the bundled profiles and card sets").set_defaults(
        func=_command("hub.cli.profiles", "list_profiles"))
    prsub.add_parser("keys", help="the profile format's keys as JSON (type, default, meaning)").set_defaults(
        func=_command("hub.cli.profiles", "keys"))

    dp = sub.add_parser("demo", help="the whole table simulated on this machine: hub, two pods running the real "
                                     "firmware under MicroPython, and the display on localhost")
    dp.add_argument("--seed", type=int, default=1,
                    help="seed of the first game: the same seed and options deal the same game (--text, the engine "
                         "alone, plays its own game of that seed)")
    dp.add_argument("--lang", choices=("ko", "en"), default="ko", help="language of the printed game (default ko)")
    dp.add_argument("--games", type=int, default=None, help="games to play (default 1; with --bots --port and no "
                                                             "--games: keep playing until stopped)")
    dp.add_argument("--bots", action="store_true",
                    help="bots play both pods (as without --play); with --port and no --games they keep playing "
                         "games, serving the display, until stopped")
    dp.add_argument("--level", choices=("easy", "normal", "strong"), default=None,
                    help="how the bots play the pods (easy: greedy; normal and strong: the search player, its "
                         "thinking in its own process, the coach showing on the display what it thought after each "
                         "reveal); default strong with --bots or --play, else easy")
    dp.add_argument("--mode", choices=("referee", "tracker"), default="referee",
                    help="referee: the engine judges every battle; tracker: the health/FP tracker (default referee)")
    dp.add_argument("--port", type=int, default=None, help="serve the display on this port (default 8000)")
    dp.add_argument("--host", default="127.0.0.1",
                    help="display address (0.0.0.0: phones on the network can open it; default 127.0.0.1)")
    dp.add_argument("--no-serve", action="store_true", help="do not serve the display")
    dp.add_argument("--play", choices=("a", "b"), help="play this seat yourself from the terminal")
    dp.add_argument("--pace", type=float, default=None, help="seconds scale of the bots' button presses (0 = flat out)")
    dp.add_argument("--db", default=None, help="keep the game record in this SQLite file (default: a temporary one)")
    dp.add_argument("--round-minutes", type=float, default=None, metavar="MIN",
                    help="each game's round clock: at time the end-of-round procedure ends an undecided game "
                         "(ruling R-time; default 3 with bots on both pods, 30 when you play)")
    dp.add_argument("--quiet", action="store_true", help="print only each game's result (and a line every 25 turns "
                                                         "of a long game)")
    dp.add_argument("--text", action="store_true", help="engine only: no pods, no display (fast)")
    dp.set_defaults(func=_command("hub.cli.demo", "run"))

    hp = sub.add_parser("hub", help="run a table: real pods on serial ports (auto-detected), or no pods at all as a "
                                    "tracker on the display")
    hp.add_argument("--config", metavar="FILE", default=os.environ.get("LUMEN_CONFIG"),
                    help="read the settings from this TOML file's [hub] table (keys: these options' long names, "
                         "dashes as underscores); options given here win ($LUMEN_CONFIG)")
    hp.add_argument("--db", default=DEFAULT_DB, help="the game record (SQLite, append-only; default %(default)s, or $LUMEN_DB)")
    power = hp.add_mutually_exclusive_group()
    power.add_argument("--durable", action="store_true",
                       help="fsync every decision before it is shown (the default: a power cut loses nothing shown)")
    power.add_argument("--fast", action="store_true",
                       help="no fsync a decision (synchronous=NORMAL): survives any crash of the hub, but a power cut "
                            "may lose the last decisions shown; for a hub on a UPS or a desk, never an SD card on a "
                            "wall plug")
    hp.add_argument("--host", default="127.0.0.1", help="display address (0.0.0.0 for phones on the network; "
                                                        "default %(default)s)")
    hp.add_argument("--port", type=int, default=8000, help="display port (default %(default)s; a busy one is an error)")
    hp.add_argument("--serial", action="append", metavar="DEV", help="a pod's serial port (repeat); default: auto-detect")
    hp.add_argument("--mode", choices=("referee", "tracker", "profile"), default=None,
                    help="mode of new games (referee needs both decks; profile: another game, --profile; "
                         "default tracker, referee with --bot)")
    hp.add_argument("--profile", default="battlecon", metavar="ID",
                    help="profile mode: the game (lumen profiles list: battlecon, yojeong, gundam; default %(default)s)")
    hp.add_argument("--players", type=int, default=None, choices=(2, 4),
                    help="profile mode: the seats (4: 2 on 2 with four pods, where the profile allows it)")
    hp.add_argument("--profile-cards", default=None, metavar="FILE",
                    help="profile mode: the players' card data (lumen-profile-cards/1; default the bundled sample set); "
                         "--characters picks from it")
    hp.add_argument("--decks", nargs=2, metavar=("DECK_1P", "DECK_2P"), default=None,
                    help="referee mode: sample deck ids or deck files (default serin gangcheol)")
    hp.add_argument("--characters", nargs=2, metavar=("CHAR_1P", "CHAR_2P"), default=None,
                    help="tracker mode: the two characters (roster ids or Korean names, e.g. 니아 울프; "
                         "default: the generic character, changed on the display); profile mode: the card data's "
                         "characters (default: no card data, the players say who leads)")
    hp.add_argument("--resume", action="store_true",
                    help="resume the game this table was playing (the Pi service uses it); default: start a new game")
    hp.add_argument("--broker", metavar="URL", help="join a tournament: mqtt://table-N@host:port, the password from "
                                                    "--broker-password-file or $LUMEN_BROKER_PASSWORD (it is in the "
                                                    "event's credentials.json; mqtt://table-N:PASSWORD@host:port works "
                                                    "too, but shows the password in ps)")
    hp.add_argument("--broker-password-file", metavar="FILE", default=None,
                    help="the table's broker password, from this file's first line (or $LUMEN_BROKER_PASSWORD); "
                         "a password in the --broker URL shows in ps to every user of the machine")
    hp.add_argument("--event", metavar="NAME", help="the tournament's name (with --broker)")
    hp.add_argument("--cards", default=CARDS_DIR, metavar="DIR",
                    help="the card library: one folder per card set, edited at /cards (default %(default)s; $LUMEN_CARDS)")
    hp.add_argument("--table", default="table-1", help="this table's name (record, admin token file, lumen-<table>.local)")
    hp.add_argument("--token", default=None,
                    help="admin token for this run (or LUMEN_ADMIN_TOKEN); default: the one kept beside the record "
                         "(games.sqlite3 -> games.<table>.token, made once, mode 0600)")
    hp.add_argument("--rotate-token", action="store_true",
                    help="replace the kept admin token with a new one (old admin links stop working)")
    hp.add_argument("--no-mdns", action="store_true",
                    help="with --host 0.0.0.0: do not announce lumen-<table>.local on the network")
    hp.add_argument("--bot", choices=("a", "b"), default=None,
                    help="practice against the hub's bot: it plays this seat (1P = a, 2P = b) in referee games, "
                         "one person plays the other seat on a pod; new games from the admin page offer it too")
    hp.add_argument("--level", choices=("easy", "normal", "strong"), default="strong",
                    help="the bot's level (easy: greedy; normal and strong search; default strong)")
    hp.add_argument("--think-seconds", type=float, default=None, metavar="S",
                    help="the bot's thinking budget a decision, in seconds of a Pi Zero 2 W core (an estimate, "
                         "turned into instructions); default: the level's (strong: ~0.9 s)")
    hp.add_argument("--coach", choices=("on", "off"), default=None,
                    help="the coach: after each reveal the display shows what the search thought of each ready "
                         "(default: on in games against the bot, off otherwise and always in tournaments)")
    hp.add_argument("--light", default=None, metavar="PIN", help="NeoPixel status light on this Blinka pin (e.g. D18)")
    hp.add_argument("--light-pixels", type=int, default=16, help="pixels on the status light's ring (default 16)")
    hp.set_defaults(func=_command("hub.cli.hub", "run_hub", gc_off=True))
    ap.hub_parser = hp            # for --config (main)

    from hub.tournament.cli import add_parser as tournament_parser
    tournament_parser(sub).set_defaults(func=_command("hub.tournament.cli", "run"))

    gp = sub.add_parser("games", help="recent games in a game record")
    gp.add_argument("--db", default=DEFAULT_DB, help="the game record (default %(default)s)")
    gp.add_argument("--limit", type=int, default=10, help="how many games (default 10)")
    gp.set_defaults(func=_command("hub.cli.games", "games"))

    dr = sub.add_parser("doctor", help="check a game record (SQLite integrity, every game readable); --salvage copies "
                                       "the readable games into a new record")
    dr.add_argument("--db", default=DEFAULT_DB, help="the game record to check (default %(default)s)")
    dr.add_argument("--salvage", metavar="NEW_DB", default=None, help="write the readable games to this new file")
    dr.add_argument("--cards", default=CARDS_DIR, metavar="DIR",
                    help="the card library a damaged card table may be rebuilt from (default %(default)s)")
    dr.set_defaults(func=_command("hub.record.doctor", "main"))

    ep = sub.add_parser("export", help="export a match as JSON")
    ep.add_argument("game", type=int, help="the game's number (as lumen games lists it)")
    ep.add_argument("--db", default=DEFAULT_DB, help="the game record (default %(default)s)")
    ep.add_argument("-o", "--out", default="-", help="write the JSON to this file (default: print it)")
    ep.set_defaults(func=_command("hub.cli.games", "export"))

    rp = sub.add_parser("replay", help="replay an exported match through the engine and check its result")
    rp.add_argument("file", help="a match export (lumen export ID -o FILE)")
    rp.add_argument("--lang", choices=("ko", "en"), default="ko", help="language of the replayed log (default ko)")
    rp.add_argument("--quiet", action="store_true", help="print only whether the replay matches")
    rp.set_defaults(func=_command("hub.cli.games", "replay"))

    pp = sub.add_parser("pod", help="pod tools")
    psub = pp.add_subparsers(dest="pod_command", required=True)
    fl = psub.add_parser("flash", help="copy the firmware to a pod with mpremote", add_help=False)
    fl.add_argument("rest", nargs=argparse.REMAINDER, help="options of the flash tool (lumen pod flash --help)")
    fl.set_defaults(func=_command("hub.cli.pod", "flash"))
    im = psub.add_parser("image", help="build one UF2 (MicroPython + the pod firmware + the pin map) to drag "
                                       "onto a board in BOOTSEL mode")
    im.add_argument("--board", choices=("pico", "pico2"), default="pico", help="Pico (RP2040) or Pico 2 (RP2350)")
    im.add_argument("--micropython", metavar="FILE", help="MicroPython's release for the board (.uf2 from "
                    "micropython.org, or a raw .bin); default $LUMEN_MICROPYTHON or RPI_PICO[2]-*.uf2 here or "
                    "in ~/Downloads")
    im.add_argument("--pinmap", metavar="FILE", help="pin map to put on the pod (default hardware/pinmaps/BOARD.json)")
    im.add_argument("-o", "--out", required=True, metavar="FILE", help="the UF2 to write (e.g. pod.uf2)")
    im.add_argument("--drives", action="store_true", help="then copy it onto every board waiting in BOOTSEL mode "
                    "(each RPI-RP2 / RP2350 drive mounted now): twenty pods, a hub's worth at a time")
    im.set_defaults(func=_command("hub.cli.pod", "image"))
    pt = psub.add_parser("test", help="the builder's check of a flashed pod: runs its self-test and prints "
                                      "PASS/FAIL per part (buttons, ring, piezo, motor, OLED) / 포드 점검")
    pt.add_argument("--port", metavar="DEV", help="the pod's serial port (default: the one pod plugged in)")
    pt.add_argument("--board", choices=("pico", "pico2"), default="pico",
                    help="the pin map the hints name GPIOs from (default pico)")
    pt.add_argument("--pinmap", metavar="FILE", help="the pin map on the pod, when it is not the board's own: its "
                    "GPIOs in the hints, its first/reverse in what to set for a turned ring")
    pt.add_argument("--wait", type=float, default=8.0, metavar="S", help="seconds to wait for the pod's hello (default 8)")
    pt.add_argument("--press-wait", type=float, default=30.0, metavar="S",
                    help="seconds to wait for each button press (default 30)")
    pt.add_argument("--all", action="store_true", help="every pod plugged in, one after another (a store's twenty): "
                    "a line each in the CSV sheet (--csv)")
    pt.add_argument("--csv", metavar="FILE", help="append each pod's board id and PASS/FAIL per part to this CSV "
                    "(default with --all: pod-test.csv)")
    pt.set_defaults(func=_command("hub.cli.pod", "test"))
    return ap


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:2] == ["pod", "flash"]:
        # the flash tool parses its own options (--port, --help, ...)
        from hub.pods.flash import main as flash_main
        return flash_main(argv[2:])
    from hub.system import logs
    logs.setup()
    parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else None)
    args = parser.parse_args(argv)
    if getattr(args, "config", None) and args.command == "hub":
        from hub.system import config
        try:
            config.apply(parser.hub_parser, args, argv[argv.index("hub") + 1:], args.config)
        except config.ConfigError as e:
            print("lumen hub: %s" % e, file=sys.stderr)
            return 2
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
