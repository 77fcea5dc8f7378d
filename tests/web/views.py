"""One table per mode, each in a state a player meets mid-game, for the layout checks
(tests/web/test_layouts_browser.py) and the screenshots of docs/display.md
(tests/web/screenshots.py). Each ``VIEWS`` entry is ``fn(table)``, run on the server's loop
(``handle.call``): it starts a game of that mode and plays it to a busy moment the way pods
and a judge would (no state is written by hand)."""

from engine.bots import Bot
from hub.bot.meta import practice_meta


def tracker(table):
    """울프 against 타오, turn 4: health, FP, tokens, a hand count, names, a long log, and 1P's
    ready locked with 2P's 10 seconds running."""
    table.start_tracker("wolf", "tao", seed=3, priority="a", names={"a": "김서린", "b": "Alexander Hamilton"})

    def act(**c):
        table.submit(c.get("seat", "a"), "action", c, source="judge")
    for turn in range(3):
        act(action="adjust_health", seat="b", delta=-300 - 100 * turn)
        act(action="adjust_fp", seat="a", delta=2)
        act(action="token", seat="a", name=None, delta=1)
        act(action="adjust_health", seat="a", delta=-200)
        act(action="token", seat="b", name="양", delta=1)
        act(action="next_turn")
    act(action="set_hand_count", seat="b", count=6)
    table.submit("a", "ready", True, source="pod")
    table.timer_action("round_start")


def referee(table, seed=5, turn=5):
    """A referee game at turn ``turn`` (bots play as the pods), 1P's hidden ready locked. With
    the hub's coach on the table (hub/bot/coach.py) both seats are coached: after each reveal
    it analyses the readies in its own process, as for a learner's practice game."""
    meta = practice_meta(coach=["a", "b"]) if getattr(table, "coach", None) is not None else None
    for seed in range(seed, seed + 20):
        table.start_referee(seed=seed, names={"a": "김서린", "b": "Alex"}, meta=meta)
        bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}
        while table.session.state.winner is None:
            st = table.session.state
            req = st.pending[0]
            if req["kind"] == "ready" and st.turn >= turn and len(st.pending) == 2:
                req = next(r for r in st.pending if r["player"] == "a")
                table.submit("a", "ready", bots["a"].answer(st, req)[1], source="pod")
                table.timer_action("round_start")
                return
            table.submit(req["player"], *bots[req["player"]].answer(st, req), source="pod")
    raise AssertionError("no sample game reached turn %d" % turn)


def battlecon(table):
    """BattleCON with the sample cards, beat 3: two beats played (the piles filled), the third's
    pairs revealed, 2P leads; life entered."""
    table.start("profile", "haneul", "bada", profile="battlecon", seed=7, priority="a",
                names={"a": "민지", "b": "Alex"})

    def pod(seat, kind, value):
        table.submit(seat, kind, value, source="pod")

    def beat(a, b):
        for c in a:
            pod("a", "ready", c)
        for c in b:
            pod("b", "ready", c)
        while table.session.game.st["phase"] == "ante":
            pod(table.session.game.st["ante"]["turn"], "ante", "pass")
    beat(("haneul-flame", "hold"), ("bada-tide", "charge"))
    table.submit("a", "action", {"action": "adjust", "seat": "b", "counter": "life", "delta": -3}, source="judge")
    pod("a", "end_turn", "done")
    pod("b", "end_turn", "done")
    beat(("haneul-mirror", "step"), ("bada-reef", "blast"))
    table.submit("a", "action", {"action": "adjust", "seat": "a", "counter": "life", "delta": -4}, source="judge")
    pod("a", "end_turn", "done")
    pod("b", "end_turn", "done")
    beat(("haneul-dawn", "charge"), ("bada-squall", "hold"))


def yojeong(table, players=2):
    """요정전승, a few turns in: life and cost entered, the turn going round."""
    table.start("profile", profile="yojeong", players=players, seed=2, priority="a",
                names={s: n for s, n in zip("abcd", ("하늘", "Bada", "구름", "Sora"))})
    seats = "abcd"[:players]
    for i in range(5):
        s = seats[i % players]
        table.submit(s, "action", {"action": "adjust", "seat": s, "counter": "cost", "delta": -3 - i % 3},
                     source="judge")
        o = seats[(i + 1) % players]
        table.submit(s, "action", {"action": "adjust", "seat": o, "counter": "life", "delta": -2 - i % 2},
                     source="judge")
        table.submit(s, "action", {"action": "next_turn"}, source="judge")


def yojeong4(table):
    yojeong(table, players=4)


def gundam(table):
    """The Gundam card game, turn 5: shields, resources, EX resources and the deck entered."""
    table.start("profile", profile="gundam", seed=4, priority="a", names={"a": "Amuro", "b": "샤아"})
    for i in range(4):
        s = "ab"[i % 2]
        o = "ab"[(i + 1) % 2]
        table.submit(s, "action", {"action": "adjust", "seat": s, "counter": "resources", "delta": 1}, source="judge")
        table.submit(s, "action", {"action": "adjust", "seat": s, "counter": "deck", "delta": -1}, source="judge")
        table.submit(s, "action", {"action": "adjust", "seat": o, "counter": "shields", "delta": -1}, source="judge")
        table.submit(s, "action", {"action": "next_turn"}, source="judge")


VIEWS = {"tracker": tracker, "referee": referee, "battlecon": battlecon, "yojeong": yojeong, "yojeong4": yojeong4,
         "gundam": gundam}
