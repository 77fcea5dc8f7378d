"""Issue 23 point 1: continuous effects are read live where the rule reads them (ruling R45).
A read is skipped when nothing it depends on changed since the last one (engine/play/livefx.py
``_stamp``, the effect-step and card-move counters): that must be exact. Random games with the
sample decks, with functions acting from every zone, and with functions whose conditions change
mid-battle (health, FP, tokens, the outcome, damage taken, a combo) play out event for event the
same when every read is worked out again."""

import json

import pytest

from engine.play import battle
from engine.play import combo_catch
from engine.play import livefx
from engine.bots import Bot
from engine.cards.decks import load_sample
from engine.api.game import apply, new_game
from engine.play.state import order

from .test_random_play import with_functions, with_zone_functions

LIVE_FUNCTIONS = [
    {"do": "faster", "amount": 2, "if": {"fp_min": 1}},
    {"do": "damage", "amount": 200, "if": {"health_max": 3000}},
    {"do": "damage", "amount": 100, "if": {"outcome": ["hit", "counter"]}},
    {"do": "slower", "amount": 1, "target": "opponent", "if": {"damaged": True}},
    {"do": "damage", "amount": -100, "target": "opponent", "if": {"tokens": {"ember": {"min": 1}}}, "zone": "hand"},
    {"do": "faster", "amount": 1, "if": {"opponent_fp_max": -1}, "zone": "list"},
    {"do": "add_judgment", "judgment": "evade", "positions": ["low"], "if": {"health_max": 2500}},
    {"do": "damage", "amount": 150, "if": {"in_combo": True}, "zone": "any"},
    {"do": "damage", "amount": 250, "zone": "hand"},
    {"do": "slower", "amount": 2, "target": "opponent", "zone": "list", "if": {"count": {"zone": "hand", "max": 3}}},
]


def with_live_functions(cards):
    return with_functions(cards, LIVE_FUNCTIONS, 1, 3)


def _always_both(st, ctx):
    srcs = livefx.mod_sources(st)
    for p in order(st):
        livefx.live(st, p, ctx, srcs)
    return True


def _always_read(st, p, ctx):
    livefx.live(st, p, ctx)
    return st.battle.fx["cur"].get(p)


def _play(cards, da, db, seed):
    st, events = new_game(cards, da, db, seed=seed)
    out = [e for e in events]
    bots = {"a": Bot(seed * 2 + 1), "b": Bot(seed * 2 + 2)}
    while st.winner is None:
        req = st.pending[0]
        kind, value = bots[req["player"]].answer(st, req)
        out.append(["answer", req["player"], kind, value])
        st, events = apply(st, req["player"], kind, value, copy=False)
        out += events
    players = st.to_json(cards=False)["players"]
    return json.dumps([out, players], sort_keys=True, default=str)


@pytest.fixture(scope="module")
def tables():
    cs, decks = load_sample()
    da, db = decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck()
    return [(cs.cards, da, db), (with_zone_functions(cs), da, db), (with_live_functions(cs.cards), db, da)]


def test_skipped_reads_are_exact(tables, monkeypatch):
    played = []
    for cards, da, db in tables:
        for seed in range(40):
            played.append(_play(cards, da, db, seed))
    monkeypatch.setattr(battle, "live_both", _always_both)
    monkeypatch.setattr(combo_catch, "read", _always_read)
    monkeypatch.setattr(livefx, "read", _always_read)
    again = []
    for cards, da, db in tables:
        for seed in range(40):
            again.append(_play(cards, da, db, seed))
    assert played == again
    # the live functions did change games: they were read and reported
    assert any('"function_on"' in g or '"function_off"' in g for g in played[80:])


LIMIT_FUNCTIONS = [
    {"do": "hand_limit", "amount": 1, "if": {"tokens": {"ember": {"min": 1}}}, "zone": "hand"},
    {"do": "hand_limit", "amount": -1, "target": "opponent", "if": {"health_max": 3500}, "zone": "list"},
    {"do": "hand_limit", "amount": 1, "if": {"count": {"zone": "break_zone", "min": 2}}, "zone": "any"},
    {"do": "hand_limit", "amount": 2, "if": {"fp_min": 2}, "zone": "side_deck"},
]


def test_hand_limits_worked_out_again_only_when_something_changed(tables, monkeypatch):
    """cardfx.refresh skips the work when what it reads is unchanged (``st.limkey``): games play
    out the same as when it always works the limits out."""
    from engine.play import cardfx
    cs_cards, da, db = tables[0]
    cards = with_functions(cs_cards, LIMIT_FUNCTIONS, 2, 4)
    runs = [(cs_cards, da, db), (cards, da, db), (cards, db, da)]
    played = [_play(c, x, y, seed) for c, x, y in runs for seed in range(30)]
    monkeypatch.setattr(cardfx, "_limit_key", lambda st, ix: None)
    again = [_play(c, x, y, seed) for c, x, y in runs for seed in range(30)]
    assert played == again
