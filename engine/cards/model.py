"""Card and character definitions, parsed and validated from plain data (YAML/JSON).

A card is immutable once built. Validation collects every problem it finds
(file, line, card id, field) instead of stopping at the first, so that
``lumen cards check`` can print them all at once. The format is documented
field by field in docs/card-format.md.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from engine.cards.effects import by_zone, cont_by_zone, index, plain
from engine.cards.lint import check_effects
from engine.core.errors import CardError, Problem
from engine.core.yamlio import line_of

KINDS = ("attack", "defense", "special")
POSITIONS = ("high", "mid", "low")
ATTACK_RESULTS = ("hit", "counter", "guarded", "evaded", "countered")
DEFENSE_RESULTS = ("guard", "evade", "offset", "was_hit")
JUDGMENTS = ("evade", "guard", "offset")

NO_RESULT = (0, False)  # (fp, combo) of a missing result key: 0 FP, no combo (brief 4.2)
EMPTY: dict[str, Any] = {}


class Cond:
    """A judgment condition: positions it applies to, optionally bounded by the
    opponent's *reference* speed (before FP, guide 3.7.1 / 5.3.2)."""

    __slots__ = ("positions", "speed_min", "speed_max")
    positions: frozenset[str]
    speed_min: int | None
    speed_max: int | None

    def __init__(self, positions: Iterable[str], speed_min: int | None = None, speed_max: int | None = None) -> None:
        self.positions = frozenset(positions)
        self.speed_min = speed_min
        self.speed_max = speed_max

    def matches(self, position: str | None, ref_speed: int) -> bool:
        if position not in self.positions:
            return False
        if self.speed_min is not None and ref_speed < self.speed_min:
            return False
        if self.speed_max is not None and ref_speed > self.speed_max:
            return False
        return True

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"positions": [p for p in POSITIONS if p in self.positions]}
        if self.speed_min is not None:
            d["speed_min"] = self.speed_min
        if self.speed_max is not None:
            d["speed_max"] = self.speed_max
        return d

    def __bool__(self) -> bool:
        return bool(self.positions)


class AnyCond:
    """Several judgment conditions of one kind: the printed one and those gained
    from effects (engine/cards/effects.py ``add_judgment``); any one matching is enough."""

    __slots__ = ("conds",)
    conds: tuple[Cond, ...]

    def __init__(self, conds: Iterable[Cond]) -> None:
        self.conds = tuple(conds)

    def matches(self, position: str | None, ref_speed: int) -> bool:
        for c in self.conds:
            if c.matches(position, ref_speed):
                return True
        return False

    def __bool__(self) -> bool:
        return any(self.conds)


class Card:
    """One skill card (attack, defense or special).

    ``evade``/``guard``/``offset`` are Cond or None. For an attack they come
    from its special judgments (``special:``), for a defense from its defense
    judgment area. ``results`` maps a result key to ``(fp, combo)``.
    """

    __slots__ = ("id", "name", "name_en", "number", "kind", "mark", "ultimate",
                 "speed", "position", "damage", "results", "evade", "guard",
                 "offset", "grab", "text", "effects", "source",
                 "fx", "cont", "zfx", "zcont", "link_speed", "combo_bonus", "use_if")
    id: str
    kind: str                                   # attack, defense or special
    name: str
    name_en: str | None
    number: Any                                 # the printed number, as the file has it
    mark: str
    ultimate: bool
    speed: int | None                           # an attack's speed; None for a defense or special
    position: str | None                        # high, mid or low (an attack)
    damage: int
    results: dict[str, tuple[int, bool]]        # result key -> (fp, combo)
    evade: Cond | None
    guard: Cond | None
    offset: Cond | None
    grab: bool
    text: dict[str, str] | None                 # {ko, en}
    effects: tuple[dict[str, Any], ...]         # the ``effects:`` entries (engine/cards/effects.py)
    source: Any
    fx: dict[str, Any]                          # timing -> ((i, entry, zones), ...)
    cont: tuple[Any, ...]                       # the continuous entries: ((i, entry, zones), ...)
    zfx: dict[str, Any]
    zcont: dict[str, Any]
    link_speed: int | None
    combo_bonus: int
    use_if: tuple[Any, ...]

    def __init__(self, id: str, kind: str, name: str | None = None, name_en: str | None = None, number: Any = None,
                 mark: str = "neutral", ultimate: bool = False, speed: int | None = None, position: str | None = None,
                 damage: int = 0, results: dict[str, tuple[int, bool]] | None = None, evade: Cond | None = None,
                 guard: Cond | None = None, offset: Cond | None = None, grab: bool = False,
                 text: dict[str, str] | None = None, effects: Iterable[dict[str, Any]] = (), source: Any = None) -> None:
        self.id = id
        self.kind = kind
        self.name = name or id
        self.name_en = name_en
        self.number = number
        self.mark = mark
        self.ultimate = ultimate
        self.speed = speed
        self.position = position
        self.damage = damage
        self.results = results or {}
        self.evade = evade
        self.guard = guard
        self.offset = offset
        self.grab = grab
        self.text = text
        self.effects = tuple(effects)
        self.source = source
        # the effects indexed by timing, and the continuous ones (engine/cards/effects.py)
        self.fx, self.cont = index(self.effects, kind, ultimate) if self.effects else (EMPTY, ())
        self.zfx = by_zone(self.fx) if self.fx else EMPTY     # {zone: {timing: ((i, entry), ...)}}
        self.zcont = cont_by_zone(self.cont)                   # {zone: {group: (entry, ...)}}
        # combo links (guide 5.4): a "treat as speed X" function counts in every zone (5.6.1);
        # combo legality counts the card's own unconditional on-combo damage (brief ruling 2)
        self.link_speed = speed
        self.combo_bonus = 0
        # its use conditions (guide 3.10 "사용 조건"): every one must hold for the card to be used
        self.use_if = tuple(e["if"] for _i, e, _z in self.cont if e["do"] == "use_condition" and "if" in e)
        for _i, e, _z in self.cont:
            if e.get("target", "self") != "self":   # treat_speed and damage default to self
                continue
            if e["do"] == "treat_speed" and "if" not in e and self.link_speed == speed:
                self.link_speed = e["speed"]
            elif e["do"] == "damage" and e.get("if") in (None, {"in_combo": True}):
                self.combo_bonus += e["amount"]
        for _i, e, _z in self.fx.get("on_combo", ()):
            if e["do"] == "damage" and e.get("target", "self") == "self" and "if" not in e and not e.get("optional"):
                self.combo_bonus += e["amount"]

    @property
    def is_attack(self) -> bool:
        return self.kind == "attack"

    @property
    def is_special(self) -> bool:
        return self.kind == "special"

    def result(self, key: str | None) -> tuple[int, bool]:
        return self.results.get(key, NO_RESULT) if key is not None else NO_RESULT

    def option_text(self, option: str, lang: str = "ko") -> str | None:
        """What an option of this card's ``choice`` does, in ``lang`` ("1 faster"): the option's
        name in the card file is an identifier, not words for a person."""
        from engine.cards.text import entry_text
        for entry in self.effects:
            options = entry.get("options") if entry.get("do") == "choice" else None
            if isinstance(options, dict) and option in options:
                return ", ".join(entry_text(e, lang) for e in options[option])
        return None

    def label(self, lang: str = "ko") -> str:
        if lang == "en" and self.name_en:
            return "%s (%s)" % (self.name, self.name_en)
        return self.name

    def to_json(self) -> dict[str, Any]:
        """The card as data in the card-file format (round-trips through parse_card)."""
        d: dict[str, Any] = {"id": self.id, "name": self.name, "kind": self.kind, "mark": self.mark}
        if self.name_en:
            d["name_en"] = self.name_en
        if self.number:
            d["number"] = self.number
        if self.ultimate:
            d["ultimate"] = True
        res = {k: _result_json(v) for k, v in self.results.items()}
        if self.kind == "attack":
            d["speed"] = self.speed
            d["position"] = self.position
            d["damage"] = self.damage
            if res:
                d["results"] = res
            special: dict[str, Any] = {}
            if self.evade is not None:
                special["evade"] = self.evade.to_json()
            if self.offset is not None:
                special["offset"] = self.offset.to_json()
            if self.grab:
                special["grab"] = True
            if special:
                d["special"] = special
        elif self.kind == "defense":
            for key in JUDGMENTS:
                cond = getattr(self, key)
                if cond is None:
                    d[key] = []
                elif cond.speed_min is None and cond.speed_max is None:
                    d[key] = cond.to_json()["positions"]
                else:
                    d[key] = cond.to_json()
            if res:
                d["results"] = res
        if self.text:
            d["text"] = dict(self.text)
        if self.effects:
            d["effects"] = list(self.effects)
        return d


def _result_json(v: tuple[int, bool]) -> dict[str, Any]:
    fp, combo = v
    d: dict[str, Any] = {"fp": fp}
    if combo:
        d["combo"] = True
    return d


def hand_limit(bands: Sequence[int], limits: Sequence[int], health: int) -> int:
    """The hand limit at ``health`` (guide 3.3.1, brief 4.2): the one rule, used by the engine's
    characters and the hub's tracker roster alike.

    Bands [5000, 4000, 3000, 2000, 1000] with limits [6, 7, 8, 9, 9]: above 4000 -> 6, above
    3000 (up to 4000) -> 7, ..., 1000 or less -> 9 (the last limit).

    >>> [hand_limit([5000, 4000, 3000, 2000, 1000], [6, 7, 8, 9, 9], h) for h in (5000, 4001, 4000, 1001, 1000, 0)]
    [6, 6, 7, 9, 9, 9]
    """
    for i in range(len(bands) - 1):
        if health > bands[i + 1]:
            return limits[i]
    return limits[-1]


class Character:
    """A character card: health bands with their hand limits, a mark, a trait, token counters.

    The trait's ``effects`` (guide 3.3.2) apply from game start: its functions may change
    the starting health (``start_health``), the hand limit (``hand_limit``) or the
    deck-building limits (``deck_rule``, only the items it names, guide 4.5.1).
    """

    __slots__ = ("id", "name", "name_en", "mark", "health", "hand_limit", "trait", "tokens",
                 "fx", "cont", "zfx", "zcont", "start", "deck_rules", "trait_id", "limits", "trait_effects")
    id: str | None
    name: str | None
    name_en: str | None
    mark: str | None
    health: tuple[int, ...]                     # the health bands, from the starting health down
    hand_limit: tuple[int, ...]                 # the hand limit of each band
    limits: dict[int, int]
    trait: dict[str, Any] | None
    tokens: tuple[dict[str, Any], ...]
    trait_effects: tuple[dict[str, Any], ...]
    trait_id: str
    fx: dict[str, Any]
    cont: tuple[Any, ...]
    zfx: dict[str, Any]
    zcont: dict[str, Any]
    start: int
    deck_rules: dict[str, Any]

    def __init__(self, health: Iterable[int], hand_limit: Iterable[int], id: str | None = None, name: str | None = None,
                 name_en: str | None = None, mark: str | None = None, trait: dict[str, Any] | None = None,
                 tokens: Iterable[dict[str, Any]] = ()) -> None:
        self.id = id
        self.name = name or id
        self.name_en = name_en
        self.mark = mark or id
        self.health = tuple(health)
        self.hand_limit = tuple(hand_limit)
        self.limits = {}                 # health -> hand limit, filled as asked (derived data)
        self.trait = trait
        self.tokens = tuple(tokens)      # ({"id", "name", "start", "max"}, ...) (brief 6)
        effects = (trait or {}).get("effects") or ()
        self.trait_effects = tuple(effects)
        self.trait_id = (trait or {}).get("id") or ("%s-trait" % (id or "character"))
        self.fx, self.cont = index(effects, "trait") if effects else (EMPTY, ())
        self.zfx = by_zone(self.fx) if self.fx else EMPTY
        self.zcont = cont_by_zone(self.cont, "trait")    # every trait function works from the trait
        self.start = self.health[0]
        self.deck_rules = {}
        for _i, e, _z in self.cont:
            if e["do"] == "start_health":
                self.start = e["amount"]
            elif e["do"] == "deck_rule":
                self.deck_rules.update({k: v for k, v in e.items() if k != "do" and k != "text" and v is not None})

    @property
    def start_health(self) -> int:
        return self.start

    def token_start(self) -> dict[str, int]:
        return {t["id"]: t.get("start", 0) for t in self.tokens}

    def token_max(self, name: str) -> int | None:
        for t in self.tokens:
            if t["id"] == name:
                return t.get("max")
        return None

    def limit_for(self, health: int) -> int:
        """Hand limit for a health value.

        Bands [5000, 4000, 3000, 2000, 1000] with limits [6, 7, 8, 9, 9]: above
        4000 -> 6, above 3000 -> 7, ..., 1000 or less -> 9 (brief 4.2).
        """
        limit = self.limits.get(health)
        if limit is None:
            limit = self.limits[health] = hand_limit(self.health, self.hand_limit, health)
        return limit

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"health": list(self.health), "hand_limit": list(self.hand_limit)}
        for key in ("id", "name", "name_en", "mark"):
            v = getattr(self, key)
            if v is not None:
                d[key] = v
        if self.trait is not None:
            d["trait"] = self.trait
        if self.tokens:
            d["tokens"] = [dict(t) for t in self.tokens]
        return d


# ---------------------------------------------------------------- validation

class ProblemCollector:
    """Collects problems while parsing one file."""

    def __init__(self, file: str | None = None) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def add(self, message: str, obj: Any = None, key: Any = None, card: str | None = None, field: str | None = None) -> None:
        self.problems.append(Problem(message, self.file, line_of(obj, key), card, field))


CARD_KEYS = {
    "common": {"id", "name", "name_en", "number", "kind", "mark", "ultimate", "text", "effects"},
    "attack": {"speed", "position", "damage", "results", "special"},
    "defense": {"guard", "evade", "offset", "results"},
    "special": set(),
}
SPECIAL_KEYS = {"evade", "offset", "grab"}
COND_KEYS = {"positions", "speed_min", "speed_max"}
RESULT_KEYS = {"fp", "combo"}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _text(ck: "ProblemCollector", value: Any, card_id: str | None, field: str, obj: Any) -> dict[str, str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return {"ko": value}
    if isinstance(value, dict) and set(value) <= {"ko", "en"} and all(isinstance(v, str) for v in value.values()):
        return dict(value)
    ck.add("must be a string or {ko: ..., en: ...}", obj, field, card_id, field)
    return None


def _cond(ck: "ProblemCollector", value: Any, card_id: str | None, field: str, obj: Any) -> Cond | None:
    """A judgment: a list of positions, or {positions, speed_min, speed_max}."""
    if value is None or value == []:
        return None
    src = value
    if isinstance(value, list):
        src = obj          # report list problems at the line of the field itself
        value = {"positions": value}
    if not isinstance(value, dict):
        ck.add("must be a list of positions or {positions: [...], speed_max: N, speed_min: N}",
               obj, field.split(".")[-1], card_id, field)
        return None
    for k in value:
        if k not in COND_KEYS:
            ck.add("unknown key %r (allowed: %s)" % (k, ", ".join(sorted(COND_KEYS))),
                   src, k, card_id, field)
    bounds: dict[str, int | None] = {}
    for k in ("speed_min", "speed_max"):
        v = value.get(k)
        if v is not None and not _is_int(v):
            ck.add("%s must be an integer" % k, src, k, card_id, field)
            v = None
        bounds[k] = v
    has_bounds = bounds["speed_min"] is not None or bounds["speed_max"] is not None
    # brief 4.2: positions "and/or" speed bounds; a speed-only condition covers every position
    positions = value.get("positions", list(POSITIONS) if has_bounds else [])
    if not isinstance(positions, list):
        ck.add("positions must be a list of high/mid/low", src, "positions", card_id, field)
        positions = []
    ok = []
    for p in positions:
        if p not in POSITIONS:
            ck.add("unknown position %r (high, mid or low)" % (p,), src,
                   "positions" if src is not obj else field.split(".")[-1], card_id, field)
        else:
            ok.append(p)
    if not ok:
        return None
    return Cond(ok, bounds["speed_min"], bounds["speed_max"])


def _results(ck: "ProblemCollector", value: Any, allowed: Sequence[str], card_id: str | None,
             obj: Any) -> dict[str, tuple[int, bool]]:
    out: dict[str, tuple[int, bool]] = {}
    if value is None:
        return out
    if not isinstance(value, dict):
        ck.add("results must be a mapping", obj, "results", card_id, "results")
        return out
    for key, res in value.items():
        field = "results.%s" % key
        if key not in allowed:
            ck.add("unknown result %r (allowed here: %s)" % (key, ", ".join(allowed)), value, key, card_id, field)
            continue
        if res is None:
            res = {}
        if not isinstance(res, dict):
            ck.add("must be {fp: N, combo: true|false}", value, key, card_id, field)
            continue
        for k in res:
            if k not in RESULT_KEYS:
                ck.add("unknown key %r (allowed: fp, combo)" % (k,), res, k, card_id, field)
        fp = res.get("fp", 0)
        combo = res.get("combo", False)
        if not _is_int(fp):
            ck.add("fp must be an integer", res, "fp", card_id, field + ".fp")
            fp = 0
        if not isinstance(combo, bool):
            ck.add("combo must be true or false", res, "combo", card_id, field + ".combo")
            combo = False
        out[key] = (fp, combo)
    return out


def parse_card(data: Any, file: str | None = None, checker: "ProblemCollector | None" = None,
               effect_registry: Any = None) -> tuple[Card | None, list[Problem]]:
    """Build a Card from a mapping. Returns (card or None, problems)."""
    ck = checker or ProblemCollector(file)
    before = len(ck.problems)
    if not isinstance(data, dict):
        ck.add("a card must be a mapping", data)
        return None, ck.problems[before:]
    card_id = data.get("id")
    if not isinstance(card_id, str) or not card_id:
        ck.add("missing or empty id", data, "id", None, "id")
        card_id = None
    kind = data.get("kind")
    if kind not in KINDS:
        ck.add("kind must be attack, defense or special (got %r)" % (kind,), data, "kind", card_id, "kind")
        return None, ck.problems[before:]
    allowed = CARD_KEYS["common"] | CARD_KEYS[kind]
    for key in data:
        if key not in allowed:
            hint = ""
            if key in CARD_KEYS["attack"] | CARD_KEYS["defense"]:
                hint = " (not allowed on a %s card)" % kind
            ck.add("unknown field %r%s" % (key, hint), data, key, card_id, key)
    for key in ("name", "name_en", "number", "mark"):
        v = data.get(key)
        if v is not None and not isinstance(v, str):
            ck.add("must be a string", data, key, card_id, key)
    ultimate = data.get("ultimate", False)
    if not isinstance(ultimate, bool):
        ck.add("must be true or false", data, "ultimate", card_id, "ultimate")
        ultimate = False
    kw = dict(id=card_id, kind=kind, name=data.get("name"), name_en=data.get("name_en"),
              number=data.get("number"), mark=data.get("mark") or "neutral", ultimate=ultimate,
              text=_text(ck, data.get("text"), card_id, "text", data), source=file)
    effects = data.get("effects") or []
    if not isinstance(effects, list):
        ck.add("effects must be a list", data, "effects", card_id, "effects")
        effects = []
    if effects:
        for msg, obj, key, field in check_effects(effects, kind, ultimate):
            ck.add(msg, obj if obj is not None else data, key if obj is not None else "effects", card_id, field)
        effects = plain(effects)
    kw["effects"] = effects
    if kind == "attack":
        speed = data.get("speed")
        if not _is_int(speed):
            ck.add("an attack needs an integer speed", data, "speed", card_id, "speed")
            speed = 0
        position = data.get("position")
        if position not in POSITIONS:
            ck.add("position must be high, mid or low (got %r)" % (position,), data, "position", card_id, "position")
        damage = data.get("damage", 0)
        if not _is_int(damage) or damage < 0:
            ck.add("damage must be a non-negative integer", data, "damage", card_id, "damage")
            damage = 0
        special = data.get("special") or {}
        if not isinstance(special, dict):
            ck.add("special must be a mapping", data, "special", card_id, "special")
            special = {}
        for k in special:
            if k not in SPECIAL_KEYS:
                ck.add("unknown special judgment %r (allowed: evade, offset, grab)" % (k,), special, k, card_id, "special." + str(k))
        grab = special.get("grab", False)
        if not isinstance(grab, bool):
            ck.add("must be true or false", special, "grab", card_id, "special.grab")
            grab = False
        kw.update(speed=speed, position=position, damage=damage, grab=grab,
                  evade=_cond(ck, special.get("evade"), card_id, "special.evade", special),
                  offset=_cond(ck, special.get("offset"), card_id, "special.offset", special),
                  results=_results(ck, data.get("results"), ATTACK_RESULTS, card_id, data))
    elif kind == "defense":
        for key in JUDGMENTS:
            kw[key] = _cond(ck, data.get(key), card_id, key, data)
        kw["results"] = _results(ck, data.get("results"), DEFENSE_RESULTS, card_id, data)
    if len(ck.problems) > before:
        return None, ck.problems[before:]
    return Card(**kw), []


CHARACTER_KEYS = {"id", "name", "name_en", "mark", "health", "hand_limit", "trait", "tokens"}


def parse_character(data: Any, file: str | None = None, checker: "ProblemCollector | None" = None,
                    where: str = "character") -> tuple[Character | None, list[Problem]]:
    """Build a Character from a mapping. Returns (character or None, problems)."""
    ck = checker or ProblemCollector(file)
    before = len(ck.problems)
    if not isinstance(data, dict):
        ck.add("%s must be a mapping with health and hand_limit" % where, data)
        return None, ck.problems[before:]
    cid = data.get("id")
    for key in data:
        if key not in CHARACTER_KEYS:
            ck.add("unknown field %r" % (key,), data, key, None, "%s.%s" % (where, key))
    health = data.get("health")
    limits = data.get("hand_limit")
    if not (isinstance(health, list) and health and all(_is_int(h) and h > 0 for h in health)):
        ck.add("health must be a non-empty list of positive integers (health bands)", data, "health", None, where + ".health")
        health = None
    elif any(health[i] <= health[i + 1] for i in range(len(health) - 1)):
        ck.add("health bands must be strictly decreasing", data, "health", None, where + ".health")
    if not (isinstance(limits, list) and limits and all(_is_int(h) and h >= 0 for h in limits)):
        ck.add("hand_limit must be a non-empty list of integers", data, "hand_limit", None, where + ".hand_limit")
        limits = None
    if health and limits and len(health) != len(limits):
        ck.add("hand_limit needs one entry per health band (%d bands, %d limits)" % (len(health), len(limits)),
               data, "hand_limit", None, where + ".hand_limit")
    trait = data.get("trait")
    if trait is not None and not isinstance(trait, dict):
        ck.add("trait must be a mapping", data, "trait", None, where + ".trait")
        trait = None
    if trait is not None:
        for key in trait:
            if key not in TRAIT_KEYS:
                ck.add("unknown field %r (allowed: %s)" % (key, ", ".join(sorted(TRAIT_KEYS))), trait, key, None,
                       "%s.trait.%s" % (where, key))
        effects = trait.get("effects") or []
        if not isinstance(effects, list):
            ck.add("effects must be a list", trait, "effects", None, where + ".trait.effects")
        elif effects:
            for msg, obj, key, field in check_effects(effects, "trait"):
                ck.add(msg, obj if obj is not None else trait, key if obj is not None else "effects", None,
                       "%s.trait.%s" % (where, field))
            trait = plain(trait)
    tokens = data.get("tokens") or []
    if not isinstance(tokens, list):
        ck.add("tokens must be a list of {id, name, start, max}", data, "tokens", None, where + ".tokens")
        tokens = []
    for i, t in enumerate(tokens):
        f = "%s.tokens[%d]" % (where, i)
        if not isinstance(t, dict) or not isinstance(t.get("id"), str) or any(k not in TOKEN_KEYS for k in t):
            ck.add("a token counter is {id, name, name_en, start, max}", t if isinstance(t, dict) else data,
                   None if isinstance(t, dict) else "tokens", None, f)
            continue
        start = t.get("start", 0)
        mx = t.get("max")
        if not _is_int(start) or start < 0 or (mx is not None and (not _is_int(mx) or mx < start)):
            ck.add("start must be 0 or more and max null (unbounded) or at least start", t, "start", None, f)
    if len(ck.problems) > before or health is None or limits is None:     # None: a problem was added above
        return None, ck.problems[before:]
    return Character(health, limits, id=cid, name=data.get("name"), name_en=data.get("name_en"),
                     mark=data.get("mark"), trait=trait, tokens=plain(tokens)), []


TRAIT_KEYS = {"id", "name", "name_en", "text", "effects"}
TOKEN_KEYS = {"id", "name", "name_en", "start", "max"}


def raise_if(problems: Sequence[Problem]) -> None:
    if problems:
        raise CardError(problems)
