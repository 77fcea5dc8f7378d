"""Hidden information through the web (brief 3, issue 6 tests).

1. A scripted referee game played through the hub (hidden decisions from the pods, public
   ones through the control API, the 10-second rule with a non-response): every HTTP
   response and every WebSocket message is recorded and scanned; while a ready is locked,
   the readied card (id or name) never appears outside the places where a public card may
   stand (hands, lists, zones, the card catalogue of visible cards, earlier history), and
   the hub-private nonce of the lock never appears at all; a card that has only ever been in
   a (face-down) side deck never appears. The admin token never appears
   in any response. Only public messages reach the WebSocket. The WebSocket's deltas are
   scanned as sent and as applied (the whole state a client keeps after each one).
2. Non-interference: the same game readying two different cards gives byte-identical
   spectator traffic until the reveal (after removing wall-clock stamps and the salted
   commitments and their random salts, the nonces of earlier, revealed readies), so nothing
   a spectator receives depends on the pick.
"""

import json

from fastapi.testclient import TestClient

from engine.bots import Bot
from hub.web.app import create_app
from hub.web.display_delta import apply, content
from tests.web.conftest import AUTH, TOKEN, aid, make_table, on_loop

# "side_deck": a seat's own view lists its own side deck, which may hold another copy of a neutral
# card the opponent readied (both sample decks have 잡아 던지기 "throw"); the readied copy itself
# is in a battle zone, never in a side deck (and another seat's side deck is only a count)
PUBLIC_CARD_KEYS = {"hand", "list", "side_deck", "break_zone", "lumen_zone", "ultimate", "ultimate_card", "ultimates",
                    "options"}
WS_TYPES = {"state", "delta", "clock", "pong"}


class Traffic:
    """Records every HTTP response and WebSocket message of one spectator + one admin."""

    def __init__(self, client, ws, table):
        self.client, self.ws, self.table = client, ws, table
        self.hub = client.app.state.hub
        self.got = 0
        self.items = []          # (source, text)
        self.kept = None         # the whole state a client keeps, the deltas applied

    def get(self, path, **kw):
        r = self.client.get(path, **kw)
        self.items.append(("GET " + path, r.text))
        return r

    def post(self, path, body, headers=AUTH):
        r = self.client.post(path, json=body, headers=headers)
        self.items.append(("POST " + path, r.text))
        return r

    def drain(self):
        on_loop(self.client, lambda: None)          # let the coalesced update go out
        while self.got < self.hub.sent:
            self.receive()
            self.got += 1

    def receive(self):
        text = self.ws.receive_text()
        self.items.append(("WS", text))
        self.kept = apply(self.kept, json.loads(text))
        self.items.append(("WS kept", json.dumps(content(self.kept), ensure_ascii=False)))

    def poll(self, gid):
        for path in ("/api/state", "/api/log", "/api/games", "/api/games/%d" % gid, "/api/games/%d/export" % gid,
                     "/api/games/%d/judge-log" % gid):
            self.get(path)
        self.drain()


def _strip(data, lock, top=True):
    """Remove the places a public card id may legitimately stand (see module docstring)."""
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            if k in PUBLIC_CARD_KEYS:
                continue
            if k == "cards" and ("seats" in data or data.get("t") == "delta"):   # the catalogue of visible cards
                continue
            if k == "last_battle" and v == lock["last_battle"]:
                continue
            if k == "records" and isinstance(v, list):    # export / judge log: history before the lock
                v = [r for r in v if not (isinstance(r, dict) and r.get("seq", 0) < lock["seq"])]
            if k == "log" and isinstance(v, list):
                v = [e for e in v if not (isinstance(e, dict) and _entry_text(e) in lock["prelog"])]
            if k == "log" and isinstance(v, dict) and data.get("t") == "delta":     # the lines a delta appends
                v = [e for e in v.get("add", []) if not (isinstance(e, dict) and _entry_text(e) in lock["prelog"])]
            out[k] = _strip(v, lock, False)
        return out
    if isinstance(data, list):
        return [_strip(v, lock, False) for v in data]
    return data


def _entry_text(e):
    t = e.get("text")
    if isinstance(t, dict):
        return t.get("ko")
    return e.get("text_ko")


def _visible_ids(st):
    ids = set()
    for p in st.players.values():
        for zone in (p.hand, p.list, p.break_zone, p.lumen_zone, p.battle_zone):
            ids.update(zone)
        ids.update(c for c in (p.ultimate, p.ultimate_card) if c)
    return ids


def check_hidden(items, locks, cards):
    """Scan recorded traffic taken while ``locks`` (seat -> lock info) were hidden."""
    n = 0
    for source, text in items:
        for seat, lock in locks.items():
            assert lock["nonce"] not in text, "%s leaked the hub's nonce of %s's ready" % (source, seat)
            data = json.loads(text)
            cleaned = json.dumps(_strip(data, lock), ensure_ascii=False)
            card = lock["card"]
            assert '"%s"' % card not in cleaned, "%s shows %s's readied card %s before the reveal" % (source, seat, card)
            c = cards[card]
            for name in {c.name, c.name_en} - {None, ""}:
                assert name not in cleaned, "%s names %s's readied card (%s) before the reveal" % (source, seat, name)
            n += 1
    return n


def test_scripted_referee_game_never_shows_a_readied_card_before_the_reveal():
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client, client.websocket_connect("/ws") as ws:
        tr = Traffic(client, ws, table)
        tr.receive()                                                # the hello state
        side_checked = 0
        checked = readies = via_api = timeouts = 0
        ready_phases = 0
        # whole games, as many as it takes to see enough readies, public decisions and a timeout
        for seed in (17, 18, 19, 20, 21, 22):
            if readies >= 20 and via_api >= 10 and timeouts >= 1:
                break
            r = tr.post("/api/control/games", {"action_id": aid(), "mode": "referee", "seed": seed})
            gid = r.json()["game_id"]
            tr.drain()
            session = table.session
            cards = session.state.cards
            bots = {"a": Bot(seed * 2 + 1, "greedy"), "b": Bot(seed * 2 + 2, "greedy")}
            locks = {}
            ever_visible = set()
            seen_reveals = 0
            steps = 0
            while session.state.winner is None and steps < 800:
                steps += 1
                st = session.state
                readies_pending = [q for q in st.pending if q["kind"] == "ready"]
                if readies_pending:
                    req = readies_pending[0]
                    if len(readies_pending) == 2:
                        ready_phases += 1
                    if len(readies_pending) == 1 and ready_phases % 7 == 3 and req["player"] in session.deadline:
                        # this player lets the 10 seconds run out: the hub turns it into a non-response
                        on_loop(client, table.clock.advance, 10_400)
                        on_loop(client, table.tick)
                        timeouts += 1
                    else:
                        kind, card = bots[req["player"]].answer(st, req)
                        if kind == "ready":
                            lock = {"card": card, "seq": len(table.store.records(gid)),
                                    "prelog": {e["text"]["ko"] for e in session.log},
                                    "last_battle": client.get("/api/state").json()["display"]["last_battle"]}
                            on_loop(client, table.submit, req["player"], "ready", card, "pod")
                            readies += 1
                            lock["nonce"] = session._nonce[req["player"]]
                            locks[req["player"]] = lock
                        else:
                            on_loop(client, table.submit, req["player"], kind, card, "pod")
                        on_loop(client, table.clock.advance, 1500)
                        on_loop(client, table.tick)
                else:
                    req = st.pending[0]
                    kind, value = bots[req["player"]].answer(st, req)
                    if req.get("hidden"):
                        on_loop(client, table.submit, req["player"], kind, value, "pod")
                    else:
                        r = tr.post("/api/control/decision", {"action_id": aid(), "seat": req["player"], "kind": kind,
                                                              "value": value})
                        assert r.status_code == 200, r.text
                        via_api += 1
                now_reveals = sum(1 for e in session.log if e["e"] == "reveal")
                if now_reveals != seen_reveals:      # the reveal: the picks are public from here on
                    seen_reveals = now_reveals
                    locks.clear()
                start = len(tr.items)
                tr.poll(gid)
                # the side deck is face down: a card that has only ever been there never shows
                # (until the game is over: a finished game's export holds the whole record)
                ever_visible |= _visible_ids(session.state)
                side_only = set()
                if session.state.winner is None:
                    side_only = {c for p in session.state.players.values() for c in p.side_deck} - ever_visible
                for source, text in tr.items[start:]:
                    for c in side_only:
                        assert '"%s"' % c not in text, "%s shows %s, which has only been in a side deck" % (source, c)
                side_checked += len(side_only)
                if locks:
                    # the countdown runs on: look again a little later
                    on_loop(client, table.clock.advance, 2000)
                    on_loop(client, table.tick)
                    if sum(1 for e in session.log if e["e"] == "reveal") == seen_reveals:
                        tr.poll(gid)
                    checked += check_hidden(tr.items[start:], locks, cards)
            assert session.state.winner is not None, "the scripted game did not finish"
            tr.poll(gid)
            # once finished, the whole record is public and the reveal records hold the cards
            assert client.get("/api/games/%d/export" % gid).json()["complete"] is True
    assert readies >= 20 and checked >= 100 and via_api >= 10 and timeouts >= 1, (readies, checked, via_api, timeouts)
    assert side_checked > 0
    for source, text in tr.items:
        assert TOKEN not in text, "%s contains the admin token" % source
        if source == "WS":
            assert json.loads(text)["t"] in WS_TYPES, "a non-public message type reached the display"


def _world(pick, seed=23, ready_phase=3):
    """Play to the ``ready_phase``-th ready phase, ready 1P's ``pick``-th distinct option,
    and return every spectator byte until just before 2P readies."""
    table = make_table()
    out = []
    with TestClient(create_app(table, tick_interval=None)) as client, client.websocket_connect("/ws") as ws:
        tr = Traffic(client, ws, table)
        tr.receive()
        client.post("/api/control/games", json={"action_id": "start-game-1", "mode": "referee", "seed": seed},
                    headers=AUTH)
        gid = table.session.game_id
        bots = {"a": Bot(5, "greedy"), "b": Bot(6, "greedy")}
        phases = 0
        while True:
            assert table.session.state.winner is None, "the sample game ended before ready phase %d" % ready_phase
            st = table.session.state
            ready = {q["player"]: q for q in st.pending if q["kind"] == "ready"}
            if len(ready) == 2:
                phases += 1
                if phases == ready_phase and len(set(ready["a"]["options"])) >= 2:
                    break
                for seat in ("a", "b"):
                    on_loop(client, table.submit, seat, *bots[seat].answer(st, ready[seat]), "pod")
                    st = table.session.state
                continue
            req = st.pending[0]
            on_loop(client, table.submit, req["player"], *bots[req["player"]].answer(st, req), "pod")
        tr.drain()
        tr.items = []
        options = sorted(set(ready["a"]["options"]))
        card = options[pick]
        on_loop(client, table.submit, "a", "ready", card, "pod")
        tr.poll(gid)
        on_loop(client, table.clock.advance, 3000)
        on_loop(client, table.tick)
        tr.poll(gid)
        tr.post("/api/control/timer", {"action_id": "timer-action-1", "action": "round_start"})
        tr.get("/api/state")
        tr.drain()
        out = [(s, _normalise(json.loads(t))) for s, t in tr.items]
        assert table.session.state.phase == "ready"
    return card, out


def _normalise(data):
    if isinstance(data, dict):
        return {k: _normalise(v) for k, v in data.items()
                if k not in ("wall_ms", "created_ms", "last_ms", "commitment", "commitments", "nonce", "nonces")}
    if isinstance(data, list):
        return [_normalise(v) for v in data]
    return data


def test_spectator_traffic_does_not_depend_on_the_readied_card():
    card_1, world_1 = _world(0)
    card_2, world_2 = _world(-1)
    assert card_1 != card_2
    assert len(world_1) >= 10
    for (s1, d1), (s2, d2) in zip(world_1, world_2):
        assert s1 == s2
        assert d1 == d2, "%s differs with the readied card (%s vs %s)" % (s1, card_1, card_2)
    assert len(world_1) == len(world_2)
    print("hidden information: %d spectator observations compared between two worlds (readied %s / %s): 0 differences"
          % (len(world_1), card_1, card_2))
