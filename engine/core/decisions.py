"""Decisions: what the engine asks, the legal options, and answer validation.

A request is a dict: ``{"player": "a", "kind": "get", "options": [...],
"hidden": False}``, plus ``"count"`` for a discard and ``"sizes"`` for a setup.
The engine asks only when a player has a real choice (two or more legal
options, where pass/end/skip counts as one); the ready is always asked.
``hidden`` marks a decision whose options or answer must not be shown to the
opponent or spectators (the ready pick, a setup, a replenish from the
face-down side deck).

Kinds and answer values (the scenario input keys of brief 4.2):

=========  ===============================================  ===============
kind       value                                            options
=========  ===============================================  ===============
ready      a hand card id; or kind ``timeout`` (value True)  the legal hand skills (``unusable``:
                                                            those readied as a non-response)
pick       a card id of the opponent's revealed hand         card ids
get        a list card id, ``"ultimate"`` or ``"skip"``      those values
discard    a list of ``count`` hand card ids                 hand card ids
combo      ``[id, id]`` first, then ``[id]``; or ``"end"``   lists + "end"
catch      a hand attack id or ``"pass"``                    ids + "pass"
nullify    a hand grab card id or ``"pass"``                 ids + "pass"
replenish  a side-deck card id or ``"pass"``                 ids + "pass"
setup      ``{"hand": [...], "list": [...]}``                 the pool
choose     an option name (card effects)                    option names
=========  ===============================================  ===============

A ``choose`` request carries ``about: {"question": ..., "effect": "card-id:n"}``;
the questions and option names (effect order, ``use``/``pass``, a card id, an
option of a ``choice``) are listed in docs/card-format.md.
"""

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol, TypedDict, TypeVar, cast

from engine.core.errors import IllegalDecision


class _RequestFields(TypedDict):
    player: str             # "a" or "b"
    kind: str               # one of KINDS (not "timeout": that answers a ready)
    options: list[Any]      # the legal answers (card ids, "pass"/"end"/"skip", [id, id] for a combo)
    hidden: bool            # neither the options nor the answer may reach the opponent or spectators


class Request(_RequestFields, total=False):
    """A pending decision as the engine asks it (``state.pending``): a plain dict in JSON, these keys."""

    count: int              # discard: how many cards
    sizes: dict[str, int]   # setup: {"hand": n, "list": n}
    unusable: list[str]     # ready: hand skills whose use condition fails; readying one is a non-response
    about: dict[str, Any]   # choose: {"question", "effect", "timing"} (docs/card-format.md)
    task: bool              # its answer goes to the first task (a replenish, a discard), not to the inbox


class _Hands(Protocol):
    @property
    def hand(self) -> list[str]: ...


class Table(Protocol):
    """What deciding reads of a game state (engine.play.state.GameState meets it; core does not import play)."""

    pending: list[Request]

    @property
    def winner(self) -> str | None: ...

    @property
    def players(self) -> Mapping[str, _Hands]: ...


_T = TypeVar("_T", bound=Hashable)

KINDS = ("ready", "timeout", "pick", "get", "discard", "combo", "catch", "nullify", "replenish",
         "setup", "choose")


def ask(st: Table, player: str, kind: str, options: list[Any], hidden: bool = False, **extra: Any) -> Request:
    req = cast(Request, {"player": player, "kind": kind, "options": options, "hidden": hidden, **extra})
    st.pending.append(req)
    return req


def find_request(st: Table, player: str, kind: str) -> tuple[int, Request]:
    for i, req in enumerate(st.pending):
        if req["player"] != player:
            continue
        if req["kind"] == kind or (req["kind"] == "ready" and kind == "timeout"):
            return i, req
    asked = ", ".join("%s: %s" % (r["player"], r["kind"]) for r in st.pending) or "nothing"
    if st.winner is not None:
        asked = "nothing (the game is over)"
    raise IllegalDecision("player %s may not answer %r now; the engine is asking %s" % (player, kind, asked))


def counts(items: Sequence[_T]) -> dict[_T, int]:
    """{item: how many times}, in first-seen order (what ``Counter`` gives, at a fraction of its cost:
    its constructor is Python code, run for every setup)."""
    out: dict[_T, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


def distinct_multisets(items: Sequence[Any], count: int) -> int:
    """How many different multisets of ``count`` items can be taken from ``items`` (capped at 2)."""
    if count <= 0 or count >= len(items):
        return 1
    first = items[0]
    for x in items:
        if x != first:
            return 2
    return 1


def validate(st: Table, req: Request, kind: str, value: Any) -> None:
    """Raise IllegalDecision with the reason unless ``value`` answers ``req``."""
    p = req["player"]
    opts = req["options"]
    if kind == "timeout":
        if value is not True:
            raise IllegalDecision("timeout must be true")
        return
    if kind == "discard":
        count = req["count"]
        if not isinstance(value, (list, tuple)):
            raise IllegalDecision("discard takes a list of %d hand card id(s)" % count)
        if len(value) != count:
            raise IllegalDecision("discard exactly %d card(s) to reach the hand limit, not %d" % (count, len(value)))
        hand = st.players[p].hand
        if not all(isinstance(cid, str) for cid in value):
            raise IllegalDecision("discard takes a list of %d hand card id(s) (strings), not %r" % (count, value))
        if all(type(cid) is str for cid in value):
            # each id at most as often as it is in the hand (first missing id named, as below)
            for cid in value:
                if cid not in hand or value.count(cid) > hand.count(cid):
                    raise IllegalDecision("cannot discard %r: not in %s's hand" % (cid, p))
            return
        need = Counter(value)
        have = Counter(hand)
        for cid, n in need.items():
            if have[cid] < n:
                raise IllegalDecision("cannot discard %r: not in %s's hand" % (cid, p))
        return
    if kind == "setup":
        if not isinstance(value, dict) or set(value) != {"hand", "list"}:
            raise IllegalDecision("setup takes {hand: [...], list: [...]}")
        sizes = req["sizes"]
        for zone in ("hand", "list"):
            if not isinstance(value[zone], (list, tuple)) or len(value[zone]) != sizes[zone]:
                raise IllegalDecision("setup %s must list exactly %d card(s)" % (zone, sizes[zone]))
        pool = counts(opts)
        for cid, n in counts(list(value["hand"]) + list(value["list"])).items():
            if pool.get(cid, 0) < n:
                raise IllegalDecision("setup: %r is not available %d time(s) among the non-special skill cards" % (cid, n))
        return
    if kind == "combo":
        if isinstance(value, str) and value != "end":
            value = [value]
        if isinstance(value, tuple):
            value = list(value)
    if kind == "ready" and value in req.get("unusable", ()):
        return           # readying a skill whose use condition fails is a non-response (guide 3.10)
    if value not in opts:
        shown = "(hidden)" if req.get("hidden") and kind != "ready" else ", ".join(map(str, opts))
        raise IllegalDecision("%r is not a legal %s for %s; legal: %s" % (value, kind, p, shown))


def normalize(kind: str, value: Any) -> Any:
    if kind == "combo":
        if isinstance(value, str) and value != "end":
            return [value]
        if isinstance(value, tuple):
            return list(value)
    if kind == "discard":
        return list(value)
    if kind == "setup":
        return {"hand": list(value["hand"]), "list": list(value["list"])}
    return value


def setup_has_choice(pool: Sequence[str], hand_n: int, list_n: int) -> bool:
    """Is there more than one way to split ``pool`` into hand/list/rest?"""
    if len(set(pool)) <= 1:
        return False
    if hand_n + list_n == len(pool) and hand_n == 0:
        return False
    if hand_n >= len(pool):
        return False
    return True

