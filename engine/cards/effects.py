"""The card-effect vocabulary: timings, primitives with typed parameters, conditions.

This module is the single source of truth for card text written as data. A
card's ``effects:`` list holds entries such as::

    {do: fp, amount: 1, timing: before_judgment}          # 판정 전에 FP +1
    {do: break, target: opponent, from: hand, timing: on_hit, number: 1}
    {do: fix_speed, speed: 6}                              # 이 기술은 속도 6으로 고정한다

From the registry below come three things, so they can never disagree:

- the linter (``check_effects``, engine/cards/lint.py): an unknown primitive, parameter,
  timing or condition is a load error naming the card and the field (``effects[1].amount``);
  ``lumen cards check`` prints it with file:line;
- the JSON Schema for card files (``engine/cards/schema.py``, written to
  ``engine/data/card.schema.json`` by ``python3 -m engine.cards.schema``), so an
  editor validates while typing;
- the documentation tables of docs/card-format.md (``python3 -m engine.cards.schema --doc``).

The primitives themselves are small functions in engine/play/primitives.py, run by the
timing windows of engine/play/windows.py in the order of engine/play/ordering.py.
"""

from collections.abc import Iterable, Mapping
from typing import Any

#: an ``effects:`` entry, as plain data: ``{"do": primitive, ...parameters}``
Entry = dict[str, Any]
#: an entry where it is: (its place in the card's list, the entry, the zone it works from)
Placed = tuple[int, Entry, str]

REQUIRED = object()

# ------------------------------------------------------------------ timings
# name, Korean card wording, guide section, where the engine opens the window.
# The order of the judgment timings is the order of battle step 10 (guide 4.4 step 10;
# 001 5.3.4: each "opponent ..." timing comes right after its own).
TIMINGS = (
    ("lumen", "루멘 페이즈에", "guide 3.5.1", "turn.py `turn.start`: the lumen phase, before the ready phase"),
    ("on_use", "사용 시", "guide 4.4", "battle step 2 (both ready cards); each combo card (4.2.2); each catch card (4.3.2)"),
    ("before_judgment", "판정 전", "guide 4.4", "battle step 3 (not for combo or catch cards, 4.3.2)"),
    ("on_evade", "회피 시", "guide 4.4", "battle step 10, 1st: the card evaded (a defense's evade or an attack's special evade)"),
    ("on_opponent_evade", "상대 회피 시", "guide 4.4", "battle step 10, right after on_evade: this card was evaded"),
    ("on_guard", "방어 시", "guide 4.4", "battle step 10, 2nd: the defense guarded"),
    ("on_opponent_guard", "상대 방어 시", "guide 4.4", "battle step 10, right after on_guard: this attack was guarded"),
    ("on_hit", "히트 시", "guide 4.4", "battle step 10, 3rd: hit, trade, an attack in an offset (4.1.2.3); a catch (4.3.2)"),
    ("on_counter", "카운터 시", "guide 4.4", "battle step 10, 3rd, with on_hit: counter"),
    ("on_opponent_hit", "상대 히트 시", "guide 4.4", "battle step 10, after on_hit/on_counter: the opponent's attack hit"),
    ("on_opponent_counter", "상대 카운터 시", "guide 4.4", "battle step 10, with on_opponent_hit: this card was countered"),
    ("on_offset", "상쇄 시", "guide 4.1.2.3", "battle step 10, 4th: this card's offset judgment held"),
    ("on_opponent_offset", "상대 상쇄 시", "guide 4.1.2.3", "battle step 10, right after on_offset: the opponent offset this card"),
    ("on_combo", "콤보 시", "guide 4.2.2", "battle step 10, 5th: the hit/counter is a combo (1st combo); each 2nd+ combo card before its damage"),
    ("on_opponent_combo", "상대 콤보 시", "guide 4.2.2", "right after on_combo, for the other player"),
    ("on_catch", "캐치 시", "guide 4.3.2", "catch time: after the catch card's on_use, before its on_hit"),
    ("on_opponent_catch", "상대 캐치 시", "guide 4.3.2", "right after on_catch, for the other player"),
    ("after_judgment", "판정 후", "guide 4.4", "battle step 14"),
    ("after_use", "사용 후", "guide 4.4", "battle step 15; each combo card after its damage; each catch card after its damage"),
    ("on_break", "브레이크되었을 때", "guide 5.4", "a card of its owner's was broken (from the break zone: only the card broken): "
                                              "after the unit the break happened in (the effect, else the rule's action); "
                                              "with `interrupt: true` (끼어들기) at once, right after the break and its replenish"),
    ("on_opponent_break", "상대 카드가 브레이크되었을 때", "guide 5.4", "a card of the opponent's was broken: as on_break"),
    ("get_entry", "겟 페이즈 진입 시", "guide 3.5.4", "get phase step 1, before priority is recomputed (brief ruling 8)"),
    ("turn_end", "턴 종료 시", "guide 3.5.5", "recovery phase, before durations end"),
)
TIMING_NAMES = tuple(t[0] for t in TIMINGS)
TIMING_KO = {t[0]: t[1] for t in TIMINGS}
TIMING_GUIDE = {t[0]: t[2] for t in TIMINGS}

# Battle step 10: the windows in order (guide 4.4 step 10: evade -> guard -> hit/counter -> offset -> combo)
JUDGMENT_WINDOWS = (
    ("on_evade",), ("on_opponent_evade",), ("on_guard",), ("on_opponent_guard",),
    ("on_hit", "on_counter"), ("on_opponent_hit", "on_opponent_counter"),
    ("on_offset",), ("on_opponent_offset",), ("on_combo",), ("on_opponent_combo",),
)

# Where a card can be (guide 3.2): the zones an entry may name. An unnumbered function applies
# in every zone (guide 5.6.1): a continuous entry may name any of them, or `any` (wherever the
# card is); a timed entry names one zone where that timing can find it (TIMING_ZONES).
ZONES_BY_KIND = {
    # by card kind; the first is the default. A special is never in the hand or list (guide 3.3.3).
    "attack": ("battle", "lumen_zone", "hand", "list", "side_deck", "break_zone", "ultimate", "any"),
    "defense": ("battle", "lumen_zone", "hand", "list", "side_deck", "break_zone", "ultimate", "any"),
    "special": ("lumen_zone", "side_deck", "ultimate", "break_zone", "any"),
    "trait": ("trait",),
}
ZONE_DOC = {
    "battle": "this card is its owner's current battle card (the ready card, or a combo or catch card being used)",
    "lumen_zone": "in its owner's lumen zone", "hand": "in its owner's hand (public)",
    "list": "in its owner's list (public)", "side_deck": "in its owner's side deck (hidden: a hidden trigger, guide 5.2.2)",
    "break_zone": "in its owner's break zone (functions only)", "ultimate": "in its owner's ultimate zone (an ultimate card)",
    "any": "wherever its owner has it (functions only: guide 5.6.1 \"모든 존에서\")", "trait": "a trait (always)",
}
PHASE_TIMINGS = frozenset(("lumen", "get_entry", "turn_end"))
# Timings triggered by something that happens, not by a step of the order (issue 23, guide 5.4):
# they may be interrupts (끼어들기, ``interrupt: true``)
EVENT_TIMINGS = frozenset(("on_break", "on_opponent_break"))
# The zones where a timed entry can be found when its timing happens. A phase timing comes
# outside any battle, so no card is in the battle then; the break zone holds no triggers, except
# the broken card's own "when this card is broken" (on_break).
TIMING_ZONES = {t: (("lumen_zone", "hand", "list", "side_deck", "ultimate") if t in PHASE_TIMINGS else
                    ("battle", "lumen_zone", "hand", "list", "side_deck", "ultimate", "break_zone") if t == "on_break" else
                    ("battle", "lumen_zone", "hand", "list", "side_deck", "ultimate")) for t in TIMING_NAMES}
DURATIONS = ("battle", "turn", "next_turn")
TARGETS = ("self", "opponent")
POSITIONS = ("high", "mid", "low")
LABELS = ("hit", "counter", "guard", "evade", "guarded", "evaded", "countered", "was_hit", "trade",
          "offset", "both_defend", "both_evade")
FORBID_ACTIONS = ("gain_fp", "lose_fp", "heal", "speed_change", "catch", "draw", "break", "ready")
# keys of a card filter: the `used` conditions and the `cards` of a ready prohibition
USED_KEYS = ("kind", "position", "grab", "speed_min", "speed_max", "id")


class Param:
    """A typed parameter. ``type`` is one of: int, posint (>= 1), nonneg (>= 0),
    bool, str, enum, positions, card, effects, options, cond, cards (a card filter)."""

    __slots__ = ("type", "default", "doc", "choices")

    def __init__(self, type, default=REQUIRED, doc="", choices=None):
        self.type = type
        self.default = default
        self.doc = doc
        self.choices = choices

    @property
    def required(self):
        return self.default is REQUIRED

    def problem(self, v):
        """None if ``v`` is valid, else a message."""
        t = self.type
        if t in ("int", "posint", "nonneg"):
            if not isinstance(v, int) or isinstance(v, bool):
                return "must be an integer"
            if t == "posint" and v < 1:
                return "must be 1 or more"
            if t == "nonneg" and v < 0:
                return "must be 0 or more"
            return None
        if t == "bool":
            return None if isinstance(v, bool) else "must be true or false"
        if t == "str":
            return None if isinstance(v, str) and v else "must be a non-empty string"
        if t == "card":
            return None if isinstance(v, str) and v else "must be `this` or a card id"
        if t == "enum":
            return None if v in self.choices else "must be one of %s (got %r)" % (", ".join(self.choices), v)
        if t == "positions":
            if not isinstance(v, list) or not all(p in POSITIONS for p in v):
                return "must be a list of high, mid, low"
            return None
        if t == "effects":
            return None if isinstance(v, list) and v else "must be a non-empty list of effect entries"
        if t == "options":
            if not isinstance(v, dict) or len(v) < 2:
                return "must map 2 or more option names to lists of effect entries"
            return None
        if t == "cond":
            return None if isinstance(v, dict) else "must be a mapping of conditions"
        if t == "cards":
            if not isinstance(v, dict) or not v or any(k not in USED_KEYS for k in v):
                return "must be a card filter: a mapping with keys among %s" % ", ".join(USED_KEYS)
            return None
        raise AssertionError(t)

    def schema(self):
        t = self.type
        if t in ("int", "posint", "nonneg"):
            s = {"type": "integer"}
            if t == "posint":
                s["minimum"] = 1
            elif t == "nonneg":
                s["minimum"] = 0
        elif t == "bool":
            s = {"type": "boolean"}
        elif t in ("str", "card"):
            s = {"type": "string", "minLength": 1}
        elif t == "enum":
            s = {"enum": list(self.choices)}
        elif t == "positions":
            s = {"type": "array", "items": {"enum": list(POSITIONS)}}
        elif t == "effects":
            s = {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/nested_effect"}}
        elif t == "options":
            s = {"type": "object", "minProperties": 2,
                 "additionalProperties": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/nested_effect"}}}
        elif t == "cond":
            s = {"$ref": "#/$defs/conditions"}
        elif t == "cards":
            s = {"type": "object", "minProperties": 1, "additionalProperties": False,
                 "properties": {"kind": {"enum": ["attack", "defense"]}, "position": {"enum": list(POSITIONS)},
                                "grab": {"type": "boolean"}, "speed_min": {"type": "integer"},
                                "speed_max": {"type": "integer"}, "id": {"type": "string"}}}
        else:
            raise AssertionError(t)
        if self.doc:
            s["description"] = self.doc
        if self.default is not REQUIRED and self.default is not None:
            s["default"] = self.default
        return s


def _target(default="self", doc="whose: `self` (the card's owner, guide 5.6.2) or `opponent`"):
    return Param("enum", default, doc, TARGETS)


def _duration():
    return Param("enum", None, "how long it lasts: `battle`, `turn` (이 턴 동안 / 턴 종료 시까지), "
                               "`next_turn` (다음 턴 종료 시까지); ended in the recovery phase (guide 3.5.5). "
                               "Without it: this card only (in a battle), this turn (outside a battle)", DURATIONS)


class Prim:
    """One primitive: its parameters, its mode and its documentation.

    mode: ``instant`` (needs a timing, or sits inside ``then``/``choice``),
    ``modifier`` (a timed effect, or a continuous function without timing; may
    take ``duration``), ``static`` (functions the rules read: a trait's at setup, a skill's use
    condition at the ready; no timing).
    """

    __slots__ = ("name", "params", "mode", "kinds", "ko", "en", "example", "guide")

    def __init__(self, name, params, mode, ko, en, example, guide, kinds=("attack", "defense", "special", "trait")):
        self.name = name
        self.params = params
        self.mode = mode
        self.kinds = kinds
        self.ko = ko
        self.en = en
        self.example = example
        self.guide = guide


PRIMS = (
    Prim("fp", {"amount": Param("int", REQUIRED, "FP to add (negative: lose)"), "target": _target()}, "instant",
         "FP +N / -N", "gain or lose FP", "{do: fp, amount: 1, timing: before_judgment}", "guide 3.7"),
    Prim("faster", {"amount": Param("posint"), "target": _target(), "duration": _duration()}, "modifier",
         "N 빨라진다", "the card's speed number goes down by N (not after a fix)",
         "{do: faster, amount: 8, timing: on_use}", "guide 5.3.2"),
    Prim("slower", {"amount": Param("posint"), "target": _target(), "duration": _duration()}, "modifier",
         "N 느려진다", "the card's speed number goes up by N (not after a fix)",
         "{do: slower, amount: 2, target: opponent, timing: before_judgment}", "guide 5.3.2"),
    Prim("fix_speed", {"speed": Param("posint", None, "the speed X; without it the current speed is fixed"),
                       "target": _target()}, "modifier",
         "속도 X로 고정한다", "set the speed to X and fix it: later FP and speed changes are ignored; the first fix wins",
         "{do: fix_speed, speed: 6, timing: on_use}", "guide 5.3.1"),
    Prim("treat_speed", {"speed": Param("posint"), "target": _target(), "duration": _duration()}, "modifier",
         "속도 X로 취급한다", "for combo links the card counts as speed X (the next card must be X+1)",
         "{do: treat_speed, speed: 5}", "guide 5.4"),
    Prim("damage", {"amount": Param("int", REQUIRED, "damage to add (negative: less)"), "target": _target(),
                    "duration": _duration()}, "modifier",
         "데미지 +N / -N", "the card's damage goes up or down (never below 0); with `if: {in_combo: true}` only in combos",
         "{do: damage, amount: 200, timing: on_combo}", "guide 4.2.3"),
    Prim("heal", {"amount": Param("posint"), "target": _target()}, "instant",
         "체력을 N 회복한다", "health goes up by N (not above the starting health unless the rules option says so)",
         "{do: heal, amount: 300, timing: turn_end}", "guide 3.3.1"),
    Prim("lose_health", {"amount": Param("posint"), "target": _target()}, "instant",
         "체력을 N 잃는다", "health goes down by N; this is not damage",
         "{do: lose_health, amount: 200, target: opponent, timing: after_use}", "guide 4.1.2.3"),
    Prim("guard_damage", {"amount": Param("posint"), "target": _target("opponent", "who takes it (default: the opponent, the guarding player)")},
         "instant",
         "가드 데미지 N", "when guarded, the guarding player takes N damage at step 12, as damage they dealt themselves "
                        "(satisfies `damaged`, not `damaged_by_opponent`)",
         "{do: guard_damage, amount: 200, timing: on_opponent_guard}", "guide 5.6.4"),
    Prim("break", {"target": _target(), "from": Param("enum", "hand", "the zone", ("hand", "list", "lumen_zone", "battle_zone", "side_deck")),
                   "card": Param("card", None, "`this` (this card) or a card id; without it a card is chosen"),
                   "count": Param("posint", 1), "chooser": Param("enum", "self", "who chooses: `self` (the effect's owner) or `target` (the zone's owner)", ("self", "target"))},
         "instant", "브레이크한다", "break a card (with the replenish rule of guide 3.9.1)",
         "{do: break, target: opponent, from: hand, timing: on_hit}", "guide 3.9.1"),
    Prim("move", {"target": _target(), "from": Param("enum", "hand", "the zone", ("hand", "list", "battle_zone", "lumen_zone")),
                  "to": Param("enum", REQUIRED, "the destination", ("hand", "list", "lumen_zone")),
                  "card": Param("card", None, "`this` or a card id; without it a card is chosen"),
                  "count": Param("posint", 1), "chooser": Param("enum", "self", "who chooses", ("self", "target"))},
         "instant", "패·리스트로 옮긴다", "move cards between hand and list (a special goes to the break zone instead, guide 3.3.3); "
                                      "`card: this, from: battle_zone` changes where this card goes at battle end (5.3.4)",
         "{do: move, card: this, from: battle_zone, to: hand, timing: after_use}", "guide 5.3.4"),
    Prim("discard", {"count": Param("posint", 1), "target": _target()}, "instant",
         "패를 N장 버린다", "the player puts N hand cards of their choice in the list (guide 3.9.2)",
         "{do: discard, count: 1, target: opponent, timing: on_counter}", "guide 3.9.2"),
    Prim("draw", {"count": Param("posint", 1), "target": _target()}, "instant",
         "리스트에서 N장 가져온다", "the player takes N cards of their choice from their list into the hand",
         "{do: draw, count: 1, timing: turn_end}", "guide 3.5.4"),
    Prim("nullify", {"target": _target("opponent"), "what": Param("enum", "card", "`card`: the card (its numbered effects, "
                                                                                  "result FP, damage and combo); `effects`: only its numbered effects", ("card", "effects"))},
         "instant", "무효로 한다", "nullify the target's battle card or its numbered effects; functions (unnumbered) still apply",
         "{do: nullify, what: effects, timing: on_use}", "guide 5.6.1"),
    Prim("add_judgment", {"judgment": Param("enum", REQUIRED, "the judgment", ("evade", "guard", "offset")),
                          "positions": Param("positions", None, "positions (default: all, when a speed bound is given)"),
                          "speed_min": Param("posint", None, "the attack's reference speed must be at least this"),
                          "speed_max": Param("posint", None, "the attack's reference speed must be at most this"),
                          "target": _target(), "duration": _duration()}, "modifier",
         "회피·방어·상쇄 판정을 얻는다", "the card gains an evade/guard/offset judgment (read against reference speed, guide 3.7.1)",
         "{do: add_judgment, judgment: evade, speed_max: 6, timing: before_judgment}", "guide 4.1"),
    Prim("catch", {"speed_max": Param("posint", REQUIRED, "the hand attack's reference speed (printed + card effects, ruling R38) must be at most this")}, "instant",
         "캐치할 수 있다", "the owner may catch at step 17, before any FP catch (guide 4.3.3)",
         "{do: catch, speed_max: 5, timing: on_hit}", "guide 4.3.3"),
    Prim("combo", {}, "instant",
         "콤보 타임에 들어간다", "combo time starts at step 16: two hand cards become the 1st and 2nd combo (guide 5.4)",
         "{do: combo, timing: after_judgment}", "guide 5.4"),
    Prim("token", {"name": Param("str", REQUIRED, "the token id of the character (brief 6)"),
                   "amount": Param("int", REQUIRED, "+N gains (up to the max), -N spends (fails if fewer)"),
                   "target": _target()}, "instant",
         "토큰을 얻는다·소모한다", "gain or spend character tokens; a spend that cannot be paid fails and skips `then`",
         "{do: token, name: howl, amount: 1, timing: on_guard}", "brief 6"),
    Prim("choice", {"options": Param("options", REQUIRED, "option name -> effect entries")}, "instant",
         "하나를 고른다", "the owner picks one option (`choose: <option name>`)",
         "{do: choice, options: {fast: [{do: faster, amount: 1}], strong: [{do: damage, amount: 100}]}, timing: on_use}", "guide 5.6.2"),
    Prim("use_special", {"place": Param("enum", "lumen_zone", "where the card goes (step 3)", ("lumen_zone", "break_zone"))},
         "instant", "특수 기술을 사용한다", "use this special skill: condition (`if`), reveal, place, then its `then` effects (guide 3.3.3)",
         "{do: use_special, timing: lumen, optional: true, if: {health_max: 3000}, then: [{do: fp, amount: 2}]}",
         "guide 3.3.3", kinds=("special",)),
    Prim("hand_limit", {"amount": Param("int"), "target": _target(), "duration": _duration()}, "modifier",
         "패 상한 +N", "the hand limit goes up or down by N (excess cards are discarded right after, guide 3.3.1)",
         "{do: hand_limit, amount: 1, if: {health_max: 2500}}", "guide 3.3.2"),
    Prim("start_health", {"amount": Param("posint")}, "static",
         "시작 체력 N", "a trait function: the character starts at N health instead of its first band",
         "{do: start_health, amount: 4500}", "guide 3.3.2", kinds=("trait",)),
    Prim("deck_rule", {"skills": Param("posint", None, "skill cards besides the ultimate (default 20)"),
                       "own_mark_min": Param("nonneg", None, "cards with the character's mark (default 10)"),
                       "same_name_max": Param("posint", None, "cards per name (default 1)")}, "static",
         "덱 구성 제한 변경", "a trait function: changes only the deck-building items it names (guide 4.5.1)",
         "{do: deck_rule, same_name_max: 2}", "guide 4.5.1", kinds=("trait",)),
    Prim("forbid", {"action": Param("enum", REQUIRED, "what cannot happen", FORBID_ACTIONS), "target": _target(),
                    "duration": _duration(),
                    "cards": Param("cards", None, "for `ready`: only readying cards like this ({kind, position, grab, "
                                                  "speed_min, speed_max, id}); without it no card may be readied")},
         "modifier",
         "~할 수 없다", "a prohibition; it wins over any effect that would do it and over the game's own actions "
                       "(result FP, the get, the breaks the rules make, guide 5.6.3 item 1); `ready`: readying such a card "
                       "is a non-response (guide 3.10)",
         "{do: forbid, action: gain_fp, target: opponent, duration: turn, timing: on_hit}", "guide 5.6.3"),
    Prim("use_condition", {}, "static",
         "사용 조건", "an attack's or defense's use condition (its `if`): the card can be readied, or used as a combo or "
                     "catch card, only while it holds; readying it otherwise is a non-response (guide 3.10)",
         "{do: use_condition, if: {health_max: 2000}}", "guide 3.10", kinds=("attack", "defense")),
)
REGISTRY = {p.name: p for p in PRIMS}
# the default target of each primitive (guide 5.6.2: the owner, unless the primitive says otherwise)
TARGET_DEFAULT = {p.name: p.params["target"].default for p in PRIMS if "target" in p.params}


def target_of(e):
    """``self`` or ``opponent``: the entry's target, or its primitive's default."""
    return e.get("target") or TARGET_DEFAULT.get(e["do"], "self")

# keys every top-level entry may carry besides the primitive's parameters
COMMON = {
    "do": "the primitive",
    "timing": "when it happens (a timing name); without it the entry is a continuous function/effect",
    "zone": "where the card must be for the entry to work: battle, lumen_zone, hand, list, side_deck, break_zone, "
            "ultimate, or (functions only) any; which zones each timing may use: docs/card-format.md",
    "optional": "true for \"~할 수 있다\": the owner may pass it (guide 5.2.3); default false (\"~한다\", mandatory)",
    "number": "the effect number (①②...): a numbered effect can be nullified; without it the entry is a "
              "function, which always applies and cannot be nullified (guide 5.6.1)",
    "if": "conditions (all must hold), checked when the effect resolves (on its owner's turn, guide 5.2.1)",
    "then": "entries done right after this one, only if it succeeded",
    "interrupt": "true for 끼어들기 (guide 5.4): with on_break / on_opponent_break the effect resolves at once, in the "
                 "middle of what is being processed (right after the break and its replenish), not after it",
    "text": "the printed wording of this entry (free text)",
}
NESTED = ("do", "if", "then", "text")   # keys an entry inside `then` / `choice` may carry

# ------------------------------------------------------------------ conditions
_BOUND = "int"
CONDITIONS = {
    "health_min": ("int", "own health is at least N"),
    "health_max": ("int", "own health is at most N"),
    "opponent_health_min": ("int", "the opponent's health is at least N"),
    "opponent_health_max": ("int", "the opponent's health is at most N"),
    "fp_min": ("int", "own FP is at least N"),
    "fp_max": ("int", "own FP is at most N"),
    "opponent_fp_min": ("int", "the opponent's FP is at least N"),
    "opponent_fp_max": ("int", "the opponent's FP is at most N"),
    "count": ("count", "`{zone: hand|list|side_deck|break_zone|lumen_zone, who: self|opponent, min: N, max: N}`"),
    "tokens": ("tokens", "`{token id: {min: N, max: N}}` on the owner's counters"),
    "outcome": ("labels", "the owner's outcome label in this battle (outside a battle: the last one) is one of these"),
    "priority": ("bool", "the owner holds priority (true) or not (false)"),
    "turn_min": ("int", "the turn number is at least N"),
    "turn_max": ("int", "the turn number is at most N"),
    "not_nullified": ("bool", "\"이 카드가 무효가 되지 않았다면\": false once this card is nullified or countered (guide 5.3.3)"),
    "damaged": ("bool", "the owner took damage this battle, guard damage included (guide 5.6.4)"),
    "damaged_by_opponent": ("bool", "the opponent dealt the owner damage this battle; guard damage does not count (5.6.4)"),
    "in_combo": ("bool", "the owner's current card is a combo card: a 2nd or later one, or the 1st once its judgment made it a combo (from its on_hit/on_counter on; ruling R39)"),
    "used": ("card", "the owner's current battle card: `{kind, position, grab, speed_min, speed_max, id}`; speeds are reference speeds (printed + effects, before FP; ruling R38)"),
    "opponent_used": ("card", "the opponent's current battle card, same keys"),
    "broken": ("broken", "at on_break / on_opponent_break: the card that was broken, `{kind, position, grab, speed_min, "
                         "speed_max, id, from}` (`from`: the zone it was broken from)"),
}
COUNT_KEYS = ("zone", "who", "min", "max")
COUNT_ZONES = ("hand", "list", "side_deck", "break_zone", "lumen_zone")


# ------------------------------------------------------------------ indexing a card's entries

def plain(v: Any) -> Any:
    """Plain JSON data (no line-remembering dicts), so entries can live in the state."""
    if isinstance(v, dict):
        return {k: (x if type(x) in _SCALARS else plain(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [(x if type(x) in _SCALARS else plain(x)) for x in v]
    return v


_SCALARS = frozenset((str, int, bool, float, type(None)))


def entry_zone(entry: Mapping[str, Any], kind: str, ultimate: bool = False) -> str:
    z = entry.get("zone")
    if z is not None:
        return z
    if kind == "special" and entry.get("do") == "use_special":
        return "ultimate" if ultimate else "side_deck"
    return ZONES_BY_KIND[kind][0]


def index(effects: Iterable[Entry], kind: str,
          ultimate: bool = False) -> tuple[dict[str, tuple[Placed, ...]], tuple[Placed, ...]]:
    """(by_timing {timing: ((i, entry, zone), ...)}, continuous ((i, entry, zone), ...))."""
    by: dict[str, list[Placed]] = {}
    cont: list[Placed] = []
    for i, e in enumerate(effects):
        z = entry_zone(e, kind, ultimate)
        t = e.get("timing")
        if t is None:
            cont.append((i, e, z))
        else:
            by.setdefault(t, []).append((i, e, z))
    return {t: tuple(v) for t, v in by.items()}, tuple(cont)


def by_zone(fx: Mapping[str, Iterable[Placed]]) -> dict[str, dict[str, tuple[tuple[int, Entry], ...]]]:
    """The timed entries of ``index`` regrouped by zone: {zone: {timing: ((i, entry), ...)}}, so a
    timing window looks up exactly the entries that work where the card is (engine/play/windows.py)."""
    out: dict[str, dict[str, list[tuple[int, Entry]]]] = {}
    for t, entries in fx.items():
        for i, e, z in entries:
            out.setdefault(z, {}).setdefault(t, []).append((i, e))
    return {z: {t: tuple(v) for t, v in d.items()} for z, d in out.items()}


CARD_MODS = frozenset(("faster", "slower", "fix_speed", "treat_speed", "damage", "add_judgment"))


def cont_group(e: Mapping[str, Any]) -> str | None:
    """How the engine reads a continuous entry: a card modifier (``mods``), a hand-limit change,
    a prohibition; None for the functions read by the rules themselves (start_health, deck_rule,
    use_condition)."""
    do = e["do"]
    if do in CARD_MODS:
        return "mods"
    if do in ("hand_limit", "forbid"):
        return do
    return None


def cont_by_zone(cont: Iterable[Placed], zone: str | None = None) -> dict[str, dict[str, tuple[Entry, ...]]]:
    """The continuous entries of ``index`` by zone (all under ``zone`` if given) and by
    ``cont_group``, in order: {zone: {group: (entry, ...)}}."""
    if not cont:
        return {}
    out: dict[str, dict[str, list[Entry]]] = {}
    for _i, e, z in cont:
        g = cont_group(e)
        if g is not None:
            out.setdefault(zone or z, {}).setdefault(g, []).append(e)
    return {z: {g: tuple(v) for g, v in d.items()} for z, d in out.items()}
