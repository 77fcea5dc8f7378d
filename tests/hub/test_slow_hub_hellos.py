"""A hub too slow to read its ports at first (a Pi Zero starting under load; the hub under
callgrind in bench/hub_counts.py) finds several hellos of one pod waiting at once. Each is
the same handshake (same boot, same epoch): the first is welcomed, the rest are repeats. The
hub used to welcome a held-back repeat again half a second later and restart its numbering
while the pod, already up, ignored that welcome and went on with its own: each side then
dropped the other's frames as repeats, the pod never showed the game's first ready and its
presses never reached the session (protocol: docs/protocol.md, hello/welcome)."""

from hub.pods.hello_gate import HELLO_BURST
from hub.pods.ports import SimPort
from hub.pods.protocol import Decoder

from tests.hub.rig import Rig

PILED = HELLO_BURST + 2      # past the burst the hub hears at once: one is held back and heard later


class SlowToRead(SimPort):
    """The real simulated pod on its pty; the hub's reads see nothing until the pod has said
    ``PILED`` hellos, then all of them at once, as a hub that was busy finds its port."""

    def __init__(self, pod):
        super().__init__(pod)
        self.held = b""
        self.released = False
        self.hellos = 0

    def read(self):
        data = super().read()
        if self.released:
            return data
        self.held += data
        self.hellos = sum(1 for m in Decoder().feed(self.held) if m.type == "hello")
        if self.hellos < PILED:
            return b""
        self.released = True
        out, self.held = self.held, b""
        return out


def test_hellos_that_piled_up_are_one_handshake_and_the_game_plays(tmp_path):
    rig = Rig(str(tmp_path / "slow.sqlite3"), seed=5, port_factory=lambda pod, seat: SlowToRead(pod))
    try:
        async def go(rig):
            await rig.seat_both()
            rig.table.start_referee(seed=5)
            await rig.play_referee()
        rig.run(go)
        assert rig.table.session.state.winner is not None
        for seat in "ab":
            port = rig.ports[seat]
            assert port.released and port.hellos >= PILED
            c = rig.hub.seated(seat)
            assert c.hellos_held >= 1, "the hub held one back (the path that restarted the link)"
            # every decision the session took from this seat came from its pod's presses
        inputs = [r for r in rig.table.store.records(rig.table.session.game_id) if r.kind == "input"]
        assert {r.seat for r in inputs if r.body.get("source", "pod") == "pod"} == {"a", "b"}
    finally:
        rig.close()
