"""Card, card-set and deck data written back as YAML, losslessly.

The card editor keeps a card as plain data (the mapping a card file holds) and
writes it with these functions; ``yaml.safe_load`` of the text gives the same
data back (tests/engine/test_cardyaml.py checks this on the sample set, every
scenario's inline cards and random cards built from the effect registry).

The text follows the style of the hand-written files (docs/card-format.md):
block mappings for cards, one flow mapping per effect entry and per result,
flow lists for positions and health bands, keys in the documented order so a
saved card diffs cleanly in git. Keys the writer does not know are kept, last:
an invalid card is written as it is, never silently trimmed (the linter names
the problem).
"""

import yaml

from engine.cards.effects import COMMON, REGISTRY, plain

CARD_ORDER = ("id", "number", "name", "name_en", "kind", "mark", "ultimate", "speed", "position", "damage",
              "guard", "evade", "offset", "results", "special", "text", "effects")
RESULT_ORDER = ("hit", "counter", "guarded", "evaded", "countered", "guard", "evade", "offset", "was_hit")
COND_ORDER = ("positions", "speed_min", "speed_max")
CHARACTER_ORDER = ("id", "name", "name_en", "mark", "health", "hand_limit", "trait", "tokens")
TRAIT_ORDER = ("id", "name", "name_en", "text", "effects")
TOKEN_ORDER = ("id", "name", "name_en", "start", "max")
SET_ORDER = ("id", "name", "name_en", "sample")
DECK_ORDER = ("name", "name_en", "cardset", "character", "cards", "ultimate")
ENTRY_TAIL = tuple(k for k in COMMON if k not in ("do", "text")) + ("duration", "text")

SAMPLE_HEADER = ("# 비공식 샘플 카드 (공식 카드 텍스트가 아닙니다) / unofficial sample cards, not official card text\n")


class _Flow(dict):
    """A mapping written on one line: ``{fp: 1, combo: true}``."""


class _FlowList(list):
    """A list written on one line: ``[high, mid]``."""


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)     # "  - item" under its key, as the files are written


_Dumper.add_representer(_Flow, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(), flow_style=True))
_Dumper.add_representer(_FlowList, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))
_Dumper.add_representer(dict, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(), flow_style=False))
_Dumper.add_representer(list, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=False))

# YAML folds these inside plain and single-quoted scalars (NEL, LS, PS are line breaks to it);
# a double-quoted scalar escapes them, so a name or text holding one comes back as it went in
_BREAKS = frozenset("\x85\u2028\u2029\ufeff")


def _str(d, v):
    if _BREAKS.intersection(v):
        return d.represent_scalar("tag:yaml.org,2002:str", v, style='"')
    return d.represent_str(v)


_Dumper.add_representer(str, _str)


def _ordered(d, order, cls=dict):
    """``d`` with the keys of ``order`` first (in that order), then the others as they came."""
    if not isinstance(d, dict):
        return d
    out = cls()
    for k in order:
        if k in d:
            out[k] = d[k]
    for k in d:
        if k not in out:
            out[k] = d[k]
    return out


def _flow(v):
    """Everything under ``v`` on one line (flow style)."""
    if isinstance(v, dict):
        return _Flow((k, _flow(x)) for k, x in v.items())
    if isinstance(v, list):
        return _FlowList(_flow(x) for x in v)
    return v


def _entry(e):
    """One effect entry: ``do`` first, then the primitive's parameters, then the common keys."""
    if not isinstance(e, dict):
        return _flow(e)
    do = e.get("do")
    prim = REGISTRY.get(do) if isinstance(do, str) else None     # an invalid entry is written as it is
    order = ("do",) + (tuple(prim.params) if prim else ()) + ENTRY_TAIL
    out = _ordered(e, order, _Flow)
    for key in ("then",):
        if isinstance(out.get(key), list):
            out[key] = _FlowList(_entry(x) for x in out[key])
    if isinstance(out.get("options"), dict) and e.get("do") == "choice":
        out["options"] = _Flow((k, _FlowList(_entry(x) for x in v) if isinstance(v, list) else _flow(v))
                               for k, v in out["options"].items())
    for k, v in out.items():
        if k not in ("then", "options") and isinstance(v, (dict, list)) and not isinstance(v, (_Flow, _FlowList)):
            out[k] = _flow(v)
    return out


def _effects(v):
    return [_entry(e) for e in v] if isinstance(v, list) else _flow(v)


def _judgment(v):
    if isinstance(v, dict):
        return _flow(_ordered(v, COND_ORDER))
    return _flow(v)


def _results(v):
    if not isinstance(v, dict):
        return _flow(v)
    return {k: _flow(_ordered(r, ("fp", "combo"))) for k, r in _ordered(v, RESULT_ORDER).items()}


def card_tree(card):
    """The card mapping arranged for writing (key order, flow where the files use it)."""
    card = plain(card)
    if not isinstance(card, dict):
        return card
    out = _ordered(card, CARD_ORDER)
    for k, v in out.items():
        if k in ("guard", "evade", "offset"):
            out[k] = _judgment(v)
        elif k == "results":
            out[k] = _results(v)
        elif k == "special" and isinstance(v, dict):
            out[k] = {sk: (_judgment(sv) if sk in ("evade", "offset") else _flow(sv)) for sk, sv in v.items()}
        elif k == "effects":
            out[k] = _effects(v)
        elif isinstance(v, (dict, list)):
            out[k] = _flow(v)
    return out


def character_tree(ch):
    ch = plain(ch)
    if not isinstance(ch, dict):
        return ch
    out = _ordered(ch, CHARACTER_ORDER)
    for k, v in out.items():
        if k == "trait" and isinstance(v, dict):
            t = _ordered(v, TRAIT_ORDER)
            for tk, tv in t.items():
                if tk == "effects":
                    t[tk] = _effects(tv)
                elif isinstance(tv, (dict, list)):
                    t[tk] = _flow(tv)
            out[k] = t
        elif k == "tokens" and isinstance(v, list):
            out[k] = [_flow(_ordered(t, TOKEN_ORDER)) for t in v]
        elif isinstance(v, (dict, list)):
            out[k] = _flow(v)
    return out


def _dump(tree):
    return yaml.dump(tree, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=10 ** 6,
                     default_flow_style=False)


def dump_card(card):
    """One card as YAML text (a mapping, as in a scenario's or a set's ``cards:`` list)."""
    return _dump(card_tree(card))


def dump_set(data, header=None):
    """A whole card-set file (``set:``, ``characters:``, ``cards:``) as YAML text.

    A sample set (``set.sample: true``) gets a comment saying so at the top, since the
    sample sets must stay marked as samples wherever they are copied."""
    data = plain(data)
    parts = []
    if header:
        parts.append("".join("# %s\n" % line if line else "#\n" for line in header.splitlines()))
    info = data.get("set") if isinstance(data, dict) else None
    if isinstance(info, dict) and info.get("sample"):
        parts.append(SAMPLE_HEADER)
    if not isinstance(data, dict):
        return "".join(parts) + _dump(data)
    for key in ("set", "characters", "cards"):
        if key not in data:
            continue
        v = data[key]
        if key == "set":
            tree = _ordered(v, SET_ORDER) if isinstance(v, dict) else v
        elif key == "characters":
            tree = [character_tree(c) for c in v] if isinstance(v, list) else v
        else:
            tree = [card_tree(c) for c in v] if isinstance(v, list) else v
        parts.append(_dump({key: tree}))
    for key, v in data.items():     # unknown top-level keys are kept (the linter names them)
        if key not in ("set", "characters", "cards"):
            parts.append(_dump({key: plain(v)}))
    return "\n".join(parts) if not parts or parts[0] != SAMPLE_HEADER else parts[0] + "\n".join(parts[1:])


def dump_deck(deck, header=None):
    """A deck file (``deck:`` with name, cardset, character, cards, ultimate) as YAML text."""
    d = plain(deck)
    inner = d.get("deck") if isinstance(d, dict) and "deck" in d else d
    tree = _ordered(inner, DECK_ORDER) if isinstance(inner, dict) else inner
    text = _dump({"deck": tree})
    if header:
        text = "".join("# %s\n" % line for line in header.splitlines()) + text
    return text


def load_text(text):
    """Plain data from YAML text (the inverse of the dump functions)."""
    return yaml.safe_load(text)
