"""Issue 39.8 (for issue 38's TD): what a table's result may put in the TD's record is capped.
A result with a 200 KB ``detail`` (and, refused, a 200 KB round or score) was stored whole
in the note of its refusal (400 KB a result); now each field is of its type or nothing, the
detail is cleaned and capped at ``MAX_DETAIL_BYTES``, and an error's text at
``MAX_ERROR_CHARS``."""

import json
import os

from hub.tournament import intake
from hub.tournament.eventdir import new_event
from hub.tournament.td import TD

from tests.tournament.conftest import players

BIG = 200 * 1024


def test_a_tables_result_never_puts_more_than_its_fields_in_the_record(tmp_path):
    folder = str(tmp_path / "event")
    new_event(folder, "cup", players(8), rounds=3, round_minutes=30, best_of=1, seed=11)
    td = TD(os.path.join(folder, "event.sqlite"), "mqtt://td:unused@127.0.0.1:1")     # its link is never started
    td.pair_next()
    td.start_round()
    detail = {"games": ["a"] * BIG, "health": {"a": 1, "b": 2, "c": "x" * BIG}, "mode": "m" * BIG,
              "game_ids": list(range(BIG)), "junk": "y" * BIG}
    results = [
        (1, {"result_id": "good-1", "round": 1, "a_wins": 1, "b_wins": 0, "detail": detail}),
        (2, {"result_id": "bad-round-2", "round": "r" * BIG, "a_wins": 1, "b_wins": 0, "detail": detail}),
        (3, {"result_id": "bad-score-3", "round": 1, "a_wins": "1" * BIG, "b_wins": [0] * BIG, "detail": detail,
             "source": "s" * BIG, "confirmed_by": ["a"] * BIG}),
    ]
    for table, obj in results:
        assert len(json.dumps(obj)) > BIG
        td.handle_result(table, obj)
    rows = td.record.records(("result", "note"))
    sizes = [len(json.dumps(r["body"], ensure_ascii=False)) for r in rows]
    assert len(rows) == 3 and max(sizes) < 2 * intake.MAX_DETAIL_BYTES, sizes
    good = next(r["body"] for r in rows if r["body"].get("result_id") == "good-1")
    assert good["detail"]["games"] == ["a"] * 9 and good["detail"]["health"] == {"a": 1, "b": 2}, good
    assert td.answers[2]["bad-round-2"]["status"] == "refused" and td.answers[3]["bad-score-3"]["status"] == "refused"
    assert all(len(a.get("error") or "") <= intake.MAX_ERROR_CHARS for t in td.answers.values() for a in t.values())
    print("TD result cap: 3 results of > %d KB each stored as %s bytes" % (BIG // 1024, sizes))
