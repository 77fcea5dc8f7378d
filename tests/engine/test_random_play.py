"""Random-simulation invariant tests (issue 2): 1,000 seeded games between random
legal players, each to the end, invariants checked after every decision, and the
same inputs replayed give the identical JSON state."""

import json
from collections import Counter

import pytest

from engine.bots import Bot
from engine.cards.decks import load_sample
from engine.api.game import apply, new_game
from engine.play.state import GameState

from .invariants import check, roundtrip

GAMES = 1000


@pytest.fixture(scope="module")
def sample():
    cs, decks = load_sample()
    names = sorted(decks)
    return cs, decks[names[0]].as_game_deck(), decks[names[1]].as_game_deck()


def deck_counter(deck):
    return Counter(deck["cards"] + ([deck["ultimate"]] if deck["ultimate"] else []))


def play_one(cs, da, db, seed, record=None, check_every=True, json_every=0):
    st, _ = new_game(cs.cards, da, db, seed=seed)
    bots = {"a": Bot(seed * 2 + 1), "b": Bot(seed * 2 + 2)}
    decks = {"a": deck_counter(da), "b": deck_counter(db)}
    n = 0
    while st.winner is None:
        req = st.pending[0]
        kind, value = bots[req["player"]].answer(st, req)
        if record is not None:
            record.append((req["player"], kind, value))
        st, _ = apply(st, req["player"], kind, value)
        n += 1
        if check_every and st.phase != "setup":
            check(st, decks)
        if json_every and n % json_every == 0:
            st = roundtrip(st)
        assert n < 5000, "game %d did not end" % seed
    return st


def test_thousand_random_games_keep_invariants(sample):
    cs, da, db = sample
    winners = Counter()
    for seed in range(GAMES):
        st = play_one(cs, da, db, seed, json_every=7 if seed % 10 == 0 else 0)
        winners[st.winner] += 1
    assert sum(winners.values()) == GAMES
    # both seats win some games: the sample decks are not degenerate
    assert winners["a"] > GAMES // 10 and winners["b"] > GAMES // 10, winners


@pytest.mark.parametrize("seed", [3, 17, 404])
def test_replaying_the_same_inputs_gives_the_identical_state(sample, seed):
    cs, da, db = sample
    record = []
    final = play_one(cs, da, db, seed, record=record, check_every=False)
    st, _ = new_game(cs.cards, da, db, seed=seed)
    for player, kind, value in record:
        st, _ = apply(st, player, kind, value)
    assert json.dumps(st.to_json(), sort_keys=True) == json.dumps(final.to_json(), sort_keys=True)


def test_state_json_roundtrip_through_text_mid_game(sample):
    cs, da, db = sample
    st, _ = new_game(cs.cards, da, db, seed=5)
    bots = {"a": Bot(1), "b": Bot(2)}
    for _ in range(60):
        if st.winner is not None:
            break
        req = st.pending[0]
        kind, value = bots[req["player"]].answer(st, req)
        st, _ = apply(st, req["player"], kind, value)
        text = json.dumps(st.to_json(), ensure_ascii=False)
        back = GameState.from_json(json.loads(text))   # card table rebuilt from the JSON itself
        assert back.to_json() == st.to_json()


ZONE_FUNCTIONS = [
    # guide 5.6.1: functions acting from every zone, and a trigger from the hand (ruling R44)
    {"do": "hand_limit", "amount": 1, "zone": "hand"},
    {"do": "hand_limit", "amount": 1, "zone": "list"},
    {"do": "hand_limit", "amount": -1, "target": "opponent", "zone": "side_deck"},
    {"do": "faster", "amount": 1, "zone": "list"},
    {"do": "slower", "amount": 1, "target": "opponent", "zone": "any"},
    {"do": "forbid", "action": "catch", "target": "opponent", "zone": "break_zone"},
    {"do": "lose_health", "amount": 50, "target": "opponent", "timing": "on_opponent_hit", "zone": "hand"},
    {"do": "fp", "amount": 1, "timing": "turn_end", "zone": "list", "optional": True},
]


def with_functions(cards, functions, start=0, step=3):
    """The card table with ``functions`` added, one to each ``step``-th attack/defense from ``start``."""
    from engine.cards import parse_card
    cards = dict(cards)
    skills = sorted(cid for cid, c in cards.items() if c.kind in ("attack", "defense"))
    for cid, extra in zip(skills[start::step], functions * 3):
        d = cards[cid].to_json()
        d["effects"] = list(d.get("effects") or []) + [extra]
        card, problems = parse_card(d)
        assert card is not None and not problems, problems
        cards[cid] = card
    return cards


def with_zone_functions(cs):
    """The sample card table with one zone function added to each of the first attack/defense cards."""
    return with_functions(cs.cards, ZONE_FUNCTIONS)


def test_random_games_with_functions_in_every_zone_keep_invariants(sample):
    cs, da, db = sample

    class Table:
        cards = with_zone_functions(cs)
    winners = Counter()
    for seed in range(200):
        st = play_one(Table, da, db, seed, json_every=5 if seed % 10 == 0 else 0)
        winners[st.winner] += 1
    assert sum(winners.values()) == 200
