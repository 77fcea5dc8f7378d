"""Issue 40: a seat on the player's own phone keeps every guarantee a pod gives (the API; the
page itself is tests/web/test_seat_browser.py).

Before: nothing but a pod could ready a card (``POST /api/control/decision`` with kind=ready
answered 403 "only on the player's own pod"), so a learner without pods lost every practice
game by non-responses (guide 3.10)."""

import json

from fastapi.testclient import TestClient

from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.app import create_app
from hub.web.phone_seats import phones_of
from tests.web.conftest import AUTH, TOKEN, aid, fingerprint, make_table, on_loop

PHONE_A, PHONE_A2, PHONE_B = "phone-a-0001", "phone-a-0002", "phone-b-0001"


def _start(client, table, seed=7):
    table.auto_setup = True
    on_loop(client, table.start, "referee", seed=seed)


def _links(client):
    r = client.get("/api/admin/seats", headers=AUTH)
    assert r.status_code == 200, r.text
    return {s["seat"]: dict(zip(("seat", "token"), (kv.split("=")[1] for kv in s["link"].split("#", 1)[1].split("&"))))
            for s in r.json()["seats"]}


def _state(client, seat, token, phone, **kw):
    return client.post("/api/seat/%s/state" % seat, json=dict({"token": token, "client": phone}, **kw))


def _decide(client, seat, token, phone, kind, value):
    return client.post("/api/seat/%s/decision" % seat, json={"token": token, "client": phone, "kind": kind, "value": value})


def test_the_judge_gets_a_secret_link_per_seat_and_spectators_get_none():
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client:
        _start(client, table)
        assert client.get("/api/admin/seats").status_code == 401
        links = _links(client)
        assert set(links) == {"a", "b"} and links["a"]["token"] != links["b"]["token"]
        assert TOKEN not in json.dumps(links)
        for path in ("/api/state", "/api/log"):             # the TV's and the spectators' reads
            text = client.get(path).text
            assert links["a"]["token"] not in text and links["b"]["token"] not in text
        # a new game: new links (last game's no longer work)
        old = links["a"]["token"]
        _start(client, table, seed=8)
        assert _links(client)["a"]["token"] != old
        r = _state(client, "a", old, PHONE_A)
        assert r.status_code == 403 and r.json()["error"] == "wrong_seat_link"


def test_a_wrong_seat_link_is_refused_and_changes_nothing():
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client:
        _start(client, table)
        links = _links(client)
        before = on_loop(client, fingerprint, table)
        hand = on_loop(client, lambda: list(table.session.engine_state.players["a"].hand))
        for token in (links["b"]["token"], "x" * 32, ""):
            r = _decide(client, "a", token, PHONE_A, "ready", hand[0])
            assert r.status_code in (403, 422), r.text
        r = _decide(client, "a", links["a"]["token"], "bad id!", "ready", hand[0])
        assert r.status_code == 422
        assert on_loop(client, fingerprint, table) == before
        assert on_loop(client, lambda: table.session.ready_status()["a"]["locked"]) is False


def test_a_phone_readies_as_a_pod_does_and_the_other_seat_learns_nothing_before_the_reveal():
    """The pick is locked, committed and revealed with the same record entries as a pod's, and
    the other seat's phone reads the same bytes whichever card was picked (guide 3.5.2: the
    readies are revealed together)."""
    seen_by_b, kinds = {}, {}
    for pick in (0, 1):
        for source in ("phone", "pod"):
            table = make_table()
            with TestClient(create_app(table, tick_interval=None)) as client:
                _start(client, table)
                links = _links(client)
                a, b = links["a"]["token"], links["b"]["token"]
                st = _state(client, "a", a, PHONE_A).json()
                assert st["prompt"]["kind"] == "ready" and st["prompt"]["hidden"]
                card = st["prompt"]["options"][pick]["value"]
                assert st["prompt"]["options"][pick]["label"]          # a name, not an id
                if source == "phone":
                    r = _decide(client, "a", a, PHONE_A, "ready", card)
                    assert r.status_code == 200, r.text
                    assert r.json()["prompt"]["locked"] is True
                else:
                    on_loop(client, table.submit, "a", "ready", card, source="pod")
                if source == "phone":
                    text = _state(client, "b", b, PHONE_B).text
                    assert '"%s"' % card not in text
                    seen_by_b[pick] = json.loads(text)
                    # the phone reloads: the same phone id resumes its seat and sees its lock
                    again = _state(client, "a", a, PHONE_A).json()
                    assert again["prompt"]["locked"] is True and again["ready"]["b"]["locked"] is False
                hand_b = on_loop(client, lambda: list(table.session.engine_state.players["b"].hand))
                r = _decide(client, "b", b, PHONE_B, "ready", hand_b[0])
                assert r.status_code == 200, r.text
                gid = table.session.game_id
                kinds[(pick, source)] = [(r.kind, r.seat, r.hidden) for r in table.store.records(gid)]
                judge = [r.body for r in table.store.records(gid, kinds=("judge",))]
                assert any("commit" in json.dumps(j) for j in judge), judge
                assert on_loop(client, lambda: table.session.engine_state.turn) >= 1
    assert seen_by_b[0] == seen_by_b[1], "the other seat's phone read something of 1P's pick"
    for pick in (0, 1):
        assert kinds[(pick, "phone")] == kinds[(pick, "pod")], "a phone's ready is recorded as a pod's is"


def test_a_second_phone_on_a_taken_seat_waits_for_the_judge():
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client:
        _start(client, table)
        a = _links(client)["a"]["token"]
        assert _state(client, "a", a, PHONE_A).status_code == 200
        r = _state(client, "a", a, PHONE_A2)
        assert r.status_code == 409 and r.json()["error"] == "seat_taken", r.text
        claims = client.get("/api/admin/claims", headers=AUTH).json()["claims"]
        assert [c["kind"] for c in claims] == ["phone"] and claims[0]["seat"] == "a"
        r = client.post("/api/control/claims/confirm", headers=AUTH, json={"action_id": aid(), "claim": claims[0]["id"]})
        assert r.status_code == 200, r.text
        assert _state(client, "a", a, PHONE_A2).status_code == 200
        assert _state(client, "a", a, PHONE_A).status_code == 409        # the old phone has lost it
        # a lost phone: the judge frees the seat, the next phone with the link takes it
        r = client.post("/api/control/seats/release", headers=AUTH, json={"action_id": aid(), "seat": "a"})
        assert r.status_code == 200
        assert _state(client, "a", a, PHONE_A).status_code == 200


def test_the_seat_links_survive_a_restart_of_the_hub(tmp_path):
    """kill -9 and resume: the phone's link still works (its token comes from the kept admin
    token and the game, nothing held only in memory)."""
    db = str(tmp_path / "g.sqlite3")
    t1 = Table(Store(db), admin_token=TOKEN)
    t1.auto_setup = True
    t1.start("referee", seed=3)
    token, gid = phones_of(t1).token("a"), t1.session.game_id
    t1.store.close()
    t2 = Table(Store(db), admin_token=TOKEN)
    t2.resume(gid)
    assert phones_of(t2).token("a") == token
    t2.store.close()


def test_a_tracker_seat_readies_bare_from_the_phone():
    """Tracker mode: the players hold their cards; the phone locks a bare ready (guide 3.10's
    10 seconds start for the other seat)."""
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client:
        on_loop(client, table.start, "tracker")
        links = _links(client)
        st = _state(client, "a", links["a"]["token"], PHONE_A).json()
        assert st["prompt"]["bare"] and st["prompt"]["kind"] == "ready"
        r = _decide(client, "a", links["a"]["token"], PHONE_A, "ready", True)
        assert r.status_code == 200, r.text
        b = _state(client, "b", links["b"]["token"], PHONE_B).json()
        assert b["ready"]["a"]["locked"] is True and b["ready"]["b"]["ms_left"] is not None


def _battlecon_beats(pick_a, steps=24):
    """A BattleCON game (no card data) on two phones: each answers what its page asks (1P's
    first style ``pick_a``, then the last option or pass; a priority answered "clash" each time,
    so the tie's base re-pick comes). Returns (2P's page before 1P's first reveal, parts asked)."""
    table = make_table()
    with TestClient(create_app(table, tick_interval=None)) as client:
        on_loop(client, table.start, "profile", profile="battlecon", seed=3)
        links = {s: v["token"] for s, v in _links(client).items()}
        phone = {"a": PHONE_A, "b": PHONE_B}
        b_before, asked = None, []
        for step in range(steps):
            for seat in "ab":
                st = _state(client, seat, links[seat], phone[seat]).json()
                p = st["prompt"]
                if p["kind"] == "none" or p["locked"]:
                    continue
                asked.append((seat, p["kind"], p["ask"]))
                if step == 0 and seat == "a":
                    value = p["options"][pick_a]["value"]
                elif p["pass"]:
                    value = p["pass"]["value"]
                else:
                    value = p["options"][-1]["value"]
                r = _decide(client, seat, links[seat], phone[seat], p["kind"], value)
                assert r.status_code == 200, r.text
                if step == 0 and seat == "a":
                    b_before = _state(client, "b", links["b"], PHONE_B).json()
        return b_before, asked


def test_battlecon_plays_on_two_phones_with_the_clash_re_pick_and_no_leak():
    """BattleCON (docs/games.md): style and base picked hidden on each phone, the ante passed, the
    priority's clash re-picks a base (C-3-1); 2P's page reads the same whichever style 1P picked."""
    seen0, asked = _battlecon_beats(0)
    seen2, _ = _battlecon_beats(2)
    assert seen0 == seen2, "2P's phone read something of 1P's hidden style"
    asks = [a for _, _, a in asked]
    assert any(a.startswith("스타일 고르기") for a in asks) and any(a.startswith("기본기 고르기") for a in asks)
    bases = [i for i, (seat, kind, a) in enumerate(asked) if seat == "a" and a.startswith("기본기 고르기")]
    assert len(bases) >= 3, "the clash re-picks (a base again after a tie): %s" % asks[:20]
    assert not [a for a in asks if a is None or "_" in a], asks
