"""A refused pin map on the emulated Pico (issue 33): the firmware's rules (firmware/pinmap.py)
refuse a /pinmap.json with READY on the ring's pin; the pod shows "pin map refused" on the
ring (alternate orange and white, read here from the decoded WS2812 frames), says which key
over its USB serial port, and never falls back to the default map (no hello: it does not play);
``lumen pod test`` passes on what it said. Before issue 33 the firmware took the map as it was,
or the default when it did not parse."""

from __future__ import annotations

import json

from hub.pods import podtest
from tests.rp2.test_podtest import EmuWire, SeenBuilder
from tests.rp2.test_seen import hues, oled_pinmap


def test_a_refused_pin_map_shows_its_pattern_and_names_the_key(rp2_pod) -> None:
    pm = json.loads(oled_pinmap())
    pm["buttons"]["ready"] = 16  # the ring's pin
    pod = rp2_pod(extra={"pinmap.json": json.dumps(pm).encode()})
    check = podtest.Check(EmuWire(pod), SeenBuilder(pod), hello_ms=2000)
    try:
        check.run()
    except podtest.NoPod as e:
        msg = str(e)
    else:
        raise AssertionError("the check ran on a pod with a refused map")
    assert "refused its pin map" in msg and "핀 맵을 거부" in msg, msg
    assert "buttons.ready: GP16 is already ring.pin" in msg, msg
    said = check.raw.decode(errors="replace")
    assert "pin map refused / 핀 맵 거부: buttons.ready" in said, said[-500:]
    assert b"\x00" not in check.raw  # plain text, no protocol frame: no hello, the pod does not play
    frames = [hues(img) for _, img in pod.images[-20:]]
    assert len(frames) == 20 and all(len(h) == 12 for h in frames)
    for h in frames:
        assert h[0::2] == ["white"] * 6 and h[1::2] == ["orange"] * 6, h
