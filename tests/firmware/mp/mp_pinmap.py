# Pin maps under MicroPython (issue 33): the pod's own copy of the rules
# (firmware/pinmap.py, via board.load_pinmap) refuses every bad map of
# tests/vectors/pinmaps.json naming its key, takes the good ones; a broken
# pinmap.json is never replaced by the default; the refusal's ring pattern.
import json
import os
import board
import ring
import neopixel
import machine
import refused
from mptest import run_tests

V = json.load(open(os.getenv("LUMEN_VECTORS").replace("protocol.json", "pinmaps.json")))
TMP = "/tmp/lumen-mp-pinmap-%s.json" % os.urandom(4).hex()


def load(text, board_name):
    with open(TMP, "w") as f:
        f.write(text)
    b = board.this_board
    board.this_board = lambda: board_name  # the unix port is no board: as a Pico / Pico 2 would
    try:
        return board.load_pinmap(TMP)
    finally:
        board.this_board = b
        os.remove(TMP)


def test_every_bad_map_is_refused_naming_its_key():
    for c in V["bad"]:
        pm, errors = load(c["text"], c["board"])
        assert c["key"] in [k for k, _ in errors], (c["name"], errors)


def test_the_good_maps_are_taken():
    for c in V["good"]:
        pm, errors = load(c["text"], c["board"])
        assert errors == [] and pm == json.loads(c["text"]), (c["name"], errors)


def test_a_broken_file_is_not_replaced_by_the_default():
    pm, errors = load('{"board": "pico", "ring": ', "pico")
    assert pm is None and errors and errors[0][0] == "", errors
    pm, errors = board.load_pinmap("/nonexistent/pinmap.json")  # no file at all: the built-in map
    assert errors == [] and pm == json.loads(board.DEFAULT)


def test_the_rules_leave_the_heap():
    import sys
    load(V["good"][0]["text"], "pico")
    assert "pinmap" not in sys.modules


def test_refused_is_its_own_pattern():
    # alternate orange and white on every pixel, breathing, not the link's sky blue
    np = neopixel.NeoPixel(machine.Pin(16, machine.Pin.OUT), 12)
    r = ring.Ring(np, {"pixels": 12})
    seen = set()
    for now in range(0, 2000, 100):
        r.clear()
        refused.draw(r, now)
        img = bytes(r.img)
        px = [img[i] << 16 | img[i + 1] << 8 | img[i + 2] for i in range(0, 36, 3)]
        assert all(p for p in px), px
        # even pixels white (r = g = b), odd ones orange (r > g > b)
        assert all(img[3 * i] == img[3 * i + 2] for i in range(0, 12, 2))
        assert all(img[3 * i] > img[3 * i + 1] > img[3 * i + 2] for i in range(1, 12, 2))
        seen.add(img[0])
    assert len(seen) > 3  # it breathes


run_tests(globals())
