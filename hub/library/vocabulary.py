"""The effect registry as JSON for the card editor's form.

The editor builds its effect form from this alone: each primitive's typed parameters
(int, posint, nonneg, bool, str, enum, positions, card, effects, options, cond), the
timings, zones, durations and conditions. A primitive added to engine/cards/effects.py shows
up in the editor with its fields and no change to the page.
"""

from engine.cards import effects as fx
from engine.cards import ATTACK_RESULTS, DEFENSE_RESULTS, KINDS, POSITIONS
from engine.cards import TIMING_EN


def _param(name, p):
    d = {"name": name, "type": p.type, "required": p.required, "doc": p.doc}
    if not p.required and p.default is not None:
        d["default"] = p.default
    if p.choices:
        d["choices"] = list(p.choices)
    return d


def vocabulary():
    return {
        "kinds": list(KINDS),
        "positions": list(POSITIONS),
        "results": {"attack": list(ATTACK_RESULTS), "defense": list(DEFENSE_RESULTS)},
        "timings": [{"name": n, "ko": ko, "en": TIMING_EN.get(n, n), "guide": g} for n, ko, g, _ in fx.TIMINGS],
        "primitives": [{"name": p.name, "ko": p.ko, "en": p.en, "guide": p.guide, "mode": p.mode, "kinds": list(p.kinds),
                        "example": p.example, "params": [_param(k, v) for k, v in p.params.items()]}
                       for p in fx.REGISTRY.values()],
        "conditions": [{"name": k, "type": t, "doc": doc} for k, (t, doc) in fx.CONDITIONS.items()],
        "zones": {k: list(v) for k, v in fx.ZONES_BY_KIND.items()},
        "zone_doc": dict(getattr(fx, "ZONE_DOC", {})),
        "durations": list(fx.DURATIONS),
        "targets": list(fx.TARGETS),
        "labels": list(fx.LABELS),
        "count_zones": list(fx.COUNT_ZONES),
        "used_keys": list(fx.USED_KEYS),
        "common": dict(fx.COMMON),
        "nested": list(fx.NESTED),
    }
