"""The end of a round per game profile (issue 38 item 3; docs/rulings.md "End of round"):
the match clock's procedure (the turn in progress, then extra turns or extra time, whichever
first) and the tiebreak steps each profile states. Waits for nothing: a fake clock moves."""

import types

import pytest

from engine.bots import Bot
from engine.cards import load_sample
from hub.profiles import profile as profiles
from hub.record.store import Store
from hub.sessions.base import FakeClock, SessionError
from hub.sessions.end_of_round import decide, decide_session, describe
from hub.sessions.table import Table
from hub.sessions.timer import MatchTimer
from tests.profiles.helpers import Play


def lumen_figures(a, b):
    """(health, the character's first health band, non-responses) per side."""
    return {s: {"health": h, "health_start": start, "non_responses": n} for s, (h, start, n) in (("a", a), ("b", b))}


def r_time(figs, seed=0):
    proc = profiles.get("lumen").procedure()
    return decide(proc["tiebreak"], figs, seed, proc["ruling"])


def test_ruling_r_time_share_of_starting_health_then_fewer_non_responses_then_a_drawn_game():
    """Ruling R-time 3a-c: the larger share of one's own character's starting health (not raw
    health: characters start at 4500..5500), then fewer non-responses (guide 3.10), then a draw."""
    d = r_time(lumen_figures((2800, 4500, 0), (3000, 5500, 0)))       # 62.2 % beats 54.5 %, with less health
    assert (d["winner"], d["by"], d["step"]) == ("a", "higher_share", 0)
    assert d["rule"]["en"].startswith("ruling R-time") and "62.2%" in describe(d, "en")
    d = r_time(lumen_figures((2700, 4500, 2), (3000, 5000, 1)))       # 60 % each, exactly: fewer non-responses
    assert (d["winner"], d["by"], d["values"]) == ("b", "fewer", {"a": 2, "b": 1})
    d = r_time(lumen_figures((2700, 4500, 1), (3000, 5000, 1)))
    assert (d["winner"], d["by"]) == ("draw", "draw") and "무승부" in describe(d, "ko")


def test_gundam_shield_area_then_deck_then_a_random_draw_from_the_games_seed():
    """The lead's Gundam ruling (seed 002 with Bandai TCG+ store practice): more cards in the shield
    area (base + shields), then the higher deck count, then a random method, seeded and recorded."""
    p = Play("gundam")
    game = types.SimpleNamespace(mode="profile", game=p.game, profile=p.profile)
    p.cmd(action="adjust", seat="a", counter="base", delta=-1)       # a's base destroyed: 0 + 6 against 1 + 6
    d = decide_session(game)
    assert (d["winner"], d["values"], d["name"]["en"]) == ("b", {"a": 6, "b": 7}, "cards in the shield area (base + shields)")
    p.cmd(action="adjust", seat="b", counter="shields", delta=-1)     # 6 and 6: the deck count decides
    p.cmd(action="adjust", seat="a", counter="deck", delta=-5)
    d = decide_session(game)
    assert (d["winner"], d["by"], d["step"], d["values"]) == ("b", "higher", 1, {"a": 34, "b": 39})
    p.cmd(action="adjust", seat="b", counter="deck", delta=-5)        # level on both: the seeded draw
    draws = {s: decide_session(game, seed=s)["winner"] for s in range(20)}
    assert decide_session(game, seed=7) == decide_session(game, seed=7) and set(draws.values()) == {"a", "b"}
    assert decide_session(game, seed=7)["values"] == {"seed": 7}


def test_battlecon_and_yojeong_higher_life_then_a_drawn_game_a_team_added_up():
    """The lead's rulings: BattleCON (seed 004) and 요정전승 (seed 003): higher life, equal: drawn."""
    p = Play("battlecon")
    game = types.SimpleNamespace(mode="profile", game=p.game, profile=p.profile)
    assert decide_session(game)["winner"] == "draw"
    p.cmd(action="adjust", seat="b", counter="life", delta=-3)
    assert (decide_session(game)["winner"], decide_session(game)["values"]) == ("a", {"a": 20, "b": 17})
    q = Play("yojeong", players=4, first="b")
    game = types.SimpleNamespace(mode="profile", game=q.game, profile=q.profile)
    q.cmd(action="adjust", seat="a", counter="life", delta=-5)         # 1P and 3P: 15 + 20 against 20 + 20
    assert (decide_session(game)["winner"], decide_session(game)["values"]) == ("b", {"a": 35, "b": 40})


def test_the_clock_plays_the_turn_in_progress_then_three_extra_turns_or_five_minutes():
    """Ruling R-time 2: the turn in progress to its end, then up to 3 extra turns or 5 extra
    minutes, whichever first; an extra turn begun before the 5 minutes run out is played out."""
    t = MatchTimer(60_000, extra_turns=3, extra_ms=300_000, finish_turn=True)
    t.round_start(0)
    assert t.update(60_000) and t.state == "time" and t.finishing and not t.finished
    t.turn_ended(70_000)                    # the turn in progress ended: the extra period begins
    assert not t.finishing and t.turns_left == 3 and t.extra_left(70_000) == 300_000
    t.turn_ended(100_000)
    t.turn_ended(130_000)
    assert t.turns_left == 1 and not t.finished
    t.turn_ended(160_000)
    assert t.finished                       # three extra turns, well inside the 5 minutes
    slow = MatchTimer(60_000, extra_turns=3, extra_ms=300_000)
    slow.round_start(0)
    slow.call_time(30_000)                  # a judge calls time
    slow.turn_ended(40_000)
    slow.turn_ended(200_000)
    assert slow.turns_left == 2 and slow.extra_left(390_000) == 0 and not slow.finished   # time out, turn going on
    slow.turn_ended(400_000)                # the extra turn going on when the 5 minutes ran out ends
    assert slow.finished
    # an anchor of before the procedure counts its extra turns from time, as it did
    old = {"format": "lumen-clock/2", "duration_ms": 60_000, "extra_turns": 1, "state": "time", "started_ms": 0,
           "paused_ms": 0, "paused_since": 60_000, "budget_ms": 60_000, "extended_ms": 0, "turns_left": 1}
    back = MatchTimer.from_json(old, 99_000)
    assert not back.finishing and not back.finished
    back.turn_ended(99_000)
    assert back.finished and MatchTimer.from_json(back.to_json(), 0).to_json() == back.to_json()


@pytest.fixture
def table():
    t = Table(Store(":memory:"), clock=FakeClock(), admin_token="end-of-round-token")
    yield t
    t.store.close()


def act(table, **cmd):
    return table.submit(cmd.get("seat"), "action", cmd, source="display")


def test_a_tracker_game_at_time_is_decided_from_its_counters_and_the_record_says_how(table):
    table.start_tracker("generic", "muyeong")                 # 5000 against 4500 starting health
    table.timer_action("round_start", duration_ms=60_000)
    act(table, action="set_health", seat="a", health=3000)   # 60 %
    act(table, action="set_health", seat="b", health=2800)   # 62.2 %: ahead though lower
    table.clock.advance(61_000)
    table.tick()
    assert table.timer.state == "time" and table.timer.finishing
    for n in range(4):                                        # the turn in progress, then 3 extra turns
        assert table.round_end.decided is None
        table.clock.advance(20_000)
        act(table, action="next_turn")
    d = table.round_end.decided
    assert (d["winner"], d["by"], d["values"]) == ("b", "higher_share", {"a": "3/5", "b": "28/45"})
    g = table.store.game(table.session.game_id)
    assert (g["status"], g["winner"]) == ("finished", "b")
    from hub.web.display import display_state, game_over
    shown = display_state(table)
    assert game_over(table) and "2P 승" in shown["decided"]["text"]["ko"] and "판정 R-time" in shown["decided"]["text"]["ko"]
    # a correction of the last entry changes the decision with it (the counters decide)
    act(table, action="set_health", seat="a", health=4000)
    assert table.round_end.decided["winner"] == "a"
    # a restarted hub knows how the game was decided
    again = Table(table.store, clock=table.clock, admin_token="x" * 12)
    again.resume_current()
    assert again.round_end.decided["winner"] == "a"


STALL = {"a": "serin-phantom-dance", "b": "gangcheol-iron-wall"}


class Stall:
    """A player who always defends: 1P 잔영난무, 2P 철벽 whenever it can (and takes them back at the
    get phase), greedy otherwise. Two of them loop: an effect fires every battle, so the stall
    count stays 0 (guide 5.1.1) and no defense over ever comes (issue 34 item 2)."""

    def __init__(self, seat, seed, cards):
        self.seat, self.bot, self.cards = seat, Bot(seed, "greedy"), cards

    def answer(self, st, req):
        opts = req.get("options") or []
        if req["kind"] in ("ready", "get"):
            if STALL[self.seat] in opts:
                return req["kind"], STALL[self.seat]
            if req["kind"] == "get" and self.seat == "a" and "ultimate" in opts:
                return "get", "ultimate"
            defend = [o for o in opts if isinstance(o, str) and o in self.cards and self.cards[o].kind == "defense"]
            if defend:
                return req["kind"], defend[0]
        return self.bot.answer(st, req)


def play(table, bots, until):
    s = table.session
    while not until():
        st = s.engine_state
        req = st.pending[0]
        kind, value = bots[req["player"]].answer(st, req)
        table.submit(req["player"], kind, value, source="pod")
        table.clock.advance(2_000)
        table.tick()


def test_a_bot_game_that_loops_on_the_sample_decks_ends_by_the_procedure(table):
    """1P 잔영난무 against 2P 철벽 never ends by the rules; at time it ends by ruling R-time, the
    referee game asking the engine (engine.decide_at_time): 1P keeps all of 세린's starting
    health (4800: her trait), 2P all of 강철's 5500, neither failed to respond: a drawn game."""
    cards = load_sample()[0].cards
    table.start_referee("serin", "gangcheol", seed=1)
    bots = {"a": Stall("a", 10, cards), "b": Stall("b", 11, cards)}
    table.timer_action("round_start", duration_ms=30 * 60_000)
    s = table.session
    play(table, bots, lambda: s.turn >= 30)
    st = s.engine_state
    assert s.winner is None and st.stalled_battles == 0, "the loop the procedure must end"
    table.clock.advance(30 * 60_000)
    table.tick()
    assert table.timer.state == "time"
    at_time = s.turn
    play(table, bots, lambda: table.round_end.decided is not None)
    assert s.turn == at_time + 4, "the turn in progress, then 3 extra turns (~10 s each here: inside 5 minutes)"
    d = table.round_end.decided
    assert (d["winner"], d["by"], d["step"], d["rule"]["en"]) == ("draw", "draw", 2, "ruling R-time")
    assert d["figures"] == {"a": {"health": 4800, "health_start": 4800, "non_responses": 0},
                            "b": {"health": 5500, "health_start": 5500, "non_responses": 0}}
    assert d["engine"]["decided_by"] == "draw" and d["engine"]["rule"] == "ruling R-time"
    with pytest.raises(SessionError, match="decided at time"):
        table.submit("a", "ready", STALL["a"], source="pod")
    g = table.store.game(s.game_id)
    assert (g["status"], g["winner"]) == ("finished", "draw")
    # a new round's clock started at the decided table leaves that game decided (the bots' next game)
    table.timer_action("round_start")
    assert table.round_end.decided is not None
    table.clock.advance(1_500)          # (the same action again within 1 s is a double tap)
    table.timer_action("undo")          # ... and the judge's Undo of it puts the finished clock back
    assert table.round_end.decided is not None
    # the judge's Undo on the clock (its round start) takes the time back: the game is open again
    table.timer_action("undo")
    assert table.round_end.decided is None and table.store.game(s.game_id)["status"] == "in_progress"
    play(table, bots, lambda: s.turn >= at_time + 6)
