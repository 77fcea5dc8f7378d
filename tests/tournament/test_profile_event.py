"""A tournament of another game (issue 27 item 5): a BattleCON event takes its match settings
from the profile (best of 3 duels, the round clock's 45 minutes), the room names the profile,
a table joining it starts each duel as a BattleCON game, and the bridge counts the duels: two
wins take the match, which the TD records and the standings count like any other."""

import os
from types import SimpleNamespace

from hub.cli.hub import new_game
from hub.record.store import Store
from hub.sessions.table import Table
from hub.tournament import broker as brk
from hub.tournament.bridge import Bridge
from hub.tournament.broker import make_url
from hub.tournament.event import Event, EventError
from hub.tournament.eventdir import new_event
from hub.tournament.record import EventRecord
from hub.tournament.tablelink import TableLink
from hub.tournament.td import TD
from tests.tournament.conftest import need_mosquitto, players, wait_for


def test_a_battlecon_event_takes_the_profiles_match_and_counts_duels(tmp_path):
    need_mosquitto()
    folder = str(tmp_path / "duel")
    creds = new_event(folder, "duel", players(4), rounds=1, seed=3, profile="battlecon")
    body = EventRecord(os.path.join(folder, "event.sqlite")).records()[0]["body"]
    assert (body["profile"], body["best_of"], body["round_minutes"]) == ("battlecon", 3, 45)
    b = brk.LocalBroker(os.path.join(folder, "broker"), {k: v for k, v in creds.items() if k != "admin_token"})
    b.start()
    td = TD(os.path.join(folder, "event.sqlite"), b.url("td")).start()
    store = Store(str(tmp_path / "games.sqlite3"))
    table = Table(store, name="table-1")
    link = TableLink(make_url("127.0.0.1", b.port, "table-1", creds["table-1"]), "duel", 1,
                     str(tmp_path / "outbox.sqlite3")).start()
    args = SimpleNamespace(mode="tracker", characters=None, decks=None)
    bridge = Bridge(table, link, lambda t, m, n: new_game(t, args, profile=(link.room or {}).get("profile")),
                    auto_confirm=True)
    try:
        td.pair_next()
        td.start_round()

        def duel():
            wait_for(lambda: (bridge.tick(), table.session is not None and table.session.mode == "profile"
                              and table.session.winner is None and table.session.game_id in bridge.started)[1],
                     60, "a duel on the table")
            return table.session
        played = []
        for loser in ("b", "a", "b"):
            s = duel()
            assert s.profile.id == "battlecon" and s.game_id not in played
            played.append(s.game_id)
            table.submit(None, "action", {"action": "adjust", "seat": loser, "counter": "life", "delta": -20},
                         source="display")
            wait_for(lambda: (bridge.tick(), s.game_id in bridge.counted)[1], 60, "the duel counted")
        assert bridge.games == ["a", "b", "a"] and bridge.done
        assert table.timer.duration_ms == 45 * 60_000          # the TD's 45-minute round on the table's clock
        res = wait_for(lambda: (bridge.tick(), td.event.current()["results"].get(1))[1], 60, "the TD's result")
        assert (res["a_wins"], res["b_wins"], res["draws"]) == (2, 1, 0)
        assert res["detail"]["mode"] == "profile"
        row = next(r for r in td.event.standings() if r["player"] == td.event.current()["pairings"][0]["a"])
        assert row["points"] == 3
    finally:
        link.stop()
        store.close()
        td.stop()
        b.kill()


def test_an_event_names_a_known_profile():
    ev = Event()
    body = {"name": "x", "rounds": 1, "round_minutes": 30, "best_of": 3, "seed": 1, "cut": 0, "extra_turns": 0,
            "players": players(2), "profile": "chess"}
    try:
        ev.apply("event", body)
    except EventError as e:
        assert "profile must be one of" in str(e)
    else:
        raise AssertionError("an unknown profile was accepted")
    ev.apply("event", dict(body, profile="yojeong"))
    assert ev.settings["profile"] == "yojeong"
    old = Event()
    old.apply("event", {k: v for k, v in body.items() if k != "profile"})
    assert old.settings["profile"] == "lumen"                 # an event made before profiles: Lumen Condenser
