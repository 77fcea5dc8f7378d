"""Both players confirm a tournament result on their pods: the real pod firmware (under the
MicroPython unix port, over pseudo-terminals) shows the hub's one-option question and answers
it with READY; the TD records the result confirmed by a and b."""

import os

import pytest

from hub.tournament.bridge import Bridge
from hub.tournament.broker import make_url
from hub.tournament.tablelink import TableLink
from hub.tournament.td import TD

pytest.importorskip("hub.pods.sim")
from tests.hub.rig import Rig  # noqa: E402


def test_players_confirm_the_result_on_their_pods(broker, event_dir, tmp_path):
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    td.pair_next()
    td.start_round()
    rig = Rig(str(tmp_path / "games.sqlite3"), mode="tracker")
    link = TableLink(make_url("127.0.0.1", broker.port, "table-1", creds["table-1"]), "cup", 1,
                     str(tmp_path / "outbox.sqlite3")).start()
    rig.table.name = "table-1"
    bridge = Bridge(rig.table, link, lambda t, m, n: t.start_tracker())
    rig.hub.side = bridge

    def tick():
        bridge.tick()
        with rig.hub.lock:
            rig.hub.push("a")
            rig.hub.push("b")
        if rig.hub.links.running:
            rig.hub.links.wake()

    async def play(r):
        await r.seat_both()
        await r.wait(lambda: (tick(), bridge.game_id is not None)[1], 60, "the match's game")
        r.table.submit("b", "action", {"action": "set_health", "seat": "b", "health": 0}, source="display")
        await r.wait(lambda: (tick(), link.slip is not None)[1], 60, "the result slip")
        for seat in ("a", "b"):
            await r.wait(lambda: (tick(), r.hub.prompts[seat].request_kind == "side"
                                  and r.hub.seated(seat).link.unacked == 0)[1], 60, "the question on pod %s" % seat)
            await r.players[seat].press(["ready"])
            await r.wait(lambda: (tick(), link.slip is None or seat in link.slip.confirmed)[1], 60,
                         "pod %s's confirmation" % seat)
        await r.wait(lambda: (tick(), not link.pending() and bool(link.outbox.results()))[1], 60, "the ack")

    try:
        rig.run(play)
        res = td.event.current()["results"][1]
        assert res["confirmed_by"] == ["a", "b"] and (res["a_wins"], res["b_wins"]) == (1, 0)
        # answered: neither pod is asked any more
        assert bridge.question("a") is None and bridge.question("b") is None
    finally:
        link.stop()
        rig.close()
        td.stop()
