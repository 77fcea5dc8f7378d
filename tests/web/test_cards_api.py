"""The cards and decks API: public library reads, the editor's lint/try-it, writes only with the
admin token (and nothing changes on a refused one), errors in the API's shape with ko/en and the
field of each problem, deck codes, and a table game started with registered decks and openings
whose deck lists never reach a spectator."""

import json
import pathlib

import pytest
import yaml
from fastapi.testclient import TestClient

from engine.cards.decks import SAMPLE_CARDS, check_path
from hub.library.sets import CardLibrary
from hub.web.app import create_app
from tests.web.conftest import AUTH, aid, make_table

SAMPLE = yaml.safe_load(open(SAMPLE_CARDS, encoding="utf-8"))
HERO = {"id": "hero", "name": "영웅", "name_en": "Hero", "mark": "hero",
        "health": [5000, 4000, 3000, 2000, 1000], "hand_limit": [6, 7, 8, 9, 9]}


@pytest.fixture
def lib(tmp_path):
    lib = CardLibrary(str(tmp_path / "cards"))
    lib.create_set("club", "동호회", "Club", characters=[HERO])
    return lib


@pytest.fixture
def api(lib):
    table = make_table()
    with TestClient(create_app(table, tick_interval=None, library=lib)) as c:
        c.table = table
        yield c
    table.store.close()


def post(api, path, body, auth=True):
    return api.post(path, json=dict({"action_id": aid()}, **body), headers=AUTH if auth else {})


def card(cid, name, mark="hero", speed=5, kind="attack"):
    if kind == "defense":
        return {"id": cid, "name": name, "kind": "defense", "mark": mark, "guard": ["high", "mid"], "results": {"guard": {"fp": 1}}}
    return {"id": cid, "name": name, "kind": "attack", "mark": mark, "speed": speed, "position": "mid", "damage": 400,
            "results": {"hit": {"fp": 1}, "counter": {"fp": 2, "combo": True}}}


def build_deck(api):
    ids = []
    for i in range(14):
        c = card("h%02d" % i, "영웅 %d" % i, speed=3 + i % 9, kind="defense" if i % 5 == 4 else "attack")
        assert post(api, "/api/control/cards/sets/club/cards", {"card": c}).status_code == 200
        ids.append(c["id"])
    for i in range(6):
        c = card("n%02d" % i, "중립 %d" % i, mark="neutral", speed=6)
        assert post(api, "/api/control/cards/sets/club/cards", {"card": c}).status_code == 200
        ids.append(c["id"])
    r = post(api, "/api/control/cards/sets/club/decks/hero-deck", {"deck": {"name": "영웅 덱", "character": "hero", "cards": ids}})
    assert r.status_code == 200, r.text
    return ids


def test_the_library_reads_are_public(api):
    sets = {s["id"]: s for s in api.get("/api/cards/sets").json()["sets"]}
    assert sets["sample"]["sample"] and not sets["sample"]["writable"] and sets["club"]["writable"]
    found = api.get("/api/cards/search", params={"q": "잽", "set": "sample"}).json()["cards"]
    assert {c["id"] for c in found} == {"jab", "crouch-jab"}
    got = api.get("/api/cards/sets/sample/cards/throw").json()
    assert got["card"]["special"] == {"grab": True} and got["text"]["en"][0] == "Special: grab"
    voc = api.get("/api/cards/vocabulary").json()
    assert {p["name"] for p in voc["primitives"]} >= {"fp", "break", "choice", "use_special"}
    assert api.get("/api/cards/sets/sample/export").text.startswith("# 비공식 샘플")


def test_writes_need_the_admin_token_and_change_nothing_without_it(api, lib):
    before = pathlib.Path(lib.root, "club", "cards.yaml").read_bytes()
    r = post(api, "/api/control/cards/sets/club/cards", {"card": card("x", "엑스")}, auth=False)
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    r = api.post("/api/control/cards/sets/club/cards", json={"action_id": aid(), "card": card("x", "엑스")},
                 headers={"Authorization": "Bearer wrong-token-123"})
    assert r.status_code == 403
    assert pathlib.Path(lib.root, "club", "cards.yaml").read_bytes() == before
    assert api.get("/api/admin/cards/decks").status_code == 401       # deck lists are not for spectators


def test_lint_names_each_problem_field_and_a_refused_save_keeps_the_file(api, lib):
    bad = dict(card("b", "나쁨"), speed="fast", effects=[{"do": "fp", "amount": 1, "timing": "on_gaurd"}])
    r = api.post("/api/cards/lint", json={"set": "club", "card": bad})
    assert r.status_code == 200
    assert {p["field"] for p in r.json()["problems"]} == {"speed", "effects[0].timing"}
    path = pathlib.Path(lib.root, "club", "cards.yaml")
    before = path.read_bytes()
    r = post(api, "/api/control/cards/sets/club/cards", {"card": bad})
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    assert set(r.json()["message"]) == {"ko", "en"}
    assert {p["field"] for p in r.json()["problems"]} == {"speed", "effects[0].timing"}
    assert path.read_bytes() == before
    r = post(api, "/api/control/cards/sets/sample/cards", {"card": card("x", "엑스", mark="neutral")})
    assert r.status_code == 403 and r.json()["error"] == "read_only"


def test_a_saved_card_is_what_lumen_cards_check_accepts_and_reads_back_equal(api, lib):
    c = dict(card("hero-kick", "영웅 차기"), effects=[
        {"do": "choice", "timing": "on_use", "options": {"fast": [{"do": "faster", "amount": 1}], "heavy": [{"do": "damage", "amount": 100}]}},
        {"do": "token", "name": "x", "amount": -1, "optional": True, "timing": "before_judgment", "then": [{"do": "fp", "amount": 1}]}])
    r = post(api, "/api/control/cards/sets/club/cards", {"card": c})
    assert r.status_code == 200, r.text
    assert api.get("/api/cards/sets/club/cards/hero-kick").json()["card"] == c
    assert check_path(lib.root)[1] == []
    r = post(api, "/api/control/cards/sets/club/cards", {"card": c})
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    assert [p["field"] for p in r.json()["problems"]] == ["id"] and "duplicate" in r.json()["problems"][0]["message"]


def test_try_it_judges_the_unsaved_card(api):
    r = api.post("/api/cards/try", json={"card": card("mine", "내 것", speed=3), "against_set": "sample", "against_id": "jab"})
    assert r.status_code == 200, r.text
    j = r.json()
    assert j["outcome"] == {"a": "counter", "b": "countered"} and j["rule"] == "guide 3.6.2.2" and j["damage"]["b"] == 400
    r = api.post("/api/cards/try", json={"card": {"id": "s", "kind": "special"}, "against_set": "sample", "against_id": "jab"})
    assert r.status_code == 422 and "special" in r.json()["detail"]


def test_csv_import_and_its_row_problems(api):
    sheet = "id,name,kind,speed,position,damage,results\nk1,일격,공격,5,중단,500,hit +2; counter +3 combo\n"
    r = post(api, "/api/control/cards/sets/club/csv", {"text": sheet})
    assert r.status_code == 200 and r.json()["cards"] == ["k1"]
    assert api.get("/api/cards/sets/club/cards/k1").json()["card"]["results"] == {"hit": {"fp": 2}, "counter": {"fp": 3, "combo": True}}
    r = post(api, "/api/control/cards/sets/club/csv", {"text": "id,kind,speed\nk2,attack,빠름\n"})
    assert r.status_code == 422 and r.json()["problems"][0]["row"] == 2


def test_deck_status_live_and_deck_codes(api, lib, tmp_path):
    ids = build_deck(api)
    st = api.post("/api/cards/deck-status", json={"set": "club", "character": "hero", "cards": ids[:12]}).json()
    items = {i["key"]: i for i in st["items"]}
    assert not st["ok"] and items["skills"]["have"] == 12 and items["setup"]["have"] == 12
    assert api.post("/api/cards/deck-status", json={"set": "club", "character": "hero", "cards": ids}).json()["ok"]
    code = api.get("/api/admin/cards/sets/club/decks/hero-deck/code", headers=AUTH).json()
    assert code["code"].startswith("LC1.") and code["svg"].startswith("<svg")
    # the same code on this hub after a card of the deck changed: refused, naming the card
    r = post(api, "/api/control/cards/sets/club/cards", {"card": dict(card("h01", "영웅 1", speed=9)), "replaces": "h01"})
    assert r.status_code == 200
    r = post(api, "/api/control/cards/deck-code", {"code": code["code"], "deck_id": "copy"})
    assert r.status_code == 409 and [p["card"] for p in r.json()["problems"]] == ["h01"]


def test_a_table_game_with_registered_decks_and_openings(api):
    ids = build_deck(api)
    non_special = ids              # no specials in this deck
    hand, lst = non_special[-5:], non_special[:9]
    r = post(api, "/api/control/cards/table/seat", {"seat": "a", "set": "club", "deck": "hero-deck", "hand": hand, "list": lst})
    assert r.status_code == 200, r.text
    r = post(api, "/api/control/cards/table/seat", {"seat": "b", "set": "sample", "deck": "gangcheol", "hand": ["jab"], "list": []})
    assert r.status_code == 422 and "hand is 5" in r.json()["detail"]
    assert post(api, "/api/control/cards/table/seat", {"seat": "b", "set": "sample", "deck": "gangcheol"}).status_code == 200
    r = post(api, "/api/control/cards/table/start", {"seed": 5})
    assert r.status_code == 200, r.text
    st = api.table.session.state
    assert sorted(st.players["a"].hand) == sorted(hand) and sorted(st.players["a"].list) == sorted(lst)
    assert st.players["a"].character.id == "hero"
    # a spectator (the state and the live updates) sees neither the side deck nor the registration
    public = json.dumps(api.get("/api/state").json(), ensure_ascii=False)
    with api.websocket_connect("/ws") as ws:
        public += ws.receive_text()
    side = [cid for cid in ids if cid not in hand + lst]
    assert len(side) == 6
    for cid in side:
        assert '"%s"' % cid not in public
    assert api.get("/api/admin/cards/table").status_code == 401


def test_two_sets_that_define_one_card_id_differently_cannot_meet(api):
    build_deck(api)
    jab = dict(card("jab", "다른 잽", mark="neutral"))
    post(api, "/api/control/cards/sets/club/cards", {"card": jab})
    post(api, "/api/control/cards/table/seat", {"seat": "a", "set": "club", "deck": "hero-deck"})
    post(api, "/api/control/cards/table/seat", {"seat": "b", "set": "sample", "deck": "gangcheol"})
    r = post(api, "/api/control/cards/table/start", {})
    assert r.status_code == 409 and "jab" in r.json()["detail"]
    assert api.table.session is None


def test_the_editor_has_every_string_in_both_languages():
    import re
    static = pathlib.Path(__file__).resolve().parents[2] / "hub" / "web" / "static"
    src = (static / "cards-i18n.js").read_text(encoding="utf-8")
    ko, en = src.split("\n  en: {")
    keys = lambda block: set(re.findall(r"(?:^|[\s,{])([a-z_]+):\s*\"", block))   # noqa: E731
    assert keys(ko) == keys(en) and len(keys(ko)) > 100
    used = set()
    for name in ("cards.js", "decks.js", "cards-form.js"):
        used |= set(re.findall(r"\bt\(\"([a-z_]+)\"", (static / name).read_text(encoding="utf-8")))
    used |= set(re.findall(r'data-i18n(?:-ph)?="([a-z_]+)"', (static / "cards.html").read_text(encoding="utf-8")))
    from hub.library.vocabulary import vocabulary
    v = vocabulary()
    built = ({"kind_" + k for k in v["kinds"]} | {"pos_" + p for p in v["positions"]} |
             {"res_" + r for rs in v["results"].values() for r in rs} | {"seat_a", "seat_b"})
    used = {k for k in used if not k.endswith("_")}          # prefixes of keys built at run time: below
    assert used - keys(ko) == set()
    assert built - keys(ko) == set()


def test_try_it_with_characters_applies_their_traits(api):
    throw = api.get("/api/cards/sets/sample/cards/throw").json()["card"]
    body = {"card": throw, "set": "sample", "against_set": "sample", "against_id": "dash"}
    plain_hit = api.post("/api/cards/try", json=body).json()
    assert plain_hit["outcome"]["a"] == "hit" and plain_hit["damage"]["b"] == 700
    with_trait = api.post("/api/cards/try", json=dict(body, character_a="gangcheol", character_b="serin")).json()
    assert with_trait["damage"]["b"] == 800            # 강철's trait: a grab that hits deals +100


def test_a_sample_deck_code_finds_the_sample_deck_and_the_read_only_set_takes_no_new_one(api):
    code = api.get("/api/admin/cards/sets/sample/decks/serin/code", headers=AUTH).json()["code"]
    r = post(api, "/api/control/cards/deck-code", {"code": code, "deck_id": "mine"})
    assert r.status_code == 200 and r.json()["saved"] is False and r.json()["deck_id"] == "serin"
    from hub.library import deckcode
    body = deckcode.decode(code)
    body["d"] = body["d"][1:] + body["d"][:1]          # the same cards in another order: not a deck of the set
    import base64
    import zlib
    other = "LC1." + base64.urlsafe_b64encode(zlib.compress(json.dumps(body).encode())).decode().rstrip("=")
    r = post(api, "/api/control/cards/deck-code", {"code": other, "deck_id": "mine"})
    assert r.status_code == 403 and r.json()["error"] == "read_only"
