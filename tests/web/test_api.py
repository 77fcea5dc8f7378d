"""The REST API (issue 6 item 5): every endpoint, and bad requests (wrong types, unknown ids,
missing or wrong token, replayed control actions) answered with the right status, a JSON
``{"error", "detail"}`` body and no state change."""

import pytest

from engine.bots import Bot
from hub.sessions.roster import ROSTER
from tests.web.conftest import AUTH, TOKEN, aid, fingerprint, on_loop


def settle(client):
    """Let the app's loop run what it scheduled (the coalesced display update)."""
    on_loop(client, lambda: None)


def start(client, mode="tracker", **kw):
    r = client.post("/api/control/games", json=dict(action_id=aid(), mode=mode, **kw), headers=AUTH)
    assert r.status_code == 200, r.text
    return r.json()


def act(client, **command):
    return client.post("/api/control/tracker", json={"action_id": aid(), "command": command}, headers=AUTH)


def assert_error(r, status, error=None):
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) >= {"error", "detail"} and isinstance(body["detail"], str) and body["detail"]
    if error:
        assert body["error"] == error, body
    return body


# ------------------------------------------------------------------ pages and docs

def test_index_page_and_static_files_are_served(client):
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    for path in ("/static/app.js", "/static/i18n.js", "/static/style.css", "/static/favicon.svg"):
        assert path in r.text, path
        assert client.get(path).status_code == 200, path


def test_the_page_loads_nothing_from_outside(client):
    """Fully offline: no CDN scripts, styles or fonts in anything the page or /docs loads."""
    import re
    html = client.get("/").text + client.get("/docs").text
    for path in ("/static/app.js", "/static/i18n.js", "/static/style.css"):
        html += client.get(path).text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html), "external resource in the page"
    assert "@import" not in html and "url(http" not in html and "fonts.googleapis" not in html
    docs = client.get("/docs").text
    for asset in re.findall(r"""["'](/static/[^"']+)["']""", docs):
        assert client.get(asset).status_code == 200, asset
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in docs


def test_openapi_lists_every_endpoint(client):
    spec = client.get("/openapi.json").json()
    paths = set(spec["paths"])
    assert {"/api/state", "/api/games", "/api/games/{game_id}", "/api/games/{game_id}/export",
            "/api/games/{game_id}/judge-log", "/api/roster", "/api/decks", "/api/admin/check",
            "/api/control/games", "/api/control/games/{game_id}/resume", "/api/control/tracker",
            "/api/control/decision", "/api/control/timer", "/api/control/token"} <= paths
    assert "bearer" in str(spec["components"]["securitySchemes"]).lower()


def test_unknown_routes_and_methods_answer_json(client):
    assert_error(client.get("/api/nothing"), 404, "not_found")
    assert_error(client.delete("/api/state"), 405, "method_not_allowed")


# ------------------------------------------------------------------ public reads

def test_state_without_a_game(client):
    body = client.get("/api/state").json()
    assert body["mode"] is None and body["view"] is None
    assert body["timer"]["text"] == "30:00" and body["display"]["seats"] is None


def test_state_of_a_tracker_game(client):
    start(client, a="wolf", b="무영")
    d = client.get("/api/state").json()["display"]
    assert d["mode"] == "tracker"
    a, b = d["seats"]["a"], d["seats"]["b"]
    assert (a["label"], a["colour"], b["label"], b["colour"]) == ("1P", "blue", "2P", "red")
    assert a["name"] == "울프" and a["tokens"][0]["name"] == "하울링" and a["tokens"][0]["max"] == 5
    assert b["start_health"] == 4500 and b["health"] == 4500 and b["hand_limit"] == 6
    assert d["turn"] == 1 and d["priority"] in ("a", "b") and d["phase"] == "ready"
    assert d["log"] and d["log"][-1]["text"]["ko"].startswith("새 게임")


def test_state_of_a_referee_game(client):
    start(client, mode="referee", a="serin", b="gangcheol", seed=3)
    body = client.get("/api/state").json()
    assert body["mode"] == "referee" and body["view"]["phase"] == "setup"
    d = body["display"]
    assert d["seats"]["a"]["name"] == "세린" and d["seats"]["b"]["start_health"] == 5500
    assert d["pending"] and all(p["hidden"] for p in d["pending"])
    for seat in d["seats"].values():           # character token counters, named (if the deck has any)
        assert all({"name", "name_en", "value", "max"} <= set(t) for t in seat["tokens"])


def test_games_history_summary_export_and_judge_log(client, table):
    g1 = start(client, a="nia", b="root")["game_id"]
    g2 = start(client, mode="referee", seed=1)["game_id"]
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == [g2, g1]
    assert client.get("/api/games", params={"limit": 1}).json()["games"][0]["id"] == g2
    one = client.get("/api/games/%d" % g1).json()
    assert one["mode"] == "tracker" and one["status"] == "in_progress"
    assert "decks" not in one["start"]
    exp = client.get("/api/games/%d/export" % g2)
    assert exp.status_code == 200 and exp.json()["format"] == "lumen-match/1" and exp.json()["complete"] is False
    dl = client.get("/api/games/%d/export" % g2, params={"download": "true"})
    assert "attachment" in dl.headers["content-disposition"]
    jl = client.get("/api/games/%d/judge-log" % g2).json()
    assert jl["game_id"] == g2 and isinstance(jl["records"], list)


def test_roster_and_decks(client):
    chars = client.get("/api/roster").json()["characters"]
    assert [c["name"] for c in chars][:18] == [c.name for c in ROSTER][:18]
    rita = next(c for c in chars if c["id"] == "rita")
    assert rita["hand_limits"] == [6, 7, 8, 9, 10]
    decks = client.get("/api/decks").json()["decks"]
    assert {d["id"] for d in decks} >= {"serin", "gangcheol"}


@pytest.mark.parametrize("path,params,status", [
    ("/api/games", {"limit": 0}, 422),
    ("/api/games", {"limit": 101}, 422),
    ("/api/games", {"limit": "ten"}, 422),
    ("/api/games/abc", None, 422),
    ("/api/games/999", None, 404),
    ("/api/games/999/export", None, 404),
    ("/api/games/999/judge-log", None, 404),
    ("/api/games/1/export", {"download": "maybe"}, 422),
])
def test_bad_reads(client, path, params, status):
    start(client)
    assert_error(client.get(path, params=params), status)


# ------------------------------------------------------------------ the token

def test_admin_check(client):
    assert client.get("/api/admin/check", headers=AUTH).json()["ok"] is True
    assert_error(client.get("/api/admin/check"), 401, "unauthorized")
    assert_error(client.get("/api/admin/check", headers={"Authorization": "Bearer wrong-token"}), 403, "forbidden")
    assert_error(client.get("/api/admin/check", headers={"Authorization": "Basic " + TOKEN}), 401)
    assert_error(client.get("/api/admin/check", headers={"Authorization": TOKEN}), 401)


CONTROL_REQUESTS = [
    ("/api/control/games", {"mode": "tracker"}),
    ("/api/control/games/1/resume", {}),
    ("/api/control/tracker", {"command": {"action": "adjust_health", "seat": "a", "delta": -300}}),
    ("/api/control/decision", {"seat": "a", "kind": "ready", "value": True}),
    ("/api/control/timer", {"action": "round_start"}),
    ("/api/control/token", {"new_token": "another-token-1"}),
]


@pytest.mark.parametrize("path,body", CONTROL_REQUESTS)
def test_spectators_cannot_control(client, table, path, body):
    start(client)
    before = fingerprint(table)
    assert_error(client.post(path, json=dict(body, action_id=aid())), 401, "unauthorized")
    assert_error(client.post(path, json=dict(body, action_id=aid()), headers={"Authorization": "Bearer nope-nope"}),
                 403, "forbidden")
    # even a malformed body is refused for want of a token first
    assert_error(client.post(path, content=b"{not json"), 401)
    assert fingerprint(table) == before


@pytest.mark.parametrize("path,body", CONTROL_REQUESTS)
def test_a_replayed_control_action_is_409_and_changes_nothing(client, table, path, body):
    start(client)
    action_id = aid()
    first = client.post(path, json=dict(body, action_id=action_id), headers=AUTH)
    assert first.status_code == 200, first.text
    headers = AUTH if path != "/api/control/token" else {"Authorization": "Bearer " + table.admin_token}
    before = fingerprint(table)
    assert_error(client.post(path, json=dict(body, action_id=action_id), headers=headers), 409, "replayed")
    assert fingerprint(table) == before


@pytest.mark.parametrize("action_id", [None, 12345678, "short", "x" * 81, "has space in it", ""])
def test_action_id_is_required_and_checked(client, table, action_id):
    start(client)
    before = fingerprint(table)
    body = {"command": {"action": "next_turn"}}
    if action_id is not None:
        body["action_id"] = action_id
    assert_error(client.post("/api/control/tracker", json=body, headers=AUTH), 422, "invalid_request")
    assert fingerprint(table) == before


def test_changing_the_token(client, table):
    r = client.post("/api/control/token", json={"action_id": aid(), "new_token": "brand-new-token"}, headers=AUTH)
    assert r.status_code == 200 and "brand-new-token" not in r.text
    assert table.admin_token == "brand-new-token"
    assert_error(client.get("/api/admin/check", headers=AUTH), 403)
    assert client.get("/api/admin/check", headers={"Authorization": "Bearer brand-new-token"}).status_code == 200


@pytest.mark.parametrize("new_token", ["short", "has spaces in it", 12345678, None, "ü" * 10])
def test_a_bad_new_token_is_refused(client, table, new_token):
    before = fingerprint(table)
    assert_error(client.post("/api/control/token", json={"action_id": aid(), "new_token": new_token}, headers=AUTH), 422)
    assert fingerprint(table) == before


# ------------------------------------------------------------------ starting and resuming games

@pytest.mark.parametrize("body,status", [
    ({"mode": "chess"}, 422),
    ({"mode": "tracker", "seed": "7"}, 422),
    ({"mode": "tracker", "seed": -1}, 422),
    ({"mode": "tracker", "priority": "c"}, 422),
    ({"mode": "tracker", "a": 5}, 422),
    ({"mode": "tracker", "colour": "blue"}, 422),
    ({"mode": "tracker", "a": "gandalf"}, 404),
    ({"mode": "referee", "b": "no-such-deck"}, 404),
    ({}, 422),
])
def test_bad_game_starts(client, table, body, status):
    start(client, a="nia")
    before = fingerprint(table)
    assert_error(client.post("/api/control/games", json=dict(body, action_id=aid()), headers=AUTH), status)
    assert fingerprint(table) == before


def test_bad_json_bodies(client, table):
    before = fingerprint(table)
    for content in (b"{not json", b"[]", b"42", b""):
        r = client.post("/api/control/games", content=content, headers=dict(AUTH, **{"Content-Type": "application/json"}))
        assert_error(r, 422)
    assert fingerprint(table) == before


def test_start_with_characters_priority_and_seed(client, table):
    body = start(client, a="델피", b="cmyk", priority="b", seed=5)
    d = body["state"]
    assert d["seats"]["a"]["tokens"][0]["value"] == 3 and d["seats"]["b"]["hand_limit"] == 10
    assert d["priority"] == "b" and body["game_id"] == table.session.game_id


def test_resume_a_recent_game(client, table):
    g1 = start(client, a="wolf", b="rita")["game_id"]
    act(client, action="adjust_health", seat="a", delta=-500)
    start(client, mode="referee", seed=2)
    r = client.post("/api/control/games/%d/resume" % g1, json={"action_id": aid()}, headers=AUTH)
    assert r.status_code == 200, r.text
    d = client.get("/api/state").json()["display"]
    assert d["game_id"] == g1 and d["mode"] == "tracker" and d["seats"]["a"]["health"] == 4500
    before = fingerprint(table)
    assert_error(client.post("/api/control/games/77/resume", json={"action_id": aid()}, headers=AUTH), 404)
    assert_error(client.post("/api/control/games/x/resume", json={"action_id": aid()}, headers=AUTH), 422)
    assert_error(client.post("/api/control/games/%d/resume" % g1, json={}, headers=AUTH), 422)
    assert fingerprint(table) == before


# ------------------------------------------------------------------ tracker controls

def test_health_quick_buttons_and_fp(client):
    start(client, priority="a")
    for d in (-300, -400, -500, -600, 100, 200, -100, -200):
        assert act(client, action="adjust_health", seat="b", delta=d).status_code == 200
    assert act(client, action="adjust_fp", seat="a", delta=1).status_code == 200
    assert act(client, action="adjust_fp", seat="a", delta=1).status_code == 200
    d = client.get("/api/state").json()["display"]
    assert d["seats"]["b"]["health"] == 5000 - 1800 and d["seats"]["b"]["hand_limit"] == 7
    assert d["seats"]["a"]["fp"] == 2
    r = act(client, action="reset_fp", seat="a")
    assert r.json()["state"]["seats"]["a"]["fp"] == 0


def test_every_tracker_action(client, table):
    start(client, a="rita", b="chimera", priority="a")
    steps = [
        dict(action="set_health", seat="a", health=4200),
        dict(action="set_hand_count", seat="a", count=7),
        dict(action="set_hand_count", seat="a", count=None),
        dict(action="set_stance", seat="a", stance="빛의 루멘"),
        dict(action="set_stance", seat="a", stance=None),
        dict(action="set_trait", seat="b", on=True),
        dict(action="token", seat="b", delta=2),
        dict(action="set_token", seat="b", value=9),
        dict(action="set_character", seat="b", character="wolf"),
        dict(action="token", seat="b", name="Howling", delta=5),
        dict(action="apply_battle", health={"a": -300}, fp={"b": 2}),
        dict(action="next_turn"),
        dict(action="record_non_response", seat="a"),
        dict(action="undo"),
        dict(action="reset"),
        dict(action="new_game", a="tao", b="johan", priority="b"),
    ]
    for cmd in steps:
        r = act(client, **cmd)
        assert r.status_code == 200, (cmd, r.text)
    d = client.get("/api/state").json()["display"]
    assert d["seats"]["a"]["name"] == "타오" and [t["name"] for t in d["seats"]["a"]["tokens"]] == ["양", "음"]
    assert d["priority"] == "b" and d["game_number"] == 3


def test_sudden_death_from_both_at_zero(client):
    start(client, priority="a")
    r = act(client, action="apply_battle", health={"a": -5000, "b": -5000})
    d = r.json()["state"]
    assert d["sudden_death"] is True and d["sd_turn"] == 1
    assert d["seats"]["a"]["health"] == d["seats"]["b"]["health"] == 1000 and d["seats"]["a"]["fp"] == 0


def test_undo_merges_presses_within_one_second(client, table):
    start(client)
    for _ in range(3):
        act(client, action="adjust_health", seat="a", delta=-100)
        on_loop(client, table.clock.advance, 400)
    on_loop(client, table.clock.advance, 1500)
    act(client, action="adjust_health", seat="a", delta=-100)
    assert client.get("/api/state").json()["display"]["seats"]["a"]["health"] == 4600
    act(client, action="undo")
    assert client.get("/api/state").json()["display"]["seats"]["a"]["health"] == 4700
    r = act(client, action="undo")
    assert r.json()["state"]["seats"]["a"]["health"] == 5000      # three presses, one step


@pytest.mark.parametrize("command,status", [
    ({"action": "adjust_health", "seat": "a", "delta": "300"}, 422),
    ({"action": "adjust_health", "seat": "a", "delta": 1.5}, 422),
    ({"action": "adjust_health", "seat": "a", "delta": True}, 422),
    ({"action": "adjust_health", "seat": "c", "delta": -300}, 422),
    ({"action": "adjust_health", "seat": "a"}, 422),
    ({"action": "adjust_health", "seat": "a", "delta": -300, "extra": 1}, 422),
    ({"action": "adjust_health", "seat": "a", "delta": 10 ** 9}, 422),
    ({"action": "fly", "seat": "a"}, 422),
    ({"seat": "a", "delta": 1}, 422),
    ({"action": "set_trait", "seat": "a", "on": "yes"}, 422),
    ({"action": "set_hand_count", "seat": "a", "count": -1}, 422),
    ({"action": "apply_battle", "health": {"c": -100}}, 422),
    ({"action": "set_character", "seat": "a", "character": "gandalf"}, 404),
    ({"action": "new_game", "a": "nobody"}, 404),
    # well-formed but refused by the game: 409, nothing changes
    ({"action": "token", "seat": "a", "name": "하울링", "delta": 9}, 409),
    ({"action": "set_stance", "seat": "a", "stance": "가디언"}, 409),
    ({"action": "set_trait", "seat": "a", "on": True}, 409),
    ({"action": "undo"}, 409),
])
def test_bad_tracker_commands(client, table, command, status):
    start(client, a="wolf")
    before = fingerprint(table)
    body = assert_error(client.post("/api/control/tracker", json={"action_id": aid(), "command": command},
                                    headers=AUTH), status)
    assert fingerprint(table) == before
    if status == 409:
        assert body["error"] == "refused"


def test_tracker_actions_need_a_tracker_game(client, table):
    before = fingerprint(table)
    assert_error(act(client, action="next_turn"), 409, "no_game")
    start(client, mode="referee", seed=1)
    before = fingerprint(table)
    assert_error(act(client, action="next_turn"), 409, "wrong_mode")
    assert fingerprint(table) == before


def test_the_ready_button_starts_the_ten_second_countdown(client, table):
    start(client)
    r = client.post("/api/control/decision", json={"action_id": aid(), "seat": "b", "kind": "ready", "value": True},
                    headers=AUTH)
    d = r.json()["state"]
    assert d["ready"]["b"]["locked"] is True and d["ready"]["a"] == {"locked": False, "ms_left": 10000}
    on_loop(client, table.clock.advance, 4000)
    assert client.get("/api/state").json()["display"]["ready"]["a"]["ms_left"] == 6000
    before = fingerprint(table)
    assert_error(client.post("/api/control/decision", json={"action_id": aid(), "seat": "b", "kind": "ready",
                                                            "value": True}, headers=AUTH), 409)
    assert_error(client.post("/api/control/decision", json={"action_id": aid(), "seat": "a", "kind": "get",
                                                            "value": "x"}, headers=AUTH), 422)
    assert fingerprint(table) == before


# ------------------------------------------------------------------ referee decisions from the display

def drive_to(table, client, want, limit=400):
    """Bots answer (as pods) until the engine asks a public decision of a kind in ``want``."""
    bots = {"a": Bot(11, "greedy"), "b": Bot(12, "greedy")}
    for _ in range(limit):
        req = table.session.state.pending[0]
        if req["kind"] in want and not req.get("hidden"):
            return req
        kind, value = bots[req["player"]].answer(table.session.state, req)
        on_loop(client, table.submit, req["player"], kind, value, "pod")
    raise AssertionError("the engine never asked for %s" % (want,))


def test_hidden_decisions_only_on_the_pods(client, table):
    start(client, mode="referee", seed=4)
    before = fingerprint(table)
    assert_error(client.post("/api/control/decision", json={"action_id": aid(), "seat": "a", "kind": "setup",
                                                            "value": {}}, headers=AUTH), 403, "forbidden")
    bots = {"a": Bot(1), "b": Bot(2)}
    while table.session.state.pending[0]["kind"] == "setup":
        req = table.session.state.pending[0]
        on_loop(client, table.submit, req["player"], *bots[req["player"]].answer(table.session.state, req), "pod")
    before = fingerprint(table)
    card = next(r for r in table.session.state.pending if r["player"] == "a")["options"][0]
    assert_error(client.post("/api/control/decision", json={"action_id": aid(), "seat": "a", "kind": "ready",
                                                            "value": card}, headers=AUTH), 403)
    assert fingerprint(table) == before


def test_a_public_referee_decision_from_the_display(client, table):
    start(client, mode="referee", seed=9)
    req = drive_to(table, client, ("get",))
    before = fingerprint(table)
    assert_error(client.post("/api/control/decision", json={"action_id": aid(), "seat": req["player"], "kind": "get",
                                                            "value": "no-such-card"}, headers=AUTH), 409,
                 "illegal_decision")
    assert_error(client.post("/api/control/decision", json={"action_id": aid(), "seat": req["player"], "kind": "combo",
                                                            "value": "end"}, headers=AUTH), 409)
    assert fingerprint(table) == before
    r = client.post("/api/control/decision", json={"action_id": aid(), "seat": req["player"], "kind": "get",
                                                   "value": req["options"][0]}, headers=AUTH)
    assert r.status_code == 200, r.text
    assert fingerprint(table) != before


# ------------------------------------------------------------------ the match clock

def timer(client, action, **kw):
    return client.post("/api/control/timer", json=dict(action_id=aid(), action=action, **kw), headers=AUTH)


def test_match_clock_round_pause_resume_extend(client, table):
    t = timer(client, "round_start").json()["timer"]
    assert t["state"] == "running" and t["text"] == "30:00" and t["colour"] == "normal"
    on_loop(client, table.clock.advance, 29 * 60 * 1000 + 1000)
    assert client.get("/api/state").json()["timer"]["colour"] == "yellow"
    t = timer(client, "pause").json()["timer"]
    assert t["state"] == "paused" and t["text"] == "0:59"
    on_loop(client, table.clock.advance, 5000)
    assert timer(client, "resume").json()["timer"]["ms_left"] == 59000
    on_loop(client, table.clock.advance, 50000)
    assert client.get("/api/state").json()["timer"]["colour"] == "red"
    t = timer(client, "extend", ms=120000).json()["timer"]
    assert t["ms_left"] == 129000 and t["extended_ms"] == 120000
    t = timer(client, "round_start", duration_ms=45 * 60 * 1000, extra_turns=2).json()["timer"]
    assert t["text"] == "45:00" and t["extra_turns"] == 2


def test_time_with_extra_turns_counts_the_table_turns(client, table):
    start(client)
    timer(client, "round_start")
    t = timer(client, "call_time", extra_turns=2).json()["timer"]
    assert t["state"] == "time" and t["turns_left"] == 2 and t["colour"] == "red" and t["finishing"]
    act(client, action="next_turn")     # ruling R-time: the turn in progress ended; the extra turns begin
    settle(client)
    t = client.get("/api/state").json()["timer"]
    assert t["turns_left"] == 2 and not t["finishing"] and t["extra_ms_left"] == 5 * 60_000
    table.clock.advance(1500)
    act(client, action="next_turn")
    settle(client)
    assert client.get("/api/state").json()["timer"]["turns_left"] == 1
    table.clock.advance(1500)           # a second "next turn" within 1 s is a double tap
    act(client, action="next_turn")
    settle(client)
    t = client.get("/api/state").json()["timer"]
    assert t["turns_left"] == 0 and t["finished"] is True


def test_the_clock_running_out_becomes_time(client, table):
    timer(client, "round_start", duration_ms=5000, extra_turns=1)
    on_loop(client, table.clock.advance, 5001)
    on_loop(client, table.tick)
    t = client.get("/api/state").json()["timer"]
    assert t["state"] == "time" and t["turns_left"] == 1


@pytest.mark.parametrize("body,status", [
    ({"action": "pause"}, 409),                      # not running
    ({"action": "resume"}, 409),
    ({"action": "extend", "ms": 60000}, 409),        # round not started
    ({"action": "explode"}, 422),
    ({"action": "round_start", "duration_ms": "30"}, 422),
    ({"action": "round_start", "duration_ms": 10}, 422),
    ({"action": "round_start", "extra_turns": 11}, 422),
    ({"action": "extend", "ms": 0}, 422),
    ({"action": "call_time", "extra_turns": -1}, 422),
])
def test_bad_timer_actions(client, table, body, status):
    start(client)
    before = fingerprint(table)
    assert_error(client.post("/api/control/timer", json=dict(body, action_id=aid()), headers=AUTH), status)
    assert fingerprint(table) == before


def test_a_practice_game_against_the_hubs_bot_from_the_admin_page(client, table):
    """Issue 24: the admin page starts a referee game with the hub's bot in a seat and the
    coach on; the start record keeps both (meta); a tracker game refuses a bot; GET /api/bot
    says what the page can offer."""
    r = client.get("/api/bot")
    assert r.status_code == 200
    assert r.json()["levels"] == ["easy", "normal", "strong"] and r.json()["game"]["bot"] is None
    r = client.post("/api/control/games", json={"action_id": aid(), "mode": "referee", "bot": "b", "level": "normal",
                                                "coach": ["a", "b"]}, headers=AUTH)
    assert r.status_code == 200, r.text
    start = table.store.records(table.session.game_id, kinds=("start",))[0].body
    assert start["meta"]["bot"] == {"seat": "b", "level": "normal"} and start["meta"]["coach"] == ["a", "b"]
    assert client.get("/api/bot").json()["game"] == {"bot": {"seat": "b", "level": "normal"}, "coach": ["a", "b"]}
    # the public record says so too (a coached game is marked)
    assert client.get("/api/games/%d" % table.session.game_id).json()["start"]["meta"]["coach"] == ["a", "b"]
    r = client.post("/api/control/games", json={"action_id": aid(), "mode": "tracker", "bot": "a"}, headers=AUTH)
    assert r.status_code == 409 and "referee" in r.json()["detail"]
    r = client.post("/api/control/games", json={"action_id": aid(), "mode": "referee", "bot": "c"}, headers=AUTH)
    assert r.status_code == 422
    r = client.post("/api/control/games", json={"action_id": aid(), "mode": "referee", "level": "grandmaster",
                                                "bot": "a"}, headers=AUTH)
    assert r.status_code == 422
    # a game without a bot: the display's coach part is empty
    r = client.post("/api/control/games", json={"action_id": aid(), "mode": "referee"}, headers=AUTH)
    assert r.status_code == 200 and table.bot_seats() == set()
    assert client.get("/api/state").json()["display"]["coach"] is None
