"""Bad input to the editor's endpoints is a clear error, never a 500: random JSON in every
field of a card (wrong types, garbage entries, missing keys) posted to lint, try it, the
character lint and the deck status; and a refused save changes nothing on disk."""

import os
import pathlib

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.library.sets import CardLibrary
from hub.web.app import create_app
from tests.web.conftest import AUTH, aid, make_table

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=8),
                    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3),
                    max_leaves=8)
KEYS = ["id", "name", "kind", "mark", "speed", "position", "damage", "results", "special", "guard", "evade", "offset",
        "text", "effects", "ultimate", "number", "health", "hand_limit", "trait", "tokens"]
VALUES = {"kind": st.sampled_from(["attack", "defense", "special", "x"]) | JSON,
          "position": st.sampled_from(["high", "mid", "low"]) | JSON,
          "effects": st.lists(st.dictionaries(st.sampled_from(["do", "timing", "amount", "if", "then", "options", "zone"]),
                                              st.sampled_from(["fp", "choice", "break", "on_hit", "lumen_zone"]) | JSON,
                                              max_size=5), max_size=3) | JSON}
CARD = st.fixed_dictionaries({}, optional={k: VALUES.get(k, JSON) for k in KEYS})


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    lib = CardLibrary(str(tmp_path_factory.mktemp("cards")))
    lib.create_set("club", "동호회")
    table = make_table()
    with TestClient(create_app(table, tick_interval=None, library=lib), raise_server_exceptions=False) as c:
        c.lib = lib
        yield c
    table.store.close()


def shape(r):
    assert r.status_code in (200, 422), (r.status_code, r.text[:300])
    j = r.json()
    if r.status_code != 200:
        assert j["error"] and j["detail"] and set(j["message"]) == {"ko", "en"}
    return j


@settings(max_examples=int(os.environ.get("CARD_EXAMPLES", "150")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(card=CARD, other=CARD)
def test_random_cards_never_break_the_editor_endpoints(api, card, other):
    shape(api.post("/api/cards/lint", json={"set": "club", "card": card}))
    shape(api.post("/api/cards/lint", json={"card": card, "replaces": "x"}))
    shape(api.post("/api/cards/try", json={"card": card, "against": other}))
    shape(api.post("/api/cards/try", json={"card": card, "against_set": "sample", "against_id": "jab"}))
    shape(api.post("/api/cards/lint-character", json={"set": "club", "character": card}))


@settings(max_examples=int(os.environ.get("CARD_EXAMPLES", "60")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cards=st.lists(st.text(max_size=12) | st.sampled_from(["jab", "serin-flash-jab", "throw"]), max_size=25),
       character=st.none() | st.sampled_from(["serin", "gangcheol", "nobody"]), ultimate=st.none() | st.text(max_size=8))
def test_random_decks_get_a_status_not_a_crash(api, cards, character, ultimate):
    j = shape(api.post("/api/cards/deck-status", json={"set": "sample", "character": character, "cards": cards, "ultimate": ultimate}))
    assert "items" in j


@settings(max_examples=int(os.environ.get("CARD_EXAMPLES", "40")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(card=CARD)
def test_a_random_card_saved_is_refused_or_checked_and_nothing_else_changes(api, card):
    path = pathlib.Path(api.lib.root, "club", "cards.yaml")
    before = path.read_bytes()
    r = api.post("/api/control/cards/sets/club/cards", json={"action_id": aid(), "card": card}, headers=AUTH)
    assert r.status_code in (200, 422), r.text[:300]
    if r.status_code == 422:
        assert path.read_bytes() == before
    else:   # it was a valid card: take it out again
        api.post("/api/control/cards/sets/club/cards/%s/delete" % card["id"], json={"action_id": aid()}, headers=AUTH)
