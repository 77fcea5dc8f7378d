"""The display of a referee game: seats and zones, the pending questions, the last battle
with its rule, the log, and the cards the public may see.

A :class:`RefereeDisplay` belongs to one session and keeps the parts it built last (the
named tuples below), so a flush builds only what changed and an unchanged part is the
same object as before: the broadcaster's diff (hub/web/display_delta.py) skips it by
identity. Every part is shared with the states already sent: read it, never change it.
What invalidates each part is listed in docs/performance.md ("Caches").
"""

from typing import Any, NamedTuple

from engine import OUTCOME_EN, OUTCOME_KO

from hub.sessions.display.common import DISPLAY_LOG, QUIET_EVENTS, SEAT_INFO, log_line, ready_view

#: Events of a battle after the judgment that the "last battle" panel lists.
BATTLE_DETAIL_EVENTS = frozenset({"fp_speed", "fp_speed_floor", "result_fp", "damage", "health_loss",
                                  "offset_even", "combo_start", "combo_card", "combo_first_only", "combo_end",
                                  "catch", "break", "nullify", "redo_ready", "defense_over", "fp_spent",
                                  "sudden_death", "win", "draw", "non_response", "pick", "virtual_skill"})
#: Events after a judgment that end its battle's details in the "last battle" panel.
CLOSING_EVENTS = frozenset({"battle_end", "turn_end", "turn_start", "ready_start", "judgment"})


class LogPart(NamedTuple):
    """The log as last read: the session's log list, how long it was, its last entry (the
    log only grows: length and last entry tell what is new), the last battle panel, the
    display lines, whether that battle's details are closed, and how many display lines
    the whole game has (the page merges the window into what it fetched of the rest)."""
    log: list
    length: int
    last_entry: Any
    battle: dict | None
    lines: list
    closed: bool
    total: int


class SeatPart(NamedTuple):
    """A seat as last built: the engine view's seat it was built from, the display seat,
    the card ids it shows."""
    view: dict
    seat: dict
    ids: set


class PendingPart(NamedTuple):
    """The pending questions: the view's list, the display's, the card ids in its options."""
    source: list
    items: list
    ids: set


class CardsPart(NamedTuple):
    """The public card catalogue: the visible ids it was built for, the game's card table,
    the catalogue."""
    visible: set
    table: dict
    catalogue: dict


class ReadyPart(NamedTuple):
    raw: dict
    view: dict


class SeatChange(NamedTuple):
    """The last update of a seat: the seat it was made from, the new one, the changed keys."""
    base: dict
    seat: dict
    change: dict


def card_info(card):
    d = {"name": card.name, "name_en": card.name_en or card.name, "kind": card.kind}
    if card.kind == "attack":
        d.update(speed=card.speed, position=card.position, damage=card.damage)
    if getattr(card, "ultimate", False):
        d["ultimate"] = True
    return d


def collect_ids(value, out):
    """Collect card ids (strings) from nested lists."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, (list, tuple)):
        try:
            out.update(value)        # zones are flat lists of ids: one C call
        except TypeError:            # a nested list (a combo's options)
            for v in value:
                collect_ids(v, out)
        out.discard(None)


def tail_lines(log, n=DISPLAY_LOG):
    """The display log: the last ``n`` shown events, read from the end (the whole game's log
    is long; this runs on every change: the display's, a phone's seat page)."""
    out = []
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("e") not in QUIET_EVENTS:
            out.append(log_line(log[i]))
            if len(out) == n:
                break
    out.reverse()
    return out


def all_lines(log):
    """The whole game's display log (a learner scrolls back through it: /api/log)."""
    return [log_line(e) for e in log if e.get("e") not in QUIET_EVENTS]


def last_battle(log):
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
        if e in CLOSING_EVENTS:
            closed = True
            break
        if e in BATTLE_DETAIL_EVENTS:
            out["details"].append(_detail(log[k]))
    return out, closed


def _detail(e):
    return {"e": e.get("e"), "seat": e.get("p"), "rule": e.get("rule"), "text": e["text"]}


def _tokens(character, values):
    """Character token counters of a referee game as ``[{id, name, name_en, value, max}]``."""
    specs = {t.get("id"): t for t in character.get("tokens") or [] if isinstance(t, dict)}
    out = []
    for key, value in (values or {}).items():
        spec = specs.get(key, {})
        out.append({"id": key, "name": spec.get("name", key), "name_en": spec.get("name_en", spec.get("name", key)),
                    "value": value, "max": spec.get("max")})
    return out


def _zone(key):
    return lambda p, ch: {key: list(p[key])}


def _cards_or_count(key):
    def fields(p, ch):
        v = p[key]
        return {key: list(v), key + "_count": len(v)} if isinstance(v, list) else {key: [], key + "_count": v}
    return fields


#: A seat's fields from each field of the seat's public view (the view's other fields show
#: nowhere): a changed view field rebuilds only its own.
SEAT_FIELDS = {
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
    "tokens": lambda p, ch: {"tokens": _tokens(ch, p.get("tokens"))},
}
_SEAT_KEYS = tuple(SEAT_FIELDS)


def _seat(st, s, p, player):
    ch = p["character"]
    seat = dict(SEAT_INFO[s], character=ch.get("id"), name=ch.get("name"), name_en=ch.get("name_en") or ch.get("name"),
                start_health=ch["health"][0], bands=list(ch["health"]), hand_limits=list(ch["hand_limit"]),
                trait=(ch.get("trait") or None), player=player, hand_limit=st.players[s].hand_limit)
    for key in SEAT_FIELDS:
        seat.update(SEAT_FIELDS[key](p, ch))
    return seat


def _seat_ids(seat):
    """The card ids a seat shows (its zones are flat lists of ids: set updates in C)."""
    ids = {seat["ultimate"], seat["ultimate_card"]}
    try:
        ids.update(seat["hand"], seat["list"], seat["break_zone"], seat["lumen_zone"], seat["battle_zone"])
    except TypeError:               # not flat after all: the long way
        for key in ("hand", "list", "break_zone", "lumen_zone", "battle_zone"):
            collect_ids(seat[key], ids)
    return ids


class RefereeDisplay:
    """One referee session's display, and the parts it built last (see the module's doc)."""

    __slots__ = ("log", "seats", "pending", "cards", "infos", "ready", "derived")

    def __init__(self) -> None:
        self.log: LogPart | None = None
        self.seats: dict[str, SeatPart] = {}
        self.pending: PendingPart | None = None
        self.cards: CardsPart | None = None
        self.infos: tuple | None = None          # (the game's card table, {card id: its catalogue entry})
        self.ready: ReadyPart | None = None
        self.derived: dict[str, SeatChange] = {}

    def seat_change(self, old, new):
        """The keys of seat ``new`` that differ from seat ``old``, if ``new`` was built from it
        (the last update of either seat), else None: the broadcaster's diff needs no compare."""
        for d in self.derived.values():
            if d.seat is new and d.base is old:
                return d.change
        return None

    def build(self, session, view, ready, names):
        st = session.state
        seats = {}
        visible = set()
        players = view["players"]
        for s in ("a", "b"):
            # from the seat's view field by field against the view it was built from (a view's
            # contents are read-only): unchanged, the same object
            p, player = players[s], names.get(s)
            hit = self.seats.get(s)
            if hit is None:
                seat = _seat(st, s, p, player)
                hit = self.seats[s] = SeatPart(p, seat, _seat_ids(seat))
            else:
                seat = self._seat_update(st, s, hit.seat, hit.view, p, player)
                hit = self.seats[s] = SeatPart(p, seat, hit.ids if seat is hit.seat else _seat_ids(seat))
            seats[s] = seat
            visible |= hit.ids
        pending = self._pending(view.get("pending", []))
        visible |= pending.ids
        battle, lines = self._from_log(session.log)
        assert self.log is not None     # _from_log keeps what it read
        if battle and battle["cards"]:
            visible.update(battle["cards"].values())
        visible.discard("?")
        visible.discard(None)
        return {"seats": seats, "turn": view["turn"], "phase": view["phase"], "priority": view["priority"],
                "sudden_death": view["sudden_death"], "sd_turn": view.get("sd_turn"), "winner": view["winner"],
                "end_reason": None, "last_outcome": view.get("last_outcome"), "battles": view.get("battles"),
                "stalled_battles": view.get("stalled_battles"), "pending": pending.items,
                "ready": self._ready(ready), "last_battle": battle, "log": lines, "log_total": self.log.total,
                "cards": self._catalogue(st.cards, visible)}

    def _seat_update(self, st, s, seat, q, p, player):
        """``seat`` (built from view ``q``) brought to view ``p``: the same object if nothing it
        shows changed, else a copy with the changed fields rebuilt (a field of the view that did
        not change costs an ``is`` or a C-level ``==``)."""
        change = {}
        if p is not q and p != q:       # one C-level compare first: a seat often did not change
            ch = p["character"]
            if ch is not q["character"] and ch != q["character"]:
                return _seat(st, s, p, player)
            try:
                keys = [k for k in _SEAT_KEYS if p[k] != q[k]]
            except KeyError:            # a view without some field: compare what is there
                keys = [k for k in _SEAT_KEYS if p.get(k) != q.get(k)]
            for key in keys:
                change.update(SEAT_FIELDS[key](p, ch))
            limit = st.players[s].hand_limit        # a view of another state: the limit may differ
            if limit != seat["hand_limit"]:
                change["hand_limit"] = limit
        if player != seat["player"]:
            change["player"] = player
        if not change:
            return seat
        new = dict(seat, **change)
        self.derived[s] = SeatChange(seat, new, change)
        return new

    def _pending(self, src):
        hit = self.pending
        if hit is not None and hit.source is src:
            return hit
        items = []
        for r in src:
            hidden = bool(r.get("hidden"))
            item = {"player": r["player"], "kind": r["kind"], "hidden": hidden}
            if not hidden and type(r.get("options")) is list:
                item["options"] = r["options"]          # the view's, read-only like it
            if "count" in r:
                item["count"] = r["count"]
            items.append(item)
        if hit is not None and hit.items == items:
            self.pending = PendingPart(src, hit.items, hit.ids)
        else:
            ids: set = set()
            for item in items:
                collect_ids(item.get("options"), ids)
            self.pending = PendingPart(src, items, ids)
        return self.pending

    def _from_log(self, log):
        """The last battle and the display log. The log only grows (its length and last entry
        tell what is new), so a flush turns only the new events into lines; a flush with no
        new event (the clock, a display connecting, a pod-side change) rebuilds nothing."""
        hit = self.log
        if hit is None or not (hit.log is log and 0 < hit.length <= len(log) and log[hit.length - 1] is hit.last_entry):
            battle, closed = last_battle(log)          # another log, or the first look: read it whole
            lines = tail_lines(log)
            total = sum(1 for e in log if e.get("e") not in QUIET_EVENTS)
            self.log = LogPart(log, len(log), log[-1] if log else None, battle, lines, closed, total)
            return battle, lines
        if hit.length == len(log):
            return hit.battle, hit.lines
        # events were appended: only they become new lines
        judged = False
        new = log[hit.length:]
        lines = []
        for e in new:
            kind = e.get("e")
            if kind not in QUIET_EVENTS:
                lines.append(log_line(e))
                judged = judged or kind == "judgment"
        total = hit.total + len(lines)
        lines = (hit.lines + lines)[-DISPLAY_LOG:]
        if not judged:
            battle, closed = hit.battle, hit.closed    # no new battle: the same panel, or its details go on
            if battle is not None and not closed:
                details = []
                for e in new:
                    kind = e.get("e")
                    if kind in CLOSING_EVENTS:
                        closed = True
                        break
                    if kind in BATTLE_DETAIL_EVENTS:
                        details.append(_detail(e))
                if details:
                    battle = dict(battle, details=battle["details"] + details)
        else:
            battle, closed = last_battle(log)
        self.log = LogPart(log, len(log), log[-1] if log else None, battle, lines, closed, total)
        return battle, lines

    def _ready(self, raw):
        """Who is ready: the same object while the session's ready status is equal."""
        hit = self.ready
        if hit is None or hit.raw != raw:
            hit = self.ready = ReadyPart(raw, ready_view(raw))
        return hit.view

    def _catalogue(self, table, visible):
        hit = self.cards
        if hit is not None and hit.visible == visible and hit.table is table:
            return hit.catalogue     # the same visible cards: the same catalogue object
        if self.infos is None or self.infos[0] is not table:
            self.infos = (table, {})     # a game's cards never change: each card's entry is built once
        known = self.infos[1]
        for cid in visible.difference(known).intersection(table):
            known[cid] = card_info(table[cid])
        ids = sorted(visible.intersection(known))
        catalogue = dict(zip(ids, map(known.__getitem__, ids)))
        self.cards = CardsPart(visible, table, catalogue)
        return catalogue
