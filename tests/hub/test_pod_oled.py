"""Issue 20: a pod with an OLED, at a real table. The hub renders each option's name with
Noto Sans CJK into strips (hub/pods/glyphs.py), sends them to that seat's pod only
(protocol extension 1), and the pod's simulated SSD1306 shows the name of the card under
its cursor; a whole game plays on such pods. Readies carry the age of their first edge."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from hub.pods import glyphs, podext
from hub.pods import sim as podsim
from tests.hub import rig as rigmod

PICO2 = Path(__file__).resolve().parents[2] / "hardware" / "pinmaps" / "pico2.json"  # 16 px, OLED 128x32


@pytest.fixture
def oled_rig(tmp_path, monkeypatch):
    try:
        glyphs.font_path()
    except glyphs.GlyphError as e:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(str(e))
    monkeypatch.setattr(rigmod, "SimPod", functools.partial(podsim.SimPod, pinmap=PICO2))
    rig = rigmod.Rig(str(tmp_path / "oled.sqlite3"), seed=5)
    yield rig
    rig.close()


def test_the_pod_screen_names_the_card_under_the_cursor_and_a_game_plays(oled_rig):
    rig = oled_rig
    seen = {}

    async def go(rig):
        await rig.seat_both()
        rig.table.start_referee(seed=5, priority="a")
        s = rig.table.session
        await rig.wait(lambda: rig.hub.prompts["a"].kind == "ready" and rig.hub.prompts["a"].options, 20,
                       "a ready prompt")
        pr = rig.hub.prompts["a"]
        name = s.state.cards[pr.options[0]].name
        w, data = glyphs.render(name)
        want = glyphs.to_rows(w, data)
        sim = rig.sims["a"]
        await rig.wait(lambda: [r[:w] for r in (sim.screen() or [])[:16]] == want, 20,
                       f"the first card's name {name!r} on pod a's screen")
        seen["name"] = name
        seen["features"] = rig.hub.seated("a").link.pod.features
        await rig.play_referee()

    rig.run(go)
    assert seen["features"] & 1 and seen["features"] & 32  # an OLED, and extension 1
    assert rig.table.session.state.winner in ("a", "b", "draw")
    assert not any("오류" in line or "error" in line for line in rig.lines), rig.lines[-5:]


def test_names_go_to_the_seats_own_pod_only(oled_rig):
    rig = oled_rig
    strips = {"a": [], "b": []}

    async def go(rig):
        await rig.seat_both()
        for seat in ("a", "b"):
            link = rig.hub.seated(seat).link
            orig = link.send_fields

            def spy(msg_type, now_ms, fields, text="", seat=seat, orig=orig):
                if msg_type == "strip":
                    strips[seat].append((fields["prompt"], fields["slot"]))
                return orig(msg_type, now_ms, fields, text)
            link.send_fields = spy
        rig.table.start_referee(seed=5, priority="a")
        await rig.wait(lambda: strips["a"] and strips["b"], 20, "strips to both pods")

    rig.run(go)
    # each pod got the names of its own prompt: the prompt ids are its own seat's
    assert {p for p, _ in strips["a"]} <= {rig.hub.prompts["a"].id}
    assert {p for p, _ in strips["b"]} <= {rig.hub.prompts["b"].id}


def _link(features):
    from hub.pods.channel import HubLink
    from hub.pods.protocol import Message, encode

    link = HubLink()
    link.feed(encode(Message("hello", {"proto": 1, "fw_major": 0, "fw_minor": 5, "fw_patch": 0, "boot": 9,
                                       "epoch": 1, "board_id": bytes(8), "pixels": 12, "features": features})), 0)
    link.welcome(0, seat=1, mode="referee")
    podext.greet(link, 0)
    link.take_output()
    return link


def _sent(link):
    from hub.pods.protocol import Decoder

    out = Decoder().feed(link.take_output())
    return out


def test_names_as_strips_to_an_extension_pod_and_as_labels_to_an_older_one() -> None:
    class Conn:
        pass

    old = _link(1 | 4)  # an OLED, no extension 1: label text, as before
    podext.send_names(Conn(), old, 0, 7, ["회전 차기"], None)
    assert [(m.type, m.text) for m in _sent(old)] == [("label", "회전 차기")]
    new = _link(1 | 4 | 32)
    c = Conn()
    podext.send_names(c, new, 0, 7, ["회전 차기"], "pass")
    got = _sent(new)
    w, data = glyphs.render("회전 차기")
    mine = [m for m in got if m["slot"] == 1]
    assert all(m.type == "strip" for m in got) and b"".join(m["data"] for m in mine) == data
    assert {m["slot"] for m in got} == {0, 1} and all(m["width"] == w for m in mine)
    podext.send_names(c, new, 1, 7, ["회전 차기"], "pass")  # the same prompt again: nothing
    assert _sent(new) == []
    none = _link(4 | 32)  # no OLED: no names at all
    podext.send_names(Conn(), none, 0, 7, ["회전 차기"], None)
    assert _sent(none) == []


def test_a_ready_at_counts_at_its_first_edge() -> None:
    from hub.pods.protocol import Message

    assert podext.choice_time(Message("ready_at", {"prompt": 1, "slot": 2, "age": 3}), 1000) == 997
    assert podext.choice_time(Message("ready", {"prompt": 1, "slot": 2}), 1000) == 1000
