"""The pods take the table's changes whole (issue 36): one change set a decision, each seat's
frames for it once, and a judgment's result as its reveal (docs/protocol.md section 3). A whole
referee game by button presses on two pods running the real firmware under MicroPython."""

from collections import Counter

from .rig import needs_micropython, Rig

pytestmark = needs_micropython


def test_each_change_reaches_each_pod_once_and_a_result_is_its_reveal(tmp_path):
    rig = Rig(str(tmp_path / "g.sqlite3"), seed=5)
    per_change = []                 # (the change's happenings, {seat: [frame types]})
    current = []                    # the frames of the change being delivered (empty: outside one)

    def spy(seat, link):
        send = link.send_fields

        def sending(msg_type, t, fields, text=""):
            if current:
                current[-1][seat].append(msg_type)
            return send(msg_type, t, fields, text)
        link.send_fields = sending

    listeners = rig.table.change_listeners
    i = listeners.index(rig.hub._on_change)
    pods_take = listeners[i]

    def on_change(change):          # the pods' own listener, its frames told apart by change
        current.append({"a": [], "b": []})
        try:
            pods_take(change)
        finally:
            per_change.append((change.happenings, current.pop()))
    listeners[i] = on_change
    try:
        async def go(rig):
            await rig.seat_both()
            for seat in "ab":
                spy(seat, rig.hub.seated(seat).link)
            rig.table.start_referee(seed=5)
            await rig.play_referee()
        rig.run(go)
        assert rig.table.session.state.winner is not None
    finally:
        rig.close()
    judged = [(h, frames) for h, frames in per_change if any(x[0] == "result" for x in h)]
    assert len(judged) >= 3, "a whole game judges battles"
    for happenings, frames in judged:
        for seat in "ab":
            # guide 4.4: both pods hear their own outcome; the result frame is the reveal too
            assert frames[seat].count("result") == 1 and "reveal" not in frames[seat], (happenings, frames)
    for happenings, frames in per_change:
        for seat in "ab":
            assert Counter(frames[seat])["state"] <= 1, (happenings, frames)      # one state frame a change at most
    revealed_alone = [frames for h, frames in per_change if ("reveal",) in h and not any(x[0] == "result" for x in h)]
    for frames in revealed_alone:       # a reveal before the battle's own decisions: still said
        assert all(frames[seat].count("reveal") == 1 for seat in "ab"), frames
