"""The card library on the hub: card-set folders of YAML, edited only through checks that
are `lumen cards check`'s own; search; CSV import; deck-building status; deck codes."""

import os
import pathlib

import pytest
import yaml

from engine.cards.decks import SAMPLE_CARDS, check_path
from hub.library import deckcode
from hub.library.csvimport import CsvError, read_csv
from hub.library.deckcheck import deck_status, opening_problems, ordered_cards
from hub.library.sets import CardLibrary, LibraryError

SERIN = yaml.safe_load(open(SAMPLE_CARDS, encoding="utf-8"))["characters"][0]


def attack(cid, name, speed=5, position="mid", mark="hero", **kw):
    return dict({"id": cid, "name": name, "kind": "attack", "mark": mark, "speed": speed, "position": position,
                 "damage": 300, "results": {"hit": {"fp": 1}}}, **kw)


@pytest.fixture
def lib(tmp_path):
    lib = CardLibrary(str(tmp_path / "cards"))
    hero = {"id": "hero", "name": "영웅", "name_en": "Hero", "mark": "hero",
            "health": [5000, 4000, 3000, 2000, 1000], "hand_limit": [6, 7, 8, 9, 9]}
    lib.create_set("club", "동호회 세트", "Club set", characters=[hero])
    return lib


def twenty(lib):
    """A legal 20-card deck's cards saved in set club: 12 hero attacks, 6 neutral attacks, 2 hero
    defenses (14 with the hero's mark)."""
    ids = []
    for i in range(12):
        c = attack("h%02d" % i, "영웅 기술 %d" % i, speed=3 + i % 10)
        lib.save_card("club", c)
        ids.append(c["id"])
    for i in range(6):
        c = attack("n%02d" % i, "중립 기술 %d" % i, mark="neutral", position="high")
        lib.save_card("club", c)
        ids.append(c["id"])
    for i in range(2):
        c = {"id": "d%02d" % i, "name": "영웅 수비 %d" % i, "kind": "defense", "mark": "hero", "guard": ["high"],
             "evade": [], "offset": [], "results": {"guard": {"fp": 1}}}
        lib.save_card("club", c)
        ids.append(c["id"])
    return ids


def test_a_saved_card_is_in_a_file_that_lumen_cards_check_accepts(lib):
    lib.save_card("club", attack("hero-jab", "영웅 잽", effects=[{"do": "fp", "amount": 1, "timing": "on_hit"}]))
    checked, problems = check_path(lib.root)
    assert problems == [] and len(checked) == 1
    assert lib.card("club", "hero-jab")["effects"] == [{"do": "fp", "amount": 1, "timing": "on_hit"}]


def test_a_refused_card_changes_nothing_on_disk_and_names_its_field(lib):
    lib.save_card("club", attack("ok", "좋은 카드"))
    path = pathlib.Path(lib.root, "club", "cards.yaml")
    before = path.read_bytes()
    bad = attack("bad", "나쁜 카드", effects=[{"do": "fp", "amount": 1, "timing": "on_gaurd"}])
    with pytest.raises(LibraryError) as e:
        lib.save_card("club", bad)
    assert e.value.code == "invalid"
    assert [p["field"] for p in e.value.problems] == ["effects[0].timing"]
    assert path.read_bytes() == before
    assert [n for n in os.listdir(path.parent) if n.startswith(".edit-")] == []


def test_lint_as_you_type_reports_fields_and_set_context(lib):
    lib.save_card("club", attack("taken", "이미 있음"))
    probs = lib.lint_card("club", attack("taken", "새 카드", mark="villain", speed="fast"))
    assert {p["field"] for p in probs} == {"speed", "mark", "id"}
    assert lib.lint_card("club", attack("taken", "그대로"), replaces="taken") == []


def test_the_sample_set_is_listed_but_read_only(lib):
    sets = {s["id"]: s for s in lib.sets()}
    assert sets["sample"]["sample"] is True and sets["sample"]["writable"] is False
    assert sets["club"]["writable"] is True and sets["club"]["characters"][0]["mark"] == "hero"
    with pytest.raises(LibraryError) as e:
        lib.save_card("sample", attack("x", "x", mark="neutral"))
    assert e.value.code == "read_only"


def test_search_by_name_mark_kind_speed_and_position(lib):
    twenty(lib)
    assert {c["id"] for c in lib.search(q="중립", set_id="club")} == {"n%02d" % i for i in range(6)}
    assert {c["id"] for c in lib.search(set_id="club", kind="defense")} == {"d00", "d01"}
    assert {c["id"] for c in lib.search(set_id="club", speed="3-4", mark="hero")} == {"h00", "h01", "h10", "h11"}
    assert {c["id"] for c in lib.search(set_id="club", position="high")} == {"n%02d" % i for i in range(6)}
    assert [c["id"] for c in lib.search(q="JAB", set_id="sample")] == ["jab", "crouch-jab", "serin-flash-jab"]
    with pytest.raises(LibraryError):
        lib.search(speed="fast")


def test_export_then_import_a_set_as_one_file(lib):
    twenty(lib)
    text = lib.export_set("club")
    sid = lib.import_set(text, set_id="club-copy")
    assert lib.raw(sid)["cards"] == lib.raw("club")["cards"]
    with pytest.raises(LibraryError) as e:
        lib.import_set(text)                    # set.id club exists
    assert e.value.code == "conflict"
    sample_copy = lib.import_set(pathlib.Path(SAMPLE_CARDS).read_text(encoding="utf-8"), set_id="my-sample")
    assert lib.raw(sample_copy)["set"]["sample"] is True       # still marked as a sample
    assert lib.export_set(sample_copy).startswith("# 비공식 샘플")


# ------------------------------------------------------------------ CSV

SHEET = """id,name,kind,speed,position,damage,results,evade
k-jab,잽,공격,4,상단,300,"히트 +1; 카운터 +2 콤보; 방어됨 -1",
k-sweep,발 쓸기,attack,7,low,500,hit +2,
k-dodge,피하기,방어,,,,회피 +2; was_hit -1,high mid
"""


def test_a_sheet_becomes_cards_in_one_step(lib):
    cards = read_csv(SHEET)
    assert cards[0] == {"id": "k-jab", "name": "잽", "kind": "attack", "mark": "neutral", "speed": 4, "position": "high",
                        "damage": 300, "results": {"hit": {"fp": 1}, "counter": {"fp": 2, "combo": True}, "guarded": {"fp": -1}}}
    assert cards[2]["evade"] == ["high", "mid"] and cards[2]["results"] == {"evade": {"fp": 2}, "was_hit": {"fp": -1}}
    lib.replace_cards("club", cards)
    assert {c["id"] for c in lib.search(set_id="club")} == {"k-jab", "k-sweep", "k-dodge"}


def test_a_reimported_sheet_keeps_the_effects_added_in_the_editor(lib):
    lib.replace_cards("club", read_csv(SHEET))
    card = dict(lib.card("club", "k-jab"), effects=[{"do": "fp", "amount": 1, "timing": "on_use"}])
    lib.save_card("club", card, replaces="k-jab")
    lib.replace_cards("club", read_csv(SHEET.replace("4,상단", "5,상단")))
    c = lib.card("club", "k-jab")
    assert c["speed"] == 5 and c["effects"] == [{"do": "fp", "amount": 1, "timing": "on_use"}]


def test_a_bad_sheet_names_row_and_column_and_imports_nothing():
    with pytest.raises(CsvError) as e:
        read_csv("id,name,kind,speed,position,colour\nx,엑스,attack,4,high,red\n")
    assert e.value.problems[0]["column"] == "colour"
    with pytest.raises(CsvError) as e:
        read_csv("id,kind,speed,position\na,attack,빠름,high\nb,attack,4,side\na,defense,,\n")
    rows = [(p["row"], p["column"]) for p in e.value.problems]
    assert (2, "speed") in rows and (3, "position") in rows and (4, "id") in rows


# ------------------------------------------------------------------ decks

def test_deck_status_counts_every_item_of_guide_4_5(lib):
    ids = twenty(lib)
    cs = lib.cardset("club")
    ok = {i["key"]: i["ok"] for i in deck_status(cs, "hero", ids)}
    assert all(ok.values()), ok
    short = {i["key"]: i for i in deck_status(cs, "hero", ids[10:])}
    assert short["skills"]["have"] == 10 and not short["skills"]["ok"]
    assert short["own_mark"]["have"] == 4 and not short["own_mark"]["ok"]
    assert short["setup"]["have"] == 10 and not short["setup"]["ok"]
    lib.save_card("club", attack("h00-b", "영웅 기술 0"))        # same name, another id
    dup = {i["key"]: i for i in deck_status(lib.cardset("club"), "hero", ids[1:] + ["h00-b", "h00"])}
    assert dup["names"]["have"] == ["영웅 기술 0"] and not dup["names"]["ok"]


def test_a_deck_is_saved_only_when_it_passes(lib):
    ids = twenty(lib)
    lib.save_deck("club", "hero-one", {"name": "영웅 덱", "character": "hero", "cards": ids})
    assert lib.deck("club", "hero-one").cards == ids
    assert check_path(lib.root)[1] == []
    with pytest.raises(LibraryError) as e:
        lib.save_deck("club", "short", {"name": "짧은 덱", "character": "hero", "cards": ids[:19]})
    assert "exactly 20" in e.value.problems[0]["message"]
    assert "short" not in lib.deck_ids("club")
    listed = {d["key"]: d for d in lib.decks()}
    assert listed["club/hero-one"]["ok"] and listed["sample/serin"]["ok"]


def test_a_card_change_that_breaks_a_deck_is_reported(lib):
    ids = twenty(lib)
    lib.save_deck("club", "hero-one", {"name": "영웅 덱", "character": "hero", "cards": ids})
    assert lib.save_card("club", dict(lib.card("club", "h00"), mark="neutral"), replaces="h00") == []
    broken = lib.replace_cards("club", [{"id": "h01", "mark": "neutral"}, {"id": "h02", "mark": "neutral"},
                                        {"id": "h03", "mark": "neutral"}, {"id": "h04", "mark": "neutral"}])
    assert [b["deck"] for b in broken] == ["hero-one"]
    assert "only 9 skill cards with" in broken[0]["problems"][0]["message"]


def test_opening_order_5_hand_9_list():
    cs = CardLibrary("/nonexistent").cardset("sample")
    deck = yaml.safe_load(open(os.path.join(os.path.dirname(SAMPLE_CARDS), "decks", "serin.yaml")))["deck"]["cards"]
    non_special = [c for c in deck if cs.cards[c].kind != "special"]
    hand, lst = non_special[-5:], non_special[:9]
    assert opening_problems(cs, deck, hand, lst) == []
    order = ordered_cards(deck, hand, lst)
    assert order[:14] == hand + lst and sorted(order) == sorted(deck)
    assert opening_problems(cs, deck, hand[:4], lst) and opening_problems(cs, deck, ["serin-acceleration"] + hand[1:], lst)


# ------------------------------------------------------------------ deck codes

def test_a_deck_code_carries_a_deck_to_another_hub(lib, tmp_path):
    ids = twenty(lib)
    lib.save_deck("club", "hero-one", {"name": "영웅 덱", "character": "hero", "cards": ids})
    code = deckcode.encode(lib, "club", "hero-one")
    assert code.startswith("LC1.") and len(code) < 600
    other = CardLibrary(str(tmp_path / "other"))
    with pytest.raises(LibraryError) as e:
        deckcode.resolve(other, code)
    assert e.value.code == "not_found"
    other.import_set(lib.export_set("club"))
    got = deckcode.resolve(other, code)
    assert got["same_set"] and got["deck"]["cards"] == ids
    # another card of the set changed: a different version, but this deck is the same
    other.save_card("club", attack("extra", "추가 카드"))
    got = deckcode.resolve(other, code)
    assert not got["same_set"] and got["deck"]["cards"] == ids
    # one of the deck's cards changed: the hub says which instead of playing it
    other.save_card("club", dict(other.card("club", "h03"), damage=9999), replaces="h03")
    with pytest.raises(LibraryError) as e:
        deckcode.resolve(other, code)
    assert e.value.code == "conflict" and [p["card"] for p in e.value.problems] == ["h03"]
    assert "<svg" in deckcode.qr_svg(code)


def test_a_damaged_code_is_refused_clearly():
    for bad in ("", "hello", "LC1.!!!", "LC1.eNpLz8lPTMlXAAA"):
        with pytest.raises(LibraryError) as e:
            deckcode.decode(bad)
        assert e.value.code == "invalid"


def test_the_vocabulary_holds_every_primitive_with_its_typed_parameters():
    from engine.cards.effects import REGISTRY, TIMING_NAMES
    from hub.library.vocabulary import vocabulary
    v = vocabulary()
    prims = {p["name"]: p for p in v["primitives"]}
    assert set(prims) == set(REGISTRY)
    for name, p in REGISTRY.items():
        assert [x["name"] for x in prims[name]["params"]] == list(p.params)
        assert all(x["type"] == p.params[x["name"]].type for x in prims[name]["params"])
    assert [x["name"] for x in v["timings"]] == list(TIMING_NAMES)
    assert all(x["en"] and x["ko"] for x in v["timings"])


def test_the_common_checker_messages_have_a_korean_form(lib):
    bad = {"id": "x", "kind": "attack", "speed": "fast", "position": "top", "mark": "villain", "colour": 1,
           "results": {"hit": {"fp": "1"}}, "effects": [{"do": "fp", "timing": "on_gaurd", "amout": 1}, {"do": "shine"}]}
    probs = lib.lint_card("club", bad)
    assert len(probs) >= 8
    missing = [p["message"] for p in probs if not p.get("message_ko")]
    assert missing == []
    ch = lib.lint_character("club", {"id": "", "health": [3000, 4000], "hand_limit": [6]})
    assert all(p.get("message_ko") for p in ch), ch
    # a message without a pattern stays English, never lost
    from hub.library import problems_ko
    assert problems_ko.ko("a brand new linter message") is None
