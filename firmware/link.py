# The pod's end of the reliable link (docs/protocol.md): hello/welcome,
# sequence numbers with cumulative acks, go-back-N resend, duplicate
# suppression, heartbeats and dead-link detection. No I/O of its own: bytes
# come in through rx_frame() once proto.Decoder has a frame, frames go out
# through port.write(buf, n).
from micropython import const
import struct
import clock
import proto as P

# proto.py's codes (private copies: tests/firmware/test_codes.py)
_T_PING = const(0x00)
_T_HELLO = const(0x01)
_T_READY = const(0x02)
_T_EXPIRED = const(0x04)
_T_ADJUST = const(0x05)
_T_CLAIM = const(0x06)
_T_LOG = const(0x07)
_T_READY_AT = const(0x08)
_T_TEST = const(0x09)
_T_WELCOME = const(0x81)
_T_SERVICE = const(0x8F)
_MAX_BODY = const(42)

_MAX_ENC = const(44)
_MAX_TEXT = const(32)
_HEARTBEAT_MS = const(500)
_DEAD_MS = const(1500)
_RESEND_MS = const(250)
_HELLO_MS = const(500)
_WINDOW = const(8)
_KEEP_N = const(12)  # pod decisions kept while the link is down
_KEEP_W = const(4)  # room per kept payload (adjust: 3 bytes)


def _next(s):
    return 1 if s >= 255 else s + 1


class Link:
    def __init__(self, port, hello, boot, now):
        self.port = port
        self.hello = hello  # (proto, fw major, minor, patch, board_id, pixels, features)
        self.boot = boot  # random per power-up: the hub tells a reboot from a re-link
        self.epoch = 1  # +1 per handshake: a stale welcome is not taken for a new one
        self.dec = P.Decoder()
        self.tx = bytearray(_MAX_ENC + 2)
        self.body = bytearray(_MAX_BODY + 2)
        self.o_t = bytearray(_KEEP_N)
        self.o_s = bytearray(_KEEP_N)
        self.o_len = bytearray(_KEEP_N)
        self.o_p = bytearray(_KEEP_N * _KEEP_W)
        self.o_head = 0
        self.o_n = 0
        self.up = False
        self.ever_up = False
        self.tx_seq = 1
        self.rx_expect = 1
        self.rx_last = 0
        self.last_rx = now
        self.last_tx = now
        self.resend_at = now
        self.hello_at = now
        self.need_ack = False
        self.welcome = (0, 0, 0, 0, 0, 0)  # values of the accepted welcome
        self.sent = 0  # figures for tests and the bench
        self.resent = 0
        self.dups = 0
        self.dropped = 0

    def _emit(self, t, seq, src, off, plen, now):
        b = self.body
        b[0] = t
        b[1] = seq
        b[2] = self.rx_last
        for i in range(plen):
            b[3 + i] = src[off + i]
        n = P.encode(self.tx, b, 3 + plen)
        try:
            self.port.write(self.tx, n)
        except OSError:
            pass  # host gone: the dead-link timer takes over
        self.last_tx = now
        self.need_ack = False
        self.sent += 1

    def send_hello(self, now):
        h = self.hello
        struct.pack_into(">BBBBHB8sBB", self.body, 23, h[0], h[1], h[2], h[3],
                         self.boot, self.epoch, h[4], h[5], h[6])
        self._emit(_T_HELLO, 0, self.body, 23, 17, now)
        self.hello_at = now

    def send_log(self, code, text, now):
        # best effort, unsequenced: a recovered error for the hub's log
        tmp = bytes((code,)) + text[:_MAX_TEXT]
        self._emit(_T_LOG, 0, tmp, 0, len(tmp), now)

    def queue(self, t, a, b, now, c=0):
        # A pod decision: kept until acked, across link losses (renumbered on
        # the next welcome). Payload packed by type; nothing allocated.
        if self.o_n == _KEEP_N:
            self.o_head = (self.o_head + 1) % _KEEP_N  # oldest goes, counted
            self.o_n -= 1
            self.dropped += 1
        k = (self.o_head + self.o_n) % _KEEP_N
        p = self.o_p
        o = k * _KEEP_W
        p[o] = a
        if t == _T_ADJUST:
            p[o + 1] = b >> 8 & 0xFF
            p[o + 2] = b & 0xFF
            ln = 3
        elif t == _T_READY_AT or t == _T_TEST:
            p[o + 1] = b
            p[o + 2] = c
            ln = 3
        else:
            p[o + 1] = b
            ln = 0 if t == _T_CLAIM else 1 if t == _T_EXPIRED else 2
        self.o_t[k] = t
        self.o_len[k] = ln
        self.o_s[k] = self.tx_seq
        self.tx_seq = _next(self.tx_seq)
        self.o_n += 1
        if self.up and self.o_n <= _WINDOW:
            self._emit(t, self.o_s[k], p, o, ln, now)
            self.resend_at = clock.add(now, _RESEND_MS)

    def _resend(self, now):
        for j in range(self.o_n if self.o_n < _WINDOW else _WINDOW):
            k = (self.o_head + j) % _KEEP_N
            self._emit(self.o_t[k], self.o_s[k], self.o_p, k * _KEEP_W, self.o_len[k], now)
            self.resent += 1
        self.resend_at = clock.add(now, _RESEND_MS)

    def rx_frame(self, now):
        # The frame now in dec.body: link bookkeeping. Returns the type of an
        # application message (to be applied once), or -1.
        b = self.dec.body
        t = b[0]
        self.last_rx = now
        if t == _T_WELCOME:
            return self._welcome(b, now)
        if t == _T_SERVICE:
            return t
        if not self.up:
            return -1
        ack = b[2]
        if ack:
            n = self.o_n
            # cumulative: everything up to and including ack is in
            while self.o_n and (ack - self.o_s[self.o_head]) % 255 < 128:
                self.o_head = (self.o_head + 1) % _KEEP_N
                self.o_n -= 1
            if self.o_n != n:
                self.resend_at = clock.add(now, _RESEND_MS)
        if b[1] == 0:
            return -1  # ping
        self.need_ack = True
        if b[1] != self.rx_expect:
            self.dups += 1  # a resend we already applied, or one past a gap
            return -1
        self.rx_last = b[1]
        self.rx_expect = _next(b[1])
        return t

    def _welcome(self, b, now):
        v = struct.unpack_from(">BHBBBB", b, 3)
        if v[1] != self.boot or v[2] != self.epoch or self.up:
            return -1  # meant for an earlier hello, or a repeat of ours
        self.welcome = v
        self.up = True
        self.ever_up = True
        self.rx_expect = 1
        self.rx_last = 0
        # decisions made while the link was down go out first, renumbered; a
        # timed ready as a plain one (this hub may not speak the extension)
        s = 1
        for j in range(self.o_n):
            k = (self.o_head + j) % _KEEP_N
            self.o_s[k] = s
            if self.o_t[k] == _T_READY_AT:
                self.o_t[k] = _T_READY
                self.o_len[k] = 2
            s = _next(s)
        self.tx_seq = s
        if self.o_n:
            self._resend(now)
        return _T_WELCOME

    def poll(self, now):
        # Timers. Returns True when the link has just been declared dead.
        if not self.up:
            if clock.diff(now, self.hello_at) >= _HELLO_MS:
                self.send_hello(now)
            return False
        if clock.diff(now, self.last_rx) >= _DEAD_MS:
            self.up = False
            self.epoch = self.epoch % 255 + 1
            self.send_hello(now)
            return True
        if self.o_n and clock.diff(now, self.resend_at) >= 0:
            self._resend(now)
        if self.need_ack or clock.diff(now, self.last_tx) >= _HEARTBEAT_MS:
            self._emit(_T_PING, 0, self.body, 0, 0, now)
        return False

    def flush(self, now):
        # ack what just arrived without waiting for the next frame tick
        if self.need_ack and self.up:
            self._emit(_T_PING, 0, self.body, 0, 0, now)

    def until_due(self, now):
        # ms until poll() has something to do
        if not self.up:
            return _HELLO_MS - clock.diff(now, self.hello_at)
        d = _HEARTBEAT_MS - clock.diff(now, self.last_tx)
        if self.o_n:
            r = clock.diff(self.resend_at, now)
            if r < d:
                d = r
        return d
