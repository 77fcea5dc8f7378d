""""Try it": two cards judged against each other by the engine, before a card is saved.

The editor's try-it panel calls :func:`judge` with the card being edited (plain
data, not yet in any set) and an opposing card. The engine plays exactly one
battle from a ready phase where each player holds only that card; the answer is
the outcome of each side, the FP and damage that followed, and the rule the
judgment applied (guide 4.4's battle order, engine/play/battle.py), each line in
Korean and English. Questions an effect asks in the battle are answered the
plain way (the first option; combos end, catches pass) and listed, so a card
whose effect asks something shows it.
"""

from engine.api import game
from engine.cards.model import parse_card
from engine.core.errors import CardError, IllegalDecision, LumenError
from engine.core.events import OUTCOME_EN, OUTCOME_KO, explain
from engine.scenarios.runner import build

GENERIC = {"health": [5000, 4000, 3000, 2000, 1000], "hand_limit": [6, 7, 8, 9, 9]}
SHOWN = ("fp_speed", "fp_speed_floor", "judgment", "result_fp", "damage", "health_loss", "offset_even", "effect_fp",
         "heal", "effect_health_loss", "token", "effect_nullify", "prohibited", "lasting", "catch_granted",
         "combo_granted", "choice", "speed_fix", "speed_change")
MAX_STEPS = 200


class TrialError(LumenError):
    """The two cards cannot be tried (a special, an invalid card): the message says why."""


def _answer(req):
    kind, opts = req["kind"], req["options"]
    if kind in ("combo", "catch", "nullify", "replenish") and isinstance(opts, list):
        for quit in ("end", "pass"):
            if quit in opts:
                return quit
    if kind == "discard":
        return list(opts)[:req["count"]]
    if kind == "get":
        return "skip" if "skip" in opts else opts[0]
    return opts[0]


def judge(mine, theirs, fp=(0, 0), characters=(None, None), priority="a"):
    """Judge card ``mine`` (seat a) against ``theirs`` (seat b). Cards are mappings in the
    card-file format; ``characters`` are optional character mappings (their traits apply).
    Returns {"outcome": {a, b}, "outcome_text", "rule", "reason": {ko, en}, "fp": {a, b},
    "health": {a, b}, "damage": {a, b}, "events": [{e, seat, rule, text}], "asked": [...]}.
    Raises TrialError naming the problem."""
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        raise TrialError("both cards must be card mappings")
    for seat, c in (("a", mine), ("b", theirs)):
        if not isinstance(c.get("id"), str) or not c.get("id"):
            raise TrialError("%s: a card needs an id (a non-empty string)" % seat)
        _card, problems = parse_card(c)
        if problems:
            raise TrialError("%s: %s" % (seat, "; ".join(str(p) for p in problems)))
        if c.get("kind") == "special":
            raise TrialError("%s: %s is a special skill; only attacks and defenses are readied (guide 3.3.3)"
                             % (seat, c.get("id")))
    theirs = dict(theirs)
    if theirs.get("id") == mine.get("id"):
        theirs["id"] = "%s~2" % theirs.get("id")     # the same card on both sides: two copies
    data = {"name": "try it", "cards": [dict(mine), theirs], "priority": priority,
            "players": {s: {"character": ch or GENERIC, "hand": [c["id"]], "fp": f}
                        for s, c, ch, f in (("a", mine, characters[0], fp[0]), ("b", theirs, characters[1], fp[1]))}}
    try:
        sc = build(data, "try-it")
    except CardError as e:
        raise TrialError("; ".join(str(p) for p in e.problems)) from None
    except LumenError as e:
        raise TrialError(str(e)) from None
    st = sc.state
    start = {s: (st.players[s].health, st.players[s].fp) for s in ("a", "b")}
    events, asked = [], []
    st, ev = game.advance(st, {"battle_end"})
    events += ev
    steps = 0
    while not any(e["e"] == "battle_end" for e in events) and st.winner is None and st.pending:
        req = st.pending[0]
        p = req["player"]
        if req["kind"] == "ready":
            value = data["players"][p]["hand"][0]
        else:
            value = _answer(req)
            asked.append({"seat": p, "kind": req["kind"], "options": req["options"], "answer": value,
                          "about": req.get("about")})
        try:
            st, ev = game.apply(st, p, req["kind"], value, {"battle_end"})
        except IllegalDecision as e:
            raise TrialError("the engine refused %s's %s: %s" % (p, req["kind"], e)) from None
        events += ev
        steps += 1
        if steps > MAX_STEPS:
            raise TrialError("the battle did not end within %d decisions" % MAX_STEPS)
    j = next((e for e in events if e["e"] == "judgment"), None)
    outcome = st.last_outcome or {}
    shown = []
    for ev in events:
        if ev["e"] in SHOWN or ev["e"].startswith("effect_") or ev["e"].startswith("combo") or ev["e"] == "catch":
            shown.append({"e": ev["e"], "seat": ev.get("p"), "rule": ev.get("rule"), "text": explain(ev, st.cards)})
    out = {
        "outcome": {s: outcome.get(s) for s in ("a", "b")},
        "outcome_text": {s: {"ko": OUTCOME_KO.get(outcome.get(s), outcome.get(s)),
                             "en": OUTCOME_EN.get(outcome.get(s), outcome.get(s))} for s in ("a", "b")},
        "rule": j.get("rule") if j else None,
        "reason": explain(j, st.cards) if j else None,
        "fp": {s: st.players[s].fp for s in ("a", "b")},
        "fp_change": {s: st.players[s].fp - start[s][1] for s in ("a", "b")},
        "health": {s: st.players[s].health for s in ("a", "b")},
        "damage": {s: start[s][0] - st.players[s].health for s in ("a", "b")},
        "events": shown,
        "asked": asked,
    }
    return out
