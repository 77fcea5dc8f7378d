"""Deterministic referee play for the fault tests: each decision is a function of
(seed, decisions taken so far, who, what), never of the process's history, so a game
cut anywhere and resumed takes exactly the decisions an uninterrupted one does."""

import json
import random

from engine.bots import random_answer


def next_decision(session, seed):
    req = session.state.pending[0]
    n = sum(session.answered.values())
    rnd = random.Random("%d:%d:%s:%s" % (seed, n, req["player"], req["kind"]))
    kind, value = random_answer(session.state, req, rnd)
    if kind == "timeout":
        kind, value = "ready", req["options"][0]
    return req["player"], kind, value


def play(table, seed, stop=None):
    """Play the table's referee game to its end (or until ``stop(session)`` is true)."""
    s = table.session
    while s.state.winner is None and not (stop and stop(s)):
        seat, kind, value = next_decision(s, seed)
        table.submit(seat, kind, value)
    return s


def state_json(session):
    return json.dumps(session.state.to_json(), sort_keys=True)


def copy_game(src, dst, game_id, skip=()):
    """Copy one game's records into another store, leaving out the seqs in ``skip``
    (how a record cut by an older hub version looks). Returns the new game id."""
    recs = src.records(game_id)
    g = src.game(game_id)
    if "card_table" in recs[0].body:
        dst.put_card_table(src.card_table(recs[0].body["card_table"]))
    gid = dst.new_game(g["mode"], recs[0].body, g["table"])
    for r in recs[1:]:
        if r.seq in skip:
            continue
        dst.db.execute("INSERT INTO records (game_id, seq, kind, wall_ms, mono_ms, seat, hidden, body) "
                       "VALUES (?,?,?,?,?,?,?,?)",
                       (gid, r.seq, r.kind, r.wall_ms, r.mono_ms, r.seat, int(r.hidden),
                        json.dumps(r.body, ensure_ascii=False, sort_keys=True)))
    return gid
