"""The record's JSON text as the json module writes it: sorted keys, no spaces, UTF-8 as is.
A card table's text is hashed (its name is the hash), so this is the one way to write it."""

import json

#: ``json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))`` with its
#: encoder built once (``json.dumps`` builds one per call), no circular-reference check
#: (bodies are plain data the hub builds). The text of a card table is hashed: this is the
#: one public way to write it, pinned by tests/hub/test_record_text.py.
ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"), check_circular=False)
encode_json = ENCODER.encode
#: a card table's text, hashed: json's exact text (orjson writes floats past 1e16 or under 1e-4
#: another way, the same value: not in a hash), once per card set, so its cost does not matter
table_text = encode_json
