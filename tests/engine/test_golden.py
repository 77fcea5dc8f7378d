"""Golden games (issue 16): seeded bot games whose every decision, event, explanation,
pending question and final state must stay byte for byte what they were when the digests
below were recorded. Engine speed work must not change behaviour; this catches any change
the rule tests happen not to look at (an event's key order, a reworded explanation, a
different queue in a timing window).

A deliberate change of behaviour (a rule fix) changes digests: check that the change is
the intended one, then print the new digests with

    python3 -m tests.engine.test_golden

and paste them here, saying why in the commit message.
"""

import hashlib
import json
import os
import sys

import pytest

from engine.bots import Bot
from engine.cards.decks import load_sample, without_effects
from engine.core.events import explain
from engine.api.game import advance, apply, apply_checked, check, new_game
from engine.play.state import GameState


def _decks():
    cs, decks = load_sample()
    serin, gang = decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck()
    return {"effects": (cs.cards, serin, gang), "swapped": (cs.cards, gang, serin),
            "vanilla": without_effects(cs.cards, serin, gang)}


# name: (deck set, policy, seeds, how decisions are applied)
#   "hub": check + apply_checked in place (the referee session's path), setup as the hub's
#          "hub" source answers it; "copy": apply with a copy; "pause": in place, pausing at
#          every battle and turn end and continuing with advance; each 7th decision of the
#          "copy" games goes through a JSON round trip first.
GAMES = {
    "referee": ("effects", "greedy", range(100, 112), "hub"),
    "random": ("effects", "random", range(0, 24), "copy"),
    "swapped": ("swapped", "random", range(24, 36), "pause"),
    "vanilla": ("vanilla", "random", range(0, 16), "copy"),
    "greedy-vanilla": ("vanilla", "greedy", range(40, 46), "hub"),
}

DIGESTS = {
    "referee": "a5ac5bded823004111f5085cd6a1379ce5c0e29136244e939e1c504bca1920be",
    "random": "e2aab120a8ee920090d0232208a5052b145f0e676dcb53c9f9336ada4dfb3283",
    "swapped": "2280c222e0a8cd9af124934a896de2c22d1f4f3d5830b8e8d6765b0b63e00a46",
    "vanilla": "457931107cc320935b8a64f00ca5e18cd2eff2428d0706447c645b811178304d",
    "greedy-vanilla": "e0ca364bb3fef46068e933a2dc661e1b36e81fa90ed39ecd710b8173fa270791",
}


def _line(out, *parts):
    out.update(json.dumps(parts, ensure_ascii=False).encode())
    out.update(b"\n")


def _events(out, cards, events):
    for e in events:
        _line(out, "ev", e, explain(e, cards))


def play_digest(name, decksets=None):
    deckset, policy, seeds, mode = GAMES[name]
    cards, da, db = (decksets or _decks())[deckset]
    out = hashlib.sha256()
    until = ("battle_end", "turn_end") if mode == "pause" else ()
    for seed in seeds:
        st, events = new_game(cards, da, db, seed=seed, until=until)
        _events(out, cards, events)
        bots = {"a": Bot(seed * 2 + 1, policy), "b": Bot(seed * 2 + 2, policy)}
        n = 0
        while st.winner is None:
            if not st.pending:      # paused at a marker
                st, events = advance(st, until, copy=False)
                _line(out, "advance")
                _events(out, cards, events)
                continue
            _line(out, "pending", st.pending)
            req = st.pending[0]
            p = req["player"]
            if mode == "hub" and req["kind"] == "setup":
                pool = list(req["options"])
                h, k = req["sizes"]["hand"], req["sizes"]["list"]
                kind, value = "setup", {"hand": pool[:h], "list": pool[h:h + k]}
            else:
                kind, value = bots[p].answer(st, req)
            _line(out, "answer", p, kind, value)
            if mode == "copy":
                if n % 7 == 6:
                    st = GameState.from_json(json.loads(json.dumps(st.to_json())), cards=cards)
                st, events = apply(st, p, kind, value)
            elif mode == "hub":
                events = apply_checked(st, check(st, p, kind, value))
            else:
                st, events = apply(st, p, kind, value, until=until, copy=False)
            _events(out, cards, events)
            n += 1
            assert n < 5000, "game %s/%d did not end" % (name, seed)
        _line(out, "final", st.to_json(cards=False))
    return out.hexdigest()


@pytest.fixture(scope="module")
def decksets():
    return _decks()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_games_are_unchanged(name, decksets):
    assert play_digest(name, decksets) == DIGESTS[name], (
        "the %s games no longer play out byte for byte as recorded (see this file's docstring)" % name)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    ds = _decks()
    for game in GAMES:
        print('    "%s": "%s",' % (game, play_digest(game, ds)))
