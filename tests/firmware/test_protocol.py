"""The hub's CPython implementation (hub/pods/protocol.py) against the shared
vectors, plus properties and the HubLink's reliability rules."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.pods import protocol as P
from hub.pods.channel import HubLink

VECTORS = json.loads((Path(__file__).resolve().parents[1] / "vectors" / "protocol.json").read_text())


def test_crc_and_cobs_known_answers() -> None:
    for c in VECTORS["crc"]["check"]:
        assert P.crc16(bytes.fromhex(c["data"])) == int(c["crc"], 16)
    for c in VECTORS["cobs"]:
        assert P.cobs_encode(bytes.fromhex(c["raw"])).hex() == c["enc"]
        assert P.cobs_decode(bytes.fromhex(c["enc"])).hex() == c["raw"]


def test_vectors_encode_and_decode() -> None:
    for f in VECTORS["frames"]:
        msg = P.Message.from_json(f["message"])
        assert P.encode(msg).hex() == f["wire"], f["name"]
        got = P.Decoder().feed(bytes.fromhex(f["wire"]))
        assert [m.to_json() for m in got] == [f["message"]], f["name"]


def test_vector_streams_resync() -> None:
    for s in VECTORS["streams"]:
        d = P.Decoder()
        got = d.feed(bytes.fromhex(s["wire"]))
        bodies = []
        for m in got:
            raw = P.encode(m) if not m.type.startswith("unknown:") else None
            bodies.append(P.cobs_decode(raw[1:-1])[:-2].hex() if raw else None)
        want = [b if not b.startswith("3a") else None for b in s["frames"]]
        assert bodies == want, s["name"]
        assert d.errors == s["errors"], s["name"]


messages = st.one_of(
    st.builds(lambda p, s, q, a: P.Message("ready", {"prompt": p, "slot": s}, q, a),
              st.integers(0, 255), st.integers(0, 255), st.integers(1, 255), st.integers(0, 255)),
    st.builds(lambda w, v, q: P.Message("adjust", {"what": w, "value": v}, q, 0),
              st.integers(0, 2), st.integers(-32768, 32767), st.integers(1, 255)),
    st.builds(lambda v, q: P.Message("state", dict(zip(P.SCHEMA["state"][2], v)), q, 0),
              st.tuples(*[st.integers(0, 255)] * 6, st.integers(-128, 127), st.integers(0, 65535),
                        st.integers(0, 255)), st.integers(1, 255)),
    st.builds(lambda t: P.Message("label", {"prompt": 1, "slot": 2}, 3, 0, t), st.text(max_size=40)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(messages, min_size=1, max_size=6), st.binary(max_size=64), st.integers(1, 7))
def test_round_trip_through_garbage_and_chunking(msgs, garbage, chunk) -> None:
    wire = garbage + b"".join(P.encode(m) for m in msgs)
    d = P.Decoder()
    got = []
    for i in range(0, len(wire), chunk):
        got += d.feed(wire[i:i + chunk])
    # garbage may eat nothing of the frames after it: each starts with 00
    want = [P.encode(m) for m in msgs]
    assert [P.encode(m) for m in got[-len(msgs):]] == want


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_decoder_never_raises(data) -> None:
    P.Decoder().feed(data)


def _hello(boot=0x1234, epoch=1) -> bytes:
    return P.encode(P.Message("hello", {"proto": 1, "fw_major": 0, "fw_minor": 4, "fw_patch": 0, "boot": boot,
                                        "epoch": epoch, "board_id": bytes(8), "pixels": 12, "features": 0}))


def test_hub_link_handshake_ack_and_dedupe() -> None:
    link = HubLink()
    got = link.feed(_hello(), 0)
    assert got[0].type == "hello" and link.pod and link.pod.board_id == "00" * 8
    link.welcome(0, seat=1, mode="referee")
    out = link.take_output()
    assert P.Decoder().feed(out)[0].type == "welcome"
    ready = P.encode(P.Message("ready", {"prompt": 7, "slot": 3}, 1, 0))
    assert [m.type for m in link.feed(ready, 10)] == ["ready"]
    assert link.feed(ready, 20) == []  # a resend: applied once
    ack = P.Decoder().feed(link.poll(20))
    assert ack[-1].ack == 1


def test_hub_acks_a_pods_message_with_its_next_frame_or_a_ping_after_the_delay() -> None:
    link = HubLink()
    link.feed(_hello(), 0)
    link.welcome(0, seat=1, mode="referee")
    link.take_output()
    assert [m.type for m in link.feed(P.encode(P.Message("ready", {"prompt": 7, "slot": 3}, 1, 0)), 10)] == ["ready"]
    assert link.poll(10) == b""  # the table's answer will carry the ack
    assert link.next_due() == 10 + P.ACK_DELAY_MS
    link.send("state", 20, prompt=8, kind=1, options=3, flags=2, locked=3, priority=1, fp=0, hp=5000, hand=5)
    assert [(m.type, m.ack) for m in P.Decoder().feed(link.take_output())] == [("state", 1)]
    assert link.poll(10 + P.ACK_DELAY_MS) == b""  # acked already: no ping
    link.feed(P.encode(P.Message("answer", {"prompt": 8, "slot": 1}, 2, 1)), 100)
    assert link.poll(99 + P.ACK_DELAY_MS) == b""
    assert [(m.type, m.ack) for m in P.Decoder().feed(link.poll(100 + P.ACK_DELAY_MS))] == [("ping", 2)]
    assert P.ACK_DELAY_MS < 250  # well inside the pod's resend time (firmware/link.py _RESEND_MS)
    link.feed(P.encode(P.Message("answer", {"prompt": 8, "slot": 1}, 2, 1)), 200)  # a resend
    assert [(m.type, m.ack) for m in P.Decoder().feed(link.poll(200))] == [("ping", 2)]  # acked at once


def test_an_ack_drops_only_what_it_covers() -> None:
    link = HubLink()
    link.feed(_hello(), 0)
    link.welcome(0, seat=1, mode="referee")
    for n in range(3):
        link.send("reveal", 0, prompt=n + 1)
    link.take_output()
    link.feed(P.encode(P.Message("ping", {}, 0, 2)), 5)
    assert link.unacked == 1 and link.all_acked == 0
    link.feed(P.encode(P.Message("ping", {}, 0, 2)), 6)  # the same ack again
    assert link.unacked == 1
    link.feed(P.encode(P.Message("ping", {}, 0, 3)), 7)
    assert link.unacked == 0 and link.all_acked == 1


def test_what_waited_past_the_window_goes_out_when_an_ack_makes_room() -> None:
    # a run of strip frames (an OLED's names, extension 1) longer than the window of 8: the
    # ones past it go out on the ack that makes room, not a resend period later
    link = HubLink()
    link.feed(_hello(), 0)
    link.welcome(0, seat=1, mode="referee")
    link.take_output()
    for n in range(20):
        link.send_fields("strip", 0, {"prompt": 1, "slot": 1 + n // 4, "width": 64, "part": n % 4,
                                      "data": bytes(range(n, n + 32))})
    first = P.Decoder().feed(link.take_output())
    assert [m.seq for m in first] == list(range(1, 9))
    link.feed(P.encode(P.Message("ping", {}, 0, 3)), 5)
    assert [m.seq for m in P.Decoder().feed(link.take_output())] == [9, 10, 11]
    link.feed(P.encode(P.Message("ping", {}, 0, 11)), 6)
    got = P.Decoder().feed(link.take_output())
    assert [m.seq for m in got] == list(range(12, 20)) and got[0]["data"] == bytes(range(11, 43))
    assert link.resends == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(-128, 127), st.booleans()),
                max_size=4),
       st.binary(max_size=40), st.lists(st.integers(1, 30), max_size=8))
def test_a_stream_read_in_any_pieces_gives_the_same_messages(frames, garbage, cuts) -> None:
    # a read that is one whole frame takes the decoder's short way; split reads the general one
    wire = b"".join(P.frame(0, 0, ack, b"") if ping else
                    P.encode(P.Message("result", {"outcome": 1, "fp_delta": fp, "hp_delta": ack}, seq or 1, ack))
                    for seq, ack, fp, ping in frames) + garbage
    whole, pieces = P.Decoder(), P.Decoder()
    got = [m.to_json() for m in whole.feed(wire)]
    parts, i = [], 0
    for n in cuts + [len(wire)]:
        parts.append(wire[i:i + n])
        i += n
    assert [m.to_json() for part in parts for m in pieces.feed(part)] == got
    byte = P.Decoder()
    assert [m.to_json() for b in wire for m in byte.feed(bytes([b]))] == got
    assert whole.frames == pieces.frames == byte.frames and whole.errors == pieces.errors == byte.errors


def test_hub_link_resends_until_acked_and_notices_death() -> None:
    link = HubLink()
    link.feed(_hello(), 0)
    link.welcome(0, 1, "tracker")
    link.take_output()
    link.send("state", 0, prompt=1, kind=1, options=0, flags=0, locked=0, priority=1, fp=0, hp=5000, hand=5)
    link.take_output()
    resent = P.Decoder().feed(link.poll(P.RESEND_MS + 1))
    assert [m.type for m in resent][:1] == ["state"]
    link.feed(P.encode(P.Message("ping", {}, 0, 1)), 300)
    assert link.unacked == 0
    assert link.up
    link.poll(300 + P.DEAD_MS)
    assert not link.up


def test_repeated_hello_gets_the_same_welcome_without_a_reset() -> None:
    link = HubLink()
    link.feed(_hello(), 0)
    link.welcome(0, 2, "referee")
    link.take_output()
    link.send("reveal", 0, prompt=1)
    assert link.feed(_hello(), 5) == []  # crossed our welcome: same epoch
    assert link.unacked == 1
    assert "welcome" in [m.type for m in P.Decoder().feed(link.take_output())]
    assert [m.type for m in link.feed(_hello(epoch=2), 10)] == ["hello"]  # a new handshake


def test_encode_rejects_bad_messages() -> None:
    import pytest

    with pytest.raises(P.ProtocolError):
        P.encode(P.Message("ready", {"prompt": 1, "slot": 2}, 0, 0))  # sequenced needs seq
    with pytest.raises(P.ProtocolError):
        P.encode(P.Message("ready", {"prompt": 1}, 1, 0))
    with pytest.raises(P.ProtocolError):
        P.encode(P.Message("nope", {}, 0, 0))


def test_a_pod_at_the_repl_gets_a_soft_reset_now_and_then() -> None:
    link = HubLink()
    link.feed(b"Traceback (most recent call last):\r\nValueError: x\r\nMicroPython v1.22.2\r\n>", 0)
    assert link.poll(0) == b""
    link.feed(b">> ", 5)  # the prompt split over two reads
    assert link.poll(5) == P.REPL_RESET and link.repl_resets == 1
    link.feed(b"\r\n>>> ", 100)
    assert link.poll(100) == b""  # not again within REPL_RESET_MS
    for i in range(1, 5):
        link.feed(b">>> ", i * P.REPL_RESET_MS + 10)
    assert link.repl_resets == P.REPL_RESETS  # then it gives up: a firmware that crashes at once
    link.feed(_hello(), 30_000)  # a hello: the firmware runs again, tries start afresh
    link.welcome(30_000, 1, "referee")
    link.take_output()
    link.feed(b">>> ", 30_010)
    assert link.poll(30_010) != P.REPL_RESET  # while the link is up, text is just bad frames


def test_a_pod_in_safe_mode_is_not_reset() -> None:
    link = HubLink()
    link.feed(b"lumen pod: safe mode, REPL free (reset to run)\r\n", 0)
    link.feed(b"MicroPython v1.22.2\r\n>>> ", 1)
    assert link.poll(1) == b"" and link.repl_resets == 0


# The codec runs at C speed (bytes.split, binascii.crc_hqx); these are the byte-by-byte
# definitions it must keep matching on every input, not only on the shared vectors.

def _cobs_by_byte(data: bytes) -> bytes:
    out, block = bytearray(), bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(b)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def _crc_by_bit(data: bytes) -> int:
    c = 0xFFFF
    for b in data:
        c ^= b << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
    return c


class _DecoderByByte:
    """The deframer's definition: bytes kept up to MAX_ENC, each 00 ends a frame."""

    def __init__(self) -> None:
        self.buf, self.over, self.errors, self.frames, self.garbage = bytearray(), False, 0, 0, bytearray()

    def feed(self, data: bytes) -> list[P.Message]:
        out = []
        for b in data:
            if b:
                if len(self.buf) < P.MAX_ENC:
                    self.buf.append(b)
                else:
                    self.over = True
                continue
            raw, over = bytes(self.buf), self.over
            self.buf.clear()
            self.over = False
            if not over and not raw:
                continue
            try:
                if over:
                    raise P.ProtocolError("long")
                out.append(P.decode_body(P.cobs_decode(raw)))
                self.frames += 1
            except P.ProtocolError:
                self.errors += 1
                self.garbage = (self.garbage + raw)[-256:]
        return out


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=600),
                 st.lists(st.sampled_from([b"\x00", b"\x01", b"\xff" * 253, b"\x07" * 254, b"\x09" * 255]),
                          max_size=6).map(b"".join)))
def test_cobs_and_crc_match_their_byte_by_byte_definitions(data) -> None:
    assert P.cobs_encode(data) == _cobs_by_byte(data)
    assert P.cobs_decode(P.cobs_encode(data)) == data
    assert P.crc16(data) == _crc_by_bit(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(messages.map(P.encode), st.binary(max_size=60),
                          st.binary(max_size=60).map(lambda b: b"\x00" + b.replace(b"\x00", b"\x01")),
                          st.integers(P.MAX_ENC - 2, P.MAX_ENC + 2).map(lambda n: b"\x00" + b"\x05" * n)),
                max_size=8),
       st.integers(1, 50))
def test_the_decoder_splits_like_the_byte_by_byte_deframer(pieces, chunk) -> None:
    wire = b"".join(pieces)
    fast, slow = P.Decoder(), _DecoderByByte()
    got, want = [], []
    for i in range(0, len(wire), chunk):
        got += fast.feed(wire[i:i + chunk])
        want += slow.feed(wire[i:i + chunk])
    assert [m.to_json() for m in got] == [m.to_json() for m in want]
    assert (fast.errors, fast.frames, bytes(fast.garbage)) == (slow.errors, slow.frames, bytes(slow.garbage))


def test_strip_vectors_are_the_hubs_rendering() -> None:
    # extension 1: the hub renders each name with Noto Sans CJK (Pillow) into the strip the
    # pod blits; the vectors hold the bytes and rows both sides check (mp_vectors.py too)
    from hub.pods import glyphs

    try:
        glyphs.font_path()
    except glyphs.GlyphError as e:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(str(e))
    for sv in VECTORS["strips"]:
        w, data = glyphs.render(sv["text"])
        assert (w, data.hex()) == (sv["width"], sv["data"]), sv["text"]
        assert glyphs.to_rows(w, data) == sv["rows"]
        parts = glyphs.strip_messages(sv["prompt"], sv["slot"], sv["text"])
        frames = [f for f in VECTORS["frames"] if f["message"]["type"] == "strip"
                  and f["message"]["slot"] == sv["slot"]]
        assert [p["data"].hex() for p in parts] == [f["message"]["data"] for f in frames]
        assert b"".join(p["data"] for p in parts) == data and all(len(p["data"]) <= 32 for p in parts)


def test_a_busy_link_sends_no_heartbeat_and_an_idle_one_one_per_period() -> None:
    """Issue 36 (quiet when idle): a heartbeat is a ping after HEARTBEAT_MS of the hub's own
    silence on that link, never on a link carrying traffic. The clock is the test's: every
    millisecond is polled, as the links' thread would if it woke that often."""
    link = HubLink()
    link.feed(_hello(), 0)
    link.welcome(0, seat=1, mode="referee")
    link.take_output()
    frames: list[tuple[int, str]] = []
    pod_seq = 0
    for now in range(1, 6001):
        if now % 300 == 0:      # the table sends every 300 ms (< HEARTBEAT_MS)
            link.send("reveal", now, prompt=now // 300)
        if now % 200 == 0:      # the pod acks everything and says something of its own
            pod_seq = pod_seq % 255 + 1
            link.feed(P.encode(P.Message("answer", {"prompt": 1, "slot": 1}, pod_seq, link._tx_seq - 1)), now)
        out = link.poll(now)
        frames += [(now, m.type) for m in P.Decoder().feed(out)]
    assert link.up
    sent = [t for _, t in frames]
    assert sent.count("reveal") == 20
    # the pod's frames are acked by the table's next one or a ping after ACK_DELAY_MS; none
    # of those pings is a heartbeat (a heartbeat would come HEARTBEAT_MS after the last frame)
    last = 0
    for now, t in frames:
        assert now - last < P.HEARTBEAT_MS, (now, t)
        last = now
    # an idle link: the table sends nothing; the pod only pings (a heartbeat of its own)
    start = 6000
    frames.clear()
    for now in range(start + 1, start + 5001):
        if now % P.HEARTBEAT_MS == 0:
            link.feed(P.encode(P.Message("ping", {}, 0, link._tx_seq - 1)), now)
        out = link.poll(now)
        frames += [(now, m.type) for m in P.Decoder().feed(out)]
    assert [t for _, t in frames] == ["ping"] * len(frames)
    assert len(frames) == 5000 // P.HEARTBEAT_MS     # one per period of the hub's silence
    gaps = [b - a for (a, _), (b, _) in zip(frames, frames[1:])]
    assert set(gaps) == {P.HEARTBEAT_MS}
    # and a pod that falls silent is dead after DEAD_MS, not before
    quiet = start + 5000
    for now in range(quiet + 1, quiet + P.DEAD_MS):
        link.poll(now)
    assert link.up
    link.poll(quiet + P.DEAD_MS)
    assert not link.up
