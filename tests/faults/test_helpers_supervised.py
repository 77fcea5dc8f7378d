"""Issue 39.6: the helper processes are supervised. The coach's thinking process was never
restarted once hung (the coach showed nothing for the rest of the game), and
``ThinkWorker.submit`` wrote the job on the caller's thread (the table's) while holding a
lock: a 2 MB job to a stopped process blocked it for more than 10 s.

Now a job is queued and written by a thread of the process's own, each job has a deadline,
and a job past it gets the process killed and restarted for the next one. Tested with the
real processes: one stopped (SIGSTOP: hung) and one killed (SIGKILL) over a whole game
against the bot, coached."""

import asyncio
import json
import os
import signal
import threading

import pytest

from engine import IllegalDecision
from engine.bots import Bot, seat_view

from hub.bot.coach import Coach
from hub.bot.meta import practice_meta
from hub.bot.seat import BotSeat
from hub.bot.worker import ThinkWorker, WorkerGone, card_table
from hub.record.store import Store
from hub.sessions.base import SessionError
from hub.sessions.table import Table

DEADLINE_S = 3.0        # the job deadline of these tests' workers (a strong search here takes < 1 s)


def _view_job(seed=4):
    table = Table(Store(":memory:"))
    table.auto_setup = True
    table.start("referee", seed=seed)
    st = table.session.engine_state
    job = {"op": "decide", "view": json.dumps(seat_view(st, "a"), ensure_ascii=False), "seat": "a", "kind": "ready",
           "seed": 1, "level": "normal", "iterations": 8}
    return job, card_table(st.cards)


def test_a_job_to_a_stopped_process_never_blocks_the_caller_and_the_process_is_restarted():
    job, cards = _view_job()
    w = ThinkWorker(job_s=DEADLINE_S)
    try:
        assert w.submit(job, cards).result(120)["ok"]
        first = w.pid
        os.kill(first, signal.SIGSTOP)                   # hung: alive, answering nothing, reading nothing
        big = dict(job, padding="x" * (2 * 1024 * 1024))     # 2 MB: far more than a pipe holds
        submitted = []
        caller = threading.Thread(target=lambda: submitted.append(w.submit(big, cards)))
        caller.start()
        caller.join(60)           # the bound only stops a broken test: the old submit never returned
        assert not caller.is_alive() and submitted, "submit blocked on the stopped process"
        with pytest.raises(WorkerGone, match="deadline"):
            submitted[0].result(120)                     # the watchdog killed the process at the deadline
        assert w.overdue == 1
        again = w.submit(job, cards).result(120)         # a fresh process answers the next job
        assert again["ok"] and w.pid != first and w.started == 2
    finally:
        w.close()
    assert not os.path.exists("/proc/%d" % first) or open("/proc/%d/stat" % first).read().split()[2] == "Z"


def test_a_whole_game_goes_on_with_the_bots_process_killed_and_the_coachs_hung():
    """A coached game against the bot; the coach's process is stopped after the 2nd reveal and
    the bot's killed after the 4th, then stopped after the 6th: each is restarted, the bot
    answers by its greedy fallback meanwhile, the coach explains the battles after its restart,
    and the game ends."""
    table = Table(Store(":memory:"))
    table.auto_setup = True
    coach = Coach(table, iterations=16, worker=ThinkWorker(name="lumen-coach", job_s=DEADLINE_S))
    bot = BotSeat(table, iterations=16, pace_ms=0, step_ms=0, coach=coach,
                  worker=ThinkWorker(name="lumen-bot", job_s=DEADLINE_S))
    human = Bot(5, "greedy")
    done = {}
    analysed_at = {}

    def faults(reveals):
        if reveals >= 2 and "coach hung" not in done and coach.worker.pid:
            os.kill(coach.worker.pid, signal.SIGSTOP)
            done["coach hung"] = coach.worker.pid
        if reveals >= 4 and "bot killed" not in done and bot.worker.pid:
            os.kill(bot.worker.pid, signal.SIGKILL)
            done["bot killed"] = bot.worker.pid
        if reveals >= 6 and "bot hung" not in done and bot.worker.pid and bot.worker.pid != done.get("bot killed"):
            os.kill(bot.worker.pid, signal.SIGSTOP)
            done["bot hung"] = bot.worker.pid
        analysed_at.setdefault(coach.analysed, reveals)

    async def main():
        tasks = [asyncio.create_task(bot.run()), asyncio.create_task(coach.run())]
        try:
            table.start("referee", seed=11, meta=practice_meta("b", "strong", ["a", "b"]))
            s = table.session
            for _ in range(20000):
                if s.winner is not None:
                    break
                reveals = sum(1 for e in s.log_tail(1 << 30) if e.get("e") == "reveal")
                faults(reveals)
                req = next((r for r in s.engine_state.pending if r["player"] == "a" and r["kind"] != "setup"), None)
                if req is not None and not (req["kind"] == "ready" and coach.thinking):
                    kind, value = human.answer(s.engine_state, req)
                    if kind == "timeout":
                        kind, value = "ready", req["options"][0]
                    try:
                        table.submit("a", kind, value, source="pod")
                    except (SessionError, IllegalDecision):
                        pass                # the bot's answer changed the question meanwhile
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the game did not end: %s" % done)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    asyncio.run(main())
    assert table.session.winner is not None
    assert set(done) == {"coach hung", "bot killed", "bot hung"}, done
    assert coach.worker.overdue >= 1 and coach.worker.started >= 2, "the hung coach was restarted"
    # the killed process is restarted (by the next job if it was killed between jobs, with the
    # greedy answer if a job was in flight: which one depends on the moment, so it is not counted);
    # the stopped one always holds the next job past its deadline: at least that answer is greedy
    assert bot.worker.started >= 3 and bot.fallbacks >= 1, (bot.worker.started, bot.fallbacks)
    after = [n for n, at in analysed_at.items() if at > 2]
    assert after and max(after) > min(after), "the coach explained battles after its restart: %s" % analysed_at
    print("whole game: bot %d answers (%d greedy), bot process started %d times (%d past a deadline), coach %d "
          "analyses, process started %d times (%d past a deadline)" % (
              bot.submitted, bot.fallbacks, bot.worker.started, bot.worker.overdue, coach.analysed,
              coach.worker.started, coach.worker.overdue))
