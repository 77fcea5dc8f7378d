"""The hub's bot at a table and the coach (issue 24): the bot's answers go through the table as
a pod's do (source "bot", the same record, commitments verified at the reveal), its thinking
runs in its own process fed the seat's view as JSON only, a restart resumes it, pods never take
its seat, and the coach shows nothing of a battle before its reveal."""

import asyncio
import json

import pytest

from engine.bots.knowledge import seat_view
from engine.bots import Bot
from engine.api.game import apply
from hub.bot import think
from hub.bot.coach import Coach
from hub.bot.meta import practice_meta
from hub.bot.seat import BotSeat
from hub.bot.worker import ThinkWorker, WorkerGone, card_table
from hub.record.store import Store
from hub.sessions.base import SessionError
from hub.sessions.commit_reveal import verify as verify_commitments
from hub.sessions.table import Table


def test_practice_meta_names_what_is_wrong():
    assert practice_meta("b", "strong", ["a", "b"]) == {"bot": {"seat": "b", "level": "strong"}, "coach": ["a", "b"]}
    assert practice_meta() == {}
    with pytest.raises(SessionError, match="seat"):
        practice_meta("c")
    with pytest.raises(SessionError, match="level"):
        practice_meta("a", "grandmaster")
    with pytest.raises(SessionError, match="coached"):
        practice_meta(None, "strong", ["x"])


def _ready_state(seed=3):
    table = Table(Store(":memory:"))
    table.auto_setup = True
    table.start("referee", seed=seed)
    return table


def test_a_job_is_the_seats_view_and_the_same_job_gives_the_same_answer():
    """The thinking process's job function, in this process: from the seat's view (JSON text)
    alone it answers the seat's ready with one of its options; run twice, the same answer."""
    table = _ready_state()
    st = table.session.engine_state
    req = [r for r in st.pending if r["player"] == "b" and r["kind"] == "ready"][0]
    key, cards = card_table(st.cards)
    view = json.dumps(seat_view(st, "b"), ensure_ascii=False)
    job = {"id": 1, "op": "decide", "view": view, "seat": "b", "kind": "ready", "seed": 7, "level": "normal",
           "iterations": 12, "budget": None, "cards": {"key": key, "json": cards}}
    one = think.run(job)
    assert one["ok"], one
    assert one["kind"] == "ready" and one["value"] in req["options"]
    assert one["thought"]["iterations"] == 12
    again = think.run(dict(job, cards={"key": key, "json": None}))     # the card table kept from the first job
    assert again == one
    # a job naming a card table this process never held asks for it, changing nothing
    lost = think.run(dict(job, cards={"key": "not-held", "json": None}))
    assert lost["ok"] is False and lost["missing"] == "not-held"


def test_the_worker_answers_in_its_own_process_and_a_restart_fails_the_job_in_flight():
    table = _ready_state(seed=4)
    st = table.session.engine_state
    view = json.dumps(seat_view(st, "a"), ensure_ascii=False)
    w = ThinkWorker()
    try:
        base = {"op": "decide", "view": view, "seat": "a", "kind": "ready", "seed": 1, "level": "normal"}
        res = w.submit(dict(base, iterations=8), card_table(st.cards)).result(120)
        assert res["ok"] and res["value"] in [r for r in st.pending if r["player"] == "a"][0]["options"]
        pid = w.pid
        assert pid is not None
        slow = w.submit(dict(base, iterations=10 ** 7), card_table(st.cards))     # would think for hours
        w.restart()
        with pytest.raises(WorkerGone):
            slow.result(30)
        again = w.submit(dict(base, iterations=8), card_table(st.cards)).result(120)
        assert again == dict(res, id=again["id"])
        assert w.pid != pid and w.started == 2
    finally:
        w.close()


async def _play_against_the_bot(table, human, coach_seen, max_steps=3000):
    """Seat a played by ``human`` through ``table.submit`` (as a pod would), until the end."""
    s = table.session
    for _ in range(max_steps):
        if s.winner is not None:
            return
        req = next((r for r in s.engine_state.pending if r["player"] == "a" and r["kind"] != "setup"), None)
        if req is not None and not (req["kind"] == "ready" and table.coach.thinking):
            # a learner reads the coach's line on the last reveal before the next ready
            kind, value = human.answer(s.engine_state, req)
            if kind == "timeout":
                kind, value = "ready", req["options"][0]
            table.submit("a", kind, value, source="pod")
        await asyncio.sleep(0.02)
        coach_seen.append((sum(1 for e in s.log if e["e"] == "reveal"), s.engine_state.phase, json.dumps(table.coach.view())))
    raise AssertionError("the game against the bot did not end")


def test_a_whole_game_against_the_bot_is_recorded_like_a_pods():
    table = Table(Store(":memory:"))
    table.auto_setup = True
    coach = Coach(table, iterations=16)
    bot = BotSeat(table, iterations=16, pace_ms=0, step_ms=0, coach=coach)
    seen = []
    public = []
    table.subscribe(lambda audience, msg: public.append((audience, msg)) if audience == "public" else None)

    async def main():
        tasks = [asyncio.create_task(bot.run()), asyncio.create_task(coach.run())]
        try:
            table.start("referee", seed=11, meta=practice_meta("b", "strong", ["a", "b"]))
            await _play_against_the_bot(table, Bot(5, "greedy"), seen)
            for _ in range(500):                       # the last analysis comes back
                if not coach.thinking:
                    break
                await asyncio.sleep(0.02)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    asyncio.run(main())
    s = table.session
    gid = s.game_id
    recs = table.store.records(gid)
    start = recs[0].body
    assert start["meta"]["bot"] == {"seat": "b", "level": "strong"} and start["meta"]["coach"] == ["a", "b"]
    bot_inputs = [r for r in recs if r.kind == "input" and r.seat == "b" and r.body["kind"] != "setup"]
    assert bot_inputs and all(r.body["source"] == "bot" for r in bot_inputs)
    readies = [r for r in bot_inputs if r.body["kind"] == "ready"]
    assert len(readies) >= 3
    # its readies are hidden inputs with a commitment made at the lock, checked at the reveal
    assert all(r.hidden for r in readies)
    judged = {r.body["input_seq"] for r in recs if r.kind == "judge" and r.body.get("event") == "ready"}
    assert all(r.seq in judged for r in readies)
    checks = verify_commitments(table.store, gid)
    assert checks and all(ok for _, ok in checks)
    assert bot.submitted >= len(bot_inputs) and bot.fallbacks == 0
    # the coach explained the person's readies and showed the bot's own thought
    assert coach.analysed >= 3
    whos = {(e["seat"], e["who"]) for _, _, v in seen for e in (json.loads(v) or {}).get("entries", [])}
    assert ("a", "player") in whos and ("b", "bot") in whos
    # ... and never anything of a battle before that battle's reveal: at a ready phase, only of
    # the battles already revealed (a turn may have two)
    for fought, phase, v in seen:
        view = json.loads(v)
        if view and phase == "ready":
            assert all(e["battle"] <= fought for e in view["entries"]), (fought, view)
    # every analysis names its rule and says it in both languages
    last = [json.loads(v) for _, _, v in seen if json.loads(v) and json.loads(v)["entries"]][-1]
    for e in last["entries"]:
        assert e["rule"] and e["text"]["ko"] and e["text"]["en"]
    # the coach's changes reached the public listeners as their own message type
    assert any(m.get("t") == "coach" for _, m in public)


def test_after_a_non_response_the_coach_does_not_grade_the_picked_card():
    """Guide 3.10: 1P does not ready in time, the bot (2P) picks the card treated as 1P's ready.
    The coach's line on that battle says the card was picked, not chosen, and grades nothing (it
    showed "1P의 선택" and a verdict before, issue 35)."""
    table = Table(Store(":memory:"))
    table.auto_setup = True
    coach = Coach(table)
    bot = BotSeat(table, iterations=8, pace_ms=0, step_ms=0, coach=coach)

    async def main():
        tasks = [asyncio.create_task(bot.run()), asyncio.create_task(coach.run())]
        try:
            table.start("referee", seed=11, meta=practice_meta("b", "normal", ["a"]))
            s = table.session
            for _ in range(3000):
                if any(r["player"] == "a" and r["kind"] == "ready" for r in s.engine_state.pending):
                    break
                await asyncio.sleep(0.01)
            table.submit("a", "timeout", True, source="hub")
            for _ in range(6000):
                if coach.analysed and not coach.thinking:
                    return
                await asyncio.sleep(0.01)
            raise AssertionError("the coach said nothing of the battle")
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    asyncio.run(main())
    assert any(e["e"] == "non_response" and e["p"] == "a" for e in table.session.log)
    entry = next(e for e in coach.view()["entries"] if e["seat"] == "a")
    assert entry["who"] == "picked"
    assert entry["loss"] is None and "3.10" in entry["text"]["ko"] and "3.10" in entry["text"]["en"]
    assert "not chosen by 1P" in entry["text"]["en"] and "1P의 선택이 아니라" in entry["text"]["ko"]


def test_the_bot_is_told_the_turns_left_before_the_at_time_decision():
    """Ruling R-time at a table: after "time" the turn in progress, then the extra turns; what the
    bot plans on (engine/bots/ending.py) is the turns still to play, the current one included."""
    from types import SimpleNamespace

    from hub.bot.questions import turns_left
    from hub.sessions.timer import MatchTimer
    timer = MatchTimer(60_000, extra_turns=3)
    table = SimpleNamespace(timer=timer)
    assert turns_left(table) is None                       # no time called: no clock to plan on
    timer.round_start(0)
    assert turns_left(table) is None
    timer.call_time(1_000)
    assert turns_left(table) == 4                          # this turn, then 3 extra
    left = []
    while not timer.finished:
        timer.turn_ended(2_000)
        left.append(turns_left(table))
    assert left == [3, 2, 1, None]
    assert turns_left(SimpleNamespace(timer=timer, bot_turns_left=lambda: 7)) == 7


def test_a_restarted_hub_resumes_the_bot_with_its_game(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    table = Table(Store(db))
    table.auto_setup = True
    table.start("referee", seed=12, meta=practice_meta("a", "normal"))
    gid = table.session.game_id
    # a few of 2P's answers, then the hub goes away
    st = table.session.engine_state
    human = Bot(2, "greedy")
    req = next(r for r in st.pending if r["player"] == "b" and r["kind"] == "ready")
    table.submit("b", *human.answer(st, req), source="pod")
    table.store.close()

    again = Table(Store(db))
    again.auto_setup = True
    again.resume_current()
    assert again.session.game_id == gid and again.bot_seats() == {"a"}
    bot = BotSeat(again, iterations=8, pace_ms=0, step_ms=0)

    async def main():
        task = asyncio.create_task(bot.run())
        try:
            for _ in range(3000):
                if bot.submitted:
                    return
                await asyncio.sleep(0.01)
            raise AssertionError("the resumed bot did not answer")
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    asyncio.run(main())
    ready = [r for r in again.store.records(gid) if r.kind == "input" and r.seat == "a" and r.body["kind"] == "ready"]
    assert ready and ready[-1].body["source"] == "bot"
    again.store.close()


def test_a_bot_game_is_refereed_and_a_tracker_game_refuses_one():
    table = Table(Store(":memory:"))
    with pytest.raises(SessionError, match="referee"):
        table.start("tracker", meta=practice_meta("b"))
    table.start("referee", seed=1, meta=practice_meta("b"))
    assert table.bot_seats() == {"b"}
    table.start("referee", seed=2)
    assert table.bot_seats() == set()


def test_the_bots_view_is_what_its_seat_may_see():
    """What the bot's process gets is ``seat_view``: the opponent's lock is "?" and their side
    deck a count, whatever they locked (the job's text does not depend on it)."""
    table = _ready_state(seed=6)
    st = table.session.engine_state
    opts = [r for r in st.pending if r["player"] == "a" and r["kind"] == "ready"][0]["options"]
    texts = set()
    for card in sorted(set(opts))[:3]:
        s2 = st.copy()
        apply(s2, "a", "ready", card, copy=False)
        v = seat_view(s2, "b")
        assert isinstance(v["players"]["a"]["side_deck"], int)
        assert v["players"]["a"]["battle_zone"] == ["?"]
        texts.add(json.dumps(v, sort_keys=True))
    assert len(texts) == 1


def test_lumen_hub_bot_options():
    """``lumen hub --bot b``: referee games with the bot in 2P, coached unless ``--coach off``;
    a tournament table refuses a bot and never coaches by default."""
    from hub.cli.hub import practice, run_hub
    from hub.cli.main import build_parser
    p = build_parser()
    args = p.parse_args(["hub", "--bot", "b", "--level", "normal"])
    assert args.mode is None and practice(args) == {"bot": {"seat": "b", "level": "normal"}, "coach": ["a", "b"]}
    args = p.parse_args(["hub", "--bot", "a", "--coach", "off"])
    assert practice(args) == {"bot": {"seat": "a", "level": "strong"}}
    assert practice(p.parse_args(["hub"])) == {}
    assert practice(p.parse_args(["hub", "--coach", "on"])) == {"coach": ["a", "b"]}
    said = []
    args = p.parse_args(["hub", "--bot", "b", "--broker", "mqtt://table-3:pw@localhost:1883", "--event", "e", "--table", "3"])
    assert practice(args)["bot"]["seat"] == "b" and "coach" not in practice(args)
    assert run_hub(args, out=said.append) == 2 and "tournament" in said[-1]
    said = []
    assert run_hub(p.parse_args(["hub", "--bot", "b", "--mode", "tracker"]), out=said.append) == 2
    assert "referee" in said[-1]
