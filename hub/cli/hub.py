"""``lumen hub``: the hub at a real table.

Opens the game record, resumes the table's current game (``--resume``) or starts one,
serves the display, and runs the pods' serial links (auto-detected, rescanned when a
pod is unplugged) and the optional status light, all on one asyncio loop. A game never
ends into a new one by itself: a new game is a judge's action on the display.
"""

from engine import josa
import asyncio
import gc
import os

from engine.cards import load_deck, load_sample
from engine import CardError

from hub.pods.pod_hub import PodHub
from hub.sessions.base import SessionError
from hub.light.statuslight import StatusLight, open_strip
from hub.record.lock import RecordLock
from hub.record.startup import clear_the_path, open_record, report_damaged, salvage, start_afresh, whole_check
from hub.record.store import StoreError
from hub.record.token import TokenKeeper, new_token, token_path
from hub.sessions.table import Table
from hub.system.watchdog import systemd_notifier


def _deck(ref):
    if os.path.isfile(ref):
        deck, problems = load_deck(ref)
        if deck is None:
            raise CardError(problems)
        return deck
    _, decks = load_sample()
    if ref not in decks:
        raise SessionError("unknown deck %r: give a deck file or one of %s" % (ref, ", ".join(sorted(decks))))
    return decks[ref]


def _profile_cards(args):
    path = getattr(args, "profile_cards", None)
    if not path:
        return None
    from hub.profiles import cards
    return cards.load(path)


#: what a new game of each mode is played with, from the command line: decks (sample deck
#: ids or files), roster characters, or a profile's card-data characters; None: the mode's default
SIDES = {"referee": lambda args: tuple(map(_deck, args.decks or ("serin", "gangcheol"))),
         "tracker": lambda args: tuple(args.characters or (None, None)),
         "profile": lambda args: tuple(args.characters or (None, None))}
#: and the rest of it: a profile game's profile, seats and card data
OPTIONS = {"profile": lambda args: {"profile": args.profile, "players": args.players, "card_set": _profile_cards(args)}}


def practice(args):
    """The start meta of this hub's new games: the bot's seat and level (``--bot``), the coached
    seats (``--coach``: on by default against the bot; never by default in a tournament)."""
    from hub.bot.meta import practice_meta
    bot = getattr(args, "bot", None)
    coach = getattr(args, "coach", None)
    if coach is None:
        coach = "on" if bot and not getattr(args, "broker", None) else "off"
    return practice_meta(bot, getattr(args, "level", "strong"), ("a", "b") if coach == "on" else None)


def new_game(table, args, profile=None):
    """The game a starting hub opens by itself (listed once something is entered in it).
    ``profile``: a tournament room's game profile, which wins over ``--mode``."""
    if profile is not None and profile != "lumen":
        return table.start("profile", profile=profile, players=2, auto=True)
    options = OPTIONS.get(args.mode)
    extra = dict(options(args)) if options else {}
    meta = practice(args)
    if meta:
        extra["meta"] = meta
    return table.start(args.mode, *SIDES[args.mode](args), auto=True, **extra)


def _first_game(table, args, out):
    """Resume the table's game (``--resume``) or open a new one: the line that says which."""
    if args.resume and _resume(table, out) is not None:
        g = table.session
        return josa("게임 #%d을(를) 이어서 진행합니다 / resuming game #%d (%s)" % (g.game_id, g.game_id, g.mode))
    new_game(table, args)
    return "새 게임 #%d (%s)" % (table.session.game_id, table.session.mode)


#: what a start fails with when the command line is wrong (an unknown deck, a bad deck file):
#: said and the hub exits; anything else a start fails with is the record's (issue 39)
USER_ERRORS = (SessionError, CardError)


def start_table(store, args, out, lock, durable, tokens):
    """The table's game resumed or opened on ``store`` (opened with ``check=False``). If
    anything of that fails or reports a problem, the whole file is checked at once and,
    failing, salvaged, and the start made again on the salvaged record, as a checked start
    did (issue 28.12). A start that still fails for the record's sake (a row that does not
    read, whatever SQLite's check says: issue 39) is made on the file salvaged, then on a new
    one, the old kept whole. Returns (store, table, the line to say); raises what a start
    on a sound file raises for a wrong command line (the store closed)."""
    said, trouble, failed = [], [], None
    try:
        table = Table(store, name=args.table, tokens=tokens)
        said.append(_first_game(table, args, trouble.append))
    except Exception as e:
        failed = e
    if failed is None and not trouble:
        return store, table, said[0]
    why = whole_check(store)
    if why is None and (failed is None or isinstance(failed, USER_ERRORS)):
        for line in trouble:
            out(line)
        if failed is not None:
            store.close()
            raise failed
        return store, table, said[0]
    store = salvage(args.db, durable, out, why or "%s: %s" % (type(failed).__name__, failed), store, lock, args.cards)
    try:
        table = Table(store, name=args.table, tokens=tokens)
        return store, table, _first_game(table, args, out)
    except USER_ERRORS:
        store.close()
        raise
    except Exception as e:
        store = start_afresh(args.db, durable, out, "%s: %s" % (type(e).__name__, e), store, lock)
    try:
        table = Table(store, name=args.table, tokens=tokens)
        return store, table, _first_game(table, args, out)
    except BaseException:
        store.close()
        raise


def record_check(table, args, out, lock, durable, pods):
    """A ``tasks`` entry: once the display serves, the whole record is checked in a thread
    (hub/record/check.py); damaged games are reported, and a file that fails the check is
    salvaged at once on the table's loop (the pods' lock held: nothing is applied meanwhile)
    and the table's game resumed from the salvaged record."""
    from hub.record import check

    async def run(display):
        await display.serving()
        problems, damaged = await asyncio.to_thread(check.check_file, args.db)
        report_damaged(damaged, out)
        if not problems:
            out("기록 확인: 이상 없음 / the record's check: sound")
            return
        with pods.lock:
            gid = table.session.game_id if table.session is not None else None
            table.store = salvage(args.db, durable, out, "; ".join(problems), table.store, lock, args.cards)
            table.session = None
            try:
                if gid is not None and table.store.game(gid) is not None:
                    table.resume(gid)
                else:
                    new_game(table, args)
            except Exception as e:
                out("게임을 이어갈 수 없습니다 / the game can't go on after the salvage: %s" % e)
                new_game(table, args)
            out("게임 #%d (%s), 살린 기록에서 / game #%d (%s), on the salvaged record"
                % (table.session.game_id, table.session.mode, table.session.game_id, table.session.mode))
    return run


async def collect_once_serving(display):
    """A ``tasks`` entry: garbage collection back on once the display serves (``lumen hub``
    starts with it off: hub/cli/main.py), what the start built moved out of its reach
    (``gc.freeze``: the modules, routes and card tables live as long as the hub, and a full
    collection during play would walk them all again)."""
    await display.serving()
    gc.freeze()
    gc.enable()


def _resume(table, out):
    """Resume the game that was on the table (else the newest unfinished one) if it replays;
    a game damaged past what the store can see is reported, and the next one tried."""
    def attempt(fn, gid):
        try:
            return fn()
        except Exception as e:        # the replay says what is wrong; the hub keeps serving
            out(josa("게임 #%s을(를) 이어갈 수 없습니다 / game #%s can't be resumed: %s" % (gid, gid, e)))
            return None
    current = attempt(lambda: table.store.current_game(table.name), "?")
    s = attempt(table.resume_current, current)
    if s is not None:
        return s
    for g in table.store.games(limit=50, table_name=table.name):
        if g["status"] == "in_progress" and g["id"] != current:
            s = attempt(lambda: table.resume(g["id"]), g["id"])
            if s is not None:
                return s
    return None


def run_hub(args, out=None):
    """``lumen hub``: ``out(text)`` is what it tells its user (default: the ``lumen.hub``
    logger's info lines, hub/system/logs.py)."""
    if out is None:
        from hub.system.logs import say
        out = say("lumen.hub")
    if str(args.table).isdigit():      # --table 12 is table-12 (a tournament's table number)
        args.table = "table-%s" % args.table
    if getattr(args, "broker", None) and (not getattr(args, "event", None) or not args.table.rsplit("-", 1)[-1].isdigit()):
        out("--broker needs --event NAME and --table N (a table number)")
        return 2
    if getattr(args, "mode", None) is None:
        args.mode = "referee" if getattr(args, "bot", None) else "tracker"
    if getattr(args, "bot", None):
        if getattr(args, "broker", None):
            out("--bot is for practice: a tournament table seats two players (leave out --bot or --broker)")
            return 2
        from hub.sessions.table import SESSIONS
        if SESSIONS[args.mode].takes_actions:       # the players enter results: no engine for a bot to play
            out("--bot plays referee games (the engine must know the cards): leave out --mode tracker")
            return 2
    from hub.web import server as web
    try:
        # the port first (issue 34.6): a busy one is said before the record is touched, a game
        # started or any address or token shown (they would lead to whatever holds the port)
        sock = web.listen_socket(args.host, args.port)
    except web.PortBusy as e:
        out("%s%s" % (e.strerror, " (다른 lumen hub 또는 서비스? --port 로 다른 포트를 고르세요 / another lumen hub or "
                                  "the service? choose another with --port)" if e.busy else ""))
        return 2
    lock = RecordLock(args.db)
    durable = not getattr(args, "fast", False)
    try:
        clear_the_path(args.db, out)
        lock.acquire()
        store = open_record(args.db, durable, out, lock=lock, cards=args.cards, check=False)
    except StoreError as e:          # another hub holds the record, or it can't be written
        out(str(e))
        lock.release()
        sock.close()
        return 2
    tokens = TokenKeeper(token_path(args.db, args.table), override=args.token)
    if getattr(args, "rotate_token", False):
        tokens.change(new_token())
        out("새 관리자 토큰을 만들었습니다 / a new admin token was made (the old one no longer works)")
    try:
        store, table, said = start_table(store, args, out, lock, durable, tokens)
    except (SessionError, CardError, StoreError) as e:
        out("게임을 시작할 수 없습니다 / cannot start a game: %s" % e)
        lock.release()
        sock.close()
        return 2
    out(said)
    hub = PodHub(table, mode=args.mode, out=out)
    bot, coach = _bot_and_coach(table, args)
    light = None
    if args.light:
        light = StatusLight(open_strip(args.light_pixels, args.light))
        table.subscribe(light.on_message)

    async def pods(_display):
        await hub.run(serial_devices=args.serial or None)

    async def upkeep(_display):
        # the status light's countdown: redrawn every 0.1 s while a 10-second deadline runs,
        # asleep until the table changes otherwise (an idle table does no work here)
        changed = asyncio.Event()
        loop = asyncio.get_running_loop()
        table.subscribe_changes(lambda change: loop.call_soon_threadsafe(changed.set))
        while True:
            changed.clear()
            s = table.session
            counting = False
            for seat, r in (s.ready_status().items() if s is not None else ()):
                if r["ms_left"] is not None:
                    light.countdown(seat, r["ms_left"])
                    counting = True
            if counting:
                await asyncio.sleep(0.1)
            else:
                await changed.wait()

    bridge, routers = None, ()
    if getattr(args, "broker", None):
        bridge, routers = _join_event(table, args, out)

    if bridge:
        hub.side = bridge            # the pods ask their players to confirm the result

    async def tournament(_display):
        while True:
            await asyncio.sleep(0.1)
            bridge.tick()            # never raises (issue 28.3): a failed tick is logged and tried again
            with hub.lock:           # a new result slip (or a confirmation) shows on the pods
                hub.push("a")
                hub.push("b")
            if hub.links.running:
                hub.links.wake()

    # systemd (Type=notify, WatchdogSec=): ready once the display serves, pinged while the loop and the links run
    notifier = systemd_notifier(args.host, args.port, alive=lambda: hub.links.running)
    checker = record_check(table, args, out, lock, durable, hub)
    tasks = ((collect_once_serving, pods, notifier, checker, bot.run, coach.run) + ((upkeep,) if light is not None else ())
             + ((tournament,) if bridge else ()))
    try:
        web.serve(table, host=args.host, port=args.port, tasks=tasks, out=out, routers=routers,
                  mdns=not args.no_mdns, library=lambda: _library(args.cards), sock=sock)
    finally:
        if bridge:
            bridge.link.stop()
        table.store.close()         # the salvaged record's, if the check made one
        lock.release()
    return 0


def _library(root):
    """The card library at ``root`` (--cards), made when the editor's routes are first declared."""
    from hub.library.sets import CardLibrary
    return CardLibrary(root)


def _bot_and_coach(table, args):
    """The table's bot player and coach (hub/bot): idle, and no thinking process started,
    until a game on the table seats the bot or is coached."""
    from hub.bot.coach import Coach
    from hub.bot.seat import BotSeat
    from hub.bot.worker import JOB_S, ThinkWorker
    from engine.bots import instructions_for
    seconds = getattr(args, "think_seconds", None)
    budget = instructions_for(seconds) if seconds else None
    # a job's deadline (issue 39: a process past it is restarted) well past what it is given to think
    job_s = max(JOB_S, 3 * seconds) if seconds else JOB_S
    coach = Coach(table, budget=budget, worker=ThinkWorker(name="lumen-coach", job_s=job_s))
    bot = BotSeat(table, budget=budget, coach=coach, worker=ThinkWorker(name="lumen-bot", job_s=job_s),
                  defaults={"seat": getattr(args, "bot", None) or "b", "level": getattr(args, "level", "strong"),
                            "coach": getattr(args, "coach", None) != "off"})
    return bot, coach


def broker_url(args, out):
    """The broker's address with the table's password (issue 28.13): from
    ``--broker-password-file`` or ``$LUMEN_BROKER_PASSWORD``, never needed on the command line,
    where every user of the machine reads it with ps."""
    from hub.tournament.broker import make_url, parse_url
    host, port, user, password = parse_url(args.broker)
    if password:
        out("경고: 브로커 비밀번호가 명령줄에 있어 ps로 보입니다 / warning: the broker password is on the command line, "
            "where ps shows it: use --broker-password-file or LUMEN_BROKER_PASSWORD")
        return args.broker
    path = getattr(args, "broker_password_file", None)
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                password = f.readline().strip()
        except OSError as e:
            raise SystemExit("lumen hub: cannot read the broker password file %s: %s" % (path, e.strerror or e))
    else:
        password = os.environ.get("LUMEN_BROKER_PASSWORD", "").strip()
    if not password:
        out("브로커 비밀번호가 없습니다 / no broker password: give --broker-password-file FILE or LUMEN_BROKER_PASSWORD")
    return make_url(host, port, user, password or None)


def _join_event(table, args, out):
    """``--broker URL --event NAME``: this table joins a tournament (hub/tournament/)."""
    from hub.tournament.bridge import Bridge
    from hub.tournament.hubroutes import router
    from hub.tournament.tablelink import TableLink
    number = int(table.name.rsplit("-", 1)[-1])
    outbox = os.path.splitext(os.path.abspath(args.db))[0] + ".%s.outbox.sqlite3" % args.event
    link = TableLink(broker_url(args, out), args.event, number, outbox).start()
    # the room names the game its tables play (a profile): each match game is one of it
    bridge = Bridge(table, link, lambda t, match, game_no: new_game(t, args, profile=(link.room or {}).get("profile")))
    out("대회 %s 테이블 %d / event %s, table %d (broker %s)" % (args.event, number, args.event, number,
                                                              args.broker.split("@")[-1]))
    return bridge, (router(bridge),)
