"""Pod <-> hub wire protocol, hub side (CPython).

The spec is docs/protocol.md. The pod has its own MicroPython implementation
(firmware/proto.py and firmware/link.py); both are checked against the same
test vectors, tests/vectors/protocol.json, so neither can drift alone.

Two layers:

* codec: ``encode(msg)`` -> wire bytes, ``Decoder.feed(data)`` -> messages.
  Frame = ``00 | COBS(type seq ack payload crc16) | 00``; CRC-16/CCITT-FALSE.
* ``HubLink`` (hub/pods/channel.py): one pod's reliable channel over this codec.

The link's timings (``HEARTBEAT_MS``, ``RESEND_MS``, ...) are part of the spec and stay here.
"""

from __future__ import annotations

import operator
import struct
from binascii import crc_hqx
from dataclasses import dataclass, field
from typing import Any

PROTO = 1
MAX_TEXT = 32
MAX_ENC = 44  # longest COBS-encoded body the pod accepts

HEARTBEAT_MS = 500  # send a ping when nothing else was sent for this long
DEAD_MS = 1500  # nothing valid received for this long -> link lost
RESEND_MS = 250  # unacked sequenced messages are resent after this
# a pod's message is acked by the next frame the hub sends (the table answers every one
# with a state push), or by a ping if none went out within this: well inside the pod's
# RESEND_MS, so it never resends for want of an ack. A duplicate is acked at once.
ACK_DELAY_MS = 60
WINDOW = 8  # at most this many unacked sequenced messages in flight
SERVICE_MAGIC = 0x5AFE
# A pod at the MicroPython REPL (after a crash, or a Ctrl-C that got through)
# prints a prompt instead of hellos, and a frame means nothing to a REPL: the
# hub types Ctrl-C twice (stop what runs), Ctrl-B (leave the raw REPL) and
# Ctrl-D (soft reset), and main.py starts the firmware again. Not when the pod
# said it is in safe mode (kept at the REPL on purpose, for flashing), at most
# every REPL_RESET_MS, and at most REPL_RESETS times until a hello comes.
REPL_PROMPTS = (b">>> ", b"raw REPL; CTRL-B to exit")
REPL_SAFE_MODE = b"safe mode, REPL free"
REPL_RESET = b"\r\x03\x03\x02\x04"
REPL_RESET_MS = 5000
REPL_RESETS = 3

# name -> (code, struct format, fields, sequenced, tail: False none, True UTF-8 text,
# BYTES a binary tail in fields["data"])
BYTES = 2
SCHEMA: dict[str, tuple[int, str, tuple[str, ...], bool, int]] = {
    "ping": (0x00, "", (), False, False),
    "hello": (
        0x01,
        ">BBBBHB8sBB",
        ("proto", "fw_major", "fw_minor", "fw_patch", "boot", "epoch", "board_id", "pixels", "features"),
        False,
        False,
    ),
    "ready": (0x02, ">BB", ("prompt", "slot"), True, False),
    "answer": (0x03, ">BB", ("prompt", "slot"), True, False),
    "expired": (0x04, ">B", ("prompt",), True, False),
    "adjust": (0x05, ">Bh", ("what", "value"), True, False),
    "claim": (0x06, "", (), True, False),
    "log": (0x07, ">B", ("code",), False, True),
    "welcome": (0x81, ">BHBBBB", ("proto", "boot", "epoch", "seat", "mode", "brightness"), False, False),
    "state": (
        0x82,
        ">BBBBBBbHB",
        ("prompt", "kind", "options", "flags", "locked", "priority", "fp", "hp", "hand"),
        True,
        False,
    ),
    "countdown": (0x83, ">BH", ("prompt", "ms"), True, False),
    "reveal": (0x84, ">B", ("prompt",), True, False),
    "result": (0x85, ">Bbh", ("outcome", "fp_delta", "hp_delta"), True, False),
    "notice": (0x86, ">BB", ("code", "arg"), True, False),
    "setup": (0x87, ">BBB", ("seat", "mode", "brightness"), True, False),
    "label": (0x88, ">BB", ("prompt", "slot"), True, True),
    "service": (0x8F, ">H", ("magic",), False, False),
    # extension 1 (docs/protocol.md section 11): a pod says it speaks it in its hello
    # (features & FEATURE_EXT), the hub in an `ext` message after its welcome
    "ready_at": (0x08, ">BBB", ("prompt", "slot", "age"), True, False),
    "test": (0x09, ">BBB", ("part", "result", "value"), True, False),
    "ext": (0x89, ">B", ("version",), True, False),
    "strip": (0x8A, ">BBBB", ("prompt", "slot", "width", "part"), True, BYTES),
    "selftest": (0x8B, ">B", ("action",), True, False),
}
EXT = 1  # the extension this hub speaks
BY_CODE = {v[0]: k for k, v in SCHEMA.items()}
_STRUCTS = {k: struct.Struct(v[1]) for k, v in SCHEMA.items()}
# a message's field values in its struct's order (a tuple also for one field)
_FIELDS = {k: (operator.itemgetter(*v[2]) if len(v[2]) > 1 else (lambda f, n=v[2]: (f[n[0]],) if n else ()))
           for k, v in SCHEMA.items()}
_HEADER = struct.Struct(">BBB").pack
_CRC = struct.Struct(">H").pack
POD_TO_HUB = frozenset(k for k, v in SCHEMA.items() if v[0] < 0x80)

# value tables (docs/protocol.md "Values")
MODES = {"unknown": 0, "referee": 1, "tracker": 2}
PROMPT_KINDS = {
    "none": 0, "ready": 1, "pick": 2, "get": 3, "combo": 4, "catch": 5,
    "nullify": 6, "replenish": 7, "discard": 8, "choose": 9,
}
OUTCOMES = {
    "none": 0, "hit": 1, "counter": 2, "guard": 3, "evade": 4, "guarded": 5, "evaded": 6,
    "countered": 7, "was_hit": 8, "trade": 9, "offset": 10, "both_defend": 11, "both_evade": 12,
    "non_response": 13,
}
NOTICES = {
    "opponent_link_lost": 1, "opponent_link_ok": 2, "win": 3, "lose": 4, "draw": 5,
    "non_response": 6, "sudden_death": 7, "paused": 8, "resumed": 9,
}
ADJUST = {"hp_add": 0, "fp_add": 1, "fp_set": 2}
STATE_FLAG_PASS = 1  # the prompt accepts "pass" (answer slot 0)
STATE_FLAG_LOCKED = 2  # this pod's answer to this prompt is already in
FEATURE_OLED, FEATURE_VIBE, FEATURE_PIEZO, FEATURE_SIM = 1, 2, 4, 8
FEATURE_OLED64 = 16  # the OLED has 64 rows (else 32)
FEATURE_EXT = 32  # the pod speaks extension 1
FEATURE_MARKS = 64  # its self-test shows the orientation marks (`selftest` 2-4)
# self-test parts and results (the `test` message)
TEST_PARTS = {"ring": 1, "piezo": 2, "motor": 3, "oled": 4, "prev": 5, "next": 6, "ready": 7, "back": 8}
TEST_RESULTS = {"pending": 0, "ok": 1, "shown": 2, "failed": 3, "absent": 4}
# the `selftest` message's action
SELFTEST_ACTIONS = {"stop": 0, "start": 1, "mark_top": 2, "mark_right": 3, "marks_off": 4}


class ProtocolError(ValueError):
    pass


@dataclass
class Message:
    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    seq: int = 0
    ack: int = 0
    text: str = ""

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "seq": self.seq, "ack": self.ack}
        for k, v in self.fields.items():
            out[k] = v.hex() if isinstance(v, bytes) else v
        if SCHEMA[self.type][4] is True:
            out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Message:
        kind = d["type"]
        names = SCHEMA[kind][2]
        fields = {}
        for n in names:
            v = d[n]
            fields[n] = bytes.fromhex(v) if n == "board_id" else v
        if SCHEMA[kind][4] == BYTES:
            fields["data"] = bytes.fromhex(d["data"])
        return cls(kind, fields, d.get("seq", 0), d.get("ack", 0), d.get("text", ""))


# --- CRC and COBS -----------------------------------------------------------
# Both run once per frame each way, so they are C-speed operations: binascii's crc_hqx
# is CRC-16/CCITT with a given init value, and COBS splits the body at its zero bytes.
# The bytes are the same as the byte-by-byte definitions (tests/firmware/test_protocol.py
# checks both against the shared vectors and against those definitions).

def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no xorout."""
    return crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    blocks = bytes(data).split(b"\x00")
    if len(data) < 254:  # every frame: no block can be full; each block after its code, at C speed
        return b"".join(map(_CAT, map(_CODE_OF, map(len, blocks)), blocks))
    out = bytearray()
    for block in blocks:
        # a run of 254 non-zero bytes is a full block (code 255), which stands for no zero
        while len(block) >= 254:
            out.append(255)
            out += block[:254]
            block = block[254:]
        out.append(len(block) + 1)
        out += block
    return bytes(out)


_CODE = [bytes((n + 1,)) for n in range(254)]  # a block's code byte, by its length
_CODE_OF = _CODE.__getitem__
_CAT = bytes.__add__


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            raise ProtocolError("bad COBS")
        out += data[i + 1 : i + code]
        i += code
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- messages ---------------------------------------------------------------

def pack_fields(msg_type: str, fields: dict[str, Any]) -> bytes:
    """A message type's fields packed in their order (its payload without the text):
    raises ProtocolError for a missing field or a value out of range."""
    if not SCHEMA[msg_type][2]:
        return b""
    try:
        return _STRUCTS[msg_type].pack(*_FIELDS[msg_type](fields))
    except (KeyError, struct.error) as e:
        raise ProtocolError(f"{msg_type}: {e}") from None


def payload_of(msg: Message) -> bytes:
    """A message's payload (its fields packed, then its text), checked: raises ProtocolError."""
    try:
        _, _, names, sequenced, has_text = SCHEMA[msg.type]
    except KeyError:
        raise ProtocolError(f"unknown message type {msg.type!r}") from None
    if sequenced != (msg.seq != 0) or not 0 <= msg.seq <= 255 or not 0 <= msg.ack <= 255:
        raise ProtocolError(f"{msg.type}: bad seq {msg.seq}")
    payload = pack_fields(msg.type, msg.fields)
    if has_text == BYTES:
        data = bytes(msg.fields.get("data", b""))
        if len(data) > MAX_TEXT or msg.text:
            raise ProtocolError(f"{msg.type}: {len(data)} bytes of data, at most {MAX_TEXT}")
        payload += data
    elif has_text:
        t = msg.text.encode("utf-8")[:MAX_TEXT]
        while True:  # never cut a UTF-8 sequence in half
            try:
                t.decode("utf-8")
                break
            except UnicodeDecodeError:
                t = t[:-1]
        payload += t
    elif msg.text:
        raise ProtocolError(f"{msg.type} carries no text")
    return payload


def frame(code: int, seq: int, ack: int, payload: bytes) -> bytes:
    """Wire bytes of one frame (leading and trailing 00 included): the one frame builder
    (messages, resends and pings all go through it)."""
    body = _HEADER(code, seq, ack) + payload
    body += _CRC(crc_hqx(body, 0xFFFF))
    if len(body) < 254:  # cobs_encode's every-frame case, inline (a frame is built per message)
        blocks = body.split(b"\x00")
        return b"\x00" + b"".join(map(_CAT, map(_CODE_OF, map(len, blocks)), blocks)) + b"\x00"
    return b"\x00" + cobs_encode(body) + b"\x00"


def encode(msg: Message) -> bytes:
    """One message -> wire bytes (leading and trailing 00 included)."""
    payload = payload_of(msg)
    return frame(SCHEMA[msg.type][0], msg.seq, msg.ack, payload)


def decode_body(body: bytes) -> Message:
    """COBS-decoded frame (crc included) -> Message; raises ProtocolError."""
    if len(body) < 5:
        raise ProtocolError("short frame")
    if crc_hqx(body[:-2], 0xFFFF) != int.from_bytes(body[-2:], "big"):  # crc16(), inline
        raise ProtocolError("bad CRC")
    code, seq, ack = body[0], body[1], body[2]
    payload = body[3:-2]
    kind = BY_CODE.get(code)
    if kind is None:
        # unknown type: kept so a sequenced one can be acked, then ignored
        return Message(f"unknown:{code:#04x}", {"raw": payload.hex()}, seq, ack)
    _, fmt, names, sequenced, has_text = SCHEMA[kind]
    if sequenced != (seq != 0):
        raise ProtocolError(f"{kind}: bad seq {seq}")
    unpack = _STRUCTS[kind]
    size = unpack.size
    if len(payload) < size or (not has_text and len(payload) != size) or len(payload) > size + MAX_TEXT:
        raise ProtocolError(f"{kind}: bad length {len(payload)}")
    values = unpack.unpack(payload[:size]) if fmt else ()
    if has_text == BYTES:
        fields = dict(zip(names, values))
        fields["data"] = payload[size:]
        return Message(kind, fields, seq, ack)
    text = payload[size:].decode("utf-8", "replace") if has_text else ""
    return Message(kind, dict(zip(names, values)), seq, ack, text)


class Pings:
    """Every ping frame, built and decoded once: most frames either side sends are pings
    (acks and heartbeats), and there are 256 of them (the ack is all a ping says). The
    messages are shared: read them only. Nothing invalidates it (the wire format is fixed).

    ``wire[ack]``: the frame as sent (00 to 00); ``by_body``: its COBS bytes (what the
    decoder sees between two 00s) -> the message; ``by_frame``: the whole frame -> the
    message (a read that is one whole ping)."""

    def __init__(self) -> None:
        self.wire = [frame(0x00, 0, ack, b"") for ack in range(256)]
        self.by_body = {w[1:-1]: decode_body(cobs_decode(w[1:-1])) for w in self.wire}
        self.by_frame = {w: self.by_body[w[1:-1]] for w in self.wire}


class Decoder:
    """Stream deframer: feed any bytes, get whole good messages back.

    Garbage, REPL output, cut frames and bad CRCs are counted in ``errors``
    and skipped; decoding restarts at the next 00.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._over = False
        self.errors = 0
        self.frames = 0
        self.garbage = bytearray()  # last rejected bytes, for logs (bounded)

    def feed(self, data: bytes) -> list[Message]:
        if (type(data) is bytes and not self._buf and not self._over and 2 < len(data) <= MAX_ENC + 2
                and data[0] == 0 and data[-1] == 0 and data.count(0) == 2):
            # the usual read: one whole frame, 00 to 00 (what the general path below does with it)
            msg = self._message(data[1:-1])
            return [] if msg is None else [msg]
        out: list[Message] = []
        # each 00 ends a frame: split at them (C speed) instead of looking at every byte
        parts = bytes(data).split(b"\x00")
        tail = parts.pop()
        for part in parts:
            if self._buf:
                seg = bytes(self._buf) + part
                self._buf.clear()
            else:
                seg = part
            # the pod's buffer: at most MAX_ENC bytes kept, a longer frame is rejected
            over = self._over or len(seg) > MAX_ENC
            self._over = False
            raw = seg[:MAX_ENC]
            if over:
                self._reject(raw)
                continue
            if not raw:
                continue
            msg = self._message(raw)
            if msg is not None:
                out.append(msg)
        if tail:
            room = MAX_ENC - len(self._buf)
            if len(tail) > room:
                self._over = True
            if room > 0:
                self._buf += tail[:room]
        return out

    def _message(self, raw: bytes) -> "Message | None":
        """One frame's bytes (between two 00) as a message; None, counted, if they are not one."""
        msg = PINGS.by_body.get(raw)
        if msg is None:
            try:
                msg = decode_body(cobs_decode(raw))
            except ProtocolError:
                self._reject(raw)
                return None
        self.frames += 1
        return msg

    def _reject(self, raw: bytes) -> None:
        self.errors += 1
        self.garbage = (self.garbage + raw)[-256:]


PINGS = Pings()
