"""One name per code (issue 25): firmware/proto.py names every wire code, the
hub's tables (hub/pods/protocol.py) and docs/protocol.md's tables say the
same, and the firmware modules' private copies of a code (MicroPython folds a
private const: no RAM on the board) equal their source. Parsed, not imported:
the firmware is MicroPython (``from micropython import const``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from hub.pods import protocol as P

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
DOC = (ROOT / "docs" / "protocol.md").read_text()

# who owns which names: a private const with one of these prefixes elsewhere is a copy
OWNERS = {
    "proto": ("_T_", "_SERVICE_MAGIC", "_LOG_", "_FEATURE_", "_MODE_", "_KIND_", "_STATE_FLAG_", "_ADJUST_",
              "_OUT_", "_NOTE_", "_PART_", "_RES_", "_SELFTEST_"),
    "buttons": ("_BTN_", "_EV_"),
    "selection": ("_IDLE", "_CHOOSING", "_LOCKED", "_REVEAL", "_RESULT", "_PAGE_"),
    "countdown": ("_CD_",),
}


def consts(path: Path) -> dict[str, int]:
    """NAME -> value of every ``NAME = const(...)`` at a module's top level."""
    out = {}
    for node in ast.parse(path.read_text()).body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "const"):
            out[node.targets[0].id] = ast.literal_eval(node.value.args[0])  # type: ignore[attr-defined]
    return out


def owner_of(name: str) -> str | None:
    for mod, prefixes in OWNERS.items():
        if any(name == p or name.startswith(p) and p.endswith("_") for p in prefixes):
            return mod
    return None


PROTO = consts(FIRMWARE / "proto.py")


def group(prefix: str) -> dict[str, int]:
    """proto.py's codes with a prefix, by the hub's name (``_OUT_WAS_HIT`` -> ``was_hit``)."""
    return {k[len(prefix):].lower(): v for k, v in PROTO.items() if k.startswith(prefix)}


def test_message_types_match_the_hub_schema() -> None:
    assert group("_T_") == {name: v[0] for name, v in P.SCHEMA.items()}
    assert PROTO["_SERVICE_MAGIC"] == P.SERVICE_MAGIC


def test_value_tables_match_the_hub() -> None:
    # every value the hub defines has its firmware name (the pod reads or sends them all)
    assert group("_OUT_") == {k: v for k, v in P.OUTCOMES.items() if v}
    assert group("_NOTE_") == P.NOTICES
    assert group("_ADJUST_") == P.ADJUST
    assert group("_PART_") == P.TEST_PARTS
    assert group("_RES_") == P.TEST_RESULTS
    assert group("_SELFTEST_") == P.SELFTEST_ACTIONS
    assert group("_STATE_FLAG_") == {"pass": P.STATE_FLAG_PASS, "locked": P.STATE_FLAG_LOCKED}
    hub_features = {k[len("FEATURE_"):].lower(): getattr(P, k) for k in dir(P) if k.startswith("FEATURE_")}
    assert group("_FEATURE_") == hub_features
    # the pod needs only some modes and prompt kinds: those it names agree
    for prefix, table in (("_MODE_", P.MODES), ("_KIND_", P.PROMPT_KINDS)):
        names = group(prefix)
        assert names and all(table[k] == v for k, v in names.items()), prefix


def test_docs_message_tables_name_the_same_codes() -> None:
    rows = re.findall(r"^\| (0x[0-9A-F]{2}) \| `(\w+)` \|", DOC, re.M)
    assert {name: int(code, 16) for code, name in rows} == group("_T_")
    assert len(rows) == len(P.SCHEMA)  # each message once


def doc_values(table: str) -> dict[str, int]:
    line = re.search(rf"^\| `{re.escape(table)}` \| (.+) \|$", DOC, re.M)
    assert line, f"docs/protocol.md has no `{table}` row in its Values table"
    return {name: int(code) for code, name in re.findall(r"(\d+) `(\w+)`", line.group(1))}


def test_docs_value_tables_name_the_same_codes() -> None:
    assert doc_values("outcome") == {k: v for k, v in P.OUTCOMES.items() if v} == group("_OUT_")
    assert doc_values("notice") == P.NOTICES == group("_NOTE_")
    assert doc_values("adjust.what") == P.ADJUST == group("_ADJUST_")
    assert doc_values("mode") == P.MODES
    assert doc_values("kind") == P.PROMPT_KINDS
    assert doc_values("state.flags") == group("_STATE_FLAG_")
    assert doc_values("features") == group("_FEATURE_")


def test_docs_selftest_table_names_the_same_codes() -> None:
    i = DOC.index("| `part` |")
    rows = re.findall(r"^  \| ([\d, ]+) \| (.+?) \| (\d) \| `(\w+)`", DOC[i:i + 2000], re.M)
    parts: dict[str, int] = {}
    results = {}
    for codes, names, rcode, rname in rows:
        parts |= dict(zip(re.findall(r"`(\w+)`", names), map(int, codes.split(",")), strict=True))
        results[rname] = int(rcode)
    assert parts == P.TEST_PARTS == group("_PART_")
    assert results == P.TEST_RESULTS == group("_RES_")


MODULES = sorted(p for p in FIRMWARE.glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_firmware_copies_equal_their_source(path: Path) -> None:
    owners = {m: consts(FIRMWARE / f"{m}.py") for m in OWNERS}
    for name, value in consts(path).items():
        mod = owner_of(name)
        if mod is None:
            continue
        src = owners[mod]
        assert name in src, f"{path.name}: {name} is not defined in firmware/{mod}.py (name it there first)"
        assert value == src[name], f"{path.name}: {name} = {value}, firmware/{mod}.py says {src[name]}"


def test_no_public_codes_in_the_firmware() -> None:
    # a public const is a global on the board (RAM and a lookup): the codes stay private
    for path in MODULES:
        for name in consts(path):
            assert name.startswith("_") or owner_of("_" + name) is None, f"{path.name}: {name} is public"


def test_no_bare_codes_where_names_exist() -> None:
    # the patterns issue 25 found: event kinds and result/notice codes compared as numbers
    bare = re.compile(r"\bev & 7\b|\bev >> 3\b|<< 3 \||\b(c|nc|code|kind) (==|!=|<=|>=) \d+\b(?! *[-+*/%])"
                      r"|\b(c|nc) in \(\d|\d <= (c|nc) <=")
    for path in (FIRMWARE / f for f in ("pod.py", "buttons.py", "selftest.py", "screen.py", "selection.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#")[0]
            assert not bare.search(code), f"{path.name}:{n}: a bare code: {line.strip()}"


def test_screen_outcome_words_follow_the_table() -> None:
    tree = ast.parse((FIRMWARE / "screen.py").read_text())
    words = next(ast.literal_eval(n.value) for n in tree.body
                 if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "OUTCOMES")
    by_code = sorted(P.OUTCOMES.items(), key=lambda kv: kv[1])
    said = {"non_response": "no_response"}  # the screen's own words for a few
    assert [w.lower().replace(" ", "_") for w in words[1:]] == [said.get(k, k) for k, _ in by_code[1:]]
