"""A game profile: loaded from its YAML file, checked against the key registry
(schema.py) and then as a whole (a counter a rule names exists, teams split the seats,
...), every problem with its file and line.

A :class:`Profile` is the checked file with its defaults filled in (``body``, plain data:
what a game's start record keeps, so a game resumes with the profile it started with
even when the file changed since) and its ``hash`` (sha-256 of that body, first 12 hex
digits). Read it through the methods; never change it.
"""

import functools
import hashlib
import json
import os

from engine import CardError, Problem
from engine import load_yaml_text

from hub.profiles.schema import MAX_PROFILE_BYTES, MEASURES, PROFILE, SEAT_IDS, Checker, read_file

DATA = os.path.join(os.path.dirname(__file__), "data")
FORMAT = "lumen-profile/1"
#: the ``rules:`` values whose game Lumen Condenser's tracker keeps (character cards, a pick deadline)
BY_TRACKER = ("tracker",)
DEFAULT_SEATS = {"a": {"label": "1P", "colour": "blue"}, "b": {"label": "2P", "colour": "red"},
                 "c": {"label": "3P", "colour": "green"}, "d": {"label": "4P", "colour": "yellow"}}
#: the words a profile may name, with what they are when it does not
WORDS = {
    "leader": {"ko": "선", "en": "first"},
    "trailer": {"ko": "후", "en": "second"},
    "pass": {"ko": "패스", "en": "pass"},
    "done": {"ko": "완료", "en": "done"},
    "turn_player": {"ko": "턴 플레이어", "en": "turn player"},
    "recycle": {"ko": "순환", "en": "recycle"},
    "pile": {"ko": "버림 더미", "en": "discard pile"},
    "hand": {"ko": "손패", "en": "hand"},
}


class ProfileError(CardError):
    """A profile file is invalid: carries every problem found (``problems``)."""


class Profile:
    __slots__ = ("body", "hash", "file")

    def __init__(self, body, file=None):
        self.body = body
        self.file = file
        self.hash = body_hash(body)

    # ------------------------------------------------------------ reading
    @property
    def id(self):
        return self.body["id"]

    @property
    def name(self):
        return self.body["name"]

    @property
    def rules(self):
        return self.body["rules"]

    @property
    def players(self):
        return tuple(self.body["players"])

    def seats(self, n):
        return SEAT_IDS[:n]

    def seat_info(self, seat):
        return dict(DEFAULT_SEATS[seat], **((self.body.get("seats") or {}).get(seat) or {}))

    def teams(self, n):
        """The teams of an ``n``-seat game: lists of seats (each seat alone when none are given)."""
        t = (self.body.get("teams") or {}).get(str(n))
        return [list(x) for x in t] if t else [[s] for s in self.seats(n)]

    def turn_order(self, n):
        o = (self.body.get("turn_order") or {}).get(str(n))
        return list(o) if o else list(self.seats(n))

    @property
    def turn(self):
        return self.body["turn"]

    @property
    def counters(self):
        return self.body["counters"]

    def counter(self, cid):
        for c in self.body["counters"]:
            if c["id"] == cid:
                return c
        return None

    def pod_counter(self, page):
        """The counter the pod's ``hp`` or ``fp`` page enters, or None."""
        for c in self.body["counters"]:
            if c["pod"] == page:
                return c
        return None

    @property
    def primary(self):
        for c in self.body["counters"]:
            if c["primary"]:
                return c
        return None

    @property
    def picks(self):
        return self.body["picks"]

    @property
    def match(self):
        return self.body["match"]

    def clock_defaults(self):
        """(duration_ms, extra_turns) of the match clock."""
        m = self.body["match"]
        return m["minutes"] * 60_000, m["extra_turns"]

    def procedure(self):
        """The end-of-round procedure (hub/sessions/end_of_round.py): the turn in progress
        finished or not, the extra turns and minutes, the tiebreak steps, the rule named.
        A profile with the older ``at_time: {higher: X}``: X higher, then a drawn game."""
        m = self.body["match"]
        steps = m.get("tiebreak")
        if steps is None:
            at = m.get("at_time")
            steps = ([{"by": "higher", "counters": [at["higher"]], "name": None}] if at else []) + \
                [{"by": "draw", "counters": None, "name": None}]
        return {"finish_turn": m.get("finish_turn", True), "extra_turns": m["extra_turns"],
                "extra_ms": m["extra_minutes"] * 60_000 if m.get("extra_minutes") else None,
                "tiebreak": steps, "ruling": m.get("ruling")}

    def word(self, wid):
        return (self.body.get("words") or {}).get(wid) or WORDS[wid]

    def to_json(self):
        return {"id": self.id, "name": self.name, "hash": self.hash, "rules": self.rules, "players": list(self.players),
                "source": self.body["source"], "best_of": self.match["best_of"], "minutes": self.match["minutes"]}


def body_hash(body):
    blob = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:12]


# ---------------------------------------------------------------- checking

def parse(data, file=None):
    """A :class:`Profile` from loaded YAML (LineDicts), or raise :class:`ProfileError`."""
    ck = Checker(file)
    body = ck.check(PROFILE, data, "", None, None) if isinstance(data, dict) else None
    if body is None and not ck.problems:
        ck.add("a profile file is a mapping of keys (format: %s, id:, name:, ...)" % FORMAT)
    if ck.problems:
        raise ProfileError(ck.problems)
    _whole(ck, data, body)
    if ck.problems:
        raise ProfileError(ck.problems)
    return Profile(body, file)


def _whole(ck, data, b):
    """What the registry alone cannot check: names that must exist, seats and teams."""
    counters = [c["id"] for c in b["counters"]]
    known = set(counters)             # sets, not list.index per counter (issue 39: 50k counters took minutes)
    cline = data.get("counters") or []
    seen = set()
    for i, cid in enumerate(counters):
        if cid in seen:
            ck.add("counter id %r is used twice" % cid, cline[i], "id", "counters[%d].id" % i)
        seen.add(cid)
    for i, c in enumerate(b["counters"]):
        raw = cline[i]
        if c["min"] is not None and c["max"] is not None and c["min"] > c["max"]:
            ck.add("min %d is above max %d" % (c["min"], c["max"]), raw, "min", "counters[%d]" % i)
        starts = c["start"] if isinstance(c["start"], list) else [c["start"]]
        for v in starts:
            if v == "character":
                if b["rules"] not in BY_TRACKER:
                    ck.add("start: character needs rules: tracker (the tracker's character cards)", raw, "start",
                           "counters[%d].start" % i)
            elif (c["min"] is not None and v < c["min"]) or (c["max"] is not None and v > c["max"]):
                ck.add("start %d is outside min..max (%s..%s)" % (v, c["min"], c["max"]), raw, "start",
                       "counters[%d].start" % i)
        if c["at_min"] == "lose" and c["min"] is None:
            ck.add("at_min: lose needs a min", raw, "at_min", "counters[%d].at_min" % i)
    for page in ("hp", "fp"):
        if sum(1 for c in b["counters"] if c["pod"] == page) > 1:
            ck.add("only one counter can be the pod's %s" % page, data, "counters", "counters")
    if sum(1 for c in b["counters"] if c["primary"]) > 1:
        ck.add("only one counter can be primary", data, "counters", "counters")

    def counter_ref(cid, obj, key, where):
        if cid is not None and cid not in known:
            ck.add("names counter %r, which the profile does not have (counters: %s)"
                   % (cid, _some(counters)), obj, key, where)

    turn, rt = b["turn"], data.get("turn") or {}
    if turn["at_limit"]:
        counter_ref(turn["at_limit"]["higher"], rt.get("at_limit"), "higher", "turn.at_limit.higher")
    if turn["at_limit"] and turn["limit"] is None:
        ck.add("at_limit needs a limit", rt, "at_limit", "turn.at_limit")
    m, rm = b["match"], data.get("match") or {}
    if m["at_time"]:
        counter_ref(m["at_time"]["higher"], rm.get("at_time"), "higher", "match.at_time.higher")
    _tiebreak(ck, b, rm, counters)
    if m["best_of"] % 2 == 0:
        ck.add("best_of must be odd (a match is won by a majority), not %d" % m["best_of"], rm, "best_of", "match.best_of")
    players = b["players"]
    for n in players:
        seats = SEAT_IDS[:n]
        teams = (b.get("teams") or {}).get(str(n))
        if teams:
            flat = [s for t in teams for s in t]
            if sorted(flat) != sorted(seats) or len(teams) < 2:
                ck.add("the teams of %d seats must split seats %s among two or more teams, not %r"
                       % (n, " ".join(seats), teams), data.get("teams"), n if n in data.get("teams") else str(n),
                       "teams.%d" % n)
        order = (b.get("turn_order") or {}).get(str(n))
        if order and sorted(order) != sorted(seats):
            ck.add("the turn order of %d seats must name each of %s once, not %r" % (n, " ".join(seats), order),
                   data.get("turn_order"), n if n in data.get("turn_order") else str(n), "turn_order.%d" % n)
    for key in ("teams", "turn_order"):
        for k in (b.get(key) or {}):
            if not k.isdigit() or int(k) not in players:
                ck.add("%s is given for %s seats, but players are %s" % (key, k, players), data.get(key), None, key)
    for s in (b.get("seats") or {}):
        if s not in SEAT_IDS:
            ck.add("seat %r is not one of a b c d" % s, data.get("seats"), s, "seats.%s" % s)
    if turn["first"] not in ("coin",) + SEAT_IDS[:min(players)]:
        ck.add("first seat %r is not a seat of a %d-seat game" % (turn["first"], min(players)), rt, "first", "turn.first")
    for w in (b.get("words") or {}):
        if w not in WORDS:
            ck.add("unknown word %r (words: %s)" % (w, ", ".join(WORDS)), data.get("words"), w, "words.%s" % w)
    if b["picks"]:
        _picks(ck, data.get("picks"), b, counters)


def _tiebreak(ck, b, rm, counters):
    """The end-of-round steps: counters that exist, and a last step that always decides."""
    m = b["match"]
    steps = m["tiebreak"]
    if steps is None:
        return
    raw = rm.get("tiebreak") or []
    if m["at_time"]:
        ck.add("give tiebreak or the older at_time, not both", rm, "at_time", "match.at_time")
    if not steps or steps[-1]["by"] not in ("random", "draw"):
        ck.add("the last tiebreak step must be random or draw (a tie must end somehow)", rm, "tiebreak",
               "match.tiebreak")
    for i, st in enumerate(steps):
        where, line = "match.tiebreak[%d]" % i, raw[i] if i < len(raw) else rm
        names = st["counters"] or []
        if st["by"] in ("random", "draw"):
            if names:
                ck.add("a %s step reads no counters" % st["by"], line, "counters", where)
            continue
        if not names:
            ck.add("a %s step needs the counters it compares" % st["by"], line, "counters", where)
        for cid in names:
            if cid in MEASURES:
                if b["rules"] not in BY_TRACKER:
                    ck.add("%s is counted by the tracker's rules only (rules: tracker)" % cid, line, "counters", where)
            elif cid not in counters:
                ck.add("names counter %r, which the profile does not have (counters: %s)"
                       % (cid, _some(counters)), line, "counters", where)


def _some(names, shown=12):
    """A list of names for an error message: the first ``shown``, then how many more (a profile
    with thousands of counters gets a message a person can read)."""
    names = list(names)
    if not names:
        return "none"
    more = len(names) - shown
    return ", ".join(names[:shown]) + (" and %d more" % more if more > 0 else "")


def _picks(ck, raw, b, counters):
    p = b["picks"]
    parts = [x["id"] for x in p["parts"]]
    if p["deadline_s"] is not None and b["rules"] not in BY_TRACKER:
        ck.add("a pick deadline is kept by the tracker's rules only (rules: tracker); the profile session has none",
               raw, "deadline_s", "picks.deadline_s")
    rparts = raw.get("parts") or []
    seen = set()
    for i, part in enumerate(p["parts"]):
        if part["id"] in seen:
            ck.add("part id %r is used twice" % part["id"], rparts[i], "id", "picks.parts[%d].id" % i)
        seen.add(part["id"])
        opts = part["options"] or []
        ids = [o["id"] for o in opts]
        if len(set(ids)) != len(ids):
            ck.add("option ids repeat in part %s" % part["id"], rparts[i], "options", "picks.parts[%d].options" % i)
        if part["bare"] and opts:
            ck.add("a bare part has no options", rparts[i], "options", "picks.parts[%d]" % i)
        if not part["bare"] and not opts and not b["cards"]:
            ck.add("part %s needs options (or the profile's cards: kind, for the players' card data)" % part["id"],
                   rparts[i], None, "picks.parts[%d]" % i)
    for key in ("priority", "clash", "cycle"):
        if p[key]:
            refs = p[key]["sum"] if key == "priority" else [p[key]["repick"]] if key == "clash" else p[key]["discard"]
            for r in refs:
                if r not in parts:
                    ck.add("%s names part %r, which the pick does not have (parts: %s)" % (key, r, ", ".join(parts)),
                           raw.get(key), None, "picks.%s" % key)
    if p["clash"] and not p["priority"]:
        ck.add("a clash needs priority (a clash is a tie in priority)", raw, "clash", "picks.clash")
    if (p["priority"] or p["ante"]) and max(b["players"]) != 2:
        ck.add("priority and antes compare two seats: players must be [2]", raw, "priority" if p["priority"] else "ante",
               "picks")
    alt = p["alternative"]
    if alt:
        ra = raw.get("alternative") or {}
        if alt["unlock"]["counter"] not in set(counters):
            ck.add("names counter %r, which the profile does not have" % alt["unlock"]["counter"], ra.get("unlock"),
                   "counter", "picks.alternative.unlock.counter")
        if alt["part"] in parts:
            ck.add("the alternative's part must not be a part of the pick", ra, "part", "picks.alternative.part")
        if not p["ante"]:
            ck.add("an alternative is played during the antes: picks.ante is needed", ra, None, "picks.alternative")
        if not alt["options"] and not b["cards"]:
            ck.add("the alternative needs options (or the profile's cards: kind)", ra, None, "picks.alternative")


def load(path):
    """A profile file as a :class:`Profile`; raises :class:`ProfileError` (file:line problems)."""
    return read_file(path, ProfileError, parse)


def load_text(text, file="<text>"):
    return parse(load_yaml_text(text), file)


def from_body(body):
    """A profile as a start record keeps it (checked again: a record is input too)."""
    return parse(json.loads(json.dumps(body)), None)


@functools.lru_cache(maxsize=None)
def bundled():
    """The profiles shipped with the hub (hub/profiles/data/*.yaml) by id (their data kept
    parsed: hub/profiles/parsed.py)."""
    from hub.profiles import parsed
    return parsed.by_id(DATA, parse, ProfileError, MAX_PROFILE_BYTES)


def get(pid):
    """A bundled profile by id; raises KeyError naming the ids there are."""
    b = bundled()
    if pid not in b:
        raise KeyError("unknown game profile %r (profiles: %s)" % (pid, ", ".join(sorted(b))))
    return b[pid]


def check_path(path):
    """``lumen profiles check``: (files checked, problems) for a file or a folder of them. Each
    file is read once (at most the card files' size limit: a profile past its own is refused by
    ``parse``'s caller here), parsed once, and checked as what its ``format`` says it is."""
    from hub.profiles import cards as card_sets
    from hub.profiles.schema import MAX_CARDS_BYTES, MAX_PROFILE_BYTES, parse_yaml, read_text
    files = []
    if os.path.isdir(path):
        for root, _dirs, names in os.walk(path):
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith((".yaml", ".yml"))]
    else:
        files = [path]
    problems, checked = [], []
    for f in sorted(files):
        try:
            text = read_text(f, ProfileError, MAX_CARDS_BYTES)
            size = len(text.encode())
            if size > MAX_PROFILE_BYTES and card_sets.FORMAT_PREFIX not in text[:4096]:
                raise ProfileError([Problem("%d bytes, over the %d-byte limit of a profile: refused unread"
                                            % (size, MAX_PROFILE_BYTES), f)])
            data = parse_yaml(text, f, ProfileError)
            if isinstance(data, dict) and str(data.get("format", "")).startswith(card_sets.FORMAT_PREFIX):
                card_sets.parse(data, f)
            else:
                parse(data, f)
            checked.append(f)
        except (ProfileError, card_sets.CardSetError) as e:
            problems += e.problems
    return checked, problems
