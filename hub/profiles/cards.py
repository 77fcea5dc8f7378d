"""A profile's card data: the players' own cards for a game whose profile names a card
kind (``cards: battlecon``), checked like a Lumen card file (file:line problems).

Only what the table companion reads is kept: a card's part (what it is picked as), its
name (Korean; English optional) and its printed numbers. BattleCON (seed 004 a.): range
(파랑), power (빨강), priority (노랑), stun guard (녹색); a style's numbers are what it
adds to the base's. There is no rules engine behind them: the priorities decide who leads
and a clash, the names go to the pods and the display, the players resolve the rest.

A file::

    format: lumen-profile-cards/1
    kind: battlecon
    set: {id: battlecon-sample, name: {ko: ..., en: ...}, sample: true}
    bases: [ ...cards every character has... ]
    characters:
      - id: hana
        name: 하나
        name_en: Hana
        cards: [ {id, part: style | base | finisher, name, range: [1, 2], power, priority,
                  stun_guard, discard: 1 | 2, text}, ... ]
"""

import functools
import os

from engine import CardError, Problem
from engine import line_of

from hub.profiles.schema import MAX_CARDS_BYTES, read_file

FORMAT_PREFIX = "lumen-profile-cards/"
FORMAT = "lumen-profile-cards/1"
DATA = os.path.join(os.path.dirname(__file__), "data", "cards")
#: the card kinds: their parts and their numbers (name -> (lowest, highest))
KINDS = {
    "battlecon": {
        "parts": ("style", "base", "finisher"),
        "numbers": {"power": (-20, 20), "priority": (-20, 20), "stun_guard": (0, 20)},
        "range": True,
        "ko": {"range": "사거리", "power": "위력", "priority": "우선권", "stun_guard": "경직저항"},
        "en": {"range": "range", "power": "power", "priority": "priority", "stun_guard": "stun guard"},
    },
}
CARD_KEYS = ("id", "part", "name", "name_en", "range", "power", "priority", "stun_guard", "discard", "text")


class CardSetError(CardError):
    """A card data file is invalid (``problems``: every one found)."""


class CardSet:
    """A checked card file: ``characters`` (id -> {id, name, name_en, cards: [card dicts]}),
    each character's cards including the shared bases. Plain data (``body``) for the record."""

    __slots__ = ("body", "file")

    def __init__(self, body, file=None):
        self.body, self.file = body, file

    @property
    def id(self):
        return self.body["set"]["id"]

    @property
    def kind(self):
        return self.body["kind"]

    def character(self, cid):
        for c in self.body["characters"]:
            if cid in (c["id"], c["name"]):
                return c
        raise KeyError("card set %s has no character %r (characters: %s)"
                       % (self.id, cid, ", ".join(c["id"] for c in self.body["characters"])))

    def to_json(self):
        return {"id": self.id, "kind": self.kind, "name": self.body["set"]["name"], "sample": self.body["set"]["sample"],
                "characters": [{"id": c["id"], "name": c["name"], "name_en": c["name_en"]} for c in self.body["characters"]]}


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class _Ck:
    def __init__(self, file):
        self.file, self.problems = file, []

    def add(self, msg, obj=None, key=None, card=None, field=None):
        self.problems.append(Problem(msg, self.file, line_of(obj, key), card, field))


def _card(ck, kind, d, shared=False):
    spec = KINDS[kind]
    if not isinstance(d, dict):
        ck.add("a card is a mapping (id:, part:, name:, ...), not %r" % (d,))
        return None
    cid = d.get("id")
    for k in d:
        if k not in CARD_KEYS:
            ck.add("unknown key %r (keys: %s)" % (k, ", ".join(CARD_KEYS)), d, k, cid, k)
    if not isinstance(cid, str) or not cid.strip():
        ck.add("id is required (a text)", d, "id", None, "id")
        return None
    part = d.get("part")
    if part not in spec["parts"]:
        ck.add("part must be one of %s, not %r" % (", ".join(spec["parts"]), part), d, "part", cid, "part")
    elif shared and part != "base":
        ck.add("a shared card is a base, not a %s" % part, d, "part", cid, "part")
    name = d.get("name")
    if not isinstance(name, str) or not name.strip():
        ck.add("name is required (its Korean name)", d, "name", cid, "name")
    if d.get("name_en") is not None and not isinstance(d.get("name_en"), str):
        ck.add("name_en must be a text", d, "name_en", cid, "name_en")
    out = {"id": cid, "part": part, "name": name, "name_en": d.get("name_en"), "text": d.get("text")}
    if out["text"] is not None and not isinstance(out["text"], str):
        ck.add("text must be a text", d, "text", cid, "text")
    for k, (lo, hi) in spec["numbers"].items():
        v = d.get(k, 0 if k == "stun_guard" else None)
        if v is None and k == "power":
            out[k] = None           # a card with no power (N/A)
            continue
        if not _is_int(v) or not lo <= v <= hi:
            ck.add("%s must be an integer %d..%d, not %r" % (k, lo, hi, v), d, k, cid, k)
        out[k] = v
    r = d.get("range")
    if r is not None and not (isinstance(r, list) and len(r) == 2 and all(map(_is_int, r)) and 0 <= r[0] <= r[1] <= 9):
        ck.add("range must be [lowest, highest] (0..9) or null, not %r" % (r,), d, "range", cid, "range")
    out["range"] = list(r) if isinstance(r, list) else None
    disc = d.get("discard")
    if disc is not None and disc not in (1, 2, 3, 4, 5):
        ck.add("discard must be the pile number it starts in (1, 2, ...), not %r" % (disc,), d, "discard", cid, "discard")
    if disc is not None and part == "finisher":
        ck.add("a finisher does not start in a discard pile", d, "discard", cid, "discard")
    out["discard"] = disc
    return out


def parse(data, file=None):
    ck = _Ck(file)
    if not isinstance(data, dict):
        raise CardSetError([Problem("a card data file is a mapping (format: %s, kind:, set:, characters:)" % FORMAT, file)])
    for k in data:
        if k not in ("format", "kind", "set", "bases", "characters"):
            ck.add("unknown key %r (keys: format, kind, set, bases, characters)" % k, data, k, None, k)
    if data.get("format") != FORMAT:
        ck.add("format must be %s, not %r" % (FORMAT, data.get("format")), data, "format", None, "format")
    kind = data.get("kind")
    if kind not in KINDS:
        ck.add("kind must be one of %s, not %r" % (", ".join(KINDS), kind), data, "kind", None, "kind")
        raise CardSetError(ck.problems)
    st = data.get("set")
    if not isinstance(st, dict) or not isinstance(st.get("id"), str) or not isinstance(st.get("name"), dict) \
            or set(st.get("name") or {}) != {"ko", "en"}:
        ck.add("set must be {id, name: {ko, en}, sample: true|false}", data, "set", None, "set")
        st = {"id": "?", "name": {"ko": "?", "en": "?"}}
    else:
        for k in st:
            if k not in ("id", "name", "sample"):
                ck.add("unknown key %r (keys: id, name, sample)" % k, st, k, None, "set.%s" % k)
    shared = []
    for d in data.get("bases") or []:
        c = _card(ck, kind, d, shared=True)
        if c:
            shared.append(c)
    chars = []
    raw_chars = data.get("characters")
    if not isinstance(raw_chars, list) or not raw_chars:
        ck.add("characters must be a list of at least one character", data, "characters", None, "characters")
        raw_chars = []
    seen_chars = set()
    for ch in raw_chars:
        if not isinstance(ch, dict):
            ck.add("a character is a mapping (id, name, cards)", data, "characters")
            continue
        for k in ch:
            if k not in ("id", "name", "name_en", "cards"):
                ck.add("unknown key %r (keys: id, name, name_en, cards)" % k, ch, k, None, k)
        chid = ch.get("id")
        if not isinstance(chid, str) or not isinstance(ch.get("name"), str):
            ck.add("a character needs an id and a (Korean) name", ch, None, None, "character")
            continue
        if chid in seen_chars:
            ck.add("character id %r is used twice" % chid, ch, "id", None, "id")
        seen_chars.add(chid)
        cards = [c for c in (_card(ck, kind, d) for d in (ch.get("cards") or [])) if c] + shared
        seen_ids = set()                # a set (issue 39: ids.index per card was quadratic: 60k cards > 30 s)
        for c in cards:
            if c["id"] in seen_ids:
                ck.add("card id %r is used twice in %s" % (c["id"], chid), ch, "cards", c["id"], "id")
            seen_ids.add(c["id"])
        for part in KINDS[kind]["parts"]:
            if part != "finisher" and not any(c["part"] == part for c in cards):
                ck.add("%s has no %s card" % (chid, part), ch, "cards", None, "cards")
        chars.append({"id": chid, "name": ch["name"], "name_en": ch.get("name_en"), "cards": cards})
    if ck.problems:
        raise CardSetError(ck.problems)
    return CardSet({"format": FORMAT, "kind": kind,
                    "set": {"id": st["id"], "name": st["name"], "sample": bool(st.get("sample"))},
                    "characters": chars}, file)


def load(path):
    """A card file as a :class:`CardSet` (at most ``MAX_CARDS_BYTES``: refused unread past it)."""
    return read_file(path, CardSetError, parse, MAX_CARDS_BYTES)


@functools.lru_cache(maxsize=None)
def bundled():
    """The card sets shipped with the hub (sample cards, marked as such) by id (their data kept
    parsed: hub/profiles/parsed.py)."""
    from hub.profiles import parsed
    return parsed.by_id(DATA, parse, CardSetError, MAX_CARDS_BYTES)


def from_body(body):
    return CardSet(body)
