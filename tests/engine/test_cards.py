"""Card and deck loading and validation (issue 2 item 1, guide 4.5)."""

import os
import shutil

import yaml

from engine.cards import Character, parse_card
from engine.cards.decks import check_path, load_cardset, load_deck, load_sample, SAMPLE_DIR
from hub.cli import main

HERE = os.path.dirname(__file__)
BROKEN = os.path.join(HERE, "data", "broken_cards.yaml")


def messages(problems):
    return [str(p) for p in problems]


def test_sample_set_and_both_decks_are_legal():
    cs, decks = load_sample()
    assert len(decks) == 2
    for deck in decks.values():
        assert len(deck.cards) == 20
        assert deck.ultimate is not None
    checked, problems = check_path(SAMPLE_DIR)
    assert problems == [] and len(checked) == 3


def test_every_problem_names_file_line_card_and_field():
    cs, problems = load_cardset(BROKEN)
    assert cs is None
    text = "\n".join(messages(problems))
    # hand_limit needs one entry per health band
    assert "broken_cards.yaml:7: characters[0].hand_limit: hand_limit needs one entry per health band" in text
    assert "broken_cards.yaml:13: card fast-punch: speed: an attack needs an integer speed" in text
    assert "card fast-punch: position: position must be high, mid or low (got 'middle')" in text
    assert "broken_cards.yaml:20: card wall: guard: unknown position 'side'" in text
    assert "card wall: results.guard.fp: fp must be an integer" in text
    assert "card wall: results.hit: unknown result 'hit'" in text
    assert "card magic: speed: unknown field 'speed' (not allowed on a special card)" in text
    assert "card kick: effects[0]: unknown effect 'teleport'" in text
    assert "kind must be attack, defense or special (got 'kick')" in text


def test_card_roundtrips_through_its_json():
    cs, _ = load_sample()
    for card in cs.cards.values():
        again, problems = parse_card(card.to_json())
        assert problems == []
        assert again.to_json() == card.to_json()


def test_hand_limit_bands_follow_the_brief():
    ch = Character([5000, 4000, 3000, 2000, 1000], [6, 7, 8, 9, 9])
    assert [ch.limit_for(h) for h in (5000, 4001, 4000, 3001, 3000, 2001, 2000, 1001, 1000, 1, 0, -300)] == \
        [6, 6, 7, 7, 8, 8, 9, 9, 9, 9, 9, 9]


def _deck_copy(tmp_path, mutate):
    """Copy the sample set and one deck to tmp, apply ``mutate`` to the deck mapping."""
    shutil.copy(os.path.join(SAMPLE_DIR, "cards.yaml"), tmp_path / "cards.yaml")
    with open(os.path.join(SAMPLE_DIR, "decks", "serin.yaml"), encoding="utf-8") as f:
        data = yaml.safe_load(f)
    data["deck"]["cardset"] = "cards.yaml"
    mutate(data["deck"])
    path = tmp_path / "deck.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return str(path)


def test_deck_rules_guide_4_5(tmp_path):
    cs, _ = load_sample()
    neutral = [c.id for c in cs.cards.values() if c.mark == "neutral" and not c.ultimate]
    other = [c.id for c in cs.cards.values() if c.mark == "gangcheol" and not c.ultimate]

    def too_few_own(d):   # keep 20 cards but only 9 with serin's mark
        own = [c for c in d["cards"] if cs.cards[c].mark == "serin"]
        extra = [n for n in neutral if n not in d["cards"]]
        d["cards"] = own[:9] + [c for c in d["cards"] if cs.cards[c].mark == "neutral"]
        d["cards"] += extra[: 20 - len(d["cards"])]
    _, problems = load_deck(_deck_copy(tmp_path, too_few_own))
    assert any("at least 10 are needed" in m and "guide 4.5.1" in m for m in messages(problems)), problems

    def foreign(d):
        d["cards"][0] = other[0]
    _, problems = load_deck(_deck_copy(tmp_path, foreign))
    assert any("neither neutral nor" in m for m in messages(problems))

    def nineteen(d):
        d["cards"] = d["cards"][:19]
    _, problems = load_deck(_deck_copy(tmp_path, nineteen))
    assert any("exactly 20 skill cards" in m for m in messages(problems))

    def unknown(d):
        d["cards"][3] = "no-such-card"
    _, problems = load_deck(_deck_copy(tmp_path, unknown))
    assert any("unknown card 'no-such-card'" in m for m in messages(problems))

    def ultimate_in_list(d):
        d["cards"][0] = d["ultimate"]
    _, problems = load_deck(_deck_copy(tmp_path, ultimate_in_list))
    assert any("is an ultimate" in m for m in messages(problems))


def test_same_name_twice_is_rejected(tmp_path):
    shutil.copy(os.path.join(SAMPLE_DIR, "cards.yaml"), tmp_path / "cards.yaml")
    data = yaml.safe_load(open(tmp_path / "cards.yaml", encoding="utf-8"))
    dup = dict(data["cards"][0])
    dup["id"] = dup["id"] + "-alt"
    dup["number"] = "SMP-999"   # a different number, same name: still the same card (guide 4.5.1)
    data["cards"].append(dup)
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    deck = yaml.safe_load(open(os.path.join(SAMPLE_DIR, "decks", "serin.yaml"), encoding="utf-8"))
    deck["deck"]["cardset"] = "cards.yaml"
    deck["deck"]["cards"][-1] = data["cards"][0]["id"] if data["cards"][0]["id"] not in deck["deck"]["cards"] else deck["deck"]["cards"][-1]
    deck["deck"]["cards"][-2] = dup["id"]
    if data["cards"][0]["id"] not in deck["deck"]["cards"]:
        deck["deck"]["cards"][-3] = data["cards"][0]["id"]
    (tmp_path / "deck.yaml").write_text(yaml.safe_dump(deck, allow_unicode=True), encoding="utf-8")
    _, problems = load_deck(str(tmp_path / "deck.yaml"))
    assert any("one card per name however numbered" in m for m in messages(problems)), problems


def test_cards_check_cli(capsys, tmp_path):
    assert main(["cards", "check", SAMPLE_DIR]) == 0
    out = capsys.readouterr().out
    assert "OK" in out and "serin.yaml" in out
    assert main(["cards", "check", BROKEN]) == 1
    out = capsys.readouterr().out
    assert out.count("broken_cards.yaml:") >= 8
    bad = tmp_path / "bad.yaml"
    bad.write_text("cards: [\n  {id: x\n", encoding="utf-8")
    assert main(["cards", "check", str(bad)]) == 1
    assert "not valid YAML" in capsys.readouterr().out
