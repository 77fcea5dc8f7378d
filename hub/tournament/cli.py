"""``lumen tournament new|run|demo`` (also ``python3 -m hub.tournament ...``)."""

import argparse
import os
import signal
import sys
import threading

# the event's parts are imported by the commands that use them: ``lumen --help`` and every
# other command build this parser, and must not pay for the broker, the pairer or MQTT


def add_parser(sub):
    p = sub.add_parser("tournament", help="run a tournament: Swiss rounds over MQTT (docs/tournament.md)")
    build(p)
    return p


def build(p):
    s = p.add_subparsers(dest="tcmd", required=True)
    n = s.add_parser("new", help="create an event folder")
    n.add_argument("name", help="the event's name (its folder is events/NAME unless --dir)")
    n.add_argument("--players", required=True, help="a CSV with a name column, or one name a line")
    n.add_argument("--rounds", type=int, help="Swiss rounds (default: enough for one undefeated player)")
    n.add_argument("--profile", default="lumen", help="the game the tables play (lumen profiles list; default lumen)")
    n.add_argument("--round-minutes", type=int, default=None,
                   help="length of a round's clock (default: the profile's, 30 for Lumen Condenser)")
    n.add_argument("--best-of", type=int, choices=(1, 3, 5), default=None,
                   help="games per match (default: the profile's: 1, BattleCON's duel 3)")
    n.add_argument("--cut", type=int, choices=(0, 2, 4, 8, 16), default=0, help="single-elimination top cut")
    n.add_argument("--extra-turns", type=int, default=None,
                   help="turns played after time, after the turn in progress (default: the profile's: Lumen 3)")
    n.add_argument("--seed", type=int, help="pairing seed (default: random, stored in the record)")
    n.add_argument("--dir", help="the event folder (default: events/NAME)")
    r = s.add_parser("run", help="the TD service and its page (starts a local Mosquitto unless --broker)")
    r.add_argument("--dir", required=True, help="the event folder")
    r.add_argument("--broker", help="an existing broker, mqtt://host:port (the TD's password from the folder)")
    r.add_argument("--broker-port", type=int, help="port of the local broker (default: a free one)")
    r.add_argument("--broker-host", default="127.0.0.1", help="0.0.0.0 to let hubs on the network in")
    r.add_argument("--port", type=int, default=8100, help="the TD page")
    r.add_argument("--host", default="127.0.0.1", help="address of the TD page (0.0.0.0: other machines too)")
    r.add_argument("--no-web", action="store_true", help="run without the TD page")
    h = s.add_parser("tables", help="print the command each table's hub runs to join (with its password)")
    h.add_argument("--dir", required=True, help="the event folder")
    h.add_argument("--host", default="127.0.0.1", help="the TD machine's address as the hubs reach it")
    d = s.add_parser("demo", help="a whole demo event: broker, TD page and simulated tables")
    d.add_argument("--players", type=int, default=16, help="simulated players (default 16)")
    d.add_argument("--rounds", type=int, default=3, help="Swiss rounds (default 3)")
    d.add_argument("--cut", type=int, choices=(0, 4, 8), default=4, help="single-elimination top cut (default 4)")
    d.add_argument("--seed", type=int, default=1, help="seed of the pairings and the games (default 1)")
    d.add_argument("--port", type=int, default=8100, help="the TD page's port (default 8100)")
    d.add_argument("--pace", type=float, default=0.2, help="seconds between a table's decisions")
    d.add_argument("--round-minutes", type=int, default=3, help="length of a round's clock (default 3)")
    d.add_argument("--dir", help="event folder (default: a temporary one)")
    d.add_argument("--no-browser", action="store_true", help="do not open the TD page in a browser")
    d.add_argument("--exit", action="store_true", help="exit when the event is over")
    d.add_argument("--hold", type=float, default=15.0,
                   help="seconds the autopilot waits after a round's last result before pairing the next, and again "
                        "before starting it: results can be corrected until a round starts (default 15; the TD page counts down)")
    d.add_argument("--manual", action="store_true",
                   help="the autopilot never pairs or starts a round: the TD does, on the TD page (the tables still play)")
    return p


def run(args, out=print):
    from .broker import BrokerError
    from .eventdir import SetupError, load_players, new_event
    try:
        if args.tcmd == "new":
            players = load_players(args.players)
            folder = args.dir or os.path.join("events", args.name)
            creds = new_event(folder, args.name, players, rounds=args.rounds, round_minutes=args.round_minutes,
                              best_of=args.best_of, cut=args.cut, extra_turns=args.extra_turns, seed=args.seed,
                              profile=args.profile)
            out("event %s: %d players, folder %s" % (args.name, len(players), folder))
            out("tables 1-%d have broker passwords in %s/credentials.json"
                % (len([k for k in creds if k.startswith("table-")]), folder))
            out("next: lumen tournament run --dir %s" % folder)
            return 0
        if args.tcmd == "tables":
            return print_tables(args, out)
        if args.tcmd == "run":
            return run_td(args, out)
        if args.tcmd == "demo":
            from .demo import run_demo
            return run_demo(args, out)
    except (SetupError, BrokerError) as e:
        out("error: %s" % e)
        return 2
    return 2


def run_td(args, out=print, ready=None, stop=None):
    from .broker import BrokerError, LocalBroker, available, make_url, parse_url
    from .eventdir import load_credentials
    from .td import TD
    creds = load_credentials(args.dir)
    page = None
    if not getattr(args, "no_web", False):
        from .web import bind, serve
        page = bind(args.host, args.port, out)      # a busy port is said before the broker or the TD start
        if page is None:
            return 2
    broker = None
    try:
        if args.broker:
            host, port, _, _ = parse_url(args.broker)
        else:
            why = available()
            if why:
                raise BrokerError(why)
            broker = LocalBroker(os.path.join(args.dir, "broker"), {k: v for k, v in creds.items() if k != "admin_token"},
                                 port=args.broker_port or _saved_port(args.dir), host=args.broker_host)
            if broker.adopt():
                out("the event's broker is still running (pid %d): using it" % broker.adopted)
            else:
                broker.start()
            _save_port(args.dir, broker.port)
            host, port = "127.0.0.1", broker.port
        td = TD(os.path.join(args.dir, "event.sqlite"), make_url(host, port, "td", creds["td"])).start()
    except BaseException:
        if page is not None:
            page.close()
        raise
    out("TD %s: broker mqtt://%s:%d (pid %s)" % (td.name, host, port, broker.pid if broker else "external"))
    out("tables join with: LUMEN_BROKER_PASSWORD=PASSWORD lumen hub --broker mqtt://table-N@HOST:%d --event %s --table N "
        "(`lumen tournament tables --dir %s` prints each one)" % (port, _quote(td.name), args.dir))
    stop = stop or threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    server = None
    if page is not None:
        server = serve(td, creds["admin_token"], host=args.host, port=args.port, sock=page)
        out("TD page: http://%s:%d/  (admin token: \"admin_token\" in %s, 0600)"
            % (args.host, args.port, os.path.join(args.dir, "credentials.json")))
        from hub.system.logs import to_terminal
        to_terminal("admin token / 관리자 토큰: %s" % creds["admin_token"])     # never in the log (issue 39)
    if ready:
        ready(td, broker)
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    if server:
        server.should_exit = True
    td.stop()
    if broker:
        broker.stop()
    return 0


def print_tables(args, out=print):
    from .broker import make_url
    from .eventdir import SetupError, load_credentials
    from .record import EventRecord
    creds = load_credentials(args.dir)
    port = _saved_port(args.dir)
    if port is None:
        raise SetupError("the broker's port is chosen when `lumen tournament run` first starts: run it first")
    rec = EventRecord(os.path.join(args.dir, "event.sqlite"))
    name = rec.load()[0].name
    rec.close()
    tables = sorted(int(k.split("-")[1]) for k in creds if k.startswith("table-"))
    for n in tables:
        # the password in the environment, not the command line (ps shows that to everyone)
        out("LUMEN_BROKER_PASSWORD=%s lumen hub --broker %s --event %s --table %d"
            % (creds["table-%d" % n], make_url(args.host, port, "table-%d" % n), _quote(name), n))
    return 0


def _quote(s):
    return s if s.replace("-", "").replace("_", "").isalnum() else "'%s'" % s.replace("'", "'\\''")


def _saved_port(folder):
    try:
        with open(os.path.join(folder, "broker", "port")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def _save_port(folder, port):
    with open(os.path.join(folder, "broker", "port"), "w") as f:
        f.write(str(port))


def main(argv=None):
    p = argparse.ArgumentParser(prog="lumen tournament")
    build(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
