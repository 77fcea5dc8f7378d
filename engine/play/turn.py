"""The turn (guide 3.5): setup, lumen, ready, battle, get, recovery; sudden death;
and the driver that runs steps until a decision is needed.

The driver is a loop over named steps (``st.step``) and interrupt tasks
(``st.tasks``). A step either moves ``st.step`` on or asks a decision and
names the step that will read the answer. Tasks (replenish, hand limit) run
before the step continues, in the order they were raised, so a break and its
replenish happen "right after" what caused them (guide 3.9.1, 5.4).
"""

from collections.abc import Callable, Collection
from typing import Any

from engine.play import battle, breaks, cardfx, combo_catch, windows
from engine.play import primitives  # noqa: F401  (importing it registers the effect functions)
from engine.core.decisions import ask, counts, distinct_multisets, setup_has_choice
from engine.core.events import Event, ev
from engine.core.rng import coin_toss
from engine.play.state import GameState, other
from engine.play.cardfx import end_lasting, refresh
from engine.play.windows import window
from engine.play.usable import ready_split
from engine.play.zones import discard, do_replenish, replenish_options, take

HAND_SIZE = 5   # guide 3.4.1 step 2
LIST_SIZE = 9

#: a step: runs, then moves ``st.step`` on or asks a decision
Step = Callable[[GameState, "Ctx"], Any]
#: a task: True when done, False when it asked a decision (it runs again on the answer)
Task = Callable[[GameState, "Ctx", dict[str, Any]], bool]

STEPS: dict[str, Step] = dict(battle.STEPS)
STEPS.update(combo_catch.STEPS)
STEPS.update(windows.STEPS)
TASKS: dict[str, Task] = {}


def step(name: str) -> Callable[[Step], Step]:
    def register(fn: Step) -> Step:
        STEPS[name] = fn
        return fn
    return register


def task(name: str) -> Callable[[Task], Task]:
    def register(fn: Task) -> Task:
        TASKS[name] = fn
        return fn
    return register


class Ctx:
    """What one call into the engine collects: events, queued tasks, and where to pause."""

    __slots__ = ("st", "events", "ins", "until", "stopped")

    def __init__(self, st: GameState, until: Collection[str] = ()) -> None:
        self.st = st
        self.events: list[Event] = []
        self.ins = 0                # where the next task raised goes in st.tasks
        self.until = until          # marker events to pause at
        self.stopped: str | None = None     # the marker it paused at

    def emit(self, e: Event) -> None:
        by = e.get("by")
        if by is not None and by not in self.st.cards:
            # the source is a trait: name it in the event (traits are public, and not in the card table)
            for pl in self.st.players.values():
                ch = pl.character
                if ch.trait_id == e["by"] and ch.trait:
                    e["by_name"] = {"ko": ch.trait.get("name") or e["by"], "en": ch.trait.get("name_en") or ch.trait.get("name") or e["by"]}
                    break
        self.events.append(e)

    def task(self, t: dict[str, Any]) -> None:
        self.st.tasks.insert(self.ins, t)
        self.ins += 1

    def marker(self, name: str, rule: str, **params: Any) -> None:
        self.events.append(ev(name, rule, **params))
        if name in self.until:
            self.stopped = name

    def check_health(self) -> bool:
        """Win / loss / sudden death after a unit of damage (guide 3.4, 5.1.2).
        Returns True if the battle cannot go on."""
        return check_health(self.st, self)


def run(st: GameState, ctx: Ctx) -> None:
    """Advance until a decision is pending, the game is over, or a pause marker is hit."""
    steps, tasks = STEPS, TASKS
    while ctx.stopped is None and not st.pending and st.winner is None:
        ctx.ins = 0           # tasks a step or task raises go first, in the order raised
        if st.tasks:
            t = st.tasks.pop(0)
            if not tasks[t["t"]](st, ctx, t):
                st.tasks.insert(ctx.ins, t)   # it asked a decision; resume it on the answer
            continue
        steps[st.step](st, ctx)


# ------------------------------------------------------------------ tasks

@task("replenish")
def replenish_task(st, ctx, t):
    """Optional replenish after a break (guide 3.9.1)."""
    p = t["p"]
    if "answer" in t:
        if t["answer"] != "pass":
            do_replenish(st, ctx, p, t["answer"])
        return True
    opts = replenish_options(st, p)
    if not opts:
        return True
    if len(st.players[p].list) >= st.rules.list_max and not cardfx.allowed(st, ctx, p, "break"):
        return True          # into a full list it would be broken instead, and it cannot be (guide 5.6.3)
    ask(st, p, "replenish", opts + ["pass"], hidden=True, task=True)
    return False


@task("triggers")
def triggers_task(st, ctx, t):
    """The effects a break triggers (guide 5.4): a window nested in what was going on."""
    breaks.open_break_window(st, t["ev"], t["int"])
    return True


@task("hand_limit")
def hand_limit_task(st, ctx, t):
    """Excess cards are discarded right after the effect that caused it (guide 3.3.1)."""
    p = t["p"]
    pl = st.players[p]
    limit = pl.hand_limit
    excess = len(pl.hand) - limit
    if "answer" in t:
        discard(st, ctx, p, t["answer"], limit)
        return True
    if excess <= 0:
        return True
    room = st.rules.list_max - len(pl.list)
    if excess > room and st.fxon and cardfx.forbidden(st, p, "break"):
        # a discard into a full list is a break, and p's cards cannot be broken (guide 5.6.3 item 1):
        # only as many as the list takes are discarded
        cardfx.allowed(st, ctx, p, "break")
        excess = max(0, room)
        if not excess:
            return True
    if distinct_multisets(pl.hand, excess) == 1:   # only one way to do it: forced, not asked
        discard(st, ctx, p, pl.hand[:excess], limit)
        return True
    ask(st, p, "discard", list(dict.fromkeys(pl.hand)), count=excess, task=True)
    return False


# ------------------------------------------------------------------ health, win, sudden death

def check_health(st, ctx):
    if st.fxon:
        refresh(st)          # a hand limit that depends on health (trait functions)
    pa, pb = st.players["a"], st.players["b"]
    a0, b0 = pa.health <= 0, pb.health <= 0
    if not (a0 or b0):
        return False
    if a0 and b0:
        if st.sudden_death:
            finish(st, ctx, "draw", "guide 5.1.2", "서든 데스 중 양쪽 체력이 다시 동시에 0", "both fell to 0 again in sudden death")
        else:
            start_sudden_death(st, ctx)
        return True
    winner = "b" if a0 else "a"
    finish(st, ctx, winner, "guide 3.4", "상대 체력 0 이하, 자신의 체력 1 이상", "the opponent's health is 0 or less")
    return True


def finish(st, ctx, winner, rule, why_ko, why_en):
    st.winner = winner
    st.phase = "over"
    st.pending = []
    st.tasks = []
    if winner == "draw":
        ctx.emit(ev("draw", rule, why_ko=why_ko, why_en=why_en))
    else:
        ctx.emit(ev("win", rule, p=winner, why_ko=why_ko, why_en=why_en))
    ctx.marker("game_over", rule, winner=winner)


def start_sudden_death(st, ctx):
    """Guide 5.1.2: both at 0 in the same unit. The battle ends at once; both rebuild
    as for a new game at 1000 health with the 1000-band hand size, FP 0, priority kept."""
    health = st.rules.sudden_death_health
    st.sudden_death = True
    st.sd_turn = 1
    st.stalled_battles = 0
    st.tasks = []
    st.fx = None             # effects waiting in a window and durations end with the game they belong to
    st.lasting = []
    for p in ("a", "b"):
        pl = st.players[p]
        pl.health = health
        pl.fp = 0
    ctx.emit(ev("sudden_death", "guide 5.1.2", health=health, turns=st.rules.sudden_death_turns))
    if st.battle is not None:
        st.battle = None
        st.battles += 1
        ctx.marker("battle_end", "guide 5.1.2")
    st.step = "sd.setup"


# ------------------------------------------------------------------ setup (guide 3.4.1)

def setup_pool(st, p):
    return [cid for cid in st.decks[p]["cards"] if st.cards[cid].kind != "special"]


@step("setup.ask")
def setup_ask(st, ctx):
    st.phase = "setup"
    for p in ("a", "b"):
        pool = setup_pool(st, p)
        _ask_or_force_setup(st, p, pool, HAND_SIZE, LIST_SIZE)
    st.step = "setup.resolve"


def _ask_or_force_setup(st, p, pool, hand_n, list_n):
    hand_n = min(hand_n, len(pool))
    list_n = min(list_n, len(pool) - hand_n)
    if setup_has_choice(pool, hand_n, list_n):
        ask(st, p, "setup", pool, hidden=True, sizes={"hand": hand_n, "list": list_n})
    else:
        st.inbox[p] = {"kind": "setup", "value": {"hand": pool[:hand_n], "list": pool[hand_n:hand_n + list_n]}}


def _apply_setup(st, ctx, p, everything, choice, rule):
    pl = st.players[p]
    rest = counts(everything)
    for cid in choice["hand"]:
        rest[cid] = rest.get(cid, 0) - 1
    for cid in choice["list"]:
        rest[cid] = rest.get(cid, 0) - 1
    pl.hand = list(choice["hand"])
    pl.list = list(choice["list"])
    side = []
    for cid in everything:          # what is not in hand or list, in deck order
        if rest[cid] > 0:
            rest[cid] -= 1
            side.append(cid)
    pl.side_deck = side
    pl.break_zone = []
    pl.lumen_zone = []
    pl.battle_zone = []
    ctx.emit(ev("setup", rule, p=p, hand=len(pl.hand), list=len(pl.list), side=len(pl.side_deck)))


@step("setup.resolve")
def setup_resolve(st, ctx):
    for p in ("a", "b"):
        deck = st.decks[p]
        pl = st.players[p]
        _apply_setup(st, ctx, p, list(deck["cards"]), st.inbox.pop(p)["value"], "guide 3.4.1")
        pl.ultimate = deck.get("ultimate")
        pl.ultimate_card = pl.ultimate
        pl.health = pl.character.start_health    # a trait may change it (guide 3.3.2)
    show_setup(st, ctx, "guide 3.4.1")
    refresh(st)
    if st.priority is None:
        st.rng, p = coin_toss(st.rng)
        st.priority = p
        ctx.emit(ev("coin_toss", "guide 3.4.1", p=p))
    st.step = "turn.start"


def show_setup(st, ctx, rule):
    """Setup steps 4-5 (guide 3.4.1; again in sudden death, 5.1.2 step 4): the opening hands are
    shown and handed back, the lists turned face up; the ultimate lies face up (3.3.4). The
    cards are in the state (hands are public); the events name none, so no log line carries a
    card id that a ready pick could later be matched against."""
    for p in ("a", "b"):
        pl = st.players[p]
        ctx.emit(ev("hands_shown", rule, p=p, n=len(pl.hand)))
        ctx.emit(ev("list_revealed", rule, p=p, n=len(pl.list)))
        if pl.ultimate is not None:
            ctx.emit(ev("ultimate_shown", "guide 3.3.4", p=p))


@step("sd.setup")
def sd_setup(st, ctx):
    """Sudden death rebuild (guide 5.1.2 steps 1-4): every skill card the player owns."""
    st.phase = "setup"
    for p in ("a", "b"):
        pl = st.players[p]
        ult = ultimate_card(st, pl)
        if ult is not None and pl.ultimate is None:
            # a new game setup puts the ultimate back face up in the ultimate zone (guide 3.3.4):
            # the card is the ultimate wherever it is (its `ultimate` property, issue 23)
            for zone in (pl.hand, pl.list, pl.side_deck, pl.break_zone, pl.lumen_zone, pl.battle_zone):
                if ult in zone:
                    zone.remove(ult)
                    break
            pl.ultimate = pl.ultimate_card = ult
        everything = pl.hand + pl.list + pl.side_deck + pl.break_zone + pl.lumen_zone + pl.battle_zone
        pool = [cid for cid in everything if st.cards[cid].kind != "special"]
        # the hand limit at 1000 health; of the effects only trait functions survive the rebuild (3.3.2)
        size = pl.character.limit_for(pl.health) + cardfx.trait_limit_delta(st, p)
        _ask_or_force_setup(st, p, pool, max(0, size), LIST_SIZE)
    st.step = "sd.resolve"


def ultimate_card(st, pl):
    """The player's ultimate: the card that started in the ultimate zone, else an owned card whose
    data says ``ultimate: true`` (guide 3.3.4: 0 or 1 a deck)."""
    if pl.ultimate_card is not None:
        return pl.ultimate_card
    cards = st.cards
    for cid in pl.owned_cards():
        if cards[cid].ultimate:
            return cid
    return None


@step("sd.resolve")
def sd_resolve(st, ctx):
    for p in ("a", "b"):
        pl = st.players[p]
        everything = pl.hand + pl.list + pl.side_deck + pl.break_zone + pl.lumen_zone + pl.battle_zone
        _apply_setup(st, ctx, p, everything, st.inbox.pop(p)["value"], "guide 5.1.2")
    show_setup(st, ctx, "guide 5.1.2")
    refresh(st)          # the lumen zones are empty again
    st.turn += 1
    st.step = "turn.start"


# ------------------------------------------------------------------ the five phases

@step("turn.start")
def turn_start(st, ctx):
    ctx.emit(ev("turn_start", "guide 3.5", turn=st.turn))
    st.phase = "lumen"
    # lumen phase (guide 3.5.1): "in the lumen phase" effects, priority holder first
    ctx.emit(ev("phase", "guide 3.5.1", name_ko="루멘", name_en="Lumen"))
    window(st, ctx, (("lumen",),), "ready.enter")


@step("ready.enter")
def ready_enter(st, ctx):
    st.phase = "ready"
    st.step = "ready.ask"
    ctx.marker("ready_start", "guide 3.5.2")


def ready_options(st, p):
    """The skills p may ready now (engine/play/usable.py: use conditions, ready prohibitions)."""
    return ready_split(st, p)[0]


@step("ready.ask")
def ready_ask(st, ctx):
    """Guide 3.5.2: each player locks one skill face down. Always asked, even from a
    one-card hand (not readying in time is the other option); nothing legal to ready is a
    non-response at once (guide 3.10, rulings R11, R47). The request lists the legal skills;
    ``unusable`` names the hand skills whose use condition fails (readying one is accepted, and
    is a non-response)."""
    legal_of = None
    for p in battle.order(st):
        opts, bad = ready_split(st, p)
        if bad:
            # the legal ones as at this moment, for the pick after a non-response (ruling R47)
            legal_of = legal_of if legal_of is not None else st.inbox.setdefault("legal", {})
            legal_of[p] = list(opts)
        if opts:
            req = ask(st, p, "ready", opts, hidden=True)
            if bad:
                req["unusable"] = bad
        else:
            st.inbox[p] = {"kind": "timeout", "value": True, "empty": True}
            if bad:
                st.inbox[p]["unusable"] = True
    st.step = "ready.resolve"


def lock_ready(st: GameState, p: str, card_id: str) -> None:
    """A declared ready is final (guide 3.5.2): the card goes face down to the battle zone."""
    pl = st.players[p]
    take(pl.hand, card_id)
    pl.battle_zone.append(card_id)
    if st.fxon:
        cardfx.sync_limits(st)      # a smaller hand: any discard waits for step 13


@step("ready.resolve")
def ready_resolve(st, ctx):
    cards = {}
    picks = []
    lost = []
    legal_of = st.inbox.pop("legal", None) or {}
    for p in battle.order(st):
        got = st.inbox.pop(p)
        pl = st.players[p]
        if got["kind"] == "ready":
            if not got.get("unusable"):
                cards[p] = got["value"]
                continue
            # guide 3.10 "사용 조건을 만족하지 못한 기술을 레디하면": revealed, it goes back to the hand
            cid = got["value"]
            take(pl.battle_zone, cid)
            pl.hand.append(cid)
            if st.fxon:
                cardfx.sync_limits(st)
            ctx.emit(ev("unusable_ready", "guide 3.10", p=p, card=cid))
        elif got.get("unusable"):
            ctx.emit(ev("no_legal_ready", "guide 3.10", p=p))
        pl.non_responses += 1
        ctx.emit(ev("non_response", "guide 3.10", p=p, count=pl.non_responses))
        if pl.non_responses >= st.rules.non_response_limit:
            lost.append(p)
            continue
        opts = legal_of[p] if p in legal_of else ready_options(st, p)
        if not opts:
            cards[p] = None
            ctx.emit(ev("virtual_skill", "guide 3.10", p=p))
        elif len(opts) == 1:
            cards[p] = opts[0]
            lock_ready(st, p, opts[0])
            ctx.emit(ev("pick", "guide 3.10", picker=other(p), p=p, card=opts[0]))
        else:
            picks.append(p)
            ask(st, other(p), "pick", opts)
    if lost:
        why = ("세 번째 대응하지 않음", "third non-response")
        if len(lost) == 2:
            finish(st, ctx, "draw", "guide 3.10", *why)
        else:
            finish(st, ctx, other(lost[0]), "guide 3.10", *why)
        return
    st.inbox["cards"] = cards
    st.inbox["picks"] = picks
    st.step = "ready.pick"


@step("ready.pick")
def ready_pick(st, ctx):
    cards = st.inbox.pop("cards")
    for p in st.inbox.pop("picks"):
        picker = other(p)
        cid = st.inbox.pop(picker)["value"]
        lock_ready(st, p, cid)
        cards[p] = cid
        ctx.emit(ev("pick", "guide 3.10", picker=picker, p=p, card=cid))
    battle.start(st, ctx, cards)


# ------------------------------------------------------------------ get phase (guide 3.5.4)

@step("get.enter")
def get_enter(st, ctx):
    st.phase = "get"
    ctx.emit(ev("phase", "guide 3.5.4", name_ko="겟", name_en="Get"))
    # step 1: get-phase entry effects; step 2: priority (brief ruling 8)
    window(st, ctx, (("get_entry",),), "get.priority")


@step("get.priority")
def get_priority(st, ctx):
    recompute_priority(st, ctx)
    st.inbox["get_order"] = list(battle.order(st))
    st.step = "get.ask"


def recompute_priority(st, ctx):
    """Guide 3.8: higher FP, then higher health, then more cards in hand, else unchanged."""
    pa, pb = st.players["a"], st.players["b"]
    for key, ko, en in (("fp", "FP", "FP"), ("health", "체력", "health")):
        va, vb = getattr(pa, key), getattr(pb, key)
        if va != vb:
            st.priority = "a" if va > vb else "b"
            ctx.emit(ev("priority", "guide 3.8", p=st.priority, why_ko="%s이(가) 더 높음" % ko, why_en="higher %s" % en))
            return
    if len(pa.hand) != len(pb.hand):
        st.priority = "a" if len(pa.hand) > len(pb.hand) else "b"
        ctx.emit(ev("priority", "guide 3.8", p=st.priority, why_ko="패가 더 많음", why_en="more cards in hand"))
        return
    ctx.emit(ev("priority", "guide 3.8", p=st.priority, why_ko="모두 같아 유지", why_en="all equal: kept"))


def get_options(st, p, ctx=None):
    """The get choices: the list cards, and the ultimate attack/defense instead (guide 3.3.4.1).
    A prohibition on taking cards from the list (``draw``) binds the get too (guide 5.6.3 item 1):
    the list is then as if empty (ruling R9)."""
    pl = st.players[p]
    opts = list(dict.fromkeys(pl.list))
    if opts and st.fxon and cardfx.may_forbid(st) and \
            (cardfx.forbidden(st, p, "draw") if ctx is None else not cardfx.allowed(st, ctx, p, "draw")):
        opts = []
    if pl.ultimate is not None and st.cards[pl.ultimate].kind in ("attack", "defense"):
        opts.append("ultimate")  # guide 3.3.4.1: instead of a list card
    return opts


@step("get.ask")
def get_ask(st, ctx):
    order = st.inbox["get_order"]
    if not order:
        del st.inbox["get_order"]
        st.step = "recovery"
        return
    p = order[0]
    pl = st.players[p]
    opts = get_options(st, p, ctx)
    if not opts:
        order.pop(0)
        ctx.emit(ev("get_skip", "guide 5.7", p=p, why_ko=" (가져올 카드 없음)", why_en=" (nothing to take)"))
        return
    if len(pl.hand) >= pl.hand_limit or not pl.list or opts == ["ultimate"]:
        # at the limit: skip, or take and then discard down to the limit (brief ruling 4);
        # with an empty list the ultimate is a choice, not a duty (guide 3.5.4, 5.7: "할 수 있습니다")
        ask(st, p, "get", opts + ["skip"])
    elif len(opts) == 1:
        st.inbox[p] = {"kind": "get", "value": opts[0]}   # below the limit the take is forced
        st.step = "get.resolve"
        return
    else:
        ask(st, p, "get", opts)
    st.step = "get.resolve"


@step("get.resolve")
def get_resolve(st, ctx):
    order = st.inbox["get_order"]
    p = order.pop(0)
    value = st.inbox.pop(p)["value"]
    pl = st.players[p]
    st.step = "get.ask"
    if value == "skip":
        ctx.emit(ev("get_skip", "guide 3.5.4", p=p, why_ko=" (패 상한)", why_en=" (at the hand limit)"))
        return
    if value == "ultimate":
        cid = pl.ultimate
        pl.ultimate = None
        rule = "guide 3.3.4.1"
    else:
        cid = take(pl.list, value)
        rule = "guide 3.5.4"
    pl.hand.append(cid)
    if st.fxon:
        cardfx.sync_limits(st, ctx)
    ctx.emit(ev("get", rule, p=p, card=cid))
    if len(pl.hand) > pl.hand_limit:
        ctx.task({"t": "hand_limit", "p": p})


# ------------------------------------------------------------------ recovery (guide 3.5.5)

@step("recovery")
def recovery(st, ctx):
    """Guide 3.5.5: "at turn end" effects first, then the effects lasting "this turn" /
    "until turn end" end, then the turn ends."""
    st.phase = "recovery"
    window(st, ctx, (("turn_end",),), "recovery.end")


@step("recovery.end")
def recovery_end(st, ctx):
    if st.lasting:
        end_lasting(st, ctx)
        windows.limit_checks(st, ctx)
        if st.tasks:
            return           # a discard down to a hand limit that went back down (guide 3.3.1)
    turn = st.turn
    if st.sudden_death:
        if st.sd_turn >= st.rules.sudden_death_turns:
            pa, pb = st.players["a"].health, st.players["b"].health
            st.turn += 1
            st.step = "turn.start"
            ctx.marker("turn_end", "guide 3.5.5", turn=turn)
            if pa == pb:
                finish(st, ctx, "draw", "guide 5.1.2", "서든 데스 3턴 종료 시 체력이 같음", "equal health after the sudden-death turns")
            else:
                finish(st, ctx, "a" if pa > pb else "b", "guide 5.1.2", "서든 데스 3턴 종료 시 체력이 더 높음",
                       "higher health after the sudden-death turns")
            return
        st.sd_turn += 1
    st.turn += 1
    st.step = "turn.start"
    ctx.marker("turn_end", "guide 3.5.5", turn=turn)
