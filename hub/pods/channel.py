"""One pod's reliable channel, hub side (CPython), over the codec of hub/pods/protocol.py.

``HubLink`` is sans-IO (the caller owns the serial port and the clock): sequence numbers,
cumulative acks, go-back-N resend, duplicate suppression, heartbeats, dead-link detection,
hello/welcome. The spec is docs/protocol.md; the pod's side is firmware/link.py.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from hub.pods.protocol import (ACK_DELAY_MS, DEAD_MS, HEARTBEAT_MS, MODES, PROTO, REPL_PROMPTS, REPL_RESET,
                               REPL_RESET_MS, REPL_RESETS, REPL_SAFE_MODE, RESEND_MS, SCHEMA, WINDOW, Decoder,
                               PINGS, Message, ProtocolError, frame, pack_fields, payload_of)


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
    pods' links thread and sends on it from the table's: hub/pods/link_thread.py).
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
                ping = PINGS.by_frame.get(data)
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
        if self.rewelcome(f["boot"], f["epoch"], now_ms):
            return []       # the pod did not hear our welcome yet, or this hello crossed it
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
            # messages queued past the window go out now that it has room (not a
            # resend period later: a pod's OLED names come in runs of frames)
            for m, payload in outbox[WINDOW - n if WINDOW > n else 0:WINDOW]:
                if self.up:
                    self._emit(m, now_ms, payload)
        self._resend_at = now_ms + RESEND_MS
        if not outbox:
            self.all_acked += 1

    def rewelcome(self, boot: int, epoch: int, now_ms: int) -> bool:
        """A hello of the handshake this link already welcomed (it crossed our welcome as
        ``feed`` reads it, or waited in the table's inbox while the hub was slow): say the
        welcome again without restarting the numbering. The pod ignores a second welcome
        while its link is up and goes on numbering; restarting ours would make each side
        drop the other's frames as repeats. True if it was that."""
        with self.lock:
            if self._welcome is None or self._accepted != (boot, epoch):
                return False
            self._emit(self._welcome, now_ms)
            return True

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
        code, _, _, sequenced, has_text = SCHEMA[msg_type]
        if not sequenced:
            raise ProtocolError(f"{msg_type} is not a sequenced message")
        payload = None
        if not has_text and not text:  # packed here, checked now, not at resend time; once
            payload = pack_fields(msg_type, fields)
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
                self._out += frame(code, seq, ack, payload)
                self._last_tx = now_ms
                self._ack_at = None
                self.frames_out += 1
                self._resend_at = now_ms + RESEND_MS
        finally:
            lock.release()
        return msg

    def _emit(self, msg: Message, now_ms: int, payload: bytes | None = None) -> None:
        msg.ack = self._rx_last
        self._out += frame(SCHEMA[msg.type][0], msg.seq, msg.ack, payload_of(msg) if payload is None else payload)
        self._last_tx = now_ms
        self._ack_at = None
        self.frames_out += 1

    def _emit_ping(self, now_ms: int) -> None:
        self._out += PINGS.wire[self._rx_last]
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

    @property
    def has_output(self) -> bool:
        """Bytes are waiting to be written (read without the lock: a hint for PodHub.flush)."""
        return bool(self._out)
