"""The declared event kinds (engine/core/event_kinds.py) read as data: each kind's fields, and
whether a value is one a field can have. For the scenario checker (a pattern that could never
match is an error naming its field) and for the test that holds every emitted event to its
declaration (``event_problems``)."""

import types
from collections.abc import Collection, Mapping
from typing import Annotated, Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

from engine.core.event_kinds import CARD, KINDS, SOURCE, TIMING


class Field:
    """One field of an event kind: its type (as declared) and whether every event of the kind has it."""

    __slots__ = ("name", "type", "required")

    def __init__(self, name: str, tp: Any, required: bool) -> None:
        self.name = name
        self.type = tp
        self.required = required

    def problem(self, value: Any, known: Mapping[str, Collection[str]] | None = None) -> str | None:
        """None if ``value`` is one this field can have, else what it must be ("an integer", ...).
        ``known`` lists the values a marked string may take (``{CARD: card ids, ...}``)."""
        return None if _fits(self.type, value, known or {}) else describe(self.type, known or {})


def _fields(cls: type) -> dict[str, Field]:
    hints = get_type_hints(cls, include_extras=True)
    required: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
    out = {}
    for name, tp in hints.items():
        while get_origin(tp) is NotRequired:
            tp = get_args(tp)[0]
        out[name] = Field(name, tp, name in required)
    return out


#: kind -> {field: Field}, ``e`` and ``rule`` included
FIELDS: dict[str, dict[str, Field]] = {}
for _cls in KINDS:
    _f = _fields(_cls)
    FIELDS[get_args(_f["e"].type)[0]] = _f


def _fits(tp: Any, v: Any, known: Mapping[str, Collection[str]]) -> bool:
    origin = get_origin(tp)
    if tp is Any:
        return True
    if tp is type(None) or tp is None:
        return v is None
    if origin is Literal:
        return any(v == x and type(v) is type(x) for x in get_args(tp))
    if origin is Union or origin is types.UnionType:
        return any(_fits(t, v, known) for t in get_args(tp))
    if origin is Annotated:
        base, *marks = get_args(tp)
        if not _fits(base, v, known):
            return False
        return all(m not in known or v in known[m] for m in marks)
    if origin is list:
        (item,) = get_args(tp)
        return isinstance(v, list) and all(_fits(item, x, known) for x in v)
    if origin is dict:
        k, x = get_args(tp)
        return isinstance(v, dict) and all(_fits(k, a, known) and _fits(x, b, known) for a, b in v.items())
    if tp is int:
        return isinstance(v, int) and not isinstance(v, bool)
    if tp is bool:
        return isinstance(v, bool)
    if tp is str:
        return isinstance(v, str)
    raise TypeError("no check for the declared type %r" % (tp,))


def describe(tp: Any, known: Mapping[str, Collection[str]] | None = None) -> str:
    """A declared type in words, for a message: "an integer", "a or b", "a card id of this scenario"."""
    known = known or {}
    origin = get_origin(tp)
    if tp is type(None) or tp is None:
        return "null"
    if origin is Literal:
        return " or ".join(map(str, get_args(tp))) if len(get_args(tp)) <= 2 else \
            "one of " + ", ".join(map(str, get_args(tp)))
    if origin is Union or origin is types.UnionType:
        return " or ".join(describe(t, known) for t in get_args(tp))
    if origin is Annotated:
        base, mark = get_args(tp)[:2]
        words = {CARD: "a card id", SOURCE: "a card or trait id", TIMING: "a timing name"}.get(mark, describe(base))
        if mark in known:
            have = sorted(known[mark])
            words += " of this scenario (%s)" % (", ".join(have[:12]) + (", ..." if len(have) > 12 else "")) \
                if mark != TIMING else " (%s)" % ", ".join(have)
        return words
    if origin is list:
        return "a list of " + _plural(describe(get_args(tp)[0], known))
    if origin is dict:
        return "a mapping"
    return {int: "an integer", bool: "true or false", str: "a string"}.get(tp, str(tp))


def _plural(words: str) -> str:
    for a, b in (("a card id", "card ids"), ("an integer", "integers"), ("a string", "strings")):
        if words.startswith(a):
            return b + words[len(a):]
    return words


def event_problems(event: Mapping[str, Any]) -> list[str]:
    """What is wrong with an emitted event by its kind's declaration (empty: it conforms)."""
    kind = event.get("e")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return ["unknown event kind %r" % (kind,)]
    out = ["%s: field %r is not declared (engine/core/event_kinds.py)" % (kind, k) for k in event if k not in fields]
    out += ["%s: field %r is missing" % (kind, f.name) for f in fields.values() if f.required and f.name not in event]
    for k, v in event.items():
        f = fields.get(k)
        if f is not None and f.problem(v) is not None:
            out.append("%s.%s = %r: must be %s" % (kind, k, v, f.problem(v)))
    return out
