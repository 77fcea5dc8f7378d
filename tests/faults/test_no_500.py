"""Issue 11.8: bad requests get a 4xx or a clean close, never a 500 or a traceback."""

import logging

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import AUTH, aid, fingerprint, make_table, on_loop

from hub.web.app import create_app

HUGE = str(2 ** 70)


@pytest.fixture
def client():
    t = make_table()
    with TestClient(create_app(t, tick_interval=None), raise_server_exceptions=False) as c:
        c.table = t
        yield c
    t.store.close()


@pytest.mark.parametrize("path", ["/api/games/%s", "/api/games/%s/export", "/api/games/%s/judge-log"])
def test_a_game_id_beyond_64_bits_is_a_4xx(client, path):
    r = client.get(path % HUGE)
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["error"] in ("not_found", "invalid_request")


def test_resuming_a_game_id_beyond_64_bits_is_a_4xx(client):
    r = client.post("/api/control/games/%s/resume" % HUGE, json={"action_id": aid()}, headers=AUTH)
    assert 400 <= r.status_code < 500, r.text


def _to_discard(client):
    """Play a seeded referee game with bots until 1P must discard; returns that request."""
    from engine.bots import Bot
    t = client.table
    on_loop(client, t.start_referee, seed=3)
    bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}
    for _ in range(5000):
        s = t.session
        if s.state.winner is not None:
            break
        req = s.state.pending[0]
        if req["kind"] == "discard":
            return req
        kind, value = bots[req["player"]].answer(s.state, req)
        on_loop(client, t.submit, req["player"], kind, value)
    pytest.skip("seed 3 reached no discard")


def test_a_discard_with_nested_lists_is_refused_and_spends_nothing(client):
    req = _to_discard(client)
    before = fingerprint(client.table)
    action = aid()
    bad = {"action_id": action, "seat": req["player"], "kind": "discard", "value": [["x"]] * req["count"]}
    r = client.post("/api/control/decision", json=bad, headers=AUTH)
    assert r.status_code in (409, 422), r.text
    assert "discard" in r.json()["detail"]
    assert fingerprint(client.table) == before
    # the action id was not spent: the same id with a good answer is applied
    hand = client.table.session.state.players[req["player"]].hand
    good = dict(bad, value=list(hand[:req["count"]]))
    r = client.post("/api/control/decision", json=good, headers=AUTH)
    assert r.status_code == 200, r.text


def test_a_binary_websocket_frame_is_a_clean_close_not_a_traceback(client, caplog):
    caplog.set_level(logging.DEBUG)
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_json()["t"] == "state"
        ws.send_bytes(b"\x00\x01binary")
        with pytest.raises(WebSocketDisconnect) as e:
            for _ in range(10):
                ws.receive_text()
        assert e.value.code == 1003      # unsupported data
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
