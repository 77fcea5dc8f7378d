"""The registry of a game profile's keys: each key's type, default and meaning, and the
checker that walks a profile file against it.

JSON-Schema-like, kept as data: docs/games.md's key table is checked against
:data:`PROFILE` (tests/profiles/test_format.py), and ``lumen profiles keys`` prints it.
The checker collects every problem with its file and line (engine/core/yamlio.py's line-aware
loader, engine/core/errors.py's :class:`~engine.core.errors.Problem`), like ``lumen cards check``;
unknown keys are an error, as in a scenario file.

Types: ``str``, ``id`` (a-z 0-9 _ -), ``int``, ``bool``, ``text`` (``{ko, en}``, both
given: Korean first, English too), ``enum`` (one of ``choices``), ``obj`` (the ``fields``
listed, no others), ``list`` (of ``items``), ``map`` (any keys, each value ``values``),
``start`` (an integer, a list of integers by turn-order place, or ``character``).
"""

import re

from engine import Problem
from engine import line_of

ID = re.compile(r"^[a-z0-9][a-z0-9_\-]{0,39}$")
SEAT_IDS = ("a", "b", "c", "d")
COLOURS = ("blue", "red", "green", "yellow", "white")


class Key:
    """One key of the format. ``nullable``: ``null`` is a value (the default None means
    "absent" too). ``lo``/``hi``: an integer's bounds."""

    __slots__ = ("type", "doc", "required", "default", "choices", "fields", "items", "values", "nullable",
                 "lo", "hi", "min_items")

    def __init__(self, type, doc, required=False, default=None, choices=None, fields=None, items=None, values=None,
                 nullable=False, lo=None, hi=None, min_items=0):
        self.type, self.doc, self.required, self.default = type, doc, required, default
        self.choices, self.fields, self.items, self.values = choices, fields, items, values
        self.nullable, self.lo, self.hi, self.min_items = nullable, lo, hi, min_items

    def to_json(self):
        d = {"type": self.type, "doc": self.doc}
        if self.required:
            d["required"] = True
        if self.default is not None:
            d["default"] = self.default
        if self.choices:
            d["choices"] = list(self.choices)
        if self.nullable:
            d["nullable"] = True
        if self.lo is not None or self.hi is not None:
            d["range"] = [self.lo, self.hi]
        if self.fields:
            d["fields"] = {k: v.to_json() for k, v in self.fields.items()}
        if self.items:
            d["items"] = self.items.to_json()
        if self.values:
            d["values"] = self.values.to_json()
        return d


TEXT = "text"

OPTION = Key("obj", "one card or choice a seat may pick for this part (used when the players bring no card data)", fields={
    "id": Key("id", "the option's id (what the record keeps)", required=True),
    "name": Key(TEXT, "its name (Korean and English)", required=True),
    "discard": Key("int", "the beginner's setup: the discard pile it starts in (1, 2, ...; seed 004 1.F)", lo=1, hi=5,
                   nullable=True),
    "priority": Key("int", "its priority, when the profile compares priorities (else the pods are asked)", nullable=True,
                    lo=-99, hi=99),
})

PART = Key("obj", "one part of the hidden pick, asked in order (BattleCON: style, then base)", fields={
    "id": Key("id", "the part's id; with card data, the card part it is picked from", required=True),
    "name": Key(TEXT, "what the pods and the display call it", required=True),
    "bare": Key("bool", "a lock with no card behind it (Lumen's tracker: READY is the answer)", default=False),
    "options": Key("list", "the options with no card data, in slot order", items=OPTION),
})

COUNTER = Key("obj", "a number each seat keeps (life, cost, shields, ...)", fields={
    "id": Key("id", "the counter's id", required=True),
    "name": Key(TEXT, "its name", required=True),
    "start": Key("start", "its value at the start: an integer, a list by turn-order place (first player first), "
                          "or `character` (the tracker's character card: rules tracker only)", required=True),
    "min": Key("int", "its lowest value (null: none)", default=0, nullable=True, lo=-99999, hi=99999),
    "max": Key("int", "its highest value (null: none)", nullable=True, lo=-99999, hi=99999),
    "at_min": Key("enum", "what reaching `min` does: lose (the seat is out; its team loses when all of it is out) "
                          "or none", default="none", choices=("lose", "none")),
    "beyond": Key("enum", "an entry past min or max: clamp (kept at the bound, said in the log) or refuse",
                  default="clamp", choices=("clamp", "refuse")),
    "refill": Key("enum", "back to `start` when: own_turn (the seat's turn begins; 요정전승's cost) or none",
                  default="none", choices=("own_turn", "none")),
    "low_at": Key("int", "the display marks it at or below this (BattleCON: 7, shown red)", nullable=True,
                  lo=-99999, hi=99999),
    "pod": Key("enum", "the pod shows it as its HP or FP number and enters it on that page (none: display only)",
               default="none", choices=("hp", "fp", "none")),
    "pod_scale": Key("int", "what one unit is on the pod's page: its HP steps (-100 .. +200) divided by this",
                     default=1, lo=1, hi=1000),
    "primary": Key("bool", "the counter a tournament's end-of-round rule and the display's bar read (one at most)",
                   default=False),
})

SEAT = Key("obj", "how a seat is shown", fields={
    "label": Key("str", "its label (1P, 2P, ...)", required=True),
    "colour": Key("enum", "its colour on the display", required=True, choices=COLOURS),
})

HIGHER = Key("obj", "the seat (or team) with the higher counter wins; equal is a draw", nullable=True, fields={
    "higher": Key("id", "the counter compared", required=True),
})

#: what a tiebreak step may read besides the profile's counters: the non-responses of guide 3.10
#: (Lumen Condenser's tracker counts them; rules: tracker only)
MEASURES = ("non_responses",)

TIEBREAK = Key("obj", "one step of the tiebreak after time, tried in order until one decides", fields={
    "by": Key("enum", "higher: the side with the higher sum of `counters` wins; higher_share: the higher share "
                      "of its own start (the tracker's character: its first health band); fewer: the side with "
                      "fewer wins; random: a seeded draw from the game's seed, recorded; draw: a drawn game",
              required=True, choices=("higher", "higher_share", "fewer", "random", "draw")),
    "counters": Key("list", "the counters added up (a team's seats too); `non_responses`: guide 3.10's count "
                            "(rules: tracker)", items=Key("id", "counter")),
    "name": Key(TEXT, "what the slip and the display call this step", nullable=True),
})

PROFILE = Key("obj", "a game profile (one YAML file)", fields={
    "format": Key("enum", "the format's name and version", required=True, choices=("lumen-profile/1",)),
    "id": Key("id", "the profile's id (`lumen hub --profile ID`, the record's start names it)", required=True),
    "name": Key(TEXT, "the game's name", required=True),
    "source": Key(TEXT, "the rule text the profile follows (cite it in tests)", required=True),
    "rules": Key("enum", "who keeps the game: profile (the generic profile session) or tracker (Lumen Condenser's "
                         "tracker, hub/sessions/tracker.py, which reads the rest of this file)",
                 default="profile", choices=("profile", "tracker")),
    "players": Key("list", "the numbers of seats a game may have", items=Key("int", "seats", lo=2, hi=4),
                   default=[2], min_items=1),
    "seats": Key("map", "labels and colours by seat (a b c d); default 1P blue, 2P red, 3P green, 4P yellow",
                 values=SEAT),
    "teams": Key("map", "by number of seats: the teams, each a list of seats (the first seat names the team)",
                 values=Key("list", "teams", items=Key("list", "a team's seats", items=Key("enum", "seat", choices=SEAT_IDS)))),
    "turn_order": Key("map", "by number of seats: the order turns go round (default a b c d)",
                      values=Key("list", "seats", items=Key("enum", "seat", choices=SEAT_IDS))),
    "turn": Key("obj", "the turn (round, beat) and its counter", required=True, fields={
        "name": Key(TEXT, "what a turn is called (턴, 격투)", required=True),
        "player": Key("enum", "all: every seat plays each turn (BattleCON's beat); rotate: one turn player after "
                              "another in turn order", default="all", choices=("all", "rotate")),
        "first": Key("enum", "who goes first (is [선] in turn 1): coin (a seeded toss) or a seat", default="coin",
                     choices=("coin",) + SEAT_IDS),
        "limit": Key("int", "the last turn (null: none); after it `at_limit` decides", nullable=True, lo=1, hi=999),
        "at_limit": HIGHER,
        "confirm_end": Key("bool", "the pods end a turn: every seat playing it presses READY (the display can too)",
                           default=True),
    }),
    "counters": Key("list", "the numbers each seat keeps", items=COUNTER, default=[]),
    "picks": Key("obj", "the hidden pick every seat makes each turn, all at once", nullable=True, fields={
        "parts": Key("list", "its parts, asked in order", items=PART, required=True, min_items=1),
        "deadline_s": Key("int", "seconds the others have once a seat locked (Lumen: 10; null: none)", nullable=True,
                          lo=1, hi=600),
        "alternative": Key("obj", "a card played instead of the whole pick (BattleCON's finisher)", nullable=True, fields={
            "part": Key("id", "its card part", required=True),
            "name": Key(TEXT, "its name", required=True),
            "unlock": Key("obj", "when it may be played", required=True, fields={
                "counter": Key("id", "the seat's counter", required=True),
                "at_most": Key("int", "at or below this", required=True, lo=-99999, hi=99999),
            }),
            "once": Key("bool", "once a game (duel)", default=True),
            "wins_ties": Key("bool", "it wins a tie in priority (against a pick)", default=True),
            "options": Key("list", "its options with no card data", items=OPTION),
        }),
        "ante": Key("obj", "after the pick, before the reveal: antes in turn, last turn's leader first, until every "
                           "seat passes in a row (the alternative is played here)", nullable=True, fields={
            "name": Key(TEXT, "what an ante is called", required=True),
        }),
        "priority": Key("obj", "the reveal decides who leads: the higher sum of these parts' priority (card data), "
                               "or, with no card data, the players say it on a pod", nullable=True, fields={
            "sum": Key("list", "the parts whose priorities add up", items=Key("id", "part"), required=True),
            "name": Key(TEXT, "what priority is called", required=True),
        }),
        "clash": Key("obj", "a tie in priority: every seat picks another card of this part, hidden, revealed "
                            "together; again until priorities differ; a seat with none left ends the turn",
                     nullable=True, fields={
            "repick": Key("id", "the part picked again", required=True),
            "name": Key(TEXT, "what a clash is called", required=True),
        }),
        "cycle": Key("obj", "discard piles: the turn's top cards go to pile 1, each pile moves down one, the last "
                            "comes back to hand; cards in piles cannot be picked", nullable=True, fields={
            "piles": Key("int", "how many piles", required=True, lo=1, hi=5),
            "discard": Key("list", "the parts discarded (on a clash only the top card of each)", items=Key("id", "part"),
                           required=True),
        }),
    }),
    "cards": Key("enum", "the card kind a seat's card data is (hub/profiles/cards.py), null: none", nullable=True,
                 choices=("battlecon",)),
    "match": Key("obj", "a match and its clock", fields={
        "best_of": Key("int", "games (duels) a match has", default=1, lo=1, hi=9),
        "minutes": Key("int", "the match clock's default length", default=30, lo=1, hi=240),
        "finish_turn": Key("bool", "at time the turn in progress is played to its end first (its recovery phase "
                                   "included), then the extra turns count", default=True),
        "extra_turns": Key("int", "turns played after time (after the turn in progress)", default=0, lo=0, hi=10),
        "extra_minutes": Key("int", "or this many minutes after the turn in progress, whichever comes first (an "
                                    "extra turn begun before they run out is played to its end); null: turns only",
                             nullable=True, lo=1, hi=60),
        "tiebreak": Key("list", "a game still undecided after the extra turns: these steps in order (the last must "
                                "be random or draw)", items=TIEBREAK),
        "ruling": Key(TEXT, "the rule the procedure follows (the slip names it)", nullable=True),
        "at_time": Key("obj", "the older form of `tiebreak` (higher counter, then a draw); not with `tiebreak`",
                       nullable=True, fields={"higher": Key("id", "the counter compared", required=True)}),
    }, default={}),
    "words": Key("map", "extra words the game uses in the log and on the display (ids: leader, trailer, ...)",
                 values=Key(TEXT, "a word")),
})


class Checker:
    """Walks data against a :class:`Key`; collects :class:`Problem` s with file and line."""

    def __init__(self, file=None):
        self.file = file
        self.problems = []

    def add(self, message, obj=None, key=None, field=None):
        self.problems.append(Problem(message, self.file, line_of(obj, key), None, field))

    def check(self, spec, value, path, parent=None, key=None):
        """The value with the defaults filled in (plain dicts and lists), or None on a problem."""
        if value is None:
            if spec.nullable or not spec.required:
                return _plain_default(spec.default)
            self.add("is required", parent, key, path)
            return None
        t = spec.type
        if t == "obj":
            return self._obj(spec, value, path, parent, key)
        if t == "list":
            if not isinstance(value, list):
                self.add("must be a list, not %r" % (value,), parent, key, path)
                return None
            if len(value) < spec.min_items:
                self.add("needs at least %d item%s" % (spec.min_items, "" if spec.min_items == 1 else "s"),
                         parent, key, path)
            out = []
            for i, v in enumerate(value):
                out.append(self.check(spec.items, v, "%s[%d]" % (path, i), parent if not hasattr(v, "line") else v,
                                      key if not hasattr(v, "line") else None))
            return out
        if t == "map":
            if not isinstance(value, dict):
                self.add("must be a mapping, not %r" % (value,), parent, key, path)
                return None
            return {str(k): self.check(spec.values, v, "%s.%s" % (path, k), value, k) for k, v in value.items()}
        if t == TEXT:
            if isinstance(value, dict) and set(value) == {"ko", "en"} and all(isinstance(x, str) and x.strip()
                                                                              for x in value.values()):
                return {"ko": value["ko"], "en": value["en"]}
            self.add("must be {ko: ..., en: ...} with both texts (Korean first, English too), not %r" % (value,),
                     parent, key, path)
            return None
        if t == "start":
            if value == "character" or _is_int(value) or (isinstance(value, list) and value and all(map(_is_int, value))):
                return list(value) if isinstance(value, list) else value
            self.add("must be an integer, a list of integers (by turn-order place) or `character`, not %r" % (value,),
                     parent, key, path)
            return None
        if t == "int":
            if not _is_int(value):
                self.add("must be an integer, not %r" % (value,), parent, key, path)
                return None
            if (spec.lo is not None and value < spec.lo) or (spec.hi is not None and value > spec.hi):
                self.add("must be %s..%s, not %d" % (spec.lo, spec.hi, value), parent, key, path)
                return None
            return value
        if t == "bool":
            if not isinstance(value, bool):
                self.add("must be true or false, not %r" % (value,), parent, key, path)
                return None
            return value
        if t == "enum":
            if value not in spec.choices:
                self.add("must be one of %s, not %r" % (", ".join(map(str, spec.choices)), value), parent, key, path)
                return None
            return value
        if t == "id":
            if not isinstance(value, str) or not ID.match(value):
                self.add("must be an id (a-z, 0-9, _ and -, 40 at most), not %r" % (value,), parent, key, path)
                return None
            return value
        if t == "str":
            if not isinstance(value, str) or not value.strip():
                self.add("must be a text, not %r" % (value,), parent, key, path)
                return None
            return value
        raise AssertionError("unknown key type %r" % t)        # pragma: no cover (the registry's own bug)

    def _obj(self, spec, value, path, parent, key):
        if not isinstance(value, dict):
            self.add("must be a mapping, not %r" % (value,), parent, key, path)
            return None
        out = {}
        for k in value:
            if k not in spec.fields:
                self.add("unknown key %r (keys: %s)" % (k, ", ".join(spec.fields)), value, k,
                         "%s.%s" % (path, k) if path else str(k))
        for k, sub in spec.fields.items():
            where = "%s.%s" % (path, k) if path else k
            if k not in value:
                if sub.required:
                    self.add("%s is required" % k, value, None, where)
                if sub.type == "obj" and isinstance(sub.default, dict):
                    out[k] = self._obj(sub, dict(sub.default), where, value, k)      # its own defaults filled in
                else:
                    out[k] = _plain_default(sub.default)
                continue
            out[k] = self.check(sub, value[k], where, value, k)
        return out


#: the largest profile file read (issue 39: checked before a byte is parsed); the bundled ones
#: are 2-4 KB, a profile with thousands of counters is no game a table keeps
MAX_PROFILE_BYTES = 256 * 1024
#: the largest profile card file: ~9,000 cards (~110 bytes a card; BattleCON's whole range is
#: ~1,100, ~120 KB); parsed in ~0.15 s here and ~80 MB at most (4 MB took 2 s and 330 MB, too
#: much for a Pi Zero 2 W's 512 MB). The bundled BattleCON sample is 3 KB
MAX_CARDS_BYTES = 1024 * 1024


def read_text(path, error, limit):
    """The text of a regular file of at most ``limit`` bytes, else ``error([Problem])``: a FIFO
    named ``*.yaml`` (its reader would wait for a writer forever), a device, a folder or a file
    past the limit is refused before a byte is parsed (issue 39)."""
    import os
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)   # a FIFO opens at once, unread
    except OSError as e:
        raise error([Problem("cannot read: %s" % (e.strerror or e), path)]) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error([Problem("not a regular file (a %s): refused" % _kind(st.st_mode), path)])
        if st.st_size > limit:
            raise error([Problem("%d bytes, over the %d-byte limit of this kind of file: refused unread"
                                 % (st.st_size, limit), path)])
        data = os.read(fd, limit + 1)
        while len(data) <= limit:
            more = os.read(fd, limit + 1 - len(data))
            if not more:
                break
            data += more
        if len(data) > limit:      # it grew while it was read
            raise error([Problem("over the %d-byte limit of this kind of file: refused" % limit, path)])
    except OSError as e:
        raise error([Problem("cannot read: %s" % (e.strerror or e), path)]) from None
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error([Problem("not UTF-8 text: %s" % e, path)]) from None


def _kind(mode):
    import stat
    return ("directory" if stat.S_ISDIR(mode) else "FIFO" if stat.S_ISFIFO(mode) else "socket" if stat.S_ISSOCK(mode)
            else "device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "special file")


def parse_yaml(text, path, error):
    """YAML text (a profile or card file) as data; a syntax problem raised as ``error`` with
    its line."""
    import gc
    from engine import load_yaml_text
    was = gc.isenabled()
    gc.disable()        # every node lives on until the parse ends: collections find nothing (3x the time at 1 MB)
    try:
        return load_yaml_text(text)
    except Exception as e:       # a YAML syntax error names its line
        mark = getattr(e, "problem_mark", None)
        raise error([Problem("not valid YAML: %s" % getattr(e, "problem", e), path,
                             mark.line + 1 if mark else None)]) from None
    finally:
        if was:
            gc.enable()


def read_file(path, error, parse, limit=MAX_PROFILE_BYTES):
    """``parse(data, path)`` of a YAML file of at most ``limit`` bytes, its reading and syntax
    problems raised as ``error([Problem])`` with the file and line."""
    return parse(parse_yaml(read_text(path, error, limit), path, error), path)


def _plain_default(d):
    if isinstance(d, (dict, list)):
        import copy
        return copy.deepcopy(d)
    return d


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def registry():
    """The format as JSON (``lumen profiles keys``)."""
    return PROFILE.to_json()


def key_paths(spec=PROFILE, prefix=""):
    """Every key's dotted path (``turn.limit``, ``counters[].pod``): what docs/games.md lists."""
    out = []
    for k, sub in (spec.fields or {}).items():
        p = prefix + k
        out.append(p)
        inner = sub.items if sub.type == "list" else sub.values if sub.type == "map" else sub
        if inner is not None and inner.type == "obj":
            out += key_paths(inner, p + ("[]." if sub.type == "list" else ".*." if sub.type == "map" else "."))
    return out
