"""The record's JSON text is pinned: a card table is stored and named by the SHA-256 of its
text (``store.table_text``), so that text must never move, whatever encoder writes it; and a
record body is the same text through orjson as through the json module (issue 25: the
private ``json.encoder.c_make_encoder`` gave way to the public encoder)."""

import hashlib
import json

from hub.record.store import dumps
from hub.record.jsontext import table_text

#: a small card table with what can move between encoders: Korean text, a null, floats of
#: both notations and an integer past 2**53
TABLE = [{"id": "회전-차기", "name": "회전 차기", "kind": "attack", "speed": 7, "position": "mid", "damage": 500,
          "results": {"hit": {"fp": 2}, "guarded": {"fp": -2}}, "special": None, "ratio": 0.5, "big": 10 ** 16,
          "tiny": 1e-05},
         {"id": "high-guard", "kind": "defense", "guard": ["high", "mid"], "evade": [], "offset": []}]
TEXT = ('[{"big":10000000000000000,"damage":500,"id":"회전-차기","kind":"attack","name":"회전 차기",'
        '"position":"mid","ratio":0.5,"results":{"guarded":{"fp":-2},"hit":{"fp":2}},"special":null,"speed":7,'
        '"tiny":1e-05},{"evade":[],"guard":["high","mid"],"id":"high-guard","kind":"defense","offset":[]}]')
#: its hash as every hub since the card tables (issue 16) has stored it
DIGEST = "3a50dafbc6953051ed64892923ed20b97cce1026817d62079533ca5eaaf520b1"


def test_the_card_table_text_and_its_hash_never_move():
    assert table_text(TABLE) == TEXT
    assert hashlib.sha256(table_text(TABLE).encode()).hexdigest() == DIGEST
    assert table_text(TABLE) == json.dumps(TABLE, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def test_a_body_reads_the_same_through_either_encoder():
    body = {"b": [1, None, 2.5, "é", {"z": True}], "a": None, "n": 3}
    assert dumps(body) == json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert json.loads(dumps({"x": 1e16})) == {"x": 1e16}
