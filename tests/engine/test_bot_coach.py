"""The coach you can trust (issue 35): its verdict on a ready agrees with the exact solution of
the one-battle game (every pair played by the engine, the rest of the turn searched exactly,
solved by linear programming: scipy, a test dependency only), it is the same for any seed, its
"why" never reads a judgment the card loses as praise, and after a non-response (guide 3.10)
the card the opponent picked is not graded as the player's choice."""

import os
import random

import pytest

from engine import apply, new_game
from engine.api.game import advance
from engine.bots import Bot, Ending, answers, coach, coach_ready, onebattle, seat_view
from engine.cards import load_deck, load_sample, without_effects
from tests.engine.test_bot_ending import _sample

linprog = pytest.importorskip("scipy.optimize").linprog

WINS = ("hit", "counter", "guard", "evade")


def _decks(deckset):
    if deckset == "entered":
        base = os.path.join(os.path.dirname(__file__), "data", "entered", "decks")
        da, _ = load_deck(os.path.join(base, "haneul.yaml"))
        db, _ = load_deck(os.path.join(base, "mujin.yaml"))
        return da.cardset.cards, da.as_game_deck(), db.as_game_deck()
    cs, decks = load_sample()
    serin, gang = decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck()
    if deckset == "vanilla":
        return without_effects(cs.cards, serin, gang)
    return cs.cards, serin, gang


def _hands(seed, a_hand, b_hand):
    st = _sample(seed)
    for p, hand in (("a", a_hand), ("b", b_hand)):
        pl = st.players[p]
        pl.hand = list(hand)
        pl.list = [c for c in pl.list if c not in hand]
    st.pending, st.step, st.phase = [], "ready.ask", "ready"
    st, _ = advance(st, copy=False)
    _, da, db = _decks("sample")
    return st, {"a": da["cards"], "b": db["cards"]}


def _greedy_ready(deckset, seed, turns):
    cards, deck_a, deck_b = _decks(deckset)
    st, _ = new_game(cards, deck_a, deck_b, seed=seed)
    bots = {"a": Bot(seed * 2 + 1, "greedy"), "b": Bot(seed * 2 + 2, "greedy")}
    seen = 0
    while True:
        if len(st.pending) == 2 and all(r["kind"] == "ready" for r in st.pending):
            seen += 1
            if seen == turns:
                return st, {"a": deck_a["cards"], "b": deck_b["cards"]}
        req = st.pending[0]
        st, _ = apply(st, req["player"], *bots[req["player"]].answer(st, req), copy=False)


# the issue's own example (turn 1: Gangcheol readied 버티기 where 철벽 was better), with small hands,
# and a position of a greedy game on the entered decks. The coach is told the opponent's deck list
# (as a table that publishes decks would): their side deck is then what the true state holds, and
# the exact solution of the true state is the one the coach's information allows. The bench
# measures the rest (bench/bot.py coach, docs/performance.md "The coach": 40+ positions, the
# opponent's side deck sampled, the get phase searched one ply where the reference searches it all)
POSITIONS = {
    "brace-or-iron-wall": lambda: _hands(2, ["throw", "serin-swallow-kick", "high-guard", "serin-flash-jab"],
                                         ["gangcheol-brace", "gangcheol-iron-wall", "gangcheol-iron-fist", "jab"]),
    "entered-greedy": lambda: _greedy_ready("entered", 1007, 2),
}


def _turn_value(st, ending, budget, rnd):
    """Seat a's value with every decision left in the turn searched exactly (max for a, min for b)."""
    if st.winner is not None or any(r["kind"] == "ready" for r in st.pending):
        return ending.leaf(st)
    req = st.pending[0]
    if budget[0] <= 0:
        from engine.bots import evaluate
        s2 = st.copy()
        apply(s2, req["player"], *evaluate.default_answer(st, req, rnd), copy=False)
        return _turn_value(s2, ending, budget, rnd)
    vals = []
    for ans in answers(st, req):
        budget[0] -= 1
        s2 = st.copy()
        apply(s2, req["player"], req["kind"], ans, copy=False)
        vals.append(_turn_value(s2, ending, budget, rnd))
    return max(vals) if req["player"] == "a" else min(vals)


def _lp(A):
    n, m = len(A), len(A[0])
    res = linprog([0.0] * n + [-1.0], A_ub=[[-A[i][j] for i in range(n)] + [1.0] for j in range(m)], b_ub=[0.0] * m,
                  A_eq=[[1.0] * n + [0.0]], b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)], method="highs")
    return -res.fun


def exact_losses(st, seat):
    """Each of ``seat``'s options' loss in the one-battle game of the true state, against the
    opponent's optimal mixes: (the least, the most). A game often has several optimal mixes; a
    card that belongs to an optimal mix of its seat loses nothing against any of them."""
    ending, rnd = Ending(st), random.Random(0)
    mine = [r for r in st.pending if r["player"] == seat][0]["options"]
    theirs = [r for r in st.pending if r["player"] != seat][0]["options"]
    A = []
    for x in mine:
        row = []
        for y in theirs:
            s2 = st.copy()
            apply(s2, seat, "ready", x, copy=False)
            apply(s2, "b" if seat == "a" else "a", "ready", y, copy=False)
            v = _turn_value(s2, ending, [400], rnd)
            row.append(v if seat == "a" else 1.0 - v)
        A.append(row)
    v = _lp(A)
    out = {}
    for i, x in enumerate(mine):
        vals = []
        for sign in (-1.0, 1.0):
            res = linprog([sign * A[i][j] for j in range(len(theirs))], A_ub=A, b_ub=[v + 1e-9] * len(mine),
                          A_eq=[[1.0] * len(theirs)], b_eq=[1.0], bounds=[(0, None)] * len(theirs), method="highs")
            vals.append(sign * res.fun)
        out[x] = (max(0.0, v - vals[0]), max(0.0, v - vals[1]))
    return out


@pytest.fixture(scope="module", params=sorted(POSITIONS))
def position(request):
    st, decks = POSITIONS[request.param]()
    return request.param, st, {seat: exact_losses(st, seat) for seat in "ab"}, decks


def _solve(st, seat, decks, seed):
    return onebattle.solve(seat_view(st, seat), seat, st.cards, seed=seed, deck=decks["b" if seat == "a" else "a"])


@pytest.mark.parametrize("seat", ["a", "b"])
def test_the_verdict_agrees_with_the_exact_solution(position, seat):
    """A card that gives up more than 5 % against every optimal opponent is never a "good
    choice", and a card giving up at most 1 % against any is never "you lost" (issue 35 found 4
    and 3 of these in 40 positions)."""
    name, st, exact, decks = position
    an = _solve(st, seat, decks, 7)
    verdicts = {o: coach.verdict(an, o) for o in an.options}
    assert set(verdicts) == set(exact[seat])
    for o, (good, loss, tol) in verdicts.items():
        least, most = exact[seat][o]
        if least > 0.05:
            assert not good, (name, seat, o, least, loss)
        if most <= 0.01:
            assert good, (name, seat, o, most, loss, tol)
    if name == "brace-or-iron-wall" and seat == "b":
        # 철벽 is the one card no optimal opponent punishes; 버티기 and 쇠주먹 lose to some
        assert verdicts["gangcheol-iron-wall"][0]
        assert not verdicts["gangcheol-brace"][0] and not verdicts["gangcheol-iron-fist"][0]


@pytest.mark.parametrize("seat", ["a", "b"])
def test_the_verdict_is_the_same_for_any_seed(position, seat):
    """Without the opponent's deck list too: their side deck sampled from every card they could own."""
    name, st, _, _ = position
    view = seat_view(st, seat)
    runs = []
    for seed in range(5):
        an = onebattle.solve(view, seat, st.cards, seed=seed)
        runs.append(({o: coach.verdict(an, o)[0] for o in an.options},
                     max(an.options, key=lambda o: an.values[an.options.index(o)])))
    assert all(r == runs[0] for r in runs), name


def test_the_why_never_praises_a_loss(position):
    """A good choice's why is a judgment the card wins against a card of the opponent's mix (the
    engine's own event for that pair), or else the opponent's best reply to it; a worse choice's
    why is the opponent's best reply to it."""
    name, st, _, _ = position
    for seat in "ab":
        an, _ = coach_ready(seat_view(st, seat), seat, st.cards, seed=1)
        for o in an.options:
            line = coach.explain_choice(an, o, st.cards)
            why = line["why"]
            row = an.matrix[an.options.index(o)]
            if why["how"] == "wins":
                assert line["good"] and why["judgment"]["outcome"] in WINS
                assert an.their_mix[an.their_options.index(why["reply"])] >= coach.SUPPORT
            else:
                assert why["reply"] == an.their_options[row.index(min(row))]
            assert line["rule"].startswith("guide ")
            text = line["en"]
            assert ("Good choice" in text) == line["good"]


def test_after_a_non_response_the_picked_card_is_not_graded():
    """Guide 3.10: the player did not ready in time and the opponent picked the card: the line says
    so and grades nothing (it was read as "1P의 선택" before)."""
    st, _ = POSITIONS["brace-or-iron-wall"]()
    an, line = coach_ready(seat_view(st, "b"), "b", st.cards, chosen="jab", seed=1, picked=True)
    assert line["picked"] is True and line["good"] is None and line["loss"] is None
    assert line["rule"] == "guide 3.10"
    assert "3.10" in line["ko"] and "3.10" in line["en"]
    assert "not chosen by 2P" in line["en"] and "2P의 선택이 아니라" in line["ko"]
    assert "좋은 선택" not in line["ko"] and "You chose" not in line["en"]
    graded = coach.explain_choice(an, "jab", st.cards)
    assert graded["picked"] is False and graded["good"] is False
