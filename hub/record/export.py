"""Match export (``lumen-match/1``): a game of the record as JSON, and reading one back."""

import json

from hub.record.store import public_start

EXPORT_FORMAT = "lumen-match/1"


def export_game(store, game_id, g):
    """A match as JSON. A finished game exports everything (every hidden pick has
    been revealed); an unfinished one only what a spectator may see. ``g`` is the
    game's row, ``store.game(game_id)``."""
    finished = g["status"] == "finished"
    if finished:
        records = [r.to_json() for r in store.records(game_id)]
        start = records[0]["body"] if records and records[0]["kind"] == "start" else {}
        if "card_table" in start:        # the export stands alone: its card table inline (issue 16)
            records[0]["body"] = dict(start, cards=store.card_table(start["card_table"]))
    else:
        records = store.public_records(game_id)
    return {"format": EXPORT_FORMAT, "complete": finished, "game": dict(g, start=public_start(g["start"] or {})),
            "records": records}


def load_export(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
