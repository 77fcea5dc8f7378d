"""The card writer is lossless: YAML -> data -> YAML gives the same data, on the sample set,
every scenario's inline cards and random cards built from the effect registry; and what it
writes is exactly what `lumen cards check` accepts."""

import os
import pathlib
import string

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import cardyaml
from engine.cards import parse_card
from engine.cards.decks import SAMPLE_CARDS, SAMPLE_DECKS, check_path, load_cardset
from engine.cards.effects import COMMON, POSITIONS, REGISTRY, TIMING_NAMES, plain
from engine.core.yamlio import load_yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))


def scenario_cards():
    out = []
    for path in SCENARIOS:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for card in (data or {}).get("cards") or []:
            out.append(pytest.param(card, id="%s:%s" % (path.relative_to(ROOT / "tests" / "scenarios"), card.get("id"))))
    return out


def sample_cards():
    data = yaml.safe_load(pathlib.Path(SAMPLE_CARDS).read_text(encoding="utf-8"))
    return [pytest.param(c, id=c["id"]) for c in data["cards"]]


def roundtrip(card):
    text = cardyaml.dump_card(card)
    back = yaml.safe_load(text)
    assert back == card, text
    assert cardyaml.dump_card(back) == text     # stable: writing again changes nothing
    return text


@pytest.mark.parametrize("card", sample_cards())
def test_every_sample_card_round_trips(card):
    roundtrip(card)
    card2, problems = parse_card(yaml.safe_load(cardyaml.dump_card(card)))
    assert problems == [] and card2 is not None


def test_there_are_scenario_cards_to_check():
    assert len(scenario_cards()) > 100


@pytest.mark.parametrize("card", scenario_cards())
def test_every_scenario_inline_card_round_trips(card):
    roundtrip(card)


def test_the_sample_set_file_round_trips_and_passes_the_checker(tmp_path):
    data = plain(load_yaml(SAMPLE_CARDS))
    text = cardyaml.dump_set(data)
    assert yaml.safe_load(text) == data
    assert text.startswith("# 비공식 샘플")        # a copied sample set stays marked as a sample
    out = tmp_path / "cards.yaml"
    out.write_text(text, encoding="utf-8")
    cs, problems = load_cardset(str(out))
    assert problems == [] and sorted(cs.cards) == sorted(c["id"] for c in data["cards"])
    decks = tmp_path / "decks"
    decks.mkdir()
    for deck in sorted(pathlib.Path(SAMPLE_DECKS).glob("*.yaml")):     # (beside them: their kept form, parsed.json)
        d = plain(load_yaml(str(deck)))
        t = cardyaml.dump_deck(d)
        assert yaml.safe_load(t) == d
        (decks / deck.name).write_text(t, encoding="utf-8")
    checked, problems = check_path(str(tmp_path))
    assert problems == [] and len(checked) == 3


def test_the_writer_keeps_unknown_keys_so_the_linter_can_name_them():
    card = {"id": "x", "kind": "attack", "speed": 5, "position": "mid", "spede": 4,
            "effects": [{"do": "fp", "amount": 1, "timing": "on_hit", "amout": 2}]}
    text = cardyaml.dump_card(card)
    assert yaml.safe_load(text) == card
    _, problems = parse_card(yaml.safe_load(text))
    assert {p.field for p in problems} == {"spede", "effects[0].amout"}


def test_the_written_style_matches_the_hand_written_files():
    card = {"kind": "attack", "id": "k", "results": {"counter": {"combo": True, "fp": 2}, "hit": {"fp": 1}},
            "speed": 7, "position": "mid", "effects": [{"timing": "on_hit", "amount": 1, "do": "fp"}]}
    text = cardyaml.dump_card(card)
    assert text.splitlines() == [
        "id: k", "kind: attack", "speed: 7", "position: mid", "results:", "  hit: {fp: 1}",
        "  counter: {fp: 2, combo: true}", "effects:", "  - {do: fp, amount: 1, timing: on_hit}"]


# ------------------------------------------------------------------ random cards from the registry

# strings YAML must quote (booleans, nulls, numbers, indicators) alongside plain text
TRICKY = st.sampled_from(["yes", "no", "on", "off", "null", "~", "true", "1", "0x1f", "1e3", "- a", "a: b", "#c",
                          "'q'", '"q"', "[x]", "{y}", "&a", "*b", "!t", "%p", "@", "`", "  lead", "trail  ", "",
                          "다중\n줄", "탭\t", "세린: 불꽃", "①②"])
TEXT = st.one_of(TRICKY, st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))
IDENT = st.text(string.ascii_lowercase + string.digits + "-", min_size=1, max_size=12)


def param_value(p):
    t = p.type
    if t in ("int", "posint", "nonneg"):
        return st.integers(min_value={"int": -2000, "posint": 1, "nonneg": 0}[t], max_value=2000)
    if t == "bool":
        return st.booleans()
    if t in ("str", "card"):
        return IDENT
    if t == "enum":
        return st.sampled_from(p.choices)
    if t == "positions":
        return st.lists(st.sampled_from(POSITIONS), max_size=3, unique=True)
    if t == "cond":
        return conditions()
    if t == "cards":      # a card filter (a ready prohibition's cards, issue 23)
        return st.fixed_dictionaries({"kind": st.sampled_from(["attack", "defense"])},
                                     optional={"position": st.sampled_from(POSITIONS), "grab": st.booleans()})
    if t == "effects":
        return st.lists(entry(top=False), min_size=1, max_size=2)
    if t == "options":
        return st.dictionaries(IDENT.filter(lambda s: s not in ("use", "pass")),
                               st.lists(entry(top=False), min_size=1, max_size=2), min_size=2, max_size=3)
    raise AssertionError(t)


def conditions():
    return st.fixed_dictionaries({}, optional={
        "health_max": st.integers(0, 6000), "fp_min": st.integers(-9, 9), "priority": st.booleans(),
        "outcome": st.lists(st.sampled_from(["hit", "counter", "guard", "evade"]), min_size=1, max_size=2),
        "tokens": st.dictionaries(IDENT, st.fixed_dictionaries({}, optional={"min": st.integers(0, 5)}), max_size=1),
        "used": st.fixed_dictionaries({}, optional={"kind": st.sampled_from(["attack", "defense"]), "grab": st.booleans()}),
    })


@st.composite
def _entry(draw, top=True):
    name = draw(st.sampled_from(sorted(REGISTRY)))
    if name == "choice" and not top:
        name = "fp"           # keep nesting shallow
    prim = REGISTRY[name]
    e = {"do": name}
    for k, p in prim.params.items():
        if p.type == "options" and not top:
            continue
        if p.required or draw(st.booleans()):
            e[k] = draw(param_value(p))
    if top:
        if draw(st.booleans()):
            e["timing"] = draw(st.sampled_from(TIMING_NAMES))
        if draw(st.booleans()):
            e["number"] = draw(st.integers(1, 5))
        if draw(st.booleans()):
            e["optional"] = draw(st.booleans())
        if draw(st.booleans()):
            e["then"] = draw(st.lists(entry(top=False), min_size=1, max_size=2))
    if draw(st.booleans()):
        e["if"] = draw(conditions())
    if draw(st.booleans()):
        e["text"] = draw(TEXT)
    keys = list(e)
    order = draw(st.permutations(keys))   # any key order in, the same data out
    return {k: e[k] for k in order}


def entry(top=True):
    return _entry(top=top)


def judgment():
    return st.one_of(st.lists(st.sampled_from(POSITIONS), max_size=3, unique=True),
                     st.fixed_dictionaries({}, optional={"positions": st.lists(st.sampled_from(POSITIONS), unique=True),
                                                         "speed_max": st.integers(1, 15), "speed_min": st.integers(1, 15)}))


def result():
    return st.fixed_dictionaries({}, optional={"fp": st.integers(-5, 5), "combo": st.booleans()})


@st.composite
def cards(draw):
    kind = draw(st.sampled_from(["attack", "defense", "special"]))
    c = {"id": draw(IDENT), "kind": kind}
    optional = {"name": TEXT, "name_en": TEXT, "number": TEXT, "mark": IDENT, "ultimate": st.booleans(),
                "text": st.one_of(TEXT, st.fixed_dictionaries({"ko": TEXT}, optional={"en": TEXT}))}
    if kind == "attack":
        c.update(speed=draw(st.integers(1, 15)), position=draw(st.sampled_from(POSITIONS)))
        optional.update(damage=st.integers(0, 2000),
                        results=st.dictionaries(st.sampled_from(["hit", "counter", "guarded", "evaded", "countered"]), result()),
                        special=st.fixed_dictionaries({}, optional={"evade": judgment(), "offset": judgment(), "grab": st.booleans()}))
    elif kind == "defense":
        optional.update(guard=judgment(), evade=judgment(), offset=judgment(),
                        results=st.dictionaries(st.sampled_from(["guard", "evade", "offset", "was_hit"]), result()))
    for k, strat in optional.items():
        if draw(st.booleans()):
            c[k] = draw(strat)
    if draw(st.booleans()):
        c["effects"] = draw(st.lists(entry(), min_size=1, max_size=3))
    return c


@settings(max_examples=int(os.environ.get("CARD_EXAMPLES", "300")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards())
def test_random_cards_from_the_registry_round_trip(card):
    text = roundtrip(card)
    # the linter's verdict on the written text is its verdict on the data
    a = sorted(str(p) for p in parse_card(card)[1])
    b = sorted(str(p) for p in parse_card(yaml.safe_load(text))[1])
    assert a == b


def test_every_common_entry_key_has_a_place_in_the_written_order():
    assert set(COMMON) - {"do", "text"} <= set(cardyaml.ENTRY_TAIL)
