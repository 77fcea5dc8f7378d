"""``lumen hub``: the hub at a real table.

Opens the game record, resumes the table's current game (``--resume``) or starts one,
serves the display, and runs the pods' serial links (auto-detected, rescanned when a
pod is unplugged) and the optional status light, all on one asyncio loop. A game never
ends into a new one by itself: a new game is a judge's action on the display.
"""

import asyncio
import os

from engine.decks import load_deck, load_sample
from engine.errors import CardError

from hub.pods.links import PodHub
from hub.sessions.referee import SessionError
from hub.light.statuslight import StatusLight, open_strip
from hub.record.store import Store
from hub.record.token import TokenKeeper, new_token, token_path
from hub.sessions.table import Table


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


def new_game(table, args):
    """The game a starting hub opens by itself (listed once something is entered in it)."""
    if args.mode == "referee":
        return table.start_referee(_deck(args.decks[0]), _deck(args.decks[1]), auto=True)
    return table.start_tracker(auto=True)


def run_hub(args, out=print):
    store = Store(args.db, durable=args.durable)
    tokens = TokenKeeper(token_path(args.db, args.table), override=args.token)
    if getattr(args, "rotate_token", False):
        tokens.change(new_token())
        out("새 관리자 토큰을 만들었습니다 / a new admin token was made (the old one no longer works)")
    table = Table(store, name=args.table, tokens=tokens)
    if args.resume and table.resume_current() is not None:
        g = table.session
        out("게임 #%d을(를) 이어서 진행합니다 / resuming game #%d (%s)" % (g.game_id, g.game_id, g.mode))
    else:
        try:
            new_game(table, args)
        except (SessionError, CardError) as e:
            out("게임을 시작할 수 없습니다 / cannot start a game: %s" % e)
            return 2
        out("새 게임 #%d (%s)" % (table.session.game_id, table.session.mode))
    hub = PodHub(table, mode=args.mode, out=out)
    light = None
    if args.light:
        light = StatusLight(open_strip(args.light_pixels, args.light))
        table.subscribe(light.on_message)

    async def pods(_display):
        await hub.run(serial_devices=args.serial or None)

    async def upkeep(_display):
        while True:
            await asyncio.sleep(0.1)
            s = table.session
            if light is not None and s is not None:
                for seat, r in s.ready_status().items():
                    if r["ms_left"] is not None:
                        light.countdown(seat, r["ms_left"])

    from hub.web import app as web
    try:
        web.serve(table, host=args.host, port=args.port, tasks=(pods, upkeep), out=out)
    finally:
        store.close()
    return 0
