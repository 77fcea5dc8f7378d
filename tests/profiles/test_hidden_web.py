"""Hidden picks never leave the hub before the reveal (brief 3), the same check as Lumen's
(tests/web/test_hidden.py) on a profile game's channels: every HTTP response and WebSocket
message (as sent and as applied) of a spectator and the judge while BattleCON pairs and
clash re-picks are locked; and non-interference: the same game picking another card gives
the same spectator bytes until the reveal."""

import json

from fastapi.testclient import TestClient

from hub.web.app import create_app
from tests.web.conftest import AUTH, TOKEN, aid, make_table, on_loop
from tests.web.test_hidden import Traffic, _normalise

#: where a card id may stand in public: the hands and discard piles (face up), the greyed
#: options, the catalogue of the seats' cards (the same all game), a public prompt's options
PUBLIC_KEYS = {"hand", "piles", "unavailable", "cards", "options", "alt"}


def _strip(data, lock):
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            if k in PUBLIC_KEYS:
                continue
            if k == "records" and isinstance(v, list):        # the record before the lock (earlier beats' reveals)
                v = [r for r in v if not (isinstance(r, dict) and r.get("seq", 0) < lock["seq"])]
            if k in ("log", "entries") and isinstance(v, list):
                v = [e for e in v if json.dumps(e, ensure_ascii=False, sort_keys=True) not in lock["prelog"]]
            if k == "log" and isinstance(v, dict):              # a delta's appended lines
                v = [e for e in v.get("add", []) if json.dumps(e, ensure_ascii=False, sort_keys=True) not in lock["prelog"]]
            out[k] = _strip(v, lock)
        return out
    if isinstance(data, list):
        return [_strip(v, lock) for v in data]
    return data


def _prelog(session):
    from hub.sessions.display.common import log_line
    return {json.dumps(x, ensure_ascii=False, sort_keys=True) for e in session.game.log for x in (e, log_line(e))}


def _check(items, locks, session):
    n = 0
    for source, text in items:
        data = json.loads(text)
        for seat, lock in locks.items():
            assert lock["nonce"] not in text, "%s leaked the nonce of %s's pick" % (source, seat)
            cleaned = json.dumps(_strip(data, lock), ensure_ascii=False)
            card = session.game.by_id[seat][lock["card"]]
            assert '"%s"' % lock["card"] not in cleaned, "%s shows %s's hidden %s before the reveal" % (source, seat, card["id"])
            for name in {card["name"], card.get("name_en")} - {None, ""}:
                assert name not in cleaned, "%s names %s's hidden pick (%s) before the reveal" % (source, seat, name)
            n += 1
    return n


def _pick(client, table, seat, card, locks):
    session = table.session
    lock = {"card": card, "seq": table.store.next_seq(session.game_id), "prelog": _prelog(session)}
    on_loop(client, table.submit, seat, "ready", card, "pod")
    lock["nonce"] = next(v["nonce"] for v in session._hidden.values() if v["seat"] == seat and v["value"] == card)
    locks.setdefault(seat, []).append(lock)


def test_a_battlecon_game_never_shows_a_hidden_pick_before_the_reveal():
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client, client.websocket_connect("/ws") as ws:
        tr = Traffic(client, ws, table)
        tr.receive()
        r = tr.post("/api/control/games", {"action_id": aid(), "mode": "profile", "profile": "battlecon", "a": "haneul",
                                           "b": "bada", "seed": 4, "priority": "a"})
        assert r.status_code == 200, r.text
        gid = r.json()["game_id"]
        tr.drain()
        s = table.session
        checked = 0
        beats = [(("haneul-dawn", "hold"), ("bada-tide", "charge"), [("haneul-arc", "blast")]),      # 5 to 5: a clash
                 (("haneul-mirror", "hold"), ("bada-squall", "charge"), [("blast", "hold")]),        # 6 to 6: a clash
                 (("haneul-flame", "step"), ("bada-reef", "jab"), [])]
        for a_pair, b_pair, clashes in beats:
            locks = {}
            for seat, pair in (("a", a_pair), ("b", b_pair)):
                for i, card in enumerate(pair):
                    if seat == "b" and i == len(pair) - 1:
                        break                            # the last pick reveals: scanned below, after the antes
                    start = len(tr.items)
                    _pick(client, table, seat, card, locks)
                    tr.poll(gid)
                    r = tr.post("/api/control/profile", {"action_id": aid(), "command": {
                        "action": "adjust", "seat": "a", "counter": "life", "delta": 0}})
                    checked += _check(tr.items[start:], {k: v[-1] for k, v in locks.items()}, s)
            start = len(tr.items)
            _pick(client, table, "b", b_pair[-1], locks)
            # the antes come from the judge's phone (public decisions), the pair still face down
            while s.game.st["phase"] == "ante":
                if s.game.st["ante"]["turn"] == "b" and not s.game.st["revealed"]:
                    tr.poll(gid)
                    checked += sum(_check(tr.items[start:], {k: lk}, s) for k, v in locks.items() for lk in v)
                r = tr.post("/api/control/decision", {"action_id": aid(), "seat": s.game.st["ante"]["turn"],
                                                      "kind": "ante", "value": "pass"})
                assert r.status_code == 200, r.text
            for ca, cb in clashes:
                assert s.game.st["phase"] == "clash"
                locks = {}
                start = len(tr.items)
                _pick(client, table, "a", ca, locks)
                tr.poll(gid)
                checked += _check(tr.items[start:], {"a": locks["a"][-1]}, s)
                on_loop(client, table.submit, "b", "ready", cb, "pod")
            tr.poll(gid)
            assert s.game.st["phase"] == "resolve"
            for seat in "ab":
                r = tr.post("/api/control/decision", {"action_id": aid(), "seat": seat, "kind": "end_turn", "value": "done"})
                assert r.status_code == 200, r.text
        # a hidden pick is refused from the display: the judge's phone is public
        r = tr.post("/api/control/decision", {"action_id": aid(), "seat": "a", "kind": "ready", "value": "haneul-dawn"})
        assert r.status_code == 403, r.text
        tr.drain()
    assert checked >= 30, checked
    for source, text in tr.items:
        assert TOKEN not in text, "%s contains the admin token" % source
        if source == "WS":
            assert json.loads(text)["t"] in {"state", "delta", "clock", "pong"}


def _world(style, seed=9):
    """1P picks ``style`` in beat 2; every spectator byte until 2P's last pick of the beat."""
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client, client.websocket_connect("/ws") as ws:
        tr = Traffic(client, ws, table)
        tr.receive()
        client.post("/api/control/games", json={"action_id": "start-game-1", "mode": "profile", "profile": "battlecon",
                                                "a": "haneul", "b": "bada", "seed": seed, "priority": "a"}, headers=AUTH)
        gid = table.session.game_id
        for seat, card in (("a", "haneul-dawn"), ("a", "charge"), ("b", "bada-tide"), ("b", "blast")):
            on_loop(client, table.submit, seat, "ready", card, "pod")
        for seat in ("a", "b"):
            on_loop(client, table.submit, seat, "ante", "pass", "pod")
        for seat in ("a", "b"):
            on_loop(client, table.submit, seat, "end_turn", "done", "pod")
        tr.drain()
        tr.items = []
        on_loop(client, table.submit, "a", "ready", style, "pod")
        tr.poll(gid)
        on_loop(client, table.submit, "a", "ready", "hold", "pod")
        tr.poll(gid)
        on_loop(client, table.submit, "b", "ready", "bada-reef", "pod")
        tr.poll(gid)
        tr.post("/api/control/profile", {"action_id": "adjust-1", "command": {"action": "adjust", "seat": "b",
                                                                              "counter": "life", "delta": -1}})
        tr.get("/api/state")
        tr.drain()
        return [(src, _normalise(json.loads(t))) for src, t in tr.items]


def test_spectator_traffic_does_not_depend_on_the_picked_card():
    one, two = _world("haneul-mirror"), _world("haneul-flame")
    assert len(one) >= 10 and len(one) == len(two)
    for (s1, d1), (s2, d2) in zip(one, two):
        assert s1 == s2
        assert d1 == d2, "%s differs with the picked style" % s1
