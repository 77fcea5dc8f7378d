"""Writes tests/vectors/protocol.json from hub/pods/protocol.py.

Run it only when the protocol changes on purpose, then read the diff: the
file is the contract both implementations are tested against (the pod's
MicroPython code in tests/firmware, the hub's CPython code in
tests/firmware/test_protocol.py). Known-answer checks that do not come from
our code (CRC check value, COBS examples from the COBS paper/Wikipedia) are
written in by hand below.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hub.pods.protocol import SCHEMA, Message, cobs_decode, encode  # noqa: E402

BOARD = bytes.fromhex("e6605838834b2a26")

MESSAGES = [
    ("pod heartbeat", Message("ping", {}, 0, 3)),
    ("hub heartbeat acking nothing", Message("ping", {}, 0, 0)),
    ("pod hello after boot", Message("hello", {"proto": 1, "fw_major": 0, "fw_minor": 4, "fw_patch": 0,
                                               "boot": 0x1234, "epoch": 1, "board_id": BOARD, "pixels": 12,
                                               "features": 14})),
    ("pod hello after a lost link (epoch 2)", Message("hello", {"proto": 1, "fw_major": 0, "fw_minor": 4,
                                                                "fw_patch": 0, "boot": 0xBEEF, "epoch": 2,
                                                                "board_id": BOARD, "pixels": 16, "features": 15})),
    ("ready locked on slot 3", Message("ready", {"prompt": 7, "slot": 3}, 1, 2)),
    ("bare ready (tracker mode)", Message("ready", {"prompt": 1, "slot": 0}, 5, 4)),
    ("prompt answer: pass", Message("answer", {"prompt": 9, "slot": 0}, 2, 6)),
    ("prompt answer: option 12", Message("answer", {"prompt": 200, "slot": 12}, 255, 255)),
    ("countdown expired", Message("expired", {"prompt": 7}, 3, 9)),
    ("tracker HP -500", Message("adjust", {"what": 0, "value": -500}, 4, 0)),
    ("tracker FP +2", Message("adjust", {"what": 1, "value": 2}, 6, 0)),
    ("tracker FP to zero", Message("adjust", {"what": 2, "value": 0}, 7, 0)),
    ("seat claim", Message("claim", {}, 1, 0)),
    ("pod log", Message("log", {"code": 1}, 0, 5, "ValueError bad slot")),
    ("welcome 1P referee", Message("welcome", {"proto": 1, "boot": 0x1234, "epoch": 1, "seat": 1, "mode": 1,
                                               "brightness": 0})),
    ("welcome 2P tracker bright", Message("welcome", {"proto": 1, "boot": 0xBEEF, "epoch": 2, "seat": 2,
                                                      "mode": 2, "brightness": 200})),
    ("state: ready prompt, 5 cards", Message("state", {"prompt": 7, "kind": 1, "options": 5, "flags": 0,
                                                       "locked": 0, "priority": 1, "fp": 2, "hp": 5000,
                                                       "hand": 5}, 1, 0)),
    ("state: locked slot 3 (resume)", Message("state", {"prompt": 7, "kind": 1, "options": 5, "flags": 2,
                                                        "locked": 3, "priority": 2, "fp": -3, "hp": 3200,
                                                        "hand": 5}, 2, 1)),
    ("state: catch prompt with pass", Message("state", {"prompt": 8, "kind": 5, "options": 2, "flags": 1,
                                                        "locked": 0, "priority": 1, "fp": -128, "hp": 65535,
                                                        "hand": 9}, 3, 1)),
    ("state: idle", Message("state", {"prompt": 0, "kind": 0, "options": 0, "flags": 0, "locked": 0,
                                      "priority": 0, "fp": 0, "hp": 0, "hand": 0}, 4, 1)),
    ("opponent readied: 10 s", Message("countdown", {"prompt": 7, "ms": 10000}, 5, 1)),
    ("countdown cancel", Message("countdown", {"prompt": 7, "ms": 0}, 6, 1)),
    ("reveal", Message("reveal", {"prompt": 7}, 7, 2)),
    ("result counter", Message("result", {"outcome": 2, "fp_delta": 3, "hp_delta": 0}, 8, 2)),
    ("result was_hit", Message("result", {"outcome": 8, "fp_delta": -2, "hp_delta": -700}, 9, 2)),
    ("notice opponent link lost", Message("notice", {"code": 1, "arg": 0}, 10, 2)),
    ("setup seat 2 tracker", Message("setup", {"seat": 2, "mode": 2, "brightness": 64}, 11, 2)),
    ("label for slot 2", Message("label", {"prompt": 7, "slot": 2}, 12, 2, "spin-kick")),
    ("service (free the REPL)", Message("service", {"magic": 0x5AFE}, 0, 0)),
    ("seq wraps 255 -> 1", Message("reveal", {"prompt": 1}, 1, 255)),
    # extension 1 (docs/protocol.md section 11)
    ("ext 1: pod hello with an OLED of 64 rows", Message("hello", {"proto": 1, "fw_major": 0, "fw_minor": 5,
                                                                 "fw_patch": 0, "boot": 0x1234, "epoch": 1,
                                                                 "board_id": BOARD, "pixels": 12,
                                                                 "features": 1 | 2 | 4 | 16 | 32})),
    ("ext 1: ready pressed 2 ms before its frame", Message("ready_at", {"prompt": 7, "slot": 3, "age": 2}, 1, 2)),
    ("ext 1: self-test: NEXT works", Message("test", {"part": 6, "result": 1, "value": 0}, 3, 4)),
    ("ext 1: self-test: no OLED answers", Message("test", {"part": 4, "result": 3, "value": 0}, 4, 4)),
    ("ext 1: the hub speaks extension 1", Message("ext", {"version": 1}, 1, 0)),
    ("ext 1: start the self-test", Message("selftest", {"action": 1}, 2, 0)),
    ("ext 1: stop the self-test", Message("selftest", {"action": 0}, 3, 0)),
]
STRIP_TEXTS = ("회전 차기", "패스 pass")


def strip_vectors() -> tuple[list, list]:
    """Each name's strip as hub/pods/glyphs.py renders it, and its frames."""
    from hub.pods.glyphs import render, strip_messages, to_rows

    strips, msgs = [], []
    for slot, text in enumerate(STRIP_TEXTS, 1):
        w, data = render(text)
        strips.append({"text": text, "prompt": 7, "slot": slot, "width": w, "data": data.hex(),
                       "rows": to_rows(w, data)})
        for k, f in enumerate(strip_messages(7, slot, text)):
            msgs.append((f"ext 1: strip of {text!r}, part {k}", Message("strip", f, 20 + len(msgs), 0)))
    return strips, msgs


def main() -> None:
    frames = []
    strips, strip_msgs = strip_vectors()
    for name, msg in MESSAGES + strip_msgs:
        wire = encode(msg)
        body = cobs_decode(wire[1:-1])
        frames.append({
            "name": name,
            "dir": "pod->hub" if msg.type in ("ping", "hello", "ready", "answer", "expired", "adjust", "claim",
                                             "log", "ready_at", "test") and not name.startswith("hub") else "hub->pod",
            "message": msg.to_json(),
            "fields": list(SCHEMA[msg.type][2]),
            "body": body[:-2].hex(),
            "crc": body[-2:].hex(),
            "wire": wire.hex(),
        })
    ready = bytes.fromhex(frames[4]["wire"])
    state = bytes.fromhex(frames[16]["wire"])
    bad_crc = bytearray(ready)
    bad_crc[-3] ^= 0x01
    streams = [
        {"name": "garbage and a REPL print before a frame",
         "wire": (b"\x03\x03\r\nMicroPython v1.24 on rp2\r\n>>> print('hi')\r\nhi\r\n" + ready).hex(),
         "frames": [frames[4]["body"]], "errors": 1},
        {"name": "a cut frame, then a good one",
         "wire": (ready[:6] + state).hex(), "frames": [frames[16]["body"]], "errors": 1},
        {"name": "a corrupted CRC, then a good one",
         "wire": (bytes(bad_crc) + ready).hex(), "frames": [frames[4]["body"]], "errors": 1},
        {"name": "back-to-back frames share nothing", "wire": (ready + state + ready).hex(),
         "frames": [frames[4]["body"], frames[16]["body"], frames[4]["body"]], "errors": 0},
        {"name": "an overlong run without 00 is dropped",
         "wire": (b"\x01" * 300 + b"\x00" + ready).hex(), "frames": [frames[4]["body"]], "errors": 1},
        {"name": "a lone 0x03 between frames (a bad frame of its own)", "wire": (ready + b"\x03" + state).hex(),
         "frames": [frames[4]["body"], frames[16]["body"]], "errors": 1},
        {"name": "wrong payload length for the type (good CRC)",
         "wire": encode_raw(bytes.fromhex("020102070304")).hex() + ready.hex(),
         "frames": [frames[4]["body"]], "errors": 1},
        {"name": "sequenced type with seq 0 is malformed",
         "wire": encode_raw(bytes.fromhex("0200000703")).hex() + ready.hex(),
         "frames": [frames[4]["body"]], "errors": 1},
        {"name": "unknown type from a newer peer passes the deframer",
         "wire": encode_raw(bytes.fromhex("3a0400aabbcc")).hex(),
         "frames": ["3a0400aabbcc"], "errors": 0},
    ]
    doc = {
        "about": "Pod <-> hub wire protocol test vectors (docs/protocol.md). Generated by make_protocol.py; "
                 "checked by the pod (MicroPython) and the hub (CPython).",
        "protocol": 1,
        "extension": 1,
        "crc": {"name": "CRC-16/CCITT-FALSE", "check": [{"data": "313233343536373839", "crc": "29b1"},
                                                          {"data": "", "crc": "ffff"}]},
        "cobs": [
            {"raw": "00", "enc": "0101"},
            {"raw": "0000", "enc": "010101"},
            {"raw": "11220033", "enc": "03112202 33"},
            {"raw": "11223344", "enc": "0511223344"},
            {"raw": "11000000", "enc": "0211010101"},
            {"raw": "01" * 254, "enc": "ff" + "01" * 254 + "01"},
        ],
        "frames": frames,
        "streams": streams,
        "strips": strips,
    }
    for c in doc["cobs"]:
        c["enc"] = c["enc"].replace(" ", "")
    out = Path(__file__).with_name("protocol.json")
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {out} ({len(frames)} frames, {len(streams)} streams)")


def encode_raw(body: bytes) -> bytes:
    from hub.pods.protocol import cobs_encode, crc16

    body = body + crc16(body).to_bytes(2, "big")
    return b"\x00" + cobs_encode(body) + b"\x00"


if __name__ == "__main__":
    main()
