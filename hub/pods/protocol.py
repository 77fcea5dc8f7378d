"""Pod <-> hub wire protocol, hub side (CPython).

The spec is docs/protocol.md. The pod has its own MicroPython implementation
(firmware/proto.py and firmware/link.py); both are checked against the same
test vectors, tests/vectors/protocol.json, so neither can drift alone.

Two layers:

* codec: ``encode(msg)`` -> wire bytes, ``Decoder.feed(data)`` -> messages.
  Frame = ``00 | COBS(type seq ack payload crc16) | 00``; CRC-16/CCITT-FALSE.
* ``HubLink``: one pod's reliable channel, sans-IO (the caller owns the serial
  port and the clock): sequence numbers, cumulative acks, go-back-N resend,
  duplicate suppression, heartbeats, dead-link detection, hello/welcome.
"""

from __future__ import annotations

import operator
import struct
import threading
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

# name -> (code, struct format, fields, sequenced, has text tail)
SCHEMA: dict[str, tuple[int, str, tuple[str, ...], bool, bool]] = {
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
}
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
        if SCHEMA[self.type][4]:
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

def payload_of(msg: Message) -> bytes:
    """A message's payload (its fields packed, then its text), checked: raises ProtocolError."""
    try:
        _, _, names, sequenced, has_text = SCHEMA[msg.type]
    except KeyError:
        raise ProtocolError(f"unknown message type {msg.type!r}") from None
    if sequenced != (msg.seq != 0) or not 0 <= msg.seq <= 255 or not 0 <= msg.ack <= 255:
        raise ProtocolError(f"{msg.type}: bad seq {msg.seq}")
    try:
        payload = _STRUCTS[msg.type].pack(*_FIELDS[msg.type](msg.fields)) if names else b""
    except (KeyError, struct.error) as e:
        raise ProtocolError(f"{msg.type}: {e}") from None
    if has_text:
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
    """Wire bytes of one frame (leading and trailing 00 included)."""
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
    text = payload[size:].decode("utf-8", "replace") if has_text else ""
    return Message(kind, dict(zip(names, values)), seq, ack, text)


# a good ping frame as received (COBS bytes) -> its message: most frames a pod sends are
# pings (acks and heartbeats), and there are 256 of them (the ack is all a ping says), so
# they are decoded once, here; these messages are shared, read them only
_PINGS_IN: dict[bytes, Message] = {}


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
        msg = _PINGS_IN.get(raw)
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


# --- reliable link ----------------------------------------------------------

_PINGS: dict[int, bytes] = {}  # ack value -> the ping frame carrying it (a ping is only its ack)


def _seq_next(s: int) -> int:
    return 1 if s >= 255 else s + 1


def _seq_le(a: int, b: int) -> bool:
    """a is at or before b in the 1..255 sequence space (window < 128)."""
    return (b - a) % 255 < 128


@dataclass
class PodInfo:
    board_id: str
    proto: int
    firmware: str
    boot: int
    epoch: int
    pixels: int
    features: int


class HubLink:
    """One pod's link, hub side, with no I/O of its own.

    Feed received bytes with ``feed(data, now_ms)``; it returns the pod's
    application messages (each applied once, in order). Queue messages with
    ``send(type, **fields)``. Call ``poll(now_ms)`` every few ms and write
    whatever bytes it returns (acks, resends, heartbeats). After a ``hello``
    is returned by feed, answer it with ``welcome(...)``: that (re)starts
    the sequence numbers on both ends.

    Each of those calls holds ``lock`` (the hub feeds a link and runs its timers on the
    pods' links thread and sends on it from the table's: hub/pods/io.py).
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.decoder = Decoder()
        self.pod: PodInfo | None = None
        self.up = False
        self._accepted: tuple[int, int] | None = None  # (boot, epoch) welcomed
        self._tx_seq = 1
        self._rx_expect = 1
        self._rx_last = 0  # last in-order seq received (our ack value)
        self._outbox: list[tuple[Message, bytes]] = []  # sent, not acked yet: (message, payload)
        self._out = bytearray()
        self._last_rx = 0
        self._last_tx = 0
        self._resend_at = 0
        self._ack_at: int | None = None  # when an owed ack goes out as a ping (None: none owed)
        self._welcome: Message | None = None
        self.resends = 0
        self.duplicates = 0
        self.frames_out = 0  # frames written (the decoder counts those received)
        self.last_state: dict[str, Any] | None = None  # the fields of the last state message sent
        self.all_acked = 0  # times the pod acked everything sent to it: it shows last_state
        self.repl_resets = 0  # soft resets sent to a pod found at the REPL
        self._repl_tail = b""
        self._repl_at: int | None = None
        self._repl_tries = 0
        self._safe_mode = False

    # -- receiving
    def feed(self, data: bytes, now_ms: int) -> list[Message]:
        # the lock taken and released by hand on the hot paths (feed, send, take_output):
        # a with statement looks up and binds __enter__ and __exit__ each time
        lock = self.lock
        lock.acquire()
        try:
            if self.up and type(data) is bytes:
                # most reads are one whole ping (an ack or a heartbeat) and nothing else
                ping = _PING_FRAMES.get(data)
                if ping is not None and not self.decoder._buf and not self.decoder._over:
                    self.decoder.frames += 1
                    self._last_rx = now_ms
                    if self._outbox:
                        self._on_ack(ping.ack, now_ms)
                    return []
            return self._feed_frames(data, now_ms)
        finally:
            lock.release()

    def _feed_frames(self, data: bytes, now_ms: int) -> list[Message]:
        """``feed`` under the lock: the frames in ``data``, deframed and decoded."""
        delivered: list[Message] = []
        if not self.up:
            self._watch_repl(data, now_ms)
        for msg in self.decoder.feed(data):
            self._last_rx = now_ms
            if msg.type == "hello":
                self._repl_tries = 0
                self._safe_mode = False
                delivered.extend(self._on_hello(msg, now_ms))
                continue
            if not self.up:
                continue
            if msg.ack and self._outbox:
                self._on_ack(msg.ack, now_ms)
            if msg.seq == 0:
                if msg.type == "log":
                    delivered.append(msg)
                continue
            if msg.seq == self._rx_expect:
                self._rx_last = msg.seq
                self._rx_expect = _seq_next(msg.seq)
                if not msg.type.startswith("unknown:"):
                    delivered.append(msg)
                    if self._ack_at is None:
                        self._ack_at = now_ms + ACK_DELAY_MS
                    continue
            else:
                self.duplicates += 1
            self._ack_at = now_ms
        return delivered

    def _watch_repl(self, data: bytes, now_ms: int) -> None:
        tail = self._repl_tail + data
        self._repl_tail = tail[-64:]  # a prompt may come split over two reads
        if REPL_SAFE_MODE in tail:
            self._safe_mode = True
        if self._safe_mode or not any(p in tail for p in REPL_PROMPTS) or self._repl_tries >= REPL_RESETS:
            return
        if self._repl_at is not None and now_ms - self._repl_at < REPL_RESET_MS:
            return
        self._out += REPL_RESET
        self._repl_at = now_ms
        self._repl_tries += 1
        self.repl_resets += 1
        self._repl_tail = b""

    def _on_hello(self, msg: Message, now_ms: int) -> list[Message]:
        f = msg.fields
        self.pod = PodInfo(
            board_id=f["board_id"].hex(),
            proto=f["proto"],
            firmware=f"{f['fw_major']}.{f['fw_minor']}.{f['fw_patch']}",
            boot=f["boot"],
            epoch=f["epoch"],
            pixels=f["pixels"],
            features=f["features"],
        )
        if self._accepted == (f["boot"], f["epoch"]) and self._welcome is not None:
            # the pod did not hear our welcome yet, or this hello crossed it:
            # say it again without restarting the sequence numbers
            self._emit(self._welcome, now_ms)
            return []
        self.up = False
        return [msg]

    def _on_ack(self, ack: int, now_ms: int) -> None:
        if ack == 0:
            return
        outbox = self._outbox
        if len(outbox) <= WINDOW and (ack - outbox[-1][0].seq) % 255 < 128:
            outbox.clear()  # _seq_le(the last seq, ack): all of it, the usual ack
        else:
            n = 0  # the outbox is in sequence order: what the ack covers is at its front
            for e in outbox:
                if (ack - e[0].seq) % 255 >= 128:  # not _seq_le(seq, ack)
                    break
                n += 1
            if not n:
                return
            del outbox[:n]
        self._resend_at = now_ms + RESEND_MS
        if not outbox:
            self.all_acked += 1

    # -- sending
    def welcome(self, now_ms: int, seat: int, mode: str | int, brightness: int = 0) -> None:
        """Accept the last hello: restart numbering, greet the pod."""
        with self.lock:
            self._welcome_now(now_ms, seat, mode, brightness)

    def _welcome_now(self, now_ms: int, seat: int, mode: str | int, brightness: int) -> None:
        if self.pod is None:
            raise ProtocolError("welcome before hello")
        mode_code = MODES[mode] if isinstance(mode, str) else mode
        self._accepted = (self.pod.boot, self.pod.epoch)
        self._tx_seq = 1
        self._rx_expect = 1
        self._rx_last = 0
        self._outbox.clear()
        self._welcome = Message(
            "welcome",
            {"proto": PROTO, "boot": self.pod.boot, "epoch": self.pod.epoch, "seat": seat,
             "mode": mode_code, "brightness": brightness},
        )
        self.up = True
        self._last_rx = now_ms
        self._emit(self._welcome, now_ms)

    def send(self, msg_type: str, now_ms: int, /, text: str = "", **fields: Any) -> Message:
        """Queue a sequenced message (sent now if the window has room)."""
        return self.send_fields(msg_type, now_ms, fields, text)

    def send_fields(self, msg_type: str, now_ms: int, fields: dict[str, Any], text: str = "") -> Message:
        """``send`` with the fields as a dict (kept as the message's: not to be changed after)."""
        code, _, names, sequenced, has_text = SCHEMA[msg_type]
        if not sequenced:
            raise ProtocolError(f"{msg_type} is not a sequenced message")
        payload = None
        if not has_text and not text:  # packed here, checked now, not at resend time; once
            try:
                payload = _STRUCTS[msg_type].pack(*_FIELDS[msg_type](fields)) if names else b""
            except (KeyError, struct.error) as e:
                raise ProtocolError(f"{msg_type}: {e}") from None
        lock = self.lock
        lock.acquire()
        try:
            seq = self._tx_seq
            msg = Message(msg_type, fields, seq, 0, text)
            if payload is None:
                payload = payload_of(msg)
            self._tx_seq = 1 if seq >= 255 else seq + 1
            self._outbox.append((msg, payload))
            if msg_type == "state":
                self.last_state = fields
            if self.up and len(self._outbox) <= WINDOW:
                msg.ack = ack = self._rx_last
                body = _HEADER(code, seq, ack) + payload  # frame(), inline: one a message
                body += _CRC(crc_hqx(body, 0xFFFF))
                if len(body) < 254:
                    blocks = body.split(b"\x00")
                    self._out += b"\x00" + b"".join(map(_CAT, map(_CODE_OF, map(len, blocks)), blocks)) + b"\x00"
                else:
                    self._out += frame(code, seq, ack, payload)
                self._last_tx = now_ms
                self._ack_at = None
                self.frames_out += 1
                self._resend_at = now_ms + RESEND_MS
        finally:
            lock.release()
        return msg

    def send_unsequenced(self, msg_type: str, now_ms: int, /, **fields: Any) -> None:
        with self.lock:
            self._emit(Message(msg_type, fields), now_ms)

    def _emit(self, msg: Message, now_ms: int, payload: bytes | None = None) -> None:
        msg.ack = self._rx_last
        self._out += frame(SCHEMA[msg.type][0], msg.seq, msg.ack, payload_of(msg) if payload is None else payload)
        self._last_tx = now_ms
        self._ack_at = None
        self.frames_out += 1

    def _emit_ping(self, now_ms: int) -> None:
        ack = self._rx_last
        wire = _PINGS.get(ack)
        if wire is None:
            wire = _PINGS[ack] = frame(0x00, 0, ack, b"")
        self._out += wire
        self._last_tx = now_ms
        self._ack_at = None
        self.frames_out += 1

    def poll(self, now_ms: int) -> bytes:
        """Timers: resend, ack, heartbeat, dead link. Returns bytes to write."""
        with self.lock:
            if self.up:
                if now_ms - self._last_rx >= DEAD_MS:
                    self.up = False  # the pod will hello again; keep our outbox
                    self._accepted = None
                else:
                    if self._outbox and now_ms >= self._resend_at:
                        for m, payload in self._outbox[:WINDOW]:
                            self._emit(m, now_ms, payload)
                            self.resends += 1
                        self._resend_at = now_ms + RESEND_MS
                    ack_at = self._ack_at
                    if (ack_at is not None and now_ms >= ack_at) or now_ms - self._last_tx >= HEARTBEAT_MS:
                        self._emit_ping(now_ms)
            if not self._out:
                return b""
            out = bytes(self._out)
            self._out.clear()
        return out

    def next_due(self) -> int | None:
        """When ``poll`` next has something to do (monotonic ms; 0 = now), None if nothing
        will be due until bytes arrive: lets the links' thread sleep until then. It only
        reads (no lock): whoever sends meanwhile wakes that thread, which asks again."""
        if self._out:
            return 0
        if not self.up:
            return None
        due = self._last_rx + DEAD_MS
        if self._last_tx + HEARTBEAT_MS < due:
            due = self._last_tx + HEARTBEAT_MS
        if self._outbox and self._resend_at < due:
            due = self._resend_at
        ack_at = self._ack_at
        if ack_at is not None and ack_at < due:
            due = ack_at
        return due

    def take_output(self) -> bytes:
        lock = self.lock
        lock.acquire()
        try:
            out = bytes(self._out)
            self._out.clear()
        finally:
            lock.release()
        return out

    def unsend(self, rest: bytes) -> None:
        """Put back the tail of what ``take_output`` gave that could not be written: it goes
        out first next time."""
        with self.lock:
            self._out[:0] = rest

    @property
    def unacked(self) -> int:
        return len(self._outbox)


_PING_FRAMES: dict[bytes, Message] = {}  # the same, by the whole frame as read (00 to 00)
for _ack in range(256):
    _PING_FRAMES[frame(0x00, 0, _ack, b"")] = _PINGS_IN[frame(0x00, 0, _ack, b"")[1:-1]] = \
        decode_body(cobs_decode(frame(0x00, 0, _ack, b"")[1:-1]))
