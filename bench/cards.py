"""What the card editor costs on the hub: lint as you type, saving a card (the whole set
rewritten and checked by the engine's loader), try it, deck status, deck codes, CSV import.

    python3 bench/cards.py [--cards 200] [--repeat 5]

Prints the fastest of ``--repeat`` passes per figure (docs/performance.md, "Card editor").
The set is the sample set plus ``--cards`` generated attacks, so a large community set is
measured too.
"""

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from engine.cards import cardyaml  # noqa: E402
from engine.cards import SAMPLE_CARDS  # noqa: E402
from engine.cards import plain  # noqa: E402
from engine.scenarios import judge  # noqa: E402
from engine import load_yaml  # noqa: E402
from hub.library import deckcode  # noqa: E402
from hub.library.csvimport import read_csv  # noqa: E402
from hub.library.deckcheck import deck_status  # noqa: E402
from hub.library.sets import CardLibrary  # noqa: E402


def best(fn, repeat, inner=1):
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        out.append((time.perf_counter() - t0) / inner)
    return min(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=200, help="generated cards added to the sample set")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--smoke", action="store_true", help="every part, small: CI's check that it runs (figures meaningless)")
    args = ap.parse_args()
    if args.smoke:
        args.cards, args.repeat = 10, 1
    data = plain(load_yaml(SAMPLE_CARDS))
    for i in range(args.cards):
        data["cards"].append({"id": "gen-%03d" % i, "name": "생성 %d" % i, "kind": "attack", "mark": "serin", "speed": 3 + i % 10,
                              "position": ("high", "mid", "low")[i % 3], "damage": 300 + i, "results": {"hit": {"fp": 1}},
                              "effects": [{"do": "fp", "amount": 1, "timing": "on_hit"}]})
    root = tempfile.mkdtemp(prefix="lumen-bench-cards-")
    lib = CardLibrary(root)
    sid = lib.import_set(cardyaml.dump_set(data), "bench")
    n = len(data["cards"])
    card = dict(data["cards"][-1], damage=999)
    jab = next(c for c in data["cards"] if c["id"] == "jab")
    sheet = "id,name,kind,speed,position,damage,results\n" + "".join(
        "csv-%03d,시트 %d,attack,5,mid,400,hit +1; counter +2 combo\n" % (i, i) for i in range(100))
    serin = ["serin-flash-jab", "serin-swallow-kick", "serin-skipping-stone", "serin-lotus-kick", "serin-sliding-slash",
             "serin-blazing-heel", "serin-skyward-leap", "serin-swallow-throw", "serin-gale-kicks", "serin-afterimage",
             "serin-low-stance", "serin-deflect", "serin-acceleration", "serin-ember-ignite", "low-kick", "middle-kick",
             "throw", "high-guard", "low-guard", "dash"]
    lib.save_deck(sid, "serin", {"name": "세린", "character": "serin", "cards": serin, "ultimate": "serin-phantom-dance"})
    cs = lib.cardset(sid)
    code = deckcode.encode(lib, sid, "serin")
    rows = [
        ("write the set as YAML (cardyaml.dump_set)", best(lambda: cardyaml.dump_set(data), args.repeat, 5)),
        ("lint one card as you type (lint_card)", best(lambda: lib.lint_card(sid, card, card["id"]), args.repeat, 20)),
        ("save one card (rewrite + engine check + atomic rename)", best(lambda: lib.save_card(sid, card, card["id"]), args.repeat)),
        ("try it: one battle judged (engine.scenarios.trial.judge)", best(lambda: judge(card, jab), args.repeat, 20)),
        ("deck status, guide 4.5 live (deck_status)", best(lambda: deck_status(cs, "serin", serin, "serin-phantom-dance"), args.repeat, 50)),
        ("deck code: encode", best(lambda: deckcode.encode(lib, sid, "serin"), args.repeat, 5)),
        ("deck code: resolve on this hub", best(lambda: deckcode.resolve(lib, code), args.repeat, 5)),
        ("CSV sheet of 100 cards: read", best(lambda: read_csv(sheet), args.repeat, 5)),
    ]
    print("card set: %d cards, %d bytes of YAML; deck code %d characters, QR version %d"
          % (n, len(cardyaml.dump_set(data).encode()), len(code), __import__("segno").make(code, error="l").version))
    for name, sec in rows:
        print("%-58s %9.2f ms" % (name, sec * 1000))


if __name__ == "__main__":
    main()
