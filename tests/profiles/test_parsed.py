"""The bundled profiles, card sets and the engine's sample set kept parsed beside their YAML
(engine/core/kept.py, hub/profiles/parsed.py; issue 36: a hub starts without PyYAML). The kept
form is never stale in content: a file edited since is read as YAML, a kept form that is not the
data of its file is caught here."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from engine.cards import decks
from engine.core import kept
from engine.core.kept import yaml_files
from hub.profiles import cards, keep, parsed, profile
from hub.profiles.schema import MAX_PROFILE_BYTES

ROOT = __file__.rsplit("/tests/", 1)[0]


@pytest.mark.parametrize("folder, error, limit", keep.folders(), ids=["profiles", "card sets"])
def test_the_kept_forms_are_the_data_of_today_s_files(folder, error, limit):
    assert parsed.stale(folder, error, limit) == [], (
        "hub/profiles: a bundled YAML file changed: run `python -m hub.profiles.keep` and commit parsed.json")


@pytest.mark.parametrize("folder", sorted(decks.KEPT_FOLDERS), ids=["sample", "sample decks"])
def test_the_engine_s_sample_set_kept_forms_are_fresh(folder):
    assert kept.stale(folder, *keep.engine_io()) == [], (
        "engine/data/sample: a sample file changed: run `python -m hub.profiles.keep` and commit parsed.json")


def test_the_sample_set_read_from_its_kept_form_is_the_one_read_from_yaml(monkeypatch):
    """Every card and character, and each deck, the same as from the YAML (the card table a game
    records, and so its hash, does not change with where the data came from)."""
    cs, sample = decks.load_sample()
    monkeypatch.setattr(decks, "KEPT_FOLDERS", frozenset())
    decks._cached_sample.cache_clear()
    decks.cardset_key_cached.cache_clear()
    try:
        cs_yaml, sample_yaml = decks.load_sample()
    finally:
        decks._cached_sample.cache_clear()
        decks.cardset_key_cached.cache_clear()
    assert cs is not cs_yaml
    assert json.dumps({k: c.to_json() for k, c in cs.cards.items()}) == json.dumps(
        {k: c.to_json() for k, c in cs_yaml.cards.items()})
    assert json.dumps({k: c.to_json() for k, c in cs.characters.items()}) == json.dumps(
        {k: c.to_json() for k, c in cs_yaml.characters.items()})
    assert {k: d.as_game_deck() | {"character": d.character.id} for k, d in sample.items()} == {
        k: d.as_game_deck() | {"character": d.character.id} for k, d in sample_yaml.items()}


def test_a_referee_table_starts_without_yaml():
    code = ("import json, sys\n"
            "from hub.record.store import Store\n"
            "from hub.sessions.table import Table\n"
            "t = Table(Store(':memory:'))\n"
            "t.start('referee', auto=True)\n"
            "print(json.dumps([t.session.state.turn, 'yaml' in sys.modules]))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [1, False]


def test_lumen_cards_check_of_the_sample_folder_skips_its_kept_form():
    checked, problems = decks.check_path(decks.SAMPLE_DIR)
    assert problems == []
    assert sorted(os.path.basename(f) for f in checked) == ["cards.yaml", "gangcheol.yaml", "serin.yaml"]


def test_the_bundled_profiles_read_from_the_kept_form_are_the_ones_read_from_yaml():
    kept = profile.bundled()
    from_yaml = {p.id: p for p in (profile.load(os.path.join(profile.DATA, n)) for n in yaml_files(profile.DATA))}
    assert sorted(kept) == sorted(from_yaml) == ["battlecon", "gundam", "lumen", "yojeong"]
    for pid in kept:
        # the same body in the same order: a profile's hash and the record read it so
        assert json.dumps(kept[pid].body) == json.dumps(from_yaml[pid].body), pid


def test_the_bundled_card_sets_read_from_the_kept_form_are_the_ones_read_from_yaml():
    kept = cards.bundled()
    from_yaml = {c.id: c for c in (cards.load(os.path.join(cards.DATA, n)) for n in yaml_files(cards.DATA))}
    assert sorted(kept) == sorted(from_yaml)
    for sid in kept:
        assert json.dumps(kept[sid].body) == json.dumps(from_yaml[sid].body), sid


@pytest.fixture
def copy(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(profile.DATA, folder, ignore=shutil.ignore_patterns("cards"))
    return folder


def test_a_file_edited_since_its_kept_form_is_read_as_yaml(copy):
    path = copy / "lumen.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("name: {ko: 루멘콘덴서, en: Lumen Condenser}",
                                                             "name: {ko: 루멘콘덴서 (클럽), en: Lumen Condenser (club)}"),
                    encoding="utf-8")
    got = parsed.by_id(str(copy), profile.parse, profile.ProfileError, MAX_PROFILE_BYTES)
    assert got["lumen"].body["name"] == {"ko": "루멘콘덴서 (클럽)", "en": "Lumen Condenser (club)"}
    assert got["gundam"].body == profile.bundled()["gundam"].body
    assert parsed.stale(str(copy), profile.ProfileError, MAX_PROFILE_BYTES) == ["lumen.yaml"]


def test_a_kept_form_that_lies_about_its_file_is_caught(copy):
    """A kept form whose data is not its file's (edited by hand, the hash left) reads wrong, so
    the staleness check compares the data itself, not only the hash."""
    form = json.loads((copy / kept.NAME).read_text(encoding="utf-8"))
    form["files"]["lumen.yaml"]["data"]["turn"]["first"] = "a"
    (copy / kept.NAME).write_text(json.dumps(form), encoding="utf-8")
    assert parsed.stale(str(copy), profile.ProfileError, MAX_PROFILE_BYTES) == ["lumen.yaml"]


@pytest.mark.parametrize("body", ["", "{not json", json.dumps({"format": "lumen-parsed/0", "files": {}}),
                                  json.dumps(["files"])])
def test_a_missing_or_unreadable_kept_form_means_reading_the_yaml(copy, body):
    if body:
        (copy / kept.NAME).write_text(body, encoding="utf-8")
    else:
        os.unlink(copy / kept.NAME)
    got = parsed.by_id(str(copy), profile.parse, profile.ProfileError, MAX_PROFILE_BYTES)
    assert {p: got[p].body for p in got} == {p: b.body for p, b in profile.bundled().items()}


def test_a_bad_file_still_fails_with_its_line_when_it_is_not_the_kept_one(copy):
    (copy / "lumen.yaml").write_text("format: lumen-profile/1\nid: [unclosed\n", encoding="utf-8")
    with pytest.raises(profile.ProfileError) as e:
        parsed.by_id(str(copy), profile.parse, profile.ProfileError, MAX_PROFILE_BYTES)
    assert "not valid YAML" in str(e.value.problems[0].message) and e.value.problems[0].line


def test_written_again_the_kept_form_is_fresh(copy):
    (copy / "lumen.yaml").write_text((copy / "lumen.yaml").read_text(encoding="utf-8") + "\n# a comment\n",
                                     encoding="utf-8")
    assert parsed.stale(str(copy), profile.ProfileError, MAX_PROFILE_BYTES) == ["lumen.yaml"]
    parsed.write(str(copy), profile.ProfileError, MAX_PROFILE_BYTES)
    assert parsed.stale(str(copy), profile.ProfileError, MAX_PROFILE_BYTES) == []
    assert not os.path.exists(copy / (kept.NAME + ".tmp"))

