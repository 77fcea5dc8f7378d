"""Card effects (issue: timings, ordering, vocabulary): the registry and its linter, the
generated JSON Schema, the sample set's coverage, hidden triggers, and effect state as data.
Rule behaviour itself is pinned by tests/scenarios/effects/*.yaml."""

import json
import pathlib
from collections import Counter

import pytest
import yaml

from engine.cards import effects as fx
from engine.cards import schema as effects_schema
from engine.bots import Bot
from engine.cards import parse_card, parse_character
from engine.cards.decks import SAMPLE_DIR, check_path, load_deck, load_sample
from engine.api.game import advance, apply, new_game, public_view
from engine.scenarios.runner import build
from engine.play.state import GameState
from engine.play.windows import IMPL
from hub.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]


def sample_entries():
    """(source, entry) of every effect entry of both sample decks: cards, ultimates, traits."""
    cs, decks = load_sample()
    out = []
    for deck in decks.values():
        for cid in deck.cards + [deck.ultimate]:
            for e in cs.cards[cid].effects:
                out.append((cid, e))
        for e in deck.character.trait_effects:
            out.append((deck.character.trait_id, e))
    return out


def walk(entry):
    yield entry
    for sub in entry.get("then", ()):
        yield from walk(sub)
    for subs in (entry.get("options") or {}).values():
        for sub in subs:
            yield from walk(sub)


# ------------------------------------------------------------------ the sample set

def test_the_two_sample_decks_use_every_primitive_and_every_timing():
    used, timings = set(), set()
    for _src, e in sample_entries():
        timings.add(e.get("timing"))
        for sub in walk(e):
            used.add(sub["do"])
    assert set(fx.REGISTRY) - used == set(), "primitives no sample deck uses"
    assert set(fx.TIMING_NAMES) - timings == set(), "timings no sample deck uses"
    checked, problems = check_path(SAMPLE_DIR)
    assert problems == [] and len(checked) == 3


def test_random_play_with_the_sample_decks_reaches_every_timing():
    cs, decks = load_sample()
    da, db = decks["gangcheol"].as_game_deck(), decks["serin"].as_game_deck()
    fired = Counter()
    kinds = Counter()
    for seed in range(300):
        st, _ = new_game(cs.cards, da, db, seed=seed)
        bots = {"a": Bot(seed * 2 + 1), "b": Bot(seed * 2 + 2)}
        while st.winner is None:
            req = st.pending[0]
            st, events = apply(st, req["player"], *bots[req["player"]].answer(st, req), copy=False)
            for e in events:
                kinds[e["e"]] += 1
                if e["e"] in ("effect", "special_use"):
                    fired[e["timing"]] += 1
    assert [t for t in fx.TIMING_NAMES if not fired[t]] == []
    for kind in ("effect_fp", "speed_change", "speed_fix", "damage_mod", "heal", "effect_health_loss", "guard_damage",
                 "break", "effect_discard", "effect_nullify", "judgment_added", "catch_granted", "combo_granted",
                 "token", "choice", "special_use", "effect_pass", "effect_pass_hidden", "lasting", "lasting_end",
                 "return_changed", "prohibited"):
        assert kinds[kind], kind


# ------------------------------------------------------------------ the registry, the linter, the schema

def test_every_primitive_has_an_implementation_and_docs():
    assert set(IMPL) == set(fx.REGISTRY)
    doc = (ROOT / "docs" / "card-format.md").read_text(encoding="utf-8")
    for name in list(fx.REGISTRY) + list(fx.TIMING_NAMES) + list(fx.CONDITIONS):
        assert "`%s`" % name in doc, "docs/card-format.md does not document %s" % name


BAD = [
    ({"do": "teleport"}, "effects[0]: unknown effect 'teleport'"),
    ({"do": "fp", "amount": 1, "timing": "on_hit", "amout": 2}, "effects[0].amout: unknown parameter 'amout' for effect 'fp'"),
    ({"do": "fp", "amount": "one", "timing": "on_hit"}, "effects[0].amount: must be an integer"),
    ({"do": "fp", "timing": "on_hit"}, "effects[0].amount: missing parameter 'amount'"),
    ({"do": "fp", "amount": 1, "timing": "when_sad"}, "effects[0].timing: unknown timing 'when_sad'"),
    ({"do": "fp", "amount": 1}, "effects[0].timing: fp needs a timing"),
    ({"do": "fp", "amount": 1, "timing": "on_hit", "if": {"health_under": 3}}, "effects[0].if.health_under: unknown condition"),
    ({"do": "break", "from": "deck", "timing": "on_hit"}, "effects[0].from: must be one of hand, list"),
    ({"do": "fp", "amount": 1, "timing": "on_hit", "then": [{"do": "fp", "amount": 1, "timing": "on_use"}]},
     "effects[0].then[0].timing: unknown parameter 'timing'"),
    ({"do": "start_health", "amount": 4000}, "effects[0].do: start_health is not allowed on a attack"),
    ({"do": "faster", "amount": 1, "zone": "break_zone", "timing": "on_use"},
     "effects[0].zone: timing 'on_use' works in battle, lumen_zone, hand, list, side_deck, ultimate, not in break_zone"),
    ({"do": "fp", "amount": 1, "timing": "turn_end"},
     "effects[0].timing: timing 'turn_end' works in lumen_zone, hand, list, side_deck, ultimate, not in battle "
     "(the default for a attack): no battle is going on at turn_end"),
    ({"do": "fp", "amount": 1, "timing": "on_hit", "zone": "any"}, "effects[0].zone: timing 'on_hit' works in"),
    ({"do": "hand_limit", "amount": 1, "zone": "ultimate"}, "effects[0].zone: zone ultimate: this card is not an ultimate"),
    ({"do": "hand_limit", "amount": 1, "zone": "trait"}, "effects[0].zone: zone 'trait' is not possible on a attack"),
    ({"do": "fp", "amount": 1, "timing": "on_hit", "number": 0}, "effects[0].number: number must be 1 or more"),
    ({"do": "use_special", "timing": "lumen", "zone": "lumen_zone"}, "effects[0].do: use_special is not allowed on a attack"),
    # a condition that is not a mapping was a TypeError (a 500 from the editor's lint), found by
    # tests/web/test_cards_fuzz.py
    ({"do": "fp", "amount": 1, "timing": "on_hit", "if": 3}, "effects[0].if: conditions must be a mapping"),
]


@pytest.mark.parametrize("kind,zone", [("special", "side_deck"), ("special", "break_zone"), ("special", "any"),
                                       ("attack", "hand"), ("attack", "list"), ("defense", "side_deck"), ("defense", "any")])
def test_a_function_may_name_every_zone_its_card_can_be_in(kind, zone):
    # guide 5.6.1: an unnumbered function applies in every zone ("모든 존에서")
    card = {"id": "charm", "kind": kind, "effects": [{"do": "hand_limit", "amount": 1, "zone": zone}]}
    if kind == "attack":
        card.update(speed=6, position="low", damage=100)
    got, problems = parse_card(card)
    assert got is not None and not problems, problems


def test_a_special_function_cannot_name_the_hand():
    # guide 3.3.3: a special is never in the hand or the list
    got, problems = parse_card({"id": "charm", "kind": "special", "effects": [{"do": "hand_limit", "amount": 1, "zone": "hand"}]})
    assert got is None and "zone 'hand' is not possible on a special" in str(problems[0])


def test_the_zones_of_each_timing_are_documented():
    text = effects_schema.doc_tables()
    assert "| `turn_end` | 턴 종료 시 | guide 3.5.5 | lumen_zone, hand, list, side_deck, ultimate |" in text
    assert "| `on_hit` | 히트 시 | guide 4.4 | battle, lumen_zone, hand, list, side_deck, ultimate |" in text


@pytest.mark.parametrize("entry,message", BAD, ids=[m.split(": ")[1][:30] for _e, m in BAD])
def test_the_linter_names_the_card_and_the_field(entry, message):
    card = {"id": "kick", "kind": "attack", "speed": 6, "position": "low", "damage": 400, "effects": [entry]}
    got, problems = parse_card(card)
    assert got is None
    text = "\n".join(str(p) for p in problems)
    assert "card kick: " + message in text, text


def test_a_condition_list_is_one_problem_not_also_the_broken_condition():
    card = {"id": "kick", "kind": "attack", "speed": 6, "position": "low", "damage": 400,
            "effects": [{"do": "fp", "amount": 1, "timing": "on_hit", "if": ["broken"]}]}
    got, problems = parse_card(card)
    assert got is None
    assert [str(p) for p in problems] == ["card kick: effects[0].if: conditions must be a mapping (keys: %s)"
                                          % ", ".join(fx.CONDITIONS)]


def test_trait_effects_are_linted_too():
    ch, problems = parse_character({"health": [5000, 4000], "hand_limit": [6, 7],
                                    "trait": {"id": "t", "effects": [{"do": "fp", "amount": 1, "timing": "lumen", "amount2": 1}]}})
    assert ch is None and "character.trait.effects[0].amount2: unknown parameter 'amount2'" in str(problems[0])


def test_cards_check_prints_file_and_line_for_an_effect_problem(tmp_path, capsys):
    text = (pathlib.Path(SAMPLE_DIR) / "cards.yaml").read_text(encoding="utf-8")
    bad = text.replace("{do: heal, amount: 100, timing: on_guard}", "{do: heal, amount: 100, timing: on_gaurd}")
    assert bad != text
    (tmp_path / "cards.yaml").write_text(bad, encoding="utf-8")
    assert main(["cards", "check", str(tmp_path / "cards.yaml")]) == 1
    out = capsys.readouterr().out
    line = next(i + 1 for i, ln in enumerate(bad.splitlines()) if "on_gaurd" in ln)
    assert "cards.yaml:%d: card high-guard: effects[0].timing: unknown timing 'on_gaurd'" % line in out


def test_the_json_schema_is_generated_from_the_registry():
    path = ROOT / "engine" / "data" / "card.schema.json"
    assert path.read_text(encoding="utf-8") == effects_schema.schema_text(), "run: python3 -m engine.cards.schema"


def test_the_sample_set_validates_against_the_schema_and_a_typo_does_not():
    jsonschema = pytest.importorskip("jsonschema")
    schema = effects_schema.card_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    data = yaml.safe_load((pathlib.Path(SAMPLE_DIR) / "cards.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    data["cards"][0]["effects"][0]["amount"] = "lots"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
    data["cards"][0]["effects"][0] = {"do": "damage", "amount": 1, "timing": "on_catch", "colour": "red"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)


def test_a_trait_deck_rule_changes_only_the_items_it_names(tmp_path):
    cs_text = (pathlib.Path(SAMPLE_DIR) / "cards.yaml").read_text(encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(cs_text, encoding="utf-8")
    deck = yaml.safe_load((pathlib.Path(SAMPLE_DIR) / "decks" / "gangcheol.yaml").read_text(encoding="utf-8"))
    deck["deck"]["cardset"] = "cards.yaml"
    cards = deck["deck"]["cards"]
    cards[cards.index("straight")] = "jab"           # two 잽: gangcheol's trait allows 2 per name
    (tmp_path / "g.yaml").write_text(yaml.safe_dump(deck, allow_unicode=True), encoding="utf-8")
    got, problems = load_deck(str(tmp_path / "g.yaml"))
    assert problems == [] and got.cards.count("jab") == 2
    for own in ("gangcheol-iron-fist", "gangcheol-ankle-sweep", "gangcheol-hammer-drop", "gangcheol-boulder-headbutt"):
        cards[cards.index(own)] = "uppercut" if own == "gangcheol-iron-fist" else \
            {"gangcheol-ankle-sweep": "high-kick", "gangcheol-hammer-drop": "roundhouse",
             "gangcheol-boulder-headbutt": "middle-kick"}[own]
    (tmp_path / "g.yaml").write_text(yaml.safe_dump(deck, allow_unicode=True), encoding="utf-8")
    _, problems = load_deck(str(tmp_path / "g.yaml"))
    assert any("at least 10 are needed" in str(p) for p in problems), problems   # not a named item: unchanged


# ------------------------------------------------------------------ effects as data, hidden triggers

HIDDEN = """
name: hidden trigger
cards:
  - {id: a-wall, name: 철벽, kind: defense, mark: neutral, guard: [high], evade: [], offset: []}
  - {id: b-wall, name: 아래 막기, kind: defense, mark: neutral, guard: [low], evade: [], offset: []}
  - {id: b-secret, name: 비장의 수, kind: special, mark: neutral,
     effects: [{do: use_special, timing: after_use, then: [{do: fp, amount: 2}]}]}
players:
  a: {character: {health: [5000, 4000], hand_limit: [6, 7]}, hand: [a-wall]}
  b: {character: {health: [5000, 4000], hand_limit: [6, 7]}, hand: [b-wall], side_deck: [b-secret]}
priority: a
"""


def _hidden_position():
    sc = build(yaml.safe_load(HIDDEN))
    st, events = advance(sc.state)
    for p, card in (("a", "a-wall"), ("b", "b-wall")):
        st, ev = apply(st, p, "ready", card)
        events += ev
    return st, events


def test_a_hidden_trigger_is_asked_hidden_and_never_shown_before_it_resolves():
    st, events = _hidden_position()
    req = st.pending[0]
    assert req["player"] == "b" and req["kind"] == "choose" and req["hidden"] and req["options"] == ["use", "pass"]
    for viewer in ("a", None):
        text = json.dumps(public_view(st, viewer), ensure_ascii=False)
        assert "b-secret" not in text and "비장의 수" not in text
    assert "b-secret" in json.dumps(public_view(st, "b"))
    assert not any("b-secret" in json.dumps(e) for e in events)
    passed, ev = apply(st, "b", "choose", "pass")
    assert not any("b-secret" in json.dumps(e) for e in ev)          # passed: it stays hidden
    assert "b-secret" not in json.dumps(public_view(passed, "a"))
    used, ev = apply(st, "b", "choose", "use")
    assert any(e["e"] == "special_use" and e["card"] == "b-secret" for e in ev)   # revealed as it is used
    assert used.players["b"].lumen_zone == ["b-secret"] and used.players["b"].fp == 2


def test_a_game_waiting_inside_an_effect_window_round_trips_through_json():
    st, _ = _hidden_position()
    assert st.fx is not None and st.fx["queue"] == [] and st.fx["cur"]["inst"]["src"] == "b-secret"
    text = json.dumps(st.to_json(), ensure_ascii=False)
    back = GameState.from_json(json.loads(text))
    assert back.to_json() == st.to_json()
    a, _ = apply(st, "b", "choose", "use")
    b, _ = apply(back, "b", "choose", "use")
    assert json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


def test_mid_game_states_with_effects_round_trip_and_replay_identically():
    cs, decks = load_sample()
    da, db = decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck()
    for seed in (2, 9):
        st, _ = new_game(cs.cards, da, db, seed=seed)
        bots = {"a": Bot(seed), "b": Bot(seed + 50)}
        record = []
        windows = 0
        while st.winner is None:
            req = st.pending[0]
            kind, value = bots[req["player"]].answer(st, req)
            record.append((req["player"], kind, value))
            st, _ = apply(st, req["player"], kind, value)
            if st.fx is not None or st.lasting:
                windows += 1
                back = GameState.from_json(json.loads(json.dumps(st.to_json())))
                assert back.to_json() == st.to_json()
        assert windows > 0
        again, _ = new_game(cs.cards, da, db, seed=seed)
        for p, kind, value in record:
            again, _ = apply(again, p, kind, value)
        assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(st.to_json(), sort_keys=True)


def test_a_game_without_effects_never_opens_a_window():
    sc = build(yaml.safe_load(open(ROOT / "tests" / "scenarios" / "combo" / "001_pair_and_damage_correction.yaml",
                                   encoding="utf-8")))
    st, _ = advance(sc.state)
    assert st.fxon is False
    st, _ = apply(st, "a", "ready", "a-starter")
    st, _ = apply(st, "b", "ready", "b-high-guard")
    assert st.battle.fx is None and st.fx is None and st.lasting == []


def test_the_vocabulary_tables_in_the_docs_are_the_generated_ones():
    doc = (ROOT / "docs" / "card-format.md").read_text(encoding="utf-8")
    assert effects_schema.doc_tables() in doc, "run: python3 -m engine.cards.schema --doc, paste into docs/card-format.md"


def test_the_effect_scenarios_pin_every_primitive_and_every_timing():
    used, timings = set(), set()
    for f in (ROOT / "tests" / "scenarios" / "effects").glob("*.yaml"):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        entries = [e for c in data["cards"] for e in c.get("effects", ())]
        for p in data["players"].values():
            ch = p.get("character")
            if isinstance(ch, dict):
                entries += (ch.get("trait") or {}).get("effects", [])
        for e in entries:
            timings.add(e.get("timing"))
            for sub in walk(e):
                used.add(sub["do"])
    # deck_rule changes deck building, which a scenario cannot express: test_a_trait_deck_rule_... pins it
    assert set(fx.REGISTRY) - used == {"deck_rule"}
    assert set(fx.TIMING_NAMES) - timings == set()
