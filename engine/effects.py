"""The registry of card-effect primitives.

Card text beyond the judgment-result area (for example "판정 전에 FP +1") is
written as a list of effect entries under a card's ``effects:`` key. Each entry
names a primitive from this registry; an unknown primitive or parameter is a
load error naming the card and the field (in the manner of a card-script
linter). The engine core ships the registry and its checker; the vocabulary of
primitives is added by the card-effects work (see docs/card-format.md).
"""

# name -> {"params": {param: type}, "timings": set of timings}; empty until primitives are defined
REGISTRY = {}


def check_effects(effects, kind):
    """Yield (message, obj, key, field) for every problem in a card's effects list."""
    for i, entry in enumerate(effects):
        field = "effects[%d]" % i
        if not isinstance(entry, dict):
            yield ("an effect must be a mapping like {do: <primitive>, ...}", None, None, field)
            continue
        name = entry.get("do")
        if name not in REGISTRY:
            known = ", ".join(sorted(REGISTRY)) or "none yet"
            yield ("unknown effect %r (known primitives: %s)" % (name, known), entry, "do", field)
            continue
        params = REGISTRY[name]["params"]
        for key in entry:
            if key not in params and key not in ("do", "timing", "optional", "number"):
                yield ("unknown parameter %r for effect %r" % (key, name), entry, key, field + "." + str(key))
