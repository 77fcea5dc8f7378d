"""Every UI string exists in Korean and in English, and every key the page uses is defined."""

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "hub" / "web" / "static"


def _blocks(name="i18n.js"):
    src = (STATIC / name).read_text(encoding="utf-8")
    ko = src[src.index("ko: {"):src.index("en: {")]
    en = src[src.index("en: {"):]
    if name != "i18n.js":
        en = en[:en.index("};")]
    keys = lambda block: set(re.findall(r"(?:^|[\s,{])([a-z_]+):\s*\"", block))   # noqa: E731
    return keys(ko), keys(en)


def test_the_profiles_words_are_in_both_languages_too():
    ko, en = _blocks("profile.js")
    assert len(ko) > 40 and ko == en, {"only ko": sorted(ko - en), "only en": sorted(en - ko)}


def test_both_languages_have_the_same_keys():
    ko, en = _blocks()
    assert len(ko) > 100
    assert ko == en, {"only ko": sorted(ko - en), "only en": sorted(en - ko)}


def test_every_key_the_page_uses_is_defined():
    ko, _ = _blocks()
    ko |= _blocks("profile.js")[0]          # the profile board's words (merged into I18N at load)
    pages = ("core.js", "app.js", "seats.js", "battle.js", "bar.js", "admin.js", "tv.js", "index.html")
    app = "".join((STATIC / name).read_text(encoding="utf-8") for name in pages)
    used = set(re.findall(r"\bt\(\"([a-z_]+)\"", app)) | set(re.findall(r'data-i18n="([a-z_]+)"', app))
    used = {k for k in used if not k.endswith("_")}          # prefixes of keys built at run time: below
    assert used and not used - ko, sorted(used - ko)
    # keys built at run time: every value they can take
    dynamic = {"phase_": ["setup", "lumen", "ready", "battle", "get", "recovery", "over"],
               "tphase_": ["ready", "battle", "over"], "mode_": ["referee", "tracker"],
               "req_": ["setup", "ready", "get", "discard", "combo", "catch", "nullify", "replenish", "choose", "pick"],
               "opt_": ["end", "pass", "skip", "ultimate"], "kind_": ["attack", "defense", "special"],
               "pos_": ["high", "mid", "low"], "status_": ["finished", "in_progress"],
               "end_": ["health", "non_response", "sudden_death_turns", "sudden_death_double_ko"]}
    for mode in ("referee", "tracker"):                         # t(g.mode) in the recent-games list
        assert mode in ko
    for prefix, values in dynamic.items():
        assert prefix in app
        for v in values:
            assert prefix + v in ko, prefix + v
