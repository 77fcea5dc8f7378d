# Protocol vectors, checked by the pod's own code under MicroPython:
# tests/vectors/protocol.json -> proto.Decoder / proto.encode / Link senders.
# heap: 128K  (the whole vectors file, 46 frames and the strips, is held as one JSON object)
import json
import os
import struct
import wirefmt
from mptest import run_tests
import proto
import link

V = json.load(open(os.getenv("LUMEN_VECTORS")))


def unhex(s):
    return bytes.fromhex(s)


def decode_all(wire):
    d = proto.Decoder()
    out = []
    for c in wire:
        if d.feed(c):
            out.append(bytes(d.body[:d.blen]).hex())
    return out, d.errors


def test_crc_check_values():
    for c in V["crc"]["check"]:
        data = unhex(c["data"])
        assert proto.crc16(data, len(data)) == int(c["crc"], 16), c


def test_cobs_known_answers():
    for c in V["cobs"]:
        raw = unhex(c["raw"])
        dst = bytearray(len(raw) + 8)
        n = proto.cobs_encode(raw, len(raw), dst, 0)
        assert bytes(dst[:n]).hex() == c["enc"], c["raw"][:20]
        enc = unhex(c["enc"])
        back = bytearray(len(raw) + 8)
        m = proto.cobs_decode(enc, len(enc), back)
        assert bytes(back[:m]) == raw


def test_every_frame_decodes_to_its_body():
    for f in V["frames"]:
        got, errors = decode_all(unhex(f["wire"]))
        assert errors == 0 and got == [f["body"]], f["name"]


def test_every_frame_encodes_to_its_wire():
    for f in V["frames"]:
        body = bytearray(unhex(f["body"]) + b"\0\0")
        out = bytearray(48)
        n = proto.encode(out, body, len(body) - 2)
        assert bytes(out[:n]).hex() == f["wire"], f["name"]


def test_streams_resync():
    for s in V["streams"]:
        got, errors = decode_all(unhex(s["wire"]))
        assert got == s["frames"], s["name"]
        assert errors == s["errors"], (s["name"], errors)


def test_payload_layouts_match_the_vectors():
    # field order and widths, as the pod unpacks them (harness tables mirror
    # what pod.py/link.py unpack; here they meet the hub's encoding)
    for f in V["frames"]:
        m = f["message"]
        body = unhex(f["body"])
        assert body[1] == m["seq"] and body[2] == m["ack"], f["name"]
        t = body[0]
        fmt = wirefmt.FMT.get(t) if t & 0x80 else wirefmt.POD_FMT.get(t)
        if t == 0x8F:
            fmt = ">H"
        size = struct.calcsize(fmt)
        vals = struct.unpack_from(fmt, body, 3) if size else ()
        names = f["fields"]  # (a MicroPython dict keeps no order)
        assert len(vals) == len(names), f["name"]
        for k, v in zip(names, vals):
            want = unhex(m[k]) if k == "board_id" else m[k]
            assert v == want, (f["name"], k, v, want)
        if "text" in m:
            assert body[3 + size:].decode() == m["text"]
        if "data" in m:
            assert body[3 + size:].hex() == m["data"], f["name"]


class Wire:
    def __init__(self):
        self.out = bytearray()

    def write(self, buf, n):
        self.out.extend(buf[:n])


def pod_link(boot, epoch):
    w = Wire()
    lk = link.Link(w, (1, 0, 4, 0, unhex("e6605838834b2a26"), 12, 14), boot, 0)
    lk.epoch = epoch
    return lk, w


def test_pod_senders_produce_the_vector_bytes():
    # the frames the pod itself sends, made by the real Link code
    for f in V["frames"]:
        m = f["message"]
        if f["dir"] != "pod->hub":
            continue
        t = m["type"]
        lk, w = pod_link(m.get("boot", 1), m.get("epoch", 1))
        if t == "hello":
            h = lk.hello
            lk.hello = (m["proto"], m["fw_major"], m["fw_minor"], m["fw_patch"], h[4], m["pixels"], m["features"])
            lk.send_hello(0)
        elif t == "ping":
            lk.up = True
            lk.rx_last = m["ack"]
            lk.need_ack = True
            lk.flush(0)
        elif t == "log":
            lk.rx_last = m["ack"]
            lk.send_log(m["code"], m["text"].encode(), 0)
        else:
            lk.up = True
            lk.rx_last = m["ack"]
            lk.tx_seq = m["seq"]
            code = {"ready": 2, "answer": 3, "expired": 4, "adjust": 5, "claim": 6, "ready_at": 8, "test": 9}[t]
            a = m.get("prompt", m.get("what", m.get("part", 0)))
            b = m.get("slot", m.get("result", m.get("value", 0)))
            c = m.get("age", m.get("value", 0)) if code >= 8 else 0
            lk.queue(code, a, b, 0, c)
        assert bytes(w.out).hex() == f["wire"], (f["name"], bytes(w.out).hex())


def test_strip_frames_assemble_to_the_hubs_rendering():
    # extension 1: the strip frames of each name, fed to the pod's own Strips,
    # give the bitmap the hub rendered, row for row, through framebuf
    import framebuf
    import screen

    for sv in V["strips"]:
        st = screen.Strips()
        d = proto.Decoder()
        for f in V["frames"]:
            if f["message"]["type"] == "strip" and f["message"]["slot"] == sv["slot"]:
                for c in unhex(f["wire"]):
                    if d.feed(c):
                        st.put(d.body, d.blen)
        fb = st.get(sv["prompt"], sv["slot"])
        assert fb is not None, sv["text"]
        w = sv["width"]
        assert bytes(st.buf[sv["slot"]][:2 * w]).hex() == sv["data"], sv["text"]
        for y in range(16):
            row = "".join("#" if fb.pixel(x, y) else "." for x in range(w))
            assert row == sv["rows"][y], (sv["text"], y, row)
        assert st.get(sv["prompt"] + 1, sv["slot"]) is None  # another prompt's name is not this one
    _ = framebuf


run_tests(globals())
