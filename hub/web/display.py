"""What the table display shows: the display state, built from public views only.

:func:`display_state` turns a table's snapshot (referee or tracker) into the JSON the
page renders: seats, zones, the last battle with its rule, the log and the cards the
public may see. Nothing here reads a seat's private channel.

A referee game's parts that did not change are the same objects as in the previous state
(a seat, the pending list, the log lines, the card catalogue), so the broadcaster's diff
(hub/web/display_delta.py) skips them by identity. The state is shared: read it, never
change it.
"""

import weakref

from engine.events import OUTCOME_EN, OUTCOME_KO

from hub.sessions import roster

#: Engine events the display log leaves out (card moves are shown as zones instead).
QUIET_EVENTS = frozenset({"move", "battle_end", "phase", "ready_start"})
#: Events of a battle after the judgment that the "last battle" panel lists.
BATTLE_DETAIL_EVENTS = frozenset({"fp_speed", "fp_speed_floor", "result_fp", "damage", "health_loss",
                                  "offset_even", "combo_start", "combo_card", "combo_first_only", "combo_end",
                                  "catch", "break", "nullify", "redo_ready", "defense_over", "fp_spent",
                                  "sudden_death", "win", "draw", "non_response", "pick", "virtual_skill"})
#: Events after a judgment that end its battle's details in the "last battle" panel.
_CLOSING_EVENTS = frozenset({"battle_end", "turn_end", "turn_start", "ready_start", "judgment"})
DISPLAY_LOG = 40
SEAT_INFO = {"a": {"label": "1P", "colour": "blue"}, "b": {"label": "2P", "colour": "red"}}


def _card_info(card):
    d = {"name": card.name, "name_en": card.name_en or card.name, "kind": card.kind}
    if card.kind == "attack":
        d.update(speed=card.speed, position=card.position, damage=card.damage)
    if getattr(card, "ultimate", False):
        d["ultimate"] = True
    return d


def _ids(value, out):
    """Collect card ids (strings) from nested lists."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, (list, tuple)):
        try:
            out.update(value)        # zones are flat lists of ids: one C call
        except TypeError:            # a nested list (a combo's options)
            for v in value:
                _ids(v, out)
        out.discard(None)


def _text(entry):
    """An engine log event or a tracker log entry as a display log line."""
    if "text" in entry:
        line = {"e": entry.get("e"), "seat": entry.get("p"), "rule": entry.get("rule"), "text": entry["text"]}
        if entry.get("e") == "turn_start":
            line["turn"] = entry.get("turn")
        return line
    return {"e": entry.get("action"), "seat": entry.get("seat"), "rule": None, "turn": entry.get("turn"),
            "text": {"ko": entry.get("text_ko", ""), "en": entry.get("text_en", "")}}


def _from_log(session, kept=None):
    """The last battle and the display log. The log only grows (its length and last entry
    tell what is new), so a flush turns only the new events into lines; a flush with no
    new event (the clock, a display connecting, a pod-side change) rebuilds nothing."""
    kept = _kept_for(session) if kept is None else kept
    log = session.log
    hit = kept.get("log")           # (log, length, last entry, last battle, lines, closed)
    same = hit is not None and hit[0] is log and 0 < hit[1] <= len(log) and log[hit[1] - 1] is hit[2]
    if same and hit[1] == len(log):
        return hit[3], hit[4]
    judged = not same
    if same:        # events were appended: only they become new lines
        new = log[hit[1]:]
        lines = []
        for e in new:
            kind = e.get("e")
            if kind not in QUIET_EVENTS:
                lines.append(_text(e))
                judged = judged or kind == "judgment"
        lines = (hit[4] + lines)[-DISPLAY_LOG:]
    else:
        lines = _tail_lines(log)
    if not judged:
        last, closed = hit[3], hit[5]       # no new battle: the same panel, or its details go on
        if last is not None and not closed:
            details = []
            for e in new:
                kind = e.get("e")
                if kind in _CLOSING_EVENTS:
                    closed = True
                    break
                if kind in BATTLE_DETAIL_EVENTS:
                    details.append(_detail(e))
            if details:
                last = dict(last, details=last["details"] + details)
    else:
        last, closed = _last_battle(log)
    kept["log"] = (log, len(log), log[-1] if log else None, last, lines, closed)
    return last, lines


def _tail_lines(log):
    """The display log: the last DISPLAY_LOG shown events, read from the end (the whole
    game's log is long; this runs on every change)."""
    out = []
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("e") not in QUIET_EVENTS:
            out.append(_text(log[i]))
            if len(out) == DISPLAY_LOG:
                break
    out.reverse()
    return out


def _last_battle(log):
    """The most recent battle from the engine's public events: reveal, judgment with its
    reason and rule section, and what followed (FP, damage, combos, catches); and whether
    its details are closed (an event that ends them follows: later events can't change it)."""
    j = None
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("e") == "judgment":
            j = i
            break
    if j is None:
        return None, False
    ev = log[j]
    out = {"outcome": {s: ev.get(s) for s in ("a", "b")},
           "outcome_text": {s: {"ko": OUTCOME_KO.get(ev.get(s), ev.get(s)), "en": OUTCOME_EN.get(ev.get(s), ev.get(s))}
                            for s in ("a", "b")},
           "winner": ev.get("w"), "reason": ev.get("reason"), "rule": ev.get("rule"), "text": ev["text"],
           "cards": None, "turn": None, "details": []}
    for k in range(j - 1, -1, -1):
        e = log[k].get("e")
        if e == "reveal" and out["cards"] is None:
            out["cards"] = {"a": log[k].get("a_card"), "b": log[k].get("b_card")}
        if e == "turn_start":
            out["turn"] = log[k].get("turn")
            break
    closed = False
    for k in range(j + 1, len(log)):
        e = log[k].get("e")
        if e in _CLOSING_EVENTS:
            closed = True
            break
        if e in BATTLE_DETAIL_EVENTS:
            out["details"].append(_detail(log[k]))
    return out, closed


def _detail(e):
    return {"e": e.get("e"), "seat": e.get("p"), "rule": e.get("rule"), "text": e["text"]}


def _ready(ready):
    """Who is ready (never what) and the countdown: no hub clock values."""
    return {s: {"locked": bool(r.get("locked")), "ms_left": r.get("ms_left")} for s, r in (ready or {}).items()}


def _referee_tokens(character, values):
    """Character token counters of a referee game as ``[{id, name, name_en, value, max}]``."""
    specs = {t.get("id"): t for t in character.get("tokens") or [] if isinstance(t, dict)}
    out = []
    for key, value in (values or {}).items():
        spec = specs.get(key, {})
        out.append({"id": key, "name": spec.get("name", key), "name_en": spec.get("name_en", spec.get("name", key)),
                    "value": value, "max": spec.get("max")})
    return out


#: session -> {part: what was built for it}: the parts of a session's display kept between
#: flushes, so that only what changed is built and an unchanged part is the same object
_KEPT = weakref.WeakKeyDictionary()
_LAST = [None, None]        # (a weak reference to the session built last, its parts): one check a flush


def _kept_for(session):
    ref, kept = _LAST
    if ref is not None and ref() is session:
        return kept
    kept = _KEPT.get(session)
    if kept is None:
        kept = _KEPT[session] = {}
    _LAST[:] = [weakref.ref(session), kept]
    return kept


def _referee_seat(st, s, p, player):
    ch = p["character"]
    seat = dict(SEAT_INFO[s], character=ch.get("id"), name=ch.get("name"), name_en=ch.get("name_en") or ch.get("name"),
                start_health=ch["health"][0], bands=list(ch["health"]), hand_limits=list(ch["hand_limit"]),
                trait=(ch.get("trait") or None), player=player, hand_limit=st.players[s].hand_limit)
    for key in _SEAT_FIELDS:
        seat.update(_SEAT_FIELDS[key](p, ch))
    return seat


def _zone(key):
    return lambda p, ch: {key: list(p[key])}


def _cards_or_count(key):
    def fields(p, ch):
        v = p[key]
        return {key: list(v), key + "_count": len(v)} if isinstance(v, list) else {key: [], key + "_count": v}
    return fields


#: A seat's fields from each field of the seat's public view (the view's other fields show
#: nowhere): a changed view field rebuilds only its own.
_SEAT_FIELDS = {
    "health": lambda p, ch: {"health": p["health"]},
    "fp": lambda p, ch: {"fp": p["fp"]},
    "hand": _cards_or_count("hand"),
    "list": _cards_or_count("list"),
    "side_deck": lambda p, ch: {"side_deck": p["side_deck"] if isinstance(p["side_deck"], int) else len(p["side_deck"])},
    "break_zone": _zone("break_zone"),
    "lumen_zone": _zone("lumen_zone"),
    "battle_zone": lambda p, ch: {"battle_zone": list(p["battle_zone"]) if isinstance(p["battle_zone"], list)
                                  else ["?"] * p["battle_zone"]},
    "ultimate": lambda p, ch: {"ultimate": p.get("ultimate")},
    "ultimate_card": lambda p, ch: {"ultimate_card": p.get("ultimate_card")},
    "non_responses": lambda p, ch: {"non_responses": p.get("non_responses", 0)},
    "tokens": lambda p, ch: {"tokens": _referee_tokens(ch, p.get("tokens"))},
}
_SEAT_KEYS = tuple(_SEAT_FIELDS)
_DERIVED = {}               # seat -> (the seat, the one built from it, its changed keys): the last update


def _seat_update(st, s, seat, q, p, player):
    """``seat`` (built from view ``q``) brought to view ``p``: the same object if nothing it
    shows changed, else a copy with the changed fields rebuilt (a field of the view that did
    not change costs an ``is`` or a C-level ``==``)."""
    change = {}
    if p is not q and p != q:       # one C-level compare first: a seat often did not change
        ch = p["character"]
        if ch is not q["character"] and ch != q["character"]:
            return _referee_seat(st, s, p, player)
        try:
            keys = [k for k in _SEAT_KEYS if p[k] != q[k]]
        except KeyError:            # a view without some field: compare what is there
            keys = [k for k in _SEAT_KEYS if p.get(k) != q.get(k)]
        for key in keys:
            change.update(_SEAT_FIELDS[key](p, ch))
        limit = st.players[s].hand_limit        # a view of another state: the limit may differ
        if limit != seat["hand_limit"]:
            change["hand_limit"] = limit
    if player != seat["player"]:
        change["player"] = player
    if not change:
        return seat
    new = dict(seat, **change)
    _DERIVED[s] = (seat, new, change)
    return new


def seat_change(old, new):
    """The keys of seat ``new`` that differ from seat ``old``, if ``new`` was built from it
    (the last update of either seat), else None: the broadcaster's diff needs no compare."""
    for base, seat, change in _DERIVED.values():
        if seat is new and base is old:
            return change
    return None


def _seat_ids(seat):
    """The card ids a seat shows (its zones are flat lists of ids: set updates in C)."""
    ids = {seat["ultimate"], seat["ultimate_card"]}
    try:
        ids.update(seat["hand"], seat["list"], seat["break_zone"], seat["lumen_zone"], seat["battle_zone"])
    except TypeError:               # not flat after all: the long way
        for key in ("hand", "list", "break_zone", "lumen_zone", "battle_zone"):
            _ids(seat[key], ids)
    return ids


def _referee_display(session, view, ready, names):
    st = session.state
    kept = _kept_for(session)
    seats = {}
    visible = set()
    players = view["players"]
    for s in ("a", "b"):
        # from the seat's view field by field against the view it was built from (a view's
        # contents are read-only): unchanged, the same object
        p, player = players[s], names.get(s)
        hit = kept.get(s)           # (the view it was built from, the seat, its card ids)
        if hit is None:
            seat = _referee_seat(st, s, p, player)
            hit = kept[s] = (p, seat, _seat_ids(seat))
        else:
            seat = _seat_update(st, s, hit[1], hit[0], p, player)
            hit = kept[s] = (p, seat, hit[2] if seat is hit[1] else _seat_ids(seat))
        seats[s] = seat
        visible |= hit[2]
    src = view.get("pending", [])
    hit = kept.get("pending")       # (the view's list, the display's, its card ids)
    if hit is None or hit[0] is not src:
        pending = []
        for r in src:
            hidden = bool(r.get("hidden"))
            item = {"player": r["player"], "kind": r["kind"], "hidden": hidden}
            if not hidden and type(r.get("options")) is list:
                item["options"] = r["options"]          # the view's, read-only like it
            if "count" in r:
                item["count"] = r["count"]
            pending.append(item)
        if hit is not None and hit[1] == pending:
            hit = kept["pending"] = (src, hit[1], hit[2])
        else:
            ids = set()
            for item in pending:
                _ids(item.get("options"), ids)
            hit = kept["pending"] = (src, pending, ids)
    pending = hit[1]
    visible |= hit[2]
    last, lines = _from_log(session, kept)
    if last and last["cards"]:
        visible.update(last["cards"].values())
    visible.discard("?")
    visible.discard(None)
    hit = kept.get("cards")         # (the visible ids, the game's card table, the catalogue)
    if hit is not None and hit[0] == visible and hit[1] is st.cards:
        cards = hit[2]              # the same visible cards: the same catalogue object
    else:
        known = kept.get("infos")   # a game's cards never change: each card's entry is built once
        if known is None or known[0] is not st.cards:
            known = kept["infos"] = (st.cards, {})
        known = known[1]
        for cid in visible.difference(known).intersection(st.cards):
            known[cid] = _card_info(st.cards[cid])
        ids = sorted(visible.intersection(known))
        cards = dict(zip(ids, map(known.__getitem__, ids)))
        kept["cards"] = (visible, st.cards, cards)
    return {"seats": seats, "turn": view["turn"], "phase": view["phase"], "priority": view["priority"],
            "sudden_death": view["sudden_death"], "sd_turn": view.get("sd_turn"), "winner": view["winner"],
            "end_reason": None, "last_outcome": view.get("last_outcome"), "battles": view.get("battles"),
            "stalled_battles": view.get("stalled_battles"), "pending": pending, "ready": _kept_ready(kept, ready),
            "last_battle": last, "log": lines, "cards": cards}


def _kept_ready(kept, raw):
    """Who is ready: the same object while the session's ready status is equal."""
    hit = kept.get("ready")
    if hit is not None and hit[0] == raw:
        return hit[1]
    kept["ready"] = hit = (raw, _ready(raw))
    return hit[1]


def _tracker_display(session, view):
    seats = {}
    for s in ("a", "b"):
        v = view["seats"][s]
        ch = roster.get(v["character"])
        seats[s] = dict(SEAT_INFO[s], character=ch.id, name=ch.name, name_en=ch.name_en, health=v["health"],
                        start_health=ch.start_health, bands=list(ch.health_bands), hand_limits=list(ch.hand_limits),
                        hand_limit=v["hand_limit"], hand_count=v["hand_count"], over_limit=v["over_limit"],
                        fp=v["fp"], tokens=v["tokens"], stance=v["stance"], active_stances=v["active_stances"],
                        stances=[{"name": x.name, "name_en": x.name_en} for x in ch.stances],
                        trait=ch.trait.to_json() if ch.trait else None, trait_on=v["trait_on"],
                        non_responses=v["non_responses"], flags=v["flags"])
    lines = [_text(e) for e in session.game.log[-DISPLAY_LOG:]]
    return {"seats": seats, "turn": view["turn"], "phase": view["phase"], "priority": view["priority"],
            "next_priority": view["next_priority"], "next_priority_reason": view["next_priority_reason"],
            "sudden_death": view["sudden_death"], "sd_turn": view["sudden_death_turn"], "winner": view["winner"],
            "end_reason": view["end_reason"], "game_number": view["game"], "can_undo": view["can_undo"],
            "undo_text": view.get("undo_text"),
            "pending": [], "ready": _ready(view.get("ready")), "last_battle": None, "log": lines, "cards": {}}


def _pod_conflicts(table):
    """Devices refused a seat they claimed with a connected pod's id (issue 11.2): the judge
    must see them. No board ids here (the page is public): the seat and the port."""
    pods = getattr(table, "pods", None)
    out = []
    for c in (list(pods.conflicts.values()) if pods is not None else []):
        seat = SEAT_INFO.get(c.get("seat"), {}).get("label", "?")
        out.append({"seat": c.get("seat"), "port": c.get("port"),
                    "text": {"ko": "좌석 가로채기 거부: %s 포드라고 하는 다른 장치(%s) — 심판 확인 필요" % (seat, c.get("port")),
                             "en": "seat takeover refused: another device (%s) says it is the %s pod — judge, please check"
                                   % (c.get("port"), seat)}})
    return out


def display_state(table):
    """What the page shows, built from public views only (JSON-ready)."""
    s = table.session
    timer = table.timer_view()      # table.snapshot()'s parts, without its copy of the log
    out = {"table": table.name, "mode": s.mode if s is not None else None, "timer": timer, "game_id": None}
    err = getattr(table.store, "write_error", None)
    out["record_error"] = err.to_json() if err is not None else None   # "the record can't be written: ..."
    out["pod_conflicts"] = _pod_conflicts(table)
    if s is None:
        out.update(seats=None, log=[], ready={}, pending=[], cards={}, last_battle=None)
        return out
    out["game_id"] = s.game_id
    if s.mode == "referee":           # the person in the seat, if the judge named them: in the seat
        out.update(_referee_display(s, *s.display_view(), table.names))
    else:
        out.update(_tracker_display(s, s.public_view()))
        for seat, p in out["seats"].items():
            p["player"] = table.names.get(seat)
    out["ahead"] = _ahead(out["seats"]) if timer["state"] == "time" else None
    return out


def _ahead(seats):
    """At TIME: who is ahead on health (guide: the game goes on for the extra turns, then
    health decides), "even" when level."""
    ha, hb = seats["a"]["health"], seats["b"]["health"]
    return {"seat": "a" if ha > hb else "b" if hb > ha else "even", "health": {"a": ha, "b": hb}}


def current_turn(table):
    s = table.session
    if s is None:
        return None
    return s.state.turn if s.mode == "referee" else s.game.turn


def game_over(table):
    s = table.session
    if s is None:
        return True
    return (s.state.winner if s.mode == "referee" else s.game.winner) is not None
