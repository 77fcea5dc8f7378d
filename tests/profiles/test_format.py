"""The profile format: the bundled profiles and card data check clean, a bad file gets every
problem with its file and line (as a card file does), ``lumen profiles check``, and
docs/games.md lists every key of the registry."""

import re
from pathlib import Path

import pytest

from hub.cli.main import main
from hub.profiles import cards, profile
from hub.profiles.schema import key_paths

ROOT = Path(__file__).resolve().parents[2]
GOOD = """format: lumen-profile/1
id: test
name: {ko: 시험, en: test}
source: {ko: 시험, en: test}
turn:
  name: {ko: 턴, en: turn}
counters:
  - id: life
    name: {ko: 생명, en: life}
    start: 20
"""


def problems(text, tmp_path, name="p.yaml"):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    with pytest.raises(profile.ProfileError) as e:
        profile.load(str(f))
    return [str(p) for p in e.value.problems]


def test_the_bundled_profiles_and_cards_check_clean():
    assert set(profile.bundled()) == {"lumen", "battlecon", "yojeong", "gundam"}
    assert profile.get("lumen").rules == "tracker" and profile.get("battlecon").rules == "profile"
    assert profile.get("battlecon").match["best_of"] == 3 and profile.get("yojeong").players == (2, 4)
    s = cards.bundled()["battlecon-sample"]
    assert s.body["set"]["sample"] and "(견본)" in s.body["set"]["name"]["ko"]     # marked as sample
    p = profile.load_text(GOOD)
    assert p.counter("life")["min"] == 0 and p.turn["player"] == "all" and p.match["minutes"] == 30   # defaults filled


def test_a_bad_profile_names_file_line_and_key(tmp_path):
    bad = GOOD.replace("    start: 20\n", "    start: twenty\n    colour: red\n").replace("turn:\n", "turn:\n  limmit: 3\n")
    got = problems(bad, tmp_path)
    assert any(re.match(r".*p\.yaml:11: counters\[0\]\.start: must be an integer", g) for g in got), got
    assert any(re.match(r".*p\.yaml:12: counters\[0\]\.colour: unknown key 'colour'", g) for g in got), got
    assert any(re.match(r".*p\.yaml:6: turn\.limmit: unknown key 'limmit'", g) for g in got), got
    got = problems(GOOD.replace("name: {ko: 시험, en: test}\n", "name: 시험\n", 1), tmp_path)
    assert any("p.yaml:3: name: must be {ko: ..., en: ...}" in g for g in got), got


def test_the_whole_profile_is_checked_too(tmp_path):
    text = GOOD + """players: [2, 4]
teams:
  4: [[a, b], [c]]
turn_order:
  4: [a, b, c]
match: {best_of: 2, at_time: {higher: health}}
picks:
  parts:
    - {id: style, name: {ko: 스타일, en: style}}
  clash: {repick: base, name: {ko: 상쇄, en: clash}}
  deadline_s: 10
"""
    got = "\n".join(problems(text, tmp_path))
    for want in ("teams of 4 seats must split seats a b c d", "turn order of 4 seats must name each of a b c d once",
                 "best_of must be odd", "names counter 'health'", "part style needs options",
                 "clash names part 'base'", "a clash needs priority", "a pick deadline is kept by the tracker's rules only"):
        assert want in got, (want, got)
    assert re.search(r"p\.yaml:\d+: match\.best_of", got)


def test_yaml_syntax_and_card_data_errors_have_lines(tmp_path):
    got = problems(GOOD + "  - id: [\n", tmp_path)
    assert re.match(r".*p\.yaml:\d+: not valid YAML", got[0]), got
    f = tmp_path / "c.yaml"
    f.write_text("""format: lumen-profile-cards/1
kind: battlecon
set: {id: x, name: {ko: 가, en: x}}
characters:
  - id: one
    name: 하나
    cards:
      - {id: s1, part: style, name: 가, power: 0, priority: x}
      - {id: b1, part: bse, name: 나, power: 1, priority: 1}
""", encoding="utf-8")
    with pytest.raises(cards.CardSetError) as e:
        cards.load(str(f))
    got = [str(p) for p in e.value.problems]
    assert any("c.yaml:8: card s1: priority: priority must be an integer" in g for g in got), got
    assert any("c.yaml:9: card b1: part: part must be one of style, base, finisher" in g for g in got), got


def test_lumen_profiles_check(tmp_path, capsys):
    assert main(["profiles", "check", str(ROOT / "hub" / "profiles" / "data")]) == 0
    out = capsys.readouterr().out
    assert "OK" in out and "battlecon.yaml" in out and "battlecon-sample.yaml" in out
    (tmp_path / "bad.yaml").write_text(GOOD.replace("start: 20", "start: 20\n    pod: hpp"), encoding="utf-8")
    assert main(["profiles", "check", str(tmp_path)]) == 1
    assert re.search(r"bad\.yaml:11: counters\[0\]\.pod: must be one of hp, fp, none", capsys.readouterr().out)
    assert main(["profiles", "list"]) == 0 and "battlecon" in capsys.readouterr().out
    assert main(["profiles", "keys"]) == 0 and '"picks"' in capsys.readouterr().out


def test_docs_games_lists_every_key():
    text = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    missing = [k for k in key_paths() if "`%s`" % k not in text]
    assert not missing, "docs/games.md does not describe: %s" % ", ".join(missing)
