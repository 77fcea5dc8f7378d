"""The effect vocabulary's generated forms: the JSON Schema for card set files
(engine/data/card.schema.json) and the Markdown tables docs/card-format.md quotes.

Both are derived from the registry in engine/cards/effects.py, never written by hand, so a new
primitive, timing or condition reaches the schema, the docs and the card editor at once.
Regenerate with ``python3 -m engine.cards.schema`` (schema) or ``--doc`` (tables)."""

import json

from engine.cards.effects import (COMMON, CONDITIONS, COUNT_ZONES, LABELS, POSITIONS, TARGETS, TIMINGS, TIMING_NAMES, TIMING_ZONES, ZONE_DOC, ZONES_BY_KIND, PRIMS)


def _entry_schema(prim, top):
    props = {"do": {"const": prim.name, "description": "%s — %s (%s)" % (prim.ko, prim.en, prim.guide)}}
    for k, p in prim.params.items():
        props[k] = p.schema()
    props["if"] = {"$ref": "#/$defs/conditions", "description": COMMON["if"]}
    props["then"] = {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/nested_effect"}, "description": COMMON["then"]}
    props["text"] = {"type": "string", "description": COMMON["text"]}
    if top:
        props["timing"] = {"enum": list(TIMING_NAMES), "description": COMMON["timing"]}
        props["zone"] = {"enum": sorted({z for zs in ZONES_BY_KIND.values() for z in zs} - {"trait"}),
                         "description": COMMON["zone"]}
        props["optional"] = {"type": "boolean", "description": COMMON["optional"]}
        props["number"] = {"type": "integer", "minimum": 1, "description": COMMON["number"]}
        props["interrupt"] = {"type": "boolean", "description": COMMON["interrupt"]}
    required = ["do"] + [k for k, p in prim.params.items() if p.required]
    s = {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    if top and prim.mode == "instant":
        s["required"] = required + ["timing"]
    return s


def card_schema():
    """A JSON Schema (draft 2020-12) for card set files, generated from the registry."""
    cond_props = {}
    for k, (t, doc) in CONDITIONS.items():
        if t == "int":
            s = {"type": "integer"}
        elif t == "bool":
            s = {"type": "boolean"}
        elif t == "labels":
            s = {"type": "array", "items": {"enum": list(LABELS)}, "minItems": 1}
        elif t == "count":
            s = {"type": "object", "required": ["zone"], "additionalProperties": False,
                 "properties": {"zone": {"enum": list(COUNT_ZONES)}, "who": {"enum": list(TARGETS)},
                                "min": {"type": "integer"}, "max": {"type": "integer"}}}
        elif t == "tokens":
            s = {"type": "object", "additionalProperties": {
                "type": "object", "additionalProperties": False,
                "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}}}
        else:
            s = {"type": "object", "additionalProperties": False, "properties": {
                "kind": {"enum": ["attack", "defense", "special"]}, "position": {"enum": list(POSITIONS)},
                "grab": {"type": "boolean"}, "speed_min": {"type": "integer"}, "speed_max": {"type": "integer"},
                "id": {"type": "string"}}}
            if t == "broken":       # the zone the broken card was in (engine/cards/lint.py)
                s["properties"]["from"] = {"enum": list(COUNT_ZONES) + ["battle_zone"]}
        s["description"] = doc
        cond_props[k] = s
    judgment = {"oneOf": [
        {"type": "array", "items": {"enum": list(POSITIONS)}},
        {"type": "object", "additionalProperties": False, "properties": {
            "positions": {"type": "array", "items": {"enum": list(POSITIONS)}},
            "speed_min": {"type": "integer"}, "speed_max": {"type": "integer"}}}]}
    result = {"type": ["object", "null"], "additionalProperties": False,
              "properties": {"fp": {"type": "integer"}, "combo": {"type": "boolean"}}}
    text = {"oneOf": [{"type": "string"}, {"type": "object", "additionalProperties": False,
                                            "properties": {"ko": {"type": "string"}, "en": {"type": "string"}}}]}
    common = {"id": {"type": "string", "minLength": 1}, "name": {"type": "string"}, "name_en": {"type": "string"},
              "number": {"type": "string"}, "mark": {"type": "string"}, "ultimate": {"type": "boolean"},
              "text": text, "effects": {"type": "array", "items": {"$ref": "#/$defs/effect"}}}
    attack = dict(common, kind={"const": "attack"}, speed={"type": "integer"},
                  position={"enum": list(POSITIONS)}, damage={"type": "integer", "minimum": 0},
                  results={"type": "object", "additionalProperties": False,
                           "properties": {k: result for k in ("hit", "counter", "guarded", "evaded", "countered")}},
                  special={"type": "object", "additionalProperties": False,
                           "properties": {"evade": judgment, "offset": judgment, "grab": {"type": "boolean"}}})
    defense = dict(common, kind={"const": "defense"}, guard=judgment, evade=judgment, offset=judgment,
                   results={"type": "object", "additionalProperties": False,
                            "properties": {k: result for k in ("guard", "evade", "offset", "was_hit")}})
    special = dict(common, kind={"const": "special"})
    cards = {"oneOf": [
        {"type": "object", "properties": attack, "required": ["id", "kind", "speed", "position"], "additionalProperties": False},
        {"type": "object", "properties": defense, "required": ["id", "kind"], "additionalProperties": False},
        {"type": "object", "properties": special, "required": ["id", "kind"], "additionalProperties": False},
    ]}
    token = {"type": "object", "required": ["id"], "additionalProperties": False, "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "name_en": {"type": "string"},
        "start": {"type": "integer", "minimum": 0}, "max": {"type": ["integer", "null"], "minimum": 0}}}
    character = {"type": "object", "required": ["health", "hand_limit"], "additionalProperties": False, "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "name_en": {"type": "string"}, "mark": {"type": "string"},
        "health": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1},
        "hand_limit": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 1},
        "tokens": {"type": "array", "items": token},
        "trait": {"type": "object", "additionalProperties": False, "properties": {
            "id": {"type": "string"}, "name": {"type": "string"}, "name_en": {"type": "string"}, "text": text,
            "effects": {"type": "array", "items": {"$ref": "#/$defs/effect"}}}}}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://lumen-condenser.invalid/card.schema.json",
        "title": "루멘콘덴서 card set (generated from engine/cards/effects.py; do not edit by hand)",
        "type": "object",
        "required": ["cards"],
        "additionalProperties": False,
        "properties": {
            "set": {"type": "object", "additionalProperties": False, "properties": {
                "id": {"type": "string"}, "name": {"type": "string"}, "name_en": {"type": "string"},
                "sample": {"type": "boolean"}}},
            "characters": {"type": "array", "items": character},
            "cards": {"type": "array", "items": cards},
        },
        "$defs": {
            "effect": {"oneOf": [_entry_schema(p, True) for p in PRIMS]},
            "nested_effect": {"oneOf": [_entry_schema(p, False) for p in PRIMS]},
            "conditions": {"type": "object", "additionalProperties": False, "properties": cond_props},
        },
    }


def schema_text():
    return json.dumps(card_schema(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def doc_tables():
    """The vocabulary as Markdown tables (docs/card-format.md quotes them)."""
    out = ["| timing | card text | guide | zones it may use | where the engine opens it |", "|---|---|---|---|---|"]
    for name, ko, guide, where in TIMINGS:
        out.append("| `%s` | %s | %s | %s | %s |" % (name, ko, guide, ", ".join(TIMING_ZONES[name]), where))
    out += ["", "| zone | the entry works while the card is ... | kinds |", "|---|---|---|"]
    for z, doc in ZONE_DOC.items():
        kinds = ", ".join(k for k, zs in ZONES_BY_KIND.items() if z in zs)
        out.append("| `%s` | %s | %s |" % (z, doc, kinds))
    out += ["", "| primitive | parameters | card text | meaning | guide |", "|---|---|---|---|---|"]
    for p in PRIMS:
        params = ", ".join("`%s`%s" % (k, "" if v.required else "=%s" % ("…" if v.default is None else v.default))
                           for k, v in p.params.items()) or "-"
        out.append("| `%s` | %s | %s | %s | %s |" % (p.name, params, p.ko, p.en, p.guide))
    out += ["", "| condition | meaning |", "|---|---|"]
    for k, (_t, doc) in CONDITIONS.items():
        out.append("| `%s` | %s |" % (k, doc))
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # python3 -m engine.cards.schema [--doc]
    import os
    import sys
    if "--doc" in sys.argv:
        sys.stdout.write(doc_tables())
    else:
        path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "card.schema.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(schema_text())
        print("wrote", path)
