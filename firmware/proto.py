# Wire format, pod side. docs/protocol.md is the spec; hub/pods/protocol.py is the
# hub's independent implementation; tests/vectors/protocol.json binds both.
#
# frame on the wire:  00 | COBS(type seq ack payload crc16) | 00
# COBS removes every 00 from the body, so a 00 always means "frame boundary":
# after garbage, a REPL print or a cut frame the receiver resyncs at the next 00.
#
# Every code on the wire is named here: message types, the values of
# docs/protocol.md's tables, the hello's feature bits, the self-test's parts
# and results. The names follow hub/pods/protocol.py (T_ + its SCHEMA name,
# OUT_ + OUTCOMES, NOTE_ + NOTICES, PART_ + TEST_PARTS, ...).
# A module that needs a code repeats it as a private const with the same name
# ("_T_READY = const(0x02)  # proto.py"): MicroPython folds a private const
# into the bytecode, so it costs no RAM and no lookup, where a public one (or
# proto.T_READY) costs a global, an interned name and a dict lookup at each
# use (+2.6 KB of heap on the unix port for these). tests/firmware/test_codes.py
# checks that every copy equals this one, that no module makes up a code of
# its own, and that this table equals the hub's and docs/protocol.md's.
from micropython import const
from array import array

PROTO = 1
EXT = 1  # the protocol extension this firmware speaks (hello features bit 32)

# message types (docs/protocol.md section 3; extension 1: section 11)
_T_PING = const(0x00)
_T_HELLO = const(0x01)
_T_READY = const(0x02)
_T_ANSWER = const(0x03)
_T_EXPIRED = const(0x04)
_T_ADJUST = const(0x05)
_T_CLAIM = const(0x06)
_T_LOG = const(0x07)
_T_READY_AT = const(0x08)
_T_TEST = const(0x09)
_T_WELCOME = const(0x81)
_T_STATE = const(0x82)
_T_COUNTDOWN = const(0x83)
_T_REVEAL = const(0x84)
_T_RESULT = const(0x85)
_T_NOTICE = const(0x86)
_T_SETUP = const(0x87)
_T_LABEL = const(0x88)
_T_EXT = const(0x89)
_T_STRIP = const(0x8A)
_T_SELFTEST = const(0x8B)
_T_SERVICE = const(0x8F)
_SERVICE_MAGIC = const(0x5AFE)
_LOG_RECOVERED = const(1)  # log.code: a recovered error

# features bits of the hello
_FEATURE_OLED = const(1)
_FEATURE_VIBE = const(2)
_FEATURE_PIEZO = const(4)
_FEATURE_SIM = const(8)
_FEATURE_OLED64 = const(16)  # the OLED has 64 rows (else 32)
_FEATURE_EXT = const(32)  # speaks extension 1
_FEATURE_MARKS = const(64)  # its self-test shows the orientation marks (selftest 2-4)

# values (docs/protocol.md "Values")
_MODE_TRACKER = const(2)  # welcome/setup mode (1 referee)
_KIND_NONE = const(0)  # state.kind
_KIND_READY = const(1)
_STATE_FLAG_PASS = const(1)  # state.flags
_STATE_FLAG_LOCKED = const(2)
_ADJUST_HP_ADD = const(0)  # adjust.what
_ADJUST_FP_ADD = const(1)
_ADJUST_FP_SET = const(2)
# result.outcome: 1-4 this pod won the exchange, 5-8 lost it, 9-13 neither
_OUT_HIT = const(1)
_OUT_COUNTER = const(2)
_OUT_GUARD = const(3)
_OUT_EVADE = const(4)
_OUT_GUARDED = const(5)
_OUT_EVADED = const(6)
_OUT_COUNTERED = const(7)
_OUT_WAS_HIT = const(8)
_OUT_TRADE = const(9)
_OUT_OFFSET = const(10)
_OUT_BOTH_DEFEND = const(11)
_OUT_BOTH_EVADE = const(12)
_OUT_NON_RESPONSE = const(13)
# notice.code
_NOTE_OPPONENT_LINK_LOST = const(1)
_NOTE_OPPONENT_LINK_OK = const(2)
_NOTE_WIN = const(3)
_NOTE_LOSE = const(4)
_NOTE_DRAW = const(5)
_NOTE_NON_RESPONSE = const(6)
_NOTE_SUDDEN_DEATH = const(7)
_NOTE_PAUSED = const(8)
_NOTE_RESUMED = const(9)

# the self-test's test.part and test.result (section 11)
_PART_RING = const(1)
_PART_PIEZO = const(2)
_PART_MOTOR = const(3)
_PART_OLED = const(4)
_PART_PREV = const(5)  # the buttons: _PART_PREV + button (buttons.py _BTN_PREV .. _BTN_BACK)
_PART_NEXT = const(6)
_PART_READY = const(7)
_PART_BACK = const(8)
_RES_PENDING = const(0)  # (never sent)
_RES_OK = const(1)  # seen working by the pod itself (a press and its release, the OLED acked)
_RES_SHOWN = const(2)  # played or lit: the builder's eyes and ears judge
_RES_FAILED = const(3)
_RES_ABSENT = const(4)  # not in the pin map
# the selftest message's action (section 11)
_SELFTEST_STOP = const(0)
_SELFTEST_START = const(1)
_SELFTEST_MARK_TOP = const(2)  # light pixel 0 alone: where 12 o'clock is
_SELFTEST_MARK_RIGHT = const(3)  # light the pixel a quarter on alone: 3 o'clock, the ring's direction
_SELFTEST_MARKS_OFF = const(4)
_MAX_BODY = const(42)  # header 3 + payload <= 37 + crc 2
_MAX_ENC = const(44)  # COBS adds one byte per 254, plus one
_MAX_TEXT = const(32)

# Fixed payload size per type, indexed by (t & 0x0F) | (0x10 if t & 0x80):
# 0xFF = unknown type (a newer peer's message: acked if sequenced, then ignored).
# 0x08, 0x09, 0x89-0x8B: extension 1 (docs/protocol.md section 11)
_SIZES = b"\x00\x11\x02\x02\x01\x03\x00\x01\x03\x03\xff\xff\xff\xff\xff\xff" \
    b"\xff\x07\x0a\x03\x01\x04\x02\x03\x02\x01\x04\x01\xff\xff\xff\x02"
_SEQUENCED = b"\x02\x03\x04\x05\x06\x08\x09\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b"
_TEXT = b"\x07\x88\x8a"  # a tail (UTF-8 text, or a strip's bytes: up to _MAX_TEXT) follows the fixed part

# CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection): a 512-byte
# table made once, so the per-byte cost is one lookup.
def _table():
    t = array("H", bytes(512))
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


_CRC = _table()


def crc16(buf, n):
    c = 0xFFFF
    t = _CRC
    for i in range(n):
        c = ((c << 8) & 0xFFFF) ^ t[(c >> 8) ^ buf[i]]
    return c


def cobs_encode(src, n, dst, d0):
    # src[0:n] -> dst from index d0; returns the index after the last byte
    code_at = d0
    o = d0 + 1
    code = 1
    for i in range(n):
        b = src[i]
        if b:
            dst[o] = b
            o += 1
            code += 1
            if code < 0xFF:
                continue
        dst[code_at] = code
        code_at = o
        o += 1
        code = 1
    dst[code_at] = code
    return o


def cobs_decode(src, n, dst):
    # decoded length, or -1 if src[0:n] is not valid COBS
    i = 0
    o = 0
    lim = len(dst)
    while i < n:
        code = src[i]
        end = i + code
        if code == 0 or end > n or o + code > lim:
            return -1
        i += 1
        while i < end:
            dst[o] = src[i]
            o += 1
            i += 1
        if code != 0xFF and i < n:
            dst[o] = 0
            o += 1
    return o


class Decoder:
    # Byte-at-a-time deframer. feed() returns True when body[0:blen] holds a
    # frame whose CRC and shape are good (crc stripped).
    def __init__(self):
        self.enc = bytearray(_MAX_ENC)
        self.n = 0
        self.over = False
        self.body = bytearray(_MAX_BODY + 2)
        self.blen = 0
        self.errors = 0
        self.frames = 0
        self.got = False

    def feed_from(self, src, i, n):
        # Bytes src[i:n] up to and including the end of the next frame;
        # returns the index after the last byte taken. got: a frame is in
        # body[0:blen]. One tight loop per pass, not a call per byte.
        enc = self.enc
        k = self.n
        self.got = False
        while i < n:
            c = src[i]
            i += 1
            if c:
                if k < _MAX_ENC:
                    enc[k] = c
                    k += 1
                else:
                    self.over = True
                continue
            self.n = k
            if self.feed(0):
                self.got = True
                return i
            k = 0
        self.n = k
        return i

    def feed(self, c):
        if c:
            if self.n < _MAX_ENC:
                self.enc[self.n] = c
                self.n += 1
            else:
                self.over = True
            return False
        n = self.n
        self.n = 0
        if n == 0 and not self.over:
            return False  # idle 00 between frames
        b = self.body
        m = -1 if self.over else cobs_decode(self.enc, n, b) - 2
        self.over = False
        if m >= 3 and crc16(b, m) == (b[m] << 8) | b[m + 1]:
            t = b[0]
            pl = m - 3
            size = _SIZES[(t & 0x0F) | (0x10 if t & 0x80 else 0)]
            if t & 0x70 or size == 0xFF:
                ok = True  # a type from a newer peer
            elif (t in _SEQUENCED) != (b[1] != 0):
                ok = False
            elif t in _TEXT:
                ok = size <= pl <= size + _MAX_TEXT
            else:
                ok = pl == size
            if ok:
                self.blen = m
                self.frames += 1
                return True
        self.errors += 1
        return False

    def tool_request(self):
        # mpremote and other REPL tools open with b"\r\x03" ... b"\r\x01"
        # (Ctrl-C, then Ctrl-A for the raw REPL) and never send 00: a pending
        # candidate that ends in \r\x01 and contains \r\x03.
        n = self.n
        e = self.enc
        if n < 4 or e[n - 2] != 13 or e[n - 1] != 1:
            return False
        for i in range(n - 3):
            if e[i] == 13 and e[i + 1] == 3:
                return True
        return False


def encode(buf, body, blen):
    # body[0:blen] = header + payload (crc appended in place; body needs 2
    # spare bytes) -> wire bytes in buf; returns their count
    c = crc16(body, blen)
    body[blen] = c >> 8
    body[blen + 1] = c & 0xFF
    buf[0] = 0
    o = cobs_encode(body, blen + 2, buf, 1)
    buf[o] = 0
    return o + 1
